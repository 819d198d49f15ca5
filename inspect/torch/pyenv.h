/*
 * The torch a Python environment really imports: runs the helper
 * ptinspect-pyenv (pyembed.c, the only code that links libpython) and reads
 * its JSON report. Finding the helper: $PTINSPECT_PYENV, then beside the
 * running executable (/proc/self/exe), then ../libexec/ptools from it, then
 * the configured install libexec directory.
 */
#ifndef PT_PYENV_H
#define PT_PYENV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* The report is a few KB; a torch printing megabytes on import is cut here. */
#define PYENV_MAX_OUTPUT (16u * 1024 * 1024)

/* The default deadline in seconds: the interpreter's start, then the import (each). */
#define PYENV_TIMEOUT_S 60

/* How the helper runs (doctor/env --here, --timeout). */
struct pyenv_probe_opts {
	bool here;		/* the current directory first on sys.path, as `python -c` run here */
	int timeout_s;		/* <= 0: PYENV_TIMEOUT_S */
};

struct pyenv_loaded {
	const char *name;	/* as in the link map ("" for the program) */
	const char *realpath;	/* NULL for objects without a file (linux-vdso) */
	bool by_import;		/* not loaded before "import torch" */
};

struct pyenv_candidate {
	const char *dir;	/* a sys.path entry holding torch/__init__.py */
	const char *kind;	/* "source tree", "pip wheel", "debian package", "directory" */
};

/* Strings point into doc and live as long as the report. */
struct pyenv_report {
	json_t *doc;		/* the helper's JSON, owned */
	const char *python;	/* as asked */
	const char *mode;	/* "embedded" or "child" */
	bool here;		/* --here: the current directory was first on sys.path */
	/*
	 * The current directory was kept off sys.path where `python -c` has it
	 * first (the default): sys_path lacks the "" a run here would have.
	 */
	bool cwd_dropped;
	/*
	 * No complete report: the helper was killed at the deadline (timed_out)
	 * or died; the facts are those found before the import, torch_ok is
	 * false and import_error says what happened.
	 */
	bool partial;
	bool timed_out;
	int timeout_s;		/* the deadline that applied */
	const char *hang_stack;	/* the Python stacks dumped at the deadline, or NULL */
	const char *hang_where;	/* its innermost frame of the signalled thread, or NULL */
	const char *executable;	/* sys.executable seen inside */
	const char *python_version;
	bool torch_ok;
	const char *import_error;
	const char *torch_file;
	const char *torch_version;
	const char *git_version;
	int debug;		/* torch.version.debug: 0, 1, or -1 unknown */
	const char *cuda;	/* torch.version.cuda, NULL for CPU builds */
	const char *hip;
	int cxx11_abi;		/* -1 unknown */
	const char *config_text;
	struct pyenv_candidate *cands;
	size_t n_cands;
	struct pyenv_loaded *loaded;
	size_t n_loaded;
	/* The interpreter's view before the import (for the diagnosis of a failed import). */
	const char **sys_path;	/* as `PYTHON -c` computes it ("" = the current directory) */
	size_t n_sys_path;
	const char **site_dirs;	/* site.getsitepackages() + the user site */
	size_t n_site_dirs;
	const char **ext_suffixes;	/* importlib.machinery.EXTENSION_SUFFIXES */
	size_t n_ext_suffixes;
	const char *cwd;
	const char *torch_spec;	/* importlib.util.find_spec('torch').origin, or NULL */
	const char *ld_library_path;	/* the interpreter's LD_LIBRARY_PATH, or NULL */
	const char *python_version_full;	/* sys.version */
	const char *python_platform;	/* platform.platform() */
	const char *libc_ver;	/* platform.libc_ver(), "glibc-2.36" */
	const char *import_stderr;
	int python_bits;	/* sys.maxsize.bit_length() + 1, 0 unknown */
	int cuda_available;	/* torch.cuda.is_available(): 0, 1, -1 unknown */
	int xnnpack;		/* torch.backends.xnnpack.enabled: 0, 1, -1 unknown */
	long cudnn_version;	/* torch.backends.cudnn.version(), -1 none/unknown */
	/* Installed distributions whose names collect_env looks for: name, version. */
	const char **dist_name, **dist_version;
	size_t n_dists;
};

/*
 * Locate the helper; returns a new string or NULL. argv0 is a fallback when
 * /proc/self/exe is unreadable.
 */
char *pyenv_find_helper(const char *argv0);

/*
 * Run the helper on python (o NULL: the defaults) under the deadline
 * (childwait.h: the interpreter's start gets timeout_s, the import another
 * timeout_s) and fill *r. Returns 0 (torch may still have failed to import:
 * r->torch_ok; r->partial when the import was killed or died), or -1 when no
 * report came back (no helper, the interpreter cannot run or did not get to
 * the import): PT_SEV_ERROR in diag.
 */
int pyenv_probe(const char *python, const char *argv0, const struct pyenv_probe_opts *o,
		struct pyenv_report *r, struct pt_diag *diag);

/*
 * Fill *r from the part of the helper's output before the import (the
 * PRE document), for a helper that never finished; what says what happened
 * ("import torch did not finish in 60 s: killed"). Returns 0, or -1 (no
 * PRE document).
 */
int pyenv_parse_partial(const char *out, size_t len, const char *python, const char *what,
			struct pyenv_report *r, struct pt_diag *diag);

/*
 * From a faulthandler dump (bytes, any), the innermost frame of the thread
 * that took the signal ("Current thread"), else of the first thread:
 * `File "/x/torch/__init__.py", line 1 in <module>`. New string or NULL.
 */
char *pyenv_stack_where(const char *dump, size_t len);

/* Fill *r from the helper's output text (the part after the marker line is used). */
int pyenv_parse(const char *out, size_t len, const char *python, struct pyenv_report *r,
		struct pt_diag *diag);

void pyenv_report_release(struct pyenv_report *r);

/*
 * Run argv (argv[0] a path) with stdout into *out (capped by its max; NULL:
 * discarded), stderr kept or, with quiet, sent to /dev/null. Returns the wait
 * status, or -1 if it could not start.
 */
struct pt_strbuf;
int pyenv_run_capture(char *const argv[], struct pt_strbuf *out, int quiet);

/* A regular file this process may execute. */
bool pyenv_executable(const char *p);

/* a and b are the same file (after realpath). */
bool pyenv_same_file(const char *a, const char *b);

/* The first "python3" on PATH, or NULL (new string). */
char *pyenv_default_python(void);

/* name as given when it holds a '/', else the first executable of that name on PATH; NULL if none. */
char *pyenv_which(const char *name);

/*
 * Interpreters on this machine that can import torch (`PYTHON -c 'import
 * torch'` in a child exits 0 within timeout_s, <= 0: PYENV_TIMEOUT_S;
 * finding a package is not enough), with the current directory kept off
 * sys.path: /usr/bin/python3, /usr/local/bin/python3 and every python3 on
 * PATH, other than skip; each file is tried once. Returns the count; *out is
 * an array of new strings.
 */
size_t pyenv_find_torch_pythons(const char *skip, int timeout_s, char ***out);

/*
 * The `-c` program of that check: takes the current directory off sys.path
 * (where the interpreter put it first) before `import torch`.
 */
extern const char PYENV_SAFE_IMPORT[];

#endif
