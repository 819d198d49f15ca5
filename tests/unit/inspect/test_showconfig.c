/*
 * showconfig: every real paste in tests/fixtures/show_config/ (each file's
 * own facts asserted, and for all of them: no line lost) plus synthetic
 * corners (wrapping, truncation, '=' in values, garbage, NUL bytes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptest.h"
#include "showconfig.h"
#include "xalloc.h"

static const char *fixture_dir(void)
{
	static char dir[4096];
	const char *s = getenv("PT_FIXTURES");

	/* Set by CTest; run by hand from build/, the repository's own copy. */
	snprintf(dir, sizeof(dir), "%s/show_config", s ? s : "../tests/fixtures");
	return dir;
}

/* Parse a fixture by name; asserts the parse itself succeeded. */
static void parse_fixture(const char *name, struct showconfig *c)
{
	char path[8192];
	size_t len;
	char *b;
	struct pt_diag d;

	snprintf(path, sizeof(path), "%s/%s", fixture_dir(), name);
	b = ptest_slurp(path, &len);
	assert_non_null(b);
	pt_diag_init(&d);
	assert_int_equal(showconfig_parse((const uint8_t *)b, len, c, name, &d), 0);
	pt_diag_release(&d);
	free(b);
}

static void parse_str(const char *s, struct showconfig *c)
{
	struct pt_diag d;

	pt_diag_init(&d);
	assert_int_equal(showconfig_parse((const uint8_t *)s, strlen(s), c, "t", &d), 0);
	pt_diag_release(&d);
}

static size_t count_nonblank_lines_starting_dash(const char *b, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		size_t j = i;

		while (j < len && (b[j] == ' ' || b[j] == '\t'))
			j++;
		if (j + 1 < len && b[j] == '-' && b[j + 1] == ' ')
			n++;
		while (i < len && b[i] != '\n')
			i++;
	}
	return n;
}

/* Every file in the folder: each "- " line is one item, no stray line. */
static void every_fixture_keeps_every_item(void **state)
{
	DIR *dir = opendir(fixture_dir());
	struct dirent *e;
	int files = 0;

	(void)state;
	assert_non_null(dir);	/* the fixtures are in the repository */
	while ((e = readdir(dir))) {
		char path[8192];
		size_t len;
		char *b;
		struct showconfig c;
		struct pt_diag d;

		if (!strstr(e->d_name, ".txt"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", fixture_dir(), e->d_name);
		b = ptest_slurp(path, &len);
		assert_non_null(b);
		pt_diag_init(&d);
		assert_int_equal(showconfig_parse((const uint8_t *)b, len, &c, e->d_name, &d), 0);
		/* Every fixture is a whole, understood paste: nothing unparsed. */
		if (c.n_unparsed)
			fail_msg("%s: unparsed '%s'", e->d_name, c.unparsed[0]);
		assert_true(c.has_header);
		assert_int_equal(c.n_items, count_nonblank_lines_starting_dash(b, len));
		assert_true(c.n_compilers >= 1);
		assert_true(c.n_settings >= 5);
		assert_non_null(showconfig_setting(&c, "BUILD_TYPE"));
		/* No value swallowed the next key: ", KEY=" never inside a value. */
		for (size_t i = 0; i < c.n_settings; i++) {
			const char *v = c.settings[i].value;

			for (const char *p = strstr(v, ", "); p; p = strstr(p + 1, ", ")) {
				const char *k = p + 2;

				while ((*k >= 'A' && *k <= 'Z') || *k == '_' || (*k >= '0' && *k <= '9'))
					k++;
				if (*k == '=' && k > p + 2)
					fail_msg("%s: %s swallowed '%s'", e->d_name, c.settings[i].key, p);
			}
		}
		showconfig_release(&c);
		pt_diag_release(&d);
		free(b);
		files++;
	}
	closedir(dir);
	assert_true(files >= 7);
}

static void debian_1_13(void **state)
{
	struct showconfig c;

	(void)state;
	parse_fixture("debian-1.13.1.txt", &c);
	assert_int_equal(c.n_compilers, 1);
	assert_string_equal(c.compilers[0], "GCC 12.2");
	assert_string_equal(c.cxx_version, "201402");
	assert_string_equal(c.mkldnn, "v2.6.3");
	assert_string_equal(c.openmp, "201511 (a.k.a. OpenMP 4.5)");
	assert_true(c.lapack);
	assert_false(c.nnpack);
	assert_null(c.cuda_runtime);
	assert_int_equal(c.n_nvcc_sass, 0);
	assert_string_equal(showconfig_setting(&c, "BUILD_TYPE"), "RelWithDebInfo");
	/* '=' inside CXX_FLAGS (-ffile-prefix-map=...=.) stays in the value. */
	assert_non_null(strstr(showconfig_setting(&c, "CXX_FLAGS"),
				"-ffile-prefix-map=/build/pytorch-BBcGlf/pytorch-1.13.1+dfsg=. -fstack"));
	assert_non_null(strstr(showconfig_setting(&c, "CXX_FLAGS"), "-gsplit-dwarf"));
	/* The trailing ", " torch prints is not part of the last value. */
	assert_string_equal(c.settings[c.n_settings - 1].key, "USE_ROCM");
	assert_string_equal(c.settings[c.n_settings - 1].value, "OFF");
	assert_string_equal(showconfig_setting(&c, "TORCH_VERSION"), "1.13.0");
	showconfig_release(&c);
}

/* cuDNN 9 printed garbled: 91.0.2 is 9.10.2, built with 90.8 is 9.8. */
static void cuda_128_cudnn9(void **state)
{
	struct showconfig c;
	static const char *const sass[] = { "sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120" };

	(void)state;
	parse_fixture("003.txt", &c);
	assert_string_equal(c.cuda_runtime, "12.8");
	assert_string_equal(c.cudnn, "91.0.2");
	assert_string_equal(c.cudnn_version, "9.10.2");
	assert_string_equal(c.cudnn_cuda, "12.9");
	assert_string_equal(c.built_with_cudnn, "90.8");
	assert_string_equal(c.built_with_cudnn_version, "9.8");
	assert_string_equal(c.magma, "2.6.1");
	assert_string_equal(c.mkl, "2024.2");
	assert_int_equal(c.n_nvcc_sass, 7);
	for (size_t i = 0; i < 7; i++)
		assert_string_equal(c.nvcc_sass[i], sass[i]);
	assert_int_equal(c.n_nvcc_ptx, 0);
	assert_string_equal(c.arch_list, "7.0;7.5;8.0;8.6;9.0;10.0;12.0");
	assert_string_equal(showconfig_setting(&c, "COMMIT_SHA"), "a1cb3cc05d46d198467bebbb6e8fba50a325d4e7");
	assert_string_equal(showconfig_setting(&c, "CUDNN_VERSION"), "9.8.0");
	/* "CXX_FLAGS= -fvisibility..." keeps its leading blank (verbatim) and its inner '='. */
	assert_true(!strncmp(showconfig_setting(&c, "CXX_FLAGS"), " -fvisibility-inlines-hidden", 28));
	assert_non_null(strstr(showconfig_setting(&c, "CXX_FLAGS"), "-DLIBKINETO_NOXPUPTI=ON"));
	showconfig_release(&c);
}

/* Hand-wrapped with hanging indents: the NVCC list and the settings rejoin. */
static void rewrapped_lines_join(void **state)
{
	struct showconfig c;

	(void)state;
	parse_fixture("020.txt", &c);
	assert_int_equal(c.n_nvcc_sass, 8);
	assert_string_equal(c.nvcc_sass[2], "sm_60");
	assert_string_equal(c.nvcc_sass[7], "sm_86");
	assert_int_equal(c.n_nvcc_ptx, 1);
	assert_string_equal(c.nvcc_ptx[0], "compute_37");
	assert_string_equal(c.arch_list, "3.7+PTX;5.0;6.0;6.1;7.0;7.5;8.0;8.6");
	assert_string_equal(showconfig_setting(&c, "CUDNN_VERSION"), "8.2.0");
	assert_string_equal(showconfig_setting(&c, "CXX_COMPILER"), "/opt/rh/devtoolset-7/root/usr/bin/c++");
	assert_string_equal(showconfig_setting(&c, "USE_OPENMP"), "ON");
	assert_string_equal(showconfig_setting(&c, "LAPACK_INFO"), "mkl");
	assert_non_null(strstr(showconfig_setting(&c, "CXX_FLAGS"), "-fvisibility-inlines-hidden -DUSE_PTHREADPOOL"));
	assert_string_equal(c.cudnn, "8.2");
	assert_string_equal(c.cudnn_version, "8.2");
	showconfig_release(&c);
}

static void macos_two_compilers_indented(void **state)
{
	struct showconfig c;

	(void)state;
	parse_fixture("008.txt", &c);
	assert_int_equal(c.n_compilers, 2);
	assert_string_equal(c.compilers[0], "GCC 4.2");
	assert_string_equal(c.compilers[1], "clang 13.1.6");
	assert_string_equal(c.cpu_capability, "NO AVX");
	assert_string_equal(showconfig_setting(&c, "BLAS_INFO"), "accelerate");
	showconfig_release(&c);
}

static void windows_msvc(void **state)
{
	struct showconfig c;

	(void)state;
	parse_fixture("002.txt", &c);
	assert_string_equal(c.compilers[0], "MSVC 192930151");
	assert_string_equal(c.cxx_version, "199711");
	assert_string_equal(c.mkl, "2020.0.2");
	assert_string_equal(c.mkldnn, "v3.1.1");
	assert_true(!strncmp(showconfig_setting(&c, "CXX_FLAGS"), "/DWIN32 /D_WINDOWS", 18));
	assert_string_equal(showconfig_setting(&c, "USE_CUDA"), "0");
	assert_string_equal(c.settings[c.n_settings - 1].value, "OFF");
	showconfig_release(&c);
}

/* BACKCOMPAT: torch ~1.1: BLAS=MKL, no C++ Version, Built with CuDNN sub-line. */
static void oldest_format(void **state)
{
	struct showconfig c;

	(void)state;
	parse_fixture("013.txt", &c);
	assert_null(c.cxx_version);
	assert_string_equal(showconfig_setting(&c, "BLAS"), "MKL");
	assert_string_equal(c.cudnn, "7.4.2");
	assert_string_equal(c.cudnn_version, "7.4.2");
	assert_string_equal(c.built_with_cudnn, "7.1.2");
	assert_string_equal(c.cuda_runtime, "9.2");
	assert_int_equal(c.n_nvcc_sass, 1);
	assert_string_equal(c.arch_list, "5.2");
	assert_string_equal(c.magma, "2.5.0");
	showconfig_release(&c);
}

static void jetson_no_avx(void **state)
{
	struct showconfig c;

	(void)state;
	parse_fixture("006.txt", &c);
	assert_string_equal(c.arch_list, "5.3;6.2;7.2");
	assert_string_equal(c.cpu_capability, "NO AVX");
	assert_string_equal(showconfig_setting(&c, "BLAS_INFO"), "open");
	assert_string_equal(c.cudnn_version, "8.0");
	showconfig_release(&c);
}

/* A paste cut in the middle of a key: the fragment is kept, not glued to the last value. */
static void truncated_mid_key(void **state)
{
	struct showconfig c;

	(void)state;
	parse_str("PyTorch built with:\n  - Build settings: BUILD_TYPE=Release, USE_OPENMP=ON, USE_RO", &c);
	assert_int_equal(c.n_settings, 2);
	assert_string_equal(showconfig_setting(&c, "USE_OPENMP"), "ON");
	assert_int_equal(c.n_unparsed, 1);
	assert_string_equal(c.unparsed[0], "USE_RO");
	showconfig_release(&c);
}

/* Unknown lines and unknown items are kept, never dropped; CRLF and NUL survive. */
static void unknown_kept(void **state)
{
	static const char t[] = "Some log line\r\nPyTorch built with:\r\n  - Quantum Engine 3.1\r\n"
				"  - GCC 11.4\r\nnot indented trailer\r\n  - X\0Y\n";
	struct showconfig c;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(showconfig_parse((const uint8_t *)t, sizeof(t) - 1, &c, "t", &d), 0);
	assert_int_equal(c.n_unparsed, 2);
	assert_string_equal(c.unparsed[0], "Some log line");
	assert_string_equal(c.unparsed[1], "not indented trailer");
	assert_int_equal(c.n_items, 3);
	assert_string_equal(c.items[0], "Quantum Engine 3.1");
	assert_string_equal(c.items[2], "X?Y");
	assert_string_equal(c.compilers[0], "GCC 11.4");
	assert_int_equal(d.n, 2);	/* one note per unparsed line */
	showconfig_release(&c);
	pt_diag_release(&d);
}

/* code=[sm_90,compute_90] lists, sm_90a, -gencode= spelling, ROCm fields. */
static void nvcc_variants_and_rocm(void **state)
{
	struct showconfig c;

	(void)state;
	parse_str("PyTorch built with:\n"
		  "  - NVCC architecture flags: -gencode=arch=compute_90a,code=[sm_90a,compute_90a];"
		  "-gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_120,code=compute_120\n"
		  "  - HIP Runtime 6.2.41133\n  - MIOpen 3.2.0\n  - Built with CUDA Runtime 12.4\n", &c);
	assert_int_equal(c.n_nvcc_sass, 2);
	assert_string_equal(c.nvcc_sass[0], "sm_90a");
	assert_string_equal(c.nvcc_sass[1], "sm_80");
	assert_int_equal(c.n_nvcc_ptx, 2);
	assert_string_equal(c.arch_list, "9.0a+PTX;8.0;12.0+PTX");
	assert_string_equal(c.hip_runtime, "6.2.41133");
	assert_string_equal(c.miopen, "3.2.0");
	assert_string_equal(c.built_with_cuda_runtime, "12.4");
	showconfig_release(&c);
}

/* The cuDNN decoding table, each row one case of torch's formatting. */
static void cudnn_decode(void **state)
{
	static const struct { const char *in, *out; } t[] = {
		{ "91.0.2", "9.10.2" },	/* cuDNN 9.10.2: CUDNN_VERSION 91002 */
		{ "90.1.0", "9.1.0" },	/* 90100 */
		{ "90.8", "9.8" },	/* "Built with" prints two parts */
		{ "8.9.2", "8.9.2" },	/* cuDNN 8 prints right */
		{ "7.4.2", "7.4.2" },
		{ "8.0", "8.0" },
		{ "abc", NULL },
		{ "9", NULL },
		{ "1.2.3.4x", NULL },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(t); i++) {
		char *s = showconfig_decode_cudnn(t[i].in);

		if (t[i].out)
			assert_string_equal(s, t[i].out);
		else
			assert_null(s);
		free(s);
	}
}

static void build_settings_garbage_prefix(void **state)
{
	struct showconfig c;

	(void)state;
	parse_str("  - Build settings: junk, BUILD_TYPE=Debug,\n", &c);
	assert_int_equal(c.n_settings, 1);
	assert_string_equal(showconfig_setting(&c, "BUILD_TYPE"), "Debug");
	assert_int_equal(c.n_unparsed, 1);
	showconfig_release(&c);
}

/* Found by fuzz_showconfig: a second NVCC line leaked the first arch list. */
static void two_nvcc_lines(void **state)
{
	struct showconfig c;

	(void)state;
	parse_str("  - NVCC architecture flags: -gencode;arch=compute_80,code=sm_80\n"
		  "  - NVCC architecture flags: -gencode;arch=compute_90,code=sm_90\n", &c);
	assert_int_equal(c.n_nvcc_sass, 2);
	assert_string_equal(c.arch_list, "8.0;9.0");
	showconfig_release(&c);
}

static void too_large_refused(void **state)
{
	struct showconfig c;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(showconfig_parse((const uint8_t *)"", SHOWCONFIG_MAX_LEN + 1, &c, "big", &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	pt_diag_release(&d);
	/* Empty input: nothing, and no crash. */
	parse_str("", &c);
	assert_int_equal(c.n_items, 0);
	showconfig_release(&c);
}

/* Old spellings: "CudNN 7.4.2 (built against CUDA 9.2)", "Built with cuDNN" (torch 1.x). */
static void old_cudnn_spellings(void **state)
{
	struct showconfig c;

	(void)state;
	parse_fixture("pasted/013-cudnn-spellings.txt", &c);
	assert_string_equal(c.cudnn, "7.4.2");
	assert_string_equal(c.cudnn_version, "7.4.2");
	assert_string_equal(c.cudnn_cuda, "9.2");
	assert_string_equal(c.built_with_cudnn, "7.1.2");
	assert_int_equal(c.n_unparsed, 0);
	showconfig_release(&c);
	parse_str("PyTorch built with:\n  - CUDNN 7.x\n", &c);
	assert_string_equal(c.cudnn, "7.x");
	assert_null(c.cudnn_version);	/* not a version: kept as printed, not decoded */
	showconfig_release(&c);
}

/* Hard wrap, repr and merged bullets on small texts: the corners. */
static void pasted_corners(void **state)
{
	struct showconfig c;

	(void)state;
	/* A cut right after a blank keeps the blank; a full line then a short one. */
	parse_str("PyTorch built with:\n  - Build settings: BLAS_INFO=mkl, CXX_FLAGS= -O2 -DUSE_PTHREAD\n"
		  "POOL -fopenmp, USE_CUDA=ON,\n", &c);
	assert_string_equal(showconfig_setting(&c, "CXX_FLAGS"), " -O2 -DUSE_PTHREADPOOL -fopenmp");
	assert_int_equal(c.n_unparsed, 0);
	showconfig_release(&c);
	parse_str("PyTorch built with:\n  - Build settings: BLAS_INFO=mkl, CXX_FLAGS= -O2 -DUSE_PTHREAD \n"
		  "-fopenmp, USE_CUDA=ON,\n", &c);
	assert_string_equal(showconfig_setting(&c, "CXX_FLAGS"), " -O2 -DUSE_PTHREAD -fopenmp");
	showconfig_release(&c);
	/* A short line before a margin line is no wrap: that line is not part of it. */
	parse_str("PyTorch built with:\n  - GCC 9.3\nCollecting environment information...\n", &c);
	assert_int_equal(c.n_unparsed, 1);
	showconfig_release(&c);
	/* repr: quoted with ", escapes, a prompt line before it (kept as unparsed). */
	parse_str(">>> torch.__config__.show()\n\"PyTorch built with:\\n  - GCC 9.3\\n  - Build settings: "
		  "CXX_FLAGS=-DX=\\\"a b\\\" -I C:\\\\x, USE_CUDA=0\\n\"\n", &c);
	assert_string_equal(c.compilers[0], "GCC 9.3");
	assert_string_equal(showconfig_setting(&c, "CXX_FLAGS"), "-DX=\"a b\" -I C:\\x");
	assert_int_equal(c.n_unparsed, 1);
	showconfig_release(&c);
	/* Merged bullets: "XPU backend  - Build settings: ..."; CXX_FLAGS' " -" never splits. */
	parse_str("PyTorch built with:\n  - XPU backend  - Build settings: CXX_FLAGS= -O2  - x -Wall, "
		  "USE_XPU=ON\n", &c);
	assert_string_equal(c.xpu, "backend");
	assert_int_equal(c.n_items, 2);
	assert_string_equal(showconfig_setting(&c, "CXX_FLAGS"), " -O2  - x -Wall");
	showconfig_release(&c);
	/*
	 * What an XPU build prints: XPUHooks::showConfig() is "XPU backend" with no
	 * newline and no bullet, so it and the settings start at the margin. The same
	 * for any section glued so; a margin line with no glued entry stays unparsed.
	 */
	parse_str("PyTorch built with:\n  - CPU capability usage: AVX512\nXPU backend  - Build settings: "
		  "BLAS_INFO=mkl, BUILD_TYPE=Release, CXX_FLAGS= -O2, USE_XPU=1, \n", &c);
	assert_string_equal(c.xpu, "backend");
	assert_string_equal(c.cpu_capability, "AVX512");
	assert_string_equal(showconfig_setting(&c, "BUILD_TYPE"), "Release");
	assert_string_equal(showconfig_setting(&c, "BLAS_INFO"), "mkl");
	assert_string_equal(showconfig_setting(&c, "USE_XPU"), "1");
	assert_int_equal(c.n_items, 3);
	assert_int_equal(c.n_unparsed, 0);
	showconfig_release(&c);
	parse_str("PyTorch built with:\n  - GCC 9.3\nMAIA backend  - Magma 2.6.1\nXPU backend\n", &c);
	assert_string_equal(c.magma, "2.6.1");
	assert_int_equal(c.n_items, 3);		/* GCC, "MAIA backend" (kept as an item), Magma */
	assert_string_equal(c.items[1], "MAIA backend");
	assert_int_equal(c.n_unparsed, 1);	/* "XPU backend" alone at the margin glues nothing */
	showconfig_release(&c);
}

/* /etc/passwd is not a configuration text; a paste with only entries is. */
static void not_a_config(void **state)
{
	struct showconfig c;

	(void)state;
	parse_str("root:x:0:0:root:/root:/bin/bash\n- daemon\n", &c);
	assert_false(showconfig_is_config(&c));
	showconfig_release(&c);
	parse_str("", &c);
	assert_false(showconfig_is_config(&c));
	showconfig_release(&c);
	parse_str("  - GCC 9.3\n", &c);
	assert_true(showconfig_is_config(&c));
	showconfig_release(&c);
}

/* fuzz_showconfig (UBSan, nonnull): NVCC flags with PTX codes only copied the empty SASS
 * list with memcpy from NULL. */
static void showconfig_ptx_only(void **state)
{
	static const char text[] =
		"PyTorch built with:\n"
		"  - GCC 12.2\n"
		"  - NVCC architecture flags: -gencode;arch=compute_90,code=compute_90\n"
		"  - Build settings: BUILD_TYPE=Release, \n";
	struct showconfig c;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(showconfig_parse((const uint8_t *)text, sizeof(text) - 1, &c, "ptx-only", &d), 0);
	assert_int_equal(c.n_nvcc_sass, 0);
	assert_int_equal(c.n_nvcc_ptx, 1);
	assert_string_equal(c.arch_list, "9.0+PTX");
	showconfig_release(&c);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_fixture_keeps_every_item),
		cmocka_unit_test(debian_1_13),
		cmocka_unit_test(cuda_128_cudnn9),
		cmocka_unit_test(rewrapped_lines_join),
		cmocka_unit_test(macos_two_compilers_indented),
		cmocka_unit_test(windows_msvc),
		cmocka_unit_test(oldest_format),
		cmocka_unit_test(jetson_no_avx),
		cmocka_unit_test(truncated_mid_key),
		cmocka_unit_test(unknown_kept),
		cmocka_unit_test(nvcc_variants_and_rocm),
		cmocka_unit_test(cudnn_decode),
		cmocka_unit_test(build_settings_garbage_prefix),
		cmocka_unit_test(two_nvcc_lines),
		cmocka_unit_test(too_large_refused),
		cmocka_unit_test(old_cudnn_spellings),
		cmocka_unit_test(pasted_corners),
		cmocka_unit_test(not_a_config),
		cmocka_unit_test(showconfig_ptx_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
