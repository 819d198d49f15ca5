/*
 * blclass: one line of each class the table knows, in the tools' own wording
 * (copied from the real logs tests/integration/torch2/buildlog_real.sh and
 * tests/integration/inspect/buildlog.sh make: ld's relocation and memory
 * messages, gcc's ICE, a full disk, a failed install, among them), and the
 * lines that must not be causes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "blclass.h"
#include "xalloc.h"

static const struct bl_rule *cl(const char *s)
{
	return blclass_line(s, strlen(s));
}

static void causes(void **state)
{
	static const struct {
		const char *line;
		enum bl_cause cause;
	} v[] = {
		{ "c++: fatal error: Killed signal terminated program cc1plus", BL_CAUSE_OOM },
		{ "virtual memory exhausted: Cannot allocate memory", BL_CAUSE_OOM },
		{ "cc1plus: out of memory allocating 65536 bytes after a total of 285212672 bytes", BL_CAUSE_OOM },
		{ "/usr/bin/ld: failed to set dynamic section sizes: memory exhausted", BL_CAUSE_OOM },
		{ "/usr/bin/ld: n.o: error adding symbols: memory exhausted", BL_CAUSE_OOM },
		{ "nvcc error   : 'cicc' died due to signal 9 (Kill signal)", BL_CAUSE_OOM },
		{ "nvcc fatal   : Unsupported gpu architecture 'compute_35'", BL_CAUSE_NVCC_ARCH },
		{ "ptxas fatal   : Value 'sm_35' is not defined for option 'gpu-name'", BL_CAUSE_NVCC_ARCH },
		{ "/usr/include/crt/host_config.h:143:2: error: #error -- unsupported GNU version! gcc versions later than 13 are not supported!", BL_CAUSE_HOST_COMPILER },
		{ "nvcc fatal   : Unknown option '--frobnicate'", BL_CAUSE_NVCC_OPTION },
		{ "/build/pytorch/caffe2/serialize/inline_container.cc:27:10: fatal error: miniz.h: No such file or directory", BL_CAUSE_HEADER },
		{ "x.cpp:1:10: fatal error: 'cudnn.h' file not found", BL_CAUSE_HEADER },
		{ "x.cu(3): catastrophic error: cannot open source file \"cub/cub.cuh\"", BL_CAUSE_HEADER },
		{ "abi.cpp:(.text+0x4e): undefined reference to `c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&)'", BL_CAUSE_UNDEFINED },
		{ "ld.lld: error: undefined symbol: foo", BL_CAUSE_UNDEFINED },
		{ "/usr/bin/ld: cannot find -lcudnn: No such file or directory", BL_CAUSE_LINK_LIB },
		{ "x.o:(.text+0x1): relocation truncated to fit: R_X86_64_PC32 against symbol `y'", BL_CAUSE_RELOCATION },
		{ "big.c:(.text+0xe): relocation truncated to fit: R_X86_64_PC32 against symbol `after' defined in .bss section in big.o", BL_CAUSE_RELOCATION },
		{ "/tmp/cc.s: Fatal error: /dev/full: No space left on device", BL_CAUSE_NO_SPACE },
		{ "/tmp/ccuCJO9c.s: Fatal error: can't write 11 bytes to section .text of /dev/full: 'No space left on device'", BL_CAUSE_NO_SPACE },
		{ "ok.c:1:1: fatal error: error closing /t/tiny/ccjb8J8P.s: No space left on device", BL_CAUSE_NO_SPACE },
		{ "x.cpp:10:1: internal compiler error: Segmentation fault", BL_CAUSE_ICE },
		{ "gcc: internal compiler error: Segmentation fault signal terminated program cc1", BL_CAUSE_ICE },
		/* cmake_install.cmake's: buildlog.c makes it an install failure. */
		{ "CMake Error at cmake_install.cmake:46 (file):", BL_CAUSE_CMAKE_ERROR },
		{ "  CMake 99.1 or higher is required.  You are running version 3.25.1", BL_CAUSE_CMAKE_VERSION },
		{ "  Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH)", BL_CAUSE_CMAKE_PACKAGE },
		{ "CMake Error at CMakeLists.txt:3 (find_package):", BL_CAUSE_CMAKE_ERROR },
		{ "ninja: error: 'x.h', needed by 'y.o', missing and no known rule to make it", BL_CAUSE_NINJA },
	};
	(void)state;

	for (size_t i = 0; i < PT_ARRAY_SIZE(v); i++) {
		const struct bl_rule *r = cl(v[i].line);

		assert_non_null(r);
		assert_int_equal(r->kind, BL_KIND_CAUSE);
		if (r->cause != v[i].cause)
			fail_msg("%s: cause %s, want %s", v[i].line, blclass_cause_key(r->cause), blclass_cause_key(v[i].cause));
	}
}

static void not_causes(void **state)
{
	(void)state;
	/* Consequences: grep error: finds these first or instead. */
	assert_int_equal(cl("collect2: error: ld returned 1 exit status")->kind, BL_KIND_CONSEQUENCE);
	assert_int_equal(cl("ninja: build stopped: subcommand failed.")->kind, BL_KIND_CONSEQUENCE);
	assert_int_equal(cl("error: subprocess-exited-with-error")->kind, BL_KIND_CONSEQUENCE);
	assert_int_equal(cl("subprocess.CalledProcessError: Command '['cmake', '--build', '.']' returned non-zero exit status 1.")->kind,
			 BL_KIND_CONSEQUENCE);
	assert_int_equal(cl("compilation terminated.")->kind, BL_KIND_CONSEQUENCE);
	/* A warning quoting "error:" is a warning. */
	assert_int_equal(cl("w.c:1:2: warning: #warning \"error: this is only a warning\" [-Wcpp]")->kind, BL_KIND_WARNING);
	/* gcc's quoted source and ninja's status lines are nothing. */
	assert_null(cl("  143 | #error -- unsupported GNU version! gcc versions later than 13"));
	assert_null(cl("      |  ^~~~~"));
	assert_null(cl("[12/345] Building CXX object caffe2/CMakeFiles/torch_cpu.dir/x.cpp.o"));
	assert_int_equal(cl("In file included from /usr/include/cuda_runtime.h:82,")->kind, BL_KIND_CONTEXT);
	assert_int_equal(cl("b.c:1:22: error: 'x' undeclared")->kind, BL_KIND_ERROR);
}

static void warning_kinds(void **state)
{
	size_t n;
	const char *k;
	(void)state;

	k = blclass_warning_kind("a.c:1:2: warning: unused [-Wunused-variable]", 44, &n);
	assert_int_equal(n, strlen("-Wunused-variable"));
	assert_memory_equal(k, "-Wunused-variable", n);
	k = blclass_warning_kind("a.c:1: warning: x [-Wfoo,-Wbar] ", 32, &n);
	assert_memory_equal(k, "-Wfoo", n);
	assert_string_equal(blclass_warning_kind("CMake Warning at x:1", 20, &n), "cmake");
	assert_string_equal(blclass_warning_kind("a.c:1: warning: plain", 21, &n), "other");
	assert_string_equal(blclass_phase_title(BL_PHASE_LINK), "link");
	assert_string_equal(blclass_cause_key(BL_NCAUSES), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(causes),
		cmocka_unit_test(not_causes),
		cmocka_unit_test(warning_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
