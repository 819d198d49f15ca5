/*
 * The dependency graph of one ELF file, resolved as glibc 2.36's ld.so does
 * (docs/formats/elf-loader.md): breadth-first loading with reuse of loaded
 * SONAMEs, the RPATH chain of loaders, LD_LIBRARY_PATH, RUNPATH, the binary
 * /etc/ld.so.cache, system directories, glibc-hwcaps subdirectories, DSTs,
 * wrong-class candidates skipped, and symbol versions checked afterwards.
 * Nothing is executed or dlopen'ed: files are only read.
 *
 * The file given is treated as the main program (as `ld.so --list FILE`
 * does): its RPATH serves every object loaded below it.
 */
#ifndef PT_RESOLVE_H
#define PT_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "elfobj.h"
#include "ldpath.h"

enum found_by {
	FOUND_DIRECT,		/* the file given, or a NEEDED name containing '/' */
	FOUND_RPATH,		/* DT_RPATH of the requesting object */
	FOUND_RPATH_OF_LOADER,	/* DT_RPATH of a loader up the chain, or of the executable */
	FOUND_LD_LIBRARY_PATH,
	FOUND_RUNPATH,		/* DT_RUNPATH of the requesting object */
	FOUND_LD_SO_CACHE,
	FOUND_DEFAULT,		/* the system directories */
	FOUND_ALREADY_LOADED,	/* an object of that name or SONAME was loaded earlier */
	FOUND_NOT_FOUND,
};

/* "rpath", "rpath_of_loader", ... as in the JSON contract. */
const char *resolve_found_by_name(enum found_by f);

/* One directory or file tried for a name, in the order ld.so tries them. */
struct resolve_try {
	char *path;		/* the candidate file */
	enum found_by from;	/* which step produced it */
	const char *why_skipped;	/* NULL: absent; else e.g. "wrong ELF class" */
};

/* One loaded object, in load order. objs[0] is the file given. */
struct resolve_obj {
	struct elfobj elf;	/* read with elfobj_open */
	char *path;		/* as opened (search dir + name), inside --root */
	char *realpath;		/* symlinks resolved, inside --root */
	size_t loader;		/* index of the object that loaded it; (size_t)-1 for objs[0] */
	size_t first_dep;	/* index in deps of the edge that loaded it; -1 for objs[0] */
	int depth;		/* 0 for objs[0] */
	bool via_dlopen;	/* added by resolve_dlopen, not by DT_NEEDED */
	bool is_interp;		/* the dynamic loader itself, present from the start */
	/* private to resolve.c: names it was requested under, identity, $ORIGIN */
	char **names;
	size_t n_names;
	size_t a_names;		/* capacity (PT_GROW) */
	unsigned long long dev, ino;
	char *origin;
};

/* One NEEDED edge (or dlopen edge), in the order ld.so processes them. */
struct resolve_dep {
	char *name;		/* as requested (DT_NEEDED string) */
	size_t needed_by;	/* index in objs of the requester */
	size_t obj;		/* index in objs of the object used; -1 when missing */
	enum found_by found_by;
	char *dir;		/* directory it was found in; NULL when missing or already loaded */
	bool fragile;		/* already loaded, but the requester could not have found it itself */
	bool via_dlopen;
	char **missing_versions;	/* required, not weak, not defined by the provider */
	size_t n_missing_versions;
	bool no_version_info;	/* versions required but the provider has no DT_VERDEF */
	struct resolve_try *tried;	/* for a missing name: every place considered */
	size_t n_tried;
};

struct resolve_result {
	struct resolve_obj *objs;
	size_t n_objs;
	size_t a_objs;
	struct resolve_dep *deps;
	size_t n_deps;
	size_t a_deps;
	size_t n_missing;	/* deps with obj == -1 */
	size_t n_unmet;		/* deps with missing versions */
};

/*
 * Resolve path and everything it needs. Returns 0 (the result may still hold
 * missing libraries and unmet versions: those are data, reported also as
 * PT_SEV_WARNING in diag), or -1 when path itself is unusable (PT_SEV_ERROR).
 * Damaged dependencies are warnings and are treated as absent, like ld.so.
 */
int resolve_tree(const char *path, const struct ldpath_env *env, struct resolve_result *r,
		 struct pt_diag *diag);

/*
 * Add the library name as if objs[caller] called dlopen(name) after
 * start-up (elf-loader.md §9): the caller's RPATH chain, the executable's
 * RPATH, LD_LIBRARY_PATH, the caller's RUNPATH, the cache, the system
 * directories; then its own NEEDED, breadth-first. Returns the index of the
 * new or reused dep edge, or -1 if name was not found (an edge is recorded).
 */
long resolve_dlopen(struct resolve_result *r, size_t caller, const char *name,
		    const struct ldpath_env *env, struct pt_diag *diag);

void resolve_release(struct resolve_result *r);

#endif
