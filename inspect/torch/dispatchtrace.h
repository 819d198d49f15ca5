/*
 * Can TORCH_SHOW_DISPATCH_TRACE print anything with this build?
 * (docs/formats/torch-trace-formats.md §8): only where NDEBUG is not defined,
 * or, from torch 2.7 (PR #145517), with -DHAS_TORCH_SHOW_DISPATCH_TRACE.
 * Evidence: the build configuration (BUILD_TYPE, CXX_FLAGS), torch.version.debug
 * and the library itself (the "], key=[" text of the trace line).
 */
#ifndef PT_DISPATCHTRACE_H
#define PT_DISPATCHTRACE_H

#include "diag.h"
#include "elfobj.h"
#include "showconfig.h"

struct dispatchtrace {
	int can_print;		/* 1 yes, 0 no, -1 cannot tell */
	char *why;		/* the evidence, one line */
	char *rebuild;		/* the command that would enable it, NULL when it can print */
};

/*
 * cfg may be NULL; torch_version ("2.7.1", may be NULL); debug: torch.version.debug
 * (-1 unknown); libtorch_cpu: the library file to look into, or NULL.
 * Returns 0; an unreadable library is a PT_SEV_NOTE.
 */
int dispatchtrace_check(const struct showconfig *cfg, const char *torch_version, int debug,
			const char *libtorch_cpu, struct dispatchtrace *out, struct pt_diag *diag);

/* The same, the library given as a file already open (the default report's): not read again. */
int dispatchtrace_check_obj(const struct showconfig *cfg, const char *torch_version, int debug,
			    const struct elfobj *o, struct dispatchtrace *t, struct pt_diag *diag);

void dispatchtrace_release(struct dispatchtrace *t);

/*
 * The file ranges dispatchtrace_check reads in the library o (its
 * read-only data sections; the whole file when it has no section table),
 * for elfobj_read_ahead. Returns the number stored in *out (caller frees).
 */
size_t dispatchtrace_ranges(const struct elfobj *o, struct elfobj_range **out);

/* 1 if the bytes hold the trace line's text "], key=[" (the printing code is compiled in). */
int dispatchtrace_text_present(const unsigned char *buf, size_t len);

#endif
