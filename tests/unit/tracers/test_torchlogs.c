/* tracers/parse/torchlogs.c: what one TORCH_LOGS line is, field by field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "torchlogs.h"
#include "xalloc.h"

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
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
