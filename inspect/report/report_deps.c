/* The dependency report as text and JSON; see report_deps.h. */
#include "report_deps.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "strbuf.h"
#include "term.h"
#include "xalloc.h"

#define NONE ((size_t)-1)

/* libtree's labels, with the requester for inherited RPATHs. */
static const char *label(const struct resolve_dep *d)
{
	switch (d->found_by) {
	case FOUND_DIRECT: return "direct";
	case FOUND_RPATH: return "rpath";
	case FOUND_RPATH_OF_LOADER: return "rpath of loader";
	case FOUND_LD_LIBRARY_PATH: return "LD_LIBRARY_PATH";
	case FOUND_RUNPATH: return "runpath";
	case FOUND_LD_SO_CACHE: return "ld.so.cache";
	case FOUND_DEFAULT: return "default path";
	case FOUND_ALREADY_LOADED: return "already loaded";
	default: return "not found";
	}
}

static const char *short_name(const struct resolve_obj *o)
{
	const char *s = strrchr(o->path, '/');

	return s ? s + 1 : o->path;
}

static void print_missing(FILE *f, const char *indent, const struct resolve_dep *d, int c)
{
	fprintf(f, "%s    %spaths considered, in order:%s\n", indent, pt_c(c, PT_C_DIM),
		pt_c(c, PT_C_RESET));
	for (size_t i = 0; i < d->n_tried; i++) {
		const struct resolve_try *t = &d->tried[i];

		fprintf(f, "%s      %zu. %s [%s]%s%s\n", indent, i + 1, t->path,
			resolve_found_by_name(t->from), t->why_skipped ? ": " : "",
			t->why_skipped ? t->why_skipped : "");
	}
}

struct walker {
	FILE *f;
	const struct resolve_result *r;
	const struct deps_view *v;
	int c;
	char prefix[512];
};

static void print_edge_line(struct walker *w, const char *branch, const struct resolve_dep *d)
{
	const struct resolve_result *r = w->r;
	int c = w->c;

	fprintf(w->f, "  %s%s", w->prefix, branch);
	if (d->obj == NONE) {
		fprintf(w->f, "%s%s not found%s\n", pt_c(c, PT_C_RED), d->name, pt_c(c, PT_C_RESET));
		return;
	}
	const struct resolve_obj *o = &r->objs[d->obj];
	fprintf(w->f, "%s%s%s %s[%s]%s", pt_c(c, PT_C_BOLD), d->name, pt_c(c, PT_C_RESET),
		pt_c(c, PT_C_CYAN), label(d), pt_c(c, PT_C_RESET));
	if (d->found_by != FOUND_ALREADY_LOADED)
		fprintf(w->f, " %s", o->path);
	if (d->fragile)
		fprintf(w->f, " %sfragile: found only because %s loaded it first%s",
			pt_c(c, PT_C_YELLOW),
			o->loader != NONE ? short_name(&r->objs[o->loader]) : "the loader",
			pt_c(c, PT_C_RESET));
	if (d->via_dlopen)
		fprintf(w->f, " (dlopen)");
	fputc('\n', w->f);
}

static bool shown_edge(const struct walker *w, const struct resolve_dep *d)
{
	return w->v->verbose || d->found_by != FOUND_ALREADY_LOADED || d->fragile ||
	       d->n_missing_versions;
}

/* The lines under one edge: how it was searched for, its missing versions. */
static void print_edge_notes(struct walker *w, const struct resolve_dep *d)
{
	if (d->obj == NONE) {
		char ind[600];

		pt_fmt_trunc(ind, sizeof(ind), "  %s", w->prefix);
		print_missing(w->f, ind, d, w->c);
	}
	for (size_t k = 0; k < d->n_missing_versions; k++)
		fprintf(w->f, "  %s    %sversion `%s' not found%s\n", w->prefix,
			pt_c(w->c, PT_C_RED), d->missing_versions[k], pt_c(w->c, PT_C_RESET));
	if (d->no_version_info)
		fprintf(w->f, "  %s    %sno version information available%s\n", w->prefix,
			pt_c(w->c, PT_C_YELLOW), pt_c(w->c, PT_C_RESET));
}

/* One level of the walk: an object and the next of its shown edges. */
struct frame {
	size_t obj, next, shown, n;	/* next: index into the object's edge list */
	size_t plen;			/* w->prefix length at this level */
};

/*
 * The tree, depth first, with an explicit stack: a chain of any depth (see
 * fault-matrix.md B11: 11,400 levels overflowed the C stack) costs
 * memory on the heap, and each edge is visited once (edges are grouped by
 * the object that needs them first, not searched for at every level).
 */
static void walk(struct walker *w)
{
	const struct resolve_result *r = w->r;
	size_t *start = pt_xcalloc(r->n_objs + 1, sizeof(*start));
	size_t *edges = pt_xcalloc(r->n_deps + 1, sizeof(*edges));
	size_t *fill = pt_xcalloc(r->n_objs + 1, sizeof(*fill));
	struct frame *st = NULL;
	size_t depth = 0, alloc = 0;

	/* Shown edges by requester, in their original order (a counting sort). */
	for (size_t i = 0; i < r->n_deps; i++)
		if (r->deps[i].needed_by < r->n_objs && shown_edge(w, &r->deps[i]))
			start[r->deps[i].needed_by + 1]++;
	for (size_t o = 0; o < r->n_objs; o++)
		start[o + 1] += start[o];
	for (size_t i = 0; i < r->n_deps; i++)
		if (r->deps[i].needed_by < r->n_objs && shown_edge(w, &r->deps[i]))
			edges[start[r->deps[i].needed_by] + fill[r->deps[i].needed_by]++] = i;
	free(fill);

	PT_GROW(st, depth, alloc);
	st[depth++] = (struct frame){ .obj = 0, .n = start[1] - start[0], .plen = 0 };
	while (depth) {
		struct frame *fr = &st[depth - 1];
		size_t i, plen;
		const struct resolve_dep *d;
		bool last;

		w->prefix[fr->plen] = '\0';
		if (fr->next == fr->n) {
			depth--;
			continue;
		}
		i = edges[start[fr->obj] + fr->next++];
		d = &r->deps[i];
		last = ++fr->shown == fr->n;
		print_edge_line(w, last ? "└── " : "├── ", d);
		plen = strlen(w->prefix);
		if (plen + 8 < sizeof(w->prefix))
			strcat(w->prefix, last ? "    " : "│   ");
		print_edge_notes(w, d);
		/* A subtree is printed once, under the edge that loaded it. */
		if (d->obj != NONE && r->objs[d->obj].first_dep == i &&
		    (!w->v->max_depth || depth < (size_t)w->v->max_depth)) {
			size_t obj = d->obj;

			PT_GROW(st, depth, alloc);
			st[depth++] = (struct frame){ .obj = obj, .n = start[obj + 1] - start[obj],
						      .plen = strlen(w->prefix) };
		}
	}
	free(st);
	free(start);
	free(edges);
}

void report_deps_text(FILE *f, const struct resolve_result *r, const struct deps_view *v,
		      const struct pt_style *st)
{
	size_t loaded = 0;
	int c = st->color;

	for (size_t i = 1; i < r->n_objs; i++)
		loaded += !r->objs[i].is_interp || r->objs[i].n_names;
	fprintf(f, "  dependencies: %zu loaded, %s%zu missing%s, %s%zu with unmet versions%s\n", loaded,
		pt_c(c && r->n_missing, PT_C_RED), r->n_missing, pt_c(c && r->n_missing, PT_C_RESET),
		pt_c(c && r->n_unmet, PT_C_RED), r->n_unmet, pt_c(c && r->n_unmet, PT_C_RESET));
	if (v->flat) {
		for (size_t i = 0; i < r->n_deps; i++) {
			const struct resolve_dep *d = &r->deps[i];

			if (d->found_by == FOUND_ALREADY_LOADED && !v->verbose && !d->fragile &&
			    !d->n_missing_versions)
				continue;
			fprintf(f, "  %s => %s [%s] (needed by %s)\n", d->name,
				d->obj == NONE ? "not found" : r->objs[d->obj].path, label(d),
				r->objs[d->needed_by].path);
			if (d->obj == NONE)
				print_missing(f, "  ", d, c);
			for (size_t k = 0; k < d->n_missing_versions; k++)
				fprintf(f, "      version `%s' not found\n", d->missing_versions[k]);
		}
		return;
	}
	struct walker w = { .f = f, .r = r, .v = v, .c = c };
	fprintf(f, "  %s%s%s\n", pt_c(c, PT_C_BOLD), short_name(&r->objs[0]), pt_c(c, PT_C_RESET));
	walk(&w);
}

json_t *report_deps_json(const struct resolve_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->n_deps; i++) {
		const struct resolve_dep *d = &r->deps[i];
		const struct resolve_obj *o = d->obj == NONE ? NULL : &r->objs[d->obj];
		json_t *j = json_object(), *mv = json_array();

		json_object_set_new(j, "name", pt_json_str(d->name));
		json_object_set_new(j, "path", pt_json_str(o ? o->path : NULL));
		json_object_set_new(j, "realpath", pt_json_str(o ? o->realpath : NULL));
		json_object_set_new(j, "found_by", pt_json_str(resolve_found_by_name(d->found_by)));
		json_object_set_new(j, "dir", pt_json_str(d->dir));
		json_object_set_new(j, "needed_by", pt_json_str(r->objs[d->needed_by].path));
		json_object_set_new(j, "depth", json_integer(r->objs[d->needed_by].depth + 1));
		json_object_set_new(j, "loaded_here", json_boolean(o && o->first_dep == i));
		json_object_set_new(j, "fragile", json_boolean(d->fragile));
		json_object_set_new(j, "via_dlopen", json_boolean(d->via_dlopen));
		for (size_t k = 0; k < d->n_missing_versions; k++)
			json_array_append_new(mv, pt_json_str(d->missing_versions[k]));
		json_object_set_new(j, "missing_versions", mv);
		json_object_set_new(j, "no_version_info", json_boolean(d->no_version_info));
		if (!o) {
			json_t *t = json_array();

			for (size_t k = 0; k < d->n_tried; k++) {
				json_t *e = json_object();
				json_object_set_new(e, "path", pt_json_str(d->tried[k].path));
				json_object_set_new(e, "from", pt_json_str(resolve_found_by_name(d->tried[k].from)));
				json_object_set_new(e, "skipped", pt_json_str(d->tried[k].why_skipped));
				json_array_append_new(t, e);
			}
			json_object_set_new(j, "searched", t);
		}
		json_array_append_new(a, j);
	}
	return a;
}

/* Where an object lies: its path without the last component ("." for a bare name). */
static size_t dir_len(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? (size_t)(s - path) : 0;
}

/* A direct edge's group: how it was found and the directory it came from. */
static bool same_group(const struct resolve_result *r, const struct resolve_dep *a,
		       const struct resolve_dep *b)
{
	const char *pa, *pb;
	size_t la, lb;

	if (label(a) != label(b) || (a->obj == NONE) != (b->obj == NONE))
		return false;
	if (a->obj == NONE)
		return true;
	pa = r->objs[a->obj].path;
	pb = r->objs[b->obj].path;
	la = dir_len(pa);
	lb = dir_len(pb);
	return la == lb && !memcmp(pa, pb, la);
}

#define SUMMARY_WIDTH 100	/* where the name lists wrap */

/* The direct NEEDED entries, one group per (how, directory), names wrapped under it. */
static void summary_direct(FILE *f, const struct resolve_result *r, int c)
{
	size_t n = 0, *v = pt_xcalloc(r->n_deps + 1, sizeof(*v));
	bool *done = pt_xcalloc(r->n_deps + 1, sizeof(*done));

	for (size_t i = 0; i < r->n_deps; i++)
		if (r->deps[i].needed_by == 0 && !r->deps[i].via_dlopen)
			v[n++] = i;
	for (size_t g = 0; g < n; g++) {
		const struct resolve_dep *head = &r->deps[v[g]];
		size_t col;

		if (done[g])
			continue;
		if (head->obj == NONE) {
			fprintf(f, "    %snot found%s:", pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET));
			col = 14;
		} else {
			const char *p = r->objs[head->obj].path;
			size_t dl = dir_len(p);

			fprintf(f, "    %s[%s]%s %.*s:", pt_c(c, PT_C_CYAN), label(head), pt_c(c, PT_C_RESET),
				(int)(dl ? dl : 1), dl ? p : p[0] == '/' ? "/" : ".");
			col = 4 + strlen(label(head)) + 3 + (dl ? dl : 1) + 1;
		}
		for (size_t k = g; k < n; k++) {
			const struct resolve_dep *d = &r->deps[v[k]];
			size_t len = strlen(d->name) + 1;

			if (done[k] || !same_group(r, head, d))
				continue;
			done[k] = true;
			if (col + len > SUMMARY_WIDTH && col > 6) {
				fputs("\n     ", f);
				col = 5;
			}
			fprintf(f, " %s", d->name);
			col += len;
		}
		fputc('\n', f);
	}
	free(done);
	free(v);
}

/* "FILE -> A -> B": the objects that loaded obj, from the file given down to obj. */
static void print_chain(FILE *f, const struct resolve_result *r, size_t obj)
{
	size_t depth = 0, *up;

	for (size_t o = obj; o != NONE && o < r->n_objs && depth <= r->n_objs; o = r->objs[o].loader)
		depth++;
	up = pt_xcalloc(depth + 1, sizeof(*up));
	depth = 0;
	for (size_t o = obj; o != NONE && o < r->n_objs && depth <= r->n_objs; o = r->objs[o].loader)
		up[depth++] = o;
	for (size_t i = depth; i-- > 0;)
		fprintf(f, "%s%s", short_name(&r->objs[up[i]]), i ? " -> " : "");
	free(up);
}

/* What is wrong with an edge, worst first; 0 nothing. */
static int problem_kind(const struct resolve_dep *d)
{
	if (d->obj == NONE)
		return 1;
	if (d->n_missing_versions)
		return 2;
	if (d->no_version_info)
		return 3;
	return d->fragile ? 4 : 0;
}

/* Edges with the same problem: same kind, name and provider; then in tree order. */
static int cmp_problem(const void *a, const void *b, void *ctx)
{
	const struct resolve_result *r = ctx;
	const struct resolve_dep *x = &r->deps[*(const size_t *)a], *y = &r->deps[*(const size_t *)b];
	int k = problem_kind(x) - problem_kind(y);

	if (k)
		return k;
	if ((k = strcmp(x->name, y->name)))
		return k;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* One problem: what, then the chain from the file given to the edge that has it. */
static void problem_line(FILE *f, const struct resolve_result *r, size_t i, size_t more, int c)
{
	const struct resolve_dep *d = &r->deps[i];
	int kind = problem_kind(d);

	fprintf(f, "    %s", pt_c(c, kind <= 2 ? PT_C_RED : PT_C_YELLOW));
	if (kind == 1) {
		fprintf(f, "%s not found", d->name);
	} else if (kind == 2) {
		fprintf(f, "%s: version%s", d->name, d->n_missing_versions == 1 ? "" : "s");
		for (size_t k = 0; k < d->n_missing_versions; k++)
			fprintf(f, " `%s'", d->missing_versions[k]);
		fprintf(f, " not found in %s [%s]", r->objs[d->obj].path, label(d));
	} else if (kind == 3) {
		fprintf(f, "%s: no version information available (%s)", d->name, r->objs[d->obj].path);
	} else {
		const struct resolve_obj *o = &r->objs[d->obj];

		fprintf(f, "%s fragile: found only because %s loaded it first", d->name,
			o->loader != NONE ? short_name(&r->objs[o->loader]) : "the loader");
	}
	fprintf(f, "%s: ", pt_c(c, PT_C_RESET));
	print_chain(f, r, d->needed_by);
	fprintf(f, " -> %s", d->name);
	if (kind == 1)
		fprintf(f, " (%zu place%s tried", d->n_tried, PT_PLURAL(d->n_tried));
	if (more)
		fprintf(f, "%s%zu more object%s need%s it", kind == 1 ? "; " : " (", more, PT_PLURAL(more),
			more == 1 ? "s" : "");
	if (kind == 1 || more)
		fputs(": --tree)", f);
	fputc('\n', f);
}

/*
 * One line per problem of the whole tree, with the chain that leads to it;
 * the same problem met from several objects (a library missing for all who
 * need it) is one line that counts the others.
 */
static void summary_problems(FILE *f, const struct resolve_result *r, int c)
{
	size_t n = 0, ng = 0, *v = pt_xcalloc(r->n_deps + 1, sizeof(*v));
	size_t *first = pt_xcalloc(r->n_deps + 1, sizeof(*first));
	size_t *count = pt_xcalloc(r->n_deps + 1, sizeof(*count));

	for (size_t i = 0; i < r->n_deps; i++)
		if (problem_kind(&r->deps[i]))
			v[n++] = i;
	qsort_r(v, n, sizeof(*v), cmp_problem, (void *)r);
	for (size_t i = 0; i < n; i++) {
		const struct resolve_dep *d = &r->deps[v[i]], *p = i ? &r->deps[v[i - 1]] : NULL;

		if (!p || problem_kind(p) != problem_kind(d) || strcmp(p->name, d->name) || p->obj != d->obj)
			first[ng++] = i;
	}
	/* first[] holds positions in v; turn them into edge indexes, in tree order. */
	for (size_t g = 0; g < ng; g++) {
		size_t pos = first[g], end = g + 1 < ng ? first[g + 1] : n;

		first[g] = v[pos];
		count[v[pos]] = end - pos - 1;
	}
	qsort(first, ng, sizeof(*first), cmp_size);
	if (ng)
		fprintf(f, "  problems in the tree:\n");
	for (size_t g = 0; g < ng; g++)
		problem_line(f, r, first[g], count[first[g]], c);
	free(count);
	free(first);
	free(v);
}

void report_deps_summary_text(FILE *f, const struct resolve_result *r, const struct pt_style *st)
{
	size_t loaded = 0, direct = 0, indirect = 0;
	int c = st->color;

	for (size_t i = 1; i < r->n_objs; i++) {
		const struct resolve_obj *o = &r->objs[i];

		if (o->is_interp && !o->n_names)
			continue;
		loaded++;
		if (o->first_dep != NONE && o->first_dep < r->n_deps && r->deps[o->first_dep].needed_by != 0)
			indirect++;
	}
	for (size_t i = 0; i < r->n_deps; i++)
		direct += r->deps[i].needed_by == 0 && !r->deps[i].via_dlopen;
	fprintf(f, "  dependencies: %zu loaded, %s%zu missing%s, %s%zu with unmet versions%s\n", loaded,
		pt_c(c && r->n_missing, PT_C_RED), r->n_missing, pt_c(c && r->n_missing, PT_C_RESET),
		pt_c(c && r->n_unmet, PT_C_RED), r->n_unmet, pt_c(c && r->n_unmet, PT_C_RESET));
	fprintf(f, "  NEEDED    %zu direct, %zu indirect", direct, indirect);
	if (indirect || r->n_missing || r->n_unmet)
		fprintf(f, " (the tree: --tree)");
	fputc('\n', f);
	summary_direct(f, r, c);
	summary_problems(f, r, c);
}
