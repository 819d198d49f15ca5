/* One package as a whole: members, metadata, resolution once installed (package.h). */
#include "package.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "cmp.h"
#include "fatbin_scan.h"
#include "ldcache.h"
#include "strbuf.h"
#include "xalloc.h"

#define VROOT "/@prefix"		/* the install prefix, for $ORIGIN's arithmetic */
#define WHEEL_SITE "lib/python3/site-packages"	/* a wheel's members, below the prefix */
#define META_MAX (1u << 20)		/* WHEEL, METADATA, index.json read whole up to this */
#define HEAD_MAX (16ull << 20)		/* an ELF member's first bytes kept (.dynstr, .gnu.version_r) */
#define TAIL_MAX (256u << 10)		/* before the section table: .shstrtab */
#define DIR_DEPTH 32
#define DIR_FILES 200000

const char *pkg_type_name(enum pkg_type t)
{
	switch (t) {
	case PKG_WHEEL: return "wheel";
	case PKG_CONDA: return "conda";
	case PKG_DIR: return "directory";
	}
	return "?";
}

const char *pkg_from_name(enum pkg_from f)
{
	static const char *const n[] = { "bundled", "preloaded", "requirement", "system", "absolute",
					 "missing" };

	return f <= PKG_FROM_MISSING ? n[f] : "?";
}

static bool ends_with(const char *s, const char *suf)
{
	size_t ls = strlen(s), lf = strlen(suf);

	return ls >= lf && !strcmp(s + ls - lf, suf);
}

bool package_is_package(const char *path, bool is_dir)
{
	return is_dir || ends_with(path, ".whl") || ends_with(path, ".conda") ||
	       ends_with(path, ".tar.bz2");
}

/*
 * The nvidia-* wheels' layout and the libraries each ships. Up to CUDA 12 each
 * toolkit library has a wheel of its own, nvidia-X-cu12, in
 * site-packages/nvidia/X/lib; from CUDA 13 on those wheels are named without
 * the -cuNN suffix (nvidia-cuda-runtime 13.x; the -cu13 names were withdrawn)
 * and all install into one site-packages/nvidia/cu13/lib (ctk below). cuDNN,
 * cuSPARSELt and NCCL keep their own directories in both.
 */
static const struct provider {
	const char *prefix;	/* of the library name */
	const char *req;	/* requirement name, without -cuNN */
	const char *dir;	/* under site-packages, CUDA 12's */
	bool ctk;		/* a CUDA toolkit library: nvidia/cu<N>/lib from CUDA 13 on */
} providers[] = {
	{ "libcudart.so", "nvidia-cuda-runtime", "nvidia/cuda_runtime/lib", true },
	{ "libnvrtc", "nvidia-cuda-nvrtc", "nvidia/cuda_nvrtc/lib", true },
	{ "libcupti.so", "nvidia-cuda-cupti", "nvidia/cuda_cupti/lib", true },
	{ "libcudnn", "nvidia-cudnn", "nvidia/cudnn/lib", false },
	{ "libcublas", "nvidia-cublas", "nvidia/cublas/lib", true },
	{ "libcufft", "nvidia-cufft", "nvidia/cufft/lib", true },
	{ "libcurand.so", "nvidia-curand", "nvidia/curand/lib", true },
	{ "libcusolver", "nvidia-cusolver", "nvidia/cusolver/lib", true },
	{ "libcusparseLt.so", "nvidia-cusparselt", "nvidia/cusparselt/lib", false },
	{ "libcusparse.so", "nvidia-cusparse", "nvidia/cusparse/lib", true },
	{ "libnccl.so", "nvidia-nccl", "nvidia/nccl/lib", false },
	{ "libnvToolsExt.so", "nvidia-nvtx", "nvidia/nvtx/lib", true },
	{ "libnvJitLink.so", "nvidia-nvjitlink", "nvidia/nvjitlink/lib", true },
	{ "libcufile", "nvidia-cufile", "nvidia/cufile/lib", true },
	{ "libc10", "torch", "torch/lib", false },
	{ "libtorch", "torch", "torch/lib", false },
	{ "libshm.so", "torch", "torch/lib", false },
};

/* CUDA 13's one toolkit directory, site-packages/nvidia/cu13/lib, by the package's requirements. */
#define CTK13_DIR "nvidia/cu13/lib"

/* Is rel (under site-packages) CUDA 13 and later's toolkit directory, nvidia/cu<N>/lib with N >= 13? */
static bool ctk_dir(const char *rel)
{
	const char *s = rel + 9;
	size_t d;

	if (strncmp(rel, "nvidia/cu", 9))
		return false;
	d = strspn(s, "0123456789");
	return d >= 2 && d <= 3 && !strcmp(s + d, "/lib") && (d == 3 || strncmp(s, "13", 2) >= 0);
}

static const struct provider *provider_of(const char *soname)
{
	for (size_t i = 0; i < PT_ARRAY_SIZE(providers); i++)
		if (!strncmp(soname, providers[i].prefix, strlen(providers[i].prefix)))
			return &providers[i];
	return NULL;
}

const char *package_provider(const char *soname, const char **dir)
{
	const struct provider *p = provider_of(soname);

	if (dir)
		*dir = p ? p->dir : NULL;
	return p ? p->req : NULL;
}

/* Requirement names compared as pip does: lower case, runs of -_. as one '-'. */
static char *norm_name(const char *s, size_t n)
{
	char *o = pt_xmalloc(n + 1);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '_' || c == '.' || c == '-') {
			if (k && o[k - 1] != '-')
				o[k++] = '-';
		} else {
			o[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		}
	}
	o[k] = 0;
	return o;
}

/* Does a requirement match req ("nvidia-cudnn" matches nvidia-cudnn-cu12, "torch" only torch)? */
static const struct pkg_requirement *has_req(const struct package *p, const char *req)
{
	size_t l = strlen(req);

	for (size_t i = 0; i < p->n_reqs; i++) {
		const char *n = p->reqs[i].name;

		if (!strcmp(n, req) || (!strncmp(n, req, l) && !strncmp(n + l, "-cu", 3)))
			return &p->reqs[i];
	}
	return NULL;
}

static void add_req(struct package *p, const char *spec, size_t n)
{
	size_t l = 0;

	while (n && (spec[n - 1] == ' ' || spec[n - 1] == '\r'))
		n--;
	while (l < n && (spec[l] == '-' || spec[l] == '_' || spec[l] == '.' ||
			 (spec[l] >= '0' && spec[l] <= '9') || (spec[l] >= 'a' && spec[l] <= 'z') ||
			 (spec[l] >= 'A' && spec[l] <= 'Z')))
		l++;
	if (!l)
		return;
	p->reqs = pt_xreallocarray(p->reqs, p->n_reqs + 1, sizeof(*p->reqs));
	p->reqs[p->n_reqs].spec = pt_xstrndup(spec, n);
	p->reqs[p->n_reqs].name = norm_name(spec, l);
	p->n_reqs++;
}

/* "Key: value" headers of WHEEL and METADATA, up to the first blank line. */
static void parse_headers(struct package *p, const char *buf, size_t len, bool wheel)
{
	const char *s = buf, *end = buf + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end, *v;
		size_t kl, vl;

		if (e == s || (e - s == 1 && *s == '\r'))
			break;
		v = memchr(s, ':', (size_t)(e - s));
		if (v) {
			kl = (size_t)(v - s);
			v++;
			while (v < e && *v == ' ')
				v++;
			vl = (size_t)(e - v);
			while (vl && v[vl - 1] == '\r')
				vl--;
#define KEY(k) (kl == sizeof(k) - 1 && !strncasecmp(s, k, kl))
			if (wheel && KEY("Tag")) {
				p->tags = pt_xreallocarray(p->tags, p->n_tags + 1, sizeof(*p->tags));
				p->tags[p->n_tags++] = pt_xstrndup(v, vl);
			} else if (wheel && KEY("Generator") && !p->generator) {
				p->generator = pt_xstrndup(v, vl);
			} else if (wheel && KEY("Root-Is-Purelib")) {
				p->root_is_purelib = vl == 4 && !strncasecmp(v, "true", 4);
			} else if (!wheel && KEY("Name") && !p->name) {
				p->name = pt_xstrndup(v, vl);
			} else if (!wheel && KEY("Version") && !p->version) {
				p->version = pt_xstrndup(v, vl);
			} else if (!wheel && KEY("Requires-Dist")) {
				/* An extra's requirement ("; extra == 'x'") is not installed by default. */
				const char *semi = memchr(v, ';', vl);

				if (!semi || !memmem(semi, vl - (size_t)(semi - v), "extra", 5))
					add_req(p, v, semi ? (size_t)(semi - v) : vl);
			}
#undef KEY
		}
		s = nl ? nl + 1 : end;
	}
}

static void parse_index_json(struct package *p, const char *buf, size_t len, const char *where,
			     struct pt_diag *diag)
{
	json_error_t err;
	json_t *j = json_loadb(buf, len, 0, &err), *v;
	size_t i;

	if (!j || !json_is_object(j)) {
		pt_diag_add(diag, PT_SEV_WARNING, p->path, where, "not a JSON object: %s",
			    j ? "another type" : err.text);
		json_decref(j);
		return;
	}
	if (json_is_string(v = json_object_get(j, "name")) && !p->name)
		p->name = pt_xstrdup(json_string_value(v));
	if (json_is_string(v = json_object_get(j, "version")) && !p->version)
		p->version = pt_xstrdup(json_string_value(v));
	if (json_is_string(v = json_object_get(j, "subdir"))) {
		const json_t *b = json_object_get(j, "build");

		p->tags = pt_xreallocarray(p->tags, p->n_tags + 1, sizeof(*p->tags));
		p->tags[p->n_tags++] = pt_xasprintf("%s/%s", json_string_value(v),
						    json_is_string(b) ? json_string_value(b) : "?");
	}
	json_array_foreach(json_object_get(j, "depends"), i, v) {
		if (json_is_string(v)) {
			/* conda: "name version build"; the name up to the first space */
			const char *s = json_string_value(v);

			add_req(p, s, strlen(s));
		}
	}
	json_decref(j);
}

static bool is_meta(const struct package *p, const char *name, bool *wheel_file, bool *index)
{
	const char *slash = strchr(name, '/');

	*wheel_file = *index = false;
	if (p->type == PKG_CONDA) {
		*index = !strcmp(name, "info/index.json");
		return *index;
	}
	if (!slash || strchr(slash + 1, '/') || slash - name < 11 || strncmp(slash - 10, ".dist-info", 10))
		return false;
	*wheel_file = !strcmp(slash + 1, "WHEEL");
	return *wheel_file || !strcmp(slash + 1, "METADATA");
}

/* ---- reading an ELF member from a stream into a sparse copy ---- */

struct range {
	uint64_t off, end;
};

struct capture {
	uint8_t *map;
	uint64_t size;
	struct range want[24];
	size_t n_want;
};

static void want(struct capture *c, uint64_t off, uint64_t len)
{
	if (off >= c->size || c->n_want == PT_ARRAY_SIZE(c->want))
		return;
	if (len > c->size - off)
		len = c->size - off;
	c->want[c->n_want++] = (struct range){ off, off + len };
}

/* From the ELF header and program headers in the map: what else the reader needs. */
static void plan(struct capture *c, uint64_t have)
{
	const uint8_t *h = c->map;
	bool is64 = h[4] == 2, le = h[5] == 1;
	uint64_t phoff, shoff, phnum, phent, shnum, shent;

	if (have < 64)
		return;
	phoff = is64 ? pt_rdn(h + 32, 8, !le) : pt_rdn(h + 28, 4, !le);
	shoff = is64 ? pt_rdn(h + 40, 8, !le) : pt_rdn(h + 32, 4, !le);
	phent = pt_rdn(h + (is64 ? 54 : 42), 2, !le);
	phnum = pt_rdn(h + (is64 ? 56 : 44), 2, !le);
	shent = pt_rdn(h + (is64 ? 58 : 46), 2, !le);
	shnum = pt_rdn(h + (is64 ? 60 : 48), 2, !le);
	want(c, phoff, phent * phnum);
	if (shoff)
		want(c, shoff > TAIL_MAX ? shoff - TAIL_MAX : 0,
		     (shoff > TAIL_MAX ? TAIL_MAX : shoff) + shent * (shnum ? shnum : 1));
	if (phoff + phent * phnum > have || phent < (is64 ? 56u : 32u))
		return;
	for (uint64_t i = 0; i < phnum; i++) {
		const uint8_t *ph = h + phoff + i * phent;
		uint32_t type = (uint32_t)pt_rdn(ph, 4, !le);
		uint64_t off = is64 ? pt_rdn(ph + 8, 8, !le) : pt_rdn(ph + 4, 4, !le);
		uint64_t fsz = is64 ? pt_rdn(ph + 32, 8, !le) : pt_rdn(ph + 16, 4, !le);

		/* PT_DYNAMIC, PT_INTERP, PT_NOTE (build-id) */
		if ((type == 2 || type == 3 || type == 4) && fsz <= (1u << 20))
			want(c, off, fsz);
	}
}

static void copy_wanted(struct capture *c, const uint8_t *buf, uint64_t pos, size_t n)
{
	for (size_t i = 0; i < c->n_want; i++) {
		uint64_t a = c->want[i].off > pos ? c->want[i].off : pos;
		uint64_t b = c->want[i].end < pos + n ? c->want[i].end : pos + n;

		if (a < b)
			memcpy(c->map + a, buf + (a - pos), (size_t)(b - a));
	}
}

/*
 * The member's bytes: its head (whole when it is small), the program headers'
 * PT_DYNAMIC/PT_INTERP/PT_NOTE and the section table with what precedes it,
 * in an anonymous mapping of the member's size whose other pages are never
 * touched (they cost no memory). Returns 1 when it is an ELF file (o open,
 * fields only), 0 when not, -1 on a read error.
 */
static int read_elf_member(struct pkgar *a, const struct pkgar_entry *e, struct package *p,
			   struct pkg_member *m, uint64_t whole_max, uint64_t max_member,
			   struct pt_diag *diag)
{
	struct capture c = { 0 };
	uint8_t first[64];
	uint8_t *chunk;
	uint64_t pos = 0, head;
	long r;
	int rc = 0;
	bool planned = false;
	char label[600];

	if (!e->size_known || e->size < 64)
		return 0;
	/* A short first read is not the end of the member: read until 64 bytes or its end. */
	while (pos < sizeof(first)) {
		r = pkgar_read(a, first + pos, sizeof(first) - pos);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		pos += (uint64_t)r;
	}
	if (pos < sizeof(first) || memcmp(first, "\177ELF", 4))
		return 0;
	c.size = e->size;
	c.map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		     -1, 0);
	if (c.map == MAP_FAILED) {
		pt_diag_add(diag, PT_SEV_ERROR, p->path, e->name, "cannot map %llu bytes: %s",
			    (unsigned long long)c.size, strerror(errno));
		return -1;
	}
	head = c.size <= whole_max ? c.size : HEAD_MAX;
	want(&c, 0, head);
	memcpy(c.map, first, sizeof(first));
	chunk = pt_xmalloc(1u << 20);
	for (;;) {
		uint64_t need = 0;

		for (size_t i = 0; i < c.n_want; i++)
			if (c.want[i].end > need)
				need = c.want[i].end;
		if (pos >= need)
			break;
		r = pkgar_read(a, chunk, 1u << 20);
		if (r < 0) {
			rc = -1;
			break;
		}
		if (r == 0)
			break;
		copy_wanted(&c, chunk, pos, (size_t)r);
		pos += (uint64_t)r;
		if (!planned) {
			plan(&c, pos);
			planned = true;
		}
	}
	free(chunk);
	if (rc == 0 && pos < c.size && pos < c.want[0].end) {
		pt_diag_add(diag, PT_SEV_ERROR, p->path, e->name,
			    "ends at byte %llu of the %llu it declares", (unsigned long long)pos,
			    (unsigned long long)c.size);
		rc = -1;
	}
	if (rc == 0) {
		pt_fmt_trunc(label, sizeof(label), "%s:%s", p->path, e->name);
		if (elfobj_open_bytes(&m->elf, label, c.map, c.size, (size_t)max_member, diag) == 0) {
			m->is_elf = true;
			m->elf_whole = c.size <= whole_max;
			rc = 1;
		} else {
			elfobj_release(&m->elf);
			rc = -1;
		}
	}
	if (m->is_elf) {
		struct pt_diag d3;

		/* .dynsym is in the head: the torch symbols an extension needs */
		pt_diag_init(&d3);
		m->have_ext = torchext_read(&m->elf, &m->ext, &d3) == 0;
		pt_diag_release(&d3);
		if (m->elf_whole) {
			struct cuda_scan scan;
			struct pt_diag d2;

			pt_diag_init(&d2);
			if (cuda_scan(&m->elf, 0, &scan, &d2) == 0) {
				for (size_t i = 0; i < scan.entries.n; i++)
					cudaarch_summary_add_unit(&m->cuda, &scan.entries.v[i],
								  scan.entries.v[i].fatbin);
				m->cuda_read = true;
				cuda_scan_release(&scan);
			}
			pt_diag_take(diag, &d2);
			pt_diag_release(&d2);
		} else {
			for (size_t i = 0; i < m->elf.n_sections; i++)
				if (m->elf.sections[i].name && !strcmp(m->elf.sections[i].name, ".nv_fatbin"))
					p->n_cuda_unread++;
		}
		elfobj_drop_bytes(&m->elf);
	}
	munmap(c.map, c.size);
	return rc;
}

/* ---- the walk ---- */

struct walk {
	struct package *p;
	const struct pkg_opts *opt;
	struct pt_diag *diag;
	uint64_t whole_max, max_member;
};

static struct pkg_member *new_member(struct package *p, const char *name)
{
	struct pkg_member *m;

	PT_GROW(p->members, p->n_members, p->a_members);
	m = &p->members[p->n_members++];
	memset(m, 0, sizeof(*m));
	m->name = pt_xstrdup(name);
	m->elf.fd = -1;
	return m;
}

static int read_small(struct pkgar *a, const struct pkgar_entry *e, char **out, size_t *len)
{
	size_t n = 0, cap = e->size_known && e->size < META_MAX ? (size_t)e->size + 1 : 4096;
	char *b = pt_xmalloc(cap);

	for (;;) {
		long r;

		if (n + 1 >= cap) {
			if (cap >= META_MAX)
				break;
			cap *= 2;
			b = pt_xrealloc(b, cap);
		}
		r = pkgar_read(a, b + n, cap - n - 1);
		if (r < 0) {
			free(b);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = 0;
	*out = b;
	*len = n;
	return 0;
}

/* Names no shared object has: not even their first bytes are inflated. */
static bool text_name(const char *name)
{
	static const char *const suf[] = { ".py", ".pyi", ".pyc", ".h", ".hpp", ".cuh", ".txt", ".json",
					   ".cmake", ".md", ".yaml", ".typed", ".html", ".js", ".css" };

	for (size_t i = 0; i < PT_ARRAY_SIZE(suf); i++)
		if (ends_with(name, suf[i]))
			return true;
	return false;
}

static int visit(void *ctx, const struct pkgar_entry *e, struct pkgar *a)
{
	struct walk *w = ctx;
	struct package *p = w->p;
	struct pkg_member *m;
	bool wheel_file, index;

	/* A .conda's info tarball holds metadata only; its pkg tarball the files. */
	if (e->inner && !strncmp(e->inner, "info-", 5)) {
		if (!strcmp(e->name, "info/index.json") && e->kind == PKGAR_FILE) {
			char *b;
			size_t n;

			if (read_small(a, e, &b, &n) == 0) {
				parse_index_json(p, b, n, e->name, w->diag);
				free(b);
			}
		}
		return 0;
	}
	if (e->kind == PKGAR_DIR)
		return 0;
	if (is_meta(p, e->name, &wheel_file, &index) && e->kind == PKGAR_FILE) {
		char *b;
		size_t n;

		if (read_small(a, e, &b, &n) == 0) {
			if (index)
				parse_index_json(p, b, n, e->name, w->diag);
			else
				parse_headers(p, b, n, wheel_file);
			free(b);
		}
	}
	if (p->type == PKG_CONDA && !strncmp(e->name, "info/", 5))
		return 0;
	m = new_member(p, e->name);
	m->size = e->size;
	m->kind = e->kind;
	p->bytes += e->size;
	if (e->link)
		m->link = pt_xstrdup(e->link);
	if (e->kind == PKGAR_FILE && !text_name(e->name) &&
	    read_elf_member(a, e, p, m, w->whole_max, w->max_member, w->diag) == 1)
		p->n_elf++;
	return 0;
}

/* ---- a directory ---- */

static int dir_file(struct walk *w, const char *path, const char *rel, const struct stat *st)
{
	struct package *p = w->p;
	struct pkg_member *m;
	bool wheel_file, index;
	char head[4];
	int fd;

	if (is_meta(p, rel, &wheel_file, &index) && st->st_size < META_MAX) {
		FILE *f = fopen(path, "rb");

		if (f) {
			char *b = pt_xmalloc((size_t)st->st_size + 1);
			size_t n = fread(b, 1, (size_t)st->st_size, f);

			b[n] = 0;
			fclose(f);
			if (index)
				parse_index_json(p, b, n, rel, w->diag);
			else
				parse_headers(p, b, n, wheel_file);
			free(b);
		}
	}
	m = new_member(p, rel);
	m->size = (uint64_t)st->st_size;
	m->kind = S_ISLNK(st->st_mode) ? PKGAR_SYMLINK : S_ISREG(st->st_mode) ? PKGAR_FILE : PKGAR_OTHER;
	p->bytes += m->size;
	if (m->kind == PKGAR_SYMLINK) {
		char t[4096];
		ssize_t l = readlink(path, t, sizeof(t) - 1);

		if (l > 0) {
			t[l] = 0;
			m->link = pt_xstrdup(t);
		}
		return 0;
	}
	if (m->kind != PKGAR_FILE || st->st_size < 64)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	if (read(fd, head, 4) != 4 || memcmp(head, "\177ELF", 4)) {
		close(fd);
		return 0;
	}
	close(fd);
	if (elfobj_open(&m->elf, path, w->diag) != 0) {
		elfobj_release(&m->elf);
		return 0;
	}
	m->is_elf = true;
	m->elf_whole = true;
	p->n_elf++;
	{
		struct pt_diag d3;

		pt_diag_init(&d3);
		m->have_ext = torchext_read(&m->elf, &m->ext, &d3) == 0;
		pt_diag_release(&d3);
	}
	{
		struct cuda_scan scan;

		if (cuda_scan(&m->elf, 0, &scan, w->diag) == 0) {
			for (size_t i = 0; i < scan.entries.n; i++)
				cudaarch_summary_add_unit(&m->cuda, &scan.entries.v[i], scan.entries.v[i].fatbin);
			m->cuda_read = true;
			cuda_scan_release(&scan);
		}
	}
	return 0;
}

static int dir_walk(struct walk *w, const char *dir, const char *rel, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, a = 0;

	if (depth > DIR_DEPTH) {
		pt_diag_add(w->diag, PT_SEV_WARNING, w->p->path, rel, "more than %d levels deep: not read",
			    DIR_DEPTH);
		return 0;
	}
	if (!(d = opendir(dir))) {
		pt_diag_add(w->diag, depth ? PT_SEV_WARNING : PT_SEV_ERROR, w->p->path, depth ? rel : NULL,
			    "cannot read the directory: %s", strerror(errno));
		return depth ? 0 : -1;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		PT_GROW(names, n, a);
		names[n++] = pt_xstrdup(de->d_name);
	}
	closedir(d);
	/* Sorted: the same report whatever order the file system lists them in. */
	if (n)
		qsort(names, n, sizeof(*names), pt_cmp_strp);
	for (size_t i = 0; i < n; i++) {
		char *path = pt_xasprintf("%s/%s", dir, names[i]);
		char *r = *rel ? pt_xasprintf("%s/%s", rel, names[i]) : pt_xstrdup(names[i]);
		struct stat st;

		if (w->p->n_members < DIR_FILES && lstat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && strcmp(names[i], "__pycache__"))
				dir_walk(w, path, r, depth + 1);
			else if (!S_ISDIR(st.st_mode))
				dir_file(w, path, r, &st);
		}
		free(path);
		free(r);
		free(names[i]);
	}
	free(names);
	return 0;
}

/* ---- installed paths and the lookup ---- */

struct pkg_index {
	const char *key;
	size_t idx;
};

struct resolver {
	struct package *p;
	const struct pkg_opts *opt;
	struct pt_diag *diag;
	struct pkg_index *ix;
	size_t n_ix;
	const char *site;	/* the site-packages directory, prefix-relative */
	char *realsite;		/* a directory package: the real site-packages beside it, or NULL */
};

static int cmp_ix(const void *a, const void *b)
{
	return strcmp(((const struct pkg_index *)a)->key, ((const struct pkg_index *)b)->key);
}

/* "a/./b/../c" -> "a/c"; NULL when ".." climbs above the start. */
static char *norm_path(const char *s)
{
	char *out = pt_xmalloc(strlen(s) + 2);
	size_t k = 0;
	bool abs = s[0] == '/';

	if (abs)
		out[k++] = '/';
	while (*s) {
		size_t l = strcspn(s, "/");

		if (l == 0 || (l == 1 && s[0] == '.')) {
			/* nothing */
		} else if (l == 2 && s[0] == '.' && s[1] == '.') {
			if (k <= (size_t)abs) {
				free(out);
				return NULL;
			}
			while (k > (size_t)abs && out[k - 1] != '/')
				k--;
			if (k > (size_t)abs)
				k--;
		} else {
			if (k > (size_t)abs)
				out[k++] = '/';
			memcpy(out + k, s, l);
			k += l;
		}
		s += l;
		if (*s)
			s++;
	}
	out[k] = 0;
	return out;
}

static char *installed_of(const struct package *p, const char *name, const char *dirbase)
{
	if (p->type == PKG_CONDA)
		return pt_xstrdup(name);
	if (p->type == PKG_DIR && dirbase)
		return pt_xasprintf(WHEEL_SITE "/%s/%s", dirbase, name);
	/* NAME.data/purelib|platlib/x -> site-packages/x; data/x -> the prefix; scripts -> bin */
	const char *d = strstr(name, ".data/");

	if (d && !memchr(name, '/', (size_t)(d - name))) {
		const char *rest = d + 6;

		if (!strncmp(rest, "purelib/", 8) || !strncmp(rest, "platlib/", 8))
			return pt_xasprintf(WHEEL_SITE "/%s", rest + 8);
		if (!strncmp(rest, "data/", 5))
			return pt_xstrdup(rest + 5);
		if (!strncmp(rest, "scripts/", 8))
			return pt_xasprintf("bin/%s", rest + 8);
		if (!strncmp(rest, "headers/", 8))
			return pt_xasprintf("include/%s", rest + 8);
	}
	return pt_xasprintf(WHEEL_SITE "/%s", name);
}

static const struct pkg_member *member_at(const struct resolver *rs, const char *installed)
{
	char buf[4096];
	struct pkg_index key = { installed, 0 }, *hit;

	for (int hops = 0; hops < 8; hops++) {
		const struct pkg_member *m;
		char *dir, *joined, *t;

		hit = bsearch(&key, rs->ix, rs->n_ix, sizeof(*rs->ix), cmp_ix);
		if (!hit)
			return NULL;
		m = &rs->p->members[hit->idx];
		if (m->kind != PKGAR_SYMLINK || !m->link || rs->p->type == PKG_WHEEL)
			return m;
		/* conda and directories keep symlinks: follow one that stays inside the package */
		if (m->link[0] == '/')
			return NULL;
		dir = ldpath_dirname(m->installed);
		joined = pt_xasprintf("%s/%s", dir, m->link);
		t = norm_path(joined);
		free(dir);
		free(joined);
		if (!t || pt_fmt(buf, sizeof(buf), "%s", t) != 0) {
			free(t);
			return NULL;
		}
		free(t);
		key.key = buf;
	}
	return NULL;
}

static void set_dep(struct pkg_dep *d, enum pkg_from from, char *where, char *via)
{
	d->from = from;
	d->where = where;
	d->via = via;
}

/* The member's basename, or its SONAME, equals name: what ld.so matches an already loaded object by. */
static const struct pkg_member *loaded_as(const struct package *p, const struct pkg_member *self,
					  const char *name)
{
	for (size_t i = 0; i < p->n_members; i++) {
		const struct pkg_member *m = &p->members[i];
		const char *b;

		if (m == self || !m->is_elf)
			continue;
		b = strrchr(m->installed, '/');
		b = b ? b + 1 : m->installed;
		if ((m->elf.soname && !strcmp(m->elf.soname, name)) || !strcmp(b, name))
			return m;
	}
	return NULL;
}

/* One RPATH or RUNPATH list for name: 1 when found (d filled), 0 not. */
static int try_list(struct resolver *rs, struct pkg_member *m, const char *list, const char *label,
		    const char *name, struct pkg_dep *d)
{
	const struct package *p = rs->p;
	char **dirs;
	char *origin = ldpath_dirname(m->installed), *vorigin;
	size_t n, vl = strlen(VROOT);
	int found = 0;

	vorigin = strcmp(origin, ".") ? pt_xasprintf(VROOT "/%s", origin) : pt_xstrdup(VROOT);
	n = ldpath_split(list, false, vorigin, rs->opt->env, &dirs);
	for (size_t i = 0; i < n && !found; i++) {
		char *dir = norm_path(dirs[i]);

		if (!dir)
			continue;
		if (!strncmp(dir, VROOT, vl) && (dir[vl] == '/' || !dir[vl])) {
			const char *rel = dir[vl] ? dir + vl + 1 : "";
			char *inst = *rel ? pt_xasprintf("%s/%s", rel, name) : pt_xstrdup(name);
			const struct pkg_member *hit = member_at(rs, inst);
			const struct provider *pv = provider_of(name);
			size_t sl = strlen(rs->site);

			if (hit && hit->kind == PKGAR_SYMLINK && p->type == PKG_WHEEL) {
				d->hint = pt_xasprintf("%s is a symlink in the wheel: pip installs it as a small "
						       "file holding '%s', which the loader cannot load",
						       hit->name, hit->link ? hit->link : "?");
			} else if (hit && hit->is_elf) {
				set_dep(d, PKG_FROM_BUNDLED, pt_xstrdup(hit->name),
					pt_xasprintf("%s %s", label, *rel ? rel : "."));
				found = 1;
			} else if (pv && !strncmp(rel, rs->site, sl) && rel[sl] == '/' &&
				   (!strcmp(rel + sl + 1, pv->dir) || (pv->ctk && ctk_dir(rel + sl + 1)))) {
				const char *pdir = rel + sl + 1;
				const struct pkg_requirement *rq = has_req(p, pv->req);
				char *real = rs->realsite ? pt_xasprintf("%s/%s/%s", rs->realsite, pdir, name) : NULL;
				bool there = real && access(real, F_OK) == 0;

				if (rq || there) {
					set_dep(d, PKG_FROM_REQUIREMENT,
						there ? pt_xstrdup(real) : pt_xstrdup(rq->name),
						pt_xasprintf("%s %s", label, rel));
					found = 1;
				} else if (!d->hint) {
					d->hint = pt_xasprintf("%s points at site-packages/%s, which %s-* provides, "
							       "but it is not a requirement", label, pdir, pv->req);
				}
				free(real);
			} else if (rs->realsite && !strncmp(rel, rs->site, sl) && rel[sl] == '/') {
				/* A directory package: what is installed beside it. */
				char *real = pt_xasprintf("%s/%s/%s", rs->realsite, rel + sl + 1, name);

				if (elfobj_loadable(real, m->elf.cls, m->elf.machine) == 1) {
					set_dep(d, PKG_FROM_REQUIREMENT, pt_xstrdup(real),
						pt_xasprintf("%s %s", label, rel));
					found = 1;
				}
				free(real);
			}
			free(inst);
		} else {
			/* Absolute: the build machine's directory; is it on this one (or --root)? */
			char *cand = pt_xasprintf("%s/%s", strcmp(dir, "/") ? dir : "", name);
			char *in = ldpath_in_root(rs->opt->env, cand);

			if (elfobj_loadable(in, m->elf.cls, m->elf.machine) == 1) {
				set_dep(d, PKG_FROM_ABSOLUTE, cand, pt_xasprintf("%s %s", label, dir));
				cand = NULL;
				found = 1;
			} else if (strcmp(in, cand) && elfobj_loadable(cand, m->elf.cls, m->elf.machine) == 1) {
				/* not in the target (--root), but on this machine: the build machine's */
				set_dep(d, PKG_FROM_ABSOLUTE, cand,
					pt_xasprintf("%s %s, on this machine only, not in the target", label, dir));
				cand = NULL;
				found = 1;
			}
			free(cand);
			free(in);
		}
		free(dir);
	}
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	free(origin);
	free(vorigin);
	return found;
}

static void resolve_one(struct resolver *rs, struct pkg_member *m, const char *name, struct pkg_dep *d)
{
	const struct package *p = rs->p;
	const struct ldpath_env *env = rs->opt->env;
	const struct pkg_member *pre;
	const struct provider *pv = provider_of(name);

	d->name = pt_xstrdup(name);
	if (strchr(name, '/')) {
		char *in = env ? ldpath_in_root(env, name) : NULL;

		if (in && name[0] == '/' && elfobj_loadable(in, m->elf.cls, m->elf.machine) == 1)
			set_dep(d, PKG_FROM_ABSOLUTE, pt_xstrdup(name), pt_xstrdup("a path in DT_NEEDED"));
		else
			set_dep(d, PKG_FROM_MISSING, NULL, NULL);
		free(in);
		return;
	}
	/* 1. RPATH (only without RUNPATH), RUNPATH: $ORIGIN is the member's installed directory. */
	if (m->elf.rpath && !m->elf.runpath && try_list(rs, m, m->elf.rpath, "RPATH", name, d))
		return;
	if (m->elf.runpath && try_list(rs, m, m->elf.runpath, "RUNPATH", name, d))
		return;
	/* 2. Loaded earlier by that name: a member, or torch's libraries after import torch. */
	if ((pre = loaded_as(p, m, name))) {
		set_dep(d, PKG_FROM_PRELOADED, pt_xstrdup(pre->name),
			pt_xstrdup("loaded earlier by SONAME (only if it is loaded first)"));
		return;
	}
	if (pv && !strcmp(pv->req, "torch") && (!p->name || strcmp(p->name, "torch"))) {
		set_dep(d, PKG_FROM_PRELOADED, pt_xstrdup("torch"),
			pt_xstrdup("torch/lib, loaded by import torch"));
		if (!has_req(p, "torch"))
			d->hint = pt_xstrdup("torch is not among the requirements: import torch must come first");
		return;
	}
	/* 3. The target system: ld.so.cache, then the system directories (resolve.c's steps 4-5). */
	if (env && !env->no_cache) {
		const char *c = ldcache_lookup(&env->cache, name, env->hwcaps, env->n_hwcaps);

		if (c) {
			char *in = ldpath_in_root(env, c);

			if (elfobj_loadable(in, m->elf.cls, m->elf.machine) == 1) {
				set_dep(d, PKG_FROM_SYSTEM, pt_xstrdup(c), pt_xstrdup("ld.so.cache"));
				free(in);
				return;
			}
			free(in);
		}
	}
	for (size_t i = 0; env && i < env->n_system_dirs && !(m->elf.flags_1 & 0x800); i++) {
		char *cand = pt_xasprintf("%s/%s", env->system_dirs[i], name);
		char *in = ldpath_in_root(env, cand);

		if (elfobj_loadable(in, m->elf.cls, m->elf.machine) == 1) {
			set_dep(d, PKG_FROM_SYSTEM, cand, pt_xstrdup("system directory"));
			free(in);
			return;
		}
		free(cand);
		free(in);
	}
	set_dep(d, PKG_FROM_MISSING, NULL, NULL);
	if (!d->hint && pv && strcmp(pv->req, "torch")) {
		const struct pkg_requirement *rq = has_req(p, pv->req);
		/* CUDA 13's wheels: the name without -cuNN (or the withdrawn -cu13), one directory. */
		bool v13 = pv->ctk && rq && (!strcmp(rq->name, pv->req) || ends_with(rq->name, "-cu13"));

		d->hint = rq ? pt_xasprintf("%s provides it in site-packages/%s, but no RPATH/RUNPATH entry "
					    "of this member points there", rq->name, v13 ? CTK13_DIR : pv->dir)
		      : pv->ctk ? pt_xasprintf("%s would provide it (CUDA 13 and later: site-packages/"
					       CTK13_DIR "; -cu12: site-packages/%s); it is not a requirement",
					       pv->req, pv->dir)
			     : pt_xasprintf("%s-* would provide it (site-packages/%s); it is not a requirement",
					    pv->req, pv->dir);
	}
}

static void resolve_all(struct resolver *rs)
{
	struct package *p = rs->p;

	for (size_t i = 0; i < p->n_members; i++) {
		struct pkg_member *m = &p->members[i];

		if (!m->is_elf || !m->elf.n_needed)
			continue;
		m->deps = pt_xcalloc(m->elf.n_needed, sizeof(*m->deps));
		m->n_deps = m->elf.n_needed;
		for (size_t k = 0; k < m->n_deps; k++) {
			struct pkg_dep *d = &m->deps[k];

			resolve_one(rs, m, m->elf.needed[k], d);
			switch (d->from) {
			case PKG_FROM_BUNDLED:
			case PKG_FROM_PRELOADED: p->n_bundled++; break;
			case PKG_FROM_REQUIREMENT: p->n_required++; break;
			case PKG_FROM_SYSTEM: p->n_system++; break;
			case PKG_FROM_ABSOLUTE:
				p->n_absolute++;
				pt_diag_add(rs->diag, PT_SEV_WARNING, p->path, m->name,
					    "%s found only through %s: that directory is the build machine's",
					    d->name, d->via);
				break;
			case PKG_FROM_MISSING:
				p->n_missing++;
				pt_diag_add(rs->diag, PT_SEV_WARNING, p->path, m->name,
					    "%s: not in the package, its requirements or the target system%s%s",
					    d->name, d->hint ? "; " : "", d->hint ? d->hint : "");
				break;
			}
		}
	}
}

/* The CUDA arch list of every member, the one they share, the weakest member. */
static void cuda_all(struct package *p)
{
	size_t best = (size_t)-1, fewest = (size_t)-1;

	p->weakest = (size_t)-1;
	for (size_t i = 0; i < p->n_members; i++) {
		struct pkg_member *m = &p->members[i];
		size_t ptx_only;

		if (!m->cuda_read || !m->cuda.n)
			continue;
		p->n_cuda++;
		m->arch_list = cudaarch_arch_list(&m->cuda, &ptx_only);
		if (m->cuda.n < fewest) {
			fewest = m->cuda.n;
			best = i;
		}
	}
	if (best != (size_t)-1) {
		p->weakest = best;
		p->arch_list = pt_xstrdup(p->members[best].arch_list ? p->members[best].arch_list : "");
	}
}

static void portable_all(struct resolver *rs);

static void finish(struct package *p, const struct pkg_opts *opt, const char *dirbase,
		   char *realsite, struct pt_diag *diag)
{
	struct resolver rs = { .p = p, .opt = opt, .diag = diag, .realsite = realsite };

	rs.site = WHEEL_SITE;
	for (size_t i = 0; i < p->n_members; i++) {
		struct pkg_member *m = &p->members[i];
		char *inst = installed_of(p, m->name, dirbase);

		m->installed = norm_path(inst);
		if (!m->installed)
			m->installed = inst;
		else
			free(inst);
		if (p->type == PKG_CONDA && !p->site_prefix) {
			const char *sp = strstr(m->installed, "/site-packages/");

			if (!strncmp(m->installed, "lib/python", 10) && sp)
				p->site_prefix = pt_xstrndup(m->installed, (size_t)(sp - m->installed) + 14);
		}
	}
	if (p->site_prefix)
		rs.site = p->site_prefix;
	rs.ix = pt_xcalloc(p->n_members ? p->n_members : 1, sizeof(*rs.ix));
	for (size_t i = 0; i < p->n_members; i++)
		rs.ix[rs.n_ix++] = (struct pkg_index){ p->members[i].installed, i };
	qsort(rs.ix, rs.n_ix, sizeof(*rs.ix), cmp_ix);
	for (size_t i = 0; i < p->n_members; i++)
		if (p->members[i].kind == PKGAR_SYMLINK && p->type == PKG_WHEEL)
			pt_diag_add(diag, PT_SEV_WARNING, p->path, p->members[i].name,
				    "a symlink in a wheel: pip installs it as a file holding '%s'",
				    p->members[i].link ? p->members[i].link : "?");
	resolve_all(&rs);
	portable_all(&rs);
	cuda_all(p);
	free(rs.ix);
	free(realsite);
}

/* rpathlint's questions, answered from the members (inside the package) or the disk (--root). */
static int fs_has_file(void *ctx, const char *dir, const char *name)
{
	const struct resolver *rs = ctx;
	size_t vl = strlen(VROOT);

	if (!strncmp(dir, VROOT, vl) && (dir[vl] == '/' || !dir[vl])) {
		char *inst = dir[vl] ? pt_xasprintf("%s/%s", dir + vl + 1, name) : pt_xstrdup(name);
		const struct pkg_member *m = member_at(rs, inst);

		free(inst);
		if (m)
			return 1;
		return rs->realsite ? -1 : 0;
	} else {
		char *cand = pt_xasprintf("%s/%s", dir, name);
		char *in = rs->opt->env ? ldpath_in_root(rs->opt->env, cand) : pt_xstrdup(cand);
		int r = access(in, F_OK) == 0;

		free(cand);
		free(in);
		return r;
	}
}

static int fs_dir_exists(void *ctx, const char *dir)
{
	const struct resolver *rs = ctx;
	size_t vl = strlen(VROOT);

	if (!strncmp(dir, VROOT, vl) && (dir[vl] == '/' || !dir[vl])) {
		const char *rel = dir[vl] ? dir + vl + 1 : "";
		size_t rl = strlen(rel), sl = strlen(rs->site);

		if (!rl)
			return 1;
		for (size_t i = 0; i < rs->p->n_members; i++)
			if (!strncmp(rs->p->members[i].installed, rel, rl) &&
			    rs->p->members[i].installed[rl] == '/')
				return 1;
		/* a requirement's directory (site-packages/nvidia/X/lib): not known from here */
		if (!strncmp(rel, rs->site, sl) && rel[sl] == '/')
			return -1;
		return 0;
	} else {
		char *in = rs->opt->env ? ldpath_in_root(rs->opt->env, dir) : pt_xstrdup(dir);
		struct stat st;
		int r = stat(in, &st) == 0 && S_ISDIR(st.st_mode);

		free(in);
		return r;
	}
}

/* The floors branch's checks per member (rpathlint, verfloor, torchext) and the package's floor. */
static void portable_all(struct resolver *rs)
{
	struct package *p = rs->p;
	struct rpathlint_fs fs = { fs_dir_exists, fs_has_file, rs };
	char **all = NULL;
	size_t n_all = 0, a_all = 0;
	size_t lint_count[RPATHLINT_KIND_COUNT] = { 0 }, lint_first[RPATHLINT_KIND_COUNT] = { 0 };
	bool is_torch = p->name && !strcmp(p->name, "torch");

	for (int f = 0; f < VERFLOOR_N; f++)
		p->floor_member[f] = (size_t)-1;
	for (size_t i = 0; i < p->n_members; i++) {
		struct pkg_member *m = &p->members[i];
		char *origin, *vorigin;
		struct rpathlint_input in = { .o = &m->elf, .env = rs->opt->env, .fs = &fs };
		struct pt_diag d;

		if (!m->is_elf)
			continue;
		verfloor_compute(&m->elf, &m->floor);
		for (int f = 0; f < VERFLOOR_N; f++) {
			if (m->floor.max[f] && (!p->floor.max[f] || verfloor_cmp(m->floor.max[f], p->floor.max[f]) > 0)) {
				free(p->floor.max[f]);
				free(p->floor.max_file[f]);
				p->floor.max[f] = pt_xstrdup(m->floor.max[f]);
				p->floor.max_file[f] = m->floor.max_file[f] ? pt_xstrdup(m->floor.max_file[f]) : NULL;
				p->floor_member[f] = i;
			}
		}
		for (size_t k = 0; k < m->floor.n_versions; k++) {
			PT_GROW(all, n_all, a_all);
			all[n_all++] = pt_xstrdup(m->floor.versions[k]);
		}
		p->floor.musl |= m->floor.musl;
		if (!p->floor.arch)
			p->floor.arch = m->floor.arch;
		origin = ldpath_dirname(m->installed);
		vorigin = strcmp(origin, ".") ? pt_xasprintf(VROOT "/%s", origin) : pt_xstrdup(VROOT);
		in.origin = vorigin;
		pt_diag_init(&d);
		if (rs->opt->env)
			rpathlint_check(&in, &m->lint, &d);
		pt_diag_release(&d);
		/* Outside the package a $ORIGIN spelling means nothing: the directory is not shipped. */
		for (size_t k = 0; k < m->lint.n; k++) {
			struct rpathlint_finding *fd = &m->lint.v[k];

			if (fd->kind == RPATHLINT_NO_ORIGIN && fd->dir && strncmp(fd->dir, VROOT "/", strlen(VROOT) + 1)) {
				free(fd->other);
				fd->other = pt_xstrdup("a copy in the package and $ORIGIN");
			}
		}
		p->n_lint += m->lint.n_problems;
		for (size_t k = 0; k < m->lint.n; k++) {
			enum rpathlint_kind kd = m->lint.v[k].kind;

			if (m->lint.v[k].sev != PT_SEV_WARNING || kd >= RPATHLINT_KIND_COUNT)
				continue;
			if (!lint_count[kd]++)
				lint_first[kd] = i;
		}
		free(origin);
		free(vorigin);
		/* torch's own libraries and programs need torch too: extensions are other packages' */
		if (m->have_ext && m->ext.is_extension && !is_torch) {
			p->n_ext++;
			if (rs->opt->against) {
				m->have_against = torchext_against(&m->ext, rs->opt->against, &m->against,
								   rs->diag) == 0;
				if (m->have_against)
					p->n_against_missing += m->against.n_missing;
			}
		}
	}
	/* One warning per kind of RPATH/RUNPATH problem, with how many members have it. */
	for (int k = 0; k < RPATHLINT_KIND_COUNT; k++) {
		const struct pkg_member *m;

		if (!lint_count[k])
			continue;
		m = &p->members[lint_first[k]];
		for (size_t j = 0; j < m->lint.n; j++) {
			const struct rpathlint_finding *fd = &m->lint.v[j];

			if ((int)fd->kind != k || fd->sev != PT_SEV_WARNING)
				continue;
			pt_diag_add(rs->diag, PT_SEV_WARNING, p->path, m->name, "%s entry '%s': %s%s%s%s",
				    fd->runpath ? "RUNPATH" : "RPATH", fd->entry ? fd->entry : "",
				    rpathlint_kind_name(fd->kind), fd->other ? " (use " : "",
				    fd->other ? fd->other : "", fd->other ? ")" : "");
			break;
		}
		if (lint_count[k] > 1)
			pt_diag_add(rs->diag, PT_SEV_WARNING, p->path, NULL, "%zu more members with %s %s",
				    lint_count[k] - 1, "the same RPATH/RUNPATH problem:", rpathlint_kind_name(k));
	}
	if (n_all)
		qsort(all, n_all, sizeof(*all), pt_cmp_strp);
	for (size_t i = 0; i < n_all; i++) {
		if (p->floor.n_versions && !strcmp(p->floor.versions[p->floor.n_versions - 1], all[i])) {
			free(all[i]);
			continue;
		}
		p->floor.versions = pt_xreallocarray(p->floor.versions, p->floor.n_versions + 1,
						     sizeof(*p->floor.versions));
		p->floor.versions[p->floor.n_versions++] = all[i];
	}
	free(all);
	/* The tag the wheel claims: the platform part of its first Tag line. */
	if (p->type == PKG_WHEEL && p->n_tags) {
		const char *t = strchr(p->tags[0], '-');

		t = t ? strchr(t + 1, '-') : NULL;
		if (t)
			p->platform_tag = pt_xstrdup(t + 1);
	}
	if (p->n_elf && p->floor.arch) {
		const char *claim = rs->opt->tag ? rs->opt->tag : p->platform_tag;
		struct pt_diag d;

		pt_diag_init(&d);
		p->have_pol = mlpolicy_answer(&p->floor, claim, &p->pol, &d) == 0;
		pt_diag_release(&d);
		/* Each member's own tag, from the same policies (auditwheel's versioned_symbols_policy of it alone). */
		for (size_t i = 0; p->have_pol && p->pol.set.n && i < p->n_members; i++) {
			struct pkg_member *m = &p->members[i];

			if (m->is_elf && m->floor.arch && !strcmp(m->floor.arch, p->pol.set.arch) &&
			    m->floor.musl == (p->pol.set.libc == MLPOLICY_MUSL))
				m->implied = mlpolicy_implied(&p->pol.set, m->floor.versions, m->floor.n_versions,
							      &m->blocking);
		}
		for (size_t i = 0; p->have_pol && i < p->pol.n_claims; i++)
			if (!p->pol.claims[i].ok)
				pt_diag_add(rs->diag, PT_SEV_WARNING, p->path, NULL,
					    "claims %s, but its members need %s (%s)", p->pol.claims[i].tag,
					    p->pol.implied ? p->pol.implied->name : "?",
					    p->pol.blocking ? p->pol.blocking : "");
	}
}

static enum pkg_type type_of(const char *path)
{
	return ends_with(path, ".whl") ? PKG_WHEEL : PKG_CONDA;
}

static void init(struct package *p, const char *path, enum pkg_type t, const struct pkg_opts *opt,
		 struct walk *w, struct pt_diag *diag)
{
	memset(p, 0, sizeof(*p));
	p->path = pt_xstrdup(path);
	p->type = t;
	p->weakest = (size_t)-1;
	w->p = p;
	w->opt = opt;
	w->diag = diag;
	w->whole_max = opt->whole_max ? opt->whole_max : PKG_WHOLE_MAX;
	w->max_member = (opt->lim ? opt->lim : &pkgar_default_limits)->max_member;
}

bool package_dir_is_unpacked(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool yes = false;

	while (d && (de = readdir(d)) && !yes)
		yes = ends_with(de->d_name, ".dist-info") || !strcmp(de->d_name, "info");
	if (d)
		closedir(d);
	return yes;
}

int package_read(const char *path, const struct pkg_opts *opt, struct package *p,
		 struct pt_diag *diag)
{
	struct walk w;
	struct stat st;
	int rc;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *dir = pt_xstrdup(path), *base = NULL, *realsite = NULL;
		size_t l = strlen(dir);

		while (l > 1 && dir[l - 1] == '/')
			dir[--l] = 0;
		init(p, dir, PKG_DIR, opt, &w, diag);
		if (!package_dir_is_unpacked(dir)) {
			/* a package folder (site-packages/torch): its members sit below its name */
			const char *b = strrchr(dir, '/');

			base = pt_xstrdup(b ? b + 1 : dir);
			realsite = ldpath_dirname(dir);
		} else {
			realsite = pt_xstrdup(dir);
		}
		rc = dir_walk(&w, dir, "", 0);
		if (rc == 0)
			finish(p, opt, base, realsite, diag);
		else
			free(realsite);
		free(base);
		free(dir);
		return rc;
	}
	package_begin(path, opt, p);
	rc = package_walk(opt, p, diag);
	package_finish(p, opt, diag);
	return rc ? -1 : 0;
}

enum pkg_type package_type_of(const char *path)
{
	return type_of(path);
}

void package_begin(const char *path, const struct pkg_opts *opt, struct package *p)
{
	struct walk w;

	init(p, path, type_of(path), opt, &w, NULL);
}

int package_walk(const struct pkg_opts *opt, struct package *p, struct pt_diag *diag)
{
	struct walk w = { .p = p, .opt = opt, .diag = diag };

	w.whole_max = opt->whole_max ? opt->whole_max : PKG_WHOLE_MAX;
	w.max_member = (opt->lim ? opt->lim : &pkgar_default_limits)->max_member;
	return pkgar_walk_file(p->path, opt->lim, visit, &w, diag) ? -1 : 0;
}

void package_finish(struct package *p, const struct pkg_opts *opt, struct pt_diag *diag)
{
	finish(p, opt, NULL, NULL, diag);
}

int package_read_mem(const char *name, const void *buf, size_t len, const struct pkg_opts *opt,
		     struct package *p, struct pt_diag *diag)
{
	struct walk w;
	int rc;

	init(p, name, type_of(name), opt, &w, diag);
	rc = pkgar_walk_mem(name, buf, len, opt->lim, visit, &w, diag);
	finish(p, opt, NULL, NULL, diag);
	return rc ? -1 : 0;
}

void package_release(struct package *p)
{
	for (size_t i = 0; i < p->n_members; i++) {
		struct pkg_member *m = &p->members[i];

		for (size_t k = 0; k < m->n_deps; k++) {
			free(m->deps[k].name);
			free(m->deps[k].where);
			free(m->deps[k].via);
			free(m->deps[k].hint);
		}
		free(m->deps);
		verfloor_release(&m->floor);
		rpathlint_release(&m->lint);
		if (m->have_ext)
			torchext_release(&m->ext);
		if (m->have_against)
			torchext_against_release(&m->against);
		free(m->name);
		free(m->installed);
		free(m->link);
		free(m->arch_list);
		cudaarch_summary_release(&m->cuda);
		if (m->is_elf)
			elfobj_release(&m->elf);
	}
	free(p->members);
	for (size_t i = 0; i < p->n_reqs; i++) {
		free(p->reqs[i].spec);
		free(p->reqs[i].name);
	}
	free(p->reqs);
	for (size_t i = 0; i < p->n_tags; i++)
		free(p->tags[i]);
	free(p->tags);
	free(p->path);
	free(p->name);
	free(p->version);
	free(p->generator);
	free(p->site_prefix);
	free(p->arch_list);
	free(p->platform_tag);
	p->floor.arch = NULL;
	verfloor_release(&p->floor);
	if (p->have_pol)
		mlpolicy_answer_release(&p->pol);
	memset(p, 0, sizeof(*p));
}
