/*
 * inspect/buildtree/buildprofile.c: the profile over a parsed .ninja_log (parallelism,
 * concurrency, per target and folder, since-last reasons) and the output-path names
 * (target, folder).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "buildtree.h"
#include "ninjalog_two_runs.h"

static void profile(void **state)
{
	struct buildtree t;
	struct build_profile p;
	struct build_rebuilt *r;
	struct pt_diag d;
	size_t n;
	(void)state;

	memset(&t, 0, sizeof(t));
	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P(two_runs), &t.log, "l", &d), 0);
	t.have_log = true;
	buildtree_profile(&t, &p);
	assert_int_equal(p.n_runs, 2);
	/* Run 0: 4 edges (x.h and y.h are one), 1000+3000+500+1000 ms over 4000 ms. */
	assert_int_equal(p.runs[0].edges, 4);
	assert_int_equal(p.runs[0].sum_ms, 5500);
	assert_int_equal(p.runs[0].wall_ms, 4000);
	assert_int_equal(p.runs[0].max_concurrent, 2);
	assert_int_equal(p.runs[1].edges, 3);
	assert_int_equal(p.runs[1].wall_ms, 2600);
	assert_int_equal(p.runs[1].max_concurrent, 2);
	/* Latest per edge, slowest first: A (2000), libc10 (1000), R (600), gen (500), B (500). */
	assert_int_equal(p.n_slowest, 5);
	assert_string_equal(p.slowest[0].output, "c10/CMakeFiles/c10.dir/core/A.cpp.o");
	assert_int_equal(p.slowest[0].ms, 2000);
	assert_string_equal(p.slowest[1].output, "lib/libc10.so");
	assert_string_equal(p.targets[0].name, "c10");
	assert_int_equal(p.targets[0].ms, 2500);
	assert_int_equal(p.targets[0].edges, 2);
	assert_string_equal(p.folders[0].name, "c10/core");
	/* "caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/R.cpp.o" is in aten/src/ATen. */
	for (size_t i = 0; i < p.n_folders; i++)
		if (!strcmp(p.folders[i].name, "aten/src/ATen"))
			assert_int_equal(p.folders[i].ms, 600);
	assert_int_equal(p.n_last, 3);
	build_profile_release(&p);
	buildtree_since_last(&t, &r, &n);
	assert_int_equal(n, 3);
	assert_string_equal(r[0].output, "c10/CMakeFiles/c10.dir/core/A.cpp.o");
	assert_int_equal(r[0].reason, BUILD_REBUILT_INPUTS);
	assert_string_equal(r[1].output, "caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/R.cpp.o");
	assert_int_equal(r[1].reason, BUILD_REBUILT_NEW);
	assert_int_equal(r[2].reason, BUILD_REBUILT_COMMAND);
	free(r);
	ninjalog_release(&t.log);
	pt_diag_release(&d);
}

static void paths(void **state)
{
	char *s;
	(void)state;

	s = build_output_target("caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/native/Resize.cpp.o");
	assert_string_equal(s, "torch_cpu");
	free(s);
	assert_null(build_output_target("lib/libc10.so"));
	assert_null(build_output_target("CMakeFiles/.dir/x"));
	s = build_output_folder("caffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/native/Resize.cpp.o");
	assert_string_equal(s, "aten/src/ATen/native");
	free(s);
	s = build_output_folder("c10/CMakeFiles/c10.dir/core/impl/X.cpp.o");
	assert_string_equal(s, "c10/core/impl");
	free(s);
	s = build_output_folder("lib/libc10.so");
	assert_string_equal(s, "lib");
	free(s);
	s = build_output_folder("build.ninja");
	assert_string_equal(s, ".");
	free(s);
	s = build_output_folder("x/CMakeFiles/t.dir/__/__/__/y/z.o");
	assert_string_equal(s, "y");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(profile),
		cmocka_unit_test(paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
