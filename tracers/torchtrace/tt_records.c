/*
 * The records of a run one by one: artifact labels, tlparse file names,
 * payloads by md5, torch's version from the trace, a run's files, the record
 * iterator. See tt_query.h.
 */
#include "tt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

static const char SQL_PAYLOAD[] = "SELECT data FROM trace_payloads WHERE md5 = ?";

const char *tt_artifact_label(const char *kind, const char *name)
{
	if (name && (!strcmp(kind, "artifact") || !strcmp(kind, "graph_dump") ||
		     !strcmp(kind, "optimize_ddp_split_child") || !strcmp(kind, "link")))
		return name;
	return kind;
}

int tt_tlparse_name(const char *kind, const char *name, const char *envelope,
		       char *base, size_t nbase, const char **ext)
{
	static const char *const none[] = {
		"chromium_event", "compilation_metrics", "str", "dynamo_start", "link",
		"bwd_compilation_metrics", "aot_autograd_backward_compilation_metrics",
	};

	for (size_t i = 0; i < PT_ARRAY_SIZE(none); i++)
		if (!strcmp(kind, none[i]))
			return -1;
	*ext = "txt";
	if (!strcmp(kind, "artifact")) {
		json_t *env = json_loads(envelope, 0, NULL);
		json_t *enc = json_object_get(json_object_get(env, "artifact"), "encoding");

		if (json_is_string(enc) && !strcmp(json_string_value(enc), "json"))
			*ext = "json";
		json_decref(env);
		pt_fmt_trunc(base, nbase, "%s", name ? name : "artifact");
	} else if (!strcmp(kind, "graph_dump")) {
		pt_fmt_trunc(base, nbase, "%s", name ? name : "graph_dump");
	} else if (!strcmp(kind, "optimize_ddp_split_child")) {
		pt_fmt_trunc(base, nbase, "optimize_ddp_split_child_%s", name ? name : "");
	} else if (!strcmp(kind, "inductor_output_code")) {
		/* tlparse -p: inductor_output_code_<stem of the file name>.txt */
		const char *b = name ? strrchr(name, '/') : NULL;
		const char *dot;

		b = b ? b + 1 : name;
		dot = b ? strrchr(b, '.') : NULL;
		if (b && *b)
			pt_fmt_trunc(base, nbase, "inductor_output_code_%.*s", (int)(dot && dot != b ? (size_t)(dot - b) : strlen(b)), b);
		else
			pt_fmt_trunc(base, nbase, "inductor_output_code");
	} else if (!strcmp(kind, "dynamo_guards")) {
		/* tlparse renders dynamo_guards.html from this JSON; we keep the JSON. */
		pt_fmt_trunc(base, nbase, "dynamo_guards");
		*ext = "json";
	} else if (!strcmp(kind, "dump_file")) {
		pt_fmt_trunc(base, nbase, "%s", name ? name : "dump_file");
	} else {
		pt_fmt_trunc(base, nbase, "%s", kind);
	}
	/* A name is one path component. */
	for (char *p = base; *p; p++)
		if (*p == '/')
			*p = '_';
	return 0;
}

int tt_payload_get(struct db *ix, const char *md5, char **data, size_t *len)
{
	struct db_stmt *s = NULL;
	int rc;

	*data = NULL;
	*len = 0;
	if (tt_prep(ix, &s, SQL_PAYLOAD) < 0 || db_bind(s, "t", md5) < 0)
		return -1;
	rc = db_step(s);
	if (rc == 1) {
		const char *p = (const char *)db_col_text(s, 0);

		*len = db_col_bytes(s, 0);
		*data = pt_xmalloc(*len + 1);
		if (*len)
			memcpy(*data, p, *len);
		(*data)[*len] = '\0';
		while (db_step(s) == 1)
			;
		return 0;
	}
	return rc < 0 ? -1 : 1;
}

static const char SQL_RUN_FILES[] =
	"SELECT id, process, path, rank,"
	" count(CASE WHEN records > 0 THEN 1 END) OVER (PARTITION BY rank),"
	" count(CASE WHEN records > 0 THEN 1 END) OVER ()"
	" FROM trace_files WHERE run_id = ?1 ORDER BY id";

int tt_run_files_load(struct db *ix, int64_t run_id, struct tt_run_file **out, size_t *n)
{
	struct db_stmt *s = NULL;
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (tt_prep(ix, &s, SQL_RUN_FILES) < 0 || db_bind(s, "i", run_id) < 0)
		return -1;
	while ((rc = db_step(s)) == 1) {
		struct tt_run_file *f;
		int ranked = !db_col_is_null(s, 3);
		int64_t same_rank = db_col_int(s, 4), files = db_col_int(s, 5);

		PT_GROW(*out, *n, alloc);
		f = &(*out)[(*n)++];
		memset(f, 0, sizeof(*f));
		f->id = db_col_int(s, 0);
		f->process = db_col_int(s, 1);
		f->path = pt_xstrdup(db_col_text(s, 2) ? db_col_text(s, 2) : "");
		/* Who wrote the file, when the run has several: its rank, or p<process> (no rank, or shared). */
		if (files >= 2)
			pt_fmt_trunc(f->who, sizeof(f->who), ranked && same_rank == 1 ? "rank %lld" : "p%lld",
				 (long long)(ranked && same_rank == 1 ? db_col_int(s, 3) : f->process));
	}
	if (rc < 0) {
		tt_run_files_release(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

static int cmp_run_file(const void *key, const void *elem)
{
	int64_t k = *(const int64_t *)key, id = ((const struct tt_run_file *)elem)->id;

	return k < id ? -1 : k > id;
}

const struct tt_run_file *tt_run_file_find(const struct tt_run_file *v, size_t n, int64_t id)
{
	return n ? bsearch(&id, v, n, sizeof(*v), cmp_run_file) : NULL;
}

void tt_run_files_release(struct tt_run_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/*
 * The run's records in id order; records of another kind and label than ?3
 * (when given) stay in SQLite, the exact test is tt_records_for's.
 */
static const char SQL_RECS_FOR[] =
	"SELECT id, rank, lineno, ca, frame, compile, attempt, kind, name, payload_md5, envelope, file_id"
	" FROM trace_records WHERE run_id = ?1 AND (?2 < 0 OR rank = ?2)"
	" AND (?3 IS NULL OR kind = ?3 OR name = ?3) AND (?3 IS NOT NULL OR payload_md5 IS NOT NULL)"
	" ORDER BY id";

int tt_records_for(struct db *ix, int64_t run_id, const struct compileid *cid, int64_t rank,
		      const char *what, tt_rec_cb cb, void *ctx)
{
	struct db_stmt *s = NULL;
	struct tt_run_file *files;
	size_t nfiles;
	int rc;

	if (tt_run_files_load(ix, run_id, &files, &nfiles) < 0)
		return -1;
	if (tt_prep(ix, &s, SQL_RECS_FOR) < 0 || db_bind(s, "iit", run_id, rank, what) < 0) {
		tt_run_files_release(files, nfiles);
		return -1;
	}
	while ((rc = db_step(s)) == 1) {
		const struct tt_run_file *f = tt_run_file_find(files, nfiles, db_col_int(s, 11));
		struct tt_rec_row row;

		if (!f)
			continue;	/* a record of no file of the run: none, as the join had it */
		row.id = db_col_int(s, 0);
		row.rank = col_nullable(s, 1);
		row.lineno = db_col_int(s, 2);
		row.cid.ca = col_nullable(s, 3);
		row.cid.frame = col_nullable(s, 4);
		row.cid.compile = col_nullable(s, 5);
		row.cid.attempt = col_nullable(s, 6);
		row.kind = db_col_text(s, 7);
		row.name = db_col_text(s, 8);
		row.md5 = db_col_text(s, 9);
		row.envelope = db_col_text(s, 10);
		row.file = f->path;
		row.who = f->who[0] ? f->who : NULL;
		if (cid && !compileid_equal(cid, &row.cid))
			continue;
		if (what ? (strcmp(what, row.kind) && strcmp(what, tt_artifact_label(row.kind, row.name)))
			 : !row.md5)
			continue;
		if (cb(ctx, &row) < 0) {
			while (db_step(s) == 1)
				;
			tt_run_files_release(files, nfiles);
			return -1;
		}
	}
	tt_run_files_release(files, nfiles);
	return rc < 0 ? -1 : 0;
}

char *tt_torch_version(struct db *ix, int64_t run_id, char **md5_out)
{
	struct db_stmt *s = db_prepare(ix, "SELECT payload_md5 FROM trace_records WHERE run_id = ?1"
					   " AND kind = 'artifact' AND name = 'torch_version'"
					   " AND payload_md5 IS NOT NULL ORDER BY id LIMIT 1");
	char *md5 = NULL, *data = NULL, *out = NULL;
	size_t len = 0;
	json_t *j, *v;

	if (!s || db_bind(s, "i", run_id) < 0)
		return NULL;
	if (db_step(s) == 1)
		md5 = pt_xstrdup(db_col_text(s, 0));
	db_reset(s);
	if (!md5 || tt_payload_get(ix, md5, &data, &len) != 0) {
		free(md5);
		return NULL;
	}
	j = json_loadb(data, len, 0, NULL);
	v = json_object_get(j, "pytorch_version");
	if (json_is_string(v))
		out = pt_xstrdup(json_string_value(v));
	json_decref(j);
	free(data);
	if (out && md5_out)
		*md5_out = md5;
	else
		free(md5);
	return out;
}
