/*
 * preflight's checks, in the order the report shows them: the checkout, an
 * existing build/CMakeCache.txt against the environment (setup.py does not
 * run CMake again once it exists), the environment, nvcc, the arch list, the
 * host compiler, Python, cmake and ninja, RAM and disk. The facts are
 * pffacts.c's tables; the texts read go through pfparse.c and cmakecache.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buildtree.h"
#include "cmakecache.h"
#include "cudaarch.h"
#include "envp.h"
#include "fsutil.h"
#include "pffacts.h"
#include "preflight.h"
#include "pyenv.h"
#include "strbuf.h"
#include "term.h"
#include "xalloc.h"

#define SMALL_MAX (1u << 20)		/* version.txt, .gitmodules, host_config.h, CMakeLists.txt */
#define CACHE_MAX (64u << 20)		/* CMakeCache.txt: a real one is well under 1 MB */
#define OUT_MAX (64u << 10)		/* a --version's output */
#define GIB (1024ull * 1024 * 1024)

const char *pf_status_name(enum pf_status s)
{
	return s == PF_FAIL ? "FAIL" : s == PF_WARN ? "warn" : "ok";
}

static void item(struct preflight *p, enum pf_status st, const char *check, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void item(struct preflight *p, enum pf_status st, const char *check, const char *fix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	PT_GROW(p->items, p->n, p->alloc);
	p->items[p->n++] = (struct pf_item){ st, check, pt_xvasprintf(fmt, ap), fix ? pt_xstrdup(fix) : NULL };
	va_end(ap);
}

size_t preflight_count(const struct preflight *p, enum pf_status s)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->items[i].status == s;
	return n;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* A directory with at least one entry besides . and .. */
static bool nonempty_dir(const char *p)
{
	DIR *dir = opendir(p);
	struct dirent *e;
	bool any = false;

	if (!dir)
		return false;
	while (!any && (e = readdir(dir)) != NULL)
		any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dir);
	return any;
}

/* name on PATH (or as given with a '/'), executable; NULL when not. */
static char *which_exec(const char *name)
{
	char *w = pyenv_which(name);

	if (w && !pyenv_executable(w)) {
		free(w);
		return NULL;
	}
	return w;
}

/* prog ARG: its stdout (capped) into out; the exit status, or -1 when it did not start. */
static int run_out(const char *prog, const char *arg, struct pt_strbuf *out)
{
	char *argv[] = { (char *)prog, (char *)arg, NULL };
	int st;

	pt_strbuf_init(out, OUT_MAX);
	st = pyenv_run_capture(argv, out, 1);
	if (st < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* The first line of s, at most 80 bytes, for evidence. */
static char *first_line_of(const char *s)
{
	size_t n = strcspn(s, "\n");

	return pt_xstrndup(s, n > 80 ? 80 : n);
}

/* "15.6 GB" (GiB, as build guides and free -g count). */
static const char *gb(char *buf, size_t n, uint64_t bytes)
{
	pt_fmt_trunc(buf, n, "%.1f GB", (double)bytes / (double)GIB);
	return buf;
}

static int read_small(const char *path, size_t max, uint8_t **buf, size_t *len, struct pt_diag *d)
{
	return build_read_file(path, max, buf, len, d);
}

/* ---- the checkout ---- */

static void check_checkout(struct preflight *p, bool *use_system_libs, struct pt_diag *d)
{
	char *vpath = pt_xasprintf("%s/version.txt", p->source_dir);
	char *spath = pt_xasprintf("%s/setup.py", p->source_dir);
	char *gpath = pt_xasprintf("%s/.gitmodules", p->source_dir);
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc;

	p->is_checkout = exists(spath) && exists(vpath);
	if (!p->is_checkout) {
		item(p, PF_WARN, "checkout", "run it in a PyTorch checkout, or name one: ptinspect preflight DIR",
		     "%s is not a PyTorch checkout (no setup.py and version.txt): the toolchain alone is checked",
		     p->source_dir);
		goto out;
	}
	rc = read_small(vpath, SMALL_MAX, &buf, &len, d);
	if (rc == 0 && pf_version_txt(buf, len, &p->torch) == 0) {
		item(p, PF_OK, "checkout", NULL, "torch %u.%u.%u source tree (version.txt)", p->torch.v[0],
		     p->torch.v[1], p->torch.v[2]);
	} else if (rc == 0) {
		char *t = pt_xstrndup((const char *)buf, len), *l = first_line_of(t);

		free(t);

		item(p, PF_WARN, "checkout", "restore it: git checkout version.txt",
		     "%s: line 1: '%s' is not a version (setup.py builds its version from this file)", vpath, l);
		free(l);
	} else {
		item(p, PF_WARN, "checkout", NULL, "%s: unreadable (see the message below)", vpath);
	}
	free(buf);
	buf = NULL;
	/* The submodules: each directory there and not empty. */
	rc = read_small(gpath, SMALL_MAX, &buf, &len, d);
	if (rc == 1) {
		char *tp = pt_xasprintf("%s/third_party", p->source_dir);

		if (!nonempty_dir(tp) && !*use_system_libs)
			item(p, PF_FAIL, "submodules", "USE_SYSTEM_LIBS=1 with the system's packages, or a git checkout",
			     "no .gitmodules and third_party/ is empty or missing (a stripped, Debian-style tree)");
		else
			item(p, PF_OK, "submodules", NULL, "no .gitmodules (a release tarball or a stripped tree)%s",
			     *use_system_libs ? "; USE_SYSTEM_LIBS=1" : "");
		free(tp);
	} else if (rc == 0) {
		struct pf_gitmodules g;

		if (pf_gitmodules_parse(buf, len, &g, gpath, d) == 0) {
			struct pt_strbuf miss;
			size_t n_miss = 0;

			pt_strbuf_init(&miss, 400);
			for (size_t i = 0; i < g.n; i++) {
				char *dir;

				if (!g.v[i].path || !g.v[i].path[0])
					continue;
				dir = pt_xasprintf("%s/%s", p->source_dir, g.v[i].path);
				if (!nonempty_dir(dir)) {
					pt_strbuf_addf_trunc(&miss, "%s%s", n_miss ? ", " : "", g.v[i].path);
					n_miss++;
				}
				free(dir);
			}
			if (n_miss)
				item(p, *use_system_libs ? PF_WARN : PF_FAIL, "submodules",
				     "git submodule sync && git submodule update --init --recursive",
				     "%zu of %zu submodules missing or empty: %s%s", n_miss, g.n, pt_strbuf_str(&miss),
				     miss.clipped ? ", ..." : "");
			else
				item(p, PF_OK, "submodules", NULL, "%zu submodules present (.gitmodules)", g.n);
			pt_strbuf_release(&miss);
			pf_gitmodules_release(&g);
		} else {
			item(p, PF_FAIL, "submodules", "restore it: git checkout .gitmodules",
			     "%s cannot be read as git config (see the message below)", gpath);
		}
	}
out:
	free(buf);
	free(vpath);
	free(spath);
	free(gpath);
}

/* In a git checkout with git on PATH: submodules at another commit than recorded, or in conflict. */
static void check_gitlinks(struct preflight *p)
{
	char *git = which_exec("git"), *dotgit = pt_xasprintf("%s/.git", p->source_dir);
	char *argv[] = { git, (char *)"-C", p->source_dir, (char *)"submodule", (char *)"status", NULL };
	struct pt_strbuf out, moved, conflict;
	struct pf_substatus st;
	int rc;

	if (!git || !exists(dotgit)) {
		free(git);
		free(dotgit);
		return;
	}
	pt_strbuf_init(&out, 4u << 20);
	rc = pyenv_run_capture(argv, &out, 1);
	if (rc != 0) {
		item(p, PF_WARN, "submodules", NULL, "'git submodule status' in %s failed (exit %d)", p->source_dir,
		     rc > 0 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
	} else {
		size_t n_moved = 0, n_conflict = 0;

		pf_submodule_status(out.buf ? out.buf : "", out.len, &st);
		pt_strbuf_init(&moved, 300);
		pt_strbuf_init(&conflict, 300);
		for (size_t i = 0; i < st.n; i++) {
			if (st.v[i].state == '+')
				pt_strbuf_addf_trunc(&moved, "%s%s", n_moved++ ? ", " : "", st.v[i].path);
			else if (st.v[i].state == 'U')
				pt_strbuf_addf_trunc(&conflict, "%s%s", n_conflict++ ? ", " : "", st.v[i].path);
		}
		if (n_conflict)
			item(p, PF_FAIL, "submodules", "resolve the conflicts, then git submodule update --init --recursive",
			     "%zu submodule%s in merge conflict: %s", n_conflict, PT_PLURAL(n_conflict), pt_strbuf_str(&conflict));
		if (n_moved)
			item(p, PF_WARN, "submodules", "git submodule sync && git submodule update --init --recursive",
			     "%zu submodule%s at another commit than the checkout records (git submodule status: '+'): %s%s",
			     n_moved, PT_PLURAL(n_moved), pt_strbuf_str(&moved), moved.clipped ? ", ..." : "");
		else if (!n_conflict && st.n)
			item(p, PF_OK, "submodules", NULL, "%zu submodule%s at the commits the checkout records (git submodule status)",
			     st.n, PT_PLURAL(st.n));
		pt_strbuf_release(&moved);
		pt_strbuf_release(&conflict);
		pf_substatus_release(&st);
	}
	pt_strbuf_release(&out);
	free(git);
	free(dotgit);
}

/* ---- build/CMakeCache.txt against the environment ---- */

static const char *const fresh_fix =
	"setup.py will not run CMake again while build/CMakeCache.txt exists: use CMAKE_FRESH=1 "
	"(torch 2.6: python setup.py develop --cmake) or remove build/CMakeCache.txt";

static char *norm_archs(const char *s)
{
	char *r = pt_xmalloc(strlen(s) + 1), *o = r;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == ';') {
			if (o > r && o[-1] != ';')
				*o++ = ';';
		} else {
			*o++ = *s;
		}
	}
	if (o > r && o[-1] == ';')
		o--;
	*o = 0;
	return r;
}

static void mismatch(struct preflight *p, bool rerun, const char *fix_rerun, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void mismatch(struct preflight *p, bool rerun, const char *fix_rerun, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = pt_xvasprintf(fmt, ap);
	va_end(ap);
	if (rerun)
		item(p, PF_WARN, "cache", fix_rerun, "%s; there is no build.ninja, so setup.py runs CMake again "
		     "and your value wins", s);
	else
		item(p, PF_FAIL, "cache", fresh_fix, "%s", s);
	free(s);
}

static void check_cache(struct preflight *p, char *const *envp, struct pt_diag *d)
{
	char *bdir = pt_xasprintf("%s/build", p->source_dir);
	char *path = pt_xasprintf("%s/CMakeCache.txt", bdir);
	char *ninja = pt_xasprintf("%s/build.ninja", bdir);
	uint8_t *buf = NULL;
	size_t len = 0, compared = 0, before = p->n;
	struct cmakecache c;
	const char *v;
	bool rerun;
	int rc = read_small(path, CACHE_MAX, &buf, &len, d);

	if (rc == 1) {
		item(p, PF_OK, "cache", NULL, "no build/CMakeCache.txt: setup.py configures from this environment");
		goto out;
	}
	if (rc < 0 || cmakecache_parse(buf, len, &c, path, d) < 0) {
		item(p, PF_FAIL, "cache", "remove build/CMakeCache.txt (setup.py then configures again)",
		     "%s cannot be read as a CMake cache (see the message below)", path);
		goto out;
	}
	/* tools/setup_helpers/cmake.py: no rerun when the cache exists, unless build.ninja is missing. */
	v = pt_envp_get(envp, "USE_NINJA");
	rerun = !exists(ninja) && !(v && pf_torch_bool(v) == 0);
	for (char *const *e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char name[128];
		const struct cmakecache_entry *ce;

		if (!eq || (size_t)(eq - *e) >= sizeof(name))
			continue;
		memcpy(name, *e, (size_t)(eq - *e));
		name[eq - *e] = 0;
		if (strncmp(name, "USE_", 4) && strncmp(name, "BUILD_", 6))
			continue;
		ce = cmakecache_get(&c, name);
		if (!ce)
			continue;
		compared++;
		/* setup.py passes the string as -D; CMake reads both sides with its own truth. */
		if (cmake_is_true(eq + 1) != cmake_is_true(ce->value))
			mismatch(p, rerun, NULL, "%s=%s in your environment, %s in build/CMakeCache.txt (line %zu)", name,
				 eq + 1, ce->value, ce->line);
	}
	/* The version build/ was configured for (TORCH_BUILD_VERSION: setup.py's) against version.txt. */
	{
		const struct cmakecache_entry *ce = cmakecache_get(&c, "TORCH_BUILD_VERSION");
		struct pf_version bv;

		if (ce && p->torch.n && pf_version_txt(ce->value, strlen(ce->value), &bv) == 0) {
			compared++;
			if (bv.v[0] != p->torch.v[0] || bv.v[1] != p->torch.v[1] || (bv.n > 2 && p->torch.n > 2 &&
										   bv.v[2] != p->torch.v[2]))
				item(p, rerun ? PF_WARN : PF_FAIL, "cache", rerun ? NULL : fresh_fix,
				     "build/ was configured for torch %s (TORCH_BUILD_VERSION, build/CMakeCache.txt line %zu), "
				     "the checkout is %u.%u.%u (version.txt): its cache and generated files are another "
				     "version's%s", ce->value, ce->line, p->torch.v[0], p->torch.v[1], p->torch.v[2],
				     rerun ? "; there is no build.ninja, so setup.py runs CMake again" : "");
		}
	}
	/* The build type: DEBUG, else REL_WITH_DEB_INFO, else CMAKE_BUILD_TYPE. */
	{
		const char *want = NULL, *why = NULL;
		const struct cmakecache_entry *ce = cmakecache_get(&c, "CMAKE_BUILD_TYPE");

		if ((v = pt_envp_get(envp, "DEBUG")) && pf_torch_bool(v) == 1)
			want = "Debug", why = "DEBUG";
		else if ((v = pt_envp_get(envp, "REL_WITH_DEB_INFO")) && pf_torch_bool(v) == 1)
			want = "RelWithDebInfo", why = "REL_WITH_DEB_INFO";
		else if ((v = pt_envp_get(envp, "CMAKE_BUILD_TYPE")) && *v)
			want = v, why = "CMAKE_BUILD_TYPE";
		if (want) {
			compared++;
			if (!ce)
				mismatch(p, rerun, NULL, "%s=%s in your environment asks for %s, build/CMakeCache.txt has no "
					 "CMAKE_BUILD_TYPE", why, v, want);
			else if (strcmp(ce->value, want))
				mismatch(p, rerun, NULL, "%s=%s in your environment asks for %s, build/CMakeCache.txt has %s "
					 "(line %zu)", why, v, want, ce->value, ce->line);
		}
	}
	if ((v = pt_envp_get(envp, "TORCH_CUDA_ARCH_LIST")) && *v) {
		const struct cmakecache_entry *ce = cmakecache_get(&c, "TORCH_CUDA_ARCH_LIST");
		char *a = norm_archs(v), *b = ce ? norm_archs(ce->value) : NULL;

		compared++;
		const struct cmakecache_entry *uc = cmakecache_get(&c, "USE_CUDA");

		if (!b && uc && !cmake_is_true(uc->value))
			mismatch(p, rerun, NULL, "TORCH_CUDA_ARCH_LIST=%s in your environment, and build/CMakeCache.txt is a "
				 "CPU configuration (USE_CUDA=%s, line %zu)", v, uc->value, uc->line);
		else if (!b)
			mismatch(p, rerun, NULL, "TORCH_CUDA_ARCH_LIST=%s in your environment, none in build/CMakeCache.txt "
				 "(it was configured for the GPUs it detected)", v);
		else if (strcmp(a, b))
			mismatch(p, rerun, NULL, "TORCH_CUDA_ARCH_LIST=%s in your environment, %s in build/CMakeCache.txt (line %zu)",
				 v, ce->value, ce->line);
		free(a);
		free(b);
	}
	if ((v = pt_envp_get(envp, "CUDA_HOME")) && *v) {
		const struct cmakecache_entry *ce = cmakecache_get(&c, "CUDA_TOOLKIT_ROOT_DIR");

		if (ce && *ce->value) {
			compared++;
			if (!pyenv_same_file(v, ce->value) && strcmp(v, ce->value))
				mismatch(p, rerun, NULL, "CUDA_HOME=%s in your environment, CUDA_TOOLKIT_ROOT_DIR=%s in "
					 "build/CMakeCache.txt (line %zu)", v, ce->value, ce->line);
		}
	}
	{
		static const char *const cc[][2] = { { "CC", "CMAKE_C_COMPILER" }, { "CXX", "CMAKE_CXX_COMPILER" } };

		for (size_t i = 0; i < 2; i++) {
			const struct cmakecache_entry *ce = cmakecache_get(&c, cc[i][1]);
			char *w;

			if (!(v = pt_envp_get(envp, cc[i][0])) || !*v || !ce || !*ce->value)
				continue;
			compared++;
			w = which_exec(v);
			if (!w || !pyenv_same_file(w, ce->value))
				mismatch(p, rerun, NULL, "%s=%s%s%s%s in your environment, %s=%s in build/CMakeCache.txt (line %zu)",
					 cc[i][0], v, w && strcmp(w, v) ? " (" : "", w && strcmp(w, v) ? w : "",
					 w && strcmp(w, v) ? ")" : "", cc[i][1], ce->value, ce->line);
			free(w);
		}
	}
	if (p->n == before && !compared)
		item(p, PF_OK, "cache", NULL, "build/CMakeCache.txt exists; no variable in the environment sets what it holds");
	else if (p->n == before)
		item(p, PF_OK, "cache", NULL, "build/CMakeCache.txt agrees with the environment (%zu variable%s compared)",
		     compared, PT_PLURAL(compared));
	cmakecache_release(&c);
out:
	free(buf);
	free(bdir);
	free(path);
	free(ninja);
}

/* ---- the environment ---- */

static bool name_known(const char *name, char *const *options, size_t n_options)
{
	if (pf_env_var_find(name))
		return true;
	for (size_t i = 0; i < n_options; i++)
		if (!strcmp(options[i], name))
			return true;
	for (size_t i = 0; pf_torch_options[i]; i++)
		if (!strcmp(pf_torch_options[i], name))
			return true;
	return false;
}

/* The known name nearest to name (within 1, or 2 for long names), or NULL. */
static const char *nearest(const char *name, char *const *options, size_t n_options)
{
	size_t cap = strlen(name) >= 10 ? 2 : 1, best = cap + 1;
	const char *r = NULL;

	for (size_t i = 0; pf_env_vars[i].name; i++) {
		size_t k = pf_edit_distance(name, pf_env_vars[i].name, cap);

		if (k < best)
			best = k, r = pf_env_vars[i].name;
	}
	for (size_t i = 0; pf_torch_options[i]; i++) {
		size_t k = pf_edit_distance(name, pf_torch_options[i], cap);

		if (k < best)
			best = k, r = pf_torch_options[i];
	}
	for (size_t i = 0; i < n_options; i++) {
		size_t k = pf_edit_distance(name, options[i], cap);

		if (k < best)
			best = k, r = options[i];
	}
	return r;
}

static void check_var(struct preflight *p, const struct pf_env_var *ev, const char *val)
{
	const char *n = ev->name;
	char *w, *fix;

	switch (ev->kind) {
	case PF_ENV_BOOL: {
		int b = pf_torch_bool(val);

		if (b < 0) {
			fix = pt_xasprintf("%s=1 or %s=0", n, n);
			item(p, PF_WARN, "env", fix,
			     "%s=%s is not a flag torch reads (ON/1/YES/TRUE/Y, OFF/0/NO/FALSE/N, any case): setup.py's own "
			     "checks take it as unset, CMake's if() as false", n, val);
			free(fix);
		} else {
			item(p, PF_OK, "env", NULL, "%s=%s (%s): %s", n, val, b ? "on" : "off", ev->meaning);
		}
		break;
	}
	case PF_ENV_JOBS: {
		char *end;
		long j = strtol(val, &end, 10);

		if (!*val || *end || j <= 0)
			item(p, PF_FAIL, "env", "MAX_JOBS=N with N a whole number of jobs, at least 1",
			     "MAX_JOBS=%s is not a positive number: setup.py passes it to ninja -j, which refuses it", val);
		else
			item(p, PF_OK, "env", NULL, "MAX_JOBS=%s: %s", val, ev->meaning);
		break;
	}
	case PF_ENV_DIR:
		if (!is_dir(val)) {
			bool cuda = !strcmp(n, "CUDA_HOME");

			fix = pt_xasprintf("point %s at an existing directory, or unset it", n);
			item(p, cuda ? PF_FAIL : PF_WARN, "env", fix, "%s=%s: no such directory (%s)", n, val, ev->meaning);
			free(fix);
		} else {
			item(p, PF_OK, "env", NULL, "%s=%s: %s", n, val, ev->meaning);
		}
		break;
	case PF_ENV_DIRLIST: {
		char *copy = pt_xstrdup(val), *save = NULL;
		struct pt_strbuf miss;

		pt_strbuf_init(&miss, 300);
		for (char *s = strtok_r(copy, ":;", &save); s; s = strtok_r(NULL, ":;", &save))
			if (!is_dir(s))
				pt_strbuf_addf_trunc(&miss, "%s%s", miss.len ? ", " : "", s);
		if (miss.len)
			item(p, PF_WARN, "env", "drop the missing entries", "%s=%s: no such director%s: %s", n, val,
			     strchr(pt_strbuf_str(&miss), ',') ? "ies" : "y", pt_strbuf_str(&miss));
		else
			item(p, PF_OK, "env", NULL, "%s=%s: %s", n, val, ev->meaning);
		pt_strbuf_release(&miss);
		free(copy);
		break;
	}
	case PF_ENV_PROG:
		if (!(w = which_exec(val))) {
			fix = pt_xasprintf("install it, or set %s to a compiler that is there", n);
			item(p, PF_FAIL, "env", fix, "%s=%s: not found%s (%s)", n, val, strchr(val, '/') ? "" : " on PATH",
			     ev->meaning);
			free(fix);
		} else {
			item(p, PF_OK, "env", NULL, "%s=%s%s%s: %s", n, val, strcmp(w, val) ? " -> " : "",
			     strcmp(w, val) ? w : "", ev->meaning);
		}
		free(w);
		break;
	case PF_ENV_ABI:
		if (strcmp(val, "0") && strcmp(val, "1"))
			item(p, PF_FAIL, "env", "_GLIBCXX_USE_CXX11_ABI=1 (the default of today's libstdc++) or 0",
			     "_GLIBCXX_USE_CXX11_ABI=%s: must be 0 or 1 (it becomes -D_GLIBCXX_USE_CXX11_ABI=%s)", val, val);
		else
			item(p, PF_OK, "env", NULL, "%s=%s: %s", n, val, ev->meaning);
		break;
	case PF_ENV_ARCHLIST:
		/* The "arch" items say what each entry becomes. */
		break;
	case PF_ENV_STRING:
		item(p, PF_OK, "env", NULL, "%s=%s: %s", n, val, ev->meaning);
		break;
	}
}

void preflight_check_env(struct preflight *p, char *const *envp, char *const *options, size_t n_options)
{
	size_t before = p->n;
	const char *a, *b;

	/* The known variables in the table's order, then the other USE_/BUILD_ names. */
	for (size_t i = 0; pf_env_vars[i].name; i++) {
		const char *v = pt_envp_get(envp, pf_env_vars[i].name);

		if (v)
			check_var(p, &pf_env_vars[i], v);
	}
	for (char *const *e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		char name[128];
		const char *near;

		if (!eq || (size_t)(eq - *e) >= sizeof(name))
			continue;
		memcpy(name, *e, (size_t)(eq - *e));
		name[eq - *e] = 0;
		if (pf_env_var_find(name))
			continue;
		if (name_known(name, options, n_options)) {
			if (!strncmp(name, "USE_", 4) || !strncmp(name, "BUILD_", 6)) {
				if (pf_torch_bool(eq + 1) < 0) {
					char *fix = pt_xasprintf("%s=1 or %s=0", name, name);

					item(p, PF_WARN, "env", fix, "%s=%s is not a flag torch reads (ON/1/YES/TRUE/Y, "
					     "OFF/0/NO/FALSE/N)", name, eq + 1);
					free(fix);
				} else {
					item(p, PF_OK, "env", NULL, "%s=%s: passed to CMake as -D%s=%s", name, eq + 1, name,
					     eq + 1);
				}
			}
			continue;
		}
		if (strncmp(name, "USE_", 4) && strncmp(name, "BUILD_", 6) && strncmp(name, "TORCH_", 6) &&
		    strncmp(name, "CUDA", 4) && strncmp(name, "CUDNN", 5) && strncmp(name, "MAX_", 4) &&
		    strncmp(name, "REL_", 4) && strncmp(name, "DEBU", 4))
			continue;
		if ((near = nearest(name, options, n_options)) != NULL) {
			char *fix = pt_xasprintf("export %s=%s instead", near, eq + 1);

			item(p, PF_WARN, "env", fix, "%s is no variable torch reads: did you mean %s? %s", name, near,
			     strncmp(name, "USE_", 4) && strncmp(name, "BUILD_", 6) ?
				     "setup.py and CMake ignore it" :
				     "setup.py passes it to CMake, which ignores it");
			free(fix);
		}
	}
	a = pt_envp_get(envp, "DEBUG");
	b = pt_envp_get(envp, "REL_WITH_DEB_INFO");
	if (a && b && pf_torch_bool(a) == 1 && pf_torch_bool(b) == 1)
		item(p, PF_WARN, "env", "unset one of them", "DEBUG and REL_WITH_DEB_INFO are both on: DEBUG wins (a Debug build)");
	a = pt_envp_get(envp, "USE_CUDA");
	b = pt_envp_get(envp, "USE_ROCM");
	if (a && b && pf_torch_bool(a) == 1 && pf_torch_bool(b) == 1)
		item(p, PF_WARN, "env", "USE_ROCM=0 for a CUDA build, USE_CUDA=0 for a ROCm one",
		     "USE_CUDA and USE_ROCM are both on: torch builds one GPU backend");
	if (p->n == before)
		item(p, PF_OK, "env", NULL, "none of the variables setup.py reads is set: a Release build, CUDA when "
		     "CMake finds it, ninja's default job count");
}

/* ---- nvcc and the arch list ---- */

static void add_arch(struct preflight *p, const char *entry, unsigned arch, char variant, int cuda)
{
	PT_GROW(p->archs, p->n_archs, p->a_archs);
	p->archs[p->n_archs++] = (struct pf_arch_check){ pt_xstrdup(entry), arch, variant,
							 pf_nvcc_accepts(cuda, arch, variant) };
}

static void cc_text(unsigned arch, char variant, char *buf, size_t n)
{
	pt_fmt_trunc(buf, n, "%u.%u%s", arch / 10, arch % 10, variant == 'a' ? "a" : variant == 'f' ? "f" : "");
}

/* The CUDA version that first accepts arch/variant, or 0. */
static int since_of(unsigned arch, char variant)
{
	const struct pf_sm *v;
	size_t n = pf_sm_table(&v);

	for (size_t i = 0; i < n; i++)
		if (v[i].arch == arch)
			return variant == 'a' ? v[i].since_a : variant == 'f' ? v[i].since_f : v[i].since;
	return 0;
}

static int removed_in(unsigned arch)
{
	const struct pf_sm *v;
	size_t n = pf_sm_table(&v);

	for (size_t i = 0; i < n; i++)
		if (v[i].arch == arch)
			return v[i].removed;
	return 0;
}

/* "M.m", "M.ma", "M.mf", "M.m(M.m)" at s[0..n): the arch numbers, or -1. */
static int parse_num_entry(const char *s, size_t n, unsigned *arch, char *variant, unsigned *ptx_arch)
{
	size_t i = 0;
	unsigned maj = 0, min;

	*variant = 0;
	*ptx_arch = 0;
	if (!n || s[0] < '0' || s[0] > '9')
		return -1;
	while (i < n && s[i] >= '0' && s[i] <= '9' && maj < 100)
		maj = maj * 10 + (unsigned)(s[i++] - '0');
	if (i + 1 >= n || s[i] != '.' || s[i + 1] < '0' || s[i + 1] > '9' || maj >= 100)
		return -1;
	min = (unsigned)(s[i + 1] - '0');
	i += 2;
	if (i < n && (s[i] == 'a' || s[i] == 'f'))
		*variant = s[i++];
	*arch = maj * 10 + min;
	if (i < n && s[i] == '(') {
		unsigned pa;
		char pv;
		const char *close = memchr(s + i, ')', n - i);

		if (!close || (size_t)(close - s) != n - 1 || *variant ||
		    parse_num_entry(s + i + 1, (size_t)(close - s) - i - 1, &pa, &pv, &(unsigned){ 0 }) < 0 || pv)
			return -1;
		*ptx_arch = pa;
		i = n;
	}
	return i == n ? 0 : -1;
}

static const char *const arch_names_list[] = {
	"Kepler+Tesla", "Kepler", "Maxwell+Tegra", "Maxwell", "Pascal", "Volta+Tegra", "Volta", "Turing",
	"Ampere+Tegra", "Ampere", "Ada", "Hopper", "Blackwell", NULL,
};

/*
 * The device code libtorch_cuda will hold for the accepted architectures of
 * p->archs[first..] and n_ptx PTX entries (pf_device_bytes_sass, measured on
 * Debian's torch 2.6): a warning past 1.5 GiB, where the link of
 * libtorch_cuda.so nears the 2 GiB that x86-64's 32-bit relocations reach
 * ("relocation truncated to fit").
 */
static void device_size(struct preflight *p, size_t first, size_t n_ptx)
{
	uint64_t b = n_ptx * PF_DEVICE_BYTES_PTX;
	size_t n = 0;
	char gbuf[32];

	for (size_t i = first; i < p->n_archs; i++) {
		bool seen = false;

		for (size_t j = first; j < i; j++)
			seen |= p->archs[j].arch == p->archs[i].arch && p->archs[j].variant == p->archs[i].variant;
		if (p->archs[i].accepted == 1 && !seen) {
			b += pf_device_bytes_sass(p->archs[i].arch);
			n++;
		}
	}
	p->device_bytes = b;
	if (b >= (3ull << 29))
		item(p, PF_WARN, "size", "fewer architectures: the GPUs you run on, and +PTX only on the newest",
		     "about %s of device code in libtorch_cuda (%zu SASS target%s, %zu PTX): near the 2 GiB where its "
		     "link fails with 'relocation truncated to fit' (per arch as in Debian's torch 2.6 CUDA build)",
		     gb(gbuf, sizeof(gbuf), b), n, PT_PLURAL(n), n_ptx);
	else
		item(p, PF_OK, "size", NULL, "about %s of device code in libtorch_cuda (%zu SASS target%s, %zu PTX; per "
		     "arch as in Debian's torch 2.6 CUDA build)", gb(gbuf, sizeof(gbuf), b), n, PT_PLURAL(n), n_ptx);
}

void preflight_check_arch(struct preflight *p, const char *list, int cuda, bool only_a, bool gpu_here)
{
	char common[128], ccb[16], nv[16];
	char *copy, *save = NULL;
	bool spaces;
	size_t n_ptx = 0;
	unsigned lo, hi;
	size_t first = p->n_archs;

	pt_fmt_trunc(nv, sizeof(nv), "%d.%d", cuda / 1000, cuda % 1000 / 10);
	if (!list || !*list || !strcmp(list, "Auto")) {
		if (gpu_here) {
			item(p, PF_OK, "arch", NULL, "TORCH_CUDA_ARCH_LIST %s: torch builds for the GPUs it detects here",
			     list ? "is Auto" : "unset");
			return;
		}
		list = pf_common_archs(cuda, common, sizeof(common));
		p->arch_list_default = true;
	} else if (!strcmp(list, "Common")) {
		list = pf_common_archs(cuda, common, sizeof(common));
	}
	free(p->arch_list);
	p->arch_list = pt_xstrdup(list);
	spaces = strpbrk(list, " \t") != NULL;
	copy = pt_xstrdup(list);
	for (char *e = strtok_r(copy, " \t;", &save); e; e = strtok_r(NULL, " \t;", &save)) {
		size_t n = strlen(e);
		bool ptx = n > 4 && !strcmp(e + n - 4, "+PTX");
		unsigned arch, pa, named[2];
		char variant;
		size_t k;

		if (ptx)
			n -= 4, n_ptx++;
		if (parse_num_entry(e, n, &arch, &variant, &pa) == 0) {
			if (variant == 'f' && only_a) {
				item(p, PF_FAIL, "arch", "use the 'a' variant, or a newer torch",
				     "%s: this checkout's select_compute_arch.cmake takes only an 'a' suffix "
				     "(\"^([0-9]+\\.[0-9]a?...\"): CMake stops with 'Unknown CUDA Architecture Name %s'", e, e);
				continue;
			}
			add_arch(p, e, arch, variant, cuda);
			if (pa)
				add_arch(p, e, pa, 0, cuda);
		} else if ((k = pf_arch_name(e, n, named, 2)) > 0) {
			for (size_t j = 0; j < k; j++)
				add_arch(p, e, named[j], 0, cuda);
		} else if (!strcmp(e, "All")) {
			for (size_t j = 0; arch_names_list[j]; j++) {
				size_t m = pf_arch_name(arch_names_list[j], strlen(arch_names_list[j]), named, 2);

				for (size_t q = 0; q < m; q++)
					if (strchr(arch_names_list[j], '+') == NULL)
						add_arch(p, "All", named[q], 0, cuda);
			}
		} else {
			size_t best = 3;
			const char *near = NULL;
			char *fix;

			for (size_t j = 0; arch_names_list[j]; j++) {
				size_t dd = pf_edit_distance(e, arch_names_list[j], 2);

				if (dd < best)
					best = dd, near = arch_names_list[j];
			}
			fix = near ? pt_xasprintf("write %s (or its numbers)", near) :
				     pt_xstrdup("write compute capabilities as 8.6, 9.0a, 12.0+PTX, separated by ';'");
			item(p, PF_FAIL, "arch", fix,
			     "TORCH_CUDA_ARCH_LIST entry '%s' is neither M.m[a] nor a name torch knows: CMake stops with "
			     "'Found Unknown CUDA Architecture Name in CUDA_SELECT_NVCC_ARCH_FLAGS: %s'", e, e);
			free(fix);
		}
	}
	free(copy);
	pf_nvcc_range(cuda, &lo, &hi);
	{
		struct pt_strbuf okl;
		size_t n_ok = 0;

		pt_strbuf_init(&okl, 300);
		for (size_t i = first; i < p->n_archs; i++) {
			const struct pf_arch_check *a = &p->archs[i];
			struct cuda_cc cc = { (int)(a->arch / 10), (int)(a->arch % 10) };

			cc_text(a->arch, a->variant, ccb, sizeof(ccb));
			if (a->accepted == 1) {
				pt_strbuf_addf_trunc(&okl, "%s%s", n_ok++ ? " " : "", ccb);
			} else if (a->accepted < 0 || !cudaarch_cc_info(cc)) {
				item(p, PF_FAIL, "arch", "drop it: no GPU has that compute capability",
				     "%s%s%s%s: no GPU has compute capability %s: nvcc rejects it", a->entry,
				     strcmp(a->entry, ccb) ? " (" : "", strcmp(a->entry, ccb) ? ccb : "",
				     strcmp(a->entry, ccb) ? ")" : "", ccb);
			} else {
				int since = since_of(a->arch, a->variant), rem = removed_in(a->arch);
				char *why, *fix;

				if (rem && cuda >= rem)
					why = pt_xasprintf("CUDA %d.%d dropped it", rem / 1000, rem % 1000 / 10);
				else if (since)
					why = pt_xasprintf("it needs CUDA %d.%d", since / 1000, since % 1000 / 10);
				else
					why = pt_xstrdup("no CUDA release has that variant");
				fix = p->arch_list_default ?
					      pt_xasprintf("set TORCH_CUDA_ARCH_LIST to the GPUs you build for (nvcc %s: %u.%u to %u.%u), "
							   "e.g. TORCH_CUDA_ARCH_LIST=\"8.0;8.6;9.0\"", nv, lo / 10, lo % 10, hi / 10, hi % 10) :
				      rem && cuda >= rem ?
					      pt_xasprintf("drop %s from TORCH_CUDA_ARCH_LIST, or build with a CUDA before %d.%d",
							   ccb, rem / 1000, rem % 1000 / 10) :
					      pt_xasprintf("drop %s from TORCH_CUDA_ARCH_LIST, or install a newer CUDA", ccb);
				item(p, PF_FAIL, "arch", fix,
				     "%s: nvcc %s rejects sm_%u%s (%s; it compiles sm_%u to sm_%u): \"nvcc fatal   : "
				     "Unsupported gpu architecture 'compute_%u%s'\"", a->entry, nv, a->arch,
				     a->variant == 'a' ? "a" : a->variant == 'f' ? "f" : "", why, lo, hi, a->arch,
				     a->variant == 'a' ? "a" : a->variant == 'f' ? "f" : "");
				free(why);
				free(fix);
			}
		}
		if (n_ok)
			item(p, PF_OK, "arch", NULL, "%s%s: nvcc %s compiles %s%s%s", p->arch_list_default ?
			     "TORCH_CUDA_ARCH_LIST unset and no GPU here to detect; torch 2.6's common list " :
			     "TORCH_CUDA_ARCH_LIST=", p->arch_list, nv, n_ok == p->n_archs - first ? "each: " : "",
			     pt_strbuf_str(&okl), spaces ? " (spaces are fine: torch's CMake turns them into ';')" : "");
		else if (p->arch_list_default && p->n_archs == first)
			item(p, PF_WARN, "arch", NULL, "TORCH_CUDA_ARCH_LIST unset and no GPU here to detect");
		pt_strbuf_release(&okl);
		if (n_ok)
			device_size(p, first, n_ptx);
	}
}

static bool gpu_present(void)
{
	return nonempty_dir("/proc/driver/nvidia/gpus") || exists("/dev/nvidia0");
}

/* The nvcc the build finds: CUDACXX (CMake's CUDA compiler), CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda. */
static void find_nvcc(struct preflight *p, char *const *envp)
{
	const char *v;
	char *c;

	if ((v = pt_envp_get(envp, "CUDACXX")) && *v && pyenv_executable(v)) {
		p->nvcc = pt_xstrdup(v);
		p->nvcc_from = "CUDACXX";
		return;
	}
	static const char *const homes[] = { "CUDA_HOME", "CUDA_PATH" };

	for (size_t i = 0; i < 2; i++)
		if ((v = pt_envp_get(envp, homes[i])) && *v) {
			c = pt_xasprintf("%s/bin/nvcc", v);
			if (pyenv_executable(c)) {
				p->nvcc = c;
				p->nvcc_from = homes[i];
				return;
			}
			free(c);
		}
	if ((c = which_exec("nvcc")) != NULL) {
		p->nvcc = c;
		p->nvcc_from = "PATH";
		return;
	}
	if (pyenv_executable("/usr/local/cuda/bin/nvcc")) {
		p->nvcc = pt_xstrdup("/usr/local/cuda/bin/nvcc");
		p->nvcc_from = "/usr/local/cuda";
	}
}

static void check_nvcc(struct preflight *p, char *const *envp, int use_cuda)
{
	struct pt_strbuf out;
	int st;

	find_nvcc(p, envp);
	{
		const char *home = pt_envp_get(envp, "CUDA_HOME");

		/* find_nvcc takes CUDA_HOME/bin/nvcc when it is there: else it was not (CUDACXX aside). */
		if (home && *home && (!p->nvcc_from || (strcmp(p->nvcc_from, "CUDA_HOME") && strcmp(p->nvcc_from, "CUDACXX"))))
			item(p, PF_WARN, "nvcc", "point CUDA_HOME at the toolkit (the folder with bin/nvcc), or unset it",
			     "CUDA_HOME=%s has no bin/nvcc: the build looks further and takes %s", home,
			     p->nvcc ? p->nvcc : "none");
	}
	if (!p->nvcc) {
		if (use_cuda == 1)
			item(p, PF_FAIL, "nvcc", "install the CUDA toolkit, or set CUDA_HOME to it (or USE_CUDA=0)",
			     "USE_CUDA is on and there is no nvcc: not in CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda");
		else
			item(p, PF_WARN, "nvcc", "USE_CUDA=0 to say so, or CUDA_HOME=/path/to/cuda",
			     "no nvcc (CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda): torch builds without CUDA");
		return;
	}
	st = run_out(p->nvcc, "--version", &out);
	if (st != 0 || pf_nvcc_version(out.buf ? out.buf : "", out.len, &p->cuda, p->cuda_build,
				       sizeof(p->cuda_build)) < 0) {
		char *l = first_line_of(pt_strbuf_str(&out));

		p->cuda = 0;
		if (st != 0)
			item(p, PF_FAIL, "nvcc", "fix or remove that nvcc, or point CUDA_HOME at a working toolkit",
			     "%s (from %s): 'nvcc --version' %s%d", p->nvcc, p->nvcc_from,
			     st < 0 ? "did not start" : "exited ", st < 0 ? 0 : st);
		else
			item(p, PF_FAIL, "nvcc", "fix or remove that nvcc, or point CUDA_HOME at a working toolkit",
			     "%s (from %s): 'nvcc --version' printed no 'Cuda compilation tools, release N.N' line "
			     "(its first line: '%s'): CMake cannot use it either", p->nvcc, p->nvcc_from, l);
		free(l);
	} else {
		item(p, PF_OK, "nvcc", NULL, "%s (from %s): CUDA %d.%d%s%s%s", p->nvcc, p->nvcc_from, p->cuda / 1000,
		     p->cuda % 1000 / 10, p->cuda_build[0] ? " (" : "", p->cuda_build, p->cuda_build[0] ? ")" : "");
	}
	pt_strbuf_release(&out);
}

/* The toolkit of an nvcc: realpath(nvcc) without bin/nvcc into root (PATH_MAX); "" and false when none. */
static bool toolkit_root(const char *nvcc, char *root)
{
	char *s;

	root[0] = 0;
	if (!nvcc || !realpath(nvcc, root) || !(s = strrchr(root, '/')))
		return root[0] = 0, false;
	*s = 0;
	if (!(s = strrchr(root, '/')))
		return root[0] = 0, false;
	*s = 0;
	return true;
}

/* name in the folder of file (a path with a '/'): a new string. */
static char *beside(const char *file, const char *name)
{
	const char *slash = strrchr(file, '/');

	return pt_xasprintf("%.*s/%s", (int)(slash ? slash - file : 0), file, name);
}

/* ---- cuDNN ---- */

/* The first dir/sub/name that exists, for dir in dirs and sub in subs; a new string or NULL. */
static char *find_in(const char *const *dirs, size_t nd, const char *const *subs, const char *name)
{
	for (size_t i = 0; i < nd; i++) {
		if (!dirs[i] || !*dirs[i])
			continue;
		for (size_t j = 0; subs[j]; j++) {
			char *c = pt_xasprintf("%s%s%s/%s", dirs[i], *subs[j] ? "/" : "", subs[j], name);

			if (exists(c))
				return c;
			free(c);
		}
	}
	return NULL;
}

/*
 * Where torch 2.6's cmake/Modules_CUDA_fix/FindCUDNN.cmake looks: cudnn.h in
 * CUDNN_INCLUDE_DIR, then CUDNN_ROOT and the CUDA toolkit (include, cuda/include),
 * then the system's include folders; libcudnn in CUDNN_LIBRARY (setup.py's
 * CUDNN_LIB_DIR), CUDNN_ROOT and the toolkit (lib, lib64), then the system's.
 * Not found: CMake warns "Cannot find cuDNN library. Turning the option off";
 * older than 8.5: Dependencies.cmake stops (FATAL_ERROR).
 */
static void check_cudnn(struct preflight *p, char *const *envp, struct pt_diag *d)
{
	static const char *const inc_subs[] = { "", "include", "cuda/include", "cuda", NULL };
	static const char *const lib_subs[] = { "", "lib", "lib64", "cuda/lib", "cuda/lib64", "lib/x64", NULL };
	const char *use = pt_envp_get(envp, "USE_CUDNN"), *stat_v = pt_envp_get(envp, "USE_STATIC_CUDNN");
	const char *libname = stat_v && pf_torch_bool(stat_v) == 1 ? "libcudnn_static.a" : "libcudnn.so";
	char root[PATH_MAX], *hdr, *lib;
	const char *lib_dir = pt_envp_get(envp, "CUDNN_LIB_DIR");
	struct pf_version v;

	if (use && pf_torch_bool(use) == 0) {
		item(p, PF_OK, "cudnn", NULL, "USE_CUDNN=%s: built without cuDNN", use);
		return;
	}
	toolkit_root(p->nvcc, root);
	{
		const char *incs[] = { pt_envp_get(envp, "CUDNN_INCLUDE_DIR"), pt_envp_get(envp, "CUDNN_ROOT"), root,
				       "/usr/include", "/usr/local/include", "/usr/include/x86_64-linux-gnu" };
		const char *libs[] = { lib_dir ? lib_dir : pt_envp_get(envp, "CUDNN_LIBRARY"), pt_envp_get(envp, "CUDNN_ROOT"),
				       root, "/usr/lib/x86_64-linux-gnu", "/usr/lib", "/usr/local/lib" };

		hdr = find_in(incs, 6, inc_subs, "cudnn.h");
		lib = find_in(libs, 6, lib_subs, libname);
	}
	if (!hdr || !lib) {
		item(p, use && pf_torch_bool(use) == 1 ? PF_FAIL : PF_WARN, "cudnn",
		     "install cuDNN (pip install nvidia-cudnn-cu12, or NVIDIA's packages) and set CUDNN_INCLUDE_DIR and "
		     "CUDNN_LIB_DIR, or USE_CUDNN=0",
		     "no %s%s%s where torch's FindCUDNN looks (CUDNN_INCLUDE_DIR, CUDNN_LIB_DIR, CUDNN_ROOT, %s, the "
		     "system's): CMake says 'Cannot find cuDNN library. Turning the option off'", hdr ? "" : "cudnn.h",
		     !hdr && !lib ? " and no " : "", lib ? "" : libname, root[0] ? root : "the CUDA toolkit");
		free(hdr);
		free(lib);
		return;
	}
	/* The version: cudnn_version.h beside cudnn.h, else cudnn.h itself. */
	{
		char *ver = beside(hdr, "cudnn_version.h");
		uint8_t *buf = NULL;
		size_t len = 0;
		int rc = read_small(exists(ver) ? ver : hdr, SMALL_MAX, &buf, &len, d);

		if (rc != 0 || pf_cudnn_version(buf, len, &v) < 0)
			item(p, PF_WARN, "cudnn", NULL, "%s, %s: no CUDNN_MAJOR in %s (CMake calls it version '?')", hdr, lib,
			     exists(ver) ? ver : hdr);
		else if (v.v[0] < 8 || (v.v[0] == 8 && v.v[1] < 5))
			item(p, PF_FAIL, "cudnn", "cuDNN 8.5 or newer, or USE_CUDNN=0",
			     "cuDNN %u.%u.%u (%s): torch needs 8.5 or newer, CMake stops ('PyTorch needs CuDNN-8.5 or above')",
			     v.v[0], v.v[1], v.v[2], hdr);
		else
			item(p, PF_OK, "cudnn", NULL, "cuDNN %u.%u.%u: %s, %s", v.v[0], v.v[1], v.v[2], hdr, lib);
		free(buf);
		free(ver);
	}
	free(hdr);
	free(lib);
}

/* ---- NCCL and cuSPARSELt ---- */

/* A header's version (pf_header_version) into v: 0, or -1 (a warning in d when unreadable). */
static int header_version(const char *hdr, const char *ma, const char *mi, const char *pa, struct pf_version *v,
			  struct pt_diag *d)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = read_small(hdr, SMALL_MAX, &buf, &len, d) == 0 ? pf_header_version(buf, len, ma, mi, pa, v) : -1;

	free(buf);
	return rc;
}

/* "2.28.9", or "?" when unknown, into buf. */
static const char *ver_text(const struct pf_version *v, int rc, char *buf, size_t n)
{
	if (rc < 0)
		pt_fmt_trunc(buf, n, "?");
	else
		pt_fmt_trunc(buf, n, "%u.%u.%u", v->v[0], v->v[1], v->v[2]);
	return buf;
}

/*
 * NCCL, as torch 2.6's cmake/External/nccl.cmake takes it (USE_NCCL defaults
 * on with CUDA on Linux): with USE_SYSTEM_NCCL (or USE_SYSTEM_LIBS) its
 * FindNCCL.cmake looks for nccl.h in NCCL_INCLUDE_DIR, NCCL_ROOT /
 * NCCL_ROOT_DIR and the CUDA toolkit, then the system's, and libnccl.so
 * (libnccl_static.a with USE_STATIC_NCCL) likewise with NCCL_LIB_DIR, and
 * find_package(NCCL REQUIRED) stops CMake when either is missing; without,
 * torch builds the NCCL of its third_party/nccl/nccl submodule, for every
 * arch of the list.
 */
static void check_nccl(struct preflight *p, char *const *envp, bool sys_libs, struct pt_diag *d)
{
	static const char *const inc_subs[] = { "", "include", NULL };
	static const char *const lib_subs[] = { "", "lib", "lib64", NULL };
	const char *use = pt_envp_get(envp, "USE_NCCL"), *sysv = pt_envp_get(envp, "USE_SYSTEM_NCCL");
	const char *stat_v = pt_envp_get(envp, "USE_STATIC_NCCL");
	const char *libname = stat_v && pf_torch_bool(stat_v) == 1 ? "libnccl_static.a" : "libnccl.so";
	bool sys = (sysv && pf_torch_bool(sysv) == 1) || (sys_libs && !(sysv && pf_torch_bool(sysv) == 0));
	char root[PATH_MAX], *hdr, *lib, vb[32];
	struct pf_version v;
	int vrc = -1;

	if (use && pf_torch_bool(use) == 0) {
		item(p, PF_OK, "nccl", NULL, "USE_NCCL=%s: built without NCCL (torch.distributed has no nccl backend)", use);
		return;
	}
	toolkit_root(p->nvcc, root);
	{
		const char *incs[] = { pt_envp_get(envp, "NCCL_INCLUDE_DIR"), pt_envp_get(envp, "NCCL_ROOT"),
				       pt_envp_get(envp, "NCCL_ROOT_DIR"), root, "/usr/include", "/usr/local/include" };
		const char *libs[] = { pt_envp_get(envp, "NCCL_LIB_DIR"), pt_envp_get(envp, "NCCL_ROOT"),
				       pt_envp_get(envp, "NCCL_ROOT_DIR"), root, "/usr/lib/x86_64-linux-gnu", "/usr/lib",
				       "/usr/local/lib" };

		hdr = find_in(incs, 6, inc_subs, "nccl.h");
		lib = find_in(libs, 7, lib_subs, libname);
	}
	if (hdr)
		vrc = header_version(hdr, "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH", &v, d);
	if (sys) {
		if (!hdr || !lib)
			item(p, PF_FAIL, "nccl",
			     "install NCCL (NVIDIA's libnccl-dev, or pip's nvidia-nccl-cu12) and set NCCL_ROOT (or "
			     "NCCL_INCLUDE_DIR and NCCL_LIB_DIR), or USE_SYSTEM_NCCL=0 to build torch's own, or USE_NCCL=0",
			     "%s: no %s%s%s where torch's FindNCCL looks (NCCL_INCLUDE_DIR, NCCL_LIB_DIR, NCCL_ROOT, %s, the "
			     "system's): CMake stops with 'Could NOT find NCCL (missing: %s%s%s)'",
			     sysv && pf_torch_bool(sysv) == 1 ? "USE_SYSTEM_NCCL=1" : "USE_SYSTEM_LIBS=ON (so the system's NCCL)",
			     hdr ? "" : "nccl.h", !hdr && !lib ? " and no " : "", lib ? "" : libname,
			     root[0] ? root : "the CUDA toolkit", hdr ? "" : "NCCL_INCLUDE_DIRS", !hdr && !lib ? " " : "",
			     lib ? "" : "NCCL_LIBRARIES");
		else
			item(p, PF_OK, "nccl", NULL, "the system's NCCL %s: %s, %s", ver_text(&v, vrc, vb, sizeof(vb)), hdr, lib);
	} else {
		char *sub = pt_xasprintf("%s/third_party/nccl/nccl", p->source_dir);
		char *also = hdr && lib ? pt_xasprintf("; NCCL %s is installed (%s): USE_SYSTEM_NCCL=1 uses it instead",
						       ver_text(&v, vrc, vb, sizeof(vb)), lib)
					: pt_xstrdup("");

		if (!p->is_checkout)
			item(p, PF_OK, "nccl", NULL, "torch builds the NCCL of its third_party/nccl/nccl submodule%s", also);
		else if (nonempty_dir(sub))
			item(p, PF_OK, "nccl", NULL, "torch builds the NCCL of third_party/nccl/nccl, for every arch of the "
			     "list (a long part of a CUDA build)%s", also);
		else
			item(p, PF_FAIL, "nccl",
			     hdr && lib ? "USE_SYSTEM_NCCL=1 (the installed one), or git submodule update --init "
					  "--recursive third_party/nccl, or USE_NCCL=0"
					: "git submodule update --init --recursive third_party/nccl, or USE_NCCL=0",
			     "%s is missing or empty: torch builds NCCL from it (USE_SYSTEM_NCCL unset) and the build "
			     "stops there%s", sub, also);
		free(also);
		free(sub);
	}
	free(hdr);
	free(lib);
}

/*
 * cuSPARSELt (USE_CUSPARSELT defaults on with CUDA): torch 2.6's
 * FindCUSPARSELT.cmake looks for cusparseLt.h in CUSPARSELT_INCLUDE_DIR and
 * CUSPARSELT_ROOT / CUSPARSELT_ROOT_DIR and the CUDA toolkit (include, cuda,
 * cuda/include), libcusparseLt.so in CUSPARSELT_LIBRARY and the same (lib,
 * lib64, cuda/lib, cuda/lib64); not found, cuda.cmake warns 'Cannot find
 * cuSPARSELt library. Turning the option off': torch builds, without 2:4
 * sparse semi-structured matmuls.
 */
static void check_cusparselt(struct preflight *p, char *const *envp, struct pt_diag *d)
{
	static const char *const inc_subs[] = { "", "include", "cuda", "cuda/include", NULL };
	static const char *const lib_subs[] = { "", "lib", "lib64", "cuda/lib", "cuda/lib64", NULL };
	const char *use = pt_envp_get(envp, "USE_CUSPARSELT");
	char root[PATH_MAX], *hdr, *lib, vb[32];
	struct pf_version v;

	if (use && pf_torch_bool(use) == 0) {
		item(p, PF_OK, "cusparselt", NULL, "USE_CUSPARSELT=%s: built without cuSPARSELt", use);
		return;
	}
	toolkit_root(p->nvcc, root);
	{
		const char *incs[] = { pt_envp_get(envp, "CUSPARSELT_INCLUDE_DIR"), pt_envp_get(envp, "CUSPARSELT_ROOT"),
				       pt_envp_get(envp, "CUSPARSELT_ROOT_DIR"), root, "/usr/include", "/usr/local/include" };
		const char *libs[] = { pt_envp_get(envp, "CUSPARSELT_LIBRARY"), pt_envp_get(envp, "CUSPARSELT_ROOT"),
				       pt_envp_get(envp, "CUSPARSELT_ROOT_DIR"), root, "/usr/lib/x86_64-linux-gnu", "/usr/lib",
				       "/usr/local/lib" };

		hdr = find_in(incs, 6, inc_subs, "cusparseLt.h");
		lib = find_in(libs, 7, lib_subs, "libcusparseLt.so");
	}
	if (!hdr || !lib)
		item(p, use && pf_torch_bool(use) == 1 ? PF_WARN : PF_OK, "cusparselt",
		     use && pf_torch_bool(use) == 1 ? "install cuSPARSELt (pip's nvidia-cusparselt-cu12, or NVIDIA's "
						      "libcusparselt-dev) and set CUSPARSELT_ROOT, or USE_CUSPARSELT=0"
						    : NULL,
		     "no %s%s%s where torch's FindCUSPARSELT looks (CUSPARSELT_INCLUDE_DIR, CUSPARSELT_LIBRARY, "
		     "CUSPARSELT_ROOT, %s): CMake warns 'Cannot find cuSPARSELt library. Turning the option off' "
		     "(no 2:4 sparse matmuls)", hdr ? "" : "cusparseLt.h", !hdr && !lib ? " and no " : "",
		     lib ? "" : "libcusparseLt.so", root[0] ? root : "the CUDA toolkit");
	else
		item(p, PF_OK, "cusparselt", NULL, "cuSPARSELt %s: %s, %s",
		     ver_text(&v, header_version(hdr, "CUSPARSELT_VER_MAJOR", "CUSPARSELT_VER_MINOR", "CUSPARSELT_VER_PATCH",
						 &v, d),
			      vb, sizeof(vb)),
		     hdr, lib);
	free(hdr);
	free(lib);
}

/* ---- BLAS ---- */

/*
 * The BLAS torch 2.6's cmake/Dependencies.cmake takes: BLAS (setup.py passes
 * it; unset, "MKL" preferred without insisting), OpenBLAS (REQUIRED:
 * FindOpenBLAS's cblas.h and libopenblas in /usr, /usr/local and their
 * openblas folders), Generic (GENERIC_BLAS_LIBRARIES, default libblas, as
 * find_library looks), MKL (FindMKL: mkl_cblas.h and libmkl_intel_lp64 or
 * libmkl_rt under INTEL_MKL_DIR, /opt/intel/oneapi/mkl/latest,
 * /opt/intel/mkl, CMAKE_PREFIX_PATH, /usr/include/mkl), Eigen (built in).
 * An unset BLAS without MKL falls back: "MKL could not be found. Defaulting
 * to Eigen", then a general BLAS (FindBLAS) when there is one.
 */
static void check_blas(struct preflight *p, char *const *envp, struct pt_diag *d)
{
	static const char *const known[] = { "ATLAS", "BLIS", "Eigen", "FLAME", "Generic", "MKL", "OpenBLAS", "vecLib",
					     "APL", "NVPL", "FlexiBLAS", NULL };
	static const char *const inc_subs[] = { "", "include", "include/mkl", "openblas", "openblas-base",
						"x86_64-linux-gnu", NULL };
	static const char *const lib_subs[] = { "", "lib", "lib/intel64", "lib64", "x86_64-linux-gnu", "openblas-base",
						"x86_64-linux-gnu/openblas-pthread", NULL };
	const char *blas = pt_envp_get(envp, "BLAS"), *pfx = pt_envp_get(envp, "CMAKE_PREFIX_PATH");
	const char *user = blas && *blas ? blas : NULL, *want = user ? user : "MKL";
	char *hdr = NULL, *lib = NULL, *first_pfx = NULL, vb[48];
	size_t k;

	for (k = 0; known[k] && strcmp(known[k], want); k++)
		;
	if (!known[k]) {
		item(p, PF_FAIL, "blas", "BLAS=MKL, OpenBLAS, Generic or Eigen (the names torch's CMake takes)",
		     "BLAS=%s: CMake stops with 'Unrecognized BLAS option: %s'", want, want);
		return;
	}
	if (pfx && *pfx)
		first_pfx = pt_xstrndup(pfx, strcspn(pfx, ":;"));
	if (!strcmp(want, "MKL")) {
		const char *dirs[] = { pt_envp_get(envp, "INTEL_MKL_DIR"), "/opt/intel/oneapi/mkl/latest", "/opt/intel/mkl",
				       first_pfx, pt_envp_get(envp, "CONDA_PREFIX"), "/usr", "/usr/local" };
		const char *libdirs[] = { dirs[0], dirs[1], dirs[2], dirs[3], dirs[4], "/usr/lib", "/usr/local/lib" };

		hdr = find_in(dirs, 7, inc_subs, "mkl_cblas.h");
		lib = find_in(libdirs, 7, lib_subs, "libmkl_intel_lp64.so");
		if (!lib)
			lib = find_in(libdirs, 7, lib_subs, "libmkl_rt.so");
	} else if (!strcmp(want, "OpenBLAS")) {
		const char *dirs[] = { "/usr/include", "/usr/local/include", "/usr/local/opt/openblas/include" };
		const char *libdirs[] = { "/usr/lib", "/usr/lib64", "/usr/local/lib", "/usr/local/lib64",
					  "/usr/local/opt/openblas/lib" };

		hdr = find_in(dirs, 3, inc_subs, "cblas.h");
		lib = find_in(libdirs, 5, lib_subs, "libopenblas.so");
	} else if (!strcmp(want, "Generic")) {
		const char *g = pt_envp_get(envp, "GENERIC_BLAS_LIBRARIES");
		char *name = pt_xasprintf("lib%s.so", g && *g ? g : "blas");
		const char *libdirs[] = { "/usr/lib", "/usr/local/lib", first_pfx };

		lib = find_in(libdirs, 3, lib_subs, name);
		if (lib)
			item(p, PF_OK, "blas", NULL, "BLAS=Generic: %s (GENERIC_BLAS_LIBRARIES %s)", lib, g && *g ? g : "unset: blas");
		else
			item(p, PF_FAIL, "blas", "apt-get install libblas-dev (or set GENERIC_BLAS_LIBRARIES)",
			     "BLAS=Generic: no %s where CMake's find_library looks: BLAS_LIBRARIES-NOTFOUND, the link fails",
			     name);
		free(name);
		free(lib);
		free(first_pfx);
		return;
	} else {
		item(p, PF_OK, "blas", NULL, "BLAS=%s: as torch's CMake finds it (not checked here)", want);
		free(first_pfx);
		return;
	}
	if (hdr && lib) {
		struct pf_version v;
		int vrc = -1;

		if (!strcmp(want, "MKL")) {
			char *vf = beside(hdr, "mkl_version.h");

			if (exists(vf))
				vrc = header_version(vf, "__INTEL_MKL__", "__INTEL_MKL_MINOR__", "__INTEL_MKL_UPDATE__", &v, d);
			free(vf);
		} else {
			static const char tag[] = "OPENBLAS_VERSION \" OpenBLAS ";
			char *vf = beside(hdr, "openblas_config.h");
			uint8_t *buf = NULL;
			size_t len = 0;

			if (exists(vf) && read_small(vf, SMALL_MAX, &buf, &len, d) == 0) {
				const uint8_t *q = memmem(buf, len, tag, sizeof(tag) - 1);
				size_t off = q ? (size_t)(q - buf) + sizeof(tag) - 1 : 0;

				if (q && pf_tool_version(buf + off, len - off, &v) == 0)
					vrc = 0;
			}
			free(buf);
			free(vf);
		}
		item(p, PF_OK, "blas", NULL, "%s%s %s: %s, %s", user ? "BLAS=" : "BLAS unset: torch prefers ", want,
		     ver_text(&v, vrc, vb, sizeof(vb)), hdr, lib);
	} else if (user) {
		item(p, PF_FAIL, "blas",
		     !strcmp(want, "MKL") ? "install MKL (Intel's oneAPI, pip's mkl-devel or Debian's libmkl-dev), or BLAS=OpenBLAS or Generic"
					  : "apt-get install libopenblas-dev, or BLAS=Generic",
		     "BLAS=%s: no %s%s%s where torch's Find%s looks: CMake stops ('Could not find %s')", want,
		     hdr ? "" : (!strcmp(want, "MKL") ? "mkl_cblas.h" : "cblas.h"), !hdr && !lib ? " and no " : "",
		     lib ? "" : (!strcmp(want, "MKL") ? "libmkl_intel_lp64.so" : "libopenblas.so"), want,
		     !strcmp(want, "MKL") ? "MKL" : "OpenBLAS");
	} else {
		/* MKL preferred, not found: Eigen, then a general BLAS if FindBLAS finds one. */
		const char *libdirs[] = { "/usr/lib", "/usr/local/lib" };
		static const char *const gen[] = { "libopenblas.so", "libblis.so", "libblas.so", NULL };
		char *g = NULL;

		for (size_t i = 0; gen[i] && !g; i++)
			g = find_in(libdirs, 2, lib_subs, gen[i]);
		if (g)
			item(p, PF_OK, "blas", NULL, "BLAS unset: torch prefers MKL, not found here (INTEL_MKL_DIR, /opt/intel, "
			     "CMAKE_PREFIX_PATH, /usr/include/mkl): CMake says 'MKL could not be found. Defaulting to "
			     "Eigen' and then takes a general BLAS, %s", g);
		else
			item(p, PF_WARN, "blas", "apt-get install libopenblas-dev (then BLAS=OpenBLAS), or install MKL",
			     "BLAS unset: torch prefers MKL, not found here, and no general BLAS (OpenBLAS, BLIS, libblas): "
			     "torch builds with no BLAS (USE_BLAS=0): slow matmuls");
		free(g);
	}
	free(hdr);
	free(lib);
	free(first_pfx);
}

/* ---- --try-nvcc: the predictions against the real nvcc ---- */

/* nvcc's output says it refused the host compiler (host_config.h's #error). */
static bool host_refusal(const char *out)
{
	return strstr(out, "unsupported GNU version") || strstr(out, "unsupported clang version");
}

/* That line of out, without the path and #error before the message, at most 100 bytes. */
static char *host_refusal_line(const char *out)
{
	const char *m = strstr(out, "unsupported GNU version");
	size_t n;

	if (!m)
		m = strstr(out, "unsupported clang version");
	n = strcspn(m, "\n");
	return pt_xstrndup(m, n > 100 ? 100 : n);
}

/*
 * Each distinct architecture of p->archs compiled in a one-line kernel with
 * nvcc and the host compiler the build gives it (-ccbin only where CMake
 * passes one). A refusal of the host compiler is told apart from one of the
 * architecture.
 */
static void try_nvcc(struct preflight *p, struct pt_diag *d)
{
	char dir[] = "/tmp/ptinspect-preflight.XXXXXX", *src, *obj;
	int fd;

	if (!mkdtemp(dir)) {
		pt_diag_add(d, PT_SEV_WARNING, "/tmp", NULL, "--try-nvcc: cannot make a scratch directory: %s",
			    strerror(errno));
		return;
	}
	src = pt_xasprintf("%s/k.cu", dir);
	obj = pt_xasprintf("%s/k.o", dir);
	static const char kernel[] = "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n";

	fd = open(src, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || pt_write_all(fd, kernel, sizeof(kernel) - 1) < 0) {
		pt_diag_add(d, PT_SEV_WARNING, src, NULL, "--try-nvcc: cannot write: %s", strerror(errno));
	} else {
		for (size_t i = 0; i < p->n_archs; i++) {
			const struct pf_arch_check *a = &p->archs[i];
			const char *v = a->variant == 'a' ? "a" : a->variant == 'f' ? "f" : "";
			char gencode[64];
			bool seen = false;
			struct pt_strbuf out;
			int st;

			for (size_t j = 0; j < i; j++)
				seen |= p->archs[j].arch == a->arch && p->archs[j].variant == a->variant;
			if (seen || a->accepted < 0)
				continue;
			pt_fmt_trunc(gencode, sizeof(gencode), "arch=compute_%u%s,code=sm_%u%s", a->arch, v, a->arch, v);
			{
				/* stderr with stdout: nvcc's messages are on stderr. */
				char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)"exec \"$0\" \"$@\" 2>&1", p->nvcc,
						 (char *)"-gencode", gencode, (char *)"-c", src, (char *)"-o", obj,
						 p->host_ccbin ? (char *)"-ccbin" : NULL, p->host_cxx, NULL };

				pt_strbuf_init(&out, OUT_MAX);
				st = pyenv_run_capture(argv, &out, 0);
			}
			if (st == 0) {
				item(p, a->accepted ? PF_OK : PF_FAIL, "try-nvcc", a->accepted ? NULL : "report it: ptools' table is wrong",
				     "sm_%u%s: nvcc compiled a one-line kernel%s", a->arch, v,
				     a->accepted ? ", as predicted" : ", though the table predicted a refusal");
			} else if (host_refusal(pt_strbuf_str(&out))) {
				char *l = host_refusal_line(pt_strbuf_str(&out));

				item(p, p->host_refused ? PF_OK : PF_FAIL, "try-nvcc", NULL,
				     "sm_%u%s: nvcc refused the host compiler %s%s: '%s'", a->arch, v, p->host_cxx,
				     p->host_refused ? ", as predicted" : ", though preflight predicted it takes it", l);
				free(l);
			} else {
				char *l = first_line_of(pt_strbuf_str(&out));

				item(p, a->accepted ? PF_FAIL : PF_OK, "try-nvcc", NULL, "sm_%u%s: nvcc refused it%s: '%s'", a->arch,
				     v, a->accepted ? ", though the table predicted it compiles" : ", as predicted", l);
				free(l);
			}
			pt_strbuf_release(&out);
		}
	}
	if (fd >= 0)
		close(fd);
	unlink(obj);
	unlink(src);
	rmdir(dir);
	free(src);
	free(obj);
}

/* ---- host compiler ---- */

/* name in one of the ':'-separated dirs of path (an empty entry is the current directory), executable; NULL when not. */
static char *which_in(const char *path, const char *name)
{
	const char *s = path;

	for (;;) {
		size_t n = strcspn(s, ":");
		char *c = n ? pt_xasprintf("%.*s/%s", (int)n, s, name) : pt_xasprintf("./%s", name);

		if (pyenv_executable(c))
			return c;
		free(c);
		if (!s[n])
			return NULL;
		s += n + 1;
	}
}

/*
 * The compiler nvcc compiles host code with when CMake passes no -ccbin (torch
 * passes none for GCC): the first "-E -x c++" command of `nvcc --dryrun`
 * (which runs nothing and needs no file), looked up on the PATH nvcc runs it
 * with: the environment's with nvcc.profile's additions, and a wrapper
 * script's (Debian's /usr/bin/nvcc puts /usr/lib/nvidia-cuda-toolkit/bin
 * first, whose gcc is g++-13). `gcc` on PATH when nvcc does not say.
 */
static char *nvcc_default_host(const struct preflight *p)
{
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)"exec \"$0\" \"$@\" 2>&1", p->nvcc,
			 (char *)"--dryrun", (char *)"-c", (char *)"/dev/null/ptinspect-preflight.cu", (char *)"-o",
			 (char *)"/dev/null", NULL };
	struct pt_strbuf out;
	char *path = NULL, *host = NULL, *r;

	pt_strbuf_init(&out, OUT_MAX);
	if (pyenv_run_capture(argv, &out, 0) >= 0)
		(void)pf_nvcc_dryrun(out.buf ? out.buf : "", out.len, &path, &host);
	pt_strbuf_release(&out);
	if (!host)
		host = pt_xstrdup("gcc");
	if (strchr(host, '/'))
		r = pyenv_executable(host) ? pt_xstrdup(host) : NULL;
	else
		r = path ? which_in(path, host) : which_exec(host);
	free(path);
	free(host);
	return r;
}

/* cc --version into c: 0, or -1 with the first line of its output in *line (new string). */
static int compiler_of(const char *cc, struct pf_compiler *c, char **line)
{
	struct pt_strbuf out;
	int st = run_out(cc, "--version", &out);

	*line = NULL;
	if (st != 0 || pf_compiler_version(pt_strbuf_str(&out), out.len, c) < 0) {
		*line = first_line_of(pt_strbuf_str(&out));
		pt_strbuf_release(&out);
		return -1;
	}
	pt_strbuf_release(&out);
	return 0;
}

static const char *cc_family(const struct pf_compiler *c)
{
	return c->kind == PF_CC_GCC ? "GCC" : "Clang";
}

/*
 * The C++ compiler CMake takes (CXX, else c++ on PATH) and, for a CUDA build,
 * the one nvcc compiles the host side of .cu files with, as torch's CMake
 * picks it: CUDAHOSTCXX (CMake passes it with -ccbin), else CXX when it is
 * Clang (cmake/public/cuda.cmake sets CMAKE_CUDA_HOST_COMPILER to it), else
 * nvcc's own default, whatever CXX is. The second is what CUDA's
 * host_config.h limits.
 */
static void check_host(struct preflight *p, char *const *envp, bool cuda_on, struct pt_diag *d)
{
	const char *v, *from = "c++ on PATH", *hfrom;
	char *cxx = NULL, *host, *line;
	struct pf_compiler cxxc = { 0 };
	bool allow = false, cxx_known;

	if ((v = pt_envp_get(envp, "CXX")) && *v)
		cxx = which_exec(v), from = "CXX";
	else
		cxx = which_exec("c++");
	if (!cxx) {
		item(p, PF_FAIL, "host compiler", "apt-get install g++ (or set CXX)", "no C++ compiler (%s)", from);
		return;
	}
	p->cxx = cxx;
	cxx_known = compiler_of(cxx, &cxxc, &line) == 0;
	if (!cxx_known) {
		item(p, PF_WARN, "host compiler", NULL, "%s (%s): not GCC or Clang by its --version ('%s')", cxx, from, line);
		free(line);
		if (!cuda_on || !p->cuda)
			return;
	}
	if (!cuda_on || !p->cuda) {
		p->host = cxxc;
		p->host_cxx = pt_xstrdup(cxx);
		item(p, PF_OK, "host compiler", NULL, "%s (%s): %s %u.%u", cxx, from, cc_family(&cxxc), cxxc.ver.v[0],
		     cxxc.ver.v[1]);
		return;
	}
	if ((v = pt_envp_get(envp, "CUDAHOSTCXX")) && *v) {
		host = which_exec(v);
		hfrom = "CUDAHOSTCXX, passed to nvcc with -ccbin";
		p->host_ccbin = true;
	} else if (cxx_known && cxxc.kind == PF_CC_CLANG) {
		host = pt_xstrdup(cxx);
		hfrom = "CXX is Clang: torch's cuda.cmake passes it to nvcc with -ccbin";
		p->host_ccbin = true;
		p->host = cxxc;		/* its --version is read already */
	} else {
		host = nvcc_default_host(p);
		hfrom = "nvcc's default: gcc on its PATH; torch passes no -ccbin for GCC";
	}
	if (!host) {
		item(p, PF_FAIL, "host compiler", "apt-get install g++, or set CUDAHOSTCXX",
		     "no host compiler for nvcc (%s)", hfrom);
		return;
	}
	p->host_cxx = host;
	if (p->host.kind == PF_CC_UNKNOWN && compiler_of(host, &p->host, &line) < 0) {
		item(p, PF_WARN, "host compiler", NULL, "%s (%s): not GCC or Clang by its --version ('%s')", host, hfrom,
		     line);
		free(line);
		return;
	}
	/* The limits: host_config.h of the nvcc's toolkit, else the table. */
	p->gcc_max = p->clang_max = -1;
	{
		char real[PATH_MAX], *hc = NULL;
		uint8_t *buf = NULL;
		size_t len = 0;

		if (toolkit_root(p->nvcc, real))
			hc = pt_xasprintf("%s/include/crt/host_config.h", real);
		if (hc && read_small(hc, SMALL_MAX, &buf, &len, d) == 0 &&
		    pf_host_config(buf, len, &p->gcc_max, &p->clang_max) == 0) {
			p->host_limits_from = hc;
			hc = NULL;
		}
		free(hc);
		free(buf);
	}
	if (!p->host_limits_from) {
		const struct pf_host_max *m = pf_host_max_for(p->cuda);

		if (m) {
			p->gcc_max = m->gcc_max;
			p->clang_max = m->clang_max;
		}
		p->host_limits_from = pt_xstrdup("ptools' table");
	}
	static const char *const flagvars[] = { "NVCC_APPEND_FLAGS", "NVCC_PREPEND_FLAGS", "TORCH_NVCC_FLAGS",
						"CMAKE_CUDA_FLAGS" };
	for (size_t i = 0; i < 4; i++)
		if ((v = pt_envp_get(envp, flagvars[i])) && strstr(v, "-allow-unsupported-compiler"))
			allow = true;
	{
		bool gcc = p->host.kind == PF_CC_GCC;
		int max = gcc ? p->gcc_max : p->clang_max;
		const char *fam = cc_family(&p->host);
		char *cxxnote;

		/* The C++ files' compiler, when it is another. */
		if (strcmp(host, cxx) && cxx_known &&
		    (cxxc.kind != p->host.kind || cxxc.ver.v[0] != p->host.ver.v[0] || cxxc.ver.v[1] != p->host.ver.v[1]))
			cxxnote = pt_xasprintf("; C++ files: %s (%s): %s %u.%u", cxx, from, cc_family(&cxxc), cxxc.ver.v[0],
					       cxxc.ver.v[1]);
		else
			cxxnote = pt_xstrdup("");
		if (max < 0) {
			item(p, PF_WARN, "host compiler", NULL, "%s (%s): %s %u.%u; the %s limit of CUDA %d.%d is not known%s",
			     host, hfrom, fam, p->host.ver.v[0], p->host.ver.v[1], fam, p->cuda / 1000,
			     p->cuda % 1000 / 10, cxxnote);
		} else if ((int)p->host.ver.v[0] > max) {
			char *fix = pt_xasprintf("CUDAHOSTCXX=/usr/bin/%s-%d (a %s nvcc takes), or -allow-unsupported-compiler "
						 "in NVCC_APPEND_FLAGS at your own risk", gcc ? "g++" : "clang++", max, fam);

			p->host_refused = !allow;
			item(p, allow ? PF_WARN : PF_FAIL, "host compiler", allow ? NULL : fix,
			     "%s (%s): %s %u.%u, CUDA %d.%d takes %s up to %d (%s): 'unsupported %s version!'%s%s", host,
			     hfrom, fam, p->host.ver.v[0], p->host.ver.v[1], p->cuda / 1000, p->cuda % 1000 / 10, fam, max,
			     p->host_limits_from, gcc ? "GNU" : "clang",
			     allow ? "; -allow-unsupported-compiler is set, nvcc goes on at your risk" : "", cxxnote);
			free(fix);
		} else {
			item(p, PF_OK, "host compiler", NULL, "%s (%s): %s %u.%u, CUDA %d.%d takes %s up to %d (%s)%s", host,
			     hfrom, fam, p->host.ver.v[0], p->host.ver.v[1], p->cuda / 1000, p->cuda % 1000 / 10, fam, max,
			     p->host_limits_from, cxxnote);
		}
		free(cxxnote);
	}
}

/* ---- Python, cmake, ninja ---- */

/*
 * The probe python3 runs: its version, its include folder, then one line per
 * build requirement of the checkout's pyproject.toml ([build-system]
 * requires, read with tomllib; setup.py's own imports when there is none or
 * the Python is older than 3.11): "req NAME OP VERSION HAVE", HAVE the
 * installed distribution's version, "-" when not installed, "?" when it
 * imports but has no metadata. OP and VERSION are "-" without a bound.
 */
static const char python_probe[] =
	"import sys, sysconfig, re, importlib.util as u\n"
	"print(sys.version.split()[0])\n"
	"print(sysconfig.get_paths()['include'])\n"
	"req = None\n"
	"if len(sys.argv) > 1 and sys.argv[1]:\n"
	"    try:\n"
	"        import tomllib\n"
	"        with open(sys.argv[1], 'rb') as f:\n"
	"            req = tomllib.load(f).get('build-system', {}).get('requires')\n"
	"    except Exception:\n"
	"        req = None\n"
	"if not isinstance(req, list):\n"
	"    req = ['setuptools', 'pyyaml', 'typing-extensions']\n"
	"mods = {'pyyaml': 'yaml', 'typing-extensions': 'typing_extensions'}\n"
	"for r in req:\n"
	"    m = re.match(r'\\s*([A-Za-z0-9_.-]+)\\s*(?:\\[[^]]*\\])?\\s*(>=|==|~=|>)?\\s*([0-9][0-9.]*)?', str(r))\n"
	"    if not m:\n"
	"        continue\n"
	"    name = m.group(1).lower().replace('_', '-')\n"
	"    try:\n"
	"        import importlib.metadata as md\n"
	"        have = md.version(name)\n"
	"    except Exception:\n"
	"        mod = mods.get(name, name.replace('-', '_'))\n"
	"        have = '?' if u.find_spec(mod) is not None else '-'\n"
	"    print('req', name, m.group(2) or '-', m.group(3) or '-', have)\n";

/* setup.py imports these itself: without them it does not start. */
static bool setup_needs(const char *name)
{
	return !strcmp(name, "setuptools") || !strcmp(name, "pyyaml") || !strcmp(name, "typing-extensions");
}

/* The version in a "1.2.3rc1" text (the dotted numbers at its start; one number is a version too). */
static bool loose_version(const char *s, struct pf_version *v)
{
	char buf[64];

	memset(v, 0, sizeof(*v));
	if (pf_tool_version(s, strlen(s), v) == 0)
		return true;
	if (pt_fmt(buf, sizeof(buf), "%s.0", s) == 0 && pf_tool_version(buf, strlen(buf), v) == 0)
		return true;
	return false;
}

/* One "req" line of the probe: an item when a requirement is missing or older than its bound. */
static void check_requirement(struct preflight *p, const char *py, const char *pyproject, char *line)
{
	char *save = NULL, *name, *op, *want, *have;
	struct pf_version wv, hv;

	strtok_r(line, " ", &save);
	name = strtok_r(NULL, " ", &save);
	op = strtok_r(NULL, " ", &save);
	want = strtok_r(NULL, " ", &save);
	have = strtok_r(NULL, " ", &save);
	if (!name || !op || !want || !have)
		return;
	if (!strcmp(name, "cmake") || !strcmp(name, "ninja")) {
		/* The programs: checked as such (a bound on cmake too). */
		if (!strcmp(name, "cmake") && strcmp(want, "-") && loose_version(want, &wv))
			p->cmake_min_pyproject = wv;
		return;
	}
	if (!strcmp(have, "-")) {
		bool deb = pyenv_same_file(py, "/usr/bin/python3");
		char *fix = pt_xasprintf("%s -m pip install '%s%s%s'%s%s%s", py, name, strcmp(op, "-") ? op : "",
					 strcmp(op, "-") ? want : "", deb ? " (or Debian's python3-" : "",
					 deb ? (!strcmp(name, "pyyaml") ? "yaml" : name) : "", deb ? ")" : "");

		item(p, setup_needs(name) ? PF_FAIL : PF_WARN, "python", fix, "%s cannot import %s (%s)%s", py, name,
		     pyproject ? "pyproject.toml's build requirements" : "setup.py imports it",
		     setup_needs(name) ? ": setup.py stops" :
					 ": pip install --no-build-isolation does not install it, and the build may need it");
		free(fix);
		return;
	}
	if (strcmp(op, "-") && strcmp(have, "?") && loose_version(want, &wv) && loose_version(have, &hv) &&
	    (!strcmp(op, "==") ? pf_version_cmp(&hv, &wv) != 0 :
	     !strcmp(op, ">")  ? pf_version_cmp(&hv, &wv) <= 0 : pf_version_cmp(&hv, &wv) < 0)) {
		char *fix = pt_xasprintf("%s -m pip install '%s%s%s'", py, name, op, want);

		item(p, PF_WARN, "python", fix,
		     "%s has %s %s, pyproject.toml requires %s%s: pip install --no-build-isolation does not check it, "
		     "and setup.py or torchgen may fail on what is missing", py, name, have, op, want);
		free(fix);
	}
}

static void check_python(struct preflight *p)
{
	char *py = which_exec("python3");
	char *pyproject = p->is_checkout ? pt_xasprintf("%s/pyproject.toml", p->source_dir) : NULL;
	char *argv[5];
	struct pt_strbuf out;
	int st;

	if (pyproject && !exists(pyproject)) {
		free(pyproject);
		pyproject = NULL;
	}
	if (!py) {
		item(p, PF_FAIL, "python", "apt-get install python3 python3-dev", "no python3 on PATH: setup.py has nothing to run in");
		free(pyproject);
		return;
	}
	argv[0] = py;
	argv[1] = (char *)"-c";
	argv[2] = (char *)python_probe;
	argv[3] = pyproject ? pyproject : (char *)"";
	argv[4] = NULL;
	pt_strbuf_init(&out, OUT_MAX);
	st = pyenv_run_capture(argv, &out, 1);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		item(p, PF_FAIL, "python", NULL, "%s does not run a one-line script", py);
	} else {
		char *s = pt_xstrdup(pt_strbuf_str(&out)), *save = NULL, *l;
		char *ver = strtok_r(s, "\n", &save), *inc = strtok_r(NULL, "\n", &save);
		char *h = inc ? pt_xasprintf("%s/Python.h", inc) : NULL;
		bool other = !pyenv_same_file(py, "/usr/bin/python3") && exists("/usr/bin/python3");

		if (!h || !exists(h))
			item(p, PF_FAIL, "python", "apt-get install python3-dev (or your Python's headers)",
			     "%s (Python %s): no Python.h in %s", py, ver ? ver : "?", inc ? inc : "its include path");
		else
			item(p, PF_OK, "python", NULL, "%s (Python %s%s), Python.h in %s", py, ver ? ver : "?",
			     other ? "; not /usr/bin/python3" : "", inc);
		while ((l = strtok_r(NULL, "\n", &save)) != NULL)
			if (!strncmp(l, "req ", 4))
				check_requirement(p, py, pyproject, l);
		free(h);
		free(s);
	}
	pt_strbuf_release(&out);
	free(pyproject);
	free(py);
}

static void check_tools(struct preflight *p, struct pt_diag *d)
{
	struct pf_version need = { { 0 }, 0 }, have;
	struct pt_strbuf out;
	char *cm = which_exec("cmake"), *nj;

	if (p->is_checkout) {
		char *path = pt_xasprintf("%s/CMakeLists.txt", p->source_dir);
		uint8_t *buf = NULL;
		size_t len = 0;

		if (read_small(path, SMALL_MAX, &buf, &len, d) == 0)
			pf_cmake_min(buf, len, &need);
		free(buf);
		free(path);
	}
	if (!cm) {
		item(p, PF_FAIL, "cmake", "apt-get install cmake (or pip install cmake)", "no cmake on PATH");
	} else if (run_out(cm, "--version", &out) != 0 || pf_tool_version(pt_strbuf_str(&out), out.len, &have) < 0) {
		item(p, PF_WARN, "cmake", NULL, "%s: no version in its --version", cm);
		pt_strbuf_release(&out);
	} else {
		pt_strbuf_release(&out);
		if (need.n && pf_version_cmp(&have, &need) < 0) {
			char *fix = pt_xasprintf("pip install 'cmake>=%u.%u', or a newer distribution cmake", need.v[0],
						 need.v[1]);

			item(p, PF_FAIL, "cmake", fix, "%s: %u.%u.%u, CMakeLists.txt requires %u.%u (cmake_minimum_required)",
			     cm, have.v[0], have.v[1], have.v[2], need.v[0], need.v[1]);
			free(fix);
		} else if (need.n)
			item(p, PF_OK, "cmake", NULL, "%s: %u.%u.%u (CMakeLists.txt requires %u.%u)", cm, have.v[0],
			     have.v[1], have.v[2], need.v[0], need.v[1]);
		else
			item(p, PF_OK, "cmake", NULL, "%s: %u.%u.%u", cm, have.v[0], have.v[1], have.v[2]);
		if (p->cmake_min_pyproject.n && pf_version_cmp(&have, &p->cmake_min_pyproject) < 0 &&
		    !(need.n && pf_version_cmp(&have, &need) < 0)) {
			const struct pf_version *w = &p->cmake_min_pyproject;
			char *fix = pt_xasprintf("pip install 'cmake>=%u.%u', or a newer distribution cmake", w->v[0], w->v[1]);

			item(p, PF_WARN, "cmake", fix, "%s: %u.%u.%u, pyproject.toml requires cmake>=%u.%u (pip install "
			     "--no-build-isolation does not check it)", cm, have.v[0], have.v[1], have.v[2], w->v[0], w->v[1]);
			free(fix);
		}
	}
	free(cm);
	nj = which_exec("ninja");
	if (!nj) {
		item(p, PF_WARN, "ninja", "apt-get install ninja-build (or pip install ninja)",
		     "no ninja on PATH: setup.py falls back to Unix Makefiles (slower, no .ninja_log)");
	} else if (run_out(nj, "--version", &out) == 0 && pf_tool_version(pt_strbuf_str(&out), out.len, &have) == 0) {
		item(p, PF_OK, "ninja", NULL, "%s: %u.%u.%u", nj, have.v[0], have.v[1], have.v[2]);
		pt_strbuf_release(&out);
	} else {
		item(p, PF_WARN, "ninja", NULL, "%s: no version in its --version", nj);
		pt_strbuf_release(&out);
	}
	free(nj);
}

/* ---- RAM and disk ---- */

static void check_resources(struct preflight *p, char *const *envp, bool cuda_on)
{
	struct build_memory m;
	struct statvfs vfs;
	const char *mj = pt_envp_get(envp, "MAX_JOBS");
	char *bdir = pt_xasprintf("%s/build", p->source_dir);
	const char *where = is_dir(bdir) ? bdir : p->source_dir;
	/*
	 * Build guides' rule of thumb: 2 GB of RAM a job (4 GB -> MAX_JOBS=2). The
	 * disk figures are rough orders of magnitude of a full build/ (CPU; CUDA for
	 * a few archs), not measured by ptools: a warning, never a FAIL.
	 */
	uint64_t per_job = 2 * GIB, need_disk = (cuda_on ? 30 : 12) * GIB;
	char a[32], b[32];

	build_memory_machine(&m, mj);
	p->ram_bytes = m.ram_bytes;
	/* Without MAX_JOBS ninja picks its own: CPUs + 2 (2 on one CPU, 3 on two). */
	p->jobs = m.max_jobs > 0 ? m.max_jobs : m.jobs_default <= 1 ? 2 : m.jobs_default == 2 ? 3 : m.jobs_default + 2;
	if (p->ram_bytes && (uint64_t)p->jobs * per_job > p->ram_bytes) {
		long fit = (long)(p->ram_bytes / per_job);
		char *fix = pt_xasprintf("MAX_JOBS=%ld", fit > 0 ? fit : 1);

		item(p, PF_FAIL, "memory", fix, "%ld job%s (%s) x 2 GB = %s, this machine has %s of RAM: compilers get "
		     "killed (OOM) or the machine swaps", p->jobs, PT_PLURAL(p->jobs), m.max_jobs > 0 ? "MAX_JOBS" : "ninja's default",
		     gb(a, sizeof(a), (uint64_t)p->jobs * per_job), gb(b, sizeof(b), p->ram_bytes));
		free(fix);
	} else if (p->ram_bytes) {
		item(p, PF_OK, "memory", NULL, "%ld job%s (%s) x 2 GB fit in %s of RAM", p->jobs, PT_PLURAL(p->jobs),
		     m.max_jobs > 0 ? "MAX_JOBS" : "ninja's default", gb(b, sizeof(b), p->ram_bytes));
	}
	build_memory_release(&m);
	if (statvfs(where, &vfs) == 0) {
		p->disk_free = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
		if (p->disk_free < need_disk)
			item(p, PF_WARN, "disk", "free some space, or build elsewhere",
			     "%s free in %s; a %s build of torch takes about %s", gb(a, sizeof(a), p->disk_free), where,
			     cuda_on ? "CUDA" : "CPU", gb(b, sizeof(b), need_disk));
		else
			item(p, PF_OK, "disk", NULL, "%s free in %s (a %s build takes about %s)",
			     gb(a, sizeof(a), p->disk_free), where, cuda_on ? "CUDA" : "CPU",
			     gb(b, sizeof(b), need_disk));
	}
	free(bdir);
}

int preflight_run(const struct preflight_opts *o, struct preflight *p, struct pt_diag *d)
{
	char *const *envp = o->envp;
	const char *v;
	bool sys_libs, cuda_on;
	int use_cuda;
	char **options = NULL;
	size_t n_options = 0;

	memset(p, 0, sizeof(*p));
	p->gcc_max = p->clang_max = -1;
	p->source_dir = pt_xstrdup(o->source_dir ? o->source_dir : ".");
	if (!is_dir(p->source_dir)) {
		pt_diag_add(d, PT_SEV_ERROR, p->source_dir, NULL, "not a directory");
		return -1;
	}
	v = pt_envp_get(envp, "USE_SYSTEM_LIBS");
	sys_libs = v && pf_torch_bool(v) == 1;
	check_checkout(p, &sys_libs, d);
	if (p->is_checkout)
		check_gitlinks(p);
	check_cache(p, envp, d);
	if (p->is_checkout) {
		char *path = pt_xasprintf("%s/CMakeLists.txt", p->source_dir);
		uint8_t *buf = NULL;
		size_t len = 0;

		if (read_small(path, SMALL_MAX, &buf, &len, d) == 0)
			pf_cmake_options(buf, len, &options, &n_options);
		free(buf);
		free(path);
	}
	preflight_check_env(p, envp, options, n_options);
	pf_names_release(options, n_options);
	v = pt_envp_get(envp, "USE_CUDA");
	use_cuda = v ? pf_torch_bool(v) : -1;
	if (use_cuda == 0) {
		item(p, PF_OK, "nvcc", NULL, "USE_CUDA=%s: a CPU build, CUDA not checked", v);
	} else {
		check_nvcc(p, envp, use_cuda);
		if (p->cuda) {
			bool only_a = false;
			char *sca = pt_xasprintf("%s/cmake/Modules_CUDA_fix/upstream/FindCUDA/select_compute_arch.cmake",
						 p->source_dir);
			uint8_t *buf = NULL;
			size_t len = 0;
			struct pt_diag quiet;

			pt_diag_init(&quiet);
			if (p->is_checkout && build_read_file(sca, SMALL_MAX, &buf, &len, &quiet) == 0)
				only_a = memmem(buf, len, "[0-9]a?(", 8) != NULL;
			pt_diag_release(&quiet);
			free(buf);
			free(sca);
			preflight_check_arch(p, pt_envp_get(envp, "TORCH_CUDA_ARCH_LIST"), p->cuda, only_a, gpu_present());
		}
	}
	cuda_on = use_cuda != 0 && p->cuda;
	check_host(p, envp, cuda_on, d);
	if (cuda_on) {
		check_cudnn(p, envp, d);
		check_nccl(p, envp, sys_libs, d);
		check_cusparselt(p, envp, d);
	}
	if (o->try_nvcc && cuda_on)
		try_nvcc(p, d);
	check_blas(p, envp, d);
	check_python(p);
	check_tools(p, d);
	check_resources(p, envp, cuda_on);
	return 0;
}

void preflight_release(struct preflight *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->items[i].evidence);
		free(p->items[i].fix);
	}
	free(p->items);
	for (size_t i = 0; i < p->n_archs; i++)
		free(p->archs[i].entry);
	free(p->archs);
	free(p->source_dir);
	free(p->nvcc);
	free(p->arch_list);
	free(p->host_cxx);
	free(p->cxx);
	free(p->host_limits_from);
	memset(p, 0, sizeof(*p));
}
