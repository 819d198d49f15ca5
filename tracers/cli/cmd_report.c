/* `pttrace report RUN [--out DIR] [--diff RUN2] [--open]`: a static HTML report. */
#include <errno.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "jsonout.h"
#include "pttrace.h"
#include "runs.h"
#include "report.h"
#include "xalloc.h"

extern char **environ;

static const char usage_text[] =
	"usage: pttrace report RUN [--out DIR] [--diff RUN2] [--open] [--json]\n"
	"\n"
	"Write a static HTML report of RUN (a `pttrace run` or an imported TORCH_TRACE\n"
	"job): data health, totals, every compile, frames and recompiles, graph breaks,\n"
	"the stack trie, ranks, a timeline, one page per compile and per payload.\n"
	"Opens from file:// with no server and no network.\n"
	"\n"
	"  --out DIR    where to write (default ./pttrace-report-<run id>); it must be\n"
	"               missing, or a directory of your own that is empty or an earlier\n"
	"               report (replaced whole, once the new one is written)\n"
	"  --diff RUN2  also write diff.html: RUN against RUN2\n"
	"  --open       open index.html with xdg-open (or $BROWSER)\n"
	"\n"
	"Exit status: 0 written, 2 usage error, no such run, or the report could not be written.\n";

static void open_browser(const char *index)
{
	const char *b = getenv("BROWSER");
	char *argv[] = {(char *)(b && *b ? b : "xdg-open"), (char *)index, NULL};
	pid_t pid;
	int st;

	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0) {
		fprintf(stderr, "pttrace report: cannot start %s; open %s yourself\n", argv[0], index);
		return;
	}
	waitpid(pid, &st, 0);
}

int cmd_report(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		PT_CLI_DB_OPTION,
		{ "out", required_argument, NULL, 'o' },
		{ "diff", required_argument, NULL, 'd' },
		{ "open", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec, *out = NULL, *diff = NULL;
	int c, open = 0, rc = EXIT_USAGE;
	struct report_opts o = {0};
	struct report_stats st;
	struct pt_diag diag;
	struct db *ix;
	char *outdir = NULL, *index = NULL, whybuf[256];
	const char *why;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'd': diff = optarg; break;
		case 'O': open = 1; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage_text))
		return EXIT_USAGE;
	if (optind == argc) {
		fprintf(stderr, "pttrace report: no RUN given\n%s", usage_text);
		return EXIT_USAGE;
	}
	spec = argv[optind];
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, spec, &ix, &o.run_id, &diag) < 0)
		return EXIT_USAGE;
	if (diff && runs_resolve(ix, diff, &o.diff_run) < 0)
		goto done;
	outdir = out ? pt_xstrdup(out) : report_default_dir(o.run_id);
	if ((why = report_dir_refusal(outdir, whybuf, sizeof(whybuf)))) {
		pt_diag_add(&diag, PT_SEV_ERROR, outdir, NULL, "%s; choose another --out", why);
		goto done;
	}
	o.outdir = outdir;
	o.hljs = getenv("PTTRACE_HLJS");	/* tests: another copy of highlight.js, or none */
	if (report_write(ix, &o, &st, &diag) < 0)
		goto done;
	index = pt_xasprintf("%s/index.html", outdir);
	if (ctx->json) {
		json_t *j = json_pack("{s:I,s:s,s:s,s:I,s:I,s:I,s:I,s:b,s:I}", "run", (json_int_t)o.run_id,
				      "dir", outdir, "index", index, "pages", (json_int_t)st.pages,
				      "payloads", (json_int_t)st.payloads, "compiles",
				      (json_int_t)st.compiles, "bytes", (json_int_t)st.bytes,
				      "highlight", st.highlight, "records_read",
				      (json_int_t)st.records_read);

		pt_json_print(stdout, j);
		json_decref(j);
	} else {
		printf("%s\n", index);
		fprintf(stderr, "pttrace report: run %lld: %zu pages, %zu payloads, %.1f MB\n",
			(long long)o.run_id, st.pages, st.payloads, (double)st.bytes / 1e6);
	}
	rc = EXIT_FINE;
	if (open)
		open_browser(index);
done:
	db_close(ix);
	pttrace_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	free(outdir);
	free(index);
	return rc;
}
