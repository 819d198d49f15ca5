/*
 * Run a child with its stdout and stderr on pipes, in its own process
 * group: spool every byte (spool.h) as fast as it comes, optionally copy it
 * live to our own stdout/stderr, forward SIGINT/SIGTERM/SIGHUP/SIGQUIT to the
 * child's process group, and report how it ended. The child is never
 * throttled by indexing: indexing reads the spool files in another thread.
 * Reading goes on until both pipes are closed by every process holding them
 * (workers the child forked included), like a shell pipeline's reader.
 */
#ifndef PT_CAPTURE_H
#define PT_CAPTURE_H

#include <stdint.h>
#include <sys/types.h>

#include "diag.h"
#include "spool.h"

struct capture {
	pid_t pid;		/* the child; also its process group id */
	int out_fd, err_fd;	/* read ends; -1 once closed */
	int passthrough;	/* copy to our stdout/stderr; 2: both to our stderr (stdout is JSON) */
	/* Called once, at the first chunk the spool could not keep (its error is in
	 * the diag given to capture_loop), so it can be shown while the child runs
	 * on; set after capture_start. May be NULL. */
	void (*spool_failed)(void *arg);
	void *arg;
};

enum capture_how {
	CAPTURE_EXITED,		/* code: exit status */
	CAPTURE_SIGNALED,	/* code: signal number */
};

struct capture_result {
	enum capture_how how;
	int code;
	int core_dumped;	/* CAPTURE_SIGNALED: the kernel dumped core (WCOREDUMP) */
	int64_t ended_us;	/* UTC microseconds when the child was reaped */
};

/*
 * Fork and exec argv (argv[0] searched in PATH) with envp; with core, the
 * child's RLIMIT_CORE soft limit raised to its hard limit. Returns 0 once
 * the exec succeeded; -1 with *exec_errno set when it did not (ENOENT: not
 * found, EACCES/ENOEXEC...: not executable), or with *exec_errno 0 for
 * another failure (diag).
 */
int capture_start(struct capture *c, char *const *argv, char *const *envp, int passthrough,
		  int core, int *exec_errno, struct pt_diag *diag);

/*
 * Pump both pipes into w until they close, then reap the child. Signals
 * listed above are forwarded meanwhile. 0 and *res, or -1 (diag; the child
 * has still been waited for when possible).
 */
int capture_loop(struct capture *c, struct spool_writer *w, struct capture_result *res,
		 struct pt_diag *diag);

/* The exit code `env`/`timeout` would give: the code, or 128 + signal. */
int capture_exit_code(const struct capture_result *res);

#endif
