/*
 * The small texts `ptinspect preflight` reads, bytes and a length in, structs
 * out: `nvcc --version` and `--dryrun`, a compiler's and a tool's `--version`, CUDA's
 * include/crt/host_config.h, a checkout's version.txt, .gitmodules and the
 * cmake_minimum_required and option() names of its CMakeLists.txt. No I/O.
 */
#ifndef PT_PFPARSE_H
#define PT_PFPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* A dotted version, up to three numbers ("3.25.1", "13.0"). */
struct pf_version {
	unsigned v[3];
	unsigned n;		/* numbers read: 0 when none */
};

/* <0, 0, >0 (missing numbers count as 0). */
int pf_version_cmp(const struct pf_version *a, const struct pf_version *b);

/*
 * `nvcc --version`: the "release M.m" of its "Cuda compilation tools,
 * release 13.0, V13.0.88" line. Returns 0 with *cuda (13000) and the
 * "V13.0.88" build in build (when there; "" otherwise), or -1 (no such line).
 */
int pf_nvcc_version(const void *buf, size_t len, int *cuda, char *build, size_t n);

/* A C/C++ compiler's `--version`: which family and which version. */
enum pf_cc_kind { PF_CC_UNKNOWN, PF_CC_GCC, PF_CC_CLANG };

struct pf_compiler {
	enum pf_cc_kind kind;
	struct pf_version ver;
};

/*
 * The first line: "g++ (Debian 12.2.0-14) 12.2.0" (GCC: the last word),
 * "Debian clang version 14.0.6", "clang version 19.1.7 (...)". Returns 0, or
 * -1 when no version is there (kind then PF_CC_UNKNOWN).
 */
int pf_compiler_version(const void *buf, size_t len, struct pf_compiler *c);

/* The first "N.N[.N]" on the first line ("cmake version 3.25.1", "1.11.1"): 0, or -1. */
int pf_tool_version(const void *buf, size_t len, struct pf_version *v);

/*
 * `nvcc --dryrun -c X.cu`: the commands nvcc would run, each on a "#$ " line.
 * The PATH nvcc runs them with (its last "#$ PATH=..." line: the
 * environment's PATH with nvcc.profile's additions, and a wrapper script's)
 * and the host compiler it calls (the first word of the first command with
 * "-E -x c++": "gcc", or the -ccbin given). New strings in *path and *host
 * (NULL when not there). Returns 0 when the host compiler was found, else -1.
 */
int pf_nvcc_dryrun(const void *buf, size_t len, char **path, char **host);

/*
 * CUDA's include/crt/host_config.h: the newest GCC ("#if __GNUC__ > 15"
 * before "unsupported GNU version!") and Clang ("__clang_major__ >= 21"
 * before "unsupported clang version!": 20) it accepts. Each -1 when not found.
 * Returns 0 when at least the GCC limit was found, else -1.
 */
int pf_host_config(const void *buf, size_t len, int *gcc_max, int *clang_max);

/*
 * version.txt: one line "2.6.0", "2.7.0a0", "2.10.0.dev20251201". Returns 0
 * with the numbers, -1 when the first line does not start with N.N.
 */
int pf_version_txt(const void *buf, size_t len, struct pf_version *v);

/*
 * cudnn_version.h (cuDNN 8 and later) or cudnn.h: "#define CUDNN_MAJOR 9",
 * _MINOR, _PATCHLEVEL, as torch's FindCUDNN.cmake reads them. Returns 0 with
 * at least the major, -1 when there is no CUDNN_MAJOR.
 */
int pf_cudnn_version(const void *buf, size_t len, struct pf_version *v);

/*
 * A library header's version macros, "#define MAJOR 2" and so on (nccl.h:
 * NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH; cusparseLt.h: CUSPARSELT_VER_MAJOR,
 * ...), as torch's Find modules read them. minor and patch may be NULL.
 * Returns 0 with at least the major, -1 when there is none.
 */
int pf_header_version(const void *buf, size_t len, const char *major, const char *minor, const char *patch,
		      struct pf_version *v);

/* One [submodule "name"] section of .gitmodules. */
struct pf_submodule {
	char *name, *path, *url;
	size_t line;		/* of its [submodule] header */
};

struct pf_gitmodules {
	struct pf_submodule *v;
	size_t n, alloc;
};

/*
 * .gitmodules (git-config syntax: sections, "key = value", '#'/';'
 * comments, quoted values). Sections without a path are warnings ("src: line
 * N: ..."). Returns 0, or -1 when a line is neither (an error in d).
 */
int pf_gitmodules_parse(const void *buf, size_t len, struct pf_gitmodules *g, const char *src,
			struct pt_diag *d);
void pf_gitmodules_release(struct pf_gitmodules *g);

/*
 * `git submodule status`: one line per submodule, "<state><commit> <path>[ (<describe>)]",
 * state ' ' (at the recorded commit), '-' (not initialised), '+' (another commit
 * checked out), 'U' (merge conflicts). Lines that are not so are skipped.
 */
struct pf_substate {
	char state;
	char *path;
};

struct pf_substatus {
	struct pf_substate *v;
	size_t n, alloc;
};

void pf_submodule_status(const void *buf, size_t len, struct pf_substatus *s);
void pf_substatus_release(struct pf_substatus *s);

/* CMakeLists.txt: cmake_minimum_required(VERSION x.y...) : 0, or -1 when absent. */
int pf_cmake_min(const void *buf, size_t len, struct pf_version *v);

/*
 * CMakeLists.txt: the names of its option(NAME ...) and
 * cmake_dependent_option(NAME ...) calls, new strings in *names (*n of them).
 */
void pf_cmake_options(const void *buf, size_t len, char ***names, size_t *n);
void pf_names_release(char **names, size_t n);

#endif
