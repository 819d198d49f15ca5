/*
 * Generated code: from a file (and line) or a symbol to torchgen's input.
 * torchgen's names (torch 2.6, read from torchgen/dest/register_dispatch_key.py
 * and torchgen/api/{native,cpp,dispatcher}.py):
 *
 *   unstructured wrapper   wrapper_<KEY>_<overload>_<cpp name>   wrapper_CPU_Tensor_fill_,
 *                          (cpp name: base, "_out" for an out function)  wrapper_CPU__relu
 *   structured wrapper     wrapper_<KEY>_<native name>            wrapper_CPU_add_Tensor,
 *                          (native name: base, "_out", "_<overload>")    wrapper_CPU_add_out_out
 *   structured class       structured_<kernel>_{functional,inplace,out}, _meta_, _default_backend_
 *   Operators_N.cpp        at::_ops::<unambiguous>::call / ::redispatch, create_<u>_typed_handle
 *   BackendSelect, VariableType, TraceType, ADInplaceOrView: <unambiguous>
 *   Functionalization      <native name>
 *   autograd's nodes       <Op>Backward<N>: VariableType's <unambiguous> makes it (grad_fn)
 *
 * A generated file is scanned once into its functions (brace depth, strings
 * and comments skipped); a line is answered from the function around it: its
 * own name when it is one of torchgen's, else the wrapper it calls, else the
 * operator its body dispatches to (at::_ops::X), a struct from the wrapper
 * that instantiates it, a registration line (m.impl / m.def) from its string.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildsource.h"
#include "cmp.h"
#include "fsutil.h"
#include "numparse.h"
#include "xalloc.h"

#define YAML_READ_MAX ((size_t)256 << 20)	/* native_functions.yaml: 1.2 MB in torch 2.6 */
#define SOURCE_READ_MAX ((size_t)256 << 20)	/* a generated .cpp: RegisterCPU.cpp is ~10 MB */
#define SCAN_LINE_MAX 4096			/* bytes of a line looked at */
#define SOURCE_LINE_MAX 100000000		/* PATH:LINE: more lines than any source has */
#define STMT_MAX 1024				/* bytes of a declaration kept to name it */
#define NATIVE_FILE_MAX ((size_t)16 << 20)	/* a hand-written kernel file */

enum scope_kind { SC_NS, SC_STRUCT, SC_FUNC, SC_BLOCK };

struct gen_fn {
	size_t first, last;	/* lines, 1-based, inclusive */
	char *name;		/* "wrapper_CPU_add_Tensor", "add_Tensor::call", "TORCH_LIBRARY_IMPL" */
	char *klass;		/* enclosing struct, or NULL */
	bool is_struct;
	char *wrapper_ref;	/* first wrapper_X( its body calls */
	char *ops_ref;		/* first at::_ops::X:: its body names */
	char *struct_ref;	/* first structured_X its body names */
	char *node_ref;		/* std::shared_ptr<X> / c10::intrusive_ptr<X> grad_fn (VariableType) */
};

struct gen_reg {
	size_t line;
	char *op;		/* "add.Tensor" of m.impl("add.Tensor", ...) / m.def("add.Tensor(...") */
};

struct gen_file {
	char *path;
	bool loaded;		/* false: could not be read */
	struct gen_fn *fn;
	size_t n_fn, alloc_fn;
	struct gen_reg *reg;
	size_t n_reg, alloc_reg;
	char *gen_header;	/* "torchgen/gen.py from RegisterDispatchKey.cpp" */
};

struct def_name {
	char *name;
	char *file;
	size_t line;
};

struct buildsource {
	const struct buildtree *t;
	char *src;
	char *yaml;
	struct nativefuncs nf;
	struct gen_file *files;
	size_t n_files, alloc_files;
	bool defs_loaded;		/* the index of aten/src/ATen/native/'s definitions */
	struct def_name *defs;
	size_t n_defs, alloc_defs;
	bool deriv_loaded;
	char *deriv_yaml;
	struct nativefuncs deriv;
	bool nodes_loaded;
	struct def_name *nodes;		/* node -> VariableType function (name), file */
	size_t n_nodes, alloc_nodes;
};

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
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

	while (n < max && is_ident((unsigned char)s[n]))
		n++;
	return n ? pt_xstrndup(s, n) : NULL;
}

/* The identifier after needle in s[0..n) (needle ends where it starts), or NULL. */
static char *ident_after(const char *s, size_t n, const char *needle)
{
	size_t nl = strlen(needle);
	const char *p = s, *end = s + n;

	while ((p = memmem(p, (size_t)(end - p), needle, nl)) != NULL) {
		if (p == s || !is_ident((unsigned char)p[-1]) || !is_ident((unsigned char)needle[0]))
			return ident_at(p + nl, (size_t)(end - p - (ptrdiff_t)nl));
		p += nl;
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* The scan of a generated file. */

/*
 * A line without its comments and string/char literals (each literal kept
 * as "" so that m.impl's string can still be read from raw); *in_block
 * carries a block comment over lines. Returns the length written to out
 * (at most cap - 1).
 */
static size_t strip_line(const char *b, size_t n, char *out, size_t cap, int *in_block)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char c = b[i];

		if (*in_block) {
			if (c == '*' && i + 1 < n && b[i + 1] == '/') {
				*in_block = 0;
				i++;
			}
			continue;
		}
		if (c == '/' && i + 1 < n && b[i + 1] == '/')
			break;
		if (c == '/' && i + 1 < n && b[i + 1] == '*') {
			*in_block = 1;
			i++;
			continue;
		}
		if (c == '"' || c == '\'') {
			char q = c;

			for (i++; i < n && b[i] != q; i++)
				if (b[i] == '\\')
					i++;
			if (o + 2 < cap) {
				out[o++] = q;
				out[o++] = q;
			}
			continue;
		}
		if (o + 1 < cap)
			out[o++] = c;
	}
	out[o] = '\0';
	return o;
}

/* "C10_DIAGNOSTIC_POP()", "TORCH_LIBRARY_IMPL(aten, CPU, m)" without its brace: a macro alone on its line. */
static bool macro_line(const char *c, size_t n)
{
	size_t i = 0, j;

	while (i < n && (c[i] == ' ' || c[i] == '\t'))
		i++;
	j = i;
	while (j < n && (isupper((unsigned char)c[j]) || isdigit((unsigned char)c[j]) || c[j] == '_'))
		j++;
	if (j == i || j >= n || c[j] != '(')
		return false;
	while (n > j && (c[n - 1] == ' ' || c[n - 1] == '\t'))
		n--;
	return c[n - 1] == ')';
}

/* The name of a declaration: the (qualified) identifier before its first '('. */
static char *decl_name(const char *stmt)
{
	const char *p = strchr(stmt, '('), *e;

	if (!p)
		return NULL;
	while (p > stmt && p[-1] == ' ')
		p--;
	e = p;
	while (p > stmt && (is_ident((unsigned char)p[-1]) || p[-1] == ':'))
		p--;
	while (*p == ':')
		p++;
	return e > p ? pt_xstrndup(p, (size_t)(e - p)) : NULL;
}

static enum scope_kind classify(const char *stmt, char **name)
{
	const char *p = stmt, *paren = strchr(stmt, '('), *eq = strchr(stmt, '='), *kw;

	*name = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "namespace", 9) || !strncmp(p, "extern ", 7))
		return SC_NS;
	if (((kw = strstr(p, "struct ")) || (kw = strstr(p, "class "))) && (!paren || kw < paren) &&
	    (kw == p || kw[-1] == ' ' || kw[-1] == '>')) {
		*name = ident_at(strchr(kw, ' ') + 1, strlen(kw));
		return *name ? SC_STRUCT : SC_BLOCK;
	}
	if (paren && (!eq || eq > paren) && strncmp(p, "if", 2) && strncmp(p, "for", 3) && strncmp(p, "while", 5) &&
	    strncmp(p, "switch", 6)) {
		*name = decl_name(p);
		return *name ? SC_FUNC : SC_BLOCK;
	}
	return SC_BLOCK;
}

static void body_refs(struct gen_fn *f, const char *b, size_t n)
{
	if (!f->wrapper_ref) {
		char *w = ident_after(b, n, "wrapper_");

		if (w) {
			char *full = pt_xasprintf("wrapper_%s", w);

			free(w);
			if (f->name && !strcmp(full, f->name))
				free(full);
			else
				f->wrapper_ref = full;
		}
	}
	if (!f->ops_ref)
		f->ops_ref = ident_after(b, n, "at::_ops::");
	if (!f->struct_ref) {
		char *s = ident_after(b, n, "structured_");

		if (s) {
			f->struct_ref = pt_xasprintf("structured_%s", s);
			free(s);
		}
	}
	/* torch 2.6: std::shared_ptr<MulBackward0> grad_fn; 2.14: c10::intrusive_ptr<MulBackward0> grad_fn. */
	if (!f->node_ref && memmem(b, n, "> grad_fn;", 10) &&
	    !(f->node_ref = ident_after(b, n, "std::shared_ptr<")))
		f->node_ref = ident_after(b, n, "c10::intrusive_ptr<");
}

/* m.impl("aten::add.Tensor", ...) / m.def("add.Tensor(Tensor self, ...") on a raw line. */
static char *reg_op(const char *b, size_t n)
{
	const char *p = memmem(b, n, "m.impl(\"", 8), *e, *end = b + n;

	if (p)
		p += 8;
	else if ((p = memmem(b, n, "m.def(\"", 7)) != NULL)
		p += 7;
	else
		return NULL;
	if ((size_t)(end - p) >= 6 && !memcmp(p, "aten::", 6))
		p += 6;
	e = p;
	while (e < end && *e != '"' && *e != '(')
		e++;
	return e > p ? pt_xstrndup(p, (size_t)(e - p)) : NULL;
}

static void scan_generated(struct gen_file *g, const char *buf, size_t len)
{
	struct {
		enum scope_kind kind;
		size_t fn;
	} stack[64];
	size_t depth = 0, fdepth = 0;	/* fdepth: depth + 1 of the open function, 0 when none */
	size_t cur = (size_t)-1, st_i = (size_t)-1;
	char stmt[STMT_MAX], clean[SCAN_LINE_MAX + 1];
	size_t stmt_len = 0, stmt_first = 0;
	int in_block = 0;
	const char *s = buf, *end = buf + len;

	for (size_t ln = 1; s < end; ln++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *b = s;
		size_t n = (size_t)((nl ? nl : end) - s), cn, full = n;
		char *op;

		s = nl ? nl + 1 : end;
		if (n > SCAN_LINE_MAX)
			n = SCAN_LINE_MAX;
		if (!g->gen_header && ln <= 40) {
			const char *at = memmem(b, n, "@generated", 10);

			if (at && (size_t)(at + 10 - b) < n) {
				const char *x = at + 10;

				while (x < b + n && *x == ' ')
					x++;
				if (x < b + n)
					g->gen_header = pt_xstrndup(x, n - (size_t)(x - b));
			}
		}
		if ((op = reg_op(b, n)) != NULL) {
			PT_GROW(g->reg, g->n_reg, g->alloc_reg);
			g->reg[g->n_reg++] = (struct gen_reg){ ln, op };
			if (!memmem(b, n, ";", 1)) {
				PT_GROW(g->reg, g->n_reg, g->alloc_reg);
				g->reg[g->n_reg++] = (struct gen_reg){ ln + 1, pt_xstrdup(op) };
			}
		}
		cn = strip_line(b, full > n ? SCAN_LINE_MAX / 2 : n, clean, full > n ? SCAN_LINE_MAX / 2 : sizeof(clean),
				&in_block);
		if (full > n) {
			/* A longer line: its first and last bytes (the declaration's name, its brace). */
			int tail_block = 0;

			clean[cn++] = ' ';
			cn += strip_line(b + full - SCAN_LINE_MAX / 2, SCAN_LINE_MAX / 2, clean + cn,
					 sizeof(clean) - cn, &tail_block);
		}
		if (b[0] == '#' && !fdepth) {
			stmt_len = 0;
			continue;
		}
		if (!fdepth && macro_line(clean, cn)) {
			/* C10_DIAGNOSTIC_POP(): a statement of its own, no declaration. */
			stmt_len = 0;
			continue;
		}
		if (fdepth)
			body_refs(&g->fn[cur], b, n);
		else if (cn) {
			size_t k = 0;

			while (k < cn && (clean[k] == ' ' || clean[k] == '\t'))
				k++;
			if (k < cn) {
				if (!stmt_len)
					stmt_first = ln;
				if (stmt_len && stmt_len + 1 < sizeof(stmt))
					stmt[stmt_len++] = ' ';
				for (; k < cn && stmt_len + 1 < sizeof(stmt); k++)
					stmt[stmt_len++] = clean[k];
				stmt[stmt_len] = '\0';
			}
		}
		for (size_t i = 0; i < cn; i++) {
			if (clean[i] == '{') {
				enum scope_kind kind = SC_BLOCK;
				size_t fi = (size_t)-1;

				if (!fdepth && stmt_len) {
					char *name;

					stmt[stmt_len] = '\0';
					kind = classify(stmt, &name);
					if (kind == SC_FUNC || kind == SC_STRUCT) {
						PT_GROW(g->fn, g->n_fn, g->alloc_fn);
						fi = g->n_fn++;
						memset(&g->fn[fi], 0, sizeof(g->fn[fi]));
						g->fn[fi].first = stmt_first;
						g->fn[fi].last = ln;
						g->fn[fi].name = name;
						g->fn[fi].is_struct = kind == SC_STRUCT;
						if (st_i != (size_t)-1)
							g->fn[fi].klass = pt_xstrdup(g->fn[st_i].name);
						else if (kind == SC_FUNC && strstr(name, "::")) {
							char *q = pt_xstrdup(name);

							*strstr(q, "::") = '\0';
							g->fn[fi].klass = q;
						}
						if (kind == SC_FUNC) {
							fdepth = depth + 1;
							cur = fi;
							body_refs(&g->fn[fi], clean + i, cn - i);
						} else if (st_i == (size_t)-1) {
							st_i = fi;
						}
					} else {
						free(name);
					}
					stmt_len = 0;
				}
				if (depth < PT_ARRAY_SIZE(stack)) {
					stack[depth].kind = kind;
					stack[depth].fn = fi;
				}
				depth++;
			} else if (clean[i] == '}' && depth) {
				depth--;
				if (depth < PT_ARRAY_SIZE(stack) && stack[depth].fn != (size_t)-1) {
					g->fn[stack[depth].fn].last = ln;
					if (stack[depth].fn == st_i)
						st_i = (size_t)-1;
				}
				if (fdepth && depth + 1 == fdepth) {
					fdepth = 0;
					cur = (size_t)-1;
				}
				stmt_len = 0;
			} else if (clean[i] == ';' && !fdepth) {
				stmt_len = 0;
			}
		}
	}
	/* Unclosed scopes end at the last line. */
	for (size_t i = 0; i < g->n_fn; i++)
		if (g->fn[i].last < g->fn[i].first)
			g->fn[i].last = g->fn[i].first;
}

static void gen_file_release(struct gen_file *g)
{
	for (size_t i = 0; i < g->n_fn; i++) {
		free(g->fn[i].name);
		free(g->fn[i].klass);
		free(g->fn[i].wrapper_ref);
		free(g->fn[i].ops_ref);
		free(g->fn[i].struct_ref);
		free(g->fn[i].node_ref);
	}
	free(g->fn);
	for (size_t i = 0; i < g->n_reg; i++)
		free(g->reg[i].op);
	free(g->reg);
	free(g->gen_header);
	free(g->path);
}

/*
 * The innermost function or struct around line (a function before a
 * struct), or NULL. The scopes are in the order they open: the last one
 * opened at or before line, then back through the ones it may be nested in.
 */
static const struct gen_fn *fn_at(const struct gen_file *g, size_t line)
{
	size_t lo = 0, hi = g->n_fn;
	const struct gen_fn *st = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->fn[mid].first <= line)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i > 0 && k < 256; i--, k++) {
		const struct gen_fn *f = &g->fn[i - 1];

		if (f->first <= line && line <= f->last) {
			if (!f->is_struct)
				return f;
			if (!st)
				st = f;
		}
		if (f->is_struct && st)
			break;
	}
	return st;
}

/* ------------------------------------------------------------------------ */
/* Names to operators. */

/* wrapper_<KEY>_<rest>: the structured name (native) or the unstructured one. */
static const struct nf_entry *resolve_wrapper(const struct nativefuncs *nf, const char *w, char **key)
{
	const char *k = w + 8, *us = strchr(k, '_');
	const struct nf_entry *st, *un;

	if (!us)
		return NULL;
	free(*key);
	*key = pt_xstrndup(k, (size_t)(us - k));
	st = nativefuncs_find_native(nf, us + 1);
	un = nativefuncs_find_wrapper(nf, us + 1);
	/*
	 * Both ("_linalg_det" is linalg_det's unstructured name and _linalg_det's
	 * structured one): the structured form is made only for a structured
	 * group, and only for the keys that generate structured kernels (model.py
	 * STRUCTURED_DISPATCH_KEYS, Meta, CompositeExplicitAutogradNonFunctional).
	 */
	if (st && un && st != un) {
		static const char *const sk[] = { "CPU", "CUDA", "MPS", "XPU", "Meta",
						  "CompositeExplicitAutogradNonFunctional", NULL };
		int structured_key = 0;

		for (size_t i = 0; sk[i]; i++)
			structured_key |= !strcmp(*key, sk[i]);
		return structured_key && (st->structured || st->structured_delegate) ? st : un;
	}
	return st ? st : un;
}

static bool functionalization_file(const char *file)
{
	return file && strstr(file, "RegisterFunctionalization");
}

/* A plain name: unambiguous (most files) or native (functionalization first). */
static const struct nf_entry *resolve_plain(const struct nativefuncs *nf, const char *name, const char *file)
{
	const struct nf_entry *e;

	if (functionalization_file(file) && (e = nativefuncs_find_native(nf, name)))
		return e;
	if ((e = nativefuncs_find_cpp(nf, name)))
		return e;
	return nativefuncs_find_native(nf, name);
}

static void set_via(struct build_source *s, const char *fmt, const char *arg)
{
	free(s->via);
	s->via = pt_xasprintf(fmt, arg);
}

/* Strip "::call" and friends, "create_X_typed_handle": the _ops name. */
static char *ops_name(const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(name, "create_", 7) && n > 20 && !strcmp(name + n - 13, "_typed_handle"))
		return pt_xstrndup(name + 7, n - 20);
	return NULL;
}

/* The last component of a qualified name, and the one before it. */
static const char *last_part(const char *q, const char **prev_end)
{
	const char *last = q;

	*prev_end = NULL;
	for (const char *c = q; (c = strstr(c, "::")) != NULL; c += 2) {
		*prev_end = c;
		last = c + 2;
	}
	return last;
}

static const struct nf_entry *resolve_fn_name(const struct nativefuncs *nf, const char *name,
					      struct build_source *s)
{
	const char *pe, *last = last_part(name, &pe);
	const struct nf_entry *e = NULL;
	char *o;

	if (!strncmp(last, "wrapper_", 8)) {
		free(s->dispatch_key);
		s->dispatch_key = NULL;
		if ((e = resolve_wrapper(nf, last, &s->dispatch_key)))
			set_via(s, "its name (torchgen's wrapper_<KEY>_...)%s", "");
		return e;
	}
	if (pe && (!strcmp(last, "call") || !strcmp(last, "redispatch"))) {
		const char *pp = pe, *st = name;

		while (pp > name && (is_ident((unsigned char)pp[-1])))
			pp--;
		st = pp;
		o = pt_xstrndup(st, (size_t)(pe - st));
		if ((e = nativefuncs_find_cpp(nf, o)))
			set_via(s, "its name (at::_ops::%s)", o);
		free(o);
		return e;
	}
	if ((o = ops_name(last)) != NULL) {
		if ((e = nativefuncs_find_cpp(nf, o)))
			set_via(s, "its name (at::_ops::%s's handle)", o);
		free(o);
		return e;
	}
	return NULL;
}

/* A generated function: its own torchgen name, the wrapper it calls, a plain name, its _ops call. */
static const struct nf_entry *resolve_fn(const struct nativefuncs *nf, const struct gen_file *g,
					 const struct gen_fn *f, const char *file, struct build_source *s)
{
	const struct nf_entry *e;

	if (f->is_struct) {
		/* The wrapper after it that makes an object of it. */
		for (const struct gen_fn *w = f + 1; w < g->fn + g->n_fn && w < f + 64; w++)
			if (!w->is_struct && !w->klass && w->struct_ref && !strcmp(w->struct_ref, f->name)) {
				if ((e = resolve_fn_name(nf, w->name, s))) {
					free(s->function);
					s->function = pt_xstrdup(w->name);
					set_via(s, "the wrapper that instantiates the struct: %s", w->name);
					return e;
				}
			}
		return NULL;
	}
	if ((e = resolve_fn_name(nf, f->name, s)))
		return e;
	if (f->wrapper_ref && (e = resolve_wrapper(nf, f->wrapper_ref, &s->dispatch_key))) {
		set_via(s, "the wrapper it calls: %s", f->wrapper_ref);
		return e;
	}
	free(s->dispatch_key);
	s->dispatch_key = NULL;
	/*
	 * Register<KEY>.cpp implements operators only in wrappers and the C++ API
	 * that calls them: a plain name there is a helper (resize_out is not
	 * resize.out). BackendSelect and Functionalization name theirs plainly.
	 */
	if (file && strstr(file, "/Register") && !strstr(file, "RegisterBackendSelect") && !functionalization_file(file))
		return NULL;
	{
		const char *pe, *last = last_part(f->name, &pe);

		if ((e = resolve_plain(nf, last, file))) {
			set_via(s, "its name (%s)", functionalization_file(file) ? "torchgen's native name" : "the operator's unambiguous name");
			return e;
		}
		/* VariableType's kernels of another autograd key: squeeze_dims_AutogradNestedTensor. */
		{
			const char *k = strstr(last, "_Autograd");

			if (k && k > last) {
				char *nm = pt_xstrndup(last, (size_t)(k - last));

				e = nativefuncs_find_cpp(nf, nm);
				free(nm);
				if (e) {
					set_via(s, "its name (the operator's unambiguous name, then the key: %s)", k + 1);
					return e;
				}
			}
		}
	}
	if (f->ops_ref && (e = nativefuncs_find_cpp(nf, f->ops_ref))) {
		set_via(s, "the operator it calls: at::_ops::%s", f->ops_ref);
		return e;
	}
	return NULL;
}

static const struct nf_entry *resolve_in_file(const struct nativefuncs *nf, const struct gen_file *g,
					      size_t line, struct build_source *s)
{
	const struct gen_fn *f;

	for (size_t i = 0; i < g->n_reg; i++)
		if (g->reg[i].line == line) {
			const struct nf_entry *e = nativefuncs_find(nf, g->reg[i].op);

			if (e) {
				f = fn_at(g, line);
				if (f) {
					free(s->function);
					s->function = pt_xstrdup(f->name);
				}
				set_via(s, "the registration of this line (\"%s\")", g->reg[i].op);
				return e;
			}
		}
	if (!(f = fn_at(g, line)))
		return NULL;
	free(s->function);
	s->function = pt_xstrdup(f->name);
	free(s->klass);
	s->klass = f->klass ? pt_xstrdup(f->klass) : f->is_struct ? pt_xstrdup(f->name) : NULL;
	if (f->klass && !f->is_struct) {
		/* A member of a struct: the struct's operator. */
		for (const struct gen_fn *p = f; p >= g->fn; p--)
			if (p->is_struct && !strcmp(p->name, f->klass) && p->first <= f->first && f->last <= p->last) {
				const struct nf_entry *e = resolve_fn(nf, g, p, g->path, s);

				if (e)
					return e;
				break;
			}
	}
	{
		const struct nf_entry *e = resolve_fn(nf, g, f, g->path, s);

		if (!e)
			s->helper = true;
		return e;
	}
}

static bool node_name(const char *s);

int buildsource_resolve_line(const struct nativefuncs *nf, const char *file, const char *buf, size_t len,
			     size_t line, struct build_source *s)
{
	struct gen_file g = { 0 };
	int rc;

	g.path = pt_xstrdup(file);
	scan_generated(&g, buf, len);
	s->entry = resolve_in_file(nf, &g, line, s);
	{
		/* VariableType's kernel: the node it makes (its derivatives.yaml entry needs the tree). */
		const struct gen_fn *f = fn_at(&g, line);

		if (s->entry && f && f->node_ref && node_name(f->node_ref) && !s->node)
			s->node = pt_xstrdup(f->node_ref);
	}
	rc = s->function ? 0 : -1;
	gen_file_release(&g);
	return rc;
}

void buildsource_resolve_symbol(const struct nativefuncs *nf, const char *q, struct build_source *s)
{
	char *sym = pt_xstrdup(q), *p;
	const char *pe, *last;
	const char *keys = NULL;

	/* "(anonymous namespace)::" out, then the arguments. */
	while ((p = strstr(sym, "(anonymous namespace)::")) != NULL)
		memmove(p, p + 23, strlen(p + 23) + 1);
	if ((p = strchr(sym, '(')) != NULL)
		*p = '\0';
	last = last_part(sym, &pe);
	if (!s->function) {
		/* "add_Tensor::call", "MulBackward0::apply": the class with the member. */
		const char *st = last;

		if (pe && islower((unsigned char)last[0]) && (!strcmp(last, "call") || !strcmp(last, "redispatch") ||
							      !strcmp(last, "apply") || !strcmp(last, "impl") ||
							      !strcmp(last, "meta")))
			for (st = pe; st > sym && is_ident((unsigned char)st[-1]); st--)
				;
		s->function = pt_xstrdup(st);
	}
	if ((s->entry = resolve_fn_name(nf, sym, s))) {
		free(sym);
		return;
	}
	if (pe && (!strcmp(last, "impl") || !strcmp(last, "meta"))) {
		/* at::native::structured_add_out::impl */
		*(char *)pe = '\0';
		last = last_part(sym, &pe);
	}
	if (!strncmp(last, "structured_", 11) && (s->entry = nativefuncs_find_kernel(nf, last + 11, &keys))) {
		set_via(s, "its structured kernel (at::native::%s)", last);
	} else if (strstr(q, "at::native::") && (s->entry = nativefuncs_find_kernel(nf, last, &keys))) {
		s->handwritten = true;
		set_via(s, "a dispatch table that names it (%s)", last);
	} else if ((s->entry = resolve_plain(nf, last, NULL))) {
		set_via(s, "its name (%s)", last);
	} else if ((s->entry = nativefuncs_find_kernel(nf, last, &keys))) {
		s->handwritten = true;
		set_via(s, "a dispatch table that names it (%s)", last);
	} else if ((s->entry = nativefuncs_find(nf, last))) {
		set_via(s, "its name (%s)", last);
	}
	/* A kernel named: the first key of its row. */
	if (keys && !s->dispatch_key)
		s->dispatch_key = pt_xstrndup(keys, strcspn(keys, ", "));
	free(sym);
}

/* ------------------------------------------------------------------------ */
/* Kernels. */

static int has_key(const char *keys, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = keys; (p = strstr(p, key)) != NULL; p++)
		if ((p == keys || p[-1] == ' ' || p[-1] == ',') && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return 1;
	return 0;
}

/* The dense backends and the composites: what "the kernels" of an operator means without a key. */
static const char *const dense_keys[] = {
	"CPU", "CUDA", "MPS", "XPU", "Meta", "CompositeExplicitAutograd",
	"CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutograd", NULL,
};

static int dense_row(const char *keys)
{
	for (size_t i = 0; dense_keys[i]; i++)
		if (has_key(keys, dense_keys[i]))
			return 1;
	return 0;
}

/* model.py STRUCTURED_DISPATCH_KEYS: a structured entry's rows for these are structured kernels. */
static int structured_row(const char *keys, const char *key)
{
	static const char *const sk[] = { "CPU", "CUDA", "MPS", "XPU", NULL };

	for (size_t i = 0; sk[i]; i++)
		if (key ? !strcmp(key, sk[i]) : has_key(keys, sk[i]))
			return 1;
	return 0;
}

/* The rank of a row's first dense key (CPU first), for the order of the kernels. */
static size_t dense_rank(const char *keys)
{
	for (size_t i = 0; dense_keys[i]; i++)
		if (has_key(keys, dense_keys[i]))
			return i;
	return SIZE_MAX;
}

static int cmp_kernel(const void *a, const void *b)
{
	size_t x = dense_rank(((const struct build_kernel *)a)->keys), y = dense_rank(((const struct build_kernel *)b)->keys);

	return (x > y) - (x < y);
}

static void add_kernel(struct build_source *s, size_t *alloc, char *kernel, char *keys)
{
	PT_GROW(s->kernels, s->n_kernels, *alloc);
	s->kernels[s->n_kernels++] = (struct build_kernel){ kernel, keys, NULL, 0 };
}

static char *base_of(const char *name)
{
	return pt_xstrndup(name, strcspn(name, "."));
}

/*
 * The kernels an entry forwards to: for a dispatch key, its row (the entry's
 * own row first: it overrides a structured delegate; then the delegate's;
 * a ufunc entry's CPU/CUDA kernels are generated); without one, every dense
 * row (CPU, CUDA, MPS, ..., the composites).
 */
static void find_kernels(const struct nativefuncs *nf, struct build_source *s)
{
	const struct nf_entry *e = s->entry, *k = e, *dlg = NULL;
	const char *key = s->dispatch_key;
	size_t alloc = 0;

	if (e->structured_delegate)
		dlg = nativefuncs_find(nf, e->structured_delegate);
	s->kernel_entry = e->n_dispatch || !dlg ? e : dlg;
	for (int pass = 0; pass < 2; pass++) {
		k = pass ? dlg : e;
		if (!k || (pass && s->n_kernels && key))
			continue;
		for (size_t i = 0; i < k->n_dispatch; i++) {
			const struct nf_dispatch *row = &k->dispatch[i];

			if (key ? !has_key(row->keys, key) : !dense_row(row->keys))
				continue;
			add_kernel(s, &alloc,
				   k->structured && structured_row(row->keys, key)
					   ? pt_xasprintf("at::native::structured_%s::impl", row->kernel)
					   : pt_xasprintf("at::native::%s", row->kernel),
				   pt_xstrdup(row->keys));
			if (pass)
				s->kernel_entry = dlg;
			if (key)
				break;
		}
		if (k->ufunc && (!key || !strcmp(key, "CPU") || !strcmp(key, "CUDA")) && !(key && s->n_kernels)) {
			char *base = base_of(k->name);

			for (int c = 0; c < 2; c++) {
				const char *uk = c ? "CUDA" : "CPU";

				if (key && strcmp(key, uk))
					continue;
				add_kernel(s, &alloc, pt_xasprintf("at::native::structured_ufunc_%s_%s::impl", base, uk),
					   pt_xasprintf("%s (ufunc_inner_loop: generated Ufunc%s_%s.cpp, loops from ufunc/%s.h)",
							uk, uk, base, base));
			}
			free(base);
			if (pass)
				s->kernel_entry = dlg;
		}
	}
	if (!s->n_kernels && !e->n_dispatch && !dlg) {
		/* model.py: no dispatch table, no delegate: CompositeImplicitAutograd, kernel cpp.name(func). */
		char *base = base_of(e->name);

		s->composite_implicit = true;
		add_kernel(s, &alloc, pt_xasprintf("at::native::%s%s", base, e->out_fn ? "_out" : ""),
			   pt_xstrdup("CompositeImplicitAutograd (no dispatch table)"));
		free(base);
	}
	if (!key && s->n_kernels > 1) {
		/* Stable: insertion sort keeps rows of one rank in the file's order. */
		for (size_t i = 1; i < s->n_kernels; i++)
			for (size_t j = i; j > 0 && cmp_kernel(&s->kernels[j - 1], &s->kernels[j]) > 0; j--) {
				struct build_kernel tmp = s->kernels[j];

				s->kernels[j] = s->kernels[j - 1];
				s->kernels[j - 1] = tmp;
			}
	}
	for (size_t i = 0; i < s->n_kernels; i++)
		if (has_key(s->kernels[i].keys, "CompositeImplicitAutograd"))
			s->composite_implicit = true;
	if (s->n_kernels) {
		s->kernel = pt_xstrdup(s->kernels[0].kernel);
		s->kernel_keys = pt_xstrdup(s->kernels[0].keys);
	}
}

/* ------------------------------------------------------------------------ */
/* The index of hand-written definitions under aten/src/ATen/native/. */

static int cmp_def(const void *a, const void *b)
{
	const struct def_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->file, y->file) ? strcmp(x->file, y->file) : (x->line > y->line) - (x->line < y->line);
}

static void index_native_file(struct buildsource *b, const char *path)
{
	uint8_t *buf;
	size_t len;
	struct pt_diag quiet;
	const char *s, *end;

	pt_diag_init(&quiet);
	if (pt_read_regular(path, NATIVE_FILE_MAX, PT_SEV_NOTE, PT_READ_PREFIX, &buf, &len, &quiet) != 0) {
		pt_diag_release(&quiet);
		return;
	}
	pt_diag_release(&quiet);
	s = (const char *)buf;
	end = s + len;
	for (size_t ln = 1; s < end; ln++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *l = s;
		size_t n = (size_t)((nl ? nl : end) - s);
		char *name = NULL;

		s = nl ? nl + 1 : end;
		if (n > SCAN_LINE_MAX)
			n = SCAN_LINE_MAX;
		if (!n || !isalpha((unsigned char)l[0]) || l[n - 1] == ';' || !strncmp(l, "namespace", 9) ||
		    !strncmp(l, "using ", 6) || !strncmp(l, "template", 8))
			continue;
		if (!strncmp(l, "TORCH_IMPL_FUNC(", 16)) {
			char *k = ident_at(l + 16, n - 16);

			if (k)
				name = pt_xasprintf("structured_%s", k);
			free(k);
		} else {
			char line[SCAN_LINE_MAX + 1];
			const char *p;

			memcpy(line, l, n);
			line[n] = '\0';
			p = strchr(line, '(');
			if (p && !memchr(line, '=', (size_t)(p - line))) {
				name = decl_name(line);
				if (name && (!strcmp(name, "TORCH_CHECK") || !strncmp(name, "REGISTER_", 9) ||
					     !strncmp(name, "DEFINE_", 7) || !strncmp(name, "C10_", 4) ||
					     !strncmp(name, "TORCH_", 6))) {
					free(name);
					name = NULL;
				}
			}
		}
		if (name) {
			const char *pe, *last = last_part(name, &pe);
			char *shortname = pt_xstrdup(last);

			free(name);
			PT_GROW(b->defs, b->n_defs, b->alloc_defs);
			b->defs[b->n_defs++] = (struct def_name){ shortname, pt_xstrdup(path), ln };
		}
	}
	free(buf);
}

static void index_native_dir(struct buildsource *b, const char *dir, int level)
{
	struct dirent **names;
	int n;

	if (level > 4 || (n = scandir(dir, &names, NULL, alphasort)) < 0)
		return;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t l = strlen(nm);
		char *p;
		struct stat st;

		if (nm[0] == '.') {
			free(names[i]);
			continue;
		}
		p = pt_xasprintf("%s/%s", dir, nm);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			index_native_dir(b, p, level + 1);
		else if (S_ISREG(st.st_mode) && l > 4 && !strcmp(nm + l - 4, ".cpp"))
			index_native_file(b, p);
		free(p);
		free(names[i]);
	}
	free(names);
}

static const struct def_name *find_def(struct buildsource *b, const char *name)
{
	size_t lo = 0, hi;

	if (!b->defs_loaded) {
		char *dir = pt_xasprintf("%s/aten/src/ATen/native", b->src);

		b->defs_loaded = true;
		index_native_dir(b, dir, 0);
		free(dir);
		if (b->n_defs)
			qsort(b->defs, b->n_defs, sizeof(*b->defs), cmp_def);
	}
	hi = b->n_defs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(b->defs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->n_defs && !strcmp(b->defs[lo].name, name) ? &b->defs[lo] : NULL;
}

static void locate_kernels(struct buildsource *b, struct build_source *s)
{
	for (size_t i = 0; i < s->n_kernels; i++) {
		struct build_kernel *k = &s->kernels[i];
		const char *pe, *last = last_part(k->kernel, &pe);
		char *nm;
		const struct def_name *d;

		if (strstr(k->kernel, "structured_ufunc_"))
			continue;
		if (!strcmp(last, "impl") && pe) {
			const char *st = pe;

			while (st > k->kernel && is_ident((unsigned char)st[-1]))
				st--;
			nm = pt_xstrndup(st, (size_t)(pe - st));
		} else {
			nm = pt_xstrdup(last);
		}
		if ((d = find_def(b, nm))) {
			k->file = pt_xstrdup(d->file);
			k->line = d->line;
		}
		free(nm);
	}
}

/* ------------------------------------------------------------------------ */
/* The tree: files, autograd. */

static struct gen_file *get_file(struct buildsource *b, const char *path, struct pt_diag *d)
{
	struct gen_file *g;
	uint8_t *buf;
	size_t len;

	for (size_t i = 0; i < b->n_files; i++)
		if (!strcmp(b->files[i].path, path))
			return b->files[i].loaded ? &b->files[i] : NULL;
	PT_GROW(b->files, b->n_files, b->alloc_files);
	g = &b->files[b->n_files++];
	memset(g, 0, sizeof(*g));
	g->path = pt_xstrdup(path);
	if (pt_read_regular(path, SOURCE_READ_MAX, PT_SEV_ERROR, PT_READ_PREFIX, &buf, &len, d) != 0)
		return NULL;
	g->loaded = true;
	scan_generated(g, (const char *)buf, len);
	free(buf);
	return g;
}

/* VariableType_N.cpp: which function makes which node (std::shared_ptr<MulBackward0> grad_fn;
 * c10::intrusive_ptr<MulBackward0> in torch 2.14). */
static const struct def_name *find_node(struct buildsource *b, const char *node, struct pt_diag *d)
{
	if (!b->nodes_loaded) {
		b->nodes_loaded = true;
		for (int i = 0; i < 64; i++) {
			char *p = pt_xasprintf("%s/torch/csrc/autograd/generated/VariableType_%d.cpp", b->src, i);
			struct gen_file *g;

			if (!exists(p)) {
				free(p);
				break;
			}
			if ((g = get_file(b, p, d)) != NULL)
				for (size_t k = 0; k < g->n_fn; k++)
					if (g->fn[k].node_ref) {
						PT_GROW(b->nodes, b->n_nodes, b->alloc_nodes);
						b->nodes[b->n_nodes++] = (struct def_name){ pt_xstrdup(g->fn[k].node_ref),
											  pt_xstrdup(g->fn[k].name),
											  g->fn[k].first };
					}
			free(p);
		}
	}
	for (size_t i = 0; i < b->n_nodes; i++)
		if (!strcmp(b->nodes[i].name, node))
			return &b->nodes[i];
	return NULL;
}

static int load_derivatives(struct buildsource *b, struct pt_diag *d)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if (b->deriv_loaded)
		return b->deriv.v ? 0 : -1;
	b->deriv_loaded = true;
	b->deriv_yaml = pt_xasprintf("%s/tools/autograd/derivatives.yaml", b->src);
	rc = pt_read_regular(b->deriv_yaml, YAML_READ_MAX, PT_SEV_WARNING, PT_READ_PREFIX, &buf, &len, d);
	if (rc == 1)
		pt_diag_add(d, PT_SEV_WARNING, b->deriv_yaml, NULL, "cannot open (the source checkout is not here)");
	if (rc != 0)
		return -1;
	rc = nativefuncs_parse_derivatives(buf, len, &b->deriv, b->deriv_yaml, d);
	free(buf);
	return rc;
}

/* An autograd node (XBackward0 of a query or of the class of a Functions.cpp line). */
static void resolve_node(struct buildsource *b, const char *node, struct build_source *s, struct pt_diag *d)
{
	const struct def_name *fn = find_node(b, node, d);
	const struct nf_entry *e;

	free(s->node);
	s->node = pt_xstrdup(node);
	if (!fn)
		return;
	if (!s->entry && (e = nativefuncs_find_cpp(&b->nf, fn->file)) == NULL && strstr(fn->file, "_Autograd")) {
		/* squeeze_dims_AutogradNestedTensor: the kernel of another autograd key. */
		char *nm = pt_xstrndup(fn->file, (size_t)(strstr(fn->file, "_Autograd") - fn->file));

		e = nativefuncs_find_cpp(&b->nf, nm);
		free(nm);
	}
	if (!s->entry && e) {
		s->entry = e;
		set_via(s, "the autograd kernel that makes the node: VariableType's %s", fn->file);
	}
	if (!s->entry || load_derivatives(b, d) < 0)
		return;
	free(s->derivatives_yaml);
	s->derivatives_yaml = pt_xstrdup(b->deriv_yaml);
	s->derivative = buildsource_derivative(&b->deriv, s->entry->name, &s->derivative_via_foreach);
}

/* "ldexp_.Tensor" -> "ldexp" (length in *bl), the overload "Tensor" in *ov ("" for none). */
static size_t op_base(const char *name, const char **ov)
{
	const char *dot = strchr(name, '.');
	size_t bl = dot ? (size_t)(dot - name) : strlen(name);

	*ov = dot ? dot + 1 : "";
	while (bl > 1 && name[bl - 1] == '_')
		bl--;
	return bl;
}

const struct nf_entry *buildsource_derivative(const struct nativefuncs *deriv, const char *op, bool *via_foreach)
{
	const struct nf_entry *r;
	char *nm = pt_xstrdup(op), *dot = strchr(nm, '.');
	size_t bl = dot ? (size_t)(dot - nm) : strlen(nm);
	char *alt;

	*via_foreach = false;
	/* The operator's entry, else its functional (mul_.Tensor -> mul.Tensor), else the view (x_copy -> x). */
	if ((r = nativefuncs_find(deriv, op))) {
		free(nm);
		return r;
	}
	if (bl > 1 && nm[bl - 1] == '_') {
		alt = pt_xasprintf("%.*s%s", (int)(bl - 1), nm, dot ? dot : "");
		r = nativefuncs_find(deriv, alt);
		free(alt);
	}
	if (!r && bl > 5 && !strncmp(nm + bl - 5, "_copy", 5)) {
		alt = pt_xasprintf("%.*s%s", (int)(bl - 5), nm, dot ? dot : "");
		r = nativefuncs_find(deriv, alt);
		free(alt);
	}
	/*
	 * _foreach_add.Tensor: load_derivatives.py's gen_foreach_derivativeinfo
	 * takes the formulas of the pointwise op (add.Tensor; else the first
	 * entry of that name).
	 */
	if (!r && !strncmp(nm, "_foreach_", 9)) {
		size_t blen = bl - 9;

		alt = pt_xasprintf("%.*s%s", (int)blen, nm + 9, dot ? dot : "");
		r = nativefuncs_find(deriv, alt);
		free(alt);
		for (size_t i = 0; !r && i < deriv->n; i++)
			if (!strncmp(deriv->v[i].name, nm + 9, blen) &&
			    (deriv->v[i].name[blen] == '.' || !deriv->v[i].name[blen]))
				r = &deriv->v[i];
		*via_foreach = r != NULL;
	}
	/*
	 * The in-place entry of a functional (random.to -> random_.to,
	 * embedding_renorm -> embedding_renorm_: torch 2.14 autogenerates the
	 * functional, its node comes from the in-place's formulas), or an
	 * in-place whose functional has an overload name (ldexp_ -> ldexp.Tensor):
	 * the entry of the same name less its trailing '_' with the same
	 * overload, else the only entry of that name.
	 */
	if (!r && strncmp(nm, "_foreach_", 9) != 0) {
		const char *ov, *ov2;
		size_t base = op_base(op, &ov), n = 0;
		const struct nf_entry *only = NULL;

		for (size_t i = 0; !r && i < deriv->n; i++) {
			size_t b2 = op_base(deriv->v[i].name, &ov2);

			if (b2 != base || strncmp(deriv->v[i].name, op, base))
				continue;
			if (!strcmp(ov, ov2))
				r = &deriv->v[i];
			only = &deriv->v[i];
			n++;
		}
		if (!r && n == 1)
			r = only;
	}
	free(nm);
	return r;
}

/*
 * An autograd node: <Op>Backward<N> (load_derivatives.py), with the key
 * (SqueezeBackwardAutogradNestedTensor1), a foreach overload
 * (ForeachSubBackward1Scalar), a view copy (ConjBackward0_copy).
 */
static bool node_name(const char *s)
{
	const char *p = NULL;

	for (const char *q = s; (q = strstr(q, "Backward")) != NULL; q++)
		p = q;
	if (!p || p == s || !isupper((unsigned char)s[0]) || !strpbrk(p + 8, "0123456789"))
		return false;
	for (const char *q = p + 8; *q; q++)
		if (!is_ident((unsigned char)*q))
			return false;
	return true;
}

static const char *const generated_dirs[] = {
	"/aten/src/ATen/", "torch/csrc/autograd/generated/", "torch/csrc/lazy/generated/",
	"torch/csrc/inductor/aoti_torch/generated/", "/Register", "/Operators_", NULL,
};

/* The template a generated file names ("@generated by torchgen/gen.py from RegisterDispatchKey.cpp"). */
static void find_template(struct buildsource *b, const struct gen_file *g, const struct ninja_edge *ed,
			  struct build_source *s)
{
	const char *from;
	char *t;
	static const char *const dirs[] = { "aten/src/ATen/templates", "tools/autograd/templates", NULL };

	if (!g || !g->gen_header)
		return;
	from = strstr(g->gen_header, "from ");
	from = from ? from + 5 : g->gen_header;
	t = pt_xstrndup(from, strcspn(from, " \t\r"));
	while (!strncmp(t, "../", 3))
		memmove(t, t + 3, strlen(t + 3) + 1);
	if (ed)
		for (size_t i = 0; i < ed->n_ins; i++) {
			size_t li = strlen(ed->ins[i]), lt = strlen(t);

			if (strstr(ed->ins[i], "/templates/") && li > lt && !strcmp(ed->ins[i] + li - lt, t) &&
			    ed->ins[i][li - lt - 1] == '/') {
				s->template_path = host_path(b->t, b->src, ed->ins[i]);
				free(t);
				return;
			}
		}
	if (strchr(t, '/')) {
		char *p = pt_xasprintf("%s/%s", b->src, t);

		if (exists(p)) {
			s->template_path = p;
			free(t);
			return;
		}
		free(p);
	}
	for (size_t i = 0; dirs[i]; i++) {
		char *p = pt_xasprintf("%s/%s/%s", b->src, dirs[i], strrchr(t, '/') ? strrchr(t, '/') + 1 : t);

		if (exists(p)) {
			s->template_path = p;
			break;
		}
		free(p);
	}
	free(t);
}

struct buildsource *buildsource_open(const struct buildtree *t, struct pt_diag *d)
{
	struct buildsource *b = pt_xcalloc(1, sizeof(*b));
	uint8_t *buf;
	size_t len;
	int rc;

	b->t = t;
	b->src = host_source_dir(t);
	b->yaml = pt_xasprintf("%s/aten/src/ATen/native/native_functions.yaml", b->src);
	rc = pt_read_regular(b->yaml, YAML_READ_MAX, PT_SEV_ERROR, PT_READ_PREFIX, &buf, &len, d);
	if (rc == 1)
		pt_diag_add(d, PT_SEV_ERROR, b->yaml, NULL, "cannot open (the source checkout of this build tree is not here)");
	if (rc != 0 || nativefuncs_parse(buf, len, &b->nf, b->yaml, d) < 0) {
		free(buf);
		buildsource_close(b);
		return NULL;
	}
	free(buf);
	return b;
}

void buildsource_close(struct buildsource *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n_files; i++)
		gen_file_release(&b->files[i]);
	free(b->files);
	for (size_t i = 0; i < b->n_defs; i++) {
		free(b->defs[i].name);
		free(b->defs[i].file);
	}
	free(b->defs);
	for (size_t i = 0; i < b->n_nodes; i++) {
		free(b->nodes[i].name);
		free(b->nodes[i].file);
	}
	free(b->nodes);
	nativefuncs_release(&b->nf);
	nativefuncs_release(&b->deriv);
	free(b->deriv_yaml);
	free(b->src);
	free(b->yaml);
	free(b);
}

/* The file's build.ninja edge (as given, as built, relative to the build dir), or -1. */
static size_t producer(const struct buildsource *b, const char *q, const char *path)
{
	const struct buildtree *t = b->t;
	size_t e = buildninja_producer(&t->ninja, q);

	if (e == (size_t)-1 && t->source_dir && !strncmp(path, b->src, strlen(b->src))) {
		char *as_built = pt_xasprintf("%s%s", t->source_dir, path + strlen(b->src));

		e = buildninja_producer(&t->ninja, as_built);
		free(as_built);
	}
	if (e == (size_t)-1 && !strncmp(path, t->dir, strlen(t->dir)) && path[strlen(t->dir)] == '/')
		e = buildninja_producer(&t->ninja, path + strlen(t->dir) + 1);
	return e;
}

int buildsource_query(struct buildsource *b, const char *query, struct build_source *s, struct pt_diag *d)
{
	const struct buildtree *t = b->t;
	char *q = pt_xstrdup(query), *colon;
	int is_path;

	memset(s, 0, sizeof(*s));
	s->query = pt_xstrdup(query);
	s->yaml = pt_xstrdup(b->yaml);
	colon = strrchr(q, ':');
	if (colon && colon > q && colon[-1] != ':' && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		uint64_t v;

		if (pt_dec_u64_all(colon + 1, strlen(colon + 1), SOURCE_LINE_MAX, &v) < 0 || v == 0) {
			pt_diag_add(d, PT_SEV_ERROR, NULL, NULL, "'%s': line %s is out of range (1 to %u)", query,
				    colon + 1, SOURCE_LINE_MAX);
			free(q);
			return -1;
		}
		s->line = (size_t)v;
		*colon = '\0';
	}
	is_path = strchr(q, '/') || strstr(q, ".cpp") || strstr(q, ".h");
	if (is_path) {
		size_t e;
		struct stat st;
		const struct ninja_edge *ed = NULL;
		struct gen_file *g = NULL;

		s->path = host_path(t, b->src, q);
		/* A FIFO, a device, a directory: not a source file (nor a generated one). */
		if (stat(s->path, &st) == 0 && !S_ISREG(st.st_mode)) {
			pt_diag_add(d, PT_SEV_ERROR, s->path, NULL, "not a regular file (%s)", pt_file_kind(st.st_mode));
			free(q);
			return -1;
		}
		e = producer(b, q, s->path);
		if (e != (size_t)-1) {
			ed = &t->ninja.edges[e];
			s->generated = true;
			s->edge_line = ed->line;
			s->generated_by = pt_xstrdup(ed->rule);
			for (size_t i = 0; i < ed->n_ins; i++) {
				size_t li = strlen(ed->ins[i]);

				if (strstr(ed->ins[i], "torchgen/")) {
					free(s->generated_by);
					s->generated_by = pt_xstrdup("torchgen");
				}
				if (!s->gen_script && strstr(ed->ins[i], ".py") &&
				    (strstr(ed->ins[i], "torchgen/gen") || strstr(ed->ins[i], "tools/")))
					s->gen_script = pt_xstrdup(ed->ins[i]);
				if (li > 5 && !strcmp(ed->ins[i] + li - 5, ".yaml")) {
					s->yaml_inputs = pt_xreallocarray(s->yaml_inputs, s->n_yaml_inputs + 1,
									  sizeof(*s->yaml_inputs));
					s->yaml_inputs[s->n_yaml_inputs++] = host_path(t, b->src, ed->ins[i]);
				}
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
		} else if (s->generated || s->line) {
			if (!(g = get_file(b, s->path, d))) {
				free(q);
				return -1;
			}
			if (!s->generated && g->gen_header) {
				s->generated = true;
				s->generated_by = pt_xasprintf("%s (its @generated line)", g->gen_header);
			}
			if (s->generated)
				find_template(b, g, ed, s);
		}
		if (g && s->line && s->generated) {
			const struct gen_fn *f = fn_at(g, s->line);

			s->entry = resolve_in_file(&b->nf, g, s->line, s);
			if (!s->entry && s->klass && node_name(s->klass))
				resolve_node(b, s->klass, s, d);
			else if (s->entry && f && f->node_ref && node_name(f->node_ref))
				/* VariableType's kernel: the node it makes, and its derivatives.yaml entry. */
				resolve_node(b, f->node_ref, s, d);
		} else if (g && s->line) {
			const struct gen_fn *f = fn_at(g, s->line);

			if (f) {
				s->function = pt_xstrdup(f->name);
				buildsource_resolve_symbol(&b->nf, f->name, s);
			}
		}
	} else {
		buildsource_resolve_symbol(&b->nf, q, s);
		{
			/* torch::autograd::generated::MulBackward0::apply */
			char *sym = pt_xstrdup(q), *p;
			const char *pe, *last;

			if ((p = strchr(sym, '(')) != NULL)
				*p = '\0';
			last = last_part(sym, &pe);
			if (pe && !node_name(last)) {
				*(char *)pe = '\0';
				last = last_part(sym, &pe);
			}
			if (node_name(last) && (!s->entry || strstr(q, "autograd"))) {
				s->entry = NULL;
				resolve_node(b, last, s, d);
			}
			free(sym);
		}
	}
	if (s->entry) {
		find_kernels(&b->nf, s);
		locate_kernels(b, s);
	} else if (!is_path || (s->line && !s->helper && s->function)) {
		if (s->function && is_path)
			pt_diag_add(d, PT_SEV_WARNING, NULL, NULL, "'%s': %s names no operator in %s", query, s->function,
				    s->yaml);
		else if (!is_path)
			pt_diag_add(d, PT_SEV_WARNING, NULL, NULL, "'%s' names no operator in %s", query, s->yaml);
	}
	free(q);
	return 0;
}

void build_source_release(struct build_source *s)
{
	free(s->query);
	free(s->path);
	free(s->generated_by);
	free(s->gen_script);
	free(s->template_path);
	for (size_t i = 0; i < s->n_yaml_inputs; i++)
		free(s->yaml_inputs[i]);
	free(s->yaml_inputs);
	free(s->function);
	free(s->klass);
	free(s->via);
	free(s->dispatch_key);
	free(s->yaml);
	free(s->kernel);
	free(s->kernel_keys);
	for (size_t i = 0; i < s->n_kernels; i++) {
		free(s->kernels[i].kernel);
		free(s->kernels[i].keys);
		free(s->kernels[i].file);
	}
	free(s->kernels);
	free(s->node);
	free(s->derivatives_yaml);
	memset(s, 0, sizeof(*s));
}
