/* The list of schema parts; see parts.h. */
#include "parts.h"

#include "logs_ingest.h"
#include "runs.h"
#include "tt_ingest.h"
#include "xalloc.h"

const struct schema_part *const pttrace_parts[] = {
	&core_part,		/* store/core_schema.c */
	&logs_part,		/* logs/logs_schema.c */
	&tt_sources_part,	/* torchtrace/tt_schema.c */
	&tt_records_part,
};
const size_t pttrace_nparts = PT_ARRAY_SIZE(pttrace_parts);

int pttrace_db_open(struct db **out, const char *path, unsigned flags, struct pt_diag *diag)
{
	return schema_open(out, path, flags, pttrace_parts, pttrace_nparts, diag);
}
