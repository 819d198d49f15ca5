/* Run rows; see runs.h. */
#include "runs.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonout.h"
#include "rundir.h"
#include "strbuf.h"
#include "version.h"
#include "db_json.h"
#include "xalloc.h"



const char *run_status_name(enum run_status st)
{
	static const char *const names[] = { "running", "exited", "signaled", "failed", "lost" };

	return (unsigned)st < PT_ARRAY_SIZE(names) ? names[st] : "unknown";
}

int runs_create(struct db *ix, const struct run_info *ri, int64_t *run_id)
{
	static const char sql[] =
		"INSERT INTO runs(id, name, tag, source, argv, cwd, host, python, logs_spec, dispatch,"
		" trace, started_us, tz_offset_s, status, pttrace_version, pttrace_pid)"
		" VALUES (max(coalesce((SELECT max(last) FROM run_id_seq), 0), coalesce((SELECT max(id) FROM runs), 0)) + 1,"
		" ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 'running', ?13, ?14)";
	static const char seq_sql[] =
		"DELETE FROM run_id_seq; INSERT INTO run_id_seq(last) SELECT max(id) FROM runs;";
	struct db_stmt *s;
	json_t *a = json_array();
	char *argv_json = NULL;
	int rc = -1;

	if (ri->name && !runs_name_ok(ri->name)) {
		pt_diag_add(db_diag(ix), PT_SEV_ERROR, NULL, NULL,
			    "run name '%s' would be ambiguous: use letters, not a number or 'last'",
			    ri->name);
		goto out;
	}
	if (ri->name) {
		int64_t other;
		struct pt_diag quiet;

		pt_diag_init(&quiet);
		if (runs_find_by_name(ix, ri->name, &other) == 1) {
			pt_diag_add(db_diag(ix), PT_SEV_ERROR, NULL, NULL,
				    "run name '%s' is taken by run %lld", ri->name, (long long)other);
			pt_diag_release(&quiet);
			goto out;
		}
		pt_diag_release(&quiet);
	}
	for (int i = 0; i < ri->argc; i++)
		json_array_append_new(a, pt_json_str(ri->argv[i]));
	argv_json = json_dumps(a, JSON_COMPACT);
	s = db_prepare(ix, sql);
	if (!s || db_run(s, "ttttttttiiiiti", ri->name, ri->tag, ri->source ? ri->source : "run",
			    argv_json, ri->cwd, ri->host, ri->python, ri->logs_spec,
			    (int64_t)ri->dispatch, (int64_t)ri->trace, ri->started_us,
			    (int64_t)ri->tz_offset_s, PT_VERSION, (int64_t)getpid()) < 0)
		goto out;
	*run_id = db_last_rowid(ix);
	/* Ids are never given twice: a deleted run's id stays taken. */
	if (db_exec(ix, seq_sql) < 0)
		goto out;
	if (rundir_make(ix, *run_id) < 0)
		goto out;
	rc = 0;
out:
	free(argv_json);
	json_decref(a);
	return rc;
}

int runs_add_env(struct db *ix, int64_t run_id, const char *name, const char *value)
{
	struct db_stmt *s = db_prepare(
		ix, "INSERT OR REPLACE INTO run_env(run_id, name, value) VALUES (?1, ?2, ?3)");

	return s ? db_run(s, "itt", run_id, name, value) : -1;
}

int runs_add_warning(struct db *ix, int64_t run_id, const char *code, const char *message)
{
	struct db_stmt *s = db_prepare(
		ix, "INSERT INTO run_warnings(run_id, seq, code, message) VALUES (?1,"
		    " (SELECT COUNT(*) FROM run_warnings WHERE run_id = ?1), ?2, ?3)");

	return s ? db_run(s, "itt", run_id, code, message) : -1;
}

int runs_set_crash(struct db *ix, int64_t run_id, const struct run_crash *c)
{
	struct db_stmt *s = db_prepare(
		ix, "INSERT OR REPLACE INTO run_crash(run_id, signal, core_dumped, core_limit,"
		    " core_pattern, core_path, core_note, gdb) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");

	return s ? db_run(s, "iiiitttt", run_id, (int64_t)c->signal, (int64_t)c->core_dumped,
			  c->core_limit, c->core_pattern, c->core_path, c->core_note, c->gdb)
		 : -1;
}

int runs_add_file(struct db *ix, int64_t run_id, const char *path, const char *role,
		  int64_t bytes)
{
	struct db_stmt *s = db_prepare(
		ix, "INSERT OR REPLACE INTO run_files(run_id, path, role, bytes) VALUES (?1, ?2, ?3, ?4)");

	return s ? db_run(s, "ittI", run_id, path, role, bytes) : -1;
}

int runs_set_torch(struct db *ix, int64_t run_id, const char *version, int debug,
		   const char *build_type)
{
	struct db_stmt *s = db_prepare(
		ix, "UPDATE runs SET torch_version = ?2, torch_debug = ?3, torch_build_type = ?4"
		    " WHERE id = ?1");

	return s ? db_run(s, "itIt", run_id, version, (int64_t)debug, build_type) : -1;
}

int runs_set_logs_spec(struct db *ix, int64_t run_id, const char *logs_spec)
{
	struct db_stmt *s = db_prepare(ix, "UPDATE runs SET logs_spec = ?2 WHERE id = ?1");

	return s ? db_run(s, "it", run_id, logs_spec) : -1;
}

int runs_set_pid(struct db *ix, int64_t run_id, int64_t pid)
{
	struct db_stmt *s = db_prepare(ix, "UPDATE runs SET pid = ?2 WHERE id = ?1");

	return s ? db_run(s, "ii", run_id, pid) : -1;
}

int runs_finish(struct db *ix, int64_t run_id, enum run_status st, int code,
		int64_t ended_us, int64_t bytes_stdout, int64_t bytes_stderr)
{
	struct db_stmt *s = db_prepare(
		ix, "UPDATE runs SET status = ?2, exit_code = ?3, signal = ?4, ended_us = ?5,"
		    " bytes_stdout = ?6, bytes_stderr = ?7 WHERE id = ?1");

	if (!s)
		return -1;
	return db_run(s, "itIIiii", run_id, run_status_name(st),
			 st == RUN_EXITED ? (int64_t)code : (int64_t)-1,
			 st == RUN_SIGNALED ? (int64_t)code : (int64_t)-1, ended_us, bytes_stdout,
			 bytes_stderr);
}

int runs_compact(struct db *ix)
{
	struct db_stmt *s = db_prepare(ix, "SELECT freelist_count, page_count FROM pragma_freelist_count,"
					      " pragma_page_count");
	int64_t free_pages, pages;

	if (!s || db_step(s) != 1)
		return -1;
	free_pages = db_col_int(s, 0);
	pages = db_col_int(s, 1);
	db_reset(s);
	/* Deleted runs leave free pages: give them back when they are a quarter of the file. */
	return free_pages * 4 > pages ? db_exec(ix, "VACUUM") : 0;
}

int runs_delete(struct db *ix, int64_t run_id)
{
	struct db_stmt *s = db_prepare(ix, "DELETE FROM runs WHERE id = ?1");

	if (!s || db_run(s, "i", run_id) < 0)
		return -1;
	return rundir_remove(ix, run_id);
}

/* When the process pid started, in UTC seconds (/proc), or -1 when unknown. */
static double proc_start_s(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks = 0, btime = 0;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;
	int field = 2;

	pt_fmt_trunc(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ..." where comm may hold spaces and ')': fields after the last ')'. */
	if (!(p = strrchr(buf, ')')))
		return -1;
	for (p++; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field != 22 || sscanf(p, "%llu", &ticks) != 1)
		return -1;
	if (!(f = fopen("/proc/stat", "r")))
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	if (!btime || hz <= 0)
		return -1;
	return (double)btime + (double)ticks / (double)hz;
}

int runs_recorder_gone(int64_t pid, const char *host, int64_t started_us)
{
	char here[256] = "";
	double start;

	gethostname(here, sizeof(here) - 1);
	if (pid <= 0 || !host || strcmp(host, here))
		return 0;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 1;
	/* Alive: the same process, unless it started after the run (2 s for the clock's grain). */
	start = proc_start_s((long)pid);
	return start > 0 && start > (double)started_us / 1e6 + 2.0;
}

int runs_mark_lost(struct db *ix)
{
	json_t *rows = db_json(ix, "SELECT id, pttrace_pid, host, started_us FROM runs"
			      " WHERE status = 'running'", "");
	struct db_stmt *s;
	size_t i;
	json_t *v;
	int n = 0;

	if (!rows)
		return -1;
	json_array_foreach(rows, i, v) {
		if (!runs_recorder_gone(json_integer_value(json_object_get(v, "pttrace_pid")),
					json_string_value(json_object_get(v, "host")),
					json_integer_value(json_object_get(v, "started_us"))))
			continue;
		s = db_prepare(ix, "UPDATE runs SET status = 'lost' WHERE id = ?1 AND status = 'running'");
		if (!s || db_run(s, "i", (int64_t)json_integer_value(json_object_get(v, "id"))) < 0) {
			json_decref(rows);
			return -1;
		}
		n++;
	}
	json_decref(rows);
	return n;
}

int runs_name_ok(const char *name)
{
	const char *p = name;

	if (!*name || !strcmp(name, "last"))
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p != '\0';
}

int runs_find_by_name(struct db *ix, const char *name, int64_t *run_id)
{
	struct db_stmt *s = db_prepare(ix, "SELECT id FROM runs WHERE name = ?1");
	int rc;

	if (!s || db_bind(s, "t", name) < 0)
		return -1;
	rc = db_step(s);
	if (rc == 1) {
		*run_id = db_col_int(s, 0);
		db_reset(s);
	}
	return rc;
}

int runs_resolve(struct db *ix, const char *spec, int64_t *run_id)
{
	struct db_stmt *s;
	int rc;

	if (!*spec)
		goto none;
	if (!runs_name_ok(spec)) {
		if (!strcmp(spec, "last")) {
			s = db_prepare(ix, "SELECT id FROM runs ORDER BY id DESC LIMIT 1");
			if (!s)
				return -1;
		} else {
			char *end;
			long long v = strtoll(spec, &end, 10);

			s = db_prepare(ix, "SELECT id FROM runs WHERE id = ?1");
			if (*end || !s || db_bind(s, "i", (int64_t)v) < 0)
				return -1;
		}
		rc = db_step(s);
		if (rc == 1) {
			*run_id = db_col_int(s, 0);
			db_reset(s);
			return 0;
		}
		if (rc < 0)
			return -1;
		goto none;
	}
	rc = runs_find_by_name(ix, spec, run_id);
	if (rc == 1)
		return 0;
	if (rc < 0)
		return -1;
none:
	pt_diag_add(db_diag(ix), PT_SEV_ERROR, NULL, NULL, "no run '%s' in '%s'", spec, db_path(ix));
	return -1;
}
