/*
 * db_jscan.h: JSON scanners. JSON read by SQLite's own parser (json_each),
 * for a hot path that wants a few members of many small documents without
 * building them: jansson builds every value, one character at a time
 * (bench/README.md, issue 20: TORCH_TRACE envelopes, 0.43 s against
 * 0.17-0.23 s for two json_each passes). A scanner is an in-memory
 * connection of its own, for one thread. (Query results as JSON documents
 * are db_json.h's.)
 */
#ifndef PT_DB_JSCAN_H
#define PT_DB_JSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

enum db_jscan_type { DB_JSCAN_NULL, DB_JSCAN_TRUE, DB_JSCAN_FALSE, DB_JSCAN_INTEGER, DB_JSCAN_REAL,
		     DB_JSCAN_TEXT, DB_JSCAN_ARRAY, DB_JSCAN_OBJECT };
struct db_jscan_member {
	const char *key;	/* an object's member: its key (as SQLite gives it); NULL for an element */
	size_t key_len;
	int64_t index;		/* an array's element: its index */
	const char *path;	/* its path, as db_jscan_members takes one (json_each's fullkey) */
	enum db_jscan_type type;
	int64_t i;		/* DB_JSCAN_INTEGER */
	const char *s;		/* DB_JSCAN_TEXT: the string's value */
	size_t n;
};
/* Called per member, in the document's order; nonzero stops the walk. */
typedef int (*db_jscan_member_fn)(void *ctx, const struct db_jscan_member *m);
struct db_jscan;

/* A scanner, or NULL (diag). */
struct db_jscan *db_jscan_new(struct pt_diag *diag);
void db_jscan_free(struct db_jscan *j);

/*
 * The members of the object or array at path ("$": the document itself) of
 * text[0..len), in order, to fn; the pointers in a member last until fn
 * returns. 0 done (nothing at path: no call), 1 text is not JSON that SQLite
 * reads (or anything failed: the caller parses it another way).
 */
int db_jscan_members(struct db_jscan *j, const char *text, size_t len, const char *path,
		     db_jscan_member_fn fn, void *ctx);
/*
 * 1 when text[0..len) is JSON as RFC 8259 has it, 0 when json_each would read
 * it only as JSON5 (SQLite 3.42 and later read that too; json_valid with one
 * argument does not) or it is no JSON at all. Before 3.42, json_each reads
 * nothing else and this is 1 unchecked: db_jscan_members says the rest.
 */
int db_jscan_strict(struct db_jscan *j, const char *text, size_t len);

/*
 * The same for the members of the object at path whose key is key1 or key2
 * (the key as json_each gives it, escapes decoded), in order: the others
 * cost SQLite their key alone, no value and no path (issue 20).
 */
int db_jscan_named(struct db_jscan *j, const char *text, size_t len, const char *path,
		   const char *key1, const char *key2, db_jscan_member_fn fn, void *ctx);

#endif
