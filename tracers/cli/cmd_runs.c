/*
 * Run bookkeeping front ends: `pttrace ls`, `pttrace show RUN`,
 * `pttrace rm RUN...`, `pttrace reindex [RUN...]`. The data comes from
 * runs_query.c, logs_query.c, tt_query.h and schema_stale_runs; this file
 * renders it (text from the same JSON the --json output prints).
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "schema.h"
#include "logs_ingest.h"
#include "jsonout.h"
#include "pttrace.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "strbuf.h"
#include "tt_ingest.h"
#include "tt_query.h"

/* "2026-11-22 02:47:18" in local time. */
static void fmt_time(char *out, size_t n, int64_t us)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
}

/* "exit 0", "signal 9 (Killed)", "running", ... from a run's JSON object. */
static void fmt_status(char *out, size_t n, json_t *r)
{
	const char *st = json_string_value(json_object_get(r, "status"));

	if (st && !strcmp(st, "exited"))
		pt_fmt_trunc(out, n, "exit %lld", (long long)json_integer_value(json_object_get(r, "exit_code")));
	else if (st && !strcmp(st, "signaled")) {
		int sig = (int)json_integer_value(json_object_get(r, "signal"));

		pt_fmt_trunc(out, n, "signal %d (%s)", sig, strsignal(sig));
	} else if (st && !strcmp(st, "lost")) {
		/* Stored by a writing command, or seen now: the recording pttrace is gone. */
		pt_fmt_trunc(out, n, "interrupted");
	} else
		pt_fmt_trunc(out, n, "%s", st ? st : "?");
}

/* The argv JSON array as one shell-like line. */
static void print_argv(FILE *f, const char *argv_json)
{
	json_t *a = json_loads(argv_json ? argv_json : "[]", 0, NULL);
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);

		fprintf(f, "%s%s", i ? " " : "", s ? s : "?");
	}
	json_decref(a);
}

static const char ls_usage[] =
	"usage: pttrace ls [--json]\n"
	"\n"
	"Lists the runs in the database, oldest first: id, name, status, start,\n"
	"duration, command.\n"
	"\n"
	"Exit status: 0 listed, 2 usage error or unreadable database.\n";

int cmd_ls(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix = NULL;
	json_t *rows;
	int rc = pt_cli_parse_common(ctx, argc, argv, "h", ls_usage);

	if (rc >= 0)
		return rc;
	rc = EXIT_USAGE;
	if (optind != argc) {
		fputs(ls_usage, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	{
		/*
		 * No database at the configured place (PTTRACE_DB, the default) is no
		 * runs yet, said on stderr; one named with --db that is not there is a
		 * mistake, as for every other subcommand.
		 */
		char *path = db_default_path(ctx->db);
		int none = access(path, F_OK) != 0;

		if (none && ctx->db && *ctx->db) {
			fprintf(stderr, "%s: '%s': no pttrace database (--db)\n", ctx->prog, path);
			free(path);
			return EXIT_USAGE;
		}
		if (none) {
			if (ctx->json)
				puts("[]");
			fprintf(stderr, "%s: no runs yet (no database at '%s')\n", ctx->prog, path);
			free(path);
			return EXIT_FINE;
		}
		free(path);
	}
	if (pt_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0)
		return EXIT_USAGE;
	rows = runs_list_json(ix);
	if (!rows)
		goto out;
	if (ctx->json) {
		pt_json_print(stdout, rows);
	} else {
		size_t i;
		json_t *r;

		if (json_array_size(rows))
			printf("%-5s %-12s %-20s %-19s %9s  %s\n", "ID", "NAME", "STATUS", "STARTED",
			       "SECONDS", "COMMAND");
		json_array_foreach(rows, i, r) {
			char st[64], when[32], dur[32] = "";
			const char *name = json_string_value(json_object_get(r, "name"));
			json_t *end = json_object_get(r, "ended_us");
			int64_t start = json_integer_value(json_object_get(r, "started_us"));

			fmt_status(st, sizeof(st), r);
			fmt_time(when, sizeof(when), start);
			if (json_is_integer(end))
				pt_fmt_trunc(dur, sizeof(dur), "%.1f",
					 (double)(json_integer_value(end) - start) / 1e6);
			printf("%-5lld %-12s %-20s %-19s %9s  ",
			       (long long)json_integer_value(json_object_get(r, "id")),
			       name ? name : "-", st, when, dur);
			print_argv(stdout, json_string_value(json_object_get(r, "argv")));
			putchar('\n');
		}
	}
	rc = EXIT_FINE;
	json_decref(rows);
out:
	pt_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}

static const char show_usage[] =
	"usage: pttrace show [--json] [--short] RUN\n"
	"\n"
	"One run: a crash first (signal, Python frame, core file, gdb command), then\n"
	"command, status, duration, torch, warnings about tracing that cannot work,\n"
	"graph breaks, recompiles, errors, and lines by kind. Each graph break,\n"
	"recompile and error is its whole first line (a traceback's exception line).\n"
	"\n"
	"  --short          cut those lines at 100 characters (\"...\" says where)\n"
	"\n"
	"Exit status: 0 shown, 2 usage error or no such run.\n";

/* What show prints, as one JSON object. NULL on error (diag). */
static json_t *show_json(struct db *ix, int64_t id)
{
	json_t *run = runs_show_json(ix, id), *indexed;
	int rc;

	if (!run)
		return NULL;
	/* The logs part: lines_by_kind, graph_breaks, recompiles, errors (before "indexed"). */
	indexed = json_incref(json_object_get(run, "indexed"));
	json_object_del(run, "indexed");
	rc = logs_show_json(ix, id, run);
	json_object_set_new(run, "indexed", indexed);
	if (rc < 0)
		goto fail;
	/* TORCH_TRACE: records_by_kind, payload_md5_mismatches, ranks, torch_trace. */
	if (tt_show_json(ix, id, run, db_diag(ix)) < 0)
		goto fail;
	/*
	 * counts: from all indexed data. A break or recompile is seen by both
	 * TORCH_LOGS and TORCH_TRACE when both are on: the larger count, not the
	 * sum. Errors are TORCH_LOGS' error lines and tracebacks plus the
	 * compiles TORCH_TRACE says failed.
	 */
	{
		json_t *tr = json_object_get(run, "torch_trace"), *counts = json_object();
		static const char *const keys[][2] = {
			{ "graph_breaks", "graph_breaks" }, { "recompiles", "recompiles" }, { "errors", "failed_compiles" },
		};

		for (size_t k = 0; k < 3; k++) {
			json_int_t l = (json_int_t)json_array_size(json_object_get(run, keys[k][0]));
			json_int_t t = json_integer_value(json_object_get(tr, keys[k][1]));

			json_object_set_new(counts, keys[k][0],
					    json_pack("{s:I, s:I, s:I}", "total", k == 2 ? l + t : l > t ? l : t,
						      "torch_logs", l, "torch_trace", t));
		}
		json_object_set_new(run, "counts", counts);
	}
	return run;
fail:
	json_decref(run);
	return NULL;
}

/*
 * The line that says what a record is: a traceback's exception line, else
 * the first; whole, or (--short) cut at 100 columns with "..." after them.
 */
#define SHOW_SHORT_COLUMNS 100
static void print_first_line(const char *indent, json_t *rec, int cut)
{
	const char *t = json_string_value(json_object_get(rec, "text"));
	const char *kind = json_string_value(json_object_get(rec, "kind"));
	size_t n;

	if (t && kind && !strcmp(kind, "traceback")) {
		const char *last = strrchr(t, '\n');

		while (last && !last[1] && last > t) {
			/* A trailing newline: look before it. */
			const char *p = last - 1;

			while (p > t && *p != '\n')
				p--;
			last = *p == '\n' ? p : NULL;
		}
		if (last)
			t = last + 1;
	}
	n = t ? strcspn(t, "\n") : 0;

	if (cut && n > SHOW_SHORT_COLUMNS)
		printf("%s%.*s...\n", indent, SHOW_SHORT_COLUMNS, t);
	else
		printf("%s%.*s\n", indent, (int)n, t ? t : "");
}

/*
 * A crash first, before everything else: the signal, where in Python
 * (faulthandler's innermost frame of the crashed thread), what, then where
 * the core went and the gdb line (pttrace run's run_crash row).
 */
static void show_crash(json_t *run)
{
	json_t *c = json_object_get(run, "crash"), *rec = json_array_get(json_object_get(run, "crashes"), 0);
	const char *t = json_string_value(json_object_get(rec, "text"));
	const char *f = json_string_value(json_object_get(rec, "src_file"));
	const char *s;
	int sig = (int)json_integer_value(json_object_get(c ? c : run, "signal"));

	if (!json_is_object(c) && !rec)
		return;
	printf("  crash:    ");
	if (sig > 0)
		printf("signal %d%s%s%s", sig, sigabbrev_np(sig) ? " (SIG" : "",
		       sigabbrev_np(sig) ? sigabbrev_np(sig) : "", sigabbrev_np(sig) ? ")" : "");
	else
		printf("the process printed a fatal error");
	if (f)
		printf(" at %s:%lld", f, (long long)json_integer_value(json_object_get(rec, "src_line")));
	if (t) {
		char *what = logs_crash_summary(t, strlen(t));

		printf(": %s", what);
		free(what);
	}
	putchar('\n');
	if (json_is_object(c)) {
		if ((s = json_string_value(json_object_get(c, "core_note"))))
			printf("            %s\n", s);
		if ((s = json_string_value(json_object_get(c, "gdb"))))
			printf("            %s\n", s);
	}
}

static void show_text(json_t *run, int cut)
{
	char st[64], when[32];
	json_t *v, *arr;
	size_t i;
	const char *s;

	fmt_status(st, sizeof(st), run);
	fmt_time(when, sizeof(when), json_integer_value(json_object_get(run, "started_us")));
	printf("run %lld", (long long)json_integer_value(json_object_get(run, "id")));
	if ((s = json_string_value(json_object_get(run, "name"))))
		printf(" (%s)", s);
	putchar('\n');
	show_crash(run);
	printf("  command:  ");
	json_array_foreach(json_object_get(run, "argv"), i, v)
		printf("%s%s", i ? " " : "", json_string_value(v));
	putchar('\n');
	if ((s = json_string_value(json_object_get(run, "cwd"))))
		printf("  cwd:      %s\n", s);
	printf("  status:   %s", st);
	s = json_string_value(json_object_get(run, "source"));
	if (!strcmp(st, "interrupted") && s && !strcmp(s, "import"))
		printf(" (the pttrace import died before it ended; 'pttrace import --into %lld PATH...'"
		       " of the same files completes it)",
		       (long long)json_integer_value(json_object_get(run, "id")));
	else if (!strcmp(st, "interrupted"))
		printf(" (the recording pttrace died before the run ended; 'pttrace reindex %lld'"
		       " indexes the output it kept)",
		       (long long)json_integer_value(json_object_get(run, "id")));
	putchar('\n');
	printf("  started:  %s", when);
	if (json_is_real(json_object_get(run, "duration_s")))
		printf(", %.2f s", json_real_value(json_object_get(run, "duration_s")));
	putchar('\n');
	if ((s = json_string_value(json_object_get(run, "torch_version"))))
		printf("  torch:    %s, %s build\n", s,
		       json_string_value(json_object_get(run, "torch_build_type")) ?: "unknown");
	else if ((s = json_string_value(
			  json_object_get(json_object_get(run, "torch_trace"), "torch_version"))))
		printf("  torch:    %s (the trace's torch_version artifact)\n", s);
	if ((s = json_string_value(json_object_get(run, "logs_spec"))))
		printf("  TORCH_LOGS=%s\n", s);
	printf("  output:   %lld bytes stdout, %lld bytes stderr\n",
	       (long long)json_integer_value(json_object_get(run, "bytes_stdout")),
	       (long long)json_integer_value(json_object_get(run, "bytes_stderr")));
	arr = json_object_get(run, "warnings");
	json_array_foreach(arr, i, v)
		printf("  warning:  %s\n", json_string_value(json_object_get(v, "message")));
	arr = json_object_get(run, "lines_by_kind");
	if (json_array_size(arr)) {
		printf("  lines:   ");
		json_array_foreach(arr, i, v)
			printf(" %s %lld", json_string_value(json_object_get(v, "kind")),
			       (long long)json_integer_value(json_object_get(v, "lines")));
		putchar('\n');
	}
	/* TORCH_TRACE */
	v = json_object_get(run, "torch_trace");
	if (json_integer_value(json_object_get(v, "files"))) {
		long long nf = json_integer_value(json_object_get(v, "files"));
		long long nr = json_integer_value(json_object_get(v, "records"));
		long long nm = json_integer_value(json_object_get(run, "payload_md5_mismatches"));
		long long nd = json_integer_value(json_object_get(v, "damaged_lines"));

		printf("  torch_trace: %lld file%s, %lld record%s, %lld payload md5 mismatch%s, %lld damaged line%s, ranks:",
		       nf, PT_PLURAL(nf), nr, PT_PLURAL(nr), nm, nm == 1 ? "" : "es", nd, PT_PLURAL(nd));
		json_array_foreach(json_object_get(run, "ranks"), i, arr)
			printf(" %lld", (long long)json_integer_value(arr));
		printf(json_array_size(json_object_get(run, "ranks")) ? "\n" : " none\n");
	}
	static const char *const lists[] = { "graph_breaks", "recompiles", "errors" };
	for (size_t k = 0; k < 3; k++) {
		json_t *cnt = json_object_get(json_object_get(run, "counts"), lists[k]);

		arr = json_object_get(run, lists[k]);
		/* The count from everything indexed; the lines below are TORCH_LOGS'. */
		printf("  %s: %lld", lists[k], (long long)json_integer_value(json_object_get(cnt, "total")));
		if (json_integer_value(json_object_get(cnt, "torch_trace")))
			printf(" (TORCH_TRACE %lld%s, TORCH_LOGS %zu)",
			       (long long)json_integer_value(json_object_get(cnt, "torch_trace")),
			       k == 2 ? " failed compiles" : "", json_array_size(arr));
		putchar('\n');
		json_array_foreach(arr, i, v) {
			if (i == 10) {
				printf("    ... %zu more\n", json_array_size(arr) - 10);
				break;
			}
			print_first_line("    ", v, cut);
		}
	}
}

int cmd_show(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix = NULL;
	json_t *run = NULL;
	int64_t id;
	static const struct option longopts[] = {
		{ "short", no_argument, NULL, 's' },
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	int c, rc, cut = 0;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': cut = 1; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, show_usage)) >= 0)
				return c;
		}
	}
	rc = EXIT_USAGE;
	if (argc - optind != 1) {
		fputs(show_usage, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, argv[optind], &ix, &id, &diag) < 0)
		return EXIT_USAGE;
	if (!(run = show_json(ix, id)))
		goto out;
	if (ctx->json)
		pt_json_print(stdout, run);
	else
		show_text(run, cut);
	rc = EXIT_FINE;
out:
	json_decref(run);
	pt_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}

static const char rm_usage[] =
	"usage: pttrace rm [--json] RUN...\n"
	"\n"
	"Deletes each run's rows and its directory (raw output, trace files).\n"
	"A run still being recorded is refused.\n"
	"\n"
	"Exit status: 0 all deleted, 2 usage error, a RUN that does not exist or\n"
	"is still running (the others are still deleted).\n";

/* Why run id (source, recorder's host and pids) cannot be deleted now. */
static void refuse(struct pt_diag *diag, int64_t id, const char *source, const char *host, int64_t pid,
		   int64_t pttrace_pid)
{
	if (source && !strcmp(source, "import"))
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL,
			    "run %lld is being imported by pttrace import (pid %lld on %s): not deleted;"
			    " wait for the import to end", (long long)id, (long long)pttrace_pid,
			    host ? host : "?");
	else
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL,
			    "run %lld is still being recorded (by a pttrace run on %s, child pid %lld):"
			    " not deleted; stop that run first", (long long)id, host ? host : "?",
			    (long long)pid);
}

static int64_t runs_pttrace_pid(struct db *ix, int64_t id)
{
	struct db_stmt *s = db_prepare(ix, "SELECT pttrace_pid FROM runs WHERE id = ?1");
	int64_t pid = 0;

	if (s && db_bind(s, "i", id) == 0 && db_step(s) == 1) {
		pid = db_col_int(s, 0);
		db_reset(s);
	}
	return pid;
}

/* 1 when a live `pttrace import --into` is writing into run id (reported), else 0. */
static int importing_into(struct db *ix, int64_t id, struct pt_diag *diag)
{
	char *host = NULL;
	int64_t pid = tt_import_running(ix, id, &host);

	if (pid)
		refuse(diag, id, "import", host, 0, pid);
	free(host);
	return pid != 0;
}

/*
 * The RUNs being recorded now (a live pttrace run), found on a read-only
 * connection: a running run's indexer holds the write lock, so asking
 * first gives a clear refusal at once instead of a wait for the lock.
 * Each is reported; *refused gets their ids.
 */
static void find_running(struct pt_cli *ctx, char **runs, int n, json_t *refused, struct pt_diag *diag)
{
	char *path = db_default_path(ctx->db);
	struct pt_diag d;
	struct db *ro = NULL;

	pt_diag_init(&d);
	if (pttrace_db_open(&ro, path, DB_READONLY | DB_NO_CREATE, &d) == 0) {
		for (int i = 0; i < n; i++) {
			int64_t id;
			json_t *run;
			const char *st;

			if (runs_resolve(ro, runs[i], &id) < 0 || !(run = runs_show_json(ro, id)))
				continue;	/* the writable connection says why */
			st = json_string_value(json_object_get(run, "status"));
			if (st && !strcmp(st, "running")) {
				refuse(diag, id, json_string_value(json_object_get(run, "source")),
				       json_string_value(json_object_get(run, "host")),
				       json_integer_value(json_object_get(run, "pid")),
				       json_integer_value(json_object_get(run, "pttrace_pid")));
				json_array_append_new(refused, json_integer(id));
			} else if (importing_into(ro, id, diag)) {
				json_array_append_new(refused, json_integer(id));
			}
			json_decref(run);
		}
	}
	db_close(ro);
	pt_diag_release(&d);
	free(path);
}

static int in_list(json_t *ids, int64_t id)
{
	size_t i;
	json_t *v;

	json_array_foreach(ids, i, v)
		if (json_integer_value(v) == id)
			return 1;
	return 0;
}

int cmd_rm(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix = NULL;
	json_t *done, *refused;
	int first, rc = pt_cli_parse_common(ctx, argc, argv, "h", rm_usage);

	if (rc >= 0)
		return rc;
	if (optind >= argc) {
		fputs(rm_usage, stderr);
		return EXIT_USAGE;
	}
	first = optind;
	rc = EXIT_FINE;
	done = json_array();
	refused = json_array();
	pt_diag_init(&diag);
	find_running(ctx, argv + first, argc - first, refused, &diag);
	if (json_array_size(refused) == (size_t)(argc - first)) {
		/* Nothing to delete: no need to wait for the write lock the recorder holds. */
		rc = EXIT_USAGE;
		goto out;
	}
	if (pt_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0) {
		json_decref(done);
		json_decref(refused);
		return EXIT_USAGE;
	}
	/* Runs whose pttrace died become "lost": those may go; "running" ones are being recorded. */
	runs_mark_lost(ix);
	for (int i = first; i < argc; i++) {
		struct run_row row;
		int64_t id;
		int running;

		if (runs_resolve(ix, argv[i], &id) < 0 || runs_load(ix, id, &row) < 0) {
			rc = EXIT_USAGE;
			continue;
		}
		running = row.status && !strcmp(row.status, "running");
		if (running && !in_list(refused, id))
			refuse(&diag, id, row.source, row.host, row.pid, runs_pttrace_pid(ix, id));
		else if (!running && !in_list(refused, id) && importing_into(ix, id, &diag))
			running = 1;
		runs_row_release(&row);
		if (running || in_list(refused, id) || runs_delete(ix, id) < 0) {
			rc = EXIT_USAGE;
			continue;
		}
		json_array_append_new(done, json_integer(id));
		if (!ctx->json)
			printf("deleted run %lld\n", (long long)id);
	}
	if (json_array_size(done) && (tt_forget_orphans(ix) < 0 || runs_compact(ix) < 0))
		rc = EXIT_USAGE;
	if (json_array_size(refused))
		rc = EXIT_USAGE;
out:
	if (ctx->json) {
		json_t *o = json_object();

		json_object_set_new(o, "deleted", json_incref(done));
		pt_json_print(stdout, o);
		json_decref(o);
	}
	json_decref(done);
	json_decref(refused);
	pt_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}

static const char reindex_usage[] =
	"usage: pttrace reindex [--all] [RUN...]\n"
	"\n"
	"Rebuilds the parsed records of runs from the raw output kept in their\n"
	"directories: after a pttrace upgrade that changed the parsers (the runs\n"
	"whose records are out of date, by default), or after an interrupted run.\n"
	"--all rebuilds every run.\n"
	"\n"
	"Exit status: 0 done, 1 a run could not be reindexed, 2 usage error.\n";

int cmd_reindex(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ NULL, 0, NULL, 0 },
	};
	struct pt_diag diag;
	struct db *ix = NULL;
	json_t *runs = NULL, *done = json_array(), *v;
	size_t i;
	int c, all = 0, rc = EXIT_FINE;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': all = 1; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, reindex_usage)) >= 0) {
				json_decref(done);
				return c;
			}
		}
	}
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0) {
		json_decref(done);
		return EXIT_USAGE;
	}
	runs_mark_lost(ix);
	if (optind < argc) {
		runs = json_array();
		for (int k = optind; k < argc; k++) {
			int64_t id;

			if (runs_resolve(ix, argv[k], &id) < 0) {
				rc = EXIT_USAGE;
				continue;
			}
			json_array_append_new(runs, json_pack("{s:I}", "id", (json_int_t)id));
		}
	} else {
		/* Runs still running are left alone: their pttrace is indexing them. */
		runs = schema_stale_runs(ix, &logs_part, all, "run");
	}
	json_array_foreach(runs, i, v) {
		int64_t id = json_integer_value(json_object_get(v, "id"));
		struct run_row r;
		struct logs_ingest_stats st;

		if (runs_load(ix, id, &r) < 0) {
			rc = EXIT_PROBLEMS;
			continue;
		}
		/* An import has no captured output: only its TORCH_TRACE part (below) is rebuilt. */
		if (!r.source || strcmp(r.source, "run") != 0) {
			runs_row_release(&r);
			continue;
		}
		if (logs_ingest_run_dir(ix, id, r.started_us, (long)r.tz_offset_s, &st) < 0) {
			rc = EXIT_PROBLEMS;
		} else {
			json_array_append_new(done, json_integer(id));
			if (!ctx->json)
				printf("reindexed run %lld: %llu bytes\n", (long long)id,
				       (unsigned long long)st.bytes);
		}
		runs_row_release(&r);
	}
	/* TORCH_TRACE: the same runs' trace part, and any run (imports too) whose trace part is stale. */
	{
		json_t *tr = optind < argc ? json_incref(runs)
			: schema_stale_runs(ix, &tt_records_part, all, NULL);

		json_array_foreach(tr, i, v) {
			int64_t id = json_integer_value(json_object_get(v, "id"));

			if (tt_index_run(ix, id, 0, &diag, NULL) < 0)
				rc = EXIT_PROBLEMS;
			else if (!ctx->json)
				printf("reindexed TORCH_TRACE of run %lld\n", (long long)id);
		}
		json_decref(tr);
	}
	if (ctx->json) {
		json_t *o = json_pack("{s:O}", "reindexed", done);

		pt_json_print(stdout, o);
		json_decref(o);
	}
	json_decref(runs);
	json_decref(done);
	pt_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
