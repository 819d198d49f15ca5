/*
 * `pttrace sql [RUN] 'SELECT ...'`: one read-only query on a read-only
 * connection. With RUN, its id is bound to the parameter :run (or ?1 when
 * the query has one unnamed parameter), so saved queries work for any run.
 */
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
	"rows as they come (tab-separated with a header; --json: an array of objects).\n"
	"Text with more than one statement is refused, nothing run; so is\n"
	"fts3_tokenizer() (it reads and sets code addresses). With RUN,\n"
	"the run's id is bound to :run (or to ?1). Tables: docs/internals/index-schema.md.\n"
	"\n"
	"Exit status: 0 rows printed (even none), 2 usage error, bad SQL or no such run.\n";

/* One row as text: tab-separated values; the header before the first. */
static void print_text_row(json_t *row, int header)
{
	const char *k;
	json_t *v;
	int first = 1;

	if (header) {
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

/*
 * Every row as SQLite steps it, written at once: an endless query prints
 * until it is stopped, in bounded memory. -1 on a query error (diag).
 */
static int print_rows(struct db_stmt *s, int json)
{
	struct pt_json_stream js;
	int st;
	size_t n = 0;

	pt_json_stream_begin(&js, stdout);
	while ((st = db_step(s)) == 1) {
		json_t *row = db_row_json(s);

		if (json) {
			if (pt_json_stream_add(&js, row) < 0)
				break;
		} else {
			print_text_row(row, n == 0);
			json_decref(row);
			if (ferror(stdout))
				break;
		}
		n++;
	}
	if (st == 1)
		db_reset(s);	/* the reader went away */
	else if (json && st == 0)
		pt_json_stream_end(&js);
	return st < 0 ? -1 : 0;
}

int cmd_sql(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix = NULL;
	struct db_stmt *s;
	const char *run = NULL, *sql;
	int64_t run_id = -1;
	const char *more;
	int rc = pt_cli_parse_common(ctx, argc, argv, "+h", usage_text);

	if (rc >= 0)
		return rc;
	rc = EXIT_USAGE;
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
	if (pttrace_cmd_open(ctx, run, &ix, &run_id, &diag) < 0)
		return EXIT_USAGE;
	s = db_prepare(ix, sql);
	if (!s)
		goto out;
	if ((more = db_next_statement(ix, sql))) {
		pt_diag_add(&diag, PT_SEV_ERROR, NULL, NULL,
			    "one statement at a time: nothing was run; after the first comes '%.200s'%s",
			    more, strlen(more) > 200 ? "..." : "");
		goto out;
	}
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
	if (print_rows(s, ctx->json) < 0 || pttrace_stdout_done(&diag) < 0)
		goto out;
	rc = EXIT_FINE;
out:
	pttrace_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
