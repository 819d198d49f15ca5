/*
 * `ptinspect build [DIR]`: the build tree a torch came from. Options here;
 * reading and analyses in build/, rendering in report_build.c.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildcmds.h"
#include "buildsource.h"
#include "buildtree.h"
#include "fsutil.h"
#include "jsonout.h"
#include "xalloc.h"
#include "ptinspect.h"
#include "report_elf.h"
#include "report_build.h"

static const char usage_text[] =
	"usage: ptinspect build [OPTIONS] [DIR]\n"
	"The build tree a torch came from: configuration, the libraries it produced,\n"
	"the build-time profile and memory risk.\n"
	"  DIR                 a CMake build dir, or a source checkout with build/\n"
	"                      (default: ./build, else .)\n"
	"  --since-last        what the last ninja run rebuilt, and why: the inputs that\n"
	"                      changed (.ninja_deps, mtimes) with what each rebuilt, new\n"
	"                      outputs, changed commands, ccache's hit rate; and what\n"
	"                      ninja would run now (ninja -n -d explain, when on PATH);\n"
	"                      a changed command as its flag diff against the one an\n"
	"                      earlier ptinspect build recorded\n"
	"  --no-record         do not record the tree's commands (ninja -t compdb) in\n"
	"                      $XDG_CACHE_HOME/ptools/build-commands/ (what is there\n"
	"                      is still read; PTOOLS_NO_CACHE=1: neither)\n"
	"  --source PATH[:LINE]|SYMBOL\n"
	"                      is that file generated (torchgen), from which\n"
	"                      native_functions.yaml entry, forwarding to which kernels;\n"
	"                      repeatable; '-' reads one query a line from stdin\n"
	"  --details           full lists (every option, 25 edges, the whole critical path)\n"
	"  --compdb            also read compile_commands.json (tens of MB on a full\n"
	"                      build; --details implies it)\n"
	"  --json              one JSON document\n"
	"  --color=WHEN        auto, always, never\n"
	"Exit status: 0 fine, 1 mismatches found (stale library, DWARF missing, damaged\n"
	"files), 2 usage or not a build tree.\n";

/*
 * --source: the generated-code question, answered alone; several --source
 * (or "-": one query a line from stdin) are answered by one reading of the
 * tree, --json then one document {answers: [...], problems}.
 */
static int run_source(const struct buildtree *t, char **qs, size_t n_qs, struct pt_cli *ctx, struct pt_diag *d)
{
	struct buildsource *b = buildsource_open(t, d);
	json_t *answers = json_array();
	int rc = EXIT_FINE, failed = 0;

	if (!b) {
		rc = EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; i < n_qs; i++) {
		struct build_source s;

		if (buildsource_query(b, qs[i], &s, d) < 0) {
			failed = 1;
			json_array_append_new(answers, json_null());
		} else if (ctx->json) {
			json_array_append_new(answers, report_source_json(&s));
		} else {
			if (i)
				fputc('\n', stdout);
			report_source_text(stdout, &s, PT_CLI_STYLE(ctx));
		}
		build_source_release(&s);
	}
	rc = failed ? EXIT_USAGE : pt_diag_count(d, PT_SEV_WARNING) ? EXIT_PROBLEMS : EXIT_FINE;
	if (ctx->json && !(n_qs == 1 && failed)) {
		json_t *doc;

		if (n_qs == 1) {
			doc = json_incref(json_array_get(answers, 0));
		} else {
			doc = json_object();
			json_object_set(doc, "answers", answers);
		}
		json_object_set_new(doc, "problems", report_problems_json(d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	}
out:
	if (!ctx->json || rc == EXIT_USAGE)
		pt_diag_print(d, stderr, ctx->prog, ctx->color_err);
	json_decref(answers);
	buildsource_close(b);
	return rc;
}

/* "-": the queries of stdin, one a line (blank lines skipped). */
static void read_queries(char ***qs, size_t *n, size_t *alloc)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;

	while ((got = getline(&line, &cap, stdin)) >= 0) {
		while (got && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = '\0';
		if (!got)
			continue;
		PT_GROW(*qs, *n, *alloc);
		(*qs)[(*n)++] = pt_xstrdup(line);
	}
	free(line);
}

int cmd_build(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "since-last", no_argument, NULL, 's' },
		{ "details", no_argument, NULL, 'd' },
		{ "compdb", no_argument, NULL, 'c' },
		{ "no-compdb", no_argument, NULL, 'n' },
		{ "source", required_argument, NULL, 'S' },
		{ "no-record", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct buildtree t;
	struct build_config cfg;
	struct build_profile prof;
	struct build_memory mem;
	struct build_check chk;
	struct build_report rep = { 0 };
	struct build_rebuilt *rebuilt = NULL;
	struct ninja_explain explain = { 0 };
	struct build_since since = { 0 };
	size_t n_rebuilt = 0;
	struct pt_diag d;
	const char *dir;
	char **sources = NULL;
	size_t n_sources = 0, alloc_sources = 0;
	int c, since_last = 0, details = 0, compdb = 0, no_record = 0, rc = EXIT_FINE;
	struct cmd_cache now = { 0 }, old = { 0 };
	bool have_now = false, have_old = false;
	char *cpath = NULL, *real = NULL;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': since_last = 1; break;
		case 'd': details = 1; compdb = 1; break;
		case 'c': compdb = 1; break;
		case 'n': compdb = 0; break;
		case 'R': no_record = 1; break;
		case 'S':
			if (!strcmp(optarg, "-")) {
				read_queries(&sources, &n_sources, &alloc_sources);
			} else {
				PT_GROW(sources, n_sources, alloc_sources);
				sources[n_sources++] = pt_xstrdup(optarg);
			}
			compdb = 0;
			break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (optind + 1 < argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		dir = argv[optind];
	} else {
		struct stat st;

		dir = stat("build/CMakeCache.txt", &st) == 0 ? "build" : ".";
	}
	pt_diag_init(&d);
	if (buildtree_load(dir, compdb, &t, &d) < 0) {
		if (ctx->json) {
			json_t *doc = json_object();

			json_object_set_new(doc, "dir", pt_json_str(dir));
			json_object_set_new(doc, "problems", report_problems_json(&d));
			pt_json_print(stdout, doc);
			json_decref(doc);
		}
		pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
		pt_diag_release(&d);
		buildtree_release(&t);
		return EXIT_USAGE;
	}
	if (alloc_sources) {
		rc = n_sources ? run_source(&t, sources, n_sources, ctx, &d) : EXIT_USAGE;
		if (!n_sources)
			fprintf(stderr, "%s: --source -: no query on stdin\n", ctx->prog);
		for (size_t i = 0; i < n_sources; i++)
			free(sources[i]);
		free(sources);
		buildtree_release(&t);
		pt_diag_release(&d);
		return rc;
	}
	/* The commands now, and those an earlier run recorded (buildcmds.h). */
	cpath = cmd_cache_path(t.dir, &real);
	if (cpath && t.have_ninja && t.ninja_whole) {
		uint8_t *buf = NULL;
		size_t len = 0;

		have_now = cmd_cache_from_ninja(t.dir, &now) == 0;
		if (pt_read_regular(cpath, CMD_CACHE_MAX + ((size_t)1 << 20), PT_SEV_NOTE, 0, &buf, &len, &d) == 0 &&
		    cmd_cache_parse(buf, len, &old, cpath, &d) == 0)
			/* another tree's whose path hashed alike: not ours */
			have_old = old.tree && !strcmp(old.tree, real);
		free(buf);
	}
	buildtree_config(&t, &cfg);
	buildtree_profile(&t, &prof);
	buildtree_memory(&t, &prof, &mem);
	buildtree_check(&t, &chk);
	if (since_last) {
		buildtree_since_last(&t, &rebuilt, &n_rebuilt);
		/* Why: the inputs newer than each output's previous build (.ninja_deps, mtimes), ccache. */
		buildtree_since(&t, rebuilt, n_rebuilt, true, &since, &d);
		/* ninja's own view of what is dirty now; nothing is built (-n). */
		if (t.have_ninja && t.source_dir && access(t.source_dir, F_OK) != 0)
			pt_diag_add(&d, PT_SEV_NOTE, t.dir, NULL,
				    "not asking ninja what it would run: the tree was configured from %s, "
				    "which is not there on this machine (a moved tree, or one built in a container)",
				    t.source_dir);
		else if (t.have_ninja)
			ninja_explain_run(t.dir, 30, &explain, &d);
	}
	if (since_last) {
		size_t compared = 0, agree = have_now ? build_commands_agree(&t.log, &now, &compared) : 0;

		/*
		 * v4 logs hold the command text, not a hash: nothing to match. v7
		 * (ninja 1.13) may hash otherwise: believed when a sample agrees.
		 */
		build_since_commands(&since, &t.log, t.log.version >= 5 && (t.log.version < 7 || !compared || agree),
				     cpath && !no_record,
				     have_now ? &now : NULL, have_old ? &old : NULL);
	}
	if (have_now && !no_record) {
		struct cmd_cache next;

		now.tree = pt_xstrdup(real);
		cmd_cache_merge(&now, have_old ? &old : &(struct cmd_cache){ 0 }, &next);
		if (next.n_dropped)
			pt_diag_add(&d, PT_SEV_NOTE, cpath, NULL, "%zu command%s not recorded: over the %zu MiB cap",
				    next.n_dropped, next.n_dropped == 1 ? "" : "s", CMD_CACHE_MAX >> 20);
		cmd_cache_write(cpath, &next, &d);
		cmd_cache_release(&next);
	}
	rep = (struct build_report){ &t, &cfg, &prof, &mem, &chk, rebuilt, n_rebuilt, since_last, &explain, details,
				     since_last ? &since : NULL };
	if (ctx->json) {
		json_t *doc = report_build_json(&rep);

		json_object_set_new(doc, "problems", report_problems_json(&d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	} else {
		report_build_text(stdout, &rep, PT_CLI_STYLE(ctx));
		pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
	}
	if (pt_diag_count(&d, PT_SEV_WARNING) || pt_diag_count(&chk.findings, PT_SEV_WARNING))
		rc = EXIT_PROBLEMS;
	build_since_release(&since);
	cmd_cache_release(&now);
	cmd_cache_release(&old);
	free(cpath);
	free(real);
	free(rebuilt);
	ninja_explain_release(&explain);
	build_check_release(&chk);
	build_memory_release(&mem);
	build_profile_release(&prof);
	build_config_release(&cfg);
	buildtree_release(&t);
	pt_diag_release(&d);
	return rc;
}
