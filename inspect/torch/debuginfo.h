/*
 * Can this library be debugged? Reads, never runs: DWARF in the file, split
 * DWARF (skeleton units naming .dwo files, or a .dwp beside the file), a
 * separate debug file reached through .gnu_debuglink or the build-id under
 * /usr/lib/debug (GDB's rules), the DW_AT_producer strings (compiler, -O and
 * -g levels), and a verdict. The only module besides elfobj.c that sees
 * libelf/libdw headers.
 */
#ifndef PT_DEBUGINFO_H
#define PT_DEBUGINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* At most this many distinct producers are kept (libtorch_cpu has thousands of CUs). */
#define DEBUGINFO_MAX_PRODUCERS 8

enum debuginfo_verdict {
	DEBUGINFO_FULL,		/* "gdb can show tensor fields here": DWARF with types reachable */
	DEBUGINFO_SYMBOLS,	/* "symbols only": .symtab or line tables, no usable types */
	DEBUGINFO_NOTHING,	/* "nothing": only the exported dynamic symbols */
	/*
	 * "gdb needs pt-types for tensors": DWARF, but c10::TensorImpl only
	 * declared (GCC emits a class with a vtable in full only where its key
	 * function is, libc10), as the GDB extension finds it.
	 */
	DEBUGINFO_NEEDS_TYPES,
	/*
	 * "gdb will download it": no debug file here, but a build-id and
	 * DEBUGINFOD_URLS set, so gdb (and elfutils) fetch the debug file from
	 * a debuginfod server by build-id (why names the server).
	 */
	DEBUGINFO_DOWNLOAD,
};

struct debuginfo {
	bool has_symtab;	/* a full .symtab (not stripped) */
	bool has_dwarf;		/* .debug_info with data in the file itself */
	size_t n_units;		/* compile units (skeletons included) */
	size_t n_skeleton;	/* split-DWARF skeleton units */
	size_t n_dwo_found;	/* of those, how many .dwo units libdw could open */
	char *first_dwo;	/* the first .dwo path named (comp_dir/dwo_name), or NULL */
	char *dwp;		/* FILE.dwp when it exists, or NULL */
	char *debuglink;	/* .gnu_debuglink name, or NULL */
	char *debug_file;	/* the separate debug file found (debuglink or build-id), or NULL */
	bool debug_file_has_dwarf;
	char build_id[129];	/* hex, "" if none */
	char *build_id_path;	/* /usr/lib/debug/.build-id/xx/rest.debug (looked for) */
	char *debuginfod_urls;	/* $DEBUGINFOD_URLS when set and not blank, or NULL */
	char *debuginfod_cache;	/* the client cache's CACHE/BUILDID/debuginfo (looked for), or NULL */
	char *producers[DEBUGINFO_MAX_PRODUCERS];
	size_t n_producers;
	char *opt_level;	/* "-O2" from the first producer saying one, or NULL */
	char *g_level;		/* "-g", "-g1", "-g3", "-ggdb" ..., or NULL */
	/* c10::TensorImpl in the DWARF: 2 defined (complete), 1 only declared, 0 absent */
	int tensorimpl;
	enum debuginfo_verdict verdict;
	char *why;		/* one line of evidence for the verdict */
};

/*
 * The debuginfod client's cache directory as elfutils' client picks it:
 * $DEBUGINFOD_CACHE_PATH, else ~/.debuginfod_client_cache when it exists (the
 * old default), else $XDG_CACHE_HOME/debuginfod_client, else
 * $HOME/.cache/debuginfod_client. New string, or NULL (no HOME).
 */
char *debuginfo_debuginfod_cache_dir(void);

/*
 * Inspect path. debug_root is where separate debug files live ("/usr/lib/debug";
 * NULL for that). Returns 0, or -1 when path is not a usable ELF file
 * (PT_SEV_ERROR in diag). DWARF that libdw cannot read is a PT_SEV_WARNING.
 */
int debuginfo_read(const char *path, const char *debug_root, struct debuginfo *di,
		   struct pt_diag *diag);

/* The same for an already opened file (ptinspect FILE... opens each once). */
struct elfobj;
int debuginfo_read_obj(const struct elfobj *o, const char *debug_root, struct debuginfo *di,
		       struct pt_diag *diag);

void debuginfo_release(struct debuginfo *di);

/*
 * "gdb can show tensor fields here", "symbols only", "nothing", "gdb needs
 * pt-types for tensors", "gdb will download it".
 */
const char *debuginfo_verdict_text(enum debuginfo_verdict v);
/* "full", "symbols", "nothing", "needs_types", "debuginfod" (JSON). */
const char *debuginfo_verdict_key(enum debuginfo_verdict v);

/*
 * From one DW_AT_producer ("GNU C17 12.2.0 -mtune=generic -g -O2"): the last
 * -O and -g options, into new strings (NULL when absent).
 */
void debuginfo_producer_flags(const char *producer, char **opt, char **g);

#endif
