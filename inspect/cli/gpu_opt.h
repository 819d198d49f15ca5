/*
 * `--gpu` for the CUDA report: a compute capability or GPU name that
 * exists (cudaarch's list), or `auto`: this machine's GPUs (gpuprobe).
 * Messages go to stderr here; the caller turns -1 into exit status 2.
 */
#ifndef PT_GPU_OPT_H
#define PT_GPU_OPT_H

#include <stdbool.h>
#include <stddef.h>

#include "cudaarch.h"
#include "gpuprobe.h"

struct pt_cli;

/* What --gpu=auto found; lives until gpu_auto_release. */
struct gpu_auto {
	bool used;		/* --gpu=auto was given */
	struct gpuprobe probe;
	size_t added;		/* GPUs with a capability, appended to the --gpu list */
};

/* One --gpu value into cc: 0, or -1 after a message naming the known capabilities near it. */
int gpu_opt_parse(const struct pt_cli *ctx, const char *arg, struct cuda_cc *cc);

/*
 * --gpu=auto: reads /proc/driver/nvidia, then dlopens libcuda.so.1; appends
 * every GPU whose capability is known to gpus/args (args point into a).
 * Says on stderr what it found when nothing could be added. Returns 0, or
 * -1 when the list is full or auto was given twice.
 */
int gpu_auto_add(const struct pt_cli *ctx, struct cuda_cc *gpus, const char **args, size_t *n,
		 size_t max, struct gpu_auto *a);

/* The driver's CUDA version as 12040, 0 when unknown or auto was not used. */
int gpu_auto_driver_cuda(const struct gpu_auto *a);

void gpu_auto_release(struct gpu_auto *a);

#endif
