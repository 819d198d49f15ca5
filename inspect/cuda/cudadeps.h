/*
 * --cuda-deps: the CUDA code of every library in a resolved dependency tree
 * (resolve.h), including libraries that are dlopen'ed rather than NEEDED,
 * added from a table of known dlopen edges (cuDNN 9's sub-libraries, the
 * driver, NVRTC) and resolved as dlopen would from the caller. Collects and
 * summarises; rendering is in report_cuda.c.
 */
#ifndef PT_CUDADEPS_H
#define PT_CUDADEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cudaarch.h"
#include "diag.h"
#include "ldpath.h"
#include "resolve.h"

/* One library of the tree with device code. */
struct cudadeps_lib {
	size_t obj;			/* index in resolve_result.objs */
	struct cuda_summary sum;	/* union of its entries */
	size_t n_fatbins;
	uint64_t bytes;			/* bytes of fat binaries */
};

/* One dlopen edge from the table that applied to this tree. */
struct cudadeps_edge {
	size_t caller;			/* index in objs */
	const char *name;		/* the name passed to dlopen (static or owned, see below) */
	char *name_owned;		/* set when the name was formatted (libnvrtc.so.13) */
	const char *why;		/* the table's reason, static */
	bool found;
};

struct cudadeps {
	struct cudadeps_lib *v;
	size_t n, alloc;
	struct cudadeps_edge *edges;
	size_t n_edges, alloc_edges;
	size_t n_objs;			/* objects considered (the tree after dlopen edges) */
};

/*
 * Add the known dlopen edges to r (resolve_dlopen; a target that is not
 * found is a PT_SEV_NOTE, since dlopen'ed libraries are often optional, and
 * libcuda.so.1 is absent wherever there is no driver), then scan every
 * object of r for fat binaries (cuda_scan with scan_flags). Damage in any
 * library is a warning in diag, as for the file itself.
 */
void cudadeps_collect(struct cudadeps *cd, struct resolve_result *r, const struct ldpath_env *env,
		      unsigned scan_flags, struct pt_diag *diag);
void cudadeps_release(struct cudadeps *cd);

/*
 * The weakest library for cc: the lowest verdict (none < PTX JIT < compatible
 * SASS < exact SASS), among PTX JIT ones the highest PTX ISA, then the first
 * in load order. Returns its index in cd->v, or -1 when no library has code.
 */
long cudadeps_weakest(const struct cudadeps *cd, struct cuda_cc cc, struct cuda_verdict *v);

/* How many of gpus[0..n) some library of the tree cannot serve at all. */
size_t cudadeps_unrunnable(const struct cudadeps *cd, const struct cuda_cc *gpus, size_t n);

#endif
