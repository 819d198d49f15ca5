/*
 * The index's schema, in parts. A part is a set of tables owned by one
 * feature; each has a version recorded in the schema_parts table:
 *
 *  - CONTENT parts hold what cannot be recomputed (run metadata; the raw
 *    output itself lives in the run directory, see index.h). A version change
 *    runs the part's idempotent migrate() ("exists and current", fossil).
 *  - DERIVED parts hold what the parsers make of the content (records, the
 *    dispatch call tree, ...). A version change drops and recreates their
 *    tables and forgets, in run_parts, which runs they had indexed, so that
 *    `pttrace reindex` rebuilds them from the content with today's parsers.
 *
 * PRAGMA application_id marks a pttrace database, PRAGMA user_version is
 * DB_SCHEMA_VERSION (the layout of schema_parts/run_parts themselves).
 * The schema text, with a comment per column and the dated change log, is
 * in schema.c and the parts' own files; docs/internals/index-schema.md
 * explains it. The list of parts is tracers/parts.c (pttrace_db_open).
 */
#ifndef PT_SCHEMA_H
#define PT_SCHEMA_H

#include <jansson.h>
#include <stddef.h>

#include "db.h"

#define DB_APPLICATION_ID 0x50545452	/* "PTTR" */
#define DB_SCHEMA_VERSION 1

enum schema_part_kind {
	SCHEMA_PART_CONTENT,
	SCHEMA_PART_DERIVED,
};

struct schema_part {
	const char *name;	/* "core", "lines", ... (schema_parts.name, run_parts.part) */
	enum schema_part_kind kind;
	int version;		/* bump on any change to create_sql */
	const char *create_sql;	/* CREATE ... IF NOT EXISTS, several statements */
	const char *drop_sql;	/* DERIVED: drops every table and index of the part */
	/*
	 * CONTENT: bring the part from version `from` (>= 1) to `version`;
	 * idempotent, runs inside the upgrade's transaction. NULL while only
	 * version 1 exists. Returns 0 or -1 (diag).
	 */
	int (*migrate)(struct db *ix, int from);
};

/*
 * db_open, then check application_id/user_version and create or upgrade
 * every part of parts[0..n) (in creation order: content before the derived
 * parts that refer to it), in one transaction. Read-only connections only
 * check (an out-of-date database is reported, not changed). The parts are
 * remembered on the connection (schema_part_find). parts must outlive it.
 * Returns 0, or -1 with the reason in diag (*out is then NULL).
 */
int schema_open(struct db **out, const char *path, unsigned flags,
		const struct schema_part *const *parts, size_t n, struct pt_diag *diag);

/* The part of the connection named name, or NULL. */
const struct schema_part *schema_part_find(struct db *ix, const char *name);

/*
 * Derived-part bookkeeping per run: mark that part `part` of run run_id was
 * built by this program's version of the part (state "done") or is being
 * built ("partial"), and ask whether it is current. 0 or -1 (diag);
 * schema_part_current returns 1 current, 0 not, -1 error.
 */
int schema_part_mark(struct db *ix, const char *part, int64_t run_id, const char *state);
int schema_part_current(struct db *ix, const char *part, int64_t run_id);

/*
 * Runs whose derived part p is not current (every run when all), that are
 * not still running, of the given source ("run", "import"; NULL: any), as
 * [{"id": N}...] in id order. NULL on error (diag).
 */
json_t *schema_stale_runs(struct db *ix, const struct schema_part *p, int all, const char *source);

#endif
