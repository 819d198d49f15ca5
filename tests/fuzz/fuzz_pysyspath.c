/* fuzz-links: ptinspect_lib */
/* libFuzzer target: .pth files, .egg-link files, setuptools editable finders. */
#include <stdint.h>
#include <stdlib.h>

#include "pysyspath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *b = (const char *)data;
	char **v, *p;
	size_t n;

	n = pysyspath_pth_paths(b, size, "/site", &v);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	n = pysyspath_pth_imports(b, size, &v);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(pysyspath_finder_mapping(b, size, "torch"));
	p = pysyspath_egg_link(b, size);
	free(p);
	return 0;
}
