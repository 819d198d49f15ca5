/*
 * TORCH_TRACE records (docs: docs/formats/torch-trace-formats.md §2-§5):
 * one envelope line `<glog prefix>] {json}` plus zero or more TAB-prefixed
 * payload lines. The reader is pushed bytes in pieces of any size and calls
 * back once per complete record, so memory is bounded by the largest record
 * (capped: TT_MAX_LINE / TT_MAX_PAYLOAD), never by the file.
 *
 * Per file: one `str` intern table (stack "filename" N -> string, -1 = None),
 * the line-ending policy (a file whose first line ends in CRLF has every
 * trailing CR stripped; in an LF file a CR is payload content), counters.
 * Damaged lines become PT_SEV_WARNING messages "file: line N: what" and the
 * reader goes on with the next line.
 */
#ifndef PT_TORCHTRACE_H
#define PT_TORCHTRACE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "compileid.h"
#include "diag.h"
#include "glog.h"
#include "strbuf.h"

#define TT_MAX_LINE (64u << 20)	 /* one envelope line; observed ~26 k */
#define TT_MAX_PAYLOAD (256u << 20) /* one payload; observed ~49 k */
#define TT_MAX_STR 16777216L	 /* largest `str` index accepted */

/* How the payload was recovered; stored with the record. */
enum pt_payload_rule {
	PT_PAYLOAD_NONE,	  /* no has_payload */
	PT_PAYLOAD_PLAIN,	  /* TAB lines only */
	PT_PAYLOAD_BLANK_KEPT,	  /* blank lines inside were empty payload lines (md5 matched) */
	PT_PAYLOAD_BLANK_DROPPED, /* blank lines inside were not payload (md5 matched without) */
};


struct tt_record {
	uint64_t lineno;	/* 1-based line of the envelope */
	uint64_t nlines;	/* envelope + payload (+ blank) lines consumed */
	/* The line from its start (the glog prefix; offsets in glog point here)
	 * and the envelope JSON text, as in the file (trailing CR removed). */
	const char *prefix;
	size_t prefix_len;	/* up to the JSON */
	struct glog_prefix glog;
	const char *json;
	size_t json_len;
	json_t *env;		/* the parsed envelope object; borrowed */
	const char *kind;	/* the kind key (the one non-context key) */
	json_t *meta;		/* its value; borrowed */
	int nkinds;		/* non-context keys: 1 normally; >1 = kind is the first */
	const char *name;	/* meta's "name", else its "filename", when a string: what an
				   artifact, graph dump or output code is called; NULL; borrowed */
	long long rank;		/* -1: no "rank" key */
	struct compileid cid;	/* parts absent or null are COMPILEID_NONE */
	/* Payload, byte-exact (TABs removed, lines joined with \n). */
	int has_payload;	/* the envelope declares one */
	const char *md5_declared; /* lowercase hex as written, or NULL */
	char md5[33];		/* md5 of payload as stored */
	int md5_ok;		/* has_payload and md5 == md5_declared */
	const uint8_t *payload;
	size_t payload_len;
	enum pt_payload_rule rule;
	/* has_payload, but the payload was over TT_MAX_PAYLOAD: none kept (payload
	   empty, md5 ""), its size in bytes here; 0 otherwise. */
	uint64_t payload_skipped;
	/* For `str` records: the defined index and string. */
	long str_index;
	const char *str_value;
};

/* Return 0 to go on, -1 to stop the reader (feed/finish then return -1). */
typedef int (*tt_record_cb)(void *ctx, const struct tt_record *rec);

/*
 * An envelope's fields, read without building its JSON objects (the reader's
 * optional scan hook; tt_reader.scan). Strings point into the scanner's
 * memory until its next call; the reader copies them.
 */
struct tt_env_fields {
	const char *kind;	/* the first non-context key */
	size_t kind_len;
	int nkinds;
	long long rank;
	struct compileid cid;
	int has_payload;
	const char *md5;	/* has_payload's value when a string, else NULL */
	size_t md5_len;
	const char *name;	/* meta's "name", else its "filename", when a string; else NULL */
	size_t name_len;
	int str_ok;		/* kind "str" and meta is [string, integer, ...] */
	const char *str;
	size_t str_len;
	long long str_n;
};

/*
 * 1: the envelope JSON json[0..len) (starting with '{') was read into out,
 * exactly as the reader's own parse (jansson) would have read it; 0: leave
 * it to that parse (which also words the error of a damaged one).
 */
typedef int (*tt_env_scan_fn)(void *ctx, const char *json, size_t len, struct tt_env_fields *out);

/*
 * A line over its cap that the caller of tt_reader_feed_inplace shortened
 * before the reader saw it (tt_parallel.c: the bytes are never held): at is
 * the offset in the buffer of its "\n" (the buffer's length for a last line
 * without one), dropped how many bytes were taken out before it (and before
 * a CR kept in front of the "\n"). The reader judges the line by its full
 * length; the bytes dropped were never used anyway (a line over its cap is
 * skipped, a payload over its cap is not kept).
 */
struct tt_cut {
	size_t at;
	uint64_t dropped;
};

struct tt_reader_stats {
	uint64_t lines, records, blank_lines;
	uint64_t damaged;		/* lines reported and skipped */
	uint64_t orphan_payload_lines;	/* TAB lines with no record expecting them */
	uint64_t payloads, md5_mismatches;
	uint64_t bytes;
};

/*
 * Payloads verified lately (optional, one per thread): a payload whose bytes
 * equal one kept here under its declared md5 takes that md5 without hashing
 * it again (exact: same bytes, same md5). TORCH_TRACE repeats payloads
 * (chromium events, cache artifacts, graphs of recompiles); hashing them is
 * most of the parse. At most max_bytes of payload are kept (one buffer,
 * allocated at the first payload kept; payloads over max_bytes / 8 are not).
 */
struct tt_md5_memo;
struct tt_md5_memo *tt_md5_memo_new(size_t max_bytes);
void tt_md5_memo_free(struct tt_md5_memo *m);

struct tt_reader {
	const char *file;	/* for messages; not owned */
	struct tt_md5_memo *memo; /* NULL, or set after init; not owned */
	struct pt_diag *diag;
	tt_record_cb cb;
	void *ctx;
	struct tt_reader_stats st;
	/*
	 * Optional, set after init: envelopes the scan reads come without
	 * rec->env and rec->meta (NULL), for a caller that needs none of the
	 * JSON objects; the others are parsed as usual.
	 */
	tt_env_scan_fn scan;
	void *scan_ctx;
	/* Optional, before tt_reader_feed_inplace: the lines shortened in its buffer, by at. */
	const struct tt_cut *cuts;
	size_t ncuts;
	/* private */
	size_t cut_i;		/* the next of cuts */
	uint64_t line_extra;	/* bytes of the line in do_line that were cut out */
	uint64_t tail_extra;	/* the same for tailp */
	uint64_t pay_total;	/* the pending payload's full size, over the cap too */
	struct pt_strbuf scanned;	/* the scanned record's kind, name and md5, NUL-separated */
	int crlf;		/* -1 undecided, 0 LF file, 1 CRLF file */
	int stopped;
	int skipping;		/* inside an over-long line */
	struct pt_strbuf part;	/* an incomplete line carried between feeds */
	struct pt_strbuf env;	/* the pending record's envelope line */
	struct pt_strbuf pay;	/* its payload */
	/*
	 * tt_reader_feed_inplace: the buffer, whose lines are used where they
	 * lie; envp/payp point at the pending record's envelope line and
	 * payload (into buf, or into env/pay when fed by copy).
	 */
	uint8_t *inplace;
	const char *envp;
	size_t envlen;
	char *payp;
	size_t paylen;
	const char *tailp;	/* inplace: a last line without "\n", for finish */
	size_t taillen;
	size_t *blanks;		/* offsets in pay of blank-line empty lines */
	size_t nblanks, ablanks;
	uint64_t pend_blank;	/* blank lines seen after the payload so far */
	int pending;		/* a record is waiting for more payload lines */
	int pay_lines;		/* payload lines so far */
	int pay_over;		/* payload exceeded the cap */
	struct tt_record rec;
	char **strs;		/* the intern table */
	size_t nstrs, astrs;
	uint64_t orphan_run;	/* first line of the current orphan run, 0 none */
};

void tt_reader_init(struct tt_reader *r, const char *file,
			  struct pt_diag *diag, tt_record_cb cb, void *ctx);
void tt_reader_release(struct tt_reader *r);

/* Push the next len bytes of the file; -1 only when the callback stopped. */
int tt_reader_feed(struct tt_reader *r, const uint8_t *buf, size_t len);
/*
 * The whole of a file's piece at once, used where it lies: buf[0..len] (one
 * byte more than len) is the reader's to rewrite, and must stay until the
 * caller is done with the records called back: their prefix, json and
 * payload point into buf (payload lines joined in place: each loses its TAB,
 * so the joined payload never overtakes the lines still to be read), none
 * is copied. Records, messages and statistics are those of tt_reader_feed.
 * Only once per reader, then tt_reader_finish. -1 only when the callback
 * stopped.
 */
int tt_reader_feed_inplace(struct tt_reader *r, uint8_t *buf, size_t len);
/* End of file: emits the last record. -1 only when the callback stopped. */
int tt_reader_finish(struct tt_reader *r);

/* One whole buffer: init + feed + finish + release. */
int tt_parse(const uint8_t *buf, size_t len, const char *file,
		   struct pt_diag *diag, tt_record_cb cb, void *ctx);

/* The interned string for index i in this file: NULL for -1 or unknown. */
const char *tt_str(const struct tt_reader *r, long long i);

/*
 * A copy of a stack array ([{line, name, filename: N, loc}...]) with each
 * filename resolved through the intern table: a string, null for -1, or
 * "<str N undefined>". Returns a new reference (an empty array for non-arrays).
 */
json_t *tt_resolve_stack(const struct tt_reader *r, const json_t *stack);

/* Lowercase hex md5 of buf into out[33]. */
void tt_md5(const uint8_t *buf, size_t len, char out[33]);

/* Is key one of the reserved context keys (rank, frame_id, ...)? */
int tt_is_context_key(const char *key);

const char *pt_payload_rule_name(enum pt_payload_rule rule);

#endif
