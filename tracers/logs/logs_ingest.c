/*
 * Lines → records; see logs_ingest.h. Per stream: a line splitter, one open
 * record (a group of lines still growing), the dispatcher call stack and a
 * torn dispatcher head waiting for its tail.
 */
#include "logs_ingest.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

#include "db_feed.h"
#include "dispatch.h"
#include "schema.h"
#include "lines.h"
#include "logs_query.h"
#include "numparse.h"
#include "rundir.h"
#include "spool.h"
#include "diag.h"
#include "strbuf.h"
#include "torchlogs.h"
#include "xalloc.h"

#define NO_GROUP LOGS_NKINDS
#define BATCH_ROWS 1024		/* records (or calls, or updates) of one batch */
#define NBATCH 4		/* batches: one filled by the parser, the others queued or written */
#define ARENA_FLUSH (1u << 20)	/* bytes of waiting text that make a batch go */
/* Integer columns of a waiting record, in ins_record's order (id first). */
enum { P_ID, P_NLINES, P_STREAM, P_OFF, P_LEN, P_LEVEL, P_TS, P_PID, P_SRCLINE, P_RANK,
       P_CA, P_FRAME, P_COMPILE, P_ATTEMPT, PEND_NINT };
#define STACK_MAX 256

enum tb_state { TB_FRAMES = 1, TB_DONE, WARN_SOURCE,
	CRASH_TERMINATE,	/* after "terminate called ...": until faulthandler's header */
	CRASH_DUMP,		/* faulthandler's dump: thread headers, frames, module list */
	CRASH_THREAD,		/* ...in the crashed thread's frames: the first names the place */
};
#define CRASH_TERMINATE_MAX 400	/* lines of std::terminate's message kept waiting for the dump */

struct group {
	enum logs_kind kind;	/* NO_GROUP when none is open */
	int64_t seq, nlines;
	uint64_t off, len;
	struct pt_strbuf key, text, file, artifact;
	int64_t level, ts_us, pid, src_line, rank;
	struct compileid cid;
	enum tb_state tb;
	int64_t tb_lines;	/* lines in the current tb state */
	/*
	 * Shown early (logs_ingest_idle): the record row of the group so far
	 * (0: none) and its nlines then; group_emit completes that row.
	 */
	int64_t shown_id, shown_nlines;
};

struct stream_state {
	struct logs_ingest *ig;
	int stream;
	struct lines ls;
	struct group g;
	int in_split;		/* inside an over-long line */
	struct pt_strbuf torn_head;	/* a call torn off at the end of a line... */
	int64_t torn_call;		/* ...and its dispatch_calls row, to complete from the tail */
	struct { int depth; int64_t id; } stack[STACK_MAX];
	int sp;
};

/* Rows and updates waiting to go in, with their text (offsets into arena). */
struct pend_record { int64_t v[PEND_NINT]; const char *kind; size_t file_off, file_len,
	art_off, art_len, text_off, text_len; };
struct pend_call { int64_t id, record_id, depth, parent, torn; const char *label;
	size_t op_off, op_len, ovl_off, ovl_len, key_off, key_len; };
/*
 * An update of a row already queued: a record shown early (text a, src_file
 * b and src_line: a crash's place comes after its first line), or a torn
 * call (op a, overload b, key c).
 */
enum { UPD_RECORD, FIX_CALL };
struct pend_update { int what; int64_t id, nlines, len, src_line; size_t a_off, a_len, b_off, b_len,
	c_off, c_len; };

/*
 * One batch: the writer inserts its records, then its calls, then runs its
 * updates (every update is of a row queued before it, in this batch or an
 * earlier one), then ticks the transaction (db_batch_tick) and, when
 * pause is set, commits and holds no transaction (logs_ingest_idle).
 */
struct batch {
	struct pend_record rec[BATCH_ROWS];
	struct pend_call call[BATCH_ROWS];
	struct pend_update upd[BATCH_ROWS];
	size_t nrec, ncall, nupd;
	char *arena;
	size_t alen, acap;
	int pause;
};

struct logs_ingest {
	struct db *ix;
	int64_t run_id, ref_us;
	long tz_off_s;
	int64_t seq;
	struct stream_state ss[3];
	struct logs_ingest_stats stats;
	/*
	 * The pipeline: the caller's thread splits and parses lines into
	 * batches (cur); the writer thread puts them into SQLite, in order,
	 * on the connection ix, which nothing else uses while it runs. Row ids
	 * are ours (LOGS_ID: the run and the record's seq or the call's
	 * number), so a dispatcher call knows its record's id before the
	 * record is written.
	 */
	struct batch b[NBATCH], *cur;
	pthread_t writer;
	int writer_on;
	pthread_mutex_t mu;
	pthread_cond_t cond;
	uint64_t head, tail;	/* under mu: batches b[head..tail) % NBATCH wait for the writer */
	int stop;		/* under mu: the writer ends once the queue is empty */
	int handoff;		/* under mu: the writer ends after its batch (another takes over) */
	int wfailed;		/* under mu: the writer failed (diag of ix) */
	double writer_cpu_s;	/* the writer's CPU time, once joined */
	uint64_t sent_rows;	/* rows handed over since the last pause */
	uint64_t pause_ns;	/* when the last pause was asked for */
	int64_t next_call_id;
	/* The writer's statements, and the feeds its two INSERTs read a batch from. */
	struct db_feed *feed_records, *feed_calls;
	struct db_stmt *ins_records, *ins_calls, *fix_call, *upd_record;
	int failed;
};

static const char *const kind_names[] = { "other", "log", "dispatch", "cpp", "traceback", "warning",
					  "crash" };

const char *logs_kind_name(enum logs_kind k)
{
	return (unsigned)k < LOGS_NKINDS ? kind_names[k] : "?";
}

/*
 * The writer's inserts read each batch through two row feeds (db.h): one
 * statement per table takes the whole batch, SQLite reading the values as
 * from a table (no binding, no VALUES rows).
 */
#define REC_COLUMNS "id, nlines, stream, off, len, kind, level, ts_us, pid, src_file, src_line," \
	" rank, ca_id, frame_id, frame_compile_id, attempt, artifact, text"
#define CALL_COLUMNS "id, record_id, label, op, overload, dispatch_key, depth, parent_id, torn"
static const char ins_record_sql[] =
	"INSERT INTO records(" REC_COLUMNS ") SELECT * FROM pt_feed_records";
static const char ins_call_sql[] =
	"INSERT INTO dispatch_calls(" CALL_COLUMNS ") SELECT * FROM pt_feed_calls";

static const char fix_call_sql[] =
	"UPDATE dispatch_calls SET op = ?2, overload = ?3, dispatch_key = ?4 WHERE id = ?1";
static const char upd_record_sql[] =
	"UPDATE records SET nlines = ?2, len = ?3, text = ?4, src_file = ?5, src_line = ?6 WHERE id = ?1";

static void group_init(struct group *g)
{
	memset(g, 0, sizeof(*g));
	g->kind = NO_GROUP;
	pt_strbuf_init(&g->key, 64 * 1024);
	pt_strbuf_init(&g->text, LOGS_MAX_TEXT);
	pt_strbuf_init(&g->file, 4096);
	pt_strbuf_init(&g->artifact, 256);
}

static void group_release(struct group *g)
{
	pt_strbuf_release(&g->key);
	pt_strbuf_release(&g->text);
	pt_strbuf_release(&g->file);
	pt_strbuf_release(&g->artifact);
}

/* Text into the batch being filled; its offset. */
static size_t arena_add(struct logs_ingest *ig, const void *p, size_t n)
{
	struct batch *b = ig->cur;
	size_t off = b->alen;

	PT_RESERVE(b->arena, b->alen + n, b->acap);
	if (n)
		memcpy(b->arena + b->alen, p, n);
	b->alen += n;
	return off;
}

/* A value for a feed: -1 is NULL (the nullable integers); text of n bytes at a (NULL: NULL). */
static void val_int(struct db_val *out, int64_t v)
{
	if (v != -1) {
		out->type = DB_VAL_INT;
		out->i = v;
	}
}

static void val_text(struct db_val *out, const char *a, size_t n)
{
	if (a) {
		out->type = DB_VAL_TEXT;
		out->s = a;
		out->n = n;
	}
}

/* Column col of the batch's record row (REC_COLUMNS' order). */
static void record_col(const void *rows, size_t row, int col, struct db_val *out)
{
	const struct batch *b = rows;
	const struct pend_record *r = &b->rec[row];
	static const signed char ints[] = { P_ID, P_NLINES, P_STREAM, P_OFF, P_LEN, -1, P_LEVEL,
					    P_TS, P_PID, -1, P_SRCLINE, P_RANK, P_CA, P_FRAME,
					    P_COMPILE, P_ATTEMPT, -1, -1 };

	if (col < 0 || col >= (int)sizeof(ints))
		PT_BUG("records feed: column %d", col);
	if (col <= 4) {		/* id .. len: never NULL */
		out->type = DB_VAL_INT;
		out->i = r->v[ints[col]];
		return;
	}
	if (ints[col] >= 0) {
		val_int(out, r->v[ints[col]]);
		return;
	}
	switch (col) {
	case 5:
		val_text(out, r->kind, strlen(r->kind));
		break;
	case 9:
		val_text(out, r->file_len ? b->arena + r->file_off : NULL, r->file_len);
		break;
	case 16:
		val_text(out, r->art_len ? b->arena + r->art_off : NULL, r->art_len);
		break;
	default:
		val_text(out, b->arena + r->text_off, r->text_len);
		break;
	}
}

/* Column col of the batch's dispatch_calls row (CALL_COLUMNS' order). */
static void call_col(const void *rows, size_t row, int col, struct db_val *out)
{
	const struct batch *b = rows;
	const struct pend_call *c = &b->call[row];
	const char *a = b->arena;

	switch (col) {
	case 0:
		out->type = DB_VAL_INT;
		out->i = c->id;
		break;
	case 1:
		out->type = DB_VAL_INT;
		out->i = c->record_id;
		break;
	case 2:
		val_text(out, c->label, strlen(c->label));
		break;
	case 3:
		val_text(out, a + c->op_off, c->op_len);
		break;
	case 4:
		val_text(out, a + c->ovl_off, c->ovl_len);
		break;
	case 5:
		val_text(out, c->key_len ? a + c->key_off : NULL, c->key_len);
		break;
	case 6:
		val_int(out, c->depth);
		break;
	case 7:
		val_int(out, c->parent);
		break;
	case 8:
		out->type = DB_VAL_INT;
		out->i = c->torn;
		break;
	default:
		PT_BUG("dispatch_calls feed: column %d", col);
	}
}

/* One batch into the index (writer thread). 0 or -1 (diag of ix). */
static int write_batch(struct logs_ingest *ig, const struct batch *b)
{
	const char *a = b->arena;

	if (db_batch_write(ig->ix) < 0 ||
	    db_feed_run(ig->feed_records, ig->ins_records, b, b->nrec) < 0 ||
	    db_feed_run(ig->feed_calls, ig->ins_calls, b, b->ncall) < 0)
		return -1;
	for (size_t i = 0; i < b->nupd; i++) {
		const struct pend_update *u = &b->upd[i];
		int rc = u->what == UPD_RECORD
			 ? db_run(ig->upd_record, "iiiTTI", u->id, u->nlines, u->len, a + u->a_off, u->a_len,
				  u->b_len ? a + u->b_off : NULL, u->b_len, u->src_line)
			 : db_run(ig->fix_call, "iTTT", u->id, a + u->a_off, u->a_len, a + u->b_off,
				  u->b_len, a + u->c_off, u->c_len);

		if (rc < 0)
			return -1;
	}
	if (db_batch_tick(ig->ix, b->nrec + b->ncall + b->nupd) < 0)
		return -1;
	return b->pause ? db_batch_pause(ig->ix) : 0;
}

static void *writer_main(void *arg)
{
	struct logs_ingest *ig = arg;

	for (;;) {
		const struct batch *b;
		int rc;

		pthread_mutex_lock(&ig->mu);
		while (ig->head == ig->tail && !ig->stop && !ig->handoff)
			pthread_cond_wait(&ig->cond, &ig->mu);
		if (ig->head == ig->tail || ig->handoff) {
			pthread_mutex_unlock(&ig->mu);
			break;
		}
		b = &ig->b[ig->head % NBATCH];
		pthread_mutex_unlock(&ig->mu);
		rc = write_batch(ig, b);
		pthread_mutex_lock(&ig->mu);
		ig->head++;
		if (rc < 0)
			ig->wfailed = 1;
		pthread_cond_broadcast(&ig->cond);
		pthread_mutex_unlock(&ig->mu);
		if (rc < 0)
			break;
	}
	ig->writer_cpu_s = pt_thread_cpu_s();
	return NULL;
}

/*
 * Hand the batch being filled to the writer (pause: then commit, hold no
 * transaction) and take the next free one, waiting while all are queued.
 * 0, or -1 when the writer failed.
 */
static int submit(struct logs_ingest *ig, int pause)
{
	struct batch *b = ig->cur;
	int rc;

	if (!b->nrec && !b->ncall && !b->nupd && !pause)
		return 0;
	b->pause = pause;
	ig->sent_rows = pause ? 0 : ig->sent_rows + b->nrec + b->ncall + b->nupd;
	pthread_mutex_lock(&ig->mu);
	ig->tail++;
	pthread_cond_broadcast(&ig->cond);
	while (ig->tail - ig->head >= NBATCH && !ig->wfailed)
		pthread_cond_wait(&ig->cond, &ig->mu);
	rc = ig->wfailed ? -1 : 0;
	pthread_mutex_unlock(&ig->mu);
	b = ig->cur = &ig->b[ig->tail % NBATCH];
	b->nrec = b->ncall = b->nupd = b->alen = 0;
	b->pause = 0;
	return rc;
}

/*
 * End the writer: once it has written all that was handed over (stop), or
 * after the batch it is on (handoff: another writer goes on with the
 * queue). Joined. 0, or -1 when it failed.
 */
static int writer_end(struct logs_ingest *ig, int handoff)
{
	if (!ig->writer_on)
		return 0;
	pthread_mutex_lock(&ig->mu);
	*(handoff ? &ig->handoff : &ig->stop) = 1;
	pthread_cond_broadcast(&ig->cond);
	pthread_mutex_unlock(&ig->mu);
	pthread_join(ig->writer, NULL);
	ig->writer_on = 0;
	ig->handoff = 0;
	ig->stats.writer_cpu_seconds += ig->writer_cpu_s;
	return ig->wfailed ? -1 : 0;
}

static int writer_stop(struct logs_ingest *ig)
{
	return writer_end(ig, 0);
}

/* A writer thread, created by the calling thread (so with its priority). */
static int writer_start(struct logs_ingest *ig)
{
	if (pthread_create(&ig->writer, NULL, writer_main, ig) != 0) {
		pt_diag_add(db_diag(ig->ix), PT_SEV_ERROR, NULL, NULL,
			    "cannot start the index writer thread");
		return -1;
	}
	ig->writer_on = 1;
	return 0;
}

int logs_ingest_writer_here(struct logs_ingest *ig)
{
	if (ig->failed || !ig->writer_on)
		return ig->failed ? -1 : 0;
	if (writer_end(ig, 1) < 0 || writer_start(ig) < 0) {
		ig->failed = 1;
		return -1;
	}
	return 0;
}

static int flush_if_full(struct logs_ingest *ig)
{
	const struct batch *b = ig->cur;

	if (b->nrec == BATCH_ROWS || b->ncall == BATCH_ROWS || b->nupd == BATCH_ROWS ||
	    b->alen >= ARENA_FLUSH)
		return submit(ig, 0);
	return 0;
}

/* Update the record id shown early: its lines so far. */
static int queue_update(struct logs_ingest *ig, int64_t id, const struct group *g)
{
	struct pend_update *u = &ig->cur->upd[ig->cur->nupd++];

	u->what = UPD_RECORD;
	u->id = id;
	u->nlines = g->nlines;
	u->len = (int64_t)g->len;
	u->a_len = g->text.len;
	u->a_off = arena_add(ig, g->text.buf, g->text.len);
	u->b_len = g->file.len;
	u->b_off = g->file.len ? arena_add(ig, g->file.buf, g->file.len) : 0;
	u->src_line = g->src_line;
	return flush_if_full(ig);
}

/* One records row: a group's fields, or a single line's (the others -1 or empty). */
struct rec_fields {
	enum logs_kind kind;
	int64_t seq, nlines;
	uint64_t off, len;
	int64_t level, ts_us, pid, src_line, rank;
	const char *file, *art, *text;	/* NULL when absent */
	size_t file_len, art_len, text_len;
	const struct compileid *cid;	/* NULL: none */
};

static void rec_of_group(const struct group *g, struct rec_fields *f)
{
	*f = (struct rec_fields){
		.kind = g->kind, .seq = g->seq, .nlines = g->nlines, .off = g->off, .len = g->len,
		.level = g->level, .ts_us = g->ts_us, .pid = g->pid, .src_line = g->src_line,
		.rank = g->rank, .cid = &g->cid,
		.file = g->file.len ? g->file.buf : NULL, .file_len = g->file.len,
		.art = g->artifact.len ? g->artifact.buf : NULL, .art_len = g->artifact.len,
		.text = pt_strbuf_str(&g->text), .text_len = g->text.len,
	};
}

static void rec_of_line(enum logs_kind kind, int64_t seq, const struct line *l, int64_t nlines,
			int64_t level, struct rec_fields *f)
{
	*f = (struct rec_fields){
		.kind = kind, .seq = seq, .nlines = nlines, .off = l->off, .len = l->raw_len,
		.level = level, .ts_us = -1, .pid = -1, .src_line = -1, .rank = -1,
		.text = (const char *)l->p, .text_len = l->len,
	};
}

static int queue_record(struct logs_ingest *ig, int stream, const struct rec_fields *f, int64_t *id)
{
	static const struct compileid none = { -1, -1, -1, -1 };
	const struct compileid *cid = f->cid ? f->cid : &none;
	struct pend_record *r;

	if (f->seq > LOGS_SEQ_MAX) {
		/* The writer reports into the same diag: stopped first. */
		writer_stop(ig);
		pt_diag_add(db_diag(ig->ix), PT_SEV_ERROR, NULL, NULL,
			    "run %lld: more than %lld lines: the rest is not indexed (it is in the"
			    " run's files)", (long long)ig->run_id, (long long)LOGS_SEQ_MAX + 1);
		return -1;
	}
	r = &ig->cur->rec[ig->cur->nrec++];
	r->v[P_ID] = LOGS_ID(ig->run_id, f->seq);
	r->v[P_NLINES] = f->nlines;
	r->v[P_STREAM] = stream;
	r->v[P_OFF] = (int64_t)f->off;
	r->v[P_LEN] = (int64_t)f->len;
	r->v[P_LEVEL] = f->level;
	r->v[P_TS] = f->ts_us;
	r->v[P_PID] = f->pid;
	r->v[P_SRCLINE] = f->src_line;
	r->v[P_RANK] = f->rank;
	r->v[P_CA] = cid->ca;
	r->v[P_FRAME] = cid->frame;
	r->v[P_COMPILE] = cid->compile;
	r->v[P_ATTEMPT] = cid->attempt;
	r->kind = kind_names[f->kind];
	r->file_len = f->file ? f->file_len : 0;
	r->file_off = r->file_len ? arena_add(ig, f->file, f->file_len) : 0;
	r->art_len = f->art ? f->art_len : 0;
	r->art_off = r->art_len ? arena_add(ig, f->art, f->art_len) : 0;
	r->text_len = f->text ? f->text_len : 0;
	r->text_off = arena_add(ig, f->text, r->text_len);
	if (id)
		*id = r->v[P_ID];
	return flush_if_full(ig);
}

/* queue_record, and the record counted in the ingest's statistics. */
static int insert_record(struct logs_ingest *ig, int stream, const struct rec_fields *f, int64_t *id)
{
	if (queue_record(ig, stream, f, id) < 0)
		return -1;
	ig->stats.records[f->kind]++;
	ig->stats.lines[f->kind] += (uint64_t)f->nlines;
	return 0;
}

/* Insert the open group's record (or complete the row shown early); the group stays open. */
static int group_emit(struct logs_ingest *ig, struct stream_state *ss)
{
	struct group *g = &ss->g;
	struct rec_fields f;

	if (g->shown_id) {
		int64_t id = g->shown_id;

		g->shown_id = g->shown_nlines = 0;
		ig->stats.records[g->kind]++;
		ig->stats.lines[g->kind] += (uint64_t)g->nlines;
		return queue_update(ig, id, g);
	}
	rec_of_group(g, &f);
	return insert_record(ig, ss->stream, &f, NULL);
}

static int group_close(struct logs_ingest *ig, struct stream_state *ss)
{
	struct group *g = &ss->g;
	int rc;

	if (g->kind == NO_GROUP)
		return 0;
	rc = group_emit(ig, ss);
	g->kind = NO_GROUP;
	pt_strbuf_reset(&g->key);
	pt_strbuf_reset(&g->text);
	pt_strbuf_reset(&g->file);
	pt_strbuf_reset(&g->artifact);
	return rc;
}

static void group_open(struct stream_state *ss, enum logs_kind kind, int64_t seq,
		       const struct line *l)
{
	struct group *g = &ss->g;

	g->kind = kind;
	g->seq = seq;
	g->nlines = 0;
	g->off = l->off;
	g->len = 0;
	g->level = g->ts_us = g->pid = g->src_line = g->rank = -1;
	compileid_clear(&g->cid);
	g->tb = 0;
	g->shown_id = g->shown_nlines = 0;
}

/* Add a line's text (text[0..n)) to the open group, splitting it when the text cap is hit. */
static int group_add(struct logs_ingest *ig, struct stream_state *ss, int64_t seq,
		     const struct line *l, const uint8_t *text, size_t n)
{
	struct group *g = &ss->g;

	if (g->nlines && g->text.len + 1 + n > LOGS_MAX_TEXT) {
		/* Too long for one record: out with it, and go on in a new one with the same fields. */
		if (group_emit(ig, ss) < 0)
			return -1;
		pt_strbuf_reset(&g->text);
		g->seq = seq;
		g->nlines = 0;
		g->off = l->off;
		g->len = 0;
	}
	if (g->nlines)
		pt_strbuf_add_trunc(&g->text, "\n", 1);
	pt_strbuf_add_trunc(&g->text, text, n);
	g->nlines++;
	g->len = l->off + l->raw_len - g->off;
	return 0;
}

static int insert_line(struct logs_ingest *ig, struct stream_state *ss, enum logs_kind kind,
		       int64_t seq, const struct line *l, int64_t nlines, int64_t level)
{
	struct rec_fields f;

	rec_of_line(kind, seq, l, nlines, level, &f);
	return insert_record(ig, ss->stream, &f, NULL);
}

/* One dispatch_calls row for the call c parsed from buf (offsets into buf). */
static int insert_call(struct logs_ingest *ig, struct stream_state *ss, int64_t record_id,
		       const uint8_t *buf, const struct dispatch_call *c, int torn, int64_t *call_id)
{
	int64_t parent = -1;
	int depth = torn ? -1 : c->depth;
	struct pend_call *pc;

	if (depth > 0) {
		/* Nesting from indentation: depth is per thread, so torn lines stay out of it. */
		while (ss->sp && ss->stack[ss->sp - 1].depth >= depth)
			ss->sp--;
		if (ss->sp)
			parent = ss->stack[ss->sp - 1].id;
	}
	pc = &ig->cur->call[ig->cur->ncall++];
	pc->id = ig->next_call_id++;
	pc->record_id = record_id;
	pc->label = dispatch_label_name(c->label);
	pc->op_len = c->op_len;
	pc->op_off = arena_add(ig, buf + c->op_off, c->op_len);
	pc->ovl_len = c->ovl_len;
	pc->ovl_off = arena_add(ig, c->ovl_len ? buf + c->ovl_off : buf, c->ovl_len);
	pc->key_len = c->key_len;
	pc->key_off = c->key_len ? arena_add(ig, buf + c->key_off, c->key_len) : 0;
	pc->depth = depth;
	pc->parent = parent;
	pc->torn = torn;
	if (call_id)
		*call_id = pc->id;
	if (depth > 0 && ss->sp < STACK_MAX) {
		ss->stack[ss->sp].depth = depth;
		ss->stack[ss->sp].id = pc->id;
		ss->sp++;
	}
	return flush_if_full(ig);
}

static int insert_dispatch_record(struct logs_ingest *ig, struct stream_state *ss, int64_t seq,
				  const struct line *l, int64_t *id)
{
	struct rec_fields f;

	rec_of_line(LOGS_DISPATCH, seq, l, 1, -1, &f);
	return insert_record(ig, ss->stream, &f, id);
}

/*
 * A tail ("d.Tensor], key=[CPU]") completes the call torn off at the end of
 * an earlier line: parse head + tail and correct that call's fields.
 */
static int complete_torn(struct logs_ingest *ig, struct stream_state *ss, const uint8_t *tail,
			 size_t n)
{
	struct dispatch_call c;
	struct pt_strbuf j;
	int rc = 0;

	if (!ss->torn_head.len || !dispatch_is_tail(tail, n))
		return 0;
	pt_strbuf_init(&j, 2 * 65536);
	if (pt_strbuf_add(&j, ss->torn_head.buf, ss->torn_head.len) == 0 &&
	    pt_strbuf_add(&j, tail, n) == 0 &&
	    dispatch_parse((const uint8_t *)j.buf, j.len, &c) == 0) {
		struct pend_update *u = &ig->cur->upd[ig->cur->nupd++];

		ig->stats.torn_joined++;
		u->what = FIX_CALL;
		u->id = ss->torn_call;
		u->a_len = c.op_len;
		u->a_off = arena_add(ig, j.buf + c.op_off, c.op_len);
		u->b_len = c.ovl_len;
		u->b_off = arena_add(ig, c.ovl_len ? j.buf + c.ovl_off : "", c.ovl_len);
		u->c_len = c.key_len;
		u->c_off = arena_add(ig, j.buf + c.key_off, c.key_len);
		rc = flush_if_full(ig);
	}
	pt_strbuf_release(&j);
	pt_strbuf_reset(&ss->torn_head);
	return rc;
}

/*
 * Dispatcher trace lines. Returns 1 when the line was one (whole or torn),
 * 0 when it is not, -1 on error. Every "[label] op=[" token is one call, so
 * the number of calls is right however threads tore the lines; operator and
 * key come from whatever of the call could be read (torn = 1).
 */
static int on_dispatch(struct logs_ingest *ig, struct stream_state *ss, int64_t seq,
		       const struct line *l)
{
	struct dispatch_call c;
	size_t pos[64], n, first;
	int64_t rec;

	if (dispatch_parse(l->p, l->len, &c) == 0) {
		if (insert_dispatch_record(ig, ss, seq, l, &rec) < 0)
			return -1;
		return insert_call(ig, ss, rec, l->p, &c, 0, NULL) < 0 ? -1 : 1;
	}
	n = dispatch_find_labels(l->p, l->len, pos, 64);
	first = n ? pos[0] : l->len;
	/* Text before the first token: the tail of a call torn off earlier. */
	if (first) {
		size_t k = first;

		while (k && l->p[k - 1] == ' ')
			k--;
		if (k && complete_torn(ig, ss, l->p, k) < 0)
			return -1;
	}
	if (n == 0) {
		/* A fragment: part of a call counted on another line. */
		if (!memmem(l->p, l->len, "], key=[", 8) && !memmem(l->p, l->len, " op=[", 5))
			return 0;
		return insert_dispatch_record(ig, ss, seq, l, NULL) < 0 ? -1 : 1;
	}
	if (insert_dispatch_record(ig, ss, seq, l, &rec) < 0)
		return -1;
	if (n > 64)
		n = 64;	/* NEEDSWORK: more than 64 calls torn into one line are counted as 64 */
	for (size_t i = 0; i < n; i++) {
		size_t end = i + 1 < n ? pos[i + 1] : l->len, e = end;
		int64_t call;

		while (e > pos[i] && l->p[e - 1] == ' ')
			e--;
		if (dispatch_parse(l->p + pos[i], e - pos[i], &c) == 0) {
			c.op_off += pos[i];
			c.ovl_off += c.ovl_len ? pos[i] : 0;
			c.key_off += pos[i];
		} else {
			dispatch_parse_loose(l->p + pos[i], end - pos[i], &c);
			c.op_off += pos[i];
			c.ovl_off += c.ovl_len ? pos[i] : 0;
			c.key_off += c.key_len ? pos[i] : 0;
		}
		if (insert_call(ig, ss, rec, l->p, &c, 1, &call) < 0)
			return -1;
		if (!c.key_len) {
			/* Torn off before its key: its tail may come on a later line. */
			pt_strbuf_reset(&ss->torn_head);
			pt_strbuf_add_trunc(&ss->torn_head, l->p + pos[i], e - pos[i]);
			ss->torn_call = call;
		}
	}
	return 1;
}

/* "path:NN: SomethingWarning: message" (Python's warnings.formatwarning). */
static int is_py_warning(const uint8_t *p, size_t n)
{
	const uint8_t *w = memmem(p, n, "Warning: ", 9);
	size_t i;

	if (!w || w == p)
		return 0;
	/* Back over the category's word characters to ": " after the line number. */
	i = (size_t)(w - p);
	while (i > 0 && ((p[i - 1] >= 'A' && p[i - 1] <= 'Z') || (p[i - 1] >= 'a' && p[i - 1] <= 'z') ||
			 (p[i - 1] >= '0' && p[i - 1] <= '9') || p[i - 1] == '_' || p[i - 1] == '.'))
		i--;
	if (i < 4 || p[i - 1] != ' ' || p[i - 2] != ':' || p[i - 3] < '0' || p[i - 3] > '9')
		return 0;
	return 1;
}

static int same_key(const struct group *g, const uint8_t *p, size_t n)
{
	return g->key.len == n && !memcmp(g->key.buf, p, n);
}

static int on_prefixed(struct logs_ingest *ig, struct stream_state *ss, int64_t seq,
		       const struct line *l, const struct torchlogs_line *t)
{
	enum logs_kind kind = t->kind == TORCHLOGS_LOG ? LOGS_LOG : LOGS_CPP;
	struct group *g = &ss->g;

	if (g->kind != kind || !same_key(g, l->p, t->key_len)) {
		if (group_close(ig, ss) < 0)
			return -1;
		group_open(ss, kind, seq, l);
		pt_strbuf_add_trunc(&g->key, l->p, t->key_len);
		g->level = t->g.levelno ? t->g.levelno : -1;
		/* BACKCOMPAT: torch 2.1/2.2 lines (old_form) carry a year; glog_time_us uses it. */
		g->ts_us = glog_time_us(&t->g, ig->ref_us, ig->tz_off_s);
		g->pid = t->g.pid;
		pt_strbuf_add_trunc(&g->file, l->p + t->g.file_off, t->g.file_len);
		g->src_line = t->g.lineno;
		g->rank = t->g.rank;
		g->cid = t->cid;
		if (t->artifact_len)
			pt_strbuf_add_trunc(&g->artifact, l->p + t->artifact_off, t->artifact_len);
	}
	return group_add(ig, ss, seq, l, l->p + t->msg_off, l->len - t->msg_off);
}

#define HAS_PREFIX(p, n, lit) ((n) >= sizeof(lit) - 1 && !memcmp((p), (lit), sizeof(lit) - 1))

/* faulthandler's first line (Python/pylifecycle.c, faulthandler.c): "Fatal Python error: ...". */
static int is_crash_header(const uint8_t *p, size_t n)
{
	return HAS_PREFIX(p, n, "Fatal Python error: ");
}

/* What a C++ runtime prints before abort() (libstdc++'s verbose terminate handler). */
static int is_terminate(const uint8_t *p, size_t n)
{
	return HAS_PREFIX(p, n, "terminate called after throwing an instance of ") ||
	       HAS_PREFIX(p, n, "terminate called without an active exception") ||
	       HAS_PREFIX(p, n, "terminate called recursively");
}

/*
 * A line of faulthandler's dump after its header: blank lines, thread
 * headers, indented frames ("  File "x.py", line 3 in f", "  <no Python
 * frame>", "  ..."), and the lists it ends with.
 */
static int is_crash_body(const uint8_t *p, size_t n)
{
	return n == 0 || p[0] == ' ' || HAS_PREFIX(p, n, "Current thread 0x") ||
	       HAS_PREFIX(p, n, "Thread 0x") || HAS_PREFIX(p, n, "Stack (most recent call first)") ||
	       HAS_PREFIX(p, n, "Extension modules: ") || HAS_PREFIX(p, n, "Python runtime state: ") ||
	       HAS_PREFIX(p, n, "<Cannot show all threads");
}

/* `  File "x.py", line 12 in f`: the file and line into the group (once). */
static void crash_frame(struct group *g, const uint8_t *p, size_t n)
{
	static const char head[] = "  File \"";
	const uint8_t *q, *end = p + n;
	uint64_t line;
	size_t k;

	if (g->file.len || !HAS_PREFIX(p, n, head))
		return;
	p += sizeof(head) - 1;
	/* The file name ends at the last `", line ` (a name may hold quotes). */
	for (q = end; q > p; q--)
		if ((size_t)(end - q) >= 8 && q[0] == '"' && !memcmp(q, "\", line ", 8))
			break;
	if (q == p)
		return;
	k = pt_dec_u64(q + 8, (size_t)(end - q - 8), INT64_MAX, &line);
	if (k == 0)
		return;
	pt_strbuf_add_trunc(&g->file, p, (size_t)(q - p));
	g->src_line = (int64_t)line;
}

/* Open a crash record at l, or go on with the one open (terminate's message, then the dump). */
static int on_crash(struct logs_ingest *ig, struct stream_state *ss, int64_t seq, const struct line *l)
{
	struct group *g = &ss->g;

	if (!(g->kind == LOGS_CRASH && g->tb == CRASH_TERMINATE && is_crash_header(l->p, l->len))) {
		if (group_close(ig, ss) < 0)
			return -1;
		group_open(ss, LOGS_CRASH, seq, l);
		g->level = 50;
	}
	g->tb = is_crash_header(l->p, l->len) ? CRASH_DUMP : CRASH_TERMINATE;
	g->tb_lines = 0;
	return group_add(ig, ss, seq, l, l->p, l->len);
}

/* A line while a crash record is open: 1 taken, 0 not part of it, -1 error. */
static int crash_line(struct logs_ingest *ig, struct stream_state *ss, int64_t seq, const struct line *l)
{
	struct group *g = &ss->g;

	if (is_crash_header(l->p, l->len))
		return on_crash(ig, ss, seq, l) < 0 ? -1 : 1;
	if (g->tb == CRASH_TERMINATE) {
		if (++g->tb_lines > CRASH_TERMINATE_MAX)
			return 0;
	} else if (!is_crash_body(l->p, l->len)) {
		return 0;
	} else if (HAS_PREFIX(l->p, l->len, "Current thread 0x") ||
		   HAS_PREFIX(l->p, l->len, "Stack (most recent call first)")) {
		g->tb = CRASH_THREAD;
		/* The crashed thread's innermost frame wins over any seen before. */
		pt_strbuf_reset(&g->file);
		g->src_line = -1;
	} else if (HAS_PREFIX(l->p, l->len, "Thread 0x")) {
		if (g->tb == CRASH_THREAD)
			g->tb = CRASH_DUMP;
	} else if (l->p[0] == ' ' && (g->tb == CRASH_THREAD || !g->file.len)) {
		crash_frame(g, l->p, l->len);
	}
	return group_add(ig, ss, seq, l, l->p, l->len) < 0 ? -1 : 1;
}

static int on_line(void *arg, const struct line *l)
{
	struct stream_state *ss = arg;
	struct logs_ingest *ig = ss->ig;
	struct group *g = &ss->g;
	struct torchlogs_line t;
	int64_t seq = ig->seq++;
	int rc;

	if ((l->flags & LINE_SPLIT) || ss->in_split) {
		/* Pieces of an over-long line: "other", the line counted on its last piece. */
		int64_t n = (l->flags & LINE_SPLIT) ? 0 : 1;

		ss->in_split = !!(l->flags & LINE_SPLIT);
		if (group_close(ig, ss) < 0)
			return -1;
		return insert_line(ig, ss, LOGS_OTHER, seq, l, n, -1);
	}
	if (torchlogs_parse(l->p, l->len, &t) != TORCHLOGS_NONE)
		return on_prefixed(ig, ss, seq, l, &t);
	if (g->kind == LOGS_TRACEBACK && g->tb == TB_FRAMES && l->len) {
		/* Frames are indented; the first unindented line is the exception. */
		if (l->p[0] != ' ')
			g->tb = TB_DONE;
		return group_add(ig, ss, seq, l, l->p, l->len);
	}
	if (g->kind == LOGS_WARNING && g->tb == WARN_SOURCE && l->len > 2 && l->p[0] == ' ') {
		g->tb = TB_DONE;
		return group_add(ig, ss, seq, l, l->p, l->len);
	}
	if (g->kind == LOGS_CRASH && (rc = crash_line(ig, ss, seq, l)) != 0)
		return rc < 0 ? -1 : 0;
	if (is_crash_header(l->p, l->len) || is_terminate(l->p, l->len))
		return on_crash(ig, ss, seq, l);
	if (group_close(ig, ss) < 0)
		return -1;
	if (l->len == 34 && !memcmp(l->p, "Traceback (most recent call last):", 34)) {
		group_open(ss, LOGS_TRACEBACK, seq, l);
		g->tb = TB_FRAMES;
		g->level = 40;
		return group_add(ig, ss, seq, l, l->p, l->len);
	}
	if (is_py_warning(l->p, l->len)) {
		group_open(ss, LOGS_WARNING, seq, l);
		g->tb = WARN_SOURCE;
		g->level = 30;
		return group_add(ig, ss, seq, l, l->p, l->len);
	}
	if (memchr(l->p, '[', l->len)) {
		rc = on_dispatch(ig, ss, seq, l);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
	return insert_line(ig, ss, LOGS_OTHER, seq, l, 1, -1);
}

struct logs_ingest *logs_ingest_new(struct db *ix, int64_t run_id, int64_t ref_us, long tz_off_s)
{
	struct logs_ingest *ig = pt_xcalloc(1, sizeof(*ig));
	struct db_stmt *del;

	ig->ix = ix;
	ig->run_id = run_id;
	ig->ref_us = ref_us;
	ig->tz_off_s = tz_off_s;
	for (int s = 1; s <= 2; s++) {
		ig->ss[s].ig = ig;
		ig->ss[s].stream = s;
		lines_init(&ig->ss[s].ls, 0);
		group_init(&ig->ss[s].g);
		pt_strbuf_init(&ig->ss[s].torn_head, 65536);
	}
	for (int i = 0; i < NBATCH; i++) {
		ig->b[i].acap = 64 * 1024;
		ig->b[i].arena = pt_xmalloc(ig->b[i].acap);
	}
	ig->cur = &ig->b[0];
	pthread_mutex_init(&ig->mu, NULL);
	pthread_cond_init(&ig->cond, NULL);
	ig->feed_records = db_feed_declare(ix, "pt_feed_records", REC_COLUMNS, record_col);
	ig->feed_calls = db_feed_declare(ix, "pt_feed_calls", CALL_COLUMNS, call_col);
	if (!ig->feed_records || !ig->feed_calls)
		goto fail;
	ig->ins_records = db_prepare(ix, ins_record_sql);
	ig->ins_calls = db_prepare(ix, ins_call_sql);
	ig->fix_call = db_prepare(ix, fix_call_sql);
	ig->upd_record = db_prepare(ix, upd_record_sql);
	if (!ig->ins_records || !ig->ins_calls || !ig->fix_call || !ig->upd_record)
		goto fail;
	if (run_id < 1 || run_id > LOGS_RUN_MAX) {
		pt_diag_add(db_diag(ix), PT_SEV_ERROR, NULL, NULL,
			    "run %lld: the index holds the lines of runs 1 to %lld only",
			    (long long)run_id, (long long)LOGS_RUN_MAX);
		goto fail;
	}
	ig->next_call_id = LOGS_ID(run_id, 1);
	/* A reindex starts from nothing. */
	del = db_prepare(ix, "DELETE FROM dispatch_calls WHERE" LOGS_RUN_RANGE("id", "1"));
	if (!del || db_run(del, "i", run_id) < 0)
		goto fail;
	del = db_prepare(ix, "DELETE FROM records WHERE" LOGS_RUN_RANGE("id", "1"));
	if (!del || db_run(del, "i", run_id) < 0 ||
	    schema_part_mark(ix, logs_part.name, run_id, "partial") < 0)
		goto fail;
	/*
	 * A 16 MB page cache while indexing: index pages stay in memory instead
	 * of being read back with a pread each (measured: 2x the rate of the 2 MB
	 * default). Bounded, so RSS stays well under the 64 MB goal.
	 */
	if (db_exec(ix, "PRAGMA cache_size=-16384") < 0)
		goto fail;
	if (db_batch_begin(ix, 20000, LOGS_COMMIT_MS) < 0)
		goto fail;
	ig->pause_ns = pt_now_ns();
	/* From here on the connection is the writer's until writer_stop. */
	if (writer_start(ig) < 0)
		goto fail;
	return ig;
fail:
	logs_ingest_free(ig);
	return NULL;
}

int logs_ingest_feed(struct logs_ingest *ig, int stream, const uint8_t *buf, size_t len)
{
	if (ig->failed || stream < 1 || stream > 2)
		return -1;
	ig->stats.bytes += len;
	if (lines_feed(&ig->ss[stream].ls, buf, len, on_line, &ig->ss[stream]) < 0) {
		ig->failed = 1;
		return -1;
	}
	return 0;
}

int logs_ingest_finish(struct logs_ingest *ig)
{
	if (ig->failed)
		return -1;
	for (int s = 1; s <= 2; s++) {
		if (lines_finish(&ig->ss[s].ls, on_line, &ig->ss[s]) < 0 ||
		    group_close(ig, &ig->ss[s]) < 0) {
			ig->failed = 1;
			return -1;
		}
	}
	if (submit(ig, 0) < 0 || writer_stop(ig) < 0 || db_batch_end(ig->ix) < 0 ||
	    schema_part_mark(ig->ix, logs_part.name, ig->run_id, "done") < 0) {
		ig->failed = 1;
		return -1;
	}
	return 0;
}

/* Show the open group as it is now: its row is inserted, or updated when shown before. */
static int group_show(struct logs_ingest *ig, struct stream_state *ss)
{
	struct group *g = &ss->g;
	struct rec_fields f;

	if (g->kind == NO_GROUP || !g->nlines || g->nlines == g->shown_nlines)
		return 0;
	if (g->shown_id) {
		g->shown_nlines = g->nlines;
		return queue_update(ig, g->shown_id, g);
	}
	/* Not counted: group_emit counts the record when it completes it. */
	rec_of_group(g, &f);
	if (queue_record(ig, ss->stream, &f, &g->shown_id) < 0)
		return -1;
	g->shown_nlines = g->nlines;
	return 0;
}

int logs_ingest_idle(struct logs_ingest *ig)
{
	const struct batch *b = ig->cur;
	int dirty = ig->sent_rows > 0 || b->nrec || b->ncall || b->nupd;

	if (ig->failed)
		return -1;
	for (int s = 1; s <= 2; s++) {
		const struct group *g = &ig->ss[s].g;

		if (g->kind != NO_GROUP && g->nlines != g->shown_nlines)
			dirty = 1;
	}
	if (!dirty || pt_now_ns() - ig->pause_ns < LOGS_IDLE_COMMIT_MS * 1000000ull)
		return 0;
	ig->pause_ns = pt_now_ns();
	if (group_show(ig, &ig->ss[1]) < 0 || group_show(ig, &ig->ss[2]) < 0 || submit(ig, 1) < 0) {
		ig->failed = 1;
		return -1;
	}
	return 0;
}

const struct logs_ingest_stats *logs_ingest_get_stats(const struct logs_ingest *ig)
{
	return &ig->stats;
}

void logs_ingest_free(struct logs_ingest *ig)
{
	if (!ig)
		return;
	/* What was handed over goes in; the batch being filled is dropped. */
	writer_stop(ig);
	if (db_in_batch(ig->ix))
		db_batch_end(ig->ix);
	pthread_mutex_destroy(&ig->mu);
	pthread_cond_destroy(&ig->cond);
	for (int s = 1; s <= 2; s++) {
		lines_release(&ig->ss[s].ls);
		group_release(&ig->ss[s].g);
		pt_strbuf_release(&ig->ss[s].torn_head);
	}
	for (int i = 0; i < NBATCH; i++)
		free(ig->b[i].arena);
	free(ig);
}

int logs_ingest_run_dir(struct db *ix, int64_t run_id, int64_t ref_us, long tz_off_s,
		   struct logs_ingest_stats *stats)
{
	struct spool_reader r;
	struct logs_ingest *ig;
	char *dir = rundir_path(ix, run_id);
	const uint8_t *data;
	size_t len;
	int stream, rc;

	if (spool_reader_open(&r, dir, NULL, db_diag(ix)) < 0) {
		free(dir);
		return -1;
	}
	ig = logs_ingest_new(ix, run_id, ref_us, tz_off_s);
	rc = ig ? 0 : -1;
	while (rc == 0 && (rc = spool_read(&r, &stream, &data, &len)) == 1)
		rc = logs_ingest_feed(ig, stream, data, len);
	if (rc == 0)
		rc = logs_ingest_finish(ig);
	if (stats && ig)
		*stats = ig->stats;
	logs_ingest_free(ig);
	spool_reader_close(&r);
	free(dir);
	return rc;
}
