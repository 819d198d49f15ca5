/* Text and JSON rendering of the ELF identity section; see report_elf.h. */
#include "report_elf.h"

#include <elf.h>
#include <string.h>

#include "jsonout.h"
#include "strbuf.h"
#include "term.h"

const char *report_size(char *buf, size_t n, unsigned long long b)
{
	if (b < 1024)
		pt_fmt_trunc(buf, n, "%llu B", b);
	else if (b < 1024 * 1024)
		pt_fmt_trunc(buf, n, "%.1f KB", b / 1024.0);
	else if (b < 1024ull * 1024 * 1024)
		pt_fmt_trunc(buf, n, "%.1f MB", b / (1024.0 * 1024));
	else
		pt_fmt_trunc(buf, n, "%.2f GB", b / (1024.0 * 1024 * 1024));
	return buf;
}

static const char *class_name(int cls)
{
	return cls == ELFCLASS64 ? "ELF64" : cls == ELFCLASS32 ? "ELF32" : "ELF?";
}

static const char *type_name(int type)
{
	switch (type) {
	case ET_DYN: return "shared object";
	case ET_EXEC: return "executable";
	case ET_REL: return "relocatable";
	case ET_CORE: return "core file";
	default: return "unknown type";
	}
}

static const char *debug_summary(const struct elfobj *o)
{
	if (o->has_debug_info)
		return "DWARF (.debug_info)";
	if (o->debuglink)
		return "no DWARF, .gnu_debuglink";
	return "no DWARF";
}

void report_elf_text(FILE *f, const struct elfobj *o, int debug_line, const struct pt_style *st)
{
	char sz[32], bid[129];
	int c = st->color;

	elfobj_build_id_hex(o, bid);
	fprintf(f, "%s%s%s\n", pt_c(c, PT_C_BOLD), o->path, pt_c(c, PT_C_RESET));
	fprintf(f, "  %s %s %s, %s\n", class_name(o->cls), elfobj_machine_name(o->machine),
		type_name(o->type), report_size(sz, sizeof(sz), o->size));
	fprintf(f, "  SONAME    %s\n", o->soname ? o->soname : "-");
	fprintf(f, "  RPATH     %s\n", o->rpath ? o->rpath : "-");
	fprintf(f, "  RUNPATH   %s\n", o->runpath ? o->runpath : "-");
	fprintf(f, "  build-id  %s\n", *bid ? bid : "-");
	if (debug_line)
		fprintf(f, "  debug     %s%s%s\n", debug_summary(o), o->debuglink ? " " : "",
			o->debuglink ? o->debuglink : "");
}

json_t *report_elf_json(const struct elfobj *o)
{
	char bid[129];
	json_t *j = json_object();

	elfobj_build_id_hex(o, bid);
	json_object_set_new(j, "class", json_string(class_name(o->cls)));
	json_object_set_new(j, "machine", json_string(elfobj_machine_name(o->machine)));
	json_object_set_new(j, "type", json_string(type_name(o->type)));
	json_object_set_new(j, "soname", pt_json_str(o->soname));
	json_object_set_new(j, "needed", pt_json_strv(o->needed, o->n_needed));
	json_object_set_new(j, "rpath", pt_json_str(o->rpath));
	json_object_set_new(j, "runpath", pt_json_str(o->runpath));
	json_object_set_new(j, "interp", pt_json_str(o->interp));
	json_object_set_new(j, "build_id", *bid ? json_string(bid) : json_null());
	json_object_set_new(j, "debug_info", json_boolean(o->has_debug_info));
	json_object_set_new(j, "debuglink", pt_json_str(o->debuglink));
	json_object_set_new(j, "size", json_integer((json_int_t)o->size));
	return j;
}

json_t *report_problems_json(const struct pt_diag *d)
{
	json_t *a = json_array();

	for (size_t i = 0; i < d->n; i++) {
		const struct pt_diag_msg *m = &d->v[i];
		json_t *p = json_object();

		json_object_set_new(p, "severity", json_string(m->sev == PT_SEV_ERROR ? "error"
							       : m->sev == PT_SEV_WARNING ? "warning" : "note"));
		json_object_set_new(p, "file", pt_json_str(m->file));
		json_object_set_new(p, "where", pt_json_str(m->where));
		json_object_set_new(p, "message", pt_json_str(m->what));
		json_array_append_new(a, p);
	}
	return a;
}
