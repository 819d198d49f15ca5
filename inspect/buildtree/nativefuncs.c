/*
 * native_functions.yaml through libyaml's document loader: a sequence of
 * mappings; "func" a scalar, "dispatch" a mapping of "KEY[, KEY...]" to a
 * kernel name, "structured" a boolean scalar, "structured_delegate" a
 * scalar. Other members are ignored; entries without "func" are reported.
 *
 * YAML aliases ("- *a", "dispatch: *d") are refused: the loader keeps one
 * node for an anchor and all its aliases, but each entry here is a copy, so
 * a few hundred KB of "- *a" lines made gigabytes of copies (the second
 * fault-matrix.md N5). torchgen's file has none. A node reached twice
 * is an alias; the event API then says where the first alias is.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "lazylib.h"
#include "nativefuncs.h"
#include "strbuf.h"
#include "xalloc.h"

/* libyaml is opened on the first parse (lazylib.h): only `ptinspect build` reads YAML. */
static __typeof__(yaml_parser_initialize) *p_yaml_parser_initialize;
static __typeof__(yaml_parser_set_input_string) *p_yaml_parser_set_input_string;
static __typeof__(yaml_parser_load) *p_yaml_parser_load;
static __typeof__(yaml_parser_delete) *p_yaml_parser_delete;
static __typeof__(yaml_document_get_root_node) *p_yaml_document_get_root_node;
static __typeof__(yaml_document_get_node) *p_yaml_document_get_node;
static __typeof__(yaml_document_delete) *p_yaml_document_delete;
static __typeof__(yaml_parser_parse) *p_yaml_parser_parse;
static __typeof__(yaml_event_delete) *p_yaml_event_delete;
static const struct pt_lazysym yaml_syms[] = {
	PT_LAZYSYM(yaml_parser_initialize),
	PT_LAZYSYM(yaml_parser_set_input_string),
	PT_LAZYSYM(yaml_parser_load),
	PT_LAZYSYM(yaml_parser_delete),
	PT_LAZYSYM(yaml_document_get_root_node),
	PT_LAZYSYM(yaml_document_get_node),
	PT_LAZYSYM(yaml_document_delete),
	PT_LAZYSYM(yaml_parser_parse),
	PT_LAZYSYM(yaml_event_delete),
};
static struct pt_lazylib libyaml = PT_LAZYLIB("libyaml-0.so.2", yaml_syms);
#define yaml_parser_initialize (*p_yaml_parser_initialize)
#define yaml_parser_set_input_string (*p_yaml_parser_set_input_string)
#define yaml_parser_load (*p_yaml_parser_load)
#define yaml_parser_delete (*p_yaml_parser_delete)
#define yaml_document_get_root_node (*p_yaml_document_get_root_node)
#define yaml_document_get_node (*p_yaml_document_get_node)
#define yaml_document_delete (*p_yaml_document_delete)
#define yaml_parser_parse (*p_yaml_parser_parse)
#define yaml_event_delete (*p_yaml_event_delete)

#define MAX_WARN 20

static const char *scalar(yaml_document_t *doc, yaml_node_t *n)
{
	(void)doc;
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Node id of doc, marked in seen[] (one byte per node); *alias set when it was reached before. */
static yaml_node_t *node(yaml_document_t *doc, unsigned char *seen, size_t n_nodes, int id, int *alias)
{
	yaml_node_t *n = yaml_document_get_node(doc, id);

	if (n && id >= 1 && (size_t)id <= n_nodes) {
		if (seen[id - 1])
			*alias = 1;
		seen[id - 1] = 1;
	}
	return n;
}

/* "line L column C: an alias (*NAME)": the first alias event of buf. */
static void alias_error(const uint8_t *buf, size_t len, const char *src, struct pt_diag *d)
{
	yaml_parser_t p;
	yaml_event_t ev;
	char where[48] = "";
	char *name = NULL;

	if (yaml_parser_initialize(&p)) {
		yaml_parser_set_input_string(&p, buf, len);
		while (yaml_parser_parse(&p, &ev)) {
			yaml_event_type_t ty = ev.type;

			if (ty == YAML_ALIAS_EVENT) {
				pt_fmt_trunc(where, sizeof(where), "line %zu column %zu", ev.start_mark.line + 1,
					     ev.start_mark.column + 1);
				name = pt_xstrdup(ev.data.alias.anchor ? (const char *)ev.data.alias.anchor : "");
			}
			yaml_event_delete(&ev);
			if (ty == YAML_ALIAS_EVENT || ty == YAML_STREAM_END_EVENT)
				break;
		}
		yaml_parser_delete(&p);
	}
	pt_diag_add(d, PT_SEV_ERROR, src, where[0] ? where : NULL,
		    "a YAML alias (*%s): aliases are not supported in native_functions.yaml", name ? name : "?");
	free(name);
}

/*
 * torchgen's out functions (model.py, Note [is_out_fn]): a kwarg-only
 * argument that is mutable, "*, Tensor(a!) out". The arguments are split at
 * the commas outside parentheses and brackets.
 */
static bool is_out_fn(const char *func)
{
	const char *p = strchr(func, '(');
	int depth = 0, kwonly = 0, bang = 0;
	const char *arg;

	if (!p)
		return false;
	arg = ++p;
	for (; *p; p++) {
		if (*p == '(' || *p == '[') {
			depth++;
		} else if ((*p == ')' || *p == ']') && depth > 0) {
			depth--;
		} else if (*p == '!') {
			bang = 1;
		} else if (depth == 0 && (*p == ',' || *p == ')')) {
			size_t n = (size_t)(p - arg);

			while (n && *arg == ' ')
				arg++, n--;
			if (n == 1 && *arg == '*')
				kwonly = 1;
			else if (kwonly && bang)
				return true;
			bang = 0;
			arg = p + 1;
			if (*p == ')')
				break;
		}
	}
	return false;
}

/*
 * "add_.Tensor(...)" -> name "add_.Tensor", unambiguous "add__Tensor",
 * native "add__Tensor" (api/native.py: base, "_out" for an out function,
 * "_<overload>"), wrapper "Tensor_add_" (the unstructured wrapper's
 * "<overload>_" prefix and api/cpp.py's name: base, "_out").
 */
static void names(struct nf_entry *e)
{
	const char *func = e->func;
	size_t n = strcspn(func, "(");
	const char *dot, *ovl;
	size_t nb;

	while (n && func[n - 1] == ' ')
		n--;
	e->name = pt_xstrndup(func, n);
	dot = strchr(e->name, '.');
	nb = dot ? (size_t)(dot - e->name) : strlen(e->name);
	ovl = dot ? dot + 1 : "";
	e->out_fn = is_out_fn(func);
	e->unambiguous = pt_xasprintf("%.*s%s%s", (int)nb, e->name, *ovl ? "_" : "", ovl);
	e->native_name = pt_xasprintf("%.*s%s%s%s", (int)nb, e->name, e->out_fn ? "_out" : "", *ovl ? "_" : "", ovl);
	e->wrapper_name = pt_xasprintf("%s_%.*s%s", ovl, (int)nb, e->name, e->out_fn ? "_out" : "");
}

/*
 * "autogen: add.Scalar_out, add_relu.out": variants torchgen generates
 * (model.py: the out= and functional kernels of CompositeExplicitAutograd,
 * in CompositeViewCopyKernels.cpp). Each is an entry of its own named so,
 * at its parent's line, out when its overload is "out" or ends in "_out".
 * nf->v grows here, before any pointer into it is kept.
 */
static void add_autogen(struct nativefuncs *nf, size_t *alloc, const char *list, size_t parent)
{
	const char *p = list;

	while (*p) {
		size_t n;
		struct nf_entry *e;
		const char *dot;

		p += strspn(p, " ,");
		n = strcspn(p, " ,");
		if (!n)
			break;
		if (nf->n + 1 >= *alloc) {
			*alloc *= 2;
			nf->v = pt_xreallocarray(nf->v, *alloc, sizeof(*nf->v));
		}
		e = &nf->v[nf->n++];
		memset(e, 0, sizeof(*e));
		e->func = pt_xstrndup(p, n);
		e->line = nf->v[parent].line;
		e->autogen_of = pt_xstrdup(nf->v[parent].name);
		names(e);
		dot = strchr(e->name, '.');
		e->out_fn = dot && (!strcmp(dot + 1, "out") || (strlen(dot + 1) > 4 && !strcmp(dot + strlen(dot) - 4, "_out")));
		free(e->native_name);
		free(e->wrapper_name);
		{
			size_t nb = dot ? (size_t)(dot - e->name) : strlen(e->name);
			const char *ovl = dot ? dot + 1 : "";

			e->native_name = pt_xasprintf("%.*s%s%s%s", (int)nb, e->name, e->out_fn ? "_out" : "",
						      *ovl ? "_" : "", ovl);
			e->wrapper_name = pt_xasprintf("%s_%.*s%s", ovl, (int)nb, e->name, e->out_fn ? "_out" : "");
		}
		p += n;
	}
}

static int cmp_name(const void *a, const void *b)
{
	const struct nf_name *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	/* Equal names: the entry first in the file first (lookups return it). */
	return c ? c : (x->e > y->e) - (x->e < y->e);
}

static struct nf_name *make_index(const struct nativefuncs *nf, size_t off)
{
	struct nf_name *v = pt_xcalloc(nf->n + 1, sizeof(*v));

	for (size_t i = 0; i < nf->n; i++) {
		v[i].s = *(char *const *)((const char *)&nf->v[i] + off);
		v[i].e = &nf->v[i];
	}
	qsort(v, nf->n, sizeof(*v), cmp_name);
	return v;
}

static const struct nf_entry *find_in(const struct nf_name *v, size_t n, const char *s)
{
	size_t lo = 0, hi = n;

	if (!v)
		return NULL;
	/* The first of equal names: lower bound. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].s, s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(v[lo].s, s) ? v[lo].e : NULL;
}

static int parse_list(const uint8_t *buf, size_t len, struct nativefuncs *nf, const char *src,
		      const char *key, struct pt_diag *d)
{
	yaml_parser_t p;
	yaml_document_t doc;
	yaml_node_t *root;
	size_t bad = 0, n_nodes, alloc;
	const char *why;
	unsigned char *seen;
	int alias = 0;

	memset(nf, 0, sizeof(*nf));
	if ((why = pt_lazylib_load(&libyaml))) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "%s", why);
		return -1;
	}
	if (!yaml_parser_initialize(&p)) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "out of memory");
		return -1;
	}
	yaml_parser_set_input_string(&p, buf, len);
	if (!yaml_parser_load(&p, &doc)) {
		char where[48];

		pt_fmt_trunc(where, sizeof(where), "line %zu column %zu", p.problem_mark.line + 1,
			 p.problem_mark.column + 1);
		pt_diag_add(d, PT_SEV_ERROR, src, where, "not YAML: %s", p.problem ? p.problem : "parse error");
		yaml_parser_delete(&p);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (!root || root->type != YAML_SEQUENCE_NODE) {
		pt_diag_add(d, PT_SEV_ERROR, src, NULL, "not native_functions.yaml: the top level is not a list");
		yaml_document_delete(&doc);
		yaml_parser_delete(&p);
		return -1;
	}
	n_nodes = (size_t)(doc.nodes.top - doc.nodes.start);
	seen = pt_xcalloc(n_nodes + 1, 1);
	alloc = (size_t)(root->data.sequence.items.top - root->data.sequence.items.start) + 1;
	nf->v = pt_xcalloc(alloc, sizeof(*nf->v));
	for (yaml_node_item_t *it = root->data.sequence.items.start; it < root->data.sequence.items.top && !alias; it++) {
		yaml_node_t *m = node(&doc, seen, n_nodes, *it, &alias);
		struct nf_entry e = { 0 };
		const char *autogen = NULL;

		if (alias)
			break;
		if (!m || m->type != YAML_MAPPING_NODE)
			goto bad_entry;
		e.line = m->start_mark.line + 1;
		for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top && !alias; pr++) {
			const char *k = scalar(&doc, node(&doc, seen, n_nodes, pr->key, &alias));
			yaml_node_t *v = node(&doc, seen, n_nodes, pr->value, &alias);
			const char *vs = scalar(&doc, v);

			if (!k)
				continue;
			if (!strcmp(k, key) && vs && !e.func) {
				e.func = pt_xstrdup(vs);
			} else if (!strcmp(k, "structured_delegate") && vs && !e.structured_delegate) {
				e.structured_delegate = pt_xstrdup(vs);
			} else if (!strcmp(k, "ufunc_inner_loop")) {
				e.ufunc = true;
			} else if (!strcmp(k, "autogen") && vs && !autogen) {
				autogen = vs;
			} else if (!strcmp(k, "structured") && vs) {
				e.structured = !strcmp(vs, "True") || !strcmp(vs, "true");
			} else if (!strcmp(k, "dispatch") && v && v->type == YAML_MAPPING_NODE && !e.dispatch) {
				size_t n = (size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);

				e.dispatch = pt_xcalloc(n ? n : 1, sizeof(*e.dispatch));
				for (yaml_node_pair_t *q = v->data.mapping.pairs.start;
				     q < v->data.mapping.pairs.top && !alias; q++) {
					const char *dk = scalar(&doc, node(&doc, seen, n_nodes, q->key, &alias));
					const char *dv = scalar(&doc, node(&doc, seen, n_nodes, q->value, &alias));

					if (alias || !dk || !dv)
						continue;
					e.dispatch[e.n_dispatch].keys = pt_xstrdup(dk);
					e.dispatch[e.n_dispatch].kernel = pt_xstrdup(dv);
					e.n_dispatch++;
				}
			}
		}
		if (alias || !e.func)
			goto bad_entry;
		if (nf->n + 1 >= alloc) {
			alloc *= 2;
			nf->v = pt_xreallocarray(nf->v, alloc, sizeof(*nf->v));
		}
		nf->v[nf->n] = e;
		names(&nf->v[nf->n++]);
		if (autogen)
			add_autogen(nf, &alloc, autogen, nf->n - 1);
		continue;
bad_entry:
		if (!alias && ++bad <= MAX_WARN) {
			char where[32];

			pt_fmt_trunc(where, sizeof(where), "line %zu", m ? m->start_mark.line + 1 : 0);
			pt_diag_add(d, PT_SEV_WARNING, src, where, "entry without a '%s:' schema", key);
		}
		free(e.func);
		free(e.structured_delegate);
		for (size_t i = 0; i < e.n_dispatch; i++) {
			free(e.dispatch[i].keys);
			free(e.dispatch[i].kernel);
		}
		free(e.dispatch);
	}
	free(seen);
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	if (alias) {
		alias_error(buf, len, src, d);
		nativefuncs_release(nf);
		return -1;
	}
	nf->by_cpp = make_index(nf, offsetof(struct nf_entry, unambiguous));
	nf->by_native = make_index(nf, offsetof(struct nf_entry, native_name));
	nf->by_wrapper = make_index(nf, offsetof(struct nf_entry, wrapper_name));
	return 0;
}

int nativefuncs_parse(const uint8_t *buf, size_t len, struct nativefuncs *nf, const char *src,
		      struct pt_diag *d)
{
	return parse_list(buf, len, nf, src, "func", d);
}

int nativefuncs_parse_derivatives(const uint8_t *buf, size_t len, struct nativefuncs *nf, const char *src,
				  struct pt_diag *d)
{
	return parse_list(buf, len, nf, src, "name", d);
}

void nativefuncs_release(struct nativefuncs *nf)
{
	for (size_t i = 0; i < nf->n; i++) {
		struct nf_entry *e = &nf->v[i];

		free(e->func);
		free(e->name);
		free(e->unambiguous);
		free(e->autogen_of);
		free(e->native_name);
		free(e->wrapper_name);
		free(e->structured_delegate);
		for (size_t k = 0; k < e->n_dispatch; k++) {
			free(e->dispatch[k].keys);
			free(e->dispatch[k].kernel);
		}
		free(e->dispatch);
	}
	free(nf->v);
	free(nf->by_cpp);
	free(nf->by_native);
	free(nf->by_wrapper);
	memset(nf, 0, sizeof(*nf));
}

const struct nf_entry *nativefuncs_find(const struct nativefuncs *nf, const char *name)
{
	for (size_t i = 0; i < nf->n; i++)
		if (!strcmp(nf->v[i].name, name))
			return &nf->v[i];
	return NULL;
}

const struct nf_entry *nativefuncs_find_cpp(const struct nativefuncs *nf, const char *s)
{
	return find_in(nf->by_cpp, nf->n, s);
}

const struct nf_entry *nativefuncs_find_native(const struct nativefuncs *nf, const char *s)
{
	return find_in(nf->by_native, nf->n, s);
}

const struct nf_entry *nativefuncs_find_wrapper(const struct nativefuncs *nf, const char *s)
{
	return find_in(nf->by_wrapper, nf->n, s);
}

const struct nf_entry *nativefuncs_find_kernel(const struct nativefuncs *nf, const char *kernel,
					       const char **keys)
{
	for (size_t i = 0; i < nf->n; i++)
		for (size_t k = 0; k < nf->v[i].n_dispatch; k++)
			if (!strcmp(nf->v[i].dispatch[k].kernel, kernel)) {
				if (keys)
					*keys = nf->v[i].dispatch[k].keys;
				return &nf->v[i];
			}
	return NULL;
}
