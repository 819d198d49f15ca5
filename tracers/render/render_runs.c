/* `pttrace ls` and `pttrace show RUN` as text and JSON; see render_runs.h. */
#include "render_runs.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonout.h"
#include "logs_query.h"
#include "strbuf.h"

/* "2026-11-22 02:47:18" in local time. */
static void fmt_time(char *out, size_t n, int64_t us)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
}

/* A nullable integer column (-1: NULL) where the text says 0 for NULL. */
static long long or0(int64_t v)
{
	return v == -1 ? 0 : (long long)v;
}

/* "exit 0", "signal 9 (Killed)", "running", ... */
static void fmt_status(char *out, size_t n, const struct run_row *r)
{
	const char *st = r->status;

	if (st && !strcmp(st, "exited"))
		pt_fmt_trunc(out, n, "exit %lld", or0(r->exit_code));
	else if (st && !strcmp(st, "signaled")) {
		int sig = (int)or0(r->signal);

		pt_fmt_trunc(out, n, "signal %d (%s)", sig, strsignal(sig));
	} else if (st && !strcmp(st, "lost")) {
		/* Stored by a writing command, or seen now: the recording pttrace is gone. */
		pt_fmt_trunc(out, n, "interrupted");
	} else
		pt_fmt_trunc(out, n, "%s", st ? st : "?");
}

/* The argv JSON array as one shell-like line ("?" for what is not a string). */
static void print_argv(FILE *f, const char *argv_json)
{
	json_t *a = json_loads(argv_json ? argv_json : "[]", 0, NULL);
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);

		fprintf(f, "%s%s", i ? " " : "", s ? s : "?");
	}
	json_decref(a);
}

void render_runs_text(FILE *f, const struct run_list *l, const struct pt_style *st)
{
	(void)st;
	if (l->n)
		fprintf(f, "%-5s %-12s %-20s %-19s %9s  %s\n", "ID", "NAME", "STATUS", "STARTED",
			"SECONDS", "COMMAND");
	for (size_t i = 0; i < l->n; i++) {
		const struct run_row *r = &l->v[i];
		char stat[64], when[32], dur[32] = "";

		fmt_status(stat, sizeof(stat), r);
		fmt_time(when, sizeof(when), r->started_us);
		if (r->ended_us != -1)
			pt_fmt_trunc(dur, sizeof(dur), "%.1f", (double)(r->ended_us - r->started_us) / 1e6);
		fprintf(f, "%-5lld %-12s %-20s %-19s %9s  ", (long long)r->id, r->name ? r->name : "-",
			stat, when, dur);
		print_argv(f, r->argv_json);
		fputc('\n', f);
	}
}

/* Text columns as db_json gives them: the string, or null. */
static json_t *jstr(const char *s)
{
	return s ? pt_json_strn_lossy(s, strlen(s)) : json_null();
}

/* A nullable integer column (-1: NULL). */
static json_t *jint(int64_t v)
{
	return v == -1 ? json_null() : json_integer((json_int_t)v);
}

json_t *render_runs_json(const struct run_list *l)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < l->n; i++) {
		const struct run_row *r = &l->v[i];
		json_t *o = json_object();

		json_object_set_new(o, "id", json_integer((json_int_t)r->id));
		json_object_set_new(o, "name", jstr(r->name));
		json_object_set_new(o, "tag", jstr(r->tag));
		json_object_set_new(o, "source", jstr(r->source));
		json_object_set_new(o, "status", jstr(r->status));
		json_object_set_new(o, "exit_code", jint(r->exit_code));
		json_object_set_new(o, "signal", jint(r->signal));
		json_object_set_new(o, "started_us", json_integer((json_int_t)r->started_us));
		json_object_set_new(o, "ended_us", jint(r->ended_us));
		json_object_set_new(o, "argv", jstr(r->argv_json));
		json_object_set_new(o, "cwd", jstr(r->cwd));
		json_object_set_new(o, "torch_version", jstr(r->torch_version));
		json_array_append_new(rows, o);
	}
	return rows;
}

/* The records of show's list k (graph_breaks, recompiles, errors): how many, and one's text and kind. */
static size_t list_n(const struct logs_show *l, size_t k)
{
	return k == 0 ? l->n_breaks : k == 1 ? l->n_recompiles : l->n_errors;
}

static const char *list_text(const struct logs_show *l, size_t k, size_t i, const char **kind)
{
	*kind = k == 2 ? l->errors[i].kind : NULL;
	return k == 0 ? l->breaks[i].text.s : k == 1 ? l->recompiles[i].text.s : l->errors[i].text.s;
}

/*
 * The line that says what a record is: a traceback's exception line, else
 * the first; whole, or (--short) cut at 100 columns with "..." after them.
 */
#define SHOW_SHORT_COLUMNS 100
static void print_first_line(FILE *out, const char *indent, const char *t, const char *kind, int cut)
{
	size_t n;

	if (t && kind && !strcmp(kind, "traceback")) {
		const char *last = strrchr(t, '\n');

		while (last && !last[1] && last > t) {
			/* A trailing newline: look before it. */
			const char *p = last - 1;

			while (p > t && *p != '\n')
				p--;
			last = *p == '\n' ? p : NULL;
		}
		if (last)
			t = last + 1;
	}
	n = t ? strcspn(t, "\n") : 0;

	if (cut && n > SHOW_SHORT_COLUMNS)
		fprintf(out, "%s%.*s...\n", indent, SHOW_SHORT_COLUMNS, t);
	else
		fprintf(out, "%s%.*s\n", indent, (int)n, t ? t : "");
}

/*
 * A crash first, before everything else: the signal, where in Python
 * (faulthandler's innermost frame of the crashed thread), what, then where
 * the core went and the gdb line (pttrace run's run_crash row).
 */
static void show_crash(FILE *out, const struct run_show_view *v)
{
	const struct run_crash_row *c = v->run->crash;
	const struct logs_show_crash *rec = v->logs->n_crashes ? &v->logs->crashes[0] : NULL;
	const char *t = rec ? rec->text.s : NULL;
	const char *f = rec ? rec->src_file : NULL;
	int sig = (int)(c ? c->signal : or0(v->run->run.signal));

	if (!c && !rec)
		return;
	fprintf(out, "  crash:    ");
	if (sig > 0)
		fprintf(out, "signal %d%s%s%s", sig, sigabbrev_np(sig) ? " (SIG" : "",
			sigabbrev_np(sig) ? sigabbrev_np(sig) : "", sigabbrev_np(sig) ? ")" : "");
	else
		fprintf(out, "the process printed a fatal error");
	if (f)
		fprintf(out, " at %s:%lld", f, rec->src_line == LOGS_NULL ? 0 : (long long)rec->src_line);
	if (t) {
		char *what = logs_crash_summary(t, strlen(t));

		fprintf(out, ": %s", what);
		free(what);
	}
	fputc('\n', out);
	if (c) {
		if (c->core_note)
			fprintf(out, "            %s\n", c->core_note);
		if (c->gdb)
			fprintf(out, "            %s\n", c->gdb);
	}
}

/*
 * counts: from all indexed data. A break or recompile is seen by both
 * TORCH_LOGS and TORCH_TRACE when both are on: the larger count, not the
 * sum. Errors are TORCH_LOGS' error lines and tracebacks plus the compiles
 * TORCH_TRACE says failed.
 */
static const char *const count_keys[] = { "graph_breaks", "recompiles", "errors" };
struct show_count {
	int64_t total, torch_logs, torch_trace;
};
static struct show_count show_count(const struct run_show_view *v, size_t k)
{
	int64_t l = (int64_t)list_n(v->logs, k);
	int64_t t = k == 0 ? v->tt->graph_breaks : k == 1 ? v->tt->recompiles : v->tt->failed_compiles;

	return (struct show_count){ k == 2 ? l + t : l > t ? l : t, l, t };
}

void render_run_show_text(FILE *out, const struct run_show_view *v,
			  const struct render_run_show_opts *o, const struct pt_style *st)
{
	const struct run_row *r = &v->run->run;
	const struct tt_show *tt = v->tt;
	char stat[64], when[32];
	size_t i;

	(void)st;
	fmt_status(stat, sizeof(stat), r);
	fmt_time(when, sizeof(when), r->started_us);
	fprintf(out, "run %lld", (long long)r->id);
	if (r->name)
		fprintf(out, " (%s)", r->name);
	fputc('\n', out);
	show_crash(out, v);
	fprintf(out, "  command:  ");
	for (i = 0; i < v->run->argc; i++)
		fprintf(out, "%s%s", i ? " " : "", v->run->argv[i] ? v->run->argv[i] : "(null)");
	fputc('\n', out);
	if (r->cwd)
		fprintf(out, "  cwd:      %s\n", r->cwd);
	fprintf(out, "  status:   %s", stat);
	if (!strcmp(stat, "interrupted") && r->source && !strcmp(r->source, "import"))
		fprintf(out, " (the pttrace import died before it ended; 'pttrace import --into %lld PATH...'"
			     " of the same files completes it)", (long long)r->id);
	else if (!strcmp(stat, "interrupted"))
		fprintf(out, " (the recording pttrace died before the run ended; 'pttrace reindex %lld'"
			     " indexes the output it kept)", (long long)r->id);
	fputc('\n', out);
	fprintf(out, "  started:  %s", when);
	if (v->run->has_duration)
		fprintf(out, ", %.2f s", v->run->duration_s);
	fputc('\n', out);
	if (r->torch_version)
		fprintf(out, "  torch:    %s, %s build\n", r->torch_version,
			r->torch_build_type ? r->torch_build_type : "unknown");
	else if (tt->torch_version)
		fprintf(out, "  torch:    %s (the trace's torch_version artifact)\n", tt->torch_version);
	if (r->logs_spec)
		fprintf(out, "  TORCH_LOGS=%s\n", r->logs_spec);
	fprintf(out, "  output:   %lld bytes stdout, %lld bytes stderr\n", (long long)r->bytes_stdout,
		(long long)r->bytes_stderr);
	for (i = 0; i < v->run->n_warnings; i++)
		fprintf(out, "  warning:  %s\n", v->run->warnings[i].message ? v->run->warnings[i].message : "(null)");
	if (v->logs->n_kinds) {
		fprintf(out, "  lines:   ");
		for (i = 0; i < v->logs->n_kinds; i++)
			fprintf(out, " %s %lld", v->logs->kinds[i].kind,
				v->logs->kinds[i].lines == LOGS_NULL ? 0 : (long long)v->logs->kinds[i].lines);
		fputc('\n', out);
	}
	/* TORCH_TRACE */
	if (tt->files) {
		long long nf = tt->files, nr = tt->records, nm = tt->md5_mismatches, nd = tt->damaged_lines;

		fprintf(out, "  torch_trace: %lld file%s, %lld record%s, %lld payload md5 mismatch%s, %lld damaged line%s, ranks:",
			nf, PT_PLURAL(nf), nr, PT_PLURAL(nr), nm, nm == 1 ? "" : "es", nd, PT_PLURAL(nd));
		for (i = 0; i < tt->n_ranks; i++)
			fprintf(out, " %lld", (long long)tt->ranks[i]);
		fputs(tt->n_ranks ? "\n" : " none\n", out);
	}
	for (size_t k = 0; k < 3; k++) {
		struct show_count cnt = show_count(v, k);

		size_t n = list_n(v->logs, k);

		/* The count from everything indexed; the lines below are TORCH_LOGS'. */
		fprintf(out, "  %s: %lld", count_keys[k], (long long)cnt.total);
		if (cnt.torch_trace)
			fprintf(out, " (TORCH_TRACE %lld%s, TORCH_LOGS %zu)", (long long)cnt.torch_trace,
				k == 2 ? " failed compiles" : "", n);
		fputc('\n', out);
		for (i = 0; i < n; i++) {
			const char *kind, *t = list_text(v->logs, k, i, &kind);

			if (i == 10) {
				fprintf(out, "    ... %zu more\n", n - 10);
				break;
			}
			print_first_line(out, "    ", t, kind, o && o->cut);
		}
	}
}

/* An integer column that may be NULL (TT_SHOW_NULL). */
static json_t *jtt(int64_t v)
{
	return v == TT_SHOW_NULL ? json_null() : json_integer((json_int_t)v);
}

/* A record's text as db_json gives it (NULs kept, not UTF-8 made so). */
static json_t *jtext(const struct logs_show_text *t)
{
	return pt_json_strn_lossy(t->s, t->len);
}

static json_t *jlogs(int64_t v)
{
	return v == LOGS_NULL ? json_null() : json_integer((json_int_t)v);
}

static json_t *events_json(const struct logs_show_event *e, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "seq", jlogs(e[i].seq),
						   "rank", jlogs(e[i].rank), "frame_id", jlogs(e[i].frame_id),
						   "frame_compile_id", jlogs(e[i].frame_compile_id), "attempt",
						   jlogs(e[i].attempt), "text", jtext(&e[i].text)));
	return a;
}

/* The TORCH_LOGS part: lines_by_kind, graph_breaks, recompiles, errors, crashes. */
static void logs_json(json_t *o, const struct logs_show *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < l->n_kinds; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "kind", jstr(l->kinds[i].kind), "lines",
						   jlogs(l->kinds[i].lines), "records", jlogs(l->kinds[i].records)));
	json_object_set_new(o, "lines_by_kind", a);
	json_object_set_new(o, "graph_breaks", events_json(l->breaks, l->n_breaks));
	json_object_set_new(o, "recompiles", events_json(l->recompiles, l->n_recompiles));
	a = json_array();
	for (i = 0; i < l->n_errors; i++) {
		const struct logs_show_error *e = &l->errors[i];

		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:o}", "seq", jlogs(e->seq), "kind",
						   jstr(e->kind), "level", jlogs(e->level), "rank", jlogs(e->rank),
						   "text", jtext(&e->text)));
	}
	json_object_set_new(o, "errors", a);
	a = json_array();
	for (i = 0; i < l->n_crashes; i++) {
		const struct logs_show_crash *c = &l->crashes[i];

		json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o, s:o}", "seq", jlogs(c->seq), "stream",
						   jlogs(c->stream), "src_file", jstr(c->src_file), "src_line",
						   jlogs(c->src_line), "text", jtext(&c->text)));
	}
	json_object_set_new(o, "crashes", a);
}

/*
 * The --json object, keys in the order show has always printed them: the
 * runs row (argv as an array), duration_s, env, warnings, files, crash, the
 * logs part, indexed, TORCH_TRACE's part, counts.
 */
json_t *render_run_show_json(const struct run_show_view *v)
{
	const struct run_show *sh = v->run;
	const struct run_row *r = &sh->run;
	const struct tt_show *tt = v->tt;
	json_t *o = json_object(), *a, *x;
	size_t i;

	json_object_set_new(o, "id", json_integer((json_int_t)r->id));
	json_object_set_new(o, "name", jstr(r->name));
	json_object_set_new(o, "tag", jstr(r->tag));
	json_object_set_new(o, "source", jstr(r->source));
	a = json_array();
	for (i = 0; i < sh->argc; i++)
		json_array_append_new(a, jstr(sh->argv[i]));
	json_object_set_new(o, "argv", a);
	json_object_set_new(o, "cwd", jstr(r->cwd));
	json_object_set_new(o, "host", jstr(r->host));
	json_object_set_new(o, "python", jstr(r->python));
	json_object_set_new(o, "torch_version", jstr(r->torch_version));
	json_object_set_new(o, "torch_debug", jint(r->torch_debug));
	json_object_set_new(o, "torch_build_type", jstr(r->torch_build_type));
	json_object_set_new(o, "logs_spec", jstr(r->logs_spec));
	json_object_set_new(o, "dispatch", json_integer(r->dispatch));
	json_object_set_new(o, "trace", json_integer(r->trace));
	json_object_set_new(o, "started_us", json_integer((json_int_t)r->started_us));
	json_object_set_new(o, "ended_us", jint(r->ended_us));
	json_object_set_new(o, "tz_offset_s", json_integer((json_int_t)r->tz_offset_s));
	json_object_set_new(o, "pid", jint(r->pid));
	json_object_set_new(o, "pttrace_pid", jint(r->pttrace_pid));
	json_object_set_new(o, "status", jstr(r->status));
	json_object_set_new(o, "exit_code", jint(r->exit_code));
	json_object_set_new(o, "signal", jint(r->signal));
	json_object_set_new(o, "bytes_stdout", json_integer((json_int_t)r->bytes_stdout));
	json_object_set_new(o, "bytes_stderr", json_integer((json_int_t)r->bytes_stderr));
	json_object_set_new(o, "pttrace_version", jstr(r->pttrace_version));
	json_object_set_new(o, "duration_s", sh->has_duration ? json_real(sh->duration_s) : json_null());
	a = json_array();
	for (i = 0; i < sh->n_env; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}", "name", jstr(sh->env[i].name), "value",
						   jstr(sh->env[i].value)));
	json_object_set_new(o, "env", a);
	a = json_array();
	for (i = 0; i < sh->n_warnings; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}", "code", jstr(sh->warnings[i].code),
						   "message", jstr(sh->warnings[i].message)));
	json_object_set_new(o, "warnings", a);
	a = json_array();
	for (i = 0; i < sh->n_files; i++)
		json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "path", jstr(sh->files[i].path), "role",
						   jstr(sh->files[i].role), "bytes", jint(sh->files[i].bytes)));
	json_object_set_new(o, "files", a);
	if (sh->crash) {
		const struct run_crash_row *c = sh->crash;

		x = json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o}", "signal", (json_int_t)c->signal,
			      "core_dumped", (json_int_t)c->core_dumped, "core_limit",
			      c->core_limit_null ? json_null() : json_integer((json_int_t)c->core_limit),
			      "core_pattern", jstr(c->core_pattern), "core_path", jstr(c->core_path),
			      "core_note", jstr(c->core_note), "gdb", jstr(c->gdb));
	} else {
		x = json_null();
	}
	json_object_set_new(o, "crash", x);
	logs_json(o, v->logs);
	a = json_array();
	for (i = 0; i < sh->n_indexed; i++)
		json_array_append_new(a, json_pack("{s:o, s:I, s:o}", "part", jstr(sh->indexed[i].part),
						   "version", (json_int_t)sh->indexed[i].version, "state",
						   jstr(sh->indexed[i].state)));
	json_object_set_new(o, "indexed", a);
	json_object_set_new(o, "payload_md5_mismatches", json_integer((json_int_t)tt->md5_mismatches));
	x = json_object();
	for (i = 0; i < tt->n_kinds; i++)
		json_object_set_new(x, tt->by_kind[i].kind, json_integer((json_int_t)tt->by_kind[i].records));
	json_object_set_new(o, "records_by_kind", x);
	a = json_array();
	for (i = 0; i < tt->n_ranks; i++)
		json_array_append_new(a, json_integer((json_int_t)tt->ranks[i]));
	json_object_set_new(o, "ranks", a);
	x = json_pack("{s:I, s:I, s:I, s:I}", "damaged_lines", (json_int_t)tt->damaged_lines, "files",
		      (json_int_t)tt->files, "records", (json_int_t)tt->records, "bytes", (json_int_t)tt->bytes);
	if (tt->torch_version)
		json_object_set_new(x, "torch_version", jstr(tt->torch_version));
	json_object_set_new(x, "compiles", json_integer((json_int_t)tt->compiles));
	json_object_set_new(x, "autograd_captures", json_integer((json_int_t)tt->autograd_captures));
	json_object_set_new(x, "failed_compiles", json_integer((json_int_t)tt->failed_compiles));
	json_object_set_new(x, "graph_breaks", json_integer((json_int_t)tt->graph_breaks));
	json_object_set_new(x, "recompiles", json_integer((json_int_t)tt->recompiles));
	json_object_set_new(o, "torch_trace", x);
	a = json_array();
	for (i = 0; i < tt->n_processes; i++) {
		const struct tt_show_process *p = &tt->processes[i];

		json_array_append_new(
			a, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "process",
				     jtt(p->process), "path", jstr(p->path), "pid", jtt(p->pid), "rank",
				     jtt(p->rank), "rank_source", jstr(p->rank_source), "name_rank",
				     jtt(p->name_rank), "json_rank", jtt(p->json_rank), "rank_conflict",
				     jstr(p->rank_conflict), "other_rank", jtt(p->other_rank), "records",
				     jtt(p->records)));
	}
	json_object_set_new(o, "processes", a);
	x = json_object();
	for (size_t k = 0; k < 3; k++) {
		struct show_count c = show_count(v, k);

		json_object_set_new(x, count_keys[k],
				    json_pack("{s:I, s:I, s:I}", "total", (json_int_t)c.total, "torch_logs",
					      (json_int_t)c.torch_logs, "torch_trace", (json_int_t)c.torch_trace));
	}
	json_object_set_new(o, "counts", x);
	return o;
}
