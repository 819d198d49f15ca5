/*
 * For the fuzz targets that drive an indexer: one pttrace database in a
 * private directory for the whole process (under /dev/shm when it exists),
 * removed at exit, with one run in it. Not a target itself (no fuzz_ prefix
 * in its .c name: header only).
 */
#ifndef PT_FUZZ_DB_H
#define PT_FUZZ_DB_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "db.h"
#include "parts.h"
#include "runs.h"
#include "rundir.h"

static char fuzz_db_dir[256];

static int fuzz_db_rm(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)type;
	(void)f;
	return remove(p);
}

static void fuzz_db_cleanup(void)
{
	if (fuzz_db_dir[0])
		nftw(fuzz_db_dir, fuzz_db_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* The database and run (created on the first call); aborts when it cannot. */
static struct db *fuzz_db(int64_t *run, struct pt_diag **diag)
{
	static struct db *ix;
	static int64_t id;
	static struct pt_diag d;

	if (!ix) {
		char path[300];
		char *argv[] = { "fuzz" };
		struct run_info ri = { .source = "run", .argv = argv, .argc = 1,
				       .started_us = 1795315638000000 };

		snprintf(fuzz_db_dir, sizeof(fuzz_db_dir), "%s/ptools-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(fuzz_db_dir))
			abort();
		atexit(fuzz_db_cleanup);
		snprintf(path, sizeof(path), "%s/pttrace.db", fuzz_db_dir);
		pt_diag_init(&d);
		setenv("PT_JOBS", "1", 1);	/* no worker threads: one input, one thread */
		if (pttrace_db_open(&ix, path, 0, &d) < 0 || runs_create(ix, &ri, &id) < 0 ||
		    rundir_make(ix, id) < 0) {
			pt_diag_print(&d, stderr, "fuzz", 0);
			abort();
		}
	}
	pt_diag_release(&d);
	pt_diag_init(&d);
	*run = id;
	*diag = &d;
	return ix;
}

#endif
