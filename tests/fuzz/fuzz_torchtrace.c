/* fuzz-links: pttrace_lib */
/*
 * libFuzzer target: the TORCH_TRACE reader over arbitrary bytes, fed in two
 * pieces split at a data-chosen point (lines that straddle feeds), resolving
 * every stack it sees; then a copy parsed in place (tt_reader_feed_inplace),
 * which must give the same statistics.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "torchtrace.h"

static int on_record(void *ctx, const struct tt_record *rec)
{
	struct tt_reader *r = ctx;
	json_t *st = tt_resolve_stack(r, json_object_get(rec->env, "stack"));

	json_decref(st);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tt_reader r;
	struct pt_diag d;
	size_t cut = size ? data[0] % size : 0;

	pt_diag_init(&d);
	tt_reader_init(&r, "fuzz", &d, on_record, &r);
	tt_reader_feed(&r, data, cut);
	tt_reader_feed(&r, data + cut, size - cut);
	tt_reader_finish(&r);
	{
		struct tt_reader_stats want = r.st;
		struct tt_reader q;
		struct pt_diag dq;
		uint8_t *copy = malloc(size + 1);

		if (!copy)
			abort();
		memcpy(copy, data, size);
		pt_diag_init(&dq);
		tt_reader_init(&q, "fuzz", &dq, on_record, &q);
		tt_reader_feed_inplace(&q, copy, size);
		tt_reader_finish(&q);
		if (memcmp(&want, &q.st, sizeof(want)) || d.n != dq.n)
			abort();
		tt_reader_release(&q);
		pt_diag_release(&dq);
		free(copy);
	}
	tt_reader_release(&r);
	pt_diag_release(&d);
	return 0;
}
