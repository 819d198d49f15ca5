/*
 * Reading a dependency tree ahead of the resolver; see prefetch.h. The
 * workers take names from one queue, breadth-first: each name is looked up
 * once (the loader, too, loads a name once and reuses it), along its first
 * requester's search path, in a shortened form of resolve.c's search (no
 * glibc-hwcaps or legacy subdirectories, no RPATH of loaders between the
 * requester and the main program): a wrong guess costs only a read the
 * resolver then waits for itself.
 */
#include "prefetch.h"

#include <elf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "jobs.h"
#include "xalloc.h"

/* The reads wait on the disk, not on a CPU: more workers than CPUs keep more of them in flight. */
#define WORKERS 8
#define STACK (256u << 10)

/* Where one object's names are looked for before the cache. */
struct req {
	char **dirs;
	size_t n_dirs, a_dirs;
	char *origin;		/* $ORIGIN, for names with '/' */
	int nodeflib;
};

struct job {
	char *name;
	const struct req *req;
};

struct prefetch {
	const struct ldpath_env *env;
	int cls, machine;
	char **root_rpath;	/* the main program's RPATH, searched by every object without RUNPATH */
	size_t n_root_rpath;
	char **llp;		/* LD_LIBRARY_PATH, expanded against the main program */
	size_t n_llp;

	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	struct job *q;
	size_t q_head, q_n, q_cap;
	struct req **reqs;	/* every req made, freed at the end */
	size_t n_reqs, a_reqs;
	char **seen;		/* names queued so far, open addressing */
	size_t seen_n, seen_cap;

	pthread_t th[WORKERS];
	size_t n_th;
};

/* Under p->mu: 1 if name is new (and now remembered), 0 if queued before. */
static int seen_add(struct prefetch *p, const char *name)
{
	size_t i, mask;

	if (2 * (p->seen_n + 1) > p->seen_cap) {
		char **old = p->seen;
		size_t cap = p->seen_cap;

		p->seen_cap = cap ? 2 * cap : 512;
		p->seen = pt_xcalloc(p->seen_cap, sizeof(char *));
		for (size_t k = 0; k < cap; k++) {
			if (!old[k])
				continue;
			for (i = pt_hash_str(old[k]) & (p->seen_cap - 1); p->seen[i]; i = (i + 1) & (p->seen_cap - 1))
				;
			p->seen[i] = old[k];
		}
		free(old);
	}
	mask = p->seen_cap - 1;
	for (i = pt_hash_str(name) & mask; p->seen[i]; i = (i + 1) & mask)
		if (!strcmp(p->seen[i], name))
			return 0;
	p->seen[i] = pt_xstrdup(name);
	p->seen_n++;
	return 1;
}

static void append_dirs(struct req *r, char **more, size_t n_more)
{
	PT_RESERVE(r->dirs, r->n_dirs + n_more, r->a_dirs);
	for (size_t i = 0; i < n_more; i++)
		r->dirs[r->n_dirs++] = pt_xstrdup(more[i]);
}

static void append_list(const struct prefetch *p, struct req *r, const char *list, const char *origin)
{
	char **v;
	size_t k = ldpath_split(list, false, origin, p->env, &v);

	append_dirs(r, v, k);
	for (size_t i = 0; i < k; i++)
		free(v[i]);
	free(v);
}

/* The search path of o (opened as path, origin its $ORIGIN) as seen from here. */
static struct req *req_new(const struct prefetch *p, const struct elfobj *o, const char *origin,
			   int is_root)
{
	struct req *r = pt_xcalloc(1, sizeof(*r));

	r->origin = pt_xstrdup(origin);
	r->nodeflib = (o->flags_1 & DF_1_NODEFLIB) != 0;
	if (!o->runpath) {
		if (o->rpath)
			append_list(p, r, o->rpath, origin);
		if (!is_root)
			append_dirs(r, p->root_rpath, p->n_root_rpath);
	}
	append_dirs(r, p->llp, p->n_llp);
	if (o->runpath)
		append_list(p, r, o->runpath, origin);
	return r;
}

static void req_free(struct req *r)
{
	for (size_t i = 0; i < r->n_dirs; i++)
		free(r->dirs[i]);
	free(r->dirs);
	free(r->origin);
	free(r);
}

/* Queue o's needed names not seen before, searched along req (taken over). */
static void queue_needed(struct prefetch *p, const struct elfobj *o, struct req *req)
{
	pthread_mutex_lock(&p->mu);
	PT_GROW(p->reqs, p->n_reqs, p->a_reqs);
	p->reqs[p->n_reqs++] = req;
	for (size_t i = 0; i < o->n_needed && !p->stop; i++) {
		if (!seen_add(p, o->needed[i]))
			continue;
		PT_GROW(p->q, p->q_n, p->q_cap);
		p->q[p->q_n].name = pt_xstrdup(o->needed[i]);
		p->q[p->q_n].req = req;
		p->q_n++;
	}
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/*
 * Read the file at path (inside the root) as the resolver will, if it is
 * a loadable candidate, and queue its names. 1 if it was, 0 if not.
 */
static int take(struct prefetch *p, const char *path)
{
	struct elfobj_file f;
	struct elfobj o;
	struct pt_diag d;
	char *in;
	int ok;

	/* The resolver is done: stop here rather than read on. "Found" ends the search. */
	if (__atomic_load_n(&p->stop, __ATOMIC_RELAXED))
		return 1;
	in = ldpath_in_root(p->env, path);
	ok = elfobj_loadable_fd(in, p->cls, p->machine, &f) == 1;

	if (ok) {
		pt_diag_init(&d);
		if (elfobj_open_dynamic_fd(&o, in, &f, &d) == 0 && o.n_needed) {
			char *abs = ldpath_absolute(p->env, path), *origin = ldpath_dirname(abs);

			queue_needed(p, &o, req_new(p, &o, origin, 0));
			free(origin);
			free(abs);
		}
		elfobj_release(&o);
		pt_diag_release(&d);
	}
	free(in);
	return ok;
}

static int take_in(struct prefetch *p, const char *dir, const char *name)
{
	char *path = pt_xasprintf("%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
	int ok = take(p, path);

	free(path);
	return ok;
}

/* The shortened search for one name (see the top of this file). */
static void visit(struct prefetch *p, const struct job *j)
{
	const struct ldpath_env *env = p->env;
	const char *c;

	if (strchr(j->name, '/')) {
		char *exp = ldpath_expand(j->name, j->req->origin, env, false);

		if (exp && exp[0] == '/')
			take(p, exp);
		free(exp);
		return;
	}
	for (size_t i = 0; i < j->req->n_dirs; i++)
		if (take_in(p, j->req->dirs[i], j->name))
			return;
	if (!env->no_cache && (c = ldcache_lookup(&env->cache, j->name, env->hwcaps, env->n_hwcaps)) &&
	    take(p, c))
		return;
	for (size_t i = 0; !j->req->nodeflib && i < env->n_system_dirs; i++)
		if (take_in(p, env->system_dirs[i], j->name))
			return;
}

static void *worker(void *arg)
{
	struct prefetch *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct job j;

		while (!p->stop && p->q_head == p->q_n)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop)
			break;
		j = p->q[p->q_head++];
		pthread_mutex_unlock(&p->mu);
		visit(p, &j);
		free(j.name);
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct prefetch *prefetch_start(const struct elfobj *root, const char *origin,
				const struct ldpath_env *env)
{
	const char *jobs = getenv("PT_JOBS");
	struct prefetch *p;
	pthread_attr_t at;

	if ((jobs && *jobs && pt_jobs(0) <= 1) || !root->n_needed)
		return NULL;
	p = pt_xcalloc(1, sizeof(*p));
	p->env = env;
	p->cls = root->cls;
	p->machine = root->machine;
	if (root->rpath && !root->runpath)
		p->n_root_rpath = ldpath_split(root->rpath, false, origin, env, &p->root_rpath);
	if (env->ld_library_path && !env->secure)
		p->n_llp = ldpath_split(env->ld_library_path, true, origin, env, &p->llp);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	queue_needed(p, root, req_new(p, root, origin, 1));
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, STACK);
	for (; p->n_th < WORKERS; p->n_th++)
		if (pthread_create(&p->th[p->n_th], &at, worker, p) != 0)
			break;
	pthread_attr_destroy(&at);
	if (!p->n_th) {
		prefetch_stop(p);
		return NULL;
	}
	return p;
}

void prefetch_stop(struct prefetch *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (size_t i = 0; i < p->n_th; i++)
		pthread_join(p->th[i], NULL);
	for (size_t i = p->q_head; i < p->q_n; i++)
		free(p->q[i].name);
	free(p->q);
	for (size_t i = 0; i < p->n_reqs; i++)
		req_free(p->reqs[i]);
	free(p->reqs);
	for (size_t i = 0; i < p->seen_cap; i++)
		free(p->seen[i]);
	free(p->seen);
	for (size_t i = 0; i < p->n_root_rpath; i++)
		free(p->root_rpath[i]);
	free(p->root_rpath);
	for (size_t i = 0; i < p->n_llp; i++)
		free(p->llp[i]);
	free(p->llp);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
}
