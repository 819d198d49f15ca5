/* The options of the subcommands that ask a Python environment; see ptinspect.h. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ptinspect.h"

int pyenv_opts_parse(struct pt_cli *ctx, int argc, char **argv, const char *optstring,
		     const struct option *flag, const char *usage, struct pyenv_opts *o)
{
	const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "python", required_argument, NULL, 'p' },
		{ "expect", required_argument, NULL, 'e' },
		*flag,
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	memset(o, 0, sizeof(*o));
	optind = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (c == 'p')
			o->python = optarg;
		else if (c == 'e')
			o->expect = optarg;
		else if (c == flag->val)
			o->flag = true;
		else if ((rc = pt_cli_option(ctx, c, optarg, usage)) >= 0)
			return rc;
	}
	if (optind < argc) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	return -1;
}
