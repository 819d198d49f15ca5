/*
 * The CUDA fat binary container (docs/formats/cuda-fatbin.md §3-§5, §8): a
 * 16-byte header, then entries (64-byte base header, extension, payload).
 * Parses headers only: payloads are never touched here (see fatbin_unpack.h), and
 * there is no I/O: the walker asks a caller-supplied reader for bytes, so the
 * same code walks a buffer in memory (tests, fuzzing) and a 500 MB library
 * read with pread (fatbin_scan.c). Every size field is checked before use.
 */
#ifndef PT_FATBIN_H
#define PT_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define FATBIN_MAGIC 0xBA55ED50u	/* bytes 50 ed 55 ba */
#define FATBIN_WRAPPER_MAGIC 0x466243B1u	/* __fatBinC_Wrapper_t in .nvFatBinSegment */
#define FATBIN_HEADER_SIZE 16
#define FATBIN_WRAPPER_SIZE 24
#define FATBIN_ENTRY_BASE 64
#define FATBIN_ENTRY_VERSION 0x0101
/* Header bytes read per entry for the identifier and options strings; seen: 64..144. */
#define FATBIN_ENTRY_HEADER_MAX 4096
/* Identifier and options strings longer than this are cut. */
#define FATBIN_STRING_MAX 1024

enum fatbin_kind {
	FATBIN_KIND_PTX = 1,
	FATBIN_KIND_ELF = 2,	/* a cubin: SASS */
	FATBIN_KIND_LTO = 8,	/* NVVM LTO-IR, opaque */
};

enum fatbin_flag {
	FATBIN_F_64BIT = 0x1,
	FATBIN_F_DEBUG = 0x2,		/* -G */
	FATBIN_F_LINUX = 0x10,
	FATBIN_F_LZ4 = 0x2000,		/* raw LZ4 block, no frame */
	FATBIN_F_ZSTD = 0x8000,		/* zstd frame */
	FATBIN_F_LTO = 0x10000,		/* on every LTO-IR entry */
	FATBIN_F_ARCH_A = 0x100000,	/* sm_90a, compute_100a ... */
	FATBIN_F_FAMILY_F = 0x200000,	/* sm_100f, compute_120f ... */
	FATBIN_F_SM100 = 0x1000000,	/* every cubin for arch >= 100; meaning unknown */
};
/* The flags whose meaning is known; the others are shown, never used for decisions. */
#define FATBIN_F_KNOWN (0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x2000 | 0x8000 | \
			0x10000 | 0x100000 | 0x200000 | 0x1000000)

enum fatbin_compression {
	FATBIN_COMP_NONE,
	FATBIN_COMP_LZ4,
	FATBIN_COMP_ZSTD,
	FATBIN_COMP_BOTH,	/* both flags set: damaged */
};

struct fatbin_header {
	uint32_t magic;
	uint16_t version;	/* 1 */
	uint16_t header_size;	/* 16 */
	uint64_t fat_size;	/* bytes of entries after the header; may be 0 */
};

/* One entry; the fields of its header, unchanged, plus what follows from them. */
struct fatbin_entry {
	uint64_t offset;	/* of the entry header, in the reader's coordinates */
	size_t fatbin;		/* index of its fat binary, set by the caller */
	uint16_t kind;		/* enum fatbin_kind, or an unknown value */
	uint16_t version;
	uint32_t header_size;	/* payload starts at offset + header_size */
	uint64_t payload_size;	/* padded to 8 */
	uint32_t compressed_size;	/* 0 unless compressed */
	uint16_t major, minor;	/* PTX: ISA version; ELF: cubin code version; LTO: IR version */
	uint32_t arch;		/* major*10 + minor: 90, 100, 120 */
	uint64_t flags;		/* enum fatbin_flag, unknown bits kept */
	uint64_t uncompressed_size;	/* 0 unless compressed */
	char variant;		/* 'a', 'f' or 0, from the flags only */
	enum fatbin_compression comp;
	char *identifier;	/* -G / -lineinfo source names; NULL when absent */
	char *options;		/* PTX/LTO options text; NULL when absent or empty */
};

/* A growable list of entries; entries own their strings. */
struct fatbin_entries {
	struct fatbin_entry *v;
	size_t n, alloc;
};

void fatbin_entries_release(struct fatbin_entries *l);

/*
 * Parse a fat binary header from buf[0..len). Returns 0, or -1 with *why set
 * to a fixed reason ("bad magic", "truncated header" ...). The fat size is
 * not checked here: the caller knows where the fat binary must end.
 */
int fatbin_parse_header(const uint8_t *buf, size_t len, struct fatbin_header *h, const char **why);

/*
 * Parse one entry header from buf[0..len), where len is the bytes available
 * (at least FATBIN_ENTRY_BASE, at most header_size; strings outside buf are
 * dropped) and room the bytes left in the fat binary from the entry's start.
 * Fills *e (strings allocated). Returns 0; 1 when the entry is usable but
 * odd (*why says how: the walk goes on); -1 when its sizes make the rest of
 * the fat binary unreadable (*why set, *e has no strings).
 */
int fatbin_parse_entry(const uint8_t *buf, size_t len, uint64_t room, struct fatbin_entry *e,
		       const char **why);

/*
 * The bytes [off, off+n) of the reader's input, or NULL when they are not all
 * there (past the end, or a read error). The pointer is valid until the next
 * call.
 */
typedef const uint8_t *(*fatbin_read_fn)(void *ctx, uint64_t off, size_t n);

enum fatbin_walk_mode {
	FATBIN_WALK_STRICT,	/* a fat binary is expected here: any problem is a warning */
	FATBIN_WALK_CANDIDATE,	/* a magic found by scanning: silent unless it is plausibly one */
};

enum fatbin_walk_status {
	FATBIN_WALK_OK = 0,	/* entries tile the fat binary exactly */
	FATBIN_WALK_NOT = -1,	/* no usable fat binary header here (warned in STRICT mode) */
	FATBIN_WALK_DAMAGED = 1,	/* header usable, entries damaged; entries before it kept */
	FATBIN_WALK_OVERLAP = 2,	/* CANDIDATE only: its entries lead into ones already walked;
					   nothing appended (fatbin_walk_seen) */
};

/*
 * The entry offsets walked so far (an open-addressing set), so that scanned
 * candidates overlapping a damaged fat binary are not walked again: without
 * it, N nested headers whose entries chain to the end of a section are
 * walked N times each (fault-matrix.md B2: 7 GB for a 1 MB file).
 */
struct fatbin_seen {
	uint64_t *slot;		/* offset + 1; 0 is empty */
	size_t n, cap;
};

void fatbin_seen_release(struct fatbin_seen *s);

/*
 * Walk the fat binary at off, which must end by end. Entries are appended to
 * out (with fatbin set to fatbin_index). *fat_end receives the end of the fat
 * binary per its header (when the status is not FATBIN_WALK_NOT). Problems
 * go to diag as warnings on file with where = "<where>, fat binary at offset
 * 0x..". Reads at most FATBIN_ENTRY_HEADER_MAX bytes per call to rd.
 */
enum fatbin_walk_status fatbin_walk(fatbin_read_fn rd, void *ctx, uint64_t off, uint64_t end,
				    enum fatbin_walk_mode mode, size_t fatbin_index,
				    struct fatbin_entries *out, uint64_t *fat_end, const char *file,
				    const char *where, struct pt_diag *diag);

/*
 * fatbin_walk that records every entry offset it reaches in seen (when not
 * NULL). In FATBIN_WALK_CANDIDATE mode, reaching an offset already in seen
 * stops the walk: the entries it appended are removed and the status is
 * FATBIN_WALK_OVERLAP (no warning: the fat binary that owns those entries was
 * reported). Each entry offset is thus parsed once by a scan, whatever the
 * overlaps, so its work and memory grow linearly with the bytes scanned.
 */
enum fatbin_walk_status fatbin_walk_seen(fatbin_read_fn rd, void *ctx, uint64_t off, uint64_t end,
					 enum fatbin_walk_mode mode, size_t fatbin_index,
					 struct fatbin_entries *out, uint64_t *fat_end,
					 const char *file, const char *where, struct pt_diag *diag,
					 struct fatbin_seen *seen);

/*
 * The same over one fat binary in memory: buf[0..len) holds it (and maybe
 * more). Offsets in out are from buf. For tests and fuzzing.
 */
enum fatbin_walk_status fatbin_parse(const uint8_t *buf, size_t len, struct fatbin_entries *out,
				     const char *file, struct pt_diag *diag);

/* "ELF", "PTX", "LTO-IR" or "unknown". */
const char *fatbin_kind_name(unsigned kind);

/* "none", "lz4", "zstd", "lz4+zstd". */
const char *fatbin_comp_name(enum fatbin_compression c);

#endif
