/* TORCH_SHOW_DISPATCH_TRACE availability; see dispatchtrace.h. */
#include "dispatchtrace.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfobj.h"
#include "rebuildcmd.h"
#include "xalloc.h"

static const char TRACE_TEXT[] = "], key=[";

/*
 * memchr for the text's first byte, then a compare: ']' is rare in read-only
 * data (6,905 in libtorch_cpu's 9 MB .rodata), so this runs at memchr's speed,
 * several times memmem's on the 9 MB a default report searches.
 */
int dispatchtrace_text_present(const unsigned char *buf, size_t len)
{
	const size_t n = sizeof(TRACE_TEXT) - 1;
	const unsigned char *p = buf, *end = buf + len;

	while ((size_t)(end - p) >= n && (p = memchr(p, TRACE_TEXT[0], (size_t)(end - p) - n + 1))) {
		if (!memcmp(p + 1, TRACE_TEXT + 1, n - 1))
			return 1;
		p++;
	}
	return 0;
}

/*
 * Search [off, off + len) of the file for the trace text, read a chunk at a
 * time into buf (the tail of each piece is kept so a match across pieces is
 * found): resident memory stays at the buffer whatever the section's size,
 * and a chunk read into a buffer that stays in the CPU's cache costs less
 * than mapping the pages (elfobj_read_chunk). 1 found, 0 not, -1 read error
 * or the file cut while it was read (errno EIO).
 */
static int range_has_text(const struct elfobj *o, unsigned char *buf, size_t cap, uint64_t off,
			  uint64_t len)
{
	const size_t keep = sizeof(TRACE_TEXT) - 2;
	size_t have = 0;

	elfobj_will_read(o, off, len);
	while (len > 0) {
		size_t want = cap - have;
		long got;

		if (want > len)
			want = (size_t)len;
		got = elfobj_read_chunk(o, buf + have, want, off);
		if (got == -2)
			errno = EIO;
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		have += (size_t)got;
		if (dispatchtrace_text_present(buf, have))
			return 1;
		off += (uint64_t)got;
		len -= (uint64_t)got;
		if (have > keep) {
			memmove(buf, buf + have - keep, keep);
			have = keep;
		}
	}
	return 0;
}

/* .rodata and .rodata.*: where a string literal is. */
static bool is_rodata(const struct elf_section *s)
{
	return s->type == SHT_PROGBITS && (s->flags & SHF_ALLOC) &&
	       !(s->flags & (SHF_WRITE | SHF_EXECINSTR)) && !strncmp(s->name, ".rodata", 7) &&
	       (s->name[7] == '\0' || s->name[7] == '.');
}

size_t dispatchtrace_ranges(const struct elfobj *o, struct elfobj_range **out)
{
	size_t n = 0;

	*out = pt_xcalloc(o->n_sections + 1, sizeof(**out));
	for (size_t i = 0; i < o->n_sections; i++)
		if (is_rodata(&o->sections[i]))
			(*out)[n++] = (struct elfobj_range){ o->sections[i].offset, o->sections[i].size };
	if (!o->n_sections)
		(*out)[n++] = (struct elfobj_range){ 0, o->size };
	return n;
}

/*
 * 1/0 for the open file o, -1 when unreadable (a note for path). The text is
 * a string literal, so it lives in the read-only data sections (.rodata,
 * .rodata.*): only those are read (9 MB of libtorch_cpu's 114 MB). A file
 * without a section table (or with section headers stripped) is searched
 * whole, still through the small buffer.
 */
static int obj_has_text(const struct elfobj *o, const char *path, struct pt_diag *diag)
{
	/* Small enough for the heap (no fresh mapping to fault in) and to stay in cache. */
	enum { CAP = 1 << 18 };
	unsigned char *buf = pt_xmalloc(CAP);
	int r = 0;

	for (size_t i = 0; i < o->n_sections && r == 0; i++) {
		const struct elf_section *s = &o->sections[i];

		if (!is_rodata(s))
			continue;
		if (s->offset < o->size)
			r = range_has_text(o, buf, CAP, s->offset,
					   s->size < o->size - s->offset ? s->size : o->size - s->offset);
	}
	if (o->n_sections == 0)
		r = range_has_text(o, buf, CAP, 0, o->size);
	if (r < 0)
		pt_diag_add(diag, PT_SEV_NOTE, path, NULL, "cannot read: %s", strerror(errno));
	free(buf);
	return r;
}

/* The same for a file named by path, opened here. */
static int file_has_text(const char *path, struct pt_diag *diag)
{
	struct elfobj o;
	struct pt_diag local;
	int r;

	pt_diag_init(&local);
	if (elfobj_open(&o, path, &local) != 0) {
		pt_diag_add(diag, PT_SEV_NOTE, path, NULL, "cannot read: %s",
			    local.n ? local.v[0].what : "not an ELF file");
		pt_diag_release(&local);
		elfobj_release(&o);
		return -1;
	}
	pt_diag_release(&local);
	r = obj_has_text(&o, path, diag);
	elfobj_release(&o);
	return r;
}

static int version_at_least(const char *v, int maj, int min)
{
	int a = 0, b = 0;

	if (!v || sscanf(v, "%d.%d", &a, &b) < 1)
		return -1;
	return a > maj || (a == maj && b >= min);
}

static int check(const struct showconfig *cfg, const char *torch_version, int debug,
		 const char *lib, int text, struct dispatchtrace *t);

int dispatchtrace_check(const struct showconfig *cfg, const char *torch_version, int debug,
			const char *lib, struct dispatchtrace *t, struct pt_diag *diag)
{
	return check(cfg, torch_version, debug, lib, lib ? file_has_text(lib, diag) : -1, t);
}

int dispatchtrace_check_obj(const struct showconfig *cfg, const char *torch_version, int debug,
			    const struct elfobj *o, struct dispatchtrace *t, struct pt_diag *diag)
{
	return check(cfg, torch_version, debug, o->path, obj_has_text(o, o->path, diag), t);
}

static int check(const struct showconfig *cfg, const char *torch_version, int debug,
		 const char *lib, int text, struct dispatchtrace *t)
{
	const char *bt = cfg ? showconfig_setting(cfg, "BUILD_TYPE") : NULL;
	const char *flags = cfg ? showconfig_setting(cfg, "CXX_FLAGS") : NULL;
	const char *tv = torch_version ? torch_version
				       : cfg ? showconfig_setting(cfg, "TORCH_VERSION") : NULL;
	int ge27 = version_at_least(tv, 2, 7), ndebug = -1, has_flag;

	memset(t, 0, sizeof(*t));
	has_flag = flags && strstr(flags, "-DHAS_TORCH_SHOW_DISPATCH_TRACE") != NULL;
	/* CMake's Release/RelWithDebInfo/MinSizeRel add -DNDEBUG outside CXX_FLAGS. */
	if (flags && strstr(flags, "-DNDEBUG"))
		ndebug = 1;
	else if (bt && (!strcmp(bt, "Release") || !strcmp(bt, "RelWithDebInfo") || !strcmp(bt, "MinSizeRel")))
		ndebug = 1;
	else if ((bt && !strcmp(bt, "Debug")) || debug == 1)
		ndebug = 0;

	if (text == 0) {
		t->can_print = 0;
		t->why = pt_xasprintf("%s does not contain the trace text \"%s\": the printing code is "
				      "compiled out%s%s%s", lib, TRACE_TEXT, bt ? " (BUILD_TYPE=" : "",
				      bt ? bt : "", bt ? ")" : "");
	} else if (ndebug == 0) {
		t->can_print = 1;
		t->why = pt_xasprintf("NDEBUG is not defined (BUILD_TYPE=%s%s)", bt ? bt : "?",
				      debug == 1 ? ", torch.version.debug is True" : "");
	} else if (has_flag && ge27 == 1) {
		t->can_print = 1;
		t->why = pt_xstrdup("built with -DHAS_TORCH_SHOW_DISPATCH_TRACE (torch 2.7+)");
	} else if (ndebug == 1) {
		t->can_print = 0;
		t->why = pt_xasprintf("BUILD_TYPE=%s defines NDEBUG%s", bt ? bt : "?",
				      has_flag ? "; -DHAS_TORCH_SHOW_DISPATCH_TRACE needs torch 2.7+"
					       : " and -DHAS_TORCH_SHOW_DISPATCH_TRACE is not in CXX_FLAGS");
	} else if (text == 1) {
		/* From 2.6 the printer lives in libtorch whatever NDEBUG was: not proof. */
		t->can_print = -1;
		t->why = pt_xasprintf("%s contains the trace text, but whether the dispatcher calls it "
				      "depends on NDEBUG at build time (ptinspect doctor reads BUILD_TYPE "
				      "from the configuration)", lib);
	} else {
		t->can_print = -1;
		t->why = pt_xstrdup("no BUILD_TYPE or CXX_FLAGS to tell");
	}
	if (t->can_print != 1)
		t->rebuild = pt_xstrdup(
			ge27 == 1 ? "CFLAGS=\"-DHAS_TORCH_SHOW_DISPATCH_TRACE\" " PT_REBUILD_CMD " (keeps "
				    "the optimised build), or DEBUG=1 with the same command (older "
				    "checkouts: " PT_REBUILD_CMD_OLD ")"
				  : "DEBUG=1 " PT_REBUILD_CMD " (older checkouts: DEBUG=1 " PT_REBUILD_CMD_OLD
				    "; before torch 2.7 only a build without NDEBUG prints the trace)");
	return 0;
}

void dispatchtrace_release(struct dispatchtrace *t)
{
	free(t->why);
	free(t->rebuild);
	memset(t, 0, sizeof(*t));
}
