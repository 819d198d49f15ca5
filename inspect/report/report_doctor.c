/* The import diagnosis and the binding check, rendered; see report_doctor.h. */
#include "report_doctor.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "term.h"
#include "xalloc.h"

char *report_demangle(const char *mangled)
{
	char *d = strncmp(mangled, "_Z", 2) ? NULL
		  : cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE | DMGL_TYPES);

	return d ? d : pt_xstrdup(mangled);
}

static const char *base_of(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

static void sym_line(FILE *f, int indent, char *const *paths, const struct bindcheck_undef *u)
{
	char *dm = report_demangle(u->name);

	fprintf(f, "%*s%s", indent, "", dm);
	if (strcmp(dm, u->name))
		fprintf(f, "  (%s)", u->name);
	if (u->version)
		fprintf(f, "  version %s%s%s", u->version, u->version_file ? " from " : "",
			u->version_file ? u->version_file : "");
	if (u->torch_gone)
		fputs("  [not exported by the loaded torch]", f);
	fputc('\n', f);
	if (u->twin) {
		char *td = report_demangle(u->twin);

		fprintf(f, "%*s_GLIBCXX_USE_CXX11_ABI mismatch: %s was built with "
			   "_GLIBCXX_USE_CXX11_ABI=%d (%s); %s defines it with =%d: %s\n", indent + 2, "",
			base_of(paths[u->obj]), u->user_cxx11,
			u->user_cxx11 ? "std::__cxx11::basic_string, the new ABI" : "std::string, the old ABI",
			base_of(paths[u->twin_obj]), !u->user_cxx11, td);
		free(td);
	}
	free(dm);
}

void report_bindcheck_text(FILE *f, char *const *paths, const struct bindcheck_result *b,
			   size_t max_syms, int indent, const struct pt_style *st)
{
	for (size_t i = 0; i < b->n;) {
		size_t k = i;

		while (k < b->n && b->v[k].obj == b->v[i].obj)
			k++;
		fprintf(f, "%*s%s%s%s: %zu undefined symbol%s\n", indent, "", pt_c(st->color, PT_C_BOLD),
			paths[b->v[i].obj], pt_c(st->color, PT_C_RESET), k - i, k - i == 1 ? "" : "s");
		for (size_t j = i; j < k && (!max_syms || j - i < max_syms); j++)
			sym_line(f, indent + 2, paths, &b->v[j]);
		if (max_syms && k - i > max_syms)
			fprintf(f, "%*s... %zu more (ptinspect undefined %s lists all)\n", indent + 2, "",
				k - i - max_syms, paths[b->v[i].obj]);
		i = k;
	}
}

json_t *report_bindcheck_json(char *const *paths, size_t n_paths, const struct bindcheck_result *b)
{
	json_t *j = json_object(), *objs = json_array(), *scope = json_array();

	for (size_t i = 0; i < n_paths; i++)
		json_array_append_new(scope, pt_json_str(paths[i]));
	for (size_t i = 0; i < b->n;) {
		size_t k = i;
		json_t *o = json_object(), *syms = json_array();

		while (k < b->n && b->v[k].obj == b->v[i].obj)
			k++;
		for (size_t x = i; x < k; x++) {
			json_t *s = json_object();
			char *dm = report_demangle(b->v[x].name);

			json_object_set_new(s, "symbol", pt_json_str(b->v[x].name));
			json_object_set_new(s, "demangled", pt_json_str(dm));
			json_object_set_new(s, "version", b->v[x].version ? pt_json_str(b->v[x].version) : json_null());
			json_object_set_new(s, "version_from", b->v[x].version_file ? pt_json_str(b->v[x].version_file)
										  : json_null());
			if (b->v[x].twin) {
				json_t *t = json_object();

				json_object_set_new(t, "symbol", pt_json_str(b->v[x].twin));
				json_object_set_new(t, "defined_by", pt_json_str(paths[b->v[x].twin_obj]));
				json_object_set_new(t, "user_cxx11_abi", json_integer(b->v[x].user_cxx11));
				json_object_set_new(t, "definer_cxx11_abi", json_integer(!b->v[x].user_cxx11));
				json_object_set_new(s, "abi_mismatch", t);
			} else {
				json_object_set_new(s, "abi_mismatch", json_null());
			}
			json_object_set_new(s, "torch_not_exported", json_boolean(b->v[x].torch_gone));
			json_array_append_new(syms, s);
			free(dm);
		}
		json_object_set_new(o, "file", pt_json_str(paths[b->v[i].obj]));
		json_object_set_new(o, "undefined", syms);
		json_array_append_new(objs, o);
		i = k;
	}
	json_object_set_new(j, "scope", scope);
	json_object_set_new(j, "references_checked", json_integer((json_int_t)b->n_refs));
	json_object_set_new(j, "undefined_total", json_integer((json_int_t)b->n));
	json_object_set_new(j, "abi_mismatches", json_integer((json_int_t)b->n_abi));
	json_object_set_new(j, "torch_not_exported", json_integer((json_int_t)b->n_torch_gone));
	json_object_set_new(j, "objects", objs);
	return j;
}

static const char *how_text(const struct pysyspath_torch *l)
{
	return pysyspath_how_text(l->how);
}

void report_importdiag_text(FILE *f, const struct importdiag *g, size_t max_syms,
			    const struct pt_style *st)
{
	if (g->located) {
		fprintf(f, "  torch package  %s (%s", g->loc.pkg_dir, how_text(&g->loc));
		if (g->loc.entry)
			fprintf(f, ", sys.path[%zu]", g->loc.index);
		if (g->loc.evidence)
			fprintf(f, ", from %s", g->loc.evidence);
		fprintf(f, ")%s\n", g->loc.source_checkout ? ", a PyTorch source checkout" : "");
		if (g->spec_disagrees)
			fprintf(f, "  note: importlib.util.find_spec('torch') says %s\n", g->spec_disagrees);
	}
	if (g->ext)
		fprintf(f, "  extension      %s (%zu objects in its tree)\n", g->ext, g->n_objs);
	for (size_t i = 0; i < g->n_missing; i++) {
		const struct importdiag_missing *m = &g->missing[i];

		fprintf(f, "  missing        %s, needed by %s\n", m->name, m->needed_by);
		for (size_t k = 0; k < m->n_also; k++)
			fprintf(f, "                 and by %s\n", m->also[k]);
		for (size_t k = 0; k < m->n_tried; k++)
			fprintf(f, "    %s %s\n", k ? "     " : "tried", m->tried[k]);
		if (m->n_owners)
			for (size_t k = 0; k < m->n_owners; k++)
				fprintf(f, "    installed by the Debian package %s as %s (a directory the loader "
					   "does not search here)\n", m->owners[k].package, m->owners[k].path);
		else
			fprintf(f, "    no installed Debian package has a file of that name (dpkg -S); "
				   "apt-file search %s names the package that ships it\n", m->name);
		if (m->hint)
			fprintf(f, "    %s\n", m->hint);
	}
	for (size_t i = 0; i < g->n_unmet; i++)
		fprintf(f, "  unmet version  %s\n", g->unmet[i]);
	for (size_t i = 0; i < g->n_mixed; i++)
		fprintf(f, "  odd one out    %s from %s (%s); the other torch libraries from %s\n",
			g->mixed[i].lib, g->mixed[i].dir, g->mixed[i].how, g->mixed[i].neighbours);
	if (g->n_bind_paths) {
		fprintf(f, "  binding        %zu undefined non-weak references of %zu objects checked "
			   "against the load order: %zu defined by no object\n",
			g->bind.n_refs, g->n_bind_paths, g->bind.n);
		report_bindcheck_text(f, g->bind_paths, &g->bind, max_syms, 4, st);
	}
	if (g->cuda.checked)
		fprintf(f, "  CUDA driver    %s; libcuda.so.1 -> %s: %s\n", g->cuda.cudart,
			g->cuda.libcuda ? g->cuda.libcuda : "not found", g->cuda.why);
}

json_t *report_importdiag_json(const struct importdiag *g)
{
	json_t *j = json_object(), *a;

	json_object_set_new(j, "cause", pt_json_str(importdiag_cause_key(g->cause)));
	json_object_set_new(j, "headline", g->headline ? pt_json_str(g->headline) : json_null());
	if (g->located) {
		json_t *l = json_object();

		json_object_set_new(l, "package", pt_json_str(g->loc.pkg_dir));
		json_object_set_new(l, "how", pt_json_str(how_text(&g->loc)));
		json_object_set_new(l, "sys_path_entry", g->loc.entry ? pt_json_str(g->loc.entry) : json_null());
		json_object_set_new(l, "sys_path_index", g->loc.entry ? json_integer((json_int_t)g->loc.index)
								     : json_null());
		json_object_set_new(l, "evidence", g->loc.evidence ? pt_json_str(g->loc.evidence) : json_null());
		json_object_set_new(l, "source_checkout", json_boolean(g->loc.source_checkout));
		json_object_set_new(l, "find_spec_disagrees", g->spec_disagrees ? pt_json_str(g->spec_disagrees)
										  : json_null());
		json_object_set_new(j, "location", l);
	} else {
		json_object_set_new(j, "location", json_null());
	}
	if (g->here && g->here->applies) {
		json_t *h = json_object();

		json_object_set_new(h, "package", pt_json_str(g->here->loc.pkg_dir));
		json_object_set_new(h, "source_checkout", json_boolean(g->here->loc.source_checkout));
		json_object_set_new(h, "extension", pt_json_str(g->here->loc.ext));
		json_object_set_new(h, "checked_instead", pt_json_str(g->here->checked));
		json_object_set_new(j, "here", h);
	} else {
		json_object_set_new(j, "here", json_null());
	}
	json_object_set_new(j, "extension", g->ext ? pt_json_str(g->ext) : json_null());
	json_object_set_new(j, "objects", json_integer((json_int_t)g->n_objs));
	a = json_array();
	for (size_t i = 0; i < g->n_missing; i++) {
		const struct importdiag_missing *m = &g->missing[i];
		json_t *o = json_object(), *ow = json_array();

		json_object_set_new(o, "name", pt_json_str(m->name));
		json_object_set_new(o, "needed_by", pt_json_str(m->needed_by));
		json_object_set_new(o, "also_needed_by", pt_json_strv(m->also, m->n_also));
		json_object_set_new(o, "tried", pt_json_strv(m->tried, m->n_tried));
		for (size_t k = 0; k < m->n_owners; k++) {
			json_t *x = json_object();

			json_object_set_new(x, "package", pt_json_str(m->owners[k].package));
			json_object_set_new(x, "path", pt_json_str(m->owners[k].path));
			json_array_append_new(ow, x);
		}
		json_object_set_new(o, "debian_packages", ow);
		json_object_set_new(o, "hint", m->hint ? pt_json_str(m->hint) : json_null());
		json_array_append_new(a, o);
	}
	json_object_set_new(j, "missing", a);
	json_object_set_new(j, "unmet_versions", pt_json_strv(g->unmet, g->n_unmet));
	a = json_array();
	for (size_t i = 0; i < g->n_mixed; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "library", pt_json_str(g->mixed[i].lib));
		json_object_set_new(o, "found_by", pt_json_str(g->mixed[i].how));
		json_object_set_new(o, "dir", pt_json_str(g->mixed[i].dir));
		json_object_set_new(o, "neighbours_dir", pt_json_str(g->mixed[i].neighbours));
		json_array_append_new(a, o);
	}
	json_object_set_new(j, "mixed", a);
	json_object_set_new(j, "binding", g->n_bind_paths ? report_bindcheck_json(g->bind_paths, g->n_bind_paths,
										   &g->bind)
							  : json_null());
	if (g->cuda.checked) {
		json_t *c = json_object();
		static const char *const v[] = { "ok", "too-old", "minor-version-compatibility", "unknown" };

		json_object_set_new(c, "cudart", pt_json_str(g->cuda.cudart));
		json_object_set_new(c, "libcuda", g->cuda.libcuda ? pt_json_str(g->cuda.libcuda) : json_null());
		json_object_set_new(c, "driver", g->cuda.driver[0] ? pt_json_str(g->cuda.driver) : json_null());
		json_object_set_new(c, "verdict", pt_json_str(v[g->cuda.verdict]));
		json_object_set_new(c, "why", pt_json_str(g->cuda.why));
		json_object_set_new(j, "cuda_driver", c);
	} else {
		json_object_set_new(j, "cuda_driver", json_null());
	}
	return j;
}

void report_bugreport_text(FILE *f, const struct bugreport *b)
{
	static const enum bugreport_field blank_after[] = { BR_HIP_COMPILED_VERSION, BR_LIBC_VERSION,
							    BR_IS_XNNPACK_AVAILABLE };

	for (size_t i = 0; i < BR_N_FIELDS; i++) {
		fprintf(f, "%s: %s\n", bugreport_label(i), b->v[i]);
		for (size_t k = 0; k < PT_ARRAY_SIZE(blank_after); k++)
			if (blank_after[k] == i)
				fputc('\n', f);
	}
	fputs("Versions of relevant libraries:\n", f);
	for (size_t i = 0; i < b->n_pip; i++)
		fprintf(f, "%s\n", b->pip[i]);
	for (size_t i = 0; i < b->n_conda; i++)
		fprintf(f, "%s\n", b->conda[i]);
	if (!b->n_pip && !b->n_conda)
		fputs("[pip3] none found\n", f);
}

json_t *report_bugreport_json(const struct bugreport *b)
{
	json_t *j = json_object();

	for (size_t i = 0; i < BR_N_FIELDS; i++)
		json_object_set_new(j, bugreport_key(i), pt_json_str(b->v[i]));
	json_object_set_new(j, "pip_packages", pt_json_strv(b->pip, b->n_pip));
	json_object_set_new(j, "conda_packages", pt_json_strv(b->conda, b->n_conda));
	return j;
}
