/*
 * ninjadeps: the .ninja_deps reader, one test per corner of the format
 * (ninjadeps.c): the version header (3, 4, 1, unknown, cut), path records
 * (padding, checksum, empty, NUL inside, a path twice), deps records (v3 and
 * v4 mtimes, a later record replacing one, ids not yet defined, sizes not a
 * multiple of 4), a record over ninja's size limit, a tail cut in its size
 * field and in its body. Files are built here byte by byte, as ninja's
 * deps_log.cc writes them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ninjadeps.h"

struct fb {
	uint8_t b[1 << 16];
	size_t n;
	uint32_t next_id;
};

static void put(struct fb *f, const void *p, size_t n)
{
	assert_true(f->n + n <= sizeof(f->b));
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void put32(struct fb *f, uint32_t v)
{
	put(f, &v, 4);
}

static void header(struct fb *f, int32_t version)
{
	memset(f, 0, sizeof(*f));
	put(f, "# ninjadeps\n", 12);
	put32(f, (uint32_t)version);
}

/* A path record as RecordId writes it. */
static void path(struct fb *f, const char *p)
{
	size_t n = strlen(p), pad = (4 - n % 4) % 4;

	put32(f, (uint32_t)(n + pad + 4));
	put(f, p, n);
	put(f, "\0\0\0", pad);
	put32(f, ~f->next_id++);
}

/* A deps record as RecordDeps writes it (v4: two mtime words; v3: one). */
static void deps(struct fb *f, int version, uint32_t out, int64_t mtime, const uint32_t *ids, size_t n)
{
	put32(f, (uint32_t)(4 * ((version == 4 ? 3 : 2) + n)) | 0x80000000u);
	put32(f, out);
	put32(f, (uint32_t)(mtime & 0xffffffff));
	if (version == 4)
		put32(f, (uint32_t)((uint64_t)mtime >> 32));
	for (size_t i = 0; i < n; i++)
		put32(f, ids[i]);
}

static int parse(const struct fb *f, struct ninjadeps *l, struct pt_diag *d)
{
	pt_diag_init(d);
	return ninjadeps_parse(f->b, f->n, l, "deps", d);
}

static void version_header(void **state)
{
	struct fb f;
	struct ninjadeps l;
	struct pt_diag d;
	(void)state;

	header(&f, 4);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_int_equal(l.version, 4);
	assert_int_equal(l.n_paths, 0);
	assert_int_equal(d.n, 0);
	assert_false(l.damaged);
	ninjadeps_release(&l);
	pt_diag_release(&d);
	header(&f, 3);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_int_equal(l.version, 3);
	ninjadeps_release(&l);
	pt_diag_release(&d);
	header(&f, 1);
	assert_int_equal(parse(&f, &l, &d), -1);
	assert_string_equal(d.v[0].what, "ninja deps log version 1 (ninja 1.3): ninja discards it and rebuilds");
	pt_diag_release(&d);
	header(&f, 5);
	assert_int_equal(parse(&f, &l, &d), -1);
	assert_string_equal(d.v[0].what, "ninja deps log version 5 is not supported (3 and 4 are: ninja 1.4 to 1.13)");
	pt_diag_release(&d);
	/* Big-endian: the version word is the byte order mark. */
	header(&f, 0x04000000);
	assert_int_equal(parse(&f, &l, &d), -1);
	pt_diag_release(&d);
	/* Cut inside the version, inside the signature, or another file altogether. */
	header(&f, 4);
	f.n = 14;
	assert_int_equal(parse(&f, &l, &d), -1);
	assert_string_equal(d.v[0].what, "ninja deps log cut inside its version field (14 bytes)");
	pt_diag_release(&d);
	f.n = 5;
	assert_int_equal(parse(&f, &l, &d), -1);
	assert_string_equal(d.v[0].what, "not a ninja deps log (it does not start with \"# ninjadeps\")");
	pt_diag_release(&d);
	assert_int_equal(ninjadeps_parse((const uint8_t *)"# ninja log v5\n", 15, &l, "deps", &d), -1);
	pt_diag_release(&d);
	assert_int_equal(ninjadeps_parse(NULL, 0, &l, "deps", &d), -1);
	pt_diag_release(&d);
}

static void path_records(void **state)
{
	struct fb f;
	struct ninjadeps l;
	struct pt_diag d;
	(void)state;

	header(&f, 4);
	path(&f, "abcd");		/* no padding */
	path(&f, "a.o");		/* one NUL */
	path(&f, "/src/x.h");		/* none */
	path(&f, "ab");			/* two */
	path(&f, "c");			/* three */
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(l.n_paths, 5);
	assert_string_equal(l.paths[0], "abcd");
	assert_string_equal(l.paths[1], "a.o");
	assert_string_equal(l.paths[3], "ab");
	assert_string_equal(l.paths[4], "c");
	assert_int_equal(ninjadeps_find(&l, "/src/x.h"), 2);
	assert_int_equal(ninjadeps_find(&l, "c"), 4);
	assert_int_equal(ninjadeps_find(&l, "nope"), -1);
	assert_null(ninjadeps_get(&l, "a.o"));	/* a path, no deps */
	assert_int_equal(l.valid_len, f.n);
	ninjadeps_release(&l);
	pt_diag_release(&d);
}

static void checksums(void **state)
{
	struct fb f;
	struct ninjadeps l;
	struct pt_diag d;
	size_t good;
	(void)state;

	/* The second path claims id 5: two ninja processes wrote the log. */
	header(&f, 4);
	path(&f, "a.o");
	good = f.n;
	f.next_id = 5;
	path(&f, "b.h");
	path(&f, "c.h");
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_true(l.damaged);
	assert_int_equal(l.n_paths, 1);
	assert_int_equal(l.valid_len, good);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].where, "byte 28");
	assert_string_equal(d.v[0].what, "a path record whose checksum 0xfffffffa is not that of id 1 (two ninja processes "
					 "wrote the log at once?): read up to there (1 path, 0 deps records); ninja "
					 "truncates the log at this point and rebuilds what it loses");
	ninjadeps_release(&l);
	pt_diag_release(&d);
	/* A path recorded twice: ninja stops at the second. */
	header(&f, 4);
	path(&f, "a.o");
	path(&f, "b.h");
	path(&f, "a.o");
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_true(l.damaged);
	assert_string_equal(d.v[0].what, "path a.o recorded twice (ids 0 and 2): ninja stops reading the log there");
	assert_int_equal(ninjadeps_find(&l, "a.o"), 0);
	ninjadeps_release(&l);
	pt_diag_release(&d);
	/* Empty path (only padding), a NUL inside, no room for the checksum. */
	header(&f, 4);
	put32(&f, 7);
	put(&f, "\0\0\0", 3);
	put32(&f, ~0u);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_int_equal(l.n_paths, 0);
	assert_string_equal(d.v[0].what, "a path record whose path is empty: read up to there (0 paths, 0 deps records); "
					 "ninja truncates the log at this point and rebuilds what it loses");
	ninjadeps_release(&l);
	pt_diag_release(&d);
	header(&f, 4);
	put32(&f, 8);
	put(&f, "a\0b\0", 4);
	put32(&f, ~0u);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_int_equal(l.n_paths, 0);
	assert_non_null(strstr(d.v[0].what, "cut by a NUL inside it"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
	header(&f, 4);
	put32(&f, 4);
	put32(&f, ~0u);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_non_null(strstr(d.v[0].what, "a path record of 4 bytes (no room for a path and its checksum)"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
}

static void deps_records(void **state)
{
	struct fb f;
	struct ninjadeps l;
	struct pt_diag d;
	const struct ninjadeps_entry *e;
	static const uint32_t first[] = { 1, 2 }, later[] = { 2, 3, 1 };
	(void)state;

	header(&f, 4);
	path(&f, "obj/a.o");
	path(&f, "/src/a.c");
	path(&f, "/src/a.h");
	deps(&f, 4, 0, 1700000000123456789LL, first, 2);
	path(&f, "/src/b.h");
	deps(&f, 4, 0, 1700000001000000000LL, later, 3);	/* replaces the first */
	path(&f, "obj/empty.o");
	deps(&f, 4, 4, 5, NULL, 0);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(l.n_deps_records, 3);
	assert_int_equal(l.n_outputs, 2);
	e = ninjadeps_get(&l, "obj/a.o");
	assert_non_null(e);
	assert_int_equal(e->mtime, 1700000001000000000LL);
	assert_int_equal(e->n, 3);
	assert_string_equal(l.paths[e->ids[0]], "/src/a.h");
	assert_string_equal(l.paths[e->ids[1]], "/src/b.h");
	e = ninjadeps_get(&l, "obj/empty.o");
	assert_non_null(e);
	assert_int_equal(e->n, 0);
	assert_int_equal(e->mtime, 5);
	ninjadeps_release(&l);
	pt_diag_release(&d);
	/* v3: one mtime word, seconds, signed. */
	header(&f, 3);
	path(&f, "a.o");
	path(&f, "a.c");
	deps(&f, 3, 0, 1700000000, first, 1);
	assert_int_equal(parse(&f, &l, &d), 0);
	e = ninjadeps_get(&l, "a.o");
	assert_int_equal(e->mtime, 1700000000);
	assert_int_equal(e->n, 1);
	ninjadeps_release(&l);
	pt_diag_release(&d);
}

static void deps_ids_and_sizes(void **state)
{
	struct fb f;
	struct ninjadeps l;
	struct pt_diag d;
	static const uint32_t ahead[] = { 1, 7 };
	size_t good;
	(void)state;

	/* A dependency id not defined yet: ninja stops there. */
	header(&f, 4);
	path(&f, "a.o");
	path(&f, "a.c");
	good = f.n;
	deps(&f, 4, 0, 1, ahead, 2);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_true(l.damaged);
	assert_int_equal(l.valid_len, good);
	assert_int_equal(l.n_outputs, 0);
	assert_non_null(strstr(d.v[0].what, "a deps record of a.o names id 7, but only 2 paths are defined before it"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
	/* The output id itself out of range (ninja would index past its array). */
	header(&f, 4);
	path(&f, "a.o");
	deps(&f, 4, 9, 1, NULL, 0);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_non_null(strstr(d.v[0].what, "a deps record for output id 9, but only 1 path is defined before it"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
	/* Sizes: not a multiple of 4, or too short for the output id and mtime. */
	header(&f, 4);
	path(&f, "a.o");
	put32(&f, 13u | 0x80000000u);
	put32(&f, 0);
	put32(&f, 0);
	put32(&f, 0);
	put(&f, "x", 1);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_non_null(strstr(d.v[0].what, "a deps record of 13 bytes (a multiple of 4, at least 12)"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
	header(&f, 4);
	path(&f, "a.o");
	put32(&f, 8u | 0x80000000u);
	put32(&f, 0);
	put32(&f, 0);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_non_null(strstr(d.v[0].what, "a deps record of 8 bytes (a multiple of 4, at least 12)"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
}

static void record_too_long(void **state)
{
	struct fb f;
	struct ninjadeps l;
	struct pt_diag d;
	(void)state;

	/* Over (1 << 19) - 1: refused before anything is read, whatever follows. */
	header(&f, 4);
	path(&f, "a.o");
	put32(&f, 1u << 19);
	put(&f, "abcd", 4);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_int_equal(l.n_paths, 1);
	assert_string_equal(d.v[0].where, "byte 28");
	assert_non_null(strstr(d.v[0].what, "a path record of 524288 bytes, over ninja's limit of 524287"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
	header(&f, 4);
	put32(&f, 0xffffffffu);
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_non_null(strstr(d.v[0].what, "a deps record of 2147483647 bytes, over ninja's limit of 524287"));
	ninjadeps_release(&l);
	pt_diag_release(&d);
}

static void truncated_tail(void **state)
{
	struct fb f;
	struct ninjadeps l;
	struct pt_diag d;
	static const uint32_t ids[] = { 1 };
	size_t whole;
	(void)state;

	header(&f, 4);
	path(&f, "a.o");
	path(&f, "a.c");
	whole = f.n;
	deps(&f, 4, 0, 1, ids, 1);
	/* Every cut inside the last record keeps the two paths and says so. */
	for (size_t cut = whole + 1; cut < f.n; cut++) {
		struct fb g = f;

		g.n = cut;
		assert_int_equal(parse(&g, &l, &d), 0);
		assert_true(l.damaged);
		assert_int_equal(l.n_paths, 2);
		assert_int_equal(l.n_outputs, 0);
		assert_int_equal(l.valid_len, whole);
		assert_int_equal(d.n, 1);
		if (cut - whole < 4)
			assert_non_null(strstr(d.v[0].what, "a record's size field cut at the end of the file"));
		else
			assert_non_null(strstr(d.v[0].what, "the last deps record is cut: 16 bytes announced"));
		ninjadeps_release(&l);
		pt_diag_release(&d);
	}
	assert_int_equal(parse(&f, &l, &d), 0);
	assert_false(l.damaged);
	assert_int_equal(l.n_outputs, 1);
	ninjadeps_release(&l);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_header),   cmocka_unit_test(path_records),	cmocka_unit_test(checksums),
		cmocka_unit_test(deps_records),	    cmocka_unit_test(deps_ids_and_sizes), cmocka_unit_test(record_too_long),
		cmocka_unit_test(truncated_tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
