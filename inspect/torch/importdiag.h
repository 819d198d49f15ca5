/*
 * Why `import torch` fails, found without running torch: the package the
 * interpreter would import (pysyspath.h), its _C extension resolved with the
 * loader's rules in the interpreter's environment (resolve.h), every symbol
 * bound as `ldd -r` would (bindcheck.h), the torch libraries checked for
 * coming from one place, and the CUDA runtime against the driver
 * (cudadriver.h). One cause is named first; the evidence for every finding
 * is kept for the report. No printing.
 */
#ifndef PT_IMPORTDIAG_H
#define PT_IMPORTDIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "bindcheck.h"
#include "cudadriver.h"
#include "debpkg.h"
#include "diag.h"
#include "pyenv.h"
#include "pysyspath.h"

enum importdiag_cause {
	IMPORTDIAG_NONE,		/* import works, nothing wrong found */
	IMPORTDIAG_NOT_INSTALLED,	/* no torch package for this interpreter */
	IMPORTDIAG_SOURCE_CHECKOUT,	/* a PyTorch checkout's torch/ without a built _C wins */
	IMPORTDIAG_NO_EXTENSION,	/* a torch package without _C */
	IMPORTDIAG_MISSING_LIBRARY,
	IMPORTDIAG_UNMET_VERSION,
	IMPORTDIAG_UNDEFINED_SYMBOL,
	IMPORTDIAG_MIXED_TREE,		/* torch libraries from two places (LD_LIBRARY_PATH, a stale build/lib) */
	IMPORTDIAG_CUDA_DRIVER,		/* the CUDA runtime is newer than the driver */
	IMPORTDIAG_PYTHON,		/* the libraries are fine: the error is raised by Python code */
	IMPORTDIAG_TIMEOUT,		/* import torch did not finish by the deadline: killed */
};

/* "missing-library", ... (JSON). */
const char *importdiag_cause_key(enum importdiag_cause c);

struct importdiag_missing {
	char *name;
	char *needed_by;	/* the first object (load order) that needs it */
	char **also;		/* the others that need it too */
	size_t n_also;
	size_t a_also;
	char **tried;		/* "path (how)" in the loader's order */
	size_t n_tried;
	size_t a_tried;
	struct debpkg_owner *owners;	/* installed packages that have a file of that name */
	size_t n_owners;
	char *hint;		/* what would provide it (pip wheel, nvidia-cudnn), or NULL */
};

struct importdiag_mixed {
	char *lib;		/* the odd one out, as found */
	char *how;		/* "ld_library_path", "runpath", ... */
	char *dir;		/* its directory (realpath) */
	char *neighbours;	/* the directory the other torch libraries come from */
};

struct importdiag_cuda {
	bool checked;		/* a libcudart was in the tree */
	char *cudart;
	int rt_major, rt_minor;
	char *libcuda;		/* what libcuda.so.1 resolves to from libcudart, or NULL */
	char driver[64];	/* "" when unknown */
	enum cudadriver_verdict verdict;
	char why[512];
};

/*
 * What `python -c 'import torch'` run in the current directory would import
 * where the helper kept that directory off sys.path (the default): found by
 * reading files (pysyspath_locate with "" first), nothing of it run.
 */
struct importdiag_here {
	bool applies;		/* a torch package in the cwd, other than the one checked */
	struct pysyspath_torch loc;	/* that package (how == PYSYSPATH_CWD) */
	char *checked;		/* the package directory that was checked instead, or NULL (none) */
	char *text;		/* "python run here would import ./torch (...) instead of ..." */
};

/* Fill *h from r (r->cwd_dropped and r->cwd). Returns h->applies. */
bool importdiag_here(const struct pyenv_report *r, struct importdiag_here *h);
void importdiag_here_release(struct importdiag_here *h);

struct importdiag {
	enum importdiag_cause cause;
	char *headline;		/* the cause in one line */
	bool located;
	struct pysyspath_torch loc;
	char *ext;		/* the extension resolved (located, or as loaded) */
	size_t n_objs;		/* objects in its tree */
	struct importdiag_missing *missing;
	size_t n_missing;
	size_t a_missing;
	char **unmet;		/* "libX (path) lacks VER needed by Y" */
	size_t n_unmet;
	size_t a_unmet;
	struct importdiag_mixed *mixed;
	size_t n_mixed;
	size_t a_mixed;
	bool have_bind;
	char **bind_paths;	/* the scope, in load order (the interpreter first) */
	size_t n_bind_paths;
	size_t a_bind_paths;
	struct bindcheck_result bind;
	struct importdiag_cuda cuda;
	char *spec_disagrees;	/* find_spec's answer when it differs from the located one */
	const struct importdiag_here *here;	/* borrowed from the caller, or NULL */
};

/*
 * Diagnose r's interpreter. With r->torch_ok the loaded _C is checked (mixed
 * tree, CUDA driver); without, the package is located and everything is
 * checked. here (NULL: none; it must outlive g): a torch package in the
 * current directory without a built _C is the cause (source-checkout) when
 * nothing else is wrong with the torch checked. An import killed at the
 * deadline (r->timed_out) is the cause "timeout". Returns 0 (g->cause set),
 * -1 only on a resolver failure on the extension itself (PT_SEV_ERROR in
 * diag, cause left as what was found).
 */
int importdiag_run(const struct pyenv_report *r, const struct importdiag_here *here,
		   struct importdiag *g, struct pt_diag *diag);
void importdiag_release(struct importdiag *g);

#endif
