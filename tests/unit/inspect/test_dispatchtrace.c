/*
 * inspect/torch/dispatchtrace.c: whether a build prints TORCH_SHOW_DISPATCH_TRACE
 * (torch-trace-formats.md §8), from its show_config.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "dispatchtrace.h"
#include "showconfig.h"
#include "xalloc.h"

/* The dispatch-trace rules of torch-trace-formats.md §8, one row each. */
static void dispatch_trace_rules(void **state)
{
	static const struct {
		const char *text;
		int debug, want;
	} t[] = {
		/* RelWithDebInfo defines NDEBUG: nothing (Debian 1.13). */
		{ "  - Build settings: BUILD_TYPE=RelWithDebInfo, TORCH_VERSION=1.13.0, ", 0, 0 },
		/* A Debug build prints. */
		{ "  - Build settings: BUILD_TYPE=Debug, TORCH_VERSION=2.1.0, ", 1, 1 },
		/* 2.7+: Release with -DHAS_TORCH_SHOW_DISPATCH_TRACE prints. */
		{ "  - Build settings: BUILD_TYPE=Release, CXX_FLAGS=-O2 -DHAS_TORCH_SHOW_DISPATCH_TRACE, TORCH_VERSION=2.7.0, ", 0, 1 },
		/* Before 2.7 the macro does nothing. */
		{ "  - Build settings: BUILD_TYPE=Release, CXX_FLAGS=-O2 -DHAS_TORCH_SHOW_DISPATCH_TRACE, TORCH_VERSION=2.6.0, ", 0, 0 },
		/* Nothing to tell from. */
		{ "  - GCC 12.2", -1, -1 },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(t); i++) {
		struct showconfig c;
		struct dispatchtrace dt;
		struct pt_diag d;

		pt_diag_init(&d);
		assert_int_equal(showconfig_parse((const uint8_t *)t[i].text, strlen(t[i].text), &c, "t", &d), 0);
		dispatchtrace_check(&c, NULL, t[i].debug, NULL, &dt, &d);
		if (dt.can_print != t[i].want)
			fail_msg("row %zu: can_print %d, want %d (%s)", i, dt.can_print, t[i].want, dt.why);
		assert_true((dt.rebuild != NULL) == (t[i].want != 1));
		dispatchtrace_release(&dt);
		showconfig_release(&c);
		pt_diag_release(&d);
	}
	assert_int_equal(dispatchtrace_text_present((const unsigned char *)"x], key=[y", 10), 1);
	assert_int_equal(dispatchtrace_text_present((const unsigned char *)"], key=", 7), 0);
}

/* What the check reads of a library, for elfobj_read_ahead: its .rodata sections, nothing else. */
static void ranges_are_rodata(void **state)
{
	struct elfobj o;
	struct pt_diag d;
	struct elfobj_range *r;
	size_t n, want = 0;

	(void)state;
	pt_diag_init(&d);
	/* zlib1g is in every Debian system (Priority: required); it has a .rodata. */
	assert_int_equal(elfobj_open(&o, "/lib/x86_64-linux-gnu/libz.so.1", &d), 0);
	n = dispatchtrace_ranges(&o, &r);
	for (size_t i = 0; i < o.n_sections; i++) {
		const struct elf_section *s = &o.sections[i];

		if (strcmp(s->name, ".rodata") && strncmp(s->name, ".rodata.", 8))
			continue;
		assert_true(want < n);
		assert_true(r[want].off == s->offset && r[want].len == s->size);
		want++;
	}
	assert_int_equal(n, want);
	assert_true(n >= 1);
	free(r);
	elfobj_release(&o);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dispatch_trace_rules),
		cmocka_unit_test(ranges_are_rodata),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
