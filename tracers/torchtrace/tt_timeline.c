/* The merged Chrome timeline of every rank's chromium_event records. See tt_query.h. */
#include "tt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const char SQL_CHROMIUM[] =
	"SELECT r.rank, p.data FROM trace_records r JOIN trace_payloads p ON p.md5 = r.payload_md5"
	" WHERE r.run_id = ? AND r.kind = 'chromium_event' ORDER BY r.id";

int tt_timeline_write(struct db *ix, int64_t run_id, FILE *f, uint64_t *nevents,
			 uint64_t *skipped, struct pt_diag *diag)
{
	struct db_stmt *s = NULL;
	int64_t *ranks = NULL;	/* seen so far: one metadata event each */
	size_t nranks = 0;
	int rc;

	(void)diag;
	*nevents = *skipped = 0;
	if (tt_prep(ix, &s, SQL_CHROMIUM) < 0 || db_bind(s, "i", run_id) < 0)
		return -1;
	fputs("{\"traceEvents\": [\n", f);
	while ((rc = db_step(s)) == 1) {
		int64_t rank = db_col_is_null(s, 0) ? 0 : db_col_int(s, 0);
		int seen = 0;

		for (size_t i = 0; i < nranks; i++)
			seen |= ranks[i] == rank;
		if (!seen) {
			/* Perfetto and chrome://tracing label process tracks from these metadata events. */
			ranks = pt_xreallocarray(ranks, nranks + 1, sizeof(*ranks));
			ranks[nranks++] = rank;
			fprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%lld,\"tid\":0,"
				   "\"args\":{\"name\":\"rank %lld\"}}", *nevents || nranks > 1 ? ",\n" : "",
				(long long)rank, (long long)rank);
		}
		json_t *ev = json_loadb(db_col_text(s, 1), db_col_bytes(s, 1), 0, NULL);

		if (!json_is_object(ev)) {
			(*skipped)++;
			json_decref(ev);
			continue;
		}
		/* Every rank writes pid 0: the merged view needs one process per rank. */
		json_object_set_new(ev, "pid", json_integer(rank));
		fputs(",\n", f);
		json_dumpf(ev, f, JSON_COMPACT);
		json_decref(ev);
		(*nevents)++;
	}
	fputs("\n]}\n", f);
	free(ranks);
	return rc < 0 ? -1 : 0;
}
