/* fuzz-links: pttrace_lib */
/*
 * libFuzzer target: the TORCH_TRACE reader over arbitrary bytes, fed in two
 * pieces split at a data-chosen point (lines that straddle feeds), resolving
 * every stack it sees; then a copy parsed in place (tt_reader_feed_inplace),
 * which must give the same statistics; then, differentially, copies parsed
 * in place without and with the envelope scan hook (tt_envscan: SQLite's
 * JSON where it reads an envelope as jansson does), whose records and
 * messages must be the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "torchtrace.h"
#include "tt_envscan.h"

/* A line per record: every field the scan hook fills. */
static int digest(void *ctx, const struct tt_record *rec)
{
	struct pt_strbuf *b = ctx;

	pt_strbuf_addf_trunc(b, "%llu|%s|%d|%s|%s|%lld|%lld,%lld,%lld,%lld|%d|%ld|%s|%s\n",
			     (unsigned long long)rec->lineno, rec->kind ? rec->kind : "(none)",
			     rec->nkinds, rec->name ? rec->name : "(null)",
			     rec->md5_declared ? rec->md5_declared : "(null)", rec->rank,
			     (long long)rec->cid.ca, (long long)rec->cid.frame,
			     (long long)rec->cid.compile, (long long)rec->cid.attempt, rec->has_payload,
			     rec->str_index, rec->str_value ? rec->str_value : "(null)", rec->md5);
	return 0;
}

/* The records and messages of data read in place, with or without the scan hook, into out. */
static void read_digest(const uint8_t *data, size_t size, struct tt_envscan *scan,
			struct pt_strbuf *out)
{
	struct tt_reader r;
	struct pt_diag d;
	uint8_t *copy = malloc(size + 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	pt_diag_init(&d);
	tt_reader_init(&r, "fuzz", &d, digest, out);
	if (scan) {
		r.scan = tt_envscan;
		r.scan_ctx = scan;
	}
	tt_reader_feed_inplace(&r, copy, size);
	tt_reader_finish(&r);
	for (size_t i = 0; i < d.n; i++)
		pt_strbuf_addf_trunc(out, "%d %s %s\n", (int)d.v[i].sev, d.v[i].where ? d.v[i].where : "",
				     d.v[i].what);
	tt_reader_release(&r);
	pt_diag_release(&d);
	free(copy);
}

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
	{
		static struct tt_envscan *scan;
		struct pt_strbuf want, got;

		if (!scan) {
			struct pt_diag ds;

			pt_diag_init(&ds);
			if (!(scan = tt_envscan_new(&ds)))
				abort();
			pt_diag_release(&ds);
		}
		pt_strbuf_init(&want, 64u << 20);
		pt_strbuf_init(&got, 64u << 20);
		read_digest(data, size, NULL, &want);
		read_digest(data, size, scan, &got);
		if (want.len != got.len || (want.len && memcmp(want.buf, got.buf, want.len)))
			abort();
		pt_strbuf_release(&want);
		pt_strbuf_release(&got);
	}
	return 0;
}
