/*
 * The classifier of `ptinspect buildlog`: one line of a build log in, the
 * rule it matches out (a table, most specific first): what kind of line it is
 * (a cause, a generic error, a consequence of an earlier error, a warning),
 * the cause's key, title and fix. Pure: no state, no allocation.
 */
#ifndef PT_BLCLASS_H
#define PT_BLCLASS_H

#include <stddef.h>

enum bl_kind {
	BL_KIND_NONE = 0,
	BL_KIND_CAUSE,		/* a classified error: its rule names the cause and the fix */
	BL_KIND_ERROR,		/* an error the table has no cause for (a compile error) */
	BL_KIND_CONTEXT,	/* belongs to the next error: "In file included from", "in function" */
	BL_KIND_CONSEQUENCE,	/* follows from an earlier error: collect2, ninja: build stopped, ... */
	BL_KIND_WARNING,
};

enum bl_cause {
	BL_CAUSE_NONE = 0,
	BL_CAUSE_OOM,
	BL_CAUSE_NVCC_ARCH,
	BL_CAUSE_HOST_COMPILER,
	BL_CAUSE_NVCC_OPTION,
	BL_CAUSE_HEADER,		/* refined by buildlog.c: submodule, package, generated */
	BL_CAUSE_HEADER_SUBMODULE,
	BL_CAUSE_HEADER_PACKAGE,
	BL_CAUSE_UNDEFINED,
	BL_CAUSE_LINK_LIB,
	BL_CAUSE_RELOCATION,
	BL_CAUSE_NO_SPACE,
	BL_CAUSE_ICE,
	BL_CAUSE_CMAKE_VERSION,
	BL_CAUSE_CMAKE_PACKAGE,
	BL_CAUSE_CMAKE_ERROR,
	BL_CAUSE_INSTALL,		/* a CMake Error of cmake_install.cmake (buildlog.c) */
	BL_CAUSE_PYTHON,
	BL_CAUSE_NINJA,
	BL_CAUSE_COMPILE,		/* a compile error of the code itself */
	BL_CAUSE_NINJA_STOPPED,	/* only ninja's "build stopped" was found */
	BL_CAUSE_UNKNOWN,
	BL_NCAUSES
};

enum bl_phase {
	BL_PHASE_NONE = 0,
	BL_PHASE_SETUP,		/* setup.py / pip / torchgen in Python */
	BL_PHASE_CONFIGURE,	/* CMake configure */
	BL_PHASE_COMPILE,	/* a ninja compile edge */
	BL_PHASE_LINK,
	BL_PHASE_INSTALL,
};

struct bl_rule {
	enum bl_kind kind;
	enum bl_cause cause;
	const char *needle;	/* the line contains it */
	const char *also;	/* and this, when not NULL */
	enum bl_phase phase;	/* the phase the line implies, NONE: the context's */
};

/* The rule line[0..n) matches, NULL when none. line need not be NUL-terminated. */
const struct bl_rule *blclass_line(const char *line, size_t n);

/* "oom", "nvcc-arch", ...: the JSON key of a cause. */
const char *blclass_cause_key(enum bl_cause c);
/* One line: what the cause is ("a compiler was killed: out of memory"). */
const char *blclass_cause_title(enum bl_cause c);
/* The generic fix of a cause (the renderer adds figures where it has them). */
const char *blclass_cause_fix(enum bl_cause c);
const char *blclass_phase_key(enum bl_phase p);	/* "setup", "configure", ... */
const char *blclass_phase_title(enum bl_phase p);	/* "setup.py/pip", "CMake configure", ... */

/*
 * The kind of a compiler warning ("-Wunused-variable" from its trailing
 * "[-W...]", "nvcc" for nvcc's own, "cmake" for CMake Warning, "other"):
 * pointer and length into line, or a static string.
 */
const char *blclass_warning_kind(const char *line, size_t n, size_t *len);

#endif
