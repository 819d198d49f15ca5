/*
 * The TORCH_TRACE files `pttrace import PATH...` stands for: a file given by
 * name, and the *.log files below a directory given (a job directory also
 * holds stdout, stderr and other files, and TORCH_TRACE files always end in
 * .log), in name order. Symbolic links are followed, each directory and each
 * file (device and inode) taken once: a link back to a directory (latest ->
 * .) cannot loop, and a file named twice is imported once (a note). A path
 * given by name that cannot be imported is an error (PT_SEV_ERROR); one
 * inside a directory a warning, and the rest goes on. No printing.
 */
#ifndef PT_TT_SOURCES_H
#define PT_TT_SOURCES_H

#include <stddef.h>
#include <sys/types.h>

#include "diag.h"

struct tt_source {
	char *src;	/* absolute (realpath), or as given when that fails */
	dev_t dev;
	ino_t ino;
};

struct tt_sources {
	struct tt_source *v;	/* in the order found */
	size_t n, alloc;
	struct tt_seen_dir *dirs;	/* private: the directories walked */
	size_t ndirs, adirs;
};

/* Add what path stands for to s (zeroed before the first call); problems to diag. */
void tt_sources_add(struct tt_sources *s, const char *path, struct pt_diag *diag);

void tt_sources_release(struct tt_sources *s);

#endif
