/*
 * common/cli.c: the option skeleton every subcommand shares (PT_CLI_OPTIONS,
 * PT_CLI_DB_OPTION, pt_cli_option through pt_cli_parse_common,
 * pt_cli_extra_arg): what each option sets, where the arguments start, and
 * the exact words on stdout and stderr.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] = "usage: pttrace ls\n";
static const struct pt_cmd ls_cmd = { "ls", NULL, "list runs", 0 };

/* What one call wrote on stdout and stderr. */
static char out[4096], err[4096];

static void slurp(FILE *f, char *buf, size_t n)
{
	size_t got;

	rewind(f);
	got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* pt_cli_parse_common on argv (NULL-terminated), stdout and stderr caught in out/err. */
static int parse(struct pt_cli *cli, const char *optstring, char **argv)
{
	FILE *fo = tmpfile(), *fe = tmpfile();
	int saved_out = dup(1), saved_err = dup(2), argc = 0, rc;

	assert_non_null(fo);
	assert_non_null(fe);
	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	rc = pt_cli_parse_common(cli, argc, argv, optstring, usage);
	if (rc < 0 && pt_cli_extra_arg(cli, argc, argv, 1, usage))
		rc = 100;	/* "an argument too many" */
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	slurp(fo, out, sizeof(out));
	slurp(fe, err, sizeof(err));
	return rc;
}

static struct pt_cli new_cli(int takes_db)
{
	return (struct pt_cli){ .prog = "pttrace", .cmd = &ls_cmd, .color_mode = PT_COLOR_AUTO,
				.takes_db = takes_db };
}

/* The shared options set the context, before or after the argument, which they leave in place. */
static void shared_options(void **state)
{
	struct pt_cli cli = new_cli(1);
	char *argv[] = { "pttrace ls", "--json", "RUN", "--color=always", "--no-color", "--db", "x.db", NULL };

	(void)state;
	assert_int_equal(parse(&cli, "h", argv), -1);
	assert_int_equal(cli.json, 1);
	assert_int_equal(cli.color_mode, PT_COLOR_NEVER);	/* the last one wins */
	assert_int_equal(cli.color, 0);
	assert_string_equal(cli.db, "x.db");
	assert_int_equal(optind, 6);				/* permuted to the end */
	assert_string_equal(argv[optind], "RUN");
	assert_string_equal(out, "");
	assert_string_equal(err, "");
}

/*
 * --help: the usage and the global options' line on stdout, exit 0, whatever
 * follows; a tool without a database has no --db in that line.
 */
static void help(void **state)
{
	char *argv[] = { "pttrace ls", "RUN", "--help", "--frob", NULL };

	(void)state;
	for (int takes_db = 0; takes_db <= 1; takes_db++) {
		struct pt_cli cli = new_cli(takes_db);
		char want[1024];

		assert_int_equal(parse(&cli, "h", argv), EXIT_FINE);
		snprintf(want, sizeof(want), "%s\nGlobal options, accepted here too: --json,"
			 " --color=WHEN, --no-color%s\n(see 'pttrace --help').\n", usage,
			 takes_db ? ", --db FILE" : "");
		assert_string_equal(out, want);
		assert_string_equal(err, "");
	}
}

/* A bad option, anywhere: getopt's words under argv[0], then the usage; exit 2. */
static void bad_option(void **state)
{
	struct pt_cli cli = new_cli(1);
	char *argv[] = { "pttrace ls", "RUN", "--frob", NULL };
	char *argv2[] = { "pttrace ls", "--frob=1", NULL };

	(void)state;
	assert_int_equal(parse(&cli, "h", argv), EXIT_USAGE);
	assert_string_equal(out, "");
	assert_string_equal(err, "pttrace ls: unrecognized option '--frob'\nusage: pttrace ls\n");
	assert_int_equal(parse(&cli, "h", argv2), EXIT_USAGE);
	assert_string_equal(err, "pttrace ls: unrecognized option '--frob=1'\nusage: pttrace ls\n");
}

/* --db belongs to a tool with a database only; without it, it is a bad option. */
static void db_only_where_taken(void **state)
{
	struct pt_cli cli = new_cli(0);
	char *argv[] = { "pttrace ls", "--db", "x.db", NULL };

	(void)state;
	assert_int_equal(parse(&cli, "h", argv), EXIT_USAGE);
	assert_null(cli.db);
	assert_string_equal(err, "pttrace ls: unrecognized option '--db'\nusage: pttrace ls\n");
}

/* A bad --color value: its own message under the subcommand's name, no usage. */
static void bad_color(void **state)
{
	struct pt_cli cli = new_cli(1);
	char *argv[] = { "pttrace ls", "--color=sometimes", NULL };

	(void)state;
	assert_int_equal(parse(&cli, "h", argv), EXIT_USAGE);
	assert_string_equal(err, "pttrace ls: unknown --color value 'sometimes'\n");
}

/* An option without its value: getopt's words. */
static void missing_value(void **state)
{
	struct pt_cli cli = new_cli(1);
	char *argv[] = { "pttrace ls", "--db", NULL };

	(void)state;
	assert_int_equal(parse(&cli, "h", argv), EXIT_USAGE);
	assert_string_equal(err, "pttrace ls: option '--db' requires an argument\nusage: pttrace ls\n");
}

/* "+": the options end at the first argument; what follows is an argument. */
static void in_order(void **state)
{
	struct pt_cli cli = new_cli(1);
	char *argv[] = { "pttrace ls", "--json", "RUN", "--frob", NULL };

	(void)state;
	assert_int_equal(parse(&cli, "+h", argv), 100);	/* two arguments: RUN and --frob */
	assert_int_equal(cli.json, 1);
	assert_int_equal(optind, 2);
	assert_string_equal(err, "pttrace ls: unexpected argument '--frob'\nusage: pttrace ls\n");
}

/* An argument too many is named; "--" ends the options. */
static void extra_argument(void **state)
{
	struct pt_cli cli = new_cli(1);
	char *argv[] = { "pttrace ls", "A", "--", "--json", NULL };
	char *argv2[] = { "pttrace ls", "--", "--json", NULL };

	(void)state;
	assert_int_equal(parse(&cli, "h", argv), 100);
	assert_int_equal(cli.json, 0);
	assert_string_equal(err, "pttrace ls: unexpected argument '--json'\nusage: pttrace ls\n");
	assert_int_equal(parse(&cli, "h", argv2), -1);
	assert_int_equal(cli.json, 0);
	assert_string_equal(argv2[optind], "--json");
	assert_string_equal(err, "");
	{
		char *argv3[] = { "pttrace ls", "A", "B", NULL };

		assert_int_equal(parse(&cli, "h", argv3), 100);
		assert_string_equal(err, "pttrace ls: unexpected argument 'B'\nusage: pttrace ls\n");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shared_options),
		cmocka_unit_test(help),
		cmocka_unit_test(bad_option),
		cmocka_unit_test(db_only_where_taken),
		cmocka_unit_test(bad_color),
		cmocka_unit_test(missing_value),
		cmocka_unit_test(in_order),
		cmocka_unit_test(extra_argument),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
