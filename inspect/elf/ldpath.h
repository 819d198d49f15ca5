/*
 * The loader's environment and path rules: dynamic string tokens ($ORIGIN,
 * $LIB, $PLATFORM), path lists (RPATH, RUNPATH, LD_LIBRARY_PATH), the system
 * directories, the glibc-hwcaps subdirectories active on this CPU, and a
 * sysroot (--root) under which every absolute path is read.
 */
#ifndef PT_LDPATH_H
#define PT_LDPATH_H

#include <stdbool.h>
#include <stddef.h>

#include "ldcache.h"

struct ldpath_env {
	const char *root;		/* "" or a sysroot; paths below are inside it */
	const char *ld_library_path;	/* NULL: unset */
	const char *cwd;		/* for relative paths and empty list elements */
	const char *lib;		/* $LIB: "lib/x86_64-linux-gnu" on Debian */
	const char *platform;		/* $PLATFORM: "x86_64", "haswell" on Intel (ldpath.c) */
	char **system_dirs;		/* without trailing '/', in order */
	size_t n_system_dirs;
	char **hwcaps;			/* active glibc-hwcaps subdirs, best first */
	size_t n_hwcaps;
	size_t a_hwcaps;		/* capacity (PT_GROW) */
	bool legacy_hwcaps;		/* glibc < 2.37 also tries tls/, x86_64/ ... */
	char **legacy;			/* those subdirs, best first (ldpath.c); none from 2.37 */
	size_t n_legacy;
	bool secure;			/* AT_SECURE rules (elf-loader.md §8) */
	bool no_cache;			/* like ld.so --inhibit-cache */
	struct ldcache cache;		/* parsed /etc/ld.so.cache (may be empty) */
	const char *cache_path;
};

/*
 * Fill env with this machine's values under root ("" for the host):
 * Debian x86-64 system dirs, hwcaps levels from CPUID, $LIB and $PLATFORM,
 * and root/etc/ld.so.cache read and parsed (problems go to diag). Fields
 * may be overridden afterwards. Strings are owned by env.
 */
int ldpath_env_init(struct ldpath_env *env, const char *root, struct pt_diag *diag);
void ldpath_env_release(struct ldpath_env *env);


/*
 * Expand $ORIGIN, ${ORIGIN}, $LIB, $PLATFORM in s (origin: the directory
 * to use for $ORIGIN, without --root). Unknown tokens stay literal. Returns
 * a new string, or NULL when the element must be dropped (a token without
 * a value, or a secure-mode rule).
 */
char *ldpath_expand(const char *s, const char *origin, const struct ldpath_env *env,
		    bool is_path_list_element);

/*
 * Split a path list on ':' (and ';' for LD_LIBRARY_PATH), expand each
 * element, turn empty elements into the current directory and drop
 * trailing slashes. Returns the number of directories stored in *out
 * (caller frees each and the array).
 */
size_t ldpath_split(const char *list, bool is_ld_library_path, const char *origin,
		    const struct ldpath_env *env, char ***out);

/* The directory part of path: "." without a '/', "/" for "/x". Caller frees. */
char *ldpath_dirname(const char *path);

/* path made absolute against env->cwd (not realpath'ed: $ORIGIN's rule, §4). Caller frees. */
char *ldpath_absolute(const struct ldpath_env *env, const char *path);

/* root + path for file access (path is absolute inside root). Caller frees. */
char *ldpath_in_root(const struct ldpath_env *env, const char *path);

#endif
