/*
 * The segmenter of `ptinspect buildlog` (buildlog.h): lines from bllines,
 * classified by blclass, cut into ninja edges, CMake Error blocks and Python
 * tracebacks; the verdict at the end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buildlog.h"
#include "numparse.h"
#include "strbuf.h"
#include "term.h"
#include "xalloc.h"

enum seg {
	SEG_OUTSIDE,		/* not inside an edge's output */
	SEG_EDGE_OK,		/* after a status line: a finished edge's output */
	SEG_FAILED_CMD,		/* after FAILED:, the command line comes next */
	SEG_FAILED,		/* a failed edge's output */
};

struct buildlog {
	struct bl_lines ls;
	struct buildlog_result r;
	enum seg seg;
	/* The last status line (the description of the edge that comes next). */
	char *desc;
	uint32_t k, total;
	bool desc_valid;
	struct bl_edge *cur;	/* the failed edge being read, NULL when not kept */
	/* A CMake Error block or traceback outside the edges. */
	int block;		/* 0 none, 1 CMake Error, 2 traceback */
	size_t block_lines;
	bool tb_any;		/* a traceback has frames */
	char *tb_frame;		/* its last frame */
	bool tb_torchgen;
	/* The first cause outside any edge. */
	bool have_outside;
	uint64_t outside_no;
	enum bl_cause outside_cause;
	enum bl_phase outside_phase;
	bool outside_final;	/* block cause refined or not refinable */
	struct bl_lines_kept tb;	/* the traceback being read */
	/*
	 * The errors after the last status line, before any FAILED: (capped):
	 * an edge of ninja's console pool (cmake's install, a USES_TERMINAL
	 * command) prints its output there, and nothing after its FAILED:.
	 */
	struct bl_lines_kept console;
	struct bl_lines_kept pending;	/* the console lines before the failed edge being read */
	uint64_t first_bytes;	/* bytes seen for the binary check */
	uint64_t ctrl;		/* control bytes among them */
	bool finished;
};

static char *keep_str(const char *s, size_t n, bool *trunc)
{
	if (n > BL_KEEP_LEN) {
		if (trunc)
			*trunc = true;
		n = BL_KEEP_LEN;
	}
	return pt_xstrndup(s, n);
}

static struct bl_kept *keep(struct bl_lines_kept *k, size_t cap, const struct bl_line *l, enum bl_kind kind)
{
	struct bl_kept *e;

	if (k->n >= cap) {
		k->dropped++;
		return NULL;
	}
	PT_GROW(k->v, k->n, k->a);
	e = &k->v[k->n++];
	memset(e, 0, sizeof(*e));
	e->text = keep_str(l->p, l->len, &e->trunc);
	e->trunc |= l->cut > 0;
	e->no = l->no;
	e->kind = kind;
	return e;
}

static void kept_release(struct bl_lines_kept *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].text);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

static bool starts(const char *s, size_t n, const char *pre)
{
	size_t m = strlen(pre);

	return n >= m && !memcmp(s, pre, m);
}

static bool has(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* "[12/345] desc": k, total and where desc starts; false when not a status line. */
static bool status_line(const char *s, size_t n, uint32_t *k, uint32_t *total, size_t *desc)
{
	size_t i = 1, j;
	uint64_t a, b;

	if (n < 5 || s[0] != '[')
		return false;
	j = pt_dec_scan(s + i, n - i, UINT32_MAX, &a);
	if (!j || i + j >= n || s[i + j] != '/')
		return false;
	i += j + 1;
	j = pt_dec_scan(s + i, n - i, UINT32_MAX, &b);
	if (!j || i + j >= n || s[i + j] != ']')
		return false;
	i += j + 1;
	if (i < n && s[i] == ' ')
		i++;
	*k = a > UINT32_MAX ? UINT32_MAX : (uint32_t)a;
	*total = b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
	*desc = i;
	return true;
}

static void count_warning(struct buildlog_result *r, const char *s, size_t n)
{
	size_t len;
	const char *kind = blclass_warning_kind(s, n, &len);

	r->warnings++;
	for (size_t i = 0; i < r->n_wk; i++)
		if (strlen(r->wk[i].kind) == len && !memcmp(r->wk[i].kind, kind, len)) {
			r->wk[i].n++;
			return;
		}
	if (r->n_wk >= BL_MAX_WKINDS) {
		kind = "other";
		len = 5;
		for (size_t i = 0; i < r->n_wk; i++)
			if (!strcmp(r->wk[i].kind, "other")) {
				r->wk[i].n++;
				return;
			}
	}
	PT_GROW(r->wk, r->n_wk, r->a_wk);
	r->wk[r->n_wk++] = (struct bl_wkind){ pt_xstrndup(kind, len), 1 };
}

static bool is_consequence_cause(const struct bl_rule *ru)
{
	return ru && ru->kind == BL_KIND_CONSEQUENCE;
}

static void note_consequence(struct buildlog *b, const struct bl_line *l)
{
	if (!b->r.consequence) {
		b->r.consequence = keep_str(l->p, l->len, NULL);
		b->r.consequence_no = l->no;
	}
}

/* The failed edge's line: classify, keep, find its first error and cause. */
static void edge_line(struct buildlog *b, const struct bl_line *l, const struct bl_rule *ru, bool tb_exc)
{
	struct bl_edge *e = b->cur;
	enum bl_kind kind = ru ? ru->kind : BL_KIND_NONE;
	struct bl_kept *k;

	if (tb_exc)
		kind = BL_KIND_CAUSE;
	if (!e)
		return;
	if (kind == BL_KIND_CAUSE || kind == BL_KIND_ERROR)
		e->n_errors++;
	k = keep(&e->out, BL_EDGE_LINES, l, kind);
	if (!k)
		return;
	if ((kind == BL_KIND_CAUSE || kind == BL_KIND_ERROR) && e->first_error == SIZE_MAX)
		e->first_error = e->out.n - 1;
	if (kind == BL_KIND_CAUSE && e->cause_at == SIZE_MAX) {
		e->cause_at = e->out.n - 1;
		e->cause = tb_exc ? BL_CAUSE_PYTHON : ru->cause;
		if (ru && ru->phase == BL_PHASE_LINK)
			e->phase = BL_PHASE_LINK;
		/* "CMake Error at cmake_install.cmake:46 (file):": the install step's own. */
		if (e->cause == BL_CAUSE_CMAKE_ERROR && has(l->p, l->len, "cmake_install.cmake")) {
			e->cause = BL_CAUSE_INSTALL;
			e->phase = BL_PHASE_INSTALL;
		}
	}
}

/*
 * The failed edge ends. With no output of its own, it was a console-pool
 * edge: the errors printed before its FAILED: line are its output.
 */
static void edge_close(struct buildlog *b)
{
	if (b->cur && b->cur->out.n == 0 && b->pending.n) {
		for (size_t i = 0; i < b->pending.n; i++) {
			const struct bl_kept *k = &b->pending.v[i];
			struct bl_line l = { .p = k->text, .len = strlen(k->text), .no = k->no };
			const struct bl_rule *ru = blclass_line(l.p, l.len);

			if (ru && ru->kind == BL_KIND_WARNING)
				ru = NULL;
			edge_line(b, &l, ru, false);
		}
	}
	kept_release(&b->pending);
}

static void start_failed(struct buildlog *b, const char *s, size_t n, uint64_t no)
{
	struct buildlog_result *r = &b->r;
	struct bl_edge *e;
	size_t i = 7;		/* "FAILED:" */

	edge_close(b);
	r->n_failed++;
	b->seg = SEG_FAILED_CMD;
	if (r->n_edges >= BL_MAX_EDGES) {
		b->cur = NULL;
		return;
	}
	while (i < n && s[i] == ' ')
		i++;
	/* ninja 1.13: "FAILED: [code=1] out". */
	if (starts(s + i, n - i, "[code=")) {
		const char *rb = memchr(s + i, ']', n - i);

		if (rb)
			i = (size_t)(rb - s) + 1;
		while (i < n && s[i] == ' ')
			i++;
	}
	PT_GROW(r->edges, r->n_edges, r->a_edges);
	e = &r->edges[r->n_edges++];
	memset(e, 0, sizeof(*e));
	e->no = no;
	while (n > i && s[n - 1] == ' ')
		n--;
	e->outputs = keep_str(s + i, n - i, NULL);
	e->first_error = e->cause_at = SIZE_MAX;
	e->phase = BL_PHASE_COMPILE;
	if (b->desc_valid) {
		e->desc = pt_xstrdup(b->desc);
		e->k = b->k;
		e->total = b->total;
	}
	b->cur = e;
	b->pending = b->console;
	memset(&b->console, 0, sizeof(b->console));
}

/* An error outside the edges: the first cause wins, a CMake block refines it. */
static void outside_cause(struct buildlog *b, const struct bl_line *l, enum bl_cause c, enum bl_phase ph)
{
	if (b->have_outside)
		return;
	b->have_outside = true;
	b->outside_no = l->no;
	b->outside_cause = c;
	b->outside_phase = ph;
}

static void block_end(struct buildlog *b)
{
	if (b->block == 1)
		b->outside_final = true;
	b->block = 0;
}

static void tb_finish(struct buildlog *b, const struct bl_line *exc, bool consequence, bool in_edge)
{
	struct buildlog_result *r = &b->r;

	if (!consequence && !in_edge && !b->have_outside) {
		kept_release(&r->block);
		r->block = b->tb;
		memset(&b->tb, 0, sizeof(b->tb));
		keep(&r->block, BL_BLOCK_LINES + 1, exc, BL_KIND_CAUSE);
		free(r->py_frame);
		r->py_frame = b->tb_frame;
		b->tb_frame = NULL;
		r->torchgen = b->tb_torchgen;
		outside_cause(b, exc, BL_CAUSE_PYTHON, BL_PHASE_SETUP);
		b->outside_final = true;
	} else if (!consequence && in_edge) {
		free(r->py_frame);
		r->py_frame = b->tb_frame;
		b->tb_frame = NULL;
		r->torchgen |= b->tb_torchgen;
	}
	kept_release(&b->tb);
	free(b->tb_frame);
	b->tb_frame = NULL;
	b->tb_torchgen = false;
	b->tb_any = false;
}

static bool success_line(const char *s, size_t n)
{
	return starts(s, n, "Successfully installed ") || starts(s, n, "Successfully built ") ||
	       starts(s, n, "Finished processing dependencies for ") || starts(s, n, "ninja: no work to do") ||
	       starts(s, n, "-- Build files have been written to: ");
}

static void on_line(void *arg, const struct bl_line *l)
{
	struct buildlog *b = arg;
	struct buildlog_result *r = &b->r;
	const char *s = l->p;
	size_t n = l->len, d;
	uint32_t k, total;
	const struct bl_rule *ru;
	bool tb_exc = false, tb_conseq = false, in_edge;

	r->lines++;
	r->nul_bytes += l->nul;
	if (l->cut)
		r->cut_lines++;
	if (l->no_eol)
		r->no_eol = true;
	/* Leading blanks: pip indents a subprocess's output in some versions. */
	while (n && (*s == ' ' || *s == '\t') && b->block == 0 && b->seg != SEG_FAILED && b->seg != SEG_EDGE_OK &&
	       !b->tb_any)
		s++, n--;
	if (b->seg == SEG_FAILED_CMD) {
		/* The line after FAILED: is the edge's command. */
		if (b->cur)
			b->cur->command = pt_xstrndup(l->p, l->len);
		if (b->cur && b->cur->command && buildlog_is_link(b->cur->command))
			b->cur->phase = BL_PHASE_LINK;
		if (b->cur && b->cur->command && has(l->p, l->len, "cmake_install.cmake"))
			b->cur->phase = BL_PHASE_INSTALL;
		if (b->cur && b->cur->command && has(l->p, l->len, "--regenerate-during-build"))
			b->cur->phase = BL_PHASE_CONFIGURE;
		b->seg = SEG_FAILED;
		return;
	}
	if (status_line(s, n, &k, &total, &d)) {
		r->ninja_status_lines++;
		r->ninja_k = k;
		r->ninja_total = total;
		free(b->desc);
		b->desc = pt_xstrndup(s + d, n - d > BL_KEEP_LEN ? BL_KEEP_LEN : n - d);
		b->k = k;
		b->total = total;
		b->desc_valid = true;
		b->seg = SEG_EDGE_OK;
		edge_close(b);
		kept_release(&b->console);
		b->cur = NULL;
		if (b->block)
			block_end(b);
		return;
	}
	if (starts(s, n, "FAILED: ")) {
		if (b->block)
			block_end(b);
		start_failed(b, s, n, l->no);
		b->desc_valid = false;
		return;
	}
	if (starts(s, n, "ninja: ")) {
		/* ninja's own lines end any edge's output. */
		b->seg = SEG_OUTSIDE;
		edge_close(b);
		kept_release(&b->console);
		b->cur = NULL;
		if (starts(s, n, "ninja: build stopped"))
			r->ninja_stopped = true;
	}
	in_edge = b->seg == SEG_FAILED || b->seg == SEG_EDGE_OK;
	/* Python tracebacks: frames are indented, the exception line is not. */
	if (starts(s, n, "Traceback (most recent call last):")) {
		kept_release(&b->tb);
		b->tb_any = true;
		keep(&b->tb, BL_BLOCK_LINES, l, BL_KIND_CONTEXT);
		if (in_edge && b->seg == SEG_FAILED)
			edge_line(b, l, NULL, false);
		return;
	}
	if (b->tb_any) {
		if (n && (s[0] == ' ' || s[0] == '\t')) {
			const char *t = s;
			size_t m = n;

			while (m && (*t == ' ' || *t == '\t'))
				t++, m--;
			if (starts(t, m, "File \"")) {
				free(b->tb_frame);
				b->tb_frame = keep_str(t, m, NULL);
				if (has(t, m, "torchgen/"))
					b->tb_torchgen = true;
			}
			/* Keep the last frames: drop the oldest past the cap. */
			if (b->tb.n >= BL_BLOCK_LINES && b->tb.n > 1) {
				free(b->tb.v[1].text);
				memmove(b->tb.v + 1, b->tb.v + 2, (b->tb.n - 2) * sizeof(*b->tb.v));
				b->tb.n--;
				b->tb.dropped++;
			}
			keep(&b->tb, BL_BLOCK_LINES, l, BL_KIND_CONTEXT);
			if (b->seg == SEG_FAILED)
				edge_line(b, l, NULL, false);
			return;
		}
		if (starts(s, n, "During handling of the above exception") ||
		    starts(s, n, "The above exception was the direct cause") || n == 0) {
			keep(&b->tb, BL_BLOCK_LINES, l, BL_KIND_CONTEXT);
			return;
		}
		/* The exception line. */
		ru = blclass_line(s, n);
		tb_conseq = is_consequence_cause(ru);
		tb_exc = !tb_conseq;
		tb_finish(b, l, tb_conseq, b->seg == SEG_FAILED);
		if (tb_exc) {
			r->errors++;
			if (b->seg == SEG_FAILED) {
				edge_line(b, l, ru, true);
			}
			return;
		}
		/* A consequence: classified below as one. */
	}
	ru = blclass_line(s, n);
	if (ru && ru->kind == BL_KIND_WARNING) {
		count_warning(r, s, n);
		if (b->cur && b->seg == SEG_FAILED) {
			b->cur->n_warnings++;
			edge_line(b, l, ru, false);
		}
		return;
	}
	if (ru && (ru->kind == BL_KIND_CAUSE || ru->kind == BL_KIND_ERROR))
		r->errors++;
	if (b->seg == SEG_FAILED) {
		edge_line(b, l, ru, false);
		if (ru && ru->kind == BL_KIND_CONSEQUENCE)
			note_consequence(b, l);
		return;
	}
	if (b->seg == SEG_EDGE_OK) {
		/* A finished edge's output (its warnings are counted), or a console edge's. */
		if (b->console.n || (ru && (ru->kind == BL_KIND_CAUSE || ru->kind == BL_KIND_ERROR)))
			keep(&b->console, BL_EDGE_LINES, l, ru ? ru->kind : BL_KIND_NONE);
		return;
	}
	/* Outside the edges: CMake, setup.py, pip. */
	if (success_line(s, n)) {
		free(r->success);
		r->success = keep_str(s, n, NULL);
	}
	if (b->block == 1) {
		/* A CMake Error block: indented lines, "Call Stack", blank lines. */
		if (starts(s, n, "-- ") || starts(s, n, "CMake ") || ++b->block_lines > 60) {
			block_end(b);
		} else {
			if (b->outside_no && r->block.n && r->block.v[0].no == b->outside_no)
				keep(&r->block, BL_BLOCK_LINES, l, ru ? ru->kind : BL_KIND_NONE);
			if (ru && ru->kind == BL_KIND_CAUSE && ru->phase == BL_PHASE_CONFIGURE &&
			    b->outside_cause == BL_CAUSE_CMAKE_ERROR && !b->outside_final)
				b->outside_cause = ru->cause;
			/*
			 * A find module's own error ("MKL library not found." of torch's
			 * FindMKL.cmake), its call stack through find_package: a package.
			 */
			if (has(s, n, "(find_package)") && b->outside_cause == BL_CAUSE_CMAKE_ERROR && !b->outside_final)
				b->outside_cause = BL_CAUSE_CMAKE_PACKAGE;
			if (ru && ru->kind == BL_KIND_CONSEQUENCE)
				note_consequence(b, l);
			return;
		}
	}
	if (!ru)
		return;
	if (ru->kind == BL_KIND_CONSEQUENCE) {
		note_consequence(b, l);
		return;
	}
	if (ru->kind == BL_KIND_CAUSE && ru->cause == BL_CAUSE_CMAKE_ERROR) {
		if (!b->have_outside) {
			kept_release(&r->block);
			keep(&r->block, BL_BLOCK_LINES, l, BL_KIND_CAUSE);
		}
		if (has(s, n, "cmake_install.cmake"))
			outside_cause(b, l, BL_CAUSE_INSTALL, BL_PHASE_INSTALL);	/* cmake --install */
		else
			outside_cause(b, l, BL_CAUSE_CMAKE_ERROR, BL_PHASE_CONFIGURE);
		b->block = 1;
		b->block_lines = 0;
		return;
	}
	/* "-- Could NOT find X" outside a CMake Error is CMake's report of an optional package. */
	if (ru->kind == BL_KIND_CAUSE && ru->phase == BL_PHASE_CONFIGURE)
		return;
	if (ru->kind == BL_KIND_CAUSE) {
		if (!b->have_outside) {
			kept_release(&r->block);
			keep(&r->block, BL_BLOCK_LINES, l, BL_KIND_CAUSE);
			b->outside_final = true;
		}
		outside_cause(b, l, ru->cause, ru->phase ? ru->phase : BL_PHASE_SETUP);
	}
}

struct buildlog *buildlog_new(void)
{
	struct buildlog *b = pt_xcalloc(1, sizeof(*b));

	bl_lines_init(&b->ls);
	return b;
}

void buildlog_feed(struct buildlog *b, const uint8_t *p, size_t n)
{
	/* The binary check: control bytes in the first 64 KiB. */
	if (b->first_bytes < 65536) {
		size_t m = n < 65536 - b->first_bytes ? n : (size_t)(65536 - b->first_bytes);

		for (size_t i = 0; i < m; i++)
			if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t' && p[i] != 0x1b &&
			     p[i] != '\b' && p[i] != '\f') || p[i] == 0x7f)
				b->ctrl++;
		b->first_bytes += m;
	}
	bl_lines_feed(&b->ls, p, n, on_line, b);
}

/* Between a and b in s (after the first a), malloc'd; NULL when not found. */
static char *between(const char *s, const char *a, const char *bb)
{
	const char *p = strstr(s, a), *q;

	if (!p)
		return NULL;
	p += strlen(a);
	q = strstr(p, bb);
	if (!q)
		return NULL;
	return pt_xstrndup(p, (size_t)(q - p));
}

static void details(struct buildlog_result *r, const char *line)
{
	switch (r->cause) {
	case BL_CAUSE_HEADER: {
		char *h = between(line, "fatal error: ", ": No such file or directory");
		const char *colon;

		if (!h)
			h = between(line, "fatal error: '", "' file not found");
		if (!h)
			h = between(line, "cannot open source file \"", "\"");
		r->header = h;
		if ((colon = strchr(line, ':')) && colon > line)
			r->header_from = pt_xstrndup(line, (size_t)(colon - line));
		if (h)
			r->header_hint = buildlog_header_hint(h, r->header_from, &r->cause);
		break;
	}
	case BL_CAUSE_UNDEFINED: {
		char *sym = between(line, "undefined reference to `", "'");

		if (!sym)
			sym = between(line, "undefined reference to '", "'");
		if (!sym && strstr(line, "undefined symbol: "))
			sym = pt_xstrdup(strstr(line, "undefined symbol: ") + 18);
		r->symbol = sym;
		if (sym)
			r->abi_twin = buildlog_abi_twin(sym, &r->symbol_cxx11);
		break;
	}
	case BL_CAUSE_NVCC_ARCH: {
		char *a = between(line, "Unsupported gpu architecture '", "'");

		if (!a)
			a = between(line, "Value '", "' is not defined");
		r->arch = a;
		break;
	}
	case BL_CAUSE_NVCC_OPTION:
		r->option = between(line, "Unknown option '", "'");
		if (!r->option)
			r->option = between(line, "Don't know what to do with '", "'");
		break;
	default:
		break;
	}
}

const struct buildlog_result *buildlog_finish(struct buildlog *b)
{
	struct buildlog_result *r = &b->r;

	if (b->finished)
		return r;
	b->finished = true;
	bl_lines_finish(&b->ls, on_line, b);
	edge_close(b);
	b->cur = NULL;
	if (b->tb_any)
		kept_release(&b->tb);
	r->bytes = b->ls.bytes;
	if (r->bytes == 0 || (r->lines == 1 && r->edges == NULL && b->ls.bytes <= 1)) {
		r->verdict = BL_VERDICT_EMPTY;
		return r;
	}
	/* More than 1 in 10 of the first bytes control characters or NUL: not text. */
	if (b->first_bytes && (b->ctrl + r->nul_bytes > b->first_bytes / 10 || b->ctrl * 10 > b->first_bytes)) {
		r->verdict = BL_VERDICT_BINARY;
		return r;
	}
	if (r->n_edges && (!b->have_outside || r->edges[0].no < b->outside_no)) {
		struct bl_edge *e = &r->edges[0];

		r->verdict = BL_VERDICT_FAILED;
		r->edge = e;
		r->phase = e->phase;
		if (e->first_error != SIZE_MAX)
			r->first_error = &e->out.v[e->first_error];
		if (e->cause_at != SIZE_MAX) {
			r->cause = e->cause;
			r->cause_line = &e->out.v[e->cause_at];
		} else if (e->first_error != SIZE_MAX) {
			r->cause = e->phase == BL_PHASE_LINK ? BL_CAUSE_UNKNOWN : BL_CAUSE_COMPILE;
			r->cause_line = r->first_error;
		} else {
			r->cause = BL_CAUSE_UNKNOWN;
		}
		if (r->cause == BL_CAUSE_PYTHON && r->phase == BL_PHASE_COMPILE && r->torchgen)
			r->phase = BL_PHASE_SETUP;
		/* A cause that names its phase (ld's, CMake's) says which it is. */
		if (r->cause == BL_CAUSE_INSTALL)
			r->phase = BL_PHASE_INSTALL;
		else if (r->cause == BL_CAUSE_CMAKE_ERROR || r->cause == BL_CAUSE_CMAKE_PACKAGE ||
		    r->cause == BL_CAUSE_CMAKE_VERSION)
			r->phase = e->phase == BL_PHASE_INSTALL ? BL_PHASE_INSTALL : BL_PHASE_CONFIGURE;
		/* Every edge's own cause, for --all. */
		for (size_t i = 0; i < r->n_edges; i++) {
			struct bl_edge *x = &r->edges[i];

			if (x->cause_at == SIZE_MAX)
				x->cause = x->first_error != SIZE_MAX ? (x->phase == BL_PHASE_LINK ? BL_CAUSE_UNKNOWN : BL_CAUSE_COMPILE)
								     : BL_CAUSE_UNKNOWN;
			if (x->cause == BL_CAUSE_HEADER) {
				/* The header's home, as for the first edge (details()). */
				struct buildlog_result tmp = { .cause = BL_CAUSE_HEADER };

				details(&tmp, x->out.v[x->cause_at].text);
				x->cause = tmp.cause;
				free(tmp.header);
				free(tmp.header_from);
			}
		}
	} else if (b->have_outside) {
		r->verdict = BL_VERDICT_FAILED;
		r->cause = b->outside_cause;
		r->phase = b->outside_phase;
		if (r->block.n) {
			r->cause_line = &r->block.v[r->block.n - 1];
			if (r->cause != BL_CAUSE_PYTHON)
				r->cause_line = &r->block.v[0];
			r->first_error = r->cause_line;
		}
	} else if (r->ninja_stopped || r->consequence || r->n_failed) {
		r->verdict = BL_VERDICT_FAILED;
		r->cause = r->ninja_stopped || r->n_failed ? BL_CAUSE_NINJA_STOPPED : BL_CAUSE_UNKNOWN;
		r->phase = r->ninja_stopped || r->n_failed ? BL_PHASE_COMPILE : BL_PHASE_SETUP;
	} else if (r->success || (r->ninja_total && r->ninja_k == r->ninja_total)) {
		r->verdict = BL_VERDICT_OK;
	} else {
		r->verdict = BL_VERDICT_INCOMPLETE;
	}
	if (r->cause_line)
		details(r, r->cause_line->text);
	return r;
}

void buildlog_free(struct buildlog *b)
{
	struct buildlog_result *r;

	if (!b)
		return;
	r = &b->r;
	for (size_t i = 0; i < r->n_edges; i++) {
		free(r->edges[i].desc);
		free(r->edges[i].outputs);
		free(r->edges[i].command);
		kept_release(&r->edges[i].out);
	}
	free(r->edges);
	for (size_t i = 0; i < r->n_wk; i++)
		free(r->wk[i].kind);
	free(r->wk);
	kept_release(&r->block);
	kept_release(&b->tb);
	kept_release(&b->console);
	kept_release(&b->pending);
	free(r->header);
	free(r->header_from);
	free(r->symbol);
	free(r->abi_twin);
	free(r->arch);
	free(r->option);
	free(r->py_frame);
	free(r->success);
	free(r->consequence);
	free(b->tb_frame);
	free(b->desc);
	bl_lines_release(&b->ls);
	free(b);
}

/* ---- commands ---- */

struct tok {
	const char *p;
	size_t n;
};

/* The next shell word of s from *i (quotes kept out of the count, not unescaped). */
static bool next_tok(const char *s, size_t *i, struct tok *t)
{
	size_t j = *i;
	char q = 0;

	while (s[j] == ' ' || s[j] == '\t')
		j++;
	if (!s[j])
		return false;
	t->p = s + j;
	while (s[j] && (q || (s[j] != ' ' && s[j] != '\t'))) {
		if (q && s[j] == q)
			q = 0;
		else if (!q && (s[j] == '"' || s[j] == '\''))
			q = s[j];
		else if (s[j] == '\\' && s[j + 1])
			j++;
		j++;
	}
	t->n = (size_t)(s + j - t->p);
	*i = j;
	return true;
}

static bool tok_is(const struct tok *t, const char *w)
{
	return t->n == strlen(w) && !memcmp(t->p, w, t->n);
}

static bool tok_starts(const struct tok *t, const char *w)
{
	return starts(t->p, t->n, w);
}

static bool tok_ends(const struct tok *t, const char *w)
{
	size_t m = strlen(w);

	return t->n >= m && !memcmp(t->p + t->n - m, w, m);
}

static const char *base(const struct tok *t, size_t *n)
{
	const char *p = t->p, *sl;

	*n = t->n;
	sl = memrchr(p, '/', t->n);
	if (sl) {
		*n -= (size_t)(sl + 1 - p);
		p = sl + 1;
	}
	return p;
}

/* The command after "cd DIR &&" and ccache/sccache and "/usr/bin/cmake -E ..." wrappers. */
static size_t skip_prefix(const char *cmd)
{
	size_t i = 0, j;
	struct tok t;

	for (;;) {
		j = i;
		if (!next_tok(cmd, &j, &t))
			return i;
		if (tok_is(&t, "cd")) {
			/* cd DIR && */
			if (!next_tok(cmd, &j, &t) || !next_tok(cmd, &j, &t) || !tok_is(&t, "&&"))
				return i;
			i = j;
			continue;
		}
		size_t bn;
		const char *bp = base(&t, &bn);

		if ((bn == 6 && !memcmp(bp, "ccache", 6)) || (bn == 7 && !memcmp(bp, "sccache", 7))) {
			i = j;
			continue;
		}
		return i;
	}
}

char **buildlog_link_libraries(const char *cmd, size_t *n)
{
	size_t i = skip_prefix(cmd), a = 0;
	struct tok t;
	char **v = NULL;

	*n = 0;
	while (next_tok(cmd, &i, &t)) {
		if (t.p[0] == '-' || t.p[0] == '\'' || t.p[0] == '"')
			continue;
		if (tok_ends(&t, ".so") || memmem(t.p, t.n, ".so.", 4)) {
			PT_GROW(v, *n, a);
			v[(*n)++] = pt_xstrndup(t.p, t.n);
		}
	}
	return v;
}

bool buildlog_is_link(const char *cmd)
{
	size_t i = skip_prefix(cmd), bn;
	struct tok t;
	bool first = true, dash_c = false, shared = false, out_lib = false, ar = false;

	while (next_tok(cmd, &i, &t)) {
		if (first) {
			const char *bp = base(&t, &bn);

			if ((bn == 2 && !memcmp(bp, "ar", 2)) || (bn >= 3 && !memcmp(bp + bn - 3, "-ar", 3)) ||
			    (bn == 2 && !memcmp(bp, "ld", 2)) || (bn > 3 && !memcmp(bp, "ld.", 3)))
				ar = true;
			first = false;
			continue;
		}
		if (tok_is(&t, "&&") || tok_is(&t, ";"))
			break;
		if (tok_is(&t, "-c") || tok_is(&t, "-E") || tok_is(&t, "--compile") || tok_is(&t, "-cuda"))
			dash_c = true;
		if (tok_is(&t, "-shared"))
			shared = true;
		if (tok_ends(&t, ".so") || memmem(t.p, t.n, ".so.", 4))
			out_lib = true;
	}
	return ar || (!dash_c && (shared || out_lib));
}

char *buildlog_short_command(const char *cmd)
{
	struct pt_strbuf sb;
	size_t i = skip_prefix(cmd), n_d = 0, n_i = 0, n_other = 0, n_obj = 0, n_libs = 0;
	struct tok t;
	bool first = true;
	char *out;

	pt_strbuf_init(&sb, 4096);
	while (next_tok(cmd, &i, &t)) {
		bool keep_it = false, with_next = false;

		if (first) {
			keep_it = true;
			first = false;
		} else if (tok_is(&t, "&&") || tok_is(&t, ";")) {
			break;
		} else if (tok_is(&t, "-MT") || tok_is(&t, "-MF") || tok_is(&t, "-MQ")) {
			struct tok x;

			next_tok(cmd, &i, &x);
			n_other++;
		} else if (tok_is(&t, "-c") || tok_is(&t, "-o") || tok_is(&t, "-ccbin") || tok_is(&t, "-gencode") ||
			   tok_is(&t, "-arch") || tok_is(&t, "-x") || tok_is(&t, "--generate-code") ||
			   tok_is(&t, "-code")) {
			keep_it = with_next = true;
		} else if (tok_starts(&t, "-std=") || tok_starts(&t, "-O") || tok_is(&t, "-g") || tok_is(&t, "-shared") ||
			   tok_starts(&t, "-D_GLIBCXX_USE_CXX11_ABI") || tok_starts(&t, "-gencode=") ||
			   tok_starts(&t, "--generate-code=") || tok_starts(&t, "-arch=") || tok_starts(&t, "--gpu-architecture") ||
			   tok_starts(&t, "-ccbin=") || tok_starts(&t, "-l") || tok_starts(&t, "-fuse-ld") ||
			   tok_starts(&t, "-mcmodel") || tok_starts(&t, "-allow-unsupported")) {
			keep_it = true;
			if (tok_starts(&t, "-l"))
				n_libs++;
		} else if (tok_starts(&t, "-D")) {
			n_d++;
			if (t.n == 2) {
				struct tok x;

				next_tok(cmd, &i, &x);
			}
		} else if (tok_starts(&t, "-I") || tok_starts(&t, "-isystem")) {
			n_i++;
			if (t.n == 2 || tok_is(&t, "-isystem")) {
				struct tok x;

				next_tok(cmd, &i, &x);
			}
		} else if (t.p[0] != '-' && (tok_ends(&t, ".o") || tok_ends(&t, ".a") || tok_ends(&t, ".so") ||
					    memmem(t.p, t.n, ".so.", 4))) {
			/* A link's inputs: the first few libraries named, objects counted. */
			if (tok_ends(&t, ".o")) {
				n_obj++;
			} else if (n_libs < 8) {
				keep_it = true;
				n_libs++;
			} else {
				n_other++;
			}
		} else if (t.p[0] != '-' && (tok_ends(&t, ".c") || tok_ends(&t, ".cc") || tok_ends(&t, ".cpp") ||
					    tok_ends(&t, ".cu") || tok_ends(&t, ".cxx"))) {
			keep_it = true;
		} else {
			n_other++;
		}
		if (keep_it) {
			if (sb.len)
				(void)pt_strbuf_add_trunc(&sb, " ", 1);
			(void)pt_strbuf_add_trunc(&sb, t.p, t.n);
			if (with_next && next_tok(cmd, &i, &t)) {
				(void)pt_strbuf_add_trunc(&sb, " ", 1);
				(void)pt_strbuf_add_trunc(&sb, t.p, t.n);
			}
		}
	}
	if (n_obj || n_d || n_i || n_other) {
		(void)pt_strbuf_addf_trunc(&sb, " (");
		const char *sep = "";

		if (n_obj) {
			(void)pt_strbuf_addf_trunc(&sb, "%s%zu object%s", sep, n_obj, PT_PLURAL(n_obj));
			sep = ", ";
		}
		if (n_d) {
			(void)pt_strbuf_addf_trunc(&sb, "%s%zu -D", sep, n_d);
			sep = ", ";
		}
		if (n_i) {
			(void)pt_strbuf_addf_trunc(&sb, "%s%zu -I", sep, n_i);
			sep = ", ";
		}
		if (n_other)
			(void)pt_strbuf_addf_trunc(&sb, "%s%zu other", sep, n_other);
		(void)pt_strbuf_addf_trunc(&sb, " omitted)");
	}
	out = pt_xstrndup(sb.buf ? sb.buf : "", sb.len);
	pt_strbuf_release(&sb);
	return out;
}

/* ---- the C++ ABI ---- */

static char *replace_all(const char *s, const char *from, const char *to)
{
	struct pt_strbuf sb;
	size_t fl = strlen(from);
	const char *p;
	char *out;

	pt_strbuf_init(&sb, 1u << 20);
	while ((p = strstr(s, from))) {
		(void)pt_strbuf_add_trunc(&sb, s, (size_t)(p - s));
		(void)pt_strbuf_adds_trunc(&sb, to);
		s = p + fl;
	}
	(void)pt_strbuf_adds_trunc(&sb, s);
	out = pt_xstrndup(sb.buf ? sb.buf : "", sb.len);
	pt_strbuf_release(&sb);
	return out;
}

char *buildlog_abi_twin(const char *name, bool *cxx11)
{
	*cxx11 = false;
	if (strstr(name, "std::__cxx11::") || strstr(name, "[abi:cxx11]")) {
		char *a = replace_all(name, "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >",
				      "std::string");
		char *b2 = replace_all(a, "std::__cxx11::", "std::");
		char *c = replace_all(b2, "[abi:cxx11]", "");

		free(a);
		free(b2);
		*cxx11 = true;
		return c;
	}
	if (strstr(name, "std::string") || strstr(name, "std::basic_string<") || strstr(name, "std::list<") ||
	    strstr(name, "std::ostringstream") || strstr(name, "std::stringstream")) {
		char *a = replace_all(name, "std::string", "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >");
		char *b2 = replace_all(a, "std::basic_string<", "std::__cxx11::basic_string<");
		char *c = replace_all(b2, "std::list<", "std::__cxx11::list<");

		free(a);
		free(b2);
		return c;
	}
	return NULL;
}

/* ---- headers ---- */

static const struct {
	const char *prefix;	/* the header's name starts with it */
	const char *hint;
	enum bl_cause cause;
} header_homes[] = {
	{ "Python.h", "Python's headers: python3-dev (the -dev of the Python that builds)", BL_CAUSE_HEADER_PACKAGE },
	{ "cudnn", "cuDNN's headers: libcudnn9-dev-cuda-12 (or CUDNN_INCLUDE_DIR/CUDNN_ROOT), or USE_CUDNN=0", BL_CAUSE_HEADER_PACKAGE },
	{ "cuda_runtime", "the CUDA toolkit (CUDA_HOME, nvidia-cuda-toolkit or cuda-toolkit-12-x)", BL_CAUSE_HEADER_PACKAGE },
	{ "cuda.h", "the CUDA toolkit (CUDA_HOME, nvidia-cuda-toolkit or cuda-toolkit-12-x)", BL_CAUSE_HEADER_PACKAGE },
	{ "cublas", "the CUDA toolkit's cuBLAS (libcublas-dev)", BL_CAUSE_HEADER_PACKAGE },
	{ "cusparse", "the CUDA toolkit's cuSPARSE (libcusparse-dev)", BL_CAUSE_HEADER_PACKAGE },
	{ "curand", "the CUDA toolkit's cuRAND (libcurand-dev)", BL_CAUSE_HEADER_PACKAGE },
	{ "cusolver", "the CUDA toolkit's cuSOLVER (libcusolver-dev)", BL_CAUSE_HEADER_PACKAGE },
	{ "nccl.h", "NCCL: libnccl-dev, or USE_NCCL=0 / USE_SYSTEM_NCCL=0", BL_CAUSE_HEADER_PACKAGE },
	{ "mkl", "Intel MKL (mkl-include / libmkl-dev), or BLAS=OpenBLAS", BL_CAUSE_HEADER_PACKAGE },
	{ "omp.h", "OpenMP: libomp-dev for clang (gcc ships its own)", BL_CAUSE_HEADER_PACKAGE },
	{ "numpy/", "numpy (pip install numpy; python3-numpy)", BL_CAUSE_HEADER_PACKAGE },
	{ "zlib.h", "zlib1g-dev", BL_CAUSE_HEADER_PACKAGE },
	{ "yaml.h", "libyaml-dev", BL_CAUSE_HEADER_PACKAGE },
	{ "cblas.h", "a CBLAS: libopenblas-dev", BL_CAUSE_HEADER_PACKAGE },
	{ "lapacke.h", "liblapacke-dev", BL_CAUSE_HEADER_PACKAGE },
	{ "google/protobuf/", "libprotobuf-dev (USE_SYSTEM_LIBS) or the third_party/protobuf submodule", BL_CAUSE_HEADER_PACKAGE },
	{ "gflags/", "libgflags-dev, or USE_GFLAGS=0", BL_CAUSE_HEADER_PACKAGE },
	{ "glog/", "libgoogle-glog-dev, or USE_GLOG=0", BL_CAUSE_HEADER_PACKAGE },
	{ "numa.h", "libnuma-dev, or USE_NUMA=0", BL_CAUSE_HEADER_PACKAGE },
	{ "openssl/", "libssl-dev", BL_CAUSE_HEADER_PACKAGE },
	{ "cutlass/", "the third_party/cutlass submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "cute/", "the third_party/cutlass submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "fmt/", "the third_party/fmt submodule (libfmt-dev with USE_SYSTEM_LIBS)", BL_CAUSE_HEADER_SUBMODULE },
	{ "pybind11/", "the third_party/pybind11 submodule (pybind11-dev with USE_SYSTEM_PYBIND11)", BL_CAUSE_HEADER_SUBMODULE },
	{ "gloo/", "the third_party/gloo submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "libkineto.h", "the third_party/kineto submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "fbgemm", "the third_party/fbgemm submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "cpuinfo.h", "the third_party/cpuinfo submodule (libcpuinfo-dev with USE_SYSTEM_CPUINFO)", BL_CAUSE_HEADER_SUBMODULE },
	{ "pthreadpool.h", "the third_party/pthreadpool submodule (libpthreadpool-dev with USE_SYSTEM_PTHREADPOOL)", BL_CAUSE_HEADER_SUBMODULE },
	{ "fp16.h", "the third_party/FP16 submodule (libfp16-dev)", BL_CAUSE_HEADER_SUBMODULE },
	{ "fp16/", "the third_party/FP16 submodule (libfp16-dev)", BL_CAUSE_HEADER_SUBMODULE },
	{ "psimd.h", "the third_party/psimd submodule (libpsimd-dev)", BL_CAUSE_HEADER_SUBMODULE },
	{ "fxdiv.h", "the third_party/FXdiv submodule (libfxdiv-dev)", BL_CAUSE_HEADER_SUBMODULE },
	{ "sleef.h", "the third_party/sleef submodule (libsleef-dev with USE_SYSTEM_SLEEF)", BL_CAUSE_HEADER_SUBMODULE },
	{ "nlohmann/", "the third_party/nlohmann submodule (nlohmann-json3-dev)", BL_CAUSE_HEADER_SUBMODULE },
	{ "onnx/", "the third_party/onnx submodule (libonnx-dev with USE_SYSTEM_ONNX)", BL_CAUSE_HEADER_SUBMODULE },
	{ "flatbuffers/", "the third_party/flatbuffers submodule (libflatbuffers-dev)", BL_CAUSE_HEADER_SUBMODULE },
	{ "tensorpipe/", "the third_party/tensorpipe submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "cudnn_frontend", "the third_party/cudnn_frontend submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "ittnotify.h", "the third_party/ittapi submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "xnnpack.h", "the third_party/XNNPACK submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "clog.h", "the third_party/cpuinfo submodule (deps/clog)", BL_CAUSE_HEADER_SUBMODULE },
	{ "miniz.h", "the third_party/miniz-3.0.2 folder", BL_CAUSE_HEADER_SUBMODULE },
	{ "gtest/", "the third_party/googletest submodule (googletest)", BL_CAUSE_HEADER_SUBMODULE },
	{ "benchmark/", "the third_party/benchmark submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "nvtx3/", "the third_party/NVTX submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "httplib.h", "the third_party/cpp-httplib submodule (libcpp-httplib-dev)", BL_CAUSE_HEADER_SUBMODULE },
	{ "pocketfft", "the third_party/pocketfft submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "ideep", "the third_party/ideep submodule (USE_MKLDNN)", BL_CAUSE_HEADER_SUBMODULE },
	{ "dnnl", "the third_party/ideep/mkl-dnn submodule (USE_MKLDNN)", BL_CAUSE_HEADER_SUBMODULE },
	{ "asmjit/", "the third_party/fbgemm/third_party/asmjit submodule", BL_CAUSE_HEADER_SUBMODULE },
	{ "ck/", "the third_party/composable_kernel submodule (ROCm)", BL_CAUSE_HEADER_SUBMODULE },
	/* What the build writes itself. */
	{ "ATen/ops/", "generated by torchgen into build/aten/src (ATEN_CPU_FILES_GEN_TARGET): build the target, not one object", BL_CAUSE_HEADER },
	{ "ATen/Functions.h", "generated by torchgen into build/aten/src: build the target, not one object", BL_CAUSE_HEADER },
	{ "ATen/core/TensorBody.h", "generated by torchgen into build/aten/src: build the target, not one object", BL_CAUSE_HEADER },
	{ "c10/macros/cmake_macros.h", "written by CMake's configure into build/c10/macros: a configured build/ on the -I path", BL_CAUSE_HEADER },
	{ "torch/csrc/autograd/generated/", "generated by torchgen (tools/autograd) at build time", BL_CAUSE_HEADER },
	{ "caffe2/core/macros.h", "written by CMake's configure into build/caffe2/core", BL_CAUSE_HEADER },
	{ "torch/version.h", "written by setup.py/CMake into build/", BL_CAUSE_HEADER },
	{ NULL, NULL, 0 },
};

const char *buildlog_header_hint(const char *h, const char *from, enum bl_cause *cause)
{
	for (size_t i = 0; header_homes[i].prefix; i++)
		if (!strncmp(h, header_homes[i].prefix, strlen(header_homes[i].prefix))) {
			*cause = header_homes[i].cause;
			return header_homes[i].hint;
		}
	if (from && strstr(from, "third_party/")) {
		*cause = BL_CAUSE_HEADER_SUBMODULE;
		return "included from a submodule (third_party/): an uninitialised or stale submodule";
	}
	return NULL;
}
