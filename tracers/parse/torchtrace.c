/*
 * TORCH_TRACE record reader; see torchtrace.h. Lines are split in place inside
 * each fed buffer; only a line cut by a buffer boundary is copied (part).
 * A record is emitted when the next non-payload line or the end arrives.
 */
#include "torchtrace.h"

#include <nettle/md5.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "strbuf.h"
#include "xalloc.h"

static const char *const context_keys[] = {
	"rank", "compiled_autograd_id", "frame_id", "frame_compile_id",
	"attempt", "stack", "subgraph_name", "has_payload",
};

int tt_is_context_key(const char *key)
{
	for (size_t i = 0; i < PT_ARRAY_SIZE(context_keys); i++)
		if (!strcmp(key, context_keys[i]))
			return 1;
	return 0;
}

const char *pt_payload_rule_name(enum pt_payload_rule rule)
{
	switch (rule) {
	case PT_PAYLOAD_NONE: return "none";
	case PT_PAYLOAD_PLAIN: return "plain";
	case PT_PAYLOAD_BLANK_KEPT: return "blank_kept";
	case PT_PAYLOAD_BLANK_DROPPED: return "blank_dropped";
	}
	return "?";
}

void tt_md5(const uint8_t *buf, size_t len, char out[33])
{
	struct md5_ctx c;
	uint8_t d[MD5_DIGEST_SIZE];
	static const char hex[] = "0123456789abcdef";

	md5_init(&c);
	md5_update(&c, len, buf);
	md5_digest(&c, sizeof(d), d);
	for (int i = 0; i < MD5_DIGEST_SIZE; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[32] = '\0';
}

/* Slots: one per 512 bytes kept, 256 to 8192 (even: a payload may sit in slot h or h ^ 1). */
#define MEMO_SLOTS_MIN 256
#define MEMO_SLOTS_MAX 8192

/*
 * Kept payloads are copied one after another into one buffer of max_bytes
 * (a slot that gives way leaves its bytes there, dead); when the buffer is
 * full, every slot is forgotten and it fills again from the start. So the
 * memo costs at most max_bytes plus the slots, with no heap fragmentation.
 */
struct tt_md5_memo {
	size_t max_bytes, used;
	uint8_t *buf;		/* max_bytes, allocated at the first keep */
	size_t nslots;
	struct memo_slot {
		char md5[33];
		size_t len;
		const uint8_t *data;	/* in buf; NULL: empty */
	} *slot;
	unsigned flip;		/* which of two full slots gives way */
	uint64_t hits, kept, passed;
};

struct tt_md5_memo *tt_md5_memo_new(size_t max_bytes)
{
	struct tt_md5_memo *m = pt_xcalloc(1, sizeof(*m));

	m->max_bytes = max_bytes;
	m->nslots = max_bytes / 512 < MEMO_SLOTS_MIN ? MEMO_SLOTS_MIN
		: max_bytes / 512 > MEMO_SLOTS_MAX ? MEMO_SLOTS_MAX : max_bytes / 512 & ~(size_t)1;
	m->slot = pt_xcalloc(m->nslots, sizeof(*m->slot));
	return m;
}

void tt_md5_memo_free(struct tt_md5_memo *m)
{
	if (!m)
		return;
	free(m->buf);
	free(m->slot);
	free(m);
}

static size_t memo_hash(const struct tt_md5_memo *m, const char *md5)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < 32 && md5[i]; i++)
		h = (h ^ (uint8_t)md5[i]) * 16777619u;
	return h % m->nslots;
}

static int memo_is(const struct memo_slot *s, const char *md5, size_t len)
{
	return s->data && s->len == len && !strcmp(s->md5, md5);
}

/* Are buf[0..len) the bytes kept under md5 (declared, as written)? */
static int memo_hit(struct tt_md5_memo *m, const char *md5, const uint8_t *buf, size_t len)
{
	size_t h = memo_hash(m, md5);

	for (size_t k = 0; k < 2; k++) {
		const struct memo_slot *s = &m->slot[h ^ k];

		if (memo_is(s, md5, len) && !memcmp(s->data, buf, len)) {
			m->hits++;
			return 1;
		}
	}
	return 0;
}

/* Keep buf[0..len), whose md5 is md5 (computed), if it fits. */
static void memo_keep(struct tt_md5_memo *m, const char *md5, const uint8_t *buf, size_t len)
{
	size_t h = memo_hash(m, md5);
	struct memo_slot *s;

	if (!len || len > m->max_bytes / 8 || memo_is(&m->slot[h], md5, len) ||
	    memo_is(&m->slot[h ^ 1], md5, len))
		return;
	/*
	 * Where payloads do not repeat, keeping them all would only copy them:
	 * once the first 256 kept have found few repeats (under one in eight),
	 * only every 16th is kept, enough to notice when repeats start.
	 */
	if (m->kept >= 256 && m->hits * 8 < m->kept && m->passed++ % 16)
		return;
	if (m->used + len > m->max_bytes) {
		memset(m->slot, 0, m->nslots * sizeof(*m->slot));
		m->used = 0;
	}
	if (!m->buf)
		m->buf = pt_xmalloc(m->max_bytes);
	s = !m->slot[h].data ? &m->slot[h] : !m->slot[h ^ 1].data ? &m->slot[h ^ 1]
		: &m->slot[h ^ (m->flip++ & 1)];
	memcpy(m->buf + m->used, buf, len);
	s->data = m->buf + m->used;
	s->len = len;
	memcpy(s->md5, md5, 33);
	m->used += len;
	m->kept++;
}

void tt_reader_init(struct tt_reader *r, const char *file,
			  struct pt_diag *diag, tt_record_cb cb, void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->diag = diag;
	r->cb = cb;
	r->ctx = ctx;
	r->crlf = -1;
	pt_strbuf_init(&r->part, TT_MAX_LINE);
	pt_strbuf_init(&r->env, TT_MAX_LINE);
	pt_strbuf_init(&r->scanned, TT_MAX_LINE);
	pt_strbuf_init(&r->pay, TT_MAX_PAYLOAD);
}

void tt_reader_release(struct tt_reader *r)
{
	if (r->rec.env)
		json_decref(r->rec.env);
	r->rec.env = NULL;
	pt_strbuf_release(&r->part);
	pt_strbuf_release(&r->env);
	pt_strbuf_release(&r->scanned);
	pt_strbuf_release(&r->pay);
	free(r->blanks);
	r->blanks = NULL;
	for (size_t i = 0; i < r->nstrs; i++)
		free(r->strs[i]);
	free(r->strs);
	r->strs = NULL;
	r->nstrs = r->astrs = 0;
}

const char *tt_str(const struct tt_reader *r, long long i)
{
	if (i < 0 || (unsigned long long)i >= r->nstrs)
		return NULL;
	return r->strs[i];
}

json_t *tt_resolve_stack(const struct tt_reader *r, const json_t *stack)
{
	json_t *out = json_array();
	size_t i;
	json_t *fr;

	if (!json_is_array(stack))
		return out;
	json_array_foreach(stack, i, fr) {
		json_t *c = json_deep_copy(fr);
		json_t *fn = json_is_object(c) ? json_object_get(c, "filename") : NULL;

		if (json_is_integer(fn)) {
			json_int_t n = json_integer_value(fn);
			const char *s = tt_str(r, n);

			if (n == -1)
				json_object_set_new(c, "filename", json_null());
			else if (s)
				json_object_set_new(c, "filename", json_string(s));
			else {
				char buf[64];

				pt_fmt_trunc(buf, sizeof(buf), "<str %lld undefined>", (long long)n);
				json_object_set_new(c, "filename", json_string(buf));
			}
		}
		json_array_append_new(out, c ? c : json_null());
	}
	return out;
}

static void damaged(struct tt_reader *r, uint64_t lineno, const char *fmt, const char *arg)
{
	char where[48];

	pt_fmt_trunc(where, sizeof(where), "line %llu", (unsigned long long)lineno);
	r->st.damaged++;
	pt_diag_add(r->diag, PT_SEV_WARNING, r->file, where, fmt, arg);
}

static void end_orphans(struct tt_reader *r)
{
	if (r->orphan_run)
		damaged(r, r->orphan_run, "%s", "payload lines without a record that expects them, skipped");
	r->orphan_run = 0;
}

static long long opt_int(json_t *env, const char *key)
{
	json_t *v = json_object_get(env, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* A `str` record: ok when its meta is [string s, integer i, ...]. */
static void define_str(struct tt_reader *r, struct tt_record *rec, int ok, const char *s,
		       size_t slen, long long i)
{
	if (!ok) {
		damaged(r, rec->lineno, "%s", "`str` record is not [string, index]; kept, not interned");
		return;
	}
	if (i < 0 || i > TT_MAX_STR) {
		damaged(r, rec->lineno, "%s", "`str` index out of range; kept, not interned");
		return;
	}
	if ((size_t)i >= r->nstrs) {
		size_t old = r->nstrs;

		PT_GROW(r->strs, (size_t)i, r->astrs);
		memset(r->strs + old, 0, ((size_t)i + 1 - old) * sizeof(*r->strs));
		r->nstrs = (size_t)i + 1;
	}
	free(r->strs[i]);
	r->strs[i] = pt_xstrndup(s, slen);
	rec->str_index = (long)i;
	rec->str_value = r->strs[i];
}

/* Append s[0..n) and a NUL to the reader's scanned strings; its offset there. */
static size_t keep_scanned(struct tt_reader *r, const char *s, size_t n)
{
	size_t at = r->scanned.len;

	if (pt_strbuf_add(&r->scanned, s, n) < 0 || pt_strbuf_add(&r->scanned, "", 1) < 0)
		PT_BUG("scanned envelope strings outgrew the envelope line cap");
	return at;
}

/*
 * The scan hook's way (tt_reader.scan): 1 when it read the envelope
 * line[joff..] into r->rec (no JSON objects made), 0 to parse it with jansson.
 */
static int start_scanned(struct tt_reader *r, struct tt_record *rec, const char *line,
			 size_t joff)
{
	struct tt_env_fields f;
	size_t kind, name = 0, md5 = 0;

	memset(&f, 0, sizeof(f));
	if (r->scan(r->scan_ctx, line + joff, r->envlen - joff, &f) != 1)
		return 0;
	if (!f.kind)
		return 0;	/* no kind key: jansson's way words it */
	pt_strbuf_reset(&r->scanned);
	kind = keep_scanned(r, f.kind, f.kind_len);
	if (f.name)
		name = keep_scanned(r, f.name, f.name_len);
	if (f.md5)
		md5 = keep_scanned(r, f.md5, f.md5_len);
	rec->prefix = line;
	rec->prefix_len = joff;
	rec->json = line + joff;
	rec->json_len = r->envlen - joff;
	rec->env = rec->meta = NULL;
	rec->kind = r->scanned.buf + kind;
	rec->nkinds = f.nkinds;
	rec->name = f.name ? r->scanned.buf + name : NULL;
	rec->rank = f.rank;
	rec->cid = f.cid;
	if (f.has_payload) {
		rec->has_payload = 1;
		rec->md5_declared = f.md5 ? r->scanned.buf + md5 : NULL;
		rec->rule = PT_PAYLOAD_PLAIN;
	}
	if (!strcmp(rec->kind, "str"))
		define_str(r, rec, f.str_ok, f.str, f.str_len, f.str_n);
	return 1;
}

/* Parse the envelope line held in r->env; sets up r->rec. 0 or -1 (damaged). */
static int start_record(struct tt_reader *r, uint64_t lineno)
{
	struct tt_record *rec = &r->rec;
	const char *line = r->envp;
	size_t joff;
	json_error_t err;
	json_t *env, *v;
	const char *key;

	memset(rec, 0, sizeof(*rec));
	rec->lineno = lineno;
	rec->nlines = 1;
	rec->rank = -1;
	rec->str_index = -1;
	/* BACKCOMPAT: none known; every TORCH_TRACE envelope has the text form prefix. */
	if (glog_parse((const uint8_t *)line, r->envlen, &rec->glog) < 0 ||
	    (joff = rec->glog.msg_off) >= r->envlen || line[joff] != '{') {
		damaged(r, lineno, "%s", "not a TORCH_TRACE envelope line (no glog prefix and JSON), skipped");
		return -1;
	}
	if (r->scan && start_scanned(r, rec, line, joff))
		return 0;
	env = json_loadb(line + joff, r->envlen - joff, 0, &err);
	if (!env || !json_is_object(env)) {
		damaged(r, lineno, "invalid envelope JSON (%s), skipped", env ? "not an object" : err.text);
		json_decref(env);
		return -1;
	}
	rec->prefix = line;
	rec->prefix_len = joff;
	rec->json = line + joff;
	rec->json_len = r->envlen - joff;
	rec->env = env;
	json_object_foreach(env, key, v) {
		if (tt_is_context_key(key))
			continue;
		if (!rec->kind) {
			rec->kind = key;
			rec->meta = v;
		}
		rec->nkinds++;
	}
	if (!rec->kind) {
		damaged(r, lineno, "%s", "envelope has no kind key, skipped");
		json_decref(env);
		rec->env = NULL;
		return -1;
	}
	rec->rank = opt_int(env, "rank");
	rec->cid.ca = opt_int(env, "compiled_autograd_id");
	rec->cid.frame = opt_int(env, "frame_id");
	rec->cid.compile = opt_int(env, "frame_compile_id");
	rec->cid.attempt = opt_int(env, "attempt");
	v = json_object_get(env, "has_payload");
	if (v && !json_is_null(v)) {
		rec->has_payload = 1;
		rec->md5_declared = json_string_value(v);
		rec->rule = PT_PAYLOAD_PLAIN;
	}
	if (json_is_object(rec->meta)) {
		v = json_object_get(rec->meta, "name");
		if (!json_is_string(v))
			v = json_object_get(rec->meta, "filename");
		rec->name = json_string_value(v);	/* NULL unless a string */
	}
	if (!strcmp(rec->kind, "str")) {
		json_t *s = json_array_get(rec->meta, 0), *n = json_array_get(rec->meta, 1);

		define_str(r, rec, json_is_array(rec->meta) && json_is_string(s) && json_is_integer(n),
			   json_string_value(s), json_string_length(s), json_integer_value(n));
	}
	return 0;
}

/* The pending record's payload so far: in place or in pay. */
static const char *pay_bytes(const struct tt_reader *r)
{
	return !r->inplace ? pt_strbuf_str(&r->pay) : r->payp ? r->payp : "";
}

static size_t pay_len(const struct tt_reader *r)
{
	return r->inplace ? r->paylen : r->pay.len;
}

/* Close the payload: md5 with the blank-line rules, then the callback. */
static int emit(struct tt_reader *r)
{
	struct tt_record *rec = &r->rec;
	int rc = 0;

	if (!r->pending)
		return 0;
	r->pending = 0;
	rec->payload_skipped = 0;
	if (rec->has_payload && r->pay_over) {
		/*
		 * Over the cap: nothing of it is kept, so there is no md5 to compare
		 * with the declared one (an md5 of what is left would look like the
		 * payload's).
		 */
		char what[160];

		r->st.payloads++;
		pt_fmt_trunc(what, sizeof(what), "payload of %llu bytes, over the cap of %u: skipped (not stored)",
			     (unsigned long long)r->pay_total, (unsigned)TT_MAX_PAYLOAD);
		damaged(r, rec->lineno, "%s", what);
		rec->payload_skipped = r->pay_total ? r->pay_total : 1;
		rec->md5[0] = '\0';
		rec->md5_ok = 0;
		rec->payload = (const uint8_t *)"";
		rec->payload_len = 0;
	} else if (rec->has_payload) {
		const char *want = rec->md5_declared;
		const char *pay = pay_bytes(r);
		size_t plen = pay_len(r);

		r->st.payloads++;
		if (want && r->memo && memo_hit(r->memo, want, (const uint8_t *)pay, plen))
			memcpy(rec->md5, want, 33);	/* the same bytes as a payload whose md5 it is */
		else
			tt_md5((const uint8_t *)pay, plen, rec->md5);
		if (r->nblanks && !(want && !strcmp(rec->md5, want))) {
			/* Try the file without its blank lines (doc §5). */
			char md5b[33];
			struct pt_strbuf b;
			size_t from = 0;

			pt_strbuf_init(&b, TT_MAX_PAYLOAD);
			for (size_t i = 0; i < r->nblanks; i++) {
				/* blanks[i]: offset of the "\n" + empty line; drop the "\n" before it. */
				size_t at = r->blanks[i];

				if (pt_strbuf_add(&b, pay + from, at - from) < 0)
					PT_BUG("a payload less its blank lines outgrew the payload cap");
				from = at + 1;
			}
			if (from <= plen)
				if (pt_strbuf_add(&b, pay + from, plen - from) < 0)
					PT_BUG("a payload less its blank lines outgrew the payload cap");
			tt_md5((const uint8_t *)pt_strbuf_str(&b), b.len, md5b);
			if (want && !strcmp(md5b, want)) {
				if (r->inplace) {
					/* Shorter: it fits where the payload was. */
					memcpy(r->payp, b.buf, b.len);
					r->paylen = b.len;
					pt_strbuf_release(&b);
				} else {
					pt_strbuf_release(&r->pay);
					r->pay = b;
				}
				memcpy(rec->md5, md5b, sizeof(md5b));
				rec->rule = PT_PAYLOAD_BLANK_DROPPED;
			} else {
				pt_strbuf_release(&b);
			}
		} else if (r->nblanks) {
			rec->rule = PT_PAYLOAD_BLANK_KEPT;
		}
		pay = pay_bytes(r);
		plen = pay_len(r);
		if (r->inplace && r->payp)
			r->payp[plen] = '\0';	/* where the last payload line's "\n" was, or after it */
		rec->md5_ok = want && !strcmp(rec->md5, want);
		if (rec->md5_ok && r->memo)
			memo_keep(r->memo, rec->md5, (const uint8_t *)pay, plen);
		if (!rec->md5_ok) {
			char where[48];

			r->st.md5_mismatches++;
			pt_fmt_trunc(where, sizeof(where), "line %llu", (unsigned long long)rec->lineno);
			pt_diag_add(r->diag, PT_SEV_WARNING, r->file, where,
				    "payload md5 %s, declared %s%s", rec->md5, want ? want : "(not a string)",
				    r->pay_lines ? "" : " (no payload lines)");
		}
		rec->payload = (const uint8_t *)pay;
		rec->payload_len = plen;
	}
	r->st.records++;
	if (r->cb && r->cb(r->ctx, rec) < 0) {
		r->stopped = 1;
		rc = -1;
	}
	json_decref(rec->env);
	rec->env = NULL;
	return rc;
}

/* Said when the record ends (emit), with the payload's full size. */
static void pay_over(struct tt_reader *r)
{
	r->pay_over = 1;
}

static void add_payload_line(struct tt_reader *r, const char *s, size_t n, uint64_t extra)
{
	/* What the payload would hold: its full size, for the message when it is over the cap. */
	r->pay_total += (r->pay_lines || r->pay_over ? 1 : 0) + n + extra;
	if (r->pay_over)
		return;
	if (extra) {
		pay_over(r);	/* a line over any cap, shortened by the caller */
		return;
	}
	if (r->inplace) {
		/* As pt_strbuf_add would, under the same cap: the "\n" may fit and the line not. */
		if (!r->pay_lines) {
			r->payp = (char *)s;	/* in buf: the line's own bytes */
		} else {
			if (r->paylen >= r->pay.max) {
				pay_over(r);
				return;
			}
			r->payp[r->paylen++] = '\n';
		}
		if (n > r->pay.max - r->paylen) {
			pay_over(r);
			return;
		}
		if (r->pay_lines)
			memmove(r->payp + r->paylen, s, n);	/* left, over bytes already read */
		r->paylen += n;
		r->pay_lines++;
		return;
	}
	if ((r->pay_lines && pt_strbuf_add(&r->pay, "\n", 1) < 0) ||
	    pt_strbuf_add(&r->pay, s, n) < 0) {
		pay_over(r);
		return;
	}
	r->pay_lines++;
}

/* One line without its "\n". */
static int do_line(struct tt_reader *r, const char *line, size_t len)
{
	uint64_t lineno = ++r->st.lines;

	if (r->crlf < 0)
		r->crlf = len && line[len - 1] == '\r';
	/* Envelope lines always lose a trailing CR; payload lines only in CRLF files. */
	if (len && line[len - 1] == '\r' && (r->crlf || line[0] != '\t'))
		len--;
	if (len && line[0] == '\t') {
		if (r->pending && r->rec.has_payload && !r->pay_over) {
			/* Blank lines between payload lines: empty payload lines, tentatively. */
			for (; r->pend_blank; r->pend_blank--) {
				PT_GROW(r->blanks, r->nblanks, r->ablanks);
				r->blanks[r->nblanks++] = pay_len(r);
				add_payload_line(r, "", 0, 0);
			}
			add_payload_line(r, line + 1, len - 1, r->line_extra);
			r->rec.nlines++;
		} else if (r->pending && r->pay_over) {
			r->pay_total += r->pend_blank + 1 + (len - 1) + r->line_extra;
			r->pend_blank = 0;
			r->rec.nlines++;
		} else {
			r->st.orphan_payload_lines++;
			if (!r->orphan_run)
				r->orphan_run = lineno;
		}
		return 0;
	}
	if (!len && !r->line_extra) {
		r->st.blank_lines++;
		if (r->pending && r->rec.has_payload && r->pay_lines)
			r->pend_blank++;
		return 0;
	}
	end_orphans(r);
	if (emit(r) < 0)
		return -1;
	pt_strbuf_reset(&r->env);
	pt_strbuf_reset(&r->pay);
	r->payp = NULL;
	r->paylen = 0;
	r->nblanks = 0;
	r->pend_blank = 0;
	r->pay_lines = 0;
	r->pay_over = 0;
	r->pay_total = 0;
	if (len + r->line_extra > r->env.max) {
		char what[128];

		pt_fmt_trunc(what, sizeof(what), "envelope line of %llu bytes, over the cap of %zu: skipped",
			     (unsigned long long)(len + r->line_extra), r->env.max);
		damaged(r, lineno, "%s", what);
		return 0;
	}
	if (r->inplace) {
		((char *)line)[len] = '\0';	/* its "\n" or CR, or the byte after the last line */
		r->envp = line;
		r->envlen = len;
	} else {
		if (pt_strbuf_add(&r->env, line, len) < 0)
			PT_BUG("an envelope line under the cap did not fit");
		r->envp = r->env.buf;
		r->envlen = r->env.len;
	}
	if (start_record(r, lineno) == 0)
		r->pending = 1;
	return 0;
}

int tt_reader_feed(struct tt_reader *r, const uint8_t *buf, size_t len)
{
	const char *p = (const char *)buf, *end = p + len;

	if (r->stopped)
		return -1;
	r->st.bytes += len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (r->skipping) {
			/* The rest of an over-long line. */
			if (!nl)
				break;
			r->skipping = 0;
			r->st.lines++;
			p = nl + 1;
			continue;
		}
		if (!nl) {
			if (pt_strbuf_add(&r->part, p, (size_t)(end - p)) < 0) {
				damaged(r, r->st.lines + 1, "%s", "line larger than the cap, skipped");
				pt_strbuf_reset(&r->part);
				r->skipping = 1;
			}
			break;
		}
		if (r->part.len) {
			int rc;

			if (pt_strbuf_add(&r->part, p, (size_t)(nl - p)) < 0) {
				damaged(r, r->st.lines + 1, "%s", "line larger than the cap, skipped");
				pt_strbuf_reset(&r->part);
				r->st.lines++;
				p = nl + 1;
				continue;
			}
			rc = do_line(r, r->part.buf, r->part.len);
			pt_strbuf_reset(&r->part);
			if (rc < 0)
				return -1;
		} else if (do_line(r, p, (size_t)(nl - p)) < 0) {
			return -1;
		}
		p = nl + 1;
	}
	return 0;
}

int tt_reader_feed_inplace(struct tt_reader *r, uint8_t *buf, size_t len)
{
	const char *p = (const char *)buf, *end = p + len;

	if (r->stopped)
		return -1;
	if (r->inplace || r->st.bytes || r->part.len || r->pending)
		PT_BUG("tt_reader_feed_inplace after another feed");
	r->inplace = buf;
	r->st.bytes += len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t at = (size_t)((nl ? nl : end) - (const char *)buf);

		r->line_extra = 0;
		while (r->cut_i < r->ncuts && r->cuts[r->cut_i].at < at)
			r->cut_i++;	/* not at a line's end: not ours (cannot happen) */
		if (r->cut_i < r->ncuts && r->cuts[r->cut_i].at == at)
			r->line_extra = r->cuts[r->cut_i++].dropped;
		if (!nl) {
			/* The last line, for finish; as tt_reader_feed keeps it in part, under its cap. */
			uint64_t full = (uint64_t)(end - p) + r->line_extra;

			if (full > r->part.max) {
				char what[128];

				pt_fmt_trunc(what, sizeof(what),
					     "last line (no newline) of %llu bytes, over the cap of %zu: skipped",
					     (unsigned long long)full, r->part.max);
				damaged(r, r->st.lines + 1, "%s", what);
				r->skipping = 1;
			} else {
				r->tailp = p;
				r->taillen = (size_t)(end - p);
				r->tail_extra = r->line_extra;
			}
			r->line_extra = 0;
			break;
		}
		if (do_line(r, p, (size_t)(nl - p)) < 0)
			return -1;
		r->line_extra = 0;
		p = nl + 1;
	}
	return 0;
}

int tt_reader_finish(struct tt_reader *r)
{
	if (r->stopped)
		return -1;
	if (r->skipping)
		r->st.lines++;
	r->skipping = 0;
	if (r->part.len) {
		int rc = do_line(r, r->part.buf, r->part.len);

		pt_strbuf_reset(&r->part);
		if (rc < 0)
			return -1;
	} else if (r->tailp) {
		const char *t = r->tailp;

		r->tailp = NULL;
		r->line_extra = r->tail_extra;
		r->tail_extra = 0;
		if (do_line(r, t, r->taillen) < 0)
			return -1;
		r->line_extra = 0;
	}
	end_orphans(r);
	return emit(r);
}

int tt_parse(const uint8_t *buf, size_t len, const char *file,
		   struct pt_diag *diag, tt_record_cb cb, void *ctx)
{
	struct tt_reader r;
	int rc;

	tt_reader_init(&r, file, diag, cb, ctx);
	rc = tt_reader_feed(&r, buf, len);
	if (rc == 0)
		rc = tt_reader_finish(&r);
	tt_reader_release(&r);
	return rc;
}
