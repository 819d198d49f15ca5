/*
 * `pttrace logs RUN [filters]`: a run's records in arrival order, shown as
 * the bytes the child wrote (read back from the run directory), or as
 * parsed fields with --json.
 */
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compileid.h"
#include "jsonout.h"
#include "pttrace.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "rundir.h"
#include "spool.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace logs [OPTIONS] RUN\n"
	"\n"
	"Shows a run's records (TORCH_LOGS records, dispatcher calls, C++ log lines,\n"
	"tracebacks, warnings, other lines) in the order they arrived, as written.\n"
	"\n"
	"Options:\n"
	"  --level L        at least this level: V/DEBUG, I/INFO, W/WARNING, E/ERROR, C\n"
	"  --artifact NAME  TORCH_LOGS artifact (guards, graph_breaks, recompiles, ...)\n"
	"  --compile ID     compile id: 0/1, 0/1_1, !0, [!0/1/0]\n"
	"  --rank N         lines prefixed [rankN]:\n"
	"  --grep RE        POSIX extended regular expression on the message text\n"
	"  --kind K         log, dispatch, cpp, traceback, warning, crash, other\n"
	"  --stream S       stdout or stderr\n"
	"  --limit N        at most N records\n"
	"  --json           records with their fields\n"
	"\n"
	"Exit status: 0 records shown, 1 none matched, 2 usage error or no such run.\n";

static int parse(int argc, char **argv, struct logs_filter *f, struct pt_cli *ctx)
{
	enum { O_LEVEL = 256, O_ARTIFACT, O_COMPILE, O_RANK, O_GREP, O_KIND, O_STREAM, O_LIMIT };
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ "level", required_argument, NULL, O_LEVEL },
		{ "artifact", required_argument, NULL, O_ARTIFACT },
		{ "compile", required_argument, NULL, O_COMPILE },
		{ "rank", required_argument, NULL, O_RANK },
		{ "grep", required_argument, NULL, O_GREP },
		{ "kind", required_argument, NULL, O_KIND },
		{ "stream", required_argument, NULL, O_STREAM },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	memset(f, 0, sizeof(*f));
	f->rank = -1;
	compileid_clear(&f->cid);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case O_LEVEL:
			f->min_level = logs_parse_level(optarg);
			if (f->min_level < 0) {
				fprintf(stderr, "%s: unknown level '%s'\n", ctx->prog, optarg);
				return -2;
			}
			break;
		case O_ARTIFACT:
			/* Accept the name as printed too: "__guards". */
			f->artifact = optarg + (strncmp(optarg, "__", 2) ? 0 : 2);
			break;
		case O_COMPILE:
			if (compileid_parse((const uint8_t *)optarg, strlen(optarg), &f->cid) !=
			    (int)strlen(optarg)) {
				fprintf(stderr, "%s: '%s' is not a compile id (0/1, 0/1_1, !0/1/0)\n",
					ctx->prog, optarg);
				return -2;
			}
			f->has_cid = 1;
			break;
		case O_RANK:
			f->rank = (int)strtol(optarg, &end, 10);
			if (*end || f->rank < 0) {
				fprintf(stderr, "%s: bad rank '%s'\n", ctx->prog, optarg);
				return -2;
			}
			break;
		case O_GREP: {
			/* Checked here, so that a bad pattern is a usage error, not a failed query. */
			regex_t re;
			int rc = regcomp(&re, optarg, REG_EXTENDED | REG_NOSUB);

			if (rc) {
				char msg[256];

				regerror(rc, &re, msg, sizeof(msg));
				fprintf(stderr, "%s logs: --grep '%s': not a POSIX extended regular expression: %s\n",
					ctx->prog, optarg, msg);
				return -2;
			}
			regfree(&re);
			f->grep = optarg;
			break;
		}
		case O_KIND: f->kind = optarg; break;
		case O_STREAM:
			if (!strcmp(optarg, "stdout") || !strcmp(optarg, "out")) {
				f->stream = SPOOL_STDOUT;
			} else if (!strcmp(optarg, "stderr") || !strcmp(optarg, "err")) {
				f->stream = SPOOL_STDERR;
			} else {
				fprintf(stderr, "%s: --stream is stdout or stderr\n", ctx->prog);
				return -2;
			}
			break;
		case O_LIMIT: f->limit = strtoll(optarg, NULL, 10); break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c == EXIT_FINE ? -1 : -2;
		}
	}
	if (argc - optind != 1) {
		fputs(usage_text, stderr);
		return -2;
	}
	return optind;
}

/*
 * Each record as the bytes the child wrote (from the run directory; the
 * stored text when the files are gone), or with --json as one element of
 * the array, row by row as SQLite steps: memory stays bounded however long
 * the run, and a reader that stops early (| head) stops the query.
 * Returns the rows written, or -1 on a query error (diag).
 */
static int64_t print_rows(struct db *ix, int64_t run_id, struct db_stmt *s, int json,
			  struct pt_diag *diag)
{
	struct spool_reader r;
	struct pt_json_stream js;
	char *dir = NULL, *buf = NULL;
	int have_files = 0, st;
	size_t cap = 0;
	int64_t n = 0;

	if (json) {
		pt_json_stream_begin(&js, stdout);
	} else {
		dir = rundir_path(ix, run_id);
		have_files = spool_reader_open(&r, dir, NULL, diag) == 0;
		if (!have_files) {
			pt_diag_release(diag);
			pt_diag_add(diag, PT_SEV_NOTE, dir, NULL, "raw output missing: showing parsed text");
		}
	}
	while ((st = db_step(s)) == 1) {
		n++;
		if (json) {
			if (pt_json_stream_add(&js, db_row_json(s)) < 0)
				break;
			continue;
		}
		size_t len = (size_t)db_col_int(s, LOGS_COL_LEN);
		ssize_t got = -1;

		if (have_files) {
			PT_RESERVE(buf, len, cap);
			got = spool_pread(&r, (int)db_col_int(s, LOGS_COL_STREAM),
					  (uint64_t)db_col_int(s, LOGS_COL_OFF), buf, len);
		}
		if (got >= 0) {
			fwrite(buf, 1, (size_t)got, stdout);
			/* The last line of a stream may lack its newline. */
			if (got == 0 || buf[got - 1] != '\n')
				putchar('\n');
		} else {
			const char *t = db_col_text(s, LOGS_COL_TEXT);

			puts(t ? t : "");
		}
		if (ferror(stdout))
			break;
	}
	if (st == 1)
		db_reset(s);	/* stopped early: the reader went away */
	else if (json)
		pt_json_stream_end(&js);
	free(buf);
	if (have_files)
		spool_reader_close(&r);
	free(dir);
	return st < 0 ? -1 : n;
}

int cmd_logs(int argc, char **argv, struct pt_cli *ctx)
{
	struct logs_filter f;
	struct pt_diag diag;
	struct db *ix = NULL;
	struct db_stmt *s;
	int64_t run_id, n = 0;
	int first = parse(argc, argv, &f, ctx), rc = EXIT_USAGE;

	if (first < 0)
		return first == -1 ? EXIT_FINE : EXIT_USAGE;
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, argv[first], &ix, &run_id, &diag) < 0)
		return EXIT_USAGE;
	if (!(s = logs_query_records(ix, run_id, &f)))
		goto out;
	n = print_rows(ix, run_id, s, ctx->json, &diag);
	if (n < 0 || pttrace_stdout_done(&diag) < 0)
		goto out;
	rc = n ? EXIT_FINE : EXIT_PROBLEMS;
out:
	pttrace_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
