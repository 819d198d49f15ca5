/* Child environment and torch probe; see runenv.h. */
#include "runenv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "envp.h"
#include "pyfind.h"
#include "strbuf.h"
#include "xalloc.h"

/* Copy env without name, then add name=value when value is not NULL. */
static void set_var(char ***v, size_t *n, size_t *alloc, const char *name, const char *value)
{
	size_t k = strlen(name);

	for (size_t i = 0; i < *n; i++) {
		if (!strncmp((*v)[i], name, k) && (*v)[i][k] == '=') {
			free((*v)[i]);
			memmove(&(*v)[i], &(*v)[i + 1], (*n - i - 1) * sizeof(**v));
			(*n)--;
			break;
		}
	}
	if (!value)
		return;
	PT_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = pt_xasprintf("%s=%s", name, value);
	(*v)[*n] = NULL;
}

char **runenv_build(const struct runenv_opts *o, char *const *env)
{
	char **v = NULL;
	size_t n = 0, alloc = 0;

	for (; env && *env; env++) {
		PT_GROW(v, n + 1, alloc);
		v[n++] = pt_xstrdup(*env);
	}
	PT_GROW(v, n, alloc);
	v[n] = NULL;
	/* Unbuffered, so nothing printed before a crash is lost in a pipe buffer. */
	set_var(&v, &n, &alloc, "PYTHONUNBUFFERED", "1");
	/* A crash prints the Python stack (the run indexes it), unless the caller chose. */
	if (!pt_envp_get(v, "PYTHONFAULTHANDLER"))
		set_var(&v, &n, &alloc, "PYTHONFAULTHANDLER", "1");
	if (o->logs)
		set_var(&v, &n, &alloc, "TORCH_LOGS", *o->logs ? o->logs : NULL);
	else if (!pt_envp_get(v, "TORCH_LOGS"))
		set_var(&v, &n, &alloc, "TORCH_LOGS", RUNENV_DEFAULT_LOGS);
	if (o->dispatch)
		set_var(&v, &n, &alloc, "TORCH_SHOW_DISPATCH_TRACE", "1");
	if (o->trace_dir)
		set_var(&v, &n, &alloc, "TORCH_TRACE", o->trace_dir);
	PT_GROW(v, n, alloc);
	v[n] = NULL;
	return v;
}

void runenv_free(char **env)
{
	for (char **p = env; p && *p; p++)
		free(*p);
	free(env);
}

int runenv_is_recorded(const char *entry, size_t *name_len)
{
	static const char *const prefixes[] = { "TORCH_", "PYTORCH_", "CUDA_", "NCCL_" };
	static const char *const names[] = { "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONUNBUFFERED",
					     "PYTHONFAULTHANDLER", "OMP_NUM_THREADS", "LD_PRELOAD" };
	const char *eq = strchr(entry, '=');
	size_t n;

	if (!eq)
		return 0;
	n = (size_t)(eq - entry);
	*name_len = n;
	for (size_t i = 0; i < PT_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(entry, prefixes[i], strlen(prefixes[i])))
			return 1;
	for (size_t i = 0; i < PT_ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !strncmp(entry, names[i], n))
			return 1;
	return 0;
}

char *runenv_which(const char *prog, char *const *env)
{
	const char *path = pt_envp_get(env, "PATH");
	char *copy, *save = NULL, *found = NULL;

	if (strchr(prog, '/'))
		return pt_xstrdup(prog);
	copy = pt_xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = pt_xasprintf("%s/%s", *d ? d : ".", prog);

		if (access(p, X_OK) == 0) {
			found = p;
			break;
		}
		free(p);
	}
	free(copy);
	return found;
}

int runenv_parse_version(const char *v, int *major, int *minor)
{
	char *end;
	long a, b;

	*major = *minor = -1;
	if (!v)
		return -1;
	a = strtol(v, &end, 10);
	if (end == v || *end != '.')
		return -1;
	v = end + 1;
	b = strtol(v, &end, 10);
	if (end == v)
		return -1;
	*major = (int)a;
	*minor = (int)b;
	return 0;
}

/*
 * Prints "dir\t<path>", then version.py's "__version__" and "debug". Uses
 * find_spec, so torch's __init__ (2 s, 230 MB) never runs.
 */
static const char probe_py[] =
	"import importlib.util, os, re, sys\n"
	"s = importlib.util.find_spec('torch')\n"
	"if s is None or not s.submodule_search_locations:\n"
	"    print('none'); sys.exit(0)\n"
	"d = list(s.submodule_search_locations)[0]\n"
	"print('dir\\t' + d)\n"
	"try:\n"
	"    t = open(os.path.join(d, 'version.py')).read()\n"
	"except OSError:\n"
	"    sys.exit(0)\n"
	"m = re.search(r\"^__version__\\s*=\\s*['\\\"]([^'\\\"]*)\", t, re.M)\n"
	"if m: print('version\\t' + m.group(1))\n"
	"m = re.search(r'^debug\\s*=\\s*(\\w+)', t, re.M)\n"
	"if m: print('debug\\t' + m.group(1))\n";

int runenv_probe_python(const char *python, char *const *env, struct torch_probe *p,
			struct pt_diag *diag)
{
	char *argv[] = { (char *)python, "-c", (char *)probe_py, NULL };
	struct pt_strbuf out;
	int fds[2], status = 0, rc = -1;
	pid_t pid;

	memset(p, 0, sizeof(*p));
	p->major = p->minor = -1;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "pipe: %s", strerror(errno));
		return -1;
	}
	/* The child's own environment: PYTHONPATH and user site decide which torch it sees. */
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		dup2(fds[1], 1);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 2);
		}
		execve(python, argv, env);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "fork: %s", strerror(errno));
		return -1;
	}
	pt_strbuf_init(&out, 64 * 1024);
	for (;;) {
		struct pollfd pf = { fds[0], POLLIN, 0 };
		char buf[4096];
		ssize_t n;

		/* A hung interpreter must not hang the run: 10 s at most. */
		if (poll(&pf, 1, 10000) <= 0) {
			kill(pid, SIGKILL);
			break;
		}
		n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pt_strbuf_add_trunc(&out, buf, (size_t)n);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		pt_diag_add(diag, PT_SEV_WARNING, python, NULL,
			    "could not ask the interpreter about torch (exit status %d)",
			    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		goto out;
	}
	p->ran = 1;
	for (char *line = out.buf, *next; line && *line; line = next) {
		char *tab;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab++ = '\0';
		if (!strcmp(line, "dir")) {
			p->found = 1;
			p->dir = pt_xstrdup(tab);
		} else if (!strcmp(line, "version")) {
			p->version = pt_xstrdup(tab);
		} else if (!strcmp(line, "debug")) {
			p->debug = !strcmp(tab, "True");
		}
	}
	runenv_parse_version(p->version, &p->major, &p->minor);
	rc = 0;
out:
	pt_strbuf_release(&out);
	return rc;
}

void runenv_probe_release(struct torch_probe *p)
{
	free(p->version);
	free(p->dir);
	memset(p, 0, sizeof(*p));
}

/* Probe python quietly: a failed probe is "no torch here" for the choice. */
static int probe_quiet(const char *python, char *const *env, struct torch_probe *p)
{
	struct pt_diag d;
	int rc;

	pt_diag_init(&d);
	rc = runenv_probe_python(python, env, p, &d);
	pt_diag_release(&d);
	return rc == 0 && p->found;
}

int runenv_pick_python(const char *asked, char *const *env, struct runenv_pick *p)
{
	char **cands = NULL, *dflt;
	size_t nc;

	memset(p, 0, sizeof(*p));
	if (asked) {
		/* --python X means X: no fallback, as in ptinspect doctor. */
		p->python = runenv_which(asked, env);
		return p->python ? 0 : -1;
	}
	dflt = runenv_which("python3", env);
	if (dflt && probe_quiet(dflt, env, &p->probe)) {
		p->python = dflt;
		return 0;
	}
	p->no_default = !dflt;
	nc = pt_pyfind_candidates(pt_envp_get(env, "PATH"), dflt, &cands);
	for (size_t i = 0; i < nc && !p->python; i++) {
		struct torch_probe t;

		if (probe_quiet(cands[i], env, &t)) {
			runenv_probe_release(&p->probe);
			p->probe = t;
			p->python = pt_xstrdup(cands[i]);
			p->passed_over = dflt;
			dflt = NULL;
		} else {
			runenv_probe_release(&t);
		}
	}
	pt_pyfind_free(cands, nc);
	if (!p->python) {
		/* Nobody has torch: python3 on PATH all the same (the run warns "no-torch"). */
		p->python = dflt;
		dflt = NULL;
		if (!p->python)
			return -1;
	}
	free(dflt);
	return 0;
}

void runenv_pick_release(struct runenv_pick *p)
{
	free(p->python);
	free(p->passed_over);
	runenv_probe_release(&p->probe);
	memset(p, 0, sizeof(*p));
}
