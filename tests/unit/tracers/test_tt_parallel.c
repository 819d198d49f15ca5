/*
 * tracers/tt_parallel: chunked parsing on worker threads gives exactly
 * what one tt_reader over the whole file gives: every record field
 * (line numbers, payload bytes, md5, rule, kind, rank, ids, str values), the
 * diagnostics in the same order, the statistics. Crafted files hit the
 * corners (damaged and orphan lines, blank lines inside payloads, CRLF,
 * `str` records, no final newline, empty files, an unreadable file); every
 * TORCH_TRACE fixture of the repository is compared with chunks of 1 byte
 * up to the default, on 1 to 4 threads.
 */
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
#include <unistd.h>

#include "strbuf.h"
#include "torchtrace.h"
#include "tt_parallel.h"
#include "xalloc.h"

/* Everything observable about a parse, as text. */
struct digest {
	struct pt_strbuf s;
	size_t file;
	int with_meta;	/* the envelope objects are there (tt_par_cbs.keep_json): meta compared */
	int par;	/* from tt_par_read: env given exactly when with_meta */
};

static void add(struct digest *d, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	assert_int_equal(pt_strbuf_add(&d->s, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1), 0);
}

static int on_rec(void *ctx, const struct tt_record *r)
{
	struct digest *d = ctx;
	char *meta = d->with_meta && r->meta ? json_dumps(r->meta, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)
					      : NULL;

	if (d->par)
		assert_true(d->with_meta ? r->env != NULL : r->env == NULL && r->meta == NULL);
	add(d, "rec %zu line %llu n %llu kind %s name %s nk %d rank %lld cid %lld/%lld/%lld/%lld pay %d md5 %s ok %d "
	       "decl %s rule %d len %zu str %ld %s pid %lld emit %.*s:%lld\n",
	    d->file, (unsigned long long)r->lineno, (unsigned long long)r->nlines, r->kind,
	    r->name ? r->name : "(none)", r->nkinds,
	    r->rank, (long long)r->cid.ca, (long long)r->cid.frame, (long long)r->cid.compile,
	    (long long)r->cid.attempt, r->has_payload, r->has_payload ? r->md5 : "-", r->md5_ok,
	    r->md5_declared ? r->md5_declared : "-", (int)r->rule, r->payload_len, r->str_index,
	    r->str_value ? r->str_value : "-", (long long)r->glog.pid, (int)r->glog.file_len,
	    r->prefix + r->glog.file_off, (long long)r->glog.lineno);
	assert_int_equal(pt_strbuf_add(&d->s, r->prefix, r->prefix_len + r->json_len), 0);
	assert_int_equal(pt_strbuf_add(&d->s, "\n", 1), 0);
	if (r->payload_len)
		assert_int_equal(pt_strbuf_add(&d->s, (const char *)r->payload, r->payload_len), 0);
	if (meta)
		assert_int_equal(pt_strbuf_add(&d->s, meta, strlen(meta)), 0);
	free(meta);
	assert_int_equal(pt_strbuf_add(&d->s, "\n", 1), 0);
	return 0;
}

static void add_stats(struct digest *d, const struct tt_reader_stats *st)
{
	add(d, "stats lines %llu records %llu blank %llu damaged %llu orphan %llu payloads %llu md5 %llu bytes %llu\n",
	    (unsigned long long)st->lines, (unsigned long long)st->records,
	    (unsigned long long)st->blank_lines, (unsigned long long)st->damaged,
	    (unsigned long long)st->orphan_payload_lines, (unsigned long long)st->payloads,
	    (unsigned long long)st->md5_mismatches, (unsigned long long)st->bytes);
}

static void add_diag(struct digest *d, const struct pt_diag *g)
{
	for (size_t i = 0; i < g->n; i++)
		add(d, "diag %d %s %s %s\n", (int)g->v[i].sev, g->v[i].file ? g->v[i].file : "-",
		    g->v[i].where ? g->v[i].where : "-", g->v[i].what);
	add(d, "dropped %zu\n", g->dropped);
}

/* The reference: one reader per file fed everything at once. */
static char *sequential(const char *const *paths, size_t n, int with_meta)
{
	struct digest d = {.with_meta = with_meta};
	struct pt_diag diag;

	pt_strbuf_init(&d.s, 1u << 30);
	pt_diag_init(&diag);
	for (size_t i = 0; i < n; i++) {
		struct tt_reader r;
		FILE *f = fopen(paths[i], "rb");
		char *buf = NULL;
		size_t len = 0;

		d.file = i;
		if (!f) {
			add(&d, "unreadable %zu\n", i);
			continue;
		}
		fseek(f, 0, SEEK_END);
		len = (size_t)ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = pt_xmalloc(len + 1);
		assert_int_equal(fread(buf, 1, len, f), len);
		fclose(f);
		add(&d, "begin %zu\n", i);
		tt_reader_init(&r, paths[i], &diag, on_rec, &d);
		tt_reader_feed(&r, (const uint8_t *)buf, len);
		tt_reader_finish(&r);
		add_stats(&d, &r.st);
		tt_reader_release(&r);
		free(buf);
	}
	add_diag(&d, &diag);
	pt_diag_release(&diag);
	return (char *)pt_strbuf_str(&d.s);	/* the buffer itself, NUL-terminated */
}

static int par_begin(void *ctx, size_t i)
{
	struct digest *d = ctx;

	d->file = i;
	add(d, "begin %zu\n", i);
	return 0;
}

static int par_end(void *ctx, size_t i, const struct tt_reader_stats *st, int rc)
{
	struct digest *d = ctx;

	if (rc < 0) {
		add(d, "unreadable %zu\n", i);
		return 0;
	}
	add_stats(d, st);
	return 0;
}

static char *parallel(const char *const *paths, size_t n, size_t chunk, unsigned threads, int keep_json)
{
	struct digest d = {.with_meta = keep_json, .par = 1};
	struct pt_diag diag;
	struct tt_par_file *f = pt_xcalloc(n, sizeof(*f));
	struct tt_par_cbs cbs = {
		.begin = par_begin, .record = on_rec, .end = par_end, .ctx = &d, .keep_json = keep_json,
	};

	for (size_t i = 0; i < n; i++)
		f[i].path = f[i].name = paths[i];
	pt_strbuf_init(&d.s, 1u << 30);
	pt_diag_init(&diag);
	tt_par_set_chunk(chunk);
	assert_int_equal(tt_par_read(f, n, threads, &cbs, &diag), 0);
	tt_par_set_chunk(0);
	/* An unreadable file's message comes from the reader thread: drop it to match. */
	for (size_t i = 0; i < diag.n; i++)
		if (diag.v[i].sev == PT_SEV_ERROR) {
			free(diag.v[i].file);
			free(diag.v[i].where);
			free(diag.v[i].what);
			memmove(&diag.v[i], &diag.v[i + 1], (diag.n - i - 1) * sizeof(diag.v[0]));
			diag.n--;
			i--;
		}
	add_diag(&d, &diag);
	pt_diag_release(&diag);
	free(f);
	return (char *)pt_strbuf_str(&d.s);	/* the buffer itself, NUL-terminated */
}

static void same_both_ways(const char *const *paths, size_t n)
{
	static const size_t chunks[] = {1, 7, 100, 4096, 65536, 0};
	/* With the envelope objects (meta compared too) and without (what the import asks for). */
	char *want[2] = {sequential(paths, n, 0), sequential(paths, n, 1)};
	off_t total = 0;
	struct stat st;

	for (size_t i = 0; i < n; i++)
		if (stat(paths[i], &st) == 0)
			total += st.st_size;
	for (size_t c = 0; c < PT_ARRAY_SIZE(chunks); c++) {
		for (unsigned t = 1; t <= 4; t++) {
			char *got;

			/* Byte-sized chunks on big files take long: one thread count is enough there. */
			if (chunks[c] && chunks[c] < 4096 && t > 1)
				continue;
			/*
			 * Chunks of 1 and 7 bytes cut a record at every place; on inputs over
			 * 256 KB that repeats what the smaller files show, at a cost of minutes
			 * under ASan: there 100-byte chunks and up.
			 */
			if (chunks[c] && chunks[c] < 100 && total > 256 * 1024)
				continue;
			/* Many files as one import: the per-file runs cut each file; here file order and stats. */
			if (n > 1 && chunks[c] != 0 && chunks[c] != 4096)
				continue;
			/* keep_json on 1 and 3 threads (every chunk size has 1), not on 2 and 4 */
			int keep = t & 1;
			const char *w = want[keep];

			got = parallel(paths, n, chunks[c], t, keep);
			if (strcmp(w, got)) {
				size_t k = 0;

				while (w[k] && w[k] == got[k])
					k++;
				fprintf(stderr, "%s (+%zu files), chunk %zu, %u threads, keep_json %d: differs at byte"
					" %zu:\nwant: %.300s\ngot:  %.300s\n", paths[0], n - 1, chunks[c], t, keep, k,
					w + (k > 100 ? k - 100 : 0), got + (k > 100 ? k - 100 : 0));
				fail();
			}
			free(got);
		}
	}
	free(want[0]);
	free(want[1]);
}

static char *write_tmp(const char *text, size_t len)
{
	char *p = pt_xstrdup("/tmp/pttrace-test-par.XXXXXX");
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return p;
}

#define ENV(n, kind) "V1122 02:47:" #n ".000000 9740 torch/_dynamo/x.py:" #n "] {\"" kind "\": {}, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0"

static void crafted_corners(void **state)
{
	const char *lf =
		"\tan orphan payload line\n"
		ENV(01, "dynamo_start") "}\n"
		"\n"
		ENV(02, "artifact") ", \"has_payload\": \"b026324c6904b2a9cb4b88d6d61c81d1\"}\n"
		"\t1\n"
		ENV(03, "artifact") ", \"has_payload\": \"00000000000000000000000000000000\"}\n"
		"\tline one\n"
		"\n"
		"\tline three, a blank line before\n"
		"\n"
		"\n"
		"garbage that is not an envelope\n"
		"\tpayload of nothing\n"
		"\tmore\n"
		"V1122 02:47:04.000000 9740 x.py:4] {\"str\": [\"/a/file.py\", 3]}\n"
		"V1122 02:47:05.000000 9740 x.py:5] {not json\n"
		ENV(06, "inductor_output_code") ", \"rank\": 3, \"has_payload\": \"d41d8cd98f00b204e9800998ecf8427e\"}\r\n"
		"\tcr at the end\r\n"	/* an LF file: kept; the envelope's CR above is not */
		ENV(07, "compilation_metrics") "}";	/* no final newline */
	const char *crlf =
		ENV(01, "dynamo_start") "}\r\n"
		ENV(02, "artifact") ", \"has_payload\": \"b026324c6904b2a9cb4b88d6d61c81d1\"}\r\n"
		"\t1\r\n"
		"\r\n"
		ENV(03, "artifact") "}\r\n";
	char *a = write_tmp(lf, strlen(lf)), *b = write_tmp(crlf, strlen(crlf)), *e = write_tmp("", 0);
	const char *one[] = {a};
	const char *many[] = {a, b, e, "/nonexistent/pttrace-test.log", a};

	(void)state;
	same_both_ways(one, 1);
	same_both_ways(many, 5);
	unlink(a);
	unlink(b);
	unlink(e);
	free(a);
	free(b);
	free(e);
}

static void walk(const char *dir, char ***v, size_t *n)
{
	DIR *dp = opendir(dir);
	struct dirent *e;

	if (!dp)
		return;
	while ((e = readdir(dp)) != NULL) {
		char *p;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		p = pt_xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			walk(p, v, n);
			free(p);
		} else if (strlen(p) > 4 && !strcmp(p + strlen(p) - 4, ".log")) {
			*v = pt_xreallocarray(*v, *n + 1, sizeof(**v));
			(*v)[(*n)++] = p;
		} else {
			free(p);
		}
	}
	closedir(dp);
}

static void every_fixture_same_in_parallel(void **state)
{
	const char *src = getenv("PT_SRC");
	char *dir, **v = NULL;
	size_t n = 0;

	(void)state;
	if (!src)
		skip();
	dir = pt_xasprintf("%s/tests/fixtures/traces", src);
	walk(dir, &v, &n);
	free(dir);
	if (!n)
		skip();
	for (size_t i = 0; i < n; i++)
		same_both_ways((const char *const *)&v[i], 1);
	/* All of them as one import: files in order, each its own stats. */
	same_both_ways((const char *const *)v, n);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A callback that fails stops everything; nothing leaks or hangs (ASan, the test's time). */
static int stop_at_3(void *ctx, const struct tt_record *r)
{
	(void)r;
	return ++*(int *)ctx >= 3 ? -1 : 0;
}

static void a_failing_callback_stops(void **state)
{
	struct pt_strbuf s;
	char *p;
	int calls = 0;
	struct pt_diag diag;
	struct tt_par_file f;
	struct tt_par_cbs cbs = {.record = stop_at_3, .ctx = &calls};

	(void)state;
	pt_strbuf_init(&s, 1u << 30);
	for (int i = 0; i < 20000; i++)
		assert_int_equal(pt_strbuf_add(&s, ENV(01, "dynamo_start") "}\n", strlen(ENV(01, "dynamo_start") "}\n")), 0);
	p = write_tmp(s.buf, s.len);
	f.path = f.name = p;
	f.copy_to = NULL;
	pt_diag_init(&diag);
	tt_par_set_chunk(1000);
	assert_int_equal(tt_par_read(&f, 1, 3, &cbs, &diag), -1);
	tt_par_set_chunk(0);
	assert_int_equal(calls, 3);
	pt_diag_release(&diag);
	pt_strbuf_release(&s);
	unlink(p);
	free(p);
}

/*
 * Lines over their cap (issue 34 N6): the reader thread keeps only their
 * head (tt_cut), yet the result is what one in-place reader over the whole
 * buffer gives (same records, line numbers, messages with the full sizes,
 * bytes): an envelope line over TT_MAX_LINE, in an LF and a CRLF file, and a
 * last line of NUL bytes without a newline.
 */
static char *inplace_whole(const char *path, const char *text, size_t len)
{
	struct digest d = {0};
	struct pt_diag diag;
	struct tt_reader r;
	uint8_t *buf = pt_xmalloc(len + 1);

	memcpy(buf, text, len);
	pt_strbuf_init(&d.s, 1u << 30);
	pt_diag_init(&diag);
	add(&d, "begin 0\n");
	tt_reader_init(&r, path, &diag, on_rec, &d);
	tt_reader_feed_inplace(&r, buf, len);
	tt_reader_finish(&r);
	add_stats(&d, &r.st);
	tt_reader_release(&r);
	add_diag(&d, &diag);
	pt_diag_release(&diag);
	free(buf);
	return (char *)pt_strbuf_str(&d.s);
}

static void over_cap_lines_cut_as_read(void **state)
{
	(void)state;
	for (int crlf = 0; crlf < 2; crlf++) {
		const char *eol = crlf ? "\r\n" : "\n";
		size_t big = TT_MAX_LINE + 100, tail = TT_MAX_LINE + 50, len = 0;
		char *buf = pt_xmalloc(big + tail + 1024), *p, *want;
		char head[512];

		len += (size_t)snprintf(buf + len, 512, "%s}%s", ENV(01, "dynamo_start"), eol);
		memset(buf + len, 'x', big);
		len += big;
		pt_fmt_trunc(head, sizeof(head), "%s%s}%s", eol, ENV(02, "dynamo_start"), eol);
		memcpy(buf + len, head, strlen(head));
		len += strlen(head);
		memset(buf + len, 0, tail);
		len += tail;
		p = write_tmp(buf, len);
		want = inplace_whole(p, buf, len);
		assert_non_null(strstr(want, "envelope line of 67108964 bytes, over the cap of 67108864: skipped"));
		assert_non_null(strstr(want, "last line (no newline) of 67108914 bytes, over the cap of 67108864"));
		for (size_t c = 0; c < 2; c++) {
			char *got = parallel((const char *const *)&p, 1, c ? 1000 : 0, c ? 1 : 2, 0);

			assert_string_equal(got, want);
			free(got);
		}
		free(want);
		unlink(p);
		free(p);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crafted_corners),
		cmocka_unit_test(every_fixture_same_in_parallel),
		cmocka_unit_test(a_failing_callback_stops),
		cmocka_unit_test(over_cap_lines_cut_as_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
