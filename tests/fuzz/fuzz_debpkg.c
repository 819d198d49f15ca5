/* fuzz-links: ptinspect_lib */
/* libFuzzer target: dpkg-query -S output and /proc/driver/nvidia/version text. */
#include <stdint.h>

#include "cudadriver.h"
#include "debpkg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct debpkg_owner *v;
	size_t n = debpkg_parse_search((const char *)data, size, &v);
	char out[64];
	int a, b, c;

	debpkg_owners_free(v, n);
	cudadriver_from_proc((const char *)data, size, out, sizeof(out));
	if (size && data[size - 1] == '\0') {
		cudadriver_parse_version((const char *)data, &a, &b, &c);
		cudadriver_from_libcuda((const char *)data, out, sizeof(out));
		cudadriver_runtime_from_path((const char *)data, &a, &b);
	}
	return 0;
}
