/* bugreport: the outside text collect_env's facts come from (tool banners, os-release, cpuinfo). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "bugreport.h"

static void first_match(void **state)
{
	static const char gcc[] = "gcc (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n";
	static const char nvcc[] = "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2024 NVIDIA Corporation\n"
				   "Built on Thu_Mar_28_02:18:24_PDT_2024\nCuda compilation tools, release 12.4, V12.4.131\n";
	char *s;

	(void)state;
	s = bugreport_first_match(gcc, sizeof(gcc) - 1, "gcc ");
	assert_string_equal(s, "(Debian 12.2.0-14+deb12u1) 12.2.0");
	free(s);
	s = bugreport_first_match(nvcc, sizeof(nvcc) - 1, ", V");
	assert_string_equal(s, "12.4.131");
	free(s);
	assert_null(bugreport_first_match(gcc, sizeof(gcc) - 1, "clang version "));
	for (size_t cut = 0; cut < sizeof(nvcc) - 1; cut++)
		free(bugreport_first_match(nvcc, cut, ", V"));
}

static void os_release(void **state)
{
	static const char t[] = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n";
	char *s;

	(void)state;
	s = bugreport_os_release(t, sizeof(t) - 1);
	assert_string_equal(s, "Debian GNU/Linux 12 (bookworm)");
	free(s);
	s = bugreport_os_release("PRETTY_NAME=Plain\n", 18);
	assert_string_equal(s, "Plain");
	free(s);
	/* An unbalanced quote is kept as is. */
	s = bugreport_os_release("PRETTY_NAME=\"x\n", 15);
	assert_string_equal(s, "\"x");
	free(s);
	assert_null(bugreport_os_release("ID=debian\n", 10));
	for (size_t cut = 0; cut < sizeof(t) - 1; cut++)
		free(bugreport_os_release(t, cut));
}

static void cpuinfo(void **state)
{
	static const char t[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n\n"
				"processor\t: 1\nmodel name\t: AMD EPYC 7B13\n";
	char *s;

	(void)state;
	s = bugreport_cpu_model(t, sizeof(t) - 1);
	assert_string_equal(s, "AMD EPYC 7B13 (2 CPUs)");
	free(s);
	assert_null(bugreport_cpu_model("processor : 0\n", 14));
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(bugreport_key(BR_TORCH_VERSION), "torch_version");
	assert_string_equal(bugreport_label(BR_TORCH_VERSION), "PyTorch version");
	assert_string_equal(bugreport_label(BR_CUDA_MODULE_LOADING), "CUDA_MODULE_LOADING set to");
	for (int i = 0; i < BR_N_FIELDS; i++)
		assert_true(strlen(bugreport_key(i)) > 1 && strcmp(bugreport_key(i), "?"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_match),
		cmocka_unit_test(os_release),
		cmocka_unit_test(cpuinfo),
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
