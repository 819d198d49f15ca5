/* Running the ptinspect-pyenv helper and reading its report; see pyenv.h. */
#include "pyenv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "childwait.h"
#include "jsonout.h"
#include "ldpath.h"
#include "pyfind.h"
#include "resolve.h"
#include "strbuf.h"
#include "xalloc.h"

#ifndef PT_LIBEXECDIR
#define PT_LIBEXECDIR "/usr/local/libexec/ptools"
#endif

#define PYENV_MARKER "\n@@PTINSPECT-PYENV-JSON@@\n"
/* The helper's stages (pyembed.c): the facts before the import, then the import. */
#define PYENV_PRE "\n@@PTINSPECT-PYENV-PRE@@\n"
#define PYENV_IMPORTING "\n@@PTINSPECT-PYENV-IMPORTING@@\n"
#define PYENV_IMPORTED "\n@@PTINSPECT-PYENV-IMPORTED@@\n"
/* The Python stacks kept from the dump at the deadline. */
#define PYENV_MAX_STACK 8000

const char PYENV_SAFE_IMPORT[] =
	"import sys\n"
	"if not (getattr(sys.flags, 'safe_path', False) or sys.flags.isolated) and sys.path and sys.path[0] == '':\n"
	"    del sys.path[0]\n"
	"import torch\n";

bool pyenv_executable(const char *p)
{
	return pt_pyfind_executable(p);
}

char *pyenv_find_helper(const char *argv0)
{
	char self[PATH_MAX];
	const char *env = getenv("PTINSPECT_PYENV");
	ssize_t n;

	if (env && *env)
		return pt_xstrdup(env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
	} else if (argv0 && strchr(argv0, '/') && strlen(argv0) < sizeof(self)) {
		strcpy(self, argv0);
	} else {
		self[0] = '\0';
	}
	if (self[0]) {
		char *slash = strrchr(self, '/');
		char *cand;

		*slash = '\0';
		cand = pt_xasprintf("%s/ptinspect-pyenv", self);
		if (pyenv_executable(cand))
			return cand;
		free(cand);
		/* An installed tree moved elsewhere (cmake --install --prefix): bin/../libexec. */
		cand = pt_xasprintf("%s/../libexec/ptools/ptinspect-pyenv", self);
		if (pyenv_executable(cand))
			return cand;
		free(cand);
	}
	if (pyenv_executable(PT_LIBEXECDIR "/ptinspect-pyenv"))
		return pt_xstrdup(PT_LIBEXECDIR "/ptinspect-pyenv");
	return NULL;
}

int pyenv_run_capture(char *const argv[], struct pt_strbuf *out, int quiet)
{
	int fds[2], st = 0;
	pid_t pid;
	char buf[8192];
	ssize_t n;

	if (pipe(fds) < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		if (quiet) {
			int nul = open("/dev/null", O_WRONLY);

			if (nul >= 0)
				dup2(nul, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (out)
			pt_strbuf_add_trunc(out, buf, (size_t)n);	/* past the cap: dropped */
	}
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

static const char *jstr(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* The strings of a JSON array (others skipped) into a new array; returns the count. */
static size_t jstrv(json_t *a, const char ***out)
{
	size_t n = 0;

	*out = NULL;
	if (!json_is_array(a) || !json_array_size(a))
		return 0;
	*out = pt_xcalloc(json_array_size(a), sizeof(**out));
	for (size_t i = 0; i < json_array_size(a); i++)
		if (json_is_string(json_array_get(a, i)))
			(*out)[n++] = json_string_value(json_array_get(a, i));
	return n;
}

static int jbool(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* The last occurrence of marker in out[0..len), or NULL. */
static const char *last_marker(const char *out, size_t len, const char *marker)
{
	size_t ml = strlen(marker);
	const char *m = NULL;

	for (const char *p = out; (p = memmem(p, len - (size_t)(p - out), marker, ml)); p++)
		m = p;
	return m;
}

/* r's fields from r->doc (set). */
static void fill(struct pyenv_report *r, const char *python)
{
	json_t *a;

	json_object_set_new(r->doc, "python", json_string(python));
	r->python = jstr(r->doc, "python");
	r->mode = jstr(r->doc, "mode");
	r->executable = jstr(r->doc, "executable");
	r->python_version = jstr(r->doc, "python_version");
	r->torch_ok = jbool(r->doc, "torch_ok") == 1;
	r->import_error = jstr(r->doc, "import_error");
	r->torch_file = jstr(r->doc, "torch_file");
	r->torch_version = jstr(r->doc, "torch_version");
	r->git_version = jstr(r->doc, "git_version");
	r->debug = jbool(r->doc, "debug");
	r->cuda = jstr(r->doc, "cuda");
	r->hip = jstr(r->doc, "hip");
	r->cxx11_abi = jbool(r->doc, "cxx11_abi");
	r->config_text = jstr(r->doc, "config_text");
	a = json_object_get(r->doc, "torch_candidates");
	if (json_is_array(a) && json_array_size(a)) {
		r->cands = pt_xcalloc(json_array_size(a), sizeof(*r->cands));
		for (size_t i = 0; i < json_array_size(a); i++) {
			json_t *e = json_array_get(a, i);

			if (!jstr(e, "dir"))
				continue;
			r->cands[r->n_cands].dir = jstr(e, "dir");
			r->cands[r->n_cands].kind = jstr(e, "kind") ? jstr(e, "kind") : "directory";
			r->n_cands++;
		}
	}
	r->n_sys_path = jstrv(json_object_get(r->doc, "sys_path"), &r->sys_path);
	r->n_site_dirs = jstrv(json_object_get(r->doc, "site_dirs"), &r->site_dirs);
	r->n_ext_suffixes = jstrv(json_object_get(r->doc, "ext_suffixes"), &r->ext_suffixes);
	r->cwd = jstr(r->doc, "cwd");
	r->torch_spec = jstr(r->doc, "torch_spec");
	r->ld_library_path = jstr(json_object_get(r->doc, "env"), "LD_LIBRARY_PATH");
	r->python_version_full = jstr(r->doc, "python_version_full");
	r->python_platform = jstr(r->doc, "python_platform");
	r->libc_ver = jstr(r->doc, "libc_ver");
	r->import_stderr = jstr(r->doc, "import_stderr");
	r->python_bits = (int)json_integer_value(json_object_get(r->doc, "python_bits"));
	r->cuda_available = jbool(r->doc, "cuda_available");
	r->xnnpack = jbool(r->doc, "xnnpack");
	r->cudnn_version = json_is_integer(json_object_get(r->doc, "cudnn_version"))
				   ? (long)json_integer_value(json_object_get(r->doc, "cudnn_version")) : -1;
	a = json_object_get(r->doc, "distributions");
	if (json_is_array(a) && json_array_size(a)) {
		r->dist_name = pt_xcalloc(json_array_size(a), sizeof(*r->dist_name));
		r->dist_version = pt_xcalloc(json_array_size(a), sizeof(*r->dist_version));
		for (size_t i = 0; i < json_array_size(a); i++) {
			json_t *e = json_array_get(a, i);
			const char *n = json_string_value(json_array_get(e, 0));
			const char *v = json_string_value(json_array_get(e, 1));

			if (!n || !v)
				continue;
			r->dist_name[r->n_dists] = n;
			r->dist_version[r->n_dists++] = v;
		}
	}
	a = json_object_get(r->doc, "loaded");
	if (json_is_array(a) && json_array_size(a)) {
		r->loaded = pt_xcalloc(json_array_size(a), sizeof(*r->loaded));
		for (size_t i = 0; i < json_array_size(a); i++) {
			json_t *e = json_array_get(a, i);

			if (!jstr(e, "name"))
				continue;
			r->loaded[r->n_loaded].name = jstr(e, "name");
			r->loaded[r->n_loaded].realpath = jstr(e, "realpath");
			r->loaded[r->n_loaded].by_import = jbool(e, "by_import") == 1;
			r->n_loaded++;
		}
	}
	r->here = jbool(r->doc, "here") == 1;
	r->cwd_dropped = jbool(r->doc, "cwd_dropped") == 1;
}

/* The JSON document at m (after its marker) into r->doc; -1 with a reason in diag. */
static int load_doc(const char *m, size_t n, const char *python, struct pyenv_report *r,
		    struct pt_diag *diag)
{
	json_error_t err;

	r->doc = json_loadb(m, n, JSON_DISABLE_EOF_CHECK, &err);
	if (!json_is_object(r->doc)) {
		pt_diag_add(diag, PT_SEV_ERROR, python, NULL, "the helper's report: %s", err.text);
		json_decref(r->doc);
		r->doc = NULL;
		return -1;
	}
	return 0;
}

int pyenv_parse(const char *out, size_t len, const char *python, struct pyenv_report *r,
		struct pt_diag *diag)
{
	/* The last marker: torch may print anything before it. */
	const char *m = last_marker(out, len, PYENV_MARKER);

	memset(r, 0, sizeof(*r));
	r->debug = r->cxx11_abi = -1;
	if (!m) {
		pt_diag_add(diag, PT_SEV_ERROR, python, NULL, "no report from the environment helper");
		return -1;
	}
	m += sizeof(PYENV_MARKER) - 1;
	if (load_doc(m, len - (size_t)(m - out), python, r, diag) < 0)
		return -1;
	fill(r, python);
	return 0;
}

char *pyenv_stack_where(const char *dump, size_t len)
{
	static const char cur[] = "Current thread ";
	const char *start = dump, *end = dump + len, *p;

	if ((p = memmem(dump, len, cur, sizeof(cur) - 1)))
		start = p;
	/* The first frame line after the thread's header: the most recent call. */
	for (p = start; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *l = p;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		while (n && (*l == ' ' || *l == '\t')) {
			l++;
			n--;
		}
		if (n > 5 && !strncmp(l, "File ", 5))
			return pt_xstrndup(l, n > 1000 ? 1000 : n);
		p += (nl ? n + (size_t)(l - p) + 1 : (size_t)(end - p));
	}
	return NULL;
}

int pyenv_parse_partial(const char *out, size_t len, const char *python, const char *what,
			struct pyenv_report *r, struct pt_diag *diag)
{
	const char *m = last_marker(out, len, PYENV_PRE), *stage, *imported;

	memset(r, 0, sizeof(*r));
	r->debug = r->cxx11_abi = -1;
	if (!m)
		return -1;
	m += sizeof(PYENV_PRE) - 1;
	if (load_doc(m, len - (size_t)(m - out), python, r, diag) < 0)
		return -1;
	json_object_set_new(r->doc, "torch_ok", json_false());
	json_object_set_new(r->doc, "import_error", pt_json_strn_lossy(what, strlen(what)));
	/* What came after the last stage marker: the stacks faulthandler dumped. */
	stage = last_marker(m, len - (size_t)(m - out), PYENV_IMPORTING);
	imported = last_marker(m, len - (size_t)(m - out), PYENV_IMPORTED);
	if (imported)
		stage = imported + sizeof(PYENV_IMPORTED) - 1;
	else if (stage)
		stage += sizeof(PYENV_IMPORTING) - 1;
	if (stage) {
		size_t n = len - (size_t)(stage - out);
		char *where;

		while (n && (*stage == '\n' || *stage == '\r')) {
			stage++;
			n--;
		}
		if (n > PYENV_MAX_STACK)
			n = PYENV_MAX_STACK;
		while (n && (stage[n - 1] == '\n' || stage[n - 1] == ' '))
			n--;
		if (n)
			json_object_set_new(r->doc, "hang_stack", pt_json_strn_lossy(stage, n));
		if ((where = pyenv_stack_where(stage, n))) {
			json_object_set_new(r->doc, "hang_where", pt_json_strn_lossy(where, strlen(where)));
			free(where);
		}
	}
	fill(r, python);
	r->partial = true;
	r->hang_stack = jstr(r->doc, "hang_stack");
	r->hang_where = jstr(r->doc, "hang_where");
	return 0;
}

/*
 * The helper links libpython: copied to a machine without that libpython the
 * loader cannot start it. Its libraries by the loader's rules (resolve.h,
 * with this process's LD_LIBRARY_PATH, which the helper inherits) before it
 * runs: 0 when all are found, -1 with the missing ones named in diag.
 */
static int helper_loadable(const char *helper, struct pt_diag *diag)
{
	struct ldpath_env env;
	struct resolve_result res;
	struct pt_diag rd;
	struct pt_strbuf names, hint;
	const char *py = NULL;
	int rc = 0;

	memset(&res, 0, sizeof(res));
	pt_diag_init(&rd);
	ldpath_env_init(&env, "", &rd);
	env.ld_library_path = getenv("LD_LIBRARY_PATH");
	/* An unreadable helper is exec's to report; only what the loader would miss here. */
	if (resolve_tree(helper, &env, &res, &rd) != 0 || (!res.n_missing && !res.n_unmet))
		goto out;
	pt_strbuf_init(&names, 4096);
	for (size_t i = 0; i < res.n_deps; i++) {
		const struct resolve_dep *e = &res.deps[i];
		const char *by = e->needed_by ? res.objs[e->needed_by].path : NULL;

		if (e->obj == (size_t)-1) {
			pt_strbuf_addf_trunc(&names, "%s%s%s%s is not found by the loader's rules",
					     names.len ? "; " : "", e->name, by ? " (needed by " : "",
					     by ? by : "");
			if (by)
				pt_strbuf_adds_trunc(&names, ")");
			if (!py && !strncmp(e->name, "libpython", 9))
				py = e->name;
		} else if (e->n_missing_versions) {
			/* Built on a newer system: libc.so.6 lacks GLIBC_2.38. */
			pt_strbuf_addf_trunc(&names, "%s%s (%s) lacks version %s%s", names.len ? "; " : "",
					     e->name, res.objs[e->obj].realpath, e->missing_versions[0],
					     e->n_missing_versions > 1 ? " and more" : "");
		}
	}
	pt_strbuf_init(&hint, 512);
	if (py) {
		/* libpython3.11.so.1.0: Debian's package libpython3.11, the Python 3.11 it was built for. */
		const char *so = strstr(py, ".so");
		int vl = so ? (int)(so - py) - 9 : 0;

		pt_strbuf_addf_trunc(&hint, "it was built against Python %.*s's shared library: "
				     "install it (Debian, Ubuntu: apt-get install %.*s), or build "
				     "ptools on this machine, against its own Python (cmake -S . -B "
				     "build), and use that build's ptinspect and ptinspect-pyenv",
				     vl, py + 9, (int)(so ? so - py : 0), py);
	} else {
		pt_strbuf_adds_trunc(&hint, "install what provides it, or build ptools on this machine "
				     "(cmake -S . -B build)");
	}
	pt_diag_add(diag, PT_SEV_ERROR, helper, NULL,
		    "the environment helper cannot start: %s (ptinspect deps %s shows where the "
		    "loader looks); %s", pt_strbuf_str(&names), helper, pt_strbuf_str(&hint));
	pt_strbuf_release(&names);
	pt_strbuf_release(&hint);
	rc = -1;
out:
	if (res.objs)
		resolve_release(&res);
	ldpath_env_release(&env);
	pt_diag_release(&rd);
	return rc;
}

int pyenv_probe(const char *python, const char *argv0, const struct pyenv_probe_opts *o,
		struct pyenv_report *r, struct pt_diag *diag)
{
	char *helper = pyenv_find_helper(argv0);
	int timeout_s = o && o->timeout_s > 0 ? o->timeout_s : PYENV_TIMEOUT_S;
	struct childwait_opts wo = {
		.timeout_s = timeout_s,
		.restart_marker = PYENV_IMPORTING,
		.nudge_signal = SIGUSR1,	/* the helper's faulthandler dumps the stacks */
		.nudge_ms = 2000,
	};
	struct childwait_result res;
	struct pt_strbuf out;
	char *argv[4], *what = NULL;
	size_t ac = 0;
	int st, rc = -1;

	memset(r, 0, sizeof(*r));
	r->debug = r->cxx11_abi = -1;
	if (!helper) {
		pt_diag_add(diag, PT_SEV_ERROR, "ptinspect-pyenv", NULL,
			    "helper not found beside ptinspect nor in " PT_LIBEXECDIR
			    " (set PTINSPECT_PYENV)");
		return -1;
	}
	if (!pyenv_executable(python)) {
		pt_diag_add(diag, PT_SEV_ERROR, python, NULL, "not an executable file");
		free(helper);
		return -1;
	}
	if (helper_loadable(helper, diag) < 0) {
		free(helper);
		return -1;
	}
	argv[ac++] = helper;
	if (o && o->here)
		argv[ac++] = (char *)"--here";
	argv[ac++] = (char *)python;
	argv[ac] = NULL;
	pt_strbuf_init(&out, PYENV_MAX_OUTPUT);
	if (childwait_exec(argv, 0, &wo, &out, &res) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, helper, NULL, "cannot run: %s", strerror(errno));
		goto done;
	}
	st = res.status;
	/* 127 and no output: the loader (or exec) failed; its message went to stderr. */
	if (!res.timed_out && WIFEXITED(st) && WEXITSTATUS(st) == 127 && !out.len) {
		pt_diag_add(diag, PT_SEV_ERROR, helper, NULL,
			    "the environment helper could not start (exit status 127: the dynamic "
			    "loader's or exec's message is above; ptinspect deps %s shows its "
			    "libraries)", helper);
		goto done;
	}
	if (!res.timed_out && !WIFSIGNALED(st)) {
		rc = pyenv_parse(pt_strbuf_str(&out), out.len, python, r, diag);
		goto done;
	}
	/* No complete report: what the helper found before the import, if it got there. */
	if (res.timed_out && memmem(out.buf ? out.buf : "", out.len, PYENV_IMPORTED,
				    sizeof(PYENV_IMPORTED) - 1))
		what = pt_xasprintf("import torch returned, but reading torch's facts (version, "
				    "configuration, torch.cuda.is_available()) did not finish in %d s: "
				    "killed", timeout_s);
	else if (res.timed_out)
		what = pt_xasprintf("import torch did not finish in %d s: killed", timeout_s);
	else
		what = pt_xasprintf("the interpreter was killed by signal %d while importing torch",
				    WTERMSIG(st));
	if (res.restarts && pyenv_parse_partial(pt_strbuf_str(&out), out.len, python, what, r,
						 diag) == 0) {
		r->timed_out = res.timed_out;
		r->timeout_s = timeout_s;
		rc = 0;
	} else if (res.timed_out) {
		pt_diag_add(diag, PT_SEV_ERROR, python, NULL,
			    "the environment helper did not get to import torch in %d s (the "
			    "interpreter's start, site and .pth files, the facts read before the "
			    "import): killed", timeout_s);
	} else {
		pt_diag_add(diag, PT_SEV_ERROR, python, NULL,
			    "the environment helper was killed by signal %d while importing torch",
			    WTERMSIG(st));
	}
done:
	free(what);
	pt_strbuf_release(&out);
	free(helper);
	return rc;
}

void pyenv_report_release(struct pyenv_report *r)
{
	json_decref(r->doc);
	free(r->cands);
	free(r->loaded);
	free(r->sys_path);
	free(r->site_dirs);
	free(r->ext_suffixes);
	free(r->dist_name);
	free(r->dist_version);
	memset(r, 0, sizeof(*r));
}

char *pyenv_which(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *res = NULL;

	if (strchr(name, '/'))
		return pt_xstrdup(name);
	if (!path)
		return NULL;
	copy = pt_xstrdup(path);
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *c = pt_xasprintf("%s/%s", *d ? d : ".", name);

		if (pyenv_executable(c)) {
			res = c;
			break;
		}
		free(c);
	}
	free(copy);
	return res;
}

char *pyenv_default_python(void)
{
	return pyenv_which("python3");
}

bool pyenv_same_file(const char *a, const char *b)
{
	return pt_pyfind_same_file(a, b);
}

size_t pyenv_find_torch_pythons(const char *skip, int timeout_s, char ***out)
{
	char **cands;
	size_t nc, n = 0, alloc = 0;
	struct childwait_opts wo = { .timeout_s = timeout_s > 0 ? timeout_s : PYENV_TIMEOUT_S };

	/* The list pttrace run tries too (common/pyfind.h). */
	*out = NULL;
	nc = pt_pyfind_candidates(getenv("PATH"), skip, &cands);
	for (size_t i = 0; i < nc; i++) {
		struct childwait_result res;

		/* Only interpreters that really import torch are named (not merely find it). */
		if (childwait_exec((char *const[]){ cands[i], (char *)"-c", (char *)PYENV_SAFE_IMPORT, NULL },
				   1, &wo, NULL, &res) == 0 &&
		    !res.timed_out && WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0) {
			PT_GROW(*out, n, alloc);
			(*out)[n++] = pt_xstrdup(cands[i]);
		}
	}
	pt_pyfind_free(cands, nc);
	return n;
}
