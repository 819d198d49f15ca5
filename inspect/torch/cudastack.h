/*
 * The CUDA libraries torch was built with against the ones it loads: the
 * CUDA runtime, cuDNN and NCCL. Built-with comes from the configuration
 * (showconfig.h: CUDA_VERSION and CUDNN_VERSION build settings, the "Built
 * with" sub-lines) and torch.version.cuda; loaded from the library file the
 * process mapped (or the loader's rules resolve): the version in its file
 * name, else the pip wheel's dist-info beside it (nvidia_cudnn_cu13-9.19.0.56:
 * also the CUDA major that build is for), else what torch itself reports
 * (torch.backends.cudnn.version(), show_config's runtime lines). Findings are
 * pt_diag messages whose "where" is "cudastack": a mismatch is a warning, the
 * comparison that agrees a note. No printing.
 */
#ifndef PT_CUDASTACK_H
#define PT_CUDASTACK_H

#include <stddef.h>

#include "diag.h"
#include "pyenv.h"
#include "showconfig.h"

/* One loaded (or resolved) library of the stack, as the comparison sees it. */
struct cudastack_loaded {
	const char *stem;	/* "libcudart", "libcudnn", "libnccl" */
	const char *path;	/* the file (realpath) */
	const char *version;	/* "12.4.127", "9.19.0", or NULL (unknown) */
	const char *version_from;	/* "file name", "nvidia_cudnn_cu13-9.19.0.56.dist-info", ... */
	int for_cuda;		/* the CUDA major that build of it is for (the wheel's cuNN), 0 unknown */
	const char *for_cuda_from;	/* the dist-info that says so */
};

/*
 * The comparison alone (unit-tested on pasted configurations): cfg (NULL:
 * none), torch_cuda (torch.version.cuda or NULL), the libraries found
 * (n may be 0). Findings go to findings, file python.
 */
void cudastack_compare(const struct showconfig *cfg, const char *torch_cuda,
		       const struct cudastack_loaded *libs, size_t n, const char *python,
		       struct pt_diag *findings);

/*
 * From a library path: its stem when it is part of the stack, the version in
 * its name or in a dist-info nearby (pip's nvidia-* wheels, a toolkit laid
 * out from them), into *out (strings owned by *store, freed with
 * cudastack_store_release). Returns 0, or -1 when path is not a stack library.
 */
struct cudastack_store {
	char **s;
	size_t n, a;
};
int cudastack_identify(const char *path, struct cudastack_loaded *out, struct cudastack_store *store);
void cudastack_store_release(struct cudastack_store *store);

/*
 * The whole check on a probed interpreter: the stack libraries the import
 * mapped (r->loaded), or, when the import failed, those the loader's rules
 * resolve below ext (torch's _C extension; NULL: none). Nothing for a
 * torch without CUDA.
 */
void cudastack_check(const struct pyenv_report *r, const struct showconfig *cfg, const char *ext,
		     struct pt_diag *findings);

#endif
