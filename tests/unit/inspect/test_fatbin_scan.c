/*
 * fatbin_scan over a real nvcc 13.0 object kept in the
 * source tree (tests/fuzz/corpus/fuzz_fatbin/sm75_lineinfo.o: `nvcc -c
 * -gencode arch=compute_75,code=sm_75 -lineinfo k.cu`, one kernel), read
 * from memory, then damaged in place: each damage gives one warning with
 * its place and the scan goes on. Runs without nvcc. The report over
 * the same object: test_report_cuda.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin_scan.h"
#include "xalloc.h"

#define FATBIN_OFF 0x3a0	/* .nv_fatbin's offset in that object (readelf -S) */
#define WRAPPER_OFF 0x1460	/* .nvFatBinSegment */

#include "fatbin_object.h"

static void intact_object(void **state)
{
	struct run r;

	(void)state;
	scan(&r, NULL, 0);
	assert_int_equal(r.d.n, 0);
	assert_int_equal(r.s.n_secs, 1);
	assert_string_equal(r.s.secs[0].name, ".nv_fatbin");
	assert_int_equal(r.s.secs[0].kind, CUDA_SEC_REGISTERED);
	assert_int_equal(r.s.n_fatbins, 1);
	assert_int_equal(r.s.fatbins[0].offset, FATBIN_OFF);
	assert_int_equal(r.s.n_wrappers, 1);
	assert_false(r.s.wrappers_matched);	/* ET_REL: addresses come from relocations */
	assert_int_equal(r.s.entries.n, 1);
	assert_int_equal(r.s.entries.v[0].kind, FATBIN_KIND_ELF);
	assert_int_equal(r.s.entries.v[0].arch, 75);
	assert_string_equal(r.s.entries.v[0].identifier, "k.cu");	/* -lineinfo */
	done(&r);
}

static void p_bad_magic(uint8_t *b) { b[FATBIN_OFF] ^= 0xff; }
static void p_fat_size(uint8_t *b) { b[FATBIN_OFF + 12] = 0x40; }	/* fat_size + 2^38 */
static void p_wrapper(uint8_t *b) { b[WRAPPER_OFF] ^= 0xff; }
static void p_payload(uint8_t *b)
{
	uint32_t hs = b[FATBIN_OFF + 16 + 4] | b[FATBIN_OFF + 16 + 5] << 8;

	b[FATBIN_OFF + 16 + hs] = 'X';	/* the cubin's \177ELF */
}

/* Each damage: one warning naming the section and offset; nothing read out of bounds (ASan). */
static void damaged_copies(void **state)
{
	static const struct {
		void (*patch)(uint8_t *);
		const char *where;
		const char *what;
		size_t fatbins;
	} rows[] = {
		{ p_bad_magic, "section .nv_fatbin, fat binary at offset 0x3a0", "bad fat binary magic", 0 },
		{ p_fat_size, "section .nv_fatbin, fat binary at offset 0x3a0",
		  "fat size 274877911216 points past the end of the section (4272 bytes left)", 0 },
		{ p_wrapper, ".nvFatBinSegment", "bad wrapper magic 0x4662434e at offset 0x1460", 1 },
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(rows); i++) {
		struct run r;

		scan(&r, rows[i].patch, 0);
		assert_int_equal(r.d.n, 1);
		assert_int_equal(r.d.v[0].sev, PT_SEV_WARNING);
		assert_string_equal(r.d.v[0].where, rows[i].where);
		assert_string_equal(r.d.v[0].what, rows[i].what);
		assert_int_equal(r.s.n_fatbins, rows[i].fatbins);
		done(&r);
	}
}

/* --verify reads the payload: an intact cubin passes, a damaged one is one warning. */
static void verify_payload(void **state)
{
	struct run r;
	struct cuda_verify v;

	(void)state;
	scan(&r, NULL, 0);
	assert_int_equal(cuda_scan_verify(&r.o, &r.s, &v, &r.d), 0);
	assert_int_equal(v.checked, 1);
	assert_int_equal(v.failed, 0);
	assert_int_equal(v.et_rel, 0);	/* a -c object's cubin is ET_EXEC */
	cuda_verify_release(&v);
	done(&r);

	scan(&r, p_payload, 0);
	assert_int_equal(r.d.n, 0);
	assert_int_equal(cuda_scan_verify(&r.o, &r.s, &v, &r.d), 0);
	assert_int_equal(v.failed, 1);
	assert_int_equal(r.d.n, 1);
	assert_string_equal(r.d.v[0].what, "payload is not an ELF64 cubin");
	cuda_verify_release(&v);
	done(&r);
}

/*
 * What the scan reads whole, for elfobj_read_ahead: .nvFatBinSegment (the
 * object's data sections are too small to hold a fat binary), never
 * .nv_fatbin, of which only headers are read.
 */
static void ranges_read_whole(void **state)
{
	struct run r;
	struct elfobj_range *v;
	size_t n;

	(void)state;
	scan(&r, NULL, 0);
	n = cuda_scan_ranges(&r.o, 0, &v);
	assert_int_equal(n, 1);
	assert_true(v[0].off == WRAPPER_OFF && v[0].len == 0x18);
	free(v);
	n = cuda_scan_ranges(&r.o, CUDA_SCAN_REGISTERED_ONLY, &v);
	assert_int_equal(n, 1);
	assert_true(v[0].off == WRAPPER_OFF);
	free(v);
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intact_object),
		cmocka_unit_test(damaged_copies),
		cmocka_unit_test(verify_payload),
		cmocka_unit_test(ranges_read_whole),
	};

	return cmocka_run_group_tests(tests, load, unload);
}
