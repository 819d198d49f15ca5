/* fuzz-links: ptinspect_lib */
/* libFuzzer target: native_functions.yaml (nativefuncs_parse, libyaml, autogen: entries) and its lookups. */
#include <stddef.h>
#include <stdint.h>

#include "nativefuncs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nativefuncs nf;
	struct pt_diag d;

	pt_diag_init(&d);
	if (nativefuncs_parse(data, size, &nf, "fuzz", &d) == 0) {
		for (size_t i = 0; i < nf.n; i++)
			if (!nativefuncs_find_cpp(&nf, nf.v[i].unambiguous) ||
			    !nativefuncs_find_native(&nf, nf.v[i].native_name) ||
			    !nativefuncs_find_wrapper(&nf, nf.v[i].wrapper_name))
				__builtin_trap();
		nativefuncs_release(&nf);
	}
	pt_diag_release(&d);
	return 0;
}
