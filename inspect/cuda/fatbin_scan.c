/*
 * Finding fat binaries in an ELF file; see fatbin_scan.h. Two small buffers
 * serve all reads: a window of a few hundred bytes for headers and a 256 KiB
 * chunk for the magic scan, so RSS stays flat on 500 MB libraries
 * (docs/formats/cuda-fatbin.md §15: a whole mapping of libcublasLt costs ~60 MB).
 */
#include "fatbin_scan.h"

#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "fatbin_unpack.h"
#include "jobs.h"
#include "strbuf.h"
#include "xalloc.h"

#define WINDOW 512		/* header reads: fat binary header plus an entry header or two */
#define SCAN_CHUNK (1u << 18)	/* magic scan: read this much at a time (stays in the L2 cache) */
#define SEGMENT_MAX (64u << 20)	/* .nvFatBinSegment bytes read (libcublasLt: 66 KB) */

const char *cuda_section_kind_name(enum cuda_section_kind k)
{
	switch (k) {
	case CUDA_SEC_REGISTERED: return "registered";
	case CUDA_SEC_RELOCATABLE: return "relocatable";
	default: return "embedded";
	}
}

/* A cached window over the file for fatbin_walk. */
struct reader {
	const struct elfobj *o;
	uint8_t *buf;
	size_t cap;
	uint64_t off;
	size_t len;
};

static const uint8_t *reader_get(void *ctx, uint64_t off, size_t n)
{
	struct reader *r = ctx;
	size_t want = n > WINDOW ? n : WINDOW;
	long got;

	if (r->o->mem)
		return off <= r->o->size && n <= r->o->size - off ? r->o->mem + off : NULL;
	if (r->len && off >= r->off && off - r->off <= r->len && n <= r->len - (off - r->off))
		return r->buf + (off - r->off);
	PT_RESERVE(r->buf, want, r->cap);
	got = elfobj_pread(r->o, r->buf, want, off);
	if (got < 0) {
		r->len = 0;
		return NULL;
	}
	r->off = off;
	r->len = (size_t)got;
	return (size_t)got >= n ? r->buf : NULL;
}

/* The hot loop of the scan: one aligned 4-byte compare per 8 bytes, no byte shuffling. */
static inline bool is_magic(const uint8_t *p)
{
	static const uint8_t m[4] = { 0x50, 0xed, 0x55, 0xba };

	return memcmp(p, m, 4) == 0;
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "any_magic4 compares host-order words");

/* Whether any of p[0], p[8], p[16], p[24] starts a magic; branch-free so it vectorises. */
static inline bool any_magic4(const uint8_t *p)
{
	uint32_t a, b, c, d;

	memcpy(&a, p, 4);
	memcpy(&b, p + 8, 4);
	memcpy(&c, p + 16, 4);
	memcpy(&d, p + 24, 4);
	/* FATBIN_MAGIC in memory order: the host is little-endian (x86-64, AArch64). */
	return (a == FATBIN_MAGIC) | (b == FATBIN_MAGIC) | (c == FATBIN_MAGIC) | (d == FATBIN_MAGIC);
}

struct scanner {
	const struct elfobj *o;
	struct cuda_scan *s;
	struct pt_diag *diag;
	struct reader rd;
	uint8_t *chunk;		/* SCAN_CHUNK bytes, allocated on first use */
	struct fatbin_seen seen;	/* entry offsets walked: each is walked once (B2) */
	size_t overlaps;	/* candidates of the current section that led into walked entries */
};

static size_t add_section(struct cuda_scan *s, const struct elf_section *es,
			  enum cuda_section_kind kind)
{
	struct cuda_section *c;

	PT_GROW(s->secs, s->n_secs, s->alloc_secs);
	c = &s->secs[s->n_secs];
	memset(c, 0, sizeof(*c));
	c->name = pt_xstrdup(es->name);
	c->kind = kind;
	c->offset = es->offset;
	c->size = es->size;
	c->addr = es->addr;
	return s->n_secs++;
}

/* Walk one fat binary at off; record it unless there is none. */
static enum fatbin_walk_status take(struct scanner *sc, size_t sec, uint64_t off, uint64_t end,
				    enum fatbin_walk_mode mode, uint64_t *fat_end)
{
	struct cuda_scan *s = sc->s;
	struct cuda_section *c = &s->secs[sec];
	size_t first = s->entries.n;
	char where[160];
	enum fatbin_walk_status st;

	pt_fmt_trunc(where, sizeof(where), "section %s", c->name);
	st = fatbin_walk_seen(reader_get, &sc->rd, off, end, mode, s->n_fatbins, &s->entries,
			      fat_end, sc->o->path, where, sc->diag, &sc->seen);
	if (st == FATBIN_WALK_OVERLAP)
		sc->overlaps++;
	if (st == FATBIN_WALK_NOT || st == FATBIN_WALK_OVERLAP)
		return st;
	PT_GROW(s->fatbins, s->n_fatbins, s->alloc_fatbins);
	s->fatbins[s->n_fatbins++] = (struct cuda_fatbin){
		.offset = off,
		.size = *fat_end - off,
		.section = sec,
		.first_entry = first,
		.n_entries = s->entries.n - first,
		.damaged = st == FATBIN_WALK_DAMAGED,
	};
	c->n_fatbins++;
	c->n_entries += s->entries.n - first;
	c->bytes += *fat_end - off;
	if (st == FATBIN_WALK_DAMAGED)
		c->n_damaged++;
	return st;
}

/*
 * §8: fat binaries start at 8-aligned file offsets (and addresses). Not
 * relative to the section: cuFFT's .ldata starts at 0x81d874.
 */
static uint64_t align_up(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

/* One note for the candidates of a section that were not walked again. */
static void note_overlaps(struct scanner *sc, size_t sec)
{
	char where[160];

	pt_fmt_trunc(where, sizeof(where), "section %s", sc->s->secs[sec].name);
	if (sc->overlaps)
		pt_diag_add(sc->diag, PT_SEV_NOTE, sc->o->path, where,
			    "%zu more fat binary header%s inside damaged fat binaries lead%s into "
			    "entries already read: not walked again, not counted", sc->overlaps,
			    sc->overlaps == 1 ? "" : "s", sc->overlaps == 1 ? "s" : "");
	sc->overlaps = 0;
}

/*
 * Scan [start, end) of section sec for the magic and take each plausible fat
 * binary. Inside a damaged one the scan goes on (its sizes cannot be
 * trusted), but every entry offset is walked once (sc->seen): a magic whose
 * entries lead into ones already read is not walked again.
 */
/*
 * The magic search over b[0..got), the bytes at file offset pos: each
 * plausible fat binary is taken. Returns where the scan goes on past the
 * last one taken that ends beyond b, or 0 when it goes on after b.
 */
static uint64_t scan_bytes(struct scanner *sc, size_t sec, uint64_t pos, const uint8_t *b,
			   size_t got, uint64_t end)
{
	for (size_t i = 0; i + 4 <= got; i += 8) {
		uint64_t fat_end, next;

		/* Skip 32 bytes at a time while none of their four 8-aligned slots matches. */
		while (i + 32 <= got && !any_magic4(b + i))
			i += 32;
		if (i + 4 > got || !is_magic(b + i))
			continue;
		enum fatbin_walk_status st = take(sc, sec, pos + i, end, FATBIN_WALK_CANDIDATE, &fat_end);
		if (st != FATBIN_WALK_OK)
			continue;	/* damaged sizes cannot be trusted: look inside too */
		next = align_up(fat_end);
		if (next - pos >= (uint64_t)got)
			return next;
		i = (size_t)(next - pos) - 8;	/* the loop adds 8 */
	}
	return 0;
}

/*
 * Scan [start, end) of section sec for the magic and take each plausible fat
 * binary. Inside a damaged one the scan goes on (its sizes cannot be
 * trusted), but every entry offset is walked once (sc->seen): a magic whose
 * entries lead into ones already read is not walked again.
 */
static int scan_range(struct scanner *sc, size_t sec, uint64_t start, uint64_t end)
{
	uint64_t pos = align_up(start);

	if (end > sc->o->size)
		end = sc->o->size;
	if (pos < start || start >= end)
		return 0;	/* empty, or an offset so large that aligning it wraps */
	/* A section placed at an odd offset (objcopy --add-section) may still start with one. */
	if (pos != start && end - start >= FATBIN_HEADER_SIZE) {
		const uint8_t *p = reader_get(&sc->rd, start, 4);
		uint64_t fat_end;

		if (p && pt_le32(p) == FATBIN_MAGIC &&
		    take(sc, sec, start, end, FATBIN_WALK_CANDIDATE, &fat_end) == FATBIN_WALK_OK)
			pos = align_up(fat_end);
	}
	if (!sc->o->mem && pos < end)
		elfobj_will_read(sc->o, pos, end - pos);
	while (pos < end && end - pos >= FATBIN_HEADER_SIZE) {
		size_t want = end - pos < SCAN_CHUNK ? (size_t)(end - pos) : SCAN_CHUNK;
		const uint8_t *b;
		uint64_t next = 0;
		long got;

		if (sc->o->mem) {
			b = sc->o->mem + pos;
			got = (long)want;
		} else {
			if (!sc->chunk)
				sc->chunk = pt_xmalloc(SCAN_CHUNK);
			got = elfobj_read_chunk(sc->o, sc->chunk, want, pos);
			b = sc->chunk;
		}
		if (got < 4) {
			pt_diag_add(sc->diag, PT_SEV_WARNING, sc->o->path, sc->s->secs[sec].name,
				    "read error at offset 0x%llx%s", (unsigned long long)pos,
				    got == -2 ? " (the file was cut while it was read)" : "");
			return -1;
		}
		next = scan_bytes(sc, sec, pos, b, (size_t)got, end);
		if (next)
			pos = next;
		else
			pos += (uint64_t)got & ~(uint64_t)7;
		if (got & 7)
			break;	/* a short read: the end of the range */
	}
	return 0;
}

/* True when [off, end) holds only zero bytes (alignment padding at a section's end). */
static bool all_zero(struct scanner *sc, uint64_t off, uint64_t end)
{
	while (off < end) {
		size_t n = end - off < WINDOW ? (size_t)(end - off) : WINDOW;
		const uint8_t *p = reader_get(&sc->rd, off, n);

		if (!p)
			return false;
		for (size_t i = 0; i < n; i++)
			if (p[i])
				return false;
		off += n;
	}
	return true;
}

/* .nv_fatbin / __nv_relfatbin: fat binaries end to end; after damage, resynchronise by scanning. */
static void walk_section(struct scanner *sc, size_t sec, uint64_t end)
{
	uint64_t off = sc->s->secs[sec].offset, fat_end;

	while (off < end) {
		enum fatbin_walk_status st;

		if (end - off < 4096 && all_zero(sc, off, end))
			return;
		st = take(sc, sec, off, end, FATBIN_WALK_STRICT, &fat_end);
		if (st == FATBIN_WALK_OK) {
			off = fat_end;
			continue;
		}
		/* The warning is given; find the next fat binary by its magic (§8 rule 4 broken). */
		scan_range(sc, sec, off + 8, end);
		note_overlaps(sc, sec);
		return;
	}
}

static bool walked_name(const char *n)
{
	return !strcmp(n, ".nv_fatbin") || !strcmp(n, "__nv_relfatbin");
}

/* Sections never worth scanning: code, unwind and debug data, linker bookkeeping. */
static bool scannable(const struct elf_section *es)
{
	static const char *const skip[] = {
		".nvFatBinSegment", "__nv_module_id", ".eh_frame", ".eh_frame_hdr",
		".gcc_except_table", ".got", ".got.plt", ".comment", ".interp", ".stapsdt.base",
		".gnu_debuglink", ".gnu_debugaltlink", ".init_array", ".fini_array",
	};

	if (es->type != SHT_PROGBITS || (es->flags & SHF_EXECINSTR) || es->size < FATBIN_HEADER_SIZE)
		return false;
	if (!strncmp(es->name, ".debug", 6) || !strncmp(es->name, ".zdebug", 7) ||
	    !strncmp(es->name, ".nvHR", 5) || !strncmp(es->name, ".note", 5))
		return false;
	for (size_t i = 0; i < PT_ARRAY_SIZE(skip); i++)
		if (!strcmp(es->name, skip[i]))
			return false;
	return true;
}

/* The end of es within the file; a warning when the section table claims more. */
static uint64_t section_end(struct scanner *sc, const struct elf_section *es)
{
	if (es->offset > sc->o->size || es->size > sc->o->size - es->offset) {
		pt_diag_add(sc->diag, PT_SEV_WARNING, sc->o->path, es->name,
			    "section (offset 0x%llx, %llu bytes) extends past the end of the file "
			    "(%llu bytes): truncated file",
			    (unsigned long long)es->offset, (unsigned long long)es->size,
			    (unsigned long long)sc->o->size);
		/* A section starting past the end is empty here. */
		return es->offset > sc->o->size ? es->offset : sc->o->size;
	}
	return es->offset + es->size;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* §2: count the wrappers and mark the fat binaries they point at. */
static void read_wrappers(struct scanner *sc, const struct elf_section *es)
{
	struct cuda_scan *s = sc->s;
	uint64_t end = section_end(sc, es), n = end - es->offset;
	uint64_t *targets = NULL;
	size_t nt = 0;
	uint8_t *b;
	long got;

	s->has_segment = true;
	if (n > SEGMENT_MAX)
		n = SEGMENT_MAX;
	b = pt_xmalloc(n ? (size_t)n : 1);
	got = elfobj_pread(sc->o, b, (size_t)n, es->offset);
	if (got < 0)
		got = 0;
	targets = pt_xcalloc((size_t)got / FATBIN_WRAPPER_SIZE + 1, sizeof(*targets));
	for (size_t i = 0; i + FATBIN_WRAPPER_SIZE <= (size_t)got; i += FATBIN_WRAPPER_SIZE) {
		uint32_t magic = pt_le32(b + i), version = pt_le32(b + i + 4);
		uint64_t data = pt_le64(b + i + 8);
		bool inside = false;

		if (magic != FATBIN_WRAPPER_MAGIC) {
			pt_diag_add(sc->diag, PT_SEV_WARNING, sc->o->path, ".nvFatBinSegment",
				    "bad wrapper magic 0x%08x at offset 0x%llx", magic,
				    (unsigned long long)(es->offset + i));
			continue;
		}
		s->n_wrappers++;
		if (version == 2)
			s->n_wrappers_v2++;
		/* ET_REL: the address is 0 and comes from .rela.nvFatBinSegment (§2). */
		if (data == 0 || sc->o->type == ET_REL)
			continue;
		for (size_t k = 0; k < s->n_secs && !inside; k++)
			inside = s->secs[k].kind != CUDA_SEC_EMBEDDED && data >= s->secs[k].addr &&
				 data - s->secs[k].addr < s->secs[k].size;
		if (!inside)
			pt_diag_add(sc->diag, PT_SEV_WARNING, sc->o->path, ".nvFatBinSegment",
				    "wrapper at offset 0x%llx points at 0x%llx, outside every fat "
				    "binary section",
				    (unsigned long long)(es->offset + i), (unsigned long long)data);
		else
			targets[nt++] = data;
	}
	s->wrappers_matched = sc->o->type != ET_REL;
	qsort(targets, nt, sizeof(*targets), cmp_u64);
	for (size_t f = 0; f < s->n_fatbins; f++) {
		const struct cuda_section *c = &s->secs[s->fatbins[f].section];
		uint64_t va = c->addr + (s->fatbins[f].offset - c->offset);

		if (c->kind != CUDA_SEC_EMBEDDED)
			s->fatbins[f].wrapped = bsearch(&va, targets, nt, sizeof(*targets), cmp_u64);
	}
	free(targets);
	free(b);
}

int cuda_scan(const struct elfobj *o, unsigned flags, struct cuda_scan *s, struct pt_diag *diag)
{
	struct scanner sc = { .o = o, .s = s, .diag = diag, .rd = { .o = o } };
	const struct elf_section *segment = NULL;

	memset(s, 0, sizeof(*s));
	s->deep = !(flags & CUDA_SCAN_REGISTERED_ONLY);
	/* Walked sections first: wrappers point into them. */
	for (size_t i = 0; i < o->n_sections; i++) {
		const struct elf_section *es = &o->sections[i];

		if (es->type == SHT_NOBITS)
			continue;
		if (!strcmp(es->name, ".nvFatBinSegment"))
			segment = es;
		if (!walked_name(es->name))
			continue;
		size_t sec = add_section(s, es, !strcmp(es->name, ".nv_fatbin") ? CUDA_SEC_REGISTERED
										 : CUDA_SEC_RELOCATABLE);
		walk_section(&sc, sec, section_end(&sc, es));
	}
	if (segment)
		read_wrappers(&sc, segment);
	/* cuFFT keeps 23,983 fat binaries in .ldata, so scan every data section, not only .nv_fatbin. */
	for (size_t i = 0; s->deep && i < o->n_sections; i++) {
		const struct elf_section *es = &o->sections[i];

		if (walked_name(es->name) || !scannable(es))
			continue;
		size_t before = s->n_fatbins, sec = add_section(s, es, CUDA_SEC_EMBEDDED);
		scan_range(&sc, sec, es->offset, section_end(&sc, es));
		note_overlaps(&sc, sec);
		if (s->n_fatbins == before) {
			/* Keep only sections that hold fat binaries. */
			free(s->secs[sec].name);
			s->n_secs--;
		}
	}
	free(sc.rd.buf);
	free(sc.chunk);
	fatbin_seen_release(&sc.seen);
	return 0;
}

size_t cuda_scan_ranges(const struct elfobj *o, unsigned flags, struct elfobj_range **out)
{
	size_t n = 0;

	*out = pt_xcalloc(o->n_sections + 1, sizeof(**out));
	for (size_t i = 0; i < o->n_sections; i++) {
		const struct elf_section *es = &o->sections[i];

		if (es->type == SHT_NOBITS)
			continue;
		if (walked_name(es->name))
			continue;
		if (!strcmp(es->name, ".nvFatBinSegment") ||
		    (!(flags & CUDA_SCAN_REGISTERED_ONLY) && scannable(es)))
			(*out)[n++] = (struct elfobj_range){ es->offset, es->size };
	}
	return n;
}

void cuda_scan_release(struct cuda_scan *s)
{
	for (size_t i = 0; i < s->n_secs; i++)
		free(s->secs[i].name);
	free(s->secs);
	free(s->fatbins);
	fatbin_entries_release(&s->entries);
	memset(s, 0, sizeof(*s));
}

/* One entry for --verify: read, decompress, look inside. Returns 0, 1 skipped, -1 bad (warned). */
static int verify_entry(const struct elfobj *o, const struct cuda_scan *s, size_t idx,
			uint8_t **src, size_t *src_cap, uint8_t **dst, size_t *dst_cap,
			struct fatbin_unpack_info *info, struct pt_diag *diag)
{
	const struct fatbin_entry *e = &s->entries.v[idx];
	const struct cuda_section *c = &s->secs[s->fatbins[e->fatbin].section];
	uint64_t n = e->comp != FATBIN_COMP_NONE ? e->compressed_size : e->payload_size;
	uint64_t outlen = e->comp != FATBIN_COMP_NONE ? e->uncompressed_size : e->payload_size;
	const uint8_t *payload;
	const char *why = NULL;
	char where[160];

	pt_fmt_trunc(where, sizeof(where), "section %s, entry at offset 0x%llx", c->name,
		 (unsigned long long)e->offset);
	if (e->kind != FATBIN_KIND_ELF && e->kind != FATBIN_KIND_PTX)
		return 1;
	if (n > UNPACK_MAX || outlen > UNPACK_MAX || n > e->payload_size) {
		if (n > e->payload_size)
			pt_diag_add(diag, PT_SEV_WARNING, o->path, where,
				    "compressed size %llu is larger than the payload (%llu bytes)",
				    (unsigned long long)n, (unsigned long long)e->payload_size);
		return n > e->payload_size ? -1 : 1;
	}
	PT_RESERVE(*src, (size_t)n + 1, *src_cap);
	if (elfobj_pread(o, *src, (size_t)n, e->offset + e->header_size) != (long)n) {
		pt_diag_add(diag, PT_SEV_WARNING, o->path, where, "payload cannot be read");
		return -1;
	}
	payload = *src;
	if (e->comp != FATBIN_COMP_NONE) {
		PT_RESERVE(*dst, (size_t)outlen + 1, *dst_cap);
		if (fatbin_unpack_payload(e->comp, *src, (size_t)n, *dst, (size_t)outlen, &why) != 0) {
			pt_diag_add(diag, PT_SEV_WARNING, o->path, where, "%s decompression failed: %s",
				    fatbin_comp_name(e->comp), why);
			return -1;
		}
		payload = *dst;
	}
	if (fatbin_unpack_inspect(e->kind, payload, (size_t)outlen, info, &why) != 0) {
		pt_diag_add(diag, PT_SEV_WARNING, o->path, where, "%s", why);
		return -1;
	}
	if (e->kind == FATBIN_KIND_ELF && info->sm != e->arch) {
		pt_diag_add(diag, PT_SEV_WARNING, o->path, where,
			    "cubin is for sm_%u but the entry header says %u", info->sm, e->arch);
		return -1;
	}
	if (e->kind == FATBIN_KIND_PTX &&
	    (info->sm != e->arch || info->variant != e->variant || info->isa_major != e->major ||
	     info->isa_minor != e->minor)) {
		pt_diag_add(diag, PT_SEV_WARNING, o->path, where,
			    "PTX says .version %u.%u .target sm_%u%c but the entry header says "
			    "%u.%u, arch %u%c", info->isa_major, info->isa_minor, info->sm,
			    info->variant ? info->variant : ' ', e->major, e->minor, e->arch,
			    e->variant ? e->variant : ' ');
		return -1;
	}
	return 0;
}

/*
 * --verify in parallel: entries are independent, so worker threads take the
 * next one from a shared counter, each with its own buffers. What an entry
 * found (result, ELF type, warnings) is kept per entry and merged in entry
 * order afterwards, so the report and the warnings are the same whatever the
 * number of threads.
 */
struct verify_job {
	const struct elfobj *o;
	const struct cuda_scan *s;
	size_t next;			/* the next entry to take (atomic) */
	signed char *result;		/* per entry: verify_entry's 1 / 0 / -1 */
	unsigned char *elf_type;	/* per entry: info.elf_type (ET_REL ...) */
	char *variant;			/* per entry: info.variant of a cubin ('a' or 0) */
	struct pt_diag *diags;		/* per entry, only entries with warnings are touched */
};

static void *verify_worker(void *arg)
{
	struct verify_job *j = arg;
	uint8_t *src = NULL, *dst = NULL;
	size_t src_cap = 0, dst_cap = 0, i;
	struct pt_diag local;

	pt_diag_init(&local);
	while ((i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->s->entries.n) {
		struct fatbin_unpack_info info = {0};

		j->result[i] = (signed char)verify_entry(j->o, j->s, i, &src, &src_cap, &dst, &dst_cap,
							  &info, &local);
		j->elf_type[i] = (unsigned char)info.elf_type;
		j->variant[i] = info.elf_type >= 0 ? info.variant : 0;	/* cubins only */
		if (local.n || local.dropped) {
			pt_diag_init(&j->diags[i]);
			pt_diag_take(&j->diags[i], &local);
		}
	}
	pt_diag_release(&local);
	free(src);
	free(dst);
	return NULL;
}

/* Threads for --verify: PT_JOBS if set (1 = none), else the CPUs this process may use. */
static size_t verify_threads(size_t entries)
{
	size_t n = pt_jobs(64);

	return n > entries ? (entries ? entries : 1) : n;
}

int cuda_scan_verify(const struct elfobj *o, const struct cuda_scan *s, struct cuda_verify *v,
		     struct pt_diag *diag)
{
	size_t n = s->entries.n, nt = verify_threads(n), started = 0;
	struct verify_job j = {
		.o = o,
		.s = s,
		.result = pt_xcalloc(n + 1, 1),
		.elf_type = pt_xcalloc(n + 1, 1),
		.variant = pt_xcalloc(n + 1, 1),
		.diags = pt_xcalloc(n + 1, sizeof(struct pt_diag)),
	};
	pthread_t *t = pt_xcalloc(nt, sizeof(*t));

	memset(v, 0, sizeof(*v));
	v->entry_rel = pt_xcalloc(n + 1, sizeof(bool));
	v->entry_bad = pt_xcalloc(n + 1, sizeof(bool));
	v->entry_cubin_variant = pt_xcalloc(n + 1, 1);
	/* The calling thread is one of the workers. */
	for (size_t k = 1; k < nt; k++)
		if (pthread_create(&t[k], NULL, verify_worker, &j) == 0)
			started = k;
		else
			break;
	verify_worker(&j);
	for (size_t k = 1; k <= started; k++)
		pthread_join(t[k], NULL);
	for (size_t i = 0; i < n; i++) {
		if (j.diags[i].n || j.diags[i].dropped) {
			pt_diag_take(diag, &j.diags[i]);
			pt_diag_release(&j.diags[i]);
		}
		if (j.result[i] > 0) {
			v->skipped++;
			continue;
		}
		v->checked++;
		if (j.result[i] == 0)
			v->entry_cubin_variant[i] = j.variant[i];
		if (j.result[i] < 0) {
			v->failed++;
			v->entry_bad[i] = true;
		} else if (j.elf_type[i] == ET_REL) {
			v->et_rel++;
			v->entry_rel[i] = true;
		}
	}
	free(t);
	free(j.result);
	free(j.elf_type);
	free(j.variant);
	free(j.diags);
	return 0;
}

void cuda_verify_release(struct cuda_verify *v)
{
	free(v->entry_rel);
	free(v->entry_bad);
	free(v->entry_cubin_variant);
	memset(v, 0, sizeof(*v));
}
