/* `pttrace ranks RUN`: per-rank compile counts and where ranks diverge. */
#include <stdio.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "tt_query.h"

static const char usage_text[] =
	"usage: pttrace ranks RUN [--json]\n"
	"\n"
	"Per rank of a multi-rank TORCH_TRACE: files, records, compiles, graphs,\n"
	"failed compiles; then where ranks diverge from the first rank (graph\n"
	"counts, compile ids only one side has, order).\n"
	"Exit status: 0 fine, 1 ranks diverge or a rank conflict, 2 usage or no such run.\n";

int cmd_ranks(int argc, char **argv, struct pt_cli *ctx)
{
	const char *spec = NULL;
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	json_t *o;
	int rc = EXIT_USAGE;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			ctx->json = 1;
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
	if (!spec) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, spec, &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	if (tt_ranks_json(ix, run, &o, &diag) == 0) {
		json_t *ranks = json_object_get(o, "ranks"), *div = json_object_get(o, "divergences"), *r;
		size_t i;
		int conflict = 0;

		json_array_foreach(ranks, i, r)
			conflict |= !json_is_null(json_object_get(r, "rank_conflict"));
		if (ctx->json) {
			pt_json_print(stdout, o);
		} else {
			printf("%-6s %5s %8s %8s %6s %6s\n", "rank", "files", "records", "compiles", "graphs", "failed");
			json_array_foreach(ranks, i, r) {
				json_t *rk = json_object_get(r, "rank"), *c = json_object_get(r, "rank_conflict");
				char rs[24] = "-";

				if (!json_is_null(rk))
					snprintf(rs, sizeof(rs), "%lld", (long long)json_integer_value(rk));
				printf("%-6s %5lld %8lld %8lld %6lld %6lld%s%s\n", rs,
				       json_integer_value(json_object_get(r, "files")),
				       json_integer_value(json_object_get(r, "records")),
				       json_integer_value(json_object_get(r, "compiles")),
				       json_integer_value(json_object_get(r, "graphs")),
				       json_integer_value(json_object_get(r, "failed")),
				       json_is_null(c) ? "" : "  ", json_is_null(c) ? "" : json_string_value(c));
			}
			if (json_array_size(div)) {
				printf("\n%sranks diverge:%s\n", pt_c(ctx->color, PT_C_YELLOW), pt_c(ctx->color, PT_C_RESET));
				json_array_foreach(div, i, r) {
					/* The rest is in --json; a terminal wants the first few. */
					if (i == 20) {
						printf("  ... %zu more (--json lists all)\n", json_array_size(div) - 20);
						break;
					}
					printf("  %s\n", json_string_value(r));
				}
			} else if (json_array_size(ranks) > 1) {
				printf("\nall ranks compiled the same compile ids in the same order\n");
			}
		}
		rc = json_array_size(div) || conflict ? EXIT_PROBLEMS : EXIT_FINE;
		json_decref(o);
	}
	db_close(ix);
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}
