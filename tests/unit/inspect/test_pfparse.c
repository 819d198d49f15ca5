/*
 * pfparse: preflight's parsers, each corner: nvcc --version (real 13.0 and
 * 12.4 texts, garbage, a cut line), compilers' --version (Debian GCC, clang,
 * unknown), tools, CUDA 13.0's host_config.h lines, version.txt,
 * .gitmodules (quotes, comments, other sections, no path, NUL, no '='),
 * cmake_minimum_required and option() names, nvcc --dryrun (NVIDIA's 13.0,
 * Debian's 12.4 wrapper, a quoted -ccbin, CRLF, no host command, garbage).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pfparse.h"

#define P(s) (s), strlen(s)

static void nvcc_version(void **state)
{
	char b[32];
	int cuda;
	(void)state;

	assert_int_equal(pf_nvcc_version(P("nvcc: NVIDIA (R) Cuda compiler driver\n"
					   "Copyright (c) 2005-2025 NVIDIA Corporation\n"
					   "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
					   "Cuda compilation tools, release 13.0, V13.0.88\n"
					   "Build cuda_13.0.r13.0/compiler.36424714_0\n"), &cuda, b, sizeof(b)), 0);
	assert_int_equal(cuda, 13000);
	assert_string_equal(b, "V13.0.88");
	assert_int_equal(pf_nvcc_version(P("Cuda compilation tools, release 12.4, V12.4.131\n"), &cuda, b, sizeof(b)), 0);
	assert_int_equal(cuda, 12040);
	/* No build part, a cut line, garbage, two-digit minors, an empty text. */
	assert_int_equal(pf_nvcc_version(P("Cuda compilation tools, release 11.8"), &cuda, b, sizeof(b)), 0);
	assert_int_equal(cuda, 11080);
	assert_string_equal(b, "");
	assert_int_equal(pf_nvcc_version(P("Cuda compilation tools, release 1"), &cuda, b, sizeof(b)), -1);
	assert_int_equal(pf_nvcc_version(P("Cuda compilation tools, release "), &cuda, b, sizeof(b)), -1);
	assert_int_equal(pf_nvcc_version(P("Cuda compilation tools, release 12.10, V1"), &cuda, b, sizeof(b)), -1);
	assert_int_equal(pf_nvcc_version(P("hello from a fake nvcc\nrelease 99\n"), &cuda, b, sizeof(b)), -1);
	assert_int_equal(cuda, 0);
	assert_int_equal(pf_nvcc_version("", 0, &cuda, b, sizeof(b)), -1);
	/* Numbers past the cap are no version. */
	assert_int_equal(pf_nvcc_version(P("Cuda compilation tools, release 99999999999999999999.1"), &cuda, b, sizeof(b)), -1);
}

static void compilers(void **state)
{
	struct pf_compiler c;
	(void)state;

	assert_int_equal(pf_compiler_version(P("g++ (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022\n"), &c), 0);
	assert_int_equal(c.kind, PF_CC_GCC);
	assert_int_equal(c.ver.v[0], 12);
	assert_int_equal(c.ver.v[1], 2);
	assert_int_equal(pf_compiler_version(P("c++ (Debian 14.2.0-19) 14.2.0\n"), &c), 0);
	assert_int_equal(c.ver.v[0], 14);
	assert_int_equal(pf_compiler_version(P("gcc (GCC) 13.3.1 20240611 (Red Hat 13.3.1-2)"), &c), 0);
	assert_int_equal(c.ver.v[0], 13);
	assert_int_equal(c.ver.v[2], 1);
	assert_int_equal(pf_compiler_version(P("g++ (Debian 12.2.0-14)"), &c), -1);
	assert_int_equal(pf_compiler_version(P("Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"), &c), 0);
	assert_int_equal(c.kind, PF_CC_CLANG);
	assert_int_equal(c.ver.v[0], 14);
	assert_int_equal(pf_compiler_version(P("clang version 19.1.7 (https://github.com/llvm/llvm-project)"), &c), 0);
	assert_int_equal(c.ver.v[0], 19);
	assert_int_equal(pf_compiler_version(P("icpx 2024\n"), &c), -1);
	assert_int_equal(c.kind, PF_CC_UNKNOWN);
	assert_int_equal(pf_compiler_version("", 0, &c), -1);
}

static void tools(void **state)
{
	struct pf_version v, w = { { 3, 18, 0 }, 2 };
	(void)state;

	assert_int_equal(pf_tool_version(P("cmake version 3.25.1\n\nCMake suite maintained\n"), &v), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.v[2], 1);
	assert_true(pf_version_cmp(&v, &w) > 0);
	assert_int_equal(pf_tool_version(P("1.11.1\n"), &v), 0);
	assert_int_equal(v.v[1], 11);
	assert_int_equal(pf_tool_version(P("no version\n3.1\n"), &v), -1);
	assert_int_equal(pf_tool_version(P("v7"), &v), -1);
	v = (struct pf_version){ { 3, 18, 0 }, 3 };
	assert_int_equal(pf_version_cmp(&v, &w), 0);
}

static void host_config(void **state)
{
	/* CUDA 13.0's include/crt/host_config.h, the lines that matter (Grace and HOS clang first). */
	const char *h = "#if (__GRCO_CLANG_COMPILER__ == 1) && ((__clang_major__ < 16) || (__clang_major__ > 20))\n"
			"#error -- unsupported Grace clang version! The version must be 16.x to 20.x.\n"
			"#endif\n"
			"#if defined(__GNUC__)\n\n"
			"#if __GNUC__ > 15\n\n"
			"#error -- unsupported GNU version! gcc versions later than 15 are not supported!\n\n"
			"#endif /* __GNUC__ > 15 */\n"
			"#if defined(__HORIZON__)\n"
			"#if (__clang_major__ >= 21) || (__clang_major__ < 3)\n"
			"#error -- unsupported HOS clang version! The version must be must be less than 21\n"
			"#endif\n#endif\n"
			"#if defined(__clang__) && !defined(__ibmxl_vrm__)\n\n"
			"#if (__clang_major__ >= 21) || (__clang_major__ < 3) || ((__clang_major__ == 3) &&  (__clang_minor__ < 3))\n"
			"#error -- unsupported clang version! clang version must be less than 21 and greater than 3.2 .\n";
	int g, c;
	(void)state;

	assert_int_equal(pf_host_config(P(h), &g, &c), 0);
	assert_int_equal(g, 15);
	assert_int_equal(c, 20);
	assert_int_equal(pf_host_config(P("#error -- unsupported GNU version!\n"), &g, &c), -1);
	assert_int_equal(g, -1);
	assert_int_equal(pf_host_config(P("#if __GNUC__ > \n#error -- unsupported GNU version!"), &g, &c), -1);
	assert_int_equal(pf_host_config("", 0, &g, &c), -1);
}

static void cudnn_version(void **state)
{
	struct pf_version v;
	(void)state;

	/* cuDNN 9.19's cudnn_version.h (the lines that matter). */
	assert_int_equal(pf_cudnn_version(P("#ifndef CUDNN_VERSION_H_\n#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n"
					    "#define CUDNN_PATCHLEVEL 0\n#define CUDNN_VERSION (CUDNN_MAJOR * 10000)\n"), &v), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.v[0], 9);
	assert_int_equal(v.v[1], 19);
	assert_int_equal(pf_cudnn_version(P("#define CUDNN_MAJOR\t8\n#define CUDNN_MINORX 3\n"), &v), 0);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.v[0], 8);
	assert_int_equal(pf_cudnn_version(P("#define CUDNN_MAJORITY 3\n"), &v), -1);
	assert_int_equal(pf_cudnn_version(P("#define CUDNN_MAJOR"), &v), -1);
	assert_int_equal(pf_cudnn_version("", 0, &v), -1);
}

static void version_txt(void **state)
{
	struct pf_version v;
	(void)state;

	assert_int_equal(pf_version_txt(P("2.6.0\n"), &v), 0);
	assert_int_equal(v.v[0], 2);
	assert_int_equal(v.v[1], 6);
	assert_int_equal(pf_version_txt(P("2.7.0a0"), &v), 0);
	assert_int_equal(pf_version_txt(P("2.10.0.dev20251201\r\n"), &v), 0);
	assert_int_equal(v.v[1], 10);
	assert_int_equal(pf_version_txt(P("nonsense\n"), &v), -1);
	assert_int_equal(pf_version_txt(P("2.6.0 (local build!)"), &v), -1);
	assert_int_equal(v.n, 0);
	assert_int_equal(pf_version_txt(P("2"), &v), -1);
	assert_int_equal(pf_version_txt("", 0, &v), -1);
}

static void gitmodules(void **state)
{
	struct pf_gitmodules g;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(pf_gitmodules_parse(P("# comment\n"
					       "[submodule \"third_party/pybind11\"]\n"
					       "\tignore = dirty\n"
					       "\tpath = third_party/pybind11\n"
					       "\turl = https://github.com/pybind/pybind11.git\n"
					       "; another comment\n"
					       "[core]\n"
					       "\tpath = not/a/submodule\n"
					       "[submodule \"fbgemm\"]\n"
					       "    path = \"third_party/fbgemm\"  \r\n"
					       "[submodule \"nopath\"]\n"
					       "\turl = x\n"), &g, "gm", &d), 0);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.v[0].name, "third_party/pybind11");
	assert_string_equal(g.v[0].path, "third_party/pybind11");
	assert_string_equal(g.v[0].url, "https://github.com/pybind/pybind11.git");
	assert_int_equal(g.v[0].line, 2);
	assert_string_equal(g.v[1].path, "third_party/fbgemm");
	assert_null(g.v[2].path);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].where, "line 11");
	assert_string_equal(d.v[0].what, "submodule 'nopath' has no path");
	pf_gitmodules_release(&g);
	pt_diag_release(&d);

	/* Not git config: a line without '=', a NUL byte, an unclosed section. */
	pt_diag_init(&d);
	assert_int_equal(pf_gitmodules_parse(P("[submodule \"a\"]\n\tpath x\n"), &g, "gm", &d), -1);
	assert_int_equal(g.n, 0);
	assert_string_equal(d.v[0].where, "line 2");
	assert_int_equal(pf_gitmodules_parse("[a]\n\0x", 6, &g, "gm", &d), -1);
	assert_int_equal(pf_gitmodules_parse(P("[submodule \"a\"\n"), &g, "gm", &d), -1);
	assert_int_equal(d.n, 3);
	/* An unquoted name is a warning; an empty file is no submodule. */
	assert_int_equal(pf_gitmodules_parse(P("[submodule a]\npath = a\n"), &g, "gm", &d), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(pf_gitmodules_parse("", 0, &g, "gm", &d), 0);
	assert_int_equal(g.n, 0);
	pt_diag_release(&d);
}

static void submodule_status(void **state)
{
	struct pf_substatus st;
	(void)state;

	pf_submodule_status(P(" 8c8c3a2dc9bb0f6bc5a1d4b8b0e8a6a2f1d0c9e7 third_party/pybind11 (v2.13.6)\n"
			      "+0123456789abcdef0123456789abcdef01234567 third_party/fbgemm (v0.8.0-12-g0123456)\n"
			      "-fedcba9876543210fedcba9876543210fedcba98 third_party/kineto\n"
			      "U0000000000000000000000000000000000000000 third_party/x\r\n"
			      "fatal: not a git repository\n"
			      "+0123 short/sha\n"
			      " 8c8c3a2dc9bb0f6bc5a1d4b8b0e8a6a2f1d0c9e7 \n"), &st);
	assert_int_equal(st.n, 4);
	assert_int_equal(st.v[0].state, ' ');
	assert_string_equal(st.v[0].path, "third_party/pybind11");
	assert_int_equal(st.v[1].state, '+');
	assert_string_equal(st.v[1].path, "third_party/fbgemm");
	assert_int_equal(st.v[2].state, '-');
	assert_string_equal(st.v[2].path, "third_party/kineto");
	assert_int_equal(st.v[3].state, 'U');
	assert_string_equal(st.v[3].path, "third_party/x");
	pf_substatus_release(&st);
	/* fuzz_preflight's finding: a NUL where the path starts (the path was "" as a string). */
	pf_submodule_status(" 8c8c3a2dc9bb0f6bc5a1d4b8b0e8a6a2f1d0c9e7 \0\0x\n", 45, &st);
	assert_int_equal(st.n, 0);
	pf_substatus_release(&st);
	pf_submodule_status("", 0, &st);
	assert_int_equal(st.n, 0);
	pf_substatus_release(&st);
}

static void cmakelists(void **state)
{
	const char *cm = "# cmake_minimum_required in a comment has no version\n"
			 "cmake_minimum_required(VERSION 3.18 FATAL_ERROR)\n"
			 "option(USE_CUDA \"Use CUDA\" ON)\n"
			 "cmake_dependent_option(\n  USE_CUDNN \"Use cuDNN\" ON \"USE_CUDA\" OFF)\n"
			 "my_option(NOT_ONE x)\n"
			 "option( BUILD_TEST \"x\" ON)\n";
	struct pf_version v;
	char **names;
	size_t n;
	(void)state;

	assert_int_equal(pf_cmake_min(P("CMAKE_MINIMUM_REQUIRED(VERSION 3.27)"), &v), 0);
	assert_int_equal(v.v[1], 27);
	assert_int_equal(pf_cmake_min(P("cmake_minimum_required(3.18)"), &v), -1);
	assert_int_equal(pf_cmake_min(P("project(x)"), &v), -1);
	pf_cmake_options(P(cm), &names, &n);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "USE_CUDA");
	assert_string_equal(names[1], "USE_CUDNN");
	assert_string_equal(names[2], "BUILD_TEST");
	pf_names_release(names, n);
	pf_cmake_options(P("option("), &names, &n);
	assert_int_equal(n, 0);
	pf_names_release(names, n);
}

static void nvcc_dryrun(void **state)
{
	char *path, *host;
	(void)state;

	/* NVIDIA's nvcc 13.0: nvcc.profile's PATH additions, then gcc. */
	assert_int_equal(pf_nvcc_dryrun(P("#$ _HERE_=/usr/local/cuda/bin\n"
					  "#$ PATH=/usr/local/cuda/bin/../nvvm/bin:/usr/local/cuda/bin:/usr/bin:/bin\n"
					  "#$ INCLUDES=\"-I/usr/local/cuda/bin/../targets/x86_64-linux/include\"  \n"
					  "#$ gcc -D__CUDA_ARCH_LIST__=750 -E -x c++ -D__CUDACC__ -D__NVCC__ \"k.cu\" -o \"k.ii\" \n"
					  "#$ cudafe++ --c++17 --gnu_version=120200\n"
					  "#$ gcc -D__CUDA_ARCH__=750 -c -x c++ k.cpp -o k.o\n"), &path, &host), 0);
	assert_string_equal(path, "/usr/local/cuda/bin/../nvvm/bin:/usr/local/cuda/bin:/usr/bin:/bin");
	assert_string_equal(host, "gcc");
	free(path);
	free(host);
	/* Debian's 12.4 behind its /usr/bin/nvcc wrapper: the last PATH line wins; CRLF. */
	assert_int_equal(pf_nvcc_dryrun(P("#$ PATH=/old\r\n"
					  "#$ PATH=/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin\r\n"
					  "#$ g++ -D__CUDA_ARCH_LIST__=520 -E -x c++ -m64 \"/x.cu\"\r\n"), &path, &host), 0);
	assert_string_equal(path, "/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin");
	assert_string_equal(host, "g++");
	free(path);
	free(host);
	/* -ccbin /usr/bin/g++ as nvcc prints it: quoted pieces joined. */
	assert_int_equal(pf_nvcc_dryrun(P("#$ \"/usr/bin\"/g++ -D__CUDA_ARCH_LIST__=750 -E -x c++ x\n"), &path, &host), 0);
	assert_null(path);
	assert_string_equal(host, "/usr/bin/g++");
	free(host);
	assert_int_equal(pf_nvcc_dryrun(P("#$ 'my dir/g++' -E -x c++ x"), &path, &host), 0);
	assert_string_equal(host, "my dir/g++");
	free(host);
	/* No host command, a fake nvcc, an empty first word, an empty text. */
	assert_int_equal(pf_nvcc_dryrun(P("#$ PATH=/a\n#$ cicc -arch compute_75\n"), &path, &host), -1);
	assert_string_equal(path, "/a");
	assert_null(host);
	free(path);
	assert_int_equal(pf_nvcc_dryrun(P("Cuda compilation tools, release 12.4, V12.4.131\n"), &path, &host), -1);
	assert_null(path);
	assert_int_equal(pf_nvcc_dryrun(P("#$  -E -x c++\n#$ \"\" -E -x c++\n"), &path, &host), -1);
	/* fuzz_preflight's finding of 2026-12-02: a NUL where the host command's first word starts. */
	{
		static const char nul[] = "#$ \0\027c++ ( -E -x c++\n";

		assert_int_equal(pf_nvcc_dryrun(nul, sizeof(nul) - 1, &path, &host), -1);
		assert_null(host);
	}
	assert_int_equal(pf_nvcc_dryrun(P("#$ PATH="), &path, &host), -1);
	assert_string_equal(path, "");
	free(path);
	assert_int_equal(pf_nvcc_dryrun("", 0, &path, &host), -1);
	assert_null(path);
}

static void header_version(void **state)
{
	struct pf_version v;
	(void)state;

	/* NVIDIA's nccl.h 2.28.9 lines; cusparseLt.h's; a major alone; none; tabs; a name that only starts so. */
	assert_int_equal(pf_header_version(P("#define NCCL_MAJOR 2\n#define NCCL_MINOR 28\n#define NCCL_PATCH 9\n"
					     "#define NCCL_SUFFIX \"\"\n"), "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH", &v), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.v[1], 28);
	assert_int_equal(v.v[2], 9);
	assert_int_equal(pf_header_version(P("#define CUSPARSELT_VER_MAJOR 0\n#define CUSPARSELT_VER_MINOR\t6\n"),
					   "CUSPARSELT_VER_MAJOR", "CUSPARSELT_VER_MINOR", "CUSPARSELT_VER_PATCH", &v), 0);
	assert_int_equal(v.n, 2);
	assert_int_equal(v.v[1], 6);
	assert_int_equal(pf_header_version(P("#define NCCL_MAJOR 2\n"), "NCCL_MAJOR", NULL, NULL, &v), 0);
	assert_int_equal(v.n, 1);
	assert_int_equal(pf_header_version(P("#define NCCL_MAJORX 2\n#define NCCL_MAJOR\n"), "NCCL_MAJOR", "NCCL_MINOR",
					   NULL, &v), -1);
	assert_int_equal(v.n, 0);
	assert_int_equal(pf_header_version("", 0, "NCCL_MAJOR", NULL, NULL, &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvcc_version), cmocka_unit_test(compilers), cmocka_unit_test(tools),
		cmocka_unit_test(host_config),	cmocka_unit_test(version_txt), cmocka_unit_test(cudnn_version), cmocka_unit_test(gitmodules),
		cmocka_unit_test(submodule_status), cmocka_unit_test(cmakelists), cmocka_unit_test(nvcc_dryrun), cmocka_unit_test(header_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
