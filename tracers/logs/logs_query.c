/* The read side of the logs part; see logs_query.h. */
#include "logs_query.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db_json.h"
#include "xalloc.h"

int logs_parse_level(const char *s)
{
	static const struct { const char *name; int no; } names[] = {
		{ "V", 10 }, { "D", 10 }, { "DEBUG", 10 }, { "I", 20 }, { "INFO", 20 },
		{ "W", 30 }, { "WARNING", 30 }, { "WARN", 30 }, { "E", 40 }, { "ERROR", 40 },
		{ "C", 50 }, { "CRITICAL", 50 }, { "F", 50 }, { "FATAL", 50 },
	};

	for (size_t i = 0; i < PT_ARRAY_SIZE(names); i++)
		if (!strcasecmp(s, names[i].name))
			return names[i].no;
	return -1;
}

struct db_stmt *logs_query_records(struct db *ix, int64_t run_id, const struct logs_filter *f)
{
	/*
	 * One statement for every filter combination: a NULL parameter switches
	 * its condition off, so the text stays constant and is prepared once.
	 */
	static const char sql[] =
		"SELECT seq, stream, off, len, nlines, kind, level, ts_us, pid, src_file, src_line,"
		" rank, ca_id, frame_id, frame_compile_id, attempt, artifact, text FROM records"
		" WHERE" LOGS_RUN_RANGE("id", "1")
		" AND (?2 IS NULL OR level >= ?2)"
		" AND (?3 IS NULL OR artifact = ?3)"
		" AND (?12 IS NULL OR (ca_id IS ?4 AND (?5 IS NULL OR frame_id = ?5)"
		"  AND (?6 IS NULL OR frame_compile_id = ?6) AND (?7 IS NULL OR IFNULL(attempt, 0) = ?7)))"
		" AND (?8 IS NULL OR rank = ?8)"
		" AND (?9 IS NULL OR text REGEXP ?9)"
		" AND (?10 IS NULL OR kind = ?10)"
		" AND (?11 IS NULL OR stream = ?11)"
		" ORDER BY id LIMIT ?13";
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
	return s;
}

json_t *logs_query_ops(struct db *ix, int64_t run_id)
{
	return db_json(ix, "SELECT op, overload, dispatch_key, COUNT(*) AS calls, SUM(torn) AS torn"
			      " FROM dispatch_calls WHERE" LOGS_RUN_RANGE("id", "1")
			      "GROUP BY op, overload, dispatch_key"
			      " ORDER BY calls DESC, op, overload, dispatch_key", "i", run_id);
}

struct db_stmt *logs_query_calls(struct db *ix, int64_t run_id)
{
	/* Ids as numbers within the run (the rowids carry the run: LOGS_ID). */
	struct db_stmt *s = db_prepare(ix, "SELECT " LOGS_ID_IN_RUN("c.id") " AS id, r.seq, c.label,"
					   " c.op, c.overload, c.dispatch_key, c.depth, "
					   LOGS_ID_IN_RUN("c.parent_id") " AS parent_id, c.torn"
					   " FROM dispatch_calls c JOIN records r ON r.id = c.record_id"
					   " WHERE" LOGS_RUN_RANGE("c.id", "1") "ORDER BY c.id");

	return s && db_bind(s, "i", run_id) == 0 ? s : NULL;
}

static char *dup_text(struct db_stmt *s, int col)
{
	const char *t = db_col_text(s, col);

	return t ? pt_xstrdup(t) : NULL;
}

static int64_t int_col(struct db_stmt *s, int col)
{
	return db_col_is_null(s, col) ? LOGS_NULL : db_col_int(s, col);
}

/* A text column with its bytes (db_col_text is NUL-terminated; the text may hold NULs). */
static struct logs_show_text text_col(struct db_stmt *s, int col)
{
	const char *t = db_col_text(s, col);
	size_t n = t ? (size_t)db_col_bytes(s, col) : 0;
	struct logs_show_text x = { pt_xmalloc(n + 1), n };

	if (n)
		memcpy(x.s, t, n);
	x.s[n] = 0;
	return x;
}

#define SHOW_EVENTS(artifact)                                                              \
	"SELECT seq, rank, frame_id, frame_compile_id, attempt, text FROM records WHERE"    \
	LOGS_RUN_RANGE("id", "1") "AND artifact = '" artifact "' ORDER BY id"

static void event_fill(struct db_stmt *s, struct logs_show_event *e)
{
	e->seq = int_col(s, 0);
	e->rank = int_col(s, 1);
	e->frame_id = int_col(s, 2);
	e->frame_compile_id = int_col(s, 3);
	e->attempt = int_col(s, 4);
	e->text = text_col(s, 5);
}

int logs_show_load(struct db *ix, int64_t id, struct logs_show *out)
{
	memset(out, 0, sizeof(*out));
	DB_ROWS(ix, id, "SELECT kind, SUM(nlines) AS lines, COUNT(*) AS records FROM records WHERE"
		  LOGS_RUN_RANGE("id", "1") "GROUP BY kind ORDER BY kind", out->kinds, out->n_kinds,
		  (out->kinds[out->n_kinds].kind = dup_text(s, 0),
		   out->kinds[out->n_kinds].lines = int_col(s, 1),
		   out->kinds[out->n_kinds].records = int_col(s, 2)));
	DB_ROWS(ix, id, SHOW_EVENTS("graph_breaks"), out->breaks, out->n_breaks,
		  event_fill(s, &out->breaks[out->n_breaks]));
	DB_ROWS(ix, id, SHOW_EVENTS("recompiles"), out->recompiles, out->n_recompiles,
		  event_fill(s, &out->recompiles[out->n_recompiles]));
	DB_ROWS(ix, id, "SELECT seq, kind, level, rank, text FROM records WHERE" LOGS_RUN_RANGE("id", "1")
		  "AND (level >= 40 OR kind IN ('traceback', 'crash')) ORDER BY id",
		  out->errors, out->n_errors,
		  (out->errors[out->n_errors].seq = int_col(s, 0),
		   out->errors[out->n_errors].kind = dup_text(s, 1),
		   out->errors[out->n_errors].level = int_col(s, 2),
		   out->errors[out->n_errors].rank = int_col(s, 3),
		   out->errors[out->n_errors].text = text_col(s, 4)));
	DB_ROWS(ix, id, "SELECT seq, stream, src_file, src_line, text FROM records WHERE"
		  LOGS_RUN_RANGE("id", "1") "AND kind = 'crash' ORDER BY id",
		  out->crashes, out->n_crashes,
		  (out->crashes[out->n_crashes].seq = int_col(s, 0),
		   out->crashes[out->n_crashes].stream = int_col(s, 1),
		   out->crashes[out->n_crashes].src_file = dup_text(s, 2),
		   out->crashes[out->n_crashes].src_line = int_col(s, 3),
		   out->crashes[out->n_crashes].text = text_col(s, 4)));
	return 0;
fail:
	logs_show_release(out);
	return -1;
}
#undef SHOW_ROWS
#undef SHOW_EVENTS

void logs_show_release(struct logs_show *l)
{
	for (size_t i = 0; i < l->n_kinds; i++)
		free(l->kinds[i].kind);
	free(l->kinds);
	for (size_t i = 0; i < l->n_breaks; i++)
		free(l->breaks[i].text.s);
	free(l->breaks);
	for (size_t i = 0; i < l->n_recompiles; i++)
		free(l->recompiles[i].text.s);
	free(l->recompiles);
	for (size_t i = 0; i < l->n_errors; i++)
		free(l->errors[i].kind), free(l->errors[i].text.s);
	free(l->errors);
	for (size_t i = 0; i < l->n_crashes; i++)
		free(l->crashes[i].src_file), free(l->crashes[i].text.s);
	free(l->crashes);
	memset(l, 0, sizeof(*l));
}

/* The line at p (up to a newline or end) and the next one's start. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return (size_t)((nl ? nl : end) - p);
}

char *logs_crash_summary(const char *text, size_t len)
{
	static const char fatal[] = "Fatal Python error: ", inst[] = "terminate called after throwing an instance of '",
			  what[] = "  what():  ";
	const char *end = text + len, *f = NULL, *t = NULL, *w = NULL;
	size_t fn = 0, tn = 0, wn = 0;

	for (const char *p = text; p < end;) {
		size_t n = line_len(p, end);

		if (!f && n >= sizeof(fatal) - 1 && !memcmp(p, fatal, sizeof(fatal) - 1))
			f = p, fn = n;
		else if (!t && n > sizeof(inst) - 1 && !memcmp(p, inst, sizeof(inst) - 1)) {
			t = p + sizeof(inst) - 1;
			tn = n - (sizeof(inst) - 1);
			if (t[tn - 1] == '\'')
				tn--;
		} else if (!w && n >= sizeof(what) - 1 && !memcmp(p, what, sizeof(what) - 1))
			w = p + sizeof(what) - 1, wn = n - (sizeof(what) - 1);
		p += n + 1;
	}
	if (!f)
		f = text, fn = line_len(text, end);
	if (t && w)
		return pt_xasprintf("%.*s (%.*s: %.*s)", (int)fn, f, (int)tn, t, (int)wn, w);
	if (t)
		return pt_xasprintf("%.*s (%.*s)", (int)fn, f, (int)tn, t);
	if (w)
		return pt_xasprintf("%.*s (%.*s)", (int)fn, f, (int)wn, w);
	return pt_xasprintf("%.*s", (int)fn, f);
}

int logs_crash_first(struct db *ix, int64_t run_id, char **what, char **file, int64_t *line)
{
	struct db_stmt *s = db_prepare(ix, "SELECT text, src_file, src_line FROM records WHERE"
					   LOGS_RUN_RANGE("id", "1") "AND kind = 'crash' ORDER BY id LIMIT 1");
	int rc;

	*what = *file = NULL;
	*line = -1;
	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	rc = db_step(s);
	if (rc == 1) {
		const char *t = db_col_text(s, 0), *f = db_col_text(s, 1);

		*what = logs_crash_summary(t ? t : "", t ? strlen(t) : 0);
		*file = f ? pt_xstrdup(f) : NULL;
		*line = f ? db_col_int(s, 2) : -1;
		db_reset(s);
	}
	return rc;
}
