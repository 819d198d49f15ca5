/*
 * Fat binary headers and entry headers; see fatbin.h. Validation follows
 * docs/formats/cuda-fatbin.md §8: a size field is never trusted, and the
 * invariants that held for all 42,472 entries seen are checked as warnings.
 */
#include "fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "strbuf.h"
#include "xalloc.h"

void fatbin_entries_release(struct fatbin_entries *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].identifier);
		free(l->v[i].options);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const char *fatbin_kind_name(unsigned kind)
{
	switch (kind) {
	case FATBIN_KIND_PTX: return "PTX";
	case FATBIN_KIND_ELF: return "ELF";
	case FATBIN_KIND_LTO: return "LTO-IR";
	default: return "unknown";
	}
}

const char *fatbin_comp_name(enum fatbin_compression c)
{
	switch (c) {
	case FATBIN_COMP_LZ4: return "lz4";
	case FATBIN_COMP_ZSTD: return "zstd";
	case FATBIN_COMP_BOTH: return "lz4+zstd";
	default: return "none";
	}
}

int fatbin_parse_header(const uint8_t *buf, size_t len, struct fatbin_header *h, const char **why)
{
	if (len < FATBIN_HEADER_SIZE) {
		*why = "truncated fat binary header";
		return -1;
	}
	h->magic = pt_le32(buf);
	h->version = pt_le16(buf + 4);
	h->header_size = pt_le16(buf + 6);
	h->fat_size = pt_le64(buf + 8);
	if (h->magic != FATBIN_MAGIC) {
		*why = "bad fat binary magic";
		return -1;
	}
	if (h->version != 1) {
		*why = "unsupported fat binary version (expected 1)";
		return -1;
	}
	/* Every header seen is 16 bytes; a reader that guessed a larger one would misplace entries. */
	if (h->header_size != FATBIN_HEADER_SIZE) {
		*why = "unsupported fat binary header size (expected 16)";
		return -1;
	}
	return 0;
}

/* A string of the header extension, NUL-trimmed; NULL when empty or outside buf. */
static char *ext_string(const uint8_t *buf, size_t len, uint64_t off, uint64_t n)
{
	size_t k;

	if (off < FATBIN_ENTRY_BASE || off > len || n > len - off || n == 0)
		return NULL;
	if (n > FATBIN_STRING_MAX)
		n = FATBIN_STRING_MAX;
	k = strnlen((const char *)buf + off, (size_t)n);
	if (k == 0)
		return NULL;
	return pt_xstrndup((const char *)buf + off, k);
}

/* Text only: the options pair of a cubin for sm_100+ points to a binary blob (§4). */
static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
			return 0;
	return 1;
}

int fatbin_parse_entry(const uint8_t *buf, size_t len, uint64_t room, struct fatbin_entry *e,
		       const char **why)
{
	uint32_t id_off, id_len, opt_off;
	int odd = 0;

	memset(e, 0, sizeof(*e));
	if (len < FATBIN_ENTRY_BASE || room < FATBIN_ENTRY_BASE) {
		*why = "truncated entry header";
		return -1;
	}
	e->kind = pt_le16(buf);
	e->version = pt_le16(buf + 2);
	e->header_size = pt_le32(buf + 4);
	e->payload_size = pt_le64(buf + 8);
	e->compressed_size = pt_le32(buf + 0x10);
	opt_off = pt_le32(buf + 0x14);
	e->minor = pt_le16(buf + 0x18);
	e->major = pt_le16(buf + 0x1a);
	e->arch = pt_le32(buf + 0x1c);
	id_off = pt_le32(buf + 0x20);
	id_len = pt_le32(buf + 0x24);
	e->flags = pt_le64(buf + 0x28);
	e->uncompressed_size = pt_le64(buf + 0x38);

	if (e->version != FATBIN_ENTRY_VERSION) {
		*why = "bad entry version (expected 0x0101)";
		return -1;
	}
	if (e->header_size < FATBIN_ENTRY_BASE || e->header_size % 8) {
		*why = "bad entry header size (below 64 or not a multiple of 8)";
		return -1;
	}
	if (e->header_size > room || e->payload_size > room - e->header_size) {
		*why = "entry size fields point past the end of the fat binary";
		return -1;
	}

	e->variant = (e->flags & FATBIN_F_ARCH_A) ? 'a' : (e->flags & FATBIN_F_FAMILY_F) ? 'f' : 0;
	if ((e->flags & FATBIN_F_LZ4) && (e->flags & FATBIN_F_ZSTD))
		e->comp = FATBIN_COMP_BOTH;
	else if (e->flags & FATBIN_F_LZ4)
		e->comp = FATBIN_COMP_LZ4;
	else if (e->flags & FATBIN_F_ZSTD)
		e->comp = FATBIN_COMP_ZSTD;

	/* The extension holds at most what the caller could give us. */
	if (len > e->header_size)
		len = e->header_size;
	if (id_off)
		e->identifier = ext_string(buf, len, id_off, id_len);
	if (opt_off && e->kind != FATBIN_KIND_ELF && opt_off <= len && len - opt_off >= 8) {
		e->options = ext_string(buf, len, pt_le32(buf + opt_off), pt_le32(buf + opt_off + 4));
		if (e->options && !printable(e->options)) {
			free(e->options);
			e->options = NULL;
		}
	}

	/* Invariants of every entry seen (§8): report, keep walking. */
	if (e->payload_size % 8) {
		*why = "payload size is not a multiple of 8";
		odd = 1;
	}
	if (e->comp == FATBIN_COMP_BOTH) {
		*why = "both LZ4 and zstd compression flags set";
		odd = 1;
	} else if (e->comp != FATBIN_COMP_NONE) {
		if (e->compressed_size == 0 || e->uncompressed_size == 0) {
			*why = "compressed entry with a zero compressed or uncompressed size";
			odd = 1;
		} else if (e->compressed_size > e->payload_size) {
			*why = "compressed size larger than the payload";
			odd = 1;
		}
	} else if (e->compressed_size != 0) {
		*why = "compressed size set on an uncompressed entry";
		odd = 1;
	}
	if (!odd && e->payload_size == 0 &&
	    (e->kind == FATBIN_KIND_ELF || e->kind == FATBIN_KIND_PTX)) {
		*why = "empty payload";
		odd = 1;
	}
	return odd;
}

static void warn_at(struct pt_diag *diag, const char *file, const char *where, uint64_t fat_off,
		    uint64_t at, const char *what)
{
	char w[160];

	if (at == fat_off)
		pt_fmt_trunc(w, sizeof(w), "%s%sfat binary at offset 0x%llx", where ? where : "",
			 where ? ", " : "", (unsigned long long)fat_off);
	else
		pt_fmt_trunc(w, sizeof(w), "%s%sfat binary at offset 0x%llx, entry at offset 0x%llx",
			 where ? where : "", where ? ", " : "", (unsigned long long)fat_off,
			 (unsigned long long)at);
	pt_diag_add(diag, PT_SEV_WARNING, file, w, "%s", what);
}

void fatbin_seen_release(struct fatbin_seen *s)
{
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

static size_t seen_hash(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

/* Add off; true when it was there already. */
static bool seen_add(struct fatbin_seen *s, uint64_t off)
{
	uint64_t key = off + 1;
	size_t i;

	if (key == 0)
		return false;	/* UINT64_MAX cannot be an entry offset that was read */
	if ((s->n + 1) * 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		uint64_t *slot = pt_xcalloc(cap, sizeof(*slot));

		for (size_t k = 0; k < s->cap; k++)
			if (s->slot[k]) {
				for (i = seen_hash(s->slot[k], cap); slot[i]; i = (i + 1) & (cap - 1))
					;
				slot[i] = s->slot[k];
			}
		free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	for (i = seen_hash(key, s->cap); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == key)
			return true;
	s->slot[i] = key;
	s->n++;
	return false;
}

/* Drop the entries a walk appended from index first on. */
static void entries_cut(struct fatbin_entries *out, size_t first)
{
	for (size_t i = first; i < out->n; i++) {
		free(out->v[i].identifier);
		free(out->v[i].options);
	}
	out->n = first;
}

enum fatbin_walk_status fatbin_walk(fatbin_read_fn rd, void *ctx, uint64_t off, uint64_t end,
				    enum fatbin_walk_mode mode, size_t fatbin_index,
				    struct fatbin_entries *out, uint64_t *fat_end, const char *file,
				    const char *where, struct pt_diag *diag)
{
	return fatbin_walk_seen(rd, ctx, off, end, mode, fatbin_index, out, fat_end, file, where,
				diag, NULL);
}

static enum fatbin_walk_status walk(fatbin_read_fn rd, void *ctx, uint64_t off, uint64_t end,
				    enum fatbin_walk_mode mode, size_t fatbin_index,
				    struct fatbin_entries *out, uint64_t *fat_end, const char *file,
				    const char *where, struct pt_diag *diag, struct fatbin_seen *seen);

enum fatbin_walk_status fatbin_walk_seen(fatbin_read_fn rd, void *ctx, uint64_t off, uint64_t end,
					 enum fatbin_walk_mode mode, size_t fatbin_index,
					 struct fatbin_entries *out, uint64_t *fat_end,
					 const char *file, const char *where, struct pt_diag *diag,
					 struct fatbin_seen *seen)
{
	struct pt_diag local;
	enum fatbin_walk_status st;

	if (!seen || mode == FATBIN_WALK_STRICT)
		return walk(rd, ctx, off, end, mode, fatbin_index, out, fat_end, file, where, diag,
			    seen);
	/* A candidate that turns out to overlap says nothing: its warnings wait until then. */
	pt_diag_init(&local);
	st = walk(rd, ctx, off, end, mode, fatbin_index, out, fat_end, file, where, &local, seen);
	if (st != FATBIN_WALK_OVERLAP)
		pt_diag_take(diag, &local);
	pt_diag_release(&local);
	return st;
}

static enum fatbin_walk_status walk(fatbin_read_fn rd, void *ctx, uint64_t off, uint64_t end,
				    enum fatbin_walk_mode mode, size_t fatbin_index,
				    struct fatbin_entries *out, uint64_t *fat_end, const char *file,
				    const char *where, struct pt_diag *diag, struct fatbin_seen *seen)
{
	const uint8_t *p;
	struct fatbin_header h;
	const char *why = NULL;
	uint64_t q, e;
	int strict = mode == FATBIN_WALK_STRICT;
	size_t first = out->n;

	p = end >= off && end - off >= FATBIN_HEADER_SIZE ? rd(ctx, off, FATBIN_HEADER_SIZE) : NULL;
	if (!p) {
		if (strict)
			warn_at(diag, file, where, off, off, "truncated fat binary header");
		return FATBIN_WALK_NOT;
	}
	if (fatbin_parse_header(p, FATBIN_HEADER_SIZE, &h, &why) != 0) {
		if (strict)
			warn_at(diag, file, where, off, off, why);
		return FATBIN_WALK_NOT;
	}
	if (h.fat_size > end - off - FATBIN_HEADER_SIZE) {
		if (strict) {
			char msg[160];

			pt_fmt_trunc(msg, sizeof(msg),
				 "fat size %llu points past the end of the section (%llu bytes left)",
				 (unsigned long long)h.fat_size,
				 (unsigned long long)(end - off - FATBIN_HEADER_SIZE));
			warn_at(diag, file, where, off, off, msg);
		}
		return FATBIN_WALK_NOT;
	}
	q = off + FATBIN_HEADER_SIZE;
	e = q + h.fat_size;
	if (!strict && h.fat_size > 0) {
		/* A scanned magic must be followed by a plausible first entry (§8 rule 1). */
		struct fatbin_entry tmp;
		int r;

		p = h.fat_size >= FATBIN_ENTRY_BASE ? rd(ctx, q, FATBIN_ENTRY_BASE) : NULL;
		if (!p)
			return FATBIN_WALK_NOT;
		r = fatbin_parse_entry(p, FATBIN_ENTRY_BASE, e - q, &tmp, &why);
		free(tmp.identifier);
		free(tmp.options);
		if (r < 0)
			return FATBIN_WALK_NOT;
	}
	*fat_end = e;
	if (h.fat_size % 8)
		warn_at(diag, file, where, off, off, "fat size is not a multiple of 8");

	while (e - q >= FATBIN_ENTRY_BASE) {
		struct fatbin_entry ent;
		uint64_t want;
		int r;

		if (seen && seen_add(seen, q) && !strict) {
			entries_cut(out, first);
			return FATBIN_WALK_OVERLAP;
		}
		p = rd(ctx, q, FATBIN_ENTRY_BASE);
		if (!p) {
			warn_at(diag, file, where, off, q, "entry header cannot be read");
			return FATBIN_WALK_DAMAGED;
		}
		/* The extension (identifier, options) lies between the base and the payload. */
		want = pt_le32(p + 4);
		if (want > FATBIN_ENTRY_HEADER_MAX)
			want = FATBIN_ENTRY_HEADER_MAX;
		if (want > e - q)
			want = e - q;
		if (want > FATBIN_ENTRY_BASE && !(p = rd(ctx, q, (size_t)want)))
			p = rd(ctx, q, FATBIN_ENTRY_BASE);
		if (!p) {
			warn_at(diag, file, where, off, q, "entry header cannot be read");
			return FATBIN_WALK_DAMAGED;
		}
		r = fatbin_parse_entry(p, want > FATBIN_ENTRY_BASE ? (size_t)want : FATBIN_ENTRY_BASE,
				       e - q, &ent, &why);
		if (r < 0) {
			warn_at(diag, file, where, off, q, why);
			return FATBIN_WALK_DAMAGED;
		}
		if (r > 0)
			warn_at(diag, file, where, off, q, why);
		ent.offset = q;
		ent.fatbin = fatbin_index;
		PT_GROW(out->v, out->n, out->alloc);
		out->v[out->n++] = ent;
		q += ent.header_size + ent.payload_size;
	}
	if (q != e) {
		char msg[128];

		pt_fmt_trunc(msg, sizeof(msg), "%llu bytes after the last entry are too few for an entry header",
			 (unsigned long long)(e - q));
		warn_at(diag, file, where, off, q, msg);
		return FATBIN_WALK_DAMAGED;
	}
	return FATBIN_WALK_OK;
}

struct membuf {
	const uint8_t *buf;
	size_t len;
};

static const uint8_t *mem_read(void *ctx, uint64_t off, size_t n)
{
	const struct membuf *m = ctx;

	if (off > m->len || n > m->len - off)
		return NULL;
	return m->buf + off;
}

enum fatbin_walk_status fatbin_parse(const uint8_t *buf, size_t len, struct fatbin_entries *out,
				     const char *file, struct pt_diag *diag)
{
	struct membuf m = { buf, len };
	uint64_t fat_end;

	return fatbin_walk(mem_read, &m, 0, len, FATBIN_WALK_STRICT, 0, out, &fat_end, file, NULL,
			   diag);
}
