/*
 * ninjalog and the profile over it: headers v4 to v7, runs split where the
 * times restart, multi-output edges, the latest record per output, every
 * malformed field, a truncated last line, and the profile's figures
 * (parallelism, concurrency, per target and folder, since-last reasons).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "buildtree.h"

#define P(s) (const uint8_t *)(s), strlen(s)

static void versions(void **state)
{
	struct ninjalog l;
	struct pt_diag d;
	static const char *const ok[] = { "# ninja log v5\n", "# ninja log v6\n", "# ninja log v7\r\n", "# ninja log v4\n" };
	(void)state;

	for (size_t i = 0; i < 4; i++) {
		pt_diag_init(&d);
		assert_int_equal(ninjalog_parse(P(ok[i]), &l, "l", &d), 0);
		assert_int_equal(l.n, 0);
		ninjalog_release(&l);
		pt_diag_release(&d);
	}
	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P("# ninja log v8\n"), &l, "l", &d), -1);
	assert_string_equal(d.v[0].what, "ninja log version 8 is not supported (4 to 7 are)");
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P("1\t2\t3\tx\tab\n"), &l, "l", &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse((const uint8_t *)"", 0, &l, "l", &d), -1);
	pt_diag_release(&d);
}

static const char two_runs[] =
	"# ninja log v6\n"
	/* in completion order, as ninja writes them */
	"0\t1000\t1700000000000000000\tc10/CMakeFiles/c10.dir/core/A.cpp.o\t1111\n"
	"1000\t1500\t1700000000000000000\tgen/x.h\t3333\n"
	"1000\t1500\t1700000000000000000\tgen/y.h\t3333\n"
	"0\t3000\t1700000000000000000\tc10/CMakeFiles/c10.dir/util/B.cpp.o\t2222\n"
	"3000\t4000\t1700000000000000000\tlib/libc10.so\t4444\n"
	/* second run: times restart */
	"0\t500\t1700000000000000001\tc10/CMakeFiles/c10.dir/util/B.cpp.o\tbeef\n"
	"0\t2000\t1700000000000000001\tc10/CMakeFiles/c10.dir/core/A.cpp.o\t1111\n"
	"2000\t2600\t1700000000000000001\tcaffe2/CMakeFiles/torch_cpu.dir/__/aten/src/ATen/R.cpp.o\t5555\n";

static void runs_and_latest(void **state)
{
	struct ninjalog l;
	struct pt_diag d;
	size_t n, *idx;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P(two_runs), &l, "l", &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(l.version, 6);
	assert_int_equal(l.n, 8);
	assert_int_equal(l.n_runs, 2);
	assert_int_equal(l.v[4].run, 0);
	assert_int_equal(l.v[5].run, 1);
	assert_int_equal(l.v[5].hash, 0xbeef);
	assert_int_equal(l.v[0].mtime, 1700000000000000000LL);
	assert_int_equal(l.v[1].line, 3);
	idx = ninjalog_latest(&l, &n);
	assert_int_equal(n, 6);
	assert_int_equal(idx[0], 1);	/* gen/x.h: file order kept */
	assert_int_equal(idx[4], 6);	/* A.cpp.o: the second run's */
	free(idx);
	ninjalog_release(&l);
	pt_diag_release(&d);
}

static void malformed(void **state)
{
	struct ninjalog l;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P("# ninja log v5\n"
					  "1\t2\t3\n"
					  "x\t2\t3\ta\t1\n"
					  "1\ty\t3\ta\t1\n"
					  "5\t2\t3\ta\t1\n"
					  "1\t2\tz\ta\t1\n"
					  "1\t2\t3\t\t1\n"
					  "1\t2\t3\ta\tnothex\n"
					  "-1\t2\t3\ta\t1\n"
					  "99999999999\t2\t3\ta\t1\n"
					  "1\t2\t-3\tok\tff\n"
					  "\n"
					  "# ninja log v5\n"
					  "1\t2\t3\tcut"), &l, "l", &d), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].output, "ok");
	assert_int_equal(l.v[0].mtime, -3);
	assert_int_equal(l.n_bad, 10);
	assert_string_equal(d.v[0].where, "line 2");
	assert_string_equal(d.v[0].what, "not 5 tab-separated fields");
	assert_string_equal(d.v[3].what, "end time before start time");
	assert_string_equal(d.v[9].what, "truncated last line (no newline)");
	ninjalog_release(&l);
	pt_diag_release(&d);
	/* v4: the fifth column is the command, not a hash. */
	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P("# ninja log v4\n1\t2\t3\tout\tg++ -c x.cc\n"), &l, "l", &d), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].hash, 0);
	ninjalog_release(&l);
	pt_diag_release(&d);
}

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
		cmocka_unit_test(versions),
		cmocka_unit_test(runs_and_latest),
		cmocka_unit_test(malformed),
		cmocka_unit_test(profile),
		cmocka_unit_test(paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
