/* --gpu values and --gpu=auto; see gpu_opt.h. */
#include "gpu_opt.h"

#include <stdio.h>
#include <string.h>

#include "ptinspect.h"
#include "strbuf.h"

/* "9.0 (H100/H200/GH200)" */
static void cc_text(char *buf, size_t n, const struct cuda_cc_info *i)
{
	pt_fmt_trunc(buf, n, "%d.%d%s%s%s", i->major, i->minor, i->names ? " (" : "",
		 i->names ? i->names : "", i->names ? ")" : "");
}

int gpu_opt_parse(const struct pt_cli *ctx, const char *arg, struct cuda_cc *cc)
{
	const struct cuda_cc_info *lo, *hi;
	char a[96], b[96];
	int r = cudaarch_parse_gpu(arg, cc);

	if (r == 0)
		return 0;
	if (r == -1) {
		fprintf(stderr, "%s: unknown GPU '%s' (try 8.6, sm_86, 86, h100, rtx5090, auto)\n",
			ctx->prog, arg);
		return -1;
	}
	cudaarch_cc_neighbours(*cc, &lo, &hi);
	if (lo && hi) {
		cc_text(a, sizeof(a), lo);
		cc_text(b, sizeof(b), hi);
		fprintf(stderr, "%s: --gpu '%s': no GPU has compute capability %d.%d; the nearest "
			"that exist are %s and %s\n", ctx->prog, arg, cc->major, cc->minor, a, b);
	} else {
		cc_text(a, sizeof(a), lo ? lo : hi);
		fprintf(stderr, "%s: --gpu '%s': no GPU has compute capability %d.%d; the %s that "
			"exists is %s\n", ctx->prog, arg, cc->major, cc->minor,
			lo ? "highest" : "lowest", a);
	}
	return -1;
}

int gpu_auto_add(const struct pt_cli *ctx, struct cuda_cc *gpus, const char **args, size_t *n,
		 size_t max, struct gpu_auto *a)
{
	struct gpuprobe *p = &a->probe;

	if (a->used) {
		fprintf(stderr, "%s: --gpu=auto given twice\n", ctx->prog);
		return -1;
	}
	a->used = true;
	gpuprobe_proc(p, "/proc/driver/nvidia");
	/* libcuda only here: --gpu=auto is the one place ptinspect loads a driver library. */
	gpuprobe_libcuda(p, "libcuda.so.1");
	for (size_t i = 0; i < p->n; i++) {
		const struct gpuprobe_gpu *g = &p->v[i];

		if (!g->cc_known) {
			fprintf(stderr, "%s: --gpu=auto: GPU %s '%s': compute capability unknown (a "
				"model name not in ptinspect's table, and libcuda.so.1 did not answer: "
				"%s); no verdict for it\n", ctx->prog, g->bus ? g->bus : "?", g->model,
				p->libcuda_why ? p->libcuda_why : "?");
			continue;
		}
		if (*n == max) {
			fprintf(stderr, "%s: at most %zu --gpu options\n", ctx->prog, max);
			return -1;
		}
		gpus[*n] = g->cc;
		args[(*n)++] = g->model;
		a->added++;
	}
	if (!p->n)
		fprintf(stderr, "%s: --gpu=auto: no NVIDIA GPU on this machine (%s; %s)\n", ctx->prog,
			p->proc_why ? p->proc_why : "no GPU in /proc/driver/nvidia/gpus",
			p->libcuda_why ? p->libcuda_why : "libcuda.so.1 reports no device");
	return 0;
}

int gpu_auto_driver_cuda(const struct gpu_auto *a)
{
	return a->used ? a->probe.cuda_version : 0;
}

void gpu_auto_release(struct gpu_auto *a)
{
	gpuprobe_release(&a->probe);
	memset(a, 0, sizeof(*a));
}
