/*
 * buildninja: build statements with implicit outputs, implicit and
 * order-only inputs and validations, "$" escapes and line continuations,
 * bindings, rules, includes, top-level variables, comments, malformed
 * statements, NUL bytes and a line over the 64 MiB limit; the producer index.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "buildninja.h"

#define P(s) (const uint8_t *)(s), strlen(s)

static const char manifest[] =
	"# CMAKE generated file: DO NOT EDIT!\n"
	"ninja_required_version = 1.5\n"
	"include CMakeFiles/rules.ninja\n"
	"cmake_ninja_workdir = /build/pytorch/build/\n"
	"rule CXX_COMPILER__c10_unscanned_Debug\n"
	"  command = g++ $DEFINES -c $in -o $out\n"
	"  description = Building CXX object $out\n"
	"\n"
	"build c10/CMakeFiles/c10.dir/core/A.cpp.o: CXX_COMPILER__c10_unscanned_Debug /src/c10/core/A.cpp"
	" || cmake_object_order_depends_target_c10\n"
	"  DEFINES = -DC10_BUILD_MAIN_LIB\n"
	"  OBJECT_DIR = c10/CMakeFiles/c10.dir\n"
	"build lib/libc10.so | lib/libc10.so.debug: CXX_SHARED_LIBRARY_LINKER__c10_Debug"
	" c10/CMakeFiles/c10.dir/core/A.cpp.o $\n"
	"    c10/CMakeFiles/c10.dir/core/B.cpp.o | /usr/lib/libnuma.so |@ check\n"
	"build c10: phony lib/libc10.so\n"
	"build with$ space$:colon.o: CC a$$b.c\n"
	"build gen/x.h gen/y.h: CUSTOM_COMMAND /src/torchgen/gen.py || dir$\n"
	"\n"
	"subninja sub/build.ninja\n"
	"default all\n"
	"pool link_pool\n"
	"  depth = 1\n";

static void statements(void **state)
{
	struct buildninja b;
	struct pt_diag d;
	const struct ninja_edge *e;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(buildninja_parse(P(manifest), &b, "m", &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(b.n_edges, 5);
	assert_int_equal(b.n_rules, 1);
	assert_string_equal(b.rules[0], "CXX_COMPILER__c10_unscanned_Debug");
	assert_int_equal(b.n_includes, 2);
	assert_string_equal(b.includes[0], "CMakeFiles/rules.ninja");
	assert_string_equal(b.includes[1], "sub/build.ninja");
	assert_string_equal(buildninja_var(&b, "cmake_ninja_workdir"), "/build/pytorch/build/");
	assert_null(buildninja_var(&b, "DEFINES"));	/* a binding, not top level */

	e = &b.edges[0];
	assert_string_equal(e->rule, "CXX_COMPILER__c10_unscanned_Debug");
	assert_int_equal(e->n_outs, 1);
	assert_int_equal(e->n_ins, 2);
	assert_int_equal(e->n_explicit_ins, 1);
	assert_int_equal(e->n_implicit_ins, 0);
	assert_string_equal(e->ins[1], "cmake_object_order_depends_target_c10");
	assert_int_equal(e->line, 9);

	e = &b.edges[1];	/* continuation, implicit out, implicit in, validation */
	assert_int_equal(e->n_outs, 2);
	assert_int_equal(e->n_explicit_outs, 1);
	assert_string_equal(e->outs[1], "lib/libc10.so.debug");
	assert_int_equal(e->n_ins, 3);
	assert_int_equal(e->n_explicit_ins, 2);
	assert_int_equal(e->n_implicit_ins, 1);
	assert_string_equal(e->ins[1], "c10/CMakeFiles/c10.dir/core/B.cpp.o");
	assert_string_equal(e->ins[2], "/usr/lib/libnuma.so");

	assert_string_equal(b.edges[2].rule, "phony");
	assert_string_equal(b.edges[3].outs[0], "with space:colon.o");
	assert_string_equal(b.edges[3].ins[0], "a$b.c");
	/* "dir$" then a blank line: the continuation ends at the blank. */
	assert_int_equal(b.edges[4].n_outs, 2);
	assert_string_equal(b.edges[4].ins[1], "dir");

	buildninja_index(&b);
	assert_int_equal(buildninja_producer(&b, "lib/libc10.so"), 1);
	assert_int_equal(buildninja_producer(&b, "lib/libc10.so.debug"), 1);
	assert_int_equal(buildninja_producer(&b, "gen/y.h"), 4);
	assert_int_equal(buildninja_producer(&b, "nothing"), (size_t)-1);
	buildninja_release(&b);
	pt_diag_release(&d);
}

static void malformed(void **state)
{
	struct buildninja b;
	struct pt_diag d;
	static const uint8_t nul[] = "build a: r b\0\n";
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(buildninja_parse(P("build : r x\n"
					    "build a b\n"
					    "build a: \n"
					    "build a: r x || y | z\n"
					    "build a | | b: r\n"
					    "build a: r x : y\n"
					    "what is this\n"
					    "= value\n"
					    "build ok: r in\n"), &b, "m", &d), 0);
	assert_int_equal(b.n_edges, 1);
	assert_string_equal(b.edges[0].outs[0], "ok");
	assert_int_equal(b.n_bad, 8);
	assert_string_equal(d.v[0].where, "line 1");
	assert_string_equal(d.v[6].what, "neither a statement nor a 'name = value' binding");
	buildninja_index(&b);
	buildninja_release(&b);
	pt_diag_release(&d);

	pt_diag_init(&d);
	assert_int_equal(buildninja_parse(nul, sizeof(nul) - 1, &b, "m", &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	pt_diag_release(&d);

	pt_diag_init(&d);
	assert_int_equal(buildninja_parse((const uint8_t *)"x = $", 5, &b, "m", &d), 0);
	assert_int_equal(b.n_vars, 1);
	buildninja_index(&b);
	assert_int_equal(buildninja_producer(&b, "x"), (size_t)-1);
	buildninja_release(&b);
	pt_diag_release(&d);
}

/* A line over 64 MiB: one warning naming it, its start kept, the next line read as usual. */
static void line_over_limit(void **state)
{
	static const char head[] = "build big: r ", tail[] = "\nbuild ok: r in\n";
	size_t fill = (64u << 20) + 10, n = sizeof(head) - 1 + fill + sizeof(tail) - 1;
	uint8_t *buf = malloc(n);
	struct buildninja b;
	struct pt_diag d;

	(void)state;
	assert_non_null(buf);
	memcpy(buf, head, sizeof(head) - 1);
	memset(buf + sizeof(head) - 1, 'a', fill);
	memcpy(buf + n - (sizeof(tail) - 1), tail, sizeof(tail) - 1);
	pt_diag_init(&d);
	assert_int_equal(buildninja_parse(buf, n, &b, "m", &d), 0);
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 1);
	assert_string_equal(d.v[0].where, "line 1");
	assert_string_equal(d.v[0].what, "line longer than 64 MiB: its end is cut");
	assert_int_equal(b.n_edges, 2);
	assert_string_equal(b.edges[0].outs[0], "big");
	assert_int_equal(strlen(b.edges[0].ins[0]), (64u << 20) - (sizeof(head) - 1));
	assert_string_equal(b.edges[1].outs[0], "ok");
	buildninja_release(&b);
	pt_diag_release(&d);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(statements),
		cmocka_unit_test(malformed),
		cmocka_unit_test(line_over_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
