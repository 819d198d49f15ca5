/*
 * The cross-check of a build tree against what it produced: build/lib/lib*.so
 * (and torch/lib/lib*.so of an in-place build): DWARF vs the build type, the
 * dispatcher trace vs NDEBUG, RPATH/RUNPATH vs CMake's settings, libraries
 * older than their inputs (build.ninja's link edge).
 */
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildtree.h"
#include "fsutil.h"
#include "cudaarch.h"
#include "fatbin_scan.h"
#include "dispatchtrace.h"
#include "elfobj.h"
#include "mapguard.h"
#include "ldpath.h"
#include "rpathlint.h"
#include "xalloc.h"

static int mtime_of(const char *path, struct timespec *ts)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	*ts = st.st_mtim;
	return 0;
}

static int newer(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

/* 1/0: the dispatcher's trace text is in the file; -1 unreadable. */
static int has_trace_text(const char *path)
{
	mode_t mode;
	int fd = pt_open_regular(path, &mode), r = -1;
	struct stat st;
	void *m;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			struct pt_mapguard g;

			/* Cut while read (SIGBUS): unreadable, like a failed read. */
			if (!PT_MAPGUARD_BEGIN(&g)) {
				r = dispatchtrace_text_present(m, (size_t)st.st_size);
				pt_mapguard_end(&g);
			}
			munmap(m, (size_t)st.st_size);
		}
	}
	close(fd);
	return r;
}

/* "9.0+PTX 8.0" -> "8.0;9.0+PTX": split on ';' and blanks, sorted as versions. */
static int cmp_arch(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	double dx = strtod(x, NULL), dy = strtod(y, NULL);

	return dx < dy ? -1 : dx > dy ? 1 : strcmp(x, y);
}

static char *normalise_arch_list(const char *v)
{
	char *dup = pt_xstrdup(v), *tok, *save = NULL, *out;
	char **parts = NULL;
	size_t n = 0, alloc = 0, len = 1;

	for (tok = strtok_r(dup, "; \t", &save); tok; tok = strtok_r(NULL, "; \t", &save)) {
		PT_GROW(parts, n, alloc);
		parts[n++] = tok;
		len += strlen(tok) + 1;
	}
	if (n)
		qsort(parts, n, sizeof(*parts), cmp_arch);
	out = pt_xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, ";");
		strcat(out, parts[i]);
	}
	free(parts);
	free(dup);
	return out;
}

/* The fat binaries of o as a TORCH_CUDA_ARCH_LIST (what most of them hold), or NULL when it has none. */
static char *arch_list_of(const struct elfobj *o)
{
	struct cuda_scan cs;
	struct cuda_summary sum = { 0 };
	struct pt_diag tmp;
	char *list = NULL;

	pt_diag_init(&tmp);
	memset(&cs, 0, sizeof(cs));
	if (cuda_scan(o, CUDA_SCAN_REGISTERED_ONLY, &cs, &tmp) == 0 && cs.entries.n) {
		char *extra;
		bool no_majority;

		/* What most fat binaries hold: a few kernels' own sm_90a is not TORCH_CUDA_ARCH_LIST's. */
		for (size_t i = 0; i < cs.entries.n; i++)
			cudaarch_summary_add_unit(&sum, &cs.entries.v[i], cs.entries.v[i].fatbin);
		list = cudaarch_arch_list_most(&sum, NULL, &extra, &no_majority);
		free(extra);
	}
	cudaarch_summary_release(&sum);
	cuda_scan_release(&cs);
	pt_diag_release(&tmp);
	return list;
}

/* TORCH_CUDA_ARCH_LIST (CUDA on) against what nvcc put in the file. */
static void check_arch(const struct buildtree *t, const char *path, struct build_lib_check *lc,
		       struct build_check *c)
{
	const char *want = cmakecache_value(&t->cache, "TORCH_CUDA_ARCH_LIST");
	char *norm;

	if (!lc->cuda_arch_list || !want || !*want || cmakecache_bool(&t->cache, "USE_CUDA") != 1)
		return;
	norm = normalise_arch_list(want);
	if (strcmp(norm, lc->cuda_arch_list))
		pt_diag_add(&c->findings, PT_SEV_WARNING, path, NULL,
			    "its fat binaries hold %s, but TORCH_CUDA_ARCH_LIST is %s", lc->cuda_arch_list, want);
	else
		pt_diag_add(&c->findings, PT_SEV_NOTE, path, NULL,
			    "its fat binaries hold exactly TORCH_CUDA_ARCH_LIST=%s", want);
	free(norm);
}

/*
 * The RPATH lint (rpathlint.h) of a built library: entries into this build tree are its build
 * RPATH (notes, not reported); what is left is wrong after installation too.
 */
static void lint_rpath(const struct buildtree *t, const struct elfobj *o, const char *path,
		       struct build_check *c)
{
	struct ldpath_env env = { .root = "", .cwd = t->dir, .lib = "lib/x86_64-linux-gnu",
				  .platform = "x86_64" };
	char *origin = ldpath_dirname(path);
	struct rpathlint_input in = { .o = o, .origin = origin, .env = &env, .in_build_tree = true };
	struct rpathlint_result r;

	if (!o->rpath && !o->runpath) {
		free(origin);
		return;
	}
	rpathlint_check(&in, &r, &c->findings);
	for (size_t i = 0; i < r.n; i++) {
		char b[1024];

		if (r.v[i].sev != PT_SEV_WARNING)
			continue;
		rpathlint_describe(&r.v[i], b, sizeof(b));
		pt_diag_add(&c->findings, PT_SEV_WARNING, path, NULL, "%s", b);
	}
	rpathlint_release(&r);
	free(origin);
}

static void check_lib(const struct buildtree *t, const char *path, const char *rel, struct build_check *c)
{
	struct build_lib_check lc = { .path = pt_xstrdup(path) };
	struct elfobj o;
	struct pt_diag tmp;
	const char *type = cmakecache_value(&t->cache, "CMAKE_BUILD_TYPE");
	int wants_dwarf = type && (!strcmp(type, "Debug") || !strcmp(type, "RelWithDebInfo"));

	pt_diag_init(&tmp);
	if (elfobj_open(&o, path, &tmp) < 0) {
		pt_diag_take(&c->findings, &tmp);
		pt_diag_release(&tmp);
		elfobj_release(&o);
		free(lc.path);
		return;
	}
	lint_rpath(t, &o, path, c);
	lc.dwarf = o.has_debug_info;
	lc.rpath = o.rpath ? pt_xstrdup(o.rpath) : NULL;
	lc.runpath = o.runpath ? pt_xstrdup(o.runpath) : NULL;
	lc.cuda_arch_list = arch_list_of(&o);
	elfobj_release(&o);
	check_arch(t, path, &lc, c);
	pt_diag_release(&tmp);
	if (type && *type) {
		if (wants_dwarf && !lc.dwarf)
			pt_diag_add(&c->findings, PT_SEV_WARNING, path, NULL,
				    "no DWARF, but CMAKE_BUILD_TYPE=%s should give it (stripped after the build?)", type);
		else if (!wants_dwarf && lc.dwarf && strcmp(type, "MinSizeRel"))
			pt_diag_add(&c->findings, PT_SEV_NOTE, path, NULL,
				    "has DWARF although CMAKE_BUILD_TYPE=%s (-g in CFLAGS/CXXFLAGS?)", type);
	}
	if (cmakecache_bool(&t->cache, "CMAKE_SKIP_RPATH") == 1 && (lc.rpath || lc.runpath))
		pt_diag_add(&c->findings, PT_SEV_WARNING, path, NULL,
			    "carries %s '%s' although CMAKE_SKIP_RPATH is on", lc.runpath ? "RUNPATH" : "RPATH",
			    lc.runpath ? lc.runpath : lc.rpath);
	/* Older than an input of its link edge. */
	if (t->have_ninja && rel) {
		size_t e = buildninja_producer(&t->ninja, rel);
		struct timespec lt, it;

		if (e != (size_t)-1 && mtime_of(path, &lt) == 0) {
			const struct ninja_edge *ed = &t->ninja.edges[e];

			for (size_t k = 0; k < ed->n_explicit_ins + ed->n_implicit_ins && k < ed->n_ins; k++) {
				char *ip = ed->ins[k][0] == '/' ? pt_xstrdup(ed->ins[k])
								: pt_xasprintf("%s/%s", t->dir, ed->ins[k]);

				if (mtime_of(ip, &it) == 0 && newer(&it, &lt)) {
					lc.older_than_inputs = true;
					lc.newer_input = pt_xstrdup(ed->ins[k]);
					free(ip);
					pt_diag_add(&c->findings, PT_SEV_WARNING, path, NULL,
						    "older than its input %s: the last build did not relink it",
						    lc.newer_input);
					break;
				}
				free(ip);
			}
		}
	}
	/* The dispatcher trace (TORCH_SHOW_DISPATCH_TRACE) exists when NDEBUG was not defined. */
	if (strstr(path, "libtorch_cpu.so")) {
		int has = has_trace_text(path);
		const char *fl = NULL;

		if (type && *type) {
			char *k = pt_xasprintf("CMAKE_CXX_FLAGS_%s", type);

			for (char *q = k; *q; q++)
				if (*q >= 'a' && *q <= 'z')
					*q = (char)(*q - 'a' + 'A');
			fl = cmakecache_value(&t->cache, k);
			free(k);
		}
		if (has >= 0) {
			int ndebug = fl && strstr(fl, "-DNDEBUG") != NULL;

			lc.dispatch_trace = pt_xstrdup(has ? "compiled in" : "compiled out");
			if (has == ndebug)
				pt_diag_add(&c->findings, PT_SEV_WARNING, path, NULL,
					    "dispatcher trace %s, but the build type's flags %s -DNDEBUG",
					    lc.dispatch_trace, ndebug ? "have" : "lack");
		}
	}
	PT_GROW(c->libs, c->n_libs, c->a_libs);
	c->libs[c->n_libs++] = lc;
}

static void check_dir(const struct buildtree *t, const char *dir, const char *rel_prefix, struct build_check *c)
{
	char *pat = pt_xasprintf("%s/*.so*", dir);
	glob_t g;

	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct stat st;
			const char *base = strrchr(g.gl_pathv[i], '/') + 1;
			char *rel;

			if (lstat(g.gl_pathv[i], &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			rel = rel_prefix ? pt_xasprintf("%s/%s", rel_prefix, base) : NULL;
			check_lib(t, g.gl_pathv[i], rel, c);
			free(rel);
		}
	}
	globfree(&g);
	free(pat);
}

/* The CUDA objects (.cu.o) the log says were built, when CUDA is on. */
static void check_cuda_objects(const struct buildtree *t, struct build_check *c)
{
	size_t n, *latest;

	if (!t->have_log || cmakecache_bool(&t->cache, "USE_CUDA") != 1)
		return;
	latest = ninjalog_latest(&t->log, &n);
	for (size_t i = 0; i < n && c->n_libs < 64; i++) {
		const char *out = t->log.v[latest[i]].output;
		size_t len = strlen(out);
		struct build_lib_check lc = { 0 };
		struct elfobj o;
		struct pt_diag tmp;

		if (len < 5 || strcmp(out + len - 5, ".cu.o"))
			continue;
		lc.path = out[0] == '/' ? pt_xstrdup(out) : pt_xasprintf("%s/%s", t->dir, out);
		lc.is_object = true;
		pt_diag_init(&tmp);
		if (elfobj_open(&o, lc.path, &tmp) == 0) {
			lc.dwarf = o.has_debug_info;
			lc.cuda_arch_list = arch_list_of(&o);
			check_arch(t, lc.path, &lc, c);
		}
		elfobj_release(&o);
		pt_diag_release(&tmp);
		PT_GROW(c->libs, c->n_libs, c->a_libs);
		c->libs[c->n_libs++] = lc;
	}
	free(latest);
}

void buildtree_check(const struct buildtree *t, struct build_check *c)
{
	char *d;

	memset(c, 0, sizeof(*c));
	pt_diag_init(&c->findings);
	d = pt_xasprintf("%s/lib", t->dir);
	check_dir(t, d, "lib", c);
	free(d);
	if (t->source_dir) {
		d = pt_xasprintf("%s/torch/lib", t->source_dir);
		check_dir(t, d, NULL, c);
		free(d);
	}
	check_cuda_objects(t, c);
}

void build_check_release(struct build_check *c)
{
	for (size_t i = 0; i < c->n_libs; i++) {
		free(c->libs[i].path);
		free(c->libs[i].rpath);
		free(c->libs[i].runpath);
		free(c->libs[i].newer_input);
		free(c->libs[i].dispatch_trace);
		free(c->libs[i].cuda_arch_list);
	}
	free(c->libs);
	pt_diag_release(&c->findings);
	memset(c, 0, sizeof(*c));
}
