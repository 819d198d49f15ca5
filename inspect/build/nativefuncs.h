/*
 * aten/src/ATen/native/native_functions.yaml, the source torchgen generates
 * from: one entry per operator overload ("func:"), its dispatch table,
 * structured / structured_delegate. Read with libyaml (the only file that
 * sees yaml.h). Bytes and a length in, entries and diagnostics out.
 */
#ifndef PT_NATIVEFUNCS_H
#define PT_NATIVEFUNCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct nf_dispatch {
	char *keys;	/* "CPU, CUDA" as written */
	char *kernel;	/* "add_out" (in at::native) */
};

struct nf_entry {
	char *func;		/* the whole schema: "add.Tensor(Tensor self, ...) -> Tensor" */
	char *name;		/* "add.Tensor" */
	char *unambiguous;	/* "add_Tensor": torchgen's C++ name (wrapper_CPU_<this>, at::_ops::<this>) */
	size_t line;		/* 1-based line of "- func:" */
	struct nf_dispatch *dispatch;
	size_t n_dispatch;
	char *structured_delegate;	/* "add.out", or NULL */
	bool structured;
	bool ufunc;		/* has ufunc_inner_loop: CPU/CUDA kernels generated (UfuncCPU_<name>.cpp) */
};

struct nativefuncs {
	struct nf_entry *v;
	size_t n;
};

/* Returns 0, or -1 when it is not YAML or not a list of mappings (an error in d). */
int nativefuncs_parse(const uint8_t *buf, size_t len, struct nativefuncs *nf, const char *src,
		      struct pt_diag *d);
void nativefuncs_release(struct nativefuncs *nf);

/* The entry named "add.Tensor" / "add" (overload-less), or NULL. */
const struct nf_entry *nativefuncs_find(const struct nativefuncs *nf, const char *name);
/* The entry whose unambiguous C++ name is s ("add_Tensor"), or NULL. */
const struct nf_entry *nativefuncs_find_cpp(const struct nativefuncs *nf, const char *s);
/* The first entry whose dispatch table names kernel (at::native::KERNEL), or NULL; *keys set. */
const struct nf_entry *nativefuncs_find_kernel(const struct nativefuncs *nf, const char *kernel,
					       const char **keys);

#endif
