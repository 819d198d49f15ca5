/* gzip out through zlib (gzout.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gzout.h"
#include "xalloc.h"

#define GZ_CHUNK (256 * 1024)

struct gzout {
	z_stream z;
	FILE *raw;
	uint64_t *written;
	uint64_t out;
	int failed;
	unsigned char buf[GZ_CHUNK];
};

/* Deflate what z holds with flush, writing every full buffer to raw; 0 or -1. */
static int pump(struct gzout *g, int flush)
{
	int zr;

	do {
		size_t n;

		g->z.next_out = g->buf;
		g->z.avail_out = sizeof(g->buf);
		zr = deflate(&g->z, flush);
		if (zr == Z_STREAM_ERROR)
			return -1;
		n = sizeof(g->buf) - g->z.avail_out;
		if (n && fwrite(g->buf, 1, n, g->raw) != n)
			return -1;
		g->out += n;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

static ssize_t gz_write(void *cookie, const char *p, size_t n)
{
	struct gzout *g = cookie;
	size_t done = 0;

	/* fopencookie(3): 0 on error, never a negative count. */
	if (g->failed) {
		errno = EIO;
		return 0;
	}
	while (done < n) {
		size_t k = n - done > (size_t)UINT32_MAX ? (size_t)UINT32_MAX : n - done;

		g->z.next_in = (unsigned char *)(uintptr_t)(p + done);
		g->z.avail_in = (uInt)k;
		if (pump(g, Z_NO_FLUSH) < 0) {
			g->failed = 1;
			errno = errno ? errno : EIO;
			return 0;
		}
		done += k;
	}
	return (ssize_t)n;
}

static int gz_close(void *cookie)
{
	struct gzout *g = cookie;
	int bad = g->failed;

	g->z.next_in = NULL;
	g->z.avail_in = 0;
	if (!bad && pump(g, Z_FINISH) < 0)
		bad = 1;
	deflateEnd(&g->z);
	if (fclose(g->raw))
		bad = 1;
	if (g->written)
		*g->written = g->out;
	free(g);
	if (bad && !errno)
		errno = EIO;
	return bad ? EOF : 0;
}

FILE *pt_gzout_open(FILE *raw, int level, uint64_t *written)
{
	struct gzout *g = pt_xcalloc(1, sizeof(*g));
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	FILE *f;

	if (written)
		*written = 0;
	/* windowBits 15 + 16: a gzip wrapper (a zero mtime, no name), memLevel 8 as zlib's default. */
	if (deflateInit2(&g->z, level < 1 || level > 9 ? 1 : level, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		fclose(raw);
		errno = ENOMEM;
		return NULL;
	}
	g->raw = raw;
	g->written = written;
	if (!(f = fopencookie(g, "w", io))) {
		int e = errno;

		deflateEnd(&g->z);
		free(g);
		fclose(raw);
		errno = e;
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 64 * 1024);
	return f;
}
