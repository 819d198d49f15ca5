/*
 * Every CUDA fat binary of one ELF file, section by section
 * (docs/formats/cuda-fatbin.md §1, §2, §8): `.nv_fatbin` and `__nv_relfatbin`
 * are walked header by header; the other non-code data sections (cuFFT's
 * `.ldata`, cuBLASLt's `.cask_resource`, cuSPARSE's `.rodata`) are scanned
 * for the magic unless CUDA_SCAN_REGISTERED_ONLY. The wrappers in
 * `.nvFatBinSegment` are counted and matched to the fat binaries they
 * register. Reads with pread into small reused buffers: a 133 MB section is
 * never mapped or copied, and payloads are read only by cuda_scan_verify.
 */
#ifndef PT_FATBIN_SCAN_H
#define PT_FATBIN_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "elfobj.h"
#include "fatbin.h"

enum cuda_section_kind {
	CUDA_SEC_REGISTERED,	/* .nv_fatbin: loaded by the CUDA runtime through the wrappers */
	CUDA_SEC_RELOCATABLE,	/* __nv_relfatbin: -rdc objects for nvlink, never loaded as-is */
	CUDA_SEC_EMBEDDED,	/* any other section: plain data the library loads itself */
};

/* "registered", "relocatable", "embedded": the JSON words. */
const char *cuda_section_kind_name(enum cuda_section_kind k);

/* A section that holds fat binaries (or is one of the two walked ones). */
struct cuda_section {
	char *name;
	enum cuda_section_kind kind;
	uint64_t offset, size, addr;	/* from the section header */
	size_t n_fatbins, n_entries, n_damaged;
	uint64_t bytes;			/* bytes of fat binaries in it (headers + entries) */
};

struct cuda_fatbin {
	uint64_t offset;	/* file offset of the fat binary header */
	uint64_t size;		/* 16 + fat_size */
	size_t section;		/* index in cuda_scan.secs */
	size_t first_entry, n_entries;	/* in cuda_scan.entries */
	bool damaged;
	bool wrapped;		/* a wrapper in .nvFatBinSegment points at it */
};

struct cuda_scan {
	struct cuda_section *secs;
	size_t n_secs, alloc_secs;
	struct cuda_fatbin *fatbins;	/* in file order within each section */
	size_t n_fatbins, alloc_fatbins;
	struct fatbin_entries entries;	/* entry.offset is a file offset */
	bool has_segment;		/* .nvFatBinSegment present */
	size_t n_wrappers;		/* valid wrappers in .nvFatBinSegment */
	size_t n_wrappers_v2;		/* of those, device-link (version 2) ones */
	bool wrappers_matched;		/* cuda_fatbin.wrapped is meaningful (not ET_REL) */
	bool deep;			/* the other data sections were scanned */
};

enum cuda_scan_flags {
	CUDA_SCAN_REGISTERED_ONLY = 1 << 0,	/* walk .nv_fatbin/__nv_relfatbin only */
};

/*
 * Find the fat binaries of o. Damage (a bad magic, sizes past the end, a
 * truncated section, a wrapper pointing nowhere) is a PT_SEV_WARNING per fat
 * binary and the rest is still read. Returns 0, or -1 if the file could not
 * be read at all (PT_SEV_ERROR).
 */
int cuda_scan(const struct elfobj *o, unsigned flags, struct cuda_scan *s, struct pt_diag *diag);

void cuda_scan_release(struct cuda_scan *s);

/*
 * The file ranges cuda_scan(o, flags) reads whole, for elfobj_read_ahead:
 * .nvFatBinSegment and (without CUDA_SCAN_REGISTERED_ONLY) every data
 * section it searches for fat binaries. Not .nv_fatbin: only the headers
 * of what it holds are read. Returns the number stored in *out (caller
 * frees).
 */
size_t cuda_scan_ranges(const struct elfobj *o, unsigned flags, struct elfobj_range **out);

/* What --verify found. */
struct cuda_verify {
	size_t checked;		/* SASS and PTX entries decompressed (or read) and checked */
	size_t failed;		/* of those, with a warning */
	size_t skipped;		/* LTO-IR and unknown kinds (opaque), or over the size cap */
	size_t et_rel;		/* relocatable (ET_REL) cubins */
	bool *entry_rel;	/* per entry: an ET_REL cubin; NULL if none checked */
	char *entry_cubin_variant;	/* per entry: fatbin_unpack_info.variant of a cubin ('a' or 0) */
	bool *entry_bad;	/* per entry: verification failed */
};

/*
 * Read every SASS and PTX payload, decompress it (liblz4 raw block, libzstd
 * frame) and check it: exactly uncompressed_size bytes, an EM_CUDA ELF whose
 * SM matches the arch, or PTX text whose .version and .target match the
 * header. Each failure is a PT_SEV_WARNING. Payloads above UNPACK_MAX bytes
 * are skipped (counted). Returns 0, or -1 on a read error.
 */
int cuda_scan_verify(const struct elfobj *o, const struct cuda_scan *s, struct cuda_verify *v,
		     struct pt_diag *diag);

void cuda_verify_release(struct cuda_verify *v);

#endif
