/* Where a crash's core went; see corefind.h. */
#include "corefind.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "xalloc.h"

int corefind_signal_dumps(int sig)
{
	switch (sig) {
	case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS: case SIGFPE:
	case SIGSEGV: case SIGXCPU: case SIGXFSZ: case SIGSYS:
		return 1;
	default:
		return 0;
	}
}

/* Append c to the glob, escaped when glob(3) would read it as special. */
static int glob_lit(char *g, size_t cap, size_t *n, char c)
{
	if (c == '*' || c == '?' || c == '[' || c == '\\') {
		if (*n + 1 >= cap)
			return -1;
		g[(*n)++] = '\\';
	}
	if (*n + 1 >= cap)
		return -1;
	g[(*n)++] = c;
	g[*n] = '\0';
	return 0;
}

static int glob_lits(char *g, size_t cap, size_t *n, const char *s)
{
	for (; *s; s++)
		if (glob_lit(g, cap, n, *s) < 0)
			return -1;
	return 0;
}

static int glob_star(char *g, size_t cap, size_t *n)
{
	/* Two unknown specifiers in a row are one '*'. */
	if (*n && g[*n - 1] == '*' && (*n < 2 || g[*n - 2] != '\\'))
		return 0;
	if (*n + 1 >= cap)
		return -1;
	g[(*n)++] = '*';
	g[*n] = '\0';
	return 0;
}

int corefind_parse_pattern(const char *text, size_t len, int uses_pid,
			   const struct corefind_proc *p, struct corefind_pattern *out)
{
	char *g = out->glob, num[32];
	size_t cap = sizeof(out->glob), n = 0, end = 0;
	int pid_in = 0;

	memset(out, 0, sizeof(*out));
	while (end < len && text[end] != '\n' && text[end] != '\0')
		end++;
	if (end > COREFIND_PATTERN_MAX)
		return -1;
	if (end == 0) {
		out->kind = COREPAT_EMPTY;
		return 0;
	}
	if (text[0] == '|') {
		size_t k = 1, s;

		out->kind = COREPAT_PIPE;
		while (k < end && text[k] == ' ')
			k++;
		s = k;
		while (k < end && text[k] != ' ')
			k++;
		memcpy(out->program, text + s, k - s);
		out->program[k - s] = '\0';
		{
			const char *base = strrchr(out->program, '/');

			base = base ? base + 1 : out->program;
			out->systemd = !strcmp(base, "systemd-coredump");
		}
		return 0;
	}
	out->kind = COREPAT_FILE;
	/* A relative name is in the process's working directory. */
	if (text[0] != '/') {
		if (glob_lits(g, cap, &n, p->cwd ? p->cwd : ".") < 0 || glob_lit(g, cap, &n, '/') < 0)
			return -1;
	}
	for (size_t i = 0; i < end; i++) {
		int rc = 0;

		if (text[i] != '%') {
			rc = glob_lit(g, cap, &n, text[i]);
		} else if (++i < end) {
			/* fs/coredump.c format_corename; an unknown specifier gives nothing. */
			switch (text[i]) {
			case '%': rc = glob_lit(g, cap, &n, '%'); break;
			case 'p': pid_in = 1; /* fallthrough */
			case 'P': case 'i': case 'I':
				snprintf(num, sizeof(num), "%lld", (long long)p->pid);
				rc = glob_lits(g, cap, &n, num);
				break;
			case 'u':
				snprintf(num, sizeof(num), "%lu", (unsigned long)p->uid);
				rc = glob_lits(g, cap, &n, num);
				break;
			case 'g':
				snprintf(num, sizeof(num), "%lu", (unsigned long)p->gid);
				rc = glob_lits(g, cap, &n, num);
				break;
			case 's':
				snprintf(num, sizeof(num), "%d", p->sig);
				rc = glob_lits(g, cap, &n, num);
				break;
			case 'e': case 'E': case 'f': case 't': case 'h': case 'c': case 'd':
				rc = glob_star(g, cap, &n);
				break;
			default:
				break;
			}
		}
		if (rc < 0)
			return -1;
	}
	if (uses_pid && !pid_in) {
		snprintf(num, sizeof(num), ".%lld", (long long)p->pid);
		if (glob_lits(g, cap, &n, num) < 0)
			return -1;
	}
	return 0;
}

/* A /proc/sys file's text (NUL-terminated, cut at buf's size); -1 if unreadable. */
static int read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t k;

	if (fd < 0)
		return -1;
	k = read(fd, buf, cap - 1);
	close(fd);
	if (k < 0)
		return -1;
	buf[k] = '\0';
	return 0;
}

char *corefind_shell_quote(const char *s)
{
	struct pt_strbuf b;
	char *r;
	int plain = *s != '\0';

	for (const char *c = s; *c && plain; c++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", *c) != NULL;
	if (plain)
		return pt_xstrdup(s);
	pt_strbuf_init(&b, 4 * strlen(s) + 3);
	pt_strbuf_add_trunc(&b, "'", 1);
	for (const char *c = s; *c; c++) {
		if (*c == '\'')
			pt_strbuf_add_trunc(&b, "'\\''", 4);
		else
			pt_strbuf_add_trunc(&b, c, 1);
	}
	pt_strbuf_add_trunc(&b, "'", 1);
	r = pt_xstrdup(pt_strbuf_str(&b));
	pt_strbuf_release(&b);
	return r;
}

/* The newest file matching the glob that is not older than the run. New string or NULL. */
static char *newest_match(const char *pattern, int64_t since_s)
{
	glob_t gl;
	char *best = NULL;
	struct timespec bt = { 0, 0 };

	if (glob(pattern, GLOB_NOSORT, NULL, &gl) != 0)
		return NULL;
	for (size_t i = 0; i < gl.gl_pathc; i++) {
		struct stat st;

		if (lstat(gl.gl_pathv[i], &st) != 0 || !S_ISREG(st.st_mode) ||
		    (int64_t)st.st_mtim.tv_sec < since_s)
			continue;
		if (!best || st.st_mtim.tv_sec > bt.tv_sec ||
		    (st.st_mtim.tv_sec == bt.tv_sec && st.st_mtim.tv_nsec > bt.tv_nsec)) {
			free(best);
			best = pt_xstrdup(gl.gl_pathv[i]);
			bt = st.st_mtim;
		}
	}
	globfree(&gl);
	return best;
}

static char *gdb_line(const char *load, const char *exe, const char *core)
{
	char *qe = corefind_shell_quote(exe), *qc = corefind_shell_quote(core), *r;

	if (load) {
		char *src = pt_xasprintf("source %s", load), *qs = corefind_shell_quote(src);

		r = pt_xasprintf("gdb -q -ex %s %s %s", qs, qe, qc);
		free(src);
		free(qs);
	} else {
		r = pt_xasprintf("gdb -q %s %s", qe, qc);
	}
	free(qe);
	free(qc);
	return r;
}

void corefind_locate(const struct corefind_query *q, struct corefind_result *r)
{
	char text[COREFIND_PATTERN_MAX + 1] = "", num[32] = "";
	struct corefind_pattern pat;
	int uses_pid = q->uses_pid;
	const char *limit0 = q->core_limit >= 0 && q->core_limit < 4096
				     ? q->core_raised ? "the core size limit is 0 (the hard limit: --core cannot raise it)"
						      : "the core size limit is 0 (ulimit -c); 'pttrace run --core' raises it for the child"
				     : NULL;

	memset(r, 0, sizeof(*r));
	if (q->pattern)
		snprintf(text, sizeof(text), "%s", q->pattern);
	else if (read_small("/proc/sys/kernel/core_pattern", text, sizeof(text)) < 0)
		snprintf(text, sizeof(text), "core");	/* the kernel's default */
	text[strcspn(text, "\n")] = '\0';
	if (uses_pid < 0)
		uses_pid = read_small("/proc/sys/kernel/core_uses_pid", num, sizeof(num)) == 0 && num[0] == '1';
	r->pattern = pt_xstrdup(text);
	if (corefind_parse_pattern(text, strlen(text), uses_pid, &q->proc, &pat) < 0) {
		r->note = pt_xasprintf("no core looked for: core_pattern '%s' is longer than the kernel takes", text);
		return;
	}
	switch (pat.kind) {
	case COREPAT_EMPTY:
		r->note = pt_xstrdup("no core file: core_pattern is empty (the kernel writes none)");
		return;
	case COREPAT_PIPE:
		if (pat.systemd) {
			char *load = q->ptgdb_load ? pt_xasprintf("-q -ex \"source %s\"", q->ptgdb_load)
						   : pt_xstrdup("-q"),
			     *ql = corefind_shell_quote(load);

			r->note = pt_xasprintf("the kernel passed the core to systemd-coredump (core_pattern"
					       " '%s'): 'coredumpctl list %lld' shows it%s%s", text,
					       (long long)q->proc.pid, limit0 ? "; but " : "",
					       limit0 ? limit0 : "");
			r->gdb = pt_xasprintf("coredumpctl debug --debugger-arguments=%s %lld", ql,
					      (long long)q->proc.pid);
			free(load);
			free(ql);
		} else {
			r->note = pt_xasprintf("the kernel passed the core to %s (core_pattern '%s'),"
					       " which decides where it goes", pat.program, text);
		}
		return;
	case COREPAT_FILE:
		break;
	}
	r->core = newest_match(pat.glob, q->started_s);
	if (r->core) {
		r->note = pt_xasprintf("core file %s (core_pattern '%s')", r->core, text);
		r->gdb = gdb_line(q->ptgdb_load, q->exe, r->core);
	} else if (limit0 && !q->core_dumped) {
		r->note = pt_xasprintf("no core file: %s", limit0);
	} else {
		r->note = pt_xasprintf("no core file matching %s (core_pattern '%s'): %s", pat.glob, text,
				       q->core_dumped ? "the kernel says it dumped one, elsewhere (another"
							" mount namespace, or removed since)"
						      : "the kernel wrote none (a directory it cannot"
							" write, a process that is not dumpable, or a"
							" file system limit)");
	}
}

void corefind_result_release(struct corefind_result *r)
{
	free(r->pattern);
	free(r->core);
	free(r->note);
	free(r->gdb);
	memset(r, 0, sizeof(*r));
}

char *corefind_ptgdb_load(void)
{
	char self[PATH_MAX], *slash, *p;
	const char *env = getenv("PTTRACE_PTGDB");
	ssize_t n;

	/* Named by the user: that one, as given. */
	if (env && *env)
		return pt_xstrdup(env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')))
			*slash = '\0';
		p = pt_xasprintf("%s/../share/ptools/gdbext/load.py", self);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
#ifdef PT_DATADIR
	if (access(PT_DATADIR "/ptools/gdbext/load.py", R_OK) == 0)
		return pt_xstrdup(PT_DATADIR "/ptools/gdbext/load.py");
#endif
#if defined(PT_BINARY_DIR) && defined(PT_SOURCE_DIR)
	/* A pttrace of the build tree: the extension of the same source tree. */
	if (n > 0 && !strncmp(self, PT_BINARY_DIR "/", strlen(PT_BINARY_DIR) + 1) &&
	    access(PT_SOURCE_DIR "/gdbext/load.py", R_OK) == 0)
		return pt_xstrdup(PT_SOURCE_DIR "/gdbext/load.py");
#endif
	return NULL;
}
