/*
 * One ELF file read through libelf, never executed: header identity, the
 * dynamic section as ld.so reads it (through PT_DYNAMIC, not the section
 * headers), build-id, debug-info hints and symbol-version records.
 *
 * Files are opened with ELF_C_READ_MMAP: only the pages touched (headers,
 * dynamic strings) become resident, which matters for 500 MB CUDA libraries.
 * A file truncated while it is read (SIGBUS on the mapping) is an error
 * naming it, never a crash (common/mapguard.h). The resolver's dependencies
 * (elfobj_open_dynamic) are read with pread instead when they are well
 * formed: a few hundred bytes each, where a mapping costs a fault per page
 * touched, its neighbours mapped too, and the unmapping.
 */
#ifndef PT_ELFOBJ_H
#define PT_ELFOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "symver.h"

/* One section header, as the section table says (sizes not yet checked against the file). */
struct elf_section {
	char *name;
	uint32_t type;		/* SHT_PROGBITS ... */
	uint64_t flags;		/* SHF_ALLOC, SHF_EXECINSTR ... */
	uint64_t addr, offset, size, align;
	uint32_t link;		/* sh_link: the symbol table of a relocation section ... */
	size_t index;		/* its index in the section header table */
};

struct elfobj {
	char *path;		/* as opened (not realpath'ed) */
	int fd;
	unsigned long long dev, ino;	/* of the file opened (fstat), 0 for elfobj_open_mem */
	void *elf;		/* Elf *, kept opaque so users need no libelf headers */
	uint64_t size;		/* file size in bytes */

	int cls;		/* ELFCLASS32 / ELFCLASS64 */
	int data;		/* ELFDATA2LSB / ELFDATA2MSB */
	int osabi;
	int abiversion;
	int type;		/* ET_DYN, ET_EXEC ... */
	int machine;		/* EM_X86_64 ... */
	bool refused;		/* ET_DYN/ET_EXEC whose header glibc's ld.so rejects (a warning says why) */

	char *interp;		/* PT_INTERP, or NULL */
	char *soname;		/* DT_SONAME (last wins), or NULL */
	char **needed;		/* DT_NEEDED in tag order */
	size_t n_needed;
	char *rpath;		/* DT_RPATH (last wins), raw, or NULL */
	char *runpath;		/* DT_RUNPATH (last wins), raw, or NULL */
	uint64_t flags_1;	/* DT_FLAGS_1 */

	uint8_t build_id[64];
	size_t build_id_len;
	bool has_debug_info;	/* .debug_info or .zdebug_info present with data */
	char *debuglink;	/* .gnu_debuglink file name, or NULL */

	struct elf_verneed *verneed;	/* DT_VERNEED, in file order */
	size_t n_verneed;
	char **verdef;		/* DT_VERDEF names, the base (file) name excluded */
	size_t n_verdef;
	bool has_verdef;

	struct elf_section *sections;	/* the section table in index order, [0] excluded */
	size_t n_sections;
	const uint8_t *mem;	/* the bytes, for elfobj_open_mem; NULL when read from fd */
	void *read_ahead;	/* elfobj_read_ahead's thread, private */
};

/*
 * Open path and read everything above. Returns 0, or -1 when the file is
 * not a usable ELF object (not ELF, truncated headers, unreadable); the
 * reason, with the file and place, goes to diag as PT_SEV_ERROR. Damage that
 * still leaves a usable object (a bad version record, a string offset out of
 * range) is a PT_SEV_WARNING and the field is left empty.
 */
int elfobj_open(struct elfobj *o, const char *path, struct pt_diag *diag);

/*
 * Like elfobj_open but only the identity and the dynamic section: no
 * build-id, no section headers. What the resolver needs for each of the
 * hundreds of dependencies of a large library. The file is closed before
 * it returns (o->elf NULL, o->fd -1, elfobj_pread fails): only the fields.
 */
int elfobj_open_dynamic(struct elfobj *o, const char *path, struct pt_diag *diag);

/*
 * A loader candidate that elfobj_loadable_fd found loadable, still open:
 * its fstat and the first bytes it read, so that opening it reads neither
 * again.
 */
struct elfobj_file {
	int fd;
	unsigned long long dev, ino;
	uint64_t size;
	unsigned char head[4096];	/* the file's first n_head bytes */
	size_t n_head;
	bool cached;		/* the head was read from the page cache (false: from the disk, or unknown) */
};

/*
 * The same from a candidate elfobj_loadable_fd left open for path (one
 * open per dependency instead of two); f->fd is closed before it returns,
 * whatever the outcome (f->fd becomes -1).
 */
int elfobj_open_dynamic_fd(struct elfobj *o, const char *path, struct elfobj_file *f,
			   struct pt_diag *diag);

/* The same from bytes in memory (for tests and fuzzing); buf must outlive o. */
int elfobj_open_mem(struct elfobj *o, const char *name, const void *buf, size_t len,
		    struct pt_diag *diag);

/*
 * elfobj_open_mem for bytes from outside (an archive member): refused with
 * a PT_SEV_ERROR naming it when len passes max_len. The bytes may be a
 * sparse copy (only the ranges a reader needs filled, zeros elsewhere).
 */
int elfobj_open_bytes(struct elfobj *o, const char *name, const void *buf, size_t len,
		      size_t max_len, struct pt_diag *diag);

/* Let go of libelf's handle and the bytes (o->mem): the fields stay. */
void elfobj_drop_bytes(struct elfobj *o);

void elfobj_release(struct elfobj *o);

/*
 * For readers of o->elf's mapping (libdw, dynsym) whose mapguard caught a
 * SIGBUS: the PT_SEV_ERROR naming the file ("truncated while it was read").
 */
void elfobj_shrank(const struct elfobj *o, struct pt_diag *diag);

/*
 * Read n bytes at file offset off into buf (pread on o->fd, or a copy from
 * the bytes of elfobj_open_mem). Returns the number of bytes read, short at
 * the end of the file, or -1 on a read error. Large sections are read
 * through this in pieces, never mapped or copied whole.
 */
long elfobj_pread(const struct elfobj *o, void *buf, size_t n, uint64_t off);

/*
 * A scan's read of one chunk (the CUDA scan's data sections, the
 * dispatcher-trace search of .rodata): elfobj_pread into a small reused
 * buffer that stays in the CPU's cache, which costs less than mapping the
 * pages (populating and unmapping them was 60% of the CUDA scan of
 * libcublasLt). Returns the bytes read, short only at the end of the file;
 * -1 on a read error; -2 when the read came short because the file is now
 * shorter than when it was opened (cut while it was read).
 */
long elfobj_read_chunk(const struct elfobj *o, void *buf, size_t n, uint64_t off);

/*
 * [off, off + n) will be read whole, soon: the kernel may start reading it
 * now, in large requests (posix_fadvise WILLNEED), where a scan through
 * windows would wait on one read-around after another. Only a hint, and
 * none is given when both ends are in the page cache already (a warm cache:
 * the kernel would walk every page of the range only to find it there).
 */
void elfobj_will_read(const struct elfobj *o, uint64_t off, uint64_t n);

/* A byte range of a file: what a scan will read. */
struct elfobj_range {
	uint64_t off, len;
};

/*
 * The ranges v (merged where they overlap or touch, at most max_bytes in
 * all, in file order) will be read soon, after other work: a thread of its
 * own asks the kernel to start reading them now (elfobj_will_read), so the
 * disk reads them while the caller does that other work, and the caller
 * does not wait while the kernel queues them (1.5-10 ms for 10 MB). Only
 * a hint, for a cold page cache; nothing when o has no descriptor. At most
 * one per object; elfobj_release waits for that thread.
 */
void elfobj_read_ahead(struct elfobj *o, const struct elfobj_range *v, size_t n,
		       uint64_t max_bytes);

/*
 * Cheap check of a loader candidate (glibc elf/dl-load.c open_verify): ELF
 * magic, class, data encoding, version, OS ABI, machine, ET_DYN, program
 * headers inside the file. Returns 1 if ld.so would accept the file for an
 * object of class cls and machine, 0 if it would skip it, -1 if it cannot
 * be opened.
 */
int elfobj_loadable(const char *path, int cls, int machine);

/*
 * elfobj_loadable that, on 1, leaves the file open in f for
 * elfobj_open_dynamic_fd (or close(f->fd)). On 0 or -1 nothing is left
 * open (f->fd is -1).
 */
int elfobj_loadable_fd(const char *path, int cls, int machine, struct elfobj_file *f);

/* "x86-64", "AArch64", "i386" ...; a number for others. Static storage. */
const char *elfobj_machine_name(int machine);

/* The build-id as lower-case hex into out (at least 129 bytes); "" if none. */
void elfobj_build_id_hex(const struct elfobj *o, char *out);

#endif
