/* fuzz-links: ptinspect_lib */
/* libFuzzer target: symbol names across the two C++ ABIs (key, demangle, normalise). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abiname.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *d, *n;
	size_t start, len;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	len = abiname_key(s, &start);
	if (start > strlen(s) || len > strlen(s) - start)
		abort();
	(void)abiname_is_cxx11(s);
	d = abiname_demangle(s);
	n = abiname_normalise(d ? d : s);
	(void)abiname_torch_ns(n);
	free(n);
	free(d);
	free(s);
	return 0;
}
