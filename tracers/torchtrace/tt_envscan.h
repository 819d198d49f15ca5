/*
 * TORCH_TRACE envelopes read with SQLite's JSON parser (store/db.h's
 * db_jscan_members) for the reader's scan hook (parse/torchtrace.h
 * tt_env_scan_fn): the fields an import keeps, with no JSON objects built.
 * jansson, the reader's own parse, builds every value one character at a
 * time and was a third of an import's CPU (bench/README.md, issue 20).
 *
 * Exact or not at all: an envelope is scanned only when both parsers read it
 * the same way, else it goes to jansson (which also words the error of a
 * damaged one). Left to jansson: any byte under 0x20 or over 0x7e (control
 * characters, invalid UTF-8, which jansson refuses), a \u0000 or surrogate
 * escape (jansson refuses those SQLite takes), a number of 19 digits or
 * more or with an exponent (jansson refuses integers beyond 64 bits and
 * reals that overflow), a key twice at the top (jansson keeps the last value
 * in the first one's place), a kind key with a quote or backslash, more than
 * TT_ENVSCAN_KEYS top-level keys, whatever SQLite does not read as JSON, and
 * JSON5, which SQLite reads from 3.42 on (Debian 13's 3.46) and jansson
 * refuses (db_jscan_strict: json_valid, only on such a SQLite).
 * Inside the kind's object the last "name" and "filename" win, as in jansson.
 */
#ifndef PT_TT_ENVSCAN_H
#define PT_TT_ENVSCAN_H

#include <stddef.h>

#include "torchtrace.h"

#define TT_ENVSCAN_KEYS 32

struct tt_envscan;

/* One per thread. NULL (diag) when SQLite cannot open an in-memory database. */
struct tt_envscan *tt_envscan_new(struct pt_diag *diag);
void tt_envscan_free(struct tt_envscan *s);

/* The scan hook (ctx: a struct tt_envscan). */
int tt_envscan(void *ctx, const char *json, size_t len, struct tt_env_fields *out);

#endif
