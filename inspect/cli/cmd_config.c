/*
 * `ptinspect config [FILE|-]`, `--library LIBTORCH_CPU`, `--python PATH`: the
 * build configuration (torch.__config__.show()) as fields; with no source,
 * of the torch doctor checks (env_pick). Options here, the
 * parsing in showconfig.c, the rendering in report_config.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envreport.h"
#include "jsonout.h"
#include "ptinspect.h"
#include "pyenv.h"
#include "report_elf.h"
#include "report_config.h"
#include "report_env.h"
#include "showconfig.h"
#include "strbuf.h"
#include "torchlib.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: ptinspect config [OPTIONS] [FILE|-]\n"
	"       ptinspect config [OPTIONS] --python PATH\n"
	"       ptinspect config [OPTIONS] --library LIBTORCH_CPU\n"
	"The build configuration (torch.__config__.show()) as fields.\n"
	"  FILE|-              a saved text, or standard input\n"
	"  (none)              ask the torch ptinspect doctor checks: the first python3\n"
	"                      on PATH, or when it cannot import torch, the first\n"
	"                      interpreter that can (the first line says which)\n"
	"  --python PATH       ask that Python's torch (see ptinspect env)\n"
	"  --library LIB       call at::show_config() of a libtorch_cpu in a child\n"
	"                      process (runs the library's initialisers)\n"
	"  --timeout=SECONDS   kill the child of --library or the Python (and what it\n"
	"                      forked) after this long (default 60)\n"
	"  --json              one JSON document\n"
	"  --color=WHEN        auto, always, never\n"
	"Exit status: 0 parsed, 1 parsed with lines not understood, 2 usage or\n"
	"unreadable input.\n";

static int text_from_file(const char *path, char **text, size_t *len, struct pt_diag *d)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	int rc;

	if (!f) {
		pt_diag_add(d, PT_SEV_ERROR, path, NULL, "cannot open: %s", strerror(errno));
		return -1;
	}
	rc = showconfig_read_stream(f, text, len);
	if (rc < 0)
		pt_diag_add(d, PT_SEV_ERROR, path, NULL, "read: %s", strerror(errno));
	if (f != stdin)
		fclose(f);
	return rc;
}

int cmd_config(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "python", required_argument, NULL, 'p' },
		{ "library", required_argument, NULL, 'l' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	const char *python = NULL, *library = NULL, *src;
	char *text = NULL;
	size_t len = 0;
	struct showconfig cfg;
	struct env_result e = { 0 };	/* no source: the interpreter doctor would check */
	bool pick;
	struct pt_diag d;
	int c, rc = EXIT_FINE, timeout_s = TORCHLIB_TIMEOUT_S;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': python = optarg; break;
		case 'l': library = optarg; break;
		case 't':
			if (timeout_opt_parse(ctx, optarg, &timeout_s))
				return EXIT_USAGE;
			break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	pick = !python && !library && optind == argc;
	if ((python != NULL) + (library != NULL) + (optind < argc) + pick != 1 || optind + 1 < argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&d);
	memset(&cfg, 0, sizeof(cfg));
	if (library) {
		src = library;
		if (torchlib_show_config(library, timeout_s, &text, &d) == 0)
			len = strlen(text);
	} else if (pick) {
		src = "python3";
		if (env_pick(NULL, 1, argv[0], &(struct pyenv_probe_opts){ .timeout_s = timeout_s }, &e,
			     &d) == 0) {
			src = e.python;
			if (e.rep.config_text) {
				text = pt_xstrdup(e.rep.config_text);
				len = strlen(text);
			} else {
				pt_diag_add(&d, PT_SEV_ERROR, e.python, NULL,
					    "cannot import torch: %s (%s)",
					    e.rep.import_error ? e.rep.import_error : "unknown error",
					    e.n_others ? "nor can the other interpreters"
						       : "no interpreter on this machine can; use --python PATH or a saved text");
			}
		}
	} else if (python) {
		struct pyenv_report r = { 0 };
		char *py = pyenv_which(python);

		src = python;
		if (!py)
			pt_diag_add(&d, PT_SEV_ERROR, python, NULL, "not found on PATH");
		else if (pyenv_probe(py, argv[0], &(struct pyenv_probe_opts){ .timeout_s = timeout_s }, &r,
				     &d) == 0) {
			if (r.config_text) {
				text = pt_xstrdup(r.config_text);
				len = strlen(text);
			} else {
				pt_diag_add(&d, PT_SEV_ERROR, python, NULL, "cannot import torch: %s",
					    r.import_error ? r.import_error : "unknown error");
			}
		}
		pyenv_report_release(&r);
		free(py);
	} else {
		src = argv[optind];
		text_from_file(src, &text, &len, &d);
	}
	if (!text) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (showconfig_parse((const uint8_t *)text, len, &cfg, src, &d) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (!showconfig_is_config(&cfg)) {
		/* /etc/passwd, an empty file: one line, not a note per line of it. */
		pt_diag_release(&d);
		pt_diag_init(&d);
		pt_diag_add(&d, PT_SEV_ERROR, src, NULL,
			    "not a torch configuration text: no 'PyTorch built with:' line and none "
			    "of the entries torch.__config__.show() prints");
		rc = EXIT_USAGE;
		goto out;
	}
	if (ctx->json) {
		json_t *doc = json_object();

		json_object_set_new(doc, "source", pt_json_str(src));
		if (pick)
			json_object_set_new(doc, "interpreter", report_env_choice_json(e.python, e.why,
										      e.fell_back));
		json_object_set_new(doc, "config", report_config_json(&cfg));
		json_object_set_new(doc, "problems", report_problems_json(&d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	} else {
		/* Which interpreter and why, one line, before the fields. */
		if (pick)
			printf("%-24s %s\n", "python", e.why);
		report_config_text(stdout, &cfg, 0, PT_CLI_STYLE(ctx));
	}
	if (pt_diag_count(&d, PT_SEV_WARNING) || cfg.n_unparsed)
		rc = EXIT_PROBLEMS;
out:
	if (!ctx->json || rc == EXIT_USAGE)
		pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
	if (rc == EXIT_USAGE && ctx->json) {
		json_t *doc = json_object();

		json_object_set_new(doc, "source", pt_json_str(pick ? e.python : python ? python : library ? library
							       : optind < argc ? argv[optind] : NULL));
		json_object_set_new(doc, "config", json_null());
		json_object_set_new(doc, "problems", report_problems_json(&d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	}
	showconfig_release(&cfg);
	env_result_release(&e);
	free(text);
	pt_diag_release(&d);
	return rc;
}
