/*
 * native_functions.yaml through libyaml's document loader: a sequence of
 * mappings; "func" a scalar, "dispatch" a mapping of "KEY[, KEY...]" to a
 * kernel name, "structured" a boolean scalar, "structured_delegate" a
 * scalar. Other members are ignored; entries without "func" are reported.
 *
 * YAML aliases ("- *a", "dispatch: *d") are refused: the loader keeps one
 * node for an anchor and all its aliases, but each entry here is a copy, so
 * a few hundred KB of "- *a" lines made gigabytes of copies (the second
 * reliability review's N5). torchgen's file has none. A node reached twice
 * is an alias; the event API then says where the first alias is.
 */
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

/* "add_.Tensor(...)" -> name "add_.Tensor", unambiguous "add__Tensor". */
static void names(const char *func, char **name, char **unamb)
{
	size_t n = strcspn(func, "(");
	char *dot;

	while (n && func[n - 1] == ' ')
		n--;
	*name = pt_xstrndup(func, n);
	*unamb = pt_xstrdup(*name);
	dot = strchr(*unamb, '.');
	if (dot)
		*dot = '_';
}

int nativefuncs_parse(const uint8_t *buf, size_t len, struct nativefuncs *nf, const char *src,
		      struct pt_diag *d)
{
	yaml_parser_t p;
	yaml_document_t doc;
	yaml_node_t *root;
	size_t bad = 0, n_nodes;
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
	nf->v = pt_xcalloc((size_t)(root->data.sequence.items.top - root->data.sequence.items.start) + 1,
			   sizeof(*nf->v));
	for (yaml_node_item_t *it = root->data.sequence.items.start; it < root->data.sequence.items.top && !alias; it++) {
		yaml_node_t *m = node(&doc, seen, n_nodes, *it, &alias);
		struct nf_entry e = { 0 };

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
			if (!strcmp(k, "func") && vs && !e.func) {
				e.func = pt_xstrdup(vs);
			} else if (!strcmp(k, "structured_delegate") && vs && !e.structured_delegate) {
				e.structured_delegate = pt_xstrdup(vs);
			} else if (!strcmp(k, "ufunc_inner_loop")) {
				e.ufunc = true;
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
		names(e.func, &e.name, &e.unambiguous);
		nf->v[nf->n++] = e;
		continue;
bad_entry:
		if (!alias && ++bad <= MAX_WARN) {
			char where[32];

			pt_fmt_trunc(where, sizeof(where), "line %zu", m ? m->start_mark.line + 1 : 0);
			pt_diag_add(d, PT_SEV_WARNING, src, where, "entry without a 'func:' schema");
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
	return 0;
}

void nativefuncs_release(struct nativefuncs *nf)
{
	for (size_t i = 0; i < nf->n; i++) {
		struct nf_entry *e = &nf->v[i];

		free(e->func);
		free(e->name);
		free(e->unambiguous);
		free(e->structured_delegate);
		for (size_t k = 0; k < e->n_dispatch; k++) {
			free(e->dispatch[k].keys);
			free(e->dispatch[k].kernel);
		}
		free(e->dispatch);
	}
	free(nf->v);
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
	for (size_t i = 0; i < nf->n; i++)
		if (!strcmp(nf->v[i].unambiguous, s))
			return &nf->v[i];
	return NULL;
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
