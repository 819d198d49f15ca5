/*
 * elfobj: a real system library read from bytes, then every truncation and a
 * few targeted corruptions of it; the reader must report, never overread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;

	*len = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	b = malloc(*len);
	if (fread(b, 1, *len, f) != *len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

#define LIBZ "/lib/x86_64-linux-gnu/libz.so.1"

static void reads_real_library(void **state)
{
	size_t len;
	uint8_t *b = slurp(LIBZ, &len);
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	assert_non_null(b);	/* zlib1g is in every Debian system (Priority: required) */
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "libz", b, len, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(o.cls, ELFCLASS64);
	assert_int_equal(o.machine, EM_X86_64);
	assert_string_equal(o.soname, "libz.so.1");
	assert_int_equal(o.n_needed, 1);
	assert_string_equal(o.needed[0], "libc.so.6");
	assert_true(o.build_id_len == 20);
	assert_true(o.has_verdef);	/* ZLIB_1.2.x */
	assert_true(o.n_verneed >= 1);
	assert_string_equal(o.verneed[0].file, "libc.so.6");
	elfobj_release(&o);
	pt_diag_release(&d);
	free(b);
}

/* Cut the file at many lengths: an error or warnings, never a crash or overread. */
static void every_truncation(void **state)
{
	size_t len;
	uint8_t *b = slurp(LIBZ, &len);

	(void)state;
	assert_non_null(b);	/* zlib1g is in every Debian system (Priority: required) */
	for (size_t cut = 0; cut < len; cut += (cut < 4096 ? 7 : 4093)) {
		uint8_t *copy = malloc(cut ? cut : 1);
		struct elfobj o;
		struct pt_diag d;

		memcpy(copy, b, cut);
		pt_diag_init(&d);
		int rc = elfobj_open_mem(&o, "cut", copy, cut, &d);
		if (cut < 64)
			assert_int_equal(rc, -1);
		if (rc != 0)
			assert_true(pt_diag_count(&d, PT_SEV_ERROR) >= 1);
		elfobj_release(&o);
		pt_diag_release(&d);
		free(copy);
	}
	free(b);
}

/* Section headers gone: PT_DYNAMIC still gives SONAME and NEEDED, as for ld.so. */
static void section_headers_stripped(void **state)
{
	size_t len;
	uint8_t *b = slurp(LIBZ, &len);
	Elf64_Ehdr *eh;
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	assert_non_null(b);	/* zlib1g is in every Debian system (Priority: required) */
	eh = (Elf64_Ehdr *)b;
	eh->e_shoff = 0;
	eh->e_shnum = 0;
	eh->e_shstrndx = 0;
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "noshdr", b, len, &d), 0);
	assert_string_equal(o.soname, "libz.so.1");
	assert_string_equal(o.needed[0], "libc.so.6");
	elfobj_release(&o);
	pt_diag_release(&d);
	free(b);
}

/* A program header count that points past the end is an error at that offset. */
static void phnum_past_end(void **state)
{
	size_t len;
	uint8_t *b = slurp(LIBZ, &len);
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	assert_non_null(b);	/* zlib1g is in every Debian system (Priority: required) */
	((Elf64_Ehdr *)b)->e_phnum = 60000;
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "badph", b, len, &d), -1);
	assert_non_null(d.v[0].where);
	assert_string_equal(d.v[0].where, "program header at offset 0x40");
	elfobj_release(&o);
	pt_diag_release(&d);
	free(b);
}

static void not_elf(void **state)
{
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "txt", "hello world, no ELF here at all", 31, &d), -1);
	assert_string_equal(d.v[0].what, "not an ELF file");
	elfobj_release(&o);
	pt_diag_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_real_library),
		cmocka_unit_test(every_truncation),
		cmocka_unit_test(section_headers_stripped),
		cmocka_unit_test(phnum_past_end),
		cmocka_unit_test(not_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
