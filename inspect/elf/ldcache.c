/*
 * /etc/ld.so.cache reader; see ldcache.h and elf-loader.md §11. Lookup
 * follows glibc 2.36 elf/dl-cache.c: binary search over entries sorted
 * descending by _dl_cache_libcmp, then the run of equal keys in order.
 */
#include "ldcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "numparse.h"
#include "xalloc.h"

#define CACHE_MAGIC_OLD "ld.so-1.7.0"
#define CACHE_MAGIC_NEW "glibc-ld.so.cache1.1"
#define CACHE_EXT_MAGIC 0xeaa42174u
#define FLAG_X8664_LIB64 0x0303		/* FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 */
#define HWCAP_EXTENSION (1ull << 62)	/* low 32 bits index the hwcaps names */
#define CACHE_MAX (256u << 20)		/* a real cache is ~100 KB; refuse absurd files */

/* A NUL-terminated string at base+off inside the buffer, or NULL. */
static const char *cstr(const struct ldcache *c, size_t base, uint32_t off)
{
	size_t at = base + off;

	/* A NUL follows at exactly when at is before the last NUL (strings_end,
	   found once): a memchr per entry is quadratic on a cache without NULs. */
	if (at < base || at >= c->strings_end)
		return NULL;
	return (const char *)c->buf + at;
}

static void read_extensions(struct ldcache *c, size_t base, uint32_t ext_off, const char *name,
			    struct pt_diag *diag)
{
	size_t at = base + ext_off;
	uint32_t count;

	if (!ext_off)
		return;
	if (at < base || at > c->len || c->len - at < 8 || pt_host32(c->buf + at) != CACHE_EXT_MAGIC) {
		pt_diag_add(diag, PT_SEV_WARNING, name, NULL,
			    "extension directory at offset 0x%zx is damaged; ignored", at);
		return;
	}
	count = pt_host32(c->buf + at + 4);
	if (count > (c->len - at - 8) / 16) {
		pt_diag_add(diag, PT_SEV_WARNING, name, NULL,
			    "extension directory at offset 0x%zx: %u sections do not fit", at, count);
		count = (uint32_t)((c->len - at - 8) / 16);
	}
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *s = c->buf + at + 8 + 16 * i;
		uint32_t tag = pt_host32(s), off = pt_host32(s + 8), size = pt_host32(s + 12);
		size_t sat = base + off;

		if (sat < base || sat > c->len || size > c->len - sat) {
			pt_diag_add(diag, PT_SEV_WARNING, name, NULL,
				    "extension section %u points past the end of the file", i);
			continue;
		}
		if (tag == 0 && !c->generator) {
			c->generator = pt_xstrndup((const char *)c->buf + sat, size);
			/* The generator is text; cut at an embedded NUL like a C string. */
			c->generator[strnlen(c->generator, size)] = '\0';
		} else if (tag == 1 && !c->hwcaps_names) {
			size_t n = size / 4;

			c->hwcaps_names = pt_xcalloc(n ? n : 1, sizeof(char *));
			for (size_t k = 0; k < n; k++)
				c->hwcaps_names[k] = cstr(c, base, pt_host32(c->buf + sat + 4 * k));
			c->n_hwcaps_names = n;
		}
	}
}

int ldcache_parse(struct ldcache *c, uint8_t *buf, size_t len, const char *name,
		  struct pt_diag *diag)
{
	size_t base = 0, nlibs, fit, bad = 0, first_bad = 0;

	memset(c, 0, sizeof(*c));
	c->buf = buf;
	c->len = len;
	for (c->strings_end = len; c->strings_end > 0 && buf[c->strings_end - 1]; c->strings_end--)
		;
	/*
	 * An old-format cache may carry a new one after its entries, aligned
	 * to 8 (glibc's ALIGN_CACHE). Old-only caches are refused explicitly.
	 */
	if (len >= 16 && !memcmp(buf, CACHE_MAGIC_OLD, sizeof(CACHE_MAGIC_OLD) - 1)) {
		size_t old_n = pt_host32(buf + 12);

		if (old_n > (len - 16) / 12) {
			pt_diag_add(diag, PT_SEV_ERROR, name, "header at offset 0x0",
				    "old-format cache claims %zu entries, more than the file holds", old_n);
			return -1;
		}
		base = (16 + old_n * 12 + 7) & ~(size_t)7;
		if (base > len || len - base < 20 || memcmp(buf + base, CACHE_MAGIC_NEW, 20)) {
			pt_diag_add(diag, PT_SEV_ERROR, name, NULL,
				    "old-format (libc5-era) cache without a new-format part: not supported");
			return -1;
		}
	}
	if (len - base < 48 || memcmp(buf + base, CACHE_MAGIC_NEW, 20) != 0) {
		pt_diag_add(diag, PT_SEV_ERROR, name, "header at offset 0x0",
			    len < 48 ? "truncated: %zu bytes, a cache header needs 48" :
				       "not an ld.so.cache (bad magic)", len);
		return -1;
	}
	if ((buf[base + 28] & 3) == 3) {
		pt_diag_add(diag, PT_SEV_ERROR, name, NULL, "big-endian cache on a little-endian host");
		return -1;
	}
	nlibs = pt_host32(buf + base + 20);
	fit = (len - base - 48) / 24;
	if (nlibs > fit) {
		pt_diag_add(diag, PT_SEV_WARNING, name, NULL,
			    "cache claims %zu entries but the file holds %zu; reading those", nlibs, fit);
		nlibs = fit;
	}
	c->v = pt_xcalloc(nlibs ? nlibs : 1, sizeof(*c->v));
	for (size_t i = 0; i < nlibs; i++) {
		const uint8_t *e = buf + base + 48 + 24 * i;
		struct ldcache_entry *out = &c->v[c->n];

		out->flags = (int32_t)pt_host32(e);
		out->key = cstr(c, base, pt_host32(e + 4));
		out->value = cstr(c, base, pt_host32(e + 8));
		out->hwcap = pt_host64(e + 16);
		if (!out->key || !out->value) {
			/* One warning for all of them (a damaged cache has millions). */
			if (!bad++)
				first_bad = i;
			continue;
		}
		c->n++;
	}
	if (bad == 1)
		pt_diag_add(diag, PT_SEV_WARNING, name, NULL,
			    "entry %zu: string offset outside the file; skipped", first_bad);
	else if (bad)
		pt_diag_add(diag, PT_SEV_WARNING, name, NULL,
			    "%zu entries (the first: entry %zu) have a string offset outside the file; skipped",
			    bad, first_bad);
	read_extensions(c, base, pt_host32(buf + base + 32), name, diag);
	return 0;
}

int ldcache_load(struct ldcache *c, const char *path, struct pt_diag *diag)
{
	struct stat st;
	uint8_t *buf;
	ssize_t n;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	memset(c, 0, sizeof(*c));
	if (fd < 0 || fstat(fd, &st) != 0) {
		pt_diag_add(diag, PT_SEV_WARNING, path, NULL, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		pt_diag_add(diag, PT_SEV_WARNING, path, NULL, "not a regular file: not a cache");
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > CACHE_MAX) {
		pt_diag_add(diag, PT_SEV_WARNING, path, NULL, "%lld bytes: too large for a cache",
			    (long long)st.st_size);
		close(fd);
		return -1;
	}
	buf = pt_xmalloc((size_t)st.st_size);
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (ldcache_parse(c, buf, got, path, diag) != 0) {
		ldcache_release(c);
		return -1;
	}
	return 0;
}

/* glibc's _dl_cache_libcmp: runs of digits compare as numbers. */
#define LIBCMP_SAT ((1ull << 60) * 10 + 9)
static int libcmp(const char *p1, const char *p2)
{
	while (*p1) {
		if (*p1 >= '0' && *p1 <= '9') {
			if (*p2 >= '0' && *p2 <= '9') {
				uint64_t v1, v2;

				/* Saturate instead of overflowing on absurd digit runs (a digit
				   is read while the value is at most 2^60), then step over
				   every digit: a saturated run looped forever. */
				p1 += pt_dec_scan(p1, strlen(p1), LIBCMP_SAT, &v1);
				p2 += pt_dec_scan(p2, strlen(p2), LIBCMP_SAT, &v2);
				while (*p1 >= '0' && *p1 <= '9')
					p1++;
				while (*p2 >= '0' && *p2 <= '9')
					p2++;
				if (v1 != v2)
					return v1 < v2 ? -1 : 1;
			} else {
				return 1;
			}
		} else if (*p2 >= '0' && *p2 <= '9') {
			return -1;
		} else if (*p1 != *p2) {
			return (unsigned char)*p1 - (unsigned char)*p2;
		} else {
			p1++;
			p2++;
		}
	}
	return -(unsigned char)*p2;
}

const char *ldcache_lookup(const struct ldcache *c, const char *name, char *const *hwcaps,
			   size_t n_hwcaps)
{
	long left = 0, right = (long)c->n - 1;

	while (left <= right) {
		long mid = left + (right - left) / 2;
		int cmp = libcmp(name, c->v[mid].key);

		if (cmp == 0) {
			const struct ldcache_entry *best = NULL, *plain = NULL;
			size_t best_prio = (size_t)-1;

			while (mid > 0 && libcmp(name, c->v[mid - 1].key) == 0)
				mid--;
			for (; mid < (long)c->n && libcmp(name, c->v[mid].key) == 0; mid++) {
				const struct ldcache_entry *e = &c->v[mid];

				if (e->flags != FLAG_X8664_LIB64)
					continue;
				if (e->hwcap & HWCAP_EXTENSION) {
					uint32_t idx = (uint32_t)e->hwcap;
					const char *sub = idx < c->n_hwcaps_names ? c->hwcaps_names[idx] : NULL;

					/* Usable only if the subdir is active; lower position is better. */
					for (size_t p = 0; sub && p < n_hwcaps && p < best_prio; p++)
						if (!strcmp(hwcaps[p], sub)) {
							best = e;
							best_prio = p;
						}
				} else if (!plain && e->hwcap == 0) {
					/*
					 * NEEDSWORK: legacy hwcap-bit entries (pre-2.33
					 * ldconfig) are skipped; Debian 12 writes none.
					 */
					plain = e;
				}
			}
			return best ? best->value : plain ? plain->value : NULL;
		}
		if (cmp < 0)
			left = mid + 1;
		else
			right = mid - 1;
	}
	return NULL;
}

void ldcache_release(struct ldcache *c)
{
	free(c->buf);
	free(c->v);
	free(c->hwcaps_names);
	free(c->generator);
	memset(c, 0, sizeof(*c));
}
