/*
 * `ptinspect diff A B`: two build trees, installs or libraries side by side.
 * Snapshots and comparison in builddiff.c, rendering in report_diff.c.
 */
#include <stdio.h>

#include "builddiff.h"
#include "jsonout.h"
#include "ptinspect.h"
#include "report_elf.h"
#include "report_diff.h"

static const char usage_text[] =
	"usage: ptinspect diff [OPTIONS] A B\n"
	"Two builds side by side. A and B are each a build tree (CMakeCache.txt in it\n"
	"or in its build/), a directory of libraries (an install; its lib/ when it has\n"
	"one) or one library. Compared: configuration fields, NEEDED and how each\n"
	"resolves here, symbol versions needed, RPATH/RUNPATH, sizes per section and\n"
	"per CUDA target, debug info. Libraries are paired by file name.\n"
	"  --json              one JSON document\n"
	"  --color=WHEN        auto, always, never\n"
	"Exit status: 0 the same, 1 they differ or a file of a tree was unreadable (said),\n"
	"2 usage or unreadable input.\n";

int cmd_diff(int argc, char **argv, struct pt_cli *ctx)
{
	struct snapshot a, b;
	struct snapshot_diff d;
	struct pt_diag diag;
	int rc = pt_cli_parse_common(ctx, argc, argv, "h", usage_text);

	if (rc >= 0)
		return rc;
	if (argc - optind != 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (snapshot_take(argv[optind], &a, &diag) < 0 || snapshot_take(argv[optind + 1], &b, &diag) < 0) {
		pt_diag_print(&diag, stderr, ctx->prog, ctx->color_err);
		pt_diag_release(&diag);
		snapshot_release(&a);
		snapshot_release(&b);
		return EXIT_USAGE;
	}
	snapshot_compare(&a, &b, &d);
	if (ctx->json) {
		json_t *doc = report_diff_json(&a, &b, &d);

		json_object_set_new(doc, "problems", report_problems_json(&diag));
		pt_json_print(stdout, doc);
		json_decref(doc);
	} else {
		report_diff_text(stdout, &a, &b, &d, PT_CLI_STYLE(ctx));
		pt_diag_print(&diag, stderr, ctx->prog, ctx->color_err);
	}
	/* A file of a tree that could not be read (a FIFO as build.ninja): a problem too. */
	rc = d.n || pt_diag_count(&diag, PT_SEV_WARNING) ? EXIT_PROBLEMS : EXIT_FINE;
	snapshot_diff_release(&d);
	snapshot_release(&a);
	snapshot_release(&b);
	pt_diag_release(&diag);
	return rc;
}
