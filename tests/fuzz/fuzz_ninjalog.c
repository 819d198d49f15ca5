/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: .ninja_log (ninjalog_parse), the latest-per-output index and the profile,
 * the profile once more with a (empty) build.ninja so the critical path's ordering runs too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buildtree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buildtree t;
	struct pt_diag d;

	memset(&t, 0, sizeof(t));
	pt_diag_init(&d);
	if (ninjalog_parse(data, size, &t.log, "fuzz", &d) == 0) {
		struct build_profile p;
		struct build_rebuilt *r;
		size_t n;

		t.have_log = true;
		buildtree_profile(&t, &p);
		build_profile_release(&p);
		t.have_ninja = true;
		buildninja_index(&t.ninja);
		buildtree_profile(&t, &p);
		if (p.n_last && !p.n_critical)
			__builtin_trap();
		build_profile_release(&p);
		buildninja_release(&t.ninja);
		buildtree_since_last(&t, &r, &n);
		free(r);
		ninjalog_release(&t.log);
	}
	pt_diag_release(&d);
	return 0;
}
