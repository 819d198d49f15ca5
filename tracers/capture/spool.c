/* Raw output files of a run; see spool.h. */
#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bytes.h"
#include "clock.h"
#include "fsutil.h"
#include "xalloc.h"

#define SPOOL_READ_BUF (1u << 20)

static const char *const names[3] = { "order.bin", "stdout.log", "stderr.log" };

void spool_state_init(struct spool_state *st)
{
	memset(st, 0, sizeof(*st));
	pthread_mutex_init(&st->mu, NULL);
	pthread_cond_init(&st->cond, NULL);
}

void spool_state_release(struct spool_state *st)
{
	pthread_mutex_destroy(&st->mu);
	pthread_cond_destroy(&st->cond);
}

int spool_writer_open(struct spool_writer *w, const char *dir, struct spool_state *st,
		      struct pt_diag *diag)
{
	memset(w, 0, sizeof(*w));
	w->fd[0] = w->fd[1] = w->fd[2] = w->order_fd = -1;
	w->st = st;
	w->diag = diag;
	w->dir = pt_xstrdup(dir);
	for (int i = 0; i < 3; i++) {
		char *path = pt_xasprintf("%s/%s", dir, names[i]);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (fd < 0) {
			pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "cannot create: %s", strerror(errno));
			free(path);
			spool_writer_close(w);
			return -1;
		}
		free(path);
		if (i == 0)
			w->order_fd = fd;
		else
			w->fd[i] = fd;
	}
	return 0;
}

static int put_record(struct spool_writer *w)
{
	uint8_t rec[8];
	uint32_t s = (uint32_t)w->cur_stream;

	/* A run longer than 4 GiB is split into several records. */
	while (w->cur_len) {
		uint32_t n = w->cur_len > 0xffffffffu ? 0xffffffffu : (uint32_t)w->cur_len;

		pt_put_le32(rec, s);
		pt_put_le32(rec + 4, n);
		if (pt_write_all(w->order_fd, rec, sizeof(rec)) < 0)
			return -1;
		w->cur_len -= n;
		if (w->st) {
			pthread_mutex_lock(&w->st->mu);
			w->st->order_recs++;
			pthread_mutex_unlock(&w->st->mu);
		}
	}
	return 0;
}

/* The first write error: one message, the files as long as what was counted. */
static int write_failed(struct spool_writer *w, int file, int e, size_t len)
{
	for (int i = 1; i < 3; i++)
		if (w->fd[i] >= 0 && ftruncate(w->fd[i], (off_t)w->len[i]) < 0)
			continue;	/* best effort: the reader stops at the counted bytes anyway */
	pt_diag_add(w->diag, PT_SEV_ERROR, w->dir, names[file],
		    "write: %s; the child's output from here on is passed through but not kept",
		    strerror(e));
	w->failed = e;
	w->lost += len;
	return -1;
}

int spool_write(struct spool_writer *w, int stream, const void *buf, size_t len)
{
	if (w->failed) {
		w->lost += len;
		return -1;
	}
	if (pt_write_all(w->fd[stream], buf, len) < 0)
		return write_failed(w, stream, errno, len);
	if (stream != w->cur_stream) {
		if (w->cur_stream && put_record(w) < 0)
			return write_failed(w, 0, errno, len);
		w->cur_stream = stream;
	}
	w->cur_len += len;
	w->len[stream] += len;
	if (w->st) {
		pthread_mutex_lock(&w->st->mu);
		w->st->bytes[stream] += len;
		w->st->cur_stream = stream;
		pthread_cond_signal(&w->st->cond);
		pthread_mutex_unlock(&w->st->mu);
	}
	return 0;
}

int spool_writer_close(struct spool_writer *w)
{
	int rc = 0;

	if (w->order_fd >= 0 && w->cur_stream && put_record(w) < 0) {
		if (!w->failed)
			pt_diag_add(w->diag, PT_SEV_ERROR, w->dir, names[0], "write: %s",
				    strerror(errno));
		rc = -1;
	}
	w->cur_stream = 0;
	for (int i = 1; i < 3; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	if (w->order_fd >= 0)
		close(w->order_fd);
	w->fd[1] = w->fd[2] = w->order_fd = -1;
	if (w->st) {
		pthread_mutex_lock(&w->st->mu);
		w->st->cur_stream = 0;
		w->st->done = 1;
		pthread_cond_broadcast(&w->st->cond);
		pthread_mutex_unlock(&w->st->mu);
	}
	free(w->dir);
	w->dir = NULL;
	return rc;
}

int spool_reader_open(struct spool_reader *r, const char *dir, struct spool_state *st,
		      struct pt_diag *diag)
{
	memset(r, 0, sizeof(*r));
	r->fd[0] = r->fd[1] = r->fd[2] = r->order_fd = -1;
	r->st = st;
	r->diag = diag;
	r->dir = pt_xstrdup(dir);
	r->tail_stream = SPOOL_STDOUT;
	for (int i = 0; i < 3; i++) {
		char *path = pt_xasprintf("%s/%s", dir, names[i]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "cannot open: %s", strerror(errno));
			free(path);
			spool_reader_close(r);
			return -1;
		}
		free(path);
		if (i == 0)
			r->order_fd = fd;
		else
			r->fd[i] = fd;
	}
	r->cap = SPOOL_READ_BUF;
	r->buf = pt_xmalloc(r->cap);
	return 0;
}

void spool_reader_close(struct spool_reader *r)
{
	for (int i = 1; i < 3; i++)
		if (r->fd[i] >= 0)
			close(r->fd[i]);
	if (r->order_fd >= 0)
		close(r->order_fd);
	r->fd[1] = r->fd[2] = r->order_fd = -1;
	free(r->buf);
	free(r->dir);
	r->buf = NULL;
	r->dir = NULL;
}

/* Read up to want bytes of stream s at its offset into buf. */
static int deliver(struct spool_reader *r, int s, uint64_t want, int *stream,
		   const uint8_t **data, size_t *len)
{
	size_t n = want < r->cap ? (size_t)want : r->cap;
	ssize_t got;

	do
		got = pread(r->fd[s], r->buf, n, (off_t)r->off[s]);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		pt_diag_add(r->diag, PT_SEV_ERROR, r->dir, names[s], "read: %s", strerror(errno));
		return -1;
	}
	if (got == 0)
		return 0;
	r->off[s] += (uint64_t)got;
	*stream = s;
	*data = r->buf;
	*len = (size_t)got;
	return 1;
}

/* Record number i of order.bin: 1, 0 (not there), -1. */
static int read_record(struct spool_reader *r, uint64_t i, int *s, uint64_t *n)
{
	uint8_t rec[8];
	ssize_t got;
	uint32_t a, b;

	if (r->order_fd < 0)
		return 0;	/* a bad record ended the order: said once */
	got = pread(r->order_fd, rec, sizeof(rec), (off_t)(i * 8));
	if (got < 0) {
		pt_diag_add(r->diag, PT_SEV_ERROR, r->dir, names[0], "read: %s", strerror(errno));
		return -1;
	}
	if (got < (ssize_t)sizeof(rec))
		return 0;
	a = pt_le32(rec);
	b = pt_le32(rec + 4);
	if (a != SPOOL_STDOUT && a != SPOOL_STDERR) {
		pt_diag_add(r->diag, PT_SEV_WARNING, r->dir, names[0],
			    "record %llu: bad stream %u; order after it is lost", (unsigned long long)i, a);
		close(r->order_fd);
		r->order_fd = -1;
		return 0;
	}
	*s = (int)a;
	*n = b;
	return 1;
}

int spool_read(struct spool_reader *r, int *stream, const uint8_t **data, size_t *len)
{
	for (;;) {
		uint64_t recs = UINT64_MAX, bytes[3] = { 0, 0, 0 };
		int cur = 0, done = 1, s, rc;
		uint64_t n;

		if (r->st) {
			pthread_mutex_lock(&r->st->mu);
			recs = r->st->order_recs;
			cur = r->st->cur_stream;
			done = r->st->done;
			memcpy(bytes, r->st->bytes, sizeof(bytes));
			pthread_mutex_unlock(&r->st->mu);
		}
		if (r->rec < recs) {
			rc = read_record(r, r->rec, &s, &n);
			if (rc < 0)
				return -1;
			if (rc == 1) {
				if (r->run_done < n) {
					rc = deliver(r, s, n - r->run_done, stream, data, len);
					if (rc < 0)
						return -1;
					if (rc == 1) {
						r->run_done += *len;
						return 1;
					}
					/* The file is shorter than its record says (damaged): move on. */
				}
				r->rec++;
				r->run_done = 0;
				continue;
			}
			if (r->st && r->rec < recs)
				return -1;	/* a record we were told about is not there */
		}
		if (r->st && !done) {
			/* Live: the current run has no record yet; read what is there. */
			if (cur && r->off[cur] < bytes[cur]) {
				rc = deliver(r, cur, bytes[cur] - r->off[cur], stream, data, len);
				if (rc != 0) {
					if (rc == 1)
						r->run_done += *len;
					return rc;
				}
			}
			if (r->idle && r->idle(r->idle_arg) != 0)
				return -1;
			pthread_mutex_lock(&r->st->mu);
			if (!r->st->done && r->st->order_recs == recs && r->st->bytes[1] == bytes[1] &&
			    r->st->bytes[2] == bytes[2]) {
				struct timespec ts = pt_deadline_ms(SPOOL_IDLE_MS);

				pthread_cond_timedwait(&r->st->cond, &r->st->mu, &ts);
			}
			pthread_mutex_unlock(&r->st->mu);
			continue;
		}
		if (r->st && r->rec < recs)
			continue;
		/* Records exhausted: what is left of each file (after a crash), stdout first. */
		while (r->tail_stream <= SPOOL_STDERR) {
			rc = deliver(r, r->tail_stream, UINT64_MAX, stream, data, len);
			if (rc != 0)
				return rc;
			r->tail_stream++;
		}
		return 0;
	}
}

ssize_t spool_pread(struct spool_reader *r, int stream, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;

	if (stream < 1 || stream > 2)
		return -1;
	while (done < len) {
		ssize_t n = pread(r->fd[stream], (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pt_diag_add(r->diag, PT_SEV_ERROR, r->dir, names[stream], "read: %s",
				    strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}
