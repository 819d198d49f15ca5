/* fuzz-links: ptinspect_lib */
/* libFuzzer target: Verneed/Verdef records; the first 64 bytes are the string table. */
#include <stdint.h>
#include <stdlib.h>

#include "symver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_verneed *vn;
	size_t n, ndef;
	char **vd;
	struct pt_diag d;
	size_t st = size < 64 ? size : 64;

	pt_diag_init(&d);
	symver_parse_verneed(data + st, size - st, 8, size & 1, (const char *)data, st, &vn, &n, "f", &d);
	symver_parse_verdef(data + st, size - st, 8, size & 1, (const char *)data, st, &vd, &ndef, "f", &d);
	symver_free_verneed(vn, n);
	for (size_t i = 0; i < ndef; i++)
		free(vd[i]);
	free(vd);
	pt_diag_release(&d);
	return 0;
}
