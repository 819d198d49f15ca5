/*
 * `ptinspect diff A B`: two build trees, installs (directories of
 * libraries) or libraries as flat snapshots of (section, key, value) facts,
 * then compared: configuration fields, NEEDED and how each resolves, symbol
 * versions needed, RPATH/RUNPATH, sizes per section and per CUDA target,
 * debug info. Packages (package.h: a wheel, a conda package, an unpacked
 * wheel) are snapshots too, of the facts the package report has, so that two
 * of them compare with the same machinery.
 */
#ifndef PT_BUILDDIFF_H
#define PT_BUILDDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

struct package;
struct pkg_opts;

struct snap_item {
	char *section;	/* "config", "libc10.so: sections", ... */
	char *key;
	char *value;
	long long num;	/* sizes: compared as numbers, rendered with the change */
	bool is_size;
};

struct snapshot {
	char *path;
	const char *kind;	/* "build tree", "directory", "library" */
	struct snap_item *v;
	size_t n, alloc;
	/* A package's snapshot (snapshot_of_package): what the summary line names. */
	bool is_package;
	char *pkg_name, *pkg_version;	/* NULL when the package has none */
	size_t n_members, n_elf;
};

/* Returns 0, or -1 when path is none of the three (an error in d). */
int snapshot_take(const char *path, struct snapshot *s, struct pt_diag *d);
void snapshot_release(struct snapshot *s);

/*
 * Is path a package for diff: a .whl, .conda or .tar.bz2 file, or a
 * directory that is an unpacked package (a *.dist-info or info/ at its top;
 * a plain directory of libraries is an install, snapshot_take's)?
 */
bool snapshot_is_package(const char *path);

/*
 * The facts of package p (package_read's), sections:
 *   "metadata"        type, name, version, tags, generator, "Requires-Dist NAME" (its spec)
 *   "members"         every member by its path ("NAME-VERSION.dist-info/" as "*.dist-info/"):
 *                     file, directory, "symlink -> TARGET", other
 *   "floor"           GLIBC/GLIBCXX/CXXABI/GCC: the newest needed and the member needing it;
 *                     the implied tag, what holds it down, "claimed TAG": holds or not
 *   "CUDA"            the arch list every member shares, the weakest member, how many have code
 *   "M: file"         per shared object M: size, SONAME, RPATH, RUNPATH
 *   "M: needed"       each NEEDED: where it comes from once installed ("bundled M2",
 *                     "system /lib/...", "requirement nvidia-cudnn-cu12 ...", "absolute /...",
 *                     "missing")
 *   "M: floor"        its newest version per family and the tag that implies
 *   "M: rpath lint"   each problem of its RPATH/RUNPATH (rpathlint's kind and entry)
 *   "M: CUDA"         its arch list ("no device code", "not scanned" when too large)
 *   "M: torch extension"  the C++ ABI and torch libraries of an extension
 */
void snapshot_of_package(const struct package *p, struct snapshot *s);

/*
 * package_read(path, o) and snapshot_of_package. Returns 0, or -1 when it
 * cannot be read (its errors in d). The package's own problems (missing
 * libraries, RPATH lint: ptinspect FILE's warnings) are facts here, not
 * messages: only the errors of the read reach d.
 */
int snapshot_take_package(const char *path, const struct pkg_opts *o, struct snapshot *s,
			  struct pt_diag *d);

struct diff_row {
	const char *section, *key;
	const struct snap_item *a, *b;	/* NULL: absent on that side */
};

struct snapshot_diff {
	struct diff_row *v;	/* differences only, sorted by section then key */
	size_t n;
	size_t n_equal;
};

void snapshot_compare(const struct snapshot *a, const struct snapshot *b, struct snapshot_diff *out);
void snapshot_diff_release(struct snapshot_diff *d);

#endif
