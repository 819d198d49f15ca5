/*
 * db_internal.h: what the store's other SQLite files (db_feed.c, db_jscan.c)
 * need of db.c's connection: its sqlite3 handle, its error report, its list
 * of row feeds, and the hardening every connection gets. For tracers/store/
 * only: no file outside the folder includes it (include_graph.sh).
 */
#ifndef PT_DB_INTERNAL_H
#define PT_DB_INTERNAL_H

struct db;
struct db_feed;
struct sqlite3;

/* The connection's SQLite handle. */
struct sqlite3 *db_handle(struct db *ix);

/*
 * Report the connection's last SQLite error to its diag:
 * "<call>: <sqlite message>", at the database's path, sql as the place.
 */
void db_sql_error(struct db *ix, const char *call, const char *sql);

/* The head of the connection's list of row feeds (db_feed.c's; SQLite frees them at close). */
struct db_feed **db_feeds(struct db *ix);

/*
 * What SQL may do on any connection of ours, the database's or an
 * in-memory one: no fts3_tokenizer(), defensive mode. SQLITE_OK, or the
 * authorizer's error code.
 */
int db_harden(struct sqlite3 *db);

#endif
