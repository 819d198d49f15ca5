/*
 * Run bookkeeping front ends: `pttrace ls`, `pttrace show RUN`,
 * `pttrace rm RUN...`, `pttrace reindex [RUN...]`: options, the loaders
 * (runs_query.c, logs_query.c, tt_show.c, schema_stale_runs), the renderer
 * (render_runs.h for ls and show) and the exit code.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schema.h"
#include "logs_ingest.h"
#include "jsonout.h"
#include "pttrace.h"
#include "logs_query.h"
#include "render_runs.h"
#include "runs.h"
#include "tt_ingest.h"
#include "tt_query.h"

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
	struct run_list rows;
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
	if (pttrace_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0)
		return EXIT_USAGE;
	if (runs_list(ix, &rows) < 0)
		goto out;
	if (ctx->json) {
		json_t *j = render_runs_json(&rows);

		pt_json_print(stdout, j);
		json_decref(j);
	} else {
		render_runs_text(stdout, &rows, PT_CLI_STYLE(ctx));
	}
	rc = EXIT_FINE;
	runs_list_release(&rows);
out:
	pttrace_print_diag(ctx, &diag);
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

int cmd_show(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix = NULL;
	struct run_show run;
	struct tt_show tt;
	struct logs_show logs;
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
	memset(&run, 0, sizeof(run));
	memset(&logs, 0, sizeof(logs));
	memset(&tt, 0, sizeof(tt));
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, argv[optind], &ix, &id, &diag) < 0)
		return EXIT_USAGE;
	/* The run, its TORCH_LOGS part, its TORCH_TRACE part; each loader leaves its struct empty on failure. */
	if (runs_show_load(ix, id, &run) < 0 || logs_show_load(ix, id, &logs) < 0 ||
	    tt_show_load(ix, id, &tt) < 0)
		goto out;
	if (ctx->json) {
		json_t *j = render_run_show_json(&(struct run_show_view){ &run, &logs, &tt });

		pt_json_print(stdout, j);
		json_decref(j);
	} else {
		render_run_show_text(stdout, &(struct run_show_view){ &run, &logs, &tt },
				     &(struct render_run_show_opts){ .cut = cut }, PT_CLI_STYLE(ctx));
	}
	rc = EXIT_FINE;
out:
	runs_show_release(&run);
	logs_show_release(&logs);
	tt_show_release(&tt);
	pttrace_print_diag(ctx, &diag);
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
			struct run_show run;
			const struct run_row *r = &run.run;

			/* runs_show_load: a "running" run whose recorder is gone is "lost" there. */
			if (runs_resolve(ro, runs[i], &id) < 0 || runs_show_load(ro, id, &run) < 0)
				continue;	/* the writable connection says why */
			if (r->status && !strcmp(r->status, "running")) {
				refuse(diag, id, r->source, r->host, r->pid == -1 ? 0 : r->pid,
				       r->pttrace_pid == -1 ? 0 : r->pttrace_pid);
				json_array_append_new(refused, json_integer(id));
			} else if (importing_into(ro, id, diag)) {
				json_array_append_new(refused, json_integer(id));
			}
			runs_show_release(&run);
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
	if (pttrace_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0) {
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
	pttrace_print_diag(ctx, &diag);
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
	if (pttrace_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0) {
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
	pttrace_print_diag(ctx, &diag);
	db_close(ix);
	pt_diag_release(&diag);
	return rc;
}
