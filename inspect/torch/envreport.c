/*
 * The torch a Python sees, with the cross-checks: what `ptinspect env` and
 * `doctor` report; see envreport.h.
 */
#include "envreport.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

void env_result_release(struct env_result *e)
{
	pyenv_report_release(&e->rep);
	if (e->have_cfg)
		showconfig_release(&e->cfg);
	pt_diag_release(&e->findings);
	importdiag_here_release(&e->here);
	for (size_t i = 0; i < e->n_others; i++)
		free(e->others[i]);
	free(e->others);
	free(e->python);
	free(e->why);
	memset(e, 0, sizeof(*e));
}

int env_pick(const char *python, int fallback, const char *argv0,
	     const struct pyenv_probe_opts *po, struct env_result *e, struct pt_diag *d)
{
	int timeout_s = po ? po->timeout_s : 0;
	int rc;

	/* --here is about one interpreter: the one python names here. */
	if (po && po->here)
		fallback = 0;
	memset(e, 0, sizeof(*e));
	pt_diag_init(&e->findings);
	if (python) {
		/* --python python3.11 means the one on PATH, as a shell would run it. */
		if (!(e->python = pyenv_which(python))) {
			pt_diag_add(d, PT_SEV_ERROR, python, NULL, "not found on PATH");
			return -1;
		}
	} else if (!(e->python = pyenv_default_python())) {
		e->n_others = pyenv_find_torch_pythons(NULL, timeout_s, &e->others);
		if (!fallback || !e->n_others) {
			pt_diag_add(d, PT_SEV_ERROR, NULL, NULL, "no python3 on PATH (use --python PATH)");
			return -1;
		}
		e->python = pt_xstrdup(e->others[0]);
		e->fell_back = true;
		e->why = pt_xasprintf("no python3 on PATH; using %s, the first interpreter that can "
				      "import torch", e->python);
	} else {
		e->why = pt_xasprintf("%s, the python3 first on PATH", e->python);
	}
	rc = pyenv_probe(e->python, argv0, po, &e->rep, d);
	if (rc == 0 && !e->rep.torch_ok) {
		/* Name the interpreters that can, e.g. Debian's /usr/bin/python3. */
		if (!e->others)
			e->n_others = pyenv_find_torch_pythons(e->python, timeout_s, &e->others);
		/* --python X means X: the fallback is only for the default interpreter. */
		if (fallback && !python && e->n_others && strcmp(e->others[0], e->python)) {
			free(e->why);
			e->why = pt_xasprintf("%s, the python3 first on PATH, cannot import torch (%s); "
					      "using %s instead, the first interpreter that can",
					      e->python, e->rep.import_error ? e->rep.import_error : "?",
					      e->others[0]);
			e->fell_back = true;
			pyenv_report_release(&e->rep);
			free(e->python);
			e->python = pt_xstrdup(e->others[0]);
			rc = pyenv_probe(e->python, argv0, po, &e->rep, d);
		}
	}
	return rc < 0 ? -1 : 0;
}

int env_collect(const char *python, const char *expect, int fallback, const char *argv0,
		const struct pyenv_probe_opts *po, struct env_result *e, struct pt_diag *d)
{
	struct envcheck_opts o = { .expect_dir = expect };
	char cwd[4096];

	if (env_pick(python, fallback, argv0, po, e, d) < 0)
		return -1;
	if (e->rep.config_text) {
		struct pt_diag cd;

		/* Notes about odd config lines stay out of the environment's findings. */
		pt_diag_init(&cd);
		if (showconfig_parse((const uint8_t *)e->rep.config_text, strlen(e->rep.config_text),
				     &e->cfg, "torch.__config__.show()", &cd) == 0)
			e->have_cfg = true;
		pt_diag_release(&cd);
	}
	/* Found by reading files: the cwd's torch was kept off sys.path and never run. */
	if (importdiag_here(&e->rep, &e->here))
		pt_diag_add(&e->findings, PT_SEV_WARNING, e->python, "here", "%s", e->here.text);
	else if (!expect && getcwd(cwd, sizeof(cwd)) && envcheck_is_source_tree(cwd))
		o.build_tree = cwd;
	envcheck_run(&e->rep, e->have_cfg ? &e->cfg : NULL, &o, &e->findings);
	if (e->rep.torch_ok) {
		e->have_deps = envcheck_deps(&e->rep, &e->deps, &e->findings) == 0;
		envcheck_fatbin(&e->rep, e->have_cfg ? &e->cfg : NULL, &e->findings);
	}
	return 0;
}
