/*
 * db_json.h: query results as JSON documents. Every row an object (column
 * name -> integer, real, string or null), for --json output and `pttrace
 * sql`. Internal data should use structs (runs.h's struct run_row), not
 * these. (Reading JSON with SQLite's parser is db_jscan.h's.)
 */
#ifndef PT_DB_JSON_H
#define PT_DB_JSON_H

#include <jansson.h>

#include "db.h"

/*
 * Run sql with the values bound as db_bind's fmt says, and return every
 * row as a JSON object (column name -> integer, real, string or null; blobs
 * as lossy strings) in an array. NULL on error (diag). Caller decrefs.
 */
json_t *db_json(struct db *ix, const char *sql, const char *fmt, ...);

/* The current row of a stepped statement (db_step returned 1) as one object. */
json_t *db_row_json(struct db_stmt *s);

/* The same for a statement already prepared and bound. */
json_t *db_rows_json(struct db_stmt *s);

#endif
