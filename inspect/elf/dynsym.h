/*
 * The dynamic symbol table of one ELF object, as ld.so's symbol lookup sees
 * it: .dynsym, .dynstr, .gnu.version (versym), the version names of
 * .gnu.version_d and .gnu.version_r by index, and .gnu.hash for fast
 * lookup (a name-sorted index when an object has no .gnu.hash). Built from
 * the bytes of those sections; every offset and count is checked against
 * the lengths given. 64-bit objects, either byte order.
 */
#ifndef PT_DYNSYM_H
#define PT_DYNSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* The raw bytes of the sections (NULL/0 when absent). */
struct dynsym_sections {
	const uint8_t *dynsym;
	size_t dynsym_len;
	const uint8_t *dynstr;
	size_t dynstr_len;
	const uint8_t *versym;
	size_t versym_len;
	const uint8_t *verdef;
	size_t verdef_len;
	const uint8_t *verneed;
	size_t verneed_len;
	const uint8_t *gnu_hash;
	size_t gnu_hash_len;
	bool big_endian;
};

/* A version index's meaning: a definition (verdef) or a requirement (verneed). */
struct dynsym_version {
	const char *name;	/* into dynstr; NULL for unused indexes */
	const char *file;	/* verneed: the provider's DT_NEEDED name; NULL for verdef */
	bool weak;		/* verneed: VER_FLG_WEAK */
};

struct dynsym {
	struct dynsym_sections s;
	size_t n_syms;
	struct dynsym_version *ver;	/* by version index */
	size_t n_ver, a_ver;
	/* .gnu.hash, when valid */
	uint32_t nbuckets, symoffset, bloom_size, bloom_shift;
	const uint8_t *bloom, *buckets, *chains;
	size_t n_chains;
	uint32_t *sorted;	/* without .gnu.hash: defined symbols by name */
	size_t n_sorted;
};

/* One symbol, decoded. */
struct dynsym_sym {
	const char *name;	/* "" when the name offset is out of range */
	uint8_t bind;		/* STB_* */
	uint8_t type;		/* STT_* */
	uint8_t vis;		/* STV_* */
	uint16_t shndx;
	uint64_t value;
	uint16_t ver;		/* versym index without the hidden bit; 1 when no versym */
	bool hidden;		/* versym bit 15: not the default version */
};

/*
 * Check and index the sections. Returns 0, or -1 when there is no usable
 * symbol table (a PT_SEV_WARNING naming file and section in diag). Damaged
 * version or hash sections are warnings; the table still works without them.
 */
int dynsym_init(struct dynsym *t, const struct dynsym_sections *s, const char *file,
		struct pt_diag *diag);
void dynsym_release(struct dynsym *t);

/* Symbol i (0 < i < n_syms). */
void dynsym_get(const struct dynsym *t, size_t i, struct dynsym_sym *out);

/* GNU hash of a name (the DT_GNU_HASH function, libelf's elf_gnu_hash). */
uint32_t dynsym_hash(const char *name);

/*
 * The symbol of this table that a reference to name binds to, by ld.so's
 * check_match rules: defined, an allowed type, not hidden/internal; a
 * versioned reference (version != NULL) matches that version name, or an
 * unversioned definition unless hidden; an unversioned reference matches
 * the base/global definition, or failing that the one default version.
 * Returns the symbol index, or 0 when this object defines none.
 */
size_t dynsym_find(const struct dynsym *t, const char *name, uint32_t hash, const char *version);

/*
 * The symbols the dynamic relocations name. ld.so looks a symbol up only
 * for a relocation that names it: an undefined symbol of .dynsym that no
 * relocation uses (a reference the linker dropped with its section, as
 * libtorch_python's PyExc_FutureWarning) is never bound, and `ldd -r`
 * does not report it. rel: the bytes of one SHT_RELA (24-byte entries,
 * rela true) or SHT_REL (16-byte) section of a 64-bit object; used[i] is
 * set for each entry's symbol index i with 0 < i < n. A trailing partial
 * entry is ignored. Returns the number of entries read.
 */
size_t dynsym_mark_relocs(const uint8_t *rel, size_t len, bool rela, bool big_endian, bool *used,
			  size_t n);

#endif
