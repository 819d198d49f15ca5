/* fuzz-links: pttrace_lib */
/* corefind_parse_pattern (core_pattern text) and logs_crash_summary (a crash record's text) on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "corefind.h"
#include "logs_query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct corefind_proc p = { .pid = 4242, .uid = 1000, .gid = 100, .sig = 11,
						.cwd = "/home/[u]/*w" };
	struct corefind_pattern pat;

	(void)corefind_parse_pattern((const char *)data, size, 0, &p, &pat);
	(void)corefind_parse_pattern((const char *)data, size, 1, &p, &pat);
	free(logs_crash_summary((const char *)data, size));
	return 0;
}
