/*
 * The classifier table of `ptinspect buildlog` (blclass.h). The needles are
 * the tools' own wording (gcc, clang, nvcc, ptxas, GNU ld, lld, CMake, ninja,
 * pip, setuptools); the tests feed each the real message of a real run.
 */
#include <string.h>

#include "blclass.h"

#define C BL_KIND_CAUSE
#define Q BL_KIND_CONSEQUENCE
#define X BL_KIND_CONTEXT

/* Consequences and context first (collect2's "error:" is not the error), then causes. */
static const struct bl_rule rules[] = {
	{ Q, BL_CAUSE_NONE, "collect2: error: ld returned", NULL, BL_PHASE_LINK },
	{ Q, BL_CAUSE_NONE, "error: ld returned ", NULL, BL_PHASE_LINK },
	{ Q, BL_CAUSE_NONE, "clang: error: linker command failed", NULL, BL_PHASE_LINK },
	{ Q, BL_CAUSE_NINJA_STOPPED, "ninja: build stopped", NULL, BL_PHASE_NONE },
	{ Q, BL_CAUSE_NONE, "error: subprocess-exited-with-error", NULL, BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "error: metadata-generation-failed", NULL, BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "ERROR: Failed building", NULL, BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "ERROR: Could not build wheels", NULL, BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "ERROR: Failed to build", NULL, BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "error: legacy-install-failure", NULL, BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "note: This error originates from a subprocess", NULL, BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "CalledProcessError", "returned non-zero exit status", BL_PHASE_SETUP },
	{ Q, BL_CAUSE_NONE, "Configuring incomplete, errors occurred", NULL, BL_PHASE_CONFIGURE },
	{ Q, BL_CAUSE_NONE, "compilation terminated.", NULL, BL_PHASE_COMPILE },
	{ Q, BL_CAUSE_NONE, "make: *** ", NULL, BL_PHASE_NONE },
	{ Q, BL_CAUSE_NONE, "gmake: *** ", NULL, BL_PHASE_NONE },
	{ Q, BL_CAUSE_NONE, "] Error ", "*** [", BL_PHASE_NONE },
	{ Q, BL_CAUSE_NONE, "Error compiling objects for extension", NULL, BL_PHASE_SETUP },
	{ X, BL_CAUSE_NONE, "In file included from ", NULL, BL_PHASE_NONE },
	{ X, BL_CAUSE_NONE, "                 from ", NULL, BL_PHASE_NONE },
	{ X, BL_CAUSE_NONE, ": In function ", NULL, BL_PHASE_NONE },
	{ X, BL_CAUSE_NONE, ": In member function ", NULL, BL_PHASE_NONE },
	{ X, BL_CAUSE_NONE, ": In instantiation of ", NULL, BL_PHASE_NONE },
	{ X, BL_CAUSE_NONE, ": in function `", NULL, BL_PHASE_LINK },
	{ X, BL_CAUSE_NONE, ": In static member function ", NULL, BL_PHASE_NONE },
	{ X, BL_CAUSE_NONE, ": In constructor ", NULL, BL_PHASE_NONE },
	/* Out of memory: the OOM killer, ulimit -v, ld, nvcc's cicc. */
	{ C, BL_CAUSE_OOM, "Killed signal terminated program", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_OOM, "virtual memory exhausted", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_OOM, ": out of memory allocating ", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_OOM, "died due to signal 9", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_OOM, "cannot allocate memory", "fatal error", BL_PHASE_COMPILE },
	{ C, BL_CAUSE_OOM, "Cannot allocate memory", "fatal error", BL_PHASE_COMPILE },
	{ C, BL_CAUSE_OOM, "memory exhausted", "ld", BL_PHASE_LINK },
	{ C, BL_CAUSE_OOM, "std::bad_alloc", NULL, BL_PHASE_NONE },
	/* nvcc and its host compiler. */
	{ C, BL_CAUSE_NVCC_ARCH, "Unsupported gpu architecture", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_NVCC_ARCH, "is not defined for option 'gpu-name'", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_NVCC_ARCH, "Unknown CUDA Architecture Name", NULL, BL_PHASE_CONFIGURE },
	{ C, BL_CAUSE_HOST_COMPILER, "unsupported GNU version", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_HOST_COMPILER, "unsupported clang version", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_HOST_COMPILER, "unsupported Microsoft Visual Studio version", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_NVCC_OPTION, "Unknown option", "nvcc", BL_PHASE_COMPILE },
	{ C, BL_CAUSE_NVCC_OPTION, "nvcc fatal", "Don't know what to do with", BL_PHASE_COMPILE },
	/* Headers. */
	{ C, BL_CAUSE_HEADER, "fatal error: ", ": No such file or directory", BL_PHASE_COMPILE },
	{ C, BL_CAUSE_HEADER, "fatal error: '", "' file not found", BL_PHASE_COMPILE },
	{ C, BL_CAUSE_HEADER, "cannot open source file \"", NULL, BL_PHASE_COMPILE },
	/* The linker. */
	{ C, BL_CAUSE_RELOCATION, "relocation truncated to fit", NULL, BL_PHASE_LINK },
	{ C, BL_CAUSE_UNDEFINED, "undefined reference to `", NULL, BL_PHASE_LINK },
	{ C, BL_CAUSE_UNDEFINED, "undefined reference to '", NULL, BL_PHASE_LINK },
	{ C, BL_CAUSE_UNDEFINED, "error: undefined symbol: ", NULL, BL_PHASE_LINK },
	{ C, BL_CAUSE_LINK_LIB, "cannot find -l", NULL, BL_PHASE_LINK },
	{ C, BL_CAUSE_NO_SPACE, "No space left on device", NULL, BL_PHASE_NONE },
	{ C, BL_CAUSE_NO_SPACE, "Disk quota exceeded", NULL, BL_PHASE_NONE },
	{ C, BL_CAUSE_ICE, "internal compiler error", NULL, BL_PHASE_COMPILE },
	{ C, BL_CAUSE_ICE, "Internal compiler error", NULL, BL_PHASE_COMPILE },
	/* CMake: the version, a package, any other error. */
	{ C, BL_CAUSE_CMAKE_VERSION, "or higher is required.", "CMake", BL_PHASE_CONFIGURE },
	{ C, BL_CAUSE_CMAKE_PACKAGE, "Could NOT find ", NULL, BL_PHASE_CONFIGURE },
	{ C, BL_CAUSE_CMAKE_PACKAGE, "Could not find a package configuration file", NULL, BL_PHASE_CONFIGURE },
	{ C, BL_CAUSE_CMAKE_PACKAGE, "By not providing \"Find", NULL, BL_PHASE_CONFIGURE },
	{ C, BL_CAUSE_CMAKE_ERROR, "CMake Error", NULL, BL_PHASE_CONFIGURE },
	{ C, BL_CAUSE_NINJA, "ninja: error: ", NULL, BL_PHASE_NONE },
	{ C, BL_CAUSE_NINJA, "ninja: fatal: ", NULL, BL_PHASE_NONE },
	{ 0, 0, NULL, NULL, 0 },
};

static const struct bl_rule rule_warning = { BL_KIND_WARNING, BL_CAUSE_NONE, "warning", NULL, BL_PHASE_NONE };
static const struct bl_rule rule_error = { BL_KIND_ERROR, BL_CAUSE_COMPILE, "error", NULL, BL_PHASE_NONE };

static const char *find(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle));
}

/* The first of "error:", "error :", "Error:" (as's), "fatal error" in the line. */
static const char *find_error(const char *s, size_t n)
{
	const char *best = NULL;
	static const char *const words[] = { "error:", "error :", "Error: ", "nvcc fatal", NULL };

	for (size_t i = 0; words[i]; i++) {
		const char *p = find(s, n, words[i]);

		if (p && (!best || p < best))
			best = p;
	}
	return best;
}

static const char *find_warning(const char *s, size_t n)
{
	const char *best = NULL;
	static const char *const words[] = { "warning:", "warning :", "Warning:", "CMake Warning", NULL };

	for (size_t i = 0; words[i]; i++) {
		const char *p = find(s, n, words[i]);

		if (p && (!best || p < best))
			best = p;
	}
	return best;
}

const struct bl_rule *blclass_line(const char *s, size_t n)
{
	const char *w, *e;

	/* Nothing in the table is shorter than this, and most of a log is status lines. */
	if (n < 6)
		return NULL;
	if (n > 8 && s[0] == '[' && s[1] >= '0' && s[1] <= '9') {
		/* "[12/345] Building CXX object ...": ninja's status line. */
		const char *sl = memchr(s, ']', n < 32 ? n : 32);

		if (sl && memchr(s, '/', (size_t)(sl - s)))
			return NULL;
	}
	{
		/* gcc's quoted source: "  143 | #error ..." and "      |  ^~~~~". */
		size_t i = 0;

		while (i < n && s[i] == ' ')
			i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i + 1 < n && s[i] == ' ' && s[i + 1] == '|' && i >= 2)
			return NULL;
		if (i < n && s[i] == '|' && i >= 2)
			return NULL;
	}
	w = find_warning(s, n);
	e = find_error(s, n);
	/* "x.cpp:1:2: warning: ... error ..." is a warning, whatever it quotes. */
	if (w && (!e || w < e)) {
		/* A warning turned into an error reads "error: ... [-Werror=...]", not this. */
		return &rule_warning;
	}
	for (const struct bl_rule *r = rules; r->needle; r++) {
		if (!find(s, n, r->needle))
			continue;
		if (r->also && !find(s, n, r->also))
			continue;
		return r;
	}
	if (e)
		return &rule_error;
	return NULL;
}

static const struct {
	const char *key, *title, *fix;
} causes[BL_NCAUSES] = {
	[BL_CAUSE_NONE] = { "none", "no failure", "" },
	[BL_CAUSE_OOM] = { "oom", "the compiler or linker ran out of memory (killed by the OOM killer or an allocation failed)",
			   "fewer parallel jobs: MAX_JOBS=N before setup.py/pip (or ninja -jN)" },
	[BL_CAUSE_NVCC_ARCH] = { "nvcc-arch", "nvcc does not know a GPU architecture it was asked for",
				 "TORCH_CUDA_ARCH_LIST with only the architectures this nvcc compiles "
				 "(nvcc --list-gpu-arch; ptinspect preflight checks it), then a fresh build/" },
	[BL_CAUSE_HOST_COMPILER] = { "host-compiler", "nvcc refuses the host compiler (a version newer than this CUDA supports)",
				     "a supported host compiler for nvcc: CUDAHOSTCXX=/usr/bin/g++-N (or CC/CXX) "
				     "of a version this CUDA takes, then a fresh build/" },
	[BL_CAUSE_NVCC_OPTION] = { "nvcc-option", "nvcc was given an option it does not know",
				   "remove the option from NVCC_FLAGS/TORCH_NVCC_FLAGS/CMAKE_CUDA_FLAGS, or use an "
				   "nvcc that has it (-Xcompiler OPT passes a host compiler option through)" },
	[BL_CAUSE_HEADER] = { "missing-header", "a header is not found",
			      "find which -I dir should hold it: a package's -dev, a submodule, or a "
			      "generated header whose step did not run" },
	[BL_CAUSE_HEADER_SUBMODULE] = { "missing-header-submodule", "a header of a git submodule (third_party/) is missing",
					"git submodule sync && git submodule update --init --recursive" },
	[BL_CAUSE_HEADER_PACKAGE] = { "missing-header-package", "a header of a system package is missing",
				      "install the package's development files (below)" },
	[BL_CAUSE_UNDEFINED] = { "undefined-reference", "the linker found no definition of a symbol",
				 "link the library that defines it; a std::string/std::list in the name that a "
				 "library defines with the other C++ ABI is a _GLIBCXX_USE_CXX11_ABI mismatch" },
	[BL_CAUSE_LINK_LIB] = { "missing-library", "the linker cannot find a library",
				"install the library's -dev package or point CMake at it (CMAKE_PREFIX_PATH, LIBRARY_PATH)" },
	[BL_CAUSE_RELOCATION] = { "relocation", "the linked program or library is too large for its code model (relocation truncated to fit)",
				  "device code too large: fewer architectures in TORCH_CUDA_ARCH_LIST (each adds SASS to "
				  "the same library), or a build for this machine's GPU only; a static object over 2 GiB: "
				  "allocate it at run time (or -mcmodel=medium for that code)" },
	[BL_CAUSE_NO_SPACE] = { "no-space", "the disk is full", "free space where build/ and TMPDIR are (df -h), or point TMPDIR elsewhere" },
	[BL_CAUSE_ICE] = { "ice", "the compiler crashed (internal compiler error)",
			   "another compiler version, fewer jobs if memory was short, or -O1 for that file; "
			   "report it to the compiler with the preprocessed source" },
	[BL_CAUSE_CMAKE_VERSION] = { "cmake-version", "cmake is older than the project requires",
				     "a newer cmake: pip install cmake (or the distribution's backports)" },
	[BL_CAUSE_CMAKE_PACKAGE] = { "cmake-package", "CMake did not find a package the configuration needs",
				     "install it (its -dev package) or set its _DIR/_ROOT or CMAKE_PREFIX_PATH; or turn the "
				     "option that wants it off (USE_X=0)" },
	[BL_CAUSE_CMAKE_ERROR] = { "cmake-error", "CMake's configure step failed",
				   "read the CMake Error block below; remove build/CMakeCache.txt after changing the environment" },
	[BL_CAUSE_INSTALL] = { "install", "the install step failed (cmake_install.cmake)",
			       "the destination must be a writable directory (CMAKE_INSTALL_PREFIX, --prefix; a file "
			       "in its way) and the files to install must exist: the CMake Error below names it" },
	[BL_CAUSE_PYTHON] = { "python", "a Python exception in the build's Python code (setup.py, torchgen)",
			      "the exception below; a missing module is a pip install (pyyaml, typing_extensions, ...)" },
	[BL_CAUSE_NINJA] = { "ninja", "ninja itself failed (build.ninja, a missing input)",
			     "a missing input with no rule is a deleted file or a stale build/: re-run the configure" },
	[BL_CAUSE_COMPILE] = { "compile-error", "the compiler rejected the code", "the first error below; later ones often follow from it" },
	[BL_CAUSE_NINJA_STOPPED] = { "ninja-stopped", "ninja stopped after a failed command whose output is not in the log",
				     "the full log (pip install -v, not -q) shows the failed edge" },
	[BL_CAUSE_UNKNOWN] = { "unknown", "the build failed; the cause is not one ptinspect knows",
			       "the first error below" },
};

const char *blclass_cause_key(enum bl_cause c)
{
	return c < BL_NCAUSES ? causes[c].key : "unknown";
}

const char *blclass_cause_title(enum bl_cause c)
{
	return c < BL_NCAUSES ? causes[c].title : "";
}

const char *blclass_cause_fix(enum bl_cause c)
{
	return c < BL_NCAUSES ? causes[c].fix : "";
}

const char *blclass_phase_key(enum bl_phase p)
{
	static const char *const k[] = { "none", "setup", "configure", "compile", "link", "install" };

	return p <= BL_PHASE_INSTALL ? k[p] : "none";
}

const char *blclass_phase_title(enum bl_phase p)
{
	static const char *const t[] = { "none", "setup.py/pip", "CMake configure", "ninja compile", "link", "install" };

	return p <= BL_PHASE_INSTALL ? t[p] : "none";
}

const char *blclass_warning_kind(const char *s, size_t n, size_t *len)
{
	const char *p;

	if (find(s, n, "CMake Warning")) {
		*len = 5;
		return "cmake";
	}
	if (find(s, n, "nvcc warning")) {
		*len = 4;
		return "nvcc";
	}
	/* gcc/clang: "... [-Wunused-variable]" at the end (clang may add ",-Wfoo"). */
	while (n && s[n - 1] == ' ')
		n--;
	if (n > 4 && s[n - 1] == ']' && (p = memrchr(s, '[', n - 1)) && p[1] == '-' && p[2] == 'W') {
		const char *q = p + 1, *end = s + n - 1;
		const char *comma = memchr(q, ',', (size_t)(end - q));

		if (comma)
			end = comma;
		*len = (size_t)(end - q);
		return q;
	}
	*len = 5;
	return "other";
}
