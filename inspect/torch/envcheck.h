/*
 * Cross-checks on what a Python environment really loaded (pyenv.h) against
 * what it should have: each finding is a pt_diag message whose "where" is
 * the check's name (import, location, shadow, duplicate, cudart) and whose
 * text carries the evidence (paths, versions). No I/O beyond realpath/stat.
 */
#ifndef PT_ENVCHECK_H
#define PT_ENVCHECK_H

#include <stddef.h>

#include "diag.h"
#include "pyenv.h"
#include "showconfig.h"

struct envcheck_opts {
	const char *expect_dir;	/* --expect DIR: torch must come from below it */
	const char *build_tree;	/* a PyTorch source checkout (cwd when it is one), or NULL */
};

/* Run every check; findings go to diag (PT_SEV_WARNING problems, PT_SEV_NOTE facts). cfg may be NULL. */
void envcheck_run(const struct pyenv_report *r, const struct showconfig *cfg,
		  const struct envcheck_opts *o, struct pt_diag *diag);

/* What envcheck_deps found, for the doctor's summary. */
struct envcheck_deps_summary {
	const char *root;	/* the object resolved (torch's _C extension), or NULL */
	size_t n_objs;		/* objects in its dependency tree */
	size_t n_missing;	/* names the loader's rules do not find */
	size_t n_preloaded;	/* of those, loaded anyway (torch preloads them) */
	size_t n_unmet;		/* edges with required versions the provider lacks */
};

/*
 * Resolve torch's _C extension (as loaded) with the foundation resolver
 * (resolve.h) and report missing libraries and unmet symbol versions as
 * findings ("deps"). A name missing by the loader's rules but present in the
 * process (torch preloads CUDA libraries from pip packages) is a note.
 * Returns 0, or -1 when there is nothing to resolve (no _C loaded).
 */
int envcheck_deps(const struct pyenv_report *r, struct envcheck_deps_summary *sum,
		  struct pt_diag *findings);

/*
 * NVCC architecture flags of the configuration against the fat binaries
 * really in the loaded libtorch_cuda (fatbin_scan.h). A target the
 * flags name but the library lacks is a warning (a stale build: the library
 * was built with other flags); a target only the library has is a note
 * (kernels built with their own flags, e.g. sm_90a for FlashAttention).
 * Returns 0, or -1 when there is nothing to compare.
 */
int envcheck_fatbin(const struct pyenv_report *r, const struct showconfig *cfg,
		    struct pt_diag *findings);

/* The comparison itself, on target names ("sm_80", "compute_90"); lib names the library. */
void envcheck_arch_compare(char *const *cfg_t, size_t n_cfg, char *const *bin_t, size_t n_bin,
			   const char *lib, const char *python, struct pt_diag *findings);

/* 1 if dir is a PyTorch source checkout (setup.py, torch/__init__.py, c10/). */
int envcheck_is_source_tree(const char *dir);

/*
 * The library's stem ("libtorch_cpu" for ".../libtorch_cpu.so.1.13.0"), into
 * out; NULL for names that are not lib*.so*.
 */
const char *envcheck_lib_stem(const char *path, char *out, size_t n);

/* The loaded object whose stem is stem, or NULL. */
const struct pyenv_loaded *envcheck_find_loaded(const struct pyenv_report *r, const char *stem);

#endif
