/*
 * tracers/render/render_runs.c over structs made in the test: `pttrace ls`
 * and `pttrace show` as text and JSON, whole. The JSON keys keep the order
 * show has always printed (the runs row's columns, duration_s, env,
 * warnings, files, crash, the TORCH_LOGS part, indexed, the TORCH_TRACE
 * part, counts); NULL columns are null; the text says "interrupted" for a
 * lost run, takes the larger of the TORCH_LOGS and TORCH_TRACE counts, shows
 * a traceback by its exception line, cuts at 100 columns with --short and
 * stops a list after 10 records. Times in UTC.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonout.h"
#include "render_runs.h"

#define START 1795315638000000	/* 2026-11-22 02:47:18 UTC */

static char *text_of(void (*fn)(FILE *, const void *, const void *), const void *a, const void *b)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	fn(f, a, b);
	fclose(f);
	return buf;
}

static char *json_of(json_t *j)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	assert_int_equal(pt_json_print(f, j), 0);
	fclose(f);
	json_decref(j);
	return buf;
}

static const struct pt_style plain = { 0 };

static void ls_text(FILE *f, const void *l, const void *unused)
{
	(void)unused;
	render_runs_text(f, l, &plain);
}

static void ls_rows(struct run_row *v)
{
	memset(v, 0, 2 * sizeof(*v));
	v[0] = (struct run_row){ .id = 1, .name = "base", .source = "run", .status = "exited",
				 .argv_json = "[\"python3\",\"t.py\"]", .cwd = "/w", .torch_version = "2.6.0",
				 .started_us = START, .ended_us = START + 2500000, .exit_code = 3,
				 .signal = -1, .pid = -1, .pttrace_pid = -1, .torch_debug = -1 };
	v[1] = (struct run_row){ .id = 2, .source = "import", .status = "lost", .tag = "t",
				 .argv_json = "[\"pttrace\",\"import\",\"x\"]", .started_us = START,
				 .ended_us = -1, .exit_code = -1, .signal = -1, .pid = -1,
				 .pttrace_pid = -1, .torch_debug = -1 };
}

static void ls_whole(void **state)
{
	struct run_row v[2];
	struct run_list l = { v, 2 }, none = { NULL, 0 };
	char *t;

	(void)state;
	ls_rows(v);
	t = text_of(ls_text, &l, NULL);
	assert_string_equal(t,
		"ID    NAME         STATUS               STARTED               SECONDS  COMMAND\n"
		"1     base         exit 3               2026-11-22 02:47:18       2.5  python3 t.py\n"
		"2     -            interrupted          2026-11-22 02:47:18            pttrace import x\n");
	free(t);
	t = text_of(ls_text, &none, NULL);
	assert_string_equal(t, "");
	free(t);
	t = json_of(render_runs_json(&l));
	assert_string_equal(t,
		"[\n"
		"  {\n"
		"    \"id\": 1,\n"
		"    \"name\": \"base\",\n"
		"    \"tag\": null,\n"
		"    \"source\": \"run\",\n"
		"    \"status\": \"exited\",\n"
		"    \"exit_code\": 3,\n"
		"    \"signal\": null,\n"
		"    \"started_us\": 1795315638000000,\n"
		"    \"ended_us\": 1795315640500000,\n"
		"    \"argv\": \"[\\\"python3\\\",\\\"t.py\\\"]\",\n"
		"    \"cwd\": \"/w\",\n"
		"    \"torch_version\": \"2.6.0\"\n"
		"  },\n"
		"  {\n"
		"    \"id\": 2,\n"
		"    \"name\": null,\n"
		"    \"tag\": \"t\",\n"
		"    \"source\": \"import\",\n"
		"    \"status\": \"lost\",\n"
		"    \"exit_code\": null,\n"
		"    \"signal\": null,\n"
		"    \"started_us\": 1795315638000000,\n"
		"    \"ended_us\": null,\n"
		"    \"argv\": \"[\\\"pttrace\\\",\\\"import\\\",\\\"x\\\"]\",\n"
		"    \"cwd\": null,\n"
		"    \"torch_version\": null\n"
		"  }\n"
		"]\n");
	free(t);
}

static void show_text(FILE *f, const void *v, const void *o)
{
	render_run_show_text(f, v, o, &plain);
}

static char tb[] = "Traceback (most recent call last):\n  File \"/x/y.py\", line 3, in <module>\nValueError: boom\n";
static char crash_text[] = "Fatal Python error: Segmentation fault\n\nCurrent thread 0x1 (most recent call first):";
static char long_line[] =
	"Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed from 3 to 4";

static const char show_json_expected[] =
	"{\n"
	"  \"id\": 7,\n"
	"  \"name\": \"seg\",\n"
	"  \"tag\": null,\n"
	"  \"source\": \"run\",\n"
	"  \"argv\": [\n"
	"    \"python3\",\n"
	"    \"t.py\"\n"
	"  ],\n"
	"  \"cwd\": \"/w\",\n"
	"  \"host\": \"h\",\n"
	"  \"python\": null,\n"
	"  \"torch_version\": null,\n"
	"  \"torch_debug\": null,\n"
	"  \"torch_build_type\": null,\n"
	"  \"logs_spec\": \"+dynamo\",\n"
	"  \"dispatch\": 0,\n"
	"  \"trace\": 1,\n"
	"  \"started_us\": 1795315638000000,\n"
	"  \"ended_us\": 1795315639250000,\n"
	"  \"tz_offset_s\": 0,\n"
	"  \"pid\": 99,\n"
	"  \"pttrace_pid\": 98,\n"
	"  \"status\": \"signaled\",\n"
	"  \"exit_code\": null,\n"
	"  \"signal\": 11,\n"
	"  \"bytes_stdout\": 0,\n"
	"  \"bytes_stderr\": 12,\n"
	"  \"pttrace_version\": \"0.1.0\",\n"
	"  \"duration_s\": 1.25,\n"
	"  \"env\": [\n"
	"    {\n"
	"      \"name\": \"TORCH_LOGS\",\n"
	"      \"value\": \"+dynamo\"\n"
	"    }\n"
	"  ],\n"
	"  \"warnings\": [\n"
	"    {\n"
	"      \"code\": \"no-torch\",\n"
	"      \"message\": \"torch was not found\"\n"
	"    }\n"
	"  ],\n"
	"  \"files\": [\n"
	"    {\n"
	"      \"path\": \"order.bin\",\n"
	"      \"role\": \"order\",\n"
	"      \"bytes\": null\n"
	"    },\n"
	"    {\n"
	"      \"path\": \"stderr.log\",\n"
	"      \"role\": \"stderr\",\n"
	"      \"bytes\": 12\n"
	"    }\n"
	"  ],\n"
	"  \"crash\": {\n"
	"    \"signal\": 11,\n"
	"    \"core_dumped\": 0,\n"
	"    \"core_limit\": null,\n"
	"    \"core_pattern\": null,\n"
	"    \"core_path\": null,\n"
	"    \"core_note\": \"no core file\",\n"
	"    \"gdb\": null\n"
	"  },\n"
	"  \"lines_by_kind\": [\n"
	"    {\n"
	"      \"kind\": \"crash\",\n"
	"      \"lines\": 3,\n"
	"      \"records\": 1\n"
	"    },\n"
	"    {\n"
	"      \"kind\": \"log\",\n"
	"      \"lines\": 12,\n"
	"      \"records\": 12\n"
	"    }\n"
	"  ],\n"
	"  \"graph_breaks\": [],\n"
	"  \"recompiles\": [\n"
	"    {\n"
	"      \"seq\": 0,\n"
	"      \"rank\": null,\n"
	"      \"frame_id\": 3,\n"
	"      \"frame_compile_id\": 0,\n"
	"      \"attempt\": 0,\n"
	"      \"text\": \"Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed from 3 to 4\"\n"
	"    }\n"
	"  ],\n"
	"  \"errors\": [\n"
	"    {\n"
	"      \"seq\": 20,\n"
	"      \"kind\": \"traceback\",\n"
	"      \"level\": 40,\n"
	"      \"rank\": null,\n"
	"      \"text\": \"Traceback (most recent call last):\\n  File \\\"/x/y.py\\\", line 3, in <module>\\nValueError: boom\\n\"\n"
	"    }\n"
	"  ],\n"
	"  \"crashes\": [\n"
	"    {\n"
	"      \"seq\": 21,\n"
	"      \"stream\": 2,\n"
	"      \"src_file\": \"/x/crash.py\",\n"
	"      \"src_line\": 7,\n"
	"      \"text\": \"Fatal Python error: Segmentation fault\\n\\nCurrent thread 0x1 (most recent call first):\"\n"
	"    }\n"
	"  ],\n"
	"  \"indexed\": [\n"
	"    {\n"
	"      \"part\": \"lines\",\n"
	"      \"version\": 3,\n"
	"      \"state\": \"done\"\n"
	"    }\n"
	"  ],\n"
	"  \"payload_md5_mismatches\": 1,\n"
	"  \"records_by_kind\": {\n"
	"    \"dynamo_start\": 4\n"
	"  },\n"
	"  \"ranks\": [\n"
	"    0,\n"
	"    1\n"
	"  ],\n"
	"  \"torch_trace\": {\n"
	"    \"damaged_lines\": 0,\n"
	"    \"files\": 1,\n"
	"    \"records\": 4,\n"
	"    \"bytes\": 100,\n"
	"    \"torch_version\": \"2.14.1\",\n"
	"    \"compiles\": 2,\n"
	"    \"autograd_captures\": 0,\n"
	"    \"failed_compiles\": 1,\n"
	"    \"graph_breaks\": 2,\n"
	"    \"recompiles\": 3\n"
	"  },\n"
	"  \"processes\": [\n"
	"    {\n"
	"      \"process\": 1,\n"
	"      \"path\": \"trace/rank_0.log\",\n"
	"      \"pid\": 500,\n"
	"      \"rank\": 0,\n"
	"      \"rank_source\": \"file\",\n"
	"      \"name_rank\": 0,\n"
	"      \"json_rank\": null,\n"
	"      \"rank_conflict\": null,\n"
	"      \"other_rank\": 0,\n"
	"      \"records\": 4\n"
	"    }\n"
	"  ],\n"
	"  \"counts\": {\n"
	"    \"graph_breaks\": {\n"
	"      \"total\": 2,\n"
	"      \"torch_logs\": 0,\n"
	"      \"torch_trace\": 2\n"
	"    },\n"
	"    \"recompiles\": {\n"
	"      \"total\": 3,\n"
	"      \"torch_logs\": 1,\n"
	"      \"torch_trace\": 3\n"
	"    },\n"
	"    \"errors\": {\n"
	"      \"total\": 2,\n"
	"      \"torch_logs\": 1,\n"
	"      \"torch_trace\": 1\n"
	"    }\n"
	"  }\n"
	"}\n";

static void show_whole(void **state)
{
	char *argv[] = { "python3", "t.py" };
	struct run_env_var env[] = { { "TORCH_LOGS", "+dynamo" } };
	struct run_warning warn[] = { { "no-torch", "torch was not found" } };
	struct run_file_row files[] = { { "order.bin", "order", -1 }, { "stderr.log", "stderr", 12 } };
	struct run_part_row parts[] = { { "lines", "done", 3 } };
	struct run_crash_row crash = { .signal = 11, .core_limit_null = 1, .core_note = "no core file" };
	struct run_show rs = {
		.run = { .id = 7, .name = "seg", .source = "run", .status = "signaled", .signal = 11,
			 .exit_code = -1, .argv_json = "[\"python3\",\"t.py\"]", .cwd = "/w", .host = "h",
			 .logs_spec = "+dynamo", .trace = 1, .started_us = START,
			 .ended_us = START + 1250000, .pid = 99, .pttrace_pid = 98, .torch_debug = -1,
			 .bytes_stdout = 0, .bytes_stderr = 12, .pttrace_version = "0.1.0" },
		.argv = argv, .argc = 2, .has_duration = 1, .duration_s = 1.25,
		.env = env, .n_env = 1, .warnings = warn, .n_warnings = 1, .files = files, .n_files = 2,
		.indexed = parts, .n_indexed = 1, .crash = &crash,
	};
	struct logs_show_kind kinds[] = { { "crash", 3, 1 }, { "log", 12, 12 } };
	struct logs_show_event rec[12];
	struct logs_show_error errs[] = {
		{ 20, 40, LOGS_NULL, "traceback", { tb, sizeof(tb) - 1 } },
	};
	struct logs_show_crash crs[] = { { 21, 2, 7, "/x/crash.py", { crash_text, sizeof(crash_text) - 1 } } };
	struct logs_show ls = { .kinds = kinds, .n_kinds = 2, .recompiles = rec, .n_recompiles = 12,
				.errors = errs, .n_errors = 1, .crashes = crs, .n_crashes = 1 };
	struct tt_show_kind by[] = { { "dynamo_start", 4 } };
	int64_t ranks[] = { 0, 1 };
	struct tt_show_process procs[] = {
		{ 1, 500, 0, 0, TT_SHOW_NULL, 0, 4, "trace/rank_0.log", "file", NULL },
	};
	struct tt_show tt = { .by_kind = by, .n_kinds = 1, .files = 1, .records = 4, .bytes = 100,
			      .md5_mismatches = 1, .ranks = ranks, .n_ranks = 2, .compiles = 2,
			      .failed_compiles = 1, .graph_breaks = 2, .recompiles = 3,
			      .processes = procs, .n_processes = 1 };
	struct run_show_view v = { &rs, &ls, &tt };
	struct render_run_show_opts cut = { 1 }, whole = { 0 };
	char *t, *t2;

	(void)state;
	for (int i = 0; i < 12; i++)
		rec[i] = (struct logs_show_event){ i, LOGS_NULL, 3, i, 0, { long_line, sizeof(long_line) - 1 } };
	t = text_of(show_text, &v, &cut);
	assert_string_equal(t,
		"run 7 (seg)\n"
		"  crash:    signal 11 (SIGSEGV) at /x/crash.py:7: Fatal Python error: Segmentation fault\n"
		"            no core file\n"
		"  command:  python3 t.py\n"
		"  cwd:      /w\n"
		"  status:   signal 11 (Segmentation fault)\n"
		"  started:  2026-11-22 02:47:18, 1.25 s\n"
		"  TORCH_LOGS=+dynamo\n"
		"  output:   0 bytes stdout, 12 bytes stderr\n"
		"  warning:  torch was not found\n"
		"  lines:    crash 3 log 12\n"
		"  torch_trace: 1 file, 4 records, 1 payload md5 mismatch, 0 damaged lines, ranks: 0 1\n"
		"  graph_breaks: 2 (TORCH_TRACE 2, TORCH_LOGS 0)\n"
		"  recompiles: 12 (TORCH_TRACE 3, TORCH_LOGS 12)\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed fr...\n"
		"    ... 2 more\n"
		"  errors: 2 (TORCH_TRACE 1 failed compiles, TORCH_LOGS 1)\n"
		"    ValueError: boom\n");
	/* Without --short the line is whole. */
	t2 = text_of(show_text, &v, &whole);
	assert_non_null(strstr(t2, "\n    Recompiling function h in /x/a.py:8 because of a guard that failed on a tensor whose size changed from 3 to 4\n"));
	free(t2);
	free(t);
	/* --json: one recompile is enough; the trace's torch_version goes after bytes. */
	ls.n_recompiles = 1;
	tt.torch_version = "2.14.1";
	t = json_of(render_run_show_json(&v));
	assert_string_equal(t, show_json_expected);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ls_whole),
		cmocka_unit_test(show_whole),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
