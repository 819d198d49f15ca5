/* The dependency report as text and JSON; see report_deps.h. */
#include "report_deps.h"

#include <stdbool.h>
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
 * The tree, depth first, with an explicit stack: a chain of any depth (the
 * reliability review's B11: 11,400 levels overflowed the C stack) costs
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
