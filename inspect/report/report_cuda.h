/*
 * The CUDA section of the per-file report ("cuda" in JSON): fat binaries per
 * section, SASS/PTX targets, TORCH_CUDA_ARCH_LIST and -gencode spellings,
 * sizes per target, and per --gpu a verdict. Collects nothing itself: it
 * renders a cuda_scan (and an optional cuda_verify) through cudaarch rules.
 */
#ifndef PT_REPORT_CUDA_H
#define PT_REPORT_CUDA_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cudaarch.h"
#include "cudadeps.h"
#include "diag.h"
#include "fatbin_scan.h"

struct pt_style;

/* Device code at or above this many bytes gets the link-limit note (2 GiB: R_X86_64_PC32). */
#define REPORT_CUDA_NEAR_2GIB (3ull << 29)	/* 1.5 GiB */

struct report_cuda_opts {
	const struct cuda_cc *gpus;	/* --gpu, in the order given */
	const char *const *gpu_args;	/* as typed, for the report */
	size_t n_gpus;
	int driver_cuda;		/* --gpu=auto: the driver's CUDA version (12040), 0 unknown */
	bool entries;			/* list every entry in text */
	bool only;			/* `ptinspect cuda`: say so when there is no CUDA code */
	bool brief;			/* the default report's summary: totals, targets, arch list */
	/* The driver's JIT cache (cudajit_cache): its limit in bytes, 0 when disabled. */
	uint64_t jit_cache;
	bool jit_cache_off;		/* CUDA_CACHE_DISABLE=1 */
};

/* Everything the renderers need about one file. */
struct report_cuda {
	const struct cuda_scan *scan;
	const struct cuda_verify *verify;	/* NULL without --verify */
	struct cuda_summary sum;		/* union of every entry */
	uint64_t device_bytes;			/* bytes of all fat binaries */
};

/* Build r from scan (and verify); adds the 2 GiB note to diag for path. */
void report_cuda_init(struct report_cuda *r, const struct cuda_scan *scan,
		      const struct cuda_verify *verify, const char *path, struct pt_diag *diag);
void report_cuda_release(struct report_cuda *r);

/* Prints nothing for a file without fat binaries unless opts->only (then one line). */
void report_cuda_text(FILE *f, const struct report_cuda *r, const struct report_cuda_opts *opts,
		      const struct pt_style *st);
json_t *report_cuda_json(const struct report_cuda *r, const struct report_cuda_opts *opts);

/* --cuda-deps: one line per library with device code, then the weakest link per --gpu. */
void report_cudadeps_text(FILE *f, const struct cudadeps *cd, const struct resolve_result *r,
			  const struct report_cuda_opts *opts, const struct pt_style *st);
json_t *report_cudadeps_json(const struct cudadeps *cd, const struct resolve_result *r,
			     const struct report_cuda_opts *opts);

#endif
