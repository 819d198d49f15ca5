/* The CUDA libraries of a dependency tree; see cudadeps.h. */
#include "cudadeps.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_scan.h"
#include "xalloc.h"

/*
 * Known dlopen edges: libraries that load others at run time, so that no
 * DT_NEEDED shows them. "%d" in a name is the CUDA major of the tree's
 * libcudart.so.N (the edge is skipped when there is none); "%v" below.
 */
static const struct dlopen_rule {
	const char *caller;	/* fnmatch pattern on the caller's SONAME or file name */
	const char *name;	/* what it passes to dlopen */
	const char *why;
} rules[] = {
	/* cuDNN 9: libcudnn.so.9 is a 129 KB shim that loads its sub-libraries on demand. */
	{ "libcudnn.so.9*", "libcudnn_graph.so.9", "cuDNN 9 shim" },
	{ "libcudnn.so.9*", "libcudnn_engines_precompiled.so.9", "cuDNN 9 shim" },
	{ "libcudnn.so.9*", "libcudnn_engines_runtime_compiled.so.9", "cuDNN 9 shim" },
	{ "libcudnn.so.9*", "libcudnn_heuristic.so.9", "cuDNN 9 shim" },
	{ "libcudnn.so.9*", "libcudnn_ops.so.9", "cuDNN 9 shim" },
	{ "libcudnn.so.9*", "libcudnn_cnn.so.9", "cuDNN 9 shim" },
	{ "libcudnn.so.9*", "libcudnn_adv.so.9", "cuDNN 9 shim" },
	/* The runtime finds the driver at its first call (cudart never links it). */
	{ "libcudart.so.*", "libcuda.so.1", "CUDA runtime loads the driver" },
	/* ATen's lazy driver and NVRTC bindings (aten/src/ATen/cuda/detail/LazyNVRTC.cpp). */
	{ "libtorch_cuda.so*", "libcuda.so.1", "ATen lazy driver API" },
	{ "libtorch_cuda.so*", "libnvrtc.so.%d", "ATen lazy NVRTC" },
	{ "libcaffe2_nvrtc.so", "libnvrtc.so.%d", "ATen lazy NVRTC" },
	/*
	 * NVRTC loads the builtins of its own toolkit version: "%v" is the
	 * major.minor of the caller's file name (libnvrtc.so.12.4.127 → 12.4,
	 * libnvrtc.so.13 → 13.0).
	 */
	{ "libnvrtc.so.*", "libnvrtc-builtins.so.%v", "NVRTC builtins" },
};

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static bool obj_matches(const struct resolve_obj *o, const char *pattern)
{
	return (o->elf.soname && !fnmatch(pattern, o->elf.soname, 0)) ||
	       !fnmatch(pattern, base(o->path), 0);
}

/* N of a libcudart.so.N in the tree, or -1. */
static int cuda_major(const struct resolve_result *r)
{
	for (size_t i = 0; i < r->n_objs; i++) {
		const char *n = r->objs[i].elf.soname ? r->objs[i].elf.soname : base(r->objs[i].path);

		if (!strncmp(n, "libcudart.so.", 13) && n[13] >= '1' && n[13] <= '9')
			return atoi(n + 13);
	}
	return -1;
}

static void add_edges(struct cudadeps *cd, struct resolve_result *r, const struct ldpath_env *env,
		      struct pt_diag *diag)
{
	/* Objects added by an edge are visited too (cudart found through a dlopen'ed library). */
	for (size_t i = 0; i < r->n_objs; i++) {
		for (size_t k = 0; k < PT_ARRAY_SIZE(rules); k++) {
			struct cudadeps_edge *e;
			struct pt_diag scratch;
			char *owned = NULL;
			int major;
			long di;

			if (!obj_matches(&r->objs[i], rules[k].caller))
				continue;
			if (strstr(rules[k].name, "%v")) {
				/* "libnvrtc.so.12.4.127": the two numbers after the caller's ".so.". */
				const char *f = base(r->objs[i].realpath ? r->objs[i].realpath : r->objs[i].path);
				const char *v = strstr(f, ".so.");
				unsigned ma, mi = 0;

				/* NVIDIA's own tree names the file libnvrtc.so.13: then 13.0. */
				if (!v || sscanf(v + 4, "%u.%u", &ma, &mi) < 1)
					continue;
				owned = pt_xasprintf("%.*s%u.%u", (int)(strstr(rules[k].name, "%v") - rules[k].name),
						     rules[k].name, ma, mi);
			} else if (strstr(rules[k].name, "%d")) {
				if ((major = cuda_major(r)) < 0)
					continue;
				/* The rule's format has one %d: a constant table, not user input. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
				owned = pt_xasprintf(rules[k].name, major);
#pragma GCC diagnostic pop
			}
			pt_diag_init(&scratch);
			di = resolve_dlopen(r, i, owned ? owned : rules[k].name, env, &scratch);
			/* A missing dlopen target is no load failure: say it, do not count it. */
			for (size_t m = 0; m < scratch.n; m++)
				if (scratch.v[m].sev == PT_SEV_WARNING && di < 0)
					scratch.v[m].sev = PT_SEV_NOTE;
			pt_diag_take(diag, &scratch);
			PT_GROW(cd->edges, cd->n_edges, cd->alloc_edges);
			e = &cd->edges[cd->n_edges++];
			e->caller = i;
			e->name_owned = owned;
			e->name = owned ? owned : rules[k].name;
			e->why = rules[k].why;
			e->found = di >= 0;
		}
	}
}

void cudadeps_collect(struct cudadeps *cd, struct resolve_result *r, const struct ldpath_env *env,
		      unsigned scan_flags, struct pt_diag *diag)
{
	memset(cd, 0, sizeof(*cd));
	add_edges(cd, r, env, diag);
	cd->n_objs = r->n_objs;
	for (size_t i = 0; i < r->n_objs; i++) {
		struct cuda_scan s;
		struct cudadeps_lib *l;
		struct elfobj full;
		const struct elfobj *o = &r->objs[i].elf;

		/* The resolver reads dependencies with elfobj_open_dynamic: no section table. */
		if (o->n_sections == 0) {
			/* objs[0] is the file as given; the others are paths inside --root. */
			char *in = i ? ldpath_in_root(env, r->objs[i].path) : pt_xstrdup(r->objs[i].path);
			int bad = elfobj_open(&full, in, diag) != 0;

			free(in);
			if (bad) {
				elfobj_release(&full);
				continue;
			}
			o = &full;
		}
		cuda_scan(o, scan_flags, &s, diag);
		if (o == &full)
			elfobj_release(&full);
		if (s.n_fatbins) {
			PT_GROW(cd->v, cd->n, cd->alloc);
			l = &cd->v[cd->n++];
			memset(l, 0, sizeof(*l));
			l->obj = i;
			l->n_fatbins = s.n_fatbins;
			for (size_t f = 0; f < s.n_fatbins; f++)
				l->bytes += s.fatbins[f].size;
			for (size_t e = 0; e < s.entries.n; e++)
				cudaarch_summary_add_unit(&l->sum, &s.entries.v[e], s.entries.v[e].fatbin);
		}
		cuda_scan_release(&s);
	}
}

void cudadeps_release(struct cudadeps *cd)
{
	for (size_t i = 0; i < cd->n; i++)
		cudaarch_summary_release(&cd->v[i].sum);
	free(cd->v);
	for (size_t i = 0; i < cd->n_edges; i++)
		free(cd->edges[i].name_owned);
	free(cd->edges);
	memset(cd, 0, sizeof(*cd));
}

/* a is weaker than b: a lower verdict, or a JIT path that needs a newer driver. */
static bool weaker(const struct cuda_verdict *a, const struct cuda_verdict *b)
{
	if (a->how != b->how)
		return a->how < b->how;
	if (a->how == CUDA_RUN_PTX_JIT)
		return a->isa_major > b->isa_major ||
		       (a->isa_major == b->isa_major && a->isa_minor > b->isa_minor);
	return false;
}

long cudadeps_weakest(const struct cudadeps *cd, struct cuda_cc cc, struct cuda_verdict *v)
{
	long best = -1;

	for (size_t i = 0; i < cd->n; i++) {
		struct cuda_verdict x;

		cudaarch_verdict(&cd->v[i].sum, cc, &x);
		if (best < 0 || weaker(&x, v)) {
			*v = x;
			best = (long)i;
		}
	}
	return best;
}

size_t cudadeps_unrunnable(const struct cudadeps *cd, const struct cuda_cc *gpus, size_t n)
{
	size_t bad = 0;

	for (size_t g = 0; g < n; g++) {
		struct cuda_verdict v;

		if (cudadeps_weakest(cd, gpus[g], &v) >= 0 && v.how == CUDA_RUN_NONE)
			bad++;
	}
	return bad;
}
