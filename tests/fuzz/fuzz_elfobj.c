/* fuzz-links: ptinspect_lib */
/* libFuzzer target: the ELF reader over arbitrary bytes (elfobj_open_mem). */
#include <stddef.h>
#include <stdint.h>

#include "elfobj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elfobj o;
	struct pt_diag d;

	pt_diag_init(&d);
	elfobj_open_mem(&o, "fuzz", data, size, &d);
	elfobj_release(&o);
	pt_diag_release(&d);
	return 0;
}
