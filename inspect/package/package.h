/*
 * One package read as a whole: a wheel (.whl), a conda package (.tar.bz2,
 * .conda) or a directory (an unpacked wheel, a site-packages torch/, a
 * dist/ folder of wheels is the CLI's loop). Its metadata, its members,
 * every shared object's identity and dynamic section (read from the
 * archive in memory, never unpacked), and each NEEDED name resolved as the
 * loader will once the package is installed:
 *
 *   1. the member's RPATH (when it has no RUNPATH) and RUNPATH, $ORIGIN
 *      being the member's installed directory (ldpath_split's rules);
 *      a directory inside the package is looked up among the members,
 *      one of a requirement's (site-packages/nvidia/X/lib of
 *      nvidia-X-cuNN, torch/lib of torch) is that requirement's, an
 *      absolute one is looked up on this machine (or --root) and flagged;
 *   2. an object loaded earlier by that SONAME: another member, or torch's
 *      libraries when torch is a requirement (import torch loads them);
 *   3. the target system: ld.so.cache and the system directories under
 *      env->root (ldcache_lookup, elfobj_loadable: resolve.c's steps 4-5).
 *
 * LD_LIBRARY_PATH and the RPATH of loaders up a chain are not applied: the
 * target's environment is not known.
 */
#ifndef PT_PACKAGE_H
#define PT_PACKAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cudaarch.h"
#include "diag.h"
#include "elfobj.h"
#include "ldpath.h"
#include "mlpolicy.h"
#include "pkgarchive.h"
#include "rpathlint.h"
#include "torchext.h"
#include "verfloor.h"

enum pkg_type { PKG_WHEEL, PKG_CONDA, PKG_DIR };

const char *pkg_type_name(enum pkg_type t);	/* "wheel", "conda", "directory" */

/* Where a NEEDED name comes from once installed. */
enum pkg_from {
	PKG_FROM_BUNDLED,	/* a member, found through RPATH/RUNPATH */
	PKG_FROM_PRELOADED,	/* a member or a requirement's library loaded earlier by SONAME */
	PKG_FROM_REQUIREMENT,	/* a requirement's directory (nvidia-*, torch) */
	PKG_FROM_SYSTEM,	/* ld.so.cache or a system directory of the target */
	PKG_FROM_ABSOLUTE,	/* an absolute RPATH/RUNPATH entry: the build machine's */
	PKG_FROM_MISSING,
};

const char *pkg_from_name(enum pkg_from f);	/* "bundled", "preloaded", ... */

struct pkg_dep {
	char *name;		/* DT_NEEDED */
	enum pkg_from from;
	char *where;		/* member name, requirement, system path, absolute path; NULL when missing */
	char *via;		/* "RUNPATH $ORIGIN/../lib", "ld.so.cache", ...; NULL when missing */
	char *hint;		/* for a missing name: which requirement would provide it, or NULL */
};

struct pkg_member {
	char *name;		/* in the archive (for a .conda: inside its pkg tarball) */
	char *installed;	/* relative to the install root (site-packages, or the conda prefix) */
	uint64_t size;
	enum pkgar_kind kind;
	char *link;		/* symlink target */
	bool is_elf;
	struct elfobj elf;	/* fields only (elfobj_drop_bytes) when is_elf */
	bool elf_whole;		/* all its bytes were read (small member, or a directory's file) */
	bool cuda_read;		/* its fat binaries were scanned */
	struct cuda_summary cuda;	/* when cuda_read */
	char *arch_list;	/* TORCH_CUDA_ARCH_LIST of its code, or NULL when none */
	struct pkg_dep *deps;
	size_t n_deps;
	/* portability (rpathlint, verfloor, torchext: the floors branch's modules) */
	struct verfloor floor;
	const struct mlpolicy *implied;	/* the tag its own floor implies (into the package's pol.set), or NULL */
	const char *blocking;	/* what holds that tag down (into floor.versions), or NULL */
	struct rpathlint_result lint;	/* $ORIGIN the installed directory, answered from the members */
	struct torchext ext;
	bool have_ext;
	struct torchext_against against;	/* --against */
	bool have_against;
};

/* What the facts cache (pkgcache.h) did for one read (the JSON "cache" of a package). */
enum pkgcache_state {
	PKGCACHE_NONE,	/* not asked: package_read itself, a directory, or the walk failed */
	PKGCACHE_OFF,	/* --no-package-cache, PT_CACHE_DIR=off, or no directory to use */
	PKGCACHE_MISS,	/* read from the archive (and stored when the directory allows) */
	PKGCACHE_HIT,	/* from the cache: no member was read */
};

struct pkg_requirement {
	char *spec;		/* "nvidia-cudnn-cu12 (==9.1.0.70)" as written */
	char *name;		/* normalised: lower case, '_' and '.' as '-' */
};

struct package {
	char *path;
	enum pkg_type type;
	char *name, *version;
	char **tags;		/* WHEEL Tag: lines; conda: subdir/build */
	size_t n_tags;
	char *generator;	/* WHEEL Generator */
	bool root_is_purelib;
	struct pkg_requirement *reqs;
	size_t n_reqs;
	char *site_prefix;	/* conda: the site-packages dir inside the prefix, if found */
	struct pkg_member *members;
	size_t n_members, a_members;
	size_t n_elf, n_missing, n_absolute, n_system, n_bundled, n_required;
	uint64_t bytes;		/* all members' sizes */
	/* CUDA: the arch list every member with code has in common */
	char *arch_list;
	size_t weakest;		/* index of the member with the fewest targets; (size_t)-1 none */
	size_t n_cuda;		/* members with device code */
	size_t n_cuda_unread;	/* members too large to scan from the archive */
	/* the package's floor: the newest version of each family any member needs */
	struct verfloor floor;
	size_t floor_member[VERFLOOR_N];	/* which member needs it; (size_t)-1 none */
	char *platform_tag;	/* the platform part of the first wheel tag ("linux_x86_64"), or NULL */
	struct mlpolicy_answer pol;
	bool have_pol;
	size_t n_lint;		/* rpathlint problems over all members */
	size_t n_ext;		/* members that are torch extensions */
	size_t n_against_missing;	/* torch symbols --against lacks, over all members */
	enum pkgcache_state cache;	/* the facts cache: hit, miss, off, none (pkgcache.h) */
};

#define PKG_WHOLE_MAX (8u << 20)

struct pkg_opts {
	const struct ldpath_env *env;	/* the target: root, cache, system dirs */
	const struct pkgar_limits *lim;	/* NULL: pkgar_default_limits */
	uint64_t whole_max;	/* members up to this size are read whole (CUDA scan); 0: PKG_WHOLE_MAX */
	const char *tag;	/* --tag: the platform tag claimed (else the wheel's own) */
	const char *against;	/* --against: a torch to check extensions against */
	bool no_cache;		/* --no-package-cache: pkgcache_package_read is package_read */
};

/* Is path a package (by its name: .whl, .conda, .tar.bz2; or a directory)? */
bool package_is_package(const char *path, bool is_dir);

/* Is dir an unpacked package: a *.dist-info (a wheel) or an info/ (conda) at its top? */
bool package_dir_is_unpacked(const char *dir);

/*
 * Read the package at path. Returns 0 (missing libraries are data and
 * PT_SEV_WARNING), -1 when it cannot be read (PT_SEV_ERROR).
 */
int package_read(const char *path, const struct pkg_opts *opt, struct package *p,
		 struct pt_diag *diag);

/*
 * An archive's read in its two halves, for the facts cache (pkgcache.h):
 * package_begin sets p up (path, type from the name), package_walk reads
 * the members (what comes from their bytes: metadata, the member list, ELF
 * fields, fat binary summaries, torch symbols; its messages into diag),
 * package_finish works out what depends on the target and the options
 * (installed paths, resolution, floors, lint, --tag, --against, arch lists).
 * package_read of an archive is begin, walk, finish.
 */
enum pkg_type package_type_of(const char *path);	/* PKG_WHEEL or PKG_CONDA, by the name */
void package_begin(const char *path, const struct pkg_opts *opt, struct package *p);
int package_walk(const struct pkg_opts *opt, struct package *p, struct pt_diag *diag);
void package_finish(struct package *p, const struct pkg_opts *opt, struct pt_diag *diag);

/* The same from bytes (tests, fuzzing): name decides the type. No system lookup without env. */
int package_read_mem(const char *name, const void *buf, size_t len, const struct pkg_opts *opt,
		     struct package *p, struct pt_diag *diag);

void package_release(struct package *p);

/*
 * The requirement that provides a library name (libcudnn.so.9 ->
 * nvidia-cudnn-cu*) and its directory under site-packages
 * ("nvidia/cudnn/lib"), or NULL.
 */
const char *package_provider(const char *soname, const char **dir);

#endif
