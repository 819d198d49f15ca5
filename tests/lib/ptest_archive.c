/* Archives made in memory (ptest_archive.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <archive.h>
#include <archive_entry.h>
#include <stdlib.h>

#include "ptest_archive.h"

uint8_t *ptest_archive(enum fmt f, const struct mem *m, size_t n, size_t *len)
{
	size_t cap = 8u << 20, used = 0;
	uint8_t *buf = malloc(cap);
	struct archive *a = archive_write_new();

	assert_non_null(buf);
	if (f == ZIP || f == ZIP_CRYPT)
		assert_int_equal(archive_write_set_format_zip(a), ARCHIVE_OK);
	else
		assert_int_equal(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
	if (f == TARBZ2)
		assert_int_equal(archive_write_add_filter_bzip2(a), ARCHIVE_OK);
	if (f == TARZST)
		assert_int_equal(archive_write_add_filter_zstd(a), ARCHIVE_OK);
	if (f == ZIP_CRYPT) {
		assert_int_equal(archive_write_set_options(a, "zip:encryption=zipcrypt"), ARCHIVE_OK);
		assert_int_equal(archive_write_set_passphrase(a, "secret"), ARCHIVE_OK);
	}
	assert_int_equal(archive_write_open_memory(a, buf, cap, &used), ARCHIVE_OK);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();

		archive_entry_set_pathname(e, m[i].name);
		if (m[i].link) {
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_symlink(e, m[i].link);
			archive_entry_set_perm(e, 0777);
		} else {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_perm(e, 0644);
			archive_entry_set_size(e, (la_int64_t)m[i].len);
		}
		assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
		if (!m[i].link && m[i].len)
			assert_int_equal(archive_write_data(a, m[i].data, m[i].len), (la_ssize_t)m[i].len);
		archive_entry_free(e);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	*len = used;
	return buf;
}
