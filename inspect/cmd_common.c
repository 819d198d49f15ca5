/* Small helpers the cmd_*.c front ends share; see ptinspect.h. */
#include <stdio.h>
#include <string.h>

#include "ptinspect.h"
#include "showconfig.h"
#include "strbuf.h"
#include "xalloc.h"

int pt_ctx_set_color(struct pt_ctx *ctx, const char *arg)
{
	int m = arg ? pt_color_mode_parse(arg) : PT_COLOR_ALWAYS;

	if (m < 0) {
		fprintf(stderr, "%s: unknown --color value '%s'\n", ctx->prog, arg);
		return -1;
	}
	ctx->color_mode = m;
	ctx->color = pt_color_enabled(stdout, m);
	ctx->color_err = pt_color_enabled(stderr, m);
	return 0;
}

int pt_read_stream(FILE *f, char **out, size_t *len)
{
	struct pt_strbuf sb;
	char buf[8192];
	size_t n;

	/* One byte past the parser's limit, so that "too large" is still seen. */
	pt_strbuf_init(&sb, SHOWCONFIG_MAX_LEN + 1);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (pt_strbuf_add(&sb, buf, n) < 0)
			break;
	if (ferror(f)) {
		pt_strbuf_release(&sb);
		return -1;
	}
	*len = sb.len;
	*out = sb.len ? pt_strbuf_detach(&sb) : pt_xstrdup("");
	pt_strbuf_release(&sb);
	return 0;
}
