/*
 * TORCH_TRACE files parsed on all cores; see tt_parallel.h.
 *
 * Jobs live in a ring of SLOTS entries, numbered by a global sequence:
 * the reader thread fills job `produced` (waiting while the ring is full),
 * workers take job `taken` and parse it, this thread delivers job
 * `delivered` once it is parsed. Each chunk is parsed by a fresh
 * tt_reader that starts at the chunk's first line number and with the
 * file's line-ending policy, so records and messages come out exactly as
 * from one reader over the whole file: a chunk always starts at a line that
 * ends the previous record (neither blank nor a TAB line).
 */
#include "tt_parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fsutil.h"
#include "jobs.h"
#include "jsonarena.h"
#include "tt_envscan.h"
#include "xalloc.h"

#define CHUNK_DEFAULT (1u << 20)	/* bytes a chunk holds at least (but the last) */
#define MORE (64u << 10)		/* read step while looking for a record boundary */

static size_t CHUNK = CHUNK_DEFAULT;

void tt_par_set_chunk(size_t bytes)
{
	CHUNK = bytes >= 2 ? bytes : CHUNK_DEFAULT;
}
#define MAX_THREADS 256
#define MAX_SLOTS 16
#define POOL 4		/* chunk buffers kept for reuse */
#define MEMO_TOTAL (8u << 20)	/* payloads kept to skip hashing repeats, all threads */
#define MEMO_MIN (64u << 10)	/* ...but at least this per thread */

/*
 * One record kept for delivery: the record (its prefix, json and payload
 * point into the job's buffer, parsed in place; its strings into the job's
 * strblk list: the reader's intern table and, without keep_json, the
 * envelope object do not outlive the chunk) and the chunk's message count
 * before it.
 */
struct par_rec {
	struct tt_record rec;
	size_t ndiag;
};

/* The records' strings (kind, name, md5_declared, str_value), in blocks freed with the job. */
struct strblk {
	struct strblk *next;
	size_t used, size;
	char data[];
};
#define STRBLK (16u << 10)

struct job {
	size_t file;
	uint8_t *buf;		/* len + 1 bytes; the records point into it until delivered */
	size_t len, cap;	/* cap: buf's size */
	uint64_t base_line;	/* lines of the file before this chunk */
	int crlf;		/* the file's policy, -1 for the first chunk (the reader decides) */
	int first, last;
	int io_rc;		/* -1: reading or copying failed (or open: no_begin) */
	int no_begin;		/* the file could not be opened: no records, no begin() */
	struct tt_cut *cuts;	/* lines over their cap, shortened in buf (tt_reader.cuts) */
	size_t ncuts;
	uint64_t dropped;	/* the bytes they lost, counted in st.bytes */
	struct pt_diag io_diag;	/* the reader thread's messages, after the chunk's */
	/* results */
	int parsed;
	struct par_rec *recs;
	size_t nrecs, arecs;
	struct strblk *strs;
	int keep_json;
	struct pt_diag diag;
	struct tt_reader_stats st;
};

struct par {
	double cpu_read, cpu_parse;	/* thread CPU seconds, added under mu */
	const struct tt_par_file *files;
	size_t n;
	size_t slots;
	size_t memo_bytes;	/* each parsing thread's tt_md5_memo */
	int keep_json;		/* tt_par_cbs.keep_json */
	struct job *ring;
	/*
	 * Delivered chunks' buffers, for the reader's next chunks (under mu):
	 * a fresh 1 MiB buffer costs page faults and zeroed pages in read()
	 * (about 2 % of an import) each time glibc gives the last one back.
	 */
	struct pool_buf {
		uint8_t *buf;
		size_t cap;
	} pool[POOL];
	size_t npool;
	uint64_t produced, taken, delivered;
	int reader_done, stop;
	pthread_mutex_t mu;
	pthread_cond_t cv_space, cv_work, cv_done;
};

unsigned tt_par_default_threads(void)
{
	return pt_jobs(MAX_THREADS);
}

/*
 * Newlines in p[0..n), 16 bytes at a time with the compiler's portable
 * vectors (SSE2 on x86-64, NEON on arm64): each lane counts its matches in
 * a byte (a true compare is -1, subtracted), summed before a byte can wrap.
 * About 3x the speed of the 8-byte word trick it replaces (which was 3 % of
 * an import).
 */
typedef uint8_t v16u8 __attribute__((vector_size(16)));

static uint64_t count_lines(const uint8_t *p, size_t n)
{
	const v16u8 nl = {'\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n',
			  '\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n'};
	uint64_t c = 0;
	size_t i = 0;

	while (n - i >= 16) {
		v16u8 acc = {0};

		for (int k = 0; k < 255 && n - i >= 16; k++, i += 16) {
			v16u8 w;

			memcpy(&w, p + i, 16);
			acc -= (v16u8)(w == nl);
		}
		for (int l = 0; l < 16; l++)
			c += acc[l];
	}
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

/* A copy of s (or NULL) that lives as long as the job's records. */
static const char *job_str(struct job *j, const char *s)
{
	size_t n;
	struct strblk *b = j->strs;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	if (!b || b->size - b->used < n) {
		size_t size = n > STRBLK ? n : STRBLK;

		b = pt_xmalloc(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		b->next = j->strs;
		j->strs = b;
	}
	memcpy(b->data + b->used, s, n);
	b->used += n;
	return b->data + b->used - n;
}

static int collect(void *ctx, const struct tt_record *rec)
{
	struct job *j = ctx;
	struct par_rec *p;

	PT_GROW(j->recs, j->nrecs, j->arecs);
	p = &j->recs[j->nrecs++];
	p->rec = *rec;
	p->ndiag = j->diag.n;
	p->rec.str_value = job_str(j, rec->str_value);
	if (j->keep_json) {
		/* kind, name, meta and md5_declared point into the envelope object: keep it. */
		json_incref(rec->env);
	} else {
		/* The reader frees it here, on the thread that made it. */
		p->rec.kind = job_str(j, rec->kind);
		p->rec.name = job_str(j, rec->name);
		p->rec.md5_declared = job_str(j, rec->md5_declared);
		p->rec.env = p->rec.meta = NULL;
	}
	return 0;
}

/*
 * What a parsing thread keeps between its jobs: its memo of payloads, and
 * without keep_json its envelope scanner (tt_envscan.h; NULL when SQLite
 * could not open one: jansson parses every envelope then, with the same
 * result).
 */
struct tools {
	struct tt_md5_memo *memo;
	struct tt_envscan *scan;
};

static void tools_init(const struct par *P, struct tools *t)
{
	t->memo = tt_md5_memo_new(P->memo_bytes);
	t->scan = NULL;
	if (!P->keep_json) {
		struct pt_diag d;

		pt_diag_init(&d);
		t->scan = tt_envscan_new(&d);
		pt_diag_release(&d);
	}
}

static void tools_free(struct tools *t)
{
	tt_md5_memo_free(t->memo);
	tt_envscan_free(t->scan);
	t->memo = NULL;
	t->scan = NULL;
}

static void parse_job(struct par *P, struct job *j, const struct tools *t)
{
	struct tt_reader r;

	pt_diag_init(&j->diag);
	j->recs = NULL;
	j->nrecs = j->arecs = 0;
	j->strs = NULL;
	j->keep_json = P->keep_json;
	/*
	 * Without keep_json every envelope object is freed on this thread before
	 * the next line is parsed (collect copies what the records keep): its
	 * values come from this thread's JSON arena.
	 */
	if (!P->keep_json)
		pt_json_arena_enter();
	tt_reader_init(&r, P->files[j->file].name, &j->diag, collect, j);
	r.memo = t->memo;
	if (t->scan) {
		r.scan = tt_envscan;
		r.scan_ctx = t->scan;
	}
	r.crlf = j->crlf;
	r.st.lines = j->base_line;
	r.cuts = j->cuts;
	r.ncuts = j->ncuts;
	if (j->len)
		tt_reader_feed_inplace(&r, j->buf, j->len);
	tt_reader_finish(&r);
	j->st = r.st;
	j->st.bytes += j->dropped;
	tt_reader_release(&r);
	pt_json_arena_leave();
}

static void *worker(void *arg)
{
	struct par *P = arg;
	struct tools t;

	tools_init(P, &t);
	pthread_mutex_lock(&P->mu);
	for (;;) {
		while (!P->stop && P->taken == P->produced && !P->reader_done)
			pthread_cond_wait(&P->cv_work, &P->mu);
		if (P->stop || P->taken == P->produced)
			break;
		struct job *j = &P->ring[P->taken++ % P->slots];

		pthread_mutex_unlock(&P->mu);
		parse_job(P, j, &t);
		pthread_mutex_lock(&P->mu);
		j->parsed = 1;
		pthread_cond_broadcast(&P->cv_done);
	}
	P->cpu_parse += pt_thread_cpu_s();
	pthread_mutex_unlock(&P->mu);
	pt_json_arena_release();
	tools_free(&t);
	return NULL;
}

/* Hand a job to the workers; 0, or -1 when stopped. */
static int put_job(struct par *P, const struct job *src)
{
	pthread_mutex_lock(&P->mu);
	while (!P->stop && P->produced - P->delivered >= P->slots)
		pthread_cond_wait(&P->cv_space, &P->mu);
	if (P->stop) {
		pthread_mutex_unlock(&P->mu);
		return -1;
	}
	struct job *j = &P->ring[P->produced % P->slots];

	*j = *src;
	j->parsed = 0;
	P->produced++;
	pthread_cond_signal(&P->cv_work);
	pthread_cond_signal(&P->cv_done);	/* without workers, the caller parses */
	pthread_mutex_unlock(&P->mu);
	return 0;
}

/* A buffer of at least need bytes (its size in *cap): a pooled one, else a new one. */
static uint8_t *take_buf(struct par *P, size_t need, size_t *cap)
{
	uint8_t *b = NULL;

	pthread_mutex_lock(&P->mu);
	for (size_t i = 0; i < P->npool; i++)
		if (P->pool[i].cap >= need) {
			b = P->pool[i].buf;
			*cap = P->pool[i].cap;
			P->pool[i] = P->pool[--P->npool];
			break;
		}
	pthread_mutex_unlock(&P->mu);
	if (!b) {
		b = pt_xmalloc(need);
		*cap = need;
	}
	return b;
}

/* Keep a delivered chunk's buffer for take_buf (at most POOL, none much larger than a chunk's first fill); under mu. */
static void give_buf_locked(struct par *P, uint8_t *b, size_t cap, size_t fill)
{
	if (b && P->npool < POOL && cap <= 2 * (fill + 1)) {
		P->pool[P->npool].buf = b;
		P->pool[P->npool++].cap = cap;
		return;
	}
	free(b);
}

/* A chunk's first fill: CHUNK, the byte after, and a look-ahead for the boundary. */
static size_t first_fill(void)
{
	return CHUNK + 1 + (CHUNK < MORE ? CHUNK : MORE);
}

/* A line starting at p ends the record before it (parse/torchtrace.c, do_line): neither blank nor TAB. */
static int starts_record(uint8_t c)
{
	return c != '\t' && c != '\n' && c != '\r';
}

/*
 * Lines over their cap are not held (issue 34 N6: a 1 GB tail of NUL bytes
 * without a newline, what a crash can leave, took 1 GB of memory): once the
 * line being read is longer than any cap the reader applies to it (an
 * envelope line's, or a payload's for a TAB line), only its first CUT_HEAD
 * bytes stay in the buffer and the rest up to its newline is dropped as it
 * is read (the copy still gets every byte); the reader is told (tt_cut) and
 * judges the line by its full length. Memory stays at the chunks'.
 */
#define CUT_HEAD 16
static uint64_t CUT_LINE = TT_MAX_LINE + 1ull, CUT_PAYLOAD = TT_MAX_PAYLOAD + 1ull;

void tt_par_set_cut(uint64_t line, uint64_t payload)
{
	CUT_LINE = line ? line : TT_MAX_LINE + 1ull;
	CUT_PAYLOAD = payload ? payload : TT_MAX_PAYLOAD + 1ull;
}

struct cutter {
	size_t line_start;	/* offset in buf of the line not yet ended */
	int dropping;		/* its bytes past CUT_HEAD are being dropped */
	uint64_t dropped;	/* how many so far */
	uint8_t last;		/* the last byte dropped (a CR is put back before the newline) */
	struct tt_cut *v;	/* cuts in buf, by offset */
	size_t n, alloc;
};

/* buf[from..len) was just read: drop what the cap says; returns the new len (<= len + 1). */
static size_t cut_step(struct cutter *c, uint8_t *buf, size_t from, size_t len)
{
	size_t i = from;

	while (i < len) {
		if (!c->dropping) {
			const uint8_t *nl = memrchr(buf + i, '\n', len - i);
			uint64_t cap;

			if (nl)
				c->line_start = (size_t)(nl - buf) + 1;
			if (c->line_start >= len)
				return len;
			cap = buf[c->line_start] == '\t' ? CUT_PAYLOAD : CUT_LINE;
			if (len - c->line_start <= cap)
				return len;
			c->dropping = 1;
			c->dropped = len - (c->line_start + CUT_HEAD);
			c->last = buf[len - 1];
			return c->line_start + CUT_HEAD;
		}
		const uint8_t *nl = memchr(buf + i, '\n', len - i);
		size_t k, at, rest;

		if (!nl) {
			c->dropped += len - i;
			c->last = buf[len - 1];
			return i;
		}
		k = (size_t)(nl - (buf + i));
		if (k) {
			c->dropped += k;
			c->last = buf[i + k - 1];
		}
		rest = len - (i + k);	/* the newline and after */
		at = i;
		if (c->last == '\r') {
			/* The line's CR stays before its newline: CRLF files stay CRLF. */
			memmove(buf + i + 1, buf + i + k, rest);
			buf[i] = '\r';
			c->dropped--;
			at = i + 1;
		} else {
			memmove(buf + i, buf + i + k, rest);
		}
		len = at + rest;
		PT_GROW(c->v, c->n, c->alloc);
		c->v[c->n].at = at;
		c->v[c->n++].dropped = c->dropped;
		c->dropping = 0;
		c->dropped = 0;
		c->line_start = at + 1;
		i = at + 1;
	}
	return len;
}

/* The line not yet ended, shortened, at the end of the file. */
static void cut_eof(struct cutter *c, size_t len)
{
	if (!c->dropping)
		return;
	PT_GROW(c->v, c->n, c->alloc);
	c->v[c->n].at = len;
	c->v[c->n++].dropped = c->dropped;
	c->dropping = 0;
	c->dropped = 0;
}

/* The cuts before b go to job j; the others stay, moved to offsets in the rest after b. */
static void cut_split(struct cutter *c, struct job *j, size_t b)
{
	size_t k = 0;

	while (k < c->n && c->v[k].at <= b)	/* at == b: the last line, without a newline */
		k++;
	j->cuts = NULL;
	j->ncuts = 0;
	j->dropped = 0;
	if (k) {
		j->cuts = pt_xmalloc(k * sizeof(*j->cuts));
		memcpy(j->cuts, c->v, k * sizeof(*j->cuts));
		j->ncuts = k;
		for (size_t i = 0; i < k; i++)
			j->dropped += c->v[i].dropped;
	}
	for (size_t i = k; i < c->n; i++) {
		c->v[i - k] = c->v[i];
		c->v[i - k].at -= b;
	}
	c->n -= k;
	if (c->line_start >= b)
		c->line_start -= b;
	else
		c->line_start = 0;
}

/* Read, copy and cut one file into jobs. 0, or -1 when stopped. */
static int read_file(struct par *P, size_t fi)
{
	const struct tt_par_file *f = &P->files[fi];
	struct job j = {.file = fi, .first = 1, .crlf = -1};
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, scan = 0;
	int fd, out = -1, eof = 0, crlf = -1;
	struct stat st;
	const size_t fill = first_fill();
	struct cutter cut = {0};

	pt_diag_init(&j.io_diag);
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		pt_diag_add(&j.io_diag, PT_SEV_ERROR, f->path, NULL, "cannot read: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		j.last = 1;
		j.io_rc = -1;
		j.no_begin = 1;
		return put_job(P, &j);
	}
	if (f->copy_to) {
		out = open(f->copy_to, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (out < 0) {
			pt_diag_add(&j.io_diag, PT_SEV_ERROR, f->copy_to, NULL, "cannot create: %s",
				    strerror(errno));
			close(fd);
			j.last = 1;
			j.io_rc = -1;
			j.no_begin = 1;
			return put_job(P, &j);
		}
	}
	buf = take_buf(P, fill + 1, &cap);
	for (;;) {
		/*
		 * Fill: past CHUNK by a little more (the next record start is most
		 * often there: no second read, no buffer grown and copied), then
		 * MORE at a time while no boundary is found.
		 */
		size_t need = len < fill ? fill : len + 1, b = 0;

		while (!eof && len < need) {
			size_t want = need - len > MORE ? need - len : MORE;
			ssize_t n;

			PT_RESERVE(buf, len + want + 2, cap);	/* + 1: parsed in place, + 1: a CR put back */
			n = read(fd, buf + len, want);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				pt_diag_add(&j.io_diag, PT_SEV_ERROR, f->path, NULL, "read: %s",
					    strerror(errno));
				j.io_rc = -1;
				eof = 1;
				break;
			}
			if (n == 0) {
				eof = 1;
				break;
			}
			if (out >= 0 && pt_write_all(out, buf + len, (size_t)n) < 0) {
				pt_diag_add(&j.io_diag, PT_SEV_ERROR, f->copy_to, NULL,
					    "copy from '%s' failed: %s", f->path, strerror(errno));
				j.io_rc = -1;
				eof = 1;
				break;
			}
			len = cut_step(&cut, buf, len, len + (size_t)n);
		}
		if (eof)
			cut_eof(&cut, len);
		if (crlf < 0 && j.first) {
			const uint8_t *nl = memchr(buf, '\n', len);

			if (nl)
				crlf = nl > buf && nl[-1] == '\r';
		}
		if (len > CHUNK) {
			/* The first record start at or after CHUNK. */
			size_t from = scan > CHUNK - 1 ? scan : CHUNK - 1;
			const uint8_t *nl;

			while (from + 1 < len && (nl = memchr(buf + from, '\n', len - 1 - from))) {
				size_t at = (size_t)(nl - buf);

				if (starts_record(buf[at + 1])) {
					b = at + 1;
					break;
				}
				from = at + 1;
			}
		}
		if (!b) {
			if (!eof) {
				scan = len ? len - 1 : 0;
				continue;	/* one record goes on: read more */
			}
			b = len;
		}
		uint8_t *rest = NULL;
		size_t nrest = len - b, rest_cap = 0;

		if (nrest) {
			rest = take_buf(P, nrest >= fill ? nrest + 1 : fill + 1, &rest_cap);
			memcpy(rest, buf + b, nrest);
		}
		j.buf = buf;
		j.cap = cap;
		j.len = b;
		j.last = eof && nrest == 0;
		j.crlf = j.first ? -1 : crlf;
		cut_split(&cut, &j, b);
		uint64_t lines = count_lines(buf, b);
		if (put_job(P, &j) < 0) {
			free(rest);
			free(j.cuts);
			free(cut.v);
			/* put_job did not take the buffer */
			free(buf);
			pt_diag_release(&j.io_diag);
			if (out >= 0)
				close(out);
			close(fd);
			return -1;
		}
		pt_diag_init(&j.io_diag);
		if (j.last)
			break;
		j.base_line += lines;
		j.first = 0;
		buf = rest;
		len = nrest;
		cap = rest_cap;
		scan = 0;
	}
	if (out >= 0) {
		/* Keep the source's mtime: it dates the year-less glog times. */
		struct timespec t[2] = {st.st_atim, st.st_mtim};

		futimens(out, t);
		close(out);
	}
	close(fd);
	free(cut.v);
	return 0;
}

static void *reader(void *arg)
{
	struct par *P = arg;

	for (size_t i = 0; i < P->n; i++)
		if (read_file(P, i) < 0)
			break;
	pthread_mutex_lock(&P->mu);
	P->cpu_read += pt_thread_cpu_s();
	P->reader_done = 1;
	pthread_cond_broadcast(&P->cv_work);
	pthread_cond_broadcast(&P->cv_done);	/* this thread may wait for the end */
	pthread_mutex_unlock(&P->mu);
	return NULL;
}

/*
 * glibc gives each thread that allocates while the others hold their arenas
 * an arena of its own, up to 8 per CPU, and each keeps the chunks freed into
 * it (the envelope objects the writer frees go back to the worker's arena):
 * with PT_JOBS=8 on 2 CPUs that took the import's peak RSS over 64 MB. One
 * arena per CPU, at most 8, is enough for the threads that run at once.
 * The one place this process sets it (process-wide, before the threads).
 */
static pthread_once_t arenas_once = PTHREAD_ONCE_INIT;

static void cap_arenas(void)
{
	mallopt(M_ARENA_MAX, (int)pt_cpus(8));
}

static void flush_diag(struct pt_diag *to, const struct pt_diag *from, size_t *done, size_t upto)
{
	for (; *done < upto && *done < from->n; (*done)++) {
		const struct pt_diag_msg *m = &from->v[*done];

		pt_diag_add(to, m->sev, m->file, m->where, "%s", m->what);
	}
}

/* The records of a parsed job (not the buffer they point into). */
static void free_recs(struct job *j)
{
	for (size_t i = 0; i < j->nrecs; i++)
		json_decref(j->recs[i].rec.env);
	for (struct strblk *b = j->strs, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	j->strs = NULL;
	free(j->recs);
	j->recs = NULL;
	j->nrecs = j->arecs = 0;
}

int tt_par_read(const struct tt_par_file *files, size_t n, unsigned threads,
		   const struct tt_par_cbs *cbs, struct pt_diag *diag)
{
	struct par P = {.files = files, .n = n, .keep_json = cbs->keep_json};
	unsigned nw = threads ? threads : tt_par_default_threads(), started = 0, busy;
	pthread_t rt, *wt;
	struct tt_reader_stats acc = {0};
	int rc = 0, stopped = 0;
	double cpu0 = pt_thread_cpu_s(), inline_parse = 0;
	struct tools here = {0};	/* parsing here: no worker threads */

	if (!n)
		return 0;
	if (nw > MAX_THREADS)
		nw = MAX_THREADS;
	/*
	 * Chunks in flight: enough to keep the workers that can run at once
	 * (no more than the CPUs, whatever PT_JOBS asks) and the writer busy,
	 * few enough that memory stays flat (about 1 MiB of bytes each, parsed
	 * in place, and the records' envelope objects) however many CPUs there
	 * are; the one writer is the limit long before 16 chunks of parsing are.
	 */
	busy = nw < pt_cpus(MAX_THREADS) ? nw : pt_cpus(MAX_THREADS);
	P.slots = 2 * (size_t)busy + 2 < MAX_SLOTS ? 2 * (size_t)busy + 2 : MAX_SLOTS;
	pthread_once(&arenas_once, cap_arenas);
	pt_json_arena_install();	/* jansson's hooks: set before the threads start */
	P.ring = pt_xcalloc(P.slots, sizeof(*P.ring));
	/* MEMO_TOTAL of repeated payloads kept, shared out: memory stays flat however many CPUs. */
	P.memo_bytes = MEMO_TOTAL / (nw ? nw : 1);
	if (P.memo_bytes < MEMO_MIN)
		P.memo_bytes = MEMO_MIN;
	pthread_mutex_init(&P.mu, NULL);
	pthread_cond_init(&P.cv_space, NULL);
	pthread_cond_init(&P.cv_work, NULL);
	pthread_cond_init(&P.cv_done, NULL);
	wt = pt_xcalloc(nw, sizeof(*wt));
	if (pthread_create(&rt, NULL, reader, &P) != 0) {
		/* No threads at all: read here first (no stop is possible before delivery). */
		pt_diag_add(diag, PT_SEV_ERROR, files[0].path, NULL, "cannot start a thread");
		free(wt);
		free(P.ring);
		return -1;
	}
	for (unsigned k = 0; k < nw; k++)
		if (pthread_create(&wt[k], NULL, worker, &P) == 0)
			started++;
	if (!started) {
		/* Parse on this thread instead. */
		nw = 0;
	}
	for (;;) {
		struct job *j;

		pthread_mutex_lock(&P.mu);
		for (;;) {
			if (P.delivered < P.produced && P.ring[P.delivered % P.slots].parsed)
				break;
			if (P.delivered == P.produced && P.reader_done)
				break;
			if (!started && P.taken < P.produced) {
				/* No worker threads: parse the next job here. */
				struct job *w = &P.ring[P.taken++ % P.slots];

				double t0 = pt_thread_cpu_s();

				pthread_mutex_unlock(&P.mu);
				if (!here.memo)
					tools_init(&P, &here);
				parse_job(&P, w, &here);
				pthread_mutex_lock(&P.mu);
				inline_parse += pt_thread_cpu_s() - t0;
				w->parsed = 1;
				continue;
			}
			pthread_cond_wait(&P.cv_done, &P.mu);
		}
		if (P.delivered == P.produced) {
			pthread_mutex_unlock(&P.mu);
			break;
		}
		j = &P.ring[P.delivered % P.slots];
		pthread_mutex_unlock(&P.mu);

		size_t fl = 0;

		if (j->first)
			memset(&acc, 0, sizeof(acc));
		if (!stopped && j->first && !j->no_begin) {
			if (cbs->begin && cbs->begin(cbs->ctx, j->file) != 0)
				stopped = 1;
		}
		for (size_t k = 0; k < j->nrecs && !stopped; k++) {
			flush_diag(diag, &j->diag, &fl, j->recs[k].ndiag);
			if (cbs->record && cbs->record(cbs->ctx, &j->recs[k].rec) < 0)
				stopped = 1;
		}
		if (!stopped) {
			flush_diag(diag, &j->diag, &fl, j->diag.n);
			diag->dropped += j->diag.dropped;
			pt_diag_take(diag, &j->io_diag);
			acc.lines = j->st.lines;
			acc.records += j->st.records;
			acc.blank_lines += j->st.blank_lines;
			acc.damaged += j->st.damaged;
			acc.orphan_payload_lines += j->st.orphan_payload_lines;
			acc.payloads += j->st.payloads;
			acc.md5_mismatches += j->st.md5_mismatches;
			acc.bytes += j->st.bytes;
			if (cbs->progress)
				cbs->progress(cbs->ctx, j->file, acc.bytes);
			if (j->last && cbs->end && cbs->end(cbs->ctx, j->file, &acc, j->io_rc) != 0)
				stopped = 1;
		}
		free_recs(j);
		pt_diag_release(&j->diag);
		pt_diag_release(&j->io_diag);
		free(j->cuts);
		j->cuts = NULL;
		pthread_mutex_lock(&P.mu);
		give_buf_locked(&P, j->buf, j->cap, first_fill());
		j->buf = NULL;
		P.delivered++;
		if (stopped)
			P.stop = 1;
		pthread_cond_broadcast(&P.cv_space);
		pthread_cond_broadcast(&P.cv_work);
		pthread_mutex_unlock(&P.mu);
		if (stopped) {
			rc = -1;
			break;
		}
	}
	pthread_join(rt, NULL);
	for (unsigned k = 0; k < started; k++)
		pthread_join(wt[k], NULL);
	if (cbs->cpu) {
		cbs->cpu->read += P.cpu_read;
		cbs->cpu->parse += P.cpu_parse + inline_parse;
		cbs->cpu->deliver += pt_thread_cpu_s() - cpu0 - inline_parse;
	}
	/* After a stop: jobs read but not delivered (parsed or not). */
	for (uint64_t s = P.delivered; s < P.produced; s++) {
		struct job *j = &P.ring[s % P.slots];

		if (j->parsed) {
			free_recs(j);
			pt_diag_release(&j->diag);
		}
		free(j->buf);
		free(j->cuts);
		pt_diag_release(&j->io_diag);
	}
	for (size_t i = 0; i < P.npool; i++)
		free(P.pool[i].buf);
	tools_free(&here);
	if (!started)
		pt_json_arena_release();	/* parsed on this thread */
	free(wt);
	free(P.ring);
	pthread_mutex_destroy(&P.mu);
	pthread_cond_destroy(&P.cv_space);
	pthread_cond_destroy(&P.cv_work);
	pthread_cond_destroy(&P.cv_done);
	return rc;
}
