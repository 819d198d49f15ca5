/*
 * The payload pages of pttrace report (report_pages.h): p/<md5>.html
 * (highlighted, line anchors) for the first PAYLOAD_PAGES_MAX distinct
 * payloads by first use, and p/<md5>.txt (the raw bytes) only where the page
 * does not hold them as they are (pretty-printed JSON, bytes HTML cannot
 * carry); elsewhere report.js makes the raw download from the page.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmp.h"
#include "report.h"
#include "report_pages.h"
#include "strbuf.h"
#include "xalloc.h"

static const char *payload_lang(const char *kind, const char *name, const char *envelope,
				const char *data, size_t len)
{
	static const char *const py[] = {
		"dynamo_output_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph",
		"aot_joint_graph", "inductor_pre_grad_graph", "inductor_post_grad_graph",
		"optimize_ddp_split_graph", "optimize_ddp_split_child", "compiled_autograd_graph",
		"graph_dump", "dump_file", "exported_program", NULL,
	};

	if (!strcmp(kind, "inductor_output_code"))
		return envelope && strstr(envelope, ".cpp\"") ? "cpp" : "python";
	for (const char *const *p = py; *p; p++)
		if (!strcmp(kind, *p))
			return "python";
	if (!strcmp(kind, "dynamo_guards") || (envelope && strstr(envelope, "\"encoding\": \"json\"")))
		return "json";
	(void)name;
	while (len && (*data == ' ' || *data == '\n'))
		data++, len--;
	if (len && (*data == '{' || *data == '['))
		return "json";
	return NULL;
}

struct ppage {
	struct rctx *c;
	int rc;
};

static int on_payload(void *ctx, const char *md5, const char *kind, const char *name,
		      const char *envelope, int64_t uses)
{
	struct ppage *pp = ctx;
	struct rctx *c = pp->c;
	char *data = NULL, *pretty = NULL;
	size_t len = 0;
	const char *lang;
	char rel[96], title[160];
	bool exact;
	struct html h;

	if (strlen(md5) > 64 || strspn(md5, "0123456789abcdef") != strlen(md5))
		return 0;	/* never a path component that is not hex */
	if (c->npaged >= PAYLOAD_PAGES_MAX) {
		c->unpaged++;
		return 0;
	}
	PT_GROW(c->paged, c->npaged, c->apaged);
	c->paged[c->npaged++] = pt_xstrdup(md5);
	if (load_payload(c, md5, &data, &len) != 0) {
		pp->rc = -1;
		return 0;
	}
	lang = payload_lang(kind, name, envelope, data, len);
	if (lang && !strcmp(lang, "json") && len < (64u << 20)) {
		json_t *j = json_loadb(data, len, JSON_DECODE_ANY, NULL);

		if (j)
			pretty = json_dumps(j, JSON_INDENT(2) | JSON_ENCODE_ANY);
		json_decref(j);
	}
	/*
	 * One copy of each payload: the page's text is the payload, and its "raw
	 * bytes" link is made from it (report.js). Only a payload the page shows
	 * otherwise (pretty-printed, or bytes HTML cannot carry) keeps a
	 * p/<md5>.txt beside it.
	 */
	exact = !pretty && html_text_exact(data, len);
	if (!exact) {
		pt_fmt_trunc(rel, sizeof(rel), "p/%s.txt", md5);
		if (write_file(c, rel, data, len) < 0) {
			free(data);
			return -1;
		}
	}
	pt_fmt_trunc(rel, sizeof(rel), "p/%s.html", md5);
	pt_fmt_trunc(title, sizeof(title), "%s%s%s", kind, name ? ": " : "", name ? name : "");
	if (page_open(c, &h, rel, title, "../") < 0) {
		free(data);
		free(pretty);
		return -1;
	}
	html_rawf(&h, "<p>md5 <code>%s</code>, %zu bytes, used by %lld record%s. ", md5, len,
		  (long long)uses, uses == 1 ? "" : "s");
	if (exact)
		html_rawf(&h, "<a class=\"raw\" href=\"#\" download=\"%s.txt\">raw bytes</a></p>\n", md5);
	else
		html_rawf(&h, "<a href=\"%s.txt\" download>raw bytes</a>%s</p>\n", md5,
			  pretty ? " (shown pretty-printed)" : "");
	html_raw(&h, "<pre class=\"code\"");
	if (lang)
		html_rawf(&h, " data-lang=\"%s\"", lang);
	if (exact && len && data[len - 1] == '\n')
		html_raw(&h, " data-nl=\"1\"");
	html_raw(&h, ">");
	{
		const char *s = pretty ? pretty : data;
		size_t n = pretty ? strlen(pretty) : len, line = 1;

		for (size_t i = 0; i <= n;) {
			size_t j = i;

			while (j < n && s[j] != '\n')
				j++;
			if (j == n && i == n && n)
				break;
			html_rawf(&h, "<span class=\"l\" id=\"L%zu\">", line++);
			html_textn(&h, s + i, j - i);
			html_raw(&h, "</span>");
			i = j + 1;
		}
	}
	html_raw(&h, "</pre>\n");
	free(data);
	free(pretty);
	c->st->payloads++;
	return page_close(c, &h);
}

/* Every payload's pages (on_payload), then the list of those that have one sorted
 * for has_page. */
int write_payloads(struct rctx *c)
{
	struct ppage pp = {c, 0};

	if (rp_payloads(c->ix, c->o->run_id, on_payload, &pp) < 0 || pp.rc < 0)
		return -1;
	if (c->npaged > 1)
		qsort(c->paged, c->npaged, sizeof(*c->paged), pt_cmp_strp);
	return 0;
}
