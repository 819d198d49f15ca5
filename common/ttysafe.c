/* Escaping stdout and stderr for the terminal; see ttysafe.h. */
#include "ttysafe.h"

#include <stdbool.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

struct filter {
	FILE *under;
	const int *allow_color;		/* points at a flag that --color may change later */
	int own_color;			/* for pt_ttysafe_open */
	int allow_progress;
	unsigned char pend[24];		/* an escape sequence being read: ESC, '[', parameters */
	size_t np;
	bool c2;			/* a 0xc2 byte held: the first of a C1 control's UTF-8? */
};

static int color_out, color_err;
static struct filter std_out, std_err;	/* never closed: they live as long as the process */
static FILE *filtered_out;		/* pt_ttysafe_stdio's stdout stream */

static void put_escaped(struct filter *f, unsigned char b)
{
	if (b < 0x20 || b == 0x7f)
		fprintf(f->under, "\\x%02x", b);
	else
		fputc(b, f->under);
}

/* The pending bytes were not one of our sequences: show them. */
static void flush_pending(struct filter *f)
{
	for (size_t i = 0; i < f->np; i++)
		put_escaped(f, f->pend[i]);
	f->np = 0;
	if (f->c2)
		fputc(0xc2, f->under);
	f->c2 = false;
}

static void feed(struct filter *f, unsigned char b)
{
	for (;;) {
		if (f->np == 0) {
			/*
			 * C1 controls (U+0080-U+009F, 0xc2 0x80-0x9f in UTF-8): a terminal
			 * takes U+009B as CSI, so they are shown as \xc2\xNN. Any other
			 * 0xc2 sequence is text.
			 */
			if (f->c2) {
				f->c2 = false;
				if (b >= 0x80 && b <= 0x9f) {
					fprintf(f->under, "\\xc2\\x%02x", b);
					return;
				}
				fputc(0xc2, f->under);
			}
			if (b == 0xc2) {
				f->c2 = true;
				return;
			}
			if (b == 0x1b)
				f->pend[f->np++] = b;
			else if (b == '\n' || b == '\t' || (b == '\r' && f->allow_progress))
				fputc(b, f->under);
			else
				put_escaped(f, b);
			return;
		}
		if (f->np == 1) {
			if (b == '[') {
				f->pend[f->np++] = b;
				return;
			}
		} else if ((b >= '0' && b <= '9') || b == ';') {
			if (f->np < sizeof(f->pend)) {
				f->pend[f->np++] = b;
				return;
			}
		} else if ((b == 'm' && *f->allow_color) ||
			   (b == 'K' && f->np == 2 && f->allow_progress)) {
			fwrite(f->pend, 1, f->np, f->under);
			fputc(b, f->under);
			f->np = 0;
			return;
		}
		/* Not ours: show what was held, then look at b afresh. */
		flush_pending(f);
	}
}

static ssize_t filter_write(void *c, const char *buf, size_t n)
{
	struct filter *f = c;
	size_t i = 0;

	while (i < n) {
		size_t run = 0;

		/* Plain text in one piece; the byte-wise state machine for the rest. */
		while (!f->np && !f->c2 && i + run < n && (unsigned char)buf[i + run] >= 0x20 &&
		       (unsigned char)buf[i + run] != 0x7f && (unsigned char)buf[i + run] != 0xc2)
			run++;
		if (run) {
			fwrite(buf + i, 1, run, f->under);
			i += run;
			continue;
		}
		feed(f, (unsigned char)buf[i++]);
	}
	/* A child started after fflush(stdout) must find our output already written. */
	fflush(f->under);
	/*
	 * The stream's error is ours (errno as the write left it: EPIPE when the
	 * reader went away), so that ferror(stdout) and fflush see it.
	 */
	if (ferror(f->under))
		return -1;
	return (ssize_t)n;
}

static int filter_close(void *c)
{
	struct filter *f = c;

	flush_pending(f);
	fflush(f->under);
	free(f);
	return 0;
}

static FILE *open_filter(struct filter *f, FILE *under, const int *allow_color, int own_color,
			 int allow_progress)
{
	cookie_io_functions_t io = { .write = filter_write, .close = f ? NULL : filter_close };
	FILE *s;

	if (!f)
		f = pt_xcalloc(1, sizeof(*f));
	f->under = under;
	f->own_color = own_color;
	f->allow_color = allow_color ? allow_color : &f->own_color;
	f->allow_progress = allow_progress;
	s = fopencookie(f, "w", io);
	if (!s && io.close)
		free(f);
	return s;
}

FILE *pt_ttysafe_open(FILE *under, int allow_color, int allow_progress)
{
	return open_filter(NULL, under, NULL, allow_color, allow_progress);
}

void pt_ttysafe_allow_color(int out, int err)
{
	color_out = out;
	color_err = err;
}

/* At exit: what the streams hold, then a sequence cut by the end, shown. */
static void flush_std(void)
{
	fflush(stdout);
	fflush(stderr);
	flush_pending(&std_out);
	flush_pending(&std_err);
	fflush(std_out.under);
	fflush(std_err.under);
}

void pt_ttysafe_stdout_raw(void)
{
	if (!filtered_out || stdout != filtered_out)
		return;
	fflush(stdout);
	stdout = std_out.under;
}

int pt_ttysafe_stdio(void)
{
	/*
	 * As the originals: stdout buffered, by lines on a terminal or where the
	 * original was set so before main (stdbuf -oL: the guide tests rely on it
	 * to keep stdout and stderr in program order), stderr not.
	 */
	int by_lines = isatty(STDOUT_FILENO) || __flbf(stdout);
	FILE *out = open_filter(&std_out, stdout, &color_out, 0, 0);
	FILE *err = out ? open_filter(&std_err, stderr, &color_err, 0, isatty(STDERR_FILENO)) : NULL;

	if (!out || !err)
		return -1;	/* a stream not opened is never used: the originals stay */
	setvbuf(out, NULL, by_lines ? _IOLBF : _IOFBF, BUFSIZ);
	setvbuf(err, NULL, _IONBF, 0);
	stdout = filtered_out = out;
	stderr = err;
	atexit(flush_std);
	return 0;
}
