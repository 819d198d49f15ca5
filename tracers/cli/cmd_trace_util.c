/* Helpers the TORCH_TRACE front ends share (issue 6); declared in pttrace.h. */
#include <stdio.h>

#include "pttrace.h"
#include "query.h"

int pt_open_run(struct pt_ctx *ctx, const char *spec, struct db **ix, int64_t *run_id,
		struct pt_diag *diag)
{
	if (pt_open_index(ctx, DB_READONLY | DB_NO_CREATE, ix, diag) < 0)
		return -1;
	if (query_resolve_run(*ix, spec, run_id) < 0) {
		db_close(*ix);
		*ix = NULL;
		pt_print_diag(ctx, diag);
		pt_diag_release(diag);
		return -1;
	}
	return 0;
}
