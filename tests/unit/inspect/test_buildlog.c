/*
 * buildlog: the segmenter (edges, their outputs, -k 0 runs, ninja 1.13's
 * FAILED: [code=N]), pip/setup.py around ninja (the traceback that follows
 * from ninja's failure is a consequence), CMake blocks, verdicts, any
 * chunking, the short command, the ABI twin, the headers' homes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "buildlog.h"

static const char pip_log[] =
	"Building wheel torch-2.6.0\n"
	"-- Could NOT find CUDNN (missing: CUDNN_LIBRARY_PATH)\n"
	"-- Build files have been written to: /src/build\n"
	"[1/3] Building CXX object a.o\n"
	"a.cpp:1:2: warning: unused [-Wunused-variable]\n"
	"FAILED: [code=1] b.o \n"
	"/usr/bin/c++ -DX=1 -I/inc -O2 -std=gnu++17 -MD -MT b.o -MF b.o.d -o b.o -c /src/b.cpp\n"
	"In file included from /src/b.cpp:1:\n"
	"/src/third_party/fmt/include/x.h:2:10: fatal error: fmt/core.h: No such file or directory\n"
	"compilation terminated.\n"
	"[2/3] Linking CXX shared library lib/libtorch_cuda.so\n"
	"FAILED: lib/libtorch_cuda.so\n"
	"/usr/bin/c++ -fPIC -shared -o lib/libtorch_cuda.so x.o y.o -lcudart\n"
	"x.o:(.text+0x1): relocation truncated to fit: R_X86_64_PC32 against symbol `y'\n"
	"collect2: error: ld returned 1 exit status\n"
	"ninja: build stopped: subcommand failed.\n"
	"Traceback (most recent call last):\n"
	"  File \"/src/setup.py\", line 1, in <module>\n"
	"subprocess.CalledProcessError: Command '['cmake', '--build', '.']' returned non-zero exit status 1.\n"
	"error: subprocess-exited-with-error\n";

static struct buildlog *parse(const char *s, size_t n, size_t chunk)
{
	struct buildlog *b = buildlog_new();

	for (size_t i = 0; i < n; i += chunk)
		buildlog_feed(b, (const uint8_t *)s + i, n - i < chunk ? n - i : chunk);
	return b;
}

static void pip_around_ninja(void **state)
{
	(void)state;
	for (size_t chunk = 1; chunk <= sizeof(pip_log); chunk *= 3) {
		struct buildlog *b = parse(pip_log, sizeof(pip_log) - 1, chunk);
		const struct buildlog_result *r = buildlog_finish(b);

		assert_int_equal(r->verdict, BL_VERDICT_FAILED);
		assert_int_equal(r->phase, BL_PHASE_COMPILE);
		assert_int_equal(r->cause, BL_CAUSE_HEADER_SUBMODULE);
		assert_string_equal(r->edge->outputs, "b.o");
		assert_string_equal(r->edge->desc, "Building CXX object a.o");
		assert_string_equal(r->header, "fmt/core.h");
		assert_int_equal(r->edge->out.n, 3);	/* its own lines only */
		assert_int_equal(r->n_failed, 2);
		assert_int_equal(r->edges[1].cause, BL_CAUSE_RELOCATION);
		assert_int_equal(r->edges[1].phase, BL_PHASE_LINK);
		assert_int_equal(r->warnings, 1);
		assert_true(r->ninja_stopped);
		buildlog_free(b);
	}
}

static void outside_ninja(void **state)
{
	static const char cm[] = "-- The CXX compiler identification is GNU 12\n"
				 "CMake Error at cmake/Dependencies.cmake:12 (find_package):\n"
				 "  Could NOT find Python (missing: Python_INCLUDE_DIRS)\n"
				 "\n"
				 "-- Configuring incomplete, errors occurred!\n";
	static const char py[] = "running develop\n"
				 "Traceback (most recent call last):\n"
				 "  File \"/src/torchgen/gen.py\", line 9, in main\n"
				 "    x()\n"
				 "ModuleNotFoundError: No module named 'yaml'\n";
	/* torch 2.6's own FindMKL.cmake with BLAS=MKL and no MKL (torch2_buildlog_real). */
	static const char mkl[] = "--   Library mkl: not found\n"
				  "CMake Error at cmake/Modules/FindMKL.cmake:467 (MESSAGE):\n"
				  "  MKL library not found.  Please specify library location by appending the\n"
				  "Call Stack (most recent call first):\n"
				  "  cmake/Dependencies.cmake:190 (find_package)\n"
				  "  CMakeLists.txt:861 (include)\n"
				  "\n"
				  "-- Configuring incomplete, errors occurred!\n";
	static const char ok[] = "[1/2] a\n[2/2] b\n";
	static const char cut[] = "[1/2] a\n";
	static const char bin[] = "\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f\n";
	struct buildlog *b;
	const struct buildlog_result *r;
	(void)state;

	b = parse(cm, sizeof(cm) - 1, 7);
	r = buildlog_finish(b);
	assert_int_equal(r->cause, BL_CAUSE_CMAKE_PACKAGE);
	assert_int_equal(r->phase, BL_PHASE_CONFIGURE);
	assert_int_equal(r->block.n, 3);
	buildlog_free(b);
	b = parse(mkl, sizeof(mkl) - 1, 11);
	r = buildlog_finish(b);
	assert_int_equal(r->cause, BL_CAUSE_CMAKE_PACKAGE);
	assert_int_equal(r->phase, BL_PHASE_CONFIGURE);
	assert_string_equal(r->first_error->text, "CMake Error at cmake/Modules/FindMKL.cmake:467 (MESSAGE):");
	buildlog_free(b);
	b = parse(py, sizeof(py) - 1, 5);
	r = buildlog_finish(b);
	assert_int_equal(r->cause, BL_CAUSE_PYTHON);
	assert_true(r->torchgen);
	assert_string_equal(r->py_frame, "File \"/src/torchgen/gen.py\", line 9, in main");
	buildlog_free(b);
	b = parse(ok, sizeof(ok) - 1, 100);
	assert_int_equal(buildlog_finish(b)->verdict, BL_VERDICT_OK);
	buildlog_free(b);
	b = parse(cut, sizeof(cut) - 1, 100);
	assert_int_equal(buildlog_finish(b)->verdict, BL_VERDICT_INCOMPLETE);
	buildlog_free(b);
	b = parse(bin, sizeof(bin) - 1, 100);
	assert_int_equal(buildlog_finish(b)->verdict, BL_VERDICT_BINARY);
	buildlog_free(b);
	b = parse("", 0, 1);
	assert_int_equal(buildlog_finish(b)->verdict, BL_VERDICT_EMPTY);
	buildlog_free(b);
}

/* An install edge of ninja's console pool prints before its FAILED:; cmake --install alone. */
static void install(void **state)
{
	static const char nj[] = "[1/2] Linking C static library libt.a\n"
				 "[1/2] Install the project...\n"
				 "-- Install configuration: \"\"\n"
				 "CMake Error at cmake_install.cmake:46 (file):\n"
				 "  file INSTALL destination: /p/lib is not a directory.\n"
				 "\n"
				 "\n"
				 "FAILED: CMakeFiles/install.util \n"
				 "cd /b && /usr/bin/cmake -P cmake_install.cmake\n"
				 "ninja: build stopped: subcommand failed.\n";
	static const char cm[] = "-- Install configuration: \"\"\n"
				 "CMake Error at b/cmake_install.cmake:46 (file):\n"
				 "  file INSTALL destination: /p/lib is not a directory.\n";
	static const char err_ok[] = "[1/2] a\nx.c:1: error: printed by a finished edge\n[2/2] b\nFAILED: b\ncmd\n";
	struct buildlog *b;
	const struct buildlog_result *r;
	(void)state;

	for (size_t chunk = 1; chunk <= sizeof(nj); chunk *= 4) {
		b = parse(nj, sizeof(nj) - 1, chunk);
		r = buildlog_finish(b);
		assert_int_equal(r->verdict, BL_VERDICT_FAILED);
		assert_int_equal(r->phase, BL_PHASE_INSTALL);
		assert_int_equal(r->cause, BL_CAUSE_INSTALL);
		assert_int_equal(r->edge->out.n, 4);
		assert_string_equal(r->first_error->text, "CMake Error at cmake_install.cmake:46 (file):");
		buildlog_free(b);
	}
	b = parse(cm, sizeof(cm) - 1, 9);
	r = buildlog_finish(b);
	assert_int_equal(r->phase, BL_PHASE_INSTALL);
	assert_int_equal(r->cause, BL_CAUSE_INSTALL);
	buildlog_free(b);
	/* An error of an edge that finished, a status line before the FAILED one: not its output. */
	b = parse(err_ok, sizeof(err_ok) - 1, 3);
	r = buildlog_finish(b);
	assert_int_equal(r->edge->out.n, 0);
	buildlog_free(b);
}

static void commands(void **state)
{
	char *s;
	(void)state;

	s = buildlog_short_command("cd /b && ccache /usr/bin/c++ -DA -DB -I/x -isystem /y -O2 -std=gnu++17 "
				   "-D_GLIBCXX_USE_CXX11_ABI=1 -MD -MT o -MF o.d -o o.o -c /s/a.cpp");
	assert_string_equal(s, "/usr/bin/c++ -O2 -std=gnu++17 -D_GLIBCXX_USE_CXX11_ABI=1 -o o.o -c /s/a.cpp "
			       "(2 -D, 2 -I, 3 other omitted)");
	free(s);
	s = buildlog_short_command("/usr/bin/nvcc -gencode arch=compute_80,code=sm_80 -x cu -c k.cu -o k.o");
	assert_string_equal(s, "/usr/bin/nvcc -gencode arch=compute_80,code=sm_80 -x cu -c k.cu -o k.o");
	free(s);
	assert_true(buildlog_is_link("/usr/bin/c++ -shared -o libx.so a.o"));
	assert_true(buildlog_is_link("/usr/bin/ar qc libx.a a.o"));
	assert_false(buildlog_is_link("/usr/bin/c++ -c a.cpp -o a.o"));
}

static void abi_and_headers(void **state)
{
	bool cxx11;
	char *t;
	enum bl_cause c = BL_CAUSE_HEADER;
	(void)state;

	t = buildlog_abi_twin("f(std::string const&)", &cxx11);
	assert_string_equal(t, "f(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)");
	assert_false(cxx11);
	free(t);
	t = buildlog_abi_twin("at::TensorBase::toString[abi:cxx11]() const", &cxx11);
	assert_string_equal(t, "at::TensorBase::toString() const");
	assert_true(cxx11);
	free(t);
	assert_null(buildlog_abi_twin("f(int)", &cxx11));
	assert_non_null(buildlog_header_hint("Python.h", NULL, &c));
	assert_int_equal(c, BL_CAUSE_HEADER_PACKAGE);
	assert_non_null(buildlog_header_hint("x.h", "/src/third_party/foo/a.c", &c));
	assert_int_equal(c, BL_CAUSE_HEADER_SUBMODULE);
	c = BL_CAUSE_HEADER;
	assert_null(buildlog_header_hint("mine.h", "/src/a.c", &c));
	assert_int_equal(c, BL_CAUSE_HEADER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pip_around_ninja),
		cmocka_unit_test(outside_ninja),
		cmocka_unit_test(install),
		cmocka_unit_test(commands),
		cmocka_unit_test(abi_and_headers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
