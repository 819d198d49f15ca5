/* `pttrace timeline RUN --chrome FILE`: every rank's chromium events as one trace. */
#include <errno.h>
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
	const char *spec = NULL, *out = NULL;
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	uint64_t n = 0, skipped = 0;
	FILE *f;
	int rc = EXIT_USAGE;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--chrome") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return EXIT_FINE;
		} else if (argv[i][0] == '-' || spec) {
			pt_cli_bad_arg(ctx, argv[i]);
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		} else
			spec = argv[i];
	}
	if (!spec || !out) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, spec, &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		pt_diag_add(&diag, PT_SEV_ERROR, out, NULL, "cannot create: %s", strerror(errno));
	} else {
		int r = tt_timeline_write(ix, run, f, &n, &skipped, &diag);

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
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}
