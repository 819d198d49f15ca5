/*
 * pttrace report (report.h): one snapshot of the index, the lookups every page
 * uses (report_pages.h), then the pages in order, each in its own file, into a
 * fresh directory that takes the place of the output directory when all is
 * written. Also the files that are not pages: the style sheet, the script,
 * highlight.js and chromium_events.json.gz.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gzout.h"
#include "report.h"
#include "report_assets.h"
#include "report_pages.h"
#include "xalloc.h"

#define HLJS_DEBIAN "/usr/share/javascript/highlight.js/highlight.min.js"

static int on_dump(void *ctx, const struct rp_rec *r)
{
	struct rctx *c = ctx;
	json_t *env;
	const char *name;

	if (!r->md5)
		return 0;
	env = json_loads(r->envelope, 0, NULL);
	name = json_string_value(json_object_get(json_object_get(env, "dump_file"), "name"));
	if (name) {
		PT_GROW(c->dump_names, c->ndumps, c->a_dump_names);
		PT_GROW(c->dump_md5s, c->ndumps, c->a_dump_md5s);
		c->dump_names[c->ndumps] = pt_xstrdup(name);
		c->dump_md5s[c->ndumps++] = pt_xstrdup(r->md5);
	}
	json_decref(env);
	return 0;
}

static int copy_hljs(struct rctx *c)
{
	const char *src = c->o->hljs ? c->o->hljs : HLJS_DEBIAN;
	FILE *f = fopen(src, "r");
	char *buf = NULL;
	size_t n = 0, alloc = 0, got;
	int rc;

	if (!f)
		return 0;	/* not installed: code stays plain, the pages say so */
	do {
		PT_RESERVE(buf, n + 65536, alloc);
		got = fread(buf + n, 1, alloc - n, f);
		n += got;
	} while (got);
	fclose(f);
	rc = write_file(c, "highlight.min.js", buf, n);
	free(buf);
	if (rc == 0)
		c->st->highlight = 1;
	return rc;
}

/* Graph breaks and recompiles keyed as the compiles are (struct rp_occ's rank): their
 * label says "p2" when the run has several processes and this one has no rank of its own. */
static void events_to_who(struct tt_events *e)
{
	for (size_t i = 0; i < e->n; i++)
		if (e->v[i].who[0] == 'p')
			e->v[i].rank = -1 - strtoll(e->v[i].who + 1, NULL, 10);
}

/* Fill the lookups of struct rctx once the occurrences and recompiles are loaded. */
static void index_occs(struct rctx *c)
{
	for (size_t i = 0; i < c->occs.n; i++) {
		const struct rp_occ *o = &c->occs.v[i];
		int64_t k[5], *v;

		cidmap_key(k, o->rank, &o->cid);
		v = cidmap_get(&c->by_cid, k, 1);
		v[0] = v[0] < 0 ? 1 : v[0] + 1;
		if (v[1] < 0)
			v[1] = (int64_t)i;
		v[2] = (int64_t)i;
		cidmap_get(&c->by_compile, (int64_t[5]){o->rank, o->cid.ca, o->cid.frame, o->cid.compile, 0},
			      1)[0] = (int64_t)i;
	}
	for (size_t i = 0; i < c->recompiles.n; i++) {
		int64_t k[5], *v;

		cidmap_key(k, c->recompiles.v[i].rank, &c->recompiles.v[i].cid);
		v = cidmap_get(&c->recompile_by_cid, k, 1);
		if (v[0] < 0)
			v[0] = (int64_t)i;
	}
}

static int mkdir_in(struct rctx *c, const char *rel)
{
	char *path;

	if (pt_outdir_mkdirs(&c->od, rel) == 0)
		return 0;
	path = out_path(c, rel);
	fail_errno(c, path, "cannot create directory");
	free(path);
	return -1;
}

/*
 * The Chrome trace, gzip-compressed (level 1: JSON events deflate about 10:1 at
 * that level, faster than the file system takes the plain bytes): Perfetto and
 * chrome://tracing open a .json.gz as it is.
 */
static int write_timeline(struct rctx *c)
{
	char *path = out_path(c, REPORT_TIMELINE);
	FILE *raw = pt_outdir_fopen(&c->od, REPORT_TIMELINE), *f;
	uint64_t n = 0, skipped = 0, written = 0;
	int rc;

	if (!raw || !(f = pt_gzout_open(raw, 1, &written))) {
		rc = fail_errno(c, path, "cannot write");
		free(path);
		return rc;
	}
	rc = tt_timeline_write(c->ix, c->o->run_id, f, &n, &skipped);
	if (fclose(f) && rc == 0)
		rc = fail_errno(c, path, "cannot write");
	c->st->bytes += written;
	free(path);
	return rc;
}

/* An earlier report: report.css is there, a file of its own (not a link). */
static int report_earlier(int dirfd)
{
	struct stat sb;

	return fstatat(dirfd, "report.css", &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode);
}

const char *report_dir_refusal(const char *dir, char *buf, size_t n)
{
	return pt_outdir_refusal(pt_outdir_check(dir, report_earlier), "pttrace report", buf, n);
}

char *report_default_dir(int64_t run_id)
{
	return pt_xasprintf("pttrace-report-%lld", (long long)run_id);
}

int report_write(struct db *ix, const struct report_opts *o, struct report_stats *st,
		 struct pt_diag *diag)
{
	struct rctx c = {.ix = ix, .o = o, .st = st, .diag = diag};
	/* One snapshot for the whole report (WAL: writers go on meanwhile), unless the
	 * connection is inside a transaction already (pttrace run's batch). */
	int txn = !db_in_batch(ix);
	int rc = 0, alive;

	memset(st, 0, sizeof(*st));
	if (txn && db_exec(ix, "BEGIN DEFERRED") < 0)
		return -1;
	/* The snapshot starts here: the run is in it, whole, or the report fails. */
	if ((alive = rp_run_exists(ix, o->run_id)) <= 0) {
		if (alive == 0)
			pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "run %lld no longer exists "
				    "(deleted before the report could read it): no report written",
				    (long long)o->run_id);
		if (txn)
			db_exec(ix, "COMMIT");
		return -1;
	}
	if (pt_outdir_begin(&c.od, o->outdir, "pttrace report", report_earlier, 0, diag) < 0) {
		if (txn)
			db_exec(ix, "COMMIT");
		return -1;
	}
	if (mkdir_in(&c, "p") < 0 || mkdir_in(&c, "c") < 0 ||
	    write_file(&c, "report.css", report_css, strlen(report_css)) < 0 ||
	    write_file(&c, "report.js", report_js, strlen(report_js)) < 0 || copy_hljs(&c) < 0) {
		rc = -1;
		goto out;
	}
	static const char *const dump_kinds[] = {"dump_file", NULL};

	if (rp_records_of_kinds(ix, o->run_id, dump_kinds, on_dump, &c) < 0 ||
	    rp_occs_load(ix, o->run_id, &c.occs) < 0 ||
	    tt_graph_breaks(ix, o->run_id, &c.breaks) < 0 ||
	    tt_recompiles(ix, o->run_id, &c.recompiles) < 0) {
		rc = -1;
		goto out;
	}
	events_to_who(&c.breaks);
	events_to_who(&c.recompiles);
	index_occs(&c);
	/* The payload pages first: the other pages link only to those written. */
	if (write_payloads(&c) < 0) {
		rc = -1;
		goto out;
	}
	if ((c.loose = write_loose(&c)) < 0 ||
	    write_index(&c) < 0 || write_compiles(&c) < 0 || write_frames(&c) < 0 ||
	    write_breaks(&c) < 0 || write_compile_pages(&c) < 0 || write_timeline(&c) < 0 ||
	    (c.has_export && write_export(&c) < 0) || (o->diff_run > 0 && write_diff(&c) < 0))
		rc = -1;
out:
	if (txn && db_exec(ix, "COMMIT") < 0)
		rc = -1;
	/* In place only when whole: a failed report leaves the target as it was. */
	if (rc == 0)
		rc = pt_outdir_commit(&c.od, diag);
	else
		pt_outdir_abort(&c.od);
	for (size_t i = 0; i < c.ndumps; i++) {
		free(c.dump_names[i]);
		free(c.dump_md5s[i]);
	}
	free(c.dump_names);
	free(c.dump_md5s);
	for (size_t i = 0; i < c.npaged; i++)
		free(c.paged[i]);
	free(c.paged);
	st->records_read = rp_compile_rows_read(&c.occs);
	rp_occs_release(&c.occs);
	cidmap_release(&c.by_cid);
	cidmap_release(&c.by_compile);
	cidmap_release(&c.recompile_by_cid);
	tt_events_release(&c.breaks);
	tt_events_release(&c.recompiles);
	return rc;
}
