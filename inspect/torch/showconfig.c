/*
 * _show_config text -> struct showconfig; see showconfig.h. Two passes: lines
 * become logical entries (a "- " line plus the more-indented lines that
 * continue it), then each entry is matched by its leading words.
 */
#include "showconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmp.h"
#include "numparse.h"
#include "strbuf.h"
#include "xalloc.h"

/* One logical entry under construction. */
struct entry {
	struct pt_strbuf text;	/* after "- ", continuations joined */
	size_t dash_col;	/* column of the '-' */
	size_t line;		/* first line number, 1-based */
	bool open;
};

/* Doubling: 400,000 NVCC codes must not cost a copy of the list each. */
#define push_str(c, f, s)                                                       \
	do {                                                                   \
		PT_GROW((c)->f, (c)->n_##f, (c)->a_##f);                       \
		(c)->f[(c)->n_##f++] = pt_xstrdup(s);                          \
	} while (0)

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Copy s without leading/trailing blanks. */
static char *trimmed(const char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == ','))
		n--;
	return pt_xstrndup(s, n);
}

static void set_field(char **field, const char *s)
{
	free(*field);
	*field = trimmed(s);
}

char *showconfig_decode_cudnn(const char *s)
{
	unsigned long p[3] = { 0, 0, 0 };
	int n = 0;
	const char *q = s;
	unsigned long v;

	while (n < 3) {
		uint64_t x;
		ssize_t k = pt_dec_u64(q, strlen(q), 100000, &x);

		if (k <= 0)
			return NULL;
		p[n++] = (unsigned long)x;
		q += k;
		if (*q != '.')
			break;
		q++;
	}
	if (n < 2 || (*q && *q != ' '))
		return NULL;
	v = p[0] * 1000 + p[1] * 100 + p[2];
	/* cuDNN 9 switched CUDNN_VERSION to major*10000 + minor*100 + patch. */
	if (v >= 90000) {
		if (n == 2)
			return pt_xasprintf("%lu.%lu", v / 10000, v % 10000 / 100);
		return pt_xasprintf("%lu.%lu.%lu", v / 10000, v % 10000 / 100, v % 100);
	}
	if (n == 2)
		return pt_xasprintf("%lu.%lu", p[0], p[1]);
	return pt_xasprintf("%lu.%lu.%lu", p[0], p[1], p[2]);
}

const char *showconfig_arch_dotted(const char *name, char *out, size_t n)
{
	const char *d;
	size_t nd = 0;

	if (starts(name, "sm_"))
		d = name + 3;
	else if (starts(name, "compute_"))
		d = name + 8;
	else
		return NULL;
	while (isdigit((unsigned char)d[nd]))
		nd++;
	if (nd < 2 || nd > 4)
		return NULL;
	for (const char *t = d + nd; *t; t++)
		if (!isalpha((unsigned char)*t))
			return NULL;
	/* The last digit is the minor version: sm_120 is 12.0. */
	pt_fmt_trunc(out, n, "%.*s.%c%s", (int)(nd - 1), d, d[nd - 1], d + nd);
	return out;
}

/* One "code=" value: sm_80, compute_90, or [sm_80,compute_80]; duplicates go in finish_nvcc. */
static void add_codes(struct showconfig *c, const char *codes)
{
	char *s = pt_xstrdup(codes), *save = NULL;

	for (char *t = strtok_r(s, "[],", &save); t; t = strtok_r(NULL, "[],", &save)) {
		while (*t == ' ')
			t++;
		if (starts(t, "sm_"))
			push_str(c, nvcc_sass, t);
		else if (starts(t, "compute_"))
			push_str(c, nvcc_ptx, t);
	}
	free(s);
}

/*
 * "-gencode;arch=compute_70,code=sm_70;..." (CMake list syntax). Also takes
 * "-gencode=arch=...,code=..." and "--generate-code" spellings. The code=
 * value may hold a comma-separated [list], so find "code=" rather than split.
 */
static void parse_nvcc(struct showconfig *c, const char *flags)
{
	char *s = pt_xstrdup(flags), *save = NULL;

	for (char *t = strtok_r(s, "; ", &save); t; t = strtok_r(NULL, "; ", &save)) {
		char *code = strstr(t, "code=");

		if (code && strstr(t, "arch="))
			add_codes(c, code + 5);
	}
	free(s);
}

/* Sort key for dedup: the string, then its place, so the first of equal ones comes first. */
struct ranked {
	const char *s;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int r = strcmp(x->s, y->s);

	return r ? r : x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Keep the first of equal strings, in order. Sorting makes it n log n (in
 * fault-matrix.md B18 it was a linear search per code: 15 s for 80,000).
 */
static void dedup(char **v, size_t *n)
{
	struct ranked *r = pt_xcalloc(*n + 1, sizeof(*r));
	bool *drop = pt_xcalloc(*n + 1, sizeof(*drop));
	size_t k = 0;

	for (size_t i = 0; i < *n; i++)
		r[i] = (struct ranked){ v[i], i };
	qsort(r, *n, sizeof(*r), cmp_ranked);
	for (size_t i = 1; i < *n; i++)
		if (!strcmp(r[i].s, r[i - 1].s))
			drop[r[i].i] = true;
	for (size_t i = 0; i < *n; i++) {
		if (drop[i])
			free(v[i]);
		else
			v[k++] = v[i];
	}
	*n = k;
	free(r);
	free(drop);
}

/*
 * After the whole text (a paste may hold the NVCC line twice: the lists
 * add up): the codes made unique, and TORCH_CUDA_ARCH_LIST from them. Every
 * lookup is a binary search over a sorted copy.
 */
static void finish_nvcc(struct showconfig *c)
{
	struct pt_strbuf al;
	char **ptx_dotted, **sass_sorted;
	size_t np = 0;

	if (!c->n_nvcc_sass && !c->n_nvcc_ptx)
		return;
	dedup(c->nvcc_sass, &c->n_nvcc_sass);
	dedup(c->nvcc_ptx, &c->n_nvcc_ptx);
	ptx_dotted = pt_xcalloc(c->n_nvcc_ptx + 1, sizeof(*ptx_dotted));
	for (size_t k = 0; k < c->n_nvcc_ptx; k++) {
		char p[32];

		if (showconfig_arch_dotted(c->nvcc_ptx[k], p, sizeof(p)))
			ptx_dotted[np++] = pt_xstrdup(p);
	}
	qsort(ptx_dotted, np, sizeof(*ptx_dotted), pt_cmp_strp);
	sass_sorted = pt_xcalloc(c->n_nvcc_sass + 1, sizeof(*sass_sorted));
	if (c->n_nvcc_sass)	/* only PTX codes: no list to copy (memcpy of NULL is UB) */
		memcpy(sass_sorted, c->nvcc_sass, c->n_nvcc_sass * sizeof(*sass_sorted));
	qsort(sass_sorted, c->n_nvcc_sass, sizeof(*sass_sorted), pt_cmp_strp);

	/* TORCH_CUDA_ARCH_LIST: each SASS arch, "+PTX" where PTX of it is kept too. */
	pt_strbuf_init(&al, SHOWCONFIG_MAX_LEN);
	for (size_t i = 0; i < c->n_nvcc_sass; i++) {
		char d[32];
		const char *key = d;
		bool ptx;

		if (!showconfig_arch_dotted(c->nvcc_sass[i], d, sizeof(d)))
			continue;
		ptx = bsearch(&key, ptx_dotted, np, sizeof(*ptx_dotted), pt_cmp_strp) != NULL;
		pt_strbuf_addf_trunc(&al, "%s%s%s", al.len ? ";" : "", d, ptx ? "+PTX" : "");
	}
	/* PTX for an arch without its SASS: "X.Y+PTX" alone would add SASS, so name it. */
	for (size_t k = 0; k < c->n_nvcc_ptx; k++) {
		char p[32], name[40];
		const char *key = name;

		if (!showconfig_arch_dotted(c->nvcc_ptx[k], p, sizeof(p)))
			continue;
		pt_fmt_trunc(name, sizeof(name), "sm_%s", c->nvcc_ptx[k] + 8);
		if (!bsearch(&key, sass_sorted, c->n_nvcc_sass, sizeof(*sass_sorted), pt_cmp_strp))
			pt_strbuf_addf_trunc(&al, "%s%s+PTX", al.len ? ";" : "", p);
	}
	free(c->arch_list);
	c->arch_list = al.len ? pt_strbuf_detach(&al) : NULL;
	pt_strbuf_release(&al);
	for (size_t k = 0; k < np; k++)
		free(ptx_dotted[k]);
	free(ptx_dotted);
	free(sass_sorted);
}

/* Does s start a "KEY=" (upper case, digits, '_')? Returns the key length. */
static size_t key_at(const char *s)
{
	size_t n = 0;

	if (!isupper((unsigned char)s[0]))
		return 0;
	while (isupper((unsigned char)s[n]) || isdigit((unsigned char)s[n]) || s[n] == '_')
		n++;
	return s[n] == '=' ? n : 0;
}

/* Where the next ", KEY=" begins after s (pointing at the ','), or NULL. */
static const char *next_key(const char *s)
{
	for (const char *p = strchr(s, ','); p; p = strchr(p + 1, ',')) {
		const char *k = p + 1;

		while (*k == ' ')
			k++;
		if (key_at(k))
			return p;
	}
	return NULL;
}

static void add_setting(struct showconfig *c, const char *key, size_t klen, const char *v,
			size_t vlen)
{
	PT_GROW(c->settings, c->n_settings, c->a_settings);
	c->settings[c->n_settings].key = pt_xstrndup(key, klen);
	c->settings[c->n_settings].value = pt_xstrndup(v, vlen);
	c->n_settings++;
}

/*
 * "BLAS_INFO=mkl, BUILD_TYPE=Release, CXX_FLAGS= -O2 -DX=1 /wd4624, ...":
 * values hold spaces, commas and '=', so a value ends only where ", KEY="
 * begins. The trailing ", " torch prints is dropped; a last fragment without
 * '=' (a paste cut short) goes to unparsed.
 */
static void parse_settings(struct showconfig *c, const char *s, size_t line, const char *file,
			   struct pt_diag *diag)
{
	const char *p = s;
	char where[32];

	pt_fmt_trunc(where, sizeof(where), "line %zu", line);
	while (*p == ' ')
		p++;
	if (*p && !key_at(p)) {
		const char *nk = next_key(p);
		size_t n = nk ? (size_t)(nk - p) : strlen(p);
		char *junk = pt_xasprintf("Build settings: %.*s", (int)n, p);

		push_str(c, unparsed, junk);
		pt_diag_add(diag, PT_SEV_NOTE, file, where, "build settings start with '%.*s', not KEY=",
			    (int)(n > 40 ? 40 : n), p);
		free(junk);
		p = nk ? nk + 1 : p + n;
		while (*p == ' ')
			p++;
	}
	while (*p) {
		size_t klen = key_at(p);
		const char *v = p + klen + 1, *nk = next_key(v), *end;

		end = nk ? nk : v + strlen(v);
		if (!nk) {
			/* Last value: drop torch's trailing ", " and a cut-off "USE_RO". */
			const char *comma = strrchr(v, ',');

			if (comma) {
				const char *t = comma + 1;
				bool frag = true;

				while (*t == ' ')
					t++;
				for (const char *u = t; *u; u++)
					if (!(isupper((unsigned char)*u) || isdigit((unsigned char)*u) || *u == '_'))
						frag = false;
				if (frag && *t) {
					push_str(c, unparsed, t);
					pt_diag_add(diag, PT_SEV_NOTE, file, where,
						    "build settings end in '%s' without a value (cut short?)", t);
					end = comma;
				} else if (!*t) {
					end = comma;
				}
			}
			while (end > v && end[-1] == ' ')
				end--;
		}
		add_setting(c, p, klen, v, (size_t)(end - v));
		if (!nk)
			break;
		p = nk + 1;
		while (*p == ' ')
			p++;
	}
}

/* The text after the first word made of digits and dots: "Magma 2.6.1" -> "2.6.1". */
static const char *after(const char *s, const char *prefix)
{
	s += strlen(prefix);
	while (*s == ' ' || *s == ':')
		s++;
	return s;
}

static void parse_cudnn(struct showconfig *c, const char *v)
{
	const char *paren = strstr(v, "(built against CUDA ");
	char *ver;

	ver = paren ? pt_xstrndup(v, (size_t)(paren - v)) : pt_xstrdup(v);
	set_field(&c->cudnn, ver);
	free(ver);
	free(c->cudnn_version);
	c->cudnn_version = showconfig_decode_cudnn(c->cudnn);
	if (paren) {
		const char *cv = paren + strlen("(built against CUDA ");
		size_t n = strcspn(cv, ")");
		char *t = pt_xstrndup(cv, n);

		set_field(&c->cudnn_cuda, t);
		free(t);
	}
}

static bool is_compiler(const char *s)
{
	static const char *const names[] = { "GCC ", "clang ", "Clang ", "Apple clang ", "MSVC ",
					     "ICC ", "ICX ", "Intel C++ ", "NVHPC " };

	for (size_t i = 0; i < PT_ARRAY_SIZE(names); i++)
		if (starts(s, names[i]))
			return true;
	return false;
}

/* Does s start with prefix, ignoring case? ("CudNN 7.1" in old pastes). */
static bool starts_ci(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

/* Whether s is one of the entries torch prints; fields set from it. */
static bool interpret(struct showconfig *c, const char *s, size_t line, const char *file,
		      struct pt_diag *diag)
{
	if (is_compiler(s)) {
		char *t = trimmed(s);

		push_str(c, compilers, t);
		free(t);
	} else if (starts(s, "C++ Version:")) {
		set_field(&c->cxx_version, after(s, "C++ Version:"));
	} else if (starts(s, "Intel(R)") && strstr(s, "Math Kernel Library Version ")) {
		const char *v = strstr(s, "Version ") + 8;
		size_t n = 0;

		/* "2020.0.2 Product Build" and "2024.2-Product Build" both occur. */
		while (v[n] && v[n] != ' ' && strncmp(v + n, "-Product", 8))
			n++;
		free(c->mkl);
		c->mkl = pt_xstrndup(v, n);
	} else if (strstr(s, "MKL-DNN") || strstr(s, "oneDNN")) {
		const char *v = strstr(s, " v");

		if (v) {
			free(c->mkldnn);
			c->mkldnn = pt_xstrndup(v + 1, strcspn(v + 1, " "));
		}
	} else if (starts(s, "OpenMP ")) {
		set_field(&c->openmp, after(s, "OpenMP"));
	} else if (starts(s, "LAPACK is enabled")) {
		c->lapack = true;
	} else if (starts(s, "NNPACK is enabled")) {
		c->nnpack = true;
	} else if (starts(s, "CPU capability usage:")) {
		set_field(&c->cpu_capability, after(s, "CPU capability usage:"));
	} else if (starts(s, "CUDA Runtime ")) {
		set_field(&c->cuda_runtime, after(s, "CUDA Runtime"));
	} else if (starts(s, "Built with CUDA Runtime ")) {
		set_field(&c->built_with_cuda_runtime, after(s, "Built with CUDA Runtime"));
	} else if (starts(s, "NVCC architecture flags:")) {
		set_field(&c->nvcc_flags, after(s, "NVCC architecture flags:"));
		parse_nvcc(c, c->nvcc_flags);
	} else if (starts_ci(s, "CuDNN ")) {
		/* Any case: "CuDNN", "cuDNN", and "CudNN 7.1.2 (built against CUDA 9.1)" of old pastes. */
		parse_cudnn(c, after(s, "CuDNN"));
	} else if (starts_ci(s, "Built with CuDNN ")) {
		set_field(&c->built_with_cudnn, after(s, "Built with CuDNN"));
		free(c->built_with_cudnn_version);
		c->built_with_cudnn_version = showconfig_decode_cudnn(c->built_with_cudnn);
	} else if (starts(s, "Magma ")) {
		set_field(&c->magma, after(s, "Magma"));
	} else if (starts(s, "HIP Runtime ")) {
		set_field(&c->hip_runtime, after(s, "HIP Runtime"));
	} else if (starts(s, "MIOpen ")) {
		set_field(&c->miopen, after(s, "MIOpen"));
	} else if (starts(s, "XPU")) {
		set_field(&c->xpu, after(s, "XPU"));
	} else if (starts(s, "Build settings:")) {
		parse_settings(c, after(s, "Build settings:"), line, file, diag);
	} else {
		return false;
	}
	/* BACKCOMPAT: torch 1.1 printed "BLAS=MKL" among the settings; nothing else to do. */
	return true;
}

/* The entries torch prints, as they start (for bullets merged onto one line). */
static bool entry_start(const char *s)
{
	static const char *const heads[] = {
		"C++ Version:", "Intel(R) ", "OpenMP ", "LAPACK is enabled", "NNPACK is enabled",
		"CPU capability usage:", "CUDA Runtime ", "Built with CUDA Runtime ",
		"NVCC architecture flags:", "Magma ", "HIP Runtime ", "MIOpen ", "XPU",
		"Build settings:",
	};

	if (is_compiler(s) || starts_ci(s, "CuDNN ") || starts_ci(s, "Built with CuDNN "))
		return true;
	for (size_t i = 0; i < PT_ARRAY_SIZE(heads); i++)
		if (starts(s, heads[i]))
			return true;
	return false;
}

/*
 * A lost line break glues the next bullet on: "XPU backend  - Build settings:
 * ...". Where "  - " is followed by an entry torch prints, a new one starts.
 * Returns the first such "  - ", or NULL.
 */
static const char *merged_bullet(const char *s)
{
	for (const char *p = strstr(s, "  - "); p; p = strstr(p + 1, "  - ")) {
		const char *t = p + 4;

		while (*t == ' ')
			t++;
		if (entry_start(t))
			return p;
	}
	return NULL;
}


static void close_entry(struct showconfig *c, struct entry *e, const char *file,
			struct pt_diag *diag)
{
	if (!e->open)
		return;
	char *all = pt_xstrdup(pt_strbuf_str(&e->text)), *cur = all;
	const char *m;

	while ((m = merged_bullet(cur))) {
		char where[32];
		size_t n = (size_t)(m - cur);

		while (n && cur[n - 1] == ' ')
			n--;
		cur[n] = '\0';
		pt_fmt_trunc(where, sizeof(where), "line %zu", e->line);
		pt_diag_add(diag, PT_SEV_NOTE, file, where,
			    "two entries on one line (a lost line break?): read as two");
		push_str(c, items, cur);
		c->n_known += interpret(c, cur, e->line, file, diag);
		cur += (m - cur) + 4;
		while (*cur == ' ')
			cur++;
	}
	push_str(c, items, cur);
	c->n_known += interpret(c, cur, e->line, file, diag);
	free(all);
	pt_strbuf_reset(&e->text);
	e->open = false;
}

/*
 * The Python repr of the text on one line ('PyTorch built with:\n  - GCC
 * 9.3\n...', what the REPL prints for torch.__config__.show() without
 * print()), with or without its quotes: true when line[0..n) is one.
 */
static bool repr_line(const char *line, size_t n)
{
	const char *p = memmem(line, n, "\\n", 2);

	return p && (memmem(line, n, "built with:\\n", 13) || memmem(line, n, "\\n  - ", 6) ||
		     memmem(line, n, "\\n - ", 5));
}

/* Append the repr line, unquoted and unescaped, to out. */
static void unrepr(struct pt_strbuf *out, const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		n--;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	/* 'text', "text", and b'...' of a bytes repr. */
	if (n >= 3 && s[0] == 'b' && (s[1] == '\'' || s[1] == '"'))
		s++, n--;
	if (n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n - 1] == s[0])
		s++, n -= 2;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (ch == '\\' && i + 1 < n) {
			char e = s[++i];

			if (e == 'n')
				ch = '\n';
			else if (e == 't')
				ch = '\t';
			else if (e == 'r')
				ch = '\r';
			else if (e == 'x' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
				 isxdigit((unsigned char)s[i + 2])) {
				char hex[3] = { s[i + 1], s[i + 2], 0 };

				ch = (char)strtol(hex, NULL, 16);
				i += 2;
			} else
				ch = e;	/* \\, \', \" and anything else: the character itself */
		}
		pt_strbuf_add_trunc(out, &ch, 1);
	}
	pt_strbuf_add_trunc(out, "\n", 1);
}

/* The text with every repr line expanded, or NULL when there is none. */
static char *expand_repr(const uint8_t *buf, size_t len, size_t *outlen)
{
	struct pt_strbuf out;
	size_t pos = 0;
	bool any = false;
	char *r;

	pt_strbuf_init(&out, SHOWCONFIG_MAX_LEN + 1);
	while (pos < len) {
		const uint8_t *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		if (repr_line((const char *)buf + pos, n)) {
			unrepr(&out, (const char *)buf + pos, n);
			any = true;
		} else {
			pt_strbuf_add_trunc(&out, buf + pos, n);
			pt_strbuf_add_trunc(&out, "\n", 1);
		}
		pos += n + (nl ? 1 : 0);
	}
	if (!any) {
		pt_strbuf_release(&out);
		return NULL;
	}
	*outlen = out.len;
	r = pt_strbuf_detach(&out);
	pt_strbuf_release(&out);
	return r;
}

bool showconfig_is_config(const struct showconfig *c)
{
	return c->has_header || c->n_known > 0;
}

int showconfig_parse(const uint8_t *buf, size_t len, struct showconfig *c, const char *file,
		     struct pt_diag *diag)
{
	struct entry e = { .open = false };
	size_t pos = 0, lineno = 0, prev_len = 0, prev_blanks = 0, wrap_w = 0, xlen = 0;
	char *expanded;

	memset(c, 0, sizeof(*c));
	if (len > SHOWCONFIG_MAX_LEN) {
		pt_diag_add(diag, PT_SEV_ERROR, file, NULL,
			    "%zu bytes is too large for a configuration text (limit %u)", len,
			    SHOWCONFIG_MAX_LEN);
		return -1;
	}
	if ((expanded = expand_repr(buf, len, &xlen))) {
		pt_diag_add(diag, PT_SEV_NOTE, file, NULL,
			    "read as a Python string (its repr: literal \\n between the lines)");
		buf = (const uint8_t *)expanded;
		len = xlen;
	}
	pt_strbuf_init(&e.text, SHOWCONFIG_MAX_LEN);
	while (pos < len) {
		const uint8_t *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char *line = pt_xstrndup((const char *)buf + pos, n);
		size_t col = 0, ln, raw, blanks;
		bool dash;

		pos += n + (nl ? 1 : 0);
		lineno++;
		for (size_t i = 0; i < n; i++)
			if (line[i] == '\0')
				line[i] = '?';
		ln = n;
		if (ln && line[ln - 1] == '\r')
			line[--ln] = '\0';
		raw = ln;
		while (ln && (line[ln - 1] == '\r' || line[ln - 1] == ' ' || line[ln - 1] == '\t'))
			line[--ln] = '\0';
		blanks = raw - ln;
		while (line[col] == ' ' || line[col] == '\t')
			col++;
		if (!line[col]) {
			free(line);
			prev_len = 0;
			continue;
		}
		dash = line[col] == '-' && (line[col + 1] == ' ' || !line[col + 1]);
		if (e.open && !dash && col <= e.dash_col && prev_len >= 60 && prev_len <= 300 &&
		    raw <= prev_len && (!wrap_w || prev_len == wrap_w) &&
		    strcmp(line + col, "PyTorch built with:")) {
			/*
			 * Hard-wrapped at a fixed width, in the middle of a word: the
			 * previous line was full and this one goes on at the margin.
			 * Joined as it was cut, blanks at the cut kept.
			 */
			wrap_w = prev_len;
			for (size_t i = 0; i < prev_blanks; i++)
				pt_strbuf_adds_trunc(&e.text, " ");
			line[ln] = '\0';
			pt_strbuf_adds_trunc(&e.text, line);
			prev_len = raw;
			prev_blanks = blanks;
			free(line);
			continue;
		}
		prev_len = raw;
		prev_blanks = blanks;
		if (!strcmp(line + col, "PyTorch built with:")) {
			close_entry(c, &e, file, diag);
			c->has_header = true;
		} else if (dash) {
			const char *t = line + col + 1;

			close_entry(c, &e, file, diag);
			while (*t == ' ')
				t++;
			pt_strbuf_adds_trunc(&e.text, t);
			e.dash_col = col;
			e.line = lineno;
			e.open = true;
		} else if (e.open && col > e.dash_col) {
			/* A wrapped line (mmyolo's hanging indents): CMake lists join bare. */
			const char *sofar = pt_strbuf_str(&e.text);
			bool bare = e.text.len && sofar[e.text.len - 1] == ';';

			if (!bare)
				pt_strbuf_adds_trunc(&e.text, " ");
			pt_strbuf_adds_trunc(&e.text, line + col);
		} else if (merged_bullet(line + col)) {
			/*
			 * A section torch prints without its line break, at the
			 * margin: XPUHooks::showConfig() returns "XPU backend" with
			 * no newline, so an XPU build prints "XPU backend  - Build
			 * settings: ...". Read as entries (close_entry splits them).
			 */
			close_entry(c, &e, file, diag);
			pt_strbuf_adds_trunc(&e.text, line + col);
			e.dash_col = col;
			e.line = lineno;
			e.open = true;
		} else {
			char where[32];

			close_entry(c, &e, file, diag);
			pt_fmt_trunc(where, sizeof(where), "line %zu", lineno);
			pt_diag_add(diag, PT_SEV_NOTE, file, where, "not part of the configuration: kept as unparsed");
			push_str(c, unparsed, line);
		}
		free(line);
	}
	close_entry(c, &e, file, diag);
	pt_strbuf_release(&e.text);
	finish_nvcc(c);
	free(expanded);
	return 0;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void showconfig_release(struct showconfig *c)
{
	free_strv(c->compilers, c->n_compilers);
	free_strv(c->nvcc_sass, c->n_nvcc_sass);
	free_strv(c->nvcc_ptx, c->n_nvcc_ptx);
	free_strv(c->items, c->n_items);
	free_strv(c->unparsed, c->n_unparsed);
	for (size_t i = 0; i < c->n_settings; i++) {
		free(c->settings[i].key);
		free(c->settings[i].value);
	}
	free(c->settings);
	free(c->cxx_version);
	free(c->mkl);
	free(c->mkldnn);
	free(c->openmp);
	free(c->cpu_capability);
	free(c->cuda_runtime);
	free(c->built_with_cuda_runtime);
	free(c->nvcc_flags);
	free(c->arch_list);
	free(c->cudnn);
	free(c->cudnn_version);
	free(c->cudnn_cuda);
	free(c->built_with_cudnn);
	free(c->built_with_cudnn_version);
	free(c->magma);
	free(c->hip_runtime);
	free(c->miopen);
	free(c->xpu);
	memset(c, 0, sizeof(*c));
}

const char *showconfig_setting(const struct showconfig *c, const char *key)
{
	for (size_t i = c->n_settings; i-- > 0;)
		if (!strcmp(c->settings[i].key, key))
			return c->settings[i].value;
	return NULL;
}

int showconfig_read_stream(FILE *f, char **out, size_t *len)
{
	struct pt_strbuf sb;
	char buf[8192];
	size_t n;

	/* One byte past the parser's limit, so that "too large" is still seen. */
	pt_strbuf_init(&sb, SHOWCONFIG_MAX_LEN + 1);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		/* Keep what fits, up to the limit + 1: the parser then says "too large". */
		if (pt_strbuf_add_trunc(&sb, buf, n))
			break;
	if (ferror(f)) {
		pt_strbuf_release(&sb);
		return -1;
	}
	*len = sb.len;
	*out = sb.len ? pt_strbuf_detach(&sb) : pt_xstrdup("");
	pt_strbuf_release(&sb);
	return 0;
}
