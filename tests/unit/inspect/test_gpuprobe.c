/*
 * gpuprobe: NVIDIA's /proc/driver/nvidia files as the 550 and 570 drivers
 * write them (version, gpus/<bus>/information), a machine without them, and
 * a libcuda that cannot be loaded. The driver → CUDA table is cudadriver's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuprobe.h"
#include "ptest.h"

static char dir[] = "/tmp/pt_gpuprobe_XXXXXX";

static void put(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sub(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return ptest_rmtree(dir);
}

/* Two GPUs, listed by bus; the proprietary driver's version line. */
static void proc_two_gpus(void **state)
{
	struct gpuprobe p = { 0 };

	(void)state;
	sub("nv");
	sub("nv/gpus");
	sub("nv/gpus/0000:c1:00.0");
	sub("nv/gpus/0000:01:00.0");
	put("nv/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 "
			  "01:44:30 UTC 2024\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
	put("nv/gpus/0000:01:00.0/information",
	    "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 156\nGPU UUID: \t GPU-6a1c\n"
	    "Video BIOS: \t 96.00.99.00.01\nBus Type: \t PCIe\nDMA Size: \t 52 bits\n"
	    "DMA Mask: \t 0xfffffffffffff\nBus Location: \t 0000:01:00.0\nDevice Minor: \t 0\n"
	    "GPU Excluded:\t No\n");
	put("nv/gpus/0000:c1:00.0/information",
	    "Model: \t\t NVIDIA Mystery 9000\nBus Location: \t 0000:c1:00.0\n");
	char d[512];
	snprintf(d, sizeof(d), "%s/nv", dir);
	gpuprobe_proc(&p, d);
	assert_true(p.proc);
	assert_null(p.proc_why);
	assert_string_equal(p.kernel_driver, "550.54.14");
	assert_int_equal(p.cuda_version, 12040);
	assert_string_equal(p.cuda_from, "driver version");
	assert_int_equal(p.n, 2);
	assert_string_equal(p.v[0].model, "NVIDIA H100 80GB HBM3");
	assert_string_equal(p.v[0].bus, "0000:01:00.0");
	assert_true(p.v[0].cc_known);
	assert_int_equal(p.v[0].cc.major, 9);
	assert_int_equal(p.v[0].cc.minor, 0);
	assert_string_equal(p.v[0].cc_from, "model name");
	assert_string_equal(p.v[1].model, "NVIDIA Mystery 9000");
	assert_false(p.v[1].cc_known);

	/* No libcuda: said, nothing else changes. */
	gpuprobe_libcuda(&p, "libpt-no-such-cuda.so.1");
	assert_false(p.libcuda);
	assert_non_null(strstr(p.libcuda_why, "libpt-no-such-cuda.so.1"));
	assert_int_equal(p.n, 2);
	assert_int_equal(p.cuda_version, 12040);
	gpuprobe_release(&p);
}

/* The open kernel module's line; a driver loaded without any GPU bound. */
static void proc_open_module_no_gpu(void **state)
{
	struct gpuprobe p = { 0 };
	char d[512];

	(void)state;
	sub("open");
	sub("open/gpus");
	put("open/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  "
			    "Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Jan 23 22:57:56 UTC 2025\n");
	snprintf(d, sizeof(d), "%s/open", dir);
	gpuprobe_proc(&p, d);
	assert_true(p.proc);
	assert_string_equal(p.kernel_driver, "570.86.15");
	assert_int_equal(p.cuda_version, 12080);
	assert_int_equal(p.n, 0);
	assert_non_null(strstr(p.proc_why, "no GPU in"));
	gpuprobe_release(&p);
}

/* This machine's case: no NVIDIA driver at all. */
static void proc_absent(void **state)
{
	struct gpuprobe p = { 0 };
	char d[512];

	(void)state;
	snprintf(d, sizeof(d), "%s/absent", dir);
	gpuprobe_proc(&p, d);
	assert_false(p.proc);
	assert_null(p.kernel_driver);
	assert_int_equal(p.cuda_version, 0);
	assert_int_equal(p.n, 0);
	assert_non_null(strstr(p.proc_why, "the NVIDIA kernel driver is not loaded"));
	gpuprobe_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(proc_two_gpus),
		cmocka_unit_test(proc_open_module_no_gpu),
		cmocka_unit_test(proc_absent),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
