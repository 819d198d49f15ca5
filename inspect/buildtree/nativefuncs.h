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
	char *unambiguous;	/* "add_Tensor": OperatorName.unambiguous_name() (at::_ops::<this>, VariableType's, BackendSelect's) */
	char *native_name;	/* "add_out_out": api/native.py name() (structured wrapper_CPU_<this>, functionalization's) */
	char *wrapper_name;	/* "out_add_out": "<overload>_" + api/cpp.py name() (unstructured wrapper_CPU_<this>) */
	bool out_fn;		/* a kwarg-only mutable argument (Tensor(a!) out): model.py is_out_fn() */
	size_t line;		/* 1-based line of "- func:" */
	struct nf_dispatch *dispatch;
	size_t n_dispatch;
	char *structured_delegate;	/* "add.out", or NULL */
	bool structured;
	bool ufunc;		/* has ufunc_inner_loop: CPU/CUDA kernels generated (UfuncCPU_<name>.cpp) */
	char *autogen_of;	/* an "autogen:" variant: the entry whose list names it ("add.Tensor"); func is its name */
};

struct nf_name {
	const char *s;
	const struct nf_entry *e;
};

struct nativefuncs {
	struct nf_entry *v;
	size_t n;
	/* Sorted indexes of torchgen's C++ names (n each, built by the parse). */
	struct nf_name *by_cpp, *by_native, *by_wrapper;
};

/* Returns 0, or -1 when it is not YAML or not a list of mappings (an error in d). */
int nativefuncs_parse(const uint8_t *buf, size_t len, struct nativefuncs *nf, const char *src,
		      struct pt_diag *d);
/*
 * tools/autograd/derivatives.yaml: the same list, keyed by "name:" (the
 * schema, kept in func); no dispatch rows.
 */
int nativefuncs_parse_derivatives(const uint8_t *buf, size_t len, struct nativefuncs *nf, const char *src,
				  struct pt_diag *d);
void nativefuncs_release(struct nativefuncs *nf);

/* The entry named "add.Tensor" / "add" (overload-less), or NULL. */
const struct nf_entry *nativefuncs_find(const struct nativefuncs *nf, const char *name);
/* The entry whose unambiguous C++ name is s ("add_Tensor"), or NULL. */
const struct nf_entry *nativefuncs_find_cpp(const struct nativefuncs *nf, const char *s);
/* The entry whose native name is s ("add_out_out", "add__Tensor"), or NULL. */
const struct nf_entry *nativefuncs_find_native(const struct nativefuncs *nf, const char *s);
/* The entry whose unstructured wrapper suffix is s ("Tensor_fill_", "_relu", "out_add_out"), or NULL. */
const struct nf_entry *nativefuncs_find_wrapper(const struct nativefuncs *nf, const char *s);
/* The first entry whose dispatch table names kernel (at::native::KERNEL), or NULL; *keys set. */
const struct nf_entry *nativefuncs_find_kernel(const struct nativefuncs *nf, const char *kernel,
					       const char **keys);

#endif
