/*
 * buildcmds: ninja's command hash against what a real ninja run writes in
 * .ninja_log (commands of every length 1..40, so each tail length of the
 * 8-byte loop is met), and pinned values of that run; the shell-like
 * tokeniser (quotes, escapes, an open quote); the flag diff (a -D changed,
 * -O changed, a flag added and one removed, -D X written apart, the same
 * flags reordered, only blanks differing); the cache file's corners (not
 * ours, another version, a stale hash, a NUL in a command, a bad hex hash,
 * duplicate keys), the merge (the latest earlier command kept, outputs now
 * gone dropped) and the size cap.
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

#include "buildcmds.h"

#define P(s) (const uint8_t *)(s), strlen(s)
#define S(s) (s), strlen(s)

/* The command of edge i: ":" and i - 1 letters, i bytes in all. */
static void command_of(size_t i, char *buf)
{
	buf[0] = ':';
	buf[1] = '\0';
	if (i > 1) {
		buf[1] = ' ';
		for (size_t k = 2; k < i; k++)
			buf[k] = (char)('a' + k % 26);
		buf[i] = '\0';
	}
}

static void hash_against_ninja(void **state)
{
	char dir[] = "/tmp/ptcmdhash.XXXXXX", path[256], cmd[64], line[512];
	FILE *f;
	size_t seen = 0;
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/build.ninja", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (size_t i = 1; i <= 40; i++) {
		command_of(i, cmd);
		fprintf(f, "rule r%zu\n  command = %s\nbuild o%zu: r%zu\n", i, cmd, i, i);
	}
	fclose(f);
	snprintf(line, sizeof(line), "ninja -C %s >/dev/null 2>&1", dir);
	assert_int_equal(system(line), 0);
	snprintf(path, sizeof(path), "%s/.ninja_log", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long h;
		size_t i;
		char out[64];

		if (line[0] == '#')
			continue;
		/* START END MTIME OUTPUT HASH (v5, v6) */
		assert_int_equal(sscanf(line, "%*d\t%*d\t%*d\t%63s\t%llx", out, &h), 2);
		assert_int_equal(sscanf(out, "o%zu", &i), 1);
		command_of(i, cmd);
		assert_int_equal(ninja_command_hash(cmd, strlen(cmd)), h);
		seen++;
	}
	fclose(f);
	assert_int_equal(seen, 40);
	for (size_t i = 1; i <= 40; i++) {
		snprintf(path, sizeof(path), "%s/o%zu", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/.ninja_log", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/build.ninja", dir);
	unlink(path);
	rmdir(dir);
}

/* Values ninja 1.11.1 wrote for these commands (tests/integration/inspect/build_since_last.sh checks more). */
static void hash_pinned(void **state)
{
	(void)state;
	assert_int_equal(ninja_command_hash(S("gcc -O0 -DLEVEL=1 -MD -MF a.o.d -c /tmp/fd/p/a.c -o a.o")),
			 0xc4b0644487dde039ull);
	assert_int_equal(ninja_command_hash(S("gcc -O0 -DLEVEL=1 -MD -MF b.o.d -c /tmp/fd/p/b.c -o b.o")),
			 0xf4fd0cd27b31dfb9ull);
}

static void tokens(void **state)
{
	char **t;
	size_t n;
	(void)state;

	assert_int_equal(cmd_tokenize(S("  gcc  -DA='x y' \"-DB=\\\"q\\\"\" a\\ b -c\t'it''s' \"\\n\" "), &t, &n), 0);
	assert_int_equal(n, 7);
	assert_string_equal(t[0], "gcc");
	assert_string_equal(t[1], "-DA=x y");
	assert_string_equal(t[2], "-DB=\"q\"");
	assert_string_equal(t[3], "a b");
	assert_string_equal(t[4], "-c");
	assert_string_equal(t[5], "its");
	assert_string_equal(t[6], "\\n");
	cmd_tokens_free(t, n);
	assert_int_equal(cmd_tokenize(S("a 'open"), &t, &n), -1);
	assert_int_equal(n, 1);
	cmd_tokens_free(t, n);
	assert_int_equal(cmd_tokenize(S("a \"open"), &t, &n), -1);
	assert_int_equal(n, 1);
	cmd_tokens_free(t, n);
	assert_int_equal(cmd_tokenize(S(""), &t, &n), 0);
	assert_int_equal(n, 0);
	cmd_tokens_free(t, n);
}

static void diff(void **state)
{
	struct cmd_diff d;
	(void)state;

	cmd_flag_diff("gcc -O0 -DLEVEL=1 -g -I/x -c a.c -o a.o", "gcc -O2 -DLEVEL=2 -DNEW -I/x -c a.c -o a.o", &d);
	assert_string_equal(d.text, "-O0 -> -O2, -DLEVEL=1 -> -DLEVEL=2, removed -g, added -DNEW");
	assert_int_equal(d.n, 4);
	assert_null(d.v[2].to);
	assert_null(d.v[3].from);
	cmd_flag_diff_release(&d);
	/* -D X apart is -DX; -std and -f[no-] pair; a -gencode with its argument */
	cmd_flag_diff("nvcc -D A=1 -std=c++17 -fno-rtti -gencode arch=compute_80,code=sm_80 -c a.cu",
		      "nvcc -DA=1 -std=c++20 -frtti -gencode arch=compute_90,code=sm_90 -c a.cu", &d);
	assert_string_equal(d.text, "-std=c++17 -> -std=c++20, -fno-rtti -> -frtti, "
				    "removed -gencode arch=compute_80,code=sm_80, added -gencode arch=compute_90,code=sm_90");
	cmd_flag_diff_release(&d);
	cmd_flag_diff("cc -DA -DB -c x.c", "cc -DB -DA -c x.c", &d);
	assert_string_equal(d.text, "the same flags in another order");
	assert_true(d.reordered);
	cmd_flag_diff_release(&d);
	cmd_flag_diff("cc  -c x.c", "'cc' -c x.c", &d);
	assert_string_equal(d.text, "the same flags (only blanks or quoting differ)");
	cmd_flag_diff_release(&d);
	/* a flag twice, once removed: the multiset counts */
	cmd_flag_diff("cc -Wall -Wall -c x.c", "cc -Wall -c x.c", &d);
	assert_string_equal(d.text, "removed -Wall");
	cmd_flag_diff_release(&d);
}

static void cache_file(void **state)
{
	struct cmd_cache c;
	struct pt_diag d;
	const char *cmd = "gcc -O0 -DLEVEL=1 -MD -MF a.o.d -c /tmp/fd/p/a.c -o a.o";
	char *doc;
	(void)state;

	pt_diag_init(&d);
	doc = malloc(1024);
	assert_non_null(doc);
	snprintf(doc, 1024,
		 "{\"format\": \"ptools-build-commands\", \"version\": 1, \"tree\": \"/t\", \"commands\": ["
		 "{\"output\": \"a.o\", \"hash\": \"c4b0644487dde039\", \"command\": \"%s\"},"
		 "{\"output\": \"b.o\", \"hash\": \"0000000000000001\", \"command\": \"stale\"},"
		 "{\"output\": \"c.o\", \"hash\": \"C4B0644487DDE039\", \"command\": \"%s\"},"
		 "{\"output\": \"d.o\", \"hash\": \"c4b06444\", \"command\": \"%s\"},"
		 "{\"output\": \"e.o\", \"hash\": \"%016llx\", \"command\": \"a\\u0000b\"},"
		 "{\"output\": 1, \"hash\": \"c4b0644487dde039\", \"command\": \"%s\"}, 7]}",
		 cmd, cmd, cmd, (unsigned long long)ninja_command_hash("a\0b", 3), cmd);
	assert_int_equal(cmd_cache_parse((const uint8_t *)doc, strlen(doc), &c, "cache", &d), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.tree, "/t");
	assert_non_null(cmd_cache_find(&c, "a.o", 0xc4b0644487dde039ull));
	assert_null(cmd_cache_find(&c, "a.o", 1));
	assert_null(cmd_cache_find(&c, "b.o", 1));
	assert_int_equal(pt_diag_count(&d, PT_SEV_NOTE), 1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 0);
	cmd_cache_release(&c);
	free(doc);
	/* not ours, another version, not JSON, duplicate keys, commands not an array */
	assert_int_equal(cmd_cache_parse(P("{\"format\": \"x\", \"version\": 1, \"commands\": []}"), &c, "c", &d), -1);
	assert_int_equal(cmd_cache_parse(P("{\"format\": \"ptools-build-commands\", \"version\": 2, \"commands\": []}"), &c,
					   "c", &d), -1);
	assert_int_equal(cmd_cache_parse(P("{\"format\": \"ptools-build-commands\", \"version\": 1, \"commands\": [}"), &c,
					   "c", &d), -1);
	assert_int_equal(cmd_cache_parse(P("{\"format\": \"ptools-build-commands\", \"format\": \"ptools-build-commands\","
					   " \"version\": 1, \"commands\": []}"), &c, "c", &d), -1);
	assert_int_equal(cmd_cache_parse(P("{\"format\": \"ptools-build-commands\", \"version\": 1, \"commands\": {}}"), &c,
					   "c", &d), -1);
	assert_int_equal(cmd_cache_parse(P(""), &c, "c", &d), -1);
	/* all of them notes: a damaged cache never makes the run's exit 1 */
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 0);
	pt_diag_release(&d);
}

static void merge_and_cap(void **state)
{
	struct cmd_cache now = { 0 }, old = { 0 }, out;
	size_t b1 = 0, b2 = 0;
	char *big;
	(void)state;

	cmd_cache_add(&now, "a.o", "cc -O2 -c a.c", &b1);
	cmd_cache_add(&now, "b.o", "cc -O0 -c b.c", &b1);
	cmd_cache_add(&old, "a.o", "cc -O1 -c a.c", &b2);	/* latest earlier */
	cmd_cache_add(&old, "b.o", "cc -O0 -c b.c", &b2);	/* the same as now: once */
	cmd_cache_add(&old, "a.o", "cc -O0 -c a.c", &b2);	/* older still: dropped */
	cmd_cache_add(&old, "gone.o", "cc -c gone.c", &b2);	/* no longer an edge */
	cmd_cache_merge(&now, &old, &out);
	assert_int_equal(out.n, 3);
	assert_string_equal(out.v[0].command, "cc -O2 -c a.c");
	assert_string_equal(out.v[1].command, "cc -O0 -c b.c");
	assert_string_equal(out.v[2].command, "cc -O1 -c a.c");
	cmd_cache_release(&out);
	cmd_cache_release(&now);
	cmd_cache_release(&old);
	/* the cap: what would pass it is counted, not kept */
	big = malloc(CMD_CACHE_MAX / 2 + 1);
	assert_non_null(big);
	memset(big, 'x', CMD_CACHE_MAX / 2);
	big[CMD_CACHE_MAX / 2] = '\0';
	b1 = 0;
	cmd_cache_add(&now, "1.o", big, &b1);
	cmd_cache_add(&now, "2.o", big, &b1);
	cmd_cache_add(&now, "3.o", "small", &b1);
	assert_int_equal(now.n, 2);
	assert_int_equal(now.n_dropped, 1);
	cmd_cache_release(&now);
	free(big);
}

static void cache_path(void **state)
{
	char *real, *p;
	(void)state;

	setenv("XDG_CACHE_HOME", "/xdg", 1);
	unsetenv("PTOOLS_NO_CACHE");
	p = cmd_cache_path("/", &real);
	assert_non_null(p);
	assert_string_equal(real, "/");
	assert_int_equal(strncmp(p, "/xdg/ptools/build-commands/", 27), 0);
	assert_int_equal(strlen(p), 27 + 16 + 5);
	free(p);
	free(real);
	/* relative XDG_CACHE_HOME: ignored, $HOME/.cache */
	setenv("XDG_CACHE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	p = cmd_cache_path("/", &real);
	assert_int_equal(strncmp(p, "/home/u/.cache/ptools/build-commands/", 37), 0);
	free(p);
	free(real);
	setenv("PTOOLS_NO_CACHE", "1", 1);
	assert_null(cmd_cache_path("/", &real));
	assert_null(real);
	unsetenv("PTOOLS_NO_CACHE");
	assert_null(cmd_cache_path("/no/such/dir", &real));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hash_against_ninja), cmocka_unit_test(hash_pinned), cmocka_unit_test(tokens),
		cmocka_unit_test(diff),		      cmocka_unit_test(cache_file),  cmocka_unit_test(merge_and_cap),
		cmocka_unit_test(cache_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
