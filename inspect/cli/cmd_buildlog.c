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
	"  --json          one JSON document\n"
	"  --color=WHEN    auto, always, never\n"
	"Exit status: 0 the log shows a successful build, 1 a failure was found (or the\n"
	"log stops before the build ends), 2 usage error or unreadable input.\n";

int cmd_buildlog(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = "-";
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
	build_memory_machine(&m, NULL);
	{
		struct buildlog_report rep = { .r = r, .source = path, .ram_bytes = m.ram_bytes, .all = all };

		if (ctx->json) {
			json_t *j = report_buildlog_json(&rep);

			pt_json_print(stdout, j);
			json_decref(j);
		} else {
			report_buildlog_text(stdout, &rep, PT_CLI_STYLE(ctx));
		}
	}
	build_memory_release(&m);
	rc = r->verdict == BL_VERDICT_OK ? EXIT_FINE : EXIT_PROBLEMS;
	buildlog_free(b);
	return rc;
}
