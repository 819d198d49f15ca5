/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: the archive door and the package model (pkgarchive.c,
 * package.c) on any bytes. The first byte picks what the rest is read as:
 * a wheel (zip), a .conda (zip of tar.zst) or a .tar.bz2; limits small
 * enough that a bomb stays inside libFuzzer's memory limit.
 */
#include <stdint.h>

#include "package.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "f.whl", "f.conda", "f.tar.bz2" };
	struct pkgar_limits lim = { .max_member = 16u << 20, .max_total = 64u << 20, .max_entries = 4096 };
	struct pkg_opts po = { .lim = &lim };
	struct package p;
	struct pt_diag d;

	if (!size)
		return 0;
	pt_diag_init(&d);
	package_read_mem(names[data[0] % 3], data + 1, size - 1, &po, &p, &d);
	package_release(&p);
	pt_diag_release(&d);
	return 0;
}
