/* Text and JSON rendering of a package (report_package.h). */
#include "report_package.h"

#include <string.h>

#include <stdlib.h>

#include "jsonout.h"
#include "report_elf.h"
#include "report_portable.h"
#include "strbuf.h"
#include "term.h"
#include "xalloc.h"

/* The first member that gpu cannot run (CUDA_RUN_NONE), or (size_t)-1. */
static size_t first_unrunnable(const struct package *p, struct cuda_cc cc, struct cuda_verdict *out)
{
	for (size_t i = 0; i < p->n_members; i++) {
		const struct pkg_member *m = &p->members[i];
		struct cuda_verdict v;

		if (!m->cuda_read || !m->cuda.n)
			continue;
		cudaarch_verdict(&m->cuda, cc, &v);
		if (v.how == CUDA_RUN_NONE) {
			*out = v;
			return i;
		}
	}
	return (size_t)-1;
}

size_t report_package_unrunnable(const struct package *p, const struct report_package_opts *o)
{
	size_t bad = 0;
	struct cuda_verdict v;

	for (size_t g = 0; p->n_cuda && g < o->n_gpus; g++)
		bad += first_unrunnable(p, o->gpus[g], &v) != (size_t)-1;
	return bad;
}

static void list_line(FILE *f, const char *label, char *const *v, size_t n)
{
	fprintf(f, "  %-9s ", label);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", v[i]);
	fputc('\n', f);
}

static size_t count_from(const struct pkg_member *m, enum pkg_from fr)
{
	size_t n = 0;

	for (size_t k = 0; k < m->n_deps; k++)
		n += m->deps[k].from == fr;
	return n;
}

static const char *from_word(enum pkg_from f)
{
	switch (f) {
	case PKG_FROM_BUNDLED: return "bundled";
	case PKG_FROM_PRELOADED: return "loaded first";
	case PKG_FROM_REQUIREMENT: return "requirement";
	case PKG_FROM_SYSTEM: return "system";
	case PKG_FROM_ABSOLUTE: return "BUILD MACHINE";
	case PKG_FROM_MISSING: return "MISSING";
	}
	return "?";
}

void report_package_text(FILE *f, const struct package *p, const struct report_package_opts *o,
			 const struct pt_style *st)
{
	char sz[32];
	int c = st->color;

	fprintf(f, "%s%s%s: %s %s %s\n", pt_c(c, PT_C_BOLD), p->path, pt_c(c, PT_C_RESET),
		pkg_type_name(p->type), p->name ? p->name : "(no name)", p->version ? p->version : "");
	if (p->n_tags)
		list_line(f, "tags", p->tags, p->n_tags);
	if (p->n_reqs) {
		char **v = pt_xcalloc(p->n_reqs, sizeof(*v));

		for (size_t i = 0; i < p->n_reqs; i++)
			v[i] = p->reqs[i].spec;
		list_line(f, "requires", v, p->n_reqs);
		free(v);
	}
	fprintf(f, "  %-9s %zu (%s), %zu shared object%s\n", "members", p->n_members,
		report_size(sz, sizeof(sz), p->bytes), p->n_elf, p->n_elf == 1 ? "" : "s");
	fprintf(f, "  %-9s %zu bundled, %zu from requirements, %zu from the system, %s%zu missing%s",
		"NEEDED", p->n_bundled, p->n_required, p->n_system,
		p->n_missing ? pt_c(c, PT_C_RED) : "", p->n_missing, p->n_missing ? pt_c(c, PT_C_RESET) : "");
	if (p->n_absolute)
		fprintf(f, ", %s%zu from the build machine%s", pt_c(c, PT_C_RED), p->n_absolute,
			pt_c(c, PT_C_RESET));
	fputc('\n', f);
	if (p->n_elf && p->have_pol) {
		report_floor_text(f, &p->floor, &p->pol, 2, st);
		for (int k = 0; k < VERFLOOR_N; k++)
			if (p->floor_member[k] != (size_t)-1 && p->floor.max[k] && o->details)
				fprintf(f, "  %-9s %s: %s\n", "", p->floor.max[k], p->members[p->floor_member[k]].name);
	}
	if (p->n_ext)
		fprintf(f, "  %-9s %zu member%s built against torch%s\n", "extension", p->n_ext,
			p->n_ext == 1 ? "" : "s", p->n_against_missing ? " (torch symbols missing: below)" : "");
	if (p->n_cuda)
		fprintf(f, "  %-9s %zu member%s with device code; TORCH_CUDA_ARCH_LIST \"%s\" in all "
			"(the weakest: %s)\n", "CUDA", p->n_cuda, p->n_cuda == 1 ? "" : "s",
			p->arch_list ? p->arch_list : "", p->members[p->weakest].name);
	else if (!p->n_cuda_unread)
		fprintf(f, "  %-9s no device code\n", "CUDA");
	if (p->n_cuda_unread)
		fprintf(f, "  %-9s %zu large member%s with .nv_fatbin not scanned from the archive "
			"(unpack it and run ptinspect cuda)\n", p->n_cuda ? "" : "CUDA", p->n_cuda_unread,
			p->n_cuda_unread == 1 ? "" : "s");
	for (size_t g = 0; p->n_cuda && g < o->n_gpus; g++) {
		struct cuda_verdict v;
		size_t bad = first_unrunnable(p, o->gpus[g], &v);

		if (bad == (size_t)-1)
			fprintf(f, "  --gpu %-4s every member with device code runs on it\n", o->gpu_args[g]);
		else
			fprintf(f, "  --gpu %-4s %sCANNOT RUN%s: %s has no code for it\n", o->gpu_args[g],
				pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET), p->members[bad].name);
	}
	if (p->n_lint)
		fprintf(f, "  %-9s %s%zu problem%s%s in RPATH/RUNPATH entries (--tree for each member)\n", "rpath",
			pt_c(c, PT_C_RED), p->n_lint, p->n_lint == 1 ? "" : "s", pt_c(c, PT_C_RESET));
	/* The shared objects: those with problems in the summary (10 at most), all with details. */
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < p->n_members; i++) {
		const struct pkg_member *m = &p->members[i];
		bool bad = count_from(m, PKG_FROM_MISSING) || count_from(m, PKG_FROM_ABSOLUTE) ||
			   m->lint.n_problems || (m->have_against && m->against.n_missing);

		if (!m->is_elf)
			continue;
		if (!o->details && !bad)
			continue;
		if (!o->details && shown == 10) {
			more++;
			continue;
		}
		shown++;
		fprintf(f, "  %s%s%s", pt_c(c, PT_C_BOLD), m->name, pt_c(c, PT_C_RESET));
		if (m->elf.soname && o->details)
			fprintf(f, " (SONAME %s)", m->elf.soname);
		if (m->arch_list && o->details)
			fprintf(f, " [CUDA %s]", m->arch_list);
		fputc('\n', f);
		if (o->details && m->elf.rpath)
			fprintf(f, "      RPATH   %s%s\n", m->elf.rpath, m->elf.runpath ? " (ignored: RUNPATH is set)" : "");
		if (o->details && m->elf.runpath)
			fprintf(f, "      RUNPATH %s\n", m->elf.runpath);
		if (o->details && m->implied) {
			struct mlpolicy_answer a = { .set = p->pol.set, .implied = m->implied, .blocking = m->blocking };

			report_floor_text(f, &m->floor, &a, 4, st);
		} else if (o->details) {
			report_floor_text(f, &m->floor, NULL, 4, st);
		}
		if (o->details)
			report_rpathlint_text(f, &m->lint, 4, st);
		else
			report_rpathlint_summary(f, &m->lint, 4, st);
		if (m->have_ext && m->ext.is_extension && (o->details || (m->have_against && m->against.n_missing)))
			report_torchext_text(f, &m->ext, m->have_against ? &m->against : NULL, o->details, 4, st);
		for (size_t k = 0; k < m->n_deps; k++) {
			const struct pkg_dep *d = &m->deps[k];
			bool wrong = d->from == PKG_FROM_MISSING || d->from == PKG_FROM_ABSOLUTE;

			if (!o->details && !wrong)
				continue;
			fprintf(f, "    %-28s %s%-13s%s %s%s%s%s\n", d->name, wrong ? pt_c(c, PT_C_RED) : "",
				from_word(d->from), wrong ? pt_c(c, PT_C_RESET) : "", d->where ? d->where : "",
				d->via ? " (" : "", d->via ? d->via : "", d->via ? ")" : "");
			if (d->hint)
				fprintf(f, "    %-28s %s\n", "", d->hint);
		}
	}
	if (more)
		fprintf(f, "  ... and %zu more shared object%s with problems (--tree)\n", more, more == 1 ? "" : "s");
}

static json_t *jstr_or_null(const char *s)
{
	return s ? pt_json_str(s) : json_null();
}

json_t *report_package_json(const struct package *p, const struct report_package_opts *o)
{
	json_t *j = json_object(), *reqs = json_array(), *objs = json_array(), *cuda = json_object();

	json_object_set_new(j, "path", pt_json_str(p->path));
	json_object_set_new(j, "type", pt_json_str(pkg_type_name(p->type)));
	json_object_set_new(j, "name", jstr_or_null(p->name));
	json_object_set_new(j, "version", jstr_or_null(p->version));
	json_object_set_new(j, "tags", pt_json_strv(p->tags, p->n_tags));
	json_object_set_new(j, "generator", jstr_or_null(p->generator));
	for (size_t i = 0; i < p->n_reqs; i++) {
		json_t *r = json_object();

		json_object_set_new(r, "spec", pt_json_str(p->reqs[i].spec));
		json_object_set_new(r, "name", pt_json_str(p->reqs[i].name));
		json_array_append_new(reqs, r);
	}
	json_object_set_new(j, "requires", reqs);
	json_object_set_new(j, "members", json_integer((json_int_t)p->n_members));
	json_object_set_new(j, "bytes", json_integer((json_int_t)p->bytes));
	for (size_t i = 0; i < p->n_members; i++) {
		const struct pkg_member *m = &p->members[i];
		json_t *oj, *needed;

		if (!m->is_elf)
			continue;
		oj = json_object();
		needed = json_array();
		json_object_set_new(oj, "member", pt_json_str(m->name));
		json_object_set_new(oj, "installed", pt_json_str(m->installed));
		json_object_set_new(oj, "size", json_integer((json_int_t)m->size));
		json_object_set_new(oj, "read_whole", json_boolean(m->elf_whole));
		json_object_set_new(oj, "soname", jstr_or_null(m->elf.soname));
		json_object_set_new(oj, "rpath", jstr_or_null(m->elf.rpath));
		json_object_set_new(oj, "runpath", jstr_or_null(m->elf.runpath));
		for (size_t k = 0; k < m->n_deps; k++) {
			const struct pkg_dep *d = &m->deps[k];
			json_t *dj = json_object();

			json_object_set_new(dj, "name", pt_json_str(d->name));
			json_object_set_new(dj, "from", pt_json_str(pkg_from_name(d->from)));
			json_object_set_new(dj, "where", jstr_or_null(d->where));
			json_object_set_new(dj, "via", jstr_or_null(d->via));
			json_object_set_new(dj, "hint", jstr_or_null(d->hint));
			json_array_append_new(needed, dj);
		}
		json_object_set_new(oj, "needed", needed);
		json_object_set_new(oj, "cuda_arch_list", jstr_or_null(m->arch_list));
		if (m->implied) {
			struct mlpolicy_answer a = { .set = p->pol.set, .implied = m->implied, .blocking = m->blocking };

			json_object_set_new(oj, "floor", report_floor_json(&m->floor, &a));
		} else {
			json_object_set_new(oj, "floor", report_floor_json(&m->floor, NULL));
		}
		json_object_set_new(oj, "rpath_lint", report_rpathlint_json(&m->lint));
		if (m->have_ext && m->ext.is_extension)
			json_object_set_new(oj, "torch_extension",
					    report_torchext_json(&m->ext, m->have_against ? &m->against : NULL));
		json_array_append_new(objs, oj);
	}
	json_object_set_new(j, "shared_objects", objs);
	json_object_set_new(j, "platform_tag", jstr_or_null(p->platform_tag));
	if (p->n_elf)
		json_object_set_new(j, "floor", report_floor_json(&p->floor, p->have_pol ? &p->pol : NULL));
	json_object_set_new(j, "counts", json_pack("{s:I,s:I,s:I,s:I,s:I}",
						   "bundled", (json_int_t)p->n_bundled,
						   "requirement", (json_int_t)p->n_required,
						   "system", (json_int_t)p->n_system,
						   "absolute", (json_int_t)p->n_absolute,
						   "missing", (json_int_t)p->n_missing));
	json_object_set_new(cuda, "members_with_code", json_integer((json_int_t)p->n_cuda));
	json_object_set_new(cuda, "members_not_scanned", json_integer((json_int_t)p->n_cuda_unread));
	json_object_set_new(cuda, "arch_list", jstr_or_null(p->arch_list));
	json_object_set_new(cuda, "weakest", p->weakest != (size_t)-1 ?
			    pt_json_str(p->members[p->weakest].name) : json_null());
	if (o->n_gpus) {
		json_t *gv = json_array();

		for (size_t g = 0; g < o->n_gpus; g++) {
			struct cuda_verdict v;
			size_t bad = p->n_cuda ? first_unrunnable(p, o->gpus[g], &v) : (size_t)-1;

			json_array_append_new(gv, json_pack("{s:s,s:b,s:o}", "gpu", o->gpu_args[g],
							    "runs", bad == (size_t)-1,
							    "blocked_by", bad == (size_t)-1 ? json_null() :
							    pt_json_str(p->members[bad].name)));
		}
		json_object_set_new(cuda, "gpus", gv);
	}
	json_object_set_new(j, "cuda", cuda);
	return j;
}
