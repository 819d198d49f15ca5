/* A child process read with a deadline, its process group killed; see childwait.h. */
#include "childwait.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "strbuf.h"
#include "xalloc.h"

void childwait_in_child(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

	for (size_t i = 0; i < PT_ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	/* Its own process group: the parent kills it and whatever it forks, together. */
	setpgid(0, 0);
	/* Ctrl-C reaches ptinspect's group, not this one: die with the parent. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/* Has the marker appeared in out from byte from on? */
static bool marker_from(const struct pt_strbuf *out, size_t from, const char *marker)
{
	size_t ml = strlen(marker);

	return out->len >= from + ml && memmem(out->buf + from, out->len - from, marker, ml);
}

enum { READ_EOF, READ_EXITED, READ_DEADLINE };

/*
 * The pipe into out until EOF, the child's exit or the deadline (restarted
 * by the marker). quiet_ms > 0: also stop once no byte came for that long
 * after the first (the nudge's dump is written at once).
 */
static int read_until(pid_t pid, int fd, uint64_t deadline, uint64_t restart_ns,
		      const char *marker, int quiet_ms, struct pt_strbuf *out,
		      struct childwait_result *res, bool *reaped)
{
	char buf[8192];
	size_t scanned = out ? out->len : 0;
	uint64_t last = 0;

	for (;;) {
		uint64_t now = pt_now_ns();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait_ms, r;
		ssize_t n;

		if (now >= deadline)
			return READ_DEADLINE;
		if (quiet_ms > 0 && last && now - last >= (uint64_t)quiet_ms * 1000000u)
			return READ_DEADLINE;
		/* Wake at least every 100 ms to see whether the child is gone. */
		wait_ms = (int)((deadline - now) / 1000000 + 1);
		if (wait_ms > 100)
			wait_ms = 100;
		r = poll(&pfd, 1, wait_ms);
		if (r < 0 && errno != EINTR)
			return READ_EOF;
		if (r > 0) {
			n = read(fd, buf, sizeof(buf));
			if (n == 0)
				return READ_EOF;	/* every writer is gone */
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				return READ_EOF;
			if (n > 0 && out) {
				pt_strbuf_add_trunc(out, buf, (size_t)n);	/* past the cap: dropped */
				last = pt_now_ns();
				if (marker && restart_ns && marker_from(out, scanned, marker)) {
					res->restarts++;
					deadline = pt_now_ns() + restart_ns;
					scanned = out->len;
				} else if (marker && out->len > strlen(marker)) {
					/* The marker may straddle two reads. */
					scanned = out->len - strlen(marker);
				}
			}
			continue;
		}
		/*
		 * The child exited but the pipe is still open: something it forked
		 * holds it (fault-matrix.md B9). What the child wrote is all there is.
		 */
		if (!*reaped && waitpid(pid, &res->status, WNOHANG) == pid) {
			*reaped = true;
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				if (out)
					pt_strbuf_add_trunc(out, buf, (size_t)n);
			return READ_EXITED;
		}
	}
}

int childwait_collect(pid_t pid, int fd, const struct childwait_opts *o, struct pt_strbuf *out,
		      struct childwait_result *res)
{
	uint64_t t_ns = (uint64_t)(o->timeout_s > 0 ? o->timeout_s : 1) * 1000000000u;
	bool reaped = false;

	memset(res, 0, sizeof(*res));
	setpgid(pid, pid);	/* also here: no window where a kill of the group misses it */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (read_until(pid, fd, pt_now_ns() + t_ns, o->restart_marker ? t_ns : 0, o->restart_marker,
		       0, out, res, &reaped) == READ_DEADLINE) {
		res->timed_out = true;
		if (o->nudge_signal && !reaped && kill(pid, o->nudge_signal) == 0)
			read_until(pid, fd, pt_now_ns() + (uint64_t)o->nudge_ms * 1000000u, 0, NULL,
				   200, out, res, &reaped);
	}
	close(fd);
	/* Whatever is left of its process group (a hung child, a forked grandchild) goes now. */
	kill(-pid, SIGKILL);
	if (!reaped)
		while (waitpid(pid, &res->status, 0) < 0 && errno == EINTR)
			;
	return 0;
}

int childwait_exec(char *const argv[], int quiet, const struct childwait_opts *o,
		   struct pt_strbuf *out, struct childwait_result *res)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		int nul;

		childwait_in_child();
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		nul = open("/dev/null", O_RDWR);
		if (nul >= 0) {
			dup2(nul, 0);
			if (quiet)
				dup2(nul, 2);
			if (nul > 2)
				close(nul);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	return childwait_collect(pid, fds[0], o, out, res);
}
