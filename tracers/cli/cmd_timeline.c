/* `pttrace timeline RUN --chrome FILE`: every rank's chromium events as one trace. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "pttrace.h"
#include "tt_query.h"

static const char usage_text[] =
	"usage: pttrace timeline RUN --chrome FILE\n"
	"\n"
	"Write the chromium_event records of all ranks as one Chrome/Perfetto trace\n"
	"({\"traceEvents\": [...]}), one process (pid) per rank. FILE '-' is stdout.\n"
	"Exit status: 0 fine, 1 some events were not JSON (skipped), 2 usage or no such run.\n";

int cmd_timeline(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,	/* --json, --color: taken, nothing changes (the output is JSON) */
		PT_CLI_DB_OPTION,
		{ "chrome", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	uint64_t n = 0, skipped = 0;
	FILE *f;
	int c, rc = EXIT_USAGE;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': out = optarg; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage_text))
		return EXIT_USAGE;
	if (optind == argc || !out) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, argv[optind], &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		pt_diag_add(&diag, PT_SEV_ERROR, out, NULL, "cannot create: %s", strerror(errno));
	} else {
		int r = tt_timeline_write(ix, run, f, &n, &skipped);

		if ((f != stdout && fclose(f) != 0) || (f == stdout && fflush(f) != 0))
			pt_diag_add(&diag, PT_SEV_ERROR, out, NULL, "write failed");
		else if (r == 0) {
			if (f != stdout)
				fprintf(stderr, "pttrace timeline: %llu events written to %s%s\n",
					(unsigned long long)n, out, skipped ? "" : "");
			if (skipped)
				pt_diag_add(&diag, PT_SEV_WARNING, NULL, NULL,
					    "%llu chromium_event payloads are not JSON objects, skipped",
					    (unsigned long long)skipped);
			rc = skipped ? EXIT_PROBLEMS : EXIT_FINE;
		}
	}
	db_close(ix);
	pttrace_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}
