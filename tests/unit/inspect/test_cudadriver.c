/* cudadriver: NVIDIA's driver table, versions from file names and /proc, the verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "cudadriver.h"

static void names(void **state)
{
	char v[64];
	int a, b;

	(void)state;
	assert_int_equal(cudadriver_from_libcuda("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", v, sizeof(v)), 0);
	assert_string_equal(v, "550.54.15");
	assert_int_equal(cudadriver_from_libcuda("/usr/lib/libcuda.so.1", v, sizeof(v)), -1);
	assert_int_equal(cudadriver_from_libcuda("/x/libcudart.so.12", v, sizeof(v)), -1);
	assert_int_equal(cudadriver_runtime_from_path("/x/libcudart.so.12.4.127", &a, &b), 0);
	assert_int_equal(a, 12);
	assert_int_equal(b, 4);
	assert_int_equal(cudadriver_runtime_from_path("libcudart.so.13", &a, &b), 0);
	assert_int_equal(a, 13);
	assert_int_equal(b, -1);
	assert_int_equal(cudadriver_runtime_from_path("libcuda.so.1", &a, &b), -1);
}

static void proc(void **state)
{
	static const char t1[] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"
				 "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
	static const char t2[] = "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build\n";
	char v[64];

	(void)state;
	assert_int_equal(cudadriver_from_proc(t1, sizeof(t1) - 1, v, sizeof(v)), 0);
	assert_string_equal(v, "550.54.15");
	assert_int_equal(cudadriver_from_proc(t2, sizeof(t2) - 1, v, sizeof(v)), 0);
	assert_string_equal(v, "580.65.06");
	assert_int_equal(cudadriver_from_proc("garbage", 7, v, sizeof(v)), -1);
	for (size_t cut = 0; cut < sizeof(t1) - 1; cut++)
		cudadriver_from_proc(t1, cut, v, sizeof(v));
}

static void table(void **state)
{
	int min;

	(void)state;
	assert_int_equal(cudadriver_cuda_for_driver("550.54.15", &min), 12);
	assert_int_equal(min, 4);
	assert_int_equal(cudadriver_cuda_for_driver("450.80.02", &min), 11);
	assert_int_equal(min, 0);
	assert_int_equal(cudadriver_cuda_for_driver("390.1", &min), -1);
	assert_string_equal(cudadriver_min_driver(12, 4, 1), "525.60.13");
	assert_string_equal(cudadriver_min_driver(12, 4, 0), "550.54.14");
	assert_string_equal(cudadriver_min_driver(12, 7, 0), "570.26");
}

static void verdicts(void **state)
{
	char why[512];

	(void)state;
	assert_int_equal(cudadriver_check("450.80.02", 12, 4, why, sizeof(why)), CUDADRIVER_TOO_OLD);
	assert_string_equal(why, "the CUDA runtime (12.4) is newer than the NVIDIA driver 450.80.02 (CUDA 11.0): "
				 "CUDA 12 needs driver >= 525.60.13; update the driver, or use a torch built for CUDA 11.0");
	assert_int_equal(cudadriver_check("535.104.05", 12, 4, why, sizeof(why)), CUDADRIVER_MINOR_COMPAT);
	assert_int_equal(cudadriver_check("550.54.15", 12, 4, why, sizeof(why)), CUDADRIVER_OK);
	assert_int_equal(cudadriver_check("575.51.03", 13, 0, why, sizeof(why)), CUDADRIVER_TOO_OLD);
	assert_int_equal(cudadriver_check("550.54.15", 9, 0, why, sizeof(why)), CUDADRIVER_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(proc),
		cmocka_unit_test(table),
		cmocka_unit_test(verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
