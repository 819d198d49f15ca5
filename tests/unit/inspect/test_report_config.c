/*
 * report_config: the configuration report's JSON built from real pastes in
 * tests/fixtures/show_config/ (parsed by showconfig, whose own test checks the
 * fields): build settings always present, compilers and BLAS named, and every
 * pasted form (hard-wrapped, a repr, merged bullets) rendered exactly as the
 * paste it came from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptest.h"
#include "report_config.h"
#include "showconfig.h"
#include "xalloc.h"

static const char *fixture_dir(void)
{
	static char dir[4096];
	const char *s = getenv("PT_FIXTURES");

	/* Set by CTest; run by hand from build/, the repository's own copy. */
	snprintf(dir, sizeof(dir), "%s/show_config", s ? s : "../tests/fixtures");
	return dir;
}

/* The config JSON of a fixture, with the notes parsing it gave. */
static json_t *config_of(const char *name, struct pt_diag *d)
{
	char *path = ptest_path(fixture_dir(), name), *b;
	size_t len;
	struct showconfig c;
	json_t *j;

	b = ptest_slurp(path, &len);
	assert_non_null(b);
	assert_int_equal(showconfig_parse((const uint8_t *)b, len, &c, name, d), 0);
	assert_true(showconfig_is_config(&c));
	j = report_config_json(&c);
	showconfig_release(&c);
	free(b);
	free(path);
	return j;
}

/* Every fixture's JSON has a non-empty build_settings object. */
static void every_fixture_has_build_settings(void **state)
{
	DIR *dir = opendir(fixture_dir());
	struct dirent *e;
	int files = 0;

	(void)state;
	assert_non_null(dir);	/* the fixtures are in the repository */
	while ((e = readdir(dir))) {
		struct pt_diag d;
		json_t *j;

		if (!strstr(e->d_name, ".txt"))
			continue;
		pt_diag_init(&d);
		j = config_of(e->d_name, &d);
		assert_non_null(json_object_get(j, "build_settings"));
		assert_int_equal(json_object_size(json_object_get(j, "build_settings")) > 0, 1);
		json_decref(j);
		pt_diag_release(&d);
		files++;
	}
	closedir(dir);
	assert_true(files >= 7);
}

/* macOS: two compilers; the first is "compiler", BLAS from BLAS_INFO. */
static void macos_two_compilers(void **state)
{
	struct pt_diag d;
	json_t *j;

	(void)state;
	pt_diag_init(&d);
	j = config_of("008.txt", &d);
	assert_string_equal(json_string_value(json_object_get(j, "compiler")), "GCC 4.2");
	assert_int_equal(json_array_size(json_object_get(j, "compilers")), 2);
	assert_string_equal(json_string_value(json_object_get(j, "blas")), "accelerate");
	json_decref(j);
	pt_diag_release(&d);
}

/*
 * show_config as people paste it (tests/fixtures/show_config/pasted/, each
 * derived from a real paste as its README says): read into exactly the
 * fields, items and settings of the paste it came from, with one note
 * saying how it was read (none for a hard wrap, which leaves no doubt).
 */
static void pasted_forms_read_as_the_original(void **state)
{
	static const struct {
		const char *pasted, *original, *note;
	} cases[] = {
		{ "pasted/003-wrapped-127.txt", "003.txt", NULL },
		{ "pasted/006-wrapped-80.txt", "006.txt", NULL },
		{ "pasted/002-repr.txt", "002.txt", "read as a Python string (its repr: literal \\n between the lines)" },
		{ "pasted/013-repr-unquoted.txt", "013.txt", "read as a Python string (its repr: literal \\n between the lines)" },
		{ "pasted/003-merged-bullet.txt", "003.txt", "two entries on one line (a lost line break?): read as two" },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(cases); i++) {
		struct pt_diag dp, do_;
		json_t *a, *b;

		pt_diag_init(&dp);
		pt_diag_init(&do_);
		a = config_of(cases[i].pasted, &dp);
		b = config_of(cases[i].original, &do_);
		if (!json_equal(a, b)) {
			char *x = json_dumps(a, JSON_INDENT(1)), *y = json_dumps(b, JSON_INDENT(1));

			print_error("%s:\n%s\n%s:\n%s\n", cases[i].pasted, x, cases[i].original, y);
			free(x);
			free(y);
			fail();
		}
		assert_int_equal(pt_diag_count(&dp, PT_SEV_WARNING), 0);
		assert_int_equal(dp.n, do_.n + (cases[i].note != NULL));
		if (cases[i].note)
			assert_string_equal(dp.v[0].what, cases[i].note);
		json_decref(a);
		json_decref(b);
		pt_diag_release(&dp);
		pt_diag_release(&do_);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_fixture_has_build_settings),
		cmocka_unit_test(macos_two_compilers),
		cmocka_unit_test(pasted_forms_read_as_the_original),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
