/* tracers/parse/torchtrace.c: TORCH_TRACE records, one test per format corner (doc §3-§5). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "strbuf.h"
#include "torchtrace.h"
#include "xalloc.h"

/* What the callback saw, kept as text for whole comparisons. */
struct seen {
	char *log;	/* "kind line rank cid md5ok rule payload|" per record */
	size_t len;
	FILE *f;
	int n;
	struct tt_reader *r;	/* for stack resolution, when set */
	char *stack;			/* the last resolved stack, JSON */
};

static int collect(void *ctx, const struct tt_record *rec)
{
	struct seen *s = ctx;

	fprintf(s->f, "%s@%llu r%lld %lld/%lld/%lld/%lld %s %s [%.*s]\n", rec->kind,
		(unsigned long long)rec->lineno, rec->rank, (long long)rec->cid.ca, (long long)rec->cid.frame,
		(long long)rec->cid.compile, (long long)rec->cid.attempt,
		rec->has_payload ? (rec->md5_ok ? "md5ok" : "md5bad") : "-",
		pt_payload_rule_name(rec->rule), (int)rec->payload_len,
		rec->payload ? (const char *)rec->payload : "");
	if (s->r && json_object_get(rec->meta, "stack")) {
		json_t *st = tt_resolve_stack(s->r, json_object_get(rec->meta, "stack"));

		free(s->stack);
		s->stack = json_dumps(st, JSON_COMPACT);
		json_decref(st);
	}
	s->n++;
	return 0;
}

static struct tt_md5_memo *run_memo;	/* the reader's memo in run(), NULL: none */

/* Parse text fed in pieces of chunk bytes (0: whole); returns the log. */
static char *run(const char *text, size_t chunk, struct pt_diag *d, struct seen *s)
{
	struct tt_reader r;
	size_t len = strlen(text);

	memset(s, 0, sizeof(*s));
	s->f = open_memstream(&s->log, &s->len);
	tt_reader_init(&r, "t.log", d, collect, s);
	r.memo = run_memo;
	s->r = &r;
	if (!chunk)
		chunk = len ? len : 1;
	for (size_t off = 0; off < len; off += chunk)
		assert_int_equal(tt_reader_feed(&r, (const uint8_t *)text + off,
					       len - off < chunk ? len - off : chunk), 0);
	assert_int_equal(tt_reader_finish(&r), 0);
	tt_reader_release(&r);
	s->r = NULL;
	fclose(s->f);
	return s->log;
}

#define P "V1122 02:53:36.047000 31651 torch/_logging/_internal.py:1377] "
/* md5("a\nb") and md5("") */
#define MD5_AB "8cdeb44417f3c26826595d5820cf5700"
#define MD5_EMPTY "d41d8cd98f00b204e9800998ecf8427e"

static void payload_recovered_and_md5_checked(void **state)
{
	struct pt_diag d;
	struct seen s;
	char md5[33];

	(void)state;
	tt_md5((const uint8_t *)"a\nb", 3, md5);
	assert_string_equal(md5, MD5_AB);
	pt_diag_init(&d);
	run(P "{\"artifact\": {\"name\": \"x\", \"encoding\": \"string\"}, \"frame_id\": 0, "
	      "\"frame_compile_id\": 1, \"attempt\": 2, \"has_payload\": \"" MD5_AB "\"}\n"
	      "\ta\n\tb\n"
	    P "{\"empty\": {}, \"has_payload\": \"" MD5_EMPTY "\"}\n\t\n",
	    0, &d, &s);
	assert_string_equal(s.log,
		"artifact@1 r-1 -1/0/1/2 md5ok plain [a\nb]\n"
		"empty@4 r-1 -1/-1/-1/-1 md5ok plain []\n");
	assert_int_equal(pt_diag_count(&d, PT_SEV_NOTE), 0);
	free(s.log);
	pt_diag_release(&d);
}

/* Byte-by-byte feeding gives exactly what one buffer gives. */
static void feeding_in_pieces_is_identical(void **state)
{
	const char *text = P "{\"a\": {}, \"rank\": 3, \"has_payload\": \"" MD5_AB "\"}\r\n\ta\r\n\tb\r\n"
			   P "{\"str\": [\"f.py\", 0]}\r\n";
	struct pt_diag d;
	struct seen s1, s2;

	(void)state;
	pt_diag_init(&d);
	run(text, 0, &d, &s1);
	for (size_t c = 1; c < 9; c++) {
		run(text, c, &d, &s2);
		assert_string_equal(s1.log, s2.log);
		free(s2.log);
	}
	assert_string_equal(s1.log, "a@1 r3 -1/-1/-1/-1 md5ok plain [a\nb]\nstr@4 r-1 -1/-1/-1/-1 - none []\n");
	assert_int_equal(pt_diag_count(&d, PT_SEV_NOTE), 0);
	free(s1.log);
	pt_diag_release(&d);
}

/* In an LF file a CR at a payload line's end is content (md5 says so). */
static void cr_in_lf_file_is_payload(void **state)
{
	char md5[33], text[512];
	struct pt_diag d;
	struct seen s;

	(void)state;
	tt_md5((const uint8_t *)"a\r\nb", 4, md5);
	snprintf(text, sizeof(text), P "{\"k\": {}, \"has_payload\": \"%s\"}\n\ta\r\n\tb\n", md5);
	pt_diag_init(&d);
	run(text, 0, &d, &s);
	assert_string_equal(s.log, "k@1 r-1 -1/-1/-1/-1 md5ok plain [a\r\nb]\n");
	free(s.log);
	pt_diag_release(&d);
}

/* A blank line inside a payload run: an empty payload line if the md5 then matches... */
static void blank_line_kept_when_md5_matches(void **state)
{
	char md5[33], text[512];
	struct pt_diag d;
	struct seen s;

	(void)state;
	tt_md5((const uint8_t *)"a\n\nb", 4, md5);
	snprintf(text, sizeof(text), P "{\"k\": {}, \"has_payload\": \"%s\"}\n\ta\n\n\tb\n\n\n" P "{\"z\": {}}\n", md5);
	pt_diag_init(&d);
	run(text, 0, &d, &s);
	assert_string_equal(s.log, "k@1 r-1 -1/-1/-1/-1 md5ok blank_kept [a\n\nb]\nz@7 r-1 -1/-1/-1/-1 - none []\n");
	assert_int_equal(pt_diag_count(&d, PT_SEV_NOTE), 0);
	free(s.log);
	pt_diag_release(&d);
}

/* ...and not part of the payload when the md5 matches without it. */
static void blank_line_dropped_when_md5_matches_without(void **state)
{
	struct pt_diag d;
	struct seen s;

	(void)state;
	pt_diag_init(&d);
	run(P "{\"k\": {}, \"has_payload\": \"" MD5_AB "\"}\n\ta\n\n\tb\n", 0, &d, &s);
	assert_string_equal(s.log, "k@1 r-1 -1/-1/-1/-1 md5ok blank_dropped [a\nb]\n");
	assert_int_equal(pt_diag_count(&d, PT_SEV_NOTE), 0);
	free(s.log);
	pt_diag_release(&d);
}

/* A hand-edited payload: kept as the file has it, the mismatch reported. */
static void md5_mismatch_kept_and_reported(void **state)
{
	struct pt_diag d;
	struct seen s;

	(void)state;
	pt_diag_init(&d);
	run(P "{\"k\": {}, \"has_payload\": \"" MD5_AB "\"}\n\ta\n\tB\n" P "{\"m\": {}, \"has_payload\": \"" MD5_AB "\"}\n",
	    0, &d, &s);
	assert_string_equal(s.log, "k@1 r-1 -1/-1/-1/-1 md5bad plain [a\nB]\nm@4 r-1 -1/-1/-1/-1 md5bad plain []\n");
	assert_int_equal(d.n, 2);
	assert_string_equal(d.v[0].where, "line 1");
	assert_non_null(strstr(d.v[1].what, "no payload lines"));
	free(s.log);
	pt_diag_release(&d);
}

/*
 * With a memo of verified payloads: repeats take the kept md5 without
 * hashing, and nothing else changes: a payload of the same length declaring
 * a kept md5 with other bytes is still a mismatch, blank-line rules still
 * apply. The log and messages equal those without a memo, record for record.
 */
static void md5_memo_changes_nothing(void **state)
{
	static const char text[] =
		P "{\"k\": {}, \"has_payload\": \"" MD5_AB "\"}\n\ta\n\tb\n"
		P "{\"k\": {}, \"has_payload\": \"" MD5_AB "\"}\n\ta\n\tb\n"
		P "{\"k\": {}, \"has_payload\": \"" MD5_AB "\"}\n\ta\n\tB\n"
		P "{\"k\": {}, \"has_payload\": \"" MD5_AB "\"}\n\ta\n\n\tb\n"
		P "{\"k\": {}, \"has_payload\": \"" MD5_EMPTY "\"}\n"
		P "{\"k\": {}, \"has_payload\": \"" MD5_EMPTY "\"}\n"
		P "{\"k\": {}, \"has_payload\": \"" MD5_AB "\"}\n\ta\n\tb\n";
	size_t caps[] = {0, 1 << 20};
	struct pt_diag d0, d1;
	struct seen s0, s1;

	(void)state;
	pt_diag_init(&d0);
	run(text, 0, &d0, &s0);
	assert_non_null(strstr(s0.log, "md5bad plain [a\nB]"));
	for (size_t c = 0; c < PT_ARRAY_SIZE(caps); c++) {
		run_memo = tt_md5_memo_new(caps[c]);
		for (size_t chunk = 0; chunk < 40; chunk += 13) {
			pt_diag_init(&d1);
			run(text, chunk, &d1, &s1);
			assert_string_equal(s1.log, s0.log);
			assert_int_equal(d1.n, d0.n);
			for (size_t i = 0; i < d0.n; i++) {
				assert_string_equal(d1.v[i].where, d0.v[i].where);
				assert_string_equal(d1.v[i].what, d0.v[i].what);
			}
			free(s1.log);
			pt_diag_release(&d1);
		}
		tt_md5_memo_free(run_memo);
		run_memo = NULL;
	}
	free(s0.log);
	pt_diag_release(&d0);
}

/* A memo whose buffer fills up forgets everything and goes on: still the same log. */
static void md5_memo_full_starts_over(void **state)
{
	struct pt_strbuf t;
	struct pt_diag d0, d1;
	struct seen s0, s1;
	char md5[33], pay[4];

	(void)state;
	pt_strbuf_init(&t, 1 << 20);
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 10; i++) {
			snprintf(pay, sizeof(pay), "x%dy", i);
			tt_md5((const uint8_t *)pay, 3, md5);
			assert_int_equal(pt_strbuf_addf(&t, P "{\"k\": {}, \"has_payload\": \"%s\"}\n\t%s\n", md5, pay), 0);
		}
	pt_diag_init(&d0);
	run(t.buf, 0, &d0, &s0);
	/* 24 bytes: payloads of 3 bytes (max / 8) fit, eight of them fill it. */
	run_memo = tt_md5_memo_new(24);
	pt_diag_init(&d1);
	run(t.buf, 0, &d1, &s1);
	assert_string_equal(s1.log, s0.log);
	assert_int_equal(d1.n, 0);
	assert_int_equal(d0.n, 0);
	tt_md5_memo_free(run_memo);
	run_memo = NULL;
	free(s0.log);
	free(s1.log);
	pt_diag_release(&d0);
	pt_diag_release(&d1);
	pt_strbuf_release(&t);
}

/* A damaged line is reported with its number; the records around it survive. */
static void damaged_lines_reported_rest_parsed(void **state)
{
	struct pt_diag d;
	struct seen s;

	(void)state;
	pt_diag_init(&d);
	run(P "{\"a\": {}}\n"
	    P "{\"b\": {, broken\n"
	    "garbage without prefix\n"
	    "\torphan payload\n\tline\n"
	    P "{\"rank\": 1}\n"
	    P "{\"c\": {}}", 0, &d, &s);
	assert_string_equal(s.log, "a@1 r-1 -1/-1/-1/-1 - none []\nc@7 r-1 -1/-1/-1/-1 - none []\n");
	assert_int_equal(d.n, 4);
	assert_string_equal(d.v[0].where, "line 2");
	assert_non_null(strstr(d.v[0].what, "invalid envelope JSON"));
	assert_string_equal(d.v[1].where, "line 3");
	assert_string_equal(d.v[2].where, "line 4");
	assert_non_null(strstr(d.v[2].what, "payload lines without"));
	assert_string_equal(d.v[3].where, "line 6");
	assert_non_null(strstr(d.v[3].what, "no kind key"));
	assert_string_equal(d.v[3].file, "t.log");
	free(s.log);
	pt_diag_release(&d);
}

/* `str` interning per file; -1 is None; unknown indexes are named. */
static void str_interning_resolves_stacks(void **state)
{
	struct pt_diag d;
	struct seen s;

	(void)state;
	pt_diag_init(&d);
	run(P "{\"str\": [\"/a/convert_frame.py\", 0]}\n"
	    P "{\"str\": [\"m.py\", 2]}\n"
	    P "{\"dynamo_start\": {\"stack\": [{\"line\": 1, \"name\": \"f\", \"filename\": 2}, "
	    "{\"line\": 2, \"name\": \"g\", \"filename\": -1}, {\"line\": 3, \"name\": \"h\", \"filename\": 1}]}, "
	    "\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}\n", 0, &d, &s);
	assert_string_equal(s.stack,
		"[{\"line\":1,\"name\":\"f\",\"filename\":\"m.py\"},"
		"{\"line\":2,\"name\":\"g\",\"filename\":null},"
		"{\"line\":3,\"name\":\"h\",\"filename\":\"<str 1 undefined>\"}]");
	assert_int_equal(s.n, 3);
	assert_int_equal(d.n, 0);
	free(s.stack);
	free(s.log);
	pt_diag_release(&d);
}

/* Unknown kinds and keys stay; null ids read as absent; compiled autograd id kept. */
static void unknown_kinds_and_null_ids(void **state)
{
	struct pt_diag d;
	struct seen s;

	(void)state;
	pt_diag_init(&d);
	run(P "{\"memoizer_2026\": {\"x\": 1}, \"compiled_autograd_id\": null, \"frame_id\": 4, "
	      "\"frame_compile_id\": 0, \"future_key\": 7}\n"
	    P "{\"compiled_autograd_graph\": {}, \"compiled_autograd_id\": 0}\n", 0, &d, &s);
	assert_string_equal(s.log, "memoizer_2026@1 r-1 -1/4/0/-1 - none []\n"
				   "compiled_autograd_graph@2 r-1 0/-1/-1/-1 - none []\n");
	free(s.log);
	pt_diag_release(&d);
}

/* ---- every fixture *.log: per-kind counts equal a plain count of envelope lines ---- */

struct kc {
	char kind[64];
	long n;
};

static void kc_add(struct kc *v, int *n, const char *k, size_t klen)
{
	for (int i = 0; i < *n; i++)
		if (strlen(v[i].kind) == klen && !memcmp(v[i].kind, k, klen)) {
			v[i].n++;
			return;
		}
	assert_true(*n < 64 && klen < 64);
	memcpy(v[*n].kind, k, klen);
	v[*n].kind[klen] = '\0';
	v[(*n)++].n = 1;
}

struct fixture_count {
	struct kc kinds[64];
	int nk;
	long md5ok;
};

static int count_cb(void *ctx, const struct tt_record *rec)
{
	struct fixture_count *c = ctx;

	kc_add(c->kinds, &c->nk, rec->kind, strlen(rec->kind));
	c->md5ok += rec->md5_ok;
	return 0;
}

static int kc_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kc *)a)->kind, ((const struct kc *)b)->kind);
}

/*
 * tlparse's rule, independent of the reader: after an envelope with has_payload,
 * the lines starting with a tab (a trailing CR dropped) are the payload, tab
 * stripped, joined by '\n'. Returns how many payloads do not hash to the md5
 * declared: some real files have them (blank lines inside export.log's payload).
 */
static long tlparse_md5_mismatches(const uint8_t *buf, size_t len)
{
	long bad = 0;
	size_t off = 0;

	while (off < len) {
		const uint8_t *nl = memchr(buf + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - buf) : len;
		const char *hp = buf[off] == 'V' ? memmem(buf + off, end - off, "\"has_payload\": \"", 16) : NULL;
		size_t cap = 0, n = 0;
		int first = 1;
		uint8_t *pl = NULL;
		char md5[33];

		off = end + 1;
		if (!hp)
			continue;
		while (off < len && buf[off] == '\t') {
			const uint8_t *e = memchr(buf + off, '\n', len - off);
			size_t le = e ? (size_t)(e - buf) : len, ll = le - off - 1;

			if (ll && buf[le - 1] == '\r')
				ll--;
			if (n + ll + 1 > cap) {
				cap = (n + ll + 1) * 2;
				pl = pt_xrealloc(pl, cap);
			}
			if (!first)
				pl[n++] = '\n';
			first = 0;
			memcpy(pl + n, buf + off + 1, ll);
			n += ll;
			off = le + 1;
		}
		tt_md5(pl ? pl : (const uint8_t *)"", n, md5);
		bad += memcmp(md5, hp + 16, 32) != 0;
		free(pl);
	}
	return bad;
}

static void check_fixture(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat stt;
	uint8_t *buf;
	struct pt_diag d;
	struct fixture_count got = {0}, want = {0};
	long payloads = 0, bad;

	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &stt), 0);
	buf = pt_xmalloc((size_t)stt.st_size + 1);
	assert_int_equal(fread(buf, 1, (size_t)stt.st_size, f), (size_t)stt.st_size);
	fclose(f);
	/* The plain count: lines starting with V, kind = the first JSON key. */
	for (size_t off = 0; off < (size_t)stt.st_size;) {
		uint8_t *nl = memchr(buf + off, '\n', (size_t)stt.st_size - off);
		size_t end = nl ? (size_t)(nl - buf) : (size_t)stt.st_size;

		if (buf[off] == 'V') {
			char *k = strstr((char *)buf + off, "] {\"") + 4;
			char *q = strchr(k, '"');

			kc_add(want.kinds, &want.nk, k, (size_t)(q - k));
			payloads += memmem(buf + off, end - off, "\"has_payload\"", 13) != NULL;
		}
		off = end + 1;
	}
	pt_diag_init(&d);
	/* Odd-sized pieces so that lines straddle feeds. */
	{
		struct tt_reader r;
		size_t len = (size_t)stt.st_size;

		tt_reader_init(&r, path, &d, count_cb, &got);
		for (size_t off = 0; off < len; off += 4093)
			assert_int_equal(tt_reader_feed(&r, buf + off, len - off < 4093 ? len - off : 4093), 0);
		assert_int_equal(tt_reader_finish(&r), 0);
		assert_int_equal(r.st.damaged, 0);
		assert_int_equal(r.st.payloads, payloads);
		tt_reader_release(&r);
	}
	bad = tlparse_md5_mismatches(buf, (size_t)stt.st_size);
	if ((long)d.n != bad) {
		printf("  %s: %ld md5 mismatches by tlparse's rule, %d diagnostics:\n", path, bad, (int)d.n);
		pt_diag_print(&d, stdout, "test_trace", 0);
	}
	assert_int_equal((long)d.n, bad);	/* one warning per md5 mismatch, nothing else */
	qsort(got.kinds, (size_t)got.nk, sizeof(struct kc), kc_cmp);
	qsort(want.kinds, (size_t)want.nk, sizeof(struct kc), kc_cmp);
	assert_int_equal(got.nk, want.nk);
	for (int i = 0; i < got.nk; i++) {
		assert_string_equal(got.kinds[i].kind, want.kinds[i].kind);
		assert_int_equal(got.kinds[i].n, want.kinds[i].n);
	}
	/* every payload md5 recomputed; equal wherever tlparse finds it equal */
	assert_int_equal(got.md5ok, payloads - bad);
	printf("  %s: %d kinds, %ld payloads, %ld md5 mismatches\n", path, got.nk, payloads, bad);
	pt_diag_release(&d);
	free(buf);
}

static int walk(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!dp)
		return 0;
	while ((e = readdir(dp)) != NULL) {
		char *p;
		struct stat stt;

		if (e->d_name[0] == '.')
			continue;
		p = pt_xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &stt) == 0 && S_ISDIR(stt.st_mode))
			n += walk(p);
		else if (strlen(p) > 4 && !strcmp(p + strlen(p) - 4, ".log")) {
			check_fixture(p);
			n++;
		}
		free(p);
	}
	closedir(dp);
	return n;
}

static void every_fixture_indexes_without_loss(void **state)
{
	const char *fx = getenv("PT_FIXTURES");
	char *dir;
	int n;

	(void)state;
	/* Set by CTest; run by hand from build/, the repository's own copy. */
	dir = pt_xasprintf("%s/traces", fx ? fx : "../tests/fixtures");
	n = walk(dir);
	free(dir);
	assert_true(n >= 17);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(payload_recovered_and_md5_checked),
		cmocka_unit_test(feeding_in_pieces_is_identical),
		cmocka_unit_test(cr_in_lf_file_is_payload),
		cmocka_unit_test(blank_line_kept_when_md5_matches),
		cmocka_unit_test(blank_line_dropped_when_md5_matches_without),
		cmocka_unit_test(md5_mismatch_kept_and_reported),
		cmocka_unit_test(md5_memo_changes_nothing),
		cmocka_unit_test(md5_memo_full_starts_over),
		cmocka_unit_test(damaged_lines_reported_rest_parsed),
		cmocka_unit_test(str_interning_resolves_stacks),
		cmocka_unit_test(unknown_kinds_and_null_ids),
		cmocka_unit_test(every_fixture_indexes_without_loss),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
