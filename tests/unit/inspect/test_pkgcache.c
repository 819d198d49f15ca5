/*
 * pkgcache: the package facts cache. A real wheel (libz twice, metadata, an
 * unsafe name and a symlink: the walk's own messages) read cold and warm,
 * the same report and the same messages; the cache file cut at every
 * offset; a hand-made file with each field wrong (magic, format, key,
 * counts past the bytes, strings without their NUL or past the end, an
 * enum out of range, a byte too many, a checksum off); a corrupt file on
 * disk replaced; no_cache and an unusable directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "package.h"
#include "pkgcache.h"
#include "ptest.h"
#include "ptest_archive.h"
#include "xalloc.h"
#include "report_package.h"

static const char WHEEL[] = "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.45.1)\n"
			    "Root-Is-Purelib: false\nTag: cp313-cp313-manylinux_2_17_x86_64\n";
static const char METADATA[] = "Metadata-Version: 2.1\nName: demo_ext\nVersion: 1.2\n"
			       "Requires-Dist: torch>=2.6\nRequires-Dist: nvidia-cudnn-cu12==9.1.0.70\n";

static char dir[4096], whl[4200], cdir[4200];

/* The wheel on disk, and the cache directory named. */
static int setup(void **state)
{
	const char *src = getenv("PT_SRC");
	char *zp = ptest_path(src ? src : "..", "tests/fuzz/corpus/fuzz_elfobj/libz");
	size_t zl, len;
	uint8_t *z = (uint8_t *)ptest_slurp(zp, &zl), *w;
	FILE *f;

	(void)state;
	free(zp);
	assert_non_null(z);
	{
		struct mem m[] = {
			{ "demo_ext-1.2.dist-info/WHEEL", WHEEL, sizeof(WHEEL) - 1, NULL },
			{ "demo_ext-1.2.dist-info/METADATA", METADATA, sizeof(METADATA) - 1, NULL },
			{ "demo_ext/__init__.py", "x = 1\n", 6, NULL },
			{ "demo_ext/libz.so.1", z, zl, NULL },
			{ "demo_ext.data/purelib/demo_ext/_z.so", z, zl, NULL },
			{ "../../etc/evil.so", "x", 1, NULL },
			{ "demo_ext/link.so", NULL, 0, "libz.so.1" },
		};

		w = ptest_archive(ZIP, m, PT_ARRAY_SIZE(m), &len);
	}
	assert_non_null(ptest_tmpdir(dir, "pkgcache"));
	snprintf(whl, sizeof(whl), "%s/demo_ext-1.2-cp313-cp313-manylinux_2_17_x86_64.whl", dir);
	snprintf(cdir, sizeof(cdir), "%s/cache/ptools", dir);
	f = fopen(whl, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(w, 1, len, f), len);
	fclose(f);
	free(w);
	free(z);
	setenv("PT_CACHE_DIR", cdir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ptest_rmtree(dir);
	return 0;
}

/* One read: its report (JSON) and its messages, as text. */
static char *read_pkg(const struct pkg_opts *po, enum pkgcache_state *st)
{
	struct report_package_opts ro = { .details = true };
	struct package p;
	struct pt_diag d;
	json_t *j;
	char *js, *out;
	size_t n = 0;
	FILE *f;
	char *buf = NULL;

	pt_diag_init(&d);
	assert_int_equal(pkgcache_package_read(whl, po, &p, &d), 0);
	*st = p.cache;
	j = report_package_json(&p, &ro);
	js = json_dumps(j, JSON_SORT_KEYS);
	json_decref(j);
	f = open_memstream(&buf, &n);
	fputs(js, f);
	for (size_t i = 0; i < d.n; i++)
		fprintf(f, "\n%d|%s|%s|%s", d.v[i].sev, d.v[i].file ? d.v[i].file : "-",
			d.v[i].where ? d.v[i].where : "-", d.v[i].what);
	fclose(f);
	out = buf;
	free(js);
	pt_diag_release(&d);
	package_release(&p);
	return out;
}

static char *cache_file(void)
{
	char *p = NULL;
	DIR *dd = opendir(cdir);
	struct dirent *de;

	while (dd && (de = readdir(dd)))
		if (!strncmp(de->d_name, "pkg-", 4) && strstr(de->d_name, ".ptc") && !strstr(de->d_name, "tmp"))
			p = ptest_path(cdir, de->d_name);
	if (dd)
		closedir(dd);
	return p;
}

static void cold_then_warm(void **state)
{
	struct pkg_opts po = { 0 };
	enum pkgcache_state s1, s2;
	char *a, *b, *f;
	struct stat st;

	(void)state;
	ptest_rmtree(cdir);
	a = read_pkg(&po, &s1);
	assert_int_equal(s1, PKGCACHE_MISS);
	f = cache_file();
	assert_non_null(f);
	assert_int_equal(stat(f, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(stat(cdir, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	b = read_pkg(&po, &s2);
	assert_int_equal(s2, PKGCACHE_HIT);
	/* the walk's messages (the unsafe name) and finish's (the symlink) are there, in order */
	assert_non_null(strstr(a, "unsafe name"));
	assert_non_null(strstr(a, "a symlink in a wheel"));
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(f);
}

static uint8_t *cached_bytes(size_t *len)
{
	char *f = cache_file();
	uint8_t *b;

	assert_non_null(f);
	b = (uint8_t *)ptest_slurp(f, len);
	assert_non_null(b);
	free(f);
	return b;
}

static void cut_at_every_offset(void **state)
{
	struct pkg_opts po = { 0 };
	enum pkgcache_state s;
	struct pkgcache_key k;
	size_t len;
	uint8_t *b;
	struct package p;
	struct pt_diag d;

	(void)state;
	free(read_pkg(&po, &s));
	b = cached_bytes(&len);
	assert_int_equal(pkgcache_key_make(&k, whl, PKG_WHEEL, 8u << 20, NULL), 0);
	for (size_t n = 0; n <= len; n++) {
		uint8_t *c = malloc(n ? n : 1);

		memcpy(c, b, n);
		memset(&p, 0, sizeof(p));
		p.path = whl;
		pt_diag_init(&d);
		assert_int_equal(pkgcache_decode(&k, c, n, &p, &d), n == len ? 0 : -1);
		if (n < len)
			assert_int_equal(d.n, 0);
		p.path = NULL;
		package_release(&p);
		pt_diag_release(&d);
		free(c);
	}
	/* another key (another archive, another build, other limits) is a miss */
	{
		struct pkgcache_key k2;
		struct pkgar_limits lim = pkgar_default_limits;

		lim.max_entries--;
		assert_int_equal(pkgcache_key_make(&k2, whl, PKG_WHEEL, 8u << 20, &lim), 0);
		memset(&p, 0, sizeof(p));
		p.path = whl;
		pt_diag_init(&d);
		assert_int_equal(pkgcache_decode(&k2, b, len, &p, &d), -1);
		assert_string_not_equal(k.name, k2.name);
		pt_diag_release(&d);
		pkgcache_key_release(&k2);
		assert_int_equal(pkgcache_key_make(&k2, whl, PKG_CONDA, 8u << 20, NULL), 0);
		assert_int_equal(pkgcache_decode(&k2, b, len, &p, &d), -1);
		pkgcache_key_release(&k2);
	}
	pkgcache_key_release(&k);
	free(b);
}

/* ---- a hand-made file ---- */

struct hb {
	uint8_t b[512];
	size_t n;
};

static void h_put(struct hb *h, const void *p, size_t n)
{
	assert_true(h->n + n <= sizeof(h->b));
	memcpy(h->b + h->n, p, n);
	h->n += n;
}

static void h_u8(struct hb *h, unsigned v) { uint8_t c = (uint8_t)v; h_put(h, &c, 1); }

static void h_u32(struct hb *h, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		h_u8(h, (v >> (8 * i)) & 0xff);
}

static void h_u64(struct hb *h, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		h_u8(h, (unsigned)(v >> (8 * i)) & 0xff);
}

static void h_str(struct hb *h, const char *s)
{
	h_u32(h, (uint32_t)strlen(s));
	h_put(h, s, strlen(s) + 1);
}

static void h_sum(struct hb *h)
{
	uint64_t x = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < h->n; i++) {
		x ^= h->b[i];
		x *= 0x100000001b3ull;
	}
	h_u64(h, x);
}

enum wrong {
	W_NONE, W_MAGIC, W_FORMAT, W_KEY, W_TAGS_COUNT, W_STR_NO_NUL, W_STR_PAST_END, W_KIND, W_EXTRA,
	W_SUM, W_MEMBERS_COUNT, W_SEV, W_BOOL,
};

/* A file of one member (not ELF) and one message, with one thing wrong. */
static void hand_made(struct hb *h, enum wrong w)
{
	memset(h, 0, sizeof(*h));
	h_put(h, w == W_MAGIC ? "PTPKGCF\r" : "PTPKGCF\n", 8);
	h_u32(h, w == W_FORMAT ? PKGCACHE_FORMAT + 1 : PKGCACHE_FORMAT);
	h_u32(h, 3);
	h_put(h, w == W_KEY ? "kez" : "key", 3);
	h_str(h, "demo");		/* name */
	h_str(h, "1.0");		/* version */
	h_u32(h, 0xffffffffu);		/* generator: none */
	h_u8(h, w == W_BOOL ? 2 : 0);	/* root_is_purelib */
	h_u64(h, w == W_TAGS_COUNT ? (1ull << 60) : 1);
	if (w == W_STR_NO_NUL) {
		h_u32(h, 3);
		h_put(h, "tagX", 4);	/* its NUL is an X */
	} else if (w == W_STR_PAST_END) {
		h_u32(h, 4000);
		h_put(h, "tag", 4);
	} else {
		h_str(h, "tag");
	}
	h_u64(h, 0);			/* reqs */
	h_u64(h, 0);			/* n_elf */
	h_u64(h, 5);			/* bytes */
	h_u64(h, 0);			/* n_cuda_unread */
	h_u64(h, w == W_MEMBERS_COUNT ? 1000000 : 1);
	h_str(h, "demo/a.txt");
	h_u64(h, 5);
	h_u8(h, w == W_KIND ? 9 : PKGAR_FILE);
	h_u32(h, 0xffffffffu);		/* link */
	h_u8(h, 0); h_u8(h, 0); h_u8(h, 0); h_u8(h, 0);
	h_u64(h, 1);			/* messages */
	h_u8(h, w == W_SEV ? 7 : PT_SEV_WARNING);
	h_u8(h, 2);			/* the archive's own path */
	h_u32(h, 0xffffffffu);
	h_str(h, "member x");
	h_str(h, "a message");
	if (w == W_EXTRA)
		h_u8(h, 0);
	h_sum(h);
	if (w == W_SUM)
		h->b[h->n - 1] ^= 1;
}

static void hand_made_corners(void **state)
{
	struct pkgcache_key k;
	struct hb h;

	(void)state;
	pkgcache_key_raw(&k, "key", 3);
	for (int w = W_NONE; w <= W_BOOL; w++) {
		struct package p;
		struct pt_diag d;
		int rc;

		hand_made(&h, (enum wrong)w);
		memset(&p, 0, sizeof(p));
		p.path = "/x/demo.whl";
		pt_diag_init(&d);
		rc = pkgcache_decode(&k, h.b, h.n, &p, &d);
		print_message("case %d: %d\n", w, rc);
		assert_int_equal(rc, w == W_NONE ? 0 : -1);
		if (w == W_NONE) {
			assert_string_equal(p.name, "demo");
			assert_null(p.generator);
			assert_int_equal(p.n_tags, 1);
			assert_string_equal(p.tags[0], "tag");
			assert_int_equal(p.n_members, 1);
			assert_string_equal(p.members[0].name, "demo/a.txt");
			assert_int_equal(d.n, 1);
			/* the archive's path is this run's */
			assert_string_equal(d.v[0].file, "/x/demo.whl");
			assert_string_equal(d.v[0].where, "member x");
		} else {
			assert_null(p.name);
			assert_int_equal(p.n_members, 0);
			assert_int_equal(d.n, 0);
		}
		p.path = NULL;
		package_release(&p);
		pt_diag_release(&d);
	}
	pkgcache_key_release(&k);
}

static void corrupt_file_replaced(void **state)
{
	struct pkg_opts po = { 0 };
	enum pkgcache_state s;
	char *ref, *got, *f;
	size_t len;
	uint8_t *b;
	FILE *o;

	(void)state;
	po.no_cache = true;
	ref = read_pkg(&po, &s);
	assert_int_equal(s, PKGCACHE_OFF);
	po.no_cache = false;
	free(read_pkg(&po, &s));
	b = cached_bytes(&len);
	b[len / 2] ^= 0x40;
	f = cache_file();
	o = fopen(f, "wb");
	assert_non_null(o);
	fwrite(b, 1, len, o);
	fclose(o);
	got = read_pkg(&po, &s);
	assert_int_equal(s, PKGCACHE_MISS);
	assert_string_equal(ref, got);
	free(got);
	got = read_pkg(&po, &s);
	assert_int_equal(s, PKGCACHE_HIT);
	assert_string_equal(ref, got);
	free(got);
	free(ref);
	free(f);
	free(b);
}

static void off_and_unusable(void **state)
{
	struct pkg_opts po = { .no_cache = true };
	enum pkgcache_state s;
	char *ref, *got, bad[4300];
	struct stat st;

	(void)state;
	ptest_rmtree(cdir);
	ref = read_pkg(&po, &s);
	assert_int_equal(s, PKGCACHE_OFF);
	assert_int_not_equal(stat(cdir, &st), 0);
	po.no_cache = false;
	setenv("PT_CACHE_DIR", "off", 1);
	got = read_pkg(&po, &s);
	assert_int_equal(s, PKGCACHE_OFF);
	assert_string_equal(ref, got);
	free(got);
	/* a directory under a file: cannot be made, the same answer, nothing said */
	snprintf(bad, sizeof(bad), "%s/sub", whl);
	setenv("PT_CACHE_DIR", bad, 1);
	got = read_pkg(&po, &s);
	assert_int_equal(s, PKGCACHE_MISS);
	assert_string_equal(ref, got);
	free(got);
	assert_int_not_equal(stat(cdir, &st), 0);
	setenv("PT_CACHE_DIR", cdir, 1);
	free(ref);
}

static void dir_of_env(void **state)
{
	char *d;

	(void)state;
	setenv("PT_CACHE_DIR", "", 1);
	assert_null(pkgcache_dir());
	unsetenv("PT_CACHE_DIR");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	d = pkgcache_dir();
	assert_string_equal(d, "/xdg/ptools");
	free(d);
	setenv("XDG_CACHE_HOME", "relative", 1);	/* not absolute: ignored, as the spec says */
	setenv("HOME", "/home/u", 1);
	d = pkgcache_dir();
	assert_string_equal(d, "/home/u/.cache/ptools");
	free(d);
	assert_string_equal(pkgcache_state_name(PKGCACHE_HIT), "hit");
	setenv("PT_CACHE_DIR", cdir, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cold_then_warm),
		cmocka_unit_test(cut_at_every_offset),
		cmocka_unit_test(hand_made_corners),
		cmocka_unit_test(corrupt_file_replaced),
		cmocka_unit_test(off_and_unusable),
		cmocka_unit_test(dir_of_env),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
