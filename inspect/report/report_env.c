/* Text and JSON of `ptinspect env`; see report_env.h. */
#include "report_env.h"

#include <stdbool.h>
#include <string.h>

#include "jsonout.h"
#include "report_config.h"
#include "report_elf.h"
#include "term.h"
#include "xalloc.h"

/* Lines of the Python stacks of a killed import in the text report. */
#define REPORT_ENV_STACK_LINES 40

static const char *yes_no(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

void report_findings_text(FILE *f, const struct pt_diag *d, int indent, const struct pt_style *st)
{
	int c = st ? st->color : 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct pt_diag_msg *m = &d->v[i];
		const char *col = m->sev == PT_SEV_NOTE ? PT_C_DIM : m->sev == PT_SEV_WARNING ? PT_C_YELLOW : PT_C_RED;

		fprintf(f, "%*s%s%s%s [%s] %s\n", indent, "", pt_c(c, col),
			m->sev == PT_SEV_NOTE ? "note:" : m->sev == PT_SEV_WARNING ? "warning:" : "error:",
			pt_c(c, PT_C_RESET), m->where ? m->where : "-", m->what);
	}
}

/* torch's own libraries and the CUDA stack: what the doctor lists. */
static bool key_library(const char *p)
{
	static const char *const pre[] = { "libtorch", "libc10", "libcu", "libnv", "libcudnn",
					   "libnccl", "libamdhip", "libMIOpen", "libmkl", "libgomp",
					   "libiomp" };
	const char *b = strrchr(p, '/');

	b = b ? b + 1 : p;
	if (!strncmp(b, "libcurl", 7))
		return false;
	for (size_t i = 0; i < PT_ARRAY_SIZE(pre); i++)
		if (!strncmp(b, pre[i], strlen(pre[i])))
			return true;
	return false;
}

void report_env_text(FILE *f, const struct pyenv_report *r, const struct showconfig *cfg,
		     const struct pt_diag *findings, char *const *others, size_t n_others,
		     int verbose, const struct pt_style *st)
{
	int c = st ? st->color : 0;
	json_t *al = json_object_get(r->doc, "arch_list");
	size_t n_import = 0, hidden = 0;

	fprintf(f, "%-13s %s (Python %s, %s)\n", "python", r->python,
		r->python_version ? r->python_version : "?",
		r->mode && !strcmp(r->mode, "embedded") ? "embedded in ptinspect-pyenv"
							: "run as a child process");
	if (r->executable && strcmp(r->executable, r->python))
		fprintf(f, "%-13s %s\n", "sys.executable", r->executable);
	if (!r->torch_ok) {
		fprintf(f, "%-13s %scannot import torch%s: %s\n", "torch", pt_c(c, PT_C_RED),
			pt_c(c, PT_C_RESET), r->import_error ? r->import_error : "?");
		if (r->hang_stack) {
			const char *p = r->hang_stack;
			int lines = 0;

			fprintf(f, "Python stacks when it was killed (faulthandler, most recent call first):\n");
			while (*p && lines++ < REPORT_ENV_STACK_LINES) {
				const char *nl = strchr(p, '\n');
				int n = nl ? (int)(nl - p) : (int)strlen(p);

				fprintf(f, "  %.*s\n", n, p);
				p += n + (nl != NULL);
			}
			if (*p)
				fprintf(f, "  ... (ptinspect env --json has the rest)\n");
		}
	} else {
		fprintf(f, "%-13s %s%s%s from %s\n", "torch", pt_c(c, PT_C_BOLD),
			r->torch_version ? r->torch_version : "(no version)", pt_c(c, PT_C_RESET),
			r->torch_file ? r->torch_file : "?");
		fprintf(f, "%-13s %s\n", "git version", r->git_version ? r->git_version : "-");
		fprintf(f, "%-13s %s\n", "debug build", yes_no(r->debug));
		fprintf(f, "%-13s %s\n", "CUDA", r->cuda ? r->cuda : "none (torch.version.cuda is None)");
		if (r->hip)
			fprintf(f, "%-13s %s\n", "HIP", r->hip);
		if (json_is_array(al)) {
			fprintf(f, "%-13s", "arch list");
			if (!json_array_size(al))
				fputs(" -", f);
			for (size_t i = 0; i < json_array_size(al); i++)
				fprintf(f, " %s", json_string_value(json_array_get(al, i)));
			fputc('\n', f);
		}
		fprintf(f, "%-13s %s\n", "C++11 ABI", yes_no(r->cxx11_abi));
	}
	if (r->n_cands) {
		fprintf(f, "torch packages on sys.path, in order:\n");
		for (size_t i = 0; i < r->n_cands; i++)
			fprintf(f, "  %s/torch (%s)\n", r->cands[i].dir, r->cands[i].kind);
	}
	if (cfg) {
		fprintf(f, "%sbuild configuration%s\n", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET));
		report_config_text(f, cfg, 2, st);
	}
	for (size_t i = 0; i < r->n_loaded; i++)
		n_import += r->loaded[i].by_import;
	if (r->partial)
		fprintf(f, "%sshared objects loaded by the import%s: unknown (the helper did not get to "
			"report them)\n", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET));
	else
		fprintf(f, "%sshared objects loaded by the import%s (%zu; %zu in the process)\n",
			pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET), n_import, r->n_loaded);
	for (size_t i = 0; i < r->n_loaded; i++) {
		const struct pyenv_loaded *l = &r->loaded[i];

		if (!l->by_import && verbose <= 0)
			continue;
		if (verbose < 0 && !key_library(l->realpath ? l->realpath : l->name)) {
			hidden++;
			continue;
		}
		fprintf(f, "  %s", l->realpath ? l->realpath : l->name);
		if (l->realpath && strcmp(l->realpath, l->name) && *l->name)
			fprintf(f, "  %s(%s)%s", pt_c(c, PT_C_DIM), l->name, pt_c(c, PT_C_RESET));
		fputc('\n', f);
	}
	if (hidden)
		fprintf(f, "  ... and %zu more (ptinspect env lists them all)\n", hidden);
	if (n_others) {
		fprintf(f, "interpreters on this machine that can import torch:\n");
		for (size_t i = 0; i < n_others; i++)
			fprintf(f, "  %s (ptinspect env --python %s)\n", others[i], others[i]);
	}
	if (findings->n) {
		fprintf(f, "%sfindings%s\n", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET));
		report_findings_text(f, findings, 2, st);
	}
}

json_t *report_env_deps_json(const struct envcheck_deps_summary *s)
{
	json_t *j = json_object();

	json_object_set_new(j, "root", pt_json_str(s->root));
	json_object_set_new(j, "objects", json_integer((json_int_t)s->n_objs));
	json_object_set_new(j, "missing", json_integer((json_int_t)s->n_missing));
	json_object_set_new(j, "missing_but_preloaded", json_integer((json_int_t)s->n_preloaded));
	json_object_set_new(j, "unmet_versions", json_integer((json_int_t)s->n_unmet));
	return j;
}

json_t *report_env_choice_json(const char *python, const char *why, bool fallback)
{
	json_t *j;

	if (!why)
		return json_null();
	j = json_object();
	json_object_set_new(j, "python", pt_json_str(python));
	json_object_set_new(j, "why", pt_json_str(why));
	json_object_set_new(j, "fallback", json_boolean(fallback));
	return j;
}

json_t *report_env_json(const struct pyenv_report *r, const struct showconfig *cfg,
			const struct pt_diag *findings, char *const *others, size_t n_others)
{
	json_t *j = json_object(), *t = json_object(), *l = json_array(), *c = json_array();

	json_object_set_new(j, "python", pt_json_str(r->python));
	json_object_set_new(j, "mode", pt_json_str(r->mode));
	json_object_set_new(j, "executable", pt_json_str(r->executable));
	json_object_set_new(j, "python_version", pt_json_str(r->python_version));
	json_object_set_new(t, "imported", json_boolean(r->torch_ok));
	json_object_set_new(t, "import_error", pt_json_str(r->import_error));
	json_object_set_new(t, "file", pt_json_str(r->torch_file));
	json_object_set_new(t, "version", pt_json_str(r->torch_version));
	json_object_set_new(t, "git_version", pt_json_str(r->git_version));
	json_object_set_new(t, "debug", r->debug < 0 ? json_null() : json_boolean(r->debug));
	json_object_set_new(t, "cuda", pt_json_str(r->cuda));
	json_object_set_new(t, "hip", pt_json_str(r->hip));
	json_object_set_new(t, "arch_list", json_is_array(json_object_get(r->doc, "arch_list"))
		? json_deep_copy(json_object_get(r->doc, "arch_list")) : json_null());
	json_object_set_new(t, "cxx11_abi", r->cxx11_abi < 0 ? json_null() : json_boolean(r->cxx11_abi));
	json_object_set_new(t, "timed_out", json_boolean(r->timed_out));
	json_object_set_new(t, "stack_when_killed", pt_json_str(r->hang_stack));
	json_object_set_new(j, "torch", t);
	json_object_set_new(j, "current_directory_on_sys_path", json_boolean(r->here));
	json_object_set_new(j, "config", cfg ? report_config_json(cfg) : json_null());
	for (size_t i = 0; i < r->n_cands; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "dir", pt_json_str(r->cands[i].dir));
		json_object_set_new(e, "kind", pt_json_str(r->cands[i].kind));
		json_array_append_new(c, e);
	}
	json_object_set_new(j, "torch_candidates", c);
	for (size_t i = 0; i < r->n_loaded; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "name", pt_json_str(r->loaded[i].name));
		json_object_set_new(e, "realpath", pt_json_str(r->loaded[i].realpath));
		json_object_set_new(e, "by_import", json_boolean(r->loaded[i].by_import));
		json_array_append_new(l, e);
	}
	json_object_set_new(j, "loaded", l);
	json_object_set_new(j, "other_pythons", pt_json_strv(others, n_others));
	json_object_set_new(j, "findings", report_problems_json(findings));
	return j;
}
