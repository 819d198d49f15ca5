/* tracers/torchlogs and dispatch: what one line is, field by field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "dispatch.h"
#include "torchlogs.h"

#define N COMPILEID_NONE

struct row {
	const char *line;
	enum torchlogs_kind kind;
	int levelno, rank;
	int64_t frame, compile, attempt, ca;
	const char *artifact;	/* "" when none */
	const char *msg;
	const char *key;	/* the shared prefix */
	const char *why;
};

static const struct row rows[] = {
	{ "V1122 02:47:18.461000 9740 torch/_dynamo/guards.py:2321] [0/0_1] [__guards] | +- GLOBAL_STATE",
	  TORCHLOGS_LOG, 10, -1, 0, 0, 1, N, "guards", "| +- GLOBAL_STATE",
	  "V1122 02:47:18.461000 9740 torch/_dynamo/guards.py:2321] [0/0_1] [__guards] ",
	  "compile id with attempt and artifact" },
	{ "V1122 02:47:18.461000 9740 torch/_dynamo/guards.py:2321] [0/0_1] [__guards] ",
	  TORCHLOGS_LOG, 10, -1, 0, 0, 1, N, "guards", "",
	  "V1122 02:47:18.461000 9740 torch/_dynamo/guards.py:2321] [0/0_1] [__guards] ",
	  "empty message line of a multi-line record" },
	{ "I1122 02:54:05.387000 31998 torch/_dynamo/compiled_autograd.py:1237] [!0] [__compiled_autograd] TRACED GRAPH",
	  TORCHLOGS_LOG, 20, -1, N, N, N, 0, "compiled_autograd", "TRACED GRAPH",
	  "I1122 02:54:05.387000 31998 torch/_dynamo/compiled_autograd.py:1237] [!0] [__compiled_autograd] ",
	  "compiled autograd id" },
	{ "[rank1]:I1122 02:48:32.452000 11559 torch/_dynamo/symbolic_convert.py:2706] [0/0] Step 1: go",
	  TORCHLOGS_LOG, 20, 1, 0, 0, N, N, "", "Step 1: go",
	  "[rank1]:I1122 02:48:32.452000 11559 torch/_dynamo/symbolic_convert.py:2706] [0/0] ",
	  "rank prefix, no artifact" },
	{ "I1122 02:47:20.000000 9740 torch/_dynamo/utils.py:1] TorchDynamo compilation metrics:",
	  TORCHLOGS_LOG, 20, -1, N, N, N, N, "", "TorchDynamo compilation metrics:",
	  "I1122 02:47:20.000000 9740 torch/_dynamo/utils.py:1] ", "no compile id" },
	{ "I1122 02:47:20.000000 9740 torch/x.py:1] [0/0]tight", TORCHLOGS_LOG, 20, -1, N, N, N, N,
	  "", "[0/0]tight", "I1122 02:47:20.000000 9740 torch/x.py:1] ",
	  "an id not followed by a space is message text" },
	{ "[W1122 02:54:13.085491037 ProcessGroupGloo.cpp:527] Warning: Unable to resolve",
	  TORCHLOGS_CPP, 30, -1, N, N, N, N, "", "Warning: Unable to resolve",
	  "[W1122 02:54:13.085491037 ProcessGroupGloo.cpp:527] ", "c10 C++ warning" },
	{ "W20261122 03:40:01.833858 11342 Copy.cpp:250] Warning: Casting complex",
	  TORCHLOGS_CPP, 30, -1, N, N, N, N, "", "Warning: Casting complex",
	  "W20261122 03:40:01.833858 11342 Copy.cpp:250] ", "glog with year" },
	{ "[2024-02-13 19:34:50,591] [0/0] torch._dynamo.guards.__guards: [DEBUG] GUARDS:",
	  TORCHLOGS_LOG, 10, -1, 0, 0, N, N, "guards", "GUARDS:",
	  "[2024-02-13 19:34:50,591] [0/0] torch._dynamo.guards.__guards: [DEBUG] ",
	  "BACKCOMPAT torch 2.1/2.2 form" },
	{ "[2024-02-13 19:34:50,591] torch._dynamo.eval_frame: [INFO] hi",
	  TORCHLOGS_LOG, 20, -1, N, N, N, N, "", "hi",
	  "[2024-02-13 19:34:50,591] torch._dynamo.eval_frame: [INFO] ", "old form, no id" },
	{ "[2024-02-13 19:34:50,591] torch._dynamo: [NOTICE] hi", TORCHLOGS_NONE, 0, -1, N, N, N, N,
	  "", "", "", "old form with an unknown level is not a log line" },
	{ "Traceback (most recent call last):", TORCHLOGS_NONE, 0, -1, N, N, N, N, "", "", "",
	  "plain text" },
	{ "[rank0]: Traceback (most recent call last):", TORCHLOGS_NONE, 0, -1, N, N, N, N, "", "",
	  "", "rank-prefixed plain text (torchrun) is not a log line" },
};

static void lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct torchlogs_line t;
		size_t len = strlen(r->line);

		print_message("%s\n", r->why);
		assert_int_equal(torchlogs_parse((const uint8_t *)r->line, len, &t), r->kind);
		if (r->kind == TORCHLOGS_NONE)
			continue;
		assert_int_equal(t.g.levelno, r->levelno);
		assert_int_equal(t.g.rank, r->rank);
		assert_int_equal(t.cid.frame, r->frame);
		assert_int_equal(t.cid.compile, r->compile);
		assert_int_equal(t.cid.attempt, r->attempt);
		assert_int_equal(t.cid.ca, r->ca);
		assert_int_equal(t.artifact_len, strlen(r->artifact));
		assert_memory_equal(r->line + t.artifact_off, r->artifact, t.artifact_len);
		assert_string_equal(r->line + t.msg_off, r->msg);
		assert_int_equal(t.key_len, strlen(r->key));
		assert_memory_equal(r->line, r->key, t.key_len);
	}
}

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
		cmocka_unit_test(lines),
		cmocka_unit_test(dispatch_lines),
		cmocka_unit_test(torn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
