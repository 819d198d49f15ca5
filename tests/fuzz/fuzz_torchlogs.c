/* fuzz-links: pttrace_lib */
/*
 * The line parsers on arbitrary bytes: torchlogs_parse and the dispatcher
 * trace functions, the entry points the unit tests call, and the line
 * splitter fed in two chunks at a split point taken from the input.
 */
#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "lines.h"
#include "torchlogs.h"

static int on_line(void *arg, const struct line *l)
{
	struct torchlogs_line t;
	struct dispatch_call c;
	size_t pos[8];

	(void)arg;
	torchlogs_parse(l->p, l->len, &t);
	if (dispatch_parse(l->p, l->len, &c) != 0)
		dispatch_parse_torn(l->p, l->len, &c);
	dispatch_find_labels(l->p, l->len, pos, 8);
	dispatch_parse_loose(l->p, l->len, &c);
	dispatch_is_tail(l->p, l->len);
	dispatch_is_head(l->p, l->len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lines ls;
	size_t cut = size ? data[0] % (size + 1) : 0;

	lines_init(&ls, 0);
	ls.max = 64;	/* small, so over-long lines are exercised */
	lines_feed(&ls, data, cut, on_line, NULL);
	lines_feed(&ls, data + cut, size - cut, on_line, NULL);
	lines_finish(&ls, on_line, NULL);
	lines_release(&ls);
	return 0;
}
