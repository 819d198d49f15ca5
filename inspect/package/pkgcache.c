/* The facts cache of archive packages: encode, decode, the cache directory (pkgcache.h). */
#include "pkgcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "package.h"
#include "strbuf.h"
#include "version.h"
#include "xalloc.h"

#define MAGIC "PTPKGCF\n"
#define NOSTR 0xffffffffu
#define LABEL_MAX 600		/* package.c's ELF label: "ARCHIVE:MEMBER" */

/* Where a message's file was the archive's path as given: stored as a mark. */
enum { FILE_NULL, FILE_LITERAL, FILE_ARCHIVE, FILE_ARCHIVE_COLON };

const char *pkgcache_state_name(enum pkgcache_state s)
{
	switch (s) {
	case PKGCACHE_NONE: return "none";
	case PKGCACHE_OFF: return "off";
	case PKGCACHE_MISS: return "miss";
	case PKGCACHE_HIT: return "hit";
	}
	return "?";
}

static uint64_t fnv(uint64_t h, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV0 0xcbf29ce484222325ull

char *pkgcache_dir(void)
{
	const char *e = getenv("PT_CACHE_DIR");

	if (e)
		return *e && strcmp(e, "off") ? pt_xstrdup(e) : NULL;
	if ((e = getenv("XDG_CACHE_HOME")) && e[0] == '/')
		return pt_xasprintf("%s/ptools", e);
	if ((e = getenv("HOME")) && e[0] == '/')
		return pt_xasprintf("%s/.cache/ptools", e);
	return NULL;
}

/* ---- the writer ---- */

struct wr {
	uint8_t *b;
	size_t n, a;
};

static void put(struct wr *w, const void *p, size_t n)
{
	if (w->n + n > w->a) {
		size_t a = w->a ? w->a : 4096;

		while (a < w->n + n)
			a *= 2;
		w->b = pt_xrealloc(w->b, a);
		w->a = a;
	}
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void put_u8(struct wr *w, unsigned v)
{
	uint8_t c = (uint8_t)v;

	put(w, &c, 1);
}

static void put_u32(struct wr *w, uint32_t v)
{
	uint8_t b[4];

	pt_put_le32(b, v);
	put(w, b, 4);
}

static void put_u64(struct wr *w, uint64_t v)
{
	uint8_t b[8];

	pt_put_le64(b, v);
	put(w, b, 8);
}

/* u32 length (NOSTR: NULL), the bytes, a NUL. */
static void put_str(struct wr *w, const char *s)
{
	size_t l;

	if (!s) {
		put_u32(w, NOSTR);
		return;
	}
	l = strlen(s);
	if (l >= NOSTR)
		l = NOSTR - 1;
	put_u32(w, (uint32_t)l);
	put(w, s, l);
	put_u8(w, 0);
}

static void put_strv(struct wr *w, char *const *v, size_t n)
{
	put_u64(w, n);
	for (size_t i = 0; i < n; i++)
		put_str(w, v[i]);
}

/* ---- the reader: never past n, never a count the bytes cannot hold ---- */

struct rd {
	const uint8_t *b;
	size_t n, off;
	bool bad;
};

static bool take(struct rd *r, void *out, size_t n)
{
	if (r->bad || n > r->n - r->off) {
		r->bad = true;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, r->b + r->off, n);
	r->off += n;
	return true;
}

static unsigned get_u8(struct rd *r)
{
	uint8_t c;

	take(r, &c, 1);
	return c;
}

static bool get_bool(struct rd *r)
{
	unsigned v = get_u8(r);

	if (v > 1)
		r->bad = true;
	return v == 1;
}

static uint32_t get_u32(struct rd *r)
{
	uint8_t b[4];

	take(r, b, 4);
	return pt_le32(b);
}

static uint64_t get_u64(struct rd *r)
{
	uint8_t b[8];

	take(r, b, 8);
	return pt_le64(b);
}

/* An int field: at most 32 bits of two's complement as stored. */
static int get_int(struct rd *r)
{
	int64_t v = (int64_t)get_u64(r);

	if (v < INT_MIN || v > INT_MAX)
		r->bad = true;
	return r->bad ? 0 : (int)v;
}

static char *get_str(struct rd *r)
{
	uint32_t l = get_u32(r);
	char *s;

	if (r->bad || l == NOSTR)
		return NULL;
	if ((uint64_t)l + 1 > r->n - r->off || r->b[r->off + l] != 0 || memchr(r->b + r->off, 0, l)) {
		r->bad = true;
		return NULL;
	}
	s = pt_xstrndup((const char *)r->b + r->off, l);
	r->off += (size_t)l + 1;
	return s;
}

/* A count of elements each stored in at least min bytes: not more than the bytes left hold. */
static size_t get_count(struct rd *r, size_t min)
{
	uint64_t c = get_u64(r);

	if (r->bad || c > (r->n - r->off) / min) {
		r->bad = true;
		return 0;
	}
	return (size_t)c;
}

/* n strings into *v (allocated for n; *count counts those read, for the release). */
static void get_strv(struct rd *r, char ***v, size_t *count)
{
	size_t n = get_count(r, 4);

	*v = NULL;
	*count = 0;
	if (!n)
		return;
	*v = pt_xcalloc(n, sizeof(**v));
	for (size_t i = 0; i < n && !r->bad; i++) {
		(*v)[i] = get_str(r);
		(*count)++;
	}
}

/* ---- the key ---- */

static int note_cb(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct wr *id = ctx;

	(void)size;
	/* the first object is the program itself */
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (end - p >= 12) {
			uint32_t nsz, dsz, type;
			size_t nal, dal;

			memcpy(&nsz, p, 4);
			memcpy(&dsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			nal = ((size_t)nsz + 3) & ~(size_t)3;
			dal = ((size_t)dsz + 3) & ~(size_t)3;
			if (nal > (size_t)(end - p) - 12 || dal > (size_t)(end - p) - 12 - nal)
				break;
			if (type == 3 && nsz == 4 && !memcmp(p + 12, "GNU", 4) && dsz <= 64) {
				put(id, p + 12 + nal, dsz);
				return 1;
			}
			p += 12 + nal + dal;
		}
	}
	return 1;
}

/* PT_VERSION and the program's GNU build-id (a rebuilt ptools has another). */
static const struct wr *self_id(void)
{
	static struct wr id;
	static bool done;

	if (!done) {
		done = true;
		put(&id, PT_VERSION, sizeof(PT_VERSION));
		dl_iterate_phdr(note_cb, &id);
	}
	return &id;
}

static void key_name(struct pkgcache_key *k)
{
	pt_fmt_trunc(k->name, sizeof(k->name), "pkg-%016llx.ptc",
		     (unsigned long long)fnv(FNV0, k->b, k->n));
}

void pkgcache_key_raw(struct pkgcache_key *k, const void *id, size_t n)
{
	k->b = pt_xmalloc(n ? n : 1);
	if (n)
		memcpy(k->b, id, n);
	k->n = n;
	key_name(k);
}

int pkgcache_key_make(struct pkgcache_key *k, const char *path, int type, uint64_t whole_max,
		      const struct pkgar_limits *lim)
{
	struct stat st;
	char *real;
	struct wr w = { 0 };
	const struct wr *self = self_id();

	memset(k, 0, sizeof(*k));
	if (!lim)
		lim = &pkgar_default_limits;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(real = realpath(path, NULL)))
		return -1;
	put_u32(&w, PKGCACHE_FORMAT);
	put_str(&w, real);
	put_u64(&w, (uint64_t)st.st_dev);
	put_u64(&w, (uint64_t)st.st_ino);
	put_u64(&w, (uint64_t)st.st_size);
	put_u64(&w, (uint64_t)st.st_mtim.tv_sec);
	put_u64(&w, (uint64_t)st.st_mtim.tv_nsec);
	put_u64(&w, (uint64_t)st.st_ctim.tv_sec);
	put_u64(&w, (uint64_t)st.st_ctim.tv_nsec);
	put_u64(&w, (uint64_t)type);
	put_u64(&w, whole_max);
	put_u64(&w, lim->max_member);
	put_u64(&w, lim->max_total);
	put_u64(&w, lim->max_entries);
	put_u64(&w, self->n);
	put(&w, self->b, self->n);
	free(real);
	k->b = w.b;
	k->n = w.n;
	key_name(k);
	return 0;
}

void pkgcache_key_release(struct pkgcache_key *k)
{
	free(k->b);
	memset(k, 0, sizeof(*k));
}

/* ---- encode ---- */

static void put_elf(struct wr *w, const struct elfobj *o)
{
	put_u64(w, o->size);
	put_u64(w, (uint64_t)(int64_t)o->cls);
	put_u64(w, (uint64_t)(int64_t)o->data);
	put_u64(w, (uint64_t)(int64_t)o->osabi);
	put_u64(w, (uint64_t)(int64_t)o->abiversion);
	put_u64(w, (uint64_t)(int64_t)o->type);
	put_u64(w, (uint64_t)(int64_t)o->machine);
	put_u8(w, o->refused);
	put_str(w, o->interp);
	put_str(w, o->soname);
	put_strv(w, o->needed, o->n_needed);
	put_str(w, o->rpath);
	put_str(w, o->runpath);
	put_u64(w, o->flags_1);
	put_u64(w, o->build_id_len);
	put(w, o->build_id, o->build_id_len);
	put_u8(w, o->has_debug_info);
	put_str(w, o->debuglink);
	put_u64(w, o->n_verneed);
	for (size_t i = 0; i < o->n_verneed; i++) {
		put_str(w, o->verneed[i].file);
		put_u64(w, o->verneed[i].n);
		for (size_t j = 0; j < o->verneed[i].n; j++) {
			put_str(w, o->verneed[i].v[j].name);
			put_u8(w, o->verneed[i].v[j].weak);
		}
	}
	put_strv(w, o->verdef, o->n_verdef);
	put_u8(w, o->has_verdef);
	put_u64(w, o->n_sections);
	for (size_t i = 0; i < o->n_sections; i++) {
		const struct elf_section *s = &o->sections[i];

		put_str(w, s->name);
		put_u64(w, s->type);
		put_u64(w, s->flags);
		put_u64(w, s->addr);
		put_u64(w, s->offset);
		put_u64(w, s->size);
		put_u64(w, s->align);
		put_u64(w, s->link);
		put_u64(w, s->index);
	}
}

static void put_cuda(struct wr *w, const struct cuda_summary *c)
{
	put_u64(w, c->n);
	for (size_t i = 0; i < c->n; i++) {
		const struct cuda_target_sum *t = &c->v[i];

		put_u64(w, t->t.kind);
		put_u64(w, t->t.arch);
		put_u8(w, (unsigned char)t->t.variant);
		put_u64(w, t->count);
		put_u64(w, t->stored);
		put_u64(w, t->uncompressed);
		put_u64(w, t->isa_major);
		put_u64(w, t->isa_minor);
		put_u64(w, t->units);
		put_u64(w, t->last_unit);
	}
	put_u64(w, c->n_units);
	put_u64(w, c->last_unit);
}

static void put_ext(struct wr *w, const struct torchext *x)
{
	put_u8(w, x->is_extension);
	put_strv(w, x->torch_needed, x->n_torch_needed);
	put_strv(w, x->syms, x->n_torch_syms);
	put_u64(w, x->n_cxx11);
	put_u64(w, x->n_old);
	put_u64(w, (uint64_t)x->abi);
	put_str(w, x->pybind11_id);
	put_str(w, x->gcc);
}

bool pkgcache_storable(const struct package *p, const struct pt_diag *walk)
{
	if (walk->dropped || !p->path || !*p->path)
		return false;
	for (size_t i = 0; i < walk->n; i++) {
		const struct pt_diag_msg *m = &walk->v[i];

		/* a path inside a text would not be the next run's */
		if ((m->where && strstr(m->where, p->path)) || (m->what && strstr(m->what, p->path)))
			return false;
		if (m->file && strlen(m->file) >= LABEL_MAX - 1)
			return false;
	}
	return true;
}

void pkgcache_encode(const struct pkgcache_key *k, const struct package *p,
		     const struct pt_diag *walk, uint8_t **out, size_t *len)
{
	struct wr w = { 0 };
	size_t pl = strlen(p->path);
	uint64_t sum;

	put(&w, MAGIC, 8);
	put_u32(&w, PKGCACHE_FORMAT);
	put_u32(&w, (uint32_t)k->n);
	put(&w, k->b, k->n);
	put_str(&w, p->name);
	put_str(&w, p->version);
	put_str(&w, p->generator);
	put_u8(&w, p->root_is_purelib);
	put_strv(&w, p->tags, p->n_tags);
	put_u64(&w, p->n_reqs);
	for (size_t i = 0; i < p->n_reqs; i++) {
		put_str(&w, p->reqs[i].spec);
		put_str(&w, p->reqs[i].name);
	}
	put_u64(&w, p->n_elf);
	put_u64(&w, p->bytes);
	put_u64(&w, p->n_cuda_unread);
	put_u64(&w, p->n_members);
	for (size_t i = 0; i < p->n_members; i++) {
		const struct pkg_member *m = &p->members[i];

		put_str(&w, m->name);
		put_u64(&w, m->size);
		put_u8(&w, (unsigned)m->kind);
		put_str(&w, m->link);
		put_u8(&w, m->is_elf);
		put_u8(&w, m->elf_whole);
		put_u8(&w, m->cuda_read);
		put_u8(&w, m->have_ext);
		if (m->is_elf)
			put_elf(&w, &m->elf);
		if (m->cuda_read)
			put_cuda(&w, &m->cuda);
		if (m->have_ext)
			put_ext(&w, &m->ext);
	}
	put_u64(&w, walk->n);
	for (size_t i = 0; i < walk->n; i++) {
		const struct pt_diag_msg *m = &walk->v[i];

		put_u8(&w, (unsigned)m->sev);
		if (!m->file) {
			put_u8(&w, FILE_NULL);
			put_str(&w, NULL);
		} else if (!strcmp(m->file, p->path)) {
			put_u8(&w, FILE_ARCHIVE);
			put_str(&w, NULL);
		} else if (!strncmp(m->file, p->path, pl) && m->file[pl] == ':') {
			put_u8(&w, FILE_ARCHIVE_COLON);
			put_str(&w, m->file + pl + 1);
		} else {
			put_u8(&w, FILE_LITERAL);
			put_str(&w, m->file);
		}
		put_str(&w, m->where);
		put_str(&w, m->what);
	}
	sum = fnv(FNV0, w.b, w.n);
	put_u64(&w, sum);
	*out = w.b;
	*len = w.n;
}

/* ---- decode ---- */

static void get_elf(struct rd *r, struct elfobj *o)
{
	size_t n;

	o->size = get_u64(r);
	o->cls = get_int(r);
	o->data = get_int(r);
	o->osabi = get_int(r);
	o->abiversion = get_int(r);
	o->type = get_int(r);
	o->machine = get_int(r);
	o->refused = get_bool(r);
	o->interp = get_str(r);
	o->soname = get_str(r);
	get_strv(r, &o->needed, &o->n_needed);
	for (size_t i = 0; i < o->n_needed; i++)
		if (!o->needed[i])
			r->bad = true;
	o->rpath = get_str(r);
	o->runpath = get_str(r);
	o->flags_1 = get_u64(r);
	n = (size_t)get_u64(r);
	if (n > sizeof(o->build_id))
		r->bad = true;
	else if (take(r, o->build_id, n))
		o->build_id_len = n;
	o->has_debug_info = get_bool(r);
	o->debuglink = get_str(r);
	n = get_count(r, 12);
	if (n)
		o->verneed = pt_xcalloc(n, sizeof(*o->verneed));
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct elf_verneed *v = &o->verneed[i];
		size_t nv;

		o->n_verneed++;
		v->file = get_str(r);
		nv = get_count(r, 5);
		if (nv)
			v->v = pt_xcalloc(nv, sizeof(*v->v));
		for (size_t j = 0; j < nv && !r->bad; j++) {
			v->n++;
			v->v[j].name = get_str(r);
			v->v[j].weak = get_bool(r);
		}
	}
	get_strv(r, &o->verdef, &o->n_verdef);
	o->has_verdef = get_bool(r);
	n = get_count(r, 68);
	if (n)
		o->sections = pt_xcalloc(n, sizeof(*o->sections));
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct elf_section *s = &o->sections[i];
		uint64_t type, link;

		o->n_sections++;
		s->name = get_str(r);
		type = get_u64(r);
		s->flags = get_u64(r);
		s->addr = get_u64(r);
		s->offset = get_u64(r);
		s->size = get_u64(r);
		s->align = get_u64(r);
		link = get_u64(r);
		s->index = (size_t)get_u64(r);
		if (type > UINT32_MAX || link > UINT32_MAX)
			r->bad = true;
		s->type = (uint32_t)type;
		s->link = (uint32_t)link;
	}
}

static void get_cuda(struct rd *r, struct cuda_summary *c)
{
	size_t n = get_count(r, 73);

	if (n) {
		c->v = pt_xcalloc(n, sizeof(*c->v));
		c->alloc = n;
	}
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct cuda_target_sum *t = &c->v[i];
		uint64_t kind = get_u64(r), arch = get_u64(r), maj, min;

		t->t.variant = (char)get_u8(r);
		t->count = (size_t)get_u64(r);
		t->stored = get_u64(r);
		t->uncompressed = get_u64(r);
		maj = get_u64(r);
		min = get_u64(r);
		t->units = (size_t)get_u64(r);
		t->last_unit = (size_t)get_u64(r);
		if (kind > UINT16_MAX || arch > UINT32_MAX || maj > UINT16_MAX || min > UINT16_MAX ||
		    (t->t.variant && t->t.variant != 'a' && t->t.variant != 'f'))
			r->bad = true;
		t->t.kind = (uint16_t)kind;
		t->t.arch = (uint32_t)arch;
		t->isa_major = (uint16_t)maj;
		t->isa_minor = (uint16_t)min;
		c->n++;
	}
	c->n_units = (size_t)get_u64(r);
	c->last_unit = (size_t)get_u64(r);
}

static void get_ext(struct rd *r, struct torchext *x)
{
	uint64_t abi;

	x->is_extension = get_bool(r);
	get_strv(r, &x->torch_needed, &x->n_torch_needed);
	get_strv(r, &x->syms, &x->n_torch_syms);
	for (size_t i = 0; i < x->n_torch_needed; i++)
		if (!x->torch_needed[i])
			r->bad = true;
	for (size_t i = 0; i < x->n_torch_syms; i++)
		if (!x->syms[i])
			r->bad = true;
	x->n_cxx11 = (size_t)get_u64(r);
	x->n_old = (size_t)get_u64(r);
	abi = get_u64(r);
	if (abi > TORCHEXT_ABI_MIXED)
		r->bad = true;
	x->abi = (enum torchext_abi)abi;
	x->pybind11_id = get_str(r);
	x->gcc = get_str(r);
}

struct dmsg {
	unsigned sev;
	char *file, *where, *what;
};

int pkgcache_decode(const struct pkgcache_key *k, const void *buf, size_t len, struct package *p,
		    struct pt_diag *walk)
{
	struct rd r = { buf, len, 0, false };
	struct package q;
	struct dmsg *msgs = NULL;
	size_t n_msgs = 0, n;
	char magic[8];
	uint64_t sum, want;

	if (len < 8 + 4 + 4 + 8)
		return -1;
	{
		struct rd t = { buf, len, len - 8, false };

		sum = get_u64(&t);
	}
	want = fnv(FNV0, buf, len - 8);
	if (sum != want)
		return -1;
	r.n = len - 8;
	take(&r, magic, 8);
	if (r.bad || memcmp(magic, MAGIC, 8) || get_u32(&r) != PKGCACHE_FORMAT)
		return -1;
	n = get_u32(&r);
	if (r.bad || n != k->n || n > r.n - r.off || memcmp(r.b + r.off, k->b, n))
		return -1;
	r.off += n;

	memset(&q, 0, sizeof(q));
	q.name = get_str(&r);
	q.version = get_str(&r);
	q.generator = get_str(&r);
	q.root_is_purelib = get_bool(&r);
	get_strv(&r, &q.tags, &q.n_tags);
	for (size_t i = 0; i < q.n_tags; i++)
		if (!q.tags[i])
			r.bad = true;
	n = get_count(&r, 8);
	if (n)
		q.reqs = pt_xcalloc(n, sizeof(*q.reqs));
	for (size_t i = 0; i < n && !r.bad; i++) {
		q.n_reqs++;
		q.reqs[i].spec = get_str(&r);
		q.reqs[i].name = get_str(&r);
		if (!q.reqs[i].spec || !q.reqs[i].name)
			r.bad = true;
	}
	q.n_elf = (size_t)get_u64(&r);
	q.bytes = get_u64(&r);
	q.n_cuda_unread = (size_t)get_u64(&r);
	n = get_count(&r, 18);
	for (size_t i = 0; i < n && !r.bad; i++) {
		struct pkg_member *m;
		unsigned kind;

		PT_GROW(q.members, q.n_members, q.a_members);
		m = &q.members[q.n_members++];
		memset(m, 0, sizeof(*m));
		m->elf.fd = -1;
		m->name = get_str(&r);
		m->size = get_u64(&r);
		kind = get_u8(&r);
		if (kind > PKGAR_OTHER || !m->name)
			r.bad = true;
		m->kind = (enum pkgar_kind)kind;
		m->link = get_str(&r);
		m->is_elf = get_bool(&r);
		m->elf_whole = get_bool(&r);
		m->cuda_read = get_bool(&r);
		m->have_ext = get_bool(&r);
		if (m->is_elf && !r.bad) {
			char label[LABEL_MAX];

			get_elf(&r, &m->elf);
			pt_fmt_trunc(label, sizeof(label), "%s:%s", p->path, m->name ? m->name : "");
			m->elf.path = pt_xstrdup(label);
		}
		if (m->cuda_read && !r.bad)
			get_cuda(&r, &m->cuda);
		if (m->have_ext && !r.bad)
			get_ext(&r, &m->ext);
		if ((m->cuda_read || m->have_ext) && !m->is_elf)
			r.bad = true;
	}
	n = get_count(&r, 14);
	if (n)
		msgs = pt_xcalloc(n, sizeof(*msgs));
	for (size_t i = 0; i < n && !r.bad; i++) {
		struct dmsg *d = &msgs[n_msgs++];
		unsigned mode;
		char *f;

		d->sev = get_u8(&r);
		mode = get_u8(&r);
		f = get_str(&r);
		d->where = get_str(&r);
		d->what = get_str(&r);
		if (d->sev > PT_SEV_ERROR || mode > FILE_ARCHIVE_COLON || !d->what ||
		    ((mode == FILE_LITERAL || mode == FILE_ARCHIVE_COLON) != (f != NULL)))
			r.bad = true;
		else if (mode == FILE_ARCHIVE)
			d->file = pt_xstrdup(p->path);
		else if (mode == FILE_ARCHIVE_COLON)
			d->file = pt_xasprintf("%s:%s", p->path, f);
		else
			d->file = f ? pt_xstrdup(f) : NULL;
		free(f);
	}
	if (!r.bad && r.off != r.n)
		r.bad = true;	/* bytes after the last record: not this format */
	if (!r.bad && q.n_elf > q.n_members)
		r.bad = true;
	if (!r.bad) {
		/* the walk's facts into p; p's path and type stay */
		p->name = q.name;
		p->version = q.version;
		p->generator = q.generator;
		p->root_is_purelib = q.root_is_purelib;
		p->tags = q.tags;
		p->n_tags = q.n_tags;
		p->reqs = q.reqs;
		p->n_reqs = q.n_reqs;
		p->n_elf = q.n_elf;
		p->bytes = q.bytes;
		p->n_cuda_unread = q.n_cuda_unread;
		p->members = q.members;
		p->n_members = q.n_members;
		p->a_members = q.a_members;
		for (size_t i = 0; i < n_msgs; i++)
			pt_diag_add(walk, (enum pt_severity)msgs[i].sev, msgs[i].file, msgs[i].where, "%s",
				    msgs[i].what);
	} else {
		package_release(&q);
	}
	for (size_t i = 0; i < n_msgs; i++) {
		free(msgs[i].file);
		free(msgs[i].where);
		free(msgs[i].what);
	}
	free(msgs);
	return r.bad ? -1 : 0;
}

/* ---- the files ---- */

int pkgcache_load(const char *dir, const struct pkgcache_key *k, struct package *p,
		  struct pt_diag *walk)
{
	char *path = pt_xasprintf("%s/%s", dir, k->name);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), rc = -1;
	struct stat st;

	free(path);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= PKGCACHE_FILE_MAX) {
		size_t len = (size_t)st.st_size, got = 0;
		uint8_t *b = pt_xmalloc(len);

		while (got < len) {
			ssize_t n = read(fd, b + got, len - got);

			if (n <= 0)
				break;
			got += (size_t)n;
		}
		if (got == len)
			rc = pkgcache_decode(k, b, len, p, walk);
		free(b);
		if (rc == 0)
			(void)futimens(fd, NULL);	/* recently used: the last to go */
	}
	close(fd);
	return rc;
}

/* mkdir -p, each new level 0700. */
static int make_dirs(const char *dir)
{
	char *d = pt_xstrdup(dir);
	struct stat st;
	int rc = 0;

	for (char *s = d + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = 0;
			if (stat(d, &st) != 0 && mkdir(d, 0700) != 0 && errno != EEXIST)
				rc = -1;
			*s = c;
			if (!c || rc)
				break;
		}
	}
	free(d);
	return rc;
}

struct centry {
	char *path;
	uint64_t size;
	struct timespec mtime;
};

static int cmp_age(const void *a, const void *b)
{
	const struct centry *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Beyond the bounds: the least recently used files go (never keep's). */
static void evict(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct centry *v = NULL;
	size_t n = 0, a = 0;
	uint64_t total = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct stat st;
		char *path;

		if (strncmp(de->d_name, "pkg-", 4) || l < 8 || strcmp(de->d_name + l - 4, ".ptc"))
			continue;
		path = pt_xasprintf("%s/%s", dir, de->d_name);
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		PT_GROW(v, n, a);
		v[n++] = (struct centry){ path, (uint64_t)st.st_size, st.st_mtim };
		total += (uint64_t)st.st_size;
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_age);
	for (size_t i = 0, left = n; i < n; i++) {
		const char *b = strrchr(v[i].path, '/') + 1;

		if ((total > PKGCACHE_MAX_BYTES || left > PKGCACHE_MAX_FILES) && strcmp(b, keep) &&
		    unlink(v[i].path) == 0) {
			total -= v[i].size;
			left--;
		}
		free(v[i].path);
	}
	free(v);
}

int pkgcache_store(const char *dir, const struct pkgcache_key *k, const struct package *p,
		   const struct pt_diag *walk)
{
	uint8_t *b;
	size_t len, done = 0;
	char *tmp, *path;
	int fd, rc = 0;

	if (!pkgcache_storable(p, walk) || make_dirs(dir) != 0)
		return -1;
	pkgcache_encode(k, p, walk, &b, &len);
	if (len > PKGCACHE_FILE_MAX) {
		free(b);
		return -1;
	}
	tmp = pt_xasprintf("%s/%s.tmpXXXXXX", dir, k->name);
	path = pt_xasprintf("%s/%s", dir, k->name);
	fd = mkostemp(tmp, O_CLOEXEC);	/* mode 0600 */
	if (fd < 0)
		rc = -1;
	while (rc == 0 && done < len) {
		ssize_t n = write(fd, b + done, len - done);

		if (n <= 0)
			rc = -1;
		else
			done += (size_t)n;
	}
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	if (fd >= 0 && (rc != 0 || rename(tmp, path) != 0)) {
		unlink(tmp);
		rc = -1;
	}
	if (rc == 0)
		evict(dir, k->name);
	free(tmp);
	free(path);
	free(b);
	return rc;
}

/* ---- the read ---- */

int pkgcache_package_read(const char *path, const struct pkg_opts *opt, struct package *p,
			  struct pt_diag *diag)
{
	struct pkgcache_key key;
	struct pt_diag wd;
	struct stat st;
	char *dir;
	int rc = 0;
	bool keyed;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return package_read(path, opt, p, diag);
	dir = opt->no_cache ? NULL : pkgcache_dir();
	keyed = dir && pkgcache_key_make(&key, path, (int)package_type_of(path),
					 opt->whole_max ? opt->whole_max : PKG_WHOLE_MAX, opt->lim) == 0;
	package_begin(path, opt, p);
	/* The walk's messages apart until then: a hit replays them before finish adds its own. */
	pt_diag_init(&wd);
	p->cache = keyed ? PKGCACHE_MISS : PKGCACHE_OFF;
	if (keyed && pkgcache_load(dir, &key, p, &wd) == 0) {
		p->cache = PKGCACHE_HIT;
	} else {
		rc = package_walk(opt, p, &wd);
		if (rc != 0)
			p->cache = PKGCACHE_NONE;	/* a damaged archive's facts are not kept */
		else if (keyed)
			pkgcache_store(dir, &key, p, &wd);
	}
	pt_diag_take(diag, &wd);
	package_finish(p, opt, diag);
	if (keyed)
		pkgcache_key_release(&key);
	free(dir);
	return rc ? -1 : 0;
}
