/*
 * `ptinspect FILE...` and `ptinspect deps FILE...`: every report that exists
 * for each file, or only some sections of it. Options are parsed here once;
 * each section is collected by its module and rendered by report*.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudaarch.h"
#include "fatbin_scan.h"
#include "jsonout.h"
#include "ptinspect.h"
#include "report.h"
#include "report_cuda.h"

enum files_section {
	SEC_ELF = 1 << 0,
	SEC_DEPS = 1 << 1,
	SEC_CUDA = 1 << 2,
	SEC_ALL = ~0,
};

#define MAX_GPUS 32

struct files_opts {
	unsigned sections;
	const char *usage;
	/* CUDA section (SEC_CUDA) */
	struct cuda_cc gpus[MAX_GPUS];	/* --gpu */
	const char *gpu_args[MAX_GPUS];
	size_t n_gpus;
	unsigned scan_flags;		/* --registered-only */
	int verify;			/* --verify */
	int entries;			/* --entries */
};

/*
 * The CUDA section of one file: scan, optional verify, render. Returns how
 * many --gpu values cannot run the file's code (exit 1: a problem found).
 */
static size_t cuda_section(const struct elfobj *o, const struct files_opts *fo, struct pt_ctx *ctx,
			 json_t *fj, struct pt_diag *diag)
{
	struct cuda_scan scan;
	struct cuda_verify ver;
	struct report_cuda r;
	struct report_cuda_opts ro = {
		.gpus = fo->gpus,
		.gpu_args = fo->gpu_args,
		.n_gpus = fo->n_gpus,
		.entries = fo->entries,
		.only = fo->sections == SEC_CUDA,
	};
	size_t unrunnable = 0;

	cuda_scan(o, fo->scan_flags, &scan, diag);
	if (fo->verify)
		cuda_scan_verify(o, &scan, &ver, diag);
	report_cuda_init(&r, &scan, fo->verify ? &ver : NULL, o->path, diag);
	for (size_t g = 0; scan.n_fatbins && g < fo->n_gpus; g++) {
		struct cuda_verdict v;

		cudaarch_verdict(&r.sum, fo->gpus[g], &v);
		if (v.how == CUDA_RUN_NONE)
			unrunnable++;
	}
	if (ctx->json) {
		json_object_set_new(fj, "cuda", report_cuda_json(&r, &ro));
	} else {
		if (!(fo->sections & SEC_ELF))
			printf("%s%s%s\n", pt_c(ctx->color, PT_C_BOLD), o->path,
			       pt_c(ctx->color, PT_C_RESET));
		report_cuda_text(stdout, &r, &ro, ctx);
	}
	report_cuda_release(&r);
	if (fo->verify)
		cuda_verify_release(&ver);
	cuda_scan_release(&scan);
	return unrunnable;
}

#define CUDA_OPTIONS_HELP                                                                  \
	"  --gpu CC        can a GPU run it: 8.6, sm_86, 120, h100, rtx5090 ... (repeatable)\n" \
	"  --registered-only  only .nv_fatbin and __nv_relfatbin (skip the data scan)\n"     \
	"  --verify        decompress every SASS/PTX entry and check it\n"                     \
	"  --entries       list every fat binary entry (text)\n"

static int inspect_one(const char *path, const struct files_opts *fo, struct pt_ctx *ctx,
		       json_t *files, json_t *problems)
{
	struct elfobj o;
	struct pt_diag diag;
	int rc = EXIT_FINE;

	pt_diag_init(&diag);
	if (elfobj_open(&o, path, &diag) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (!ctx->json && (fo->sections & SEC_ELF))
		report_elf_text(stdout, &o, ctx);
	if (ctx->json) {
		json_t *fj = json_object();

		json_object_set_new(fj, "file", json_string(path));
		if (fo->sections & SEC_ELF)
			json_object_set_new(fj, "elf", report_elf_json(&o));
		if ((fo->sections & SEC_CUDA) && cuda_section(&o, fo, ctx, fj, &diag))
			rc = EXIT_PROBLEMS;
		json_object_set_new(fj, "problems", report_problems_json(&diag));
		json_array_append_new(files, fj);
	} else if ((fo->sections & SEC_CUDA) && cuda_section(&o, fo, ctx, NULL, &diag)) {
		rc = EXIT_PROBLEMS;
	}
	if (pt_diag_count(&diag, PT_SEV_WARNING))
		rc = EXIT_PROBLEMS;
out:
	if (ctx->json) {
		json_t *p = report_problems_json(&diag);
		json_array_extend(problems, p);
		json_decref(p);
	}
	pt_diag_print(&diag, stderr, ctx->prog, ctx->color_err);
	pt_diag_release(&diag);
	elfobj_release(&o);
	return rc;
}

static int run(int argc, char **argv, struct pt_ctx *ctx, struct files_opts *fo)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "color", optional_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "gpu", required_argument, NULL, 'g' },
		{ "registered-only", no_argument, NULL, 'R' },
		{ "verify", no_argument, NULL, 'V' },
		{ "entries", no_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 },
	};
	json_t *files = NULL, *problems = NULL;
	int c, rc = EXIT_FINE;

	optind = 0;	/* GNU: re-initialise getopt for this argv */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctx->json = 1;
			break;
		case 'C': {
			int m = optarg ? pt_color_mode_parse(optarg) : PT_COLOR_ALWAYS;
			if (m < 0) {
				fprintf(stderr, "%s: unknown --color value '%s'\n", ctx->prog, optarg);
				return EXIT_USAGE;
			}
			ctx->color_mode = m;
			ctx->color = pt_color_enabled(stdout, m);
			ctx->color_err = pt_color_enabled(stderr, m);
			break;
		}
		case 'h':
			fputs(fo->usage, stdout);
			return EXIT_FINE;
		case 'g':
		case 'R':
		case 'V':
		case 'E':
			if (!(fo->sections & SEC_CUDA)) {
				fprintf(stderr, "%s: '%s' needs the CUDA report (ptinspect cuda)\n",
					ctx->prog, argv[optind - 1]);
				return EXIT_USAGE;
			}
			if (c == 'R')
				fo->scan_flags |= CUDA_SCAN_REGISTERED_ONLY;
			else if (c == 'V')
				fo->verify = 1;
			else if (c == 'E')
				fo->entries = 1;
			else if (fo->n_gpus == MAX_GPUS) {
				fprintf(stderr, "%s: at most %d --gpu options\n", ctx->prog, MAX_GPUS);
				return EXIT_USAGE;
			} else if (cudaarch_parse_gpu(optarg, &fo->gpus[fo->n_gpus]) != 0) {
				fprintf(stderr, "%s: unknown GPU '%s' (try 8.6, sm_86, 86, h100, rtx5090)\n",
					ctx->prog, optarg);
				return EXIT_USAGE;
			} else {
				fo->gpu_args[fo->n_gpus++] = optarg;
			}
			break;
		default:
			fputs(fo->usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(fo->usage, stderr);
		return EXIT_USAGE;
	}
	if (ctx->json) {
		files = json_array();
		problems = json_array();
	}
	for (int i = optind; i < argc; i++) {
		int r = inspect_one(argv[i], fo, ctx, files, problems);

		if (r > rc)
			rc = r;
		if (!ctx->json && i + 1 < argc)
			putchar('\n');
	}
	if (ctx->json) {
		json_t *doc = json_object();

		json_object_set_new(doc, "files", files);
		json_object_set_new(doc, "problems", problems);
		pt_json_print(stdout, doc);
		json_decref(doc);
	}
	return rc;
}

int cmd_files(int argc, char **argv, struct pt_ctx *ctx)
{
	struct files_opts fo = {
		.sections = SEC_ALL,
		.usage = "usage: ptinspect [OPTIONS] FILE...\n"
			 "Every report for each file: ELF identity, dependencies, CUDA code.\n"
			 "  --json          one JSON document for the whole invocation\n"
			 "  --color=WHEN    auto, always, never\n"
			 CUDA_OPTIONS_HELP,
	};

	return run(argc, argv, ctx, &fo);
}

int cmd_cuda(int argc, char **argv, struct pt_ctx *ctx)
{
	struct files_opts fo = {
		.sections = SEC_CUDA,
		.usage = "usage: ptinspect cuda [OPTIONS] FILE...\n"
			 "The CUDA fat binaries in each file: targets, TORCH_CUDA_ARCH_LIST, and\n"
			 "whether a GPU can run them.\n"
			 "  --json          one JSON document for the whole invocation\n"
			 "  --color=WHEN    auto, always, never\n"
			 CUDA_OPTIONS_HELP
			 "Exit status:\n"
			 "  0  everything fine\n"
			 "  1  problems found: damaged fat binaries, a --gpu that cannot run the code\n"
			 "  2  usage error or unreadable input\n",
	};

	return run(argc, argv, ctx, &fo);
}

int cmd_deps(int argc, char **argv, struct pt_ctx *ctx)
{
	struct files_opts fo = {
		.sections = SEC_ELF | SEC_DEPS,
		.usage = "usage: ptinspect deps [OPTIONS] FILE...\n"
			 "The ELF and dependency report only.\n"
			 "  --json          one JSON document for the whole invocation\n"
			 "  --color=WHEN    auto, always, never\n",
	};

	return run(argc, argv, ctx, &fo);
}
