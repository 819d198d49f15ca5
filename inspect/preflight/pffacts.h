/*
 * The facts `ptinspect preflight` predicts with, as data (pffacts.c names the
 * source of each table): which GPU code targets each nvcc release accepts,
 * the newest GCC and Clang each CUDA release takes as host compiler, torch's
 * spellings of true and false, the environment setup.py reads, the
 * TORCH_CUDA_ARCH_LIST names and entries torch's CMake understands, and the
 * list it builds for when none is given. Pure functions: no I/O.
 */
#ifndef PT_PFFACTS_H
#define PT_PFFACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A CUDA version as CUDA_VERSION spells it: 12040 is 12.4, 13000 is 13.0. */
#define PF_CUDA(major, minor) ((major) * 1000 + (minor) * 10)

/* One SM architecture and the nvcc releases that compile for it. */
struct pf_sm {
	unsigned arch;		/* 90 for sm_90 / compute_90 */
	int since;		/* first CUDA version that accepts it */
	int removed;		/* first that no longer does; 0: still accepted */
	int since_a;		/* first that accepts the 'a' variant; 0: none */
	int since_f;		/* first that accepts the 'f' variant; 0: none */
};

/* The table, ascending by arch. */
size_t pf_sm_table(const struct pf_sm **v);

/*
 * Whether nvcc of version cuda accepts sm_<arch><variant> (variant 0, 'a',
 * 'f'); compute_ targets follow the same table. 1 yes, 0 no, -1 an arch the
 * table does not know.
 */
int pf_nvcc_accepts(int cuda, unsigned arch, char variant);

/* The lowest and highest plain arch nvcc of version cuda accepts (0 when none). */
void pf_nvcc_range(int cuda, unsigned *lo, unsigned *hi);

/* Newest host compilers of a CUDA release, when its host_config.h cannot be read. */
struct pf_host_max {
	int cuda;		/* from this CUDA version on (until the next row) */
	int gcc_max;		/* newest GCC major accepted */
	int clang_max;		/* newest Clang major accepted */
};

/* The row for cuda (the last one at or below it), or NULL below the table. */
const struct pf_host_max *pf_host_max_for(int cuda);

/*
 * torch's reading of a flag (tools/setup_helpers/env.py): 1 for ON/1/YES/TRUE/Y,
 * 0 for OFF/0/NO/FALSE/N (any case), -1 for anything else.
 */
int pf_torch_bool(const char *v);

/* How a variable setup.py reads is checked. */
enum pf_env_kind {
	PF_ENV_BOOL,		/* a flag */
	PF_ENV_JOBS,		/* a positive count */
	PF_ENV_DIR,		/* a directory */
	PF_ENV_DIRLIST,		/* directories separated by ':' or ';' */
	PF_ENV_PROG,		/* a program: a path or a name on PATH */
	PF_ENV_ARCHLIST,	/* TORCH_CUDA_ARCH_LIST */
	PF_ENV_ABI,		/* 0 or 1 */
	PF_ENV_STRING,		/* used as it is */
};

struct pf_env_var {
	const char *name;
	enum pf_env_kind kind;
	const char *meaning;	/* what setting it does */
};

/* The variables preflight explains, NULL-terminated. */
extern const struct pf_env_var pf_env_vars[];
const struct pf_env_var *pf_env_var_find(const char *name);

/* USE_* / BUILD_* options of torch 2.6 (used when the checkout's CMakeLists.txt is not read). */
extern const char *const pf_torch_options[];

/*
 * Damerau (optimal string alignment) distance between a and b, up to cap:
 * returns cap + 1 when larger. USE_CUDDN to USE_CUDNN is 1.
 */
size_t pf_edit_distance(const char *a, const char *b, size_t cap);

/* One entry of TORCH_CUDA_ARCH_LIST as torch's CMake reads it. */
struct pf_arch {
	unsigned arch;		/* 86 for 8.6 */
	char variant;		/* 0, 'a', 'f' */
	bool ptx;		/* +PTX */
};

/*
 * The architectures a named entry stands for in select_compute_arch.cmake
 * (torch 2.6: "Ampere" is 8.0 and 8.6), up to max into out. Returns the count,
 * 0 for a name torch does not know. The name without "+PTX".
 */
size_t pf_arch_name(const char *name, size_t n, unsigned *out, size_t max);

/*
 * The list torch 2.6 builds for when TORCH_CUDA_ARCH_LIST is unset and no GPU
 * is detected (select_compute_arch.cmake's CUDA_COMMON_GPU_ARCHITECTURES for
 * this CUDA version), as "5.0;8.0;..." in buf. Returns buf.
 */
const char *pf_common_archs(int cuda, char *buf, size_t n);

/*
 * Device code in libtorch_cuda per architecture, as stored (lz4-compressed
 * fat binaries), for an estimate of the library's size: measured with
 * `ptinspect cuda --json` on Debian's libtorch_cuda.so.2.6.0
 * (python3-torch-cuda 2.6.0, trixie contrib; nvcc 12.4, arch list
 * 5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX): 1.11 GB in 341 fat binaries, sm_50 114
 * MiB, sm_60 115, sm_70 86, sm_75 82, sm_80 118, sm_86 116, sm_90 121,
 * compute_90 PTX 307. Archs after 9.0 take 9.0's figure. Bytes.
 */
uint64_t pf_device_bytes_sass(unsigned arch);
#define PF_DEVICE_BYTES_PTX (307ull << 20)

#endif
