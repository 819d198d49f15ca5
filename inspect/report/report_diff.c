/* Text and JSON of `ptinspect diff`; see report_diff.h. */
#include "report_diff.h"

#include <string.h>

#include "jsonout.h"
#include "term.h"
#include "report_elf.h"

static const char *val(const struct snap_item *it, char *buf, size_t n)
{
	if (!it)
		return "(absent)";
	if (it->is_size)
		return report_size(buf, n, (unsigned long long)it->num);
	return it->value;
}

void report_diff_text(FILE *f, const struct snapshot *a, const struct snapshot *b,
		      const struct snapshot_diff *d, const struct pt_style *st)
{
	int c = st ? st->color : 0;
	const char *section = NULL;
	char x[32], y[32];

	fprintf(f, "A  %s (%s, %zu facts)\nB  %s (%s, %zu facts)\n", a->path, a->kind, a->n, b->path, b->kind, b->n);
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_row *r = &d->v[i];

		if (!section || strcmp(section, r->section)) {
			section = r->section;
			fprintf(f, "\n%s%s%s\n", pt_c(c, PT_C_BOLD), section, pt_c(c, PT_C_RESET));
		}
		fprintf(f, "  %-34s %s%s%s  ->  %s%s%s", r->key, pt_c(c, PT_C_RED), val(r->a, x, sizeof(x)),
			pt_c(c, PT_C_RESET), pt_c(c, PT_C_GREEN), val(r->b, y, sizeof(y)), pt_c(c, PT_C_RESET));
		if (r->a && r->b && r->a->is_size && r->a->num)
			fprintf(f, "  (%+.1f%%)", 100.0 * (double)(r->b->num - r->a->num) / (double)r->a->num);
		fputc('\n', f);
	}
	fprintf(f, "\n%zu difference%s, %zu equal\n", d->n, d->n == 1 ? "" : "s", d->n_equal);
}

static json_t *item_json(const struct snap_item *it)
{
	if (!it)
		return json_null();
	if (it->is_size)
		return json_integer(it->num);
	return pt_json_str(it->value);
}

static json_t *side_json(const struct snapshot *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "path", pt_json_str(s->path));
	json_object_set_new(o, "kind", pt_json_str(s->kind));
	json_object_set_new(o, "facts", json_integer((json_int_t)s->n));
	return o;
}

json_t *report_diff_json(const struct snapshot *a, const struct snapshot *b, const struct snapshot_diff *d)
{
	json_t *j = json_object(), *rows = json_array();

	json_object_set_new(j, "a", side_json(a));
	json_object_set_new(j, "b", side_json(b));
	for (size_t i = 0; i < d->n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "section", pt_json_str(d->v[i].section));
		json_object_set_new(o, "key", pt_json_str(d->v[i].key));
		json_object_set_new(o, "a", item_json(d->v[i].a));
		json_object_set_new(o, "b", item_json(d->v[i].b));
		json_array_append_new(rows, o);
	}
	json_object_set_new(j, "differences", rows);
	json_object_set_new(j, "equal", json_integer((json_int_t)d->n_equal));
	return j;
}
