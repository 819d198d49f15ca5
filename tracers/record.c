/*
 * `pttrace run`'s pipeline; see record.h. The indexing thread has a
 * connection of its own, reporting into its own pt_diag, so that no sink is
 * shared between threads or re-pointed; the two meet after the join.
 */
#include "record.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "envp.h"
#include "logs_query.h"
#include "parts.h"
#include "runenv.h"
#include "runs.h"
#include "rundir.h"
#include "spool.h"
#include "term.h"
#include "tt_ingest.h"
#include "xalloc.h"

extern char **environ;

/*
 * The indexing thread: follows the spool while the child runs, at nice 10
 * so that the child is never the one that waits. Once the child has exited
 * nobody is to be spared any more and the user waits for the index: the
 * thread hands over (handover) between two chunks and the main thread, at
 * the priority pttrace was started with, indexes the rest (a thread cannot
 * lower its nice value again without privileges).
 */
struct indexer {
	struct db *ix;		/* its own connection (reporting to diag below) */
	int64_t run_id, ref_us;
	long tz_off_s;
	struct spool_state *st;
	char *dir;
	struct spool_reader r;
	struct logs_ingest *ig;	/* NULL: nothing to go on with */
	int handover;		/* set by the main thread: stop after the current chunk */
	int loop_rc;		/* 0 going on, -1 failed, 2 at the end */
	uint64_t t0;
	struct logs_ingest_stats stats;
	struct pt_diag diag;
	double seconds;		/* wall time */
	double cpu_seconds;	/* CPU time of the indexing, both threads: the rate on an idle machine */
	int rc;
};

static int idle_commit(void *arg)
{
	return arg ? logs_ingest_idle(arg) : 0;
}

/* Chunks of the spool into the index until the end, an error, or (stoppable) a handover. */
static void indexer_loop(struct indexer *x, int stoppable)
{
	const uint8_t *data;
	size_t len;
	int stream, rc = 0;

	while (x->loop_rc == 0) {
		if (stoppable && __atomic_load_n(&x->handover, __ATOMIC_ACQUIRE))
			return;
		rc = spool_read(&x->r, &stream, &data, &len);
		if (rc == 1)
			rc = logs_ingest_feed(x->ig, stream, data, len);
		else if (rc == 0)
			x->loop_rc = 2;
		if (rc < 0)
			x->loop_rc = -1;
	}
}

static void *indexer_main(void *arg)
{
	struct indexer *x = arg;

	x->t0 = pt_now_ns();
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
	x->loop_rc = -1;
	if (spool_reader_open(&x->r, x->dir, x->st, &x->diag) < 0)
		return NULL;
	/* Its SQLite writer thread is niced too (created by this thread). */
	x->ig = logs_ingest_new(x->ix, x->run_id, x->ref_us, x->tz_off_s);
	x->loop_rc = x->ig ? 0 : -1;
	/* While the child is quiet, what came so far is committed: `pttrace logs` sees it. */
	x->r.idle = idle_commit;
	x->r.idle_arg = x->ig;
	indexer_loop(x, 1);
	x->cpu_seconds = pt_thread_cpu_s();
	return NULL;
}

/* In the main thread after the join: the rest of the spool, the last commit, the figures. */
static void indexer_end(struct indexer *x)
{
	double c0 = pt_thread_cpu_s();

	/* The ingest's writer too goes on at pttrace's priority: a new one, made here. */
	if (x->ig && x->loop_rc >= 0 && logs_ingest_writer_here(x->ig) < 0)
		x->loop_rc = -1;
	if (x->ig)
		indexer_loop(x, 0);
	x->rc = -1;
	if (x->ig) {
		if (x->loop_rc == 2)
			x->rc = logs_ingest_finish(x->ig);
		x->stats = *logs_ingest_get_stats(x->ig);
		logs_ingest_free(x->ig);
		x->ig = NULL;
	}
	if (x->r.buf)	/* opened (a failed open closed itself) */
		spool_reader_close(&x->r);
	x->cpu_seconds += pt_thread_cpu_s() - c0 + x->stats.writer_cpu_seconds;
	x->seconds = (double)(pt_now_ns() - x->t0) / 1e9;
}

/*
 * The checkpointer: this thread copies the indexer's committed pages into
 * the database file beside it, on a connection of its own, so the indexer
 * does not wait for that copy and its fsyncs every 1000 pages (SQLite's
 * default; measured: a quarter of its wall time). The indexer's connection
 * still checkpoints at 4096 pages (16 MB of WAL): by then nearly all is
 * copied, so that pass is short, and it is what lets the WAL start over (a
 * checkpoint on another connection never catches the writer between its
 * commit and its next transaction). Measured: the WAL stays under about
 * 35 MB; with no checkpoints of the indexer's own it grew to the whole run.
 */
struct checkpointer {
	struct db *ix;
	pthread_t thread;
	int on;			/* the thread runs */
	pthread_mutex_t mu;
	pthread_cond_t cond;
	int stop;
	struct pt_diag diag;
};

#define CHECKPOINT_MS 100

static void *checkpointer_main(void *arg)
{
	struct checkpointer *c = arg;

	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
	pthread_mutex_lock(&c->mu);
	while (!c->stop) {
		struct timespec ts = pt_deadline_ms(CHECKPOINT_MS);

		pthread_cond_timedwait(&c->cond, &c->mu, &ts);
		pthread_mutex_unlock(&c->mu);
		db_checkpoint(c->ix);
		pthread_mutex_lock(&c->mu);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* Start the checkpointer beside the indexer's connection ix (c->on: it runs). */
static void checkpointer_start(struct checkpointer *c, struct db *ix)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cond, NULL);
	pt_diag_init(&c->diag);
	if (pttrace_db_open(&c->ix, db_path(ix), DB_NO_CREATE, &c->diag) < 0)
		return;
	if (pthread_create(&c->thread, NULL, checkpointer_main, c) != 0) {
		db_close(c->ix);
		c->ix = NULL;
		return;
	}
	c->on = 1;
	/* 16 MB of WAL whatever the page size (16 KiB in new databases, 4 KiB in older ones). */
	struct db_stmt *ps = db_prepare(ix, "PRAGMA page_size");
	int64_t page = ps && db_step(ps) == 1 ? db_col_int(ps, 0) : 4096;
	char sql[64];

	if (ps)
		db_reset(ps);
	snprintf(sql, sizeof(sql), "PRAGMA wal_autocheckpoint=%lld",
		 (long long)((16 << 20) / (page >= 512 ? page : 4096)));
	if (db_exec(ix, sql) < 0) {
		/* The indexer checkpoints itself as by default; the thread's passes do no harm. */
		pt_diag_release(db_diag(ix));
		pt_diag_init(db_diag(ix));
	}
}

/* Stop it after a last pass; its diagnostics go to diag. */
static void checkpointer_stop(struct checkpointer *c, struct pt_diag *diag)
{
	if (c->on) {
		pthread_mutex_lock(&c->mu);
		c->stop = 1;
		pthread_cond_signal(&c->cond);
		pthread_mutex_unlock(&c->mu);
		pthread_join(c->thread, NULL);
		/* The last pass here, at the main thread's priority. */
		db_checkpoint(c->ix);
	}
	db_close(c->ix);
	pt_diag_take(diag, &c->diag);
	pt_diag_release(&c->diag);
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->cond);
}

/* A warning about the run: stored with it, and shown by the caller. */
static void warn(const struct record_hooks *h, struct db *ix, int64_t run_id, const char *code,
		 const char *msg)
{
	runs_add_warning(ix, run_id, code, msg);
	if (h && h->warn)
		h->warn(h->ctx, code, msg);
}

/* Hand the diagnostics so far to the caller to show now, and clear them. */
static void flush(const struct record_hooks *h, struct pt_diag *d)
{
	if (h && h->flush)
		h->flush(h->ctx, d);
	pt_diag_release(d);
	pt_diag_init(d);
}

/* The spool failed while the child runs on: its error shown now, not at the end. */
struct spool_alarm {
	const struct record_hooks *h;
	struct pt_diag *diag;
};

static void spool_failed(void *arg)
{
	struct spool_alarm *a = arg;

	flush(a->h, a->diag);
}

/* Warnings about tracing that this torch cannot do. */
static void check_torch(const struct record_hooks *h, struct db *ix, int64_t run_id,
			const struct record_opts *o, const char *python, const struct torch_probe *p,
			char *const *env)
{
	const char *logs = pt_envp_get(env, "TORCH_LOGS");
	char *msg;

	if (!p->ran)
		return;
	if (!p->found) {
		msg = pt_xasprintf("'%s' cannot import torch (no torch package on its path);"
				   " use --python to pick the interpreter that has it", python);
		warn(h, ix, run_id, "no-torch", msg);
		free(msg);
		return;
	}
	runs_set_torch(ix, run_id, p->version, p->debug, p->debug ? "debug" : "release");
	if (logs && *logs && p->major >= 0 && (p->major < 2 || (p->major == 2 && p->minor < 1))) {
		msg = pt_xasprintf("TORCH_LOGS has no effect: torch %s is older than 2.1 (no"
				   " torch._logging)", p->version);
		warn(h, ix, run_id, "logs-old-torch", msg);
		free(msg);
	}
	if (o->trace && p->major >= 0 && (p->major < 2 || (p->major == 2 && p->minor < 3))) {
		msg = pt_xasprintf("TORCH_TRACE has no effect: torch %s is older than 2.3 (no"
				   " structured trace)", p->version);
		warn(h, ix, run_id, "trace-old-torch", msg);
		free(msg);
	}
	if (o->dispatch && !p->debug) {
		/* torch-trace-formats.md 8: release and distro builds print nothing. */
		msg = pt_xasprintf("TORCH_SHOW_DISPATCH_TRACE has no effect on torch %s from Python:"
				   " it is a release build (torch.version.debug is False), and only code"
				   " compiled without NDEBUG%s prints the dispatcher trace",
				   p->version ? p->version : "?",
				   p->major > 2 || (p->major == 2 && p->minor >= 7)
					   ? " (or with -DHAS_TORCH_SHOW_DISPATCH_TRACE)" : "");
		warn(h, ix, run_id, "dispatch-release-build", msg);
		free(msg);
	}
}

/* A crash: where its core went (corefind.h), kept with the run. */
static void find_core(struct db *ix, struct record_result *r, const struct record_opts *o,
		      const struct capture *cap, char *const *env, const struct run_info *ri,
		      const struct rlimit *rl)
{
	rlim_t lim = o->core ? rl->rlim_max : rl->rlim_cur;
	char *exe = o->python ? pt_xstrdup(o->python) : runenv_which(o->argv[0], env);
	char *load = corefind_ptgdb_load();
	struct corefind_query q = {
		.proc = { .pid = cap->pid, .uid = getuid(), .gid = getgid(), .sig = r->res.code,
			  .cwd = ri->cwd },
		.core_dumped = r->res.core_dumped,
		.core_limit = lim == RLIM_INFINITY ? -1 : (int64_t)lim,
		.core_raised = o->core,
		.started_s = ri->started_us / 1000000,
		.exe = exe ? exe : o->argv[0],
		.uses_pid = -1,
		.ptgdb_load = load,
	};

	r->crashed = 1;
	if (logs_crash_first(ix, r->run_id, &r->crash_what, &r->crash_file, &r->crash_line) < 0) {
		/* The run is kept all the same; its index says what it can. */
		pt_diag_release(db_diag(ix));
		pt_diag_init(db_diag(ix));
	}
	corefind_locate(&q, &r->crash);
	runs_set_crash(ix, r->run_id, &(struct run_crash){
		.signal = r->res.code, .core_dumped = r->res.core_dumped, .core_limit = q.core_limit,
		.core_pattern = r->crash.pattern, .core_path = r->crash.core,
		.core_note = r->crash.note, .gdb = r->crash.gdb });
	free(exe);
	free(load);
}

void record_result_release(struct record_result *r)
{
	corefind_result_release(&r->crash);
	free(r->crash_what);
	free(r->crash_file);
	r->crash_what = r->crash_file = NULL;
	r->crashed = 0;
}

int record_run(struct db *ix, const struct record_opts *o, const struct record_hooks *h,
	       struct record_result *r, struct pt_diag *diag)
{
	struct run_info ri = { 0 };
	struct torch_probe probe = { 0 };
	struct spool_state st;
	struct spool_writer w;
	struct capture cap;
	struct indexer x = { 0 };
	struct checkpointer ck;
	pthread_t thread;
	char **env = NULL, *dir = NULL, *trace_dir = NULL;
	char cwd[4096], host[256] = "";
	int rc = -1, thread_on = 0;
	uint64_t child_done_ns;
	struct tm tm;
	struct rlimit core_rl = { 0, 0 };
	time_t now;

	memset(r, 0, sizeof(*r));
	r->run_id = -1;
	spool_state_init(&st);
	pt_diag_init(&x.diag);
	runs_mark_lost(ix);
	/* The run row first: its id names the directory the child's trace goes to. */
	now = time(NULL);
	localtime_r(&now, &tm);
	gethostname(host, sizeof(host) - 1);
	ri.name = o->name;
	ri.tag = o->tag;
	ri.source = "run";
	ri.argv = o->argv;
	ri.argc = o->argc;
	ri.cwd = getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	ri.host = host;
	ri.python = o->python;
	ri.dispatch = o->dispatch;
	ri.trace = o->trace;
	ri.started_us = pt_wall_us();
	ri.tz_offset_s = tm.tm_gmtoff;
	if (runs_create(ix, &ri, &r->run_id) < 0)
		goto out;
	dir = rundir_path(ix, r->run_id);
	trace_dir = pt_xasprintf("%s/trace", dir);
	env = runenv_build(&(struct runenv_opts){ .logs = o->logs, .dispatch = o->dispatch,
						  .trace_dir = o->trace ? trace_dir : NULL },
			   environ);
	runs_set_logs_spec(ix, r->run_id, pt_envp_get(env, "TORCH_LOGS"));
	for (char **e = env; *e; e++) {
		size_t n;

		if (runenv_is_recorded(*e, &n)) {
			char *name = pt_xstrndup(*e, n);

			runs_add_env(ix, r->run_id, name, *e + n + 1);
			free(name);
		}
	}
	if (o->python && o->probe && o->probe->ran)
		check_torch(h, ix, r->run_id, o, o->python, o->probe, env);
	else if (o->python && runenv_probe_python(o->python, env, &probe, diag) == 0)
		check_torch(h, ix, r->run_id, o, o->python, &probe, env);
	flush(h, diag);
	if (spool_writer_open(&w, dir, &st, diag) < 0)
		goto fail_run;
	getrlimit(RLIMIT_CORE, &core_rl);
	if (capture_start(&cap, o->argv, env, o->echo, o->core, &r->exec_errno, diag) < 0) {
		spool_writer_close(&w);
		goto fail_run;
	}
	r->started = 1;
	runs_set_pid(ix, r->run_id, cap.pid);
	/* The indexing thread works on a connection of its own. */
	x.run_id = r->run_id;
	x.ref_us = ri.started_us;
	x.tz_off_s = ri.tz_offset_s;
	x.st = &st;
	x.dir = dir;
	if (pttrace_db_open(&x.ix, db_path(ix), DB_NO_CREATE, &x.diag) == 0 &&
	    (checkpointer_start(&ck, x.ix), 1) &&
	    pthread_create(&thread, NULL, indexer_main, &x) == 0)
		thread_on = 1;
	else
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "cannot start the indexing thread: indexing later");
	cap.spool_failed = spool_failed;
	cap.arg = &(struct spool_alarm){ .h = h, .diag = diag };
	if (capture_loop(&cap, &w, &r->res, diag) < 0)
		flush(h, diag);
	r->output_lost = w.failed;
	r->lost_bytes = w.lost;
	spool_writer_close(&w);
	child_done_ns = pt_now_ns();
	if (thread_on) {
		__atomic_store_n(&x.handover, 1, __ATOMIC_RELEASE);
		pthread_join(thread, NULL);
		indexer_end(&x);
	}
	r->lag_seconds = (double)(pt_now_ns() - child_done_ns) / 1e9;
	if (x.ix)
		checkpointer_stop(&ck, &x.diag);
	db_close(x.ix);
	pt_diag_take(diag, &x.diag);
	if (!thread_on) {
		/* Indexed here, after the child: its figures too (the writer's are within). */
		double c0 = pt_thread_cpu_s();
		uint64_t t0 = pt_now_ns();

		x.rc = logs_ingest_run_dir(ix, r->run_id, ri.started_us, ri.tz_offset_s, &x.stats);
		x.cpu_seconds = pt_thread_cpu_s() - c0 + x.stats.writer_cpu_seconds;
		x.seconds = (double)(pt_now_ns() - t0) / 1e9;
	}
	runs_add_file(ix, r->run_id, "stdout.log", "stdout", (int64_t)st.bytes[1]);
	runs_add_file(ix, r->run_id, "stderr.log", "stderr", (int64_t)st.bytes[2]);
	runs_add_file(ix, r->run_id, "order.bin", "order", -1);
	/* The run is new: tt_index_run registers what TORCH_TRACE wrote into trace/ as it lists it. */
	if (tt_index_run(ix, r->run_id, 0, diag, NULL) < 0)
		x.rc = -1;
	if (o->dispatch && x.rc == 0 && x.stats.records[LOGS_DISPATCH] == 0)
		warn(h, ix, r->run_id, "dispatch-no-output",
		     "TORCH_SHOW_DISPATCH_TRACE=1 produced no dispatcher trace lines: release builds"
		     " compile it out; only code compiled without NDEBUG prints it");
	if (r->output_lost) {
		/* Kept with the run (show lists it); the error itself was shown when it happened. */
		char *msg = pt_xasprintf("output incomplete: writing the raw output failed (%s) after"
					 " %llu bytes of stdout and %llu of stderr; %llu bytes the"
					 " child wrote after that were passed through but not kept",
					 strerror(r->output_lost), (unsigned long long)st.bytes[1],
					 (unsigned long long)st.bytes[2],
					 (unsigned long long)r->lost_bytes);

		runs_add_warning(ix, r->run_id, "output-lost", msg);
		free(msg);
	}
	if (r->res.how == CAPTURE_SIGNALED && corefind_signal_dumps(r->res.code))
		find_core(ix, r, o, &cap, env, &ri, &core_rl);
	runs_finish(ix, r->run_id, r->res.how == CAPTURE_EXITED ? RUN_EXITED : RUN_SIGNALED,
		    r->res.code, r->res.ended_us, (int64_t)st.bytes[1], (int64_t)st.bytes[2]);
	if (x.rc != 0)
		pt_diag_add(diag, PT_SEV_WARNING, NULL, NULL,
			    "run %lld was not fully indexed; its output is kept in '%s' and"
			    " 'pttrace reindex %lld' indexes it again", (long long)r->run_id, dir,
			    (long long)r->run_id);
	r->stats = x.stats;
	r->indexed = x.rc == 0;
	r->child_seconds = (double)(r->res.ended_us - ri.started_us) / 1e6;
	r->index_seconds = x.seconds;
	r->index_cpu_seconds = x.cpu_seconds;
	rc = 0;
	goto out;
fail_run:
	runs_finish(ix, r->run_id, RUN_FAILED, 0, pt_wall_us(), 0, 0);
out:
	runenv_probe_release(&probe);
	pt_diag_release(&x.diag);
	spool_state_release(&st);
	runenv_free(env);
	free(dir);
	free(trace_dir);
	return rc;
}
