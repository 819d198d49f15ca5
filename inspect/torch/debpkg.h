/*
 * Which Debian package owns a file, through dpkg's own client (dpkg-query
 * -S, -W) rather than by reading dpkg's database. PTINSPECT_DPKG_ADMINDIR
 * points dpkg-query at another database (--admindir), for tests.
 */
#ifndef PT_DEBPKG_H
#define PT_DEBPKG_H

#include <stddef.h>

/* dpkg-query -S output is bounded: more than this is cut. */
#define DEBPKG_MAX_OUTPUT (1024u * 1024)

struct debpkg_owner {
	char *package;		/* "gcc-12" ("zlib1g:amd64" as printed) */
	char *path;		/* "/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so" */
};

/*
 * Parse `dpkg-query -S` output ("pkg[, pkg...]: /path" per line; "diversion
 * by ..." lines skipped): one entry per package and path. Returns the count.
 */
size_t debpkg_parse_search(const char *buf, size_t len, struct debpkg_owner **out);

/* Installed packages owning a file whose name is name (in any directory). */
size_t debpkg_owners(const char *name, struct debpkg_owner **out);

/* 1 when pkg is installed ("ii"), 0 when known but not installed or unknown, -1 no dpkg. */
int debpkg_installed(const char *pkg);

void debpkg_owners_free(struct debpkg_owner *v, size_t n);

#endif
