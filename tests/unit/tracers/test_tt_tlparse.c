/*
 * tracers/torchtrace/tt_tlparse.c: tlparse's output folders and keys per compile id,
 * and which records become which output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "compileid.h"
#include "tt_query.h"
#include "tt_tlparse.h"

/* tlparse's names and numbers: directory of the id as written, key with the attempt folded. */
static void tlparse_dirs_and_keys(void **state)
{
	struct compileid rt = {COMPILEID_NONE, 0, 0, COMPILEID_NONE}, ca = {0, 1, 0, 2}, none;
	char b[64];
	json_t *meta = json_pack("{s:s}", "filename", "/tmp/x/c2abc.def.py");

	(void)state;
	compileid_clear(&none);
	tt_tlparse_dir(&rt, b, sizeof(b));
	assert_string_equal(b, "-_0_0_-");
	tt_tlparse_dir(&none, b, sizeof(b));
	assert_string_equal(b, "-_-_-_-");
	tt_tlparse_key(&none, b, sizeof(b));
	assert_string_equal(b, "[-/-]");
	tt_tlparse_key(&ca, b, sizeof(b));
	assert_string_equal(b, "[!0/1/0_2]");
	assert_int_equal(tt_tlparse_output("inductor_output_code", meta, "", 0, b, sizeof(b)), 'p');
	assert_string_equal(b, "inductor_output_code_c2abc.def.txt");
	json_decref(meta);
	meta = json_pack("{s:s, s:s}", "name", "../x", "encoding", "json");
	assert_int_equal(tt_tlparse_output("artifact", meta, "", 0, b, sizeof(b)), 'p');
	assert_string_equal(b, ".._x.json");
	json_decref(meta);
	meta = json_pack("{s:s, s:s}", "name", "n", "url", "http://x");
	assert_int_equal(tt_tlparse_output("link", meta, "", 0, b, sizeof(b)), 'l');
	json_decref(meta);
	meta = json_object();
	assert_int_equal(tt_tlparse_output("dynamo_guards", meta, "[{\"code\": \"x\"}]", 15, b, sizeof(b)), 'j');
	assert_int_equal(tt_tlparse_output("dynamo_guards", meta, "[1]", 3, b, sizeof(b)), 0);
	assert_int_equal(tt_tlparse_output("chromium_event", meta, "{}", 2, b, sizeof(b)), 0);
	json_decref(meta);
	/* dump_file: tlparse's page names (parsers.rs DumpFileParser). */
	meta = json_pack("{s:s}", "name", "<eval_with_key>.12");
	assert_int_equal(tt_tlparse_output("dump_file", meta, "x", 1, b, sizeof(b)), 'g');
	assert_string_equal(b, "eval_with_key_12.html");
	json_decref(meta);
	meta = json_pack("{s:s}", "name", "/tmp/a/gen.py");
	assert_int_equal(tt_tlparse_output("dump_file", meta, "x", 1, b, sizeof(b)), 'g');
	assert_string_equal(b, "_tmp_a_gen.py.html");
	json_decref(meta);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tlparse_dirs_and_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
