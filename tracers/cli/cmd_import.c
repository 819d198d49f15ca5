/*
 * `pttrace import [--name N] [--into RUN] PATH...`: TORCH_TRACE files or
 * directories from elsewhere (a cluster job's per-rank files) become one run,
 * or join an existing one. Each file is copied into <run dir>/trace/ first:
 * the run directory holds the content, the index is rebuilt from it.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jsonout.h"
#include "pttrace.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "tt_ingest.h"
#include "tt_sources.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace import [--name NAME] [--into RUN] [--rank-from=file|record] [--json] PATH...\n"
	"\n"
	"Index TORCH_TRACE files (dedicated_log_torch_trace_*.log) as one run, or\n"
	"add them to RUN. A directory stands for every *.log file below it.\n"
	"The files are copied into the run's directory (trace/). A file already\n"
	"imported into RUN is not imported again; one whose import was interrupted\n"
	"(killed) is imported again, completing it.\n"
	"\n"
	"Each file is one process; its records get the file's rank: rank_<R>_ in\n"
	"the file name, else the first \"rank\" its records carry\n"
	"(--rank-from=record: the records' first, else the name's). Conflicts are\n"
	"reported; files are never merged, not even when they say the same rank.\n"
	"\n"
	"Exit status: 0 fine; 1 damaged lines, md5 mismatches or rank conflicts\n"
	"(all else indexed); 2 usage error or unreadable input.\n";


/*
 * The import that made run_id failed: the run says so, with the first error
 * (show: status failed, the warning), instead of looking like a pttrace that
 * died. Best effort: on a full disk this may not be written either.
 */
static void import_failed(struct db *ix, int64_t run_id, struct pt_diag *diag)
{
	const struct pt_diag_msg *e = NULL;
	char *msg;

	for (size_t i = 0; i < diag->n && !e; i++)
		if (diag->v[i].sev == PT_SEV_ERROR)
			e = &diag->v[i];
	if (e)
		msg = pt_xasprintf("import failed: %s%s%s%s%s%s", e->file ? "'" : "", e->file ? e->file : "",
				   e->file ? "': " : "", e->where ? e->where : "", e->where ? ": " : "",
				   e->what);
	else
		msg = pt_xstrdup("import failed");
	if (db_in_batch(ix))
		db_rollback(ix);
	runs_add_warning(ix, run_id, "import-failed", msg);
	runs_finish(ix, run_id, RUN_FAILED, 0, pt_wall_us(), 0, 0);
	free(msg);
}

/*
 * --into a run whose own import died ("interrupted"): once no file of it is
 * left incomplete, it is a finished import again.
 */
static void import_resumed(struct db *ix, int64_t run_id, struct pt_diag *diag)
{
	struct run_row r;
	struct db_stmt *s;
	int left = 1;

	if (runs_mark_lost(ix) < 0 || runs_load(ix, run_id, &r) < 0)
		return;
	if (r.source && !strcmp(r.source, "import") && r.status && !strcmp(r.status, "lost")) {
		s = db_prepare(ix, "SELECT count(*) FROM trace_sources WHERE run_id = ?1 AND state = 'copying'");
		if (s && db_bind(s, "i", run_id) == 0 && db_step(s) == 1) {
			left = (int)db_col_int(s, 0);
			db_reset(s);
		}
		if (!left && runs_finish(ix, run_id, RUN_EXITED, 0, pt_wall_us(), 0, 0) == 0)
			pt_diag_add(diag, PT_SEV_NOTE, NULL, NULL,
				    "run %lld, whose import had been interrupted, is complete now",
				    (long long)run_id);
	}
	runs_row_release(&r);
}

int cmd_import(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ "name", required_argument, NULL, 'n' },
		{ "into", required_argument, NULL, 'i' },
		{ "rank-from", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *into = NULL, *rank_from = NULL;
	struct tt_sources w = { 0 };
	struct pt_diag diag;
	struct db *ix = NULL;
	int64_t run_id = 0;
	struct tt_ingest_totals tot = {0};
	int c, i, rc = EXIT_USAGE;
	uint64_t t0 = pt_now_ns();

	/* Options before the PATHs only ("+"): all after the first PATH are PATHs. */
	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': name = optarg; break;
		case 'i': into = optarg; break;
		case 'r':
			rank_from = optarg;
			if (strcmp(rank_from, "file") && strcmp(rank_from, "record")) {
				fprintf(stderr, "pttrace import: --rank-from wants 'file' or 'record', not '%s'\n",
					rank_from);
				return EXIT_USAGE;
			}
			break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	i = optind;
	if (i >= argc || (name && into)) {
		fputs(i >= argc ? "pttrace import: no PATH given\n" : "pttrace import: --name and --into exclude each other\n", stderr);
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	for (; i < argc; i++)
		tt_sources_add(&w, argv[i], &diag);
	if (pt_diag_count(&diag, PT_SEV_ERROR))
		goto out;
	if (pttrace_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0)
		goto out_nodiag;
	if (into) {
		if (runs_resolve(ix, into, &run_id) < 0)
			goto out;
	} else {
		char cwd[PATH_MAX];
		char host[256] = "";
		struct run_info ri = {0};
		time_t t = time(NULL);
		struct tm tm;

		ri.name = name;
		ri.source = "import";
		ri.argv = argv;
		ri.argc = argc;
		ri.cwd = getcwd(cwd, sizeof(cwd));
		gethostname(host, sizeof(host) - 1);
		ri.host = host;
		ri.trace = 1;
		ri.started_us = pt_wall_us();
		ri.tz_offset_s = localtime_r(&t, &tm) ? tm.tm_gmtoff : 0;
		if (runs_create(ix, &ri, &run_id) < 0)
			goto out;
	}
	{
		/* All files at once: parsed on all cores, written in this order. */
		const char **srcs = pt_xcalloc(w.n + 1, sizeof(*srcs));
		int irc;

		/* A file already in the run (by its path) is not imported twice (tt_import_files). */
		for (size_t k = 0; k < w.n; k++)
			srcs[k] = w.v[k].src;
		irc = tt_import_files(ix, run_id, srcs, w.n, rank_from, isatty(2), &diag, &tot);
		free(srcs);
		if (irc < 0) {
			if (!into)
				import_failed(ix, run_id, &diag);
			goto out;
		}
	}
	if (tt_processes_check(ix, run_id, &diag) < 0 || tt_mark_indexed(ix, run_id) < 0)
		goto out;
	if (!into && runs_finish(ix, run_id, RUN_EXITED, 0, pt_wall_us(), 0, 0) < 0)
		goto out;
	if (into)
		import_resumed(ix, run_id, &diag);
	{
		double s = (double)(pt_now_ns() - t0) / 1e9;

		if (ctx->json) {
			json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:{s:f, s:f, s:f}}",
					      "run", (json_int_t)run_id, "files", (json_int_t)tot.files,
					      "bytes", (json_int_t)tot.bytes, "records", (json_int_t)tot.records,
					      "payloads", (json_int_t)tot.payloads,
					      "payload_md5_mismatches", (json_int_t)tot.md5_mismatches,
					      "damaged_lines", (json_int_t)tot.damaged, "seconds", s,
					      "cpu_seconds", "read", tot.cpu_read, "parse", tot.cpu_parse,
					      "write", tot.cpu_write);

			pt_json_print(stdout, o);
			json_decref(o);
		} else {
			printf("run %lld: %llu file%s, %.1f MB, %llu records, %llu payloads in %.2f s"
			       " (%.0f MB/s); %llu md5 mismatches, %llu damaged lines\n",
			       (long long)run_id, (unsigned long long)tot.files, tot.files == 1 ? "" : "s",
			       (double)tot.bytes / 1e6, (unsigned long long)tot.records,
			       (unsigned long long)tot.payloads, s, s > 0 ? (double)tot.bytes / 1e6 / s : 0.0,
			       (unsigned long long)tot.md5_mismatches, (unsigned long long)tot.damaged);
		}
	}
	rc = pt_diag_count(&diag, PT_SEV_WARNING) ? EXIT_PROBLEMS : EXIT_FINE;
out:
	db_close(ix);
	pttrace_print_diag(ctx, &diag);
	pt_diag_release(&diag);
out_nodiag:
	tt_sources_release(&w);
	return rc;
}
