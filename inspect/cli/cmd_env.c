/*
 * `ptinspect env [--python PATH] [--expect DIR]`: import torch in that
 * environment (ptinspect-pyenv) and report version, configuration, the
 * shared objects the import loaded, and the cross-checks (envcheck.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "ptinspect.h"
#include "report_elf.h"
#include "report_env.h"

static const char usage_text[] =
	"usage: ptinspect env [OPTIONS]\n"
	"Imports torch in a Python environment and reports what it really is and\n"
	"loaded: version, git version, debug flag, CUDA/HIP, arch list, C++11 ABI,\n"
	"the build configuration, every shared object the import loaded (real\n"
	"paths), and findings: shadowed packages, two copies of a library, the CUDA\n"
	"runtime, torch not from the expected place.\n"
	"  --python PATH   the interpreter (default: the first python3 on PATH)\n"
	"  --expect DIR    torch must be imported from below DIR (a build tree)\n"
	"  --here          import as python run here would: the current directory\n"
	"                  first on sys.path (its torch/ is run); by default it is not\n"
	"  --timeout=SECONDS  kill the import (and what it forked) after this long\n"
	"                  (1 to 86400; default 60)\n"
	"  -v, --verbose   list every object in the process, not only the import's\n"
	"  --json          one JSON document\n"
	"  --color=WHEN    auto, always, never\n"
	"Exit status: 0 fine, 1 findings (or torch cannot be imported), 2 usage\n"
	"error or no report from the interpreter.\n";

int cmd_env(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option verbose_opt = { "verbose", no_argument, NULL, 'v' };
	struct pyenv_opts po;
	struct env_result e;
	struct pt_diag d;
	int rc = pyenv_opts_parse(ctx, argc, argv, "hv", &verbose_opt, usage_text, &po);

	if (rc >= 0)
		return rc;
	pt_diag_init(&d);
	if (env_collect(po.python, po.expect, 0, argv[0], &po.probe, &e, &d) < 0) {
		rc = EXIT_USAGE;
		if (ctx->json) {
			json_t *doc = json_object();

			json_object_set_new(doc, "python", pt_json_str(e.python));
			json_object_set_new(doc, "problems", report_problems_json(&d));
			pt_json_print(stdout, doc);
			json_decref(doc);
		}
		goto out;
	}
	if (ctx->json) {
		json_t *doc = report_env_json(&e.rep, e.have_cfg ? &e.cfg : NULL, &e.findings,
					      e.others, e.n_others);

		json_object_set_new(doc, "deps", e.have_deps ? report_env_deps_json(&e.deps) : json_null());
		json_object_set_new(doc, "problems", report_problems_json(&d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	} else {
		report_env_text(stdout, &e.rep, e.have_cfg ? &e.cfg : NULL, &e.findings, e.others,
				e.n_others, po.flag /* --verbose */, PT_CLI_STYLE(ctx));
	}
	rc = pt_diag_count(&e.findings, PT_SEV_WARNING) ? EXIT_PROBLEMS : EXIT_FINE;
out:
	pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
	pt_diag_release(&d);
	env_result_release(&e);
	return rc;
}
