/*
 * fatbin: the container walker over crafted byte buffers, one case per
 * corner of docs/formats/cuda-fatbin.md §3-§5 and §8 (truncation, size fields
 * past the end, zero sizes, bad magic, compression flags, strings) and the
 * walk over nested candidates. Decompression: test_fatbin_unpack.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"
#include "xalloc.h"

/* A little-endian byte builder. */
struct bb {
	uint8_t b[4096];
	size_t n;
};

static void put(struct bb *b, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

static void zeros(struct bb *b, size_t n)
{
	memset(b->b + b->n, 0, n);
	b->n += n;
}

static void poke32(struct bb *b, size_t at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b->b[at + i] = (uint8_t)(v >> (8 * i));
}

static void poke64(struct bb *b, size_t at, uint64_t v)
{
	poke32(b, at, (uint32_t)v);
	poke32(b, at + 4, (uint32_t)(v >> 32));
}

static void fat_header(struct bb *b, uint64_t fat_size)
{
	put(b, FATBIN_MAGIC, 4);
	put(b, 1, 2);
	put(b, 16, 2);
	put(b, fat_size, 8);
}

struct ent {
	uint16_t kind;
	uint32_t header_size;
	uint64_t payload;
	uint32_t csize;
	uint16_t major, minor;
	uint32_t arch;
	uint64_t flags;
	uint64_t usize;
	const char *ident;
};

/* One entry: the 64-byte base, an extension with the identifier, then the payload bytes. */
static void entry(struct bb *b, const struct ent *e)
{
	size_t start = b->n;
	uint32_t hs = e->header_size ? e->header_size : 64;

	put(b, e->kind, 2);
	put(b, FATBIN_ENTRY_VERSION, 2);
	put(b, hs, 4);
	put(b, e->payload, 8);
	put(b, e->csize, 4);
	put(b, 0, 4);		/* options offset */
	put(b, e->minor, 2);
	put(b, e->major, 2);
	put(b, e->arch, 4);
	put(b, e->ident ? 64 : 0, 4);
	put(b, e->ident ? strlen(e->ident) : 0, 4);
	put(b, e->flags, 8);
	put(b, 0, 8);
	put(b, e->usize, 8);
	zeros(b, hs - 64);
	if (e->ident)
		memcpy(b->b + start + 64, e->ident, strlen(e->ident));
	zeros(b, e->payload);
}

static const struct ent SASS90 = { .kind = 2, .payload = 32, .major = 1, .minor = 8, .arch = 90,
				   .flags = 0x11 };
static const struct ent PTX90 = { .kind = 1, .payload = 24, .csize = 20, .major = 9, .minor = 0,
				  .arch = 90, .flags = 0x8011, .usize = 100 };

/* Two entries behind a header whose fat_size is their exact sum. */
static void good_fatbin(struct bb *b)
{
	fat_header(b, 64 + 32 + 64 + 24);
	entry(b, &SASS90);
	entry(b, &PTX90);
}

static enum fatbin_walk_status parse(struct bb *b, struct fatbin_entries *l, struct pt_diag *d)
{
	memset(l, 0, sizeof(*l));
	pt_diag_init(d);
	return fatbin_parse(b->b, b->n, l, "t", d);
}

static void done(struct fatbin_entries *l, struct pt_diag *d)
{
	fatbin_entries_release(l);
	pt_diag_release(d);
}

/* The ordinary case: every field lands where §4 says, no warning. */
static void two_entries_tile_exactly(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	good_fatbin(&b);
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_OK);
	assert_int_equal(d.n, 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].kind, FATBIN_KIND_ELF);
	assert_int_equal(l.v[0].arch, 90);
	assert_int_equal(l.v[0].offset, 16);
	assert_int_equal(l.v[0].comp, FATBIN_COMP_NONE);
	assert_int_equal(l.v[1].kind, FATBIN_KIND_PTX);
	assert_int_equal(l.v[1].offset, 16 + 96);
	assert_int_equal(l.v[1].major, 9);
	assert_int_equal(l.v[1].comp, FATBIN_COMP_ZSTD);
	assert_int_equal(l.v[1].uncompressed_size, 100);
	done(&l, &d);
}

/* §3: fat_size 0 (PTX-only nvcc -shared dlink image) is a valid, empty fat binary. */
static void zero_fat_size_is_empty_not_damaged(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	fat_header(&b, 0);
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_OK);
	assert_int_equal(l.n, 0);
	assert_int_equal(d.n, 0);
	done(&l, &d);
}

/* Every cut of a good fat binary: never an overread (ASan), always a warning. */
static void every_truncation_warns(void **state)
{
	struct bb b = { .n = 0 };

	(void)state;
	good_fatbin(&b);
	for (size_t cut = 0; cut < b.n; cut++) {
		struct fatbin_entries l;
		struct pt_diag d;
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, b.b, cut);
		memset(&l, 0, sizeof(l));
		pt_diag_init(&d);
		assert_int_not_equal(fatbin_parse(copy, cut, &l, "t", &d), FATBIN_WALK_OK);
		assert_true(d.n >= 1);
		done(&l, &d);
		free(copy);
	}
}

static void bad_magic(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	good_fatbin(&b);
	b.b[0] ^= 0xff;
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_NOT);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].what, "bad fat binary magic");
	assert_string_equal(d.v[0].where, "fat binary at offset 0x0");
	done(&l, &d);
}

/* A fat_size beyond the buffer: a warning that says how many bytes are really left. */
static void fat_size_past_the_end(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	good_fatbin(&b);
	poke64(&b, 8, 1ull << 40);
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_NOT);
	assert_non_null(strstr(d.v[0].what, "points past the end"));
	assert_non_null(strstr(d.v[0].what, "184 bytes left"));
	done(&l, &d);
}

/* payload_size past the fat binary's end: damaged at that entry, the first entry is kept. */
static void payload_size_past_the_end(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	good_fatbin(&b);
	poke64(&b, 16 + 96 + 8, 0xffffffffffffff00ull);	/* overflows q + header + payload */
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_DAMAGED);
	assert_int_equal(l.n, 1);
	assert_string_equal(d.v[0].what, "entry size fields point past the end of the fat binary");
	assert_string_equal(d.v[0].where, "fat binary at offset 0x0, entry at offset 0x70");
	done(&l, &d);
}

/* header_size below 64 or not a multiple of 8: the walk cannot go on. */
static void bad_entry_header_sizes(void **state)
{
	static const uint32_t bad[] = { 0, 8, 56, 65, 68 };

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(bad); i++) {
		struct bb b = { .n = 0 };
		struct fatbin_entries l;
		struct pt_diag d;

		good_fatbin(&b);
		poke32(&b, 16 + 4, bad[i]);
		assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_DAMAGED);
		assert_int_equal(l.n, 0);
		assert_non_null(strstr(d.v[0].what, "bad entry header size"));
		done(&l, &d);
	}
}

/* A zero-filled entry (version 0) in the middle: damaged, not an endless loop. */
static void zero_entry_in_the_middle(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	good_fatbin(&b);
	memset(b.b + 16 + 96, 0, 64);
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_DAMAGED);
	assert_int_equal(l.n, 1);
	assert_string_equal(d.v[0].what, "bad entry version (expected 0x0101)");
	done(&l, &d);
}

/* fat_size a few bytes larger than the entries: trailing bytes too short for an entry. */
static void trailing_bytes_after_entries(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	good_fatbin(&b);
	zeros(&b, 8);
	poke64(&b, 8, 64 + 32 + 64 + 24 + 8);
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_DAMAGED);
	assert_int_equal(l.n, 2);
	assert_non_null(strstr(d.v[0].what, "8 bytes after the last entry"));
	done(&l, &d);
}

/* §5/§8 invariants on compression: each violation warns, the walk goes on. */
static void compression_flag_corners(void **state)
{
	static const struct {
		uint64_t flags;
		uint32_t csize;
		uint64_t usize;
		const char *warning;	/* NULL: no warning */
		enum fatbin_compression comp;
	} rows[] = {
		{ 0x2011, 20, 100, NULL, FATBIN_COMP_LZ4 },	/* LZ4 raw block */
		{ 0x8011, 20, 100, NULL, FATBIN_COMP_ZSTD },	/* zstd frame */
		{ 0xa011, 20, 100, "both LZ4 and zstd compression flags set", FATBIN_COMP_BOTH },
		{ 0x8011, 0, 100, "compressed entry with a zero compressed or uncompressed size",
		  FATBIN_COMP_ZSTD },
		{ 0x8011, 20, 0, "compressed entry with a zero compressed or uncompressed size",
		  FATBIN_COMP_ZSTD },
		{ 0x8011, 40, 100, "compressed size larger than the payload", FATBIN_COMP_ZSTD },
		{ 0x0011, 20, 0, "compressed size set on an uncompressed entry", FATBIN_COMP_NONE },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		struct bb b = { .n = 0 };
		struct fatbin_entries l;
		struct pt_diag d;
		struct ent p = PTX90;

		p.flags = rows[i].flags;
		p.csize = rows[i].csize;
		p.usize = rows[i].usize;
		fat_header(&b, 64 + 32 + 64 + 24);
		entry(&b, &SASS90);
		entry(&b, &p);
		assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_OK);
		assert_int_equal(l.n, 2);
		assert_int_equal(l.v[1].comp, rows[i].comp);
		if (rows[i].warning) {
			assert_int_equal(d.n, 1);
			assert_string_equal(d.v[0].what, rows[i].warning);
		} else {
			assert_int_equal(d.n, 0);
		}
		done(&l, &d);
	}
}

/* A zero payload on a SASS entry warns; the `a`/`f` variants come from the flags only. */
static void zero_payload_and_variants(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;
	struct ent a = SASS90, f = SASS90;

	(void)state;
	a.flags = 0x100011;
	a.payload = 0;
	f.flags = 0x1200011;
	f.arch = 100;
	fat_header(&b, 64 + 64 + 32);
	entry(&b, &a);
	entry(&b, &f);
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_OK);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.v[0].variant, 'a');
	assert_int_equal(l.v[1].variant, 'f');
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].what, "empty payload");
	done(&l, &d);
}

/* §4: the identifier (-G, -lineinfo) in the extension; one pointing outside is dropped. */
static void identifier_strings(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;
	struct ent e = SASS90;

	(void)state;
	e.header_size = 72;
	e.ident = "k1.cu";
	fat_header(&b, 72 + 32);
	entry(&b, &e);
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_OK);
	assert_string_equal(l.v[0].identifier, "k1.cu");
	done(&l, &d);

	poke32(&b, 16 + 0x24, 4000);	/* identifier length past the header */
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_OK);
	assert_null(l.v[0].identifier);
	done(&l, &d);
}

/* A header version or header size other than 1/16 is not read as a fat binary. */
static void header_version_and_size(void **state)
{
	struct bb b = { .n = 0 };
	struct fatbin_entries l;
	struct pt_diag d;

	(void)state;
	good_fatbin(&b);
	b.b[4] = 2;
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_NOT);
	assert_non_null(strstr(d.v[0].what, "version"));
	done(&l, &d);
	b.b[4] = 1;
	b.b[6] = 24;
	assert_int_equal(parse(&b, &l, &d), FATBIN_WALK_NOT);
	assert_non_null(strstr(d.v[0].what, "header size"));
	done(&l, &d);
}

/* A reader over a struct bb that counts its calls: the work of a walk. */
struct counted {
	const struct bb *b;
	size_t calls;
};

static const uint8_t *counted_read(void *ctx, uint64_t off, size_t n)
{
	struct counted *c = ctx;

	c->calls++;
	if (off > c->b->n || n > c->b->n - off)
		return NULL;
	return c->b->b + off;
}

/*
 * fault-matrix.md B2: M headers 80 bytes apart, each claiming the
 * rest of the section, each with one 64+16-byte entry that ends where the
 * next header's entry starts. Every candidate chains to the same damage at
 * the end; walked naively that is M*(M+1)/2 entries. With a seen set the
 * first walk reads all M entries (one warning, at the last one, whose
 * payload passes the end), and every later candidate stops at its first
 * entry: M-1 entries kept, reads linear in M.
 */
static void nested_candidates_walked_once(void **state)
{
	enum { M = 48, U = 80 };
	struct bb b = { .n = 0 };
	struct counted c = { .b = &b };
	struct fatbin_entries l = { 0 };
	struct fatbin_seen seen = { 0 };
	struct pt_diag d;
	uint64_t fat_end;
	size_t overlaps = 0;

	(void)state;
	for (size_t k = 0; k < M; k++) {
		fat_header(&b, (uint64_t)(M * U + 8) - (k * U + 16));
		entry(&b, &(struct ent){ .kind = 2, .payload = 16, .major = 8, .arch = 80,
					  .flags = 0x11 });
		b.n -= 16;	/* the payload is the next header */
	}
	zeros(&b, 8);
	pt_diag_init(&d);
	assert_int_equal(fatbin_walk_seen(counted_read, &c, 0, b.n, FATBIN_WALK_CANDIDATE, 0, &l,
					  &fat_end, "t", NULL, &d, &seen), FATBIN_WALK_DAMAGED);
	assert_int_equal(l.n, M - 1);	/* the last entry's payload passes the end */
	assert_int_equal(fat_end, b.n);
	for (size_t k = 1; k < M; k++) {
		enum fatbin_walk_status st = fatbin_walk_seen(counted_read, &c, k * U, b.n,
							      FATBIN_WALK_CANDIDATE, k, &l,
							      &fat_end, "t", NULL, &d, &seen);

		/* The last one's first entry does not fit its own fat size: not a candidate. */
		assert_int_equal(st, k < M - 1 ? FATBIN_WALK_OVERLAP : FATBIN_WALK_NOT);
		overlaps += st == FATBIN_WALK_OVERLAP;
	}
	assert_int_equal(overlaps, M - 2);
	assert_int_equal(l.n, M - 1);	/* nothing appended by the overlapping ones */
	assert_int_equal(d.n, 1);	/* the damage, once */
	assert_string_equal(d.v[0].where, "fat binary at offset 0x0, entry at offset 0xec0");
	/* Per walk: the header, the first-entry check, then entries: linear, not M*M/2. */
	assert_true(c.calls <= 4 * (size_t)M + 2 * (size_t)M);
	/* Without the set, the same candidates read every entry after them again. */
	c.calls = 0;
	for (size_t k = 0; k < M; k++) {
		struct fatbin_entries l2 = { 0 };
		struct pt_diag d2;

		pt_diag_init(&d2);
		fatbin_walk(counted_read, &c, k * U, b.n, FATBIN_WALK_CANDIDATE, k, &l2, &fat_end,
			    "t", NULL, &d2);
		fatbin_entries_release(&l2);
		pt_diag_release(&d2);
	}
	assert_true(c.calls > (size_t)M * M / 2);
	fatbin_seen_release(&seen);
	done(&l, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_entries_tile_exactly),
		cmocka_unit_test(zero_fat_size_is_empty_not_damaged),
		cmocka_unit_test(every_truncation_warns),
		cmocka_unit_test(bad_magic),
		cmocka_unit_test(fat_size_past_the_end),
		cmocka_unit_test(payload_size_past_the_end),
		cmocka_unit_test(bad_entry_header_sizes),
		cmocka_unit_test(zero_entry_in_the_middle),
		cmocka_unit_test(trailing_bytes_after_entries),
		cmocka_unit_test(compression_flag_corners),
		cmocka_unit_test(zero_payload_and_variants),
		cmocka_unit_test(identifier_strings),
		cmocka_unit_test(header_version_and_size),
		cmocka_unit_test(nested_candidates_walked_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
