/* `ldd -r` without running: see bindcheck.h. */
#include "bindcheck.h"

#include <ctype.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "abiname.h"
#include "dynsym.h"
#include "elfobj.h"
#include "mapguard.h"
#include "strbuf.h"
#include "xalloc.h"

struct loaded {
	struct elfobj o;
	void *map;
	size_t map_len;
	struct dynsym t;
	bool ok;
	bool *used;	/* per symbol: a dynamic relocation names it; NULL: none found, all count */
};

/* The bytes of the first section of this type (and name, when given), inside the file. */
static const uint8_t *section(const struct loaded *l, uint32_t type, const char *name, size_t *len)
{
	for (size_t i = 0; i < l->o.n_sections; i++) {
		const struct elf_section *s = &l->o.sections[i];

		if (s->type != type || (name && strcmp(s->name, name)))
			continue;
		if (s->offset > l->map_len || s->size > l->map_len - s->offset)
			return NULL;
		*len = s->size;
		return (const uint8_t *)l->map + s->offset;
	}
	*len = 0;
	return NULL;
}

/*
 * The symbols the relocation sections against .dynsym name (.rela.dyn,
 * .rela.plt): the only ones ld.so binds. An object with none keeps used
 * NULL, and every undefined symbol counts, as before this was read.
 */
static void mark_relocated(struct loaded *l)
{
	const struct elf_section *dynsym = NULL;
	bool any = false;

	for (size_t i = 0; i < l->o.n_sections && !dynsym; i++)
		if (l->o.sections[i].type == SHT_DYNSYM)
			dynsym = &l->o.sections[i];
	if (!dynsym)
		return;
	l->used = pt_xcalloc(l->t.n_syms ? l->t.n_syms : 1, sizeof(*l->used));
	for (size_t i = 0; i < l->o.n_sections; i++) {
		const struct elf_section *s = &l->o.sections[i];

		if ((s->type != SHT_RELA && s->type != SHT_REL) || s->link != dynsym->index ||
		    s->offset > l->map_len || s->size > l->map_len - s->offset)
			continue;
		dynsym_mark_relocs((const uint8_t *)l->map + s->offset, s->size, s->type == SHT_RELA,
				   l->o.data == ELFDATA2MSB, l->used, l->t.n_syms);
		any = true;
	}
	if (!any) {
		free(l->used);
		l->used = NULL;
	}
}

static void load(struct loaded *l, const char *path, struct pt_diag *d)
{
	struct dynsym_sections s = { 0 };
	struct pt_mapguard g;

	memset(l, 0, sizeof(*l));
	if (elfobj_open(&l->o, path, d) != 0)
		return;
	if (l->o.cls != ELFCLASS64) {
		pt_diag_add(d, PT_SEV_WARNING, path, NULL, "32-bit object: symbols not checked");
		return;
	}
	if (l->o.fd < 0 || !l->o.size)
		return;
	l->map_len = l->o.size;
	l->map = mmap(NULL, l->map_len, PROT_READ, MAP_PRIVATE, l->o.fd, 0);
	if (l->map == MAP_FAILED) {
		l->map = NULL;
		pt_diag_add(d, PT_SEV_WARNING, path, NULL, "cannot map the file; symbols not checked");
		return;
	}
	if (PT_MAPGUARD_BEGIN(&g)) {
		elfobj_shrank(&l->o, d);
		return;
	}
	s.big_endian = l->o.data == ELFDATA2MSB;
	s.dynsym = section(l, SHT_DYNSYM, NULL, &s.dynsym_len);
	s.dynstr = section(l, SHT_STRTAB, ".dynstr", &s.dynstr_len);
	s.versym = section(l, SHT_GNU_versym, NULL, &s.versym_len);
	s.verdef = section(l, SHT_GNU_verdef, NULL, &s.verdef_len);
	s.verneed = section(l, SHT_GNU_verneed, NULL, &s.verneed_len);
	s.gnu_hash = section(l, SHT_GNU_HASH, NULL, &s.gnu_hash_len);
	l->ok = dynsym_init(&l->t, &s, path, d) == 0;
	if (l->ok)
		mark_relocated(l);
	pt_mapguard_end(&g);
}

static void unload(struct loaded *l)
{
	if (l->ok)
		dynsym_release(&l->t);
	free(l->used);
	if (l->map)
		munmap(l->map, l->map_len);
	elfobj_release(&l->o);
}

char *bindcheck_abi_definition(const char *path, const char *demangled, struct pt_diag *d)
{
	struct loaded l;
	char *want = abiname_normalise(demangled), *found = NULL;
	const char *last = NULL, *p;
	size_t last_len = 0;
	char needle[256];

	/* The name's last identifier before its parameters, to skip most symbols unread. */
	p = strchr(demangled, '(');
	if (p) {
		const char *e = p, *b;

		while (e > demangled && (e[-1] == ' ' || e[-1] == '>' || e[-1] == ']'))
			e--;
		b = e;
		while (b > demangled && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		last = b;
		last_len = (size_t)(e - b);
	}
	if (last_len >= sizeof(needle) - 8)
		last_len = 0;
	if (last_len)
		(void)pt_fmt_trunc(needle, sizeof(needle), "%zu%.*s", last_len, (int)last_len, last);
	load(&l, path, d);
	if (l.ok) {
		for (size_t k = 0; k < l.t.n_syms && !found; k++) {
			struct dynsym_sym y;
			char *dm, *norm;

			dynsym_get(&l.t, k, &y);
			if (y.shndx == SHN_UNDEF || y.bind == STB_LOCAL || strncmp(y.name, "_Z", 2))
				continue;
			if (last_len && !strstr(y.name, needle))
				continue;
			if (!(dm = abiname_demangle(y.name)))
				continue;
			norm = abiname_normalise(dm);
			if (!strcmp(norm, want) && strcmp(dm, demangled))
				found = dm;
			else
				free(dm);
			free(norm);
		}
	}
	unload(&l);
	free(want);
	return found;
}

struct key {
	const char *mangled;
	size_t off, len;	/* abiname_key */
	size_t undef;		/* index into r->v */
	char *norm;		/* normalised demangled name, or NULL until needed */
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->mangled + x->off, y->mangled + y->off, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static bool is_torch_lib(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	return !strncmp(b, "libc10", 6) || !strncmp(b, "libtorch", 8);
}

/* For each undefined C++ symbol, a defined twin of the other ABI; then the torch ones without. */
static void find_twins(struct loaded *L, const char *const *paths, size_t n,
		       struct bindcheck_result *r)
{
	struct key *k = pt_xcalloc(r->n, sizeof(*k));
	size_t nk = 0;
	bool torch = false;

	for (size_t i = 0; i < r->n; i++)
		if (!strncmp(r->v[i].name, "_Z", 2)) {
			k[nk].mangled = r->v[i].name;
			k[nk].len = abiname_key(r->v[i].name, &k[nk].off);
			k[nk].undef = i;
			nk++;
		}
	qsort(k, nk, sizeof(*k), key_cmp);
	for (size_t j = 0; j < n && nk; j++) {
		const struct dynsym *t = &L[j].t;

		if (!L[j].ok)
			continue;
		for (size_t s = 1; s < t->n_syms; s++) {
			struct dynsym_sym y;
			struct key probe, *hit;
			char *dm = NULL, *norm = NULL;
			bool cx;

			dynsym_get(t, s, &y);
			if (y.shndx == SHN_UNDEF || y.bind == STB_LOCAL || strncmp(y.name, "_Z", 2))
				continue;
			probe.mangled = y.name;
			probe.len = abiname_key(y.name, &probe.off);
			hit = bsearch(&probe, k, nk, sizeof(*k), key_cmp);
			if (!hit)
				continue;
			while (hit > k && !key_cmp(hit - 1, &probe))
				hit--;
			cx = abiname_is_cxx11(y.name);
			for (; hit < k + nk && !key_cmp(hit, &probe); hit++) {
				struct bindcheck_undef *u = &r->v[hit->undef];

				if (u->twin || abiname_is_cxx11(u->name) == cx)
					continue;
				if (!hit->norm) {
					char *ud = abiname_demangle(u->name);

					hit->norm = abiname_normalise(ud ? ud : u->name);
					free(ud);
				}
				if (!norm) {
					dm = abiname_demangle(y.name);
					norm = abiname_normalise(dm ? dm : y.name);
				}
				if (!strcmp(norm, hit->norm)) {
					u->twin = pt_xstrdup(y.name);
					u->twin_obj = j;
					u->user_cxx11 = !cx;
					r->n_abi++;
				}
			}
			free(dm);
			free(norm);
		}
	}
	for (size_t i = 0; i < nk; i++)
		free(k[i].norm);
	free(k);
	for (size_t j = 0; j < n && !torch; j++)
		torch = is_torch_lib(paths[j]);
	for (size_t i = 0; i < r->n && torch; i++) {
		char *dm;

		if (r->v[i].twin || !(dm = abiname_demangle(r->v[i].name)))
			continue;
		r->v[i].torch_gone = abiname_torch_ns(dm);
		r->n_torch_gone += r->v[i].torch_gone;
		free(dm);
	}
}

int bindcheck_run(const char *const *paths, size_t n, struct bindcheck_result *r,
		  struct pt_diag *d)
{
	struct pt_mapguard g;
	struct loaded *L = pt_xcalloc(n ? n : 1, sizeof(*L));
	size_t alloc = 0;

	memset(r, 0, sizeof(*r));
	r->unread = pt_xcalloc(n ? n : 1, sizeof(*r->unread));
	for (size_t i = 0; i < n; i++) {
		load(&L[i], paths[i], d);
		r->unread[i] = !L[i].ok;
		r->n_objs_read += L[i].ok;
	}
	if (PT_MAPGUARD_BEGIN(&g)) {
		/* A mapping shrank under the lookups: say which file, give up the check. */
		for (size_t i = 0; i < n; i++) {
			struct stat st;

			if (L[i].ok && fstat(L[i].o.fd, &st) == 0 && (uint64_t)st.st_size < L[i].map_len)
				elfobj_shrank(&L[i].o, d);
		}
		for (size_t i = 0; i < n; i++)
			unload(&L[i]);
		free(L);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct dynsym *t = &L[i].t;

		if (!L[i].ok)
			continue;
		for (size_t k = 1; k < t->n_syms; k++) {
			struct dynsym_sym y;
			const struct dynsym_version *v = NULL;
			const char *ver = NULL;
			uint32_t h;
			bool found = false;

			dynsym_get(t, k, &y);
			if (y.shndx != SHN_UNDEF || y.bind == STB_WEAK || y.bind == STB_LOCAL || !y.name[0])
				continue;
			if (L[i].used && !L[i].used[k])
				continue;	/* no relocation names it: ld.so never looks it up */
			if (y.ver >= 2 && y.ver < t->n_ver && t->ver[y.ver].name) {
				v = &t->ver[y.ver];
				ver = v->name;
			}
			r->n_refs++;
			h = dynsym_hash(y.name);
			for (size_t j = 0; j < n && !found; j++)
				found = L[j].ok && dynsym_find(&L[j].t, y.name, h, ver) != 0;
			if (found)
				continue;
			PT_GROW(r->v, r->n, alloc);
			r->v[r->n].obj = i;
			r->v[r->n].name = pt_xstrdup(y.name);
			r->v[r->n].version = ver ? pt_xstrdup(ver) : NULL;
			r->v[r->n].version_file = v && v->file ? pt_xstrdup(v->file) : NULL;
			r->v[r->n].twin = NULL;
			r->v[r->n].twin_obj = 0;
			r->v[r->n].user_cxx11 = false;
			r->v[r->n].torch_gone = false;
			r->n++;
		}
	}
	if (r->n)
		find_twins(L, paths, n, r);
	pt_mapguard_end(&g);
	for (size_t i = 0; i < n; i++)
		unload(&L[i]);
	free(L);
	return n && !r->n_objs_read ? -1 : 0;
}

void bindcheck_release(struct bindcheck_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].version);
		free(r->v[i].version_file);
		free(r->v[i].twin);
	}
	free(r->v);
	free(r->unread);
	memset(r, 0, sizeof(*r));
}
