/*
 * Integers from bytes: the one place that reads little-, big- and
 * host-endian 16/32/64-bit fields out of a buffer (ELF, fat binaries,
 * ld.so.cache, .ninja_deps), and writes little-endian ones into one (the
 * package facts cache, pttrace's order.bin). The caller has checked that
 * the bytes are there; these never touch past p + width.
 */
#ifndef PT_BYTES_H
#define PT_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t pt_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t pt_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t pt_le64(const uint8_t *p)
{
	return (uint64_t)pt_le32(p) | (uint64_t)pt_le32(p + 4) << 32;
}

static inline uint16_t pt_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t pt_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t pt_be64(const uint8_t *p)
{
	return (uint64_t)pt_be32(p) << 32 | pt_be32(p + 4);
}

/* In the byte order a file declares (ELF's EI_DATA): big-endian when be. */
static inline uint16_t pt_rd16(const uint8_t *p, bool be)
{
	return be ? pt_be16(p) : pt_le16(p);
}

static inline uint32_t pt_rd32(const uint8_t *p, bool be)
{
	return be ? pt_be32(p) : pt_le32(p);
}

static inline uint64_t pt_rd64(const uint8_t *p, bool be)
{
	return be ? pt_be64(p) : pt_le64(p);
}

/* A field of width 1, 2, 4 or 8 in that order (ELF32 and ELF64 headers alike). */
static inline uint64_t pt_rdn(const uint8_t *p, int width, bool be)
{
	return width == 8 ? pt_rd64(p, be) : width == 4 ? pt_rd32(p, be) : width == 2 ? pt_rd16(p, be) : p[0];
}

/* In this machine's byte order (files written by this machine's programs: ld.so.cache, .ninja_deps). */
static inline uint32_t pt_host32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t pt_host64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Little-endian into p: the inverse of pt_le32 and pt_le64. */
static inline void pt_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void pt_put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

#endif
