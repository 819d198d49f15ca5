/* common/gzout.c: a gzip stream over stdio, read back with zlib's own inflate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gzout.h"

/* Inflate a whole gzip file (one member) into *out; its length, or -1. */
static long gunzip(const unsigned char *gz, size_t n, unsigned char **out)
{
	size_t cap = 1 << 16, len = 0;
	z_stream z = {0};
	int zr;

	*out = malloc(cap);
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)n;
	do {
		if (len == cap)
			*out = realloc(*out, cap *= 2);
		z.next_out = *out + len;
		z.avail_out = (uInt)(cap - len);
		zr = inflate(&z, Z_NO_FLUSH);
		len = cap - z.avail_out;
	} while (zr == Z_OK);
	inflateEnd(&z);
	return zr == Z_STREAM_END && z.avail_in == 0 ? (long)len : -1;
}

/* Write data (n bytes, in pieces of step) through a gzout into memory; the gzip bytes. */
static char *gz_of(const char *data, size_t n, size_t step, size_t *gzlen, uint64_t *written)
{
	char *buf = NULL;
	FILE *raw = open_memstream(&buf, gzlen);
	FILE *f;

	assert_non_null(raw);
	f = pt_gzout_open(raw, 1, written);
	assert_non_null(f);
	for (size_t i = 0; i < n; i += step)
		assert_int_equal(fwrite(data + i, 1, n - i < step ? n - i : step, f), n - i < step ? n - i : step);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void round_trip(void **state)
{
	size_t n = 3u << 20, gzlen;	/* more than the 256 KiB output chunk, many times */
	char *data = malloc(n), *gz;
	unsigned char *back;
	uint64_t written;

	(void)state;
	for (size_t i = 0; i < n; i++)	/* some structure, some noise: both paths of deflate */
		data[i] = i % 7 == 0 ? (char)((i * 2654435761u) >> 13) : "{\"ph\":\"X\"}"[i % 10];
	gz = gz_of(data, n, 4099, &gzlen, &written);
	assert_int_equal(written, gzlen);	/* *written is what reached raw */
	assert_true(gzlen > 18 && gzlen < n / 2);
	/* RFC 1952: magic, deflate, no flags, a zero time (the same bytes give the same file). */
	assert_memory_equal(gz, "\x1f\x8b\x08\x00\x00\x00\x00\x00", 8);
	assert_int_equal(gunzip((unsigned char *)gz, gzlen, &back), (long)n);
	assert_memory_equal(back, data, n);
	free(back);
	free(gz);
	free(data);
}

static void empty_and_deterministic(void **state)
{
	size_t l1, l2;
	uint64_t w;
	char *a = gz_of("", 0, 1, &l1, &w), *b;
	unsigned char *back;

	(void)state;
	assert_int_equal(gunzip((unsigned char *)a, l1, &back), 0);	/* a valid empty member */
	free(back);
	free(a);
	a = gz_of("same bytes in", 13, 1, &l1, &w);
	b = gz_of("same bytes in", 13, 5, &l2, &w);	/* written in other pieces */
	assert_int_equal(l1, l2);
	assert_memory_equal(a, b, l1);
	free(a);
	free(b);
}

/* A raw stream that fails: fclose of the gzout says so (EOF), and raw is closed. */
static ssize_t fail_write(void *c, const char *p, size_t n)
{
	(void)c;
	(void)p;
	(void)n;
	errno = ENOSPC;
	return 0;	/* fopencookie(3)'s error: 0, never negative */
}

static int closes;
static int count_close(void *c)
{
	(void)c;
	closes++;
	return 0;
}

static void failing_raw(void **state)
{
	cookie_io_functions_t io = { .write = fail_write, .close = count_close };
	FILE *raw = fopencookie(NULL, "w", io), *f;
	char big[1 << 16];
	uint64_t w = 1;

	(void)state;
	assert_non_null(raw);
	setvbuf(raw, NULL, _IONBF, 0);
	closes = 0;
	f = pt_gzout_open(raw, 9, &w);
	assert_non_null(f);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)((i * 2654435761u) >> 11);	/* incompressible: output comes early */
	for (int i = 0; i < 16; i++)
		(void)fwrite(big, 1, sizeof(big), f);
	assert_int_equal(fclose(f), EOF);
	assert_int_equal(closes, 1);
	assert_int_equal(w, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(empty_and_deterministic),
		cmocka_unit_test(failing_raw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
