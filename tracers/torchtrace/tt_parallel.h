/*
 * TORCH_TRACE files parsed on all cores, delivered in order. One reader
 * thread reads the files one after another (copying each to its destination
 * as it goes, when asked), cuts them into chunks of whole records (a chunk
 * ends before a line that is neither blank nor a TAB payload line) and
 * counts their lines; worker threads parse the chunks in place with
 * tt_reader (envelope JSON, payload assembly, md5); the calling thread gets
 * the records through the callbacks in file and line order, with the same
 * fields, line numbers and diagnostics (in the same order) as one
 * tt_reader fed the whole file (their bytes point into the chunk, which
 * lives until its records are delivered). Memory: at most 16 chunks in
 * flight, fewer on fewer CPUs (about 1 MiB each, more only for a single
 * record larger than that, plus the records' envelope objects with
 * keep_json); glibc's malloc arenas capped at one per CPU, at most 8.
 * Without keep_json, each worker builds its envelope objects in its JSON
 * arena (common/jsonarena.h: 256 KiB, started over after each record).
 */
#ifndef PT_TT_PARALLEL_H
#define PT_TT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "torchtrace.h"

struct tt_par_file {
	const char *path;	/* read from here */
	const char *name;	/* for messages (the reader's file name) */
	const char *copy_to;	/* an existing file to overwrite with the bytes read, or NULL */
};

struct tt_par_cbs {
	/* Before the first record of file i; non-zero stops everything. */
	int (*begin)(void *ctx, size_t i);
	/* Each record, as tt_reader's callback; < 0 stops everything. */
	tt_record_cb record;
	/* After file i: its reader statistics; rc is 0, or -1 when it could not be read
	   or copied (the reason is in diag). Non-zero stops everything. */
	int (*end)(void *ctx, size_t i, const struct tt_reader_stats *st, int rc);
	/* Bytes of file i parsed so far (progress); may be NULL. */
	void (*progress)(void *ctx, size_t i, uint64_t done);
	void *ctx;
	/*
	 * 0: records come without their envelope objects (env and meta NULL;
	 * kind, name, md5_declared and str_value are copies), which are freed on
	 * the worker that made them (glibc frees a thread's own blocks cheaply,
	 * another thread's at a cost). 1: env and meta too.
	 */
	int keep_json;
	/* If not NULL, gets the CPU seconds spent (added): reading and cutting,
	   parsing (all workers), and in this thread (the callbacks: the writer). */
	struct tt_par_cpu {
		double read, parse, deliver;
	} *cpu;
};

/*
 * Parse files[0..n) as above, calling cbs on this thread. threads: worker
 * threads, 0 for one per CPU this process may use (PT_JOBS overrides).
 * Returns 0, or -1 when a callback stopped it.
 */
int tt_par_read(const struct tt_par_file *files, size_t n, unsigned threads,
		   const struct tt_par_cbs *cbs, struct pt_diag *diag);

/* Tests: lines longer than this are shortened as read (tt_cut; 0: the caps + 1). */
void tt_par_set_cut(uint64_t line, uint64_t payload);

/* Tests: cut chunks of at least this many bytes (0: the default, 1 MiB). */
void tt_par_set_chunk(size_t bytes);

/* The worker threads tt_par_read would start for threads = 0. */
unsigned tt_par_default_threads(void);

#endif
