/*
 * rundir.h: where runs keep their files. The database's directory (the
 * "data dir", db_dir: its path's symbolic links resolved) holds:
 *   <dir>/pttrace.db            the database (WAL mode: also -wal and -shm)
 *   <dir>/runs/<id>/            one directory per run (id = runs.id):
 *       stdout.log, stderr.log  the child's raw output, byte for byte
 *       order.bin               arrival order of the chunks of both (see spool.h)
 *       trace/                  TORCH_TRACE files (the child writes them)
 * Errors go to the connection's diag.
 */
#ifndef PT_RUNDIR_H
#define PT_RUNDIR_H

#include <stdint.h>

#include "db.h"

/* "<dir>/runs/<id>"; caller frees. */
char *rundir_path(const struct db *ix, int64_t run_id);

/* mkdir -p of the run's directory (mode 0700). Returns 0 or -1 (diag). */
int rundir_make(struct db *ix, int64_t run_id);

/* Remove a run's directory and everything in it. Returns 0 or -1 (diag). */
int rundir_remove(struct db *ix, int64_t run_id);

#endif
