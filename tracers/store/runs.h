/*
 * Run bookkeeping, the write side: a run row is created before the child
 * starts (its id names runs/<id>/), gets its environment, warnings and files,
 * and is finished with the child's status. `pttrace import` creates
 * runs with source "import" the same way. Resolving RUN (runs_resolve) and
 * reading rows back (runs_load, runs_query.c) are here too.
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

/* How a crash ended the run and where its core went (a run_crash row). 0 or -1. */
struct run_crash {
	int signal, core_dumped;
	int64_t core_limit;		/* -1 unlimited */
	const char *core_pattern, *core_path, *core_note, *gdb;	/* may be NULL but core_note */
};
int runs_set_crash(struct db *ix, int64_t run_id, const struct run_crash *c);

/* Record (or update the size of) a file in the run directory; path relative to it. */
int runs_add_file(struct db *ix, int64_t run_id, const char *path, const char *role,
		  int64_t bytes);

/* What the child turned out to be (NULL/-1 where unknown). */
int runs_set_torch(struct db *ix, int64_t run_id, const char *version, int debug,
		   const char *build_type);

/* TORCH_LOGS as the child got it (known once its environment is built). 0 or -1. */
int runs_set_logs_spec(struct db *ix, int64_t run_id, const char *logs_spec);

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

/*
 * 1 when the pttrace that records a run (its pttrace_pid, host and
 * started_us) is gone: on this host, no process has that pid, or the one
 * that has it started after the run did (the pid was reused). 0 when it may
 * still run (alive, or on another host).
 */
int runs_recorder_gone(int64_t pid, const char *host, int64_t started_us);

/* Delete the run's rows (every table cascades from runs) and its directory. */
int runs_delete(struct db *ix, int64_t run_id);

/*
 * Resolve RUN: all digits = an id; "last" = the run started last (highest
 * id); otherwise a name. Returns 0 and *run_id, or -1 with "no run 'x'" (or
 * an SQL error) in the index's diag.
 */
int runs_resolve(struct db *ix, const char *spec, int64_t *run_id);

/* 1 when name can be a run name: not empty, not all digits, not "last". */
int runs_name_ok(const char *name);

/* 1 found (*run_id set), 0 no such name, -1 error. */
int runs_find_by_name(struct db *ix, const char *name, int64_t *run_id);

/* One runs row; strings are owned by the struct (runs_row_release). */
struct run_row {
	int64_t id;
	char *name, *tag, *source, *argv_json, *cwd, *host, *python;
	char *torch_version, *torch_build_type, *logs_spec, *status, *pttrace_version;
	int64_t torch_debug;	/* -1 unknown */
	int dispatch, trace;
	int64_t started_us, ended_us;	/* ended_us -1 while running */
	int64_t tz_offset_s, pid, pttrace_pid;	/* pids -1 unknown */
	int64_t exit_code, signal;	/* -1 when not applicable */
	int64_t bytes_stdout, bytes_stderr;
};

/* 0, or -1 (diag: "no run N"). */
int runs_load(struct db *ix, int64_t run_id, struct run_row *r);
void runs_row_release(struct run_row *r);

/*
 * `pttrace ls`: every run, oldest (lowest id) first. Here and in
 * runs_show_load a "running" run whose recorder is gone
 * (runs_recorder_gone) has status "lost", as a writing command stores it.
 */
struct run_list {
	struct run_row *v;
	size_t n;
};
/* 0, or -1 (the index's diag). */
int runs_list(struct db *ix, struct run_list *out);
void runs_list_release(struct run_list *l);

/* The rows `pttrace show` adds to the runs row, each in its table's order. */
struct run_env_var {
	char *name, *value;
};
struct run_warning {
	char *code, *message;
};
struct run_file_row {
	char *path, *role;
	int64_t bytes;	/* -1 unknown */
};
struct run_part_row {
	char *part, *state;
	int64_t version;
};
/* The run_crash row as read back (struct run_crash is the one written). */
struct run_crash_row {
	int64_t signal, core_dumped, core_limit;	/* core_limit -1 unlimited */
	int core_limit_null;	/* core_limit is NULL */
	char *core_pattern, *core_path, *core_note, *gdb;	/* NULL when NULL */
};

/*
 * One run as `pttrace show` starts it: the runs row, its duration, env (by
 * name), warnings (in order), files (by path), indexed (run_parts, by part)
 * and the crash row. Strings and arrays are owned (runs_show_release).
 */
struct run_show {
	struct run_row run;
	char **argv;		/* run.argv_json's strings (a non-string element: NULL) */
	size_t argc;
	int has_duration;	/* ended_us known */
	double duration_s;
	struct run_env_var *env;
	size_t n_env;
	struct run_warning *warnings;
	size_t n_warnings;
	struct run_file_row *files;
	size_t n_files;
	struct run_part_row *indexed;
	size_t n_indexed;
	struct run_crash_row *crash;	/* NULL: no run_crash row */
};

/* 0, or -1 (the index's diag; "no run N" when there is none). */
int runs_show_load(struct db *ix, int64_t id, struct run_show *out);
void runs_show_release(struct run_show *s);

/* After deletions: VACUUM when free pages are more than a quarter of the file. 0 or -1. */
int runs_compact(struct db *ix);

#endif
