/*
 * CUDA architecture rules (docs/formats/cuda-fatbin.md §11-§14): which code
 * target runs on which compute capability, the PTX ISA a driver must know,
 * GPU names, and the TORCH_CUDA_ARCH_LIST and -gencode spellings of a set of
 * targets. Pure functions over small structs: no I/O, no printing.
 */
#ifndef PT_CUDAARCH_H
#define PT_CUDAARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

/* A compute capability M.m. */
struct cuda_cc {
	int major, minor;
};

/*
 * Parse a --gpu argument: "8.6", "sm_86", "sm_90a", "compute_86", "86",
 * "120", or a name such as "rtx5090", "RTX 4090", "h100", "a100", "t4",
 * "gb10" (case, spaces and dashes ignored). Returns 0; -1 if the spelling
 * is not understood; -2 if it is a number but no GPU has that capability
 * (cc is then set to it, for cudaarch_cc_neighbours).
 */
int cudaarch_parse_gpu(const char *s, struct cuda_cc *cc);

/* A compute capability that exists, its architecture and common GPUs. */
struct cuda_cc_info {
	int major, minor;
	const char *arch;	/* "Hopper"; NULL when NVIDIA names none */
	const char *names;	/* "H100/H200/GH200"; NULL when NVIDIA lists no product */
};

/* Every known capability, ascending (the one list; cudaarch.c). */
size_t cudaarch_known_ccs(const struct cuda_cc_info **v);

/* cc's entry in that list, or NULL when no GPU has it. */
const struct cuda_cc_info *cudaarch_cc_info(struct cuda_cc cc);

/* The known capabilities just below and just above cc (either NULL at the ends). */
void cudaarch_cc_neighbours(struct cuda_cc cc, const struct cuda_cc_info **below,
			    const struct cuda_cc_info **above);

/*
 * A GPU model as the driver names it ("NVIDIA GeForce RTX 4090", "NVIDIA
 * A100-SXM4-80GB", "Tesla T4") to its capability: the longest known name
 * that starts the normalised model. Returns 0, or -1 when none does.
 */
int cudaarch_model_cc(const char *model, struct cuda_cc *cc);

/* Common GPUs of that capability ("H100/H200/GH200"), or NULL. Static storage. */
const char *cudaarch_gpu_names(struct cuda_cc cc);

/* One code target: an ELF (SASS), PTX or LTO-IR entry's kind, arch and variant. */
struct cuda_target {
	uint16_t kind;		/* enum fatbin_kind */
	uint32_t arch;		/* 90, 100, 120 */
	char variant;		/* 0, 'a', 'f' */
};

/* "sm_90a", "compute_100f", "lto_90", "kind16_90" into buf. */
const char *cudaarch_target_name(const struct cuda_target *t, char *buf, size_t n);

/* How a target (or a set of them) runs on a GPU. Ordered from worst to best. */
enum cuda_how {
	CUDA_RUN_NONE,		/* error 209: no kernel image is available */
	CUDA_RUN_PTX_JIT,	/* the driver compiles PTX at load time */
	CUDA_RUN_SASS_COMPAT,	/* a cubin for a lower minor of the same major */
	CUDA_RUN_SASS_EXACT,	/* a cubin for exactly this capability */
};

/* "none", "ptx_jit", "sass_compatible", "sass_exact": the JSON words. */
const char *cudaarch_how_name(enum cuda_how h);

/*
 * How one target runs on cc (§11): SASS plain/f same major and minor <= m,
 * `a` exactly; PTX plain <= cc, f same major and minor <= m, `a` exactly;
 * LTO-IR and unknown kinds never run.
 */
enum cuda_how cudaarch_how(const struct cuda_target *t, struct cuda_cc cc);

/*
 * The CUDA (driver) version that first JITs PTX ISA major.minor, as
 * "13.0" into buf; NULL when the ISA is newer than this table (then the
 * driver must be newer than CUDA 13.1).
 */
const char *cudaarch_ptx_min_driver(unsigned major, unsigned minor, char *buf, size_t n);

/* Per-target totals over a set of entries. */
struct cuda_target_sum {
	struct cuda_target t;
	size_t count;
	uint64_t stored;	/* header + payload bytes in the file */
	uint64_t uncompressed;	/* payload size after decompression (stored size if none) */
	uint16_t isa_major, isa_minor;	/* the highest PTX ISA (PTX), code version (others) */
	size_t units;		/* how many units (fat binaries, libraries) hold it */
	size_t last_unit;	/* the last unit counted, + 1 (0: none yet) */
};

/* Sorted by kind (ELF, PTX, LTO-IR, others), arch, then variant (plain, a, f). */
struct cuda_summary {
	struct cuda_target_sum *v;
	size_t n, alloc;
	size_t n_units;		/* distinct units added (cudaarch_summary_add_unit) */
	size_t last_unit;	/* the last one, + 1 */
};

void cudaarch_summary_add(struct cuda_summary *s, const struct fatbin_entry *e);
/*
 * The same, counting which unit holds the entry (a fat binary's index, a
 * library's): a unit's entries are added one after the other.
 */
void cudaarch_summary_add_unit(struct cuda_summary *s, const struct fatbin_entry *e, size_t unit);
void cudaarch_summary_release(struct cuda_summary *s);

/*
 * TORCH_CUDA_ARCH_LIST spelling of the SASS targets, "+PTX" on those with a
 * PTX twin: "7.5;8.0;9.0a;12.0+PTX". PTX without a SASS twin has no spelling
 * and is left out (*ptx_only, when not NULL, gets how many). Caller frees.
 */
char *cudaarch_arch_list(const struct cuda_summary *s, size_t *ptx_only);

/*
 * The TORCH_CUDA_ARCH_LIST that holds for the units but a few: the targets
 * at least a tenth of the units hold (a torch library: every .cu file's fat binary has
 * the list it was built with, and a few kernels add sm_90a of their own
 * gencode, which copied into the list would build every file for it). *extra
 * gets the other targets as "sm_90a (2), compute_90 (5)" (units holding
 * each), NULL when there are none. When no SASS target is in a tenth the
 * result is the union (cudaarch_arch_list) and *no_majority is set. Caller
 * frees both.
 */
char *cudaarch_arch_list_most(const struct cuda_summary *s, size_t *ptx_only, char **extra,
			      bool *no_majority);

/* The nvcc flags that produce these targets: "-gencode arch=compute_90,code=sm_90 ...". */
char *cudaarch_gencode(const struct cuda_summary *s);

/* What a GPU gets from a set of targets (a library's union). */
struct cuda_verdict {
	struct cuda_cc cc;
	enum cuda_how how;
	struct cuda_target sass;	/* the cubin used (how is SASS_*) */
	bool has_ptx;			/* a PTX path exists (used for PTX_JIT; an alternative otherwise) */
	struct cuda_target ptx;		/* the highest eligible PTX target */
	uint16_t isa_major, isa_minor;	/* its ISA */
	/*
	 * torch/cuda/__init__.py's start-up checks, applied to these targets:
	 * _check_capability warns when cc is outside min..max of the arch
	 * numbers, _check_cubins when no sm_ target has cc's major. Set only
	 * when the warning would be false (the GPU can run the code).
	 */
	bool torch_range_warning;
	bool torch_cubin_warning;
	uint32_t arch_min, arch_max;	/* of SASS and PTX targets; 0 when none */
	/* cudaarch_apply_driver: the driver's CUDA version (12040), and PTX JIT it refuses. */
	int driver_cuda;
	bool jit_blocked;	/* how became NONE: the PTX ISA is newer than the driver (error 222) */
};

void cudaarch_verdict(const struct cuda_summary *s, struct cuda_cc cc, struct cuda_verdict *v);

/*
 * With the driver's CUDA version known (driver_cuda 12040 = 12.4; 0 = not
 * known, nothing changes): a PTX JIT verdict whose ISA needs a newer driver
 * becomes "none" with jit_blocked (error 222).
 */
void cudaarch_apply_driver(struct cuda_verdict *v, int driver_cuda);

#endif
