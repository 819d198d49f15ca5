/* Text and JSON of `ptinspect diff`; see report_diff.h. */
#include "report_diff.h"

#include <stdbool.h>
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

static void side_text(FILE *f, const char *label, const struct snapshot *s)
{
	if (s->is_package)
		fprintf(f, "%s  %s (%s %s %s: %zu member%s, %zu shared object%s; %zu facts)\n", label, s->path,
			s->kind, s->pkg_name ? s->pkg_name : "(no name)", s->pkg_version ? s->pkg_version : "",
			s->n_members, s->n_members == 1 ? "" : "s", s->n_elf, s->n_elf == 1 ? "" : "s", s->n);
	else
		fprintf(f, "%s  %s (%s, %zu facts)\n", label, s->path, s->kind, s->n);
}

/* "key a -> b, ..." of one package section's rows, or "the same". */
static void summary_section(FILE *f, const char *label, const char *section, const struct snapshot_diff *d)
{
	size_t n = 0;
	char x[32], y[32];

	fprintf(f, "  %-15s ", label);
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_row *r = &d->v[i];

		if (strcmp(r->section, section))
			continue;
		fprintf(f, "%s%s %s -> %s", n++ ? ", " : "", r->key, val(r->a, x, sizeof(x)), val(r->b, y, sizeof(y)));
	}
	fputs(n ? "\n" : "the same\n", f);
}

/* The member a package section is about ("demo/_core.so: needed"), its length; 0 for the package's own. */
static size_t member_len(const char *section)
{
	const char *p = strstr(section, ": "), *q;

	if (!p)
		return 0;
	while ((q = strstr(p + 2, ": ")))
		p = q;
	return (size_t)(p - section);
}

/*
 * The rows of the member row i is about: contiguous (sorted by section, and its sections share
 * its prefix). Returns the end; *all_a / *all_b: the member is on that side only.
 */
static size_t member_block(const struct snapshot_diff *d, size_t i, bool *all_a, bool *all_b)
{
	const char *sec = d->v[i].section;
	size_t ml = member_len(sec), k = i;

	*all_a = *all_b = true;
	while (k < d->n && member_len(d->v[k].section) == ml && !strncmp(d->v[k].section, sec, ml)) {
		*all_a = *all_a && d->v[k].a && !d->v[k].b;
		*all_b = *all_b && d->v[k].b && !d->v[k].a;
		k++;
	}
	return k;
}

/* What differs, before the rows: two packages' metadata, members, shared objects, floor, CUDA. */
static void package_summary(FILE *f, const struct snapshot_diff *d)
{
	size_t only_a = 0, only_b = 0, changed = 0, n_obj = 0, shown = 0;

	fputs("\nsummary\n", f);
	summary_section(f, "metadata", "metadata", d);
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].section, "members")) {
			only_a += !d->v[i].b;
			only_b += !d->v[i].a;
			changed += d->v[i].a && d->v[i].b;
		}
	fprintf(f, "  %-15s ", "members");
	if (!only_a && !only_b && !changed)
		fputs("the same", f);
	else
		fprintf(f, "%zu only in A, %zu only in B", only_a, only_b);
	if (changed)
		fprintf(f, ", %zu of another kind", changed);
	fprintf(f, "\n  %-15s ", "shared objects");
	for (size_t i = 0; i < d->n;) {
		const char *sec = d->v[i].section;
		size_t ml = member_len(sec), k;
		bool all_a, all_b;

		if (!ml) {
			i++;
			continue;
		}
		k = member_block(d, i, &all_a, &all_b);
		if (shown < 8) {
			fprintf(f, "%s%.*s (", n_obj ? ", " : "", (int)ml, sec);
			if (all_a || all_b) {
				fputs(all_a ? "only in A" : "only in B", f);
			} else {
				const char *last = NULL;

				for (size_t j = i; j < k; j++) {
					const char *g = d->v[j].section + ml + 2;

					if (!last || strcmp(last, g))
						fprintf(f, "%s%s", last ? ", " : "", g);
					last = g;
				}
			}
			fputc(')', f);
			shown++;
		}
		n_obj++;
		i = k;
	}
	if (n_obj > shown)
		fprintf(f, " and %zu more", n_obj - shown);
	fputs(n_obj ? "\n" : "the same\n", f);
	summary_section(f, "floor", "floor", d);
	summary_section(f, "CUDA", "CUDA", d);
}

/* The order of two packages' sections in the text: their own, as in the summary, then the members'. */
static int section_rank(const char *section)
{
	static const char *const own[] = { "metadata", "members", "floor", "CUDA" };

	if (member_len(section))
		return 5;
	for (int k = 0; k < 4; k++)
		if (!strcmp(section, own[k]))
			return k;
	return 4;
}

static void row_text(FILE *f, const struct diff_row *r, const char **section, int c)
{
	char x[32], y[32];

	if (!*section || strcmp(*section, r->section)) {
		*section = r->section;
		fprintf(f, "\n%s%s%s\n", pt_c(c, PT_C_BOLD), r->section, pt_c(c, PT_C_RESET));
	}
	fprintf(f, "  %-34s %s%s%s  ->  %s%s%s", r->key, pt_c(c, PT_C_RED), val(r->a, x, sizeof(x)),
		pt_c(c, PT_C_RESET), pt_c(c, PT_C_GREEN), val(r->b, y, sizeof(y)), pt_c(c, PT_C_RESET));
	if (r->a && r->b && r->a->is_size && r->a->num)
		fprintf(f, "  (%+.1f%%)", 100.0 * (double)(r->b->num - r->a->num) / (double)r->a->num);
	fputc('\n', f);
}

void report_diff_text(FILE *f, const struct snapshot *a, const struct snapshot *b,
		      const struct snapshot_diff *d, const struct pt_style *st)
{
	int c = st ? st->color : 0;
	const char *section = NULL;
	bool pkg = a->is_package && b->is_package;

	side_text(f, "A", a);
	side_text(f, "B", b);
	if (pkg)
		package_summary(f, d);
	for (int rank = 0; rank < (pkg ? 5 : 1); rank++)
		for (size_t i = 0; i < d->n; i++)
			if (!pkg || section_rank(d->v[i].section) == rank)
				row_text(f, &d->v[i], &section, c);
	/* The members' rows; one on a side only is one line (its facts are in the JSON). */
	for (size_t i = 0; pkg && i < d->n;) {
		bool all_a, all_b;
		size_t k;

		if (section_rank(d->v[i].section) != 5) {
			i++;
			continue;
		}
		k = member_block(d, i, &all_a, &all_b);
		if (all_a || all_b) {
			fprintf(f, "\n%s%.*s%s\n  only in %s (%zu fact%s)\n", pt_c(c, PT_C_BOLD),
				(int)member_len(d->v[i].section), d->v[i].section, pt_c(c, PT_C_RESET),
				all_a ? "A" : "B", k - i, k - i == 1 ? "" : "s");
			section = NULL;
		} else {
			for (size_t j = i; j < k; j++)
				row_text(f, &d->v[j], &section, c);
		}
		i = k;
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
	if (s->is_package) {
		json_t *p = json_object();

		json_object_set_new(p, "name", s->pkg_name ? pt_json_str(s->pkg_name) : json_null());
		json_object_set_new(p, "version", s->pkg_version ? pt_json_str(s->pkg_version) : json_null());
		json_object_set_new(p, "members", json_integer((json_int_t)s->n_members));
		json_object_set_new(p, "shared_objects", json_integer((json_int_t)s->n_elf));
		json_object_set_new(o, "package", p);
	}
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
