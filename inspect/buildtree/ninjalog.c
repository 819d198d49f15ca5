/*
 * .ninja_log reader (ninja's build_log.cc writes it): a header line
 * "# ninja log vN", then "START\tEND\tMTIME\tOUTPUT\tHASH" per output, START
 * and END in milliseconds since that run began, HASH in hex (v5: MurmurHash64A
 * of the command, v7: rapidhash; v6 changed the mtime semantics only). v4
 * has the command text in the fifth column. Every field is checked: nothing
 * in the file is trusted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ninjalog.h"
#include "numparse.h"
#include "strbuf.h"
#include "xalloc.h"

#define MAX_WARN 20

static int parse_u64(const char *s, size_t n, int base, uint64_t *out)
{
	char tmp[32], *end;
	unsigned long long v;

	if (base == 10)
		return n < sizeof(tmp) ? pt_dec_u64_all(s, n, UINT64_MAX, out) : -1;
	if (n == 0 || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (tmp[0] == '-' || tmp[0] == '+' || tmp[0] == ' ')
		return -1;
	errno = 0;
	v = strtoull(tmp, &end, base);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_i64(const char *s, size_t n, int64_t *out)
{
	uint64_t u;

	if (n && *s == '-') {
		if (parse_u64(s + 1, n - 1, 10, &u) < 0 || u > (uint64_t)INT64_MAX)
			return -1;
		*out = -(int64_t)u;
		return 0;
	}
	if (parse_u64(s, n, 10, &u) < 0 || u > (uint64_t)INT64_MAX)
		return -1;
	*out = (int64_t)u;
	return 0;
}

static void bad(struct ninjalog *l, struct pt_diag *d, const char *src, size_t line, const char *what)
{
	char where[32];

	l->n_bad++;
	if (l->n_bad > MAX_WARN)
		return;
	pt_fmt_trunc(where, sizeof(where), "line %zu", line);
	pt_diag_add(d, PT_SEV_WARNING, src, where, "%s", what);
}

/*
 * The outputs of the current run, an open-addressing set of indexes into
 * l->v (SIZE_MAX: empty): ninja runs an edge at most once a run, so an
 * output already in it starts a new run.
 */
struct run_outputs {
	size_t *slot;
	size_t cap, n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void run_outputs_clear(struct run_outputs *ro)
{
	for (size_t i = 0; i < ro->cap; i++)
		ro->slot[i] = SIZE_MAX;
	ro->n = 0;
}

/* Whether output (l->v[idx]) is in the set; adds it when not. */
static bool run_outputs_seen(struct run_outputs *ro, const struct ninjalog *l, size_t idx)
{
	size_t i;

	if ((ro->n + 1) * 2 > ro->cap) {
		size_t old = ro->cap, *os = ro->slot;

		ro->cap = old ? old * 2 : 1024;
		ro->slot = pt_xreallocarray(NULL, ro->cap, sizeof(*ro->slot));
		run_outputs_clear(ro);
		for (size_t k = 0; k < old; k++)
			if (os[k] != SIZE_MAX) {
				for (i = hash_str(l->v[os[k]].output) & (ro->cap - 1); ro->slot[i] != SIZE_MAX;
				     i = (i + 1) & (ro->cap - 1))
					;
				ro->slot[i] = os[k];
				ro->n++;
			}
		free(os);
	}
	for (i = hash_str(l->v[idx].output) & (ro->cap - 1); ro->slot[i] != SIZE_MAX; i = (i + 1) & (ro->cap - 1))
		if (!strcmp(l->v[ro->slot[i]].output, l->v[idx].output))
			return true;
	ro->slot[i] = idx;
	ro->n++;
	return false;
}

/*
 * The wall time (ns) a record's run began, from its mtime, or INT64_MIN when
 * it cannot say: ninja from 1.10 records nanoseconds, v6 and v7 the
 * command's start time (a restat or generator edge: its outputs' mtime,
 * which is later by its duration, or older), v5 the output's mtime after
 * the command (its end).
 */
static int64_t run_origin(int version, const struct ninjalog_rec *r)
{
	if (version < 5 || r->mtime < 1000000000000000000LL)
		return INT64_MIN;
	return r->mtime - (int64_t)(version >= 6 ? r->start_ms : r->end_ms) * 1000000;
}

int ninjalog_parse(const uint8_t *buf, size_t len, struct ninjalog *l, const char *src,
		   struct pt_diag *d)
{
	int64_t origin_max = INT64_MIN;
	struct run_outputs ro = { NULL, 0, 0 };
	const char *s = (const char *)buf, *end = s + len;
	static const char hdr[] = "# ninja log v";
	uint32_t prev_end = 0;
	size_t line = 1;
	int have_prev = 0;

	memset(l, 0, sizeof(*l));
	{
		const char *nl = memchr(s, '\n', len);
		size_t hl = nl ? (size_t)(nl - s) : len;
		uint64_t v;

		if (hl > 0 && s[hl - 1] == '\r')
			hl--;
		if (hl < sizeof(hdr) - 1 || memcmp(s, hdr, sizeof(hdr) - 1) ||
		    parse_u64(s + sizeof(hdr) - 1, hl - (sizeof(hdr) - 1), 10, &v) < 0) {
			pt_diag_add(d, PT_SEV_ERROR, src, "line 1",
				    "not a ninja log: no '# ninja log vN' header");
			return -1;
		}
		if (v < 4 || v > 7) {
			pt_diag_add(d, PT_SEV_ERROR, src, "line 1",
				    "ninja log version %" PRIu64 " is not supported (4 to 7 are)", v);
			return -1;
		}
		l->version = (int)v;
		s = nl ? nl + 1 : end;
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *b = s, *e = nl ? nl : end, *f[5];
		size_t fl[5], nf = 0;
		struct ninjalog_rec r = { 0 };
		uint64_t u;

		line++;
		s = nl ? nl + 1 : end;
		if (!nl) {
			/* ninja writes whole lines; a last one without \n was cut. */
			if (e > b)
				bad(l, d, src, line, "truncated last line (no newline)");
			break;
		}
		if (e > b && e[-1] == '\r')
			e--;
		if (b == e)
			continue;
		/* A header again: ninja rewrote (recompacted) or another log was appended. */
		if (*b == '#')
			continue;
		while (nf < 5) {
			const char *t = nf < 4 ? memchr(b, '\t', (size_t)(e - b)) : NULL;

			f[nf] = b;
			fl[nf] = (size_t)((t ? t : e) - b);
			nf++;
			if (!t)
				break;
			b = t + 1;
		}
		if (nf != 5) {
			bad(l, d, src, line, "not 5 tab-separated fields");
			continue;
		}
		if (parse_u64(f[0], fl[0], 10, &u) < 0 || u > UINT32_MAX) {
			bad(l, d, src, line, "start time is not a number of milliseconds");
			continue;
		}
		r.start_ms = (uint32_t)u;
		if (parse_u64(f[1], fl[1], 10, &u) < 0 || u > UINT32_MAX) {
			bad(l, d, src, line, "end time is not a number of milliseconds");
			continue;
		}
		r.end_ms = (uint32_t)u;
		if (r.end_ms < r.start_ms) {
			bad(l, d, src, line, "end time before start time");
			continue;
		}
		if (parse_i64(f[2], fl[2], &r.mtime) < 0) {
			bad(l, d, src, line, "mtime is not a number");
			continue;
		}
		if (fl[3] == 0 || memchr(f[3], '\0', fl[3])) {
			bad(l, d, src, line, "empty or binary output path");
			continue;
		}
		if (l->version >= 5 && parse_u64(f[4], fl[4], 16, &r.hash) < 0) {
			bad(l, d, src, line, "command hash is not hexadecimal");
			continue;
		}
		r.output = pt_xstrndup(f[3], fl[3]);
		r.line = line;
		PT_GROW(l->v, l->n, l->alloc);
		l->v[l->n] = r;
		{
			int64_t o = run_origin(l->version, &r);
			/*
			 * A new run: the times restart (end before the previous end),
			 * the run's wall start moved on by more than this edge's duration
			 * and 2 s (a run whose first edge outlasted the whole run before),
			 * or the output was built already in this run (runs a second
			 * apart, the first edge as long: sid's torchgen rebuild).
			 */
			bool later = have_prev && o != INT64_MIN && origin_max != INT64_MIN &&
				     o - origin_max > (int64_t)(r.end_ms - r.start_ms) * 1000000 + 2000000000LL;
			bool again = run_outputs_seen(&ro, l, l->n);

			if (have_prev && (r.end_ms < prev_end || later || again)) {
				l->n_runs++;
				origin_max = INT64_MIN;
				run_outputs_clear(&ro);
				run_outputs_seen(&ro, l, l->n);
			}
			if (o != INT64_MIN && (origin_max == INT64_MIN || o > origin_max))
				origin_max = o;
		}
		if (!have_prev)
			l->n_runs = 1;
		have_prev = 1;
		prev_end = r.end_ms;
		l->v[l->n].run = l->n_runs - 1;
		l->n++;
	}
	free(ro.slot);
	if (l->n_bad > MAX_WARN)
		pt_diag_add(d, PT_SEV_WARNING, src, NULL, "%zu malformed lines in all", l->n_bad);
	return 0;
}

void ninjalog_release(struct ninjalog *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].output);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_idx(const void *a, const void *b, void *arg)
{
	const struct ninjalog *l = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(l->v[x].output, l->v[y].output);

	return r ? r : (x < y ? -1 : x > y);
}

static int cmp_plain(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

size_t *ninjalog_latest(const struct ninjalog *l, size_t *n)
{
	size_t *idx = pt_xmalloc((l->n ? l->n : 1) * sizeof(*idx)), w = 0;

	for (size_t i = 0; i < l->n; i++)
		idx[i] = i;
	qsort_r(idx, l->n, sizeof(*idx), cmp_idx, (void *)l);
	for (size_t i = 0; i < l->n; i++) {
		if (i + 1 < l->n && !strcmp(l->v[idx[i]].output, l->v[idx[i + 1]].output))
			continue;
		idx[w++] = idx[i];
	}
	qsort(idx, w, sizeof(*idx), cmp_plain);
	*n = w;
	return idx;
}
