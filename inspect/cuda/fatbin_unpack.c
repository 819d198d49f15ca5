/* Payload decompression and a look inside; see fatbin_unpack.h. */
#include "fatbin_unpack.h"

#include <lz4.h>
#include <string.h>
#include <zstd.h>

#include "lazylib.h"
#include "numparse.h"

/* liblz4 and libzstd are opened on the first payload (lazylib.h): only cuda --verify needs them. */
static __typeof__(LZ4_decompress_safe) *p_LZ4_decompress_safe;
static __typeof__(ZSTD_decompress) *p_ZSTD_decompress;
static __typeof__(ZSTD_isError) *p_ZSTD_isError;
static __typeof__(ZSTD_getErrorName) *p_ZSTD_getErrorName;
static const struct pt_lazysym lz4_syms[] = {
	PT_LAZYSYM(LZ4_decompress_safe),
};
static struct pt_lazylib lz4 = PT_LAZYLIB("liblz4.so.1", lz4_syms);
static const struct pt_lazysym zstd_syms[] = {
	PT_LAZYSYM(ZSTD_decompress),
	PT_LAZYSYM(ZSTD_isError),
	PT_LAZYSYM(ZSTD_getErrorName),
};
static struct pt_lazylib zstd = PT_LAZYLIB("libzstd.so.1", zstd_syms);
#define LZ4_decompress_safe (*p_LZ4_decompress_safe)
#define ZSTD_decompress (*p_ZSTD_decompress)
#define ZSTD_isError (*p_ZSTD_isError)
#define ZSTD_getErrorName (*p_ZSTD_getErrorName)

int fatbin_unpack_payload(enum fatbin_compression c, const uint8_t *src, size_t n, uint8_t *dst,
		   size_t dstlen, const char **why)
{
	if (dstlen > UNPACK_MAX || n > UNPACK_MAX) {
		*why = "payload larger than the decompression cap";
		return -1;
	}
	if (c == FATBIN_COMP_LZ4) {
		/* A raw block, no frame (§6): the block API with both sizes. */
		if ((*why = pt_lazylib_load(&lz4)))
			return -1;
		int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)dstlen);

		if (r < 0) {
			*why = "LZ4_decompress_safe: invalid LZ4 block";
			return -1;
		}
		if ((size_t)r != dstlen) {
			*why = "LZ4 block decompresses to a size other than the header's";
			return -1;
		}
		return 0;
	}
	if (c == FATBIN_COMP_ZSTD) {
		if ((*why = pt_lazylib_load(&zstd)))
			return -1;
		size_t r = ZSTD_decompress(dst, dstlen, src, n);

		if (ZSTD_isError(r)) {
			/* ZSTD_getErrorName's strings are static. */
			*why = ZSTD_getErrorName(r);
			return -1;
		}
		if (r != dstlen) {
			*why = "zstd frame decompresses to a size other than the header's";
			return -1;
		}
		return 0;
	}
	*why = "unknown compression";
	return -1;
}

#define EM_CUDA 190

/* The number after "key" at the start of a line, "9.0" / "sm_90a"; NULL if absent. */
static const char *ptx_directive(const char *p, size_t n, const char *key)
{
	size_t k = strlen(key);

	for (size_t i = 0; i + k < n; i++) {
		if ((i == 0 || p[i - 1] == '\n') && !memcmp(p + i, key, k))
			return p + i + k;
		if (p[i] == '\0')
			break;
	}
	return NULL;
}

/* A decimal number at p, never reading at or past lim; returns the first byte after it. */
static const char *digits(const char *p, const char *lim, unsigned *out)
{
	uint64_t v;

	/* Stops before a digit past 999999 (a digit is read while the value is below 100000). */
	p += pt_dec_scan(p, p < lim ? (size_t)(lim - p) : 0, 999999, &v);
	*out = (unsigned)v;
	return p;
}

int fatbin_unpack_inspect(unsigned kind, const uint8_t *p, size_t n, struct fatbin_unpack_info *info,
		   const char **why)
{
	memset(info, 0, sizeof(*info));
	info->elf_type = -1;
	if (kind == FATBIN_KIND_ELF) {
		if (n < 64 || memcmp(p, "\177ELF", 4) != 0 || p[4] != 2) {
			*why = "payload is not an ELF64 cubin";
			return -1;
		}
		unsigned machine = p[18] | p[19] << 8;
		uint32_t flags = (uint32_t)p[48] | (uint32_t)p[49] << 8 | (uint32_t)p[50] << 16 |
				 (uint32_t)p[51] << 24;

		if (machine != EM_CUDA) {
			*why = "cubin e_machine is not EM_CUDA";
			return -1;
		}
		info->elf_type = p[16] | p[17] << 8;
		/* §7: ABI v8 (EI_OSABI 0x41, CUDA 13) keeps the SM in bits 8-15, v7 in the low byte. */
		info->sm = p[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
		/*
		 * ABI v7 EF_CUDA_ACCELERATORS: an arch-specific cubin. cuBLAS 12.4
		 * has relocatable sm_50/60/61 cubins with it while their fat binary
		 * entries carry no `a` flag; cuobjdump 12.4 lists them as sm_50a.
		 */
		if (p[8] < 8 && (flags & 0x800))
			info->variant = 'a';
		return 0;
	}
	if (kind == FATBIN_KIND_PTX) {
		const char *t = (const char *)p, *v, *g, *lim = t + n;

		if (!(v = ptx_directive(t, n, ".version "))) {
			*why = "PTX without a .version line";
			return -1;
		}
		v = digits(v, lim, &info->isa_major);
		if (v < lim && *v == '.')
			digits(v + 1, lim, &info->isa_minor);
		if (!(g = ptx_directive(t, n, ".target sm_"))) {
			*why = "PTX without a .target sm_ line";
			return -1;
		}
		g = digits(g, lim, &info->sm);
		if (g < lim && (*g == 'a' || *g == 'f'))
			info->variant = *g;
		return 0;
	}
	*why = "opaque payload kind";
	return -1;
}
