/* fuzz-links: ptinspect_lib */
/* libFuzzer target: tool banners, /etc/os-release, /proc/cpuinfo text. */
#include <stdint.h>
#include <stdlib.h>

#include "bugreport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *b = (const char *)data;

	free(bugreport_first_match(b, size, "gcc "));
	free(bugreport_first_match(b, size, ", V"));
	free(bugreport_os_release(b, size));
	free(bugreport_cpu_model(b, size));
	return 0;
}
