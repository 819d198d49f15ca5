/*
 * preflight's facts and the checks that need nothing of the machine: the nvcc
 * arch table (CUDA 12.4, 12.8, 12.9, 13.0), host compiler limits, torch's
 * flags, misspellings, the arch list (spaces, names, +PTX, (M.m), 'a'/'f',
 * unknown names and capabilities, torch's default list without a GPU).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pffacts.h"
#include "preflight.h"

static void arch_table(void **state)
{
	unsigned lo, hi;
	(void)state;

	/* CUDA 13.0 (its nvcc --list-gpu-arch: compute_75 .. compute_121, 88 and 110 new). */
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(13, 0), 70, 0), 0);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(13, 0), 72, 0), 0);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(13, 0), 75, 0), 1);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(13, 0), 88, 0), 1);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(13, 0), 101, 0), 0);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(13, 0), 110, 'f'), 1);
	pf_nvcc_range(PF_CUDA(13, 0), &lo, &hi);
	assert_int_equal(lo, 75);
	assert_int_equal(hi, 121);
	/* 12.4: sm_50 (deprecated) .. sm_90; 9.0a since 12.0; nothing of Blackwell. */
	pf_nvcc_range(PF_CUDA(12, 4), &lo, &hi);
	assert_int_equal(lo, 50);
	assert_int_equal(hi, 90);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 4), 90, 'a'), 1);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(11, 8), 90, 'a'), 0);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 4), 120, 0), 0);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 4), 35, 0), 0);
	/* 12.8 adds sm_100/101/120 and 'a'; 'f' only from 12.9. */
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 8), 120, 0), 1);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 8), 120, 'a'), 1);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 8), 100, 'f'), 0);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 9), 100, 'f'), 1);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 9), 86, 'a'), 0);
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(12, 9), 86, 'x'), 0);
	/* Not in the table. */
	assert_int_equal(pf_nvcc_accepts(PF_CUDA(13, 0), 99, 0), -1);
}

static void host_limits(void **state)
{
	(void)state;
	assert_null(pf_host_max_for(PF_CUDA(10, 2)));
	assert_int_equal(pf_host_max_for(PF_CUDA(12, 4))->gcc_max, 13);
	assert_int_equal(pf_host_max_for(PF_CUDA(12, 5))->gcc_max, 13);
	assert_int_equal(pf_host_max_for(PF_CUDA(13, 0))->gcc_max, 15);
	assert_int_equal(pf_host_max_for(PF_CUDA(13, 1))->clang_max, 20);
}

static void flags_and_names(void **state)
{
	char buf[128];
	unsigned a[2];
	(void)state;

	assert_int_equal(pf_torch_bool("yes"), 1);
	assert_int_equal(pf_torch_bool("On"), 1);
	assert_int_equal(pf_torch_bool("y"), 1);
	assert_int_equal(pf_torch_bool("n"), 0);
	assert_int_equal(pf_torch_bool("False"), 0);
	assert_int_equal(pf_torch_bool("enable"), -1);
	assert_int_equal(pf_torch_bool("2"), -1);
	assert_int_equal(pf_torch_bool(""), -1);
	assert_int_equal(pf_edit_distance("USE_CUDDN", "USE_CUDNN", 2), 1);
	assert_int_equal(pf_edit_distance("USE_CUDA", "USE_CUDA", 2), 0);
	assert_int_equal(pf_edit_distance("USE_KINETO", "USE_CUDA", 2), 3);
	assert_int_equal(pf_arch_name("Ampere", 6, a, 2), 2);
	assert_int_equal(a[0], 80);
	assert_int_equal(a[1], 86);
	assert_int_equal(pf_arch_name("Hopper", 6, a, 2), 1);
	assert_int_equal(pf_arch_name("ampere", 6, a, 2), 0);
	assert_string_equal(pf_common_archs(PF_CUDA(13, 0), buf, sizeof(buf)), "5.0;8.0;8.6;8.9;9.0;9.0a;10.0");
	assert_string_equal(pf_common_archs(PF_CUDA(12, 4), buf, sizeof(buf)), "5.0;8.0;8.6;8.9;9.0;9.0a");
	assert_string_equal(pf_common_archs(PF_CUDA(11, 8), buf, sizeof(buf)), "3.5;5.0;8.0;8.6;8.9;9.0;8.9+PTX;9.0+PTX");
}

static size_t count(const struct preflight *p, enum pf_status s, const char *needle)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->items[i].status == s && strstr(p->items[i].evidence, needle) != NULL;
	return n;
}

static void env_checks(void **state)
{
	char *env[] = { "USE_CUDA=enable", "USE_CUDDN=1", "MAX_JOBS=0", "DEBUG=1", "REL_WITH_DEB_INFO=ON",
			"_GLIBCXX_USE_CXX11_ABI=2", "USE_KINETO=0", "USE_NOT_AN_OPTION_AT_ALL=1", "HOME=/root",
			"CUDA_HOME=/nonexistent/cuda", NULL };
	char *none[] = { "HOME=/root", NULL };
	char *opts[] = { "USE_MY_OWN" };
	char *mine[] = { "USE_MY_OWM=1", NULL };
	struct preflight p = { 0 };
	(void)state;

	preflight_check_env(&p, env, NULL, 0);
	assert_int_equal(count(&p, PF_WARN, "USE_CUDA=enable is not a flag torch reads"), 1);
	assert_int_equal(count(&p, PF_WARN, "USE_CUDDN is no variable torch reads: did you mean USE_CUDNN?"), 1);
	assert_int_equal(count(&p, PF_FAIL, "MAX_JOBS=0 is not a positive number"), 1);
	assert_int_equal(count(&p, PF_WARN, "DEBUG and REL_WITH_DEB_INFO are both on"), 1);
	assert_int_equal(count(&p, PF_FAIL, "_GLIBCXX_USE_CXX11_ABI=2"), 1);
	assert_int_equal(count(&p, PF_OK, "USE_KINETO=0: passed to CMake as -DUSE_KINETO=0"), 1);
	assert_int_equal(count(&p, PF_FAIL, "CUDA_HOME=/nonexistent/cuda: no such directory"), 1);
	assert_int_equal(count(&p, PF_OK, "DEBUG=1 (on)"), 1);
	/* Far from every name: no guess. */
	assert_int_equal(count(&p, PF_WARN, "USE_NOT_AN_OPTION"), 0);
	preflight_release(&p);
	preflight_check_env(&p, none, NULL, 0);
	assert_int_equal(p.n, 1);
	assert_int_equal(count(&p, PF_OK, "none of the variables setup.py reads is set"), 1);
	preflight_release(&p);
	/* The checkout's own option names count. */
	preflight_check_env(&p, mine, opts, 1);
	assert_int_equal(count(&p, PF_WARN, "did you mean USE_MY_OWN?"), 1);
	preflight_release(&p);
}

static int accepted(const struct preflight *p, const char *entry, unsigned arch)
{
	for (size_t i = 0; i < p->n_archs; i++)
		if (!strcmp(p->archs[i].entry, entry) && p->archs[i].arch == arch)
			return p->archs[i].accepted;
	return -9;
}

static void arch_list(void **state)
{
	struct preflight p = { 0 };
	(void)state;

	/* Spaces and ';' alike; names; +PTX; (M.m); 'a'. */
	preflight_check_arch(&p, "7.0 8.6+PTX;Ampere  9.0a;8.6(8.0)", PF_CUDA(13, 0), true, false);
	assert_int_equal(accepted(&p, "7.0", 70), 0);
	assert_int_equal(accepted(&p, "8.6+PTX", 86), 1);
	assert_int_equal(accepted(&p, "Ampere", 80), 1);
	assert_int_equal(accepted(&p, "Ampere", 86), 1);
	assert_int_equal(accepted(&p, "9.0a", 90), 1);
	assert_int_equal(accepted(&p, "8.6(8.0)", 80), 1);
	assert_int_equal(count(&p, PF_FAIL, "7.0: nvcc 13.0 rejects sm_70 (CUDA 13.0 dropped it"), 1);
	assert_int_equal(count(&p, PF_OK, "spaces are fine"), 1);
	assert_false(p.arch_list_default);
	preflight_release(&p);
	/* Unknown names, capabilities no GPU has, 'f' where torch 2.6 takes only 'a'. */
	preflight_check_arch(&p, "Amper;9.9;10.0f;compute_86", PF_CUDA(13, 0), true, false);
	assert_int_equal(count(&p, PF_FAIL, "'Amper' is neither"), 1);
	assert_int_equal(count(&p, PF_FAIL, "9.9: no GPU has compute capability 9.9"), 1);
	assert_int_equal(count(&p, PF_FAIL, "10.0f: this checkout's select_compute_arch.cmake takes only an 'a'"), 1);
	assert_int_equal(count(&p, PF_FAIL, "'compute_86' is neither"), 1);
	preflight_release(&p);
	/* Too new for 12.4; 'f' fine outside a torch 2.6 checkout with 12.9. */
	preflight_check_arch(&p, "12.0;9.0", PF_CUDA(12, 4), true, false);
	assert_int_equal(count(&p, PF_FAIL, "12.0: nvcc 12.4 rejects sm_120 (it needs CUDA 12.8"), 1);
	preflight_release(&p);
	preflight_check_arch(&p, "10.0f", PF_CUDA(12, 9), false, false);
	assert_int_equal(accepted(&p, "10.0f", 100), 1);
	preflight_release(&p);
	/* Unset: a GPU here is detected; without one torch 2.6's common list, 5.0 first. */
	preflight_check_arch(&p, NULL, PF_CUDA(13, 0), true, true);
	assert_int_equal(p.n_archs, 0);
	assert_int_equal(count(&p, PF_OK, "torch builds for the GPUs it detects here"), 1);
	preflight_release(&p);
	preflight_check_arch(&p, "", PF_CUDA(13, 0), true, false);
	assert_true(p.arch_list_default);
	assert_string_equal(p.arch_list, "5.0;8.0;8.6;8.9;9.0;9.0a;10.0");
	assert_int_equal(count(&p, PF_FAIL, "5.0: nvcc 13.0 rejects sm_50"), 1);
	preflight_release(&p);
	preflight_check_arch(&p, "", PF_CUDA(12, 4), true, false);
	assert_int_equal(preflight_count(&p, PF_FAIL), 0);
	preflight_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arch_table), cmocka_unit_test(host_limits), cmocka_unit_test(flags_and_names),
		cmocka_unit_test(env_checks), cmocka_unit_test(arch_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
