/* auditwheel's manylinux/musllinux policies and its answers: see mlpolicy.h. */
#include "mlpolicy.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "strbuf.h"
#include "xalloc.h"

/* The generated file (inspect/elf/data/embed.cmake). */
extern const char mlpolicy_manylinux_json[];
extern const size_t mlpolicy_manylinux_json_len;
extern const char mlpolicy_musllinux_json[];
extern const size_t mlpolicy_musllinux_json_len;

const char *mlpolicy_builtin_json(enum mlpolicy_libc libc, size_t *len)
{
	if (libc == MLPOLICY_MUSL) {
		*len = mlpolicy_musllinux_json_len;
		return mlpolicy_musllinux_json;
	}
	*len = mlpolicy_manylinux_json_len;
	return mlpolicy_manylinux_json;
}

const char *mlpolicy_builtin_source(void)
{
	return "auditwheel 6.7.0 (Debian python3-auditwheel 6.7.0+ds1-2)";
}

static char **strarray(json_t *a, const char *prefix, size_t *n)
{
	char **v = NULL;
	size_t i;
	json_t *e;

	*n = 0;
	if (!json_is_array(a) || !json_array_size(a))
		return NULL;
	v = pt_xcalloc(json_array_size(a), sizeof(*v));
	json_array_foreach(a, i, e) {
		char buf[256];

		if (!json_is_string(e))
			continue;
		if (prefix)
			pt_fmt_trunc(buf, sizeof(buf), "%s_%s", prefix, json_string_value(e));
		else
			pt_fmt_trunc(buf, sizeof(buf), "%s", json_string_value(e));
		v[(*n)++] = pt_xstrdup(buf);
	}
	return v;
}

static void name_version(struct mlpolicy *p)
{
	const char *u = strchr(p->name, '_');
	int maj = 0, min = 0;

	/* "manylinux_2_17_x86_64", "musllinux_1_2_x86_64" */
	if (u && sscanf(u + 1, "%d_%d", &maj, &min) == 2) {
		p->glibc_major = maj;
		p->glibc_minor = min;
	}
}

static int prio_cmp(const void *a, const void *b)
{
	const struct mlpolicy *x = a, *y = b;

	return (y->priority > x->priority) - (y->priority < x->priority);
}

static void policy_free(struct mlpolicy *p)
{
	free(p->name);
	for (size_t i = 0; i < p->n_aliases; i++)
		free(p->aliases[i]);
	free(p->aliases);
	for (size_t f = 0; f < p->n_fam; f++) {
		free(p->fam[f].prefix);
		for (size_t i = 0; i < p->fam[f].n; i++)
			free(p->fam[f].versions[i]);
		free(p->fam[f].versions);
	}
	free(p->fam);
	for (size_t i = 0; i < p->n_whitelist; i++)
		free(p->whitelist[i]);
	free(p->whitelist);
}

int mlpolicy_load(struct mlpolicy_set *s, enum mlpolicy_libc libc, const char *arch,
		  const char *json, size_t len, const char *source, struct pt_diag *diag)
{
	json_error_t err;
	json_t *doc = json_loadb(json, len, 0, &err), *pj;
	size_t i, a = 0;
	bool listed = false;

	memset(s, 0, sizeof(*s));
	s->libc = libc;
	s->arch = pt_xstrdup(arch);
	s->source = source;
	if (!json_is_array(doc)) {
		pt_diag_add(diag, PT_SEV_ERROR, source, NULL, "not a policy list (%s, line %d)",
			    doc ? "not a JSON array" : err.text, err.line);
		json_decref(doc);
		return -1;
	}
	json_array_foreach(doc, i, pj) {
		const char *name = json_string_value(json_object_get(pj, "name"));
		json_t *sv = json_object_get(pj, "symbol_versions");
		json_t *fams = json_object_get(sv, arch);
		struct mlpolicy *p;
		char buf[256];
		const char *fk;
		json_t *fv;

		if (!name)
			continue;
		if (strcmp(name, "linux") && !json_is_object(fams))
			continue;
		listed |= strcmp(name, "linux") != 0;
		PT_GROW(s->v, s->n, a);
		p = &s->v[s->n++];
		memset(p, 0, sizeof(*p));
		pt_fmt_trunc(buf, sizeof(buf), "%s_%s", name, arch);
		p->name = pt_xstrdup(buf);
		p->priority = (int)json_integer_value(json_object_get(pj, "priority"));
		p->aliases = strarray(json_object_get(pj, "aliases"), NULL, &p->n_aliases);
		for (size_t k = 0; k < p->n_aliases; k++) {
			pt_fmt_trunc(buf, sizeof(buf), "%s_%s", p->aliases[k], arch);
			free(p->aliases[k]);
			p->aliases[k] = pt_xstrdup(buf);
		}
		p->whitelist = strarray(json_object_get(pj, "lib_whitelist"), NULL, &p->n_whitelist);
		name_version(p);
		if (!strcmp(name, "linux"))
			continue;
		p->fam = pt_xcalloc(json_object_size(fams) ? json_object_size(fams) : 1, sizeof(*p->fam));
		json_object_foreach(fams, fk, fv) {
			struct mlpolicy_family *f = &p->fam[p->n_fam++];

			f->prefix = pt_xstrdup(fk);
			f->versions = strarray(fv, fk, &f->n);
			if (f->n > 1)
				qsort(f->versions, f->n, sizeof(*f->versions), pt_cmp_strp);
		}
	}
	json_decref(doc);
	if (!listed) {
		pt_diag_add(diag, PT_SEV_ERROR, source, NULL, "no %s policy for architecture %s",
			    libc == MLPOLICY_MUSL ? "musllinux" : "manylinux", arch);
		mlpolicy_release(s);
		s->arch = NULL;
		return -1;
	}
	qsort(s->v, s->n, sizeof(*s->v), prio_cmp);
	/*
	 * Without a musl to ask (auditwheel's Libc.MUSL.get_current_version), auditwheel
	 * takes the newest musllinux policy it knows, the lowest priority but linux's.
	 */
	if (libc == MLPOLICY_MUSL && s->n > 2) {
		size_t keep = s->n - 2;	/* linux is last */

		for (size_t k = 0; k < s->n - 2; k++)
			policy_free(&s->v[k]);
		memmove(&s->v[0], &s->v[keep], 2 * sizeof(*s->v));
		s->n = 2;
	}
	return 0;
}

int mlpolicy_load_builtin(struct mlpolicy_set *s, enum mlpolicy_libc libc, const char *arch,
			  struct pt_diag *diag)
{
	size_t len;
	const char *j = mlpolicy_builtin_json(libc, &len);

	return mlpolicy_load(s, libc, arch, j, len, mlpolicy_builtin_source(), diag);
}

void mlpolicy_release(struct mlpolicy_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		policy_free(&s->v[i]);
	free(s->v);
	free(s->arch);
	memset(s, 0, sizeof(*s));
}

const struct mlpolicy *mlpolicy_find(const struct mlpolicy_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++) {
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
		for (size_t k = 0; k < s->v[i].n_aliases; k++)
			if (!strcmp(s->v[i].aliases[k], name))
				return &s->v[i];
	}
	return NULL;
}

/* The family of p whose prefix is v's (the part before the first '_'), or NULL. */
static const struct mlpolicy_family *family_of(const struct mlpolicy *p, const char *v)
{
	size_t l = strcspn(v, "_");

	for (size_t f = 0; f < p->n_fam; f++)
		if (strlen(p->fam[f].prefix) == l && !strncmp(p->fam[f].prefix, v, l))
			return &p->fam[f];
	return NULL;
}

/* The first version p does not allow, or NULL when p is satisfied. */
static const char *unmet(const struct mlpolicy *p, char *const *versions, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct mlpolicy_family *f = family_of(p, versions[i]);

		if (f && !(f->n && bsearch(&versions[i], f->versions, f->n, sizeof(char *), pt_cmp_strp)))
			return versions[i];
	}
	return NULL;
}

const struct mlpolicy *mlpolicy_implied(const struct mlpolicy_set *s, char *const *versions,
					size_t n, const char **blocking)
{
	const char *prev = NULL;

	for (size_t i = 0; i < s->n; i++) {
		const char *u = unmet(&s->v[i], versions, n);

		if (!u) {
			if (blocking)
				*blocking = prev;
			return &s->v[i];
		}
		prev = u;
	}
	/* No "linux" in the file: the lowest policy stands for it. */
	if (blocking)
		*blocking = NULL;
	return s->n ? &s->v[s->n - 1] : NULL;
}

bool mlpolicy_whitelisted(const struct mlpolicy *p, const char *soname)
{
	for (size_t i = 0; i < p->n_whitelist; i++)
		if (!strcmp(p->whitelist[i], soname))
			return true;
	return false;
}

/* "manylinux_2_19_x86_64" for arch: its glibc (2, 19); false when not that shape. */
static bool pep600(const char *tag, const char *family, const char *arch, int *maj, int *min)
{
	size_t lf = strlen(family);
	int n = 0;

	if (strncmp(tag, family, lf) || tag[lf] != '_')
		return false;
	if (sscanf(tag + lf + 1, "%d_%d_%n", maj, min, &n) != 2 || !n)
		return false;
	return !strcmp(tag + lf + 1 + n, arch);
}

size_t mlpolicy_check_claim(const struct mlpolicy_set *s, const struct mlpolicy *implied,
			    const char *platform_tag, struct mlpolicy_claim **out)
{
	const char *fam = s->libc == MLPOLICY_MUSL ? "musllinux" : "manylinux";
	const char *other = s->libc == MLPOLICY_MUSL ? "manylinux" : "musllinux";
	size_t n = 0, a = 0;

	*out = NULL;
	for (const char *p = platform_tag; p && *p;) {
		size_t l = strcspn(p, ".");
		struct mlpolicy_claim *c;
		int maj, min;
		size_t la = strlen(s->arch);

		if (!l) {
			p++;
			continue;
		}
		PT_GROW(*out, n, a);
		c = &(*out)[n++];
		memset(c, 0, sizeof(*c));
		c->tag = pt_xstrndup(p, l);
		p += l + (p[l] == '.');
		c->policy = mlpolicy_find(s, c->tag);
		if (c->policy) {
			c->ok = implied && c->policy->priority <= implied->priority;
			continue;
		}
		if (strlen(c->tag) <= la || strcmp(c->tag + strlen(c->tag) - la, s->arch) ||
		    c->tag[strlen(c->tag) - la - 1] != '_' || !strncmp(c->tag, other, strlen(other))) {
			c->other_arch = !strncmp(c->tag, fam, strlen(fam)) ||
					!strncmp(c->tag, other, strlen(other)) || !strncmp(c->tag, "linux_", 6);
			c->unknown = !c->other_arch;
			continue;
		}
		if (!pep600(c->tag, fam, s->arch, &maj, &min)) {
			c->unknown = true;
			continue;
		}
		/* A manylinux_X_Y the file does not list: compared by its glibc. */
		c->ok = implied && implied->priority > 0 &&
			(maj > implied->glibc_major ||
			 (maj == implied->glibc_major && min >= implied->glibc_minor));
	}
	return n;
}

void mlpolicy_claims_release(struct mlpolicy_claim *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(c[i].tag);
	free(c);
}

int mlpolicy_answer(const struct verfloor *f, const char *claimed, struct mlpolicy_answer *a,
		    struct pt_diag *diag)
{
	struct pt_diag d;

	memset(a, 0, sizeof(*a));
	if (!f->arch)
		return -1;
	pt_diag_init(&d);
	if (mlpolicy_load_builtin(&a->set, f->musl ? MLPOLICY_MUSL : MLPOLICY_GLIBC, f->arch, &d) != 0) {
		/* An architecture auditwheel has no policy for: a note, not a problem. */
		for (size_t i = 0; i < d.n; i++)
			pt_diag_add(diag, PT_SEV_NOTE, d.v[i].file, d.v[i].where, "%s", d.v[i].what);
		pt_diag_release(&d);
		return -1;
	}
	pt_diag_release(&d);
	a->implied = mlpolicy_implied(&a->set, f->versions, f->n_versions, &a->blocking);
	if (claimed && *claimed)
		a->n_claims = mlpolicy_check_claim(&a->set, a->implied, claimed, &a->claims);
	return 0;
}

void mlpolicy_answer_release(struct mlpolicy_answer *a)
{
	mlpolicy_claims_release(a->claims, a->n_claims);
	mlpolicy_release(&a->set);
	memset(a, 0, sizeof(*a));
}
