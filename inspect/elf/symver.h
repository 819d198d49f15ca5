/*
 * GNU symbol versioning: parse DT_VERNEED / DT_VERDEF records from bytes and
 * check a user's requirements against the definitions of the library that
 * was actually resolved, as ld.so does after loading (elf/dl-version.c), so
 * "version `GLIBCXX_3.4.30' not found" is predicted without running anything.
 */
#ifndef PT_SYMVER_H
#define PT_SYMVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* One required version (vna_name), and whether it is weak. */
struct elf_vername {
	char *name;
	bool weak;	/* VER_FLG_WEAK: a missing weak version is not fatal */
};

/* One Verneed record: versions required from the library named file. */
struct elf_verneed {
	char *file;	/* as in DT_NEEDED */
	struct elf_vername *v;
	size_t n;
};

/*
 * Parse count Verneed records starting at buf[0], with names in
 * strtab[0..strsz). Never reads outside buf[0..len) or the string table. A
 * damaged record ends the walk with a PT_SEV_WARNING naming its offset; what was
 * read before it is kept. Returns the number of records parsed.
 */
size_t symver_parse_verneed(const uint8_t *buf, size_t len, size_t count, bool big_endian,
			    const char *strtab, size_t strsz, struct elf_verneed **out,
			    size_t *n_out, const char *file, struct pt_diag *diag);

/* Same for Verdef: version names defined, the VER_FLG_BASE entry excluded. */
size_t symver_parse_verdef(const uint8_t *buf, size_t len, size_t count, bool big_endian,
			   const char *strtab, size_t strsz, char ***out, size_t *n_out,
			   const char *file, struct pt_diag *diag);

/*
 * The same with only a piece of the string table at hand: strtab holds the
 * table's bytes [str_base, strsz). A name before str_base is "outside the
 * string table" (the warning above), so a reader that read only the piece
 * where names usually are learns from diag when it needs the whole table.
 */
size_t symver_parse_verneed_at(const uint8_t *buf, size_t len, size_t count, bool big_endian,
			       const char *strtab, size_t str_base, size_t strsz,
			       struct elf_verneed **out, size_t *n_out, const char *file,
			       struct pt_diag *diag);
size_t symver_parse_verdef_at(const uint8_t *buf, size_t len, size_t count, bool big_endian,
			      const char *strtab, size_t str_base, size_t strsz, char ***out,
			      size_t *n_out, const char *file, struct pt_diag *diag);

void symver_free_verneed(struct elf_verneed *v, size_t n);

/*
 * Versions that a user's DT_VERNEED records (need) require from the library
 * it names needed_name (as in DT_NEEDED) and that the provider's DT_VERDEF
 * names (verdef; has_verdef: it has that section) do not define. Weak requirements are not
 * reported. Returns a NULL-terminated array of names the caller frees with
 * free() (strings included), or NULL when nothing is missing.
 * *no_verdef is set when the provider has no version definitions at all (ld.so's
 * "no version information available" warning).
 */
char **symver_missing(const struct elf_verneed *need, size_t n_need, const char *needed_name,
		      bool has_verdef, char *const *verdef, size_t n_verdef, bool *no_verdef);

#endif
