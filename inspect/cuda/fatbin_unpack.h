/*
 * Fat binary payloads for --verify (docs/formats/cuda-fatbin.md §6, §7):
 * decompression of raw LZ4 blocks (liblz4) and zstd frames (libzstd), and a
 * look inside the result (cubin ELF header, PTX .version/.target). Bytes in,
 * bytes out; LTO-IR is opaque and never handled here.
 */
#ifndef PT_FATBIN_UNPACK_H
#define PT_FATBIN_UNPACK_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

/* Largest payload --verify decompresses (ZLUDA caps a module at 64 MiB). */
#define UNPACK_MAX (256u << 20)

/*
 * Decompress src[0..n) into dst[0..dstlen). Returns 0 only when the stream
 * is valid and yields exactly dstlen bytes; else -1 with *why set.
 */
int fatbin_unpack_payload(enum fatbin_compression c, const uint8_t *src, size_t n, uint8_t *dst,
		   size_t dstlen, const char **why);

struct fatbin_unpack_info {
	int elf_type;		/* cubin e_type (1 = ET_REL), -1 for PTX */
	unsigned sm;		/* cubin SM from e_flags, or PTX .target number */
	char variant;		/* PTX .target suffix 'a'/'f'; 'a' for a cubin whose e_flags
				   have EF_CUDA_ACCELERATORS (0x800, ABI v7), as cuobjdump
				   names it ("sm_60a"); else 0 */
	unsigned isa_major, isa_minor;	/* PTX .version */
};

/*
 * Look at a (decompressed) payload of an entry of kind ELF or PTX: returns 0
 * and fills *info, or -1 with *why ("not an ELF file", "no .version line").
 */
int fatbin_unpack_inspect(unsigned kind, const uint8_t *p, size_t n, struct fatbin_unpack_info *info,
		   const char **why);

#endif
