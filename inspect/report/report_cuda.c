/* Text and JSON rendering of the CUDA section; see report_cuda.h. */
#include "report_cuda.h"

#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "strbuf.h"
#include "term.h"
#include "cudajit.h"
#include "report_elf.h"
#include "xalloc.h"

void report_cuda_init(struct report_cuda *r, const struct cuda_scan *scan,
		      const struct cuda_verify *verify, const char *path, struct pt_diag *diag)
{
	memset(r, 0, sizeof(*r));
	r->scan = scan;
	r->verify = verify;
	for (size_t i = 0; i < scan->entries.n; i++)
		cudaarch_summary_add_unit(&r->sum, &scan->entries.v[i], scan->entries.v[i].fatbin);
	for (size_t i = 0; i < scan->n_fatbins; i++)
		r->device_bytes += scan->fatbins[i].size;
	if (r->device_bytes >= REPORT_CUDA_NEAR_2GIB) {
		char sz[32];

		pt_diag_add(diag, PT_SEV_NOTE, path, NULL,
			    "%s of device code: near the 2 GiB limit where linking fails with "
			    "'relocation truncated to fit'",
			    report_size(sz, sizeof(sz), r->device_bytes));
	}
}

void report_cuda_release(struct report_cuda *r)
{
	cudaarch_summary_release(&r->sum);
}

static const char *kind_word(unsigned kind)
{
	switch (kind) {
	case FATBIN_KIND_ELF: return "sass";
	case FATBIN_KIND_PTX: return "ptx";
	case FATBIN_KIND_LTO: return "lto";
	default: return "unknown";
	}
}

/* "sm_80 sm_90a" of one kind; caller frees. */
static char *targets_of(const struct cuda_summary *s, unsigned kind, bool isa)
{
	char *out = pt_xstrdup(""), name[32];

	for (size_t i = 0; i < s->n; i++) {
		char *n;

		if (s->v[i].t.kind != kind)
			continue;
		cudaarch_target_name(&s->v[i].t, name, sizeof(name));
		if (isa)
			n = pt_xasprintf("%s%s%s (ISA %u.%u)", out, *out ? " " : "", name,
					 s->v[i].isa_major, s->v[i].isa_minor);
		else
			n = pt_xasprintf("%s%s%s", out, *out ? " " : "", name);
		free(out);
		out = n;
	}
	return out;
}

static void gpu_label(char *buf, size_t n, const char *arg, struct cuda_cc cc)
{
	const char *names = cudaarch_gpu_names(cc);

	pt_fmt_trunc(buf, n, "%s: %d.%d%s%s%s", arg, cc.major, cc.minor, names ? " (" : "",
		 names ? names : "", names ? ")" : "");
}

/*
 * PTX the driver compiles before the first kernel runs: the size, and
 * whether the JIT cache keeps the result (else every process pays again).
 */
static void jit_text(FILE *f, const struct cudajit *jit, const struct cuda_verdict *v,
		     const struct report_cuda_opts *opts, int c)
{
	char ptx[32], cache[32];

	report_size(ptx, sizeof(ptx), jit->jit_bytes);
	fprintf(f, "    JIT: %s of PTX in %zu fat binar%s, compiled at first use%s", ptx,
		jit->jit_fatbins, jit->jit_fatbins == 1 ? "y" : "ies",
		jit->jit_bytes >= CUDAJIT_SLOW_BYTES ? " (minutes at this size)" : "");
	if (opts->jit_cache_off) {
		fprintf(f, "\n    %sthe JIT cache is off%s (CUDA_CACHE_DISABLE=1): every process "
			"compiles it again\n", pt_c(c, PT_C_YELLOW), pt_c(c, PT_C_RESET));
	} else if (jit->jit_bytes > opts->jit_cache) {
		report_size(cache, sizeof(cache), opts->jit_cache);
		fprintf(f, "\n    %smore than the JIT cache keeps%s (%s, CUDA_CACHE_MAXSIZE%s): "
			"processes compile part of it again;\n    raise CUDA_CACHE_MAXSIZE (4 GiB at "
			"most) or add %d.%d to TORCH_CUDA_ARCH_LIST\n", pt_c(c, PT_C_YELLOW),
			pt_c(c, PT_C_RESET), cache,
			opts->jit_cache == CUDAJIT_CACHE_DEFAULT ? "'s default" : "", v->cc.major,
			v->cc.minor);
	} else {
		fprintf(f, ", then kept in the JIT cache\n");
	}
}

static void verdict_text(FILE *f, const struct report_cuda *r, const struct cuda_verdict *v,
			 const char *arg, const struct report_cuda_opts *opts, const struct pt_style *st)
{
	char label[128], sass[32], ptx[32], drv[16];
	int c = st->color;
	struct cudajit jit;

	gpu_label(label, sizeof(label), arg, v->cc);
	cudaarch_target_name(&v->sass, sass, sizeof(sass));
	cudaarch_target_name(&v->ptx, ptx, sizeof(ptx));
	const char *need = v->has_ptx ? cudaarch_ptx_min_driver(v->isa_major, v->isa_minor, drv,
								 sizeof(drv)) : NULL;
	fprintf(f, "  GPU %s\n", label);
	switch (v->how) {
	case CUDA_RUN_SASS_EXACT:
	case CUDA_RUN_SASS_COMPAT:
		fprintf(f, "    %sruns%s: %s SASS %s\n", pt_c(c, PT_C_GREEN), pt_c(c, PT_C_RESET),
			v->how == CUDA_RUN_SASS_EXACT ? "exact" : "compatible", sass);
		if (v->has_ptx && v->ptx.arch > v->sass.arch)
			fprintf(f, "    also PTX JIT from %s (ISA %u.%u); which one the driver picks "
				"depends on its JIT preference\n", ptx, v->isa_major, v->isa_minor);
		break;
	case CUDA_RUN_PTX_JIT:
		fprintf(f, "    %sruns through PTX JIT%s of %s (PTX ISA %u.%u: the driver must support "
			"CUDA %s%s), no SASS for it\n", pt_c(c, PT_C_YELLOW), pt_c(c, PT_C_RESET), ptx,
			v->isa_major, v->isa_minor, need ? ">= " : "newer than ", need ? need : "13.1");
		break;
	default:
		if (v->jit_blocked)
			fprintf(f, "    %scannot run%s: only PTX JIT of %s, whose ISA %u.%u needs a driver "
				"for CUDA %s%s; this driver supports %d.%d (error 222, \"the provided PTX "
				"was compiled with an unsupported toolchain.\")\n", pt_c(c, PT_C_RED),
				pt_c(c, PT_C_RESET), ptx, v->isa_major, v->isa_minor, need ? ">= " : "newer than ",
				need ? need : "13.1", v->driver_cuda / 1000, v->driver_cuda % 1000 / 10);
		else
			fprintf(f, "    %scannot run%s: \"no kernel image is available for execution on the "
				"device\" (error 209)\n", pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET));
		break;
	}
	if (v->driver_cuda && v->how == CUDA_RUN_PTX_JIT)
		fprintf(f, "    this driver supports CUDA %d.%d: it can JIT that PTX\n",
			v->driver_cuda / 1000, v->driver_cuda % 1000 / 10);
	cudajit_load(r->scan, v->cc, &jit);
	if (v->how != CUDA_RUN_NONE && jit.jit_fatbins)
		jit_text(f, &jit, v, opts, c);
	if (v->how != CUDA_RUN_NONE && jit.without)
		fprintf(f, "    %zu of %zu registered fat binaries have no code for it (normal for "
			"libraries that dispatch per arch; in a PyTorch build those kernels fail)\n",
			jit.without, jit.registered);
	if (v->torch_range_warning)
		fprintf(f, "    torch warns \"Minimum and Maximum cuda capability supported by this "
			"version of PyTorch is (%u.%u) - (%u.%u)\" but this GPU can run it\n",
			v->arch_min / 10, v->arch_min % 10, v->arch_max / 10, v->arch_max % 10);
	if (v->torch_cubin_warning)
		fprintf(f, "    torch warns \"... is not compatible with the current PyTorch "
			"installation\" (no sm_%d* cubin) but PTX JIT runs it\n", v->cc.major);
}

static void entries_text(FILE *f, const struct report_cuda *r)
{
	const struct cuda_scan *s = r->scan;
	char name[32], st[32], un[32];

	fprintf(f, "  entries:\n");
	for (size_t i = 0; i < s->entries.n; i++) {
		const struct fatbin_entry *e = &s->entries.v[i];
		struct cuda_target t = { e->kind, e->arch, e->variant };

		fprintf(f, "    %-14s %-6s %u.%-3u %-5s %10s -> %-10s %s 0x%llx%s%s%s%s%s%s\n",
			cudaarch_target_name(&t, name, sizeof(name)), fatbin_kind_name(e->kind),
			e->major, e->minor, fatbin_comp_name(e->comp),
			report_size(st, sizeof(st), e->header_size + e->payload_size),
			report_size(un, sizeof(un), e->comp ? e->uncompressed_size : e->payload_size),
			s->secs[s->fatbins[e->fatbin].section].name, (unsigned long long)e->offset,
			(e->flags & FATBIN_F_DEBUG) ? " debug" : "",
			r->verify && r->verify->entry_rel[i] ? " ET_REL" : "",
			e->identifier ? " id=" : "", e->identifier ? e->identifier : "",
			e->options ? " options=" : "", e->options ? e->options : "");
	}
}

void report_cuda_text(FILE *f, const struct report_cuda *r, const struct report_cuda_opts *opts,
		      const struct pt_style *st)
{
	const struct cuda_scan *s = r->scan;
	char sz[32], un[32], name[32];
	char *sass, *ptx, *lto, *list, *gencode, *extra;
	size_t ptx_only = 0;
	bool no_majority;
	int c = st->color;

	if (s->n_fatbins == 0) {
		if (opts->only)
			fprintf(f, "  CUDA      no fat binaries%s\n",
				s->deep ? "" : " in .nv_fatbin or __nv_relfatbin");
		return;
	}
	fprintf(f, "  CUDA      %zu fat binar%s, %zu entries, %s of device code", s->n_fatbins,
		s->n_fatbins == 1 ? "y" : "ies", s->entries.n,
		report_size(sz, sizeof(sz), r->device_bytes));
	if (opts->brief) {
		size_t damaged = 0;

		for (size_t i = 0; i < s->n_secs; i++)
			damaged += s->secs[i].n_damaged;
		if (damaged)
			fprintf(f, ", %s%zu damaged%s", pt_c(c, PT_C_RED), damaged, pt_c(c, PT_C_RESET));
		fprintf(f, " (per section and target: ptinspect cuda)");
	}
	fputc('\n', f);
	for (size_t i = 0; !opts->brief && i < s->n_secs; i++) {
		const struct cuda_section *sec = &s->secs[i];

		fprintf(f, "    %-16s %-11s %zu fat binar%s, %zu entries, %s", sec->name,
			cuda_section_kind_name(sec->kind), sec->n_fatbins,
			sec->n_fatbins == 1 ? "y" : "ies", sec->n_entries,
			report_size(sz, sizeof(sz), sec->bytes));
		if (sec->kind == CUDA_SEC_REGISTERED && s->has_segment)
			fprintf(f, " (%zu wrapper%s)", s->n_wrappers, s->n_wrappers == 1 ? "" : "s");
		if (sec->n_damaged)
			fprintf(f, " %s%zu damaged%s", pt_c(c, PT_C_RED), sec->n_damaged,
				pt_c(c, PT_C_RESET));
		fputc('\n', f);
	}
	sass = targets_of(&r->sum, FATBIN_KIND_ELF, false);
	ptx = targets_of(&r->sum, FATBIN_KIND_PTX, true);
	lto = targets_of(&r->sum, FATBIN_KIND_LTO, false);
	list = cudaarch_arch_list_most(&r->sum, &ptx_only, &extra, &no_majority);
	gencode = cudaarch_gencode(&r->sum);
	fprintf(f, "  SASS      %s\n", *sass ? sass : "-");
	fprintf(f, "  PTX       %s\n", *ptx ? ptx : "-");
	if (*lto)
		fprintf(f, "  LTO-IR    %s (opaque)\n", lto);
	fprintf(f, "  TORCH_CUDA_ARCH_LIST  %s%s", *list ? list : "-",
		ptx_only ? "  (PTX without SASS of the same arch has no spelling here)" : "");
	/*
	 * What most fat binaries hold: a target only a few kernels carry (their
	 * own -gencode) is said apart, not put in a list to copy.
	 */
	if (extra)
		fprintf(f, "  (in all but a few of the %zu fat binaries)\n    also, in under a tenth of them: %s\n",
			r->sum.n_units, extra);
	else if (no_majority)
		fprintf(f, "  (the union: no SASS target is in a tenth of the %zu fat binaries)\n",
			r->sum.n_units);
	else
		fputc('\n', f);
	if (!opts->brief)
		fprintf(f, "  nvcc      %s\n", *gencode ? gencode : "-");
	if (r->sum.n && !opts->brief)
		fprintf(f, "  per target         entries      stored    unpacked\n");
	for (size_t i = 0; !opts->brief && i < r->sum.n; i++) {
		const struct cuda_target_sum *x = &r->sum.v[i];

		fprintf(f, "    %-16s %7zu %11s %11s\n", cudaarch_target_name(&x->t, name, sizeof(name)),
			x->count, report_size(sz, sizeof(sz), x->stored),
			report_size(un, sizeof(un), x->uncompressed));
	}
	if (r->device_bytes >= REPORT_CUDA_NEAR_2GIB)
		fprintf(f, "  %swarning%s: %s of device code is near the 2 GiB limit where linking "
			"fails with \"relocation truncated to fit\"\n", pt_c(c, PT_C_YELLOW),
			pt_c(c, PT_C_RESET), report_size(sz, sizeof(sz), r->device_bytes));
	if (r->verify)
		fprintf(f, "  verify    %zu SASS/PTX entries decompressed and checked, %zu failed, "
			"%zu skipped (LTO-IR/opaque); %zu relocatable (ET_REL) cubin%s\n",
			r->verify->checked, r->verify->failed, r->verify->skipped, r->verify->et_rel,
			r->verify->et_rel == 1 ? "" : "s");
	if (opts->entries)
		entries_text(f, r);
	for (size_t g = 0; g < opts->n_gpus; g++) {
		struct cuda_verdict v;

		cudaarch_verdict(&r->sum, opts->gpus[g], &v);
		cudaarch_apply_driver(&v, opts->driver_cuda);
		verdict_text(f, r, &v, opts->gpu_args[g], opts, st);
	}
	free(sass);
	free(ptx);
	free(lto);
	free(list);
	free(extra);
	free(gencode);
}

static json_t *targets_json(const struct cuda_summary *s, unsigned kind)
{
	json_t *a = json_array();
	char name[32];

	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].t.kind == kind)
			json_array_append_new(a, json_string(cudaarch_target_name(&s->v[i].t, name,
										    sizeof(name))));
	return a;
}

static json_t *version_json(unsigned major, unsigned minor)
{
	char b[32];

	pt_fmt_trunc(b, sizeof(b), "%u.%u", major, minor);
	return json_string(b);
}

static json_t *entry_json(const struct report_cuda *r, size_t i)
{
	const struct cuda_scan *s = r->scan;
	const struct fatbin_entry *e = &s->entries.v[i];
	struct cuda_target t = { e->kind, e->arch, e->variant };
	char name[32], fl[32];
	char v[2] = { e->variant, '\0' };
	json_t *j = json_object();

	pt_fmt_trunc(fl, sizeof(fl), "0x%llx", (unsigned long long)e->flags);
	json_object_set_new(j, "kind", json_string(kind_word(e->kind)));
	json_object_set_new(j, "target", json_string(cudaarch_target_name(&t, name, sizeof(name))));
	json_object_set_new(j, "arch", json_integer(e->arch));
	json_object_set_new(j, "variant", e->variant ? json_string(v) : json_null());
	json_object_set_new(j, "ptx_isa",
			    e->kind == FATBIN_KIND_PTX ? version_json(e->major, e->minor) : json_null());
	json_object_set_new(j, "code_version", version_json(e->major, e->minor));
	json_object_set_new(j, "compression", json_string(fatbin_comp_name(e->comp)));
	json_object_set_new(j, "stored_size", json_integer((json_int_t)(e->header_size + e->payload_size)));
	json_object_set_new(j, "uncompressed_size",
			    json_integer((json_int_t)(e->comp ? e->uncompressed_size : e->payload_size)));
	json_object_set_new(j, "debug", json_boolean(e->flags & FATBIN_F_DEBUG));
	json_object_set_new(j, "flags", json_string(fl));
	if (e->flags & ~(uint64_t)FATBIN_F_KNOWN) {
		pt_fmt_trunc(fl, sizeof(fl), "0x%llx", (unsigned long long)(e->flags & ~(uint64_t)FATBIN_F_KNOWN));
		json_object_set_new(j, "unknown_flags", json_string(fl));
	}
	json_object_set_new(j, "section", json_string(s->secs[s->fatbins[e->fatbin].section].name));
	json_object_set_new(j, "offset", json_integer((json_int_t)e->offset));
	json_object_set_new(j, "identifier", pt_json_str(e->identifier));
	json_object_set_new(j, "options", pt_json_str(e->options));
	if (r->verify) {
		json_object_set_new(j, "verified", json_boolean(!r->verify->entry_bad[i] &&
							       (e->kind == FATBIN_KIND_ELF ||
								e->kind == FATBIN_KIND_PTX)));
		json_object_set_new(j, "relocatable", json_boolean(r->verify->entry_rel[i]));
		if (e->kind == FATBIN_KIND_ELF) {
			char cv[2] = { r->verify->entry_cubin_variant[i], '\0' };

			/* The cubin's own e_flags: "a" where they say arch-specific. */
			json_object_set_new(j, "cubin_variant", cv[0] ? json_string(cv) : json_null());
		}
	}
	return j;
}

static json_t *verdict_json(const struct report_cuda *r, const struct cuda_verdict *v,
			    const char *arg, const struct report_cuda_opts *opts)
{
	json_t *j = json_object(), *warn = json_array();
	char name[32], drv[16], cc[16];
	struct cudajit jit;
	const char *need = v->has_ptx ? cudaarch_ptx_min_driver(v->isa_major, v->isa_minor, drv,
								 sizeof(drv)) : NULL;

	pt_fmt_trunc(cc, sizeof(cc), "%d.%d", v->cc.major, v->cc.minor);
	json_object_set_new(j, "gpu", json_string(arg));
	json_object_set_new(j, "cc", json_string(cc));
	json_object_set_new(j, "names", pt_json_str(cudaarch_gpu_names(v->cc)));
	json_object_set_new(j, "verdict", json_string(cudaarch_how_name(v->how)));
	json_object_set_new(j, "runs", json_boolean(v->how != CUDA_RUN_NONE));
	json_object_set_new(j, "sass", v->how >= CUDA_RUN_SASS_COMPAT
			    ? json_string(cudaarch_target_name(&v->sass, name, sizeof(name))) : json_null());
	json_object_set_new(j, "ptx", v->has_ptx
			    ? json_string(cudaarch_target_name(&v->ptx, name, sizeof(name))) : json_null());
	json_object_set_new(j, "ptx_isa", v->has_ptx ? version_json(v->isa_major, v->isa_minor)
					: json_null());
	json_object_set_new(j, "ptx_min_driver", v->has_ptx ? pt_json_str(need) : json_null());
	if (v->driver_cuda) {
		pt_fmt_trunc(cc, sizeof(cc), "%d.%d", v->driver_cuda / 1000, v->driver_cuda % 1000 / 10);
		json_object_set_new(j, "driver_cuda", json_string(cc));
		json_object_set_new(j, "ptx_jit_blocked", json_boolean(v->jit_blocked));
	}
	cudajit_load(r->scan, v->cc, &jit);
	json_object_set_new(j, "registered_fatbins", json_integer((json_int_t)jit.registered));
	json_object_set_new(j, "fatbins_without_image", json_integer((json_int_t)jit.without));
	if (v->how == CUDA_RUN_NONE)
		jit.jit_fatbins = jit.jit_bytes = 0;
	json_object_set_new(j, "jit_fatbins", json_integer((json_int_t)jit.jit_fatbins));
	json_object_set_new(j, "jit_ptx_bytes", json_integer((json_int_t)jit.jit_bytes));
	json_object_set_new(j, "jit_cache_exceeded",
			    json_boolean(jit.jit_fatbins && jit.jit_bytes > opts->jit_cache));
	if (v->torch_range_warning)
		json_array_append_new(warn, json_string("capability_range"));
	if (v->torch_cubin_warning)
		json_array_append_new(warn, json_string("no_cubin_for_major"));
	json_object_set_new(j, "torch_false_warnings", warn);
	return j;
}

json_t *report_cuda_json(const struct report_cuda *r, const struct report_cuda_opts *opts)
{
	const struct cuda_scan *s = r->scan;
	json_t *j = json_object(), *secs = json_array(), *ents = json_array(), *pt = json_array();
	char name[32];

	json_object_set_new(j, "fatbins", json_integer((json_int_t)s->n_fatbins));
	json_object_set_new(j, "scanned_all_sections", json_boolean(s->deep));
	json_object_set_new(j, "wrappers", json_integer((json_int_t)s->n_wrappers));
	json_object_set_new(j, "device_code_bytes", json_integer((json_int_t)r->device_bytes));
	json_object_set_new(j, "near_2gib_limit", json_boolean(r->device_bytes >= REPORT_CUDA_NEAR_2GIB));
	for (size_t i = 0; i < s->n_secs; i++) {
		json_t *o = json_object();
		size_t unwrapped = 0;

		for (size_t f = 0; f < s->n_fatbins; f++)
			if (s->fatbins[f].section == i && !s->fatbins[f].wrapped)
				unwrapped++;
		json_object_set_new(o, "name", json_string(s->secs[i].name));
		json_object_set_new(o, "kind", json_string(cuda_section_kind_name(s->secs[i].kind)));
		json_object_set_new(o, "count", json_integer((json_int_t)s->secs[i].n_fatbins));
		json_object_set_new(o, "entries", json_integer((json_int_t)s->secs[i].n_entries));
		json_object_set_new(o, "bytes", json_integer((json_int_t)s->secs[i].bytes));
		json_object_set_new(o, "damaged", json_integer((json_int_t)s->secs[i].n_damaged));
		if (s->secs[i].kind == CUDA_SEC_REGISTERED && s->wrappers_matched)
			json_object_set_new(o, "unwrapped", json_integer((json_int_t)unwrapped));
		json_array_append_new(secs, o);
	}
	json_object_set_new(j, "sections", secs);
	for (size_t i = 0; i < s->entries.n; i++)
		json_array_append_new(ents, entry_json(r, i));
	json_object_set_new(j, "entries", ents);
	json_object_set_new(j, "sass", targets_json(&r->sum, FATBIN_KIND_ELF));
	json_object_set_new(j, "ptx", targets_json(&r->sum, FATBIN_KIND_PTX));
	json_object_set_new(j, "lto", targets_json(&r->sum, FATBIN_KIND_LTO));
	{
		size_t ptx_only = 0, all_ptx_only = 0;
		bool no_majority;
		char *extra, *list = cudaarch_arch_list_most(&r->sum, &ptx_only, &extra, &no_majority);
		char *all = cudaarch_arch_list(&r->sum, &all_ptx_only), *gc = cudaarch_gencode(&r->sum);

		/* arch_list: what most fat binaries hold; arch_list_union: every target. */
		json_object_set_new(j, "arch_list", json_string(list));
		json_object_set_new(j, "arch_list_complete", json_boolean(ptx_only == 0));
		json_object_set_new(j, "arch_list_extra", pt_json_str(extra));
		json_object_set_new(j, "arch_list_no_majority", json_boolean(no_majority));
		json_object_set_new(j, "arch_list_union", json_string(all));
		json_object_set_new(j, "fatbins_with_code", json_integer((json_int_t)r->sum.n_units));
		json_object_set_new(j, "gencode", json_string(gc));
		free(list);
		free(extra);
		free(all);
		free(gc);
	}
	for (size_t i = 0; i < r->sum.n; i++) {
		const struct cuda_target_sum *x = &r->sum.v[i];
		json_t *o = json_object();

		json_object_set_new(o, "target", json_string(cudaarch_target_name(&x->t, name, sizeof(name))));
		json_object_set_new(o, "entries", json_integer((json_int_t)x->count));
		json_object_set_new(o, "stored_size", json_integer((json_int_t)x->stored));
		json_object_set_new(o, "uncompressed_size", json_integer((json_int_t)x->uncompressed));
		if (x->t.kind == FATBIN_KIND_PTX)
			json_object_set_new(o, "max_ptx_isa", version_json(x->isa_major, x->isa_minor));
		json_array_append_new(pt, o);
	}
	json_object_set_new(j, "per_target", pt);
	if (r->verify) {
		json_t *v = json_object();

		json_object_set_new(v, "checked", json_integer((json_int_t)r->verify->checked));
		json_object_set_new(v, "failed", json_integer((json_int_t)r->verify->failed));
		json_object_set_new(v, "skipped", json_integer((json_int_t)r->verify->skipped));
		json_object_set_new(v, "relocatable_cubins", json_integer((json_int_t)r->verify->et_rel));
		json_object_set_new(j, "verify", v);
	}
	if (opts->n_gpus) {
		json_t *g = json_array();

		for (size_t i = 0; i < opts->n_gpus; i++) {
			struct cuda_verdict v;

			cudaarch_verdict(&r->sum, opts->gpus[i], &v);
			cudaarch_apply_driver(&v, opts->driver_cuda);
			json_array_append_new(g, verdict_json(r, &v, opts->gpu_args[i], opts));
		}
		json_object_set_new(j, "gpu_verdict", g);
	}
	return j;
}

static const char *obj_name(const struct resolve_obj *o)
{
	const char *s = strrchr(o->path, '/');

	return s ? s + 1 : o->path;
}

void report_cudadeps_text(FILE *f, const struct cudadeps *cd, const struct resolve_result *r,
			  const struct report_cuda_opts *opts, const struct pt_style *st)
{
	int c = st->color;

	fprintf(f, "  CUDA libraries in the dependency tree: %zu of %zu objects have device code\n",
		cd->n, cd->n_objs);
	for (size_t i = 0; i < cd->n; i++) {
		const struct resolve_obj *o = &r->objs[cd->v[i].obj];
		bool no_majority;
		char *extra, *list = cudaarch_arch_list_most(&cd->v[i].sum, NULL, &extra, &no_majority), sz[32];

		/* What most of its fat binaries hold, and which targets only a few have. */
		fprintf(f, "    %-40s %-8s %9s  %s", obj_name(o), o->via_dlopen ? "(dlopen)" : "",
			report_size(sz, sizeof(sz), cd->v[i].bytes), *list ? list : "PTX only");
		if (extra)
			fprintf(f, "  (also, in under a tenth of its %zu fat binaries: %s)", cd->v[i].sum.n_units, extra);
		else if (no_majority)
			fprintf(f, "  (the union: no SASS target is in a tenth of its %zu fat binaries)",
				cd->v[i].sum.n_units);
		fputc('\n', f);
		free(extra);
		for (size_t g = 0; g < opts->n_gpus; g++) {
			struct cuda_verdict v;
			char t[32];

			cudaarch_verdict(&cd->v[i].sum, opts->gpus[g], &v);
			fprintf(f, "      %-10s %s%s%s", opts->gpu_args[g],
				pt_c(c, v.how == CUDA_RUN_NONE ? PT_C_RED : v.how == CUDA_RUN_PTX_JIT
									? PT_C_YELLOW : PT_C_GREEN),
				cudaarch_how_name(v.how), pt_c(c, PT_C_RESET));
			if (v.how >= CUDA_RUN_SASS_COMPAT)
				fprintf(f, " %s", cudaarch_target_name(&v.sass, t, sizeof(t)));
			else if (v.how == CUDA_RUN_PTX_JIT)
				fprintf(f, " %s (PTX ISA %u.%u)", cudaarch_target_name(&v.ptx, t, sizeof(t)),
					v.isa_major, v.isa_minor);
			fputc('\n', f);
		}
		free(list);
	}
	for (size_t e = 0; e < cd->n_edges; e++)
		if (!cd->edges[e].found)
			fprintf(f, "    dlopen %s from %s: not found (%s)\n", cd->edges[e].name,
				obj_name(&r->objs[cd->edges[e].caller]), cd->edges[e].why);
	for (size_t g = 0; g < opts->n_gpus; g++) {
		struct cuda_verdict v;
		long w = cudadeps_weakest(cd, opts->gpus[g], &v);
		char drv[16];

		if (w < 0)
			continue;
		fprintf(f, "  weakest link for %s (%d.%d): %s: ", opts->gpu_args[g], v.cc.major,
			v.cc.minor, obj_name(&r->objs[cd->v[w].obj]));
		if (v.how == CUDA_RUN_NONE)
			fprintf(f, "%scannot run%s (\"no kernel image is available for execution on the "
				"device\")\n", pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET));
		else if (v.how == CUDA_RUN_PTX_JIT)
			fprintf(f, "PTX JIT only (ISA %u.%u: needs a driver for CUDA %s)\n", v.isa_major,
				v.isa_minor, cudaarch_ptx_min_driver(v.isa_major, v.isa_minor, drv,
								     sizeof(drv)) ?: "newer than 13.1");
		else
			fprintf(f, "%s SASS\n", v.how == CUDA_RUN_SASS_EXACT ? "exact" : "compatible");
	}
}

json_t *report_cudadeps_json(const struct cudadeps *cd, const struct resolve_result *r,
			     const struct report_cuda_opts *opts)
{
	json_t *j = json_object(), *libs = json_array(), *weak = json_array(), *edges = json_array();

	json_object_set_new(j, "objects", json_integer((json_int_t)cd->n_objs));
	for (size_t i = 0; i < cd->n; i++) {
		const struct resolve_obj *o = &r->objs[cd->v[i].obj];
		json_t *l = json_object(), *g = json_array();
		bool no_majority;
		char *extra, *list = cudaarch_arch_list_most(&cd->v[i].sum, NULL, &extra, &no_majority);

		json_object_set_new(l, "arch_list_extra", pt_json_str(extra));
		json_object_set_new(l, "arch_list_no_majority", json_boolean(no_majority));
		free(extra);
		json_object_set_new(l, "path", json_string(o->path));
		json_object_set_new(l, "soname", pt_json_str(o->elf.soname));
		json_object_set_new(l, "via_dlopen", json_boolean(o->via_dlopen));
		json_object_set_new(l, "fatbins", json_integer((json_int_t)cd->v[i].n_fatbins));
		json_object_set_new(l, "device_code_bytes", json_integer((json_int_t)cd->v[i].bytes));
		json_object_set_new(l, "sass", targets_json(&cd->v[i].sum, FATBIN_KIND_ELF));
		json_object_set_new(l, "ptx", targets_json(&cd->v[i].sum, FATBIN_KIND_PTX));
		json_object_set_new(l, "arch_list", json_string(list));
		free(list);
		for (size_t k = 0; k < opts->n_gpus; k++) {
			struct cuda_verdict v;
			json_t *x = json_object();
			char t[32];

			cudaarch_verdict(&cd->v[i].sum, opts->gpus[k], &v);
			json_object_set_new(x, "gpu", json_string(opts->gpu_args[k]));
			json_object_set_new(x, "verdict", json_string(cudaarch_how_name(v.how)));
			json_object_set_new(x, "sass", v.how >= CUDA_RUN_SASS_COMPAT
					    ? json_string(cudaarch_target_name(&v.sass, t, sizeof(t))) : json_null());
			json_object_set_new(x, "ptx", v.has_ptx
					    ? json_string(cudaarch_target_name(&v.ptx, t, sizeof(t))) : json_null());
			json_array_append_new(g, x);
		}
		json_object_set_new(l, "gpu_verdict", g);
		json_array_append_new(libs, l);
	}
	json_object_set_new(j, "libraries", libs);
	for (size_t e = 0; e < cd->n_edges; e++) {
		json_t *x = json_object();

		json_object_set_new(x, "caller", json_string(r->objs[cd->edges[e].caller].path));
		json_object_set_new(x, "name", json_string(cd->edges[e].name));
		json_object_set_new(x, "why", json_string(cd->edges[e].why));
		json_object_set_new(x, "found", json_boolean(cd->edges[e].found));
		json_array_append_new(edges, x);
	}
	json_object_set_new(j, "dlopen_edges", edges);
	for (size_t g = 0; g < opts->n_gpus; g++) {
		struct cuda_verdict v;
		long w = cudadeps_weakest(cd, opts->gpus[g], &v);
		json_t *x = json_object();
		char cc[16], drv[16];

		pt_fmt_trunc(cc, sizeof(cc), "%d.%d", v.cc.major, v.cc.minor);
		json_object_set_new(x, "gpu", json_string(opts->gpu_args[g]));
		json_object_set_new(x, "cc", json_string(cc));
		json_object_set_new(x, "library", w < 0 ? json_null() : json_string(r->objs[cd->v[w].obj].path));
		json_object_set_new(x, "verdict", json_string(w < 0 ? "none" : cudaarch_how_name(v.how)));
		json_object_set_new(x, "ptx_min_driver", w >= 0 && v.how == CUDA_RUN_PTX_JIT
				    ? pt_json_str(cudaarch_ptx_min_driver(v.isa_major, v.isa_minor, drv, sizeof(drv)))
				    : json_null());
		json_array_append_new(weak, x);
	}
	json_object_set_new(j, "weakest", weak);
	return j;
}
