/* File-system helpers both tools use, each in one place. */
#ifndef PT_FSUTIL_H
#define PT_FSUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

/* mkdir -p with mode for every directory it creates; 0 or -1 with errno. */
int pt_mkdirs(const char *path, mode_t mode);

/* write(2) until all of buf is written, retrying on EINTR; 0 or -1 with errno. */
int pt_write_all(int fd, const void *buf, size_t len);

/*
 * "a FIFO", "a directory", "a character device", ...: what a file that is not
 * a regular one is, for "PATH: not a regular file (a FIFO)".
 */
const char *pt_file_kind(mode_t mode);

/* The size policy of pt_read_regular's callers that read build files: 1 GiB. */
#define PT_READ_MAX ((size_t)1 << 30)

/* pt_read_regular's flags. */
#define PT_READ_PREFIX 1u	/* past max: the first max bytes, and a warning that the rest is not read */

/*
 * A whole regular file into a new NUL-terminated buffer (the caller frees
 * *buf; *len excludes the NUL), refused past max bytes. The file is opened
 * with O_NONBLOCK, so a FIFO never blocks the open, and fstat-checked before
 * a byte is read: anything but a regular file is "not a regular file (a
 * FIFO)". Returns 0; 1 when it does not exist (nothing said); -1 when it
 * cannot be used, said in d at severity sev, naming path.
 */
int pt_read_regular(const char *path, size_t max, enum pt_severity sev, unsigned flags, uint8_t **buf,
		    size_t *len, struct pt_diag *d);

/*
 * open(path, O_RDONLY) of a regular file that never blocks: O_NONBLOCK for the
 * open, cleared after the S_ISREG check. Returns the descriptor, or -1 with
 * errno (ENOENT ...) or with *mode set to the file's type when it is not a
 * regular file (errno 0 then).
 */
int pt_open_regular(const char *path, mode_t *mode);

#endif
