/*
 * Crafted TORCH_TRACE files for the tracers' unit tests (with ptest_db.h):
 * a glog prefix, compile-id fields and a chromium event to write records with,
 * a record line with its payload and md5, and the file put in a run's trace/.
 */
#ifndef PT_PTEST_TT_H
#define PT_PTEST_TT_H

#include <stdint.h>

#include "ptest_db.h"

/* The glog prefix of a record, compile-id JSON fields, one chromium event. */
#define P "V1122 02:53:36.047000 31651 torch/_dynamo/utils.py:1318] "
#define CID(fr, c, a) "\"frame_id\": " #fr ", \"frame_compile_id\": " #c ", \"attempt\": " #a
#define EV(ts) "\t{\n\t\"name\": \"dynamo\",\n\t\"ts\": " #ts ",\n\t\"ph\": \"B\",\n\t\"pid\": 0\n\t}\n"

/* A new run of source "import" named name. Its id. */
int64_t ptest_tt_new_run(struct ptest_db *f, const char *name);

/* Write <run dir>/trace/<name> with text. */
void ptest_tt_put(struct ptest_db *f, int64_t run, const char *name, const char *text);

/* A record line of kind with extra JSON fields and payload (tab-indented, md5 declared); malloc'd. */
char *ptest_tt_payload_line(const char *kind, const char *extra, const char *payload);

/*
 * Two runs indexed from crafted files: *a has ranks 0 and 1 that compiled
 * different graphs ([0/0] "G", [0/1] "H") and rank 3 with two chromium events
 * only (the second's md5 is not the declared one); *b has rank 0's [0/0] as "G changed".
 */
void ptest_tt_two_runs(struct ptest_db *f, int64_t *a, int64_t *b);

/* The integer of sql's first row with ?1 bound to run; -99 for NULL. */
int64_t ptest_tt_int(struct ptest_db *f, const char *sql, int64_t run);

#endif
