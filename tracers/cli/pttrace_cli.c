/*
 * pttrace's side of the CLI skeleton (common/cli.h): opening the database
 * and resolving RUN as the subcommand table's flags say, and printing
 * diagnostics under the program's name and colour policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pttrace.h"

int pttrace_cmd_open(struct pt_cli *cli, const char *run_spec, struct db **ix, int64_t *run_id,
		     struct pt_diag *diag)
{
	unsigned f = cli->cmd ? cli->cmd->flags : 0, mode;
	char *path;
	int rc;

	if (!(f & (PT_NEEDS_DB_RO | PT_NEEDS_DB_RW)))
		PT_BUG("pttrace %s opens the database without PT_NEEDS_DB_* in the table",
		       cli->cmd ? cli->cmd->name : "?");
	if (f & PT_NEEDS_DB_RO)
		mode = DB_READONLY;
	else if (f & PT_NEEDS_DB_EXISTING)
		mode = DB_NO_CREATE;
	else
		mode = 0;
	/* The default location is created whole; a named one (--db, PTTRACE_DB) only its last level. */
	if (!(cli->db && *cli->db) && !(getenv("PTTRACE_DB") && *getenv("PTTRACE_DB")))
		mode |= DB_MKDIRS;
	path = db_default_path(cli->db);
	rc = pttrace_db_open(ix, path, mode, diag);
	free(path);
	if (rc == 0 && (f & PT_NEEDS_RUN) && run_spec && runs_resolve(*ix, run_spec, run_id) < 0) {
		db_close(*ix);
		*ix = NULL;
		rc = -1;
	}
	if (rc < 0) {
		pttrace_print_diag(cli, diag);
		pt_diag_release(diag);
	}
	return rc;
}

void pttrace_print_diag(struct pt_cli *cli, struct pt_diag *diag)
{
	pt_diag_print(diag, stderr, cli->prog, cli->color_err);
}

int pttrace_stdout_done(struct pt_diag *diag)
{
	int err = 0;

	if (fflush(stdout) == EOF || ferror(stdout))
		err = errno ? errno : EIO;
	if (!err)
		return 0;
	if (err == EPIPE)
		return 1;
	pt_diag_add(diag, PT_SEV_ERROR, "stdout", NULL, "write: %s", strerror(err));
	return -1;
}
