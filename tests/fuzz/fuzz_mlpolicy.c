/* fuzz-links: ptinspect_lib */
/* libFuzzer target: a policy file (auditwheel's JSON) for x86_64, then a choice and a claim. */
#include <stdint.h>
#include <stdlib.h>

#include "mlpolicy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlpolicy_set s;
	struct mlpolicy_claim *c;
	struct pt_diag d;
	char *v[] = { "GLIBC_2.17", "GLIBCXX_3.4.21", "CXXABI_1.3", "ZLIB_1.2.0" };
	size_t n;

	pt_diag_init(&d);
	if (mlpolicy_load(&s, size & 1 ? MLPOLICY_MUSL : MLPOLICY_GLIBC, "x86_64", (const char *)data, size,
			  "fuzz", &d) == 0) {
		const struct mlpolicy *p = mlpolicy_implied(&s, v, 4, NULL);

		n = mlpolicy_check_claim(&s, p, "manylinux_2_17_x86_64.manylinux2014_x86_64.linux_x86_64", &c);
		mlpolicy_claims_release(c, n);
		mlpolicy_release(&s);
	}
	pt_diag_release(&d);
	return 0;
}
