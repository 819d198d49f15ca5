/* Colour and progress policy; see term.h. */
#include "term.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int pt_color_mode_parse(const char *s)
{
	if (!strcmp(s, "auto"))
		return PT_COLOR_AUTO;
	if (!strcmp(s, "always"))
		return PT_COLOR_ALWAYS;
	if (!strcmp(s, "never"))
		return PT_COLOR_NEVER;
	return -1;
}

int pt_color_enabled(FILE *f, enum pt_color_mode mode)
{
	const char *nc = getenv("NO_COLOR");

	if (mode == PT_COLOR_ALWAYS)
		return 1;
	if (mode == PT_COLOR_NEVER)
		return 0;
	/* no-color.org: set and not empty disables colour. */
	if (nc && *nc)
		return 0;
	/* stdout and stderr may be ttysafe.h's streams, which have no descriptor. */
	return isatty(f == stdout ? STDOUT_FILENO : f == stderr ? STDERR_FILENO : fileno(f));
}

void pt_progress_init(struct pt_progress *p, const char *what, uint64_t total)
{
	memset(p, 0, sizeof(*p));
	p->on = isatty(STDERR_FILENO);
	p->what = what;
	p->total = total;
}

void pt_progress_update(struct pt_progress *p, uint64_t done)
{
	uint64_t now;

	if (!p->on)
		return;
	now = pt_now_ns();
	if (p->shown && now - p->last_ns < 100000000u)
		return;
	p->last_ns = now;
	p->shown = 1;
	if (p->total)
		fprintf(stderr, "\r\033[K%s: %3u%% (%llu MB of %llu MB)", p->what,
			(unsigned)(done * 100 / p->total), (unsigned long long)(done >> 20),
			(unsigned long long)(p->total >> 20));
	else
		fprintf(stderr, "\r\033[K%s: %llu MB", p->what, (unsigned long long)(done >> 20));
	fflush(stderr);
}

void pt_progress_done(struct pt_progress *p)
{
	if (p->on && p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
