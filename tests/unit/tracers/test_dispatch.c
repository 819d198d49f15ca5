/*
 * tracers/parse/dispatch.c: dispatcher trace lines (1.13's unindented form, 2.x depth,
 * labels, overloads, near misses refused) and torn lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

static void call(const char *line, int rc, const char *label, int depth, const char *op,
		 const char *ovl, const char *key)
{
	struct dispatch_call c;
	size_t len = strlen(line);

	assert_int_equal(dispatch_parse((const uint8_t *)line, len, &c), rc);
	if (rc)
		return;
	assert_string_equal(dispatch_label_name(c.label), label);
	assert_int_equal(c.depth, depth);
	assert_int_equal(c.op_len, strlen(op));
	assert_memory_equal(line + c.op_off, op, c.op_len);
	assert_int_equal(c.ovl_len, strlen(ovl));
	assert_memory_equal(line + c.ovl_off, ovl, c.ovl_len);
	assert_int_equal(c.key_len, strlen(key));
	assert_memory_equal(line + c.key_off, key, c.key_len);
}

/* Dispatcher lines: 1.13's unindented form, 2.x depth, labels, overloads; near misses refused. */
static void dispatch_lines(void **state)
{
	(void)state;
	call("[call] op=[aten::add.Tensor], key=[AutogradCPU]", 0, "call", -1, "aten::add", "Tensor",
	     "AutogradCPU");
	call(" [call] op=[aten::ones], key=[BackendSelect]", 0, "call", 1, "aten::ones", "", "BackendSelect");
	call("    [redispatch] op=[aten::empty.memory_format], key=[CPU]", 0, "redispatch", 4,
	     "aten::empty", "memory_format", "CPU");
	call("  [redispatchBoxed] op=[aten::view], key=[AutogradCPU]", 0, "redispatchBoxed", 2,
	     "aten::view", "", "AutogradCPU");
	call(" [callBoxed] op=[aten::_foreach_add_.List], key=[CPU]", 0, "callBoxed", 1,
	     "aten::_foreach_add_", "List", "CPU");
	call(" [call] op=[myops::f.x.y], key=[CPU]", 0, "call", 1, "myops::f", "x.y", "CPU");
	call("[call] op=[aten::add.Tensor], key=[AutogradCPU] ", -1, "", 0, "", "", "");
	call("[call] op=[], key=[CPU]", -1, "", 0, "", "", "");
	call("[calls] op=[aten::add], key=[CPU]", -1, "", 0, "", "", "");
	call("[call] op=[aten::add], key=[]", -1, "", 0, "", "", "");
	call("[call] op=[aten::add]", -1, "", 0, "", "", "");
	call("DLS size: 1", -1, "", 0, "", "", "");
}

/* Torn lines: the call at the end is found, the head recognised, the tail too. */
static void torn(void **state)
{
	const char *l1 = " [call] op=[aten::ad  [call] op=[aten::mul.Tensor], key=[CPU]";
	const char *l2 = "d.Tensor], key=[AutogradCPU]";
	struct dispatch_call c;

	(void)state;
	assert_int_equal(dispatch_parse((const uint8_t *)l1, strlen(l1), &c), -1);
	assert_int_equal(dispatch_parse_torn((const uint8_t *)l1, strlen(l1), &c), 0);
	assert_int_equal(c.start, strlen(" [call] op=[aten::ad"));
	assert_memory_equal(l1 + c.op_off, "aten::mul", c.op_len);
	assert_int_equal(c.depth, 2);
	assert_true(dispatch_is_head((const uint8_t *)l1, c.start));
	assert_true(dispatch_is_tail((const uint8_t *)l2, strlen(l2)));
	assert_false(dispatch_is_tail((const uint8_t *)l1, strlen(l1)));
	assert_false(dispatch_is_head((const uint8_t *)l2, strlen(l2)));
	assert_int_equal(dispatch_parse_torn((const uint8_t *)l2, strlen(l2), &c), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dispatch_lines),
		cmocka_unit_test(torn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
