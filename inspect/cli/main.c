/*
 * ptinspect: global options, the subcommand table and exit codes. Each
 * subcommand lives in its own cmd_<name>.c; a first argument equal to a
 * subcommand name is that subcommand, and "--" ends that (ptinspect -- deps
 * inspects a file named deps).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptinspect.h"

#define PTINSPECT_VERSION "0.1.0"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv, struct pt_ctx *ctx);
	const char *summary;
};

/* Sorted by name. */
static const struct subcommand subcommands[] = {
	{ "config", cmd_config, "the build configuration (torch.__config__.show()) as fields" },
	{ "cuda", cmd_cuda, "the CUDA fat binaries and whether a GPU can run them" },
	{ "debug", cmd_debug, "whether each file can be debugged: DWARF, split DWARF, debuglink" },
	{ "deps", cmd_deps, "the ELF and dependency report only" },
	{ "doctor", cmd_doctor, "the torch a Python sees: verdict first, then details (the default)" },
	{ "env", cmd_env, "import torch in a Python environment: version, config, loaded objects" },
	{ "undefined", cmd_undefined, "symbols no loaded object defines, like ldd -r, per object" },
};

static void usage(FILE *f)
{
	fputs("usage: ptinspect [--json] [--color=WHEN] FILE...\n"
	      "       ptinspect [--json] SUBCOMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "Reads a built libtorch's files without running them and reports what\n"
	      "the loader, the CUDA runtime and a debugger will make of them.\n"
	      "\n"
	      "Subcommands:\n", f);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fputs("\n"
	      "Global options:\n"
	      "  --json          one JSON document on stdout\n"
	      "  --color=WHEN    auto (default: only on a tty, never with NO_COLOR), always, never\n"
	      "  -h, --help      this text; 'ptinspect SUBCOMMAND --help' for a subcommand\n"
	      "  --version       print the version\n"
	      "\n"
	      "Exit status:\n"
	      "  0  everything fine\n"
	      "  1  problems found (missing library, unmet version, damaged data)\n"
	      "  2  usage error or unreadable input\n", f);
}

int main(int argc, char **argv)
{
	struct pt_ctx ctx = { .prog = "ptinspect", .color_mode = PT_COLOR_AUTO };
	int i = 1;

	/* Leading global options; the subcommands accept them too. */
	for (; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json")) {
			ctx.json = 1;
		} else if (!strcmp(a, "--no-color")) {
			ctx.color_mode = PT_COLOR_NEVER;
		} else if (!strncmp(a, "--color", 7) && (a[7] == '\0' || a[7] == '=')) {
			if (pt_ctx_set_color(&ctx, a[7] ? a + 8 : NULL) < 0)
				return EXIT_USAGE;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return EXIT_FINE;
		} else if (!strcmp(a, "--version")) {
			printf("ptinspect " PTINSPECT_VERSION "\n");
			return EXIT_FINE;
		} else {
			break;
		}
	}
	ctx.color = pt_color_enabled(stdout, ctx.color_mode);
	ctx.color_err = pt_color_enabled(stderr, ctx.color_mode);

	if (i < argc && strcmp(argv[i], "--") != 0) {
		for (size_t k = 0; k < sizeof(subcommands) / sizeof(subcommands[0]); k++)
			if (!strcmp(argv[i], subcommands[k].name))
				return subcommands[k].fn(argc - i, argv + i, &ctx);
	}
	/* No arguments: the question users ask first, "is my torch all right?" */
	if (i >= argc)
		return cmd_doctor(1, (char *[]){ (char *)"doctor", NULL }, &ctx);
	/* cmd_files sees "ptinspect" as argv[0] and the rest, "--" included. */
	argv[i - 1] = (char *)"ptinspect";
	return cmd_files(argc - i + 1, argv + i - 1, &ctx);
}
