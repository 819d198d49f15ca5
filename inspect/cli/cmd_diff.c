/*
 * `ptinspect diff A B`: two build trees, installs, libraries or packages
 * side by side. Snapshots and comparison in builddiff.c (a package read by
 * package.c), rendering in report_diff.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "builddiff.h"
#include "jsonout.h"
#include "ldpath.h"
#include "package.h"
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
	"Or two packages (.whl, .conda, .tar.bz2, a directory with a .dist-info):\n"
	"metadata, members, and per shared object (paired by path) its size, SONAME,\n"
	"RPATH/RUNPATH, each NEEDED and where it comes from once installed, floors and\n"
	"tags, CUDA archs. A package against anything else is a usage error.\n"
	"  --root=DIR          packages: resolve inside a target's sysroot\n"
	"  --json              one JSON document\n"
	"  --color=WHEN        auto, always, never\n"
	"Exit status: 0 the same, 1 they differ or a file of a tree was unreadable (said),\n"
	"2 usage or unreadable input.\n";

int cmd_diff(int argc, char **argv, struct pt_cli *ctx)
{
	enum { O_ROOT = 256 };
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "root", required_argument, NULL, O_ROOT },
		{ NULL, 0, NULL, 0 },
	};
	struct snapshot a, b;
	struct snapshot_diff d;
	struct pt_diag diag;
	struct ldpath_env env;
	struct stat st;
	const char *root = NULL;
	bool pa, pb;
	int c, rc, ra, rb;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case O_ROOT: root = optarg; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (argc - optind != 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (root && root[0] != '/') {
		fprintf(stderr, "%s: --root wants an absolute directory, not '%s'\n", ctx->prog, root);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	for (int i = optind; i < optind + 2; i++)
		if (stat(argv[i], &st) < 0)
			pt_diag_add(&diag, PT_SEV_ERROR, argv[i], NULL, "no such file or directory");
	if (diag.n) {
		pt_diag_print(&diag, stderr, ctx->prog, ctx->color_err);
		pt_diag_release(&diag);
		return EXIT_USAGE;
	}
	pa = snapshot_is_package(argv[optind]);
	pb = snapshot_is_package(argv[optind + 1]);
	if (pa != pb) {
		/* Members paired by path against libraries paired by file name: no fact would pair. */
		fprintf(stderr, "%s: '%s' is a package and '%s' is not: diff compares two packages, or two of "
			"build trees, installs and libraries\n", ctx->prog, argv[pa ? optind : optind + 1],
			argv[pa ? optind + 1 : optind]);
		pt_diag_release(&diag);
		return EXIT_USAGE;
	}
	if (pa) {
		struct pt_diag envd;
		struct pkg_opts po;

		/* No ld.so.cache in a sysroot is normal: the env's notes are not shown. */
		pt_diag_init(&envd);
		ldpath_env_init(&env, root, &envd);
		pt_diag_release(&envd);
		env.ld_library_path = NULL;
		memset(&po, 0, sizeof(po));
		po.env = &env;
		ra = snapshot_take_package(argv[optind], &po, &a, &diag);
		rb = ra < 0 ? (memset(&b, 0, sizeof(b)), -1) : snapshot_take_package(argv[optind + 1], &po, &b, &diag);
		ldpath_env_release(&env);
	} else {
		ra = snapshot_take(argv[optind], &a, &diag);
		rb = ra < 0 ? (memset(&b, 0, sizeof(b)), -1) : snapshot_take(argv[optind + 1], &b, &diag);
	}
	if (ra < 0 || rb < 0) {
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
