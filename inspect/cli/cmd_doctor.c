/*
 * `ptinspect doctor [--python PATH]` (and `ptinspect` alone): the torch that
 * Python sees, checked end to end: env (import, shadowing, copies, CUDA
 * runtime), debug info of its libraries, TORCH_SHOW_DISPATCH_TRACE. A short
 * verdict first, details after. Only calls modules; see cmd_env.c for env.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmakecache.h"
#include "debuginfo.h"
#include "dispatchtrace.h"
#include "bugreport.h"
#include "cudastack.h"
#include "envcheck.h"
#include "fwdcompat.h"
#include "importdiag.h"
#include "jsonout.h"
#include "ptinspect.h"
#include "report_elf.h"
#include "report_debug.h"
#include "report_doctor.h"
#include "report_env.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: ptinspect doctor [OPTIONS]\n"
	"       ptinspect\n"
	"Checks the torch a Python environment imports: the import itself, where it\n"
	"comes from (shadowing), duplicate libraries, the CUDA runtime, debug info of\n"
	"its libraries and TORCH_SHOW_DISPATCH_TRACE. Verdict first, details after.\n"
	"  --python PATH   the interpreter (default: the first python3 on PATH; when\n"
	"                  it cannot import torch, the first one found that can)\n"
	"  --expect DIR    torch must be imported from below DIR (a build tree)\n"
	"  --here          import as python run here would: the current directory\n"
	"                  first on sys.path (its torch/ is run), one interpreter; by\n"
	"                  default it is not, and a torch/ here is only read\n"
	"  --timeout=SECONDS  kill the import (and what it forked) after this long\n"
	"                  (1 to 86400; default 60)\n"
	"  --issue         one fenced Markdown block for a GitHub issue: collect_env's\n"
	"                  facts and the doctor's verdicts (works when import fails)\n"
	"  --json          one JSON document\n"
	"  --color=WHEN    auto, always, never\n"
	"Exit status: 0 fine, 1 problems found, 2 usage error or no interpreter.\n";

/* The torch libraries worth a debug check: libtorch*, libc10*. */
static bool torch_lib(const char *path)
{
	char stem[256];

	return envcheck_lib_stem(path, stem, sizeof(stem)) &&
	       (!strncmp(stem, "libtorch", 8) || !strncmp(stem, "libc10", 6));
}

struct doctor {
	struct env_result e;
	struct debuginfo *di;
	const char **di_path;
	size_t n_di, a_di, a_di_path;
	struct dispatchtrace dt;
	bool have_dt;
	struct importdiag g;	/* why the import fails (or what is wrong although it works) */
	bool have_g;
	struct bugreport br;	/* collect_env's facts */
};

static void collect_debug(struct doctor *dr, struct pt_diag *d)
{
	const struct pyenv_report *r = &dr->e.rep;
	const struct pyenv_loaded *cpu = envcheck_find_loaded(r, "libtorch_cpu");

	for (size_t i = 0; i < r->n_loaded; i++) {
		const char *p = r->loaded[i].realpath;

		if (!p || !r->loaded[i].by_import || !torch_lib(p))
			continue;
		PT_GROW(dr->di, dr->n_di, dr->a_di);
		PT_GROW(dr->di_path, dr->n_di, dr->a_di_path);
		if (debuginfo_read(p, NULL, &dr->di[dr->n_di], d) == 0)
			dr->di_path[dr->n_di++] = p;
	}
	if (r->torch_ok) {
		dispatchtrace_check(dr->e.have_cfg ? &dr->e.cfg : NULL, r->torch_version, r->debug,
				    cpu && cpu->realpath ? cpu->realpath : NULL, &dr->dt, d);
		dr->have_dt = true;
	}
}

/*
 * The CUDA stack built-with against loaded (cudastack.h), and what hides the
 * GPU or the driver (fwdcompat.h): findings of the environment.
 */
static void cuda_findings(struct doctor *dr, const char *expect)
{
	const char *dirs[2];
	struct fwdcompat_tree trees[2];
	char *caches[2] = { NULL, NULL };
	size_t n = 0, nt = 0;
	char cwd[PATH_MAX];

	cudastack_check(&dr->e.rep, dr->e.have_cfg ? &dr->e.cfg : NULL, dr->have_g ? dr->g.ext : NULL,
			&dr->e.findings);
	if (expect)
		dirs[n++] = expect;
	if (getcwd(cwd, sizeof(cwd)) && envcheck_is_source_tree(cwd))
		dirs[n++] = cwd;
	for (size_t i = 0; i < n; i++) {
		int v = cmakecache_dir_bool(dirs[i], "USE_CUDA", &caches[nt]);

		if (caches[nt]) {
			trees[nt] = (struct fwdcompat_tree){ dirs[i], caches[nt], v };
			nt++;
		}
	}
	fwdcompat_check(&dr->e.rep, dr->have_g ? &dr->g : NULL, getenv("CUDA_VISIBLE_DEVICES"), trees,
			nt, &dr->e.findings);
	for (size_t i = 0; i < nt; i++)
		free(caches[i]);
}

static void verdict_text(const struct doctor *dr, const struct pt_cli *ctx)
{
	const struct pyenv_report *r = &dr->e.rep;
	size_t warn = pt_diag_count(&dr->e.findings, PT_SEV_WARNING);
	size_t full = 0;
	int c = ctx->color;

	/* The first line names the cause; everything else is evidence. */
	printf("%sptinspect doctor%s: %s: ", pt_c(c, PT_C_BOLD), pt_c(c, PT_C_RESET), dr->e.python);
	if (!r->torch_ok)
		printf("%simport torch fails%s: %s\n", pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET),
		       dr->have_g && dr->g.headline ? dr->g.headline
		       : r->import_error ? r->import_error : "unknown error");
	else if (dr->have_g && dr->g.headline)
		printf("%s%s%s\n", pt_c(c, PT_C_RED), dr->g.headline, pt_c(c, PT_C_RESET));
	else if (warn) {
		const char *first = "problems found";

		for (size_t i = 0; i < dr->e.findings.n; i++)
			if (dr->e.findings.v[i].sev >= PT_SEV_WARNING) {
				first = dr->e.findings.v[i].what;
				break;
			}
		printf("%s%s%s\n", pt_c(c, PT_C_RED), first, pt_c(c, PT_C_RESET));
	}
	else
		printf("%sfine%s\n", pt_c(c, PT_C_GREEN), pt_c(c, PT_C_RESET));
	/* Not the python3 first on PATH: said once, a note (its torch is what is checked). */
	if (dr->e.fell_back)
		printf("  note    %s\n", dr->e.why);
	if (!r->torch_ok && dr->have_g) {
		printf("  error     %s\n", r->import_error ? r->import_error : "unknown error");
		report_importdiag_text(stdout, &dr->g, 10, PT_CLI_STYLE(ctx));
	} else if (dr->have_g && dr->g.cause != IMPORTDIAG_NONE) {
		report_importdiag_text(stdout, &dr->g, 10, PT_CLI_STYLE(ctx));
	}
	if (r->torch_ok) {
		const char *bt = dr->e.have_cfg ? showconfig_setting(&dr->e.cfg, "BUILD_TYPE") : NULL;

		printf("  torch %s (%s%s%s%s) from %s\n", r->torch_version ? r->torch_version : "?",
		       r->cuda ? "CUDA " : r->hip ? "HIP " : "CPU build",
		       r->cuda ? r->cuda : r->hip ? r->hip : "", bt ? ", " : "", bt ? bt : "",
		       r->torch_file ? r->torch_file : "?");
	}
	if (!warn)
		printf("  %sOK%s    no problems found with the import\n", pt_c(c, PT_C_GREEN),
		       pt_c(c, PT_C_RESET));
	for (size_t i = 0; i < dr->e.findings.n; i++) {
		const struct pt_diag_msg *m = &dr->e.findings.v[i];

		if (m->sev >= PT_SEV_WARNING)
			printf("  %sPROBLEM%s %s\n", pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET), m->what);
	}
	if (dr->e.have_deps) {
		const struct envcheck_deps_summary *s = &dr->e.deps;

		printf("  deps: %zu objects below torch's _C; %zu not found by the loader's rules",
		       s->n_objs, s->n_missing);
		if (s->n_preloaded)
			printf(" (%zu loaded earlier by torch)", s->n_preloaded);
		printf(", %zu with unmet symbol versions\n", s->n_unmet);
	}
	if (r->torch_ok) {
		const struct pyenv_loaded *rt = envcheck_find_loaded(r, "libcudart");
		const struct showconfig *cfg = dr->e.have_cfg ? &dr->e.cfg : NULL;

		if (!r->cuda && !r->hip)
			printf("  CUDA: none, a CPU build (torch.version.cuda is None)\n");
		else
			printf("  CUDA: built for %s %s%s%s; %s%s\n", r->cuda ? "CUDA" : "HIP",
			       r->cuda ? r->cuda : r->hip, cfg && cfg->arch_list ? ", arch list " : "",
			       cfg && cfg->arch_list ? cfg->arch_list : "",
			       rt ? "loaded " : "no libcudart loaded by the import",
			       rt ? (rt->realpath ? rt->realpath : rt->name) : "");
	}
	for (size_t i = 0; i < dr->n_di; i++)
		full += dr->di[i].verdict == DEBUGINFO_FULL;
	if (dr->n_di)
		printf("  debug: %zu of %zu torch libraries have usable DWARF%s\n", full, dr->n_di,
		       full == dr->n_di ? "" : " (details below)");
	if (dr->have_dt)
		printf("  TORCH_SHOW_DISPATCH_TRACE: %s\n",
		       dr->dt.can_print == 1 ? "prints" : dr->dt.can_print == 0 ? "prints nothing with this build"
										 : "cannot tell");
	printf("  verdict: %s%s%s\n", pt_c(c, warn ? PT_C_RED : PT_C_GREEN),
	       warn ? "problems found" : "fine", pt_c(c, PT_C_RESET));
}

static json_t *doctor_json(const struct doctor *dr)
{
	json_t *j = json_object(), *v = json_object(), *dbg = json_array();
	size_t warn = pt_diag_count(&dr->e.findings, PT_SEV_WARNING);

	json_object_set_new(v, "ok", json_boolean(!warn));
	json_object_set_new(v, "problems", json_integer((json_int_t)warn));
	json_object_set_new(j, "verdict", v);
	json_object_set_new(j, "interpreter", report_env_choice_json(dr->e.python, dr->e.why, dr->e.fell_back));
	json_object_set_new(j, "env", report_env_json(&dr->e.rep, dr->e.have_cfg ? &dr->e.cfg : NULL,
						      &dr->e.findings, dr->e.others, dr->e.n_others));
	for (size_t i = 0; i < dr->n_di; i++) {
		json_t *f = json_object();

		json_object_set_new(f, "file", pt_json_str(dr->di_path[i]));
		json_object_set_new(f, "debug", report_debug_json(&dr->di[i]));
		json_array_append_new(dbg, f);
	}
	json_object_set_new(j, "deps", dr->e.have_deps ? report_env_deps_json(&dr->e.deps) : json_null());
	json_object_set_new(j, "import", dr->have_g ? report_importdiag_json(&dr->g) : json_null());
	json_object_set_new(j, "collect_env", report_bugreport_json(&dr->br));
	json_object_set_new(j, "debug", dbg);
	json_object_set_new(j, "dispatch_trace", dr->have_dt ? report_dispatchtrace_json(&dr->dt)
							     : json_null());
	return j;
}

/*
 * --issue: one fenced block to paste into a GitHub issue. collect_env's
 * facts, then the verdict line and at most ISSUE_MAX_PROBLEMS problems.
 */
#define ISSUE_MAX_PROBLEMS 8
static void issue_block(const struct doctor *dr)
{
	const struct pyenv_report *r = &dr->e.rep;
	size_t n = 0, warn = pt_diag_count(&dr->e.findings, PT_SEV_WARNING);

	printf("```\n");
	report_bugreport_text(stdout, &dr->br);
	printf("\nptinspect doctor on %s:\n", dr->e.python);
	if (!r->torch_ok)
		printf("import torch fails: %s\n", dr->have_g && dr->g.headline ? dr->g.headline
			: r->import_error ? r->import_error : "unknown error");
	else if (dr->have_g && dr->g.headline)
		printf("%s\n", dr->g.headline);
	else
		printf("%s\n", warn ? "problems found" : "fine");
	if (r->torch_ok)
		printf("torch %s from %s\n", r->torch_version ? r->torch_version : "?",
		       r->torch_file ? r->torch_file : "?");
	else if (dr->have_g && dr->g.located)
		printf("torch package: %s (%s)\n", dr->g.loc.pkg_dir, pysyspath_how_text(dr->g.loc.how));
	for (size_t i = 0; i < dr->e.findings.n; i++) {
		const struct pt_diag_msg *m = &dr->e.findings.v[i];

		if (m->sev < PT_SEV_WARNING || (!r->torch_ok && m->where && !strcmp(m->where, "import")))
			continue;
		if (n++ < ISSUE_MAX_PROBLEMS)
			printf("- %s\n", m->what);
	}
	if (n > ISSUE_MAX_PROBLEMS)
		printf("- ... %zu more (ptinspect doctor)\n", n - ISSUE_MAX_PROBLEMS);
	if (r->torch_ok && r->import_error == NULL && dr->have_dt)
		printf("TORCH_SHOW_DISPATCH_TRACE: %s\n", dr->dt.can_print == 1 ? "prints"
			: dr->dt.can_print == 0 ? "prints nothing with this build" : "cannot tell");
	printf("```\n");
}

int cmd_doctor(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option issue_opt = { "issue", no_argument, NULL, 'i' };
	struct pyenv_opts po;
	struct doctor dr;
	struct pt_diag d;
	int rc = pyenv_opts_parse(ctx, argc, argv, "h", &issue_opt, usage_text, &po);

	if (rc >= 0)
		return rc;
	memset(&dr, 0, sizeof(dr));
	pt_diag_init(&d);
	if (env_collect(po.python, po.expect, 1, argv[0], &po.probe, &dr.e, &d) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	dr.have_g = importdiag_run(&dr.e.rep, &dr.e.here, &dr.g, &d) == 0;
	/* The checkout here is a finding already (env_collect's "here"). */
	if (dr.have_g && dr.e.rep.torch_ok && dr.g.cause != IMPORTDIAG_NONE &&
	    !(dr.g.cause == IMPORTDIAG_SOURCE_CHECKOUT && dr.e.here.applies))
		pt_diag_add(&dr.e.findings, PT_SEV_WARNING, dr.e.python, importdiag_cause_key(dr.g.cause),
			    "%s", dr.g.headline);
	cuda_findings(&dr, po.expect);
	collect_debug(&dr, &d);
	bugreport_collect(&dr.e.rep, dr.have_g ? &dr.g : NULL, &dr.br);
	if (po.flag) {	/* --issue */
		issue_block(&dr);
	} else if (ctx->json) {
		json_t *doc = doctor_json(&dr);

		json_object_set_new(doc, "problems", report_problems_json(&d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	} else {
		verdict_text(&dr, ctx);
		printf("\n%sdetails%s\n", pt_c(ctx->color, PT_C_BOLD), pt_c(ctx->color, PT_C_RESET));
		/* The interpreters that can import torch: only when the one checked cannot. */
		report_env_text(stdout, &dr.e.rep, dr.e.have_cfg ? &dr.e.cfg : NULL, &dr.e.findings,
				dr.e.others, dr.e.rep.torch_ok ? 0 : dr.e.n_others, -1, PT_CLI_STYLE(ctx));
		if (dr.n_di)
			printf("%sdebug info of the torch libraries%s\n", pt_c(ctx->color, PT_C_BOLD),
			       pt_c(ctx->color, PT_C_RESET));
		/* Libraries alike (Debian's five stripped ones) are one block listing them. */
		report_debug_list_text(stdout, dr.di, dr.di_path, dr.n_di, 2, PT_CLI_STYLE(ctx));
		if (dr.have_dt)
			report_dispatchtrace_text(stdout, &dr.dt, 0, PT_CLI_STYLE(ctx));
		printf("%sbug report facts%s (python -m torch.utils.collect_env's fields; ptinspect doctor "
		       "--issue prints them for pasting)\n", pt_c(ctx->color, PT_C_BOLD),
		       pt_c(ctx->color, PT_C_RESET));
		report_bugreport_text(stdout, &dr.br);
	}
	rc = pt_diag_count(&dr.e.findings, PT_SEV_WARNING) ? EXIT_PROBLEMS : EXIT_FINE;
out:
	pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
	pt_diag_release(&d);
	for (size_t i = 0; i < dr.n_di; i++)
		debuginfo_release(&dr.di[i]);
	free(dr.di);
	free(dr.di_path);
	if (dr.have_dt)
		dispatchtrace_release(&dr.dt);
	importdiag_release(&dr.g);
	bugreport_release(&dr.br);
	env_result_release(&dr.e);
	return rc;
}
