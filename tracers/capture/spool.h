/*
 * The run directory's raw output: stdout.log and stderr.log hold the
 * child's bytes exactly as written; order.bin says in which order chunks of
 * the two arrived. order.bin is a sequence of 8-byte records, little-endian
 * uint32 stream (1 stdout, 2 stderr) and uint32 length: "length bytes of
 * that stream came next". A record is written when the other stream takes
 * over, so the last run of bytes has none until spool_writer_close (after a
 * crash of pttrace the reader takes what is left of each file, stdout first).
 *
 * The writer (capture thread) and a live reader (indexing thread) share a
 * struct spool_state; a reader without one reads the files as they are
 * (pttrace reindex). The reader never holds more than its buffer in memory.
 */
#ifndef PT_SPOOL_H
#define PT_SPOOL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

#define SPOOL_STDOUT 1
#define SPOOL_STDERR 2

/* Progress the writer publishes to a live reader. */
struct spool_state {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	uint64_t bytes[3];	/* bytes in each file ([1] stdout, [2] stderr) */
	uint64_t order_recs;	/* records in order.bin */
	int cur_stream;		/* stream of the bytes not yet covered by a record; 0: none */
	int done;		/* the writer is closed: everything is in the files */
};

struct spool_writer {
	int fd[3];		/* [1] stdout.log, [2] stderr.log */
	int order_fd;
	int cur_stream;
	uint64_t cur_len;	/* bytes of the current run (no record yet) */
	struct spool_state *st;	/* may be NULL */
	char *dir;
	struct pt_diag *diag;
	uint64_t len[3];	/* bytes kept in each file */
	int failed;		/* errno of the first failed write; from then on nothing is kept */
	uint64_t lost;		/* bytes given to spool_write after that */
};

void spool_state_init(struct spool_state *st);
void spool_state_release(struct spool_state *st);

/* Create the three files in dir (truncating). Returns 0 or -1 (diag). */
int spool_writer_open(struct spool_writer *w, const char *dir, struct spool_state *st,
		      struct pt_diag *diag);

/*
 * Append len bytes of stream (1 or 2). 0, or -1 when they are not kept. The
 * first write error (a full disk, a file size limit) is reported once (diag)
 * and the file cut back to what was kept whole; the writer then keeps
 * nothing more (w->failed, w->lost count it) and says nothing more: the
 * caller goes on passing the output through, and what was kept is
 * consistent for the reader.
 */
int spool_write(struct spool_writer *w, int stream, const void *buf, size_t len);

/* Write the last record, close the files, tell the reader. 0 or -1 (diag). */
int spool_writer_close(struct spool_writer *w);

struct spool_reader {
	int fd[3];
	int order_fd;
	struct spool_state *st;	/* NULL: read the files as they are now */
	uint64_t off[3];	/* bytes delivered per stream */
	uint64_t rec;		/* next order record */
	uint64_t run_done;	/* bytes of record `rec` already delivered */
	int tail_stream;	/* files-only mode: remainders after the records */
	uint8_t *buf;
	size_t cap;
	char *dir;
	struct pt_diag *diag;
	/*
	 * Live reader: called (when set) each time it has caught up with the
	 * writer and is about to wait, at least every SPOOL_IDLE_MS while the
	 * writer is quiet: the indexer commits there, so readers of the index
	 * see what came so far. Non-zero stops spool_read with -1.
	 */
	int (*idle)(void *arg);
	void *idle_arg;
};

#define SPOOL_IDLE_MS 50

/* Open the files in dir for reading; st as the writer's, or NULL. 0 or -1 (diag). */
int spool_reader_open(struct spool_reader *r, const char *dir, struct spool_state *st,
		      struct pt_diag *diag);
void spool_reader_close(struct spool_reader *r);

/*
 * The next chunk in arrival order: *stream, *data (valid until the next
 * call), *len. Returns 1 with a chunk, 0 at the end (live: once the writer
 * closed and all is delivered), -1 on a read error (diag). A live reader
 * waits for the writer when it has caught up.
 */
int spool_read(struct spool_reader *r, int *stream, const uint8_t **data, size_t *len);

/*
 * Bytes [off, off+len) of stream's file into buf (for showing records as
 * they were written). Returns the bytes read (short at the end of the
 * file), or -1 (diag).
 */
ssize_t spool_pread(struct spool_reader *r, int stream, uint64_t off, void *buf, size_t len);

#endif
