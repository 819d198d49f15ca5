/* The command-line skeleton; see cli.h. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "strbuf.h"
#include "ttysafe.h"
#include "version.h"
#include "xalloc.h"

static char cli_name[128];

const char *pt_cli_name(const struct pt_cli *cli)
{
	if (!cli->cmd)
		return cli->prog;
	pt_fmt_trunc(cli_name, sizeof(cli_name), "%s %s", cli->prog, cli->cmd->name);
	return cli_name;
}

int pt_cli_set_color(struct pt_cli *cli, const char *when)
{
	int m = when ? pt_color_mode_parse(when) : PT_COLOR_ALWAYS;

	if (m < 0) {
		fprintf(stderr, "%s: unknown --color value '%s'\n", pt_cli_name(cli), when);
		return -1;
	}
	cli->color_mode = (enum pt_color_mode)m;
	cli->color = pt_color_enabled(stdout, cli->color_mode);
	cli->color_err = pt_color_enabled(stderr, cli->color_mode);
	pt_ttysafe_allow_color(cli->color, cli->color_err);
	return 0;
}

/*
 * 'j', 'C', 'N' from PT_CLI_OPTIONS and 'D' from PT_CLI_DB_OPTION: 1 handled, 0 not one of them, -1 a
 * bad --color value (message printed).
 */
static int common_opt(struct pt_cli *cli, int c, const char *arg)
{
	switch (c) {
	case 'j':
		cli->json = 1;
		pt_ttysafe_stdout_raw();	/* JSON escapes its strings itself */
		return 1;
	case 'C':
		return pt_cli_set_color(cli, arg) < 0 ? -1 : 1;
	case 'N':
		return pt_cli_set_color(cli, "never") < 0 ? -1 : 1;
	case 'D':
		cli->db = arg;
		return 1;
	default:
		return 0;
	}
}

int pt_cli_option(struct pt_cli *cli, int c, const char *arg, const char *usage)
{
	int r = common_opt(cli, c, arg);

	if (r > 0)
		return -1;
	if (r < 0)
		return EXIT_USAGE;	/* the bad --color value is already reported */
	if (c == 'h') {
		fputs(usage, stdout);
		if (cli->cmd)
			printf("\nGlobal options, accepted here too: --json, --color=WHEN, --no-color%s\n"
			       "(see '%s --help').\n", cli->takes_db ? ", --db FILE" : "", cli->prog);
		return EXIT_FINE;
	}
	fputs(usage, stderr);
	return EXIT_USAGE;
}

int pt_cli_parse_common(struct pt_cli *cli, int argc, char **argv, const char *optstring,
			const char *usage)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	static const struct option longopts_db[] = {
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, optstring, cli->takes_db ? longopts_db : longopts,
				NULL)) != -1)
		if ((rc = pt_cli_option(cli, c, optarg, usage)) >= 0)
			return rc;
	return -1;
}

int pt_cli_extra_arg(const struct pt_cli *cli, int argc, char **argv, int max, const char *usage)
{
	if (argc - optind <= max)
		return 0;
	pt_cli_unexpected_arg(cli, argv[optind + max]);
	fputs(usage, stderr);
	return 1;
}

void pt_cli_bad_option(const struct pt_cli *cli, const char *arg)
{
	fprintf(stderr, "%s: unrecognized option '%s'\n", pt_cli_name(cli), arg);
}

void pt_cli_unexpected_arg(const struct pt_cli *cli, const char *arg)
{
	fprintf(stderr, "%s: unexpected argument '%s'\n", pt_cli_name(cli), arg);
}

int pt_cli_globals(struct pt_cli *cli, int argc, char **argv, void (*usage)(FILE *f), int *rc)
{
	int i = 1;

	*rc = EXIT_FINE;
	for (; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json")) {
			cli->json = 1;
			pt_ttysafe_stdout_raw();	/* JSON escapes its strings itself */
		} else if (cli->takes_db && (!strcmp(a, "--db") || !strncmp(a, "--db=", 5))) {
			if (a[4] == '=') {
				cli->db = a + 5;
			} else if (i + 1 < argc) {
				cli->db = argv[++i];
			} else {
				fprintf(stderr, "%s: option '--db' requires an argument\n", cli->prog);
				*rc = EXIT_USAGE;
				return -1;
			}
		} else if (!strcmp(a, "--no-color")) {
			cli->color_mode = PT_COLOR_NEVER;
		} else if (!strncmp(a, "--color", 7) && (a[7] == '\0' || a[7] == '=')) {
			if (pt_cli_set_color(cli, a[7] ? a + 8 : NULL) < 0) {
				*rc = EXIT_USAGE;
				return -1;
			}
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return -1;
		} else if (!strcmp(a, "--version")) {
			printf("%s %s\n", cli->prog, PT_VERSION);
			return -1;
		} else {
			break;
		}
	}
	cli->color = pt_color_enabled(stdout, cli->color_mode);
	cli->color_err = pt_color_enabled(stderr, cli->color_mode);
	pt_ttysafe_allow_color(cli->color, cli->color_err);
	return i;
}

const struct pt_cmd *pt_cli_find(const struct pt_cmd *table, size_t n, const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(name, table[k].name))
			return &table[k];
	return NULL;
}

int pt_cli_run(struct pt_cli *cli, const struct pt_cmd *cmd, int argc, char **argv)
{
	char *name = pt_xasprintf("%s %s", cli->prog, cmd->name);
	int rc;

	cli->cmd = cmd;
	if ((cmd->flags & PT_STDOUT_BYTES) && !isatty(STDOUT_FILENO))
		pt_ttysafe_stdout_raw();
	argv[0] = name;
	optind = 0;
	rc = cmd->fn(argc, argv, cli);
	free(name);
	return rc;
}

void pt_cli_list(FILE *f, const struct pt_cmd *table, size_t n)
{
	int width = 0;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(table[i].name) > width)
			width = (int)strlen(table[i].name);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-*s  %s\n", width, table[i].name, table[i].summary);
}
