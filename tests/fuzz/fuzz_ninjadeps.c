/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: .ninja_deps (ninjadeps_parse), every path looked up
 * again through the index and its deps walked; the same bytes as `ccache
 * --print-stats` output (ccache_stats_parse).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buildsince.h"
#include "ninjadeps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ninjadeps l;
	struct ccache_stats cs;
	struct pt_diag d;

	pt_diag_init(&d);
	if (ninjadeps_parse(data, size, &l, "fuzz", &d) == 0) {
		if (l.valid_len > size)
			__builtin_trap();
		for (size_t i = 0; i < l.n_paths; i++) {
			const struct ninjadeps_entry *e = ninjadeps_get(&l, l.paths[i]);
			int64_t id = ninjadeps_find(&l, l.paths[i]);

			if (id < 0 || strcmp(l.paths[id], l.paths[i]))
				__builtin_trap();
			for (uint32_t k = 0; e && k < e->n; k++)
				if (e->ids[k] >= l.n_paths)
					__builtin_trap();
		}
		ninjadeps_release(&l);
	}
	pt_diag_release(&d);
	ccache_stats_parse(data, size, &cs);
	return 0;
}
