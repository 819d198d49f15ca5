/* The RPATH lint, the floor and a torch extension as text and JSON: see report_portable.h. */
#include "report_portable.h"

#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "strbuf.h"
#include "term.h"
#include "xalloc.h"

static const char *list_name(const struct rpathlint_finding *f)
{
	return f->runpath ? "RUNPATH" : "RPATH";
}

/* The summary's few words for a finding. */
static void finding_brief(char *b, size_t n, const struct rpathlint_finding *f)
{
	const char *l = list_name(f), *dir = f->dir ? f->dir : f->entry ? f->entry : "";

	switch (f->kind) {
	case RPATHLINT_EMPTY: pt_fmt_trunc(b, n, "empty %s entry", l); break;
	case RPATHLINT_RELATIVE: pt_fmt_trunc(b, n, "relative %s entry %s", l, f->entry); break;
	case RPATHLINT_BUILD_DIR: pt_fmt_trunc(b, n, "build directory %s", dir); break;
	case RPATHLINT_ABSOLUTE: pt_fmt_trunc(b, n, "absolute %s", dir); break;
	case RPATHLINT_SYSTEM: pt_fmt_trunc(b, n, "system directory %s", dir); break;
	case RPATHLINT_MISSING: pt_fmt_trunc(b, n, "%s does not exist", dir); break;
	case RPATHLINT_NO_ORIGIN: pt_fmt_trunc(b, n, "%s only through %s", f->needed, dir); break;
	case RPATHLINT_RPATH_IGNORED: pt_fmt_trunc(b, n, "DT_RPATH ignored beside DT_RUNPATH"); break;
	case RPATHLINT_LLP_FIRST: pt_fmt_trunc(b, n, "%s from LD_LIBRARY_PATH %s", f->needed, f->other); break;
	case RPATHLINT_NOT_INHERITED:
		pt_fmt_trunc(b, n, "%s needed by %s: RUNPATH is not inherited", f->needed, f->other);
		break;
	default: pt_fmt_trunc(b, n, "?");
	}
}

void report_rpathlint_summary(FILE *f, const struct rpathlint_result *r, int indent,
			      const struct pt_style *st)
{
	static const enum rpathlint_kind order[] = {
		RPATHLINT_NO_ORIGIN, RPATHLINT_NOT_INHERITED, RPATHLINT_BUILD_DIR, RPATHLINT_MISSING,
		RPATHLINT_RELATIVE, RPATHLINT_EMPTY, RPATHLINT_ABSOLUTE, RPATHLINT_RPATH_IGNORED,
		RPATHLINT_LLP_FIRST, RPATHLINT_SYSTEM,
	};
	size_t shown = 0;

	(void)st;
	if (!r->n_problems)
		return;
	fprintf(f, "%*s%-9s %zu problem%s: ", indent, "", "rpath", r->n_problems,
		r->n_problems == 1 ? "" : "s");
	/* The ones that break a load first. */
	for (size_t k = 0; k < PT_ARRAY_SIZE(order) && shown <= 3; k++)
		for (size_t i = 0; i < r->n; i++) {
			char b[512];

			if (r->v[i].sev != PT_SEV_WARNING || r->v[i].kind != order[k])
				continue;
			if (shown == 3) {
				fputs(", ...", f);
				shown++;
				break;
			}
			finding_brief(b, sizeof(b), &r->v[i]);
			fprintf(f, "%s%s", shown++ ? ", " : "", b);
		}
	fputs(" (--tree)\n", f);
}

void report_rpathlint_text(FILE *f, const struct rpathlint_result *r, int indent,
			   const struct pt_style *st)
{
	size_t notes = r->n - r->n_problems;

	if (!r->n)
		return;
	fprintf(f, "%*srpath lint: %zu problem%s, %zu note%s\n", indent, "", r->n_problems,
		r->n_problems == 1 ? "" : "s", notes, notes == 1 ? "" : "s");
	for (size_t i = 0; i < r->n; i++) {
		char b[1024];

		rpathlint_describe(&r->v[i], b, sizeof(b));
		fprintf(f, "%*s%s%s%s %s\n", indent + 2, "",
			pt_c(st->color, r->v[i].sev == PT_SEV_WARNING ? PT_C_YELLOW : PT_C_DIM),
			r->v[i].sev == PT_SEV_WARNING ? "problem" : "note   ", pt_c(st->color, PT_C_RESET), b);
	}
}

json_t *report_rpathlint_json(const struct rpathlint_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->n; i++) {
		const struct rpathlint_finding *x = &r->v[i];
		json_t *o = json_object();
		char b[1024];

		rpathlint_describe(x, b, sizeof(b));
		json_object_set_new(o, "kind", json_string(rpathlint_kind_name(x->kind)));
		json_object_set_new(o, "severity", json_string(x->sev == PT_SEV_WARNING ? "warning" : "note"));
		json_object_set_new(o, "list", json_string(x->runpath ? "runpath" : "rpath"));
		json_object_set_new(o, "entry", pt_json_str(x->entry));
		json_object_set_new(o, "dir", pt_json_str(x->dir));
		json_object_set_new(o, "needed", pt_json_str(x->needed));
		json_object_set_new(o, "other", pt_json_str(x->other));
		json_object_set_new(o, "message", json_string(b));
		json_array_append_new(a, o);
	}
	return a;
}

void report_floor_text(FILE *f, const struct verfloor *fl, const struct mlpolicy_answer *a,
		       int indent, const struct pt_style *st)
{
	bool any = false;

	fprintf(f, "%*s%-9s ", indent, "", "floor");
	for (int i = 0; i < VERFLOOR_N; i++)
		if (fl->max[i]) {
			fprintf(f, "%s%s", any ? " " : "", fl->max[i]);
			any = true;
		}
	if (!any)
		fputs(fl->musl ? "musl (no symbol versions)" : "no GLIBC, GLIBCXX, CXXABI or GCC version needed", f);
	if (a && a->implied) {
		fprintf(f, ": %s%s%s", pt_c(st->color, PT_C_BOLD), a->implied->name, pt_c(st->color, PT_C_RESET));
		if (a->implied->n_aliases)
			fprintf(f, " (%s)", a->implied->aliases[0]);
		if (a->blocking && a->implied > a->set.v)
			fprintf(f, "; %s rules out %s", a->blocking, a->implied[-1].name);
	}
	fputc('\n', f);
	for (size_t i = 0; a && i < a->n_claims; i++) {
		const struct mlpolicy_claim *c = &a->claims[i];

		fprintf(f, "%*s%-9s %s %s%s%s\n", indent, "", "tag", c->tag,
			pt_c(st->color, c->ok ? PT_C_GREEN : PT_C_RED),
			c->ok ? "holds" : c->other_arch ? "is for another architecture or libc"
			: c->unknown ? "is no manylinux/musllinux tag auditwheel knows"
			: "does NOT hold: the file needs a newer glibc or libstdc++",
			pt_c(st->color, PT_C_RESET));
	}
}

json_t *report_floor_json(const struct verfloor *fl, const struct mlpolicy_answer *a)
{
	static const char *const keys[VERFLOOR_N] = { "glibc", "glibcxx", "cxxabi", "gcc" };
	json_t *j = json_object();

	for (int i = 0; i < VERFLOOR_N; i++)
		json_object_set_new(j, keys[i], pt_json_str(fl->max[i]));
	json_object_set_new(j, "versions", pt_json_strv(fl->versions, fl->n_versions));
	json_object_set_new(j, "libc", json_string(fl->musl ? "musl" : "glibc"));
	json_object_set_new(j, "arch", pt_json_str(fl->arch));
	json_object_set_new(j, "policy", pt_json_str(a && a->implied ? a->implied->name : NULL));
	json_object_set_new(j, "aliases", a && a->implied ? pt_json_strv(a->implied->aliases,
									   a->implied->n_aliases)
							 : json_array());
	json_object_set_new(j, "blocking", pt_json_str(a ? a->blocking : NULL));
	json_object_set_new(j, "policy_source", pt_json_str(a && a->implied ? a->set.source : NULL));
	if (a && a->n_claims) {
		json_t *c = json_array();

		for (size_t i = 0; i < a->n_claims; i++) {
			json_t *o = json_object();

			json_object_set_new(o, "tag", json_string(a->claims[i].tag));
			json_object_set_new(o, "ok", json_boolean(a->claims[i].ok));
			json_object_set_new(o, "other_arch", json_boolean(a->claims[i].other_arch));
			json_object_set_new(o, "unknown", json_boolean(a->claims[i].unknown));
			json_array_append_new(c, o);
		}
		json_object_set_new(j, "claims", c);
	}
	return j;
}

static const char *abi_text(enum torchext_abi a)
{
	switch (a) {
	case TORCHEXT_ABI_CXX11: return "_GLIBCXX_USE_CXX11_ABI=1";
	case TORCHEXT_ABI_OLD: return "_GLIBCXX_USE_CXX11_ABI=0";
	case TORCHEXT_ABI_MIXED: return "both C++ ABIs (objects built both ways)";
	default: return "no std::string in its C++ names";
	}
}

void report_torchext_text(FILE *f, const struct torchext *x, const struct torchext_against *a,
			  bool details, int indent, const struct pt_style *st)
{
	if (!x->is_extension)
		return;
	fprintf(f, "%*s%-9s %zu torch symbols needed, C++ ABI %s", indent, "", "torch ext", x->n_torch_syms,
		abi_text(x->abi));
	if (x->n_torch_needed) {
		fputs("; needs", f);
		for (size_t i = 0; i < x->n_torch_needed; i++)
			fprintf(f, " %s", x->torch_needed[i]);
	}
	fputc('\n', f);
	if (details && x->pybind11_id)
		fprintf(f, "%*s%-9s %s\n", indent, "", "pybind11", x->pybind11_id);
	if (details && x->gcc)
		fprintf(f, "%*s%-9s %s\n", indent, "", "compiler", x->gcc);
	if (!a)
		return;
	fprintf(f, "%*s%-9s torch %s (%s, %zu libraries): ", indent, "", "against",
		a->version ? a->version : "of unknown version", a->torch_dir, a->n_libs);
	if (!a->n_missing) {
		fprintf(f, "%sall %zu found%s\n", pt_c(st->color, PT_C_GREEN), a->n_checked,
			pt_c(st->color, PT_C_RESET));
		return;
	}
	fprintf(f, "%s%zu of %zu missing%s", pt_c(st->color, PT_C_RED), a->n_missing, a->n_checked,
		pt_c(st->color, PT_C_RESET));
	if (a->n_twins)
		fprintf(f, ", %zu of them exported with the other C++ ABI (that torch: %s)", a->n_twins,
			abi_text(a->torch_abi));
	fprintf(f, ": %s\n", a->n_twins == a->n_missing ? "an ABI mismatch" : "built against another torch");
	for (size_t i = 0; i < a->n_missing && (details || i < 3); i++) {
		const struct torchext_missing *m = &a->missing[i];

		fprintf(f, "%*s%s%s%s%s\n", indent + 4, "", m->demangled ? m->demangled : m->name,
			m->twin ? "  [other ABI in " : "", m->twin ? m->twin_lib : "", m->twin ? "]" : "");
	}
	if (!details && a->n_missing > 3)
		fprintf(f, "%*s... and %zu more (--tree)\n", indent + 4, "", a->n_missing - 3);
}

json_t *report_torchext_json(const struct torchext *x, const struct torchext_against *a)
{
	json_t *j = json_object();

	json_object_set_new(j, "is_extension", json_boolean(x->is_extension));
	json_object_set_new(j, "torch_needed", pt_json_strv(x->torch_needed, x->n_torch_needed));
	json_object_set_new(j, "torch_symbols", json_integer((json_int_t)x->n_torch_syms));
	json_object_set_new(j, "abi", json_string(torchext_abi_name(x->abi)));
	json_object_set_new(j, "cxx11_symbols", json_integer((json_int_t)x->n_cxx11));
	json_object_set_new(j, "old_abi_symbols", json_integer((json_int_t)x->n_old));
	json_object_set_new(j, "pybind11_id", pt_json_str(x->pybind11_id));
	json_object_set_new(j, "compiler", pt_json_str(x->gcc));
	if (a) {
		json_t *o = json_object(), *m = json_array();

		json_object_set_new(o, "torch_dir", pt_json_str(a->torch_dir));
		json_object_set_new(o, "version", pt_json_str(a->version));
		json_object_set_new(o, "abi", json_string(torchext_abi_name(a->torch_abi)));
		json_object_set_new(o, "libraries", pt_json_strv(a->libs, a->n_libs));
		json_object_set_new(o, "checked", json_integer((json_int_t)a->n_checked));
		for (size_t i = 0; i < a->n_missing; i++) {
			json_t *e = json_object();

			json_object_set_new(e, "name", json_string(a->missing[i].name));
			json_object_set_new(e, "demangled", pt_json_str(a->missing[i].demangled));
			json_object_set_new(e, "twin", pt_json_str(a->missing[i].twin));
			json_object_set_new(e, "twin_library", pt_json_str(a->missing[i].twin_lib));
			json_array_append_new(m, e);
		}
		json_object_set_new(o, "missing", m);
		json_object_set_new(o, "abi_twins", json_integer((json_int_t)a->n_twins));
		json_object_set_new(j, "against", o);
	}
	return j;
}
