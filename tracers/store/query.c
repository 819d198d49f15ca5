/* Read-side queries; see query.h. */
#include "query.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jsonout.h"
#include "xalloc.h"

int query_name_ok(const char *name)
{
	const char *p = name;

	if (!*name || !strcmp(name, "last"))
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p != '\0';
}

int query_run_by_name(struct db *ix, const char *name, int64_t *run_id)
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

int query_resolve_run(struct db *ix, const char *spec, int64_t *run_id)
{
	struct db_stmt *s;
	int rc;

	if (!*spec)
		goto none;
	if (!query_name_ok(spec)) {
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
	rc = query_run_by_name(ix, spec, run_id);
	if (rc == 1)
		return 0;
	if (rc < 0)
		return -1;
none:
	pt_diag_add(ix->diag, PT_SEV_ERROR, NULL, NULL, "no run '%s' in '%s'", spec, ix->path);
	return -1;
}

static char *dup_col(struct db_stmt *s, int col)
{
	const char *t = db_col_text(s, col);

	return t ? pt_xstrdup(t) : NULL;
}

static int64_t int_col(struct db_stmt *s, int col)
{
	return db_col_is_null(s, col) ? -1 : db_col_int(s, col);
}

int query_run_load(struct db *ix, int64_t run_id, struct run_row *r)
{
	struct db_stmt *s = db_prepare(
		ix, "SELECT id, name, tag, source, argv, cwd, host, python, torch_version,"
		    " torch_build_type, logs_spec, status, pttrace_version, torch_debug, dispatch,"
		    " trace, started_us, ended_us, tz_offset_s, pid, exit_code, signal,"
		    " bytes_stdout, bytes_stderr FROM runs WHERE id = ?1");
	int rc;

	memset(r, 0, sizeof(*r));
	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	rc = db_step(s);
	if (rc != 1) {
		if (rc == 0)
			pt_diag_add(ix->diag, PT_SEV_ERROR, NULL, NULL, "no run %lld",
				    (long long)run_id);
		return -1;
	}
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
	db_reset(s);
	return 0;
}

void query_run_release(struct run_row *r)
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

/* One column of the current row as JSON. */
static json_t *col_json(struct db_stmt *s, int c)
{
	switch (db_col_type(s, c)) {
	case 1:
		return json_integer(db_col_int(s, c));
	case 2:
		return json_real(db_col_double(s, c));
	case 5:
		return json_null();
	default:
		return pt_json_strn_lossy(db_col_text(s, c), db_col_bytes(s, c));
	}
}

json_t *query_json(struct db *ix, const char *sql, const char *fmt, ...)
{
	struct db_stmt *s = db_prepare(ix, sql);
	va_list ap;
	int rc = 0;

	if (!s)
		return NULL;
	va_start(ap, fmt);
	/* db_bind takes varargs; rebuild them one letter at a time. */
	for (int k = 0; fmt[k] && rc == 0; k++) {
		char one[2] = { fmt[k], 0 };

		switch (fmt[k]) {
		case 'i':
		case 'I':
			rc = db_bind_at(s, k + 1, one, va_arg(ap, int64_t));
			break;
		case 'd':
			rc = db_bind_at(s, k + 1, one, va_arg(ap, double));
			break;
		case 't':
			rc = db_bind_at(s, k + 1, one, va_arg(ap, const char *));
			break;
		default:
			pt_diag_add(ix->diag, PT_SEV_ERROR, ix->path, sql,
				    "BUG: query_json: unsupported format letter '%c'", fmt[k]);
			rc = -1;
		}
	}
	va_end(ap);
	if (rc < 0)
		return NULL;
	return query_rows_json(s);
}

json_t *query_rows_json(struct db_stmt *s)
{
	json_t *rows = json_array();
	int rc;

	while ((rc = db_step(s)) == 1) {
		json_t *o = json_object();

		for (int c = 0; c < db_col_count(s); c++)
			json_object_set_new(o, db_col_name(s, c), col_json(s, c));
		json_array_append_new(rows, o);
	}
	if (rc < 0) {
		json_decref(rows);
		return NULL;
	}
	return rows;
}

int query_parse_level(const char *s)
{
	static const struct { const char *name; int no; } names[] = {
		{ "V", 10 }, { "D", 10 }, { "DEBUG", 10 }, { "I", 20 }, { "INFO", 20 },
		{ "W", 30 }, { "WARNING", 30 }, { "WARN", 30 }, { "E", 40 }, { "ERROR", 40 },
		{ "C", 50 }, { "CRITICAL", 50 }, { "F", 50 }, { "FATAL", 50 },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(s, names[i].name))
			return names[i].no;
	return -1;
}

json_t *query_logs(struct db *ix, int64_t run_id, const struct logs_filter *f)
{
	/*
	 * One statement for every filter combination: a NULL parameter switches
	 * its condition off, so the text stays constant and is prepared once.
	 */
	static const char sql[] =
		"SELECT seq, stream, off, len, nlines, kind, level, ts_us, pid, src_file, src_line,"
		" rank, ca_id, frame_id, frame_compile_id, attempt, artifact, text FROM records"
		" WHERE run_id = ?1"
		" AND (?2 IS NULL OR level >= ?2)"
		" AND (?3 IS NULL OR artifact = ?3)"
		" AND (?12 IS NULL OR (ca_id IS ?4 AND (?5 IS NULL OR frame_id = ?5)"
		"  AND (?6 IS NULL OR frame_compile_id = ?6) AND (?7 IS NULL OR IFNULL(attempt, 0) = ?7)))"
		" AND (?8 IS NULL OR rank = ?8)"
		" AND (?9 IS NULL OR text REGEXP ?9)"
		" AND (?10 IS NULL OR kind = ?10)"
		" AND (?11 IS NULL OR stream = ?11)"
		" ORDER BY seq LIMIT ?13";
	struct db_stmt *s = db_prepare(ix, sql);
	int64_t none = -1;

	if (!s)
		return NULL;
	/*
	 * A compile id: ?12 switches the condition on; a missing ca part then
	 * means "not compiled autograd" (ca_id IS NULL), other missing parts "any".
	 */
	if (db_bind(s, "iIt", run_id, f->min_level > 0 ? (int64_t)f->min_level : none,
		       f->artifact) < 0)
		return NULL;
	if (f->has_cid) {
		if (db_bind_at(s, 4, "IIII", f->cid.ca, f->cid.frame, f->cid.compile,
				  f->cid.attempt) < 0)
			return NULL;
	}
	if (db_bind_at(s, 8, "IttIIi", f->rank >= 0 ? (int64_t)f->rank : none, f->grep, f->kind,
			  f->stream ? (int64_t)f->stream : none, f->has_cid ? (int64_t)1 : none,
			  f->limit > 0 ? f->limit : (int64_t)-1) < 0)
		return NULL;
	return query_rows_json(s);
}

json_t *query_ops(struct db *ix, int64_t run_id)
{
	return query_json(ix, "SELECT op, overload, dispatch_key, COUNT(*) AS calls, SUM(torn) AS torn"
			      " FROM dispatch_calls WHERE run_id = ?1 GROUP BY op, overload, dispatch_key"
			      " ORDER BY calls DESC, op, overload, dispatch_key", "i", run_id);
}

json_t *query_calls(struct db *ix, int64_t run_id)
{
	return query_json(ix, "SELECT c.id, r.seq, c.label, c.op, c.overload, c.dispatch_key,"
			      " c.depth, c.parent_id, c.torn FROM dispatch_calls c"
			      " JOIN records r ON r.id = c.record_id WHERE c.run_id = ?1 ORDER BY c.id",
			      "i", run_id);
}
