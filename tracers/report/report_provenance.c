/*
 * The provenance pane of a compile (report_provenance.h): its pre-grad graph,
 * post-grad graph and output code side by side, each node's line linked to the
 * lines it became or came from, from inductor_provenance_tracking_node_mappings
 * (preToPost, postToPre, cppCodeToPost, postToCppCode). Static links: no script.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report_provenance.h"
#include "xalloc.h"

/* A text split in lines, and the line (from 1) where each name is defined. */
struct pane {
	const char *id;		/* "pre", "post", "code": anchor prefix */
	const char *title;
	char *text;
	size_t len;
	const char **line;	/* starts of lines */
	size_t *llen;
	size_t nlines;
	json_t *to;		/* name -> [names in the other panes], this pane's outgoing map */
	const char *to_pane;	/* which pane those names live in */
	json_t *to2;		/* a second outgoing map (post: to code) */
	const char *to2_pane;
};

static void split_lines(struct pane *p)
{
	size_t alloc = 0, alloc2 = 0;

	for (size_t i = 0; i <= p->len;) {
		size_t j = i;

		while (j < p->len && p->text[j] != '\n')
			j++;
		if (j == p->len && i == p->len && p->len)
			break;
		PT_GROW(p->line, p->nlines, alloc);
		PT_GROW(p->llen, p->nlines, alloc2);
		p->line[p->nlines] = p->text + i;
		p->llen[p->nlines++] = j - i;
		i = j + 1;
	}
}

/* The name a line defines: graph lines "    relu: ..." / "relu = ...", code lines
 * "cpp_fused_x_0 = async_compile..." or "def triton_poi_x(". Copied to out. */
static int line_defines(const char *s, size_t n, char *out, size_t outn)
{
	size_t i = 0, k = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (n - i > 4 && !strncmp(s + i, "def ", 4))
		i += 4;
	while (i < n && k + 1 < outn && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
		out[k++] = s[i++];
	out[k] = 0;
	if (!k || i >= n)
		return 0;
	return s[i] == ':' || s[i] == '(' || (s[i] == ' ' && i + 1 < n && s[i + 1] == '=');
}

/* Line (from 1) where name is defined in p, or of its first use as "name(" (extern
 * kernels); 0 when nowhere. */
static size_t find_def(const struct pane *p, const char *name)
{
	char buf[256];
	size_t nl = strlen(name);

	for (size_t i = 0; i < p->nlines; i++)
		if (line_defines(p->line[i], p->llen[i], buf, sizeof(buf)) && !strcmp(buf, name))
			return i + 1;
	for (size_t i = 0; i < p->nlines; i++) {
		const char *hit = memmem(p->line[i], p->llen[i], name, nl);

		if (hit && (size_t)(hit - p->line[i]) + nl < p->llen[i] && hit[nl] == '(')
			return i + 1;
	}
	return 0;
}

static struct pane *pane_by_id(struct pane *panes, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(panes[i].id, id))
			return &panes[i];
	return NULL;
}

static void write_links(struct html *h, struct pane *panes, size_t np, json_t *map,
			const char *name, const char *target)
{
	json_t *to = json_object_get(map, name);
	struct pane *t = pane_by_id(panes, np, target);

	if (!json_is_array(to) || !t || !t->nlines)
		return;
	for (size_t i = 0; i < json_array_size(to); i++) {
		const char *n = json_string_value(json_array_get(to, i));
		size_t line = n ? find_def(t, n) : 0;

		if (!line)
			continue;
		html_rawf(h, " <a class=\"prov\" href=\"#%s-L%zu\">", target, line);
		html_raw(h, "&rarr; ");
		html_text(h, n);
		html_raw(h, "</a>");
	}
}

static void write_pane(struct html *h, struct pane *panes, size_t np, struct pane *p)
{
	char name[256];

	html_raw(h, "<section class=\"pane\"><h2>");
	html_text(h, p->title);
	html_rawf(h, "</h2>\n<pre class=\"code\" data-lang=\"python\">");
	for (size_t i = 0; i < p->nlines; i++) {
		html_rawf(h, "<span class=\"l\" id=\"%s-L%zu\">", p->id, i + 1);
		/* The code in its own span (highlighted alone), the links on a line below it. */
		html_raw(h, "<span class=\"t\">");
		html_textn(h, p->line[i], p->llen[i]);
		html_raw(h, "</span>");
		if (line_defines(p->line[i], p->llen[i], name, sizeof(name)) && (p->to || p->to2)) {
			html_raw(h, "<span class=\"links\">");
			if (p->to)
				write_links(h, panes, np, p->to, name, p->to_pane);
			if (p->to2)
				write_links(h, panes, np, p->to2, name, p->to2_pane);
			html_raw(h, "</span>");
		}
		html_raw(h, "</span>");
	}
	html_raw(h, "</pre></section>\n");
}

void report_provenance_write(struct html *h, json_t *mappings, char *pre, size_t npre,
			     char *post, size_t npost, char *code, size_t ncode)
{
	struct pane panes[3] = {
		{.id = "pre", .title = "pre-grad graph", .text = pre, .len = npre,
		 .to = json_object_get(mappings, "preToPost"), .to_pane = "post"},
		{.id = "post", .title = "post-grad graph", .text = post, .len = npost,
		 .to = json_object_get(mappings, "postToPre"), .to_pane = "pre",
		 .to2 = json_object_get(mappings, "postToCppCode"), .to2_pane = "code"},
		{.id = "code", .title = "output code", .text = code, .len = ncode,
		 .to = json_object_get(mappings, "cppCodeToPost"), .to_pane = "post"},
	};

	for (size_t i = 0; i < 3; i++)
		if (panes[i].text)
			split_lines(&panes[i]);
	html_raw(h, "<p>Each node's line links to the nodes it became (or came from) in the "
		    "other panes, from inductor_provenance_tracking_node_mappings.</p>\n"
		    "<div class=\"panes\">\n");
	for (size_t i = 0; i < 3; i++)
		if (panes[i].text)
			write_pane(h, panes, 3, &panes[i]);
	html_raw(h, "</div>\n");
	for (size_t i = 0; i < 3; i++) {
		free(panes[i].line);
		free(panes[i].llen);
	}
}
