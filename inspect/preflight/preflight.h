/*
 * `ptinspect preflight`: will this machine build the torch asked for? The
 * checks read the environment the way setup.py and torch's CMake will, the
 * checkout, an existing build/CMakeCache.txt, the nvcc and host compiler the
 * build would find (their `--version` only), Python, cmake, ninja, RAM and
 * disk, and give a checklist of items, each ok, warn or FAIL with evidence
 * and a fix. Nothing is printed (report_preflight.c renders) and nothing
 * heavy runs: no CMake, no compile.
 */
#ifndef PT_PREFLIGHT_H
#define PT_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "pfparse.h"

enum pf_status { PF_OK, PF_WARN, PF_FAIL };

/* "ok", "warn", "FAIL". */
const char *pf_status_name(enum pf_status s);

struct pf_item {
	enum pf_status status;
	const char *check;	/* "checkout", "cache", "env", "nvcc", "arch", "host compiler", ... */
	char *evidence;		/* what was found */
	char *fix;		/* what to do; NULL when nothing */
};

/* One TORCH_CUDA_ARCH_LIST architecture as checked against nvcc. */
struct pf_arch_check {
	char *entry;		/* the list's entry it came from ("Ampere", "8.6+PTX") */
	unsigned arch;		/* 86 */
	char variant;		/* 0, 'a', 'f' */
	int accepted;		/* 1, 0, -1: an arch no table knows */
};

struct preflight {
	char *source_dir;
	bool is_checkout;
	struct pf_version torch;	/* version.txt; n 0 when unknown */
	char *nvcc;			/* the nvcc the build finds, NULL: none */
	const char *nvcc_from;		/* "CUDA_HOME", "PATH", ... */
	int cuda;			/* its version (13000), 0 when unknown */
	char cuda_build[32];		/* "V13.0.88" */
	char *arch_list;		/* the list checked (TORCH_CUDA_ARCH_LIST or torch's default) */
	bool arch_list_default;		/* torch's common list: unset and no GPU here */
	uint64_t device_bytes;		/* libtorch_cuda's device code the list implies (estimate), 0: none */
	struct pf_arch_check *archs;
	size_t n_archs, a_archs;
	char *cxx;			/* the C++ compiler CMake takes (CXX, c++ on PATH) */
	char *host_cxx;			/* nvcc's host compiler (CUDAHOSTCXX, CXX if Clang, nvcc's default) */
	bool host_ccbin;		/* CMake passes it to nvcc with -ccbin (else nvcc's own default) */
	bool host_refused;		/* predicted: nvcc refuses it (and no -allow-unsupported-compiler) */
	struct pf_compiler host;
	int gcc_max, clang_max;		/* what this CUDA accepts, -1 unknown */
	char *host_limits_from;		/* host_config.h path, or "table" */
	struct pf_version cmake_min_pyproject;	/* pyproject.toml's cmake>=X; n 0 when none */
	uint64_t ram_bytes, disk_free;
	long jobs;			/* MAX_JOBS or ninja's default */
	struct pf_item *items;
	size_t n, alloc;
};

struct preflight_opts {
	const char *source_dir;		/* NULL: the current directory */
	char *const *envp;		/* the environment setup.py would get */
	bool try_nvcc;			/* compile a one-line kernel per arch with the real nvcc */
};

/*
 * Run every check. Returns 0, or -1 when source_dir was given and is not a
 * directory (an error in d). Problems in files read are in d too (warnings),
 * besides the items they lead to.
 */
int preflight_run(const struct preflight_opts *o, struct preflight *p, struct pt_diag *d);
void preflight_release(struct preflight *p);

/* Items with that status. */
size_t preflight_count(const struct preflight *p, enum pf_status s);

/*
 * The checks of the environment's variables alone (the "env" items): known
 * variables' values, values torch misreads, misspelt USE_/BUILD_ names.
 * options: the checkout's option names (NULL: pf_torch_options).
 */
void preflight_check_env(struct preflight *p, char *const *envp, char *const *options, size_t n_options);

/*
 * TORCH_CUDA_ARCH_LIST (list; NULL or "": torch's default) against nvcc of
 * version cuda: the "arch" items and p->archs. only_a: the checkout's
 * select_compute_arch.cmake takes no 'f' suffix (torch 2.6). gpu_here: a GPU
 * that torch's CMake would detect.
 */
void preflight_check_arch(struct preflight *p, const char *list, int cuda, bool only_a, bool gpu_here);

#endif
