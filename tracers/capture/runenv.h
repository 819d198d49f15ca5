/*
 * The child's environment and what is known about its torch: TORCH_LOGS,
 * TORCH_TRACE, TORCH_SHOW_DISPATCH_TRACE and PYTHONUNBUFFERED set as the
 * options say; the subset of variables that matter to torch, for the run's
 * record; a quick probe of the Python interpreter's torch (its version.py,
 * read without importing torch, which would cost about 2 s); and the
 * warnings when the requested tracing cannot work with that torch.
 */
#ifndef PT_RUNENV_H
#define PT_RUNENV_H

#include "diag.h"

#define RUNENV_DEFAULT_LOGS "graph_breaks,recompiles"

struct runenv_opts {
	const char *logs;	/* TORCH_LOGS; NULL: keep the caller's, else the default */
	int dispatch;		/* TORCH_SHOW_DISPATCH_TRACE=1 */
	const char *trace_dir;	/* TORCH_TRACE=<dir>; NULL: leave TORCH_TRACE alone */
};

/*
 * A new environment: env (NULL-terminated, e.g. environ) with the options
 * applied, PYTHONUNBUFFERED=1 and, unless env sets it, PYTHONFAULTHANDLER=1
 * (a crash prints the Python stack). Caller frees with runenv_free.
 */
char **runenv_build(const struct runenv_opts *o, char *const *env);
void runenv_free(char **env);

/*
 * 1 when the variable is one a run records: TORCH_*, PYTORCH_*, CUDA_*,
 * NCCL_*, LD_LIBRARY_PATH, PYTHONPATH (also PYTHONUNBUFFERED, PYTHONFAULTHANDLER,
 * OMP_NUM_THREADS, LD_PRELOAD).
 * entry is "NAME=value"; *name_len gets the length of NAME.
 */
int runenv_is_recorded(const char *entry, size_t *name_len);

/* Full path of prog searched in PATH of env (prog with a '/' is returned as is); NULL. */
char *runenv_which(const char *prog, char *const *env);

struct torch_probe {
	int found;		/* the interpreter ran and found a torch package */
	int ran;		/* the interpreter ran at all */
	char *version;		/* torch.version.__version__ */
	int debug;		/* torch.version.debug */
	char *dir;		/* the package's directory */
	int major, minor;	/* from version; -1 when unparsable */
};

/*
 * Ask python (with env) where its torch is and what version.py says,
 * without importing torch (~30 ms). 0 with *p filled (p->found 0 when
 * there is no torch), -1 when the interpreter could not be run (diag).
 */
int runenv_probe_python(const char *python, char *const *env, struct torch_probe *p,
			struct pt_diag *diag);
void runenv_probe_release(struct torch_probe *p);

/*
 * The interpreter for a script. asked (--python) is taken as given (searched
 * in PATH without a '/'). Without it: python3 first on PATH when it finds a
 * torch package, else the first of common/pyfind.h's list that does (the
 * list ptinspect doctor tries), else python3 on PATH all the same. Without
 * asked, every interpreter tried is probed (runenv_probe_python); asked is
 * not (probe.ran 0).
 */
struct runenv_pick {
	char *python;		/* the choice (new string), NULL: none found */
	struct torch_probe probe;	/* of python; probe.ran 0: not asked, or it could not be */
	char *passed_over;	/* python3 on PATH when another was chosen instead (new string) */
	int no_default;		/* there is no python3 on PATH */
};

/* 0, or -1 when nothing can run the script (p->python NULL). */
int runenv_pick_python(const char *asked, char *const *env, struct runenv_pick *p);
void runenv_pick_release(struct runenv_pick *p);

/* "1.13.0a0" → 1, 13. Returns 0, or -1 (both set to -1). */
int runenv_parse_version(const char *v, int *major, int *minor);

#endif
