/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: the _show_config text parser (showconfig_parse, the same
 * bytes+len entry the unit tests call), its JSON rendering, and the cuDNN and
 * arch decoders on the input as a string.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_config.h"
#include "showconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct showconfig c;
	struct pt_diag d;
	char *s, arch[32];

	pt_diag_init(&d);
	if (showconfig_parse(data, size, &c, "fuzz", &d) == 0) {
		json_t *j = report_config_json(&c);
		char *dump = json_dumps(j, 0);

		free(dump);
		json_decref(j);
		showconfig_release(&c);
	}
	pt_diag_release(&d);
	if (size < 4096) {
		s = malloc(size + 1);
		memcpy(s, data, size);
		s[size] = '\0';
		free(showconfig_decode_cudnn(s));
		showconfig_arch_dotted(s, arch, sizeof(arch));
		free(s);
	}
	return 0;
}
