/* Symbol-version records and the post-load check; see symver.h. */
#include "symver.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "strbuf.h"
#include "xalloc.h"

/* A NUL-terminated string at off inside the table (strtab holds [base, strsz)), or NULL. */
static const char *str_at(const char *strtab, size_t base, size_t strsz, uint32_t off)
{
	if (!strtab || off < base || off >= strsz ||
	    !memchr(strtab + (off - base), '\0', strsz - off))
		return NULL;
	return strtab + (off - base);
}

static void bad(struct pt_diag *d, const char *file, const char *sec, size_t off, const char *what)
{
	char where[64];

	pt_fmt_trunc(where, sizeof(where), "%s offset 0x%zx", sec, off);
	pt_diag_add(d, PT_SEV_WARNING, file, where, "%s", what);
}

size_t symver_parse_verneed(const uint8_t *buf, size_t len, size_t count, bool be,
			    const char *strtab, size_t strsz, struct elf_verneed **out,
			    size_t *n_out, const char *file, struct pt_diag *diag)
{
	return symver_parse_verneed_at(buf, len, count, be, strtab, 0, strsz, out, n_out, file,
				       diag);
}

size_t symver_parse_verneed_at(const uint8_t *buf, size_t len, size_t count, bool be,
			       const char *strtab, size_t base, size_t strsz,
			       struct elf_verneed **out, size_t *n_out, const char *file,
			       struct pt_diag *diag)
{
	struct elf_verneed *v = NULL;
	size_t n = 0, alloc = 0, off = 0;

	/* count bounds the walk as well: a vn_next loop cannot spin forever. */
	for (size_t i = 0; i < count; i++) {
		if (off > len || len - off < 16) {
			bad(diag, file, ".gnu.version_r", off, "Verneed record past the end of the data");
			break;
		}
		const uint8_t *r = buf + off;
		uint16_t cnt = pt_rd16(r + 2, be);
		const char *fname = str_at(strtab, base, strsz, pt_rd32(r + 4, be));
		uint32_t aux = pt_rd32(r + 8, be), next = pt_rd32(r + 12, be);

		if (pt_rd16(r, be) != 1 || !fname) {
			bad(diag, file, ".gnu.version_r", off, "bad Verneed record");
			break;
		}
		PT_GROW(v, n, alloc);
		struct elf_verneed *e = &v[n++];
		e->file = pt_xstrdup(fname);
		e->v = NULL;
		e->n = 0;
		size_t aoff = off + aux, valloc = 0;
		for (uint16_t j = 0; j < cnt; j++) {
			if (aoff < off || aoff > len || len - aoff < 16) {
				bad(diag, file, ".gnu.version_r", aoff, "Vernaux record past the end of the data");
				break;
			}
			const uint8_t *a = buf + aoff;
			const char *name = str_at(strtab, base, strsz, pt_rd32(a + 8, be));
			if (!name) {
				bad(diag, file, ".gnu.version_r", aoff, "Vernaux name outside the string table");
				break;
			}
			PT_GROW(e->v, e->n, valloc);
			e->v[e->n].name = pt_xstrdup(name);
			e->v[e->n].weak = pt_rd16(a + 4, be) & 0x2;	/* VER_FLG_WEAK */
			e->n++;
			uint32_t anext = pt_rd32(a + 12, be);
			if (!anext)
				break;
			aoff += anext;
		}
		if (!next)
			break;
		off += next;
	}
	*out = v;
	*n_out = n;
	return n;
}

size_t symver_parse_verdef(const uint8_t *buf, size_t len, size_t count, bool be,
			   const char *strtab, size_t strsz, char ***out, size_t *n_out,
			   const char *file, struct pt_diag *diag)
{
	return symver_parse_verdef_at(buf, len, count, be, strtab, 0, strsz, out, n_out, file,
				      diag);
}

size_t symver_parse_verdef_at(const uint8_t *buf, size_t len, size_t count, bool be,
			      const char *strtab, size_t base, size_t strsz, char ***out,
			      size_t *n_out, const char *file, struct pt_diag *diag)
{
	char **v = NULL;
	size_t n = 0, alloc = 0, off = 0, records = 0;

	for (size_t i = 0; i < count; i++) {
		if (off > len || len - off < 20) {
			bad(diag, file, ".gnu.version_d", off, "Verdef record past the end of the data");
			break;
		}
		const uint8_t *r = buf + off;
		uint16_t flags = pt_rd16(r + 2, be);
		uint32_t aux = pt_rd32(r + 12, be), next = pt_rd32(r + 16, be);

		if (pt_rd16(r, be) != 1) {
			bad(diag, file, ".gnu.version_d", off, "bad Verdef record");
			break;
		}
		records++;
		/* The first Verdaux names the version; later ones name its parents. */
		size_t aoff = off + aux;
		if (aoff < off || aoff > len || len - aoff < 8) {
			bad(diag, file, ".gnu.version_d", aoff, "Verdaux record past the end of the data");
			break;
		}
		const char *name = str_at(strtab, base, strsz, pt_rd32(buf + aoff, be));
		if (!name) {
			bad(diag, file, ".gnu.version_d", aoff, "Verdaux name outside the string table");
			break;
		}
		if (!(flags & 0x1)) {	/* VER_FLG_BASE names the file itself */
			PT_GROW(v, n, alloc);
			v[n++] = pt_xstrdup(name);
		}
		if (!next)
			break;
		off += next;
	}
	*out = v;
	*n_out = n;
	return records;
}

void symver_free_verneed(struct elf_verneed *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < v[i].n; j++)
			free(v[i].v[j].name);
		free(v[i].v);
		free(v[i].file);
	}
	free(v);
}

char **symver_missing(const struct elf_verneed *need, size_t n_need, const char *needed_name,
		      bool has_verdef, char *const *verdef, size_t n_verdef, bool *no_verdef)
{
	char **miss = NULL;
	size_t n = 0, alloc = 0;

	*no_verdef = false;
	for (size_t i = 0; i < n_need; i++) {
		const struct elf_verneed *vn = &need[i];

		if (strcmp(vn->file, needed_name))
			continue;
		if (!has_verdef) {
			*no_verdef = true;
			continue;
		}
		for (size_t j = 0; j < vn->n; j++) {
			bool found = false;

			for (size_t k = 0; k < n_verdef && !found; k++)
				found = !strcmp(verdef[k], vn->v[j].name);
			if (found || vn->v[j].weak)
				continue;
			PT_GROW(miss, n + 1, alloc);
			miss[n++] = pt_xstrdup(vn->v[j].name);
			miss[n] = NULL;
		}
	}
	return miss;
}
