/*
 * Run bookkeeping, the write side: a run row is created before the child
 * starts (its id names runs/<id>/), gets its environment, warnings and files,
 * and is finished with the child's status. `pttrace import` (issue 6) creates
 * runs with source "import" the same way. Reading is query.h's job.
 */
#ifndef PT_RUNS_H
#define PT_RUNS_H

#include <stdint.h>

#include "db.h"
#include "schema.h"

/* The schema part "core" (core_schema.c). */
extern const struct schema_part core_part;

/* What is known when a run starts; NULL fields are stored as NULL. */
struct run_info {
	const char *name;	/* --name; must be unique (checked by runs_create) */
	const char *tag;
	const char *source;	/* "run" or "import" */
	char *const *argv;	/* the command as executed */
	int argc;
	const char *cwd;
	const char *host;
	const char *python;
	const char *logs_spec;	/* TORCH_LOGS as given to the child, NULL: unset */
	int dispatch;		/* TORCH_SHOW_DISPATCH_TRACE set */
	int trace;		/* TORCH_TRACE into runs/<id>/trace */
	int64_t started_us;	/* UTC microseconds */
	long tz_offset_s;	/* UTC offset at start, east positive */
};

/* How it ended. */
enum run_status { RUN_RUNNING, RUN_EXITED, RUN_SIGNALED, RUN_FAILED, RUN_LOST };

/* "running", "exited", ... as stored in runs.status. */
const char *run_status_name(enum run_status st);

/*
 * Insert the run (status "running") and create its directory. A name already
 * used, or one that parses as a number or "last", is refused (it would make
 * RUN ambiguous). Returns 0 and *run_id, or -1 (diag).
 */
int runs_create(struct db *ix, const struct run_info *ri, int64_t *run_id);

/* Record one environment variable the child got. */
int runs_add_env(struct db *ix, int64_t run_id, const char *name, const char *value);

/* Append a warning (code: stable key, message: the sentence shown). */
int runs_add_warning(struct db *ix, int64_t run_id, const char *code, const char *message);

/* Record (or update the size of) a file in the run directory; path relative to it. */
int runs_add_file(struct db *ix, int64_t run_id, const char *path, const char *role,
		  int64_t bytes);

/* What the child turned out to be (NULL/-1 where unknown). */
int runs_set_torch(struct db *ix, int64_t run_id, const char *version, int debug,
		   const char *build_type);

int runs_set_pid(struct db *ix, int64_t run_id, int64_t pid);

/*
 * Finish: status, exit code (RUN_EXITED) or signal (RUN_SIGNALED), end
 * time and the spooled sizes.
 */
int runs_finish(struct db *ix, int64_t run_id, enum run_status st, int code,
		int64_t ended_us, int64_t bytes_stdout, int64_t bytes_stderr);

/*
 * Runs still "running" whose recording pttrace (same host) is gone become
 * "lost": their raw output is kept and `pttrace reindex` indexes it. Returns
 * how many were marked, or -1 (diag).
 */
int runs_mark_lost(struct db *ix);

/* Delete the run's rows (every table cascades from runs) and its directory. */
int runs_delete(struct db *ix, int64_t run_id);

/* After deletions: VACUUM when free pages are more than a quarter of the file. 0 or -1. */
int runs_compact(struct db *ix);

#endif
