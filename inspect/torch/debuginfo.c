/* Debuggability of one ELF file through libelf/libdw; see debuginfo.h. */
#include "debuginfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfobj.h"
#include "lazylib.h"
#include "mapguard.h"
#include "xalloc.h"

/* libdw is opened when there is DWARF to read (lazylib.h), not for every ptinspect run. */
static __typeof__(dwarf_attr) *p_dwarf_attr;
static __typeof__(dwarf_begin_elf) *p_dwarf_begin_elf;
static __typeof__(dwarf_child) *p_dwarf_child;
static __typeof__(dwarf_diename) *p_dwarf_diename;
static __typeof__(dwarf_end) *p_dwarf_end;
static __typeof__(dwarf_errmsg) *p_dwarf_errmsg;
static __typeof__(dwarf_formstring) *p_dwarf_formstring;
static __typeof__(dwarf_get_units) *p_dwarf_get_units;
static __typeof__(dwarf_hasattr) *p_dwarf_hasattr;
static __typeof__(dwarf_siblingof) *p_dwarf_siblingof;
static __typeof__(dwarf_tag) *p_dwarf_tag;
static const struct pt_lazysym dw_syms[] = {
	PT_LAZYSYM(dwarf_attr),
	PT_LAZYSYM(dwarf_begin_elf),
	PT_LAZYSYM(dwarf_child),
	PT_LAZYSYM(dwarf_diename),
	PT_LAZYSYM(dwarf_end),
	PT_LAZYSYM(dwarf_errmsg),
	PT_LAZYSYM(dwarf_formstring),
	PT_LAZYSYM(dwarf_get_units),
	PT_LAZYSYM(dwarf_hasattr),
	PT_LAZYSYM(dwarf_siblingof),
	PT_LAZYSYM(dwarf_tag),
};
static struct pt_lazylib libdw = PT_LAZYLIB("libdw.so.1", dw_syms);
#define dwarf_attr (*p_dwarf_attr)
#define dwarf_begin_elf (*p_dwarf_begin_elf)
#define dwarf_child (*p_dwarf_child)
#define dwarf_diename (*p_dwarf_diename)
#define dwarf_end (*p_dwarf_end)
#define dwarf_errmsg (*p_dwarf_errmsg)
#define dwarf_formstring (*p_dwarf_formstring)
#define dwarf_get_units (*p_dwarf_get_units)
#define dwarf_hasattr (*p_dwarf_hasattr)
#define dwarf_siblingof (*p_dwarf_siblingof)
#define dwarf_tag (*p_dwarf_tag)

const char *debuginfo_verdict_text(enum debuginfo_verdict v)
{
	switch (v) {
	case DEBUGINFO_FULL: return "gdb can show tensor fields here";
	case DEBUGINFO_NEEDS_TYPES: return "gdb needs pt-types for tensors";
	case DEBUGINFO_SYMBOLS: return "symbols only";
	case DEBUGINFO_DOWNLOAD: return "gdb will download it";
	default: return "nothing";
	}
}

const char *debuginfo_verdict_key(enum debuginfo_verdict v)
{
	return v == DEBUGINFO_FULL ? "full" : v == DEBUGINFO_SYMBOLS ? "symbols"
	       : v == DEBUGINFO_NEEDS_TYPES ? "needs_types" : v == DEBUGINFO_DOWNLOAD ? "debuginfod"
	       : "nothing";
}

void debuginfo_producer_flags(const char *p, char **opt, char **g)
{
	const char *s = p;

	*opt = *g = NULL;
	/* Options are blank-separated; the last of each kind wins, as in gcc. */
	while ((s = strstr(s, " -"))) {
		size_t n;

		s++;
		n = strcspn(s, " ");
		if (s[1] == 'O' && n <= 6) {
			free(*opt);
			*opt = pt_xstrndup(s, n);
		} else if (s[1] == 'g' && n <= 12 && strncmp(s, "-gsplit-dwarf", 13) &&
			   strncmp(s, "-gdwarf", 7) && strncmp(s, "-gno-", 5) &&
			   strncmp(s, "-gcolumn", 8) && strncmp(s, "-gz", 3) &&
			   strncmp(s, "-grecord", 8) && strncmp(s, "-gstrict", 8)) {
			free(*g);
			*g = pt_xstrndup(s, n);
		}
		s += n;
	}
}

static bool file_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Does the ELF file at p hold .debug_info? */
static bool has_dwarf_file(const char *p)
{
	struct elfobj o;
	struct pt_diag d;
	bool r = false;

	pt_diag_init(&d);
	if (elfobj_open(&o, p, &d) == 0) {
		r = o.has_debug_info;
		elfobj_release(&o);
	}
	pt_diag_release(&d);
	return r;
}

static bool has_section(Elf *elf, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(name, want) && sh.sh_type != SHT_NOBITS && sh.sh_size > 0)
			return true;
	}
	return false;
}

static void add_producer(struct debuginfo *di, const char *p)
{
	for (size_t i = 0; i < di->n_producers; i++)
		if (!strcmp(di->producers[i], p))
			return;
	if (di->n_producers < DEBUGINFO_MAX_PRODUCERS)
		di->producers[di->n_producers++] = pt_xstrdup(p);
	if (!di->opt_level || !di->g_level) {
		char *o, *g;

		debuginfo_producer_flags(p, &o, &g);
		if (!di->opt_level)
			di->opt_level = o;
		else
			free(o);
		if (!di->g_level)
			di->g_level = g;
		else
			free(g);
	}
}

/*
 * Is c10::TensorImpl in this unit: namespace c10 at the top, a class or
 * struct TensorImpl in it, complete (2) or a declaration (1)? What the GDB
 * extension's lookup_type("c10::TensorImpl") needs is a complete one.
 */
static int tensorimpl_in(Dwarf_Die *unit)
{
	Dwarf_Die ns, c;
	int best = 0;

	if (dwarf_child(unit, &ns) != 0)
		return 0;
	do {
		const char *n;

		if (dwarf_tag(&ns) != DW_TAG_namespace || !(n = dwarf_diename(&ns)) || strcmp(n, "c10"))
			continue;
		if (dwarf_child(&ns, &c) != 0)
			continue;
		do {
			int t = dwarf_tag(&c);

			if ((t != DW_TAG_class_type && t != DW_TAG_structure_type) ||
			    !(n = dwarf_diename(&c)) || strcmp(n, "TensorImpl"))
				continue;
			if (!dwarf_hasattr(&c, DW_AT_declaration))
				return 2;
			best = 1;
		} while (dwarf_siblingof(&c, &c) == 0);
	} while (dwarf_siblingof(&ns, &ns) == 0);
	return best;
}

/* Walk the compile units: producers, skeletons, whether their .dwo opened. */
static void scan_units(struct debuginfo *di, const char *path, Elf *elf, const char *dwp,
		       struct pt_diag *diag)
{
	const char *why = pt_lazylib_load(&libdw);
	Dwarf *dw = why ? NULL : dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t ut;
	int rc;

	if (why) {
		pt_diag_add(diag, PT_SEV_WARNING, path, ".debug_info", "%s", why);
		return;
	}
	if (!dw) {
		pt_diag_add(diag, PT_SEV_WARNING, path, ".debug_info", "dwarf_begin_elf: %s",
			    dwarf_errmsg(-1));
		return;
	}
	(void)dwp;	/* libdw finds FILE.dwp itself (elfutils 0.178+) */
	for (;;) {
		Dwarf_Attribute a;
		const char *prod;
		bool skel;

		memset(&subdie, 0, sizeof(subdie));
		if ((rc = dwarf_get_units(dw, cu, &cu, NULL, &ut, &cudie, &subdie)) != 0)
			break;
		skel = ut == DW_UT_skeleton || dwarf_hasattr(&cudie, DW_AT_GNU_dwo_name);

		di->n_units++;
		if (skel) {
			const char *dwo = dwarf_formstring(dwarf_attr(&cudie, DW_AT_dwo_name, &a));
			const char *dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &a));

			if (!dwo)
				dwo = dwarf_formstring(dwarf_attr(&cudie, DW_AT_GNU_dwo_name, &a));
			di->n_skeleton++;
			if (dwo && !di->first_dwo)
				di->first_dwo = dwo[0] == '/' || !dir ? pt_xstrdup(dwo)
								      : pt_xasprintf("%s/%s", dir, dwo);
			/* subdie is the split unit's DIE when libdw found the .dwo/.dwp. */
			if (subdie.cu && dwarf_tag(&subdie) == DW_TAG_compile_unit) {
				int ti = di->tensorimpl < 2 ? tensorimpl_in(&subdie) : 0;

				if (ti > di->tensorimpl)
					di->tensorimpl = ti;
				di->n_dwo_found++;
				if ((prod = dwarf_formstring(dwarf_attr(&subdie, DW_AT_producer, &a))))
					add_producer(di, prod);
			}
		}
		if (!skel && di->tensorimpl < 2) {
			int ti = tensorimpl_in(&cudie);

			if (ti > di->tensorimpl)
				di->tensorimpl = ti;
		}
		if ((prod = dwarf_formstring(dwarf_attr(&cudie, DW_AT_producer, &a))))
			add_producer(di, prod);
	}
	if (rc < 0)
		pt_diag_add(diag, PT_SEV_WARNING, path, ".debug_info", "dwarf_get_units: %s",
			    dwarf_errmsg(-1));
	dwarf_end(dw);
}

/* GDB's debuglink places: the file's dir, its .debug/, then debug_root + dir. */
static char *find_debuglink(const char *path, const char *link, const char *root)
{
	char *dir = pt_xstrdup(path), *slash = strrchr(dir, '/'), *c;
	char *real = realpath(path, NULL);
	const char *tries[3];

	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	if (real && (slash = strrchr(real, '/')))
		*slash = '\0';
	tries[0] = "%s/%s";
	tries[1] = "%s/.debug/%s";
	tries[2] = NULL;
	for (int i = 0; tries[i]; i++) {
		c = pt_xasprintf(tries[i], dir, link);
		if (file_exists(c) && strcmp(c, path))
			goto found;
		free(c);
	}
	c = pt_xasprintf("%s%s/%s", root, real ? real : dir, link);
	if (file_exists(c))
		goto found;
	free(c);
	c = NULL;
found:
	free(dir);
	free(real);
	return c;
}

static void decide(struct debuginfo *di, const char *path)
{
	bool types_possible = !di->g_level || strcmp(di->g_level, "-g1");

	free(di->why);
	if (di->has_dwarf && di->n_skeleton == 0) {
		di->verdict = types_possible ? DEBUGINFO_FULL : DEBUGINFO_SYMBOLS;
		di->why = pt_xasprintf("DWARF in the file (%zu unit%s%s%s)", di->n_units, di->n_units == 1 ? "" : "s",
				       di->g_level ? ", " : "", di->g_level ? di->g_level : "");
	} else if (di->n_skeleton && di->n_dwo_found == di->n_skeleton) {
		di->verdict = types_possible ? DEBUGINFO_FULL : DEBUGINFO_SYMBOLS;
		di->why = pt_xasprintf("split DWARF: all %zu .dwo units found%s%s", di->n_skeleton,
				       di->dwp ? " in " : "", di->dwp ? di->dwp : "");
	} else if (di->n_skeleton) {
		di->verdict = DEBUGINFO_SYMBOLS;
		di->why = pt_xasprintf("split DWARF: %zu of %zu .dwo units missing (first: %s); "
				       "only line numbers of the skeletons",
				       di->n_skeleton - di->n_dwo_found, di->n_skeleton,
				       di->first_dwo ? di->first_dwo : "?");
	} else if (di->debug_file && di->debug_file_has_dwarf) {
		di->verdict = DEBUGINFO_FULL;
		di->why = pt_xasprintf("separate debug file %s", di->debug_file);
	} else if (di->debuglink) {
		di->verdict = di->has_symtab ? DEBUGINFO_SYMBOLS : DEBUGINFO_NOTHING;
		di->why = pt_xasprintf("stripped; .gnu_debuglink %s not found beside the file, in "
				       ".debug/ or under the debug root, nor by build-id (install the "
				       "-dbgsym package or keep the build's unstripped file)",
				       di->debuglink);
	} else {
		di->verdict = di->has_symtab ? DEBUGINFO_SYMBOLS : DEBUGINFO_NOTHING;
		di->why = pt_xasprintf("no DWARF, %s; no separate debug file%s%s%s",
				       di->has_symtab ? "a .symtab" : "no .symtab",
				       di->build_id_path ? " (" : "",
				       di->build_id_path ? di->build_id_path : "",
				       di->build_id_path ? " absent)" : "");
	}
	/*
	 * Nothing usable here, but a build-id and a debuginfod server: gdb asks the
	 * server for the debug file by build-id (on first use it asks to enable it).
	 */
	if (di->debuginfod_urls && di->build_id[0] && !(di->debug_file && di->debug_file_has_dwarf) &&
	    !(di->has_dwarf && !di->n_skeleton) && !(di->n_skeleton && di->n_dwo_found == di->n_skeleton)) {
		char *w = di->why;

		di->verdict = DEBUGINFO_DOWNLOAD;
		di->why = pt_xasprintf("debuginfod: %s; here: %s%s%s%s", di->debuginfod_urls, w,
				       di->debuginfod_cache ? "; not in the debuginfod cache (" : "",
				       di->debuginfod_cache ? di->debuginfod_cache : "",
				       di->debuginfod_cache ? ")" : "");
		free(w);
	}
	/* Usable DWARF that only declares c10::TensorImpl: the GDB extension needs pt-types. */
	if (di->verdict == DEBUGINFO_FULL && di->tensorimpl == 1) {
		char *w = di->why;

		di->verdict = DEBUGINFO_NEEDS_TYPES;
		di->why = pt_xasprintf("%s, but c10::TensorImpl is only declared in it (GCC emits the "
				       "class where its key function is, in libc10): tensors print after "
				       "pt-types, or with libc10's DWARF loaded", w);
		free(w);
	}
	(void)path;
}

char *debuginfo_debuginfod_cache_dir(void)
{
	const char *v = getenv("DEBUGINFOD_CACHE_PATH"), *home = getenv("HOME");
	const char *xdg = getenv("XDG_CACHE_HOME");
	char *old;
	struct stat st;

	if (v && *v)
		return pt_xstrdup(v);
	if (!home || !*home)
		return NULL;
	old = pt_xasprintf("%s/.debuginfod_client_cache", home);
	if (stat(old, &st) == 0 && S_ISDIR(st.st_mode))
		return old;
	free(old);
	if (xdg && *xdg)
		return pt_xasprintf("%s/debuginfod_client", xdg);
	return pt_xasprintf("%s/.cache/debuginfod_client", home);
}

/* DEBUGINFOD_URLS when it names a server (blank-separated URLs; blank: none). */
static char *debuginfod_urls(void)
{
	const char *v = getenv("DEBUGINFOD_URLS");

	if (!v || !v[strspn(v, " \t")])
		return NULL;
	return pt_xstrdup(v);
}

/* The build-id's file in the debuginfod client's cache: CACHE/BUILDID/debuginfo. */
static void debuginfod_cache(struct debuginfo *di)
{
	char *dir = debuginfo_debuginfod_cache_dir();

	if (dir && di->build_id[0]) {
		di->debuginfod_cache = pt_xasprintf("%s/%s/debuginfo", dir, di->build_id);
		if (!di->debug_file && file_exists(di->debuginfod_cache))
			di->debug_file = pt_xstrdup(di->debuginfod_cache);
	}
	free(dir);
}

static void read_obj(const struct elfobj *o, const char *root, struct debuginfo *di,
		     struct pt_diag *diag)
{
	const char *path = o->path;
	char *dwp;

	if (!root)
		root = "/usr/lib/debug";
	di->has_dwarf = o->has_debug_info;
	di->has_symtab = has_section(o->elf, ".symtab");
	elfobj_build_id_hex(o, di->build_id);
	if (o->debuglink)
		di->debuglink = pt_xstrdup(o->debuglink);
	dwp = pt_xasprintf("%s.dwp", path);
	if (file_exists(dwp))
		di->dwp = dwp;
	else
		free(dwp);
	if (di->has_dwarf)
		scan_units(di, path, o->elf, di->dwp, diag);
	if (di->build_id[0]) {
		di->build_id_path = pt_xasprintf("%s/.build-id/%.2s/%s.debug", root, di->build_id,
						 di->build_id + 2);
		if (file_exists(di->build_id_path))
			di->debug_file = pt_xstrdup(di->build_id_path);
	}
	if (!di->debug_file && di->debuglink)
		di->debug_file = find_debuglink(path, di->debuglink, root);
	/* gdb's order: the debug directories, then debuginfod (its cache first). */
	if (!di->has_dwarf) {
		di->debuginfod_urls = debuginfod_urls();
		debuginfod_cache(di);
	}
	if (di->debug_file && !di->has_dwarf) {
		di->debug_file_has_dwarf = has_dwarf_file(di->debug_file);
		if (di->debug_file_has_dwarf) {
			int fd = open(di->debug_file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
			Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;

			if (e)
				scan_units(di, di->debug_file, e, NULL, diag);
			if (e)
				elf_end(e);
			if (fd >= 0)
				close(fd);
			/* Units of the debug file count as in-file DWARF for the verdict. */
			if (!di->n_skeleton)
				di->has_dwarf = false;
		}
	}
	decide(di, path);
}

int debuginfo_read_obj(const struct elfobj *o, const char *root, struct debuginfo *di,
		       struct pt_diag *diag)
{
	struct pt_mapguard g;

	memset(di, 0, sizeof(*di));
	/* libdw reads o's mapping (and the debug file's): a file cut meanwhile is an error. */
	if (PT_MAPGUARD_BEGIN(&g)) {
		elfobj_shrank(o, diag);
		return -1;
	}
	read_obj(o, root, di, diag);
	pt_mapguard_end(&g);
	return 0;
}

int debuginfo_read(const char *path, const char *root, struct debuginfo *di, struct pt_diag *diag)
{
	struct elfobj o;
	int rc;

	memset(di, 0, sizeof(*di));
	if (elfobj_open(&o, path, diag) != 0)
		return -1;
	rc = debuginfo_read_obj(&o, root, di, diag);
	elfobj_release(&o);
	return rc;
}

void debuginfo_release(struct debuginfo *di)
{
	free(di->first_dwo);
	free(di->dwp);
	free(di->debuglink);
	free(di->debug_file);
	free(di->build_id_path);
	free(di->debuginfod_urls);
	free(di->debuginfod_cache);
	for (size_t i = 0; i < di->n_producers; i++)
		free(di->producers[i]);
	free(di->opt_level);
	free(di->g_level);
	free(di->why);
	memset(di, 0, sizeof(*di));
}
