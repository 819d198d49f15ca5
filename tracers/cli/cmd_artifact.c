/*
 * `pttrace artifact RUN COMPILE KIND` prints payloads byte for byte;
 * `--out DIR` writes tlparse's output tree (tt_tlparse.h: paths, numbers
 * and compile_directory.json as tlparse writes them, per file/rank).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonout.h"
#include "pttrace.h"
#include "tt_query.h"
#include "tt_tlparse.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace artifact RUN COMPILE KIND [--rank N] [--nth N]\n"
	"       pttrace artifact RUN [COMPILE [KIND]] --out DIR [--rank N] [--export]\n"
	"\n"
	"COMPILE is a compile id as PyTorch writes it: 0/0, [0/0_1], !0/1/0, -/- (none).\n"
	"KIND is a record kind (dynamo_output_graph, aot_forward_graph,\n"
	"inductor_output_code, dynamo_guards, dynamo_cpp_guards_str ...) or an\n"
	"artifact name (fx_graph_runnable, recompile_reasons ...).\n"
	"Without --out the payloads are written to stdout byte for byte; when\n"
	"several match, each ends with a newline and stderr says where each came\n"
	"from (--nth N prints only the Nth).\n"
	"--out DIR writes tlparse's output tree: the same paths, numbers and\n"
	"compile_directory.json, one tree per file (rank_<R>/ in a multi-rank run);\n"
	"--export as tlparse -e (torch.export traces).\n"
	"Exit status: 0 fine, 1 nothing matched, 2 usage or no such run.\n";

struct art_ctx {
	struct db *ix;
	struct pt_diag *diag;
	long nth;		/* 0: all */
	long n;			/* matches */
	int need_nl;		/* what was printed does not end in a newline */
	json_t *where;		/* ["file:line", ...] of every match */
	int failed;
};

static int on_rec(void *vctx, const struct tt_rec_row *row)
{
	struct art_ctx *a = vctx;
	char *data;
	size_t len;

	if (!row->md5)
		return 0;
	a->n++;
	json_array_append_new(a->where, json_sprintf("%s:%lld", row->file ? row->file : "?",
						      (long long)row->lineno));
	if (a->nth && a->n != a->nth)
		return 0;
	if (tt_payload_get(a->ix, row->md5, &data, &len) != 0) {
		a->failed = 1;
		return -1;
	}
	/* A second payload must not run into the first (`][` between JSON arrays). */
	if (a->need_nl)
		putchar('\n');
	fwrite(data, 1, len, stdout);
	/* Payloads have no final newline of their own (split on \n). */
	a->need_nl = len && data[len - 1] != '\n';
	free(data);
	return 0;
}

/* --rank N (0 or more), --nth N (1 or more): 0, or -1 after a message. */
static int number_opt(int c, const char *arg, long long *v)
{
	char *end;

	*v = strtoll(arg, &end, 10);
	if (*end || *v < (c == 'n' ? 1 : 0)) {
		fprintf(stderr, "pttrace artifact: --%s wants a number, not '%s'\n", c == 'n' ? "nth" : "rank", arg);
		return -1;
	}
	return 0;
}

int cmd_artifact(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,	/* --json, --color: taken, nothing changes (payloads are raw bytes) */
		PT_CLI_DB_OPTION,
		{ "out", required_argument, NULL, 'o' },
		{ "export", no_argument, NULL, 'e' },
		{ "rank", required_argument, NULL, 'r' },
		{ "nth", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pos[3] = {0}, *out = NULL;
	int c, npos = 0, rc = EXIT_USAGE, export_mode = 0;
	long long rank = -1, v;
	long nth = 0;
	struct compileid cid;
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	struct art_ctx a = {0};

	/*
	 * In order ("-": each argument that is no option comes as 1), so that a
	 * COMPILE of "-/-" (records without a compile id, tlparse's [-/-]) is
	 * taken as the argument it is before getopt sees an option in it.
	 */
	optind = 0;
	for (;;) {
		if (optind > 0 && optind < argc && npos == 1 && !strncmp(argv[optind], "-/", 2)) {
			pos[npos++] = argv[optind++];
			continue;
		}
		if ((c = getopt_long(argc, argv, "-h", longopts, NULL)) == -1)
			break;
		switch (c) {
		case 1:
			if (npos == 3) {
				pt_cli_unexpected_arg(ctx, optarg);
				fputs(usage_text, stderr);
				return EXIT_USAGE;
			}
			pos[npos++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'e': export_mode = 1; break;
		case 'r':
		case 'n':
			if (number_opt(c, optarg, &v) < 0)
				return EXIT_USAGE;
			if (c == 'n')
				nth = (long)v;
			else
				rank = v;
			break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	/* After "--": the rest are arguments. */
	while (optind < argc && npos < 3)
		pos[npos++] = argv[optind++];
	if (pt_cli_extra_arg(ctx, argc, argv, 0, usage_text))
		return EXIT_USAGE;
	if (npos < (out ? 1 : 3)) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (pos[1] && compileid_parse((const uint8_t *)pos[1], strlen(pos[1]), &cid) < 0) {
		fprintf(stderr, "pttrace artifact: '%s' is not a compile id (0/0, 0/0_1, !0/1/0, -/-)\n", pos[1]);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pttrace_cmd_open(ctx, pos[0], &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	if (out) {
		struct tt_tlparse_opts o = {pos[1] ? &cid : NULL, pos[2], rank, export_mode};
		struct tt_tlparse_stats st;

		if (tt_tlparse_write(ix, run, out, &o, &st, &diag) == 0) {
			fprintf(stderr, "pttrace artifact: %llu file%s%s in %s\n", (unsigned long long)st.files,
				PT_PLURAL(st.files),
				st.trees > 1 ? " (one tree per rank)" : "", out);
			rc = st.files || st.links ? EXIT_FINE : EXIT_PROBLEMS;
		}
	} else {
		a.ix = ix;
		a.diag = &diag;
		a.nth = nth;
		a.where = json_array();
		if (tt_records_for(ix, run, &cid, rank, pos[2], on_rec, &a) == 0 && !a.failed) {
			rc = a.n && (!nth || nth <= a.n) ? EXIT_FINE : EXIT_PROBLEMS;
			if (a.need_nl && (isatty(1) || (a.n > 1 && !nth)))
				putchar('\n');
			if (!a.n)
				fprintf(stderr, "pttrace artifact: no %s payload for [%s] in run %s\n", pos[2], pos[1], pos[0]);
			else if (nth > a.n)
				fprintf(stderr, "pttrace artifact: --nth %ld, but %ld payloads matched\n", nth, a.n);
			else if (a.n > 1 && !nth) {
				size_t i;
				json_t *w;

				fprintf(stderr, "pttrace artifact: %ld payloads matched, each printed with a newline after it"
					" (--nth N prints one):\n", a.n);
				json_array_foreach(a.where, i, w)
					fprintf(stderr, "  %zu: %s\n", i + 1, json_string_value(w));
			}
		}
		json_decref(a.where);
	}
	db_close(ix);
	pttrace_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}
