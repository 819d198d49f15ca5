/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: fat binary payload decompression (cuda --verify), raw LZ4
 * blocks and zstd frames (fatbin_unpack_payload), and the look inside what
 * comes out (fatbin_unpack_inspect). Input: 1 byte compression (bit 0: LZ4 or
 * zstd), 3 bytes declared size (little-endian, at most 16 MiB), then the
 * compressed bytes. Seeds: an sm_80 cubin and its PTX from nvcc 13,
 * compressed (corpus/README.md).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fatbin_unpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum fatbin_compression c;
	struct fatbin_unpack_info info;
	const char *why = NULL;
	size_t dstlen;
	uint8_t *dst;

	if (size < 4)
		return 0;
	c = data[0] & 1 ? FATBIN_COMP_ZSTD : FATBIN_COMP_LZ4;
	dstlen = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16;
	dst = malloc(dstlen ? dstlen : 1);
	if (!dst)
		return 0;
	if (fatbin_unpack_payload(c, data + 4, size - 4, dst, dstlen, &why) == 0) {
		if (!why)
			why = "";
		fatbin_unpack_inspect(FATBIN_KIND_ELF, dst, dstlen, &info, &why);
		fatbin_unpack_inspect(FATBIN_KIND_PTX, dst, dstlen, &info, &why);
	} else if (!why) {
		__builtin_trap();	/* a failure always says why */
	}
	free(dst);
	return 0;
}
