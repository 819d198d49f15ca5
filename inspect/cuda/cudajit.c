/* What the driver loads or JIT-compiles for one GPU (cudajit.h). */
#include "cudajit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void cudajit_load(const struct cuda_scan *scan, struct cuda_cc cc, struct cudajit *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t f = 0; f < scan->n_fatbins; f++) {
		const struct cuda_fatbin *fb = &scan->fatbins[f];
		bool code = false, sass = false, ptx = false;
		uint32_t best = 0;
		char best_variant = 0;
		uint64_t best_bytes = 0;

		if (scan->secs[fb->section].kind != CUDA_SEC_REGISTERED)
			continue;
		for (size_t i = fb->first_entry; i < fb->first_entry + fb->n_entries &&
		     i < scan->entries.n; i++) {
			const struct fatbin_entry *e = &scan->entries.v[i];
			struct cuda_target t = { e->kind, e->arch, e->variant };

			if (e->kind != FATBIN_KIND_ELF && e->kind != FATBIN_KIND_PTX)
				continue;
			code = true;
			if (cudaarch_how(&t, cc) == CUDA_RUN_NONE)
				continue;
			if (e->kind == FATBIN_KIND_ELF) {
				sass = true;
				continue;
			}
			/* The driver JITs the PTX closest to the device, as cudaarch_verdict picks it. */
			if (!ptx || e->arch > best || (e->arch == best && e->variant && !best_variant)) {
				ptx = true;
				best = e->arch;
				best_variant = e->variant;
				best_bytes = e->comp ? e->uncompressed_size : e->payload_size;
			}
		}
		if (!code)
			continue;
		out->registered++;
		if (sass)
			continue;
		if (!ptx) {
			out->without++;
			continue;
		}
		out->jit_fatbins++;
		out->jit_bytes += best_bytes;
	}
}

bool cudajit_cache(const char *disable, const char *maxsize, uint64_t *bytes, bool *disabled)
{
	bool ok = true;

	*disabled = disable && !strcmp(disable, "1");
	*bytes = CUDAJIT_CACHE_DEFAULT;
	if (maxsize && *maxsize) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(maxsize, &end, 10);
		if (errno || *end || *maxsize == '-' || *maxsize == '+' || *maxsize == ' ')
			ok = false;
		else
			*bytes = v > CUDAJIT_CACHE_MAX ? CUDAJIT_CACHE_MAX : v;
	}
	if (*disabled)
		*bytes = 0;
	return ok;
}
