/*
 * A child process ptinspect waits for with a deadline: the one way it runs
 * code it does not trust to return (torchlib's at::show_config() in a forked
 * child, the ptinspect-pyenv helper, `python -c 'import torch'`). The child
 * leads its own process group and dies with ptinspect (PR_SET_PDEATHSIG). Its
 * stdout is read until EOF, its exit or the deadline; then its whole process
 * group is killed (SIGKILL), so a child that ignores SIGALRM or forks (a
 * grandchild holding the pipe) cannot keep ptinspect waiting, and the child
 * is reaped. A grandchild that keeps the pipe open is not waited for once the
 * child has exited (fault-matrix.md B9).
 */
#ifndef PT_CHILDWAIT_H
#define PT_CHILDWAIT_H

#include <stdbool.h>
#include <sys/types.h>

struct pt_strbuf;

struct childwait_opts {
	int timeout_s;		/* > 0 */
	/*
	 * Optional: when this line appears in the output, the deadline starts
	 * again (a child that reports its stages: the interpreter's start,
	 * then the import, each with timeout_s).
	 */
	const char *restart_marker;
	/*
	 * Optional: at the deadline this signal goes to the child itself (not
	 * its group) and its output is read for up to nudge_ms more (less once
	 * it falls quiet) before the kill: the pyenv helper dumps the Python
	 * stack of every thread on it (faulthandler).
	 */
	int nudge_signal;
	int nudge_ms;
};

struct childwait_result {
	int status;		/* the wait status */
	bool timed_out;		/* the deadline passed: the group was killed */
	int restarts;		/* how often restart_marker was seen (0 or more) */
};

/*
 * In the child right after fork(): its own process group, SIGKILL when the
 * parent dies, the fatal signals at their defaults (so the parent can name
 * one: a sanitizer's handler would turn a crash into exit status 1).
 */
void childwait_in_child(void);

/*
 * Read fd (the child's stdout; closed here) into out (appends past its cap
 * are dropped) under the deadline, then kill pid's process group and reap
 * pid. Returns 0.
 */
int childwait_collect(pid_t pid, int fd, const struct childwait_opts *o, struct pt_strbuf *out,
		      struct childwait_result *res);

/*
 * fork + exec argv (argv[0] a path) with stdin from /dev/null, stdout into
 * out, stderr kept or (quiet) to /dev/null, then childwait_collect. Returns
 * 0, or -1 when it could not start (errno set).
 */
int childwait_exec(char *const argv[], int quiet, const struct childwait_opts *o,
		   struct pt_strbuf *out, struct childwait_result *res);

#endif
