/*
 * rundir.c: the run directories beside the database (rundir.h): their
 * paths, made and removed.
 */
#include "rundir.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "fsutil.h"
#include "xalloc.h"

char *rundir_path(const struct db *ix, int64_t run_id)
{
	return pt_xasprintf("%s/runs/%lld", db_dir(ix), (long long)run_id);
}

int rundir_make(struct db *ix, int64_t run_id)
{
	char *d = rundir_path(ix, run_id);
	int rc = pt_mkdirs(d, 0700);

	if (rc < 0)
		pt_diag_add(db_diag(ix), PT_SEV_ERROR, d, NULL, "cannot create directory: %s",
			    strerror(errno));
	free(d);
	return rc;
}

static int rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT ? -1 : 0;
}

int rundir_remove(struct db *ix, int64_t run_id)
{
	char *d = rundir_path(ix, run_id);
	int rc = 0;

	if (access(d, F_OK) == 0 && nftw(d, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0) {
		pt_diag_add(db_diag(ix), PT_SEV_ERROR, d, NULL, "cannot remove: %s", strerror(errno));
		rc = -1;
	}
	free(d);
	return rc;
}
