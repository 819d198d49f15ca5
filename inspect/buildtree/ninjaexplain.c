/*
 * `ninja -C DIR -n -d explain`, its stdout and stderr read through one pipe
 * with a deadline; ninja writes "ninja explain: ..." (why an edge is dirty)
 * and "[i/N] description" (what it would run). Lines are capped in number
 * and length; the child is killed at the deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ninjaexplain.h"
#include "strbuf.h"
#include "xalloc.h"

#define MAX_LINES 100000
#define OUT_MAX (64u << 20)

extern char **environ;

static void take_line(struct ninja_explain *x, const char *s, size_t n)
{
	static const char pfx[] = "ninja explain: ";

	if (n > 1 && s[0] == '[' && memchr(s, '/', n) && memchr(s, ']', n))
		x->n_would_run++;
	if (n < sizeof(pfx) - 1 || memcmp(s, pfx, sizeof(pfx) - 1) || x->n >= MAX_LINES)
		return;
	PT_GROW(x->lines, x->n, x->alloc);
	x->lines[x->n++] = pt_xstrndup(s + sizeof(pfx) - 1, n - (sizeof(pfx) - 1));
}

int ninja_explain_run(const char *dir, unsigned timeout_s, struct ninja_explain *x, struct pt_diag *d)
{
	char *argv[] = { (char *)"ninja", (char *)"-C", (char *)dir, (char *)"-n", (char *)"-d",
			 (char *)"explain", NULL };
	posix_spawn_file_actions_t fa;
	struct pt_strbuf out;
	int p[2], st = 0, rc;
	pid_t pid;
	time_t deadline = time(NULL) + (time_t)timeout_s;

	memset(x, 0, sizeof(*x));
	if (pipe2(p, O_CLOEXEC) < 0) {
		pt_diag_add(d, PT_SEV_WARNING, "ninja", NULL, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[1], 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	rc = posix_spawnp(&pid, "ninja", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc != 0) {
		close(p[0]);
		if (rc == ENOENT)
			return 0;	/* no ninja here: x->ran stays 0 */
		pt_diag_add(d, PT_SEV_WARNING, "ninja", NULL, "cannot run: %s", strerror(rc));
		return -1;
	}
	x->ran = 1;
	pt_strbuf_init(&out, OUT_MAX);
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		time_t now = time(NULL);
		char buf[65536];
		ssize_t n;

		if (now >= deadline) {
			kill(pid, SIGKILL);
			pt_diag_add(d, PT_SEV_WARNING, "ninja", NULL, "'ninja -n -d explain' took over %u s: killed",
				    timeout_s);
			break;
		}
		if (poll(&pf, 1, (int)(deadline - now) * 1000) <= 0)
			continue;
		n = read(p[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pt_strbuf_add_trunc(&out, buf, (size_t)n);	/* past OUT_MAX: the rest is dropped */
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	x->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	for (const char *s = pt_strbuf_str(&out), *end = s + out.len; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;

		take_line(x, s, (size_t)(e - s));
		s = nl ? nl + 1 : end;
	}
	pt_strbuf_release(&out);
	return 0;
}

void ninja_explain_release(struct ninja_explain *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->lines[i]);
	free(x->lines);
	memset(x, 0, sizeof(*x));
}
