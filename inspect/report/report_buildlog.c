/*
 * `ptinspect buildlog`'s renderers (report_buildlog.h): verdict first, then
 * the failed edge (output, short command, its diagnostics, first error
 * first), the cause with its fix and the facts it rests on, the log's
 * figures last.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "report_buildlog.h"
#include "report_elf.h"
#include "strbuf.h"
#include "term.h"
#include "xalloc.h"

#define GIB (1024ull * 1024ull * 1024ull)
#define SHOWN_LINES 30		/* an edge's lines shown without --all */

long report_buildlog_max_jobs(uint64_t ram)
{
	long k;

	if (!ram)
		return 0;
	k = (long)(ram / (4 * GIB));
	return k > 0 ? k : 1;
}

/* "compute_35" or "sm_35" -> "3.5" (into buf), NULL when not that shape. */
static const char *arch_dotted(const char *a, char *buf, size_t n)
{
	const char *d = strchr(a ? a : "", '_');
	size_t len;

	if (!d || !d[1] || !d[2])
		return NULL;
	d++;
	len = strspn(d, "0123456789");
	if (len < 2 || len > 4)
		return NULL;
	(void)pt_fmt_trunc(buf, n, "%.*s.%.*s", (int)(len - 1), d, 1, d + len - 1);
	return buf;
}

/* nvcc's host_config.h: "gcc versions later than 13 are not supported". */
static long host_gcc_max(const char *line)
{
	const char *p = line ? strstr(line, "versions later than ") : NULL;

	return p ? strtol(p + 20, NULL, 10) : 0;
}

/* The cause's fix with the log's facts in it; malloc'd. */
static char *fix_text(const struct buildlog_report *rep)
{
	const struct buildlog_result *r = rep->r;
	const char *line = r->cause_line ? r->cause_line->text : NULL;
	char sz[32], dot[16];
	long k;

	switch (r->cause) {
	case BL_CAUSE_OOM:
		if ((k = report_buildlog_max_jobs(rep->ram_bytes)) > 0)
			return pt_xasprintf("MAX_JOBS=%ld before setup.py/pip (or ninja -j%ld): this machine has %s of RAM; a "
					    "torch compile job takes about 2 GB, the heaviest units (CUDA kernels, flash attention, "
					    "big ATen ops) 4 GB or more, so after an OOM count RAM / 4 GB", k, k,
					    report_size(sz, sizeof(sz), rep->ram_bytes));
		break;
	case BL_CAUSE_NVCC_ARCH:
		if (r->arch && arch_dotted(r->arch, dot, sizeof(dot)))
			return pt_xasprintf("remove %s from TORCH_CUDA_ARCH_LIST (this nvcc does not compile %s; nvcc "
					    "--list-gpu-arch lists what it does), then a fresh build/ (rm build/CMakeCache.txt)",
					    dot, r->arch);
		break;
	case BL_CAUSE_HOST_COMPILER:
		if ((k = host_gcc_max(line)) > 0)
			return pt_xasprintf("a GCC of version %ld or older for nvcc: CUDAHOSTCXX=/usr/bin/g++-%ld (or "
					    "CC/CXX), then a fresh build/; -allow-unsupported-compiler only at your own risk", k, k);
		break;
	case BL_CAUSE_HEADER_PACKAGE:
	case BL_CAUSE_HEADER_SUBMODULE:
	case BL_CAUSE_HEADER:
		if (r->header_hint && r->cause == BL_CAUSE_HEADER_SUBMODULE)
			return pt_xasprintf("git submodule sync && git submodule update --init --recursive (%s has %s)",
					    r->header_hint, r->header ? r->header : "it");
		if (r->header_hint)
			return pt_xasprintf("%s: %s", r->header ? r->header : "the header", r->header_hint);
		break;
	case BL_CAUSE_UNDEFINED:
		if (rep->twin_lib)
			return pt_xasprintf("a _GLIBCXX_USE_CXX11_ABI mismatch: %s defines the symbol with the %s ABI; build this "
					    "side with -D_GLIBCXX_USE_CXX11_ABI=%d like it (torch.compiled_with_cxx11_abi())",
					    rep->twin_lib, r->symbol_cxx11 ? "old" : "cxx11", r->symbol_cxx11 ? 0 : 1);
		if (r->abi_twin)
			return pt_xasprintf("the name has a std::string/std::list, so the library may define it with the "
					    "other C++ ABI (%s): build both sides with the same _GLIBCXX_USE_CXX11_ABI "
					    "(torch.compiled_with_cxx11_abi()); else link the library that defines it",
					    r->symbol_cxx11 ? "built with _GLIBCXX_USE_CXX11_ABI=0" : "built with _GLIBCXX_USE_CXX11_ABI=1");
		break;
	case BL_CAUSE_NVCC_OPTION:
		if (r->option)
			return pt_xasprintf("remove %s from NVCC_FLAGS/TORCH_NVCC_FLAGS/CMAKE_CUDA_FLAGS (this nvcc does not "
					    "know it; -Xcompiler %s passes a host compiler option through)", r->option, r->option);
		break;
	case BL_CAUSE_PYTHON:
		if (r->torchgen)
			return pt_xstrdup("torchgen (the code generator) failed: the exception below; a stale "
					  "native_functions.yaml edit or a missing Python module (pyyaml, typing_extensions)");
		break;
	default:
		break;
	}
	return pt_xstrdup(blclass_cause_fix(r->cause));
}

static const char *verdict_key(enum bl_verdict v)
{
	static const char *const k[] = { "ok", "failed", "incomplete", "empty", "binary" };

	return v <= BL_VERDICT_BINARY ? k[v] : "failed";
}

static int cmp_wk(const void *a, const void *b)
{
	const struct bl_wkind *x = *(const struct bl_wkind *const *)a, *y = *(const struct bl_wkind *const *)b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->kind, y->kind);
}

static const struct bl_wkind **sorted_wk(const struct buildlog_result *r)
{
	const struct bl_wkind **v = pt_xcalloc(r->n_wk + 1, sizeof(*v));

	for (size_t i = 0; i < r->n_wk; i++)
		v[i] = &r->wk[i];
	qsort(v, r->n_wk, sizeof(*v), cmp_wk);
	return v;
}

static void edge_lines_text(FILE *f, const struct bl_edge *e, bool all, const struct pt_style *st)
{
	size_t shown = 0, limit = all ? SIZE_MAX : SHOWN_LINES;
	size_t start = e->first_error;
	int on = st->color;

	if (!e->out.n)
		return;
	/* First error first: its context ("In file included from") and itself, then the rest. */
	if (start != SIZE_MAX)
		while (start > 0 && e->out.v[start - 1].kind == BL_KIND_CONTEXT)
			start--;
	else
		start = 0;
	fprintf(f, "\nits output (%zu line%s%s, first error first):\n", e->out.n + (size_t)e->out.dropped,
		PT_PLURAL(e->out.n + (size_t)e->out.dropped), e->out.dropped ? ", the first kept" : "");
	for (size_t pass = 0; pass < 2; pass++) {
		size_t from = pass ? 0 : start, to = pass ? start : e->out.n;

		for (size_t i = from; i < to && shown < limit; i++, shown++) {
			const struct bl_kept *k = &e->out.v[i];
			const char *c = k->kind == BL_KIND_CAUSE || k->kind == BL_KIND_ERROR ? PT_C_RED
					: k->kind == BL_KIND_WARNING ? PT_C_YELLOW : "";

			fprintf(f, "  %s%s%s%s\n", *c ? pt_c(on, c) : "", k->text, k->trunc ? " [...]" : "",
				*c ? pt_c(on, PT_C_RESET) : "");
		}
	}
	if (shown < e->out.n)
		fprintf(f, "  ... %zu more line%s (--all shows them)\n", e->out.n - shown, PT_PLURAL(e->out.n - shown));
}

static void field(FILE *f, const char *name, const char *val)
{
	fprintf(f, "  %-9s %s\n", name, val);
}

void report_buildlog_text(FILE *f, const struct buildlog_report *rep, const struct pt_style *st)
{
	const struct buildlog_result *r = rep->r;
	const struct bl_edge *e = r->edge;
	int on = st->color;
	char buf[64];

	switch (r->verdict) {
	case BL_VERDICT_OK:
		fprintf(f, "%sok%s: the build finished%s%s%s\n", pt_c(on, PT_C_GREEN), pt_c(on, PT_C_RESET),
			r->success ? " (" : "", r->success ? r->success : "", r->success ? ")" : "");
		break;
	case BL_VERDICT_INCOMPLETE:
		fprintf(f, "%sincomplete%s: no failure in the log, and no sign that the build finished", pt_c(on, PT_C_YELLOW),
			pt_c(on, PT_C_RESET));
		if (r->ninja_total)
			fprintf(f, " (ninja at [%" PRIu32 "/%" PRIu32 "])", r->ninja_k, r->ninja_total);
		fprintf(f, ": the log is cut, or the build still runs\n");
		break;
	case BL_VERDICT_EMPTY:
	case BL_VERDICT_BINARY:
		return;
	case BL_VERDICT_FAILED: {
		char *fix = fix_text(rep);

		fprintf(f, "%sFAILED%s in %s: %s (%s)\n", pt_c(on, PT_C_RED), pt_c(on, PT_C_RESET),
			blclass_phase_title(r->phase), blclass_cause_title(r->cause), blclass_cause_key(r->cause));
		if (e) {
			char *shortc = e->command ? buildlog_short_command(e->command) : NULL;

			if (e->total)
				fprintf(f, "  %-9s [%" PRIu32 "/%" PRIu32 "] %s (line %" PRIu64 ")\n", "edge", e->k, e->total,
					e->desc ? e->desc : "", e->no);
			else
				fprintf(f, "  %-9s line %" PRIu64 "\n", "edge", e->no);
			field(f, "output", e->outputs);
			if (shortc)
				field(f, "command", shortc);
			free(shortc);
		}
		if (r->first_error)
			fprintf(f, "  %-9s %s%s%s (line %" PRIu64 ")\n", "error", pt_c(on, PT_C_RED), r->first_error->text,
				pt_c(on, PT_C_RESET), r->first_error->no);
		if (r->cause_line && r->cause_line != r->first_error)
			fprintf(f, "  %-9s %s (line %" PRIu64 ")\n", "cause", r->cause_line->text, r->cause_line->no);
		if (r->header)
			fprintf(f, "  %-9s %s%s%s\n", "header", r->header, r->header_from ? ", included from " : "",
				r->header_from ? r->header_from : "");
		if (r->symbol)
			field(f, "symbol", r->symbol);
		if (r->abi_twin)
			fprintf(f, "  %-9s %s (the %s spelling; the symbol above is the %s one)\n", "ABI twin", r->abi_twin,
				r->symbol_cxx11 ? "old-ABI" : "cxx11-ABI", r->symbol_cxx11 ? "cxx11-ABI" : "old-ABI");
		if (rep->twin_lib)
			fprintf(f, "  %-9s %s defines %s\n", "defined", rep->twin_lib, rep->twin_def);
		if (r->py_frame && r->cause == BL_CAUSE_PYTHON)
			field(f, "where", r->py_frame);
		if (!r->cause_line && r->consequence)
			fprintf(f, "  %-9s %s (line %" PRIu64 ")\n", "seen", r->consequence, r->consequence_no);
		fprintf(f, "  %s%-9s %s%s\n", pt_c(on, PT_C_BOLD), "fix", fix, pt_c(on, PT_C_RESET));
		free(fix);
		if (e) {
			edge_lines_text(f, e, rep->all, st);
		} else if (r->block.n) {
			fprintf(f, "\n%s (%zu line%s):\n", r->cause == BL_CAUSE_PYTHON ? "the traceback" : "the error",
				r->block.n, PT_PLURAL(r->block.n));
			for (size_t i = 0; i < r->block.n; i++)
				fprintf(f, "  %s%s\n", r->block.v[i].text, r->block.v[i].trunc ? " [...]" : "");
		}
		break;
	}
	}
	if (r->n_failed > 1 || rep->all) {
		fprintf(f, "\nfailed edges: %" PRIu64 "%s\n", r->n_failed,
			r->n_failed > r->n_edges ? " (the first kept)" : "");
		for (size_t i = 0; i < r->n_edges && (rep->all || i < 10); i++) {
			const struct bl_edge *x = &r->edges[i];

			fprintf(f, "  %zu. %s (%s, line %" PRIu64 ")%s%s\n", i + 1, x->outputs, blclass_cause_key(x->cause), x->no,
				x->first_error != SIZE_MAX ? ": " : "",
				x->first_error != SIZE_MAX ? x->out.v[x->first_error].text : "");
		}
		if (!rep->all && r->n_edges > 10)
			fprintf(f, "  ... %zu more (--all)\n", r->n_edges - 10);
		if (rep->all)
			for (size_t i = 1; i < r->n_edges; i++) {
				fprintf(f, "\nedge %zu: %s\n", i + 1, r->edges[i].outputs);
				edge_lines_text(f, &r->edges[i], true, st);
			}
	}
	fprintf(f, "\nlog: %" PRIu64 " line%s, %" PRIu64 " error%s, %" PRIu64 " warning%s", r->lines, PT_PLURAL(r->lines),
		r->errors, PT_PLURAL(r->errors), r->warnings, PT_PLURAL(r->warnings));
	if (r->ninja_total)
		fprintf(f, "; ninja at [%" PRIu32 "/%" PRIu32 "]%s", r->ninja_k, r->ninja_total,
			r->ninja_stopped ? ", stopped" : "");
	if (r->cut_lines)
		fprintf(f, "; %" PRIu64 " line%s longer than %u bytes cut", r->cut_lines, PT_PLURAL(r->cut_lines), BL_LINE_MAX);
	if (r->nul_bytes)
		fprintf(f, "; %" PRIu64 " NUL byte%s ignored", r->nul_bytes, PT_PLURAL(r->nul_bytes));
	if (r->no_eol && r->verdict != BL_VERDICT_OK)
		fprintf(f, "; ends without a newline (cut?)");
	fputc('\n', f);
	if (r->n_wk) {
		const struct bl_wkind **v = sorted_wk(r);
		size_t n = rep->all ? r->n_wk : (r->n_wk < 8 ? r->n_wk : 8);

		fprintf(f, "warnings by kind:");
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s %s %" PRIu64, i ? "," : "", v[i]->kind, v[i]->n);
		if (n < r->n_wk)
			fprintf(f, ", %zu more kinds (--all)", r->n_wk - n);
		fputc('\n', f);
		free(v);
	}
	(void)buf;
}

static json_t *kept_json(const struct bl_kept *k)
{
	json_t *o = json_object();

	json_object_set_new(o, "line", json_integer((json_int_t)k->no));
	pt_json_set_lossy(o, "text", pt_json_strn_lossy(k->text, strlen(k->text)));
	if (k->trunc)
		json_object_set_new(o, "truncated", json_true());
	return o;
}

static json_t *kind_json(enum bl_kind k)
{
	static const char *const n[] = { "text", "cause", "error", "context", "consequence", "warning" };

	return json_string(k <= BL_KIND_WARNING ? n[k] : "text");
}

static json_t *lossy(const char *s)
{
	return s ? pt_json_strn_lossy(s, strlen(s)) : json_null();
}

static json_t *edge_json(const struct bl_edge *e, bool lines)
{
	json_t *o = json_object(), *a;

	json_object_set_new(o, "line", json_integer((json_int_t)e->no));
	if (e->total) {
		json_object_set_new(o, "status", json_integer(e->k));
		json_object_set_new(o, "total", json_integer(e->total));
	}
	pt_json_set_lossy(o, "description", lossy(e->desc));
	pt_json_set_lossy(o, "outputs", lossy(e->outputs));
	pt_json_set_lossy(o, "command", lossy(e->command));
	if (e->command) {
		char *s = buildlog_short_command(e->command);

		pt_json_set_lossy(o, "command_short", lossy(s));
		free(s);
	}
	json_object_set_new(o, "phase", json_string(blclass_phase_key(e->phase)));
	json_object_set_new(o, "cause", json_string(blclass_cause_key(e->cause)));
	json_object_set_new(o, "first_error", e->first_error != SIZE_MAX ? kept_json(&e->out.v[e->first_error]) : json_null());
	json_object_set_new(o, "errors", json_integer((json_int_t)e->n_errors));
	json_object_set_new(o, "warnings", json_integer((json_int_t)e->n_warnings));
	if (lines) {
		a = json_array();
		for (size_t i = 0; i < e->out.n; i++) {
			json_t *k = kept_json(&e->out.v[i]);

			json_object_set_new(k, "kind", kind_json(e->out.v[i].kind));
			json_array_append_new(a, k);
		}
		json_object_set_new(o, "output", a);
		json_object_set_new(o, "output_lines_dropped", json_integer((json_int_t)e->out.dropped));
	}
	return o;
}

json_t *report_buildlog_json(const struct buildlog_report *rep)
{
	const struct buildlog_result *r = rep->r;
	json_t *o = json_object(), *d = json_object(), *log = json_object(), *wk = json_object(), *a;
	char *fix = r->verdict == BL_VERDICT_FAILED ? fix_text(rep) : NULL;

	json_object_set_new(o, "source", pt_json_str(rep->source));
	json_object_set_new(o, "verdict", json_string(verdict_key(r->verdict)));
	json_object_set_new(o, "phase", json_string(blclass_phase_key(r->phase)));
	json_object_set_new(o, "cause", json_string(blclass_cause_key(r->verdict == BL_VERDICT_FAILED ? r->cause : BL_CAUSE_NONE)));
	json_object_set_new(o, "title", r->verdict == BL_VERDICT_FAILED ? json_string(blclass_cause_title(r->cause)) : json_null());
	pt_json_set_lossy(o, "fix", lossy(fix));
	free(fix);
	json_object_set_new(o, "first_error", r->first_error ? kept_json(r->first_error) : json_null());
	json_object_set_new(o, "cause_line", r->cause_line ? kept_json(r->cause_line) : json_null());
	json_object_set_new(o, "edge", r->edge ? edge_json(r->edge, true) : json_null());
	pt_json_set_lossy(d, "header", lossy(r->header));
	pt_json_set_lossy(d, "header_from", lossy(r->header_from));
	json_object_set_new(d, "header_hint", r->header_hint ? json_string(r->header_hint) : json_null());
	pt_json_set_lossy(d, "symbol", lossy(r->symbol));
	pt_json_set_lossy(d, "abi_twin", lossy(r->abi_twin));
	json_object_set_new(d, "symbol_abi", r->symbol ? json_string(r->symbol_cxx11 ? "cxx11" : "old") : json_null());
	pt_json_set_lossy(d, "arch", lossy(r->arch));
	pt_json_set_lossy(d, "option", lossy(r->option));
	pt_json_set_lossy(d, "python_frame", lossy(r->py_frame));
	json_object_set_new(d, "torchgen", json_boolean(r->torchgen));
	pt_json_set_lossy(d, "abi_twin_library", lossy(rep->twin_lib));
	pt_json_set_lossy(d, "abi_twin_definition", lossy(rep->twin_def));
	if (r->cause == BL_CAUSE_OOM && r->verdict == BL_VERDICT_FAILED && rep->ram_bytes) {
		json_object_set_new(d, "ram_bytes", json_integer((json_int_t)rep->ram_bytes));
		json_object_set_new(d, "max_jobs", json_integer(report_buildlog_max_jobs(rep->ram_bytes)));
	}
	json_object_set_new(o, "details", d);
	a = json_array();
	for (size_t i = 0; i < r->block.n; i++)
		json_array_append_new(a, kept_json(&r->block.v[i]));
	json_object_set_new(o, "block", a);
	a = json_array();
	for (size_t i = 0; i < r->n_edges; i++)
		json_array_append_new(a, edge_json(&r->edges[i], rep->all));
	json_object_set_new(o, "failed_edges", a);
	json_object_set_new(o, "failed_edges_total", json_integer((json_int_t)r->n_failed));
	json_object_set_new(log, "lines", json_integer((json_int_t)r->lines));
	json_object_set_new(log, "bytes", json_integer((json_int_t)r->bytes));
	json_object_set_new(log, "errors", json_integer((json_int_t)r->errors));
	json_object_set_new(log, "warnings", json_integer((json_int_t)r->warnings));
	for (size_t i = 0; i < r->n_wk; i++)
		pt_json_set_lossy(wk, r->wk[i].kind, json_integer((json_int_t)r->wk[i].n));
	json_object_set_new(log, "warnings_by_kind", wk);
	json_object_set_new(log, "ninja_status", json_integer(r->ninja_k));
	json_object_set_new(log, "ninja_total", json_integer(r->ninja_total));
	json_object_set_new(log, "ninja_stopped", json_boolean(r->ninja_stopped));
	json_object_set_new(log, "cut_lines", json_integer((json_int_t)r->cut_lines));
	json_object_set_new(log, "nul_bytes", json_integer((json_int_t)r->nul_bytes));
	json_object_set_new(log, "ends_without_newline", json_boolean(r->no_eol));
	pt_json_set_lossy(log, "success", lossy(r->success));
	json_object_set_new(o, "log", log);
	return o;
}
