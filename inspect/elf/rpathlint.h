/*
 * The RPATH/RUNPATH lint: what in an object's search path will break once
 * the file leaves the machine that built it (docs/formats/elf-loader.md for
 * the rules): absolute entries, entries into a build directory or a scratch
 * directory of the build machine, entries that do not exist, relative or
 * empty entries (the current directory at run time), a NEEDED found only
 * through an absolute entry ($ORIGIN missing), and the RPATH/RUNPATH rules
 * that surprise (DT_RPATH ignored beside DT_RUNPATH, RUNPATH searched after
 * LD_LIBRARY_PATH and not used for the object's dependencies).
 *
 * It works from what elfobj read (a file on disk or bytes in memory:
 * elfobj_open_mem) and asks a struct rpathlint_fs whether directories and
 * files exist, so a package reader answers from its member list and plain
 * files are answered from the disk under --root.
 */
#ifndef PT_RPATHLINT_H
#define PT_RPATHLINT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "elfobj.h"
#include "ldpath.h"
#include "resolve.h"

enum rpathlint_kind {
	RPATHLINT_EMPTY,	/* an empty element: the current directory at run time */
	RPATHLINT_RELATIVE,	/* relative, not $ORIGIN: relative to the current directory */
	RPATHLINT_BUILD_DIR,	/* into a build tree or scratch directory of the build machine */
	RPATHLINT_ABSOLUTE,	/* absolute, not a system directory: another machine lacks it */
	RPATHLINT_SYSTEM,	/* a system directory the loader searches anyway (a note) */
	RPATHLINT_MISSING,	/* does not exist (under the root, or in the package) */
	RPATHLINT_NO_ORIGIN,	/* a NEEDED found only through an absolute entry: $ORIGIN missing */
	RPATHLINT_RPATH_IGNORED,	/* DT_RPATH beside DT_RUNPATH: ld.so ignores the RPATH */
	RPATHLINT_LLP_FIRST,	/* RUNPATH: LD_LIBRARY_PATH holds the NEEDED too and is searched first */
	RPATHLINT_NOT_INHERITED,	/* RUNPATH: a dependency needs a library found only there */
	RPATHLINT_KIND_COUNT
};

/* "empty", "relative", "build_dir", ... (the JSON "kind"). */
const char *rpathlint_kind_name(enum rpathlint_kind k);

struct rpathlint_finding {
	enum rpathlint_kind kind;
	enum pt_severity sev;	/* PT_SEV_WARNING: a problem; PT_SEV_NOTE: worth knowing */
	bool runpath;		/* the entry is DT_RUNPATH's (false: DT_RPATH's) */
	char *entry;		/* the element as written; NULL for whole-object findings */
	char *dir;		/* expanded ($ORIGIN, $LIB, $PLATFORM), or NULL */
	char *needed;		/* NO_ORIGIN, LLP_FIRST, NOT_INHERITED: the library named */
	/*
	 * NO_ORIGIN: the $ORIGIN spelling of dir that would do ("$ORIGIN/../lib");
	 * LLP_FIRST: the LD_LIBRARY_PATH directory that wins; NOT_INHERITED: the
	 * dependency that needs it (its path); else NULL.
	 */
	char *other;
};

struct rpathlint_result {
	struct rpathlint_finding *v;	/* in entry order, whole-object findings last */
	size_t n, a;
	size_t n_problems;	/* findings with PT_SEV_WARNING */
};

/*
 * Whether directories and files exist where the object will be loaded. A
 * callback returns 1 (yes), 0 (no) or -1 (cannot tell: nothing is
 * reported). dir is absolute, as the loader will see it (no --root).
 */
struct rpathlint_fs {
	int (*dir_exists)(void *ctx, const char *dir);
	int (*has_file)(void *ctx, const char *dir, const char *name);
	void *ctx;
};

struct rpathlint_input {
	const struct elfobj *o;		/* rpath, runpath, needed */
	const char *origin;		/* $ORIGIN: the directory of the object as installed */
	const struct ldpath_env *env;	/* $LIB, $PLATFORM, system dirs, LD_LIBRARY_PATH, root */
	const struct rpathlint_fs *fs;	/* NULL: the disk under env->root */
	/*
	 * Optional: the object resolved as objs[0] (plain `ptinspect FILE`), for
	 * NOT_INHERITED (a dependency whose own search misses a library that
	 * objs[0]'s RUNPATH holds). NULL for package members.
	 */
	const struct resolve_result *tree;
	/*
	 * A build tree's own libraries: entries into the build directory are its
	 * build RPATH (CMake rewrites it at install), so BUILD_DIR is a note.
	 */
	bool in_build_tree;
};

/*
 * Lint one object. Returns 0; findings are data (none are added to diag,
 * which only gets what could not be read). r is filled even without RPATH
 * or RUNPATH (no findings).
 */
int rpathlint_check(const struct rpathlint_input *in, struct rpathlint_result *r,
		    struct pt_diag *diag);
void rpathlint_release(struct rpathlint_result *r);

/*
 * Whether an absolute directory looks like a build machine's: a component
 * "build", "CMakeFiles", "_build", "build-*", cmake-build-*, or under /tmp,
 * /var/tmp, /home, /root, /build, /workspace, /__w (CI checkouts).
 */
bool rpathlint_is_build_dir(const char *dir);

/* "$ORIGIN/REL" for dir seen from origin (both absolute, normalised); malloc'd. */
char *rpathlint_origin_spelling(const char *origin, const char *dir);

#endif
