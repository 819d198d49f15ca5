/* `ptinspect preflight`'s renderings, over struct preflight. */
#include <string.h>

#include "jsonout.h"
#include "report_preflight.h"
#include "term.h"

const char *report_preflight_verdict(const struct preflight *p)
{
	return preflight_count(p, PF_FAIL) ? "FAIL" : preflight_count(p, PF_WARN) ? "warn" : "ok";
}

static const char *status_color(enum pf_status s)
{
	return s == PF_FAIL ? PT_C_RED : s == PF_WARN ? PT_C_YELLOW : PT_C_GREEN;
}

void report_preflight_text(FILE *f, const struct preflight *p, const struct pt_style *st)
{
	size_t nf = preflight_count(p, PF_FAIL), nw = preflight_count(p, PF_WARN);
	int c = st->color;

	if (nf)
		fprintf(f, "%sFAIL%s: the build would fail (%zu failure%s predicted, %zu warning%s)\n",
			pt_c(c, PT_C_RED), pt_c(c, PT_C_RESET), nf, PT_PLURAL(nf), nw, PT_PLURAL(nw));
	else if (nw)
		fprintf(f, "%swarn%s: no failure predicted, %zu warning%s\n", pt_c(c, PT_C_YELLOW),
			pt_c(c, PT_C_RESET), nw, PT_PLURAL(nw));
	else
		fprintf(f, "%sok%s: no failure predicted\n", pt_c(c, PT_C_GREEN), pt_c(c, PT_C_RESET));
	for (size_t i = 0; i < p->n; i++) {
		const struct pf_item *it = &p->items[i];

		fprintf(f, "  %s%-4s%s  %-13s %s\n", pt_c(c, status_color(it->status)), pf_status_name(it->status),
			pt_c(c, PT_C_RESET), it->check, it->evidence);
		if (it->fix)
			fprintf(f, "  %-4s  %-13s fix: %s\n", "", "", it->fix);
	}
}

json_t *report_preflight_json(const struct preflight *p)
{
	json_t *o = json_object(), *items = json_array(), *archs = json_array(), *counts = json_object();
	char cc[16];

	json_object_set_new(o, "verdict", json_string(report_preflight_verdict(p)));
	json_object_set_new(counts, "ok", json_integer((json_int_t)preflight_count(p, PF_OK)));
	json_object_set_new(counts, "warn", json_integer((json_int_t)preflight_count(p, PF_WARN)));
	json_object_set_new(counts, "fail", json_integer((json_int_t)preflight_count(p, PF_FAIL)));
	json_object_set_new(o, "counts", counts);
	json_object_set_new(o, "source_dir", pt_json_str(p->source_dir));
	json_object_set_new(o, "checkout", json_boolean(p->is_checkout));
	if (p->torch.n) {
		snprintf(cc, sizeof(cc), "%u.%u.%u", p->torch.v[0], p->torch.v[1], p->torch.v[2]);
		json_object_set_new(o, "torch_version", json_string(cc));
	} else {
		json_object_set_new(o, "torch_version", json_null());
	}
	json_object_set_new(o, "nvcc", pt_json_str(p->nvcc));
	json_object_set_new(o, "nvcc_from", pt_json_str(p->nvcc_from));
	if (p->cuda) {
		snprintf(cc, sizeof(cc), "%d.%d", p->cuda / 1000, p->cuda % 1000 / 10);
		json_object_set_new(o, "cuda_version", json_string(cc));
	} else {
		json_object_set_new(o, "cuda_version", json_null());
	}
	json_object_set_new(o, "arch_list", pt_json_str(p->arch_list));
	json_object_set_new(o, "arch_list_default", json_boolean(p->arch_list_default));
	json_object_set_new(o, "device_code_bytes", p->device_bytes ? json_integer((json_int_t)p->device_bytes) : json_null());
	for (size_t i = 0; i < p->n_archs; i++) {
		const struct pf_arch_check *a = &p->archs[i];
		json_t *x = json_object();

		snprintf(cc, sizeof(cc), "sm_%u%s", a->arch, a->variant == 'a' ? "a" : a->variant == 'f' ? "f" : "");
		json_object_set_new(x, "entry", json_string(a->entry));
		json_object_set_new(x, "target", json_string(cc));
		json_object_set_new(x, "accepted", a->accepted < 0 ? json_null() : json_boolean(a->accepted));
		json_array_append_new(archs, x);
	}
	json_object_set_new(o, "archs", archs);
	json_object_set_new(o, "cxx_compiler", pt_json_str(p->cxx));
	json_object_set_new(o, "host_compiler", pt_json_str(p->host_cxx));
	json_object_set_new(o, "host_compiler_ccbin", json_boolean(p->host_ccbin));
	json_object_set_new(o, "host_gcc_max", p->gcc_max >= 0 ? json_integer(p->gcc_max) : json_null());
	json_object_set_new(o, "host_clang_max", p->clang_max >= 0 ? json_integer(p->clang_max) : json_null());
	json_object_set_new(o, "host_limits_from", pt_json_str(p->host_limits_from));
	json_object_set_new(o, "ram_bytes", json_integer((json_int_t)p->ram_bytes));
	json_object_set_new(o, "disk_free_bytes", json_integer((json_int_t)p->disk_free));
	json_object_set_new(o, "jobs", json_integer(p->jobs));
	for (size_t i = 0; i < p->n; i++) {
		const struct pf_item *it = &p->items[i];
		json_t *x = json_object();

		json_object_set_new(x, "status", json_string(pf_status_name(it->status)));
		json_object_set_new(x, "check", json_string(it->check));
		json_object_set_new(x, "evidence", pt_json_str(it->evidence));
		json_object_set_new(x, "fix", pt_json_str(it->fix));
		json_array_append_new(items, x);
	}
	json_object_set_new(o, "items", items);
	return o;
}
