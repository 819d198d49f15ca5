/*
 * Dependency resolution as glibc 2.36's ld.so does it; see resolve.h and
 * docs/formats/elf-loader.md (section numbers below refer to it). Objects
 * are loaded breadth-first; a name already loaded (by path, requested name
 * or SONAME) or a file already loaded under another name (same device and
 * inode, as _dl_map_object_from_fd checks) is reused without searching.
 */
#include "resolve.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmp.h"
#include "prefetch.h"
#include "symver.h"
#include "xalloc.h"

#define NONE ((size_t)-1)

const char *resolve_found_by_name(enum found_by f)
{
	static const char *const names[] = {
		[FOUND_DIRECT] = "direct",
		[FOUND_RPATH] = "rpath",
		[FOUND_RPATH_OF_LOADER] = "rpath_of_loader",
		[FOUND_LD_LIBRARY_PATH] = "ld_library_path",
		[FOUND_RUNPATH] = "runpath",
		[FOUND_LD_SO_CACHE] = "ld_so_cache",
		[FOUND_DEFAULT] = "default",
		[FOUND_ALREADY_LOADED] = "already_loaded",
		[FOUND_NOT_FOUND] = "not_found",
	};
	return (unsigned)f < PT_ARRAY_SIZE(names) ? names[f] : "?";
}

struct search {
	struct resolve_result *r;
	const struct ldpath_env *env;
	int cls, machine;		/* of the main program: candidates must match */
	struct pt_diag *diag;
	/* what was tried, kept only for names that end up missing */
	struct resolve_try *tried;
	size_t n_tried, alloc_tried;
	bool record;
	/*
	 * The last candidate found loadable, still open (elfobj_loadable_fd):
	 * its descriptor goes on to elfobj_open_dynamic_fd, its device and
	 * inode decide "already loaded under another name", so each
	 * dependency is opened once and never stat'ed by name.
	 */
	struct elfobj_file found;
	/* realpath of the directories met so far: each file costs one readlink, not one per component */
	struct { char *in, *real; } *dirs;
	size_t n_dirs, alloc_dirs;
	/*
	 * Every name an object answers to (path, names, SONAME) with the first
	 * object that has it: find_loaded without comparing each needed name
	 * against every object (libtorch_cpu: 900 edges by 284 objects).
	 */
	struct loaded_name *names;
	size_t names_cap, names_n;
	size_t indexed;		/* objects [0, indexed) are in names */
	/*
	 * Read-ahead workers (prefetch.h), started at the first candidate
	 * whose header was not in the page cache: with a warm cache none.
	 */
	bool may_prefetch;
	struct prefetch *prefetch;
};

struct loaded_name {
	const char *name;	/* owned by the object */
	size_t obj;
	uint32_t hash;
};

/* Is in (a host path) a loadable candidate? On 1 it stays open in s->found. */
static int candidate(struct search *s, const char *in)
{
	int ok;

	if (s->found.fd >= 0) {
		close(s->found.fd);
		s->found.fd = -1;
	}
	ok = elfobj_loadable_fd(in, s->cls, s->machine, &s->found);
	if (ok == 1 && !s->found.cached && s->may_prefetch) {
		s->may_prefetch = false;
		s->prefetch = prefetch_start(&s->r->objs[0].elf, s->r->objs[0].origin, s->env);
	}
	return ok;
}

static void found_close(struct search *s)
{
	if (s->found.fd >= 0)
		close(s->found.fd);
	s->found.fd = -1;
}

static void tried_add(struct search *s, const char *path, enum found_by from, const char *why)
{
	if (!s->record)
		return;
	PT_GROW(s->tried, s->n_tried, s->alloc_tried);
	s->tried[s->n_tried].path = pt_xstrdup(path);
	s->tried[s->n_tried].from = from;
	s->tried[s->n_tried].why_skipped = why;
	s->n_tried++;
}

static void tried_clear(struct search *s)
{
	for (size_t i = 0; i < s->n_tried; i++)
		free(s->tried[i].path);
	free(s->tried);
	s->tried = NULL;
	s->n_tried = s->alloc_tried = 0;
}


/* realpath(3) of a directory, remembered in s; NULL when it has none. */
static const char *dir_realpath(struct search *s, const char *dir)
{
	char buf[PATH_MAX];

	for (size_t i = 0; i < s->n_dirs; i++)
		if (!strcmp(s->dirs[i].in, dir))
			return s->dirs[i].real;
	PT_GROW(s->dirs, s->n_dirs, s->alloc_dirs);
	s->dirs[s->n_dirs].in = pt_xstrdup(dir);
	s->dirs[s->n_dirs].real = realpath(dir, buf) ? pt_xstrdup(buf) : NULL;
	return s->dirs[s->n_dirs++].real;
}

/*
 * realpath(in, buf) with the directory part from dir_realpath: the file's
 * own name is read with readlink, its link targets followed the same way.
 * The result is realpath's (a name that is not a link, in a resolved
 * directory, is resolved); anything unusual is left to realpath itself.
 */
static char *cached_realpath(struct search *s, const char *in, char *buf, int depth)
{
	const char *slash = strrchr(in, '/'), *base, *rdir;
	char dir[PATH_MAX], cand[PATH_MAX], link[PATH_MAX];
	size_t dl;
	ssize_t n;

	if (!slash || in[0] != '/' || depth > 40)
		return realpath(in, buf);
	base = slash + 1;
	dl = (size_t)(slash - in);
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..") || dl >= sizeof(dir))
		return realpath(in, buf);
	memcpy(dir, in, dl);
	dir[dl] = '\0';
	rdir = dir_realpath(s, dl ? dir : "/");
	if (!rdir)
		return realpath(in, buf);
	if ((size_t)snprintf(cand, sizeof(cand), "%s/%s", strcmp(rdir, "/") ? rdir : "", base) >=
	    sizeof(cand))
		return realpath(in, buf);
	n = readlink(cand, link, sizeof(link) - 1);
	if (n < 0) {
		if (errno != EINVAL)
			return realpath(in, buf);
		/* Not a link: cand is the answer. */
		memcpy(buf, cand, strlen(cand) + 1);
		return buf;
	}
	link[n] = '\0';
	if (link[0] == '/')
		return cached_realpath(s, link, buf, depth + 1);
	if ((size_t)snprintf(cand, sizeof(cand), "%s/%s", strcmp(rdir, "/") ? rdir : "", link) >=
	    sizeof(cand))
		return realpath(in, buf);
	return cached_realpath(s, cand, buf, depth + 1);
}

/* realpath of a path inside --root, given back inside the root; NULL if dangling. */
static char *real_in_root(struct search *s, const struct ldpath_env *env, const char *path)
{
	char *in = ldpath_in_root(env, path), buf[PATH_MAX], *out = NULL;
	size_t rl = env->root ? strlen(env->root) : 0;

	if (cached_realpath(s, in, buf, 0)) {
		/* ldpath_in_root followed the links inside the root: buf is inside it. */
		if (rl && !strncmp(buf, env->root, rl) && buf[rl] == '/')
			out = pt_xstrdup(buf + rl);
		else
			out = pt_xstrdup(buf);
	}
	free(in);
	return out;
}

/*
 * Try name in one directory as open_path() does: the active glibc-hwcaps
 * subdirectories first, then (glibc < 2.37) the legacy ones, then dir
 * itself (§5). A file of the wrong class or machine is skipped (§6).
 */
static char *try_dir(struct search *s, const char *dir, const char *name, enum found_by from)
{
	const struct ldpath_env *env = s->env;
	size_t nsub = env->n_hwcaps + (env->legacy_hwcaps ? env->n_legacy : 0) + 1;
	const char *sep = strcmp(dir, "/") ? "/" : "";

	for (size_t i = 0; i < nsub; i++) {
		char *cand, *in;
		int ok;

		if (i < env->n_hwcaps)
			cand = pt_xasprintf("%s%sglibc-hwcaps/%s/%s", dir, sep, env->hwcaps[i], name);
		else if (i + 1 < nsub)
			cand = pt_xasprintf("%s%s%s/%s", dir, sep, env->legacy[i - env->n_hwcaps], name);
		else
			cand = pt_xasprintf("%s%s%s", dir, sep, name);
		in = ldpath_in_root(env, cand);
		ok = candidate(s, in);
		free(in);
		if (ok == 1)
			return cand;
		if (ok == 0)
			tried_add(s, cand, from, "not a loadable object of this class and machine");
		else if (i + 1 == nsub)
			tried_add(s, cand, from, NULL);
		free(cand);
	}
	return NULL;
}

static char *try_list(struct search *s, char **dirs, size_t n, const char *name,
		      enum found_by from, char **dir_out)
{
	for (size_t i = 0; i < n; i++) {
		char *p = try_dir(s, dirs[i], name, from);

		if (p) {
			*dir_out = pt_xstrdup(dirs[i]);
			return p;
		}
	}
	return NULL;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static char *try_pathlist(struct search *s, const char *list, bool llp, const char *origin,
			  const char *name, enum found_by from, char **dir_out)
{
	char **dirs;
	size_t n = ldpath_split(list, llp, origin, s->env, &dirs);
	char *p = try_list(s, dirs, n, name, from, dir_out);

	free_list(dirs, n);
	return p;
}

static bool has_nodeflib(const struct resolve_obj *o)
{
	return o->elf.flags_1 & DF_1_NODEFLIB;
}

/* Steps 1-5 of §3 for a name without '/', requested by objs[req]. */
static char *search_name(struct search *s, size_t req, const char *name, enum found_by *fb,
			 char **dir)
{
	struct resolve_result *r = s->r;
	const struct ldpath_env *env = s->env;
	const struct resolve_obj *L = &r->objs[req];
	char *p = NULL;

	*dir = NULL;
	/* 1. The RPATH chain, unless the requester has RUNPATH (§1, §3). */
	if (!L->elf.runpath) {
		bool main_seen = false;

		for (size_t cur = req; cur != NONE; cur = r->objs[cur].loader) {
			const struct resolve_obj *o = &r->objs[cur];

			if (cur == 0)
				main_seen = true;
			/* An object with RUNPATH has no usable RPATH (get-dynamic-info.h). */
			if (!o->elf.rpath || o->elf.runpath)
				continue;
			*fb = cur == req ? FOUND_RPATH : FOUND_RPATH_OF_LOADER;
			if ((p = try_pathlist(s, o->elf.rpath, false, o->origin, name, *fb, dir)))
				return p;
		}
		if (!main_seen && r->objs[0].elf.rpath && !r->objs[0].elf.runpath) {
			*fb = FOUND_RPATH_OF_LOADER;
			p = try_pathlist(s, r->objs[0].elf.rpath, false, r->objs[0].origin, name, *fb, dir);
			if (p)
				return p;
		}
	}
	/* 2. LD_LIBRARY_PATH; its DSTs expand against the main program. Not in secure mode. */
	if (env->ld_library_path && !env->secure) {
		*fb = FOUND_LD_LIBRARY_PATH;
		p = try_pathlist(s, env->ld_library_path, true, r->objs[0].origin, name, *fb, dir);
		if (p)
			return p;
	}
	/* 3. The requester's own RUNPATH, never inherited. */
	if (L->elf.runpath) {
		*fb = FOUND_RUNPATH;
		if ((p = try_pathlist(s, L->elf.runpath, false, L->origin, name, *fb, dir)))
			return p;
	}
	/* 4. /etc/ld.so.cache; with NODEFLIB, results in system directories are rejected (§7). */
	if (!env->no_cache) {
		const char *c = ldcache_lookup(&env->cache, name, env->hwcaps, env->n_hwcaps);
		bool rejected = false;

		if (c && has_nodeflib(L)) {
			for (size_t i = 0; i < env->n_system_dirs && !rejected; i++) {
				size_t dl = strlen(env->system_dirs[i]);
				rejected = !strncmp(c, env->system_dirs[i], dl) && c[dl] == '/';
			}
		}
		if (c && !rejected) {
			char *in = ldpath_in_root(env, c);
			int ok = candidate(s, in);

			free(in);
			if (ok == 1) {
				*fb = FOUND_LD_SO_CACHE;
				*dir = ldpath_dirname(c);
				return pt_xstrdup(c);
			}
		}
		tried_add(s, env->cache_path, FOUND_LD_SO_CACHE,
			  rejected ? "cached in a system directory, and the requester has DF_1_NODEFLIB"
			  : c ? "cached file is not a loadable object" : NULL);
	}
	/* 5. The system directories, unless NODEFLIB. */
	if (!has_nodeflib(L)) {
		*fb = FOUND_DEFAULT;
		if ((p = try_list(s, env->system_dirs, env->n_system_dirs, name, *fb, dir)))
			return p;
	}
	*fb = FOUND_NOT_FOUND;
	return NULL;
}

static bool name_in(char **v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

static void add_name(struct resolve_obj *o, const char *name)
{
	if (name_in(o->names, o->n_names, name))
		return;
	PT_GROW(o->names, o->n_names, o->a_names);
	o->names[o->n_names++] = pt_xstrdup(name);
}

/* Record name for obj unless an earlier object has it (objects are indexed in order). */
static void index_name(struct search *s, const char *name, size_t obj)
{
	uint32_t h = pt_hash_str(name);
	size_t i;

	if (2 * (s->names_n + 1) > s->names_cap) {
		struct loaded_name *old = s->names;
		size_t cap = s->names_cap;

		s->names_cap = cap ? 2 * cap : 1024;
		s->names = pt_xcalloc(s->names_cap, sizeof(*s->names));
		s->names_n = 0;
		for (size_t k = 0; k < cap; k++) {
			if (!old[k].name)
				continue;
			for (i = old[k].hash & (s->names_cap - 1); s->names[i].name;
			     i = (i + 1) & (s->names_cap - 1))
				;
			s->names[i] = old[k];
			s->names_n++;
		}
		free(old);
	}
	for (i = h & (s->names_cap - 1); s->names[i].name; i = (i + 1) & (s->names_cap - 1))
		if (s->names[i].hash == h && !strcmp(s->names[i].name, name))
			return;
	s->names[i].name = name;
	s->names[i].obj = obj;
	s->names[i].hash = h;
	s->names_n++;
}

/* Bring the index up to the objects loaded so far. */
static void index_objs(struct search *s)
{
	for (; s->indexed < s->r->n_objs; s->indexed++) {
		const struct resolve_obj *o = &s->r->objs[s->indexed];

		index_name(s, o->path, s->indexed);
		for (size_t k = 0; k < o->n_names; k++)
			index_name(s, o->names[k], s->indexed);
		if (o->elf.soname)
			index_name(s, o->elf.soname, s->indexed);
	}
}

/* add_name, kept in the index. */
static void name_obj(struct search *s, size_t obj, const char *name)
{
	struct resolve_obj *o = &s->r->objs[obj];

	add_name(o, name);
	if (obj >= s->indexed)
		return;	/* index_objs takes its names with it */
	for (size_t k = 0; k < o->n_names; k++)
		if (!strcmp(o->names[k], name))
			index_name(s, o->names[k], obj);
}

/*
 * _dl_name_match_p plus the SONAME check of _dl_map_object: the first
 * object whose path, names or SONAME is name.
 */
static size_t find_loaded(struct search *s, const char *name)
{
	uint32_t h = pt_hash_str(name);

	index_objs(s);
	if (!s->names_cap)
		return NONE;
	for (size_t i = h & (s->names_cap - 1); s->names[i].name; i = (i + 1) & (s->names_cap - 1))
		if (s->names[i].hash == h && !strcmp(s->names[i].name, name))
			return s->names[i].obj;
	return NONE;
}

static size_t find_inode(const struct resolve_result *r, unsigned long long dev,
			 unsigned long long ino)
{
	for (size_t i = 0; i < r->n_objs; i++)
		if (r->objs[i].dev == dev && r->objs[i].ino == ino)
			return i;
	return NONE;
}

static struct resolve_dep *new_dep(struct resolve_result *r, const char *name, size_t req)
{
	struct resolve_dep *d;

	PT_GROW(r->deps, r->n_deps, r->a_deps);
	d = &r->deps[r->n_deps++];
	memset(d, 0, sizeof(*d));
	d->name = pt_xstrdup(name);
	d->needed_by = req;
	d->obj = NONE;
	return d;
}

/*
 * Open path (inside the root) as a new object loaded by req. Returns its
 * index, or NONE when it cannot be read (a warning says why).
 */
static size_t add_obj(struct search *s, const char *path, size_t req)
{
	struct resolve_result *r = s->r;
	const struct ldpath_env *env = s->env;
	struct pt_diag *diag = s->diag;
	struct resolve_obj o;
	char *in = ldpath_in_root(env, path), *abs;
	struct pt_diag local;
	int rc;

	memset(&o, 0, sizeof(o));
	pt_diag_init(&local);
	rc = s->found.fd >= 0 ? elfobj_open_dynamic_fd(&o.elf, in, &s->found, &local)
			      : elfobj_open_dynamic(&o.elf, in, &local);
	if (rc != 0) {
		/* Unusable dependencies are warnings: the report goes on (like exit 1, not 2). */
		for (size_t i = 0; i < local.n; i++)
			if (local.v[i].sev == PT_SEV_ERROR)
				local.v[i].sev = PT_SEV_WARNING;
		pt_diag_take(diag, &local);
		elfobj_release(&o.elf);
		free(in);
		return NONE;
	}
	pt_diag_take(diag, &local);
	o.dev = o.elf.dev;
	o.ino = o.elf.ino;
	free(in);
	o.path = pt_xstrdup(path);
	o.realpath = real_in_root(s, env, path);
	if (!o.realpath)
		o.realpath = pt_xstrdup(path);
	/* $ORIGIN: the directory of the path it was opened as, made absolute, not realpath'ed (§4). */
	abs = ldpath_absolute(env, path);
	o.origin = ldpath_dirname(abs);
	free(abs);
	o.loader = req;
	o.first_dep = NONE;
	o.depth = req == NONE ? 0 : r->objs[req].depth + 1;
	PT_GROW(r->objs, r->n_objs, r->a_objs);
	r->objs[r->n_objs] = o;
	return r->n_objs++;
}

/* The fragile check of §2: could req have found this name on its own? */
static bool found_alone(struct search *s, size_t req, const char *name)
{
	enum found_by fb;
	char *dir, *p;
	bool rec = s->record;

	s->record = false;
	p = search_name(s, req, name, &fb, &dir);
	found_close(s);
	s->record = rec;
	free(dir);
	free(p);
	return p != NULL;
}

static size_t process_needed(struct search *s, size_t req, const char *name, bool via_dlopen)
{
	struct resolve_result *r = s->r;
	const struct ldpath_env *env = s->env;
	size_t idx = find_loaded(s, name), di;
	enum found_by fb = FOUND_DIRECT;
	char *path = NULL, *dir = NULL;
	struct resolve_dep *d;

	d = new_dep(r, name, req);
	di = r->n_deps - 1;
	d->via_dlopen = via_dlopen;
	if (idx != NONE) {
		enum found_by how = r->objs[idx].first_dep != NONE
					    ? r->deps[r->objs[idx].first_dep].found_by : FOUND_DIRECT;

		d->found_by = FOUND_ALREADY_LOADED;
		d->obj = idx;
		name_obj(s, idx, name);
		/* Only paths private to some loader can make an edge depend on load order. */
		if (!r->objs[idx].is_interp && (how == FOUND_RPATH || how == FOUND_RPATH_OF_LOADER ||
						how == FOUND_RUNPATH || how == FOUND_DIRECT))
			r->deps[di].fragile = !found_alone(s, req, name);
		return di;
	}
	s->record = true;
	if (strchr(name, '/')) {
		/* DSTs work inside NEEDED; the result is opened directly, relative to the cwd (§4). */
		char *exp = ldpath_expand(name, r->objs[req].origin, env, false);

		if (exp) {
			char *abs = ldpath_absolute(env, exp), *in = ldpath_in_root(env, abs);
			int ok = candidate(s, in);

			free(in);
			if (ok == 1) {
				path = abs;
				dir = ldpath_dirname(abs);
			} else {
				tried_add(s, abs, FOUND_DIRECT,
					  ok == 0 ? "not a loadable object of this class and machine" : NULL);
				free(abs);
			}
			free(exp);
		} else {
			tried_add(s, name, FOUND_DIRECT, "a dynamic string token has no value here");
		}
		fb = path ? FOUND_DIRECT : FOUND_NOT_FOUND;
	} else {
		path = search_name(s, req, name, &fb, &dir);
	}
	d = &r->deps[di];
	d->found_by = fb;
	if (!path) {
		found_close(s);
		d->tried = s->tried;
		d->n_tried = s->n_tried;
		s->tried = NULL;
		s->n_tried = s->alloc_tried = 0;
		r->n_missing++;
		pt_diag_add(s->diag, PT_SEV_WARNING, r->objs[0].path, NULL,
			    "%s: not found (needed by %s)", name, r->objs[req].path);
		return di;
	}
	tried_clear(s);
	d->dir = dir;
	{
		/* The candidate's fstat: the file as it was opened. */
		size_t same = find_inode(r, s->found.dev, s->found.ino);

		if (same != NONE) {
			/* The same file under another name is the same object. */
			found_close(s);
			d->obj = same;
			name_obj(s, same, name);
			free(path);
			return di;
		}
	}
	idx = add_obj(s, path, req);
	free(path);
	d = &r->deps[di];
	if (idx == NONE) {
		d->found_by = FOUND_NOT_FOUND;
		free(d->dir);
		d->dir = NULL;
		r->n_missing++;
		return di;
	}
	d->obj = idx;
	r->objs[idx].first_dep = di;
	r->objs[idx].via_dlopen = via_dlopen;
	name_obj(s, idx, name);
	return di;
}

/* Breadth-first: every object from start on, each NEEDED in tag order (§2). */
static void load_from(struct search *s, size_t start)
{
	for (size_t i = start; i < s->r->n_objs; i++) {
		if (s->r->objs[i].is_interp)
			continue;
		for (size_t k = 0; k < s->r->objs[i].elf.n_needed; k++)
			process_needed(s, i, s->r->objs[i].elf.needed[k], s->r->objs[i].via_dlopen);
	}
}

/* After loading, every Vernaux against its provider (§10). */
static void check_versions(struct search *s, size_t first_dep)
{
	struct resolve_result *r = s->r;

	for (size_t i = first_dep; i < r->n_deps; i++) {
		struct resolve_dep *d = &r->deps[i];
		bool nov = false;
		char **miss;

		if (d->obj == NONE)
			continue;
		miss = symver_missing(r->objs[d->needed_by].elf.verneed, r->objs[d->needed_by].elf.n_verneed,
				      d->name, r->objs[d->obj].elf.has_verdef, r->objs[d->obj].elf.verdef,
				      r->objs[d->obj].elf.n_verdef, &nov);
		d->no_version_info = nov;
		if (nov)
			pt_diag_add(s->diag, PT_SEV_WARNING, r->objs[0].path, NULL,
				    "%s: no version information available (required by %s)",
				    r->objs[d->obj].path, r->objs[d->needed_by].path);
		for (size_t k = 0; miss && miss[k]; k++) {
			d->n_missing_versions++;
			pt_diag_add(s->diag, PT_SEV_WARNING, r->objs[0].path, NULL,
				    "%s: version `%s' not found (required by %s)",
				    r->objs[d->obj].path, miss[k], r->objs[d->needed_by].path);
		}
		d->missing_versions = miss;
		if (d->n_missing_versions)
			r->n_unmet++;
	}
}

static void search_init(struct search *s, struct resolve_result *r, const struct ldpath_env *env,
			struct pt_diag *diag)
{
	memset(s, 0, sizeof(*s));
	s->r = r;
	s->env = env;
	s->diag = diag;
	s->cls = r->objs[0].elf.cls;
	s->machine = r->objs[0].elf.machine;
	s->found.fd = -1;
}

static void search_release(struct search *s)
{
	prefetch_stop(s->prefetch);
	found_close(s);
	for (size_t i = 0; i < s->n_dirs; i++) {
		free(s->dirs[i].in);
		free(s->dirs[i].real);
	}
	free(s->dirs);
	free(s->names);
}

int resolve_tree(const char *path, const struct ldpath_env *env, struct resolve_result *r,
		 struct pt_diag *diag)
{
	struct search s;
	struct resolve_obj *root;
	const char *interp;

	memset(r, 0, sizeof(*r));
	r->objs = pt_xcalloc(1, sizeof(*r->objs));
	r->a_objs = 1;
	root = &r->objs[0];
	root->loader = root->first_dep = NONE;
	root->path = pt_xstrdup(path);
	if (elfobj_open(&root->elf, path, diag) != 0) {
		r->n_objs = 1;
		return -1;
	}
	r->n_objs = 1;
	{
		char *abs = ldpath_absolute(env, path), *rp;

		root->dev = root->elf.dev;
		root->ino = root->elf.ino;
		rp = realpath(path, NULL);
		root->realpath = rp ? rp : pt_xstrdup(abs);
		/*
		 * An executable run normally gets $ORIGIN from /proc/self/exe
		 * (symlinks resolved); a file given to ld.so --list gets the
		 * directory it was named by (dl-object.c).
		 */
		root->origin = ldpath_dirname(root->elf.interp ? root->realpath : abs);
		/*
		 * A file named inside --root: its $ORIGIN is the directory inside
		 * the root, as the loader in that root sees it (Debian's cuBLAS
		 * has RUNPATH $ORIGIN; searched as a host path it found nothing).
		 */
		size_t rl = env->root ? strlen(env->root) : 0;
		if (rl && !strncmp(root->origin, env->root, rl) && root->origin[rl] == '/') {
			char *in = pt_xstrdup(root->origin + rl);

			free(root->origin);
			root->origin = in;
		}
		free(abs);
	}
	search_init(&s, r, env, diag);
	s.may_prefetch = true;
	/* The dynamic loader is in the process before anything else. */
	interp = root->elf.interp ? root->elf.interp : "/lib64/ld-linux-x86-64.so.2";
	{
		struct pt_diag ignore;
		size_t idx;

		pt_diag_init(&ignore);
		s.diag = &ignore;
		idx = add_obj(&s, interp, NONE);
		s.diag = diag;
		pt_diag_release(&ignore);
		if (idx != NONE) {
			r->objs[idx].is_interp = true;
			r->objs[idx].depth = 1;
		}
	}
	load_from(&s, 0);
	check_versions(&s, 0);
	search_release(&s);
	return 0;
}

long resolve_dlopen(struct resolve_result *r, size_t caller, const char *name,
		    const struct ldpath_env *env, struct pt_diag *diag)
{
	struct search s;
	size_t first_obj = r->n_objs, first_dep = r->n_deps, di;

	search_init(&s, r, env, diag);
	di = process_needed(&s, caller, name, true);
	load_from(&s, first_obj);
	check_versions(&s, first_dep);
	search_release(&s);
	return r->deps[di].obj == NONE ? -1 : (long)di;
}

void resolve_release(struct resolve_result *r)
{
	for (size_t i = 0; i < r->n_objs; i++) {
		struct resolve_obj *o = &r->objs[i];

		elfobj_release(&o->elf);
		free(o->path);
		free(o->realpath);
		free(o->origin);
		free_list(o->names, o->n_names);
	}
	free(r->objs);
	for (size_t i = 0; i < r->n_deps; i++) {
		struct resolve_dep *d = &r->deps[i];

		free(d->name);
		free(d->dir);
		for (size_t k = 0; d->missing_versions && d->missing_versions[k]; k++)
			free(d->missing_versions[k]);
		free(d->missing_versions);
		for (size_t k = 0; k < d->n_tried; k++)
			free(d->tried[k].path);
		free(d->tried);
	}
	free(r->deps);
	memset(r, 0, sizeof(*r));
}
