/*
 * `pttrace sql [RUN] 'SELECT ...'`: one read-only query on a read-only
 * connection. With RUN, its id is bound to the parameter :run (or ?1 when
 * the query has one unnamed parameter), so saved queries work for any run.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"

static const char usage_text[] =
	"usage: pttrace sql [RUN] 'SELECT ...'\n"
	"\n"
	"Runs one read-only SQL statement on a read-only connection and prints the\n"
	"rows (tab-separated with a header; --json: an array of objects). With RUN,\n"
	"the run's id is bound to :run (or to ?1). Tables: docs/internals/index-schema.md.\n"
	"\n"
	"Exit status: 0 rows printed (even none), 2 usage error, bad SQL or no such run.\n";

static void print_text(json_t *rows)
{
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row) {
		const char *k;
		json_t *v;
		int first = 1;

		if (i == 0) {
			json_object_foreach(row, k, v) {
				printf("%s%s", first ? "" : "\t", k);
				first = 0;
			}
			putchar('\n');
			first = 1;
		}
		json_object_foreach(row, k, v) {
			fputs(first ? "" : "\t", stdout);
			first = 0;
			if (json_is_string(v))
				fputs(json_string_value(v), stdout);
			else if (json_is_integer(v))
				printf("%lld", (long long)json_integer_value(v));
			else if (json_is_real(v))
				printf("%g", json_real_value(v));
			else
				fputs("NULL", stdout);
		}
		putchar('\n');
	}
}

int cmd_sql(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct pt_diag diag;
	struct db *ix = NULL;
	struct db_stmt *s;
	const char *run = NULL, *sql;
	int64_t run_id = -1;
	json_t *rows = NULL;
	int c, rc = EXIT_USAGE;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (argc - optind == 2) {
		run = argv[optind];
		sql = argv[optind + 1];
	} else if (argc - optind == 1) {
		sql = argv[optind];
	} else {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, run, &ix, &run_id, &diag) < 0)
		return EXIT_USAGE;
	s = db_prepare(ix, sql);
	if (!s)
		goto out;
	if (!db_stmt_readonly(s)) {
		pt_diag_add(&diag, PT_SEV_ERROR, NULL, NULL, "only read-only statements: '%s'", sql);
		goto out;
	}
	if (run) {
		int k = db_param_index(s, ":run");

		if (!k && db_param_count(s) == 1)
			k = 1;
		if (k && db_bind_at(s, k, "i", run_id) < 0)
			goto out;
	}
	rows = db_rows_json(s);
	if (!rows)
		goto out;
	if (ctx->json)
		pt_json_print(stdout, rows);
	else
		print_text(rows);
	rc = EXIT_FINE;
out:
	pt_print_diag(ctx, &diag);
	json_decref(rows);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
