/*
 * report_debug_list_text: the debug sections of several libraries, those alike
 * but for their own names (.gnu_debuglink, build-id) as one block. The cases:
 * Debian's stripped libraries (different debuglinks, one block), a library
 * that differs (its own block, as report_debug_text prints it), one library
 * (unchanged), and groups that are not neighbours (each in the place of its
 * first member).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptest.h"
#include "report_debug.h"

/* A stripped library with a debuglink named after its build-id, as Debian ships them. */
static struct debuginfo stripped(const char *id)
{
	struct debuginfo di;
	static char links[16][64], paths[16][128], whys[16][256];
	static int n;
	int k = n++ % 16;

	memset(&di, 0, sizeof(di));
	snprintf(di.build_id, sizeof(di.build_id), "%s", id);
	snprintf(links[k], sizeof(links[k]), "%s.debug", id + 2);
	snprintf(paths[k], sizeof(paths[k]), "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
	snprintf(whys[k], sizeof(whys[k]), "stripped; .gnu_debuglink %s not found", links[k]);
	di.debuglink = links[k];
	di.build_id_path = paths[k];
	di.why = whys[k];
	di.verdict = DEBUGINFO_NOTHING;
	return di;
}

static struct debuginfo with_symtab(void)
{
	struct debuginfo di;

	memset(&di, 0, sizeof(di));
	di.has_symtab = true;
	di.verdict = DEBUGINFO_SYMBOLS;
	di.why = (char *)"no DWARF, a .symtab; no separate debug file";
	return di;
}

/* The text of report_debug_list_text at indent 2, in a new string. */
static char *render(const struct debuginfo *di, const char *const *paths, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_debug_list_text(f, di, paths, n, 2, NULL);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void stripped_alike_are_one_block(void **state)
{
	struct debuginfo di[3] = { stripped("de01"), stripped("ab02"), stripped("cd03") };
	const char *paths[3] = { "/lib/libc10.so", "/lib/libtorch.so", "/lib/libtorch_cpu.so" };
	char *out = render(di, paths, 3);

	(void)state;
	assert_string_equal(out,
		"  /lib/libc10.so\n"
		"  /lib/libtorch.so\n"
		"  /lib/libtorch_cpu.so\n"
		"    debug     nothing: stripped; .gnu_debuglink not found\n"
		"      DWARF in file no, .symtab no\n"
		"      each one's .gnu_debuglink and build-id file: ptinspect debug FILE...\n");
	free(out);
}

static void one_library_as_before(void **state)
{
	struct debuginfo di = stripped("de01");
	const char *path = "/lib/libc10.so";
	char *out = render(&di, &path, 1), *want = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&want, &len);

	(void)state;
	fprintf(f, "  %s\n", path);
	report_debug_text(f, &di, 4, NULL);
	fclose(f);
	assert_string_equal(out, want);
	assert_non_null(strstr(out, "debuglink 01.debug\n"));
	free(out);
	free(want);
}

static void groups_in_the_place_of_their_first(void **state)
{
	struct debuginfo di[4] = { stripped("de01"), with_symtab(), stripped("ab02"), with_symtab() };
	const char *paths[4] = { "/l/a.so", "/l/b.so", "/l/c.so", "/l/d.so" };
	char *out = render(di, paths, 4);

	(void)state;
	assert_string_equal(out,
		"  /l/a.so\n"
		"  /l/c.so\n"
		"    debug     nothing: stripped; .gnu_debuglink not found\n"
		"      DWARF in file no, .symtab no\n"
		"      each one's .gnu_debuglink and build-id file: ptinspect debug FILE...\n"
		"  /l/b.so\n"
		"  /l/d.so\n"
		"    debug     symbols only: no DWARF, a .symtab; no separate debug file\n"
		"      DWARF in file no, .symtab yes\n");
	free(out);
}

static void different_verdicts_stay_apart(void **state)
{
	struct debuginfo di[2] = { stripped("de01"), stripped("ab02") };
	const char *paths[2] = { "/l/a.so", "/l/b.so" };
	char *out;

	(void)state;
	di[1].has_symtab = true;	/* one not stripped of its .symtab: not alike */
	out = render(di, paths, 2);
	assert_non_null(strstr(out, "  /l/a.so\n    debug     nothing: stripped; .gnu_debuglink 01.debug not found\n"));
	assert_non_null(strstr(out, "  /l/b.so\n    debug     nothing: stripped; .gnu_debuglink 02.debug not found\n"));
	assert_null(strstr(out, "each one's"));
	free(out);
	out = render(di, paths, 0);
	assert_string_equal(out, "");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stripped_alike_are_one_block),
		cmocka_unit_test(one_library_as_before),
		cmocka_unit_test(groups_in_the_place_of_their_first),
		cmocka_unit_test(different_verdicts_stay_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
