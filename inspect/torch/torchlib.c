/* at::show_config() in a child process; see torchlib.h. */
#include "torchlib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "childwait.h"
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
	void *h, *sym;
	_Alignas(16) unsigned char ret[64];
	const char *p;
	size_t len;
	char status;

	/*
	 * Its own process group, and dies by the signal, so the parent can name
	 * it: a sanitizer's handler (ASan in the test tree) would turn a crash
	 * into exit status 1.
	 */
	childwait_in_child();
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

int torchlib_show_config(const char *lib, int timeout_s, char **text, struct pt_diag *diag)
{
	int fds[2], st, rc = -1, timed_out;
	struct childwait_opts wo = { 0 };
	struct childwait_result res;
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
	close(fds[1]);
	wo.timeout_s = timeout_s;
	childwait_collect(pid, fds[0], &wo, &sb, &res);
	st = res.status;
	timed_out = res.timed_out;
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
