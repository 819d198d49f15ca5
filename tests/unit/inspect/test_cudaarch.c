/*
 * cudaarch: the compatibility rules of docs/formats/cuda-fatbin.md §11 (the
 * ptxas 13.0 matrix row by row), GPU names, the PTX ISA → driver table, and
 * the TORCH_CUDA_ARCH_LIST / -gencode spellings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudaarch.h"
#include "xalloc.h"

static struct cuda_cc cc(const char *s)
{
	struct cuda_cc c = { 0, 0 };

	assert_int_equal(cudaarch_parse_gpu(s, &c), 0);
	return c;
}

static void parse_gpu_spellings(void **state)
{
	static const struct {
		const char *in;
		int major, minor;	/* 0: rejected */
	} rows[] = {
		{ "8.6", 8, 6 }, { "sm_86", 8, 6 }, { "sm86", 8, 6 }, { "86", 8, 6 },
		{ "compute_90", 9, 0 }, { "sm_90a", 9, 0 }, { "120", 12, 0 }, { "12.1", 12, 1 },
		{ "rtx5090", 12, 0 }, { "RTX 5090", 12, 0 }, { "GeForce RTX 4090", 8, 9 },
		{ "h100", 9, 0 }, { "H200", 9, 0 }, { "a100", 8, 0 }, { "t4", 7, 5 },
		{ "gb10", 12, 1 }, { "NVIDIA GB200", 10, 0 }, { "thor", 11, 0 }, { "v100", 7, 0 },
		{ "", 0, 0 }, { "8", 0, 0 }, { "8.", 0, 0 }, { ".6", 0, 0 }, { "8.10", 0, 0 },
		{ "1234", 0, 0 }, { "sm_8.6", 0, 0 }, { "rtx9999", 0, 0 }, { "tesla", 0, 0 },
		{ "6.1", 6, 1 }, { "gtx1080", 6, 1 }, { "GeForce GTX 1080 Ti", 6, 1 },
		{ "p100", 6, 0 }, { "k80", 3, 7 }, { "8.8", 8, 8 }, { "sm_88", 8, 8 },
		{ "10.1", 10, 1 }, { "sm_103", 10, 3 }, { "compute_121f", 12, 1 },
		{ "Jetson Xavier", 7, 2 }, { "1.0", 1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		struct cuda_cc c;
		int r = cudaarch_parse_gpu(rows[i].in, &c);

		if (!rows[i].major) {
			assert_int_equal(r, -1);
			continue;
		}
		assert_int_equal(r, 0);
		assert_int_equal(c.major, rows[i].major);
		assert_int_equal(c.minor, rows[i].minor);
	}
}

/* Numbers no GPU has: -2, with the capability they spell (sm_999 and 9.9 were once accepted). */
static void parse_gpu_nonexistent(void **state)
{
	static const struct {
		const char *in;
		int major, minor;
	} rows[] = {
		{ "sm_999", 99, 9 }, { "9.9", 9, 9 }, { "99", 9, 9 }, { "13.0", 13, 0 },
		{ "0.5", 0, 5 }, { "06", 0, 6 }, { "8.5", 8, 5 }, { "compute_95", 9, 5 },
		{ "4.0", 4, 0 }, { "11.1", 11, 1 }, { "12.2", 12, 2 }, { "sm_91a", 9, 1 },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		struct cuda_cc c = { -1, -1 };

		assert_int_equal(cudaarch_parse_gpu(rows[i].in, &c), -2);
		assert_int_equal(c.major, rows[i].major);
		assert_int_equal(c.minor, rows[i].minor);
		assert_null(cudaarch_cc_info(c));
	}
}

/* The one list: ascending, no duplicates, every entry parses, and today's GPUs in it. */
static void known_capabilities(void **state)
{
	const struct cuda_cc_info *v;
	size_t n = cudaarch_known_ccs(&v);

	(void)state;
	assert_int_equal(n, 31);
	for (size_t i = 0; i < n; i++) {
		char s[16];
		struct cuda_cc c;

		if (i)
			assert_true(v[i - 1].major * 10 + v[i - 1].minor < v[i].major * 10 + v[i].minor);
		snprintf(s, sizeof(s), "%d.%d", v[i].major, v[i].minor);
		assert_int_equal(cudaarch_parse_gpu(s, &c), 0);
		assert_ptr_equal(cudaarch_cc_info(c), &v[i]);
	}
	assert_string_equal(cudaarch_gpu_names(cc("12.0")), "RTX 5090/5080/5070, RTX PRO Blackwell");
	assert_string_equal(cudaarch_gpu_names(cc("6.1")), "GTX 1080/1070/1060, P40/P4");
	assert_string_equal(cudaarch_cc_info(cc("9.0"))->arch, "Hopper");
	assert_null(cudaarch_gpu_names(cc("8.8")));	/* nvcc 13 targets it; no product listed */
}

static void neighbours(void **state)
{
	static const struct {
		int major, minor;
		const char *below, *above;	/* "M.m" or NULL */
	} rows[] = {
		{ 9, 9, "9.0", "10.0" }, { 99, 9, "12.1", NULL }, { 0, 5, NULL, "1.0" },
		{ 8, 5, "8.0", "8.6" }, { 13, 0, "12.1", NULL }, { 4, 0, "3.7", "5.0" },
		{ 11, 1, "11.0", "12.0" },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		const struct cuda_cc_info *lo, *hi;
		struct cuda_cc c = { rows[i].major, rows[i].minor };
		char b[16];

		cudaarch_cc_neighbours(c, &lo, &hi);
		if (rows[i].below) {
			assert_non_null(lo);
			snprintf(b, sizeof(b), "%d.%d", lo->major, lo->minor);
			assert_string_equal(b, rows[i].below);
		} else {
			assert_null(lo);
		}
		if (rows[i].above) {
			assert_non_null(hi);
			snprintf(b, sizeof(b), "%d.%d", hi->major, hi->minor);
			assert_string_equal(b, rows[i].above);
		} else {
			assert_null(hi);
		}
	}
}

/* Model names as the driver writes them (/proc/driver/nvidia/gpus/ * /information, cuDeviceGetName). */
static void model_names(void **state)
{
	static const struct {
		const char *model;
		int major, minor;	/* 0: not known */
	} rows[] = {
		{ "NVIDIA H100 80GB HBM3", 9, 0 }, { "NVIDIA H100 PCIe", 9, 0 },
		{ "NVIDIA A100-SXM4-80GB", 8, 0 }, { "NVIDIA A10G", 8, 6 }, { "NVIDIA A10", 8, 6 },
		{ "Tesla T4", 7, 5 }, { "NVIDIA L40S", 8, 9 }, { "NVIDIA L4", 8, 9 },
		{ "NVIDIA GeForce RTX 4090", 8, 9 }, { "NVIDIA GeForce RTX 5090", 12, 0 },
		{ "NVIDIA GeForce RTX 3080 Laptop GPU", 8, 6 }, { "Tesla V100-SXM2-16GB", 7, 0 },
		{ "NVIDIA GeForce GTX 1080", 6, 1 }, { "Tesla P100-PCIE-16GB", 6, 0 },
		{ "NVIDIA RTX 6000 Ada Generation", 8, 9 }, { "NVIDIA GH200 480GB", 9, 0 },
		{ "NVIDIA B200", 10, 0 }, { "NVIDIA RTX PRO 6000 Blackwell Server Edition", 12, 0 },
		{ "NVIDIA RTX 5000 Ada Generation", 0, 0 },	/* not "RTX 50xx" */
		{ "NVIDIA H20", 0, 0 }, { "Matrox G200", 0, 0 }, { "", 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		struct cuda_cc c = { 0, 0 };
		int r = cudaarch_model_cc(rows[i].model, &c);

		if (!rows[i].major) {
			assert_int_equal(r, -1);
			continue;
		}
		assert_int_equal(r, 0);
		assert_int_equal(c.major, rows[i].major);
		assert_int_equal(c.minor, rows[i].minor);
	}
}

/* A driver too old for the PTX ISA turns PTX JIT into error 222; SASS is not touched. */
static void driver_blocks_jit(void **state)
{
	struct cuda_summary s = { 0 };
	struct fatbin_entry e;
	struct cuda_verdict v;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.kind = FATBIN_KIND_ELF;
	e.arch = 90;
	cudaarch_summary_add(&s, &e);
	e.kind = FATBIN_KIND_PTX;
	e.major = 8;
	e.minor = 4;		/* PTX ISA 8.4: CUDA 12.4 */
	cudaarch_summary_add(&s, &e);

	cudaarch_verdict(&s, cc("12.0"), &v);
	cudaarch_apply_driver(&v, 12040);
	assert_int_equal(v.how, CUDA_RUN_PTX_JIT);
	assert_false(v.jit_blocked);
	cudaarch_verdict(&s, cc("12.0"), &v);
	cudaarch_apply_driver(&v, 12020);	/* a 535 driver */
	assert_int_equal(v.how, CUDA_RUN_NONE);
	assert_true(v.jit_blocked);
	assert_int_equal(v.driver_cuda, 12020);
	assert_false(v.torch_range_warning);	/* torch is right then: no "false warning" */
	assert_false(v.torch_cubin_warning);
	cudaarch_verdict(&s, cc("9.0"), &v);
	cudaarch_apply_driver(&v, 12020);
	assert_int_equal(v.how, CUDA_RUN_SASS_EXACT);
	cudaarch_verdict(&s, cc("12.0"), &v);
	cudaarch_apply_driver(&v, 0);		/* unknown: unchanged */
	assert_int_equal(v.how, CUDA_RUN_PTX_JIT);
	cudaarch_summary_release(&s);
}

/* §11 SASS: same major, lower or equal minor; `a` exact only; `f` within its family. */
static void sass_rules(void **state)
{
	static const struct {
		uint32_t arch;
		char variant;
		const char *gpu;
		enum cuda_how how;
	} rows[] = {
		{ 80, 0, "8.0", CUDA_RUN_SASS_EXACT },
		{ 80, 0, "8.6", CUDA_RUN_SASS_COMPAT },	/* sm_80 runs on 8.6/8.9 */
		{ 80, 0, "9.0", CUDA_RUN_NONE },		/* ... not on 9.0 */
		{ 86, 0, "8.0", CUDA_RUN_NONE },		/* never a higher minor */
		{ 90, 'a', "9.0", CUDA_RUN_SASS_EXACT },
		{ 90, 'a', "10.0", CUDA_RUN_NONE },
		{ 100, 'a', "10.3", CUDA_RUN_NONE },		/* `a` is never "compatible" */
		{ 100, 'f', "10.3", CUDA_RUN_SASS_COMPAT },	/* `f` within its family */
		{ 100, 'f', "11.0", CUDA_RUN_NONE },
		{ 100, 0, "12.0", CUDA_RUN_NONE },		/* 10.x, 11.0, 12.x: three majors */
		{ 120, 0, "12.1", CUDA_RUN_SASS_COMPAT },	/* GB10 runs sm_120 */
		{ 120, 'f', "12.1", CUDA_RUN_SASS_COMPAT },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		struct cuda_target t = { FATBIN_KIND_ELF, rows[i].arch, rows[i].variant };

		assert_int_equal(cudaarch_how(&t, cc(rows[i].gpu)), rows[i].how);
	}
}

/* The ptxas 13.0 matrix of §11: each row's PTX against each column's GPU. */
static void ptx_matrix(void **state)
{
	static const char *const cols[] = { "9.0", "10.0", "10.3", "11.0", "12.0", "12.1" };
	static const struct {
		uint32_t arch;
		char variant;
		const char *ok;	/* one char per column: y/n */
	} rows[] = {
		{ 90, 0, "yyyyyy" },  { 90, 'a', "ynnnnn" }, { 100, 0, "nyyyyy" },
		{ 100, 'a', "nynnnn" }, { 100, 'f', "nyynnn" }, { 103, 'f', "nnynnn" },
		{ 110, 'f', "nnnynn" }, { 120, 0, "nnnnyy" }, { 120, 'f', "nnnnyy" },
		{ 121, 'f', "nnnnny" },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		struct cuda_target t = { FATBIN_KIND_PTX, rows[i].arch, rows[i].variant };

		for (size_t c = 0; c < 6; c++) {
			enum cuda_how want = rows[i].ok[c] == 'y' ? CUDA_RUN_PTX_JIT : CUDA_RUN_NONE;

			if (cudaarch_how(&t, cc(cols[c])) != want)
				fail_msg("compute_%u%c on %s", rows[i].arch,
					 rows[i].variant ? rows[i].variant : ' ', cols[c]);
		}
	}
	/* LTO-IR never runs. */
	struct cuda_target lto = { FATBIN_KIND_LTO, 90, 0 };
	assert_int_equal(cudaarch_how(&lto, cc("9.0")), CUDA_RUN_NONE);
}

static void ptx_isa_to_driver(void **state)
{
	char b[16];

	(void)state;
	assert_string_equal(cudaarch_ptx_min_driver(7, 0, b, sizeof(b)), "11.0");
	assert_string_equal(cudaarch_ptx_min_driver(7, 8, b, sizeof(b)), "11.8");
	assert_string_equal(cudaarch_ptx_min_driver(8, 5, b, sizeof(b)), "12.5");
	assert_string_equal(cudaarch_ptx_min_driver(8, 6, b, sizeof(b)), "12.7");	/* no 12.6 ISA */
	assert_string_equal(cudaarch_ptx_min_driver(8, 8, b, sizeof(b)), "12.9");
	assert_string_equal(cudaarch_ptx_min_driver(9, 0, b, sizeof(b)), "13.0");
	assert_string_equal(cudaarch_ptx_min_driver(9, 1, b, sizeof(b)), "13.1");
	assert_null(cudaarch_ptx_min_driver(9, 9, b, sizeof(b)));
}

static void add(struct cuda_summary *s, uint16_t kind, uint32_t arch, char variant)
{
	struct fatbin_entry e = { .kind = kind, .arch = arch, .variant = variant, .major = 9,
				  .header_size = 64, .payload_size = 8 };

	cudaarch_summary_add(s, &e);
}

static void add_unit(struct cuda_summary *s, size_t unit, uint16_t kind, uint32_t arch, char variant)
{
	struct fatbin_entry e = { .kind = kind, .arch = arch, .variant = variant, .major = 9,
				  .header_size = 64, .payload_size = 8 };

	cudaarch_summary_add_unit(s, &e, unit);
}

/*
 * Issue 32: the list all but a few units hold; a target under a tenth hold is
 * said apart with its count (1 of 11); with no SASS target in a tenth, the union.
 */
static void arch_list_most(void **state)
{
	struct cuda_summary s = { 0 };
	char *list, *extra;
	size_t ptx_only;
	bool none;

	(void)state;
	for (size_t u = 0; u < 11; u++) {
		add_unit(&s, u, FATBIN_KIND_ELF, 80, 0);
		add_unit(&s, u, FATBIN_KIND_ELF, 90, 0);
		add_unit(&s, u, FATBIN_KIND_PTX, 90, 0);
		if (u == 3) {
			add_unit(&s, u, FATBIN_KIND_ELF, 90, 'a');
			add_unit(&s, u, FATBIN_KIND_ELF, 90, 'a');	/* twice in one unit: counted once */
		}
	}
	assert_int_equal(s.n_units, 11);
	list = cudaarch_arch_list_most(&s, &ptx_only, &extra, &none);
	assert_string_equal(list, "8.0;9.0+PTX");
	assert_string_equal(extra, "sm_90a (1)");
	assert_false(none);
	free(list);
	free(extra);
	list = cudaarch_arch_list(&s, NULL);
	assert_string_equal(list, "8.0;9.0+PTX;9.0a");	/* the union, as before */
	free(list);
	cudaarch_summary_release(&s);

	/* Every unit the same: no extra. One unit (cudaarch_summary_add): the same. */
	add(&s, FATBIN_KIND_ELF, 80, 0);
	add(&s, FATBIN_KIND_ELF, 90, 'a');
	list = cudaarch_arch_list_most(&s, NULL, &extra, &none);
	assert_string_equal(list, "8.0;9.0a");
	assert_null(extra);
	assert_false(none);
	free(list);
	cudaarch_summary_release(&s);

	/* Three units, a target each: each is a third of them, all in the list. */
	add_unit(&s, 0, FATBIN_KIND_ELF, 80, 0);
	add_unit(&s, 1, FATBIN_KIND_ELF, 90, 0);
	add_unit(&s, 2, FATBIN_KIND_ELF, 100, 0);
	list = cudaarch_arch_list_most(&s, NULL, &extra, &none);
	assert_string_equal(list, "8.0;9.0;10.0");
	assert_null(extra);
	assert_false(none);
	free(list);
	cudaarch_summary_release(&s);

	/* Eleven units, a target each (1 of 11 < a tenth): no such list, the union. */
	for (size_t u = 0; u < 11; u++)
		add_unit(&s, u, FATBIN_KIND_ELF, (uint32_t)(50 + u), 0);
	list = cudaarch_arch_list_most(&s, NULL, &extra, &none);
	assert_string_equal(list, "5.0;5.1;5.2;5.3;5.4;5.5;5.6;5.7;5.8;5.9;6.0");
	assert_null(extra);
	assert_true(none);
	free(list);
	cudaarch_summary_release(&s);
}

/* The example list, unsorted input, duplicates counted once. */
static void arch_list_and_gencode(void **state)
{
	struct cuda_summary s = { 0 };
	char *list, *gc;
	size_t ptx_only;

	(void)state;
	add(&s, FATBIN_KIND_PTX, 120, 0);
	add(&s, FATBIN_KIND_ELF, 90, 0);
	add(&s, FATBIN_KIND_ELF, 75, 0);
	add(&s, FATBIN_KIND_ELF, 120, 0);
	add(&s, FATBIN_KIND_ELF, 86, 0);
	add(&s, FATBIN_KIND_ELF, 80, 0);
	add(&s, FATBIN_KIND_ELF, 80, 0);
	list = cudaarch_arch_list(&s, &ptx_only);
	assert_string_equal(list, "7.5;8.0;8.6;9.0;12.0+PTX");
	assert_int_equal(ptx_only, 0);
	assert_int_equal(s.v[1].count, 2);
	gc = cudaarch_gencode(&s);
	assert_string_equal(gc, "-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 "
				"-gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90 "
				"-gencode arch=compute_120,code=sm_120 -gencode arch=compute_120,code=compute_120");
	free(list);
	free(gc);
	cudaarch_summary_release(&s);

	/* Variants, and PTX without a SASS twin (no TORCH_CUDA_ARCH_LIST spelling). */
	add(&s, FATBIN_KIND_ELF, 100, 'f');
	add(&s, FATBIN_KIND_PTX, 100, 'f');
	add(&s, FATBIN_KIND_ELF, 90, 'a');
	add(&s, FATBIN_KIND_PTX, 80, 0);
	list = cudaarch_arch_list(&s, &ptx_only);
	assert_string_equal(list, "9.0a;10.0f+PTX");
	assert_int_equal(ptx_only, 1);
	gc = cudaarch_gencode(&s);
	assert_string_equal(gc, "-gencode arch=compute_90a,code=sm_90a -gencode arch=compute_100f,code=sm_100f "
				"-gencode arch=compute_80,code=compute_80 -gencode arch=compute_100f,code=compute_100f");
	free(list);
	free(gc);
	cudaarch_summary_release(&s);
}

/* Whole-library verdicts, and torch's false warnings (§13). */
static void verdicts(void **state)
{
	struct cuda_summary s = { 0 };
	struct cuda_verdict v;

	(void)state;
	add(&s, FATBIN_KIND_ELF, 80, 0);
	add(&s, FATBIN_KIND_ELF, 90, 0);
	add(&s, FATBIN_KIND_PTX, 90, 0);

	cudaarch_verdict(&s, cc("9.0"), &v);
	assert_int_equal(v.how, CUDA_RUN_SASS_EXACT);
	assert_int_equal(v.sass.arch, 90);
	cudaarch_verdict(&s, cc("8.6"), &v);
	assert_int_equal(v.how, CUDA_RUN_SASS_COMPAT);
	assert_int_equal(v.sass.arch, 80);
	assert_false(v.torch_range_warning);
	cudaarch_verdict(&s, cc("7.5"), &v);
	assert_int_equal(v.how, CUDA_RUN_NONE);
	assert_false(v.torch_range_warning);	/* torch's warning is right there */
	/* 12.0 above max 9.0: runs by PTX JIT, torch warns twice, both wrongly. */
	cudaarch_verdict(&s, cc("rtx5090"), &v);
	assert_int_equal(v.how, CUDA_RUN_PTX_JIT);
	assert_int_equal(v.ptx.arch, 90);
	assert_int_equal(v.isa_major, 9);
	assert_true(v.torch_range_warning);
	assert_true(v.torch_cubin_warning);
	cudaarch_summary_release(&s);

	/* GB10 (12.1) with a build up to sm_120: runs, torch's min/max warning is false. */
	add(&s, FATBIN_KIND_ELF, 80, 0);
	add(&s, FATBIN_KIND_ELF, 120, 0);
	cudaarch_verdict(&s, cc("gb10"), &v);
	assert_int_equal(v.how, CUDA_RUN_SASS_COMPAT);
	assert_true(v.torch_range_warning);
	assert_false(v.torch_cubin_warning);
	cudaarch_summary_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arch_list_most),
		cmocka_unit_test(parse_gpu_spellings),
		cmocka_unit_test(parse_gpu_nonexistent),
		cmocka_unit_test(known_capabilities),
		cmocka_unit_test(neighbours),
		cmocka_unit_test(model_names),
		cmocka_unit_test(driver_blocks_jit),
		cmocka_unit_test(sass_rules),
		cmocka_unit_test(ptx_matrix),
		cmocka_unit_test(ptx_isa_to_driver),
		cmocka_unit_test(arch_list_and_gencode),
		cmocka_unit_test(verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
