/*
 * Can the NVIDIA driver run this CUDA runtime? The driver's version comes
 * from the file libcuda.so.1 resolves to (libcuda.so.550.54.15, as NVIDIA's
 * installers name it) or /proc/driver/nvidia/version; the runtime's from the
 * libcudart file name (libcudart.so.12.4.127). The minimum drivers are
 * NVIDIA's table ("CUDA Toolkit and Corresponding Driver Versions", CUDA
 * release notes): a runtime needs at least its major's first driver (minor
 * version compatibility), and the full table entry for everything (PTX
 * JIT of its own ISA, new APIs). Nothing is run or loaded.
 */
#ifndef PT_CUDADRIVER_H
#define PT_CUDADRIVER_H

#include <stddef.h>

/* "550.54.15" -> 550, 54, 15 (missing parts -1). Returns 0, or -1 when not a version. */
int cudadriver_parse_version(const char *s, int *maj, int *min, int *patch);

/* The driver version in a libcuda file name ("libcuda.so.550.54.15"), into out; -1 if none. */
int cudadriver_from_libcuda(const char *path, char *out, size_t n);

/* The driver version from /proc/driver/nvidia/version's text ("Kernel Module  550.54.15"). */
int cudadriver_from_proc(const char *text, size_t len, char *out, size_t n);

/* The runtime version in a libcudart file name: 12, 4 ("libcudart.so.12" gives 12, -1). */
int cudadriver_runtime_from_path(const char *path, int *maj, int *min);

/*
 * The newest CUDA version a driver supports (12.4 for 550.54.15), or -1
 * when older than every table entry. *minor_out gets the minor.
 */
int cudadriver_cuda_for_driver(const char *driver, int *minor_out);

/* The minimum driver ("525.60.13") for CUDA maj.min, exact (full) or for the major (compat). */
const char *cudadriver_min_driver(int maj, int min, int compat);

enum cudadriver_verdict {
	CUDADRIVER_OK,
	CUDADRIVER_TOO_OLD,	/* older than the runtime's major needs: nothing CUDA works */
	CUDADRIVER_MINOR_COMPAT,	/* the major's minimum is met, the full one not: PTX JIT fails */
	CUDADRIVER_UNKNOWN,
};

/* Compare; a one-line explanation into why. */
enum cudadriver_verdict cudadriver_check(const char *driver, int rt_maj, int rt_min, char *why,
					 size_t n);

#endif
