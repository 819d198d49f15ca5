/* Why import torch fails; see importdiag.h. */
#include "importdiag.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "envcheck.h"
#include "ldpath.h"
#include "rebuildcmd.h"
#include "resolve.h"
#include "strbuf.h"
#include "xalloc.h"

#define NONE ((size_t)-1)

const char *importdiag_cause_key(enum importdiag_cause c)
{
	static const char *const k[] = {
		[IMPORTDIAG_NONE] = "none",
		[IMPORTDIAG_NOT_INSTALLED] = "not-installed",
		[IMPORTDIAG_SOURCE_CHECKOUT] = "source-checkout",
		[IMPORTDIAG_NO_EXTENSION] = "no-extension",
		[IMPORTDIAG_MISSING_LIBRARY] = "missing-library",
		[IMPORTDIAG_UNMET_VERSION] = "unmet-symbol-version",
		[IMPORTDIAG_UNDEFINED_SYMBOL] = "undefined-symbol",
		[IMPORTDIAG_MIXED_TREE] = "mixed-torch-libraries",
		[IMPORTDIAG_CUDA_DRIVER] = "cuda-driver-too-old",
		[IMPORTDIAG_PYTHON] = "python-error",
		[IMPORTDIAG_TIMEOUT] = "timeout",
	};
	return (unsigned)c < PT_ARRAY_SIZE(k) ? k[c] : "?";
}

/* Append s (owned) to o->f, counted by o->n_f, capacity o->a_f. */
#define push_str(o, f, s)                                                       \
	do {                                                                   \
		PT_GROW((o)->f, (o)->n_##f, (o)->a_##f);                       \
		(o)->f[(o)->n_##f++] = (s);                                    \
	} while (0)

static const char *base(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

static char *dir_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? pt_xstrndup(p, s == p ? 1 : (size_t)(s - p)) : pt_xstrdup(".");
}

/* The torch-family libraries: libtorch*, libc10*, libshm, libcaffe2*. */
static bool torch_family(const char *path)
{
	char stem[256];

	if (!envcheck_lib_stem(path, stem, sizeof(stem)))
		return false;
	return !strncmp(stem, "libtorch", 8) || !strncmp(stem, "libc10", 6) || !strcmp(stem, "libshm") ||
	       !strncmp(stem, "libcaffe2", 9);
}

/* pip's nvidia-* wheel that ships a library ("libcudnn.so.9" -> "nvidia-cudnn"). */
static const char *nvidia_wheel(const char *name)
{
	static const struct {
		const char *prefix, *wheel;
	} m[] = {
		{ "libcudnn", "nvidia-cudnn" },	      { "libcublasLt", "nvidia-cublas" },
		{ "libcublas", "nvidia-cublas" },     { "libcudart", "nvidia-cuda-runtime" },
		{ "libcufft", "nvidia-cufft" },	      { "libcurand", "nvidia-curand" },
		{ "libcusolver", "nvidia-cusolver" }, { "libcusparseLt", "nvidia-cusparselt" },
		{ "libcusparse", "nvidia-cusparse" }, { "libnccl", "nvidia-nccl" },
		{ "libnvJitLink", "nvidia-nvjitlink" }, { "libnvrtc", "nvidia-cuda-nvrtc" },
		{ "libcupti", "nvidia-cuda-cupti" },  { "libnvToolsExt", "nvidia-nvtx" },
		{ "libcufile", "nvidia-cufile" },     { "libnvshmem", "nvidia-nvshmem" },
	};
	for (size_t i = 0; i < PT_ARRAY_SIZE(m); i++)
		if (!strncmp(name, m[i].prefix, strlen(m[i].prefix)) &&
		    name[strlen(m[i].prefix)] == '.')
			return m[i].wheel;
	return NULL;
}

/* A pip wheel layout: a tried path or an RPATH/RUNPATH going through site-packages/nvidia/. */
static bool wheel_layout(const struct resolve_result *res, const struct resolve_dep *e)
{
	const struct elfobj *o = &res->objs[e->needed_by].elf;

	for (size_t i = 0; i < e->n_tried; i++)
		if (strstr(e->tried[i].path, "/nvidia/"))
			return true;
	return (o->rpath && strstr(o->rpath, "nvidia/")) || (o->runpath && strstr(o->runpath, "nvidia/"));
}

static int cuda_major_of_tree(const struct resolve_result *res)
{
	for (size_t i = 0; i < res->n_objs; i++) {
		int maj, min;

		if (cudadriver_runtime_from_path(res->objs[i].realpath, &maj, &min) == 0)
			return maj;
	}
	return 12;
}

static void missing_add(struct importdiag *g, const struct resolve_result *res,
			const struct resolve_dep *e, const char *torch_dir)
{
	struct importdiag_missing *m;
	const char *wheel = nvidia_wheel(e->name);

	for (size_t i = 0; i < g->n_missing; i++)
		if (!strcmp(g->missing[i].name, e->name)) {
			push_str(&g->missing[i], also,
				 pt_xstrdup(res->objs[e->needed_by].realpath));
			return;
		}
	PT_GROW(g->missing, g->n_missing, g->a_missing);
	m = &g->missing[g->n_missing++];
	memset(m, 0, sizeof(*m));
	m->name = pt_xstrdup(e->name);
	m->needed_by = pt_xstrdup(res->objs[e->needed_by].realpath);
	for (size_t i = 0; i < e->n_tried; i++)
		push_str(m, tried,
			 pt_xasprintf("%s (%s%s%s)", e->tried[i].path, resolve_found_by_name(e->tried[i].from),
				      e->tried[i].why_skipped ? ": " : "",
				      e->tried[i].why_skipped ? e->tried[i].why_skipped : ""));
	m->n_owners = debpkg_owners(e->name, &m->owners);
	if (!strncmp(e->name, "libcudnn", 8) && debpkg_installed("nvidia-cudnn") == 1) {
		m->hint = pt_xstrdup(
			"Debian's nvidia-cudnn is installed, but it is only an installer: it downloads "
			"cuDNN from NVIDIA when it is configured, and that download did not happen "
			"(dpkg -L nvidia-cudnn lists no libcudnn); run `apt-get install --reinstall "
			"nvidia-cudnn` with network access, or install cuDNN yourself");
	} else if (!strncmp(e->name, "libcudnn", 8) && torch_dir &&
		   !strncmp(torch_dir, "/usr/lib/python3/dist-packages/", 31)) {
		m->hint = pt_xstrdup(
			"Debian's CUDA torch takes cuDNN from nvidia-cudnn (contrib), an installer that "
			"downloads it from NVIDIA: `apt-get install nvidia-cudnn` with network access");
	} else if (wheel && wheel_layout(res, e)) {
		m->hint = pt_xasprintf("a pip wheel layout is in use (site-packages/nvidia/...): `pip "
				       "install %s-cu%d` provides %s", wheel, cuda_major_of_tree(res),
				       e->name);
	}
}

/* Torch libraries whose directory differs from where most of them come from. */
static void check_mixed(struct importdiag *g, const struct resolve_result *res)
{
	char **dirs = NULL;
	size_t *count = NULL, nd = 0, a_dirs = 0, a_count = 0, best = 0;

	for (size_t i = 1; i < res->n_objs; i++) {
		char *d;
		size_t k;

		if (!torch_family(res->objs[i].realpath))
			continue;
		d = dir_of(res->objs[i].realpath);
		for (k = 0; k < nd && strcmp(dirs[k], d); k++)
			;
		if (k == nd) {
			PT_GROW(dirs, nd, a_dirs);
			PT_GROW(count, nd, a_count);
			dirs[nd] = d;
			count[nd++] = 0;
		} else {
			free(d);
		}
		count[k]++;
	}
	for (size_t k = 1; k < nd; k++)
		if (count[k] > count[best])
			best = k;
	for (size_t i = 1; i < res->n_objs && nd > 1; i++) {
		const struct resolve_obj *o = &res->objs[i];
		struct importdiag_mixed *m;
		char *d;

		if (!torch_family(o->realpath))
			continue;
		d = dir_of(o->realpath);
		if (!strcmp(d, dirs[best])) {
			free(d);
			continue;
		}
		PT_GROW(g->mixed, g->n_mixed, g->a_mixed);
		m = &g->mixed[g->n_mixed++];
		m->lib = pt_xstrdup(o->path);
		m->how = pt_xstrdup(o->first_dep != NONE ? resolve_found_by_name(res->deps[o->first_dep].found_by)
							 : "direct");
		m->dir = d;
		m->neighbours = pt_xstrdup(dirs[best]);
	}
	for (size_t k = 0; k < nd; k++)
		free(dirs[k]);
	free(dirs);
	free(count);
}

static void read_proc_driver(char *out, size_t n)
{
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	char buf[4096];
	size_t len;

	out[0] = '\0';
	if (!f)
		return;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (cudadriver_from_proc(buf, len, out, n) < 0)
		out[0] = '\0';
}

/* libcudart (at index i of res) against the driver libcuda.so.1 it would dlopen. */
static void check_cuda(struct importdiag_cuda *c, struct resolve_result *res, size_t i,
		       const struct ldpath_env *env)
{
	struct pt_diag quiet;
	long di;

	c->checked = true;
	c->cudart = pt_xstrdup(res->objs[i].realpath);
	cudadriver_runtime_from_path(c->cudart, &c->rt_major, &c->rt_minor);
	if (c->rt_major < 0 && res->objs[i].elf.soname)
		cudadriver_runtime_from_path(res->objs[i].elf.soname, &c->rt_major, &c->rt_minor);
	pt_diag_init(&quiet);
	di = resolve_dlopen(res, i, "libcuda.so.1", env, &quiet);
	pt_diag_release(&quiet);
	if (di >= 0) {
		c->libcuda = pt_xstrdup(res->objs[res->deps[di].obj].realpath);
		if (cudadriver_from_libcuda(c->libcuda, c->driver, sizeof(c->driver)) < 0)
			c->driver[0] = '\0';
	}
	if (!c->driver[0])
		read_proc_driver(c->driver, sizeof(c->driver));
	if (c->rt_major < 0) {
		c->verdict = CUDADRIVER_UNKNOWN;
		pt_fmt_trunc(c->why, sizeof(c->why), "the CUDA runtime version is not in %s's name", c->cudart);
	} else if (!c->libcuda && !c->driver[0]) {
		c->verdict = CUDADRIVER_UNKNOWN;
		pt_fmt_trunc(c->why, sizeof(c->why),
			 "no NVIDIA driver: libcuda.so.1 is not found by the loader's rules from %s and "
			 "/proc/driver/nvidia/version is absent (CUDA is unavailable; import still works)",
			 c->cudart);
	} else if (!c->driver[0]) {
		c->verdict = CUDADRIVER_UNKNOWN;
		pt_fmt_trunc(c->why, sizeof(c->why), "the driver version is not in %s's name", c->libcuda);
	} else {
		c->verdict = cudadriver_check(c->driver, c->rt_major, c->rt_minor, c->why, sizeof(c->why));
	}
}

static void headline(struct importdiag *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void headline(struct importdiag *g, const char *fmt, ...)
{
	va_list ap;

	free(g->headline);
	va_start(ap, fmt);
	g->headline = pt_xvasprintf(fmt, ap);
	va_end(ap);
}

/* Count undefined symbols per object for the headline: the object with most, and how many objects. */
static size_t worst_object(const struct bindcheck_result *b, size_t *n_objs, size_t *n_worst)
{
	size_t worst = 0, best_n = 0, objs = 0;

	for (size_t i = 0; i < b->n;) {
		size_t k = i;

		while (k < b->n && b->v[k].obj == b->v[i].obj)
			k++;
		objs++;
		if (k - i > best_n) {
			best_n = k - i;
			worst = b->v[i].obj;
		}
		i = k;
	}
	*n_objs = objs;
	*n_worst = best_n;
	return worst;
}

static bool in_strv(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static void binding(struct importdiag *g, const struct pyenv_report *r, const struct resolve_result *res,
		    const struct ldpath_env *env, struct pt_diag *diag)
{
	char exe[PATH_MAX];
	struct pt_diag local;

	pt_diag_init(&local);
	/*
	 * The global scope: the interpreter (it defines the Python C API) and its
	 * libraries, in load order; then the extension's own tree (RTLD_LOCAL).
	 */
	if (r->executable && realpath(r->executable, exe)) {
		struct resolve_result er;

		if (resolve_tree(exe, env, &er, &local) == 0)
			for (size_t i = 0; i < er.n_objs; i++)
				if (!in_strv(g->bind_paths, g->n_bind_paths, er.objs[i].realpath))
					push_str(g, bind_paths, pt_xstrdup(er.objs[i].realpath));
		resolve_release(&er);
	}
	for (size_t i = 0; i < res->n_objs; i++)
		if (!in_strv(g->bind_paths, g->n_bind_paths, res->objs[i].realpath))
			push_str(g, bind_paths, pt_xstrdup(res->objs[i].realpath));
	g->have_bind = bindcheck_run((const char *const *)g->bind_paths, g->n_bind_paths, &g->bind,
				     &local) == 0;
	/* Objects that could not be read are worth a note, not a cause. */
	for (size_t i = 0; i < local.n; i++)
		if (local.v[i].sev >= PT_SEV_WARNING)
			pt_diag_add(diag, PT_SEV_NOTE, local.v[i].file, local.v[i].where, "%s", local.v[i].what);
	pt_diag_release(&local);
}

static void pick_cause(struct importdiag *g, const struct pyenv_report *r)
{
	const char *err = r->import_error ? r->import_error : "unknown error";

	if (r->timed_out) {
		/* A hang is what happened, whatever else the libraries show. */
		g->cause = IMPORTDIAG_TIMEOUT;
		if (r->hang_where)
			headline(g, "%s; it was at %s", err, r->hang_where);
		else
			headline(g, "%s (no Python stack came back)", err);
	} else if (g->n_missing) {
		const struct importdiag_missing *m = &g->missing[0];

		char more[64] = "", also[64] = "";

		if (g->n_missing > 1)
			pt_fmt_trunc(more, sizeof(more), " (and %zu more missing librar%s)", g->n_missing - 1,
				 g->n_missing > 2 ? "ies" : "y");
		if (m->n_also)
			pt_fmt_trunc(also, sizeof(also), " (and %zu more object%s)", m->n_also,
				 m->n_also > 1 ? "s" : "");
		headline(g, "missing library: %s, needed by %s%s, is not found by the loader's rules%s",
			 m->name, m->needed_by, also, more);
		g->cause = IMPORTDIAG_MISSING_LIBRARY;
	} else if (g->n_unmet) {
		headline(g, "unmet symbol version: %s", g->unmet[0]);
		g->cause = IMPORTDIAG_UNMET_VERSION;
	} else if (g->have_bind && g->bind.n) {
		size_t nobj, nworst, w = worst_object(&g->bind, &nobj, &nworst);
		const char *first = NULL;
		char others[64] = "";

		/* The symbol Python named, when it is among them; else the worst object's first. */
		for (size_t i = 0; i < g->bind.n && !first && r->import_error; i++)
			if (strstr(r->import_error, g->bind.v[i].name))
				first = g->bind.v[i].name;
		for (size_t i = 0; i < g->bind.n && !first; i++)
			if (g->bind.v[i].obj == w)
				first = g->bind.v[i].name;
		if (nobj > 1)
			pt_fmt_trunc(others, sizeof(others), " (%zu) and %zu more object%s", nworst, nobj - 1,
				 nobj > 2 ? "s" : "");
		g->cause = IMPORTDIAG_UNDEFINED_SYMBOL;
		/* With a torch library out of place, that library is the cause, not another torch version. */
		if (g->n_mixed) {
			for (size_t i = 0; i < g->bind.n; i++)
				g->bind.v[i].torch_gone = false;
			g->bind.n_torch_gone = 0;
		}
		for (size_t i = 0; i < g->bind.n && g->bind.n_abi && !g->n_mixed; i++) {
			const struct bindcheck_undef *u = &g->bind.v[i];

			if (!u->twin)
				continue;
			headline(g, "undefined symbol: a _GLIBCXX_USE_CXX11_ABI mismatch: %s was built with "
				 "_GLIBCXX_USE_CXX11_ABI=%d, %s with =%d; %zu of the %zu undefined symbols %s "
				 "defined with the other C++ ABI (e.g. %s, defined as %s)", base(g->bind_paths[u->obj]),
				 u->user_cxx11, base(g->bind_paths[u->twin_obj]), !u->user_cxx11, g->bind.n_abi,
				 g->bind.n, g->bind.n_abi == 1 ? "is" : "are", u->name, u->twin);
			return;
		}
		for (size_t i = 0; i < g->bind.n && g->bind.n_torch_gone && !g->n_mixed; i++) {
			const struct bindcheck_undef *u = &g->bind.v[i];

			if (!u->torch_gone)
				continue;
			headline(g, "undefined symbol: %zu symbol%s in torch's namespaces, needed by %s, %s not "
				 "exported by the loaded torch (built against another torch version?) (e.g. %s)",
				 g->bind.n_torch_gone, g->bind.n_torch_gone == 1 ? "" : "s",
				 base(g->bind_paths[u->obj]), g->bind.n_torch_gone == 1 ? "is" : "are", u->name);
			return;
		}
		if (g->n_mixed)
			headline(g, "undefined symbol: %s comes from %s (%s), not from %s with the other "
				 "torch libraries; %zu symbol%s needed by %s%s %s defined by no loaded object "
				 "(e.g. %s)", base(g->mixed[0].lib), g->mixed[0].dir, g->mixed[0].how,
				 g->mixed[0].neighbours, g->bind.n, g->bind.n == 1 ? "" : "s",
				 base(g->bind_paths[w]), others, g->bind.n == 1 ? "is" : "are", first);
		else
			headline(g, "undefined symbol: %zu symbol%s needed by %s%s %s defined by no loaded "
				 "object (e.g. %s)", g->bind.n, g->bind.n == 1 ? "" : "s",
				 base(g->bind_paths[w]), others, g->bind.n == 1 ? "is" : "are", first);
	} else if (g->n_mixed) {
		g->cause = IMPORTDIAG_MIXED_TREE;
		headline(g, "mismatched torch libraries: %s comes from %s (%s), the other torch "
			 "libraries from %s: libraries of two builds in one process", base(g->mixed[0].lib),
			 g->mixed[0].dir, g->mixed[0].how, g->mixed[0].neighbours);
	} else if (g->cuda.verdict == CUDADRIVER_TOO_OLD) {
		g->cause = IMPORTDIAG_CUDA_DRIVER;
		headline(g, "CUDA runtime newer than the driver: %s", g->cuda.why);
	} else if (!r->torch_ok) {
		g->cause = IMPORTDIAG_PYTHON;
		headline(g, "%s and the %zu libraries below it load and bind by the loader's rules: the "
			 "error is raised by Python code: %s", g->ext ? base(g->ext) : "torch", g->n_objs
			 ? g->n_objs - 1 : 0, err);
	}
}

/* A package in the cwd without _C wins over a torch with nothing else wrong with it. */
static void here_cause(struct importdiag *g)
{
	if (!g->here || !g->here->applies || g->here->loc.ext ||
	    (g->cause != IMPORTDIAG_NONE && g->cause != IMPORTDIAG_NOT_INSTALLED))
		return;
	g->cause = IMPORTDIAG_SOURCE_CHECKOUT;
	headline(g, "%s", g->here->text);
}

int importdiag_run(const struct pyenv_report *r, const struct importdiag_here *here,
		   struct importdiag *g, struct pt_diag *diag)
{
	struct ldpath_env env;
	struct resolve_result res = { 0 };
	struct pt_diag rd;
	const char *torch_dir = NULL;
	int rc = 0;

	memset(g, 0, sizeof(*g));
	g->here = here;
	if (r->torch_ok) {
		for (size_t i = 0; i < r->n_loaded && !g->ext; i++) {
			const char *p = r->loaded[i].realpath;

			if (p && strstr(p, "/torch/_C.") && strstr(p, ".so"))
				g->ext = pt_xstrdup(p);
		}
		torch_dir = r->torch_file;
	} else {
		int lr = pysyspath_locate(r->sys_path, r->n_sys_path, r->cwd, r->site_dirs,
					  r->n_site_dirs, r->ext_suffixes, r->n_ext_suffixes, &g->loc, diag);

		g->located = lr == 0;
		if (!g->located) {
			g->cause = IMPORTDIAG_NOT_INSTALLED;
			headline(g, "no torch package: none of the %zu sys.path entries of %s holds torch/, "
				 "and no editable install maps it (%s)", r->n_sys_path,
				 r->executable ? r->executable : r->python,
				 r->import_error ? r->import_error : "import failed");
			if (r->timed_out)
				pick_cause(g, r);
			here_cause(g);
			return 0;
		}
		if (r->torch_spec) {
			char *want = pt_xasprintf("%s/__init__.py", g->loc.pkg_dir);
			char a[PATH_MAX], b[PATH_MAX];

			if (!realpath(want, a) || !realpath(r->torch_spec, b) || strcmp(a, b))
				g->spec_disagrees = pt_xstrdup(r->torch_spec);
			free(want);
		}
		torch_dir = g->loc.pkg_dir;
		if (!g->loc.ext && r->timed_out) {
			pick_cause(g, r);
			return 0;
		}
		if (!g->loc.ext) {
			if (g->loc.source_checkout) {
				g->cause = IMPORTDIAG_SOURCE_CHECKOUT;
				headline(g, "a PyTorch source checkout wins: %s (%s, sys.path[%zu]) has no "
					 "built _C extension; leave the directory (cd ..) or finish the in-place "
					 "build (" PT_REBUILD_BOTH ")", g->loc.pkg_dir,
					 pysyspath_how_text(g->loc.how), g->loc.index);
			} else {
				g->cause = IMPORTDIAG_NO_EXTENSION;
				headline(g, "the torch package at %s (%s) has no _C extension (_C%s)",
					 g->loc.pkg_dir, pysyspath_how_text(g->loc.how),
					 r->n_ext_suffixes ? r->ext_suffixes[0] : ".so");
			}
			return 0;
		}
		g->ext = pt_xstrdup(g->loc.ext);
	}
	if (!g->ext) {
		if (r->timed_out)
			pick_cause(g, r);
		here_cause(g);
		return 0;
	}
	pt_diag_init(&rd);
	ldpath_env_init(&env, "", &rd);
	env.ld_library_path = r->ld_library_path;
	if (resolve_tree(g->ext, &env, &res, &rd) != 0) {
		for (size_t i = 0; i < rd.n; i++)
			if (rd.v[i].sev == PT_SEV_ERROR)
				pt_diag_add(diag, PT_SEV_ERROR, rd.v[i].file, rd.v[i].where, "%s", rd.v[i].what);
		rc = -1;
		goto out;
	}
	g->n_objs = res.n_objs;
	for (size_t i = 0; i < res.n_deps; i++) {
		const struct resolve_dep *e = &res.deps[i];

		if (e->obj == NONE) {
			/* torch preloads some (pip's nvidia-* libraries): loaded means not missing. */
			bool loaded = false;

			for (size_t k = 0; k < r->n_loaded && !loaded; k++)
				loaded = r->loaded[k].realpath && !strcmp(base(r->loaded[k].name), e->name);
			if (!loaded)
				missing_add(g, &res, e, torch_dir);
		}
		if (e->n_missing_versions) {
			struct pt_strbuf sb;

			pt_strbuf_init(&sb, 4096);
			for (size_t k = 0; k < e->n_missing_versions; k++)
				pt_strbuf_addf_trunc(&sb, "%s%s", k ? ", " : "", e->missing_versions[k]);
			push_str(g, unmet,
				 pt_xasprintf("%s (%s) lacks version%s %s, needed by %s", e->name,
					      res.objs[e->obj].realpath, e->n_missing_versions > 1 ? "s" : "",
					      pt_strbuf_str(&sb), res.objs[e->needed_by].realpath));
			pt_strbuf_release(&sb);
		}
	}
	check_mixed(g, &res);
	if (!r->torch_ok && !g->n_missing && !g->n_unmet)
		binding(g, r, &res, &env, diag);
	for (size_t i = 0; i < res.n_objs; i++) {
		char stem[256];

		if (envcheck_lib_stem(res.objs[i].realpath, stem, sizeof(stem)) && !strcmp(stem, "libcudart")) {
			check_cuda(&g->cuda, &res, i, &env);
			break;
		}
	}
	pick_cause(g, r);
	here_cause(g);
out:
	resolve_release(&res);
	ldpath_env_release(&env);
	pt_diag_release(&rd);
	return rc;
}

/* The package directory of a torch/__init__.py path. */
static char *pkg_of(const char *init)
{
	return dir_of(init);
}

static bool same_path(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

bool importdiag_here(const struct pyenv_report *r, struct importdiag_here *h)
{
	const char **path;
	struct pt_diag quiet;
	struct pysyspath_torch other;
	char *init;
	const char *what, *tail1 = "", *tail2 = "";
	char *checked_txt = NULL, *tail = NULL;
	struct stat st;

	memset(h, 0, sizeof(*h));
	if (!r->cwd_dropped || !r->cwd)
		return false;
	/* Only a torch/__init__.py here can change what a run here imports. */
	init = pt_xasprintf("%s/torch/__init__.py", r->cwd);
	if (stat(init, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(init);
		return false;
	}
	free(init);
	pt_diag_init(&quiet);
	path = pt_xcalloc(r->n_sys_path + 1, sizeof(*path));
	path[0] = "";
	for (size_t i = 0; i < r->n_sys_path; i++)
		path[i + 1] = r->sys_path[i];
	if (pysyspath_locate(path, r->n_sys_path + 1, r->cwd, r->site_dirs, r->n_site_dirs,
			     r->ext_suffixes, r->n_ext_suffixes, &h->loc, &quiet) != 0 ||
	    h->loc.how != PYSYSPATH_CWD) {
		pysyspath_torch_release(&h->loc);
		goto out;
	}
	/* What was checked instead: the torch imported, else the one located without the cwd. */
	if (r->torch_ok && r->torch_file) {
		h->checked = pkg_of(r->torch_file);
	} else if (pysyspath_locate(r->sys_path, r->n_sys_path, r->cwd, r->site_dirs, r->n_site_dirs,
				    r->ext_suffixes, r->n_ext_suffixes, &other, &quiet) == 0) {
		h->checked = other.pkg_dir;
		other.pkg_dir = NULL;
		pysyspath_torch_release(&other);
	}
	if (h->checked && same_path(h->checked, h->loc.pkg_dir)) {
		/* PYTHONPATH=. or an editable install of this checkout: the same package. */
		free(h->checked);
		h->checked = NULL;
		pysyspath_torch_release(&h->loc);
		goto out;
	}
	h->applies = true;
	if (h->loc.source_checkout)
		what = h->loc.ext ? "the source checkout, built in place" : "the source checkout";
	else
		what = "a torch package in the current directory, not a PyTorch checkout";
	checked_txt = h->checked ? pt_xasprintf("instead of the installed torch (%s)", h->checked)
				 : pt_xasprintf("instead of the installed torch (none is installed for %s)",
						r->executable ? r->executable : r->python);
	if (!h->loc.ext && h->loc.source_checkout) {
		tail1 = "has no built _C extension, so import torch fails there; leave the directory "
			"(cd ..) or finish the in-place build (" PT_REBUILD_BOTH ")";
	} else if (!h->loc.ext) {
		tail = pt_xasprintf("has no _C extension (_C%s), so import torch fails there; run python "
				    "elsewhere, or move ./torch away", r->n_ext_suffixes ? r->ext_suffixes[0]
										  : ".so");
		tail1 = tail;
	} else {
		tail1 = "holds a built ";
		tail2 = h->loc.ext;
	}
	if (h->loc.ext)
		h->text = pt_xasprintf("python run here would import ./torch (%s) %s: %s %s%s; this report is "
				       "of the torch checked (ptinspect doctor --here imports ./torch as "
				       "python run here would, running its code)", what, checked_txt,
				       h->loc.pkg_dir, tail1, tail2);
	else
		h->text = pt_xasprintf("python run here would import ./torch (%s) %s: %s %s", what,
				       checked_txt, h->loc.pkg_dir, tail1);
	free(checked_txt);
	free(tail);
out:
	free(path);
	pt_diag_release(&quiet);
	return h->applies;
}

void importdiag_here_release(struct importdiag_here *h)
{
	pysyspath_torch_release(&h->loc);
	free(h->checked);
	free(h->text);
	memset(h, 0, sizeof(*h));
}

void importdiag_release(struct importdiag *g)
{
	pysyspath_torch_release(&g->loc);
	free(g->headline);
	free(g->ext);
	for (size_t i = 0; i < g->n_missing; i++) {
		struct importdiag_missing *m = &g->missing[i];

		free(m->name);
		free(m->needed_by);
		for (size_t k = 0; k < m->n_also; k++)
			free(m->also[k]);
		free(m->also);
		for (size_t k = 0; k < m->n_tried; k++)
			free(m->tried[k]);
		free(m->tried);
		debpkg_owners_free(m->owners, m->n_owners);
		free(m->hint);
	}
	free(g->missing);
	for (size_t i = 0; i < g->n_unmet; i++)
		free(g->unmet[i]);
	free(g->unmet);
	for (size_t i = 0; i < g->n_mixed; i++) {
		free(g->mixed[i].lib);
		free(g->mixed[i].how);
		free(g->mixed[i].dir);
		free(g->mixed[i].neighbours);
	}
	free(g->mixed);
	for (size_t i = 0; i < g->n_bind_paths; i++)
		free(g->bind_paths[i]);
	free(g->bind_paths);
	if (g->n_bind_paths)
		bindcheck_release(&g->bind);
	free(g->cuda.cudart);
	free(g->cuda.libcuda);
	free(g->spec_disagrees);
	memset(g, 0, sizeof(*g));
}
