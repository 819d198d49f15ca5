/*
 * tracers/capture/spool.c: the child's output written in arrival order and read back,
 * also without order.bin's last record (pttrace killed). Indexing a spool:
 * test_logs_ingest.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "ptest_db.h"
#include "runs.h"
#include "rundir.h"
#include "spool.h"
#include "strbuf.h"
#include "xalloc.h"

static int setup(void **state)
{
	return ptest_db_setup(state, "test-spool", 1);
}

static int teardown(void **state)
{
	return ptest_db_teardown(state);
}

/* Every chunk the spool in dir gives back, as "stream:bytes " in arrival order, into got. */
static void read_back(struct ptest_db *f, const char *dir, struct pt_strbuf *got)
{
	struct spool_reader r;
	const uint8_t *data;
	size_t len;
	int stream;

	assert_int_equal(spool_reader_open(&r, dir, NULL, &f->diag), 0);
	while (spool_read(&r, &stream, &data, &len) == 1) {
		assert_int_equal(pt_strbuf_addf(got, "%d:", stream), 0);
		assert_int_equal(pt_strbuf_add(got, data, len), 0);
		assert_int_equal(pt_strbuf_adds(got, " "), 0);
	}
	spool_reader_close(&r);
}

/*
 * Spool: chunks written to the two files come back in arrival order once the
 * writer is closed, and the rest of each file when order.bin lost its last record.
 */
static void spool_roundtrip(void **state)
{
	struct ptest_db *f = *state;
	struct spool_writer w;
	char *dir = rundir_path(f->ix, f->run);
	struct pt_strbuf got;

	assert_int_equal(spool_writer_open(&w, dir, NULL, &f->diag), 0);
	assert_int_equal(spool_write(&w, 1, "a1", 2), 0);
	assert_int_equal(spool_write(&w, 1, "a2", 2), 0);
	assert_int_equal(spool_write(&w, 2, "B1", 2), 0);
	assert_int_equal(spool_write(&w, 1, "a3", 2), 0);
	assert_int_equal(spool_write(&w, 2, "B2", 2), 0);
	assert_int_equal(spool_writer_close(&w), 0);
	pt_strbuf_init(&got, 1000);
	read_back(f, dir, &got);
	assert_string_equal(got.buf, "1:a1a2 2:B1 1:a3 2:B2 ");
	/* Without its last record (pttrace killed), the rest of each file still comes back. */
	{
		char *order = pt_xasprintf("%s/order.bin", dir);

		assert_int_equal(truncate(order, 16), 0);
		free(order);
	}
	pt_strbuf_reset(&got);
	read_back(f, dir, &got);
	assert_string_equal(got.buf, "1:a1a2 2:B1 1:a3 2:B2 ");
	pt_strbuf_release(&got);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(spool_roundtrip, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
