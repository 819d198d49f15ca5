/* The report's reads from the index (report_data.h); the compile occurrences and
 * their index are report_occs.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logs_query.h"
#include "report_data.h"
#include "strbuf.h"
#include "xalloc.h"

int64_t rp_col_id(struct db_stmt *s, int col)
{
	return db_col_is_null(s, col) ? COMPILEID_NONE : db_col_int(s, col);
}

void rp_rec_from_row(struct db_stmt *s, struct rp_rec *r)
{
	r->id = db_col_int(s, 0);
	r->rank = db_col_int(s, 1);
	r->lineno = db_col_int(s, 2);
	r->file_id = db_col_int(s, 3);
	r->cid.ca = rp_col_id(s, 4);
	r->cid.frame = rp_col_id(s, 5);
	r->cid.compile = rp_col_id(s, 6);
	r->cid.attempt = rp_col_id(s, 7);
	r->kind = db_col_text(s, 8);
	r->name = db_col_text(s, 9);
	r->md5 = db_col_text(s, 10);
	r->md5_declared = db_col_text(s, 11);
	r->envelope = db_col_text(s, 12);
	r->file = db_col_text(s, 13);
}

int rp_rec_loop(struct db_stmt *s, rp_rec_cb cb, void *ctx)
{
	int rc;

	while ((rc = db_step(s)) == 1) {
		struct rp_rec r;

		rp_rec_from_row(s, &r);
		if (cb(ctx, &r) < 0) {
			db_reset(s);
			return -1;
		}
	}
	return rc;
}

void rp_occ_key(int64_t rank, const struct compileid *cid, char *out, size_t n)
{
	char dir[COMPILEID_MAX];

	compileid_format_dir(cid, dir, sizeof(dir));
	if (rank >= 0)
		pt_fmt_trunc(out, n, "r%lld_%s", (long long)rank, dir);
	else if (rank < -1)
		pt_fmt_trunc(out, n, "p%lld_%s", (long long)(-1 - rank), dir);
	else
		pt_fmt_trunc(out, n, "-_%s", dir);
}

/* ---- stacks ---- */

static const char SQL_STACKS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.kind = 'dynamo_start' ORDER BY r.id";
static const char SQL_UNKNOWN_STACKS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.frame IS NULL AND r.ca IS NULL"
	" AND r.kind <> 'str' AND r.kind <> 'chromium_event'"
	" AND instr(r.envelope, '\"stack\": [') > 0 ORDER BY r.id";
static const char SQL_STRING[] =
	"SELECT value FROM trace_strings WHERE file_id = ? AND idx = ?";

char *rp_frame_text(struct db *ix, int64_t file_id, json_t *fr)
{
	json_t *fn = json_object_get(fr, "filename");
	const char *name = json_string_value(json_object_get(fr, "name"));
	const char *loc = json_string_value(json_object_get(fr, "loc"));
	long long line = json_integer_value(json_object_get(fr, "line"));
	char *file = NULL, *out;

	if (json_is_integer(fn)) {
		struct db_stmt *s = db_prepare(ix, SQL_STRING);

		if (s && db_bind(s, "ii", file_id, (int64_t)json_integer_value(fn)) == 0 &&
		    db_step(s) == 1) {
			file = pt_xstrdup(db_col_text(s, 0) ? db_col_text(s, 0) : "?");
			db_reset(s);
		}
	} else if (json_is_string(fn)) {
		file = pt_xstrdup(json_string_value(fn));
	}
	out = pt_xasprintf("%s:%lld in %s%s%s", file ? file : "?", line, name ? name : "?",
			   loc && *loc ? "\n" : "", loc && *loc ? loc : "");
	free(file);
	return out;
}

int rp_stacks(struct db *ix, int64_t run_id, int unknown, rp_stack_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, unknown ? SQL_UNKNOWN_STACKS : SQL_STACKS);
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct rp_rec r;
		json_t *env, *st;
		char **frames = NULL;
		size_t n = 0;
		int cbrc;

		rp_rec_from_row(s, &r);
		env = json_loads(r.envelope, 0, NULL);
		st = json_object_get(env, "stack");
		if (!json_is_array(st) && r.kind)
			st = json_object_get(json_object_get(env, r.kind), "stack");
		if (json_is_array(st) && json_array_size(st)) {
			frames = pt_xcalloc(json_array_size(st), sizeof(*frames));
			for (size_t i = 0; i < json_array_size(st); i++)
				frames[n++] = rp_frame_text(ix, r.file_id, json_array_get(st, i));
		}
		json_decref(env);
		cbrc = n ? cb(ctx, r.rank, &r.cid, frames, n, r.kind) : 0;
		for (size_t i = 0; i < n; i++)
			free(frames[i]);
		free(frames);
		if (cbrc < 0) {
			db_reset(s);
			return -1;
		}
	}
	return rc;
}

/* ---- records ---- */

static const char SQL_KIND_RECS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.kind = ? ORDER BY r.id";

int rp_records_of_kinds(struct db *ix, int64_t run_id, const char *const *kinds,
			rp_rec_cb cb, void *ctx)
{
	for (; *kinds; kinds++) {
		struct db_stmt *s = db_prepare(ix, SQL_KIND_RECS);

		if (!s || db_bind(s, "it", run_id, *kinds) < 0 || rp_rec_loop(s, cb, ctx) < 0)
			return -1;
	}
	return 0;
}

/* Every record with a payload (chromium events aside), in file order. */
static const char SQL_PAYLOAD_RECS[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.payload_md5 IS NOT NULL"
	" AND r.kind <> 'chromium_event' AND r.kind <> 'str' ORDER BY r.id";

int rp_payload_records(struct db *ix, int64_t run_id, rp_rec_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_PAYLOAD_RECS);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return rp_rec_loop(s, cb, ctx);
}

static const char SQL_MISMATCHES[] =
	"SELECT " REC_COLS REC_FROM " WHERE r.run_id = ? AND r.md5_declared IS NOT NULL"
	" ORDER BY r.id LIMIT 1000";

int rp_md5_mismatches(struct db *ix, int64_t run_id, rp_rec_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_MISMATCHES);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return rp_rec_loop(s, cb, ctx);
}

static const char SQL_PAYLOADS[] =
	"SELECT payload_md5, kind, name, envelope, count(*) FROM trace_records"
	" WHERE run_id = ? AND payload_md5 IS NOT NULL AND kind <> 'chromium_event'"
	" GROUP BY payload_md5 ORDER BY min(id)";

int rp_payloads(struct db *ix, int64_t run_id, rp_payload_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_PAYLOADS);
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1)
		if (cb(ctx, db_col_text(s, 0), db_col_text(s, 1), db_col_text(s, 2),
		       db_col_text(s, 3), db_col_int(s, 4)) < 0) {
			db_reset(s);
			return -1;
		}
	return rc;
}

static int count_loop(struct db_stmt *s, rp_count_cb cb, void *ctx)
{
	int rc;

	while ((rc = db_step(s)) == 1)
		if (cb(ctx, db_col_text(s, 0), db_col_int(s, 1)) < 0) {
			db_reset(s);
			return -1;
		}
	return rc;
}

static const char SQL_KINDS[] =
	"SELECT kind, count(*) FROM trace_records WHERE run_id = ? GROUP BY kind ORDER BY kind";

int rp_kind_counts(struct db *ix, int64_t run_id, rp_count_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_KINDS);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return count_loop(s, cb, ctx);
}

static const char SQL_FILES[] =
	"SELECT path, size, rank, name_rank, json_rank, lines, records, payloads, damaged,"
	" md5_mismatches, rank_conflict FROM trace_files WHERE run_id = ? ORDER BY path";

int rp_files(struct db *ix, int64_t run_id, rp_file_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_FILES);
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct rp_file f;
		int64_t *ints[] = {&f.size, &f.rank, &f.name_rank, &f.json_rank, &f.lines,
				   &f.records, &f.payloads, &f.damaged, &f.md5_mismatches};

		f.path = db_col_text(s, 0);
		for (int i = 0; i < 9; i++)
			*ints[i] = db_col_is_null(s, i + 1) ? -1 : db_col_int(s, i + 1);
		f.rank_conflict = db_col_text(s, 10);
		if (cb(ctx, &f) < 0) {
			db_reset(s);
			return -1;
		}
	}
	return rc;
}

static const char SQL_RUN_COUNTS[] =
	"SELECT 'kind:' || kind || CASE WHEN level IS NULL THEN '' ELSE ':' ||"
	"  CASE level WHEN 10 THEN 'DEBUG' WHEN 20 THEN 'INFO' WHEN 30 THEN 'WARNING'"
	"  WHEN 40 THEN 'ERROR' ELSE 'CRITICAL' END END, count(*)"
	" FROM records WHERE" LOGS_RUN_RANGE("id", "1") "GROUP BY 1"
	" UNION ALL SELECT 'artifact:' || artifact, count(*) FROM records"
	" WHERE" LOGS_RUN_RANGE("id", "1") "AND artifact IS NOT NULL GROUP BY artifact"
	" UNION ALL SELECT * FROM (SELECT 'op:' || op, count(*) FROM dispatch_calls"
	" WHERE" LOGS_RUN_RANGE("id", "1") "GROUP BY op ORDER BY count(*) DESC LIMIT 50)";

int rp_run_counts(struct db *ix, int64_t run_id, rp_count_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_RUN_COUNTS);

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	return count_loop(s, cb, ctx);
}

int rp_run_exists(struct db *ix, int64_t run_id)
{
	struct db_stmt *s = db_prepare(ix, "SELECT 1 FROM runs WHERE id = ?");
	int rc;

	if (!s || db_bind(s, "i", run_id) < 0)
		return -1;
	rc = db_step(s);
	if (rc == 1)
		db_reset(s);
	return rc;
}

static const char SQL_RUN_ROW[] =
	"SELECT json_object('id', id, 'name', name, 'source', source, 'argv', json(argv),"
	" 'status', status, 'exit_code', exit_code, 'signal', signal, 'started_us', started_us,"
	" 'ended_us', ended_us, 'torch_version', torch_version, 'host', host, 'cwd', cwd)"
	" FROM runs WHERE id = ?";

json_t *rp_run_row(struct db *ix, int64_t run_id)
{
	struct db_stmt *s = db_prepare(ix, SQL_RUN_ROW);
	json_t *j = NULL;

	if (!s || db_bind(s, "i", run_id) < 0)
		return NULL;
	if (db_step(s) == 1) {
		j = json_loads(db_col_text(s, 0), 0, NULL);
		db_reset(s);
	}
	return j;
}

/* The run's crash: its run_crash row (pttrace run) and its first crash record, either may be missing. */
static const char SQL_CRASH[] =
	"SELECT json_object('signal', (SELECT signal FROM runs WHERE id = ?1),"
	" 'core_note', c.core_note, 'gdb', c.gdb, 'text', r.text, 'src_file', r.src_file,"
	" 'src_line', r.src_line)"
	" FROM (SELECT 1) LEFT JOIN run_crash c ON c.run_id = ?1"
	" LEFT JOIN (SELECT text, src_file, src_line FROM records WHERE" LOGS_RUN_RANGE("id", "1")
	" AND kind = 'crash' ORDER BY id LIMIT 1) r"
	" WHERE c.run_id IS NOT NULL OR r.text IS NOT NULL";

json_t *rp_run_crash(struct db *ix, int64_t run_id)
{
	struct db_stmt *s = db_prepare(ix, SQL_CRASH);
	json_t *j = NULL;

	if (!s || db_bind(s, "i", run_id) < 0)
		return NULL;
	if (db_step(s) == 1) {
		j = json_loads(db_col_text(s, 0), 0, NULL);
		db_reset(s);
	}
	return j;
}

static const char SQL_ERRORS[] =
	"SELECT kind, coalesce(level, 0), text FROM records WHERE" LOGS_RUN_RANGE("id", "1")
	"AND (level >= 40 OR kind IN ('traceback', 'crash')) ORDER BY id LIMIT ?2";

int rp_run_errors(struct db *ix, int64_t run_id, size_t limit, rp_err_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_ERRORS);
	int rc;

	if (!s || db_bind(s, "ii", run_id, (int64_t)limit) < 0)
		return -1;
	while ((rc = db_step(s)) == 1)
		if (cb(ctx, db_col_text(s, 0), db_col_int(s, 1), db_col_text(s, 2)) < 0) {
			db_reset(s);
			return -1;
		}
	return rc;
}

/* Depth first through parent_id, iteratively: the calls come sorted by id, and a
 * callee always follows its caller, so one pass with a stack of open ancestors is
 * the tree in order. */
static const char SQL_CALLS[] =
	"SELECT id, parent_id, op, overload, dispatch_key FROM dispatch_calls"
	" WHERE" LOGS_RUN_RANGE("id", "1") "ORDER BY id LIMIT ?2";

int rp_call_tree(struct db *ix, int64_t run_id, size_t limit, rp_call_cb cb, void *ctx)
{
	struct db_stmt *s = db_prepare(ix, SQL_CALLS);
	int64_t stack[64];
	int depth = 0, rc;

	if (!s || db_bind(s, "ii", run_id, (int64_t)limit) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		int64_t id = db_col_int(s, 0);
		int64_t parent = db_col_is_null(s, 1) ? -1 : db_col_int(s, 1);

		while (depth > 0 && stack[depth - 1] != parent)
			depth--;
		if (cb(ctx, depth, db_col_text(s, 2), db_col_text(s, 3), db_col_text(s, 4)) < 0) {
			db_reset(s);
			return -1;
		}
		if (depth < (int)(PT_ARRAY_SIZE(stack)))
			stack[depth++] = id;
	}
	return rc;
}
