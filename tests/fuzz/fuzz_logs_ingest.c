/* fuzz-links: pttrace_lib */
/*
 * libFuzzer target: the indexer of a run's output (logs_ingest) over arbitrary
 * stdout and stderr: TORCH_LOGS records, dispatcher trace lines
 * (TORCH_SHOW_DISPATCH_TRACE: nesting, calls torn across lines and streams),
 * C++ warnings, Python tracebacks, grouped into records in a real database.
 * The input is cut into pieces at each 0x01 byte; pieces alternate between
 * stdout and stderr, so lines are split and interleaved as a live run's are.
 * Afterwards every line must be in exactly one record (logs_ingest.h).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_db.h"
#include "logs_ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pt_diag *d;
	int64_t run;
	struct db *ix = fuzz_db(&run, &d);
	struct logs_ingest *ig = logs_ingest_new(ix, run, 1795315638000000, 3600);
	const uint8_t *p = data, *end = data + size;
	uint64_t lines = 0, in_records = 0;
	int stream = 2;

	if (!ig)
		__builtin_trap();
	while (p < end) {
		const uint8_t *cut = memchr(p, 0x01, (size_t)(end - p));
		size_t n = cut ? (size_t)(cut - p) : (size_t)(end - p);

		if (logs_ingest_feed(ig, stream, p, n) < 0)
			__builtin_trap();
		stream = 3 - stream;
		p += n + (cut != NULL);
	}
	if (logs_ingest_finish(ig) < 0)
		__builtin_trap();
	for (int k = 0; k < LOGS_NKINDS; k++)
		lines += logs_ingest_get_stats(ig)->lines[k];
	logs_ingest_free(ig);
	{
		struct db_stmt *s = db_prepare(ix, "SELECT coalesce(sum(nlines), 0) FROM records WHERE run_id = ?");

		if (!s || db_bind(s, "i", run) < 0 || db_step(s) != 1)
			__builtin_trap();
		in_records = (uint64_t)db_col_int(s, 0);
		db_reset(s);
	}
	if (in_records != lines)
		__builtin_trap();	/* a line lost or counted twice */
	return 0;
}
