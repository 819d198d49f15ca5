/*
 * `pttrace run [OPTIONS] script.py [ARGS]` and `pttrace run [OPTIONS] -- CMD
 * [ARGS]`: the options, the child's command line, the messages and the
 * summary; the pipeline itself is record_run (tracers/record.c). Exits with
 * the child's status (125/126/127 for our own failures, like env(1)).
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "jsonout.h"
#include "pttrace.h"
#include "record.h"
#include "report.h"
#include "runenv.h"
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
	"  --python PATH    interpreter for SCRIPT.py (default: python3 first on PATH;\n"
	"                   when it has no torch, the first python3 found that has,\n"
	"                   as ptinspect doctor picks)\n"
	"  --name NAME      name the run (RUN can then be NAME)\n"
	"  --tag TAG        free text kept with the run\n"
	"  --core           raise the child's core size limit (ulimit -c) to the hard\n"
	"                   limit, so that a crash leaves a core file\n"
	"  -q, --quiet      no live copy of the child's output\n"
	"  --json           at the end, a JSON summary on stdout (the child's live output goes to stderr)\n"
	"  --report[=DIR]   at the end, write the run's HTML report (pttrace report) to\n"
	"                   DIR (default ./pttrace-report-<run id>)\n"
	"\n"
	"A crash (a signal that dumps core) prints the Python stack (PYTHONFAULTHANDLER=1\n"
	"unless set), where the core went and the gdb command that opens it with ptgdb.\n"
	"\n"
	"Exit status: the child's (its exit code, or 128+N when signal N killed it);\n"
	"125 pttrace failed (or the child exited 0 but its output could not all be\n"
	"kept: a full disk), 126 command not executable, 127 command not found.\n";

struct run_opts {
	const char *logs, *python, *name, *tag, *report_dir;
	int dispatch, trace, quiet, cmd_mode, report, core;
};

static int parse_opts(int argc, char **argv, struct run_opts *o, struct pt_cli *ctx)
{
	enum { O_LOGS = 256, O_DISPATCH, O_TRACE, O_NO_TRACE, O_PYTHON, O_NAME, O_TAG, O_REPORT, O_CORE };
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ "logs", required_argument, NULL, O_LOGS },
		{ "dispatch", no_argument, NULL, O_DISPATCH },
		{ "trace", no_argument, NULL, O_TRACE },
		{ "no-trace", no_argument, NULL, O_NO_TRACE },
		{ "python", required_argument, NULL, O_PYTHON },
		{ "name", required_argument, NULL, O_NAME },
		{ "tag", required_argument, NULL, O_TAG },
		{ "quiet", no_argument, NULL, 'q' },
		{ "report", optional_argument, NULL, O_REPORT },
		{ "core", no_argument, NULL, O_CORE },
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
		case O_REPORT: o->report = 1; o->report_dir = optarg; break;
		case O_CORE: o->core = 1; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c == EXIT_FINE ? -1 : -2;
		}
	}
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return -2;
	}
	o->cmd_mode = !strcmp(argv[optind - 1], "--");
	return optind;
}

/* record_run's hooks: warnings and diagnostics as the run goes on. */
static void show_warning(void *arg, const char *code, const char *msg)
{
	struct pt_cli *ctx = arg;

	(void)code;
	fprintf(stderr, "%s: %swarning:%s %s\n", ctx->prog, pt_c(ctx->color_err, PT_C_YELLOW),
		pt_c(ctx->color_err, PT_C_RESET), msg);
}

static void show_diag(void *arg, struct pt_diag *d)
{
	pttrace_print_diag(arg, d);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static json_t *crash_json(const struct record_result *r)
{
	return json_pack("{s:i, s:s?, s:s?, s:I, s:b, s:s?, s:s?, s:s?}", "signal", r->res.code,
			 "what", r->crash_what, "file", r->crash_file, "line", (json_int_t)r->crash_line,
			 "core_dumped", r->res.core_dumped, "core", r->crash.core, "core_note", r->crash.note,
			 "gdb", r->crash.gdb);
}

/* A crash: what and where (the Python frame), the core, the gdb line. */
static void crash_text(struct pt_cli *ctx, const struct record_result *r)
{
	const char *name = sigabbrev_np(r->res.code);

	fprintf(stderr, "%s: %scrash:%s signal %d%s%s%s", ctx->prog, pt_c(ctx->color_err, PT_C_RED),
		pt_c(ctx->color_err, PT_C_RESET), r->res.code, name ? " (SIG" : "", name ? name : "",
		name ? ")" : "");
	if (r->crash_file)
		fprintf(stderr, " at %s:%lld", r->crash_file, (long long)r->crash_line);
	if (r->crash_what)
		fprintf(stderr, ": %s", r->crash_what);
	fputc('\n', stderr);
	fprintf(stderr, "%s: %s\n", ctx->prog, r->crash.note);
	if (r->crash.gdb)
		fprintf(stderr, "%s: gdb: %s\n", ctx->prog, r->crash.gdb);
}

static void summary(struct pt_cli *ctx, const struct record_result *r)
{
	const struct capture_result *res = &r->res;
	const struct logs_ingest_stats *s = &r->stats;
	int64_t run_id = r->run_id;
	int indexed = r->indexed;
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
		json_object_set_new(o, "output_complete", json_boolean(!r->output_lost));
		json_object_set_new(o, "bytes", json_integer((json_int_t)s->bytes));
		json_object_set_new(o, "lines", json_integer((json_int_t)lines));
		for (int k = 0; k < LOGS_NKINDS; k++)
			if (s->lines[k])
				json_object_set_new(by, logs_kind_name(k), json_integer((json_int_t)s->lines[k]));
		json_object_set_new(o, "lines_by_kind", by);
		{
			struct rusage ru;

			/* Figures for bench/run_indexing.sh. */
			getrusage(RUSAGE_SELF, &ru);
			json_object_set_new(o, "child_seconds", json_real(r->child_seconds));
			json_object_set_new(o, "index_seconds", json_real(r->index_seconds));
			json_object_set_new(o, "index_cpu_seconds", json_real(r->index_cpu_seconds));
			/* Of that, the SQLite writer threads' (the rest parses). */
			json_object_set_new(o, "index_writer_cpu_seconds", json_real(s->writer_cpu_seconds));
			json_object_set_new(o, "index_lag_seconds", json_real(r->lag_seconds));
			json_object_set_new(o, "peak_rss_kb", json_integer(ru.ru_maxrss));
		}
		if (r->crashed)
			json_object_set_new(o, "crash", crash_json(r));
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
	if (r->output_lost)
		fprintf(stderr, "%s, OUTPUT INCOMPLETE (%llu bytes not kept)", lines ? ")" : "",
			(unsigned long long)r->lost_bytes);
	fprintf(stderr, "%s%s; 'pttrace show %lld'\n", lines && !r->output_lost ? ")" : "",
		indexed ? "" : ", NOT fully indexed", (long long)run_id);
	if (r->crashed)
		crash_text(ctx, r);
}

/*
 * Whether the command run was a build: ninja, make, cmake --build, pip
 * install/wheel, python setup.py develop/install/build/bdist_wheel (also as
 * python -m pip). A failed one is pointed to `ptinspect buildlog`.
 */
static bool is_build(char **argv, int n)
{
	const char *b = n > 0 ? base_name(argv[0]) : "";
	bool py = !strncmp(b, "python", 6);

	if (!strcmp(b, "ninja") || !strcmp(b, "make") || !strcmp(b, "gmake"))
		return true;
	for (int i = 1; i < n; i++) {
		if (!strcmp(b, "cmake") && !strcmp(argv[i], "--build"))
			return true;
		if ((!strncmp(b, "pip", 3) || (py && i >= 2 && !strcmp(argv[i - 1], "pip"))) &&
		    (!strcmp(argv[i], "install") || !strcmp(argv[i], "wheel")))
			return true;
		if (py && !strcmp(base_name(argv[i]), "setup.py") && i + 1 < n &&
		    (!strcmp(argv[i + 1], "develop") || !strcmp(argv[i + 1], "install") ||
		     !strcmp(argv[i + 1], "build") || !strcmp(argv[i + 1], "build_ext") ||
		     !strcmp(argv[i + 1], "bdist_wheel")))
			return true;
	}
	return false;
}

/* --report: the run's HTML report once it is indexed. A failure is reported and
 * leaves the exit status the child's. */
static void write_report(struct pt_cli *ctx, struct db *ix, int64_t run_id, const char *dir)
{
	char *out = dir ? pt_xstrdup(dir) : report_default_dir(run_id), whybuf[256];
	const char *why;
	struct report_stats st;
	struct pt_diag d;

	pt_diag_init(&d);
	if ((why = report_dir_refusal(out, whybuf, sizeof(whybuf))))
		pt_diag_add(&d, PT_SEV_ERROR, out, NULL, "%s; no report written ('pttrace report %lld "
			    "--out DIR')", why, (long long)run_id);
	else if (report_write(ix, &(struct report_opts){ .outdir = out, .run_id = run_id,
							 .hljs = getenv("PTTRACE_HLJS") },
			      &st, &d) == 0)
		fprintf(stderr, "%s: report: %s/index.html (%zu pages)\n", ctx->prog, out, st.pages);
	pttrace_print_diag(ctx, &d);
	pt_diag_release(&d);
	free(out);
}

int cmd_run(int argc, char **argv, struct pt_cli *ctx)
{
	struct run_opts o;
	struct pt_diag diag;
	struct db *ix = NULL;
	struct record_result r = { 0 };
	char **child_argv = NULL, *python = NULL;
	struct runenv_pick pick = { 0 };
	int first, nargs, rc = EXIT_RUN_INTERNAL;

	first = parse_opts(argc, argv, &o, ctx);
	if (first < 0)
		return first == -1 ? EXIT_FINE : EXIT_USAGE;
	pt_diag_init(&diag);
	nargs = argc - first;
	/* The command: python SCRIPT ARGS, or CMD ARGS as given. */
	if (o.cmd_mode) {
		child_argv = pt_xcalloc((size_t)nargs + 1, sizeof(char *));
		memcpy(child_argv, argv + first, (size_t)nargs * sizeof(char *));
		if (!strncmp(base_name(child_argv[0]), "python", 6))
			python = runenv_which(child_argv[0], environ);
	} else {
		if (runenv_pick_python(o.python, environ, &pick) < 0) {
			fprintf(stderr, "%s: '%s' not found in PATH\n", ctx->prog,
				o.python ? o.python : "python3");
			rc = EXIT_RUN_NOTFOUND;
			goto out;
		}
		python = pt_xstrdup(pick.python);
		/* The interpreter was not the obvious one: say which and why, once. */
		if (pick.passed_over || pick.no_default) {
			const char *v = pick.probe.version ? pick.probe.version : "?";

			if (pick.no_default)
				fprintf(stderr, "%s: no python3 on PATH; running %s, which has torch %s"
					" (--python PATH to choose)\n", ctx->prog, python, v);
			else
				fprintf(stderr, "%s: python3 on PATH (%s) has no torch; running %s,"
					" which has torch %s (--python PATH to choose)\n", ctx->prog,
					pick.passed_over, python, v);
		}
		child_argv = pt_xcalloc((size_t)nargs + 2, sizeof(char *));
		child_argv[0] = python;
		memcpy(child_argv + 1, argv + first, (size_t)nargs * sizeof(char *));
		nargs++;
	}
	if (pttrace_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0)
		goto out;
	if (record_run(ix, &(struct record_opts){ .argv = child_argv, .argc = nargs, .python = python,
						  .probe = pick.probe.ran ? &pick.probe : NULL,
						  .logs = o.logs, .name = o.name, .tag = o.tag,
						  .dispatch = o.dispatch, .trace = o.trace, .core = o.core,
						  /* With --json stdout is the summary alone: the live copy goes to stderr. */
						  .echo = o.quiet ? 0 : ctx->json ? 2 : 1 },
		       &(struct record_hooks){ .warn = show_warning, .flush = show_diag, .ctx = ctx },
		       &r, &diag) < 0) {
		if (r.run_id >= 0 && !r.started)
			rc = r.exec_errno == ENOENT ? EXIT_RUN_NOTFOUND
			     : r.exec_errno ? EXIT_RUN_NOEXEC : EXIT_RUN_INTERNAL;
		pttrace_print_diag(ctx, &diag);
		goto out;
	}
	pttrace_print_diag(ctx, &diag);
	summary(ctx, &r);
	rc = capture_exit_code(&r.res);
	/* The child succeeded but its output was not all kept: the run failed as a record. */
	if (r.output_lost && rc == 0)
		rc = EXIT_RUN_INTERNAL;
	if (rc != 0 && !ctx->json && is_build(child_argv, nargs))
		fprintf(stderr, "%s: the build failed; 'pttrace logs %lld | ptinspect buildlog' finds its first "
			"error and the cause\n", ctx->prog, (long long)r.run_id);
	if (o.report)
		write_report(ctx, ix, r.run_id, o.report_dir);
out:
	db_close(ix);
	pt_diag_release(&diag);
	if (!o.cmd_mode && child_argv)
		child_argv[0] = NULL;
	free(child_argv);
	free(python);
	runenv_pick_release(&pick);
	record_result_release(&r);
	return rc;
}
