/* fuzz-links: ptinspect_lib */
/* libFuzzer target: compile_commands.json (compdb_parse). */
#include <stddef.h>
#include <stdint.h>

#include "compdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compdb c;
	struct pt_diag d;

	pt_diag_init(&d);
	if (compdb_parse(data, size, &c, "fuzz", &d) == 0) {
		for (size_t i = 0; i < c.n; i++)
			(void)compdb_has_flag(c.v[i].command, "-g");
		compdb_release(&c);
	}
	pt_diag_release(&d);
	return 0;
}
