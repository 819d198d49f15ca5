/* fuzz-links: ptinspect_lib */
/* libFuzzer target: CMakeCache.txt (cmakecache_parse) and its lookups. */
#include <stddef.h>
#include <stdint.h>

#include "cmakecache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmakecache c;
	struct pt_diag d;

	pt_diag_init(&d);
	if (cmakecache_parse(data, size, &c, "fuzz", &d) == 0) {
		for (size_t i = 0; i < c.n; i++)
			if (cmakecache_get(&c, c.v[i].key) == NULL || cmakecache_bool(&c, c.v[i].key) < 0)
				__builtin_trap();
		cmakecache_release(&c);
	}
	pt_diag_release(&d);
	return 0;
}
