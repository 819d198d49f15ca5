/*
 * `ptinspect FILE...` and `ptinspect deps FILE...`: every report that exists
 * for each file, or only some sections of it. Options are parsed here once;
 * each section is collected by its module and rendered by report*.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "ptinspect.h"
#include "debuginfo.h"
#include "report.h"
#include "report_debug.h"

enum files_section {
	SEC_ELF = 1 << 0,
	SEC_DEPS = 1 << 1,
	SEC_DEBUG = 1 << 2,	/* debuginfo.c: DWARF, split DWARF, debuglink, verdict */
	SEC_ALL = ~0,
};

struct files_opts {
	unsigned sections;
	const char *usage;
};

static int inspect_one(const char *path, const struct files_opts *fo, struct pt_ctx *ctx,
		       json_t *files, json_t *problems)
{
	struct elfobj o;
	struct pt_diag diag;
	struct debuginfo di;
	bool have_di = false;
	int rc = EXIT_FINE;

	pt_diag_init(&diag);
	memset(&di, 0, sizeof(di));
	if (elfobj_open(&o, path, &diag) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (fo->sections & SEC_DEBUG) {
		have_di = debuginfo_read_obj(&o, NULL, &di, &diag) == 0;
		if (have_di && di.verdict != DEBUGINFO_FULL && fo->sections == SEC_DEBUG)
			rc = EXIT_PROBLEMS;	/* `ptinspect debug`: not debuggable is the finding */
	}
	if (!ctx->json && (fo->sections & SEC_ELF))
		report_elf_text(stdout, &o, ctx);
	if (!ctx->json && fo->sections == SEC_DEBUG)
		printf("%s%s%s\n", pt_c(ctx->color, PT_C_BOLD), path, pt_c(ctx->color, PT_C_RESET));
	if (!ctx->json && have_di)
		report_debug_text(stdout, &di, 2, ctx);
	if (ctx->json) {
		json_t *fj = json_object();

		json_object_set_new(fj, "file", json_string(path));
		if (fo->sections & SEC_ELF)
			json_object_set_new(fj, "elf", report_elf_json(&o));
		if (have_di)
			json_object_set_new(fj, "debug", report_debug_json(&di));
		json_object_set_new(fj, "problems", report_problems_json(&diag));
		json_array_append_new(files, fj);
	}
	if (pt_diag_count(&diag, PT_SEV_WARNING))
		rc = EXIT_PROBLEMS;
out:
	if (ctx->json) {
		json_t *p = report_problems_json(&diag);
		json_array_extend(problems, p);
		json_decref(p);
	}
	pt_diag_print(&diag, stderr, ctx->prog, ctx->color_err);
	pt_diag_release(&diag);
	debuginfo_release(&di);
	elfobj_release(&o);
	return rc;
}

static int run(int argc, char **argv, struct pt_ctx *ctx, struct files_opts *fo)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "color", optional_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	json_t *files = NULL, *problems = NULL;
	int c, rc = EXIT_FINE;

	optind = 0;	/* GNU: re-initialise getopt for this argv */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctx->json = 1;
			break;
		case 'C': {
			int m = optarg ? pt_color_mode_parse(optarg) : PT_COLOR_ALWAYS;
			if (m < 0) {
				fprintf(stderr, "%s: unknown --color value '%s'\n", ctx->prog, optarg);
				return EXIT_USAGE;
			}
			ctx->color_mode = m;
			ctx->color = pt_color_enabled(stdout, m);
			ctx->color_err = pt_color_enabled(stderr, m);
			break;
		}
		case 'h':
			fputs(fo->usage, stdout);
			return EXIT_FINE;
		default:
			fputs(fo->usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(fo->usage, stderr);
		return EXIT_USAGE;
	}
	if (ctx->json) {
		files = json_array();
		problems = json_array();
	}
	for (int i = optind; i < argc; i++) {
		int r = inspect_one(argv[i], fo, ctx, files, problems);

		if (r > rc)
			rc = r;
		if (!ctx->json && i + 1 < argc)
			putchar('\n');
	}
	if (ctx->json) {
		json_t *doc = json_object();

		json_object_set_new(doc, "files", files);
		json_object_set_new(doc, "problems", problems);
		pt_json_print(stdout, doc);
		json_decref(doc);
	}
	return rc;
}

int cmd_files(int argc, char **argv, struct pt_ctx *ctx)
{
	struct files_opts fo = {
		.sections = SEC_ALL,
		.usage = "usage: ptinspect [OPTIONS] FILE...\n"
			 "Every report for each file: ELF identity, dependencies, debug info.\n"
			 "  --json          one JSON document for the whole invocation\n"
			 "  --color=WHEN    auto, always, never\n",
	};

	return run(argc, argv, ctx, &fo);
}

int cmd_deps(int argc, char **argv, struct pt_ctx *ctx)
{
	struct files_opts fo = {
		.sections = SEC_ELF | SEC_DEPS,
		.usage = "usage: ptinspect deps [OPTIONS] FILE...\n"
			 "The ELF and dependency report only.\n"
			 "  --json          one JSON document for the whole invocation\n"
			 "  --color=WHEN    auto, always, never\n",
	};

	return run(argc, argv, ctx, &fo);
}

int cmd_debug(int argc, char **argv, struct pt_ctx *ctx)
{
	struct files_opts fo = {
		.sections = SEC_DEBUG,
		.usage = "usage: ptinspect debug [OPTIONS] FILE...\n"
			 "Whether each file can be debugged: DWARF in the file, split DWARF\n"
			 "(.dwo/.dwp), a separate debug file (.gnu_debuglink, build-id under\n"
			 "/usr/lib/debug), compiler flags from DW_AT_producer, and a verdict:\n"
			 "\"gdb can show tensor fields here\", \"symbols only\" or \"nothing\".\n"
			 "  --json          one JSON document for the whole invocation\n"
			 "  --color=WHEN    auto, always, never\n"
			 "Exit status: 0 every file has usable DWARF, 1 some file has not,\n"
			 "2 usage error or unreadable input.\n",
	};

	return run(argc, argv, ctx, &fo);
}
