/*
 * Generated code: from a file (and line) or a symbol to torchgen's input.
 * torchgen's names (torch 2.6): RegisterDispatchKey.cpp defines
 * wrapper_<KEY>_<unambiguous name> (structured out variants get "_out"
 * added), Operators_N.cpp defines at::_ops::<unambiguous name>::call and
 * ::redispatch, structured kernels are at::native::structured_<kernel>::impl,
 * an entry without a dispatch table is CompositeImplicitAutograd:
 * at::native::<name>.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildsource.h"
#include "fsutil.h"
#include "numparse.h"
#include "xalloc.h"

#define YAML_READ_MAX ((size_t)256 << 20)	/* native_functions.yaml: 1.2 MB in torch 2.6 */
#define SOURCE_READ_MAX ((size_t)256 << 20)	/* a generated .cpp: RegisterCPU.cpp is ~10 MB */
#define SCAN_LINE_MAX 4096			/* bytes of a line looked at */
#define SOURCE_LINE_MAX 100000000		/* PATH:LINE: more lines than any source has */

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* The checkout on this machine: CMAKE_HOME_DIRECTORY, else the build dir's parent. */
static char *host_source_dir(const struct buildtree *t)
{
	char *yaml;
	char *parent;

	if (t->source_dir) {
		yaml = pt_xasprintf("%s/aten/src/ATen/native/native_functions.yaml", t->source_dir);
		if (exists(yaml)) {
			free(yaml);
			return pt_xstrdup(t->source_dir);
		}
		free(yaml);
	}
	parent = pt_xstrdup(t->dir);
	{
		char *sl = strrchr(parent, '/');

		if (sl && sl != parent)
			*sl = '\0';
		else
			strcpy(parent, ".");
	}
	return parent;
}

/* A path as the build knows it (source_dir-based) to one on this machine. */
static char *host_path(const struct buildtree *t, const char *src, const char *p)
{
	size_t n = t->source_dir ? strlen(t->source_dir) : 0;

	if (exists(p))
		return pt_xstrdup(p);
	if (n && !strncmp(p, t->source_dir, n) && p[n] == '/')
		return pt_xasprintf("%s%s", src, p + n);
	if (p[0] != '/') {
		char *q = pt_xasprintf("%s/%s", t->dir, p);

		if (exists(q))
			return q;
		free(q);
	}
	return pt_xstrdup(p);
}

static char *ident_at(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && (isalnum((unsigned char)s[n]) || s[n] == '_'))
		n++;
	return n ? pt_xstrndup(s, n) : NULL;
}

/*
 * The generated function enclosing line: "wrapper_..." or "<name>::call" at
 * column 0. The file is read through the checked reader (a FIFO or a device
 * is refused, at most SOURCE_READ_MAX bytes), and only the first
 * SCAN_LINE_MAX bytes of each line are looked at. 0, or -1 when the file
 * cannot be read (in d).
 */
static int enclosing_function(const char *path, size_t line, char **out, struct pt_diag *d)
{
	uint8_t *buf;
	size_t len;
	const char *s, *end;
	char *best = NULL;

	*out = NULL;
	if (pt_read_regular(path, SOURCE_READ_MAX, PT_SEV_ERROR, PT_READ_PREFIX, &buf, &len, d) != 0)
		return -1;
	s = (const char *)buf;
	end = s + len;
	for (size_t ln = 1; s < end && ln <= line; ln++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *b = s, *w;
		size_t n = (size_t)((nl ? nl : end) - s);

		s = nl ? nl + 1 : end;
		if (n > SCAN_LINE_MAX)
			n = SCAN_LINE_MAX;
		if (!n || isspace((unsigned char)b[0]) || b[0] == '}' || b[0] == '/' || b[0] == '#')
			continue;
		if ((w = memmem(b, n, "wrapper_", 8)) != NULL && memchr(w, '(', n - (size_t)(w - b))) {
			free(best);
			best = ident_at(w, n - (size_t)(w - b));
		} else if ((w = memmem(b, n, "::call(", 7)) != NULL || (w = memmem(b, n, "::redispatch(", 13)) != NULL) {
			const char *p = w;

			while (p > b && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				p--;
			free(best);
			best = pt_xstrndup(p, (size_t)(w - p));
		}
	}
	free(buf);
	*out = best;
	return 0;
}

/* Resolve a C++ name (wrapper_CPU_add_Tensor, add_Tensor, structured_add_out, ...) to an entry. */
static void resolve_name(const struct nativefuncs *nf, const char *q, struct build_source *s)
{
	char *sym = pt_xstrdup(q), *p, *last;
	const char *keys = NULL;

	/* "(anonymous namespace)::" out, then the arguments. */
	while ((p = strstr(sym, "(anonymous namespace)::")) != NULL)
		memmove(p, p + 23, strlen(p + 23) + 1);
	if ((p = strchr(sym, '(')) != NULL)
		*p = '\0';
	last = sym;
	for (char *c = sym; (c = strstr(c, "::")) != NULL; c += 2)
		last = c + 2;
	if (!strcmp(last, "call") || !strcmp(last, "redispatch") || !strcmp(last, "impl") || !strcmp(last, "meta")) {
		/* at::_ops::add_Tensor::call, at::native::structured_add_out::impl */
		if (last - sym >= 2) {
			char *prev;

			last[-2] = '\0';
			prev = strrchr(sym, ':');
			last = prev ? prev + 1 : sym;
		}
	}
	if (!strncmp(last, "wrapper_", 8)) {
		const char *k = last + 8, *us = strchr(k, '_');

		if (us) {
			char *name = pt_xstrdup(us + 1);
			size_t n = strlen(name);

			s->dispatch_key = pt_xstrndup(k, (size_t)(us - k));
			s->entry = nativefuncs_find_cpp(nf, name);
			if (!s->entry && n > 4 && !strcmp(name + n - 4, "_out")) {
				name[n - 4] = '\0';
				s->entry = nativefuncs_find_cpp(nf, name);
			}
			free(name);
		}
	} else if (!strncmp(last, "structured_", 11) && (s->entry = nativefuncs_find_kernel(nf, last + 11, &keys))) {
		/* at::native::structured_<kernel>: the structured out entry itself. */
	} else if (strstr(q, "at::native::") && (s->entry = nativefuncs_find_kernel(nf, last, &keys))) {
		s->handwritten = true;
	} else if (!(s->entry = nativefuncs_find_cpp(nf, last))) {
		if ((s->entry = nativefuncs_find_kernel(nf, last, &keys)))
			s->handwritten = true;
		else
			s->entry = nativefuncs_find(nf, last);
	}
	/* A kernel named: the first key of its row. */
	if (keys && !s->dispatch_key)
		s->dispatch_key = pt_xstrndup(keys, strcspn(keys, ", "));
	if (!s->function)
		s->function = pt_xstrdup(last);
	free(sym);
}

static int has_key(const char *keys, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = keys; (p = strstr(p, key)) != NULL; p++)
		if ((p == keys || p[-1] == ' ' || p[-1] == ',') && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return 1;
	return 0;
}

static const struct nf_dispatch *row_for(const struct nf_entry *e, const char *key)
{
	for (size_t i = 0; i < e->n_dispatch; i++)
		if (!key || has_key(e->dispatch[i].keys, key))
			return &e->dispatch[i];
	return NULL;
}

/*
 * The kernel an entry forwards to for the dispatch key (NULL: the first
 * row): the entry's own row first (it overrides a structured delegate), then
 * the delegate's; a ufunc entry's CPU/CUDA kernels are generated too.
 */
static void find_kernel(const struct nativefuncs *nf, struct build_source *s)
{
	const struct nf_entry *e = s->entry, *k = e;
	const struct nf_dispatch *row = row_for(e, s->dispatch_key);

	if (!row && e->structured_delegate) {
		const struct nf_entry *dlg = nativefuncs_find(nf, e->structured_delegate);

		if (dlg) {
			k = dlg;
			row = row_for(dlg, s->dispatch_key);
		}
	}
	s->kernel_entry = k;
	if (row) {
		s->kernel_keys = pt_xstrdup(row->keys);
		s->kernel = k->structured ? pt_xasprintf("at::native::structured_%s::impl", row->kernel)
					  : pt_xasprintf("at::native::%s", row->kernel);
	} else if (k->ufunc && (!s->dispatch_key || !strcmp(s->dispatch_key, "CPU") || !strcmp(s->dispatch_key, "CUDA"))) {
		char *base = pt_xstrdup(k->name), *dot = strchr(base, '.');
		const char *key = s->dispatch_key ? s->dispatch_key : "CPU";

		if (dot)
			*dot = '\0';
		s->kernel_keys = pt_xasprintf("%s (ufunc_inner_loop: generated Ufunc%s_%s.cpp, loops from ufunc/%s.h)",
					      key, key, base, base);
		s->kernel = pt_xasprintf("at::native::structured_ufunc_%s_%s::impl", base, key);
		free(base);
	} else if (!k->n_dispatch) {
		char *base = pt_xstrdup(k->name), *dot = strchr(base, '.');

		if (dot)
			*dot = '\0';
		s->kernel_keys = pt_xstrdup("CompositeImplicitAutograd (no dispatch table)");
		s->kernel = pt_xasprintf("at::native::%s", base);
		free(base);
	}
}

static const char *const generated_dirs[] = {
	"/aten/src/ATen/", "torch/csrc/autograd/generated/", "torch/csrc/lazy/generated/",
	"torch/csrc/inductor/aoti_torch/generated/", "/Register", "/Operators_", NULL,
};

int buildtree_source(const struct buildtree *t, const char *query, struct nativefuncs *nf,
		     struct build_source *s, struct pt_diag *d)
{
	char *src = host_source_dir(t), *q = pt_xstrdup(query), *colon;
	int is_path;

	memset(s, 0, sizeof(*s));
	s->query = pt_xstrdup(query);
	colon = strrchr(q, ':');
	if (colon && colon > q && colon[-1] != ':' && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		uint64_t v;

		if (pt_dec_u64_all(colon + 1, strlen(colon + 1), SOURCE_LINE_MAX, &v) < 0 || v == 0) {
			pt_diag_add(d, PT_SEV_ERROR, NULL, NULL, "'%s': line %s is out of range (1 to %u)", query,
				    colon + 1, SOURCE_LINE_MAX);
			free(src);
			free(q);
			return -1;
		}
		s->line = (size_t)v;
		*colon = '\0';
	}
	is_path = strchr(q, '/') || strstr(q, ".cpp") || strstr(q, ".h");
	s->yaml = pt_xasprintf("%s/aten/src/ATen/native/native_functions.yaml", src);
	{
		uint8_t *buf;
		size_t len;
		int rc = pt_read_regular(s->yaml, YAML_READ_MAX, PT_SEV_ERROR, PT_READ_PREFIX, &buf, &len, d);

		if (rc == 1)
			pt_diag_add(d, PT_SEV_ERROR, s->yaml, NULL,
				    "cannot open (the source checkout of this build tree is not here)");
		if (rc != 0 || nativefuncs_parse(buf, len, nf, s->yaml, d) < 0) {
			free(buf);
			free(src);
			free(q);
			return -1;
		}
		free(buf);
	}
	if (is_path) {
		size_t e = buildninja_producer(&t->ninja, q);
		struct stat st;

		s->path = host_path(t, src, q);
		/* A FIFO, a device, a directory: not a source file (nor a generated one). */
		if (stat(s->path, &st) == 0 && !S_ISREG(st.st_mode)) {
			pt_diag_add(d, PT_SEV_ERROR, s->path, NULL, "not a regular file (%s)", pt_file_kind(st.st_mode));
			free(src);
			free(q);
			return -1;
		}
		if (e == (size_t)-1 && t->source_dir && !strncmp(s->path, src, strlen(src))) {
			char *as_built = pt_xasprintf("%s%s", t->source_dir, s->path + strlen(src));

			e = buildninja_producer(&t->ninja, as_built);
			free(as_built);
		}
		if (e == (size_t)-1 && !strncmp(s->path, t->dir, strlen(t->dir)) && s->path[strlen(t->dir)] == '/')
			e = buildninja_producer(&t->ninja, s->path + strlen(t->dir) + 1);
		if (e != (size_t)-1) {
			const struct ninja_edge *ed = &t->ninja.edges[e];

			s->generated = true;
			s->edge_line = ed->line;
			s->generated_by = pt_xstrdup(ed->rule);
			for (size_t i = 0; i < ed->n_ins; i++) {
				if (strstr(ed->ins[i], "torchgen/")) {
					free(s->generated_by);
					s->generated_by = pt_xstrdup("torchgen");
				}
				if (!s->gen_script && strstr(ed->ins[i], ".py") &&
				    (strstr(ed->ins[i], "torchgen/gen") || strstr(ed->ins[i], "tools/")))
					s->gen_script = pt_xstrdup(ed->ins[i]);
			}
		} else {
			char *rp = realpath(s->path, NULL), *rd = realpath(t->dir, NULL);
			int in_build = rp && rd && !strncmp(rp, rd, strlen(rd)) && rp[strlen(rd)] == '/';

			for (size_t i = 0; generated_dirs[i]; i++)
				if (strstr(s->path, generated_dirs[i]) && (in_build || strstr(s->path, "/generated/"))) {
					s->generated = true;
					s->generated_by = pt_xstrdup("torchgen (by its path)");
					break;
				}
			free(rp);
			free(rd);
		}
		if (!exists(s->path)) {
			pt_diag_add(d, PT_SEV_WARNING, s->path, NULL, "no such file here");
		} else if (s->line && enclosing_function(s->path, s->line, &s->function, d) < 0) {
			free(src);
			free(q);
			return -1;
		}
		if (s->function)
			resolve_name(nf, s->function, s);
	} else {
		resolve_name(nf, q, s);
	}
	if (s->entry)
		find_kernel(nf, s);
	else if (!is_path)
		pt_diag_add(d, PT_SEV_WARNING, NULL, NULL, "'%s' names no operator in %s", query, s->yaml);
	free(src);
	free(q);
	return 0;
}

void build_source_release(struct build_source *s)
{
	free(s->query);
	free(s->path);
	free(s->generated_by);
	free(s->gen_script);
	free(s->function);
	free(s->dispatch_key);
	free(s->yaml);
	free(s->kernel);
	free(s->kernel_keys);
	memset(s, 0, sizeof(*s));
}
