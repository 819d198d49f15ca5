/* Dynamic symbol tables as ld.so looks symbols up; see dynsym.h. */
#include "dynsym.h"

#include <elf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "xalloc.h"

uint32_t dynsym_hash(const char *name)
{
	return (uint32_t)elf_gnu_hash(name);
}

/* A NUL-terminated name at off inside dynstr, or NULL. */
static const char *str_at(const struct dynsym *t, uint64_t off)
{
	if (off >= t->s.dynstr_len || !memchr(t->s.dynstr + off, '\0', t->s.dynstr_len - off))
		return NULL;
	return (const char *)t->s.dynstr + off;
}

static void set_ver(struct dynsym *t, size_t idx, const char *name, const char *file, bool weak)
{
	if (idx >= 0x8000)
		return;
	if (idx >= t->n_ver) {
		size_t n = idx + 1;

		PT_GROW(t->ver, idx, t->a_ver);
		memset(t->ver + t->n_ver, 0, (n - t->n_ver) * sizeof(*t->ver));
		t->n_ver = n;
	}
	t->ver[idx].name = name;
	t->ver[idx].file = file;
	t->ver[idx].weak = weak;
}

/* Verdef: vd_ndx -> its first Verdaux name (the base entry included: index 1). */
static void read_verdef(struct dynsym *t, const char *file, struct pt_diag *d)
{
	const uint8_t *b = t->s.verdef;
	size_t len = t->s.verdef_len, off = 0;
	bool be = t->s.big_endian;

	for (size_t guard = 0; b && off + 20 <= len && guard < 65536; guard++) {
		uint16_t flags = pt_rd16(b + off + 2, be), ndx = pt_rd16(b + off + 4, be);
		uint32_t aux = pt_rd32(b + off + 12, be), next = pt_rd32(b + off + 16, be);

		if (pt_rd16(b + off, be) != 1) {
			pt_diag_add(d, PT_SEV_WARNING, file, ".gnu.version_d",
				    "record at offset %zu has version %u, not 1; version names ignored",
				    off, pt_rd16(b + off, be));
			return;
		}
		if (aux && off + aux + 8 <= len && off + aux >= off) {
			const char *nm = str_at(t, pt_rd32(b + off + aux, be));

			if (nm && !(flags & VER_FLG_BASE))
				set_ver(t, ndx, nm, NULL, false);
		}
		if (!next)
			return;
		if (off + next < off || next < 20) {
			pt_diag_add(d, PT_SEV_WARNING, file, ".gnu.version_d",
				    "record at offset %zu: next offset %u is bad", off, next);
			return;
		}
		off += next;
	}
}

/* Verneed: each Vernaux's vna_other -> its name and the provider's file. */
static void read_verneed(struct dynsym *t, const char *file, struct pt_diag *d)
{
	const uint8_t *b = t->s.verneed;
	size_t len = t->s.verneed_len, off = 0;
	bool be = t->s.big_endian;

	for (size_t guard = 0; b && off + 16 <= len && guard < 65536; guard++) {
		uint16_t cnt = pt_rd16(b + off + 2, be);
		const char *vfile = str_at(t, pt_rd32(b + off + 4, be));
		uint32_t aux = pt_rd32(b + off + 8, be), next = pt_rd32(b + off + 12, be);
		size_t a = off + aux;

		if (pt_rd16(b + off, be) != 1) {
			pt_diag_add(d, PT_SEV_WARNING, file, ".gnu.version_r",
				    "record at offset %zu has version %u, not 1; requirements ignored",
				    off, pt_rd16(b + off, be));
			return;
		}
		for (uint16_t k = 0; k < cnt && aux && a >= off && a + 16 <= len; k++) {
			uint16_t flags = pt_rd16(b + a + 4, be), other = pt_rd16(b + a + 6, be);
			const char *nm = str_at(t, pt_rd32(b + a + 8, be));
			uint32_t an = pt_rd32(b + a + 12, be);

			if (nm)
				set_ver(t, other, nm, vfile, flags & VER_FLG_WEAK);
			if (!an || a + an < a)
				break;
			a += an;
		}
		if (!next)
			return;
		if (off + next < off || next < 16) {
			pt_diag_add(d, PT_SEV_WARNING, file, ".gnu.version_r",
				    "record at offset %zu: next offset %u is bad", off, next);
			return;
		}
		off += next;
	}
}

static bool read_gnu_hash(struct dynsym *t)
{
	const uint8_t *b = t->s.gnu_hash;
	size_t len = t->s.gnu_hash_len;
	bool be = t->s.big_endian;
	uint64_t need;

	if (!b || len < 16)
		return false;
	t->nbuckets = pt_rd32(b, be);
	t->symoffset = pt_rd32(b + 4, be);
	t->bloom_size = pt_rd32(b + 8, be);
	t->bloom_shift = pt_rd32(b + 12, be);
	need = 16 + (uint64_t)t->bloom_size * 8 + (uint64_t)t->nbuckets * 4;
	if (!t->nbuckets || !t->bloom_size || (t->bloom_size & (t->bloom_size - 1)) ||
	    t->bloom_shift >= 64 || need > len || t->symoffset > t->n_syms)
		return false;
	t->bloom = b + 16;
	t->buckets = t->bloom + (size_t)t->bloom_size * 8;
	t->chains = t->buckets + (size_t)t->nbuckets * 4;
	t->n_chains = (len - (size_t)need) / 4;
	return true;
}

static int by_name(const void *a, const void *b, void *ctx)
{
	struct dynsym_sym x, y;

	dynsym_get(ctx, *(const uint32_t *)a, &x);
	dynsym_get(ctx, *(const uint32_t *)b, &y);
	return strcmp(x.name, y.name);
}

int dynsym_init(struct dynsym *t, const struct dynsym_sections *s, const char *file,
		struct pt_diag *d)
{
	memset(t, 0, sizeof(*t));
	t->s = *s;
	if (!s->dynsym || !s->dynstr || s->dynsym_len < 24) {
		pt_diag_add(d, PT_SEV_WARNING, file, ".dynsym", "no dynamic symbol table");
		return -1;
	}
	t->n_syms = s->dynsym_len / 24;
	if (s->versym && s->versym_len < t->n_syms * 2) {
		pt_diag_add(d, PT_SEV_WARNING, file, ".gnu.version",
			    "%zu bytes for %zu symbols; versions ignored", s->versym_len, t->n_syms);
		t->s.versym = NULL;
	}
	read_verdef(t, file, d);
	read_verneed(t, file, d);
	if (!read_gnu_hash(t)) {
		if (s->gnu_hash)
			pt_diag_add(d, PT_SEV_WARNING, file, ".gnu.hash",
				    "header does not fit the section; looked up by a sorted table");
		t->nbuckets = 0;
		t->sorted = pt_xcalloc(t->n_syms, sizeof(*t->sorted));
		for (size_t i = 1; i < t->n_syms; i++) {
			struct dynsym_sym y;

			dynsym_get(t, i, &y);
			if (y.shndx != SHN_UNDEF && y.name[0])
				t->sorted[t->n_sorted++] = (uint32_t)i;
		}
		qsort_r(t->sorted, t->n_sorted, sizeof(*t->sorted), by_name, t);
	}
	return 0;
}

void dynsym_release(struct dynsym *t)
{
	free(t->ver);
	free(t->sorted);
	memset(t, 0, sizeof(*t));
}

void dynsym_get(const struct dynsym *t, size_t i, struct dynsym_sym *out)
{
	const uint8_t *p = t->s.dynsym + i * 24;
	bool be = t->s.big_endian;
	const char *nm = str_at(t, pt_rd32(p, be));

	out->name = nm ? nm : "";
	out->bind = p[4] >> 4;
	out->type = p[4] & 0xf;
	out->vis = p[5] & 3;
	out->shndx = pt_rd16(p + 6, be);
	out->value = pt_rd64(p + 8, be);
	if (t->s.versym) {
		uint16_t v = pt_rd16(t->s.versym + i * 2, be);

		out->ver = v & 0x7fff;
		out->hidden = v & 0x8000;
	} else {
		out->ver = 1;
		out->hidden = false;
	}
}

static const char *ver_name(const struct dynsym *t, uint16_t v)
{
	return v < t->n_ver ? t->ver[v].name : NULL;
}

/*
 * check_match of elf/dl-lookup.c. Returns 1 for a match, 0 for none, 2 for
 * "a default version, usable by an unversioned reference if it is the only one".
 */
static int match(const struct dynsym *t, size_t i, const char *name, const char *version)
{
	struct dynsym_sym y;
	const char *vn;

	dynsym_get(t, i, &y);
	if (y.shndx == SHN_UNDEF || (y.value == 0 && y.type != STT_TLS && y.shndx != SHN_ABS))
		return 0;
	if (y.type != STT_NOTYPE && y.type != STT_OBJECT && y.type != STT_FUNC &&
	    y.type != STT_COMMON && y.type != STT_TLS && y.type != STT_GNU_IFUNC)
		return 0;
	if (y.bind != STB_GLOBAL && y.bind != STB_WEAK && y.bind != STB_GNU_UNIQUE)
		return 0;
	if (y.vis == STV_HIDDEN || y.vis == STV_INTERNAL || strcmp(y.name, name))
		return 0;
	if (!t->s.versym)
		return 1;
	vn = ver_name(t, y.ver);
	if (version) {
		if (vn && !strcmp(vn, version))
			return 1;
		/* An unversioned definition (index 0/1) serves a versioned reference unless hidden. */
		return y.ver <= 1 && !y.hidden;
	}
	if (y.ver <= 2 || !vn)
		return 1;
	return y.hidden ? 0 : 2;
}

size_t dynsym_find(const struct dynsym *t, const char *name, uint32_t h, const char *version)
{
	size_t only = 0, n_default = 0;

	if (t->nbuckets) {
		bool be = t->s.big_endian;
		uint64_t word = pt_rd64(t->bloom + ((h / 64) & (t->bloom_size - 1)) * 8, be);
		/* glibc shifts a 64-bit uint_fast32_t: a shift of 32-63 gives 0, never UB. */
		uint64_t mask = (1ull << (h % 64)) | (1ull << (((uint64_t)h >> t->bloom_shift) % 64));
		uint32_t i;

		if ((word & mask) != mask)
			return 0;
		i = pt_rd32(t->buckets + (h % t->nbuckets) * 4, be);
		if (i < t->symoffset || i >= t->n_syms)
			return 0;
		for (; i < t->n_syms && i - t->symoffset < t->n_chains; i++) {
			uint32_t c = pt_rd32(t->chains + (size_t)(i - t->symoffset) * 4, be);

			if ((c | 1) == (h | 1)) {
				int m = match(t, i, name, version);

				if (m == 1)
					return i;
				if (m == 2 && !n_default++)
					only = i;
			}
			if (c & 1)
				break;
		}
		return n_default == 1 ? only : 0;
	}
	{
		size_t lo = 0, hi = t->n_sorted;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			struct dynsym_sym y;

			dynsym_get(t, t->sorted[mid], &y);
			if (strcmp(y.name, name) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < t->n_sorted; lo++) {
			struct dynsym_sym y;
			int m;

			dynsym_get(t, t->sorted[lo], &y);
			if (strcmp(y.name, name))
				break;
			m = match(t, t->sorted[lo], name, version);
			if (m == 1)
				return t->sorted[lo];
			if (m == 2 && !n_default++)
				only = t->sorted[lo];
		}
	}
	return n_default == 1 ? only : 0;
}

size_t dynsym_mark_relocs(const uint8_t *rel, size_t len, bool rela, bool big_endian, bool *used,
			  size_t n)
{
	const size_t ent = rela ? 24 : 16;	/* Elf64_Rela, Elf64_Rel */
	size_t count = 0;

	if (!rel)
		return 0;
	for (size_t off = 0; len - off >= ent; off += ent, count++) {
		/* r_info's high 32 bits: ELF64_R_SYM. */
		uint64_t sym = pt_rd64(rel + off + 8, big_endian) >> 32;

		if (sym && sym < n)
			used[sym] = true;
	}
	return count;
}
