/* The options of the subcommands that ask a Python environment; see ptinspect.h. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptinspect.h"

int timeout_opt_parse(struct pt_cli *ctx, const char *arg, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > 86400) {
		fprintf(stderr, "%s: --timeout wants whole seconds from 1 to 86400, not '%s'\n",
			ctx->prog, arg);
		return EXIT_USAGE;
	}
	*out = (int)v;
	return 0;
}

int pyenv_opts_parse(struct pt_cli *ctx, int argc, char **argv, const char *optstring,
		     const struct option *flag, const char *usage, struct pyenv_opts *o)
{
	const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "python", required_argument, NULL, 'p' },
		{ "expect", required_argument, NULL, 'e' },
		{ "here", no_argument, NULL, 'H' },
		{ "timeout", required_argument, NULL, 't' },
		*flag,
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	memset(o, 0, sizeof(*o));
	o->probe.timeout_s = PYENV_TIMEOUT_S;
	optind = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (c == 'p')
			o->python = optarg;
		else if (c == 'e')
			o->expect = optarg;
		else if (c == 'H')
			o->probe.here = true;
		else if (c == 't') {
			if (timeout_opt_parse(ctx, optarg, &o->probe.timeout_s))
				return EXIT_USAGE;
		}
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
