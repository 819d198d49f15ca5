/*
 * db_jscan.c: JSON scanners (db_jscan.h), json_each and json_valid on an
 * in-memory connection of their own.
 */
#include "db_jscan.h"

#include <sqlite3.h>
#include <stdlib.h>

#include "db_internal.h"
#include "xalloc.h"

struct db_jscan {
	sqlite3 *db;
	sqlite3_stmt *each;	/* SELECT key, type, atom, fullkey FROM json_each(?1, ?2) */
	sqlite3_stmt *named;	/* the same, WHERE key IN (?3, ?4) */
	sqlite3_stmt *strict;	/* SELECT json_valid(?1); NULL before SQLite 3.42 */
};

struct db_jscan *db_jscan_new(struct pt_diag *diag)
{
	struct db_jscan *j = pt_xcalloc(1, sizeof(*j));
	static const char sql[] = "SELECT key, type, atom, fullkey FROM json_each(?1, ?2)";
	/* The filter before the other columns: a member not asked for costs its key alone. */
	static const char named[] = "SELECT key, type, atom, fullkey FROM json_each(?1, ?2)"
				    " WHERE key IN (?3, ?4)";
	/*
	 * From 3.42 on, json_each also reads JSON5 (unquoted and single-quoted
	 * keys, trailing commas, comments, hex, +1, .5, Infinity), which json_valid
	 * with one argument still refuses; before 3.42 json_each itself refuses it.
	 */
	static const char strict[] = "SELECT json_valid(?1)";
	const char *at = sql;

	if (sqlite3_open_v2(":memory:", &j->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK ||
	    db_harden(j->db) != SQLITE_OK ||
	    sqlite3_prepare_v3(j->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &j->each, NULL) != SQLITE_OK ||
	    (at = named, sqlite3_prepare_v3(j->db, named, -1, SQLITE_PREPARE_PERSISTENT, &j->named,
					    NULL)) != SQLITE_OK ||
	    (sqlite3_libversion_number() >= 3042000 &&
	     (at = strict, sqlite3_prepare_v3(j->db, strict, -1, SQLITE_PREPARE_PERSISTENT, &j->strict,
					      NULL)) != SQLITE_OK)) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, at, "sqlite3_prepare_v3 (in-memory): %s",
			    j->db ? sqlite3_errmsg(j->db) : "out of memory");
		db_jscan_free(j);
		return NULL;
	}
	return j;
}

void db_jscan_free(struct db_jscan *j)
{
	if (!j)
		return;
	sqlite3_finalize(j->each);
	sqlite3_finalize(j->named);
	sqlite3_finalize(j->strict);
	sqlite3_close_v2(j->db);
	free(j);
}

/* json_each's type names, told apart by their first two letters. */
static enum db_jscan_type json_type_of(const unsigned char *t)
{
	switch (t ? t[0] : 0) {
	case 'n': return DB_JSCAN_NULL;
	case 'f': return DB_JSCAN_FALSE;
	case 'i': return DB_JSCAN_INTEGER;
	case 'r': return DB_JSCAN_REAL;
	case 'a': return DB_JSCAN_ARRAY;
	case 'o': return DB_JSCAN_OBJECT;
	case 't': return t[1] == 'r' ? DB_JSCAN_TRUE : DB_JSCAN_TEXT;
	default: PT_BUG("json_each: type '%s'", t ? (const char *)t : "(null)");
	}
}

/* The rows of st (text, path and any filter bound) to fn; see db_jscan_members. */
static int json_walk(sqlite3_stmt *st, db_jscan_member_fn fn, void *ctx)
{
	int rc, out = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct db_jscan_member m = { 0 };

		if (sqlite3_column_type(st, 0) == SQLITE_TEXT) {
			m.key = (const char *)sqlite3_column_text(st, 0);
			m.key_len = (size_t)sqlite3_column_bytes(st, 0);
		} else {
			m.index = sqlite3_column_int64(st, 0);
		}
		m.type = json_type_of(sqlite3_column_text(st, 1));
		m.path = (const char *)sqlite3_column_text(st, 3);
		if (m.type == DB_JSCAN_INTEGER) {
			m.i = sqlite3_column_int64(st, 2);
		} else if (m.type == DB_JSCAN_TEXT) {
			m.s = (const char *)sqlite3_column_text(st, 2);
			m.n = (size_t)sqlite3_column_bytes(st, 2);
		}
		if (fn(ctx, &m))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		out = 1;	/* malformed JSON, a bad path, or worse: the caller's other way decides */
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return out;
}

/* text and path bound to st's ?1 and ?2: 0, or 1 (reset) when binding failed. */
static int json_bind(sqlite3_stmt *st, const char *text, size_t len, const char *path)
{
	if (sqlite3_bind_text64(st, 1, text, len, SQLITE_STATIC, SQLITE_UTF8) != SQLITE_OK ||
	    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_reset(st);
		return 1;
	}
	return 0;
}

int db_jscan_members(struct db_jscan *j, const char *text, size_t len, const char *path,
		    db_jscan_member_fn fn, void *ctx)
{
	return json_bind(j->each, text, len, path) || json_walk(j->each, fn, ctx);
}

int db_jscan_strict(struct db_jscan *j, const char *text, size_t len)
{
	int ok;

	if (!j->strict)
		return 1;
	if (sqlite3_bind_text64(j->strict, 1, text, len, SQLITE_STATIC, SQLITE_UTF8) != SQLITE_OK) {
		sqlite3_reset(j->strict);
		return 0;
	}
	ok = sqlite3_step(j->strict) == SQLITE_ROW && sqlite3_column_int(j->strict, 0) == 1;
	sqlite3_reset(j->strict);
	sqlite3_clear_bindings(j->strict);
	return ok;
}

int db_jscan_named(struct db_jscan *j, const char *text, size_t len, const char *path,
		  const char *key1, const char *key2, db_jscan_member_fn fn, void *ctx)
{
	if (json_bind(j->named, text, len, path) ||
	    sqlite3_bind_text(j->named, 3, key1, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(j->named, 4, key2, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_reset(j->named);
		return 1;
	}
	return json_walk(j->named, fn, ctx);
}
