/* common/outdir.c: a fresh output directory written safely (review-reliability-2 N1, N13). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "outdir.h"
#include "ptest.h"

/* An earlier output: it holds "marker", a file. */
static int earlier(int dirfd)
{
	struct stat sb;

	return fstatat(dirfd, "marker", &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode);
}

static void put(struct pt_outdir *od, const char *rel, const char *text)
{
	FILE *f = pt_outdir_fopen(od, rel);

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Entries of dir besides . and ..; those named .pttrace-* counted in *left. */
static int entries(const char *dir, int *left)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	*left = 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		*left += !strncmp(e->d_name, ".pttrace-", 9);
	}
	closedir(d);
	return n;
}

static void write_tree(const char *target, int want_rc, struct pt_diag *d)
{
	struct pt_outdir od;

	assert_int_equal(pt_outdir_begin(&od, target, "test output", earlier, 0, d), want_rc);
	if (want_rc < 0)
		return;
	assert_int_equal(pt_outdir_mkdirs(&od, "sub/deeper"), 0);
	put(&od, "marker", "");
	put(&od, "index", "new");
	put(&od, "sub/deeper/page", "page");
	assert_int_equal(pt_outdir_commit(&od, d), 0);
}

/* Missing, then an earlier output holding a link and stale files: replaced whole,
 * the link's target untouched, nothing left beside it. */
static void replaces_without_following(void **state)
{
	char dir[PTEST_PATH_MAX];
	struct pt_diag d;
	char *target, *victim, *text, *idx;
	size_t len;
	int left;

	(void)state;
	pt_diag_init(&d);
	assert_non_null(ptest_tmpdir(dir, "outdir"));
	target = ptest_path(dir, "out");
	victim = ptest_path(dir, "victim");
	idx = ptest_path(dir, "out/index");
	{
		const char *const tree[] = {"f victim", NULL};

		assert_int_equal(ptest_tree(dir, tree), 0);
	}
	assert_int_equal(pt_outdir_check(target, earlier), PT_OUTDIR_MISSING);
	write_tree(target, 0, &d);
	assert_int_equal(pt_outdir_check(target, earlier), PT_OUTDIR_EARLIER);
	{
		const char *const tree[] = {"f out/stale", "l ../victim out/link", NULL};

		assert_int_equal(ptest_tree(dir, tree), 0);
	}
	assert_int_equal(unlink(idx), 0);
	assert_int_equal(symlink("../victim", idx), 0);
	write_tree(target, 0, &d);
	text = ptest_slurp(victim, &len);
	assert_int_equal(len, 0);	/* never written through out/index */
	free(text);
	text = ptest_slurp(idx, &len);
	assert_string_equal(text, "new");
	free(text);
	assert_int_equal(entries(target, &left), 3);	/* marker, index, sub: stale and link gone */
	assert_int_equal(entries(dir, &left), 2);	/* out, victim */
	assert_int_equal(left, 0);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 0);
	pt_diag_release(&d);
	ptest_rmtree(dir);
	free(target);
	free(victim);
	free(idx);
}

/* Refused: a directory holding something else, a file, a dangling link; abort leaves
 * the target as it was. */
static void refuses_and_aborts(void **state)
{
	char dir[PTEST_PATH_MAX], buf[256];
	const char *const tree[] = {"d busy", "f busy/notes", "f file", "l nowhere dangling", "d empty", NULL};
	struct pt_outdir od;
	struct pt_diag d;
	char *p;
	int left;

	(void)state;
	pt_diag_init(&d);
	assert_non_null(ptest_tmpdir(dir, "outdir"));
	assert_int_equal(ptest_tree(dir, tree), 0);
	p = ptest_path(dir, "busy");
	assert_int_equal(pt_outdir_check(p, earlier), PT_OUTDIR_BUSY);
	assert_string_equal(pt_outdir_refusal(PT_OUTDIR_BUSY, "test output", buf, sizeof(buf)),
			    "exists and is not empty nor an earlier test output");
	write_tree(p, -1, &d);
	assert_int_equal(entries(p, &left), 1);
	free(p);
	p = ptest_path(dir, "file");
	assert_int_equal(pt_outdir_check(p, earlier), PT_OUTDIR_NOT_DIR);
	free(p);
	p = ptest_path(dir, "dangling");
	assert_int_equal(pt_outdir_check(p, earlier), PT_OUTDIR_NOT_DIR);
	free(p);
	p = ptest_path(dir, "empty");
	assert_int_equal(pt_outdir_check(p, earlier), PT_OUTDIR_EMPTY);
	assert_int_equal(pt_outdir_begin(&od, p, "test output", earlier, 0, &d), 0);
	put(&od, "marker", "");
	pt_outdir_abort(&od);
	assert_int_equal(entries(p, &left), 0);	/* still empty */
	assert_int_equal(entries(dir, &left), 4);
	assert_int_equal(left, 0);
	free(p);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);	/* busy's refusal */
	pt_diag_release(&d);
	ptest_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replaces_without_following),
		cmocka_unit_test(refuses_and_aborts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
