/* fuzz-links: ptinspect_lib */
/* libFuzzer target: the ld.so.cache parser and lookup over arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ldcache.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *hw[] = { "x86-64-v3", "x86-64-v2" };
	struct ldcache c;
	struct pt_diag d;
	uint8_t *b = pt_xmalloc(size);

	memcpy(b, data, size);
	pt_diag_init(&d);
	if (ldcache_parse(&c, b, size, "fuzz", &d) == 0) {
		for (size_t i = 0; i < c.n && i < 16; i++)
			ldcache_lookup(&c, c.v[i].key, hw, 2);
		ldcache_lookup(&c, "libc.so.6", hw, 2);
	}
	ldcache_release(&c);
	pt_diag_release(&d);
	return 0;
}
