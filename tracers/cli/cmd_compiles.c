/*
 * `pttrace compiles RUN [--rank N]`, `pttrace graph-breaks RUN`,
 * `pttrace recompiles RUN`: the compile-level view of a run's TORCH_TRACE.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "pttrace.h"
#include "strbuf.h"
#include "tt_query.h"
#include "xalloc.h"

static const char compiles_usage[] =
	"usage: pttrace compiles RUN [--rank N] [--json]\n"
	"\n"
	"One row per compile id ([0/0], [0/0_1] attempt 1, [!0/1/0] compiled autograd)\n"
	"and rank: the frame, status (ok, restarted, failed, missing: no\n"
	"compilation_metrics, autograd: a compiled-autograd capture [!0]), cache (fx/aot hit, miss, bypass), graphs, ops, guards,\n"
	"compile seconds, the failure or restart reason and the payloads it produced.\n"
	"Exit status: 0 fine, 1 some compile failed, 2 usage or no such run.\n";

static const char breaks_usage[] =
	"usage: pttrace graph-breaks RUN [--unique] [--json]\n"
	"\n"
	"Every graph break: the compile id, where in user code, and why\n"
	"(dynamo_graph_break_reason records; restart reasons in older traces).\n"
	"--unique: each reason and place once, with how often and in which compiles.\n"
	"Exit status: 0 fine, 2 usage error or no such run.\n";

static const char recompiles_usage[] =
	"usage: pttrace recompiles RUN [--json]\n"
	"\n"
	"Every recompile: the new compile id, the compile whose guard failed, the\n"
	"guard, and where it came from (recompile_reasons records).\n"
	"Exit status: 0 fine, 2 usage error or no such run.\n";

/* Each subcommand's options: the shared ones and its own. */
static const struct option compiles_opts[] = {
	PT_CLI_OPTIONS,
	PT_CLI_DB_OPTION,
	{ "rank", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};
static const struct option breaks_opts[] = {
	PT_CLI_OPTIONS,
	PT_CLI_DB_OPTION,
	{ "unique", no_argument, NULL, 'u' },
	{ NULL, 0, NULL, 0 },
};
static const struct option recompiles_opts[] = {
	PT_CLI_OPTIONS,
	PT_CLI_DB_OPTION,
	{ NULL, 0, NULL, 0 },
};

static int unique;	/* graph-breaks --unique */

/* The options and RUN; returns the RUN argument, or NULL with *rc the exit code. */
static const char *parse(int argc, char **argv, struct pt_cli *ctx, const struct option *longopts,
			 const char *usage, long long *rank, int *rc)
{
	char *end;
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': unique = 1; break;
		case 'r':
			*rank = strtoll(optarg, &end, 10);
			if (*end || *rank < 0) {
				fprintf(stderr, "%s: --rank wants a number\n", argv[0]);
				*rc = EXIT_USAGE;
				return NULL;
			}
			break;
		default:
			if ((*rc = pt_cli_option(ctx, c, optarg, usage)) >= 0)
				return NULL;
		}
	}
	*rc = EXIT_USAGE;
	if (pt_cli_extra_arg(ctx, argc, argv, 1, usage))
		return NULL;
	if (optind == argc) {
		fprintf(stderr, "%s: no RUN given\n%s", argv[0], usage);
		return NULL;
	}
	return argv[optind];
}

static void fmt_time(char *buf, size_t n, double s)
{
	if (s < 0)
		pt_fmt_trunc(buf, n, "-");
	else
		pt_fmt_trunc(buf, n, "%.3f", s);
}

static void fmt_int(char *buf, size_t n, int64_t v)
{
	if (v < 0)
		pt_fmt_trunc(buf, n, "-");
	else
		pt_fmt_trunc(buf, n, "%lld", (long long)v);
}

static void print_compile(const struct tt_compile *c, int color)
{
	char id[COMPILEID_MAX], t[32], rank[40] = "", ops[24], guards[24];
	const char *col = !strcmp(c->status, "ok") || !strcmp(c->status, "empty") ? PT_C_GREEN
			  : !strcmp(c->status, "failed") ? PT_C_RED : PT_C_YELLOW;

	compileid_format(&c->cid, id, sizeof(id));
	fmt_time(t, sizeof(t), c->t_entire);
	if (c->label[0])
		pt_fmt_trunc(rank, sizeof(rank), "%s ", c->label);
	else if (c->rank >= 0)
		pt_fmt_trunc(rank, sizeof(rank), "rank %lld ", (long long)c->rank);
	if (c->occurrence > 1)
		pt_fmt_trunc(id + strlen(id), sizeof(id) - strlen(id), " #%d", c->occurrence);
	printf("%s[%s] %s%-9s%s", rank, id, pt_c(color, col), c->status, pt_c(color, PT_C_RESET));
	printf(" %s", c->co_name ? c->co_name : "?");
	if (c->co_filename)
		printf(" %s:%lld", c->co_filename, (long long)c->co_firstlineno);
	fmt_int(ops, sizeof(ops), c->op_count);
	fmt_int(guards, sizeof(guards), c->guard_count);
	printf("\n    graphs %ld, ops %s, guards %s, %s s", c->graphs, ops, guards, t);
	if (c->t_backend >= 0)
		printf(" (backend %.3f s)", c->t_backend);
	if (c->cache)
		printf(", cache %s", c->cache);
	printf("\n");
	if (c->fail_type)
		printf("    failed: %s: %s\n", c->fail_type, c->fail_reason ? c->fail_reason : "");
	{
		size_t k;
		json_t *r;

		json_array_foreach(c->restart_reasons, k, r)
			printf("    restart: %s\n", json_is_string(r) ? json_string_value(r) : "?");
	}
	if (c->narts) {
		printf("    artifacts:");
		for (size_t i = 0; i < c->narts; i++)
			if (c->arts[i].n > 1)
				printf(" %s(%ld)", c->arts[i].kind, c->arts[i].n);
			else
				printf(" %s", c->arts[i].kind);
		printf("\n");
	}
}

int cmd_compiles(int argc, char **argv, struct pt_cli *ctx)
{
	long long rank = -1;
	int rc;
	const char *spec = parse(argc, argv, ctx, compiles_opts, compiles_usage, &rank, &rc);
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	struct tt_compiles cs;
	size_t failed = 0;

	if (!spec)
		return rc;
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, spec, &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	rc = EXIT_USAGE;
	if (tt_compiles_load(ix, run, rank, &cs) == 0) {
		json_t *arr = json_array();

		for (size_t i = 0; i < cs.n; i++) {
			failed += !strcmp(cs.v[i].status, "failed");
			if (ctx->json)
				json_array_append_new(arr, tt_compile_json(&cs.v[i]));
			else
				print_compile(&cs.v[i], ctx->color);
		}
		if (ctx->json)
			pt_json_print(stdout, arr);
		else if (!cs.n)
			printf("no compiles (the run has no TORCH_TRACE records with compile ids)\n");
		json_decref(arr);
		tt_compiles_release(&cs);
		rc = failed ? EXIT_PROBLEMS : EXIT_FINE;
	}
	db_close(ix);
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* graph-breaks --unique: one entry per reason and place, with count, compile ids and ranks. */
static json_t *unique_breaks(const struct tt_events *ev)
{
	json_t *out = json_array();
	char *done = pt_xcalloc(ev->n + 1, 1);

	for (size_t i = 0; i < ev->n; i++) {
		json_t *ids, *ranks;
		long n = 0;

		if (done[i])
			continue;
		ids = json_array();
		ranks = json_array();
		for (size_t j = i; j < ev->n; j++) {
			char id[COMPILEID_MAX];

			if (done[j] || !same(ev->v[i].what, ev->v[j].what) || !same(ev->v[i].where, ev->v[j].where))
				continue;
			done[j] = 1;
			n++;
			compileid_format(&ev->v[j].cid, id, sizeof(id));
			json_array_append_new(ids, json_string(id));
			if (ev->v[j].rank >= 0) {
				size_t k;
				json_t *r;
				int seen = 0;

				json_array_foreach(ranks, k, r)
					seen |= json_integer_value(r) == ev->v[j].rank;
				if (!seen)
					json_array_append_new(ranks, json_integer(ev->v[j].rank));
			}
		}
		json_array_append_new(out, json_pack("{s:o, s:o, s:I, s:o, s:o}", "reason", pt_json_str(ev->v[i].what),
						     "where", pt_json_str(ev->v[i].where), "count", (json_int_t)n,
						     "compile_ids", ids, "ranks", ranks));
	}
	free(done);
	return out;
}

static void print_unique(json_t *u, int color)
{
	size_t i, k;
	json_t *v, *id;

	json_array_foreach(u, i, v) {
		const char *where = json_string_value(json_object_get(v, "where"));

		printf("%s%lldx%s %s\n", pt_c(color, PT_C_BOLD), (long long)json_integer_value(json_object_get(v, "count")),
		       pt_c(color, PT_C_RESET), json_string_value(json_object_get(v, "reason")) ?: "?");
		if (where)
			printf("    at %s\n", where);
		printf("    in");
		json_array_foreach(json_object_get(v, "compile_ids"), k, id) {
			if (k == 12) {
				printf(" ... %zu more", json_array_size(json_object_get(v, "compile_ids")) - 12);
				break;
			}
			printf("%s [%s]", k ? "," : "", json_string_value(id));
		}
		if (json_array_size(json_object_get(v, "ranks"))) {
			printf(" (rank%s", json_array_size(json_object_get(v, "ranks")) > 1 ? "s" : "");
			json_array_foreach(json_object_get(v, "ranks"), k, id)
				printf("%s %lld", k ? "," : "", (long long)json_integer_value(id));
			printf(")");
		}
		putchar('\n');
	}
}

static int events_cmd(int argc, char **argv, struct pt_cli *ctx, int recompiles)
{
	int rc;
	const char *spec = parse(argc, argv, ctx, recompiles ? recompiles_opts : breaks_opts,
				 recompiles ? recompiles_usage : breaks_usage, NULL, &rc);
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	struct tt_events ev;
	int r;

	if (!spec)
		return rc;
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, spec, &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	r = recompiles ? tt_recompiles(ix, run, &ev) : tt_graph_breaks(ix, run, &ev);
	rc = EXIT_USAGE;
	if (r == 0 && unique && !recompiles) {
		json_t *u = unique_breaks(&ev);

		if (ctx->json)
			pt_json_print(stdout, u);
		else if (!ev.n)
			printf("no graph breaks\n");
		else
			print_unique(u, ctx->color);
		json_decref(u);
		tt_events_release(&ev);
		rc = EXIT_FINE;
	} else if (r == 0) {
		json_t *arr = json_array();

		for (size_t i = 0; i < ev.n; i++) {
			const struct tt_event *e = &ev.v[i];
			char id[COMPILEID_MAX];

			compileid_format(&e->cid, id, sizeof(id));
			if (ctx->json) {
				json_t *o = json_object();

				json_object_set_new(o, "rank", e->rank >= 0 ? json_integer(e->rank) : json_null());
				json_object_set_new(o, "who", e->who[0] ? json_string(e->who) : json_null());
				json_object_set_new(o, "compile_id", json_string(id));
				if (recompiles)
					json_object_set_new(o, "guard_of", pt_json_str(e->prev));
				json_object_set_new(o, recompiles ? "failed_guard" : "reason", pt_json_str(e->what));
				json_object_set_new(o, "where", pt_json_str(e->where));
				json_array_append_new(arr, o);
				continue;
			}
			if (e->who[0])
				printf("%s ", e->who);
			else if (e->rank >= 0)
				printf("rank %lld ", (long long)e->rank);
			printf("%s[%s]%s", pt_c(ctx->color, PT_C_BOLD), id, pt_c(ctx->color, PT_C_RESET));
			if (recompiles)
				printf(" guard of [%s] failed: %s\n", e->prev ? e->prev : "?", e->what ? e->what : "?");
			else
				printf(" %s\n", e->what ? e->what : "?");
			if (e->where)
				printf("    at %s\n", e->where);
		}
		if (ctx->json)
			pt_json_print(stdout, arr);
		else if (!ev.n)
			printf("no %s\n", recompiles ? "recompiles" : "graph breaks");
		json_decref(arr);
		tt_events_release(&ev);
		rc = EXIT_FINE;
	}
	db_close(ix);
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}

int cmd_graph_breaks(int argc, char **argv, struct pt_cli *ctx)
{
	return events_cmd(argc, argv, ctx, 0);
}

int cmd_recompiles(int argc, char **argv, struct pt_cli *ctx)
{
	return events_cmd(argc, argv, ctx, 1);
}
