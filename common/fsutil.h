/* File-system helpers both tools use, each in one place. */
#ifndef PT_FSUTIL_H
#define PT_FSUTIL_H

#include <stddef.h>
#include <sys/types.h>

/* mkdir -p with mode for every directory it creates; 0 or -1 with errno. */
int pt_mkdirs(const char *path, mode_t mode);

/* write(2) until all of buf is written, retrying on EINTR; 0 or -1 with errno. */
int pt_write_all(int fd, const void *buf, size_t len);

#endif
