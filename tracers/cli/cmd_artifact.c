/*
 * `pttrace artifact RUN COMPILE KIND` prints payloads; `--out DIR` writes
 * every payload of the run (or of COMPILE / KIND) as files laid out and
 * named as tlparse names them: DIR/[rank_<R>/]<ca>_<frame>_<compile>_<attempt>/
 * <name>_<N>.<txt|json>, records without compile id in unknown_<line>/, and
 * compile_directory.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonout.h"
#include "pttrace.h"
#include "tt_query.h"
#include "fsutil.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace artifact RUN COMPILE KIND [--rank N]\n"
	"       pttrace artifact RUN [COMPILE [KIND]] --out DIR [--rank N]\n"
	"\n"
	"COMPILE is a compile id as PyTorch writes it: 0/0, [0/0_1], !0/1/0.\n"
	"KIND is a record kind (dynamo_output_graph, aot_forward_graph,\n"
	"inductor_output_code, dynamo_guards, dynamo_cpp_guards_str ...) or an\n"
	"artifact name (fx_graph_runnable, recompile_reasons ...).\n"
	"Without --out the payloads are written to stdout byte for byte.\n"
	"Exit status: 0 fine, 1 nothing matched, 2 usage or no such run.\n";

struct art_ctx {
	struct db *ix;
	struct pt_diag *diag;
	const char *out;	/* NULL: stdout */
	int multi_rank;
	long counter;
	long n;
	json_t *dir;		/* compile_directory.json */
	int failed;
};

static int on_rec(void *vctx, const struct tt_rec_row *row)
{
	struct art_ctx *a = vctx;
	char *data;
	size_t len;
	char base[512], sub[COMPILEID_MAX + 32], key[COMPILEID_MAX + 32];
	const char *ext;

	if (!row->md5)
		return 0;
	if (a->out && tt_tlparse_name(row->kind, row->name, row->envelope, base, sizeof(base), &ext) < 0)
		return 0;
	if (tt_payload_get(a->ix, row->md5, &data, &len, a->diag) != 0) {
		a->failed = 1;
		return -1;
	}
	a->n++;
	if (!a->out) {
		fwrite(data, 1, len, stdout);
		/* Payloads have no final newline of their own (split on \n). */
		if (len && data[len - 1] != '\n' && isatty(1))
			putchar('\n');
	} else {
		char *dir, *file, *rel;
		FILE *f;
		json_t *ent, *arts;

		if (row->cid.frame < 0 && row->cid.ca < 0) {
			snprintf(sub, sizeof(sub), "unknown_%lld", (long long)row->lineno);
			snprintf(key, sizeof(key), "unknown");
		} else {
			char id[COMPILEID_MAX];

			compileid_format_dir(&row->cid, sub, sizeof(sub));
			compileid_format(&row->cid, id, sizeof(id));
			snprintf(key, sizeof(key), "[%s]", id);
		}
		if (a->multi_rank && row->rank >= 0) {
			dir = pt_xasprintf("%s/rank_%lld/%s", a->out, (long long)row->rank, sub);
			rel = pt_xasprintf("rank_%lld/%s/%s_%ld.%s", (long long)row->rank, sub, base, a->counter, ext);
		} else {
			dir = pt_xasprintf("%s/%s", a->out, sub);
			rel = pt_xasprintf("%s/%s_%ld.%s", sub, base, a->counter, ext);
		}
		file = pt_xasprintf("%s/%s", a->out, rel);
		if (pt_mkdirs(dir, 0777) < 0 || !(f = fopen(file, "wb")) ||
		    (fwrite(data, 1, len, f) != len) + fclose(f) != 0) {
			pt_diag_add(a->diag, PT_SEV_ERROR, file, NULL, "cannot write: %s", strerror(errno));
			a->failed = 1;
		}
		ent = json_object_get(a->dir, key);
		if (!ent) {
			ent = json_pack("{s:[]}", "artifacts");
			json_object_set_new(a->dir, key, ent);
		}
		arts = json_object_get(ent, "artifacts");
		json_array_append_new(arts, json_pack("{s:s, s:s, s:I, s:s}", "url", rel, "name",
						      base, "number", (json_int_t)a->counter, "suffix", ext));
		a->counter++;
		free(dir);
		free(file);
		free(rel);
	}
	free(data);
	return a->failed ? -1 : 0;
}

int cmd_artifact(int argc, char **argv, struct pt_cli *ctx)
{
	const char *pos[3] = {0}, *out = NULL;
	int npos = 0, rc = EXIT_USAGE;
	long long rank = -1;
	struct compileid cid;
	struct pt_diag diag;
	struct db *ix;
	int64_t run;
	struct art_ctx a = {0};

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--rank") && i + 1 < argc) {
			rank = strtoll(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return EXIT_FINE;
		} else if (argv[i][0] == '-' || npos == 3) {
			pt_cli_bad_arg(ctx, argv[i]);
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		} else {
			pos[npos++] = argv[i];
		}
	}
	if (npos < (out ? 1 : 3)) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (pos[1] && compileid_parse((const uint8_t *)pos[1], strlen(pos[1]), &cid) < 0) {
		fprintf(stderr, "pttrace artifact: '%s' is not a compile id (0/0, 0/0_1, !0/1/0)\n", pos[1]);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	if (pt_cmd_open(ctx, pos[0], &ix, &run, &diag) < 0)
		return EXIT_USAGE;
	a.ix = ix;
	a.diag = &diag;
	a.out = out;
	a.dir = json_object();
	a.multi_rank = tt_rank_count(ix, run) > 1;
	if (out && pt_mkdirs(out, 0777) < 0) {
		pt_diag_add(&diag, PT_SEV_ERROR, out, NULL, "cannot create: %s", strerror(errno));
	} else if (tt_records_for(ix, run, pos[1] ? &cid : NULL, rank, pos[2], on_rec, &a, &diag) == 0 &&
		   !a.failed) {
		rc = a.n ? EXIT_FINE : EXIT_PROBLEMS;
		if (out) {
			char *p = pt_xasprintf("%s/compile_directory.json", out);
			FILE *f = fopen(p, "w");

			if (!f || pt_json_print(f, a.dir) < 0 || fclose(f) != 0) {
				pt_diag_add(&diag, PT_SEV_ERROR, p, NULL, "cannot write");
				rc = EXIT_USAGE;
			}
			free(p);
			if (rc != EXIT_USAGE)
				fprintf(stderr, "pttrace artifact: %ld files in %s\n", a.n, out);
		} else if (!a.n) {
			fprintf(stderr, "pttrace artifact: no %s payload for [%s] in run %s\n", pos[2], pos[1], pos[0]);
		}
	}
	json_decref(a.dir);
	db_close(ix);
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
	return rc;
}
