/*
 * db_feed.h: row feeds. A caller's rows shown to SQLite as a table of this
 * connection only (an eponymous virtual table, nothing written to the
 * schema), so that one "INSERT INTO t(cols) SELECT * FROM name" takes a
 * whole batch. SQLite then reads each value as it reads a table's column,
 * with no binding and no VALUES rows to run: about 1.4x less CPU per row
 * than a multi-row INSERT ... VALUES with every value bound (bench/README.md,
 * issue 20). col gives row `row`, column `col` (from 0, in the order of
 * `columns`) of the rows passed to db_feed_run; text is not copied and must
 * stay as it is until db_feed_run returns. Errors go to the connection's diag.
 */
#ifndef PT_DB_FEED_H
#define PT_DB_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

enum db_val_type { DB_VAL_NULL, DB_VAL_INT, DB_VAL_TEXT };
struct db_val {
	enum db_val_type type;
	int64_t i;		/* DB_VAL_INT */
	const char *s;		/* DB_VAL_TEXT: s[0..n), any bytes */
	size_t n;
};
typedef void (*db_feed_col_fn)(const void *rows, size_t row, int col, struct db_val *out);
struct db_feed;

/*
 * Declare the feed `name` (an SQL identifier) with these columns ("a, b,
 * c") on ix; declaring a name again gives the feed already declared. NULL on
 * error (diag). db_close frees it.
 */
struct db_feed *db_feed_declare(struct db *ix, const char *name, const char *columns,
				db_feed_col_fn col);

/*
 * Step ins, a statement of ix that reads the feed (prepared after
 * db_feed_declare), to its end with n rows of `rows` showing; the feed shows
 * none again afterwards. 0 or -1 (diag).
 */
int db_feed_run(struct db_feed *f, struct db_stmt *ins, const void *rows, size_t n);

#endif
