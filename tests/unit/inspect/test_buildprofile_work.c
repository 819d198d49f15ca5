/*
 * buildtree_profile on the two .ninja_log shapes found quadratic (fault-matrix.md
 * N14): every record a run of its own (each end time smaller
 * than the one before: a log ninja's recompaction rewrote in hash order looks
 * like this), and one run whose records, slowest first, start in the reverse
 * order (the critical path's insertion sort). N = 600,000 records each: the old
 * per-run loop made 3.6e11 steps and the insertion sort 1.8e11 (minutes: 80,000
 * records took 12 s and 5 s of CPU, 400,000 ran past the guard), n log n takes
 * about a second for both. Not timed: alarm() is only a hang guard, 90 s, for a
 * loaded machine or a sanitizer tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildtree.h"
#include "xalloc.h"

enum { N = 600000 };

/* A log of N records made in memory (what ninjalog_parse would give for the lines). */
static void make_log(struct ninjalog *l, int every_line_a_run)
{
	memset(l, 0, sizeof(*l));
	l->version = 5;
	l->v = pt_xcalloc(N, sizeof(*l->v));
	l->n = l->alloc = N;
	for (size_t i = 0; i < N; i++) {
		struct ninjalog_rec *r = &l->v[i];
		char name[32];

		snprintf(name, sizeof(name), "obj/f%zu.o", i);
		r->output = pt_xstrdup(name);
		r->hash = i;
		r->line = i + 2;
		if (every_line_a_run) {
			r->start_ms = 0;
			r->end_ms = (uint32_t)(N - i + 1);
			r->run = (uint32_t)i;
		} else {
			r->start_ms = (uint32_t)i;
			r->end_ms = (uint32_t)(10 * (size_t)N + 2 * i);
			r->run = 0;
		}
	}
	l->n_runs = every_line_a_run ? N : 1;
}

static void every_line_a_new_run(void **state)
{
	struct buildtree t;
	struct build_profile p;
	(void)state;

	memset(&t, 0, sizeof(t));
	make_log(&t.log, 1);
	t.have_log = true;
	alarm(90);
	buildtree_profile(&t, &p);
	alarm(0);
	assert_int_equal(p.n_runs, N);
	assert_int_equal(p.runs[0].edges, 1);
	assert_int_equal(p.runs[N - 1].edges, 1);
	assert_int_equal(p.runs[0].max_concurrent, 1);
	assert_int_equal(p.runs[N - 1].max_concurrent, 1);
	assert_int_equal(p.runs[0].wall_ms, N + 1);
	assert_int_equal(p.runs[N - 1].wall_ms, 2);
	assert_int_equal(p.n_last, 1);
	build_profile_release(&p);
	ninjalog_release(&t.log);
}

static void one_run_reverse_starts(void **state)
{
	struct buildtree t;
	struct build_profile p;
	(void)state;

	memset(&t, 0, sizeof(t));
	make_log(&t.log, 0);
	t.have_log = true;
	t.have_ninja = true;	/* no edges: the critical path is the slowest record alone */
	buildninja_index(&t.ninja);
	alarm(90);
	buildtree_profile(&t, &p);
	alarm(0);
	assert_int_equal(p.n_runs, 1);
	assert_int_equal(p.runs[0].edges, N);
	assert_int_equal(p.runs[0].max_concurrent, N);
	assert_int_equal(p.n_last, N);
	assert_int_equal(p.n_critical, 1);
	assert_int_equal(p.critical[0].ms, 10 * (uint64_t)N + N - 1);
	assert_string_equal(p.critical[0].output, "obj/f599999.o");
	build_profile_release(&p);
	buildninja_release(&t.ninja);
	ninjalog_release(&t.log);
}

/* The critical path's order by start time keeps ties in p->last's order, as the insertion sort did. */
static void ties_keep_their_order(void **state)
{
	static const char mf[] =
		"rule cc\n  command = cc\n"
		"build a.o: cc a.c\nbuild b.o: cc b.c\nbuild lib.so: cc a.o b.o\n";
	/* a.o and b.o start together and take as long; lib.so after both. */
	static const char lg[] =
		"# ninja log v5\n0\t100\t0\ta.o\t1\n0\t100\t0\tb.o\t2\n100\t150\t0\tlib.so\t3\n";
	struct buildtree t;
	struct build_profile p;
	struct pt_diag d;
	(void)state;

	memset(&t, 0, sizeof(t));
	pt_diag_init(&d);
	assert_int_equal(buildninja_parse((const uint8_t *)mf, sizeof(mf) - 1, &t.ninja, "build.ninja", &d), 0);
	buildninja_index(&t.ninja);
	t.have_ninja = true;
	assert_int_equal(ninjalog_parse((const uint8_t *)lg, sizeof(lg) - 1, &t.log, ".ninja_log", &d), 0);
	t.have_log = true;
	buildtree_profile(&t, &p);
	assert_int_equal(p.critical_ms, 150);
	assert_int_equal(p.n_critical, 2);
	/* p->last is slowest first, then by name: a.o before b.o; the first of equals wins. */
	assert_string_equal(p.critical[0].output, "a.o");
	assert_string_equal(p.critical[1].output, "lib.so");
	build_profile_release(&p);
	buildninja_release(&t.ninja);
	ninjalog_release(&t.log);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_line_a_new_run),
		cmocka_unit_test(one_run_reverse_starts),
		cmocka_unit_test(ties_keep_their_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
