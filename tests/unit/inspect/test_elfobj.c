/*
 * elfobj: a real system library read from bytes, then every truncation and a
 * few targeted corruptions of it; the reader must report, never overread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "elfobj.h"
#include "ptest.h"
#include "xalloc.h"

/*
 * Debian 12's libz.so.1, the copy kept in the repository (tests/fuzz/corpus/
 * fuzz_elfobj/libz, byte-identical to zlib1g 1:1.2.13.dfsg-1's), so every
 * machine tests the same bytes. Malloc'd; asserts it was read.
 */
static char *libz_path(void)
{
	const char *src = getenv("PT_SRC");

	return ptest_path(src ? src : "..", "tests/fuzz/corpus/fuzz_elfobj/libz");
}

static uint8_t *libz(size_t *len)
{
	char *path = libz_path();
	uint8_t *b = (uint8_t *)ptest_slurp(path, len);

	if (!b)
		fail_msg("cannot read %s", path);
	free(path);
	return b;
}

static void reads_real_library(void **state)
{
	size_t len;
	uint8_t *b = libz(&len);
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "libz", b, len, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(o.cls, ELFCLASS64);
	assert_int_equal(o.machine, EM_X86_64);
	assert_string_equal(o.soname, "libz.so.1");
	assert_int_equal(o.n_needed, 1);
	assert_string_equal(o.needed[0], "libc.so.6");
	assert_true(o.build_id_len == 20);
	assert_true(o.has_verdef);	/* ZLIB_1.2.x */
	assert_true(o.n_verneed >= 1);
	assert_string_equal(o.verneed[0].file, "libc.so.6");
	elfobj_release(&o);
	pt_diag_release(&d);
	free(b);
}

/* Cut the file at many lengths: an error or warnings, never a crash or overread. */
static void every_truncation(void **state)
{
	size_t len;
	uint8_t *b = libz(&len);

	(void)state;
	for (size_t cut = 0; cut < len; cut += (cut < 4096 ? 7 : 4093)) {
		uint8_t *copy = malloc(cut ? cut : 1);
		struct elfobj o;
		struct pt_diag d;

		memcpy(copy, b, cut);
		pt_diag_init(&d);
		int rc = elfobj_open_mem(&o, "cut", copy, cut, &d);
		if (cut < 64)
			assert_int_equal(rc, -1);
		if (rc != 0)
			assert_true(pt_diag_count(&d, PT_SEV_ERROR) >= 1);
		elfobj_release(&o);
		pt_diag_release(&d);
		free(copy);
	}
	free(b);
}

/* Section headers gone: PT_DYNAMIC still gives SONAME and NEEDED, as for ld.so. */
static void section_headers_stripped(void **state)
{
	size_t len;
	uint8_t *b = libz(&len);
	Elf64_Ehdr *eh;
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	eh = (Elf64_Ehdr *)b;
	eh->e_shoff = 0;
	eh->e_shnum = 0;
	eh->e_shstrndx = 0;
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "noshdr", b, len, &d), 0);
	assert_string_equal(o.soname, "libz.so.1");
	assert_string_equal(o.needed[0], "libc.so.6");
	elfobj_release(&o);
	pt_diag_release(&d);
	free(b);
}

/* A program header count that points past the end is an error at that offset. */
static void phnum_past_end(void **state)
{
	size_t len;
	uint8_t *b = libz(&len);
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	((Elf64_Ehdr *)b)->e_phnum = 60000;
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "badph", b, len, &d), -1);
	assert_non_null(d.v[0].where);
	assert_string_equal(d.v[0].where, "program header at offset 0x40");
	elfobj_release(&o);
	pt_diag_release(&d);
	free(b);
}

static void not_elf(void **state)
{
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(elfobj_open_mem(&o, "txt", "hello world, no ELF here at all", 31, &d), -1);
	assert_string_equal(d.v[0].what, "not an ELF file");
	elfobj_release(&o);
	pt_diag_release(&d);
}

/*
 * elfobj_open_dynamic reads a dependency with a few preads and leaves
 * anything it does not take as it is to libelf; elfobj_open always goes
 * through libelf. Both must give the same fields and the same diagnostics.
 */
static void same_strv(char **a, size_t na, char **b, size_t nb)
{
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++)
		assert_string_equal(a[i], b[i]);
}

static void same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void same_diag(const struct pt_diag *a, const struct pt_diag *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->v[i].sev, b->v[i].sev);
		same_str(a->v[i].where, b->v[i].where);
		same_str(a->v[i].what, b->v[i].what);
	}
}

/* Returns the rc both gave. */
static int dynamic_matches_libelf(const char *path)
{
	struct elfobj f, l;
	struct pt_diag df, dl;
	int rf, rl;

	pt_diag_init(&df);
	pt_diag_init(&dl);
	rf = elfobj_open_dynamic(&f, path, &df);
	rl = elfobj_open(&l, path, &dl);
	assert_int_equal(rf, rl);
	same_diag(&df, &dl);
	if (rf == 0) {
		assert_int_equal(f.cls, l.cls);
		assert_int_equal(f.data, l.data);
		assert_int_equal(f.osabi, l.osabi);
		assert_int_equal(f.abiversion, l.abiversion);
		assert_int_equal(f.type, l.type);
		assert_int_equal(f.machine, l.machine);
		assert_int_equal(f.refused, l.refused);
		assert_true(f.size == l.size && f.dev == l.dev && f.ino == l.ino);
		same_str(f.interp, l.interp);
		same_str(f.soname, l.soname);
		same_str(f.rpath, l.rpath);
		same_str(f.runpath, l.runpath);
		assert_true(f.flags_1 == l.flags_1);
		same_strv(f.needed, f.n_needed, l.needed, l.n_needed);
		assert_int_equal(f.has_verdef, l.has_verdef);
		same_strv(f.verdef, f.n_verdef, l.verdef, l.n_verdef);
		assert_int_equal(f.n_verneed, l.n_verneed);
		for (size_t i = 0; i < f.n_verneed; i++) {
			assert_string_equal(f.verneed[i].file, l.verneed[i].file);
			assert_int_equal(f.verneed[i].n, l.verneed[i].n);
			for (size_t k = 0; k < f.verneed[i].n; k++) {
				assert_string_equal(f.verneed[i].v[k].name, l.verneed[i].v[k].name);
				assert_int_equal(f.verneed[i].v[k].weak, l.verneed[i].v[k].weak);
			}
		}
	}
	elfobj_release(&f);
	elfobj_release(&l);
	pt_diag_release(&df);
	pt_diag_release(&dl);
	return rf;
}

static void dynamic_read_real_libraries(void **state)
{
	/* Priority required/important in Debian, and this test's own program (an executable). */
	static const char *const libs[] = {
		"/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6",
		"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libstdc++.so.6",
		"/lib/x86_64-linux-gnu/libgcc_s.so.1", "/proc/self/exe",
	};

	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(libs); i++)
		if (access(libs[i], R_OK) == 0)
			assert_int_equal(dynamic_matches_libelf(libs[i]), 0);
}

/*
 * Cut and damaged copies of libz as files: the same result and diagnostics
 * either way. Every byte of the first 12 KB (headers, .dynstr, version
 * records) and of the last 4 KB (the dynamic array) set to 0xff in turn, a
 * sample of the rest.
 */
static void dynamic_read_damaged_files(void **state)
{
	char path[] = "/dev/shm/test_elfobj.XXXXXX";
	int fd = mkstemp(path);
	size_t len;
	uint8_t *b = libz(&len);

	(void)state;
	if (fd < 0) {
		strcpy(path, "/tmp/test_elfobj.XXXXXX");
		fd = mkstemp(path);
	}
	assert_true(fd >= 0);
	assert_non_null(b);
	for (size_t cut = 0; cut < len; cut += (cut < 4096 ? 13 : 1021)) {
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_int_equal(pwrite(fd, b, cut, 0), (ssize_t)cut);
		dynamic_matches_libelf(path);
	}
	assert_int_equal(pwrite(fd, b, len, 0), (ssize_t)len);
	for (size_t pos = 0; pos < len; pos += (pos < 12288 || pos + 4096 >= len ? 1 : 61)) {
		const uint8_t ff = 0xff;

		if (b[pos] == ff)
			continue;
		assert_int_equal(pwrite(fd, &ff, 1, (off_t)pos), 1);
		dynamic_matches_libelf(path);
		assert_int_equal(pwrite(fd, b + pos, 1, (off_t)pos), 1);
	}
	close(fd);
	free(b);
	unlink(path);
}

/* Does preadv2(RWF_NOWAIT) answer on fd's file system? (pages just written are cached) */
static bool nowait_works(int fd)
{
	unsigned char c;
	struct iovec iov = { &c, 1 };

	return preadv2(fd, &iov, 1, 0, RWF_NOWAIT) == 1;
}

/*
 * elfobj_loadable_fd says whether the header came from the page cache (the
 * resolver reads ahead when it did not, prefetch.h), and a dependency read
 * either way is the same object; so is a whole object (elfobj_open) read
 * cold, its pieces asked for ahead of libelf, and from bytes in memory. A
 * copy of libz in the current directory. "cached" is asserted only where
 * the test made it so: the second pass pins the first page (mlock of a
 * shared mapping: resident and uptodate, whatever else runs), and
 * preadv2(RWF_NOWAIT) must then answer from the cache. The cold side is
 * not asserted, because the kernel does not make it so: DONTNEED is a
 * request (under load a clean page can stay), and a RWF_NOWAIT read of an
 * absent page starts read-ahead and succeeds when that I/O completes at
 * once (CI's strict run saw "cached" right after mincore(2) had said the
 * page was gone). There the test checks only that the header is read
 * whole and the objects agree. Both need RWF_NOWAIT, which some file
 * systems refuse (probed first).
 */
static void loadable_fd_tells_cached(void **state)
{
	char path[] = "test_elfobj_cache.XXXXXX";
	int fd = mkstemp(path);
	size_t len;
	uint8_t *b = libz(&len);
	struct elfobj_file f;
	bool nowait;

	(void)state;
	assert_true(fd >= 0);
	assert_non_null(b);
	assert_int_equal(pwrite(fd, b, len, 0), (ssize_t)len);
	assert_int_equal(fsync(fd), 0);
	nowait = nowait_works(fd);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	for (int pass = 0; pass < 2; pass++) {
		struct elfobj a, l, m;
		struct pt_diag da, dl, dm;
		void *pin = MAP_FAILED;
		bool pinned = false;

		if (pass == 1) {
			pin = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
			pinned = pin != MAP_FAILED && mlock(pin, 4096) == 0;
		}
		assert_int_equal(elfobj_loadable_fd(path, ELFCLASS64, EM_X86_64, &f), 1);
		if (pass == 1 && nowait && pinned)
			assert_true(f.cached);	/* resident, and locked there */
		if (pin != MAP_FAILED)
			munmap(pin, 4096);	/* unlocks it too */
		assert_int_equal(f.n_head, 4096);
		assert_memory_equal(f.head, b, 4096);
		pt_diag_init(&da);
		pt_diag_init(&dl);
		pt_diag_init(&dm);
		assert_int_equal(elfobj_open_dynamic_fd(&a, path, &f, &da), 0);
		assert_int_equal(f.fd, -1);
		/* The first time the whole open too starts cold (its pieces asked for first). */
		if (pass == 0)
			assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
		assert_int_equal(elfobj_open(&l, path, &dl), 0);
		assert_int_equal(elfobj_open_mem(&m, "mem", b, len, &dm), 0);
		assert_int_equal(dm.n, 0);
		assert_int_equal(l.n_sections, m.n_sections);
		for (size_t i = 0; i < l.n_sections; i++) {
			assert_string_equal(l.sections[i].name, m.sections[i].name);
			assert_true(l.sections[i].offset == m.sections[i].offset &&
				    l.sections[i].size == m.sections[i].size);
		}
		assert_int_equal(l.build_id_len, m.build_id_len);
		assert_memory_equal(l.build_id, m.build_id, m.build_id_len);
		same_str(l.debuglink, m.debuglink);
		same_str(l.soname, m.soname);
		same_strv(l.needed, l.n_needed, m.needed, m.n_needed);
		assert_int_equal(l.n_verneed, m.n_verneed);
		assert_int_equal(l.has_debug_info, m.has_debug_info);
		elfobj_release(&m);
		pt_diag_release(&dm);
		assert_int_equal(da.n, 0);
		assert_int_equal(dl.n, 0);
		assert_string_equal(a.soname, l.soname);
		same_strv(a.needed, a.n_needed, l.needed, l.n_needed);
		same_strv(a.verdef, a.n_verdef, l.verdef, l.n_verdef);
		assert_int_equal(a.n_verneed, l.n_verneed);
		elfobj_release(&a);
		elfobj_release(&l);
		pt_diag_release(&da);
		pt_diag_release(&dl);
	}
	close(fd);
	unlink(path);
	free(b);
}

/* elfobj_read_ahead: ranges clipped to the file, merged; nothing for bytes in memory. */
static void read_ahead_is_only_a_hint(void **state)
{
	static const struct elfobj_range r[] = {
		{ 8192, 4096 }, { 0, 4096 }, { 4096, 100 }, { 1u << 30, 10 }, { 100, 0 },
	};
	size_t len;
	uint8_t *b = libz(&len);
	struct elfobj o;
	struct pt_diag d;

	(void)state;
	assert_non_null(b);
	pt_diag_init(&d);
	{
		char *path = libz_path();

		assert_int_equal(elfobj_open(&o, path, &d), 0);
		free(path);
	}
	elfobj_read_ahead(&o, r, PT_ARRAY_SIZE(r), 1u << 20);
	elfobj_read_ahead(&o, r, 1, 1);	/* one per object: ignored */
	elfobj_release(&o);	/* waits for the thread */
	assert_int_equal(elfobj_open_mem(&o, "mem", b, len, &d), 0);
	elfobj_read_ahead(&o, r, 2, 1u << 20);
	assert_null(o.read_ahead);
	elfobj_release(&o);
	pt_diag_release(&d);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_real_library),
		cmocka_unit_test(every_truncation),
		cmocka_unit_test(section_headers_stripped),
		cmocka_unit_test(phnum_past_end),
		cmocka_unit_test(not_elf),
		cmocka_unit_test(dynamic_read_real_libraries),
		cmocka_unit_test(dynamic_read_damaged_files),
		cmocka_unit_test(loadable_fd_tells_cached),
		cmocka_unit_test(read_ahead_is_only_a_hint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
