/*
 * preflight's parsers: every one takes bytes and a length, reads nothing past
 * it, and takes numbers through numparse (no size field is trusted).
 */
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "pfparse.h"
#include "strbuf.h"
#include "xalloc.h"

#define VER_MAX 99999u

int pf_version_cmp(const struct pf_version *a, const struct pf_version *b)
{
	for (unsigned i = 0; i < 3; i++) {
		unsigned x = i < a->n ? a->v[i] : 0, y = i < b->n ? b->v[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

static int is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

/* "N.N[.N]" at s[0..n): the bytes read, 0 when not a version (two numbers at least). */
static size_t scan_version(const uint8_t *s, size_t n, struct pf_version *v)
{
	size_t i = 0;

	memset(v, 0, sizeof(*v));
	while (v->n < 3) {
		uint64_t x;
		ssize_t k = pt_dec_u64(s + i, n - i, VER_MAX, &x);

		if (k <= 0)
			break;
		v->v[v->n++] = (unsigned)x;
		i += (size_t)k;
		if (v->n == 3 || i + 1 >= n || s[i] != '.' || !is_digit(s[i + 1]))
			break;
		i++;
	}
	if (v->n < 2) {
		memset(v, 0, sizeof(*v));
		return 0;
	}
	return i;
}

/* The length of the first line of s[0..n) (without its '\n'). */
static size_t first_line(const uint8_t *s, size_t n)
{
	const uint8_t *nl = memchr(s, '\n', n);

	return nl ? (size_t)(nl - s) : n;
}

static const uint8_t *find(const uint8_t *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	return k <= n ? memmem(s, n, needle, k) : NULL;
}

int pf_nvcc_version(const void *buf, size_t len, int *cuda, char *build, size_t n)
{
	const uint8_t *s = buf, *p = find(s, len, "Cuda compilation tools, release ");
	struct pf_version v;
	size_t off, k;

	*cuda = 0;
	if (n)
		build[0] = 0;
	if (!p)
		return -1;
	off = (size_t)(p - s) + strlen("Cuda compilation tools, release ");
	k = scan_version(s + off, len - off, &v);
	if (!k || v.n != 2 || v.v[1] > 9 || v.v[0] > 99)
		return -1;
	*cuda = (int)(v.v[0] * 1000 + v.v[1] * 10);
	off += k;
	if (off + 3 < len && s[off] == ',' && s[off + 1] == ' ' && s[off + 2] == 'V') {
		size_t e = off + 2;

		while (e < len && (is_digit(s[e]) || s[e] == '.' || s[e] == 'V'))
			e++;
		if (n)
			pt_fmt_trunc(build, n, "%.*s", (int)(e - off - 2), (const char *)s + off + 2);
	}
	return 0;
}

int pf_tool_version(const void *buf, size_t len, struct pf_version *v)
{
	const uint8_t *s = buf;
	size_t n = first_line(s, len);

	for (size_t i = 0; i < n; i++)
		if (is_digit(s[i]) && (i == 0 || !is_digit(s[i - 1])) && scan_version(s + i, n - i, v))
			return 0;
	memset(v, 0, sizeof(*v));
	return -1;
}

int pf_compiler_version(const void *buf, size_t len, struct pf_compiler *c)
{
	const uint8_t *s = buf, *p;
	size_t n = first_line(s, len), i;

	memset(c, 0, sizeof(*c));
	if ((p = find(s, n, "clang version ")) != NULL) {
		size_t off = (size_t)(p - s) + strlen("clang version ");

		if (!scan_version(s + off, n - off, &c->ver))
			return -1;
		c->kind = PF_CC_CLANG;
		return 0;
	}
	/* GCC: "NAME (VENDOR VERSION-N) VERSION [DATE] [(...)]": the version after the first ')'. */
	if (!find(s, n, "(GCC)") && !find(s, n, "g++") && !find(s, n, "gcc") && !find(s, n, "c++ ("))
		return -1;
	p = memchr(s, ')', n);
	if (!p)
		return -1;
	i = (size_t)(p - s) + 1;
	while (i < n && s[i] == ' ')
		i++;
	if (!scan_version(s + i, n - i, &c->ver))
		return -1;
	c->kind = PF_CC_GCC;
	return 0;
}

/* The number after the first occurrence of op in s[0..n), or -1. */
static int number_after(const uint8_t *s, size_t n, const char *op)
{
	const uint8_t *p = find(s, n, op);
	size_t off;
	uint64_t x;

	if (!p)
		return -1;
	off = (size_t)(p - s) + strlen(op);
	while (off < n && s[off] == ' ')
		off++;
	if (pt_dec_u64(s + off, n - off, 999, &x) <= 0)
		return -1;
	return (int)x;
}

int pf_host_config(const void *buf, size_t len, int *gcc_max, int *clang_max)
{
	const uint8_t *s = buf, *cond = NULL;
	size_t cond_n = 0, i = 0;

	*gcc_max = *clang_max = -1;
	while (i < len) {
		size_t n = first_line(s + i, len - i);
		const uint8_t *l = s + i;

		if (n >= 4 && !memcmp(l, "#if ", 4)) {
			cond = l;
			cond_n = n;
		} else if (cond && *gcc_max < 0 && find(l, n, "#error") && find(l, n, "unsupported GNU version!")) {
			int v = number_after(cond, cond_n, "__GNUC__ >");

			if (v >= 0)
				*gcc_max = v;
		} else if (cond && *clang_max < 0 && find(l, n, "#error") &&
			   find(l, n, "unsupported clang version!")) {
			int v = number_after(cond, cond_n, "__clang_major__ >=");

			if (v > 0)
				*clang_max = v - 1;
		}
		i += n + 1;
	}
	return *gcc_max >= 0 ? 0 : -1;
}

/* The number after "#define NAME " (blanks between), or -1. */
static long define_value(const uint8_t *s, size_t n, const char *name)
{
	size_t k = strlen(name);

	for (const uint8_t *p = find(s, n, name); p; p = find(p + k, n - (size_t)(p + k - s), name)) {
		size_t off = (size_t)(p - s) + k;
		uint64_t x;

		if (off >= n || (s[off] != ' ' && s[off] != '\t'))
			continue;
		while (off < n && (s[off] == ' ' || s[off] == '\t'))
			off++;
		if (pt_dec_u64(s + off, n - off, VER_MAX, &x) > 0)
			return (long)x;
	}
	return -1;
}

int pf_header_version(const void *buf, size_t len, const char *major, const char *minor, const char *patch,
		      struct pf_version *v)
{
	const char *names[3] = { major, minor, patch };

	memset(v, 0, sizeof(*v));
	for (unsigned i = 0; i < 3 && names[i]; i++) {
		char def[96];
		long x;

		if (pt_fmt(def, sizeof(def), "#define %s", names[i]) < 0)
			break;
		if ((x = define_value(buf, len, def)) < 0)
			break;
		v->v[i] = (unsigned)x;
		v->n = i + 1;
	}
	return v->n ? 0 : -1;
}

int pf_cudnn_version(const void *buf, size_t len, struct pf_version *v)
{
	return pf_header_version(buf, len, "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL", v);
}

int pf_version_txt(const void *buf, size_t len, struct pf_version *v)
{
	const uint8_t *s = buf;
	size_t n = first_line(s, len), k = scan_version(s, n, v);

	if (!k)
		return -1;
	/* After the numbers: a pre-release or local part, nothing odd. */
	for (size_t i = k; i < n; i++)
		if (!(is_digit(s[i]) || (s[i] >= 'a' && s[i] <= 'z') || s[i] == '.' || s[i] == '+' ||
		      s[i] == '-' || s[i] == '\r')) {
			memset(v, 0, sizeof(*v));
			return -1;
		}
	return 0;
}

static int is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* s[0..n) without surrounding blanks and one pair of double quotes, as a new string. */
static char *value_dup(const uint8_t *s, size_t n)
{
	while (n && is_space(s[0]))
		s++, n--;
	while (n && is_space(s[n - 1]))
		n--;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"')
		s++, n -= 2;
	return pt_xstrndup((const char *)s, n);
}

int pf_gitmodules_parse(const void *buf, size_t len, struct pf_gitmodules *g, const char *src,
			struct pt_diag *d)
{
	const uint8_t *s = buf;
	struct pf_submodule *cur = NULL;
	size_t i = 0, line = 0;
	char where[32];

	memset(g, 0, sizeof(*g));
	while (i < len) {
		size_t n = first_line(s + i, len - i), b = 0;
		const uint8_t *l = s + i;

		line++;
		i += n + 1;
		while (b < n && is_space(l[b]))
			b++;
		if (b == n || l[b] == '#' || l[b] == ';')
			continue;
		pt_fmt_trunc(where, sizeof(where), "line %zu", line);
		if (memchr(l, 0, n)) {
			pt_diag_add(d, PT_SEV_ERROR, src, where, "a NUL byte: not a .gitmodules file");
			pf_gitmodules_release(g);
			return -1;
		}
		if (l[b] == '[') {
			const uint8_t *q1 = memchr(l + b, '"', n - b), *q2, *close;

			close = memchr(l + b, ']', n - b);
			if (!close || (size_t)(close - l) < b + 10 || memcmp(l + b, "[submodule", 10)) {
				/* Another section: its keys are not a submodule's. */
				if (!close) {
					pt_diag_add(d, PT_SEV_ERROR, src, where, "a section header without ']'");
					pf_gitmodules_release(g);
					return -1;
				}
				cur = NULL;
				continue;
			}
			q2 = q1 && q1 < close ? memchr(q1 + 1, '"', (size_t)(close - q1 - 1)) : NULL;
			if (!q1 || !q2) {
				pt_diag_add(d, PT_SEV_WARNING, src, where, "a [submodule] header without a quoted name");
				cur = NULL;
				continue;
			}
			PT_GROW(g->v, g->n, g->alloc);
			cur = &g->v[g->n++];
			*cur = (struct pf_submodule){ pt_xstrndup((const char *)q1 + 1, (size_t)(q2 - q1 - 1)), NULL,
						      NULL, line };
			continue;
		}
		{
			const uint8_t *eq = memchr(l + b, '=', n - b);
			size_t kn;

			if (!eq) {
				pt_diag_add(d, PT_SEV_ERROR, src, where, "neither a section, a comment nor 'key = value'");
				pf_gitmodules_release(g);
				return -1;
			}
			if (!cur)
				continue;
			kn = (size_t)(eq - l) - b;
			while (kn && is_space(l[b + kn - 1]))
				kn--;
			if (kn == 4 && !memcmp(l + b, "path", 4)) {
				free(cur->path);
				cur->path = value_dup(eq + 1, n - (size_t)(eq + 1 - l));
			} else if (kn == 3 && !memcmp(l + b, "url", 3)) {
				free(cur->url);
				cur->url = value_dup(eq + 1, n - (size_t)(eq + 1 - l));
			}
		}
	}
	for (size_t k = 0; k < g->n; k++)
		if (!g->v[k].path || !g->v[k].path[0]) {
			pt_fmt_trunc(where, sizeof(where), "line %zu", g->v[k].line);
			pt_diag_add(d, PT_SEV_WARNING, src, where, "submodule '%s' has no path", g->v[k].name);
		}
	return 0;
}

void pf_gitmodules_release(struct pf_gitmodules *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].name);
		free(g->v[i].path);
		free(g->v[i].url);
	}
	free(g->v);
	memset(g, 0, sizeof(*g));
}

static int is_hex(uint8_t c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

void pf_submodule_status(const void *buf, size_t len, struct pf_substatus *st)
{
	const uint8_t *s = buf;
	size_t i = 0;

	memset(st, 0, sizeof(*st));
	while (i < len) {
		const uint8_t *l = s + i;
		size_t n = first_line(l, len - i), h = 1, e;

		i += n + 1;
		/* Not git's output: a line with a NUL byte (its path would be cut there). */
		if (n < 3 || (l[0] != ' ' && l[0] != '-' && l[0] != '+' && l[0] != 'U') || memchr(l, 0, n))
			continue;
		while (h < n && is_hex(l[h]))
			h++;
		/* SHA-1 or SHA-256 object names, then one space and the path. */
		if ((h - 1 != 40 && h - 1 != 64) || h + 1 >= n || l[h] != ' ')
			continue;
		h++;
		e = h;
		while (e < n && !(l[e] == ' ' && e + 1 < n && l[e + 1] == '('))
			e++;
		while (e > h && (l[e - 1] == '\r' || l[e - 1] == ' '))
			e--;
		if (e == h)
			continue;
		PT_GROW(st->v, st->n, st->alloc);
		st->v[st->n++] = (struct pf_substate){ (char)l[0], pt_xstrndup((const char *)l + h, e - h) };
	}
}

void pf_substatus_release(struct pf_substatus *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->v[i].path);
	free(st->v);
	memset(st, 0, sizeof(*st));
}

static int lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Case-insensitive search of a lower-case needle. */
static const uint8_t *find_ci(const uint8_t *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++) {
		size_t j = 0;

		while (j < k && lower(s[i + j]) == (uint8_t)needle[j])
			j++;
		if (j == k)
			return s + i;
	}
	return NULL;
}

int pf_cmake_min(const void *buf, size_t len, struct pf_version *v)
{
	const uint8_t *s = buf, *p = find_ci(s, len, "cmake_minimum_required");
	size_t off, end;

	memset(v, 0, sizeof(*v));
	if (!p)
		return -1;
	off = (size_t)(p - s) + strlen("cmake_minimum_required");
	end = off;
	while (end < len && s[end] != ')')
		end++;
	p = find_ci(s + off, end - off, "version");
	if (!p)
		return -1;
	off = (size_t)(p - s) + strlen("version");
	while (off < end && is_space(s[off]))
		off++;
	return scan_version(s + off, end - off, v) ? 0 : -1;
}

static int is_ident(uint8_t c)
{
	return is_digit(c) || c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

void pf_cmake_options(const void *buf, size_t len, char ***names, size_t *n)
{
	const uint8_t *s = buf;
	size_t alloc = 0, i = 0;

	*names = NULL;
	*n = 0;
	while (i < len) {
		const uint8_t *p = find(s + i, len - i, "option(");
		size_t at, e;

		if (!p)
			break;
		at = (size_t)(p - s);
		i = at + 7;
		/* option( alone or as cmake_dependent_option(, not some_other_option(. */
		if (at && is_ident(s[at - 1]) &&
		    !(at >= 16 && !memcmp(s + at - 16, "cmake_dependent_", 16) && (at == 16 || !is_ident(s[at - 17]))))
			continue;
		while (i < len && (is_space(s[i]) || s[i] == '\n'))
			i++;
		for (e = i; e < len && is_ident(s[e]); e++)
			;
		if (e == i || e - i > 64)
			continue;
		PT_GROW(*names, *n, alloc);
		(*names)[(*n)++] = pt_xstrndup((const char *)s + i, e - i);
		i = e;
	}
}

void pf_names_release(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ---- nvcc --dryrun ---- */

/* The first shell word of s[0..n) with its quotes removed ("/usr/bin"/g++ -> /usr/bin/g++); NULL when empty. */
static char *first_word(const uint8_t *s, size_t n)
{
	char *w = pt_xmalloc(n + 1), q = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char c = (char)s[i];

		if (q) {
			if (c == q)
				q = 0;
			else
				w[k++] = c;
		} else if (c == '"' || c == '\'') {
			q = c;
		} else if (c == ' ' || c == '\t') {
			break;
		} else {
			w[k++] = c;
		}
		if (c == 0) {	/* a NUL is no file name: none */
			k = 0;
			break;
		}
	}
	w[k] = 0;
	if (k == 0) {
		free(w);
		return NULL;
	}
	return w;
}

int pf_nvcc_dryrun(const void *buf, size_t len, char **path, char **host)
{
	const uint8_t *s = buf;
	size_t off = 0;

	*path = *host = NULL;
	while (off < len) {
		const uint8_t *nl = memchr(s + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (s + off)) : len - off;
		const uint8_t *l = s + off;

		off += n + (nl != NULL);
		if (n > 0 && l[n - 1] == '\r')
			n--;
		if (n < 3 || memcmp(l, "#$ ", 3) != 0)
			continue;
		l += 3;
		n -= 3;
		if (n >= 5 && memcmp(l, "PATH=", 5) == 0) {
			free(*path);
			*path = pt_xstrndup((const char *)l + 5, n - 5);
		} else if (!*host && find(l, n, " -E -x c++")) {
			*host = first_word(l, n);
		}
	}
	return *host ? 0 : -1;
}
