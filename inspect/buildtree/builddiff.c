/*
 * Snapshots of builds, installs and libraries, and their comparison.
 * Libraries of two sides are paired by file name; a build tree contributes
 * its configuration (buildtree_config) and its lib/ libraries. A package
 * contributes what package_read found, its members paired by path.
 */
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builddiff.h"
#include "buildtree.h"
#include "cudaarch.h"
#include "elfobj.h"
#include "fatbin.h"
#include "fatbin_scan.h"
#include "ldpath.h"
#include "mlpolicy.h"
#include "package.h"
#include "resolve.h"
#include "strbuf.h"
#include "xalloc.h"

static void add(struct snapshot *s, const char *section, const char *key, const char *value)
{
	PT_GROW(s->v, s->n, s->alloc);
	s->v[s->n++] = (struct snap_item){ pt_xstrdup(section), pt_xstrdup(key), pt_xstrdup(value ? value : "(none)"), 0, false };
}

static void add_size(struct snapshot *s, const char *section, const char *key, long long n)
{
	char buf[32];

	pt_fmt_trunc(buf, sizeof(buf), "%lld", n);
	add(s, section, key, buf);
	s->v[s->n - 1].num = n;
	s->v[s->n - 1].is_size = true;
}

static void library(struct snapshot *s, const char *path, const char *prefix, struct pt_diag *d)
{
	struct elfobj o;
	struct pt_diag tmp;
	char sec[512];
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	pt_diag_init(&tmp);
	if (elfobj_open(&o, path, &tmp) < 0) {
		/* In a directory, a lib*.so that is not ELF (a linker script) is only noted. */
		if (prefix) {
			pt_diag_release(&tmp);
			pt_diag_init(&tmp);
			pt_diag_add(&tmp, PT_SEV_NOTE, path, NULL, "not an ELF object: left out");
		}
		pt_diag_take(d, &tmp);
		pt_diag_release(&tmp);
		elfobj_release(&o);
		return;
	}
	pt_diag_release(&tmp);
#define SEC(name) (pt_fmt_trunc(sec, sizeof(sec), "%s%s%s", prefix ? base : "", prefix ? ": " : "", name), sec)
	add_size(s, SEC("file"), "size", (long long)o.size);
	add(s, SEC("file"), "SONAME", o.soname);
	add(s, SEC("file"), "RPATH", o.rpath);
	add(s, SEC("file"), "RUNPATH", o.runpath);
	add(s, SEC("debug"), "DWARF", o.has_debug_info ? "yes" : "no");
	add(s, SEC("debug"), "debuglink", o.debuglink);
	{
		bool symtab = false;

		for (size_t i = 0; i < o.n_sections; i++)
			if (o.sections[i].type == 2 /* SHT_SYMTAB */)
				symtab = true;
		add(s, SEC("debug"), ".symtab", symtab ? "yes" : "no");
	}
	for (size_t i = 0; i < o.n_needed; i++)
		add(s, SEC("needed"), o.needed[i], "yes");
	for (size_t i = 0; i < o.n_verneed; i++)
		for (size_t k = 0; k < o.verneed[i].n; k++) {
			char key[512];

			pt_fmt_trunc(key, sizeof(key), "%s %s", o.verneed[i].file, o.verneed[i].v[k].name);
			add(s, SEC("symbol versions needed"), key, "yes");
		}
	for (size_t i = 0; i < o.n_sections; i++) {
		const struct elf_section *e = &o.sections[i];

		if (e->name && *e->name)
			add_size(s, SEC("sections"), e->name, (long long)e->size);
	}
	{
		struct cuda_scan cs;

		pt_diag_init(&tmp);
		memset(&cs, 0, sizeof(cs));
		if (cuda_scan(&o, CUDA_SCAN_REGISTERED_ONLY, &cs, &tmp) == 0 && cs.entries.n) {
			for (size_t i = 0; i < cs.entries.n; i++) {
				const struct fatbin_entry *e = &cs.entries.v[i];
				char key[64];
				long long prev = 0;

				struct cuda_target t = { e->kind, e->arch, e->variant };

				/* As `ptinspect cuda` names them: sm_90a (SASS), compute_120 (PTX), lto_90. */
				cudaarch_target_name(&t, key, sizeof(key));
				/* Sum per target: look for the key added already. */
				for (size_t k = 0; k < s->n; k++)
					if (!strcmp(s->v[k].section, SEC("CUDA targets")) && !strcmp(s->v[k].key, key)) {
						prev = s->v[k].num;
						free(s->v[k].value);
						s->v[k].value = pt_xasprintf("%lld", prev + (long long)e->payload_size);
						s->v[k].num = prev + (long long)e->payload_size;
						prev = -1;
						break;
					}
				if (prev != -1)
					add_size(s, SEC("CUDA targets"), key, (long long)e->payload_size);
			}
		}
		cuda_scan_release(&cs);
		pt_diag_release(&tmp);
	}
	/* How each NEEDED resolves, as ld.so would here. */
	{
		struct ldpath_env env;
		struct resolve_result r;

		pt_diag_init(&tmp);
		if (ldpath_env_init(&env, NULL, &tmp) == 0) {
			if (resolve_tree(path, &env, &r, &tmp) == 0) {
				for (size_t i = 0; i < r.n_deps; i++) {
					if (r.deps[i].needed_by != 0)
						continue;
					add(s, SEC("resolves to"), r.deps[i].name,
					    r.deps[i].obj == (size_t)-1 ? "NOT FOUND" : r.objs[r.deps[i].obj].realpath);
				}
				resolve_release(&r);
			}
			ldpath_env_release(&env);
		}
		pt_diag_release(&tmp);
	}
#undef SEC
	elfobj_release(&o);
}

/* "libx.so" or "libx.so.2.6.0": .so at the end or followed by a version. */
static int is_lib_name(const char *n)
{
	const char *p = strstr(n, ".so");

	while (p && p[3] != '\0' && !(p[3] == '.' && p[4] >= '0' && p[4] <= '9' &&
				       strspn(p + 4, "0123456789.") == strlen(p + 4)))
		p = strstr(p + 1, ".so");
	return p != NULL;
}

static void directory(struct snapshot *s, const char *dir, struct pt_diag *d)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char *p = pt_xasprintf("%s/%s", dir, ents[i]->d_name);
		struct stat st;

		if (is_lib_name(ents[i]->d_name) && lstat(p, &st) == 0 && S_ISREG(st.st_mode))
			library(s, p, "prefix", d);
		free(p);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

int snapshot_take(const char *path, struct snapshot *s, struct pt_diag *d)
{
	struct stat st;
	char *p;

	memset(s, 0, sizeof(*s));
	s->path = pt_xstrdup(path);
	if (stat(path, &st) < 0) {
		pt_diag_add(d, PT_SEV_ERROR, path, NULL, "no such file or directory");
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		size_t before = pt_diag_count(d, PT_SEV_ERROR);

		s->kind = "library";
		library(s, path, NULL, d);
		return pt_diag_count(d, PT_SEV_ERROR) > before ? -1 : 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		pt_diag_add(d, PT_SEV_ERROR, path, NULL, "neither a file nor a directory");
		return -1;
	}
	p = pt_xasprintf("%s/CMakeCache.txt", path);
	{
		char *q = pt_xasprintf("%s/build/CMakeCache.txt", path);
		int tree = stat(p, &st) == 0 || stat(q, &st) == 0;

		free(q);
		free(p);
		if (tree) {
			struct buildtree t;
			struct build_config c;
			char *lib;

			if (buildtree_load(path, false, &t, d) < 0) {
				buildtree_release(&t);
				return -1;
			}
			s->kind = "build tree";
			buildtree_config(&t, &c);
			for (size_t i = 0; i < c.n; i++)
				add(s, "config", c.v[i].name, c.v[i].value);
			build_config_release(&c);
			lib = pt_xasprintf("%s/lib", t.dir);
			directory(s, lib, d);
			free(lib);
			buildtree_release(&t);
			return 0;
		}
	}
	s->kind = "directory";
	/* An install: the directory itself, or its lib/ (torch/lib of a wheel). */
	p = pt_xasprintf("%s/lib", path);
	directory(s, stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? p : path, d);
	free(p);
	return 0;
}

void snapshot_release(struct snapshot *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].section);
		free(s->v[i].key);
		free(s->v[i].value);
	}
	free(s->v);
	free(s->path);
	free(s->pkg_name);
	free(s->pkg_version);
	memset(s, 0, sizeof(*s));
}

bool snapshot_is_package(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return package_is_package(path, false);
	if (S_ISDIR(st.st_mode))
		return package_dir_is_unpacked(path);
	return package_is_package(path, false);
}

/* A member's path, its NAME-VERSION.dist-info/ or .data/ as *.dist-info/ (they pair across versions). */
static char *member_key(const char *name)
{
	const char *slash = strchr(name, '/');
	size_t l = slash ? (size_t)(slash - name) : strlen(name);

	if (l > 10 && !strncmp(name + l - 10, ".dist-info", 10))
		return pt_xasprintf("*.dist-info%s", name + l);
	if (l > 5 && !strncmp(name + l - 5, ".data", 5))
		return pt_xasprintf("*.data%s", name + l);
	return pt_xstrdup(name);
}

static const char *kind_word(enum pkgar_kind k)
{
	switch (k) {
	case PKGAR_FILE: return "file";
	case PKGAR_DIR: return "directory";
	case PKGAR_SYMLINK: return "symlink";
	case PKGAR_OTHER: break;
	}
	return "other";
}

/* The tag a floor implies ("manylinux_2_17_x86_64"), claims checked against claimed (may be NULL). */
static void floor_facts(struct snapshot *s, const char *sec, const struct verfloor *fl,
			const size_t *who, const struct package *p, const struct mlpolicy_answer *given,
			const char *claimed)
{
	struct mlpolicy_answer own;
	const struct mlpolicy_answer *a = given;
	struct pt_diag tmp;

	for (int k = 0; k < VERFLOOR_N; k++) {
		char *v;

		if (!fl->max[k])
			continue;
		char *m = who && who[k] != (size_t)-1 ? member_key(p->members[who[k]].name) : NULL;

		v = m ? pt_xasprintf("%s (%s)", fl->max[k], m) : pt_xstrdup(fl->max[k]);
		add(s, sec, verfloor_family_name((enum verfloor_family)k), v);
		free(v);
		free(m);
	}
	pt_diag_init(&tmp);
	if (!a && mlpolicy_answer(fl, claimed, &own, &tmp) == 0)
		a = &own;
	if (a && a->implied) {
		add(s, sec, "implied tag", a->implied->name);
		if (a->blocking && a->implied > a->set.v)
			add(s, sec, "held down by", a->blocking);
	}
	for (size_t i = 0; a && i < a->n_claims; i++) {
		const struct mlpolicy_claim *c = &a->claims[i];
		char key[300];

		pt_fmt_trunc(key, sizeof(key), "claimed %s", c->tag);
		add(s, sec, key, c->ok ? "holds" : c->other_arch ? "another architecture or libc"
			       : c->unknown ? "not a tag auditwheel knows" : "does not hold");
	}
	if (a == &own)
		mlpolicy_answer_release(&own);
	pt_diag_release(&tmp);
}

static void member_facts(struct snapshot *s, const struct pkg_member *m)
{
	char sec[1100], *key = member_key(m->name);

#define SEC(name) (pt_fmt_trunc(sec, sizeof(sec), "%s: %s", key, name), sec)
	add_size(s, SEC("file"), "size", (long long)m->size);
	add(s, SEC("file"), "SONAME", m->elf.soname);
	add(s, SEC("file"), "RPATH", m->elf.rpath);
	add(s, SEC("file"), "RUNPATH", m->elf.runpath);
	for (size_t k = 0; k < m->n_deps; k++) {
		const struct pkg_dep *d = &m->deps[k];
		char *v = d->where ? pt_xasprintf("%s %s", pkg_from_name(d->from), d->where)
				   : pt_xstrdup(pkg_from_name(d->from));

		add(s, SEC("needed"), d->name, v);
		free(v);
	}
	floor_facts(s, SEC("floor"), &m->floor, NULL, NULL, NULL, NULL);
	for (size_t k = 0; k < m->lint.n; k++) {
		const struct rpathlint_finding *x = &m->lint.v[k];
		char *what;

		if (x->sev != PT_SEV_WARNING)
			continue;
		what = pt_xasprintf("%s %s%s%s", rpathlint_kind_name(x->kind), x->entry ? x->entry : "",
				    x->needed ? " " : "", x->needed ? x->needed : "");
		add(s, SEC("rpath lint"), what, x->runpath ? "RUNPATH" : "RPATH");
		free(what);
	}
	add(s, SEC("CUDA"), "arch list",
	    m->arch_list ? m->arch_list : m->cuda_read ? "no device code" : "not scanned (too large)");
	if (m->have_ext && m->ext.is_extension) {
		struct pt_strbuf b;

		pt_strbuf_init(&b, 1u << 16);
		for (size_t k = 0; k < m->ext.n_torch_needed; k++)
			pt_strbuf_addf_trunc(&b, "%s%s", k ? " " : "", m->ext.torch_needed[k]);
		add(s, SEC("torch extension"), "C++ ABI", torchext_abi_name(m->ext.abi));
		add(s, SEC("torch extension"), "torch libraries", b.len ? pt_strbuf_str(&b) : NULL);
		pt_strbuf_release(&b);
	}
#undef SEC
	free(key);
}

void snapshot_of_package(const struct package *p, struct snapshot *s)
{
	struct pt_strbuf b;

	s->is_package = true;
	s->kind = p->type == PKG_WHEEL ? "wheel" : p->type == PKG_CONDA ? "conda package" : "unpacked package";
	s->pkg_name = p->name ? pt_xstrdup(p->name) : NULL;
	s->pkg_version = p->version ? pt_xstrdup(p->version) : NULL;
	s->n_members = p->n_members;
	s->n_elf = p->n_elf;
	add(s, "metadata", "type", pkg_type_name(p->type));
	add(s, "metadata", "name", p->name);
	add(s, "metadata", "version", p->version);
	pt_strbuf_init(&b, 1u << 16);
	for (size_t i = 0; i < p->n_tags; i++)
		pt_strbuf_addf_trunc(&b, "%s%s", i ? ", " : "", p->tags[i]);
	add(s, "metadata", "tags", b.len ? pt_strbuf_str(&b) : NULL);
	pt_strbuf_release(&b);
	add(s, "metadata", "generator", p->generator);
	for (size_t i = 0; i < p->n_reqs; i++) {
		char key[300];

		pt_fmt_trunc(key, sizeof(key), "Requires-Dist %s", p->reqs[i].name);
		add(s, "metadata", key, p->reqs[i].spec);
	}
	for (size_t i = 0; i < p->n_members; i++) {
		const struct pkg_member *m = &p->members[i];
		char *key = member_key(m->name), *v;

		v = m->kind == PKGAR_SYMLINK ? pt_xasprintf("symlink -> %s", m->link ? m->link : "?")
					     : pt_xstrdup(kind_word(m->kind));
		add(s, "members", key, v);
		free(v);
		free(key);
	}
	if (p->n_elf)
		floor_facts(s, "floor", &p->floor, p->floor_member, p, p->have_pol ? &p->pol : NULL, NULL);
	add(s, "CUDA", "arch list", p->n_cuda ? p->arch_list : "no device code");
	if (p->n_cuda) {
		char n[32], *w = member_key(p->members[p->weakest].name);

		add(s, "CUDA", "weakest member", w);
		free(w);
		pt_fmt_trunc(n, sizeof(n), "%zu", p->n_cuda);
		add(s, "CUDA", "members with device code", n);
	}
	for (size_t i = 0; i < p->n_members; i++)
		if (p->members[i].is_elf)
			member_facts(s, &p->members[i]);
}

int snapshot_take_package(const char *path, const struct pkg_opts *o, struct snapshot *s,
			  struct pt_diag *d)
{
	struct package p;
	struct pt_diag tmp;
	int rc;

	memset(s, 0, sizeof(*s));
	s->path = pt_xstrdup(path);
	pt_diag_init(&tmp);
	rc = package_read(path, o, &p, &tmp);
	if (rc == 0 && !pt_diag_count(&tmp, PT_SEV_ERROR))
		snapshot_of_package(&p, s);
	else
		rc = -1;
	/* Only the errors: the package's problems are its facts. */
	for (size_t i = 0; i < tmp.n; i++)
		if (tmp.v[i].sev == PT_SEV_ERROR)
			pt_diag_add(d, PT_SEV_ERROR, tmp.v[i].file, tmp.v[i].where, "%s", tmp.v[i].what);
	pt_diag_release(&tmp);
	package_release(&p);
	return rc;
}

static int cmp_item(const struct snap_item *x, const struct snap_item *y)
{
	int r = strcmp(x->section, y->section);

	return r ? r : strcmp(x->key, y->key);
}

static int cmp_ptr(const void *a, const void *b)
{
	return cmp_item(*(const struct snap_item *const *)a, *(const struct snap_item *const *)b);
}

/* Pointers to s's items, sorted; the first of duplicate (section, key) pairs kept. */
static const struct snap_item **sorted(const struct snapshot *s, size_t *n)
{
	const struct snap_item **v = pt_xmalloc((s->n ? s->n : 1) * sizeof(*v));
	size_t w = 0;

	for (size_t i = 0; i < s->n; i++)
		v[i] = &s->v[i];
	qsort(v, s->n, sizeof(*v), cmp_ptr);
	for (size_t i = 0; i < s->n; i++)
		if (!w || cmp_item(v[w - 1], v[i]))
			v[w++] = v[i];
	*n = w;
	return v;
}

void snapshot_compare(const struct snapshot *a, const struct snapshot *b, struct snapshot_diff *out)
{
	size_t na, nb, i = 0, k = 0, alloc = 0;
	const struct snap_item **va = sorted(a, &na), **vb = sorted(b, &nb);

	memset(out, 0, sizeof(*out));
	while (i < na || k < nb) {
		int c = i >= na ? 1 : k >= nb ? -1 : cmp_item(va[i], vb[k]);
		const struct snap_item *x = c <= 0 ? va[i++] : NULL, *y = c >= 0 ? vb[k++] : NULL;

		if (x && y && !strcmp(x->value, y->value)) {
			out->n_equal++;
			continue;
		}
		PT_GROW(out->v, out->n, alloc);
		out->v[out->n++] = (struct diff_row){ x ? x->section : y->section, x ? x->key : y->key, x, y };
	}
	free(va);
	free(vb);
}

void snapshot_diff_release(struct snapshot_diff *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}
