/* Cross-checks of a loaded torch; see envcheck.h. */
#include "envcheck.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudaarch.h"
#include "elfobj.h"
#include "fatbin_scan.h"
#include "ldpath.h"
#include "resolve.h"
#include "strbuf.h"
#include "xalloc.h"

static int exists(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	/* A path over PATH_MAX names no file the tree could hold. */
	return pt_fmt(p, sizeof(p), "%s/%s", dir, name) == 0 && stat(p, &st) == 0;
}

int envcheck_is_source_tree(const char *dir)
{
	return exists(dir, "setup.py") && exists(dir, "torch/__init__.py") && exists(dir, "c10");
}

const char *envcheck_lib_stem(const char *path, char *out, size_t n)
{
	const char *b = strrchr(path, '/'), *so;

	b = b ? b + 1 : path;
	so = strstr(b, ".so");
	if (strncmp(b, "lib", 3) || !so || (so[3] && so[3] != '.'))
		return NULL;
	pt_fmt_trunc(out, n, "%.*s", (int)(so - b), b);
	return out;
}

const struct pyenv_loaded *envcheck_find_loaded(const struct pyenv_report *r, const char *stem)
{
	char s[256];

	for (size_t i = 0; i < r->n_loaded; i++) {
		const char *p = r->loaded[i].realpath ? r->loaded[i].realpath : r->loaded[i].name;

		if (envcheck_lib_stem(p, s, sizeof(s)) && !strcmp(s, stem))
			return &r->loaded[i];
	}
	return NULL;
}

/* Is path below dir (both resolved)? */
static int below(const char *path, const char *dir)
{
	char rp[PATH_MAX], rd[PATH_MAX];
	size_t n;

	if (!realpath(path, rp) || !realpath(dir, rd))
		return 0;
	n = strlen(rd);
	return !strncmp(rp, rd, n) && (rp[n] == '/' || rp[n] == '\0');
}

/* The sys.path entry torch came from: dirname(dirname(torch/__init__.py)). */
static char *package_dir(const char *torch_file)
{
	char *d = pt_xstrdup(torch_file), *s;

	for (int i = 0; i < 2 && (s = strrchr(d, '/')); i++)
		*s = '\0';
	return d;
}

static void check_location(const struct pyenv_report *r, const struct envcheck_opts *o,
			   struct pt_diag *d)
{
	const char *want = o->expect_dir ? o->expect_dir : o->build_tree;

	if (!want || !r->torch_file)
		return;
	if (!below(r->torch_file, want))
		pt_diag_add(d, PT_SEV_WARNING, r->python, "location",
			    "torch is imported from %s, not from %s%s", r->torch_file, want,
			    o->expect_dir ? " (--expect)" : " (the build tree in the current directory)");
}

static void check_shadow(const struct pyenv_report *r, struct pt_diag *d)
{
	char *used;
	const struct pyenv_candidate *u = NULL;

	if (!r->torch_file)
		return;
	used = package_dir(r->torch_file);
	for (size_t i = 0; i < r->n_cands; i++)
		if (!strcmp(r->cands[i].dir, used))
			u = &r->cands[i];
	for (size_t i = 0; i < r->n_cands; i++) {
		const struct pyenv_candidate *c = &r->cands[i];

		if (c == u || !strcmp(c->dir, used))
			continue;
		if (u && !strcmp(u->kind, "pip wheel") &&
		    (!strcmp(c->kind, "source tree") || !strcmp(c->kind, "develop install")))
			pt_diag_add(d, PT_SEV_WARNING, r->python, "shadow",
				    "a pip wheel shadows a source build: torch is imported from %s "
				    "(pip wheel), the build in %s is never seen", used, c->dir);
		else
			pt_diag_add(d, PT_SEV_WARNING, r->python, "shadow",
				    "torch in %s (%s) shadows torch in %s (%s), which comes later on sys.path",
				    used, u ? u->kind : "unknown", c->dir, c->kind);
	}
	/* A package named torch without torch._C is not PyTorch at all. */
	if (r->torch_ok && !envcheck_find_loaded(r, "libtorch_cpu") &&
	    !envcheck_find_loaded(r, "libtorch"))
		pt_diag_add(d, PT_SEV_WARNING, r->python, "shadow",
			    "the torch imported from %s loaded no libtorch: not PyTorch (a stray "
			    "'torch' directory on sys.path?)", r->torch_file);
	free(used);
}

/* Two different files of one library in one process. */
static void check_duplicates(const struct pyenv_report *r, struct pt_diag *d)
{
	for (size_t i = 0; i < r->n_loaded; i++) {
		char si[256], sk[256];
		const char *pi = r->loaded[i].realpath;

		if (!pi || !envcheck_lib_stem(pi, si, sizeof(si)))
			continue;
		for (size_t k = 0; k < i; k++) {
			const char *pk = r->loaded[k].realpath;

			if (pk && envcheck_lib_stem(pk, sk, sizeof(sk)) && !strcmp(si, sk) && strcmp(pi, pk)) {
				pt_diag_add(d, PT_SEV_WARNING, r->python, "duplicate",
					    "two copies of %s in one process: %s and %s", si, pk, pi);
				break;
			}
		}
	}
}

/* "libcudart.so.12.4.127" -> 12, 4. */
static int so_version(const char *path, int *maj, int *min)
{
	const char *so = strstr(path, ".so.");

	*maj = *min = -1;
	return so && sscanf(so + 4, "%d.%d", maj, min) >= 1 ? 0 : -1;
}

static void check_cudart(const struct pyenv_report *r, const struct showconfig *cfg,
			 struct pt_diag *d)
{
	const char *built = cfg && cfg->cuda_runtime ? cfg->cuda_runtime : r->cuda;
	const struct pyenv_loaded *l = envcheck_find_loaded(r, "libcudart");
	int bmaj = -1, bmin = -1, lmaj, lmin;

	if (!built || sscanf(built, "%d.%d", &bmaj, &bmin) < 1)
		return;
	if (!l) {
		pt_diag_add(d, PT_SEV_NOTE, r->python, "cudart",
			    "built for CUDA runtime %s; no libcudart was loaded by the import "
			    "(linked statically, or loaded on first CUDA use)", built);
		return;
	}
	if (so_version(l->realpath ? l->realpath : l->name, &lmaj, &lmin) < 0 || lmin < 0) {
		pt_diag_add(d, PT_SEV_NOTE, r->python, "cudart",
			    "built for CUDA runtime %s; loaded %s (version not in its name)", built,
			    l->realpath ? l->realpath : l->name);
	} else if (lmaj != bmaj || lmin < bmin) {
		pt_diag_add(d, PT_SEV_WARNING, r->python, "cudart",
			    "built for CUDA runtime %s but loaded %s (%d.%d)%s", built,
			    l->realpath ? l->realpath : l->name, lmaj, lmin,
			    lmaj != bmaj ? ": another major version" : ": older than the build's");
	}
}

void envcheck_run(const struct pyenv_report *r, const struct showconfig *cfg,
		  const struct envcheck_opts *o, struct pt_diag *d)
{
	if (!r->torch_ok) {
		pt_diag_add(d, PT_SEV_WARNING, r->python, "import", "cannot import torch: %s",
			    r->import_error ? r->import_error : "unknown error");
		return;
	}
	check_location(r, o, d);
	check_shadow(r, d);
	check_duplicates(r, d);
	check_cudart(r, cfg, d);
}

/* Was an object of this file name (soname or real name) loaded by the process? */
static const struct pyenv_loaded *loaded_by_name(const struct pyenv_report *r, const char *name)
{
	for (size_t i = 0; i < r->n_loaded; i++) {
		const char *n = r->loaded[i].name, *p = r->loaded[i].realpath;
		const char *bn = strrchr(n, '/'), *bp = p ? strrchr(p, '/') : NULL;

		if ((bn && !strcmp(bn + 1, name)) || (bp && !strcmp(bp + 1, name)) || !strcmp(n, name))
			return &r->loaded[i];
	}
	return NULL;
}

int envcheck_deps(const struct pyenv_report *r, struct envcheck_deps_summary *sum,
		  struct pt_diag *findings)
{
	struct ldpath_env env;
	struct resolve_result res = { 0 };
	struct pt_diag d;
	const char *root = NULL;

	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < r->n_loaded && !root; i++) {
		const char *p = r->loaded[i].realpath;

		if (p && strstr(p, "/torch/_C.") && strstr(p, ".so"))
			root = p;
	}
	if (!root)
		return -1;
	sum->root = root;
	pt_diag_init(&d);
	ldpath_env_init(&env, "", &d);
	env.ld_library_path = getenv("LD_LIBRARY_PATH");
	/* The resolver's own warnings repeat what is reported below; keep only errors. */
	if (resolve_tree(root, &env, &res, &d) != 0) {
		for (size_t i = 0; i < d.n; i++)
			if (d.v[i].sev == PT_SEV_ERROR)
				pt_diag_add(findings, PT_SEV_WARNING, r->python, "deps", "%s: %s",
					    d.v[i].file ? d.v[i].file : root, d.v[i].what);
		goto out;
	}
	sum->n_objs = res.n_objs;
	for (size_t i = 0; i < res.n_deps; i++) {
		const struct resolve_dep *e = &res.deps[i];
		const char *by = res.objs[e->needed_by].realpath;

		if (e->obj == (size_t)-1) {
			const struct pyenv_loaded *l = loaded_by_name(r, e->name);

			sum->n_missing++;
			if (l) {
				sum->n_preloaded++;
				pt_diag_add(findings, PT_SEV_NOTE, r->python, "deps",
					    "%s, needed by %s, is not found by the loader's rules; the "
					    "process has it only because it was loaded earlier (%s)",
					    e->name, by, l->realpath ? l->realpath : l->name);
			} else {
				pt_diag_add(findings, PT_SEV_WARNING, r->python, "deps",
					    "%s, needed by %s, is not found by the loader's rules "
					    "(ptinspect deps %s shows where it looked)", e->name, by, root);
			}
		}
		if (e->n_missing_versions) {
			struct pt_strbuf sb;

			sum->n_unmet++;
			pt_strbuf_init(&sb, 4096);
			for (size_t k = 0; k < e->n_missing_versions; k++)
				pt_strbuf_addf_trunc(&sb, "%s%s", k ? ", " : "", e->missing_versions[k]);
			pt_diag_add(findings, PT_SEV_WARNING, r->python, "deps",
				    "%s (%s) lacks version%s %s needed by %s", e->name,
				    e->obj != (size_t)-1 ? res.objs[e->obj].realpath : "?",
				    e->n_missing_versions > 1 ? "s" : "", pt_strbuf_str(&sb), by);
			pt_strbuf_release(&sb);
		}
	}
out:
	if (res.objs)
		resolve_release(&res);
	ldpath_env_release(&env);
	pt_diag_release(&d);
	return 0;
}

static bool in_list(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

void envcheck_arch_compare(char *const *cfg_t, size_t n_cfg, char *const *bin_t, size_t n_bin,
			   const char *lib, const char *python, struct pt_diag *d)
{
	struct pt_strbuf miss, extra;

	pt_strbuf_init(&miss, 4096);
	pt_strbuf_init(&extra, 4096);
	for (size_t i = 0; i < n_cfg; i++)
		if (!in_list(bin_t, n_bin, cfg_t[i]))
			pt_strbuf_addf_trunc(&miss, "%s%s", miss.len ? " " : "", cfg_t[i]);
	for (size_t i = 0; i < n_bin; i++)
		if (!in_list(cfg_t, n_cfg, bin_t[i]))
			pt_strbuf_addf_trunc(&extra, "%s%s", extra.len ? " " : "", bin_t[i]);
	if (miss.len)
		pt_diag_add(d, PT_SEV_WARNING, python, "fatbin",
			    "the NVCC architecture flags name %s but %s holds no code for that: a "
			    "stale build (the library was built with other flags)",
			    pt_strbuf_str(&miss), lib);
	if (extra.len)
		pt_diag_add(d, PT_SEV_NOTE, python, "fatbin",
			    "%s also holds %s, which the NVCC architecture flags do not name (kernels "
			    "built with their own flags)", lib, pt_strbuf_str(&extra));
	pt_strbuf_release(&miss);
	pt_strbuf_release(&extra);
}

int envcheck_fatbin(const struct pyenv_report *r, const struct showconfig *cfg,
		    struct pt_diag *findings)
{
	const struct pyenv_loaded *l = envcheck_find_loaded(r, "libtorch_cuda");
	struct elfobj o;
	struct cuda_scan s;
	struct pt_diag d;
	char **cfg_t = NULL, **bin_t = NULL;
	size_t n_cfg = 0, n_bin = 0, a_bin = 0;
	int rc = -1;

	if (!cfg || !l || !l->realpath || (!cfg->n_nvcc_sass && !cfg->n_nvcc_ptx))
		return -1;
	pt_diag_init(&d);
	memset(&s, 0, sizeof(s));
	if (elfobj_open(&o, l->realpath, &d) != 0) {
		elfobj_release(&o);
		goto out_diag;
	}
	/* torch registers its kernels: the walked sections are enough, and fast. */
	if (cuda_scan(&o, CUDA_SCAN_REGISTERED_ONLY, &s, &d) == 0) {
		for (size_t i = 0; i < s.entries.n; i++) {
			const struct fatbin_entry *e = &s.entries.v[i];
			struct cuda_target t = { .kind = e->kind, .arch = e->arch, .variant = e->variant };
			char name[32];

			if (e->kind != FATBIN_KIND_ELF && e->kind != FATBIN_KIND_PTX)
				continue;
			cudaarch_target_name(&t, name, sizeof(name));
			if (!in_list(bin_t, n_bin, name)) {
				PT_GROW(bin_t, n_bin, a_bin);
				bin_t[n_bin++] = pt_xstrdup(name);
			}
		}
		cfg_t = pt_xcalloc(cfg->n_nvcc_sass + cfg->n_nvcc_ptx + 1, sizeof(*cfg_t));
		for (size_t i = 0; i < cfg->n_nvcc_sass; i++)
			cfg_t[n_cfg++] = cfg->nvcc_sass[i];
		for (size_t i = 0; i < cfg->n_nvcc_ptx; i++)
			cfg_t[n_cfg++] = cfg->nvcc_ptx[i];
		envcheck_arch_compare(cfg_t, n_cfg, bin_t, n_bin, l->realpath, r->python, findings);
		rc = 0;
	}
	cuda_scan_release(&s);
	elfobj_release(&o);
out_diag:
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].sev >= PT_SEV_WARNING)
			pt_diag_add(findings, PT_SEV_WARNING, r->python, "fatbin", "%s: %s",
				    d.v[i].file ? d.v[i].file : l->realpath, d.v[i].what);
	pt_diag_release(&d);
	for (size_t i = 0; i < n_bin; i++)
		free(bin_t[i]);
	free(bin_t);
	free(cfg_t);
	return rc;
}
