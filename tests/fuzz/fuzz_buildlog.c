/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: a build log through buildlog (bllines, blclass, the
 * segmenter), fed in two chunks cut where the first byte says, then both
 * renderers (text with --all and colour, JSON) over the result.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "buildlog.h"
#include "report_buildlog.h"
#include "term.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buildlog *b = buildlog_new();
	const struct buildlog_result *r;
	size_t cut = size ? (size_t)data[0] * size / 256 : 0;
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	buildlog_feed(b, data, cut);
	buildlog_feed(b, data + cut, size - cut);
	r = buildlog_finish(b);
	{
		struct buildlog_report rep = { .r = r, .source = "fuzz", .ram_bytes = 8ull << 30, .all = true };
		json_t *j = report_buildlog_json(&rep);

		report_buildlog_text(null, &rep, &(const struct pt_style){ .color = 1 });
		json_decref(j);
	}
	buildlog_free(b);
	return 0;
}
