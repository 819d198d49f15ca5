/* common/mapguard.c: SIGBUS on a mapped file cut under the reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapguard.h"

/*
 * A mapped file cut under the reader: the touch past the new end raises
 * SIGBUS, which the guard turns into a jump back (B19); nested guards pop in
 * order and the code after the guard runs normally.
 */
static void mapguard_catches_sigbus(void **state)
{
	char path[] = "/tmp/pt_mapguard_XXXXXX";
	int fd = mkstemp(path);
	long pg = sysconf(_SC_PAGESIZE);
	volatile int jumped = 0, reached = 0;
	struct pt_mapguard outer, inner;
	const volatile char *m;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4 * pg), 0);
	m = mmap(NULL, (size_t)(4 * pg), PROT_READ, MAP_SHARED, fd, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(ftruncate(fd, pg), 0);
	if (PT_MAPGUARD_BEGIN(&outer) == 0) {
		if (PT_MAPGUARD_BEGIN(&inner) == 0) {
			(void)m[0];		/* still in the file */
			reached = 1;
			(void)m[2 * pg];	/* past the new end: SIGBUS */
			reached = 2;
			pt_mapguard_end(&inner);
		} else {
			jumped = 1;
		}
		pt_mapguard_end(&outer);
	} else {
		jumped = 2;
	}
	assert_int_equal(reached, 1);
	assert_int_equal(jumped, 1);	/* the innermost guard, and the outer one was left */
	munmap((void *)(uintptr_t)m, (size_t)(4 * pg));
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mapguard_catches_sigbus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
