/*
 * What the CUDA driver does when a library's registered fat binaries are
 * loaded on one GPU: which of them have code it can run, and for which it
 * must JIT-compile PTX first (no usable SASS), with how many bytes of PTX.
 * Computed from a scan alone, nothing is decompressed (sizes come from the
 * entry headers: docs/formats/cuda-fatbin.md §3).
 */
#ifndef PT_CUDAJIT_H
#define PT_CUDAJIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cudaarch.h"
#include "fatbin_scan.h"

/*
 * The driver's JIT cache: CUDA_CACHE_MAXSIZE's default on desktop and server
 * platforms (1 GiB; 256 MiB on embedded ones) and its maximum (4 GiB), from
 * the CUDA Programming Guide's "CUDA Environment Variables".
 */
#define CUDAJIT_CACHE_DEFAULT (1ULL << 30)
#define CUDAJIT_CACHE_MAX (4ULL << 30)
/*
 * PTX from which the first use is said to take minutes: a threshold, not a
 * measurement (no GPU here timed one); PyTorch users with a GPU newer than
 * their build's SASS report first launches of many minutes for a whole
 * libtorch_cuda's PTX (hundreds of MB).
 */
#define CUDAJIT_SLOW_BYTES (64ULL << 20)

struct cudajit {
	size_t registered;	/* registered fat binaries with SASS or PTX */
	size_t without;		/* of those, none the GPU can run (error 209 for their kernels) */
	size_t jit_fatbins;	/* of those with code it can run, the ones it runs only through PTX */
	uint64_t jit_bytes;	/* their PTX (the highest eligible target of each), uncompressed */
};

void cudajit_load(const struct cuda_scan *scan, struct cuda_cc cc, struct cudajit *out);

/*
 * The JIT cache as the driver will size it, from the values of
 * CUDA_CACHE_DISABLE and CUDA_CACHE_MAXSIZE (NULL: unset). *bytes is the
 * limit (0 when disabled); returns false when CUDA_CACHE_MAXSIZE is set but
 * not a byte count (the default is assumed then).
 */
bool cudajit_cache(const char *disable, const char *maxsize, uint64_t *bytes, bool *disabled);

#endif
