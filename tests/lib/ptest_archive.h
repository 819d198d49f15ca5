/*
 * Archives made in memory with libarchive's writer, for the unit tests of the
 * package reader (test_pkgarchive, test_pkgcache): a zip (a wheel), a zip with
 * ZipCrypto encryption, a pax tar compressed with bzip2 or zstd (conda).
 * Link the test with libarchive (tests/unit/CMakeLists.txt).
 */
#ifndef PT_PTEST_ARCHIVE_H
#define PT_PTEST_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

struct mem {
	const char *name;
	const void *data;
	size_t len;
	const char *link;	/* a symlink when set */
};

enum fmt { ZIP, TARBZ2, TARZST, ZIP_CRYPT };

/* An archive of the n members, malloc'd into *len (at most 8 MiB); a cmocka failure if not. */
uint8_t *ptest_archive(enum fmt f, const struct mem *m, size_t n, size_t *len);

#endif
