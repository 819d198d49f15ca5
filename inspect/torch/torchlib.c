/* at::show_config() in a child process; see torchlib.h. */
#include "torchlib.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "strbuf.h"
#include "fsutil.h"
#include "xalloc.h"

#define TORCHLIB_MAX_TEXT (1u << 20)

/* at::show_config() -> std::string, new (C++11) ABI, then the old COW ABI. */
static const char SYM_CXX11[] = "_ZN2at11show_configB5cxx11Ev";
static const char SYM_OLD[] = "_ZN2at11show_configEv";	/* BACKCOMPAT: _GLIBCXX_USE_CXX11_ABI=0 builds */

/*
 * The child. A std::string is not trivially copyable, so the x86-64 and
 * AArch64 C++ ABIs return it through a hidden pointer passed as the first
 * argument: from C that is a function taking a pointer to 32 bytes. The
 * libstdc++ layouts: new ABI {char *p; size_t len; char buf[16]}; old ABI
 * {char *p} with the length 3 words before p (_Rep: length, capacity, refcount).
 */
static void child(const char *lib, int fd, int timeout_s)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	void *h, *sym;
	_Alignas(16) unsigned char ret[64];
	const char *p;
	size_t len;
	char status;

	/*
	 * Die by the signal, so the parent can name it: a sanitizer's handler
	 * (ASan in the test tree) would turn a crash into exit status 1.
	 */
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	/* Its own process group: the parent kills it and whatever it forks, together. */
	setpgid(0, 0);
	alarm((unsigned)timeout_s);	/* a courtesy: the parent's deadline is what holds */
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();

		status = 'D';
		if (pt_write_all(fd, &status, 1) < 0 || pt_write_all(fd, e, strlen(e)) < 0)
			_exit(3);
		_exit(1);
	}
	memset(ret, 0, sizeof(ret));
	if ((sym = dlsym(h, SYM_CXX11))) {
		((void *(*)(void *))sym)(ret);
		memcpy(&p, ret, sizeof(p));
		memcpy(&len, ret + sizeof(p), sizeof(len));
	} else if ((sym = dlsym(h, SYM_OLD))) {
		((void *(*)(void *))sym)(ret);
		memcpy(&p, ret, sizeof(p));
		memcpy(&len, p - 3 * sizeof(size_t), sizeof(len));
	} else {
		status = 'S';
		if (pt_write_all(fd, &status, 1) < 0)
			_exit(3);
		_exit(1);
	}
	status = 'T';
	if (pt_write_all(fd, &status, 1) < 0 ||
	    pt_write_all(fd, p, len < TORCHLIB_MAX_TEXT ? len : TORCHLIB_MAX_TEXT) < 0)
		_exit(3);
	/* No destructors: the library's atexit handlers are not ours to run. */
	_exit(0);
}

/* The pipe into sb until EOF, the child's exit, or the deadline; 1 when the deadline passed. */
static int read_child(int fd, pid_t pid, uint64_t deadline, struct pt_strbuf *sb, int *st,
		      bool *reaped)
{
	char buf[4096];

	for (;;) {
		uint64_t now = pt_now_ns();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait_ms, r;
		ssize_t n;

		if (now >= deadline)
			return 1;
		/* Wake at least every 100 ms to see whether the child is gone. */
		wait_ms = (int)((deadline - now) / 1000000 + 1);
		if (wait_ms > 100)
			wait_ms = 100;
		r = poll(&pfd, 1, wait_ms);
		if (r < 0 && errno != EINTR)
			return 0;
		if (r > 0) {
			n = read(fd, buf, sizeof(buf));
			if (n == 0)
				return 0;	/* EOF: every writer is gone */
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				return 0;
			if (n > 0 && pt_strbuf_add(sb, buf, (size_t)n) < 0)
				return 0;
			continue;
		}
		/*
		 * The child exited but the pipe is still open: something it forked
		 * holds it (the review's B9). What the child wrote is all there is.
		 */
		if (!*reaped && waitpid(pid, st, WNOHANG) == pid) {
			*reaped = true;
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				if (pt_strbuf_add(sb, buf, (size_t)n) < 0)
					break;
			return 0;
		}
	}
}

int torchlib_show_config(const char *lib, int timeout_s, char **text, struct pt_diag *diag)
{
	int fds[2], st = 0, rc = -1, timed_out;
	bool reaped = false;
	struct pt_strbuf sb;
	pid_t pid;

	*text = NULL;
	if (timeout_s <= 0)
		timeout_s = TORCHLIB_TIMEOUT_S;
	pt_strbuf_init(&sb, TORCHLIB_MAX_TEXT + 4096);
	if (pipe(fds) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, lib, NULL, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, lib, NULL, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		child(lib, fds[1], timeout_s);
	}
	setpgid(pid, pid);	/* also here: no window where a kill of the group misses it */
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	timed_out = read_child(fds[0], pid, pt_now_ns() + (uint64_t)timeout_s * 1000000000u, &sb,
			       &st, &reaped);
	close(fds[0]);
	/* Whatever is left of its process group (a hung child, a forked grandchild) goes now. */
	kill(-pid, SIGKILL);
	if (!reaped)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	if (timed_out || (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)) {
		pt_diag_add(diag, PT_SEV_ERROR, lib, "at::show_config()",
			    "the child did not finish in %d s: killed", timeout_s);
	} else if (WIFSIGNALED(st)) {
		pt_diag_add(diag, PT_SEV_ERROR, lib, "at::show_config()",
			    "the child was killed by signal %d", WTERMSIG(st));
	} else if (sb.len && sb.buf[0] == 'D') {
		pt_diag_add(diag, PT_SEV_ERROR, lib, NULL, "dlopen: %s", sb.buf + 1);
	} else if (sb.len && sb.buf[0] == 'S') {
		pt_diag_add(diag, PT_SEV_ERROR, lib, NULL,
			    "no exported at::show_config() (%s): not a libtorch_cpu library", SYM_CXX11);
	} else if (sb.len && sb.buf[0] == 'T' && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		*text = pt_xstrndup(sb.buf + 1, sb.len - 1);
		rc = 0;
	} else {
		pt_diag_add(diag, PT_SEV_ERROR, lib, "at::show_config()",
			    "the child exited with status %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	pt_strbuf_release(&sb);
	return rc;
}
