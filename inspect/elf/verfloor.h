/*
 * The floor of an ELF object: the newest GLIBC_, GLIBCXX_, CXXABI_ and GCC_
 * symbol versions it requires (DT_VERNEED), i.e. the oldest glibc, libstdc++
 * and libgcc_s it can load against, read exactly as auditwheel reads them
 * (auditwheel/elfutils.py elf_find_versioned_symbols: every Vernaux name,
 * the requirements from ld-linux*.so / ld64.so.[12] left out). Which
 * manylinux or musllinux tag that implies is mlpolicy.h.
 */
#ifndef PT_VERFLOOR_H
#define PT_VERFLOOR_H

#include <stdbool.h>
#include <stddef.h>

#include "elfobj.h"

/* The families of a floor, in report order. */
enum verfloor_family {
	VERFLOOR_GLIBC,
	VERFLOOR_GLIBCXX,
	VERFLOOR_CXXABI,
	VERFLOOR_GCC,
	VERFLOOR_N
};

/* "GLIBC", "GLIBCXX", "CXXABI", "GCC". */
const char *verfloor_family_name(enum verfloor_family f);

struct verfloor {
	/* The newest required version of each family ("GLIBC_2.34"), NULL when none. */
	char *max[VERFLOOR_N];
	/* The library it is required from (as in DT_NEEDED), NULL with max. */
	char *max_file[VERFLOOR_N];
	/*
	 * Every required version auditwheel looks at (ld-linux* excluded),
	 * sorted and unique: what mlpolicy_implied takes.
	 */
	char **versions;
	size_t n_versions;
	bool musl;		/* needs musl (libc.musl-*.so.1, or an ld-musl interpreter) */
	/* auditwheel's architecture name ("x86_64", "aarch64", "i686" ...), or NULL. */
	const char *arch;
};

/* The floor of o (what elfobj_open or elfobj_open_mem read). */
void verfloor_compute(const struct elfobj *o, struct verfloor *f);
void verfloor_release(struct verfloor *f);

/*
 * Compare two versions of one family by their dotted numbers after the
 * prefix ("GLIBC_2.9" < "GLIBC_2.17"); a part that is not a number (e.g.
 * "PRIVATE", "TM_1") sorts after every number. <0, 0, >0.
 */
int verfloor_cmp(const char *a, const char *b);

/* auditwheel's name of an e_machine (and class, for i686/x86_64), or NULL. */
const char *verfloor_arch_name(int machine, int cls, int data);

#endif
