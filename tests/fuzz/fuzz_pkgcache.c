/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: the package facts cache's file parser (pkgcache.c,
 * pkgcache_decode) on any bytes, twice: as a whole file keyed by the key it
 * carries (the checksum, magic, format and key checks), and as the body of
 * a file whose header and checksum are made here, so that every mutation
 * reaches the records (counts, strings, members, ELF fields, fat binary
 * summaries, torch symbols, messages). A decoded package goes through
 * package_finish (no target system: env NULL), as a hit does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "package.h"
#include "pkgcache.h"

static uint64_t fnv(const uint8_t *b, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* A hit is handed to package_finish as package.c would: resolution, floors, lint, arch lists. */
static void decode(const struct pkgcache_key *k, const uint8_t *b, size_t n)
{
	struct pkg_opts po = { 0 };
	struct package p;
	struct pt_diag d;

	package_begin("/fuzz/f.whl", &po, &p);
	pt_diag_init(&d);
	if (pkgcache_decode(k, b, n, &p, &d) == 0)
		package_finish(&p, &po, &d);
	package_release(&p);
	pt_diag_release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pkgcache_key k;
	size_t kl = 0;
	uint8_t *b;
	uint64_t sum;

	/* 1. a whole file: its own key (bytes 16.. as long as bytes 12..15 say) */
	if (size >= 16) {
		kl = (size_t)data[12] | (size_t)data[13] << 8 | (size_t)data[14] << 16 |
		     (size_t)data[15] << 24;
		if (kl > size - 16)
			kl = 0;
	}
	pkgcache_key_raw(&k, data + (kl ? 16 : 0), kl);
	decode(&k, data, size);
	pkgcache_key_release(&k);
	/* 2. a body: header "PTPKGCF\n", the format, key "k", then the bytes, then the checksum */
	b = malloc(size + 32);
	if (!b)
		return 0;
	memcpy(b, "PTPKGCF\n", 8);
	b[8] = PKGCACHE_FORMAT;
	b[9] = b[10] = b[11] = 0;
	b[12] = 1;
	b[13] = b[14] = b[15] = 0;
	b[16] = 'k';
	memcpy(b + 17, data, size);
	sum = fnv(b, size + 17);
	for (int i = 0; i < 8; i++)
		b[size + 17 + i] = (uint8_t)(sum >> (8 * i));
	pkgcache_key_raw(&k, "k", 1);
	decode(&k, b, size + 25);
	pkgcache_key_release(&k);
	free(b);
	return 0;
}
