/* fuzz-links: pttrace_lib */
/*
 * libFuzzer target: `pttrace import`'s path for one TORCH_TRACE file, bytes to
 * index: the file is written into the run's trace/ folder and indexed
 * (tt_ingest_file: envelopes, payload grouping and md5 rules, payloads
 * deduplicated by md5 across records, compile ids, ranks, `str` tables),
 * then the run's processes are numbered (tt_processes_check) and its
 * compiles read back (tt_compiles_load). Re-indexing the same path replaces
 * the previous input's rows, so the database stays small.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fuzz_db.h"
#include "render_compiles.h"
#include "rundir.h"
#include "tt_ingest.h"
#include "tt_query.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_diag *d;
	int64_t run;
	struct db *ix = fuzz_db(&run, &d);
	char *dir = rundir_path(ix, run), *tdir = pt_xasprintf("%s/trace", dir);
	char *path = pt_xasprintf("%s/dedicated_log_torch_trace_rank_0_fuzz.log", tdir);
	struct tt_ingest_totals tot = { 0 };
	FILE *f;

	mkdir(tdir, 0700);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	if (tt_ingest_file(ix, run, "trace/dedicated_log_torch_trace_rank_0_fuzz.log", 0, d, &tot) < 0 ||
	    tt_processes_check(ix, run, d) < 0)
		__builtin_trap();	/* bad input is a warning, never a failure */
	if (tot.bytes != size)
		__builtin_trap();
	{
		struct tt_compiles c;

		if (tt_compiles_load(ix, run, -1, &c) < 0)
			__builtin_trap();
		json_decref(render_compiles_json(&c));
		tt_compiles_release(&c);
	}
	free(path);
	free(tdir);
	free(dir);
	return 0;
}
