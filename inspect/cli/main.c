/*
 * ptinspect: global options and the subcommand table (common/cli.h). A
 * first argument equal to a subcommand name is that subcommand, and "--"
 * ends that (ptinspect -- deps inspects a file named deps); other arguments
 * are files (cmd_files.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptinspect.h"
#include "ttysafe.h"
#include "xalloc.h"

/* Sorted by name; matched whole. None needs set-up from the table (flags 0). */
static const struct pt_cmd subcommands[] = {
	{ "build", cmd_build, "the build tree a torch came from: configuration, profile, cross-checks", 0 },
	{ "buildlog", cmd_buildlog, "a build's output: the failed phase, the first real error, its cause and fix", 0 },
	{ "config", cmd_config, "the build configuration (torch.__config__.show()) as fields", 0 },
	{ "cuda", cmd_files, "the CUDA fat binaries and whether a GPU can run them", 0 },
	{ "debug", cmd_files, "whether each file can be debugged: DWARF, split DWARF, debuglink", 0 },
	{ "deps", cmd_files, "the ELF and dependency report only", 0 },
	{ "diff", cmd_diff, "two builds, installs, libraries or packages side by side", 0 },
	{ "doctor", cmd_doctor, "the torch a Python sees: verdict first, then details (the default)", 0 },
	{ "env", cmd_env, "import torch in a Python environment: version, config, loaded objects", 0 },
	{ "preflight", cmd_preflight, "before a build: will this machine build the torch asked for?", 0 },
	{ "undefined", cmd_undefined, "symbols no loaded object defines, like ldd -r, per object", 0 },
};
#define NCMDS (PT_ARRAY_SIZE(subcommands))

static void usage(FILE *f)
{
	fputs("usage: ptinspect [--json] [--color=WHEN] FILE...\n"
	      "       ptinspect [--json] SUBCOMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "Reads a built libtorch's files without running them and reports what\n"
	      "the loader, the CUDA runtime and a debugger will make of them.\n"
	      "\n"
	      "Subcommands:\n", f);
	pt_cli_list(f, subcommands, NCMDS);
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
	struct pt_cli cli = { .prog = "ptinspect", .color_mode = PT_COLOR_AUTO };
	const struct pt_cmd *cmd;
	int rc, i;

	/* Control characters in the files' strings never reach the terminal raw (B24). */
	pt_ttysafe_stdio();
	/* Leading global options; the subcommands accept them too. */
	i = pt_cli_globals(&cli, argc, argv, usage, &rc);

	if (i < 0)
		return rc;
	if (i < argc && strcmp(argv[i], "--") != 0 &&
	    (cmd = pt_cli_find(subcommands, NCMDS, argv[i])) != NULL)
		return pt_cli_run(&cli, cmd, argc - i, argv + i);
	/* No arguments: the question users ask first, "is my torch all right?" */
	if (i >= argc) {
		cmd = pt_cli_find(subcommands, NCMDS, "doctor");
		return pt_cli_run(&cli, cmd, 1, (char *[]){ (char *)"doctor", NULL });
	}
	/* cmd_files sees "ptinspect" as argv[0] and the rest, "--" included. */
	argv[i - 1] = (char *)"ptinspect";
	optind = 0;
	return cmd_files(argc - i + 1, argv + i - 1, &cli);
}
