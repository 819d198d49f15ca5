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
 * INDEX_SCHEMA_VERSION (the layout of schema_parts/run_parts themselves).
 * The schema text, with a comment per column and the dated change log, is
 * in index_schema.c; docs/internals/index-schema.md explains it.
 */
#ifndef PT_INDEX_SCHEMA_H
#define PT_INDEX_SCHEMA_H

#include "index.h"

#define INDEX_APPLICATION_ID 0x50545452	/* "PTTR" */
#define INDEX_SCHEMA_VERSION 1

enum index_part_kind {
	INDEX_PART_CONTENT,
	INDEX_PART_DERIVED,
};

struct index_part {
	const char *name;	/* "core", "lines", ... (schema_parts.name, run_parts.part) */
	enum index_part_kind kind;
	int version;		/* bump on any change to create_sql */
	const char *create_sql;	/* CREATE ... IF NOT EXISTS, several statements */
	const char *drop_sql;	/* DERIVED: drops every table and index of the part */
	/*
	 * CONTENT: bring the part from version `from` (>= 1) to `version`;
	 * idempotent, runs inside the upgrade's transaction. NULL while only
	 * version 1 exists. Returns 0 or -1 (diag).
	 */
	int (*migrate)(struct index *ix, int from);
};

/* Parts in creation order (content before the derived parts that refer to it). */
extern const struct index_part *const index_parts[];
extern const size_t index_nparts;

/* The parts issue 5 defines (index_schema.c). */
extern const struct index_part index_part_core;
extern const struct index_part index_part_lines;

/*
 * Check application_id/user_version and create or upgrade every part, in
 * one transaction. Read-only connections only check (an out-of-date
 * database is reported, not changed). Returns 0 or -1 (diag).
 */
int index_schema_ensure(struct index *ix);

/* The part named name, or NULL. */
const struct index_part *index_schema_part(const char *name);

/*
 * Derived-part bookkeeping per run: mark that part `part` of run run_id was
 * built by this program's version of the part (state "done") or is being
 * built ("partial"), and ask whether it is current. 0 or -1 (diag);
 * index_part_current returns 1 current, 0 not, -1 error.
 */
int index_part_mark(struct index *ix, const char *part, int64_t run_id, const char *state);
int index_part_current(struct index *ix, const char *part, int64_t run_id);

#endif
