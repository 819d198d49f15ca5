/*
 * The comparison of two runs (run_diff.h): the exit status, the logs'
 * sections (logs_diff), TORCH_TRACE's graph breaks and compiles (tt_diff).
 */
#include <string.h>

#include "logs_diff.h"
#include "run_diff.h"
#include "runs.h"
#include "tt_query.h"
#include "xalloc.h"

/* "exit N", "signal N", or the run's state ("running", "interrupted", ...). */
static char *status_of(struct db *ix, int64_t run)
{
	struct run_row r;
	char *s;

	if (runs_load(ix, run, &r) < 0)
		return NULL;
	if (!strcmp(r.status, "exited"))
		s = pt_xasprintf("exit %lld", (long long)r.exit_code);
	else if (!strcmp(r.status, "signaled"))
		s = pt_xasprintf("signal %lld", (long long)r.signal);
	else
		s = pt_xstrdup(r.status);
	runs_row_release(&r);
	return s;
}

/* The reasons of mine that other has not, as many times as mine has more (a multiset difference). */
static json_t *reasons_only(json_t *mine, json_t *other)
{
	json_t *left = json_copy(other), *out = json_array(), *v, *w;
	size_t i, j;

	json_array_foreach(mine, i, v) {
		int found = 0;

		json_array_foreach(left, j, w)
			if (json_equal(v, w)) {
				json_array_remove(left, j);
				found = 1;
				break;
			}
		if (!found)
			json_array_append(out, v);
	}
	json_decref(left);
	return out;
}

int run_diff_json(struct db *ix, int64_t a, int64_t b, json_t **out, struct pt_diag *diag)
{
	json_t *doc, *tc;
	char *sa = status_of(ix, a), *sb = status_of(ix, b);
	int differ;

	*out = NULL;
	if (!sa || !sb) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "no run %lld", (long long)(sa ? b : a));
		free(sa);
		free(sb);
		return -1;
	}
	doc = json_object();
	json_object_set_new(doc, "a", json_integer(a));
	json_object_set_new(doc, "b", json_integer(b));
	json_object_set_new(doc, "status", json_pack("{s:s,s:s}", "a", sa, "b", sb));
	differ = strcmp(sa, sb) != 0;
	free(sa);
	free(sb);
	if (logs_diff_json(ix, a, b, doc, &differ) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, NULL, NULL, "cannot compare the output of runs %lld and %lld",
			    (long long)a, (long long)b);
		json_decref(doc);
		return -1;
	}
	if (tt_breaks_diff_json(ix, a, b, doc, &differ) < 0 || tt_diff_json(ix, a, b, &tc) < 0) {
		json_decref(doc);
		return -1;
	}
	differ |= json_is_true(json_object_get(tc, "differ"));
	{
		json_t *rr = json_object_get(tc, "recompile_reasons");

		json_object_set_new(tc, "recompile_reasons_only",
				    json_pack("{s:o,s:o}", "a", reasons_only(json_object_get(rr, "a"), json_object_get(rr, "b")),
					      "b", reasons_only(json_object_get(rr, "b"), json_object_get(rr, "a"))));
	}
	json_object_set_new(doc, "compiles", tc);
	json_object_set_new(doc, "differ", json_boolean(differ));
	*out = doc;
	return 0;
}

const char *const run_diff_compile_fields[] = { "status", "graphs", "ops", "guards", "restart_reasons" };
const size_t run_diff_n_compile_fields = sizeof(run_diff_compile_fields) / sizeof(*run_diff_compile_fields);

char *run_diff_value_text(const json_t *v)
{
	char *t;

	if (!v || json_is_null(v))
		return pt_xstrdup("-");
	if (json_is_string(v))
		return pt_xstrdup(json_string_value(v));
	t = json_dumps(v, JSON_ENCODE_ANY);
	return t ? t : pt_xstrdup("?");	/* jansson out of memory: the field still shows */
}
