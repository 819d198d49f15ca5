/*
 * .ninja_deps reader. The format, as ninja's src/deps_log.cc writes and reads
 * it (read here from the sources of ninja v1.4.0 to v1.13.2; the last change
 * to it was v1.9.0's version 4):
 *
 *   "# ninjadeps\n" (12 bytes), then an int32 version (host order, which also
 *   marks the byte order): 3 from ninja 1.4 to 1.8, 4 from 1.9 on (1 and 2
 *   were 1.3's and a never-released one; ninja discards them and rebuilds).
 *   Then records, each a uint32 size whose high bit says which kind, then
 *   size bytes (at most (1 << 19) - 1):
 *   - path record (high bit clear): the path, padded with 1 to 3 NULs to a
 *     multiple of 4, then a uint32 checksum, the one's complement of the id
 *     the path gets (ids count up from 0 in file order);
 *   - deps record (high bit set): int32 output id, the output's mtime (v4:
 *     int64 as two uint32 halves, low first, nanoseconds from ninja 1.10;
 *     v3: one int32, seconds), then int32 ids of its dependencies. A later
 *     record of the same output replaces the earlier one.
 *
 * ninja stops at the first record it cannot read (cut, too long, an id not
 * yet defined, a wrong checksum) and truncates the file there; this reader
 * stops there too, keeps what came before and says where. No size field is
 * trusted: every one is checked against what is left of the buffer.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "ninjadeps.h"
#include "strbuf.h"
#include "xalloc.h"

#define SIGNATURE "# ninjadeps\n"
#define SIG_LEN (sizeof(SIGNATURE) - 1)
#define MAX_RECORD ((1u << 19) - 1)

static void damaged(struct ninjadeps *l, struct pt_diag *d, const char *src, size_t at, const char *what)
{
	char where[40];

	l->damaged = true;
	pt_fmt_trunc(where, sizeof(where), "byte %zu", at);
	pt_diag_add(d, PT_SEV_WARNING, src, where,
		    "%s: read up to there (%zu path%s, %zu deps record%s); ninja truncates the log at this point "
		    "and rebuilds what it loses", what, l->n_paths, l->n_paths == 1 ? "" : "s", l->n_deps_records,
		    l->n_deps_records == 1 ? "" : "s");
}

static void ninjadeps_index(struct ninjadeps *l);

int ninjadeps_parse(const uint8_t *buf, size_t len, struct ninjadeps *l, const char *src, struct pt_diag *d)
{
	size_t at;
	int32_t version;
	char what[160];

	memset(l, 0, sizeof(*l));
	if (len < SIG_LEN || memcmp(buf, SIGNATURE, SIG_LEN)) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "not a ninja deps log (it does not start with \"# ninjadeps\")");
		return -1;
	}
	if (len < SIG_LEN + 4) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "ninja deps log cut inside its version field (%zu bytes)", len);
		return -1;
	}
	memcpy(&version, buf + SIG_LEN, 4);
	if (version != 3 && version != 4) {
		if (version == 1 || version == 2)
			pt_diag_add(d, PT_SEV_ERROR, src, NULL,
				    "ninja deps log version %d (ninja 1.3): ninja discards it and rebuilds", (int)version);
		else
			pt_diag_add(d, PT_SEV_ERROR, src, NULL,
				    "ninja deps log version %" PRId32 " is not supported (3 and 4 are: ninja 1.4 to 1.13)",
				    version);
		return -1;
	}
	l->version = version;
	at = SIG_LEN + 4;
	l->valid_len = at;
	while (at < len) {
		size_t left = len - at;
		uint32_t size, word;
		bool is_deps;
		const uint8_t *r;

		if (left < 4) {
			pt_fmt_trunc(what, sizeof(what), "a record's size field cut at the end of the file (%zu of 4 bytes)",
				     left);
			damaged(l, d, src, at, what);
			break;
		}
		word = pt_host32(buf + at);
		is_deps = word >> 31;
		size = word & 0x7fffffffu;
		if (size > MAX_RECORD) {
			pt_fmt_trunc(what, sizeof(what), "a %s record of %" PRIu32 " bytes, over ninja's limit of %u",
				     is_deps ? "deps" : "path", size, MAX_RECORD);
			damaged(l, d, src, at, what);
			break;
		}
		if (size > left - 4) {
			pt_fmt_trunc(what, sizeof(what), "the last %s record is cut: %" PRIu32 " bytes announced, %zu there",
				     is_deps ? "deps" : "path", size, left - 4);
			damaged(l, d, src, at, what);
			break;
		}
		r = buf + at + 4;
		if (is_deps) {
			size_t head = l->version == 4 ? 12 : 8, n, i;
			uint32_t out, *ids;
			struct ninjadeps_entry *e;

			if (size % 4 || size < head) {
				pt_fmt_trunc(what, sizeof(what), "a deps record of %" PRIu32 " bytes (a multiple of 4, at least %zu)",
					     size, head);
				damaged(l, d, src, at, what);
				break;
			}
			out = pt_host32(r);
			if (out >= l->n_paths) {
				pt_fmt_trunc(what, sizeof(what), "a deps record for output id %" PRIu32 ", but only %zu path%s %s defined before it",
					     out, l->n_paths, l->n_paths == 1 ? "" : "s", l->n_paths == 1 ? "is" : "are");
				damaged(l, d, src, at, what);
				break;
			}
			n = (size - head) / 4;
			ids = pt_xmalloc((n ? n : 1) * sizeof(*ids));
			for (i = 0; i < n; i++) {
				ids[i] = pt_host32(r + head + 4 * i);
				if (ids[i] >= l->n_paths)
					break;
			}
			if (i < n) {
				pt_fmt_trunc(what, sizeof(what), "a deps record of %s names id %" PRIu32 ", but only %zu paths are defined before it",
					     l->paths[out], ids[i], l->n_paths);
				free(ids);
				damaged(l, d, src, at, what);
				break;
			}
			e = &l->deps[out];
			if (!e->have)
				l->n_outputs++;
			free(e->ids);
			e->ids = ids;
			e->n = (uint32_t)n;
			e->have = true;
			if (l->version == 4)
				e->mtime = (int64_t)(((uint64_t)pt_host32(r + 8) << 32) | pt_host32(r + 4));
			else
				e->mtime = (int32_t)pt_host32(r + 4);
			l->n_deps_records++;
		} else {
			size_t plen;
			uint32_t check;

			if (size < 5) {
				pt_fmt_trunc(what, sizeof(what), "a path record of %" PRIu32 " bytes (no room for a path and its checksum)",
					     size);
				damaged(l, d, src, at, what);
				break;
			}
			plen = size - 4;
			for (int k = 0; k < 3 && plen && r[plen - 1] == '\0'; k++)
				plen--;
			if (!plen || memchr(r, '\0', plen)) {
				pt_fmt_trunc(what, sizeof(what), "a path record whose path is %s",
					     plen ? "cut by a NUL inside it" : "empty");
				damaged(l, d, src, at, what);
				break;
			}
			check = pt_host32(r + size - 4);
			if (~check != (uint32_t)l->n_paths) {
				pt_fmt_trunc(what, sizeof(what),
					     "a path record whose checksum 0x%08" PRIx32 " is not that of id %zu (two ninja processes "
					     "wrote the log at once?)", check, l->n_paths);
				damaged(l, d, src, at, what);
				break;
			}
			PT_GROW(l->paths, l->n_paths, l->a_paths);
			l->paths[l->n_paths] = pt_xstrndup((const char *)r, plen);
			/* An output id is a path id: deps grows with paths, the new slots empty. */
			if (l->a_deps < l->a_paths) {
				l->deps = pt_xreallocarray(l->deps, l->a_paths, sizeof(*l->deps));
				memset(&l->deps[l->a_deps], 0, (l->a_paths - l->a_deps) * sizeof(*l->deps));
				l->a_deps = l->a_paths;
			}
			l->n_paths++;
		}
		at += 4 + size;
		l->valid_len = at;
	}
	ninjadeps_index(l);
	for (size_t i = 1; i < l->n_paths; i++)
		if (!strcmp(l->paths[l->by_path[i - 1]], l->paths[l->by_path[i]])) {
			/* ninja stops reading at the second one (a node has one id). */
			pt_diag_add(d, PT_SEV_WARNING, src, NULL,
				    "path %s recorded twice (ids %" PRIu32 " and %" PRIu32 "): ninja stops reading the log there",
				    l->paths[l->by_path[i]], l->by_path[i - 1], l->by_path[i]);
			l->damaged = true;
			break;
		}
	return 0;
}

void ninjadeps_release(struct ninjadeps *l)
{
	for (size_t i = 0; i < l->n_paths; i++) {
		free(l->paths[i]);
		free(l->deps[i].ids);
	}
	free(l->paths);
	free(l->deps);
	free(l->by_path);
	memset(l, 0, sizeof(*l));
}

static int cmp_id_path(const void *a, const void *b, void *arg)
{
	char *const *paths = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(paths[x], paths[y]);

	return c ? c : (x < y ? -1 : x > y);
}

static void ninjadeps_index(struct ninjadeps *l)
{
	l->by_path = pt_xmalloc((l->n_paths ? l->n_paths : 1) * sizeof(*l->by_path));
	for (size_t i = 0; i < l->n_paths; i++)
		l->by_path[i] = (uint32_t)i;
	qsort_r(l->by_path, l->n_paths, sizeof(*l->by_path), cmp_id_path, l->paths);
}

int64_t ninjadeps_find(struct ninjadeps *l, const char *path)
{
	size_t lo = 0, hi = l->n_paths;

	if (!l->by_path)
		ninjadeps_index(l);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->paths[l->by_path[mid]], path);

		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ninja refuses a path recorded twice; the first id is the one kept here. */
	return lo < l->n_paths && !strcmp(l->paths[l->by_path[lo]], path) ? (int64_t)l->by_path[lo] : -1;
}

const struct ninjadeps_entry *ninjadeps_get(struct ninjadeps *l, const char *path)
{
	int64_t id = ninjadeps_find(l, path);

	return id >= 0 && l->deps[id].have ? &l->deps[id] : NULL;
}
