/*
 * `ptinspect buildlog`: a PyTorch build's output (pip install -v, setup.py
 * develop, cmake --build, ninja) read as a stream, a chunk at a time, into
 * what failed: the phase, ninja's failed edges (ninja prints each edge's
 * output in one piece after its "[k/N] description" line, so the output of
 * parallel jobs is taken apart by edge), the first real error of the first
 * failed edge and its cause (blclass.h). Memory is bounded: a failed edge
 * keeps its first BL_EDGE_LINES lines, a line its first BL_KEEP_LEN bytes.
 */
#ifndef PT_BUILDLOG_H
#define PT_BUILDLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blclass.h"
#include "bllines.h"

#define BL_EDGE_LINES 80	/* output lines kept per failed edge */
#define BL_BLOCK_LINES 24	/* lines kept of a CMake Error block, a traceback */
#define BL_KEEP_LEN 1024	/* bytes kept of a stored line */
#define BL_MAX_EDGES 200	/* failed edges kept (all are counted) */
#define BL_MAX_WKINDS 64	/* warning kinds counted by name; the rest as "other" */

enum bl_verdict {
	BL_VERDICT_OK,		/* the log shows a finished, successful build */
	BL_VERDICT_FAILED,
	BL_VERDICT_INCOMPLETE,	/* no failure, no sign of success: cut, or still running */
	BL_VERDICT_EMPTY,	/* no text */
	BL_VERDICT_BINARY,	/* not a text log */
};

struct bl_kept {
	char *text;		/* capped at BL_KEEP_LEN (cut marked by trunc) */
	uint64_t no;		/* line number in the log */
	enum bl_kind kind;
	bool trunc;
};

struct bl_lines_kept {
	struct bl_kept *v;
	size_t n, a;
	uint64_t dropped;	/* lines past the cap, counted only */
};

struct bl_edge {
	uint64_t no;		/* the FAILED: line */
	uint32_t k, total;	/* its "[k/total]" status, 0 when none */
	char *desc;		/* the status line's description, NULL when none */
	char *outputs;		/* what FAILED: names */
	char *command;		/* the command line, capped at BL_LINE_MAX */
	struct bl_lines_kept out;	/* its diagnostics, in order */
	size_t first_error;	/* index in out of the first error, SIZE_MAX: none */
	size_t cause_at;	/* index in out of the line that names the cause, SIZE_MAX */
	enum bl_cause cause;
	enum bl_phase phase;
	uint64_t n_errors, n_warnings;
};

struct bl_wkind {
	char *kind;
	uint64_t n;
};

struct buildlog_result {
	enum bl_verdict verdict;
	enum bl_phase phase;
	enum bl_cause cause;
	const struct bl_kept *cause_line;	/* the line naming the cause (in an edge or a block) */
	const struct bl_kept *first_error;	/* the first real error, NULL when none */
	const struct bl_edge *edge;	/* the first failed edge, NULL when not an edge */
	/* Details of the cause, NULL when they do not apply. */
	char *header;		/* a missing header's name */
	char *header_from;	/* the file that includes it */
	const char *header_hint;	/* the package or submodule that has it */
	char *symbol;		/* an undefined reference's symbol, demangled as ld wrote it */
	char *abi_twin;		/* the same name with the other C++ ABI */
	bool symbol_cxx11;	/* the symbol is the cxx11-ABI spelling */
	char *arch;		/* nvcc's rejected architecture */
	char *option;		/* nvcc's unknown option */
	struct bl_lines_kept block;	/* an error outside ninja: the CMake Error block, the traceback */
	char *py_frame;		/* the traceback's last frame, "File ..., line N, in f" */
	bool torchgen;		/* a frame in torchgen/ */
	/* Every failed edge (the first BL_MAX_EDGES of them). */
	struct bl_edge *edges;
	size_t n_edges, a_edges;
	uint64_t n_failed;	/* failed edges, all */
	/* The log as a whole. */
	uint64_t lines, bytes, nul_bytes, cut_lines, errors, warnings;
	uint32_t ninja_k, ninja_total;	/* the last status line */
	uint64_t ninja_status_lines;
	bool ninja_stopped, no_eol;
	char *success;		/* the line that shows success, NULL when none */
	char *consequence;	/* the first consequence line (when there is no cause) */
	uint64_t consequence_no;
	struct bl_wkind *wk;
	size_t n_wk, a_wk;
};

struct buildlog;		/* the streaming parser */

struct buildlog *buildlog_new(void);
/* Feed p[0..n), any chunking. */
void buildlog_feed(struct buildlog *b, const uint8_t *p, size_t n);
/* End of input: the result (owned by b until buildlog_free). */
const struct buildlog_result *buildlog_finish(struct buildlog *b);
void buildlog_free(struct buildlog *b);

/*
 * A compile or link command shortened to what matters: the compiler, -c
 * SOURCE, -o OUTPUT, -std/-O/-g, _GLIBCXX_USE_CXX11_ABI, -gencode/-arch,
 * -ccbin, -shared, the libraries; then "(N -D, N -I, N more omitted)".
 * malloc'd.
 */
char *buildlog_short_command(const char *cmd);

/* The shared libraries a link command names by path (*.so, *.so.N), malloc'd, n in *n. */
char **buildlog_link_libraries(const char *cmd, size_t *n);

/* Whether a command line is a link (no -c; -shared, -o lib*.so, ar, ld). */
bool buildlog_is_link(const char *cmd);

/*
 * The other C++ ABI's spelling of a demangled name (std::__cxx11:: and
 * [abi:cxx11] removed, or std::string spelled with std::__cxx11), NULL when
 * the name has nothing that differs; *cxx11 says which the given one is.
 */
char *buildlog_abi_twin(const char *demangled, bool *cxx11);

/* Where a header comes from: a submodule or package hint, NULL when unknown. */
const char *buildlog_header_hint(const char *header, const char *from, enum bl_cause *cause);

#endif
