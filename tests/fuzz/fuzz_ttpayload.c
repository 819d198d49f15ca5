/* fuzz-links: pttrace_lib */
/*
 * libFuzzer target: what pttrace reads inside TORCH_TRACE payloads and
 * metadata: tlparse's output names (tt_tlparse_output, ..._export: the kind
 * chosen by the first byte, the metadata JSON from the first line, the
 * payload after it) and the collectives parity of a schedule against output
 * code (tt_collectives_parity; the two texts cut at the first NUL), and the
 * short form of a torch 2.14 graph-break reason (tt_short_break_reason, the
 * input after its first byte as a string).
 */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tt_query.h"
#include "tt_tlparse.h"
#include "xalloc.h"

static const char *const kinds[] = {
	"dynamo_output_graph", "inductor_output_code", "artifact", "graph_dump",
	"optimize_ddp_split_child", "compilation_metrics", "dump_file", "link",
	"inductor_collective_schedule", "aot_joint_graph", "dynamo_guards", "str",
	"bwd_compilation_metrics", "inductor_provenance_tracking_node_mappings",
	"exported_program", "missing_fake_kernel", "guard_added", "chromium_event",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *kind;
	const char *p = (const char *)data, *nl, *nul;
	json_t *meta;
	char name[512];
	long off, miss;

	if (size < 1)
		return 0;
	kind = kinds[data[0] % (PT_ARRAY_SIZE(kinds))];
	p++;
	size--;
	nl = memchr(p, '\n', size);
	meta = json_loadb(p, nl ? (size_t)(nl - p) : size, JSON_DECODE_ANY, NULL);
	if (!meta)
		meta = json_object();
	if (nl) {
		size_t plen = size - (size_t)(nl + 1 - p);

		tt_tlparse_output(kind, meta, nl + 1, plen, name, sizeof(name));
	} else {
		tt_tlparse_output(kind, meta, "", 0, name, sizeof(name));
	}
	tt_tlparse_output_export(kind, meta, name, sizeof(name));
	json_decref(meta);
	nul = memchr(p, '\0', size);
	if (nul)
		tt_collectives_parity(p, (size_t)(nul - p), nul + 1, size - (size_t)(nul + 1 - p), &off, &miss);
	else
		tt_collectives_parity(p, size, "", 0, &off, &miss);
	{
		char *text = malloc(size + 1);

		if (text) {
			memcpy(text, p, size);
			text[size] = '\0';
			free(tt_short_break_reason(text));
			free(text);
		}
	}
	return 0;
}
