/*
 * The facts people paste into PyTorch bug reports, under the names of
 * `python -m torch.utils.collect_env` (torch/utils/collect_env.py: its
 * SystemEnv fields and its labels), gathered without importing torch when
 * the import fails: OS, gcc/clang/cmake, glibc, Python, how torch was built,
 * the CUDA runtime torch loads (or would load), GPUs and driver, cuDNN, the
 * relevant pip/conda packages. No printing; report_doctor.c renders them.
 */
#ifndef PT_BUGREPORT_H
#define PT_BUGREPORT_H

#include <stddef.h>

#include "importdiag.h"
#include "pyenv.h"

/* collect_env's fields, in its env_info_fmt order. */
enum bugreport_field {
	BR_TORCH_VERSION,
	BR_IS_DEBUG_BUILD,
	BR_CUDA_COMPILED_VERSION,
	BR_HIP_COMPILED_VERSION,
	BR_OS,
	BR_GCC_VERSION,
	BR_CLANG_VERSION,
	BR_CMAKE_VERSION,
	BR_LIBC_VERSION,
	BR_PYTHON_VERSION,
	BR_PYTHON_PLATFORM,
	BR_IS_CUDA_AVAILABLE,
	BR_CUDA_RUNTIME_VERSION,
	BR_CUDA_MODULE_LOADING,
	BR_NVIDIA_GPU_MODELS,
	BR_NVIDIA_DRIVER_VERSION,
	BR_CUDNN_VERSION,
	BR_HIP_RUNTIME_VERSION,
	BR_MIOPEN_RUNTIME_VERSION,
	BR_IS_XNNPACK_AVAILABLE,
	BR_CPU_INFO,
	BR_N_FIELDS,
};

struct bugreport {
	char *v[BR_N_FIELDS];		/* the value as collect_env would print it */
	char **pip;			/* "[pip3] numpy==1.24.2" */
	size_t n_pip;
	size_t a_pip;
	char **conda;			/* "[conda] ..." */
	size_t n_conda;
	size_t a_conda;
};

/* collect_env's SystemEnv name ("torch_version") and label ("PyTorch version"). */
const char *bugreport_key(enum bugreport_field f);
const char *bugreport_label(enum bugreport_field f);

/* Gather everything. g (may be NULL) gives the libraries the import would load. */
void bugreport_collect(const struct pyenv_report *r, const struct importdiag *g, struct bugreport *b);
void bugreport_release(struct bugreport *b);

/*
 * Parsers of outside text (bytes and a length):
 * - bugreport_first_match: in the first line that holds prefix, the rest of
 *   that line after prefix (collect_env's run_and_parse_first_match with
 *   "prefix(.*)"). New string or NULL.
 * - bugreport_os_release: PRETTY_NAME of /etc/os-release (quotes removed).
 * - bugreport_cpu_model: "model name" of /proc/cpuinfo and the count of
 *   processors ("Intel(R) Xeon(R) ... (2 CPUs)").
 */
char *bugreport_first_match(const char *buf, size_t len, const char *prefix);
char *bugreport_os_release(const char *buf, size_t len);
char *bugreport_cpu_model(const char *buf, size_t len);

#endif
