/* fuzz-links: ptinspect_lib */
/* libFuzzer target: build.ninja (buildninja_parse) and its output index. */
#include <stddef.h>
#include <stdint.h>

#include "buildninja.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buildninja b;
	struct pt_diag d;

	pt_diag_init(&d);
	if (buildninja_parse(data, size, &b, "fuzz", &d) == 0) {
		buildninja_index(&b);
		for (size_t i = 0; i < b.n_edges; i++)
			if (buildninja_producer(&b, b.edges[i].outs[0]) == (size_t)-1)
				__builtin_trap();
		buildninja_release(&b);
	}
	pt_diag_release(&d);
	return 0;
}
