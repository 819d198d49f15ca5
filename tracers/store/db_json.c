/* db_json.c: query results as JSON rows (db_json.h), built with jansson. */
#include "db_json.h"

#include <stdarg.h>

#include "jsonout.h"

/* One column of the current row as JSON. */
static json_t *col_json(struct db_stmt *s, int c)
{
	switch (db_col_type(s, c)) {
	case DB_COL_INT:
		return json_integer(db_col_int(s, c));
	case DB_COL_FLOAT:
		return json_real(db_col_double(s, c));
	case DB_COL_NULL:
		return json_null();
	default:
		return pt_json_strn_lossy(db_col_text(s, c), db_col_bytes(s, c));
	}
}

json_t *db_json(struct db *ix, const char *sql, const char *fmt, ...)
{
	struct db_stmt *s = db_prepare(ix, sql);
	va_list ap;
	int rc = 0;

	if (!s)
		return NULL;
	va_start(ap, fmt);
	rc = db_vbind(s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return NULL;
	return db_rows_json(s);
}

json_t *db_row_json(struct db_stmt *s)
{
	json_t *o = json_object();

	for (int c = 0; c < db_col_count(s); c++)
		json_object_set_new(o, db_col_name(s, c), col_json(s, c));
	return o;
}

json_t *db_rows_json(struct db_stmt *s)
{
	json_t *rows = json_array();
	int rc;

	while ((rc = db_step(s)) == 1)
		json_array_append_new(rows, db_row_json(s));
	if (rc < 0) {
		json_decref(rows);
		return NULL;
	}
	return rows;
}
