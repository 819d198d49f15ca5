/*
 * `ptinspect preflight [SOURCE_DIR]`: will this machine build the torch asked
 * for? Options here; the checks in preflight/, rendering in report_preflight.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "jsonout.h"
#include "preflight.h"
#include "ptinspect.h"
#include "report_elf.h"
#include "report_preflight.h"

extern char **environ;

static const char usage_text[] =
	"usage: ptinspect preflight [OPTIONS] [SOURCE_DIR]\n"
	"Will this machine build the torch asked for? Reads the environment the way\n"
	"setup.py and torch's CMake will, the checkout, build/CMakeCache.txt, nvcc and\n"
	"the arch list, the host compiler, Python, cmake, ninja, RAM and disk; runs\n"
	"nothing heavy (--version of the tools only). Verdict first, then a checklist.\n"
	"  SOURCE_DIR          a PyTorch checkout (default: .; elsewhere the toolchain alone)\n"
	"  --try-nvcc          also compile a one-line kernel for each arch with the real\n"
	"                      nvcc and host compiler (seconds each), to confirm the tables\n"
	"  --json              one JSON document\n"
	"  --color=WHEN        auto, always, never\n"
	"Exit status: 0 no failure predicted, 1 a FAIL predicted, 2 usage or unreadable input.\n";

int cmd_preflight(int argc, char **argv, struct pt_cli *ctx)
{
	struct preflight p;
	struct pt_diag d;
	struct preflight_opts o = { NULL, environ, false };
	int rc;

	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "try-nvcc", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't': o.try_nvcc = true; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage_text))
		return EXIT_USAGE;
	if (optind < argc)
		o.source_dir = argv[optind];
	pt_diag_init(&d);
	if (preflight_run(&o, &p, &d) < 0) {
		if (ctx->json) {
			json_t *doc = json_object();

			json_object_set_new(doc, "source_dir", json_string(o.source_dir ? o.source_dir : "."));
			json_object_set_new(doc, "problems", report_problems_json(&d));
			pt_json_print(stdout, doc);
			json_decref(doc);
		}
		pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
		preflight_release(&p);
		pt_diag_release(&d);
		return EXIT_USAGE;
	}
	if (ctx->json) {
		json_t *doc = report_preflight_json(&p);

		json_object_set_new(doc, "problems", report_problems_json(&d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	} else {
		report_preflight_text(stdout, &p, PT_CLI_STYLE(ctx));
		pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
	}
	rc = preflight_count(&p, PF_FAIL) ? EXIT_PROBLEMS : EXIT_FINE;
	preflight_release(&p);
	pt_diag_release(&d);
	return rc;
}
