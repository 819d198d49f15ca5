/*
 * `ptinspect buildlog [FILE|-]`: a build's output read as a stream
 * (buildlog.h), the verdict and cause rendered (report_buildlog.h). Exit 0:
 * the log shows a successful build; 1: a failure (or a log that stops before
 * the build ends); 2: usage, unreadable or non-text input.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bindcheck.h"
#include "buildlog.h"
#include "buildtree.h"
#include "jsonout.h"
#include "ptinspect.h"
#include "report_buildlog.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: ptinspect buildlog [OPTIONS] [FILE|-]\n"
	"Reads a PyTorch build's output (pip install -e . -v, python setup.py develop,\n"
	"cmake --build, ninja; stdin when FILE is - or absent) and prints, verdict first,\n"
	"the phase that failed, ninja's first failed edge (its output, its command\n"
	"shortened, its own diagnostics taken apart from the other jobs', first error\n"
	"first), the cause and its fix.\n"
	"  --all           every failed edge (ninja -k 0) and every kept line, all warning kinds\n"
	"  --root DIR      the log's absolute paths are under DIR here (a chroot, a container's\n"
	"                  root): where the libraries of a failed link are read\n"
	"  --json          one JSON document\n"
	"  --color=WHEN    auto, always, never\n"
	"Exit status: 0 the log shows a successful build, 1 a failure was found (or the\n"
	"log stops before the build ends), 2 usage error or unreadable input.\n";

int cmd_buildlog(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "all", no_argument, NULL, 'a' },
		{ "root", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = "-", *root = "";
	char *twin_lib = NULL, *twin_def = NULL;
	bool all = false;
	int c, fd, rc;
	struct buildlog *b;
	const struct buildlog_result *r;
	struct build_memory m;
	uint8_t *buf;
	ssize_t got;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': all = true; break;
		case 'r': root = optarg; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage_text))
		return EXIT_USAGE;
	if (optind < argc)
		path = argv[optind];
	if (!strcmp(path, "-")) {
		fd = STDIN_FILENO;
	} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "%s: %s: %s\n", ctx->prog, path, strerror(errno));
		return EXIT_USAGE;
	}
	b = buildlog_new();
	buf = pt_xmalloc(1u << 20);
	while ((got = read(fd, buf, 1u << 20)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: %s: %s\n", ctx->prog, strcmp(path, "-") ? path : "stdin", strerror(errno));
			free(buf);
			buildlog_free(b);
			if (fd != STDIN_FILENO)
				close(fd);
			return EXIT_USAGE;
		}
		buildlog_feed(b, buf, (size_t)got);
	}
	free(buf);
	if (fd != STDIN_FILENO)
		close(fd);
	r = buildlog_finish(b);
	if (r->verdict == BL_VERDICT_EMPTY || r->verdict == BL_VERDICT_BINARY) {
		fprintf(stderr, "%s: %s: %s\n", ctx->prog, strcmp(path, "-") ? path : "stdin",
			r->verdict == BL_VERDICT_EMPTY ? "empty: no build output to read"
						       : "not a text log (binary data: control bytes or NULs in the first 64 KiB)");
		buildlog_free(b);
		return EXIT_USAGE;
	}
	/* An undefined reference: its definition with the other C++ ABI in a library the link names. */
	if (r->cause == BL_CAUSE_UNDEFINED && r->symbol && r->abi_twin && r->edge && r->edge->command) {
		size_t n;
		char **libs = buildlog_link_libraries(r->edge->command, &n);
		struct pt_diag d;

		pt_diag_init(&d);
		for (size_t i = 0; i < n; i++) {
			char *p = libs[i][0] == '/' ? pt_xasprintf("%s%s", root, libs[i]) : pt_xstrdup(libs[i]);

			if (!twin_def && access(p, R_OK) == 0 && (twin_def = bindcheck_abi_definition(p, r->symbol, &d)))
				twin_lib = pt_xstrdup(libs[i]);
			free(p);
			free(libs[i]);
		}
		free(libs);
		pt_diag_release(&d);
	}
	build_memory_machine(&m, NULL);
	{
		struct buildlog_report rep = { .r = r, .source = path, .ram_bytes = m.ram_bytes, .all = all,
					       .twin_lib = twin_lib, .twin_def = twin_def };

		if (ctx->json) {
			json_t *j = report_buildlog_json(&rep);

			pt_json_print(stdout, j);
			json_decref(j);
		} else {
			report_buildlog_text(stdout, &rep, PT_CLI_STYLE(ctx));
		}
	}
	build_memory_release(&m);
	free(twin_lib);
	free(twin_def);
	rc = r->verdict == BL_VERDICT_OK ? EXIT_FINE : EXIT_PROBLEMS;
	buildlog_free(b);
	return rc;
}
