/* The merged Chrome timeline of every rank's chromium_event records. See tt_query.h. */
#include "tt_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const char SQL_CHROMIUM[] =
	"SELECT r.rank, p.data, r.md5_declared IS NULL FROM trace_records r"
	" JOIN trace_payloads p ON p.md5 = r.payload_md5"
	" WHERE r.run_id = ? AND r.kind = 'chromium_event' ORDER BY r.id";

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static size_t skip_ws_back(const char *t, size_t i, size_t e)
{
	while (e > i && is_ws(t[e - 1]))
		e--;
	return e;
}

/* Backwards over "ident" ending at e (t[e - 1] is its closing quote): the offset of
 * its opening quote, or 0. The character before that quote is checked by the caller. */
static size_t ident_string_back(const char *t, size_t i, size_t e)
{
	if (e <= i || t[e - 1] != '"')
		return 0;
	e--;
	while (e > i && is_ident(t[e - 1]))
		e--;
	return e > i && t[e - 1] == '"' ? e - 1 : 0;
}

/*
 * The fast path for an event torch wrote: json.dumps puts "pid" near the end, after
 * it at most members like "s": "p" (instant events). A text that starts with '{' and
 * ends with  [,{] "pid" : <integer> ( , "ident" : "ident" )* }  has its pid member at
 * the top level: in valid JSON the final '}' closes the object, a '"' that ends a run
 * of identifier characters and is preceded by ':' or ',' (blanks aside) opens a string,
 * and the members between are the object's own. Sets the span of the pid member (its
 * key's '"' up to the end of the number) and returns 1, or returns 0 when the text
 * does not have this shape. Used only for payloads whose md5 matched the one torch
 * declared, so the text is the JSON it wrote; everything else goes through jansson.
 */
int tt_chromium_pid_span(const char *t, size_t n, size_t *key, size_t *vend)
{
	size_t i = 0, e = n, q;

	while (i < n && is_ws(t[i]))
		i++;
	if (i == n || t[i] != '{')
		return 0;
	e = skip_ws_back(t, i, e);
	if (e == i || t[--e] != '}')
		return 0;
	/* Trailing "ident": "ident" members. */
	for (;;) {
		e = skip_ws_back(t, i, e);
		if (!(q = ident_string_back(t, i, e)))
			break;
		e = skip_ws_back(t, i, q);
		if (e == i || t[--e] != ':')
			return 0;
		e = skip_ws_back(t, i, e);
		if (!(q = ident_string_back(t, i, e)))
			return 0;
		e = skip_ws_back(t, i, q);
		if (e == i || t[--e] != ',')
			return 0;
	}
	*vend = e;
	if (e == i || t[e - 1] < '0' || t[e - 1] > '9')
		return 0;
	while (e > i && t[e - 1] >= '0' && t[e - 1] <= '9')
		e--;
	if (e > i && t[e - 1] == '-')
		e--;
	e = skip_ws_back(t, i, e);
	if (e == i || t[--e] != ':')
		return 0;
	e = skip_ws_back(t, i, e);
	if (e < i + 5 || memcmp(t + e - 5, "\"pid\"", 5))
		return 0;
	*key = e - 5;
	e = skip_ws_back(t, i, *key);
	return e > i && (t[e - 1] == ',' || t[e - 1] == '{');
}

/*
 * Valid JSON text t[0..n), starting outside a string, written without the
 * whitespace between its tokens: torch writes each event indented over a
 * dozen lines, and those bytes were 40% of a timeline. Strings are copied
 * as they are.
 */
static void put_compact(FILE *f, const char *t, size_t n)
{
	size_t run = 0;		/* t[i - run .. i) still to write */
	bool str = false, esc = false;

	for (size_t i = 0; i < n; i++) {
		char c = t[i];

		if (str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				str = false;
		} else if (c == '"') {
			str = true;
		} else if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			fwrite(t + i - run, 1, run, f);
			run = 0;
			continue;
		}
		run++;
	}
	fwrite(t + n - run, 1, run, f);
}

int tt_timeline_write(struct db *ix, int64_t run_id, FILE *f, uint64_t *nevents,
			 uint64_t *skipped)
{
	struct db_stmt *s = NULL;
	int64_t *ranks = NULL;	/* seen so far: one metadata event each */
	size_t nranks = 0, aranks = 0;
	int rc;

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
			PT_GROW(ranks, nranks, aranks);
			ranks[nranks++] = rank;
			fprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%lld,\"tid\":0,"
				   "\"args\":{\"name\":\"rank %lld\"}}", *nevents || nranks > 1 ? ",\n" : "",
				(long long)rank, (long long)rank);
		}
		const char *text = db_col_text(s, 1);
		size_t len = (size_t)db_col_bytes(s, 1), key, vend;

		/* Torch's own tokens, with the pid replaced: the common case, no parse. */
		if (db_col_int(s, 2) && text && tt_chromium_pid_span(text, len, &key, &vend)) {
			fputs(",\n", f);
			put_compact(f, text, key);
			fprintf(f, "\"pid\":%lld", (long long)rank);
			put_compact(f, text + vend, len - vend);
			(*nevents)++;
			continue;
		}
		json_t *ev = json_loadb(text, len, 0, NULL);

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
