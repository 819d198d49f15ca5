/* Child process, pipes and signals; see capture.h. */
#include "capture.h"

#include "clock.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAPTURE_BUF (256u << 10)
#define CAPTURE_PIPE_SIZE (1 << 20)

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFORWARDED (PT_ARRAY_SIZE(forwarded))
static volatile sig_atomic_t child_pgid;
static struct sigaction old_actions[NFORWARDED], old_pipe;
static int took_terminal;

static void forward(int sig)
{
	int saved = errno;

	if (child_pgid > 0)
		kill(-(pid_t)child_pgid, sig);
	errno = saved;
}


int capture_exit_code(const struct capture_result *res)
{
	return res->how == CAPTURE_EXITED ? res->code : 128 + res->code;
}

/* Our signal handlers and the terminal back as they were. */
static void restore(void)
{
	child_pgid = 0;
	if (took_terminal) {
		struct sigaction ign = { .sa_handler = SIG_IGN }, prev;

		sigaction(SIGTTOU, &ign, &prev);
		tcsetpgrp(0, getpgrp());
		sigaction(SIGTTOU, &prev, NULL);
		took_terminal = 0;
	}
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &old_actions[i], NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
}

int capture_start(struct capture *c, char *const *argv, char *const *envp, int passthrough,
		  int core, int *exec_errno, struct pt_diag *diag)
{
	int out[2], err[2], status[2];
	ssize_t n;
	int e = 0;
	pid_t parent = getpid();
	struct sigaction sa;
	int tty;

	memset(c, 0, sizeof(*c));
	c->out_fd = c->err_fd = -1;
	c->passthrough = passthrough;
	*exec_errno = 0;
	/* Installed before the fork: a Ctrl-C from now on goes to the child, not to us. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &sa, &old_actions[i]);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	/*
	 * With a terminal on stdin and us in its foreground, the child's group
	 * becomes the foreground (as a shell does): it can read the terminal
	 * (pdb) and gets Ctrl-C itself.
	 */
	tty = isatty(0) && tcgetpgrp(0) == getpgrp();
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 || pipe2(status, O_CLOEXEC) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "pipe: %s", strerror(errno));
		restore();
		return -1;
	}
	/* A bigger pipe buffer lets the child write on while we are busy (Linux, best effort). */
	fcntl(out[1], F_SETPIPE_SZ, CAPTURE_PIPE_SIZE);
	fcntl(err[1], F_SETPIPE_SZ, CAPTURE_PIPE_SIZE);
	c->pid = fork();
	if (c->pid < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "fork: %s", strerror(errno));
		restore();
		return -1;
	}
	if (c->pid == 0) {
		/* Child: own process group, pipes as stdout/stderr, default signals. */
		setpgid(0, 0);
		/*
		 * Should pttrace die (even SIGKILLed), the child gets SIGTERM, as when
		 * pttrace is terminated: nobody would read its output or record how it
		 * ended. If pttrace died before this line, do not start at all.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(125);
		if (tty) {
			signal(SIGTTOU, SIG_IGN);
			tcsetpgrp(0, getpid());
		}
		for (size_t i = 0; i < NFORWARDED; i++)
			signal(forwarded[i], SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGTTOU, SIG_DFL);
		if (core) {
			/* --core: cores up to the hard limit (ulimit -c in the child alone). */
			struct rlimit rl;

			if (getrlimit(RLIMIT_CORE, &rl) == 0) {
				rl.rlim_cur = rl.rlim_max;
				setrlimit(RLIMIT_CORE, &rl);
			}
		}
		if (dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
			_exit(125);
		execvpe(argv[0], argv, envp);
		e = errno;
		if (write(status[1], &e, sizeof(e)) < 0)
			_exit(125);
		_exit(e == ENOENT ? 127 : 126);
	}
	setpgid(c->pid, c->pid);	/* also here: no race with a signal before the child ran */
	child_pgid = c->pid;
	if (tty) {
		struct sigaction ign = { .sa_handler = SIG_IGN }, prev;

		sigaction(SIGTTOU, &ign, &prev);
		took_terminal = tcsetpgrp(0, c->pid) == 0;
		sigaction(SIGTTOU, &prev, NULL);
	}
	close(out[1]);
	close(err[1]);
	close(status[1]);
	c->out_fd = out[0];
	c->err_fd = err[0];
	/* The status pipe closes on a successful exec (CLOEXEC) or carries its errno. */
	do
		n = read(status[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(status[0]);
	if (n == sizeof(e)) {
		*exec_errno = e;
		waitpid(c->pid, NULL, 0);
		close(c->out_fd);
		close(c->err_fd);
		c->out_fd = c->err_fd = -1;
		restore();
		pt_diag_add(diag, PT_SEV_ERROR, argv[0], NULL, "cannot run: %s", strerror(e));
		return -1;
	}
	return 0;
}

static void passthrough(struct capture *c, int fd, const char *buf, size_t len)
{
	if (c->passthrough == 2)
		fd = 2;
	while (c->passthrough && len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* Our own output went away (a closed pager): keep spooling, stop copying. */
			c->passthrough = 0;
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

int capture_loop(struct capture *c, struct spool_writer *w, struct capture_result *res,
		 struct pt_diag *diag)
{
	char *buf = pt_xmalloc(CAPTURE_BUF);
	int rc = 0, status = 0;

	memset(res, 0, sizeof(*res));
	while ((c->out_fd >= 0 || c->err_fd >= 0)) {
		struct pollfd p[2] = { { c->out_fd, POLLIN, 0 }, { c->err_fd, POLLIN, 0 } };
		int n = poll(p, 2, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "poll: %s", strerror(errno));
			rc = -1;
			break;
		}
		for (int k = 0; k < 2; k++) {
			int *fd = k == 0 ? &c->out_fd : &c->err_fd;
			ssize_t got;

			if (*fd < 0 || !(p[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(*fd, buf, CAPTURE_BUF);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				close(*fd);
				*fd = -1;
				continue;
			}
			/* Spool first: a dead terminal must not cost a byte of the record. */
			if (spool_write(w, k + 1, buf, (size_t)got) < 0) {
				if (rc == 0 && c->spool_failed)
					c->spool_failed(c->arg);
				rc = -1;
			}
			passthrough(c, k + 1, buf, (size_t)got);
		}
	}
	free(buf);
	while (waitpid(c->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "waitpid: %s", strerror(errno));
			rc = -1;
			break;
		}
	}
	res->ended_us = pt_wall_us();
	if (WIFSIGNALED(status)) {
		res->how = CAPTURE_SIGNALED;
		res->code = WTERMSIG(status);
		res->core_dumped = WCOREDUMP(status) != 0;
	} else {
		res->how = CAPTURE_EXITED;
		res->code = WEXITSTATUS(status);
	}
	restore();
	return rc;
}
