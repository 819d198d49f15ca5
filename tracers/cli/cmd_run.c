/*
 * `pttrace run [OPTIONS] script.py [ARGS]` and `pttrace run [OPTIONS] -- CMD
 * [ARGS]`: create the run, set the child's tracing environment, start it,
 * spool and show its output (capture.c), index it in a second thread
 * (ingest.c) that may finish after the child, record how it ended, and exit
 * with the child's status (125/126/127 for our own failures, like env(1)).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "logs_ingest.h"
#include "jsonout.h"
#include "pttrace.h"
#include "query.h"
#include "runenv.h"
#include "runs.h"
#include "spool.h"
#include "tt_ingest.h"
#include "xalloc.h"

extern char **environ;

static const char usage_text[] =
	"usage: pttrace run [OPTIONS] SCRIPT.py [ARGS...]\n"
	"       pttrace run [OPTIONS] -- COMMAND [ARGS...]\n"
	"\n"
	"Runs a Python script (or any command after --) with torch's tracing on,\n"
	"shows its output live and stores all of it, indexed, in the database.\n"
	"\n"
	"Options:\n"
	"  --logs SPEC      TORCH_LOGS for the child (default: the caller's TORCH_LOGS,\n"
	"                   else " RUNENV_DEFAULT_LOGS "; '' unsets it)\n"
	"  --dispatch       TORCH_SHOW_DISPATCH_TRACE=1 (printed only by code compiled\n"
	"                   without NDEBUG)\n"
	"  --trace          TORCH_TRACE=<run directory>/trace (the default)\n"
	"  --no-trace       leave TORCH_TRACE as it is\n"
	"  --python PATH    interpreter for SCRIPT.py (default: python3 first on PATH)\n"
	"  --name NAME      name the run (RUN can then be NAME)\n"
	"  --tag TAG        free text kept with the run\n"
	"  -q, --quiet      no live copy of the child's output\n"
	"  --json           at the end, a JSON summary on stdout (the child's live output goes to stderr)\n"
	"\n"
	"Exit status: the child's (its exit code, or 128+N when signal N killed it);\n"
	"125 pttrace failed, 126 command not executable, 127 command not found.\n";

struct run_opts {
	const char *logs, *python, *name, *tag;
	int dispatch, trace, quiet, cmd_mode;
};

/* The indexing thread: follows the spool while the child runs. */
struct indexer {
	struct db *ix;
	int64_t run_id, ref_us;
	long tz_off_s;
	struct spool_state *st;
	char *dir;
	struct logs_ingest_stats stats;
	struct pt_diag diag;
	double seconds;		/* wall time */
	double cpu_seconds;	/* this thread's CPU time: the rate on an idle machine */
	int rc;
};

static void *indexer_main(void *arg)
{
	struct indexer *x = arg;
	struct spool_reader r;
	struct logs_ingest *ig = NULL;
	const uint8_t *data;
	size_t len;
	int stream, rc;
	uint64_t t0 = pt_now_ns();

	/*
	 * Indexing may lag, the child may not: on a busy machine the scheduler
	 * favours the child (and the capture loop) over this thread. Linux
	 * applies nice per thread.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
	x->rc = -1;
	if (spool_reader_open(&r, x->dir, x->st, &x->diag) < 0)
		return NULL;
	ig = logs_ingest_new(x->ix, x->run_id, x->ref_us, x->tz_off_s);
	rc = ig ? 0 : -1;
	while (rc == 0 && (rc = spool_read(&r, &stream, &data, &len)) == 1)
		rc = logs_ingest_feed(ig, stream, data, len);
	if (rc == 0)
		rc = logs_ingest_finish(ig);
	if (ig)
		x->stats = *logs_ingest_get_stats(ig);
	logs_ingest_free(ig);
	spool_reader_close(&r);
	x->seconds = (double)(pt_now_ns() - t0) / 1e9;
	{
		struct timespec ts;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		x->cpu_seconds = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	}
	x->rc = rc;
	return NULL;
}

static int parse_opts(int argc, char **argv, struct run_opts *o, struct pt_ctx *ctx)
{
	enum { O_LOGS = 256, O_DISPATCH, O_TRACE, O_NO_TRACE, O_PYTHON, O_NAME, O_TAG, O_JSON };
	static const struct option longopts[] = {
		{ "logs", required_argument, NULL, O_LOGS },
		{ "dispatch", no_argument, NULL, O_DISPATCH },
		{ "trace", no_argument, NULL, O_TRACE },
		{ "no-trace", no_argument, NULL, O_NO_TRACE },
		{ "python", required_argument, NULL, O_PYTHON },
		{ "name", required_argument, NULL, O_NAME },
		{ "tag", required_argument, NULL, O_TAG },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, O_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->trace = 1;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+qh", longopts, NULL)) != -1) {
		switch (c) {
		case O_LOGS: o->logs = optarg; break;
		case O_DISPATCH: o->dispatch = 1; break;
		case O_TRACE: o->trace = 1; break;
		case O_NO_TRACE: o->trace = 0; break;
		case O_PYTHON: o->python = optarg; break;
		case O_NAME: o->name = optarg; break;
		case O_TAG: o->tag = optarg; break;
		case 'q': o->quiet = 1; break;
		case O_JSON: ctx->json = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			fputs(usage_text, stderr);
			return -2;
		}
	}
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return -2;
	}
	o->cmd_mode = !strcmp(argv[optind - 1], "--");
	return optind;
}

/* Register the files in runs/<id>/trace (what TORCH_TRACE wrote) as the run's files. */
static void register_trace_files(struct db *ix, int64_t run_id)
{
	char *dir = db_run_dir(ix, run_id), *tdir = pt_xasprintf("%s/trace", dir);
	DIR *d = opendir(tdir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *p = pt_xasprintf("%s/%s", tdir, e->d_name), *rel;
		struct stat st;

		if (e->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			rel = pt_xasprintf("trace/%s", e->d_name);
			runs_add_file(ix, run_id, rel, "trace", (int64_t)st.st_size);
			free(rel);
		}
		free(p);
	}
	if (d)
		closedir(d);
	free(tdir);
	free(dir);
}

static void warn(struct pt_ctx *ctx, struct db *ix, int64_t run_id, const char *code,
		 const char *msg)
{
	runs_add_warning(ix, run_id, code, msg);
	fprintf(stderr, "%s: %swarning:%s %s\n", ctx->prog, pt_c(ctx->color_err, PT_C_YELLOW),
		pt_c(ctx->color_err, PT_C_RESET), msg);
}

/* Warnings about tracing that this torch cannot do. */
static void check_torch(struct pt_ctx *ctx, struct db *ix, int64_t run_id,
			const struct run_opts *o, const char *python, const struct torch_probe *p,
			char *const *env)
{
	const char *logs = runenv_get(env, "TORCH_LOGS");
	char *msg;

	if (!p->ran)
		return;
	if (!p->found) {
		msg = pt_xasprintf("'%s' cannot import torch (no torch package on its path);"
				   " use --python to pick the interpreter that has it", python);
		warn(ctx, ix, run_id, "no-torch", msg);
		free(msg);
		return;
	}
	runs_set_torch(ix, run_id, p->version, p->debug, p->debug ? "debug" : "release");
	if (logs && *logs && p->major >= 0 && (p->major < 2 || (p->major == 2 && p->minor < 1))) {
		msg = pt_xasprintf("TORCH_LOGS has no effect: torch %s is older than 2.1 (no"
				   " torch._logging)", p->version);
		warn(ctx, ix, run_id, "logs-old-torch", msg);
		free(msg);
	}
	if (o->trace && p->major >= 0 && (p->major < 2 || (p->major == 2 && p->minor < 3))) {
		msg = pt_xasprintf("TORCH_TRACE has no effect: torch %s is older than 2.3 (no"
				   " structured trace)", p->version);
		warn(ctx, ix, run_id, "trace-old-torch", msg);
		free(msg);
	}
	if (o->dispatch && !p->debug) {
		/* torch-trace-formats.md 8: release and distro builds print nothing. */
		msg = pt_xasprintf("TORCH_SHOW_DISPATCH_TRACE has no effect on torch %s from Python:"
				   " it is a release build (torch.version.debug is False), and only code"
				   " compiled without NDEBUG%s prints the dispatcher trace",
				   p->version ? p->version : "?",
				   p->major > 2 || (p->major == 2 && p->minor >= 7)
					   ? " (or with -DHAS_TORCH_SHOW_DISPATCH_TRACE)" : "");
		warn(ctx, ix, run_id, "dispatch-release-build", msg);
		free(msg);
	}
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void summary(struct pt_ctx *ctx, int64_t run_id, const struct capture_result *res,
		    const struct indexer *x, int indexed, double child_s, double lag_s)
{
	const struct logs_ingest_stats *s = &x->stats;
	uint64_t lines = 0;
	int first = 0;

	for (int k = 0; k < LOGS_NKINDS; k++)
		lines += s->lines[k];
	if (ctx->json) {
		json_t *o = json_object(), *by = json_object();

		json_object_set_new(o, "run", json_integer(run_id));
		json_object_set_new(o, "status", json_string(res->how == CAPTURE_EXITED ? "exited" : "signaled"));
		json_object_set_new(o, res->how == CAPTURE_EXITED ? "exit_code" : "signal",
				    json_integer(res->code));
		json_object_set_new(o, "exit", json_integer(capture_exit_code(res)));
		json_object_set_new(o, "indexed", json_boolean(indexed));
		json_object_set_new(o, "bytes", json_integer((json_int_t)s->bytes));
		json_object_set_new(o, "lines", json_integer((json_int_t)lines));
		for (int k = 0; k < LOGS_NKINDS; k++)
			if (s->lines[k])
				json_object_set_new(by, logs_kind_name(k), json_integer((json_int_t)s->lines[k]));
		json_object_set_new(o, "lines_by_kind", by);
		{
			struct rusage ru;

			/* Figures for bench/pttrace_run.sh. */
			getrusage(RUSAGE_SELF, &ru);
			json_object_set_new(o, "child_seconds", json_real(child_s));
			json_object_set_new(o, "index_seconds", json_real(x->seconds));
			json_object_set_new(o, "index_cpu_seconds", json_real(x->cpu_seconds));
			json_object_set_new(o, "index_lag_seconds", json_real(lag_s));
			json_object_set_new(o, "peak_rss_kb", json_integer(ru.ru_maxrss));
		}
		pt_json_print(stdout, o);
		json_decref(o);
		return;
	}
	fprintf(stderr, "%s: run %lld: %s %d; %llu lines", ctx->prog, (long long)run_id,
		res->how == CAPTURE_EXITED ? "exit" : "signal", res->code,
		(unsigned long long)lines);
	for (int k = 0; k < LOGS_NKINDS; k++)
		if (s->lines[k])
			fprintf(stderr, "%s%s %llu", first++ ? ", " : " (", logs_kind_name(k),
				(unsigned long long)s->lines[k]);
	fprintf(stderr, "%s%s; 'pttrace show %lld'\n", lines ? ")" : "",
		indexed ? "" : ", NOT fully indexed", (long long)run_id);
}

/* Print what diag holds and forget it: every message once. */
static void flush_diag(struct pt_ctx *ctx, struct pt_diag *diag)
{
	pt_print_diag(ctx, diag);
	pt_diag_release(diag);
	pt_diag_init(diag);
}

int cmd_run(int argc, char **argv, struct pt_ctx *ctx)
{
	struct run_opts o;
	struct pt_diag diag;
	struct db *ix = NULL;
	struct run_info ri = { 0 };
	struct torch_probe probe = { 0 };
	struct spool_state st;
	struct spool_writer w;
	struct capture cap;
	struct capture_result res = { 0 };
	struct indexer x = { 0 };
	pthread_t thread;
	char **child_argv = NULL, **env = NULL, *python = NULL, *dir = NULL, *trace_dir = NULL;
	char cwd[4096], host[256] = "";
	int first, nargs, exec_errno = 0, rc = EXIT_RUN_INTERNAL, started = 0, thread_on = 0;
	int64_t run_id = -1;
	uint64_t child_done_ns;
	double lag_s = 0;
	struct tm tm;
	time_t now;

	first = parse_opts(argc, argv, &o, ctx);
	if (first < 0)
		return first == -1 ? EXIT_FINE : EXIT_USAGE;
	pt_diag_init(&diag);
	spool_state_init(&st);
	pt_diag_init(&x.diag);
	nargs = argc - first;
	/* The command: python SCRIPT ARGS, or CMD ARGS as given. */
	if (o.cmd_mode) {
		child_argv = pt_xcalloc((size_t)nargs + 1, sizeof(char *));
		memcpy(child_argv, argv + first, (size_t)nargs * sizeof(char *));
		if (!strncmp(base_name(child_argv[0]), "python", 6))
			python = runenv_which(child_argv[0], environ);
	} else {
		python = runenv_which(o.python ? o.python : "python3", environ);
		if (!python) {
			fprintf(stderr, "%s: '%s' not found in PATH\n", ctx->prog,
				o.python ? o.python : "python3");
			rc = EXIT_RUN_NOTFOUND;
			goto out;
		}
		child_argv = pt_xcalloc((size_t)nargs + 2, sizeof(char *));
		child_argv[0] = python;
		memcpy(child_argv + 1, argv + first, (size_t)nargs * sizeof(char *));
		nargs++;
	}
	if (pt_open_index(ctx, 0, &ix, &diag) < 0)
		goto out;
	runs_mark_lost(ix);
	/* The run row first: its id names the directory the child's trace goes to. */
	now = time(NULL);
	localtime_r(&now, &tm);
	gethostname(host, sizeof(host) - 1);
	ri.name = o.name;
	ri.tag = o.tag;
	ri.source = "run";
	ri.argv = child_argv;
	ri.argc = nargs;
	ri.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	ri.host = host;
	ri.python = python;
	ri.dispatch = o.dispatch;
	ri.trace = o.trace;
	ri.started_us = capture_now_us();
	ri.tz_offset_s = tm.tm_gmtoff;
	if (runs_create(ix, &ri, &run_id) < 0)
		goto out;
	dir = db_run_dir(ix, run_id);
	trace_dir = pt_xasprintf("%s/trace", dir);
	env = runenv_build(&(struct runenv_opts){ .logs = o.logs, .dispatch = o.dispatch,
						  .trace_dir = o.trace ? trace_dir : NULL },
			   environ);
	{
		const char *logs = runenv_get(env, "TORCH_LOGS");
		struct db_stmt *s = db_prepare(ix, "UPDATE runs SET logs_spec = ?2 WHERE id = ?1");

		if (s)
			db_run(s, "it", run_id, logs);
	}
	for (char **e = env; *e; e++) {
		size_t n;

		if (runenv_is_recorded(*e, &n)) {
			char *name = pt_xstrndup(*e, n);

			runs_add_env(ix, run_id, name, *e + n + 1);
			free(name);
		}
	}
	if (python && runenv_probe_python(python, env, &probe, &diag) == 0)
		check_torch(ctx, ix, run_id, &o, python, &probe, env);
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	if (spool_writer_open(&w, dir, &st, &diag) < 0)
		goto fail_run;
	/* With --json stdout carries only the summary: the live copy goes to stderr. */
	if (capture_start(&cap, child_argv, env, o.quiet ? 0 : ctx->json ? 2 : 1, &exec_errno, &diag) < 0) {
		spool_writer_close(&w);
		rc = exec_errno == ENOENT ? EXIT_RUN_NOTFOUND
					  : exec_errno ? EXIT_RUN_NOEXEC : EXIT_RUN_INTERNAL;
		goto fail_run;
	}
	started = 1;
	runs_set_pid(ix, run_id, cap.pid);
	/* From here until the join, only the indexing thread touches ix. */
	x.ix = ix;
	x.run_id = run_id;
	x.ref_us = ri.started_us;
	x.tz_off_s = ri.tz_offset_s;
	x.st = &st;
	x.dir = dir;
	ix->diag = &x.diag;
	if (pthread_create(&thread, NULL, indexer_main, &x) == 0) {
		thread_on = 1;
	} else {
		ix->diag = &diag;
		pt_diag_add(&diag, PT_SEV_ERROR, NULL, NULL, "pthread_create failed: indexing later");
	}
	if (capture_loop(&cap, &w, &res, &diag) < 0)
		flush_diag(ctx, &diag);
	spool_writer_close(&w);
	child_done_ns = pt_now_ns();
	if (thread_on)
		pthread_join(thread, NULL);
	lag_s = (double)(pt_now_ns() - child_done_ns) / 1e9;
	ix->diag = &diag;
	pt_diag_take(&diag, &x.diag);
	if (!thread_on) {
		x.rc = logs_ingest_run_dir(ix, run_id, ri.started_us, ri.tz_offset_s, &x.stats);
	}
	runs_add_file(ix, run_id, "stdout.log", "stdout", (int64_t)st.bytes[1]);
	runs_add_file(ix, run_id, "stderr.log", "stderr", (int64_t)st.bytes[2]);
	runs_add_file(ix, run_id, "order.bin", "order", -1);
	register_trace_files(ix, run_id);
	/* TRACE_HOOK: the TORCH_TRACE indexer (issue 6) is called here for runs/<id>/trace. */
	if (tt_index_run(ix, run_id, 0, &diag, NULL) < 0)
		x.rc = -1;
	if (o.dispatch && x.rc == 0 && x.stats.records[LOGS_DISPATCH] == 0)
		warn(ctx, ix, run_id, "dispatch-no-output",
		     "TORCH_SHOW_DISPATCH_TRACE=1 produced no dispatcher trace lines: release builds"
		     " compile it out; only code compiled without NDEBUG prints it");
	runs_finish(ix, run_id, res.how == CAPTURE_EXITED ? RUN_EXITED : RUN_SIGNALED, res.code,
		    res.ended_us, (int64_t)st.bytes[1], (int64_t)st.bytes[2]);
	if (x.rc != 0)
		pt_diag_add(&diag, PT_SEV_WARNING, NULL, NULL,
			    "run %lld was not fully indexed; its output is kept in '%s' and"
			    " 'pttrace reindex %lld' indexes it again", (long long)run_id, dir,
			    (long long)run_id);
	flush_diag(ctx, &diag);
	summary(ctx, run_id, &res, &x, x.rc == 0, (double)(res.ended_us - ri.started_us) / 1e6, lag_s);
	rc = capture_exit_code(&res);
	goto out;
fail_run:
	/* The diagnostics are printed once, at out. */
	if (ix && run_id >= 0 && !started)
		runs_finish(ix, run_id, RUN_FAILED, 0, capture_now_us(), 0, 0);
out:
	if (ix)
		ix->diag = &diag;
	runenv_probe_release(&probe);
	db_close(ix);
	flush_diag(ctx, &diag);
	pt_diag_release(&diag);
	pt_diag_release(&x.diag);
	spool_state_release(&st);
	runenv_free(env);
	if (!o.cmd_mode && child_argv)
		child_argv[0] = NULL;
	free(child_argv);
	free(python);
	free(dir);
	free(trace_dir);
	return rc;
}
