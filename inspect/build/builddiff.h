/*
 * `ptinspect diff A B`: two build trees, installs (directories of
 * libraries) or libraries as flat snapshots of (section, key, value) facts,
 * then compared: configuration fields, NEEDED and how each resolves, symbol
 * versions needed, RPATH/RUNPATH, sizes per section and per CUDA target,
 * debug info.
 */
#ifndef PT_BUILDDIFF_H
#define PT_BUILDDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

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
};

/* Returns 0, or -1 when path is none of the three (an error in d). */
int snapshot_take(const char *path, struct snapshot *s, struct pt_diag *d);
void snapshot_release(struct snapshot *s);

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
