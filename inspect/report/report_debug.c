/* Text and JSON of the debug-info section; see report_debug.h. */
#include "report_debug.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "term.h"
#include "xalloc.h"

void report_debug_line(FILE *f, const struct debuginfo *di, int ind, const struct pt_style *st)
{
	int c = st ? st->color : 0;
	const char *col = di->verdict == DEBUGINFO_FULL ? PT_C_GREEN
			  : di->verdict == DEBUGINFO_SYMBOLS || di->verdict == DEBUGINFO_NEEDS_TYPES ||
					    di->verdict == DEBUGINFO_DOWNLOAD ? PT_C_YELLOW
			  : PT_C_RED;

	fprintf(f, "%*sdebug     %s%s%s: %s\n", ind, "", pt_c(c, col),
		debuginfo_verdict_text(di->verdict), pt_c(c, PT_C_RESET), di->why);
}

void report_debug_text(FILE *f, const struct debuginfo *di, int ind, const struct pt_style *st)
{
	report_debug_line(f, di, ind, st);
	fprintf(f, "%*s  DWARF in file %s, .symtab %s", ind, "", di->has_dwarf ? "yes" : "no",
		di->has_symtab ? "yes" : "no");
	if (di->n_skeleton)
		fprintf(f, ", split: %zu skeleton unit%s, %zu .dwo found", di->n_skeleton, PT_PLURAL(di->n_skeleton),
			di->n_dwo_found);
	fputc('\n', f);
	if (di->dwp)
		fprintf(f, "%*s  .dwp      %s\n", ind, "", di->dwp);
	if (di->debuglink)
		fprintf(f, "%*s  debuglink %s\n", ind, "", di->debuglink);
	if (di->build_id_path && !di->has_dwarf)
		fprintf(f, "%*s  build-id  %s (%s)\n", ind, "", di->build_id_path,
			di->debug_file && !strcmp(di->debug_file, di->build_id_path) ? "present" : "absent");
	if (di->debuginfod_urls)
		fprintf(f, "%*s  debuginfod %s (cache %s, %s)\n", ind, "", di->debuginfod_urls,
			di->debuginfod_cache ? di->debuginfod_cache : "unknown: no HOME",
			di->debuginfod_cache && di->debug_file && !strcmp(di->debug_file, di->debuginfod_cache)
				? "present" : "absent");
	if (di->debug_file)
		fprintf(f, "%*s  debug file %s%s\n", ind, "", di->debug_file,
			di->debug_file_has_dwarf ? "" : " (no DWARF in it)");
	if (di->opt_level || di->g_level)
		fprintf(f, "%*s  flags     %s %s\n", ind, "", di->opt_level ? di->opt_level : "-O?",
			di->g_level ? di->g_level : "-g?");
	for (size_t i = 0; i < di->n_producers; i++)
		fprintf(f, "%*s  producer  %s\n", ind, "", di->producers[i]);
}

/* Every occurrence of name in *s (a malloc'ed string) replaced by '\1'. */
static void mask_name(char **s, const char *name)
{
	size_t nl = name ? strlen(name) : 0;
	char *out, *o;
	const char *p, *hit;

	if (!*s || !nl || !strstr(*s, name))
		return;
	o = out = pt_xmalloc(strlen(*s) + 1);
	for (p = *s; (hit = strstr(p, name)); p = hit + nl) {
		memcpy(o, p, (size_t)(hit - p));
		o += hit - p;
		*o++ = '\1';
	}
	strcpy(o, p);
	free(*s);
	*s = out;
}

/* di's section as text with the names of its own file masked; NULL if it cannot be had. */
static char *masked_section(const struct debuginfo *di, int ind, const struct pt_style *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	report_debug_text(m, di, ind, st);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	/* The build-id path holds the debuglink name (Debian's is the build-id's tail). */
	mask_name(&buf, di->build_id_path);
	mask_name(&buf, di->debuglink);
	mask_name(&buf, di->build_id[0] ? di->build_id : NULL);
	return buf;
}

/* The shared section of a group: the first line without the names, no line naming one file. */
static void group_section(FILE *f, const char *sec, int ind)
{
	bool dropped = false;

	for (const char *p = sec; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (p == sec) {
			for (size_t i = 0; i < n; i++)
				if (p[i] == ' ' && i + 1 < n && p[i + 1] == '\1')
					continue;
				else if (p[i] != '\1')
					fputc(p[i], f);
			fputc('\n', f);
		} else if (memchr(p, '\1', n)) {
			dropped = true;
		} else {
			fprintf(f, "%.*s\n", (int)n, p);
		}
		p += n + (nl != NULL);
	}
	if (dropped)
		fprintf(f, "%*s  each one's .gnu_debuglink and build-id file: ptinspect debug FILE...\n",
			ind, "");
}

void report_debug_list_text(FILE *f, const struct debuginfo *di, const char *const *paths,
			    size_t n, int ind, const struct pt_style *st)
{
	char **sec = pt_xcalloc(n ? n : 1, sizeof(*sec));
	bool *done = pt_xcalloc(n ? n : 1, sizeof(*done));

	for (size_t i = 0; i < n; i++)
		sec[i] = masked_section(&di[i], ind + 2, st);
	for (size_t i = 0; i < n; i++) {
		size_t alike = 0;

		if (done[i])
			continue;
		for (size_t k = i + 1; k < n && sec[i]; k++)
			alike += !done[k] && sec[k] && !strcmp(sec[i], sec[k]);
		if (!alike) {
			fprintf(f, "%*s%s\n", ind, "", paths[i]);
			report_debug_text(f, &di[i], ind + 2, st);
			continue;
		}
		for (size_t k = i; k < n; k++)
			if (!done[k] && sec[k] && !strcmp(sec[i], sec[k])) {
				fprintf(f, "%*s%s\n", ind, "", paths[k]);
				done[k] = k != i;
			}
		group_section(f, sec[i], ind + 2);
	}
	for (size_t i = 0; i < n; i++)
		free(sec[i]);
	free(sec);
	free(done);
}

json_t *report_debug_json(const struct debuginfo *di)
{
	json_t *j = json_object();

	json_object_set_new(j, "verdict", json_string(debuginfo_verdict_key(di->verdict)));
	json_object_set_new(j, "verdict_text", json_string(debuginfo_verdict_text(di->verdict)));
	json_object_set_new(j, "why", pt_json_str(di->why));
	json_object_set_new(j, "dwarf_in_file", json_boolean(di->has_dwarf));
	json_object_set_new(j, "symtab", json_boolean(di->has_symtab));
	json_object_set_new(j, "tensorimpl", json_string(di->tensorimpl == 2 ? "defined"
							 : di->tensorimpl == 1 ? "declared" : "absent"));
	json_object_set_new(j, "units", json_integer((json_int_t)di->n_units));
	json_object_set_new(j, "split_units", json_integer((json_int_t)di->n_skeleton));
	json_object_set_new(j, "dwo_found", json_integer((json_int_t)di->n_dwo_found));
	json_object_set_new(j, "first_dwo", pt_json_str(di->first_dwo));
	json_object_set_new(j, "dwp", pt_json_str(di->dwp));
	json_object_set_new(j, "debuglink", pt_json_str(di->debuglink));
	json_object_set_new(j, "build_id_path", pt_json_str(di->build_id_path));
	json_object_set_new(j, "debuginfod_urls", pt_json_str(di->debuginfod_urls));
	json_object_set_new(j, "debuginfod_cache", pt_json_str(di->debuginfod_cache));
	json_object_set_new(j, "debug_file", pt_json_str(di->debug_file));
	json_object_set_new(j, "debug_file_has_dwarf", json_boolean(di->debug_file_has_dwarf));
	json_object_set_new(j, "opt_level", pt_json_str(di->opt_level));
	json_object_set_new(j, "g_level", pt_json_str(di->g_level));
	json_object_set_new(j, "producers", pt_json_strv(di->producers, di->n_producers));
	return j;
}

void report_dispatchtrace_text(FILE *f, const struct dispatchtrace *t, int ind,
			       const struct pt_style *st)
{
	int c = st ? st->color : 0;

	fprintf(f, "%*sTORCH_SHOW_DISPATCH_TRACE %s%s%s: %s\n", ind, "",
		pt_c(c, t->can_print == 1 ? PT_C_GREEN : PT_C_YELLOW),
		t->can_print == 1 ? "prints" : t->can_print == 0 ? "prints nothing" : "unknown",
		pt_c(c, PT_C_RESET), t->why);
	if (t->rebuild)
		fprintf(f, "%*s  to enable: %s\n", ind, "", t->rebuild);
}

json_t *report_dispatchtrace_json(const struct dispatchtrace *t)
{
	json_t *j = json_object();

	json_object_set_new(j, "can_print", t->can_print < 0 ? json_null() : json_boolean(t->can_print));
	json_object_set_new(j, "why", pt_json_str(t->why));
	json_object_set_new(j, "rebuild", pt_json_str(t->rebuild));
	return j;
}
