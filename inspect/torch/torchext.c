/* Which torch a C++ extension was built against: see torchext.h. */
#include "torchext.h"

#include <dirent.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "abiname.h"
#include "cmp.h"
#include "dynsym.h"
#include "mapguard.h"
#include "strbuf.h"
#include "xalloc.h"

const char *torchext_abi_name(enum torchext_abi a)
{
	switch (a) {
	case TORCHEXT_ABI_CXX11: return "cxx11";
	case TORCHEXT_ABI_OLD: return "old";
	case TORCHEXT_ABI_MIXED: return "mixed";
	default: return "none";
	}
}

/* An object's bytes (mapped from its descriptor, or its elfobj_open_mem buffer) and symbol table. */
struct table {
	const uint8_t *bytes;
	size_t len;
	void *map;
	struct dynsym t;
	bool ok;
};

static const uint8_t *section(const struct elfobj *o, const struct table *b, uint32_t type,
			      const char *name, size_t *len)
{
	for (size_t i = 0; i < o->n_sections; i++) {
		const struct elf_section *s = &o->sections[i];

		if (s->type != type || (name && strcmp(s->name, name)))
			continue;
		if (s->type == SHT_NOBITS || s->offset > b->len || s->size > b->len - s->offset)
			break;
		*len = s->size;
		return b->bytes + s->offset;
	}
	*len = 0;
	return NULL;
}

static int table_open(struct table *b, const struct elfobj *o, struct pt_diag *d)
{
	struct dynsym_sections s = { 0 };

	memset(b, 0, sizeof(*b));
	if (o->cls != ELFCLASS64) {
		pt_diag_add(d, PT_SEV_WARNING, o->path, NULL, "32-bit object: symbols not read");
		return -1;
	}
	if (o->mem) {
		b->bytes = o->mem;
		b->len = o->size;
	} else if (o->fd >= 0 && o->size) {
		b->map = mmap(NULL, o->size, PROT_READ, MAP_PRIVATE, o->fd, 0);
		if (b->map == MAP_FAILED) {
			b->map = NULL;
			pt_diag_add(d, PT_SEV_WARNING, o->path, NULL, "cannot map the file; symbols not read");
			return -1;
		}
		b->bytes = b->map;
		b->len = o->size;
	} else {
		return -1;
	}
	s.big_endian = o->data == ELFDATA2MSB;
	s.dynsym = section(o, b, SHT_DYNSYM, NULL, &s.dynsym_len);
	s.dynstr = section(o, b, SHT_STRTAB, ".dynstr", &s.dynstr_len);
	s.versym = section(o, b, SHT_GNU_versym, NULL, &s.versym_len);
	s.verdef = section(o, b, SHT_GNU_verdef, NULL, &s.verdef_len);
	s.verneed = section(o, b, SHT_GNU_verneed, NULL, &s.verneed_len);
	s.gnu_hash = section(o, b, SHT_GNU_HASH, NULL, &s.gnu_hash_len);
	b->ok = dynsym_init(&b->t, &s, o->path, d) == 0;
	return b->ok ? 0 : -1;
}

static void table_close(struct table *b, const struct elfobj *o)
{
	if (b->ok)
		dynsym_release(&b->t);
	if (b->map)
		munmap(b->map, o->size);
	memset(b, 0, sizeof(*b));
}

static bool torch_lib_name(const char *n)
{
	const char *b = strrchr(n, '/');

	b = b ? b + 1 : n;
	return !strncmp(b, "libc10", 6) || !strncmp(b, "libtorch", 8) || !strncmp(b, "libcaffe2", 9) ||
	       !strncmp(b, "libshm", 6);
}

/* A demangled name that uses the old std::string (basic_string<char ...> outside std::__cxx11). */
static bool old_string(const char *dm)
{
	for (const char *p = dm; (p = strstr(p, "basic_string<")); p++)
		if (p < dm + 8 || strncmp(p - 8, "__cxx11::", 8))
			if (p - dm < 9 || strncmp(p - 9, "__cxx11::", 9))
				return true;
	return strstr(dm, "std::string") != NULL;
}

/* The first string of a section that starts with prefix (a bounded scan of its bytes). */
static char *find_string(const struct elfobj *o, const struct table *b, const char *sec,
			 const char *prefix, bool last)
{
	size_t len, pl = strlen(prefix);
	const uint8_t *p = section(o, b, SHT_PROGBITS, sec, &len);
	char *found = NULL;

	for (size_t i = 0; p && i + pl <= len; i++) {
		const uint8_t *q;
		size_t l;

		if (p[i] != (uint8_t)prefix[0] || memcmp(p + i, prefix, pl))
			continue;
		q = memchr(p + i, '\0', len - i);
		l = q ? (size_t)(q - (p + i)) : len - i;
		free(found);
		found = pt_xstrndup((const char *)p + i, l < 200 ? l : 200);
		if (!last)
			break;
		i += l;
	}
	return found;
}

/* The extension's C++ names: the ABI counts and the torch symbols it needs. */
static __attribute__((noinline)) void read_syms(struct torchext *x, const struct table *tb)
{
	const struct table *bp = tb;
	size_t a = 0;

	for (size_t k = 1; k < bp->t.n_syms; k++) {
		struct dynsym_sym y;
		bool undef;
		char *dm;

		dynsym_get(&bp->t, k, &y);
		if (strncmp(y.name, "_Z", 2) || y.bind == STB_LOCAL)
			continue;
		undef = y.shndx == SHN_UNDEF;
		if (abiname_is_cxx11(y.name)) {
			x->n_cxx11++;
			if (!undef)
				continue;
		} else if (!undef && !strstr(y.name, "Ss")) {
			continue;
		}
		dm = abiname_demangle(y.name);
		if (dm && !abiname_is_cxx11(y.name) && old_string(dm))
			x->n_old++;
		if (dm && undef && y.bind != STB_WEAK && abiname_torch_ns(dm)) {
			PT_GROW(x->syms, x->n_torch_syms, a);
			x->syms[x->n_torch_syms++] = pt_xstrdup(y.name);
		}
		free(dm);
	}
}

int torchext_read(const struct elfobj *o, struct torchext *x, struct pt_diag *d)
{
	struct table b;
	struct pt_mapguard g;
	size_t na = 0;

	memset(x, 0, sizeof(*x));
	for (size_t i = 0; i < o->n_needed; i++)
		if (torch_lib_name(o->needed[i])) {
			PT_GROW(x->torch_needed, x->n_torch_needed, na);
			x->torch_needed[x->n_torch_needed++] = pt_xstrdup(o->needed[i]);
		}
	if (table_open(&b, o, d) != 0) {
		x->is_extension = x->n_torch_needed > 0;
		return -1;
	}
	if (PT_MAPGUARD_BEGIN(&g)) {
		elfobj_shrank(o, d);
		table_close(&b, o);
		return -1;
	}
	read_syms(x, &b);
	if (x->n_torch_syms > 1)
		qsort(x->syms, x->n_torch_syms, sizeof(*x->syms), pt_cmp_strp);
	x->abi = x->n_cxx11 && x->n_old ? TORCHEXT_ABI_MIXED
		 : x->n_cxx11		 ? TORCHEXT_ABI_CXX11
		 : x->n_old		 ? TORCHEXT_ABI_OLD
					 : TORCHEXT_ABI_NONE;
	x->pybind11_id = find_string(o, &b, ".rodata", "__pybind11_internals_v", false);
	x->gcc = find_string(o, &b, ".comment", "GCC: ", true);
	pt_mapguard_end(&g);
	table_close(&b, o);
	x->is_extension = x->n_torch_needed > 0 || x->n_torch_syms > 0;
	return 0;
}

void torchext_release(struct torchext *x)
{
	for (size_t i = 0; i < x->n_torch_needed; i++)
		free(x->torch_needed[i]);
	free(x->torch_needed);
	for (size_t i = 0; i < x->n_torch_syms; i++)
		free(x->syms[i]);
	free(x->syms);
	free(x->pybind11_id);
	free(x->gcc);
	memset(x, 0, sizeof(*x));
}

bool torchext_parse_tag(const char *version, struct torchext_tag *t)
{
	const char *p = version ? strchr(version, '+') : NULL;

	memset(t, 0, sizeof(*t));
	if (!p)
		return false;
	p++;
	/* "pt26cu124", "torch2.6.0cu124", "pt2.6.0+cpu" */
	for (const char *q = p; *q; q++) {
		const char *v = NULL;

		if (!strncmp(q, "torch", 5))
			v = q + 5;
		else if (!strncmp(q, "pt", 2))
			v = q + 2;
		if (v && *v >= '0' && *v <= '9') {
			size_t l = strspn(v, "0123456789.");

			if (!memchr(v, '.', l) && l >= 2)	/* "26" -> "2.6", "210" -> "2.10" */
				pt_fmt_trunc(t->torch, sizeof(t->torch), "%c.%.*s", v[0], (int)(l - 1), v + 1);
			else
				pt_fmt_trunc(t->torch, sizeof(t->torch), "%.*s", (int)l, v);
			q = v + l - 1;
			continue;
		}
		if (!strncmp(q, "cu", 2) && q[2] >= '0' && q[2] <= '9') {
			size_t l = strspn(q + 2, "0123456789");

			if (l >= 3)
				pt_fmt_trunc(t->cuda, sizeof(t->cuda), "%.*s.%.*s", (int)(l - 1), q + 2, 1,
					     q + 2 + l - 1);
			else
				pt_fmt_trunc(t->cuda, sizeof(t->cuda), "%.*s", (int)l, q + 2);
			q += 1 + l;
		} else if (!strncmp(q, "cpu", 3)) {
			pt_fmt_trunc(t->cuda, sizeof(t->cuda), "cpu");
			q += 2;
		}
	}
	return t->torch[0] || t->cuda[0];
}

/* torch/version.py's __version__ = '2.6.0+cpu'. */
static char *torch_version(const char *dir)
{
	char *p = pt_xasprintf("%s/version.py", dir), line[512], *v = NULL;
	FILE *f = fopen(p, "r");

	free(p);
	while (f && !v && fgets(line, sizeof(line), f)) {
		char *q;

		if (strncmp(line, "__version__", 11) || !(q = strpbrk(line, "'\"")))
			continue;
		char quote = *q++;
		char *e = strchr(q, quote);

		if (e)
			v = pt_xstrndup(q, (size_t)(e - q));
	}
	if (f)
		fclose(f);
	return v;
}

static bool lib_file(const char *n)
{
	size_t l = strlen(n);

	return !strncmp(n, "lib", 3) && (strstr(n, ".so.") || (l > 3 && !strcmp(n + l - 3, ".so")));
}

struct lib {
	struct elfobj o;
	struct table b;
	char *name;
};

/* The libraries to look in: DIR/lib/lib*.so* (a site-packages torch), else DIR/lib*.so*. */
static __attribute__((noinline)) size_t open_libs(const char *torch_dir, struct lib **out, struct pt_diag *d)
{
	char *libdir = pt_xasprintf("%s/lib", torch_dir);
	DIR *dp = opendir(libdir);
	struct lib *v = NULL;
	size_t n = 0, a = 0;
	char **names = NULL;
	size_t nn = 0, an = 0;
	struct dirent *e;

	if (!dp) {
		free(libdir);
		libdir = pt_xstrdup(torch_dir);
		dp = opendir(libdir);
	}
	while (dp && (e = readdir(dp))) {
		if (!lib_file(e->d_name))
			continue;
		PT_GROW(names, nn, an);
		names[nn++] = pt_xstrdup(e->d_name);
	}
	if (dp)
		closedir(dp);
	if (nn > 1)
		qsort(names, nn, sizeof(*names), pt_cmp_strp);
	for (size_t i = 0; i < nn; i++) {
		char *path = pt_xasprintf("%s/%s", libdir, names[i]);
		struct pt_diag q;
		struct lib *l;

		PT_GROW(v, n, a);
		l = &v[n];
		memset(l, 0, sizeof(*l));
		pt_diag_init(&q);
		if (elfobj_open(&l->o, path, &q) == 0 && table_open(&l->b, &l->o, &q) == 0) {
			l->name = names[i];
			names[i] = NULL;
			n++;
		} else {
			elfobj_release(&l->o);
		}
		pt_diag_release(&q);
		free(path);
		free(names[i]);
	}
	free(names);
	free(libdir);
	(void)d;
	*out = v;
	return n;
}

/* For each missing symbol a defined twin of the other ABI (abiname.h), as bindcheck does. */
static void twins(struct lib *L, size_t nl, struct torchext_against *a)
{
	char **norm = pt_xcalloc(a->n_missing ? a->n_missing : 1, sizeof(*norm));
	size_t *off = pt_xcalloc(a->n_missing ? a->n_missing : 1, sizeof(*off));
	size_t *len = pt_xcalloc(a->n_missing ? a->n_missing : 1, sizeof(*len));

	for (size_t m = 0; m < a->n_missing; m++) {
		len[m] = abiname_key(a->missing[m].name, &off[m]);
		norm[m] = abiname_normalise(a->missing[m].demangled ? a->missing[m].demangled
								 : a->missing[m].name);
	}
	for (size_t j = 0; j < nl; j++) {
		const struct dynsym *t = &L[j].b.t;

		for (size_t s = 1; s < t->n_syms; s++) {
			struct dynsym_sym y;
			size_t yo, yl;
			char *dm = NULL, *yn = NULL;

			dynsym_get(t, s, &y);
			if (y.shndx == SHN_UNDEF || y.bind == STB_LOCAL || strncmp(y.name, "_Z", 2))
				continue;
			yl = abiname_key(y.name, &yo);
			for (size_t m = 0; m < a->n_missing; m++) {
				struct torchext_missing *x = &a->missing[m];

				if (x->twin || !len[m] || yl != len[m] ||
				    memcmp(y.name + yo, x->name + off[m], yl) ||
				    abiname_is_cxx11(y.name) == abiname_is_cxx11(x->name))
					continue;
				if (!yn) {
					dm = abiname_demangle(y.name);
					yn = abiname_normalise(dm ? dm : y.name);
				}
				if (!strcmp(yn, norm[m])) {
					x->twin = pt_xstrdup(y.name);
					x->twin_lib = pt_xstrdup(L[j].name);
					a->n_twins++;
				}
			}
			free(dm);
			free(yn);
		}
	}
	for (size_t m = 0; m < a->n_missing; m++)
		free(norm[m]);
	free(norm);
	free(off);
	free(len);
}

/* x's torch symbols in the libraries L, and the ABI of the names libc10 exports. */
static __attribute__((noinline)) void lookup(const struct torchext *x, struct lib *L, size_t nl,
					     struct torchext_against *a)
{
	size_t am = 0, c11 = 0, old = 0;

	for (size_t i = 0; i < x->n_torch_syms; i++) {
		uint32_t h = dynsym_hash(x->syms[i]);
		bool found = false;

		a->n_checked++;
		for (size_t j = 0; j < nl && !found; j++)
			found = dynsym_find(&L[j].b.t, x->syms[i], h, NULL) != 0;
		if (found)
			continue;
		PT_GROW(a->missing, a->n_missing, am);
		memset(&a->missing[a->n_missing], 0, sizeof(*a->missing));
		a->missing[a->n_missing].name = pt_xstrdup(x->syms[i]);
		a->missing[a->n_missing].demangled = abiname_demangle(x->syms[i]);
		a->n_missing++;
	}
	/* The ABI torch was built with: the C++ names its c10 library exports. */
	for (size_t j = 0; j < nl; j++) {
		const struct dynsym *t = &L[j].b.t;

		if (strncmp(L[j].name, "libc10.", 7))
			continue;
		for (size_t s = 1; s < t->n_syms; s++) {
			struct dynsym_sym y;

			dynsym_get(t, s, &y);
			if (y.shndx == SHN_UNDEF || strncmp(y.name, "_Z", 2))
				continue;
			if (abiname_is_cxx11(y.name))
				c11++;
			else if (strstr(y.name, "Ss"))
				old++;
		}
	}
	a->torch_abi = c11 ? TORCHEXT_ABI_CXX11 : old ? TORCHEXT_ABI_OLD : TORCHEXT_ABI_NONE;
}

int torchext_against(const struct torchext *x, const char *torch_dir, struct torchext_against *a,
		     struct pt_diag *d)
{
	struct lib *L = NULL;
	size_t nl;
	struct pt_mapguard g;

	memset(a, 0, sizeof(*a));
	a->torch_dir = pt_xstrdup(torch_dir);
	a->version = torch_version(torch_dir);
	nl = open_libs(torch_dir, &L, d);
	if (!nl) {
		pt_diag_add(d, PT_SEV_ERROR, torch_dir, NULL,
			    "no torch library to check against (neither %s/lib/lib*.so nor %s/lib*.so)",
			    torch_dir, torch_dir);
		free(L);
		return -1;
	}
	a->libs = pt_xcalloc(nl, sizeof(*a->libs));
	for (size_t j = 0; j < nl; j++)
		a->libs[a->n_libs++] = pt_xstrdup(L[j].name);
	if (PT_MAPGUARD_BEGIN(&g)) {
		pt_diag_add(d, PT_SEV_ERROR, torch_dir, NULL, "a library was truncated while it was read");
		goto out;
	}
	lookup(x, L, nl, a);
	if (a->n_missing)
		twins(L, nl, a);
	pt_mapguard_end(&g);
out:
	for (size_t j = 0; j < nl; j++) {
		table_close(&L[j].b, &L[j].o);
		elfobj_release(&L[j].o);
		free(L[j].name);
	}
	free(L);
	return 0;
}

void torchext_against_release(struct torchext_against *a)
{
	free(a->torch_dir);
	free(a->version);
	for (size_t i = 0; i < a->n_libs; i++)
		free(a->libs[i]);
	free(a->libs);
	for (size_t i = 0; i < a->n_missing; i++) {
		free(a->missing[i].name);
		free(a->missing[i].demangled);
		free(a->missing[i].twin);
		free(a->missing[i].twin_lib);
	}
	free(a->missing);
	memset(a, 0, sizeof(*a));
}
