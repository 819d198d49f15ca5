/*
 * The GPUs of this machine, for `--gpu=auto`: NVIDIA's kernel driver files
 * (/proc/driver/nvidia/version and gpus/<bus>/information: model names, the
 * driver version) and, only when asked, the CUDA driver library loaded with
 * dlopen (libcuda.so.1: exact compute capabilities and the CUDA version the
 * driver supports). This file is the only one that sees libcuda. No
 * printing; what could not be read is said in the struct.
 */
#ifndef PT_GPUPROBE_H
#define PT_GPUPROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "cudaarch.h"

struct gpuprobe_gpu {
	char *model;		/* "NVIDIA H100 80GB HBM3" */
	char *bus;		/* "0000:01:00.0", or NULL */
	struct cuda_cc cc;
	bool cc_known;		/* false: a model name not in cudaarch's table, no libcuda */
	const char *cc_from;	/* "libcuda" or "model name" */
};

struct gpuprobe {
	struct gpuprobe_gpu *v;
	size_t n, alloc;
	char *kernel_driver;	/* "550.54.14" from /proc/driver/nvidia/version, or NULL */
	int cuda_version;	/* cuDriverGetVersion's 12040, or from the driver version
				   (cudadriver's table: 550.54.14 -> 12040); 0 unknown */
	const char *cuda_from;	/* "libcuda" or "driver version" */
	bool proc;		/* /proc/driver/nvidia exists */
	char *proc_why;		/* what the /proc files did not give ("no /proc/driver/nvidia") */
	bool libcuda;		/* libcuda.so.1 answered */
	char *libcuda_why;	/* why not ("libcuda.so.1: cannot open shared object file ...") */
};

/*
 * Reads DIR/version and DIR/gpus/ * /information (DIR is normally
 * /proc/driver/nvidia). Missing files are not an error: they are said in
 * p->proc_why. A GPU whose model names no known capability has cc_known false.
 */
void gpuprobe_proc(struct gpuprobe *p, const char *dir);

/*
 * dlopen(soname) (normally "libcuda.so.1"), cuInit, and per device its name,
 * compute capability and PCI bus id; the CUDA version of the driver. The
 * devices replace those read from /proc (matched by bus id, model kept from
 * libcuda). Failure is said in p->libcuda_why; nothing else changes.
 */
void gpuprobe_libcuda(struct gpuprobe *p, const char *soname);

void gpuprobe_release(struct gpuprobe *p);

#endif
