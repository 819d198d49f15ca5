/*
 * pkgarchive and package: wheels, .tar.bz2 and .conda packages made here in
 * memory with libarchive's writer, read back whole, and every bad corner:
 * a member past the size limit (declared, or inflating past its
 * declaration), a tar header declaring 5 GiB, nesting past one level, a
 * truncated and an encrypted zip, names with "..", a symlink member. And
 * two wheels as builddiff facts (ptinspect diff A.whl B.whl).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builddiff.h"
#include "package.h"
#include "pkgarchive.h"
#include "ptest.h"
#include "ptest_archive.h"


static uint8_t *libz(size_t *len)
{
	const char *src = getenv("PT_SRC");
	char *path = ptest_path(src ? src : "..", "tests/fuzz/corpus/fuzz_elfobj/libz");
	uint8_t *b = (uint8_t *)ptest_slurp(path, len);

	if (!b)
		fail_msg("cannot read %s", path);
	free(path);
	return b;
}

static const char WHEEL[] = "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.45.1)\n"
			    "Root-Is-Purelib: false\nTag: cp313-cp313-linux_x86_64\n";
static const char METADATA[] = "Metadata-Version: 2.1\nName: demo_ext\nVersion: 1.2\n"
			       "Requires-Dist: torch>=2.6\nRequires-Dist: nvidia-cudnn-cu12==9.1.0.70\n"
			       "Requires-Dist: pytest ; extra == 'test'\n\nRequires-Dist: body\n";

static bool has_msg(const struct pt_diag *d, const char *where, const char *text)
{
	for (size_t i = 0; i < d->n; i++)
		if ((!where || (d->v[i].where && strstr(d->v[i].where, where))) && strstr(d->v[i].what, text))
			return true;
	return false;
}

static void dump(const struct pt_diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		print_message("diag %d %s: %s: %s\n", d->v[i].sev, d->v[i].file ? d->v[i].file : "",
			      d->v[i].where ? d->v[i].where : "", d->v[i].what);
}

static const struct pkg_member *member(const struct package *p, const char *name)
{
	for (size_t i = 0; i < p->n_members; i++)
		if (!strcmp(p->members[i].name, name))
			return &p->members[i];
	return NULL;
}

static void wheel_read_whole(void **state)
{
	size_t zl, len;
	uint8_t *z = libz(&zl), *w;
	struct mem m[] = {
		{ "demo_ext-1.2.dist-info/WHEEL", WHEEL, sizeof(WHEEL) - 1, NULL },
		{ "demo_ext-1.2.dist-info/METADATA", METADATA, sizeof(METADATA) - 1, NULL },
		{ "demo_ext/__init__.py", "x = 1\n", 6, NULL },
		{ "demo_ext/libz.so.1", z, zl, NULL },
		{ "demo_ext.data/purelib/demo_ext/_z.so", z, zl, NULL },
	};
	struct pkg_opts po = { 0 };
	struct package p;
	struct pt_diag d;
	const struct pkg_member *e;

	(void)state;
	w = ptest_archive(ZIP, m, 5, &len);
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("demo_ext-1.2-cp313-cp313-linux_x86_64.whl", w, len, &po, &p, &d), 0);
	dump(&d);
	assert_string_equal(p.name, "demo_ext");
	assert_string_equal(p.version, "1.2");
	assert_int_equal(p.n_tags, 1);
	assert_string_equal(p.tags[0], "cp313-cp313-linux_x86_64");
	assert_string_equal(p.generator, "bdist_wheel (0.45.1)");
	assert_false(p.root_is_purelib);
	/* The extra's requirement and the body's line are not requirements. */
	assert_int_equal(p.n_reqs, 2);
	assert_string_equal(p.reqs[0].name, "torch");
	assert_string_equal(p.reqs[1].name, "nvidia-cudnn-cu12");
	assert_int_equal(p.n_members, 5);
	assert_int_equal(p.n_elf, 2);
	e = member(&p, "demo_ext/libz.so.1");
	assert_non_null(e);
	assert_true(e->is_elf && e->elf_whole);
	assert_string_equal(e->elf.soname, "libz.so.1");
	assert_string_equal(e->installed, "lib/python3/site-packages/demo_ext/libz.so.1");
	assert_int_equal(e->n_deps, 1);
	assert_string_equal(e->deps[0].name, "libc.so.6");
	/* No target system given: libc.so.6 is missing, and a warning says so. */
	assert_int_equal(e->deps[0].from, PKG_FROM_MISSING);
	e = member(&p, "demo_ext.data/purelib/demo_ext/_z.so");
	assert_string_equal(e->installed, "lib/python3/site-packages/demo_ext/_z.so");
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 0);
	package_release(&p);
	pt_diag_release(&d);
	free(w);
	free(z);
}

/* The system's libc found through the host's ld.so.cache: the system step. */
static void wheel_system_lookup(void **state)
{
	size_t zl, len;
	uint8_t *z = libz(&zl), *w;
	struct mem m[] = { { "demo/libz.so.1", z, zl, NULL } };
	struct ldpath_env env;
	struct pkg_opts po = { .env = &env };
	struct package p;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	ldpath_env_init(&env, "", &d);
	pt_diag_release(&d);
	w = ptest_archive(ZIP, m, 1, &len);
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("x.whl", w, len, &po, &p, &d), 0);
	assert_int_equal(p.members[0].deps[0].from, PKG_FROM_SYSTEM);
	assert_int_equal(p.n_system, 1);
	assert_int_equal(p.n_missing, 0);
	package_release(&p);
	pt_diag_release(&d);
	ldpath_env_release(&env);
	free(w);
	free(z);
}

static void conda_tar_bz2_and_conda(void **state)
{
	static const char index_json[] = "{\"name\": \"demo\", \"version\": \"0.3\", \"build\": \"py313_0\", "
					 "\"subdir\": \"linux-64\", \"depends\": [\"libstdcxx-ng >=12\", \"python >=3.13\"]}";
	size_t zl, len, il, pl, cl;
	uint8_t *z = libz(&zl), *w, *info, *pkg, *conda;
	struct mem m[] = {
		{ "info/index.json", index_json, sizeof(index_json) - 1, NULL },
		{ "lib/libz.so.1.2.13", z, zl, NULL },
		{ "lib/libz.so.1", NULL, 0, "libz.so.1.2.13" },
	};
	struct pkg_opts po = { 0 };
	struct package p;
	struct pt_diag d;

	(void)state;
	/* .tar.bz2: info/ and the files in one tarball */
	w = ptest_archive(TARBZ2, m, 3, &len);
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("demo-0.3-py313_0.tar.bz2", w, len, &po, &p, &d), 0);
	dump(&d);
	assert_string_equal(p.name, "demo");
	assert_string_equal(p.version, "0.3");
	assert_string_equal(p.tags[0], "linux-64/py313_0");
	assert_int_equal(p.n_reqs, 2);
	assert_string_equal(p.reqs[0].name, "libstdcxx-ng");
	assert_int_equal(p.n_members, 2);	/* info/ is metadata */
	assert_int_equal(p.n_elf, 1);
	assert_int_equal(member(&p, "lib/libz.so.1")->kind, PKGAR_SYMLINK);
	package_release(&p);
	pt_diag_release(&d);

	/* .conda: a zip of info-*.tar.zst and pkg-*.tar.zst, read as streams */
	info = ptest_archive(TARZST, m, 1, &il);
	pkg = ptest_archive(TARZST, m + 1, 2, &pl);
	{
		struct mem outer[] = {
			{ "metadata.json", "{\"conda_pkg_format_version\": 2}", 31, NULL },
			{ "pkg-demo-0.3-py313_0.tar.zst", pkg, pl, NULL },
			{ "info-demo-0.3-py313_0.tar.zst", info, il, NULL },
		};

		conda = ptest_archive(ZIP, outer, 3, &cl);
	}
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("demo-0.3-py313_0.conda", conda, cl, &po, &p, &d), 0);
	dump(&d);
	assert_string_equal(p.name, "demo");
	assert_int_equal(p.n_elf, 1);
	assert_non_null(member(&p, "lib/libz.so.1.2.13"));
	assert_non_null(member(&p, "metadata.json"));
	package_release(&p);
	pt_diag_release(&d);
	free(w);
	free(info);
	free(pkg);
	free(conda);
	free(z);
}

/* A .conda inside a .conda's pkg tarball is a member, never opened: one level only. */
static void nesting_stops_at_one_level(void **state)
{
	size_t il, pl, cl, c2;
	uint8_t *inner, *pkg, *conda, *outer;
	struct mem m1[] = { { "deep.txt", "x", 1, NULL } };
	struct pkg_opts po = { 0 };
	struct package p;
	struct pt_diag d;

	(void)state;
	inner = ptest_archive(TARZST, m1, 1, &il);
	{
		struct mem c[] = { { "pkg-in.tar.zst", inner, il, NULL } };

		conda = ptest_archive(ZIP, c, 1, &cl);
	}
	{
		struct mem m2[] = { { "lib/nested.conda", conda, cl, NULL } };

		pkg = ptest_archive(TARZST, m2, 1, &pl);
	}
	{
		struct mem c[] = { { "pkg-out.tar.zst", pkg, pl, NULL } };

		outer = ptest_archive(ZIP, c, 1, &c2);
	}
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("out.conda", outer, c2, &po, &p, &d), 0);
	assert_int_equal(p.n_members, 1);
	assert_string_equal(p.members[0].name, "lib/nested.conda");
	assert_null(member(&p, "deep.txt"));
	package_release(&p);
	pt_diag_release(&d);
	free(inner);
	free(conda);
	free(pkg);
	free(outer);
}

/* A member inflating past the limit stops the walk with a message naming it; memory stays bounded. */
static void bomb_past_the_limit(void **state)
{
	size_t n = 4u << 20, len, zl;
	uint8_t *zeros = calloc(1, n), *w, *z = libz(&zl);
	struct mem m[] = {
		{ "a/ok.txt", "fine", 4, NULL },
		{ "a/zeros.so", zeros, n, NULL },
	};
	struct pkgar_limits lim = { .max_member = 1u << 20, .max_total = 1ull << 40, .max_entries = 100 };
	struct pkg_opts po = { .lim = &lim };
	struct package p;
	struct pt_diag d;

	(void)state;
	/* an ELF header, then zeros: an ELF member is read through (its .dynamic is near the end) */
	memcpy(zeros, z, 64);
	w = ptest_archive(ZIP, m, 2, &len);
	assert_true(len < 64u << 10);	/* 4 MiB of zeros deflate to a few KB */
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("bomb.whl", w, len, &po, &p, &d), 0);
	dump(&d);
	assert_true(has_msg(&d, "member a/zeros.so", "more than the 1048576 read per member"));
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 1);
	package_release(&p);
	pt_diag_release(&d);

	/* the total limit, on what is really inflated */
	lim.max_member = 1ull << 40;
	lim.max_total = 1u << 20;
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("bomb.whl", w, len, &po, &p, &d), -1);
	assert_true(has_msg(&d, "member a/zeros.so", "inflates past 1048576 bytes in all"));
	package_release(&p);
	pt_diag_release(&d);

	/* the member count */
	lim.max_total = 1ull << 40;
	lim.max_entries = 1;
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("bomb.whl", w, len, &po, &p, &d), -1);
	assert_true(has_msg(&d, NULL, "more than 1 members"));
	package_release(&p);
	pt_diag_release(&d);
	free(w);
	free(zeros);
	free(z);
}

/* A ustar header that declares 5 GiB (and nothing after it): refused before any read. */
static void tar_declares_5_gib(void **state)
{
	uint8_t tar[1024] = { 0 };
	unsigned sum = 0;
	struct package p;
	struct pkg_opts po = { 0 };
	struct pt_diag d;

	(void)state;
	memcpy(tar, "lib/huge.so", 11);
	memcpy(tar + 100, "0000644", 7);
	memcpy(tar + 108, "0000000", 7);
	memcpy(tar + 116, "0000000", 7);
	memcpy(tar + 124, "50000000000", 11);	/* 5 GiB in octal */
	memcpy(tar + 136, "00000000000", 11);
	tar[156] = '0';
	memcpy(tar + 257, "ustar", 6);
	memcpy(tar + 263, "00", 2);
	memset(tar + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += tar[i];
	snprintf((char *)tar + 148, 8, "%06o", sum);
	pt_diag_init(&d);
	package_read_mem("huge.tar.bz2", tar, sizeof(tar), &po, &p, &d);
	dump(&d);
	assert_true(has_msg(&d, "member lib/huge.so", "declares 5368709120 bytes"));
	assert_int_equal(p.n_members, 0);
	package_release(&p);
	pt_diag_release(&d);
}

static void truncated_zip(void **state)
{
	size_t zl, len;
	uint8_t *z = libz(&zl), *w;
	struct mem m[] = { { "demo/libz.so.1", z, zl, NULL }, { "demo/b.txt", "b", 1, NULL } };
	struct pkg_opts po = { 0 };
	struct package p;
	struct pt_diag d;

	(void)state;
	w = ptest_archive(ZIP, m, 2, &len);
	/* cut in the middle: the central directory is gone */
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("cut.whl", w, len / 2, &po, &p, &d), -1);
	dump(&d);
	assert_true(pt_diag_count(&d, PT_SEV_ERROR) >= 1);
	assert_string_equal(d.v[0].file, "cut.whl");
	package_release(&p);
	pt_diag_release(&d);
	/* nothing at all */
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("empty.whl", w, 0, &po, &p, &d), -1);
	package_release(&p);
	pt_diag_release(&d);
	free(w);
	free(z);
}

static void encrypted_zip(void **state)
{
	size_t len;
	uint8_t *w;
	struct mem m[] = { { "demo/secret.so", "\177ELF-not-really", 15, NULL } };
	struct pkg_opts po = { 0 };
	struct package p;
	struct pt_diag d;

	(void)state;
	w = ptest_archive(ZIP_CRYPT, m, 1, &len);
	pt_diag_init(&d);
	package_read_mem("crypt.whl", w, len, &po, &p, &d);
	dump(&d);
	assert_true(has_msg(&d, "member demo/secret.so", "encrypted"));
	assert_int_equal(p.n_members, 0);
	package_release(&p);
	pt_diag_release(&d);
	free(w);
}

static void unsafe_names_and_symlinks(void **state)
{
	size_t len;
	uint8_t *w;
	struct mem m[] = {
		{ "../../etc/evil.so", "x", 1, NULL },
		{ "/abs/evil.so", "x", 1, NULL },
		{ "demo/a/../../../up.so", "x", 1, NULL },
		{ "demo/link.so", NULL, 0, "../../../../lib/libc.so.6" },
		{ "demo/fine.txt", "ok", 2, NULL },
	};
	struct pkg_opts po = { 0 };
	struct package p;
	struct pt_diag d;

	(void)state;
	assert_true(pkgar_name_unsafe("a/../../b"));
	assert_true(pkgar_name_unsafe(".."));
	assert_true(pkgar_name_unsafe("a\\..\\b"));
	assert_false(pkgar_name_unsafe("a/..b/c"));
	assert_false(pkgar_name_unsafe("a/b..."));
	w = ptest_archive(ZIP, m, 5, &len);
	pt_diag_init(&d);
	assert_int_equal(package_read_mem("evil.whl", w, len, &po, &p, &d), 0);
	dump(&d);
	assert_true(has_msg(&d, "member ../../etc/evil.so", "unsafe name"));
	assert_true(has_msg(&d, "member demo/a/../../../up.so", "unsafe name"));
	/* libarchive strips the leading '/' of /abs/evil.so or we refuse it: never outside */
	assert_null(member(&p, "/abs/evil.so"));
	/* the symlink is a member, flagged: pip writes it as a file */
	assert_int_equal(member(&p, "demo/link.so")->kind, PKGAR_SYMLINK);
	assert_true(has_msg(&d, "demo/link.so", "a symlink in a wheel"));
	assert_non_null(member(&p, "demo/fine.txt"));
	package_release(&p);
	pt_diag_release(&d);
	free(w);
}

static void provider_table(void **state)
{
	const char *dir;

	(void)state;
	assert_string_equal(package_provider("libcudnn.so.9", &dir), "nvidia-cudnn");
	assert_string_equal(dir, "nvidia/cudnn/lib");
	assert_string_equal(package_provider("libcusparseLt.so.0", &dir), "nvidia-cusparselt");
	assert_string_equal(package_provider("libcusparse.so.12", &dir), "nvidia-cusparse");
	assert_string_equal(package_provider("libc10.so", &dir), "torch");
	assert_null(package_provider("libc.so.6", &dir));
	assert_true(package_is_package("x.whl", false));
	assert_true(package_is_package("x-1-0.tar.bz2", false));
	assert_false(package_is_package("libx.so", false));
}

/* The row of (section, key), or NULL. */
static const struct diff_row *row(const struct snapshot_diff *d, const char *section, const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].section, section) && !strcmp(d->v[i].key, key))
			return &d->v[i];
	return NULL;
}

/*
 * Two versions of a wheel as facts: the dist-info and .data members pair
 * across versions (*.dist-info/), the version and an added member differ,
 * the shared object's facts are the package's (NEEDED with where it comes
 * from), and a package read as facts compares equal with itself.
 */
static void two_wheels_as_facts(void **state)
{
	static const char META2[] = "Metadata-Version: 2.1\nName: demo_ext\nVersion: 1.3\n"
				    "Requires-Dist: torch>=2.7\n";
	size_t zl, l1, l2;
	uint8_t *z = libz(&zl), *w1, *w2;
	struct mem m1[] = {
		{ "demo_ext-1.2.dist-info/WHEEL", WHEEL, sizeof(WHEEL) - 1, NULL },
		{ "demo_ext-1.2.dist-info/METADATA", METADATA, sizeof(METADATA) - 1, NULL },
		{ "demo_ext-1.2.data/purelib/demo_ext/_z.so", z, zl, NULL },
	};
	struct mem m2[] = {
		{ "demo_ext-1.3.dist-info/WHEEL", WHEEL, sizeof(WHEEL) - 1, NULL },
		{ "demo_ext-1.3.dist-info/METADATA", META2, sizeof(META2) - 1, NULL },
		{ "demo_ext-1.3.data/purelib/demo_ext/_z.so", z, zl, NULL },
		{ "demo_ext/py.typed", "", 0, NULL },
	};
	struct pkg_opts po = { 0 };
	struct package p1, p2;
	struct snapshot s1, s2, s1b;
	struct snapshot_diff d;
	struct pt_diag dg;
	const struct diff_row *r;

	(void)state;
	w1 = ptest_archive(ZIP, m1, 3, &l1);
	w2 = ptest_archive(ZIP, m2, 4, &l2);
	pt_diag_init(&dg);
	assert_int_equal(package_read_mem("demo_ext-1.2-cp313-cp313-linux_x86_64.whl", w1, l1, &po, &p1, &dg), 0);
	assert_int_equal(package_read_mem("demo_ext-1.3-cp313-cp313-linux_x86_64.whl", w2, l2, &po, &p2, &dg), 0);
	memset(&s1, 0, sizeof(s1));
	memset(&s2, 0, sizeof(s2));
	memset(&s1b, 0, sizeof(s1b));
	snapshot_of_package(&p1, &s1);
	snapshot_of_package(&p2, &s2);
	snapshot_of_package(&p1, &s1b);
	assert_true(s1.is_package);
	assert_string_equal(s1.kind, "wheel");
	assert_string_equal(s2.pkg_version, "1.3");
	assert_int_equal(s2.n_members, 4);
	assert_int_equal(s2.n_elf, 1);

	snapshot_compare(&s1, &s1b, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.n_equal, s1.n);
	snapshot_diff_release(&d);

	snapshot_compare(&s1, &s2, &d);
	r = row(&d, "metadata", "version");
	assert_non_null(r);
	assert_string_equal(r->a->value, "1.2");
	assert_string_equal(r->b->value, "1.3");
	r = row(&d, "metadata", "Requires-Dist torch");
	assert_non_null(r);
	assert_string_equal(r->b->value, "torch>=2.7");
	r = row(&d, "metadata", "Requires-Dist nvidia-cudnn-cu12");
	assert_non_null(r);
	assert_null(r->b);
	r = row(&d, "members", "demo_ext/py.typed");
	assert_non_null(r);
	assert_null(r->a);
	assert_string_equal(r->b->value, "file");
	/* Paired across versions: no row for the metadata files or the shared object. */
	assert_null(row(&d, "members", "*.dist-info/WHEEL"));
	assert_null(row(&d, "members", "*.data/purelib/demo_ext/_z.so"));
	assert_null(row(&d, "*.data/purelib/demo_ext/_z.so: needed", "libc.so.6"));
	assert_null(row(&d, "floor", "GLIBC"));	/* "GLIBC_2.14 (*.data/purelib/demo_ext/_z.so)" both */
	assert_int_equal(d.n, 4);
	/* The shared object's facts: NEEDED as the package says (no target: missing). */
	for (size_t i = 0; i < s1.n; i++)
		if (!strcmp(s1.v[i].section, "*.data/purelib/demo_ext/_z.so: needed"))
			assert_string_equal(s1.v[i].value, "missing");
	snapshot_diff_release(&d);

	snapshot_release(&s1);
	snapshot_release(&s1b);
	snapshot_release(&s2);
	package_release(&p1);
	package_release(&p2);
	pt_diag_release(&dg);
	free(w1);
	free(w2);
	free(z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wheel_read_whole),
		cmocka_unit_test(wheel_system_lookup),
		cmocka_unit_test(conda_tar_bz2_and_conda),
		cmocka_unit_test(nesting_stops_at_one_level),
		cmocka_unit_test(bomb_past_the_limit),
		cmocka_unit_test(tar_declares_5_gib),
		cmocka_unit_test(truncated_zip),
		cmocka_unit_test(encrypted_zip),
		cmocka_unit_test(unsafe_names_and_symlinks),
		cmocka_unit_test(provider_table),
		cmocka_unit_test(two_wheels_as_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
