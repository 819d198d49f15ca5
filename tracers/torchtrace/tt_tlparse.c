/*
 * tlparse's output tree; see tt_tlparse.h. One ordered scan of each
 * file's records replays tlparse's output counter (lib.rs run_parser,
 * add_file_output: every output it produces takes the next number) and
 * writes the payload files among those outputs.
 */
#include "tt_tlparse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
#include "strbuf.h"
#include "tt_internal.h"
#include "xalloc.h"

/* The graph kinds tlparse's SentinelFileParser writes as <kind>.txt (parsers.rs default_parsers). */
static const char *const sentinel_kinds[] = {
	"optimize_ddp_split_graph", "compiled_autograd_graph", "aot_forward_graph",
	"aot_backward_graph", "aot_inference_graph", "aot_joint_graph",
	"inductor_post_grad_graph", "inductor_pre_grad_graph", "dynamo_cpp_guards_str",
};

static const char *mstr(json_t *meta, const char *key)
{
	json_t *v = json_object_get(meta, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A name inside one directory: '/' cannot lead out of DIR. */
static void put_name(char *out, size_t n, const char *a, const char *b, const char *ext)
{
	/* A name too long for out is cut before its extension, which stays (fit_name shortens it further). */
	size_t el = strlen(ext) + 2, al = strlen(a), room = n > el ? n - el : 0;

	if (al >= room)
		pt_fmt_trunc(out, n, "%.*s.%s", (int)room, a, ext);
	else
		pt_fmt_trunc(out, n, "%s%.*s.%s", a, (int)(room - al), b ? b : "", ext);
	for (char *p = out; *p; p++)
		if (*p == '/')
			*p = '_';
}

/* tlparse's dynamo_guards parser: a JSON list of {code: str, stack?, user_stack?}. */
static int guards_parse(const char *payload, size_t len)
{
	json_t *a = json_loadb(payload, len, 0, NULL), *g;
	size_t i;
	int ok = json_is_array(a);

	json_array_foreach(a, i, g)
		ok &= json_is_object(g) && json_is_string(json_object_get(g, "code"));
	json_decref(a);
	return ok;
}

int tt_tlparse_output(const char *kind, json_t *meta, const char *payload, size_t len,
			 char *name, size_t n)
{
	const char *s;

	name[0] = '\0';
	for (size_t i = 0; i < PT_ARRAY_SIZE(sentinel_kinds); i++)
		if (!strcmp(kind, sentinel_kinds[i])) {
			put_name(name, n, kind, NULL, "txt");
			return 'p';
		}
	if (!strcmp(kind, "graph_dump") && (s = mstr(meta, "name"))) {
		put_name(name, n, s, NULL, "txt");
		return 'p';
	}
	if (!strcmp(kind, "dynamo_output_graph")) {
		put_name(name, n, kind, NULL, "txt");
		return 'p';
	}
	if (!strcmp(kind, "dynamo_guards")) {
		/* tlparse renders dynamo_guards_N.html; written here as its JSON payload. */
		if (!guards_parse(payload, len))
			return 0;
		put_name(name, n, kind, NULL, "json");
		return 'j';
	}
	if (!strcmp(kind, "inductor_output_code")) {
		/* -p: inductor_output_code_<stem of filename>.txt (Rust's Path::file_stem). */
		const char *f = mstr(meta, "filename"), *b, *dot;
		char stem[400];

		if (!f || !*f) {
			put_name(name, n, kind, NULL, "txt");
			return 'p';
		}
		b = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
		dot = strrchr(b, '.');
		if (!dot || dot == b)
			dot = b + strlen(b);
		pt_fmt_trunc(stem, sizeof(stem), "_%.*s", (int)(dot - b), b);
		put_name(name, n, kind, stem, "txt");
		return 'p';
	}
	if (!strcmp(kind, "optimize_ddp_split_child") && (s = mstr(meta, "name"))) {
		char part[400];

		pt_fmt_trunc(part, sizeof(part), "_%s", s);
		put_name(name, n, kind, part, "txt");
		return 'p';
	}
	if (!strcmp(kind, "aot_autograd_backward_compilation_metrics") || !strcmp(kind, "bwd_compilation_metrics")) {
		put_name(name, n, kind, NULL, "json");
		return 'h';
	}
	if (!strcmp(kind, "link") && mstr(meta, "name") && mstr(meta, "url")) {
		pt_fmt_trunc(name, n, "%s", mstr(meta, "name"));
		return 'l';
	}
	if (!strcmp(kind, "artifact") && (s = mstr(meta, "name")) && mstr(meta, "encoding")) {
		const char *enc = mstr(meta, "encoding");

		if (strcmp(enc, "string") && strcmp(enc, "json"))
			return 0;	/* tlparse: "Unsupported encoding", no output */
		put_name(name, n, s, NULL, strcmp(enc, "string") ? "json" : "txt");
		return 'p';
	}
	if (!strcmp(kind, "dump_file") && (s = mstr(meta, "name"))) {
		const char *k = strstr(s, "<eval_with_key>.");

		if (k && k[16] >= '0' && k[16] <= '9')
			pt_fmt_trunc(name, n, "eval_with_key_%lld.html", strtoll(k + 16, NULL, 10));
		else
			put_name(name, n, s, NULL, "html");
		return 'g';
	}
	return 0;
}

int tt_tlparse_output_export(const char *kind, json_t *meta, char *name, size_t n)
{
	const char *pre = mstr(meta, "prefix");

	name[0] = '\0';
	if (!strcmp(kind, "exported_program")) {
		put_name(name, n, kind, NULL, "txt");
		return 'p';
	}
	/* lib.rs handle_guard: symbolic_guard_information_N.html for evaluated guards. */
	if (!strcmp(kind, "propagate_real_tensors_provenance") ||
	    (!strcmp(kind, "guard_added") && pre && !strcmp(pre, "eval"))) {
		put_name(name, n, "symbolic_guard_information", NULL, "json");
		return 'h';
	}
	return !strcmp(kind, "guard_added") ? -1 : 0;
}

/*
 * tlparse's anchor_source (parsers.rs): the source as a page, each line a
 * <span id="L<n>"> (Rust's str::lines: "\n" or "\r\n" ends a line, a last
 * empty one is none), text escaped as html_escape's encode_text does (& < >).
 * tlparse's query-parameter script is left out: the page has no links.
 */
static char *anchor_source(const char *text, size_t len)
{
	static const char head[] =
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n    <meta charset=\"UTF-8\">\n"
		"    <meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\">\n"
		"    <title>Source Code</title>\n    <style>\n        pre {\n"
		"            counter-reset: line;\n        }\n        pre span {\n"
		"            display: block;\n        }\n        pre span:before {\n"
		"            counter-increment: line;\n            content: counter(line);\n"
		"            display: inline-block;\n            padding: 0 .5em;\n"
		"            margin-right: .5em;\n            color: #888;\n        }\n"
		"        pre span:target {\n            background-color: #ffff00;\n        }\n"
		"    </style>\n</head>\n<body>\n    <pre>";
	char *out, *p;
	size_t cap = sizeof(head) + len * 5 + 64, line = 1;

	/* Per line at most 40 bytes of tags, per byte at most 5 ("&amp;"), 21 at the end. */
	for (size_t i = 0; i < len; i++)
		cap += text[i] == '\n' ? 40 : 0;
	out = pt_xmalloc(cap);
	memcpy(out, head, sizeof(head) - 1);
	p = out + sizeof(head) - 1;
	for (size_t i = 0; i < len;) {
		size_t j = i, end;

		while (j < len && text[j] != '\n')
			j++;
		end = j > i && text[j - 1] == '\r' && j < len ? j - 1 : j;
		p += snprintf(p, cap - (size_t)(p - out), "<span id=\"L%zu\">", line++);
		for (size_t k = i; k < end; k++) {
			const char *e = text[k] == '&' ? "&amp;" : text[k] == '<' ? "&lt;" : text[k] == '>' ? "&gt;" : NULL;

			if (e) {
				memcpy(p, e, strlen(e));
				p += strlen(e);
			} else {
				*p++ = text[k];
			}
		}
		memcpy(p, "</span>", 7);
		p += 7;
		i = j + 1;
	}
	memcpy(p, "</pre></body></html>", 21);
	return out;
}

/* tlparse reads no record whose stack has a frame with file -1 (FrameSummary.filename is u32). */
static int bad_stack(json_t *st)
{
	size_t i;
	json_t *fr;

	json_array_foreach(st, i, fr) {
		json_t *f = json_object_get(fr, "filename");

		if (json_is_integer(f) && json_integer_value(f) < 0)
			return 1;
	}
	return 0;
}

/*
 * A file name the file system takes: a last component over NAME_MAX (255
 * bytes; a record's name can be anything) keeps its first 180 bytes (not
 * cutting a UTF-8 sequence), then "~" and 16 hex digits of a hash of the
 * whole name (so two long names stay apart), then its tail from the last '_'
 * (the output number and extension: "_15.txt"), at most 40 bytes. rel is
 * freed and the fitted name returned.
 */
static char *fit_name(char *rel)
{
	char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel, *out;
	const char *tail;
	size_t len = strlen(base), keep = 180, tl;
	uint64_t h = 1469598103934665603ull;

	if (len <= 255)
		return rel;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)base[i]) * 1099511628211ull;
	tail = strrchr(base, '_');
	if (!tail || (tl = strlen(tail)) > 40) {
		tail = strrchr(base, '.');
		if (!tail || (tl = strlen(tail)) > 40) {
			tail = "";
			tl = 0;
		}
	}
	while (keep > 0 && ((unsigned char)base[keep] & 0xc0) == 0x80)
		keep--;
	out = pt_xasprintf("%.*s%.*s~%016llx%s", (int)(base - rel), rel, (int)keep, base,
			   (unsigned long long)h, tail);
	free(rel);
	return out;
}

/* root: "" or a tree's folder with its '/' ("rank_1/"), inside the output directory. */
static int write_file(struct pt_outdir *od, const char *root, const char *rel, const void *data,
		      size_t len, struct pt_diag *diag)
{
	char *path = pt_xasprintf("%s%s", root, rel), *slash = strrchr(path, '/'), *shown;
	FILE *f;
	int rc = -1, mk = 0;

	if (slash) {
		*slash = '\0';
		mk = pt_outdir_mkdirs(od, path);
		*slash = '/';
	}
	if (mk == 0) {
		f = pt_outdir_fopen(od, path);
		if (f && (fwrite(data, 1, len, f) == len) + (fclose(f) == 0) == 2)
			rc = 0;
	}
	if (rc < 0) {
		shown = pt_outdir_path(od, path);
		pt_diag_add(diag, PT_SEV_ERROR, shown, NULL, "cannot write: %s", strerror(errno));
		free(shown);
	}
	free(path);
	return rc;
}

void tt_tlparse_key(const struct compileid *c, char *out, size_t n)
{
	char f[24] = "-", k[24] = "-", ca[24] = "", at[24] = "";

	if (c->ca >= 0)
		pt_fmt_trunc(ca, sizeof(ca), "!%lld/", (long long)c->ca);
	if (c->frame >= 0)
		pt_fmt_trunc(f, sizeof(f), "%lld", (long long)c->frame);
	if (c->compile >= 0)
		pt_fmt_trunc(k, sizeof(k), "%lld", (long long)c->compile);
	if (c->attempt > 0)
		pt_fmt_trunc(at, sizeof(at), "_%lld", (long long)c->attempt);
	pt_fmt_trunc(out, n, "[%s%s/%s%s]", ca, f, k, at);
}

void tt_tlparse_dir(const struct compileid *c, char *out, size_t n)
{
	int64_t v[4] = {c->ca, c->frame, c->compile, c->attempt};
	size_t pos = 0;

	out[0] = '\0';
	for (int i = 0; i < 4 && pos < n; i++) {
		int w = v[i] >= 0 ? snprintf(out + pos, n - pos, "%s%lld", i ? "_" : "", (long long)v[i])
				  : snprintf(out + pos, n - pos, "%s-", i ? "_" : "");

		pos += w > 0 ? (size_t)w : 0;
	}
}

static const char *cache_suffix(const char *path)
{
	/* tlparse's markers, tested on the whole path (lib.rs add_file_output). */
	if (strstr(path, "cache_miss"))
		return "\xe2\x9d\x8c";		/* U+274C */
	if (strstr(path, "cache_hit"))
		return "\xe2\x9c\x85";		/* U+2705 */
	if (strstr(path, "cache_bypass"))
		return "\xe2\x9d\x93";		/* U+2753 */
	return "";
}

static int write_json(struct pt_outdir *od, const char *root, const char *rel, json_t *j,
		      struct pt_diag *diag)
{
	char *text = json_dumps(j, JSON_INDENT(2));
	int rc = write_file(od, root, rel, text ? text : "null", text ? strlen(text) : 4, diag);

	free(text);
	return rc;
}

struct tree {
	struct pt_outdir *od;		/* the output directory */
	const char *root;		/* where this file's tree goes in it: "" or "rank_1/" */
	json_t *dir;			/* compile_directory.json */
	FILE *chromium;			/* chromium_events.json, written as the events come */
	uint64_t nchromium;		/* events written to it */
	int chromium_failed;
	long counter;
	int have_rank;
	long long expected_rank;
};

static void list_entry(struct tree *t, const char *key, const char *url, const char *name, long number,
		       const char *suffix)
{
	json_t *ent = json_object_get(t->dir, key);
	const char *last = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	if (!ent) {
		ent = json_pack("{s:[]}", "artifacts");
		json_object_set_new(t->dir, key, ent);
	}
	json_array_append_new(json_object_get(ent, "artifacts"),
			      json_pack("{s:s, s:s, s:I, s:s, s:n}", "url", url, "name", last, "number",
					(json_int_t)number, "suffix", suffix, "readable_url"));
}

static const char SQL_FILES[] =
	"SELECT id, path, rank, first_record, last_record,"
	" (SELECT count(*) FROM trace_files f WHERE f.run_id = t.run_id AND f.rank = t.rank AND f.records > 0)"
	" FROM trace_files t WHERE run_id = ?1 AND records > 0 ORDER BY path";
static const char SQL_RECS[] =
	"SELECT r.kind, r.json_rank, r.ca, r.frame, r.compile, r.attempt, r.payload_md5,"
	" coalesce(r.md5_declared, r.payload_md5), r.envelope, p.data"
	" FROM trace_records r LEFT JOIN trace_payloads p ON p.md5 = r.payload_md5"
	" WHERE r.id BETWEEN ?1 AND ?2 ORDER BY r.id";

static int matches(const struct tt_tlparse_opts *o, const struct compileid *cid, const char *kind,
		   json_t *meta)
{
	const char *name = mstr(meta, "name");

	if (o->cid && !compileid_equal(o->cid, cid))
		return 0;
	if (o->what && strcmp(o->what, kind) && !(name && !strcmp(o->what, tt_artifact_label(kind, name))))
		return 0;
	return 1;
}

/*
 * One event of chromium_events.json, written as it comes (a file's events,
 * held as one JSON array, took 120 MB of a 74 MB input): the bytes jansson
 * writes for the whole array (JSON_INDENT(2) | JSON_SORT_KEYS), each element
 * dumped alone and indented one level (no string holds a raw newline).
 */
static void chromium_add(struct tree *t, json_t *ev)
{
	char *text = json_dumps(ev, JSON_INDENT(2) | JSON_SORT_KEYS);
	FILE *f = t->chromium;

	if (!text) {
		t->chromium_failed = 1;
		return;
	}
	fputs(t->nchromium++ ? ",\n  " : "[\n  ", f);
	for (const char *p = text; *p; p++) {
		putc(*p, f);
		if (*p == '\n')
			fputs("  ", f);
	}
	free(text);
}

/* One file's records into its tree. */
static int one_file(struct db *ix, int64_t first, int64_t last, struct tree *t,
		    const struct tt_tlparse_opts *o, struct tt_tlparse_stats *st, struct pt_diag *diag)
{
	struct db_stmt *s = NULL;
	int rc, failed = 0;
	int filtered = o->cid || o->what;

	if (tt_prep(ix, &s, SQL_RECS) < 0 || db_bind(s, "ii", first, last) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		const char *kind = db_col_text(s, 0), *md5 = db_col_text(s, 6);
		const char *declared = db_col_text(s, 7), *payload = db_col_text(s, 9);
		size_t plen = payload ? db_col_bytes(s, 9) : 0;
		long long jr = db_col_is_null(s, 1) ? -1 : db_col_int(s, 1);
		struct compileid cid = {col_nullable(s, 2), col_nullable(s, 3), col_nullable(s, 4), col_nullable(s, 5)}, kcid = cid;
		json_t *env, *meta;
		char key[COMPILEID_MAX + 8], dir[COMPILEID_MAX + 8], name[600];
		int out, wrote_payload = 0;

		if (!strcmp(kind, "str"))
			continue;
		env = json_loads(db_col_text(s, 8), 0, NULL);
		meta = json_object_get(env, kind);
		if (!json_is_object(env) || bad_stack(json_object_get(env, "stack")) ||
		    bad_stack(json_object_get(meta, "stack")) || bad_stack(json_object_get(meta, "user_stack"))) {
			json_decref(env);
			continue;
		}
		/* One rank per file: the first ranked record's; others are skipped (other_rank). */
		if (t->have_rank ? jr != t->expected_rank : 0) {
			json_decref(env);
			continue;
		}
		if (!t->have_rank && jr >= 0) {
			t->have_rank = 1;
			t->expected_rank = jr;
		}
		if (kcid.compile >= 0 && kcid.attempt < 0)
			kcid.attempt = 0;	/* runtime records join attempt 0 */
		tt_tlparse_key(&kcid, key, sizeof(key));
		tt_tlparse_dir(&cid, dir, sizeof(dir));
		if (!json_object_get(t->dir, key) && (!filtered || matches(o, &cid, kind, meta)))
			json_object_set_new(t->dir, key, json_pack("{s:[]}", "artifacts"));
		out = o->export_mode ? tt_tlparse_output_export(kind, meta, name, sizeof(name))
				     : tt_tlparse_output(kind, meta, payload, plen, name, sizeof(name));
		if (out == 'p' || out == 'h' || out == 'j') {
			/* add_unique_suffix: <stem>_<N>.<ext>; an 'h' page is written as the JSON it renders. */
			char *dot = strrchr(name, '.'), *rel;

			if (!dot)
				dot = name + strlen(name);	/* a name without extension */
			rel = fit_name(pt_xasprintf("%s/%.*s_%ld%s", dir, (int)(dot - name), name,
							  t->counter, dot));

			if (matches(o, &cid, kind, meta)) {
				if (out != 'h' ? write_file(t->od, t->root, rel, payload ? payload : "", plen, diag) < 0
					       : write_json(t->od, t->root, rel, meta, diag) < 0)
					failed = 1;
				list_entry(t, key, rel, rel, t->counter, cache_suffix(rel));
				st->files++;
			}
			wrote_payload = out == 'p';
			/* A provenance stack-trace JSON also gets a *_readable.html page. */
			if (out == 'p' && !strncmp(name, "inductor_provenance_tracking_kernel_stack_traces", 48) &&
			    !strcmp(dot, ".json")) {
				json_t *j = json_loadb(payload ? payload : "", plen, 0, NULL);

				t->counter += j != NULL;
				json_decref(j);
			}
			free(rel);
			t->counter++;
		} else if (out == 'l') {
			if (matches(o, &cid, kind, meta)) {
				list_entry(t, key, mstr(meta, "url"), name, t->counter, "");
				st->links++;
			}
			t->counter++;
		} else if (out == 'g') {
			/*
			 * dump_file/<name>.html: tlparse's page of the source, a line an anchor
			 * (#L4); no number in its name, only in the listing. The source itself
			 * goes to payloads/ as tlparse writes it there.
			 */
			char *rel = fit_name(pt_xasprintf("dump_file/%s", name));

			if (matches(o, &cid, kind, meta)) {
				char *page = anchor_source(payload ? payload : "", plen);

				if (write_file(t->od, t->root, rel, page, strlen(page), diag) < 0)
					failed = 1;
				free(page);
				list_entry(t, key, rel, rel, t->counter, "");
				st->files++;
			}
			free(rel);
			t->counter++;
		}
		if (!strcmp(kind, "compilation_metrics")) {
			/* compilation_metrics_N.html after the other parsers: its metrics as JSON here. */
			char *rel = pt_xasprintf("%s/compilation_metrics_%ld.json", dir, t->counter);

			if (matches(o, &cid, kind, meta)) {
				if (write_json(t->od, t->root, rel, meta, diag) < 0)
					failed = 1;
				list_entry(t, key, rel, rel, t->counter, "");
				st->files++;
			}
			free(rel);
			t->counter++;
		}
		if (out < 0) {
			/* export: a guard not evaluated ends the record there */
			json_decref(env);
			continue;
		}
		if (!strcmp(kind, "chromium_event") && !filtered) {
			json_t *ev = json_loadb(payload ? payload : "", plen, 0, NULL);

			if (ev && t->chromium)
				chromium_add(t, ev);
			json_decref(ev);
		} else if (!wrote_payload && md5 && plen && !filtered) {
			/* Payloads no parser took: payloads/<declared md5>.txt. */
			char *rel = pt_xasprintf("payloads/%s.txt", declared);

			if (write_file(t->od, t->root, rel, payload, plen, diag) < 0)
				failed = 1;
			st->files++;
			free(rel);
		}
		json_decref(env);
	}
	return rc < 0 || failed ? -1 : 0;
}

static int dump_json(struct pt_outdir *od, const char *root, const char *name, json_t *j,
		     struct pt_diag *diag)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	int rc = write_file(od, root, name, text ? text : "", text ? strlen(text) : 0, diag);

	free(text);
	return rc;
}

/*
 * An earlier tree of `artifact --out`: compile_directory.json (a file) in it or
 * in one of its folders (rank_<R>/, a file's own), or, as --export writes no
 * index, only folders named as compile ids ("0_0_0", "-_-_-_-") and tlparse's
 * own folders.
 */
static int tlparse_earlier(int dirfd)
{
	int fd = dup(dirfd), found = 0, other = 0, dirs = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat sb;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	rewinddir(d);	/* the descriptor's offset is shared with dirfd, read before */
	while ((e = readdir(d)) && !found) {
		const char *n = e->d_name;

		if (!strcmp(n, ".") || !strcmp(n, "..") || fstatat(dirfd, n, &sb, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISREG(sb.st_mode) && !strcmp(n, "compile_directory.json")) {
			found = 1;
		} else if (S_ISDIR(sb.st_mode)) {
			struct stat in;
			char *p = pt_xasprintf("%s/compile_directory.json", n);

			if (fstatat(dirfd, p, &in, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(in.st_mode))
				found = 1;
			else if (strspn(n, "0123456789_-!") == strlen(n) || !strcmp(n, "payloads") ||
				 !strcmp(n, "dump_file"))
				dirs++;
			else
				other++;
			free(p);
		} else if (!(S_ISREG(sb.st_mode) && !strcmp(n, "chromium_events.json"))) {
			other++;
		}
	}
	closedir(d);
	return found || (dirs && !other);
}

int tt_tlparse_write(struct db *ix, int64_t run_id, const char *out,
			const struct tt_tlparse_opts *o, struct tt_tlparse_stats *st,
			struct pt_diag *diag)
{
	struct db_stmt *s = NULL;
	struct {
		int64_t first, last, rank;
		char *path;
		long same_rank;
	} *f = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0, step, od_open = 0;
	struct pt_outdir od;

	memset(st, 0, sizeof(*st));
	if (tt_prep(ix, &s, SQL_FILES) < 0 || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((step = db_step(s)) == 1) {
		PT_GROW(f, n, alloc);
		f[n].first = db_col_int(s, 3);
		f[n].last = db_col_int(s, 4);
		f[n].rank = db_col_is_null(s, 2) ? -1 : db_col_int(s, 2);
		f[n].path = pt_xstrdup(db_col_text(s, 1));
		f[n].same_rank = (long)db_col_int(s, 5);
		n++;
	}
	if (step < 0)
		rc = -1;
	for (size_t i = 0; i < n && step == 0; i++) {
		struct tree t = {0};
		char *root;

		if (o->rank >= 0 && f[i].rank != o->rank)
			continue;
		if (n == 1) {
			root = pt_xstrdup("");
		} else if (f[i].rank >= 0 && f[i].same_rank == 1) {
			root = pt_xasprintf("rank_%lld/", (long long)f[i].rank);
		} else {
			/* No rank, or a rank another file has too: the file's own name. */
			const char *b = strrchr(f[i].path, '/') ? strrchr(f[i].path, '/') + 1 : f[i].path;
			size_t bl = strlen(b);

			if (bl > 4 && !strcmp(b + bl - 4, ".log"))
				bl -= 4;
			root = pt_xasprintf("%.*s/", (int)bl, b);
		}
		if (!od_open) {
			/* The output directory, made only when there is a tree to write. */
			if (pt_outdir_begin(&od, out, "pttrace artifact --out tree", tlparse_earlier,
					    PT_OUTDIR_MKPARENTS, diag) < 0) {
				free(root);
				rc = -1;
				break;
			}
			od_open = 1;
		}
		t.od = &od;
		t.root = root;
		t.dir = json_object();
		t.chromium = NULL;
		if (!(o->cid || o->what || o->export_mode) && pt_outdir_mkdirs(&od, root) == 0) {
			char *rel = pt_xasprintf("%schromium_events.json", root);

			if (!(t.chromium = pt_outdir_fopen(&od, rel))) {
				char *shown = pt_outdir_path(&od, rel);

				pt_diag_add(diag, PT_SEV_ERROR, shown, NULL, "cannot write: %s", strerror(errno));
				free(shown);
				rc = -1;
			}
			free(rel);
		}
		if (pt_outdir_mkdirs(&od, root) < 0) {
			char *shown = pt_outdir_path(&od, root);

			pt_diag_add(diag, PT_SEV_ERROR, shown, NULL, "cannot create: %s", strerror(errno));
			free(shown);
			rc = -1;
			step = -1;	/* --out itself, most likely: the other trees would fail alike */
		} else {
			/* A file that could not be written: the others and the index still are. */
			if (one_file(ix, f[i].first, f[i].last, &t, o, st, diag) < 0)
				rc = -1;
			if (!o->export_mode && dump_json(&od, root, "compile_directory.json", t.dir, diag) < 0)
				rc = -1;
			if (t.chromium) {
				fputs(t.nchromium ? "\n]" : "[]", t.chromium);
				if ((ferror(t.chromium) != 0) + (fclose(t.chromium) != 0) || t.chromium_failed) {
					char *shown = pt_outdir_path(&od, root);

					pt_diag_add(diag, PT_SEV_ERROR, shown, NULL,
						    "cannot write chromium_events.json: %s", strerror(errno));
					free(shown);
					rc = -1;
				}
				t.chromium = NULL;
			}
		}
		st->trees++;
		json_decref(t.dir);
		if (t.chromium)
			fclose(t.chromium);
		free(root);
	}
	for (size_t i = 0; i < n; i++)
		free(f[i].path);
	free(f);
	/*
	 * In place only when the database could be read: a file that could not be
	 * written is reported and the rest are kept (B15), as before.
	 */
	if (od_open && step == 0)
		rc = pt_outdir_commit(&od, diag) < 0 ? -1 : rc;
	else if (od_open)
		pt_outdir_abort(&od);
	return rc;
}
