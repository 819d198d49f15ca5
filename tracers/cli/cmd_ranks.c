/*
 * `pttrace ranks RUN`: one row per process (file) of a run, then tlparse's
 * cross-rank checks (tt_ranks.c): compile ids, cache hit/miss patterns,
 * collective schedules, tensor meta, runtime estimates, graph execution
 * order, collectives parity.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "strbuf.h"
#include "tt_query.h"

static const char usage_text[] =
	"usage: pttrace ranks RUN [--json]\n"
	"\n"
	"One row per process (TORCH_TRACE file) of a run: its rank, records,\n"
	"compiles, graphs, failed compiles; files without records are listed apart\n"
	"and not compared. Then tlparse's cross-rank checks against the lowest\n"
	"rank: compile ids (graph counts, ids one side lacks, order), cache\n"
	"hit/miss patterns, collective schedules, tensor meta, runtime estimates,\n"
	"graph execution order and collectives parity.\n"
	"Exit status: 0 fine, 1 ranks diverge or a rank conflict, 2 usage or no such run.\n";

static const char *jstr(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void print_labels(json_t *a)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v)
		printf("%s%s", i ? ", " : "", json_string_value(v));
}

/* A check that groups members: "same in every rank" or the groups. */
static void print_groups(const char *title, const char *unit, json_t *c, int color)
{
	json_t *g = json_object_get(c, "groups"), *v;
	size_t i;

	printf("%s: ", title);
	if (json_integer_value(json_object_get(c, "members_with_data")) < 2) {
		printf("not compared (%lld rank%s with data)\n", (long long)json_integer_value(json_object_get(c, "members_with_data")),
		       json_integer_value(json_object_get(c, "members_with_data")) == 1 ? "" : "s");
		return;
	}
	if (!json_is_true(json_object_get(c, "diverge"))) {
		json_t *g0 = json_array_get(g, 0);
		const char *seq = jstr(g0, "sequence");

		if (seq && *seq && strlen(seq) <= 60 && !strchr(seq, '\n'))
			printf("same in every rank (%s)\n", seq);
		else
			printf("same in every rank (%lld %s)\n", (long long)json_integer_value(json_object_get(g0, "items")), unit);
		return;
	}
	printf("%s%zu groups%s\n", pt_c(color, PT_C_YELLOW), json_array_size(g), pt_c(color, PT_C_RESET));
	json_array_foreach(g, i, v) {
		const char *seq = jstr(v, "sequence");
		json_t *d = json_object_get(v, "differs_at");

		printf("  ");
		print_labels(json_object_get(v, "ranks"));
		if (!*seq)
			printf(": none\n");
		else if (strlen(seq) <= 60 && !strchr(seq, '\n'))
			printf(": %s\n", seq);
		else
			printf(": %lld %s\n", (long long)json_integer_value(json_object_get(v, "items")), unit);
		if (json_is_object(d) && !strchr(jstr(d, "here"), '{'))
			printf("    differs from the first group at %.*s %lld: %.60s, not %.60s\n", (int)strlen(unit) - 1, unit,
			       (long long)json_integer_value(json_object_get(d, "index")), *jstr(d, "here") ? jstr(d, "here") : "(end)",
			       *jstr(d, "first_group") ? jstr(d, "first_group") : "(end)");
		else if (json_is_object(d))
			printf("    differs from the first group at %.*s %lld\n", (int)strlen(unit) - 1, unit,
			       (long long)json_integer_value(json_object_get(d, "index")));
	}
}

static void print_parity(json_t *c, int color)
{
	json_t *v;
	size_t i;

	printf("collectives parity: %lld graphs checked", (long long)json_integer_value(json_object_get(c, "graphs_checked")));
	if (!json_array_size(json_object_get(c, "graphs"))) {
		printf(", schedules and output code agree\n");
		return;
	}
	printf(", %s%zu differ%s\n", pt_c(color, PT_C_YELLOW), json_array_size(json_object_get(c, "graphs")),
	       pt_c(color, PT_C_RESET));
	json_array_foreach(json_object_get(c, "graphs"), i, v)
		printf("  %s %s %s: schedule and code differ by %lld collective%s, %lld call%s without a wait\n",
		       jstr(v, "rank"), jstr(v, "compile_id"), jstr(v, "graph"),
		       (long long)json_integer_value(json_object_get(v, "offset")),
		       json_integer_value(json_object_get(v, "offset")) == 1 ? "" : "s",
		       (long long)json_integer_value(json_object_get(v, "missing_waits")),
		       json_integer_value(json_object_get(v, "missing_waits")) == 1 ? "" : "s");
}

static void print_text(json_t *o, int color)
{
	json_t *members = json_object_get(o, "members"), *checks = json_object_get(o, "checks"), *m, *c, *v;
	size_t i;

	printf("%-8s %5s %9s %8s %8s %6s %6s  %s\n", "process", "rank", "pid", "records", "compiles", "graphs",
	       "failed", "file");
	json_array_foreach(members, i, m) {
		char rk[24] = "-", pid[24] = "-";
		json_t *conf = json_object_get(m, "rank_conflict");

		if (json_is_integer(json_object_get(m, "rank")))
			pt_fmt_trunc(rk, sizeof(rk), "%lld", (long long)json_integer_value(json_object_get(m, "rank")));
		if (json_is_integer(json_object_get(m, "pid")))
			pt_fmt_trunc(pid, sizeof(pid), "%lld", (long long)json_integer_value(json_object_get(m, "pid")));
		printf("%-8s %5s %9s %8lld %8lld %6lld %6lld  %s\n", jstr(m, "label"), rk, pid,
		       (long long)json_integer_value(json_object_get(m, "records")),
		       (long long)json_integer_value(json_object_get(m, "compiles")),
		       (long long)json_integer_value(json_object_get(m, "graphs")),
		       (long long)json_integer_value(json_object_get(m, "failed")), jstr(m, "path"));
		if (json_is_string(conf))
			printf("         %sconflict:%s %s\n", pt_c(color, PT_C_YELLOW), pt_c(color, PT_C_RESET),
			       json_string_value(conf));
	}
	json_array_foreach(json_object_get(o, "empty_files"), i, v)
		printf("%-8s %5s %9s %8d %8s %6s %6s  %s (no records, not compared)\n", "-", "-", "-", 0, "-", "-", "-",
		       jstr(v, "path"));
	if (json_array_size(members) < 2) {
		/* One process: nothing to compare; the parity of its graphs still counts. */
		printf("\n%s\n", json_array_size(members) ? "one process: nothing to compare across ranks"
							  : "no TORCH_TRACE records");
		if (json_array_size(members))
			print_parity(json_object_get(checks, "collectives_parity"), color);
		return;
	}
	printf("\ncompared with %s:\n", jstr(o, "reference"));
	c = json_object_get(checks, "compile_ids");
	if (!json_is_true(json_object_get(c, "diverge"))) {
		printf("compile ids: all ranks compiled the same compile ids in the same order\n");
	} else {
		json_t *d = json_object_get(c, "details");

		printf("compile ids: %s%zu differences%s\n", pt_c(color, PT_C_YELLOW), json_array_size(d),
		       pt_c(color, PT_C_RESET));
		json_array_foreach(d, i, v) {
			/* The rest is in --json; a terminal wants the first few. */
			if (i == 20) {
				printf("  ... %zu more (--json lists all)\n", json_array_size(d) - 20);
				break;
			}
			printf("  %s\n", json_string_value(v));
		}
	}
	print_groups("cache hit/miss", "artifacts", json_object_get(checks, "cache"), color);
	print_groups("collective schedules", "ops", json_object_get(checks, "collective_schedule"), color);
	print_groups("tensor meta", "graphs", json_object_get(checks, "tensor_meta"), color);
	c = json_object_get(checks, "runtime");
	printf("runtime estimates: ");
	if (json_is_true(json_object_get(c, "mismatched_graph_counts")))
		printf("%sranks estimated different numbers of graphs%s\n", pt_c(color, PT_C_YELLOW), pt_c(color, PT_C_RESET));
	else if (json_integer_value(json_object_get(c, "members_with_data")) < 2)
		printf("not compared (%lld ranks with data)\n", (long long)json_integer_value(json_object_get(c, "members_with_data")));
	else {
		printf("%zu graphs\n", json_array_size(json_object_get(c, "graphs")));
		json_array_foreach(json_object_get(c, "graphs"), i, v) {
			json_t *f = json_object_get(v, "fastest"), *sl = json_object_get(v, "slowest");

			if (json_number_value(json_object_get(v, "delta_ms")) == 0) {
				printf("  %s: %.3f ms in every rank\n", jstr(v, "graph"),
				       json_number_value(json_object_get(f, "runtime_ms")));
				continue;
			}
			printf("  %s: delta %.3f ms (%s %.3f ms, %s %.3f ms)\n", jstr(v, "graph"),
			       json_number_value(json_object_get(v, "delta_ms")), jstr(f, "rank"),
			       json_number_value(json_object_get(f, "runtime_ms")), jstr(sl, "rank"),
			       json_number_value(json_object_get(sl, "runtime_ms")));
		}
	}
	c = json_object_get(checks, "execution_order");
	printf("graph execution order: ");
	if (json_integer_value(json_object_get(c, "members_with_data")) < 2)
		printf("not compared (%lld ranks with data)\n", (long long)json_integer_value(json_object_get(c, "members_with_data")));
	else if (!json_is_true(json_object_get(c, "diverge")))
		printf("the same in every rank (%zu graphs)\n", json_array_size(json_object_get(c, "rows")));
	else {
		printf("%s%s%s\n", pt_c(color, PT_C_YELLOW),
		       json_is_true(json_object_get(c, "order_differs")) ? "differs" : "same order, different graphs",
		       pt_c(color, PT_C_RESET));
		json_array_foreach(json_object_get(c, "rows"), i, v) {
			const char *lab;
			json_t *w, *iss = json_object_get(v, "issues");
			size_t k;

			printf("  %lld:", (long long)json_integer_value(json_object_get(v, "index")));
			json_object_foreach(json_object_get(v, "by_rank"), lab, w)
				printf(" %s %s", lab, json_string_value(w));
			json_array_foreach(iss, k, w)
				printf("%s%s mismatch", k ? ", " : "; ", json_string_value(w));
			putchar('\n');
		}
	}
	print_parity(json_object_get(checks, "collectives_parity"), color);
}

int cmd_ranks(int argc, char **argv, struct pt_cli *ctx)
{
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	json_t *o;
	int rc = pt_cli_parse_common(ctx, argc, argv, "h", usage_text);

	if (rc >= 0)
		return rc;
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage_text))
		return EXIT_USAGE;
	if (optind == argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	rc = EXIT_USAGE;
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, argv[optind], &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	if (tt_ranks_json(ix, run, &o, &diag) == 0) {
		json_t *m;
		size_t i;
		int conflict = 0;

		json_array_foreach(json_object_get(o, "members"), i, m)
			conflict |= json_is_string(json_object_get(m, "rank_conflict"));
		if (ctx->json)
			pt_json_print(stdout, o);
		else
			print_text(o, ctx->color);
		rc = json_is_true(json_object_get(o, "diverge")) || conflict ? EXIT_PROBLEMS : EXIT_FINE;
		json_decref(o);
	}
	db_close(ix);
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}
