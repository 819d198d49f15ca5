/*
 * `pttrace run`'s pipeline as one module: the run row, the child's
 * environment (runenv.h) and the torch probe, the child under capture
 * (capture.h, spool.h) while a second thread with its own connection indexes
 * the spool (logs_ingest.h), then the run's files, the TORCH_TRACE files
 * (tt_ingest.h) and how the run ended. Nothing here prints: messages go to
 * the caller's hooks at the moment the CLI should show them.
 */
#ifndef PT_RECORD_H
#define PT_RECORD_H

#include <stdint.h>

#include "capture.h"
#include "corefind.h"
#include "db.h"
#include "diag.h"
#include "logs_ingest.h"
#include "runenv.h"

struct record_opts {
	char **argv;		/* the child's command, NULL-terminated */
	int argc;
	const char *python;	/* the interpreter to probe for torch, or NULL */
	const struct torch_probe *probe;	/* python already probed (runenv_pick_python), or NULL */
	const char *logs;	/* --logs, NULL: the caller's TORCH_LOGS or the default */
	const char *name, *tag;	/* --name, --tag (may be NULL) */
	int dispatch;		/* TORCH_SHOW_DISPATCH_TRACE=1 */
	int trace;		/* TORCH_TRACE=<run dir>/trace */
	int echo;		/* copy the child's output to ours as it comes; 2: both streams to our stderr */
	int core;		/* --core: the child's core size limit raised to the hard limit */
};

/*
 * Where messages go while the run goes on (the CLI prints them; both may be
 * NULL). warn: a warning about the run, already stored with it (run_warnings).
 * flush: the diagnostics so far, to be shown now; the hook leaves d as it
 * likes, record_run clears it afterwards.
 */
struct record_hooks {
	void (*warn)(void *ctx, const char *code, const char *msg);
	void (*flush)(void *ctx, struct pt_diag *d);
	void *ctx;
};

struct record_result {
	int64_t run_id;			/* -1 when no run row was made */
	int started;			/* the child ran */
	int exec_errno;			/* when it could not be started: ENOENT, EACCES, ... */
	struct capture_result res;	/* how it ended */
	struct logs_ingest_stats stats;	/* what the line parsers made of its output */
	int indexed;			/* everything indexed (else `pttrace reindex`) */
	int output_lost;		/* errno of the failed write of the raw output; 0: all kept */
	uint64_t lost_bytes;		/* bytes the child wrote after that (passed through only) */
	double child_seconds, index_seconds, index_cpu_seconds, lag_seconds;
	/*
	 * Killed by a signal that dumps core (r->res.code): where the core went
	 * (corefind.h), also kept in the run's run_crash row. Freed by
	 * record_result_release.
	 */
	int crashed;
	struct corefind_result crash;
	/* Its first crash record in the index: summary, innermost Python frame (NULL, -1: none). */
	char *crash_what, *crash_file;
	int64_t crash_line;
};

void record_result_release(struct record_result *r);

/*
 * Run o->argv as a new run of ix and index everything it writes. Returns 0
 * when the child ran (its status is in r->res, even when indexing failed:
 * r->indexed), or -1 when it could not be started or the run not recorded
 * (r->exec_errno, diag). Messages left in diag at the end are the caller's
 * to show. Either way the caller calls record_result_release.
 */
int record_run(struct db *ix, const struct record_opts *o, const struct record_hooks *h,
	       struct record_result *r, struct pt_diag *diag);

#endif
