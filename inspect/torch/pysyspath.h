/*
 * Which torch package an interpreter would import, found without running
 * torch: its sys.path (as the interpreter computed it: site-packages, .pth
 * files, PYTHONPATH, the current directory first for `python -c`) walked as
 * importlib's PathFinder does, then the PEP 660 editable finders that
 * setuptools appends to sys.meta_path (`__editable__.*.pth` importing
 * `__editable___*_finder.py`, whose MAPPING names the package directory).
 * Legacy develop installs (`torch.egg-link` plus a path line in
 * easy-install.pth) are sys.path entries; the .pth or .egg-link that put an
 * entry there is named. No Python runs here: files are read.
 */
#ifndef PT_PYSYSPATH_H
#define PT_PYSYSPATH_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* .pth and finder files are small; larger ones are refused. */
#define PYSYSPATH_MAX_FILE (1024u * 1024)

enum pysyspath_how {
	PYSYSPATH_NONE,		/* no torch package anywhere */
	PYSYSPATH_CWD,		/* sys.path[0]: the current directory (`python -c`) */
	PYSYSPATH_PTH,		/* an entry a .pth file added (a legacy develop install) */
	PYSYSPATH_SITE,		/* a site-packages directory itself */
	PYSYSPATH_PATH,		/* another sys.path entry (PYTHONPATH, the stdlib ...) */
	PYSYSPATH_EDITABLE,	/* a PEP 660 editable finder's MAPPING */
};

struct pysyspath_torch {
	enum pysyspath_how how;
	char *pkg_dir;		/* .../torch */
	char *entry;		/* the sys.path entry (absolute), or NULL (editable finder) */
	size_t index;		/* its position in sys.path */
	char *evidence;		/* the .pth / .egg-link / finder file, or NULL */
	bool source_checkout;	/* the directory above pkg_dir is a PyTorch checkout */
	char *ext;		/* torch/_C<suffix> that exists, first suffix first; or NULL */
};

/*
 * Locate torch. sys_path as the interpreter has it ("" = cwd), site_dirs
 * where .pth and editable finders live, ext_suffixes in the interpreter's
 * order. Returns 0 when a package was found (*t filled), 1 when none was
 * (t->how == PYSYSPATH_NONE). Unreadable files are notes in diag.
 */
int pysyspath_locate(const char *const *sys_path, size_t n_path, const char *cwd,
		     const char *const *site_dirs, size_t n_site, const char *const *ext_suffixes,
		     size_t n_suffixes, struct pysyspath_torch *t, struct pt_diag *diag);

void pysyspath_torch_release(struct pysyspath_torch *t);

/* "the current directory (sys.path[0])", "a .pth file", ... */
const char *pysyspath_how_text(enum pysyspath_how h);

/*
 * Parsers (bytes and a length, nothing trusted):
 * - pysyspath_pth_paths: the directory lines of a .pth file (site.py's
 *   rules: '#' comments and blank lines skipped, lines starting with
 *   "import " or "import\t" are code, not paths; trailing whitespace
 *   stripped), each joined to sitedir when relative. Returns the count, *out
 *   new strings.
 * - pysyspath_pth_imports: the module names a .pth line imports
 *   ("import a; a.install()" -> "a"). Returns the count.
 * - pysyspath_finder_mapping: in a setuptools editable finder's source, the
 *   value of key in `MAPPING ... = {'key': 'path', ...}` (single or double
 *   quoted literals, backslash escapes kept literal). New string or NULL.
 * - pysyspath_egg_link: the first line of a .egg-link file. New string or NULL.
 */
size_t pysyspath_pth_paths(const char *buf, size_t len, const char *sitedir, char ***out);
size_t pysyspath_pth_imports(const char *buf, size_t len, char ***out);
char *pysyspath_finder_mapping(const char *buf, size_t len, const char *key);
char *pysyspath_egg_link(const char *buf, size_t len);

#endif
