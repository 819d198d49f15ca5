/* The RPATH/RUNPATH lint: see rpathlint.h. */
#include "rpathlint.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "strbuf.h"
#include "xalloc.h"

static const char *const kind_names[RPATHLINT_KIND_COUNT] = {
	[RPATHLINT_EMPTY] = "empty",
	[RPATHLINT_RELATIVE] = "relative",
	[RPATHLINT_BUILD_DIR] = "build_dir",
	[RPATHLINT_ABSOLUTE] = "absolute",
	[RPATHLINT_SYSTEM] = "system",
	[RPATHLINT_MISSING] = "missing",
	[RPATHLINT_NO_ORIGIN] = "no_origin",
	[RPATHLINT_RPATH_IGNORED] = "rpath_ignored",
	[RPATHLINT_LLP_FIRST] = "ld_library_path_first",
	[RPATHLINT_NOT_INHERITED] = "runpath_not_inherited",
};

const char *rpathlint_kind_name(enum rpathlint_kind k)
{
	return k < RPATHLINT_KIND_COUNT ? kind_names[k] : "?";
}

void rpathlint_describe(const struct rpathlint_finding *f, char *b, size_t n)
{
	const char *l = f->runpath ? "RUNPATH" : "RPATH", *dir = f->dir ? f->dir : f->entry ? f->entry : "";

	switch (f->kind) {
	case RPATHLINT_EMPTY:
		pt_fmt_trunc(b, n, "%s has an empty entry: the current directory of the process at run time; drop it", l);
		break;
	case RPATHLINT_RELATIVE:
		pt_fmt_trunc(b, n, "%s entry %s is relative to the current directory at run time, not to the library: write $ORIGIN/%s",
			     l, f->entry, f->entry);
		break;
	case RPATHLINT_BUILD_DIR:
		pt_fmt_trunc(b, n, "%s entry %s is a directory of the machine that built it (a build tree, a home or scratch directory): another machine lacks it",
			     l, dir);
		break;
	case RPATHLINT_ABSOLUTE:
		pt_fmt_trunc(b, n, "%s entry %s is absolute: it serves only where that directory exists", l, dir);
		break;
	case RPATHLINT_SYSTEM:
		pt_fmt_trunc(b, n, "%s entry %s is a system directory the loader searches anyway", l, dir);
		break;
	case RPATHLINT_MISSING:
		pt_fmt_trunc(b, n, "%s entry %s does not exist", l, dir);
		break;
	case RPATHLINT_NO_ORIGIN:
		pt_fmt_trunc(b, n, "%s is found only through the absolute %s entry %s: $ORIGIN missing%s%s", f->needed, l,
			     dir, f->other ? ", write " : "", f->other ? f->other : "");
		break;
	case RPATHLINT_RPATH_IGNORED:
		pt_fmt_trunc(b, n, "DT_RPATH %s is ignored: ld.so uses only DT_RUNPATH when both are present", f->entry);
		break;
	case RPATHLINT_LLP_FIRST:
		pt_fmt_trunc(b, n, "%s is taken from LD_LIBRARY_PATH's %s, searched before RUNPATH's %s", f->needed,
			     f->other, dir);
		break;
	case RPATHLINT_NOT_INHERITED:
		pt_fmt_trunc(b, n, "%s is needed by %s and is only in this object's RUNPATH %s, which serves this object's own NEEDED only (DT_RPATH would be inherited; better: give %s its own $ORIGIN RUNPATH)",
			     f->needed, f->other, dir, f->other);
		break;
	default:
		pt_fmt_trunc(b, n, "?");
	}
}

/* The disk under env->root. */
struct disk {
	const struct ldpath_env *env;
};

static int disk_dir_exists(void *ctx, const char *dir)
{
	const struct disk *d = ctx;
	char *p = ldpath_in_root(d->env, dir);
	struct stat st;
	int r = stat(p, &st) == 0 && S_ISDIR(st.st_mode);

	free(p);
	return r;
}

static int disk_has_file(void *ctx, const char *dir, const char *name)
{
	const struct disk *d = ctx;
	char *full = pt_xasprintf("%s/%s", dir, name);
	char *p = ldpath_in_root(d->env, full);
	struct stat st;
	int r = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	free(full);
	return r;
}

bool rpathlint_is_build_dir(const char *dir)
{
	static const char *const roots[] = { "/tmp/", "/var/tmp/", "/home/", "/root/", "/build/",
					     "/workspace/", "/__w/", "/github/", "/builds/" };
	const char *p = dir;

	for (size_t i = 0; i < PT_ARRAY_SIZE(roots); i++) {
		size_t l = strlen(roots[i]);

		if (!strncmp(dir, roots[i], l) || (!strncmp(dir, roots[i], l - 1) && !dir[l - 1]))
			return true;
	}
	while (*p) {
		size_t l;

		while (*p == '/')
			p++;
		l = strcspn(p, "/");
		if ((l == 5 && !strncmp(p, "build", 5)) || (l == 6 && !strncmp(p, "_build", 6)) ||
		    (l == 10 && !strncmp(p, "CMakeFiles", 10)) || (l > 6 && !strncmp(p, "build-", 6)) ||
		    (l > 12 && !strncmp(p, "cmake-build-", 12)))
			return true;
		p += l;
	}
	return false;
}

/* The components of an absolute path, "." dropped and ".." applied. */
static size_t components(const char *path, char ***out)
{
	char **v = NULL;
	size_t n = 0, a = 0;

	for (const char *p = path; *p;) {
		size_t l;

		while (*p == '/')
			p++;
		l = strcspn(p, "/");
		if (!l)
			break;
		if (l == 1 && p[0] == '.') {
		} else if (l == 2 && p[0] == '.' && p[1] == '.') {
			if (n)
				free(v[--n]);
		} else {
			PT_GROW(v, n, a);
			v[n++] = pt_xstrndup(p, l);
		}
		p += l;
	}
	*out = v;
	return n;
}

char *rpathlint_origin_spelling(const char *origin, const char *dir)
{
	char **o, **d;
	size_t no = components(origin, &o), nd = components(dir, &d), c = 0;
	struct pt_strbuf b;
	char *r;

	while (c < no && c < nd && !strcmp(o[c], d[c]))
		c++;
	pt_strbuf_init(&b, 1 << 16);
	pt_strbuf_adds_trunc(&b, "$ORIGIN");
	for (size_t i = c; i < no; i++)
		pt_strbuf_adds_trunc(&b, "/..");
	for (size_t i = c; i < nd; i++)
		pt_strbuf_addf_trunc(&b, "/%s", d[i]);
	r = pt_strbuf_detach(&b);
	for (size_t i = 0; i < no; i++)
		free(o[i]);
	for (size_t i = 0; i < nd; i++)
		free(d[i]);
	free(o);
	free(d);
	return r;
}

/* An absolute path with "." and ".." applied (the package readers' spelling of a member's dir). */
static char *normalise(const char *path)
{
	char **v;
	size_t n = components(path, &v);
	struct pt_strbuf b;

	pt_strbuf_init(&b, 1 << 16);
	for (size_t i = 0; i < n; i++) {
		pt_strbuf_addf_trunc(&b, "/%s", v[i]);
		free(v[i]);
	}
	free(v);
	if (!n)
		pt_strbuf_adds_trunc(&b, "/");
	return pt_strbuf_detach(&b);
}

static struct rpathlint_finding *add(struct rpathlint_result *r, enum rpathlint_kind k,
				     enum pt_severity sev, bool runpath, const char *entry,
				     const char *dir)
{
	struct rpathlint_finding *f;

	PT_GROW(r->v, r->n, r->a);
	f = &r->v[r->n++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->sev = sev;
	f->runpath = runpath;
	f->entry = entry ? pt_xstrdup(entry) : NULL;
	f->dir = dir ? pt_xstrdup(dir) : NULL;
	if (sev == PT_SEV_WARNING)
		r->n_problems++;
	return f;
}

/* One element of a list: as written, and expanded (NULL: dropped by the loader). */
struct elem {
	char *raw;
	char *dir;
	bool origin;		/* uses $ORIGIN */
	bool system;		/* one of the system directories */
	bool absolute;		/* absolute, no $ORIGIN, not a system directory */
};

static bool is_system(const struct ldpath_env *env, const char *dir)
{
	static const char *const std[] = { "/lib", "/usr/lib", "/lib64", "/usr/lib64" };

	for (size_t i = 0; i < env->n_system_dirs; i++)
		if (!strcmp(env->system_dirs[i], dir))
			return true;
	for (size_t i = 0; i < PT_ARRAY_SIZE(std); i++)
		if (!strcmp(std[i], dir))
			return true;
	return false;
}

static size_t split(const char *list, const char *origin, const struct ldpath_env *env,
		    struct elem **out)
{
	struct elem *v = NULL;
	size_t n = 0, a = 0;
	const char *p = list;

	for (;;) {
		size_t l = strcspn(p, ":");
		struct elem *e;
		size_t dl;

		PT_GROW(v, n, a);
		e = &v[n++];
		memset(e, 0, sizeof(*e));
		e->raw = pt_xstrndup(p, l);
		e->origin = strstr(e->raw, "$ORIGIN") || strstr(e->raw, "${ORIGIN}");
		if (l) {
			e->dir = ldpath_expand(e->raw, origin, env, true);
			dl = e->dir ? strlen(e->dir) : 0;
			while (dl > 1 && e->dir[dl - 1] == '/')
				e->dir[--dl] = '\0';
			if (e->dir && e->dir[0] == '/') {
				char *nd = normalise(e->dir);

				free(e->dir);
				e->dir = nd;
			}
		}
		if (e->dir && e->dir[0] == '/' && !e->origin) {
			e->system = is_system(env, e->dir);
			e->absolute = !e->system;
		}
		if (!p[l])
			break;
		p += l + 1;
	}
	*out = v;
	return n;
}

static void free_elems(struct elem *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].raw);
		free(v[i].dir);
	}
	free(v);
}

static void lint_entries(const struct rpathlint_input *in, const struct rpathlint_fs *fs,
			 const struct elem *v, size_t n, bool runpath, struct rpathlint_result *r)
{
	enum pt_severity build = in->in_build_tree ? PT_SEV_NOTE : PT_SEV_WARNING;

	for (size_t i = 0; i < n; i++) {
		const struct elem *e = &v[i];

		if (!*e->raw) {
			add(r, RPATHLINT_EMPTY, PT_SEV_WARNING, runpath, e->raw, NULL);
			continue;
		}
		if (!e->dir)
			continue;	/* a token without a value: the loader drops it */
		if (e->dir[0] != '/') {
			add(r, RPATHLINT_RELATIVE, PT_SEV_WARNING, runpath, e->raw, e->dir);
			continue;
		}
		if (e->system)
			add(r, RPATHLINT_SYSTEM, PT_SEV_NOTE, runpath, e->raw, e->dir);
		else if (e->absolute && rpathlint_is_build_dir(e->dir))
			add(r, RPATHLINT_BUILD_DIR, build, runpath, e->raw, e->dir);
		else if (e->absolute)
			add(r, RPATHLINT_ABSOLUTE, in->in_build_tree ? PT_SEV_NOTE : PT_SEV_WARNING,
			    runpath, e->raw, e->dir);
		/* In a build tree an entry may name the installed layout ($ORIGIN/../../extras/CUPTI). */
		if (fs->dir_exists(fs->ctx, e->dir) == 0)
			add(r, RPATHLINT_MISSING, in->in_build_tree ? PT_SEV_NOTE : PT_SEV_WARNING, runpath,
			    e->raw, e->dir);
	}
}

/* NEEDED names found only through absolute entries ($ORIGIN missing). */
static void lint_needed(const struct rpathlint_input *in, const struct rpathlint_fs *fs,
			const struct elem *v, size_t n, bool runpath, struct rpathlint_result *r)
{
	const struct elfobj *o = in->o;

	for (size_t k = 0; k < o->n_needed; k++) {
		const char *name = o->needed[k];
		const struct elem *abs = NULL;
		bool elsewhere = false;

		if (strchr(name, '/'))
			continue;
		for (size_t i = 0; i < n && !elsewhere; i++) {
			if (!v[i].dir || v[i].dir[0] != '/' || fs->has_file(fs->ctx, v[i].dir, name) != 1)
				continue;
			if (v[i].absolute) {
				if (!abs)
					abs = &v[i];
			} else {
				elsewhere = true;
			}
		}
		for (size_t i = 0; i < in->env->n_system_dirs && abs && !elsewhere; i++)
			elsewhere = fs->has_file(fs->ctx, in->env->system_dirs[i], name) == 1;
		if (abs && !elsewhere) {
			struct rpathlint_finding *f =
				add(r, RPATHLINT_NO_ORIGIN, in->in_build_tree ? PT_SEV_NOTE : PT_SEV_WARNING,
				    runpath, abs->raw, abs->dir);

			f->needed = pt_xstrdup(name);
			if (in->origin && in->origin[0] == '/')
				f->other = rpathlint_origin_spelling(in->origin, abs->dir);
		}
	}
}

/* RUNPATH, with LD_LIBRARY_PATH set: a NEEDED both hold comes from LD_LIBRARY_PATH. */
static void lint_llp(const struct rpathlint_input *in, const struct rpathlint_fs *fs,
		     const struct elem *v, size_t n, struct rpathlint_result *r)
{
	char **llp;
	size_t nl;
	const struct elfobj *o = in->o;

	if (!in->env->ld_library_path || !*in->env->ld_library_path)
		return;
	nl = ldpath_split(in->env->ld_library_path, true, in->origin, in->env, &llp);
	for (size_t k = 0; k < o->n_needed; k++) {
		const char *name = o->needed[k];
		const char *rdir = NULL, *ldir = NULL;

		if (strchr(name, '/'))
			continue;
		for (size_t i = 0; i < n && !rdir; i++)
			if (v[i].dir && v[i].dir[0] == '/' && fs->has_file(fs->ctx, v[i].dir, name) == 1)
				rdir = v[i].dir;
		for (size_t i = 0; i < nl && rdir && !ldir; i++)
			if (fs->has_file(fs->ctx, llp[i], name) == 1)
				ldir = llp[i];
		if (rdir && ldir && strcmp(rdir, ldir)) {
			struct rpathlint_finding *f =
				add(r, RPATHLINT_LLP_FIRST, PT_SEV_NOTE, true, NULL, rdir);

			f->needed = pt_xstrdup(name);
			f->other = pt_xstrdup(ldir);
		}
	}
	for (size_t i = 0; i < nl; i++)
		free(llp[i]);
	free(llp);
}

/* A dependency of objs[0] that misses (or only borrows) a library objs[0]'s RUNPATH holds. */
static void lint_inherit(const struct rpathlint_input *in, const struct rpathlint_fs *fs,
			 const struct elem *v, size_t n, struct rpathlint_result *r)
{
	const struct resolve_result *t = in->tree;

	for (size_t e = 0; e < t->n_deps; e++) {
		const struct resolve_dep *d = &t->deps[e];
		const char *dir = NULL;
		bool dup = false;

		if (d->needed_by == 0 || d->needed_by >= t->n_objs || d->via_dlopen)
			continue;
		if (d->obj != (size_t)-1 && !d->fragile)
			continue;
		for (size_t i = 0; i < n && !dir; i++)
			if (v[i].dir && v[i].dir[0] == '/' && fs->has_file(fs->ctx, v[i].dir, d->name) == 1)
				dir = v[i].dir;
		if (!dir)
			continue;
		for (size_t i = 0; i < r->n && !dup; i++)
			dup = r->v[i].kind == RPATHLINT_NOT_INHERITED && !strcmp(r->v[i].needed, d->name);
		if (dup)
			continue;
		struct rpathlint_finding *f = add(r, RPATHLINT_NOT_INHERITED,
						  d->obj == (size_t)-1 ? PT_SEV_WARNING : PT_SEV_NOTE,
						  true, NULL, dir);

		f->needed = pt_xstrdup(d->name);
		f->other = pt_xstrdup(t->objs[d->needed_by].path);
	}
}

int rpathlint_check(const struct rpathlint_input *in, struct rpathlint_result *r,
		    struct pt_diag *diag)
{
	struct disk disk = { in->env };
	struct rpathlint_fs dfs = { disk_dir_exists, disk_has_file, &disk };
	const struct rpathlint_fs *fs = in->fs ? in->fs : &dfs;
	const struct elfobj *o = in->o;
	struct elem *rp = NULL, *ru = NULL;
	size_t nrp = 0, nru = 0;
	const char *origin = in->origin ? in->origin : ".";

	(void)diag;
	memset(r, 0, sizeof(*r));
	if (o->rpath)
		nrp = split(o->rpath, origin, in->env, &rp);
	if (o->runpath)
		nru = split(o->runpath, origin, in->env, &ru);
	lint_entries(in, fs, rp, nrp, false, r);
	lint_entries(in, fs, ru, nru, true, r);
	/* The list the loader searches for this object's own NEEDED: RUNPATH when there is one. */
	if (o->runpath)
		lint_needed(in, fs, ru, nru, true, r);
	else if (o->rpath)
		lint_needed(in, fs, rp, nrp, false, r);
	if (o->rpath && o->runpath)
		add(r, RPATHLINT_RPATH_IGNORED, strcmp(o->rpath, o->runpath) ? PT_SEV_WARNING : PT_SEV_NOTE,
		    false, o->rpath, NULL);
	if (o->runpath) {
		lint_llp(in, fs, ru, nru, r);
		if (in->tree && in->tree->n_objs)
			lint_inherit(in, fs, ru, nru, r);
	}
	free_elems(rp, nrp);
	free_elems(ru, nru);
	return 0;
}

void rpathlint_release(struct rpathlint_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].entry);
		free(r->v[i].dir);
		free(r->v[i].needed);
		free(r->v[i].other);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}
