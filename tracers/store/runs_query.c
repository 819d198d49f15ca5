/*
 * The read side of the core part (runs, run_env, run_warnings, run_files,
 * run_parts, run_crash) as structs; see runs.h.
 */
#include "runs.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static char *dup_col(struct db_stmt *s, int col)
{
	const char *t = db_col_text(s, col);

	return t ? pt_xstrdup(t) : NULL;
}

static int64_t int_col(struct db_stmt *s, int col)
{
	return db_col_is_null(s, col) ? -1 : db_col_int(s, col);
}

#define ROW_COLUMNS                                                                               \
	"id, name, tag, source, argv, cwd, host, python, torch_version, torch_build_type, logs_spec," \
	" status, pttrace_version, torch_debug, dispatch, trace, started_us, ended_us, tz_offset_s,"  \
	" pid, exit_code, signal, bytes_stdout, bytes_stderr, pttrace_pid"

/* The current row of a SELECT ROW_COLUMNS. */
static void row_read(struct db_stmt *s, struct run_row *r)
{
	memset(r, 0, sizeof(*r));
	r->id = db_col_int(s, 0);
	r->name = dup_col(s, 1);
	r->tag = dup_col(s, 2);
	r->source = dup_col(s, 3);
	r->argv_json = dup_col(s, 4);
	r->cwd = dup_col(s, 5);
	r->host = dup_col(s, 6);
	r->python = dup_col(s, 7);
	r->torch_version = dup_col(s, 8);
	r->torch_build_type = dup_col(s, 9);
	r->logs_spec = dup_col(s, 10);
	r->status = dup_col(s, 11);
	r->pttrace_version = dup_col(s, 12);
	r->torch_debug = int_col(s, 13);
	r->dispatch = (int)db_col_int(s, 14);
	r->trace = (int)db_col_int(s, 15);
	r->started_us = db_col_int(s, 16);
	r->ended_us = int_col(s, 17);
	r->tz_offset_s = db_col_int(s, 18);
	r->pid = int_col(s, 19);
	r->exit_code = int_col(s, 20);
	r->signal = int_col(s, 21);
	r->bytes_stdout = db_col_int(s, 22);
	r->bytes_stderr = db_col_int(s, 23);
	r->pttrace_pid = int_col(s, 24);
}

/* A "running" run whose recorder is gone: "lost", as runs_mark_lost would store it. */
static void fix_status(struct run_row *r)
{
	if (!r->status || strcmp(r->status, "running"))
		return;
	if (runs_recorder_gone(r->pttrace_pid, r->host, r->started_us)) {
		free(r->status);
		r->status = pt_xstrdup("lost");
	}
}

int runs_load(struct db *ix, int64_t run_id, struct run_row *r)
{
	struct db_stmt *s = db_prepare(ix, "SELECT " ROW_COLUMNS " FROM runs WHERE id = ?1");
	int rc;

	memset(r, 0, sizeof(*r));
	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	rc = db_step(s);
	if (rc != 1) {
		if (rc == 0)
			pt_diag_add(db_diag(ix), PT_SEV_ERROR, NULL, NULL, "no run %lld",
				    (long long)run_id);
		return -1;
	}
	row_read(s, r);
	db_reset(s);
	return 0;
}

void runs_row_release(struct run_row *r)
{
	free(r->name);
	free(r->tag);
	free(r->source);
	free(r->argv_json);
	free(r->cwd);
	free(r->host);
	free(r->python);
	free(r->torch_version);
	free(r->torch_build_type);
	free(r->logs_spec);
	free(r->status);
	free(r->pttrace_version);
	memset(r, 0, sizeof(*r));
}

int runs_list(struct db *ix, struct run_list *out)
{
	struct db_stmt *s = db_prepare(ix, "SELECT " ROW_COLUMNS " FROM runs ORDER BY id");
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s)
		return -1;
	while ((rc = db_step(s)) == 1) {
		PT_GROW(out->v, out->n, cap);
		row_read(s, &out->v[out->n]);
		fix_status(&out->v[out->n]);
		out->n++;
	}
	if (rc < 0) {
		runs_list_release(out);
		return -1;
	}
	return 0;
}

void runs_list_release(struct run_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		runs_row_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The argv column (JSON text) as strings; not JSON: none. */
static void argv_parse(struct run_show *sh)
{
	json_t *a = json_loads(sh->run.argv_json ? sh->run.argv_json : "", 0, NULL);
	size_t i;
	json_t *v;

	if (!json_is_array(a)) {
		json_decref(a);
		return;
	}
	sh->argc = json_array_size(a);
	sh->argv = pt_xcalloc(sh->argc ? sh->argc : 1, sizeof(*sh->argv));
	json_array_foreach(a, i, v)
		sh->argv[i] = json_is_string(v) ? pt_xstrdup(json_string_value(v)) : NULL;
	json_decref(a);
}

int runs_show_load(struct db *ix, int64_t id, struct run_show *out)
{
	struct db_stmt *s;
	int rc;

	memset(out, 0, sizeof(*out));
	if (runs_load(ix, id, &out->run) < 0)
		return -1;
	fix_status(&out->run);
	argv_parse(out);
	if (out->run.ended_us != -1) {
		out->has_duration = 1;
		out->duration_s = (double)(out->run.ended_us - out->run.started_us) / 1e6;
	}
	DB_ROWS(ix, id,
		"SELECT name, value FROM run_env WHERE run_id = ?1 ORDER BY name", out->env, out->n_env,
		(out->env[out->n_env].name = dup_col(s, 0), out->env[out->n_env].value = dup_col(s, 1)));
	DB_ROWS(ix, id,
		"SELECT code, message FROM run_warnings WHERE run_id = ?1 ORDER BY seq", out->warnings,
		out->n_warnings,
		(out->warnings[out->n_warnings].code = dup_col(s, 0),
		 out->warnings[out->n_warnings].message = dup_col(s, 1)));
	DB_ROWS(ix, id,
		"SELECT path, role, bytes FROM run_files WHERE run_id = ?1 ORDER BY path", out->files,
		out->n_files,
		(out->files[out->n_files].path = dup_col(s, 0), out->files[out->n_files].role = dup_col(s, 1),
		 out->files[out->n_files].bytes = int_col(s, 2)));
	DB_ROWS(ix, id,
		"SELECT part, version, state FROM run_parts WHERE run_id = ?1 ORDER BY part", out->indexed,
		out->n_indexed,
		(out->indexed[out->n_indexed].part = dup_col(s, 0),
		 out->indexed[out->n_indexed].version = db_col_int(s, 1),
		 out->indexed[out->n_indexed].state = dup_col(s, 2)));
	s = db_prepare(ix, "SELECT signal, core_dumped, core_limit, core_pattern, core_path, core_note, gdb"
			   " FROM run_crash WHERE run_id = ?1");
	if (!s || db_bind(s, "i", id) < 0)
		goto fail;
	rc = db_step(s);
	if (rc < 0)
		goto fail;
	if (rc == 1) {
		struct run_crash_row *c = pt_xcalloc(1, sizeof(*c));

		c->signal = db_col_int(s, 0);
		c->core_dumped = db_col_int(s, 1);
		c->core_limit_null = db_col_is_null(s, 2);
		c->core_limit = db_col_int(s, 2);
		c->core_pattern = dup_col(s, 3);
		c->core_path = dup_col(s, 4);
		c->core_note = dup_col(s, 5);
		c->gdb = dup_col(s, 6);
		out->crash = c;
		db_reset(s);
	}
	return 0;
fail:
	runs_show_release(out);
	return -1;
}

void runs_show_release(struct run_show *s)
{
	runs_row_release(&s->run);
	for (size_t i = 0; i < s->argc; i++)
		free(s->argv[i]);
	free(s->argv);
	for (size_t i = 0; i < s->n_env; i++)
		free(s->env[i].name), free(s->env[i].value);
	free(s->env);
	for (size_t i = 0; i < s->n_warnings; i++)
		free(s->warnings[i].code), free(s->warnings[i].message);
	free(s->warnings);
	for (size_t i = 0; i < s->n_files; i++)
		free(s->files[i].path), free(s->files[i].role);
	free(s->files);
	for (size_t i = 0; i < s->n_indexed; i++)
		free(s->indexed[i].part), free(s->indexed[i].state);
	free(s->indexed);
	if (s->crash) {
		free(s->crash->core_pattern);
		free(s->crash->core_path);
		free(s->crash->core_note);
		free(s->crash->gdb);
		free(s->crash);
	}
	memset(s, 0, sizeof(*s));
}
