/*
 * tlparse's output tree from the index (`pttrace artifact --out`): the files
 * tlparse 0.4.3 writes for the payloads of a TORCH_TRACE file, at the paths
 * and with the numbers it gives them (src/lib.rs parse_path, src/parsers.rs
 * default_parsers, in its -p plain-text mode), so that scripts written
 * against a tlparse output directory work on it.
 *
 * Per file (one process): DIR itself when the run has one file with
 * records, else DIR/rank_<R>/ (tlparse --all-ranks-html), or DIR/<file name
 * without .log>/ for a file whose rank is missing or shared with another
 * file. In each tree:
 *  - <ca>_<frame>_<compile>_<attempt>/<name>_<N>.<ext> per payload, "-" for
 *    a missing part (records without compile id: -_-_-_-/), the parts as the
 *    record wrote them (a runtime record without attempt: -_0_0_-/);
 *  - N counts tlparse's outputs of that file from 0 in record order, as
 *    tlparse does: link records and the *_readable.html page of a provenance
 *    stack-trace artifact take a number too, so the numbers are tlparse's;
 *  - tlparse's pages rendered from a record are written as the JSON they are
 *    rendered from, under the same name with .json: compilation_metrics_<N>,
 *    dynamo_guards_<N> (its payload), bwd_compilation_metrics_<N>,
 *    aot_autograd_backward_compilation_metrics_<N>, symbolic_guard_information_<N>
 *    (--export); dump_file/ holds the dumped sources as .txt;
 *  - payloads/<md5>.txt for a payload no parser takes, chromium_events.json;
 *  - compile_directory.json: {"[0/0]": {"artifacts": [{url, name, number,
 *    suffix (cache marker), readable_url}]}} for the files written and the
 *    links, keys as tlparse writes them ("[-/-]" without compile id, a
 *    missing attempt folded into 0), sorted, two-space indented.
 * As tlparse does, a file's records of another rank than its first ranked
 * record are left out, and so are records tlparse cannot read (a stack frame
 * whose file is -1).
 * Differences, on purpose: payloads are written byte for byte as logged
 * (tlparse re-indents JSON artifacts; their md5 then no longer matches), the
 * pages above are JSON instead of HTML, names are sanitised ('/' becomes '_')
 * so that no record can write outside DIR, and index.html,
 * failures_and_restarts.html, raw.log and raw.jsonl are not written, nor the
 * multi-rank landing page's JSON files (tt_ranks_load has their data).
 */
#ifndef PT_TT_TLPARSE_H
#define PT_TT_TLPARSE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "compileid.h"
#include "diag.h"
#include "db.h"

struct tt_tlparse_opts {
	const struct compileid *cid;	/* only this compile's files (NULL: all) */
	const char *what;		/* only this kind or artifact name (NULL: all) */
	int64_t rank;			/* only files of this rank (-1: all) */
	int export_mode;		/* tlparse -e: exported_program files and the
					 * guard pages' numbers only; no compile_directory.json */
};

struct tt_tlparse_stats {
	uint64_t files;		/* payload files written */
	uint64_t links;		/* link records listed */
	uint64_t trees;		/* tlparse trees (one per file with records) */
};

/*
 * Write the tree into out through common/outdir.h: a new private directory
 * beside it, files created new, no link followed, renamed into out's place at
 * the end (missing parents are made). out must be missing, or a directory of
 * the caller's that is empty or an earlier tree (compile_directory.json in it
 * or one of its folders; from --export, only compile-id folders): replaced whole.
 * Nothing is made when no file of the run is selected.
 * 0, or -1 (diag: out refused, a database error, or a file that cannot be
 * written: the others are still written and put in place).
 */
int tt_tlparse_write(struct db *ix, int64_t run_id, const char *out,
			const struct tt_tlparse_opts *o, struct tt_tlparse_stats *st,
			struct pt_diag *diag);

/*
 * tlparse's file name before its number for one record (exposed for tests):
 * "dynamo_output_graph.txt", "inductor_output_code_cxyz.txt", "fx_graph_cache_miss.json".
 * kind of output: 'p' a payload file, 'h' an HTML page tlparse renders (written as
 * the record's metadata), 'j' one it renders from the payload (written as the
 * payload: dynamo_guards), 'l' a link, 'g' a global page (dump_file/<name>.html),
 * 0 none. Returns the kind. Unless 'p', tlparse also writes the payload to
 * payloads/<md5>.txt.
 */
int tt_tlparse_output(const char *kind, json_t *meta, const char *payload, size_t len,
			 char *name, size_t n);
/* The same for tlparse -e (export): -1 also for a record it skips after its parsers. */
int tt_tlparse_output_export(const char *kind, json_t *meta, char *name, size_t n);

/* tlparse's compile_directory.json key: CompileId's Display ("[0/0]", "[0/0_1]", "[!0/1/0]", "[-/-]"). */
void tt_tlparse_key(const struct compileid *c, char *out, size_t n);
/* tlparse's directory: as_directory_name of the id as written, "-" for a missing part. */
void tt_tlparse_dir(const struct compileid *c, char *out, size_t n);

#endif
