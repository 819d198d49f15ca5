/*
 * The torch a Python environment imports, collected for `ptinspect env` and
 * `doctor`: probe the interpreter (pyenv.h; falling back to another that can
 * import torch), parse its build configuration (showconfig.h) and run the
 * cross-checks (envcheck.h). Nothing here prints.
 */
#ifndef PT_ENVREPORT_H
#define PT_ENVREPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "envcheck.h"
#include "importdiag.h"
#include "pyenv.h"
#include "showconfig.h"

/* The torch a Python sees, with the cross-checks (env, doctor). */
struct env_result {
	char *python;			/* the interpreter checked */
	struct pyenv_report rep;
	struct showconfig cfg;		/* parsed from rep.config_text */
	bool have_cfg;
	struct pt_diag findings;	/* envcheck_run */
	struct envcheck_deps_summary deps;	/* envcheck_deps on torch's _C */
	bool have_deps;
	char **others;			/* when python cannot import torch: ones that can */
	size_t n_others;
	struct importdiag_here here;	/* a torch in the cwd a run here would import instead */
	/*
	 * How python was chosen when none was named (one line: "X, the python3
	 * first on PATH", or why another one), or NULL (--python).
	 */
	char *why;
	bool fell_back;			/* not the python3 first on PATH: it has no torch, or there is none */
};
/*
 * The interpreter only, probed into e->rep (e->python, e->why, e->others):
 * python NULL: the first python3 on PATH; fallback: when it cannot import
 * torch (or there is none), the first interpreter that can (doctor, config
 * without an argument; never when python was named: --python X means X, nor
 * with --here). Returns 0, or -1 when no report came back (reason in d).
 */
int env_pick(const char *python, int fallback, const char *argv0,
	     const struct pyenv_probe_opts *po, struct env_result *e, struct pt_diag *d);
/*
 * env_pick, then the configuration and the cross-checks. po: --here, --timeout
 * (NULL: the defaults: the current directory off sys.path, 60 s). Returns 0,
 * or -1 when no report came back (reason in d).
 */
int env_collect(const char *python, const char *expect, int fallback, const char *argv0,
		const struct pyenv_probe_opts *po, struct env_result *e, struct pt_diag *d);
void env_result_release(struct env_result *e);

#endif
