/* The archive door: libarchive, opened on first use (pkgarchive.h). */
#include "pkgarchive.h"

#include <archive.h>
#include <archive_entry.h>
#include <string.h>

#include <stdlib.h>

#include "lazylib.h"
#include "strbuf.h"
#include "xalloc.h"

static __typeof__(archive_read_new) *p_archive_read_new;
static __typeof__(archive_read_free) *p_archive_read_free;
static __typeof__(archive_read_support_format_zip_seekable) *p_archive_read_support_format_zip_seekable;
static __typeof__(archive_read_support_format_tar) *p_archive_read_support_format_tar;
static __typeof__(archive_read_support_filter_bzip2) *p_archive_read_support_filter_bzip2;
static __typeof__(archive_read_support_filter_zstd) *p_archive_read_support_filter_zstd;
static __typeof__(archive_read_support_filter_gzip) *p_archive_read_support_filter_gzip;
static __typeof__(archive_read_support_filter_xz) *p_archive_read_support_filter_xz;
static __typeof__(archive_read_open_filename) *p_archive_read_open_filename;
static __typeof__(archive_read_open_memory) *p_archive_read_open_memory;
static __typeof__(archive_read_open) *p_archive_read_open;
static __typeof__(archive_read_next_header) *p_archive_read_next_header;
static __typeof__(archive_read_data) *p_archive_read_data;
static __typeof__(archive_error_string) *p_archive_error_string;
static __typeof__(archive_format) *p_archive_format;
static __typeof__(archive_entry_pathname) *p_archive_entry_pathname;
static __typeof__(archive_entry_size) *p_archive_entry_size;
static __typeof__(archive_entry_size_is_set) *p_archive_entry_size_is_set;
static __typeof__(archive_entry_filetype) *p_archive_entry_filetype;
static __typeof__(archive_entry_symlink) *p_archive_entry_symlink;
static __typeof__(archive_entry_is_encrypted) *p_archive_entry_is_encrypted;

static const struct pt_lazysym syms[] = {
	PT_LAZYSYM(archive_read_new),
	PT_LAZYSYM(archive_read_free),
	PT_LAZYSYM(archive_read_support_format_zip_seekable),
	PT_LAZYSYM(archive_read_support_format_tar),
	PT_LAZYSYM(archive_read_support_filter_bzip2),
	PT_LAZYSYM(archive_read_support_filter_zstd),
	PT_LAZYSYM(archive_read_support_filter_gzip),
	PT_LAZYSYM(archive_read_support_filter_xz),
	PT_LAZYSYM(archive_read_open_filename),
	PT_LAZYSYM(archive_read_open_memory),
	PT_LAZYSYM(archive_read_open),
	PT_LAZYSYM(archive_read_next_header),
	PT_LAZYSYM(archive_read_data),
	PT_LAZYSYM(archive_error_string),
	PT_LAZYSYM(archive_format),
	PT_LAZYSYM(archive_entry_pathname),
	PT_LAZYSYM(archive_entry_size),
	PT_LAZYSYM(archive_entry_size_is_set),
	PT_LAZYSYM(archive_entry_filetype),
	PT_LAZYSYM(archive_entry_symlink),
	PT_LAZYSYM(archive_entry_is_encrypted),
};
static struct pt_lazylib libarchive = PT_LAZYLIB("libarchive.so.13", syms);

#define archive_read_new (*p_archive_read_new)
#define archive_read_free (*p_archive_read_free)
#define archive_read_support_format_zip_seekable (*p_archive_read_support_format_zip_seekable)
#define archive_read_support_format_tar (*p_archive_read_support_format_tar)
#define archive_read_support_filter_bzip2 (*p_archive_read_support_filter_bzip2)
#define archive_read_support_filter_zstd (*p_archive_read_support_filter_zstd)
#define archive_read_support_filter_gzip (*p_archive_read_support_filter_gzip)
#define archive_read_support_filter_xz (*p_archive_read_support_filter_xz)
#define archive_read_open_filename (*p_archive_read_open_filename)
#define archive_read_open_memory (*p_archive_read_open_memory)
#define archive_read_open (*p_archive_read_open)
#define archive_read_next_header (*p_archive_read_next_header)
#define archive_read_data (*p_archive_read_data)
#define archive_error_string (*p_archive_error_string)
#define archive_format (*p_archive_format)
#define archive_entry_pathname (*p_archive_entry_pathname)
#define archive_entry_size (*p_archive_entry_size)
#define archive_entry_size_is_set (*p_archive_entry_size_is_set)
#define archive_entry_filetype (*p_archive_entry_filetype)
#define archive_entry_symlink (*p_archive_entry_symlink)
#define archive_entry_is_encrypted (*p_archive_entry_is_encrypted)

const struct pkgar_limits pkgar_default_limits = {
	.max_member = 4ull << 30,
	.max_total = 64ull << 30,
	.max_entries = 1u << 20,
};

struct pkgar {
	struct archive *a;
	const char *file;	/* the archive, for messages */
	const struct pkgar_limits *lim;
	struct pt_diag *diag;
	char where[512];	/* "member NAME" of the current member */
	uint64_t member_read, member_declared, total;
	bool declared, failed;
	uint64_t n_entries;
	/* a .conda's inner tarball: the outer archive it streams from */
	struct pkgar *outer;
	const char *inner_name;
	char inner_buf[65536];
};

bool pkgar_name_unsafe(const char *name)
{
	const char *p = name;

	if (!*name || name[0] == '/')
		return true;
	while (*p) {
		size_t l = strcspn(p, "/\\");

		if (l == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += l;
		if (*p)
			p++;
	}
	return false;
}

static void set_where(struct pkgar *a, const char *name)
{
	if (a->inner_name)
		pt_fmt_trunc(a->where, sizeof(a->where), "member %s of %s", name, a->inner_name);
	else
		pt_fmt_trunc(a->where, sizeof(a->where), "member %s", name);
}

long pkgar_read(struct pkgar *a, void *buf, size_t n)
{
	la_ssize_t r;

	if (a->failed)
		return -1;
	r = archive_read_data(a->a, buf, n);
	if (r < 0) {
		const char *e = archive_error_string(a->a);

		pt_diag_add(a->diag, PT_SEV_ERROR, a->file, a->where, "cannot read: %s",
			    e ? e : "damaged data");
		a->failed = true;
		return -1;
	}
	a->member_read += (uint64_t)r;
	a->total += (uint64_t)r;
	if (a->member_read > a->lim->max_member ||
	    (a->declared && a->member_read > a->member_declared)) {
		pt_diag_add(a->diag, PT_SEV_ERROR, a->file, a->where,
			    a->member_read > a->lim->max_member ?
			    "inflates past %llu bytes: refused (a zip bomb?)" :
			    "inflates past its declared size of %llu bytes: refused (a zip bomb?)",
			    (unsigned long long)(a->member_read > a->lim->max_member ?
						 a->lim->max_member : a->member_declared));
		a->failed = true;
		return -1;
	}
	if (a->total > a->lim->max_total) {
		pt_diag_add(a->diag, PT_SEV_ERROR, a->file, a->where,
			    "the archive inflates past %llu bytes in all: refused",
			    (unsigned long long)a->lim->max_total);
		a->failed = true;
		return -1;
	}
	return (long)r;
}

static const char *strip_dot(const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	return name;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t ls = strlen(s), lf = strlen(suf);

	return ls >= lf && !strcmp(s + ls - lf, suf);
}

static la_ssize_t inner_read(struct archive *ar, void *ctx, const void **buf)
{
	struct pkgar *in = ctx;
	long r = pkgar_read(in->outer, in->inner_buf, sizeof(in->inner_buf));

	(void)ar;
	*buf = in->inner_buf;
	return r < 0 ? ARCHIVE_FATAL : r;
}

static struct archive *new_reader(void)
{
	struct archive *ar = archive_read_new();

	if (!ar)
		return NULL;
	archive_read_support_format_zip_seekable(ar);
	archive_read_support_format_tar(ar);
	archive_read_support_filter_bzip2(ar);
	archive_read_support_filter_zstd(ar);
	archive_read_support_filter_gzip(ar);
	archive_read_support_filter_xz(ar);
	return ar;
}

static int walk(struct pkgar *a, pkgar_visit visit, void *ctx, bool conda);

/* A .conda's info-*.tar.zst or pkg-*.tar.zst, read from the outer zip as a stream. */
static int walk_inner(struct pkgar *outer, const char *name, pkgar_visit visit, void *ctx)
{
	struct pkgar *in = pt_xcalloc(1, sizeof(*in));
	int rc;

	in->file = outer->file;
	in->lim = outer->lim;
	in->diag = outer->diag;
	in->outer = outer;
	in->inner_name = name;
	in->total = outer->total;
	in->a = new_reader();
	if (!in->a) {
		free(in);
		return -1;
	}
	if (archive_read_open(in->a, in, NULL, inner_read, NULL) != ARCHIVE_OK) {
		if (!outer->failed)
			pt_diag_add(outer->diag, PT_SEV_ERROR, outer->file, outer->where,
				    "not a tarball libarchive reads: %s",
				    archive_error_string(in->a) ? archive_error_string(in->a) : "?");
		rc = -1;
	} else {
		rc = walk(in, visit, ctx, false);
	}
	outer->total = in->total > outer->total ? in->total : outer->total;
	archive_read_free(in->a);
	free(in);
	return rc;
}

static int walk(struct pkgar *a, pkgar_visit visit, void *ctx, bool conda)
{
	struct archive_entry *ent;
	int r;

	while ((r = archive_read_next_header(a->a, &ent)) != ARCHIVE_EOF) {
		struct pkgar_entry e = { 0 };
		const char *raw;
		unsigned ft;
		int vr;

		if (r == ARCHIVE_FATAL || (r != ARCHIVE_OK && r != ARCHIVE_WARN)) {
			const char *err = archive_error_string(a->a);

			pt_diag_add(a->diag, PT_SEV_ERROR, a->file,
				    a->n_entries ? a->where : NULL,
				    a->n_entries ? "damaged after this member: %s" : "%s",
				    err ? err : "not an archive libarchive reads");
			return -1;
		}
		raw = archive_entry_pathname(ent);
		if (!raw)
			raw = "";
		e.name = strip_dot(raw);
		set_where(a, e.name);
		if (++a->n_entries > a->lim->max_entries) {
			pt_diag_add(a->diag, PT_SEV_ERROR, a->file, NULL,
				    "more than %llu members: refused", (unsigned long long)a->lim->max_entries);
			return -1;
		}
		ft = archive_entry_filetype(ent);
		e.kind = ft == AE_IFREG ? PKGAR_FILE : ft == AE_IFDIR ? PKGAR_DIR :
			 ft == AE_IFLNK ? PKGAR_SYMLINK : PKGAR_OTHER;
		e.size_known = archive_entry_size_is_set(ent);
		e.size = e.size_known && archive_entry_size(ent) > 0 ? (uint64_t)archive_entry_size(ent) : 0;
		e.link = e.kind == PKGAR_SYMLINK ? archive_entry_symlink(ent) : NULL;
		e.inner = a->inner_name;
		a->member_read = 0;
		a->member_declared = e.size;
		a->declared = e.size_known;
		if (e.kind == PKGAR_DIR && !*e.name)
			continue;
		if (pkgar_name_unsafe(e.name)) {
			pt_diag_add(a->diag, PT_SEV_ERROR, a->file, a->where,
				    "unsafe name (absolute or with '..'): refused, not read");
			continue;
		}
		if (archive_entry_is_encrypted(ent) > 0) {
			pt_diag_add(a->diag, PT_SEV_ERROR, a->file, a->where,
				    "encrypted: cannot be read (no installer reads it either)");
			continue;
		}
		if (e.size > a->lim->max_member) {
			pt_diag_add(a->diag, PT_SEV_ERROR, a->file, a->where,
				    "declares %llu bytes, more than the %llu read per member: refused",
				    (unsigned long long)e.size, (unsigned long long)a->lim->max_member);
			continue;
		}
		if (conda && e.kind == PKGAR_FILE && !strchr(e.name, '/') &&
		    (ends_with(e.name, ".tar.zst") || ends_with(e.name, ".tar"))) {
			char *inner = pt_xstrdup(e.name);

			vr = walk_inner(a, inner, visit, ctx);
			free(inner);
			if (vr > 0)
				return vr;
			if (a->failed)
				return -1;
			continue;
		}
		vr = visit(ctx, &e, a);
		if (vr)
			return vr;
		if (a->failed)
			return -1;
	}
	return 0;
}

static int walk_open(struct pkgar *a, const char *path, const void *buf, size_t len,
		     pkgar_visit visit, void *ctx)
{
	const char *why = pt_lazylib_load(&libarchive);
	int rc;

	if (why) {
		pt_diag_add(a->diag, PT_SEV_ERROR, a->file, NULL, "%s (install libarchive13)", why);
		return -1;
	}
	a->a = new_reader();
	if (!a->a) {
		pt_diag_add(a->diag, PT_SEV_ERROR, a->file, NULL, "libarchive: out of memory");
		return -1;
	}
	if ((path ? archive_read_open_filename(a->a, path, 1 << 16) :
	     archive_read_open_memory(a->a, buf, len)) != ARCHIVE_OK) {
		const char *e = archive_error_string(a->a);

		pt_diag_add(a->diag, PT_SEV_ERROR, a->file, NULL, "cannot open: %s",
			    e ? e : "not an archive libarchive reads");
		archive_read_free(a->a);
		return -1;
	}
	/* A .conda is a zip of tarballs: read the inner ones (one level, never deeper). */
	rc = walk(a, visit, ctx, ends_with(a->file, ".conda"));
	archive_read_free(a->a);
	return rc;
}

int pkgar_walk_file(const char *path, const struct pkgar_limits *lim, pkgar_visit visit,
		    void *ctx, struct pt_diag *diag)
{
	struct pkgar *a = pt_xcalloc(1, sizeof(*a));
	int rc;

	a->file = path;
	a->lim = lim ? lim : &pkgar_default_limits;
	a->diag = diag;
	rc = walk_open(a, path, NULL, 0, visit, ctx);
	free(a);
	return rc;
}

int pkgar_walk_mem(const char *name, const void *buf, size_t len, const struct pkgar_limits *lim,
		   pkgar_visit visit, void *ctx, struct pt_diag *diag)
{
	struct pkgar *a = pt_xcalloc(1, sizeof(*a));
	int rc;

	a->file = name;
	a->lim = lim ? lim : &pkgar_default_limits;
	a->diag = diag;
	rc = walk_open(a, NULL, buf, len, visit, ctx);
	free(a);
	return rc;
}
