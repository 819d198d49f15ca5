/*
 * ninjalog: headers v4 to v7, runs split where the times restart,
 * multi-output edges, the latest record per output, every malformed field, a
 * truncated last line. The profile over it: test_buildprofile.c.
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

/*
 * The times do not restart (the second run's first edge ends at 7.0 s, after
 * the first run's last, 4.2 s), but the runs' wall starts, mtime less start
 * in v6, are five minutes apart: two runs. A restat edge whose mtime is its
 * output's, later by its duration or older, stays in its run.
 */
static void runs_by_wall_start(void **state)
{
	struct ninjalog l;
	struct pt_diag d;
	static const char log[] = "# ninja log v6\n"
				  "0\t3200\t1796000000000000000\ta.o\t1\n"
				  "3200\t4200\t1796000003200000000\tlib.so\t2\n"
				  "100\t7000\t1796000300100000000\tb.o\t3\n"
				  "200\t9000\t1796000309000000000\tgen.h\t4\n"
				  "300\t9500\t1700000000000000000\tgen2.h\t5\n"
				  "9000\t9600\t1796000309000000001\tc.o\t6\n";
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P(log), &l, "l", &d), 0);
	assert_int_equal(l.n_runs, 2);
	assert_int_equal(l.v[1].run, 0);
	assert_int_equal(l.v[2].run, 1);
	assert_int_equal(l.v[3].run, 1);
	assert_int_equal(l.v[4].run, 1);
	assert_int_equal(l.v[5].run, 1);
	ninjalog_release(&l);
	pt_diag_release(&d);
}

/*
 * Three lines of the sid tree's real .ninja_log (tests/torch2/buildtree
 * --flavour sid, ninja 1.13, v7): torchgen's sources (run 1), autograd's
 * codegen (run 2), and the same edge again after `touch derivatives.yaml`
 * about a second later (run 3). Run 3's times do not restart (5777 ms ends
 * after run 2's 5653) and its wall start is 6.85 s after run 2's, within the
 * edge's 5.7 s and 2 s: only the output built twice splits them.
 */
static void runs_by_output_again(void **state)
{
	struct ninjalog l;
	struct pt_diag d;
	static const char log[] =
		"# ninja log v7\n"
		"82\t23385\t1796304868258935066\taten/src/ATen/generated_sources.cmake\tb6d8b071696e96c1\n"
		"60\t5653\t1796304895354668658\t/build/pytorch/torch/csrc/autograd/generated/Functions.cpp\t4af28ac7ea216de7\n"
		"60\t5653\t1796304895354668658\t/build/pytorch/torch/csrc/autograd/generated/Functions.h\t4af28ac7ea216de7\n"
		"70\t5777\t1796304902206935955\t/build/pytorch/torch/csrc/autograd/generated/Functions.cpp\t4af28ac7ea216de7\n"
		"70\t5777\t1796304902206935955\t/build/pytorch/torch/csrc/autograd/generated/Functions.h\t4af28ac7ea216de7\n";
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(ninjalog_parse(P(log), &l, "l", &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(l.version, 7);
	assert_int_equal(l.n_runs, 3);
	assert_int_equal(l.v[0].run, 0);
	assert_int_equal(l.v[1].run, 1);
	assert_int_equal(l.v[2].run, 1);
	assert_int_equal(l.v[3].run, 2);
	assert_int_equal(l.v[4].run, 2);
	ninjalog_release(&l);
	pt_diag_release(&d);
}

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(versions),
		cmocka_unit_test(runs_and_latest),
		cmocka_unit_test(runs_by_wall_start),
		cmocka_unit_test(runs_by_output_again),
		cmocka_unit_test(malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
