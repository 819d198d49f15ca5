/*
 * The hook `pttrace run` calls after the child ends (issue 5's cmd_run.c,
 * TRACE_HOOK): index every file of <run dir>/trace/. Implemented in
 * trace_ingest.c; same as trace_index_run_dir() without progress.
 */
#ifndef PT_TRACE_INDEX_H
#define PT_TRACE_INDEX_H

#include <stdint.h>

#include "diag.h"
#include "index.h"

/* 0, or -1 on a database error (problems in the files are warnings in diag). */
int trace_index_run(struct index *ix, int64_t run_id, struct pt_diag *diag);

#endif
