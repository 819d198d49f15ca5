/* Locating the torch package an interpreter imports; see pysyspath.h. */
#include "pysyspath.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

const char *pysyspath_how_text(enum pysyspath_how h)
{
	switch (h) {
	case PYSYSPATH_CWD: return "the current directory";
	case PYSYSPATH_PTH: return "a directory a .pth file puts on sys.path";
	case PYSYSPATH_SITE: return "site-packages";
	case PYSYSPATH_PATH: return "a sys.path entry";
	case PYSYSPATH_EDITABLE: return "an editable install (PEP 660 finder)";
	case PYSYSPATH_NONE: break;
	}
	return "nowhere";
}

/* One line of buf at *pos (without the newline); false at the end. */
static bool next_line(const char *buf, size_t len, size_t *pos, const char **l, size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*l = buf + *pos;
	nl = memchr(*l, '\n', len - *pos);
	*n = nl ? (size_t)(nl - *l) : len - *pos;
	*pos += *n + 1;
	return true;
}

static void push(char ***v, size_t *n, size_t *alloc, char *s)
{
	PT_GROW(*v, *n, *alloc);
	(*v)[(*n)++] = s;
}

size_t pysyspath_pth_paths(const char *buf, size_t len, const char *sitedir, char ***out)
{
	size_t pos = 0, n = 0, alloc = 0, ll;
	const char *l;

	*out = NULL;
	while (next_line(buf, len, &pos, &l, &ll)) {
		while (ll && isspace((unsigned char)l[ll - 1]))
			ll--;
		if (!ll || l[0] == '#' || memchr(l, '\0', ll))
			continue;
		if (ll > 6 && !strncmp(l, "import", 6) && (l[6] == ' ' || l[6] == '\t'))
			continue;
		if (l[0] == '/')
			push(out, &n, &alloc, pt_xstrndup(l, ll));
		else
			push(out, &n, &alloc, pt_xasprintf("%s/%.*s", sitedir, (int)ll, l));
	}
	return n;
}

size_t pysyspath_pth_imports(const char *buf, size_t len, char ***out)
{
	size_t pos = 0, n = 0, alloc = 0, ll;
	const char *l;

	*out = NULL;
	while (next_line(buf, len, &pos, &l, &ll)) {
		size_t i = 6, s;

		if (ll <= 6 || strncmp(l, "import", 6) || (l[6] != ' ' && l[6] != '\t'))
			continue;
		while (i < ll && (l[i] == ' ' || l[i] == '\t'))
			i++;
		s = i;
		while (i < ll && (isalnum((unsigned char)l[i]) || l[i] == '_' || l[i] == '.'))
			i++;
		if (i > s)
			push(out, &n, &alloc, pt_xstrndup(l + s, i - s));
	}
	return n;
}

/* A quoted literal at buf[*i] ('...' or "..."); advances *i past it. */
static char *quoted(const char *buf, size_t len, size_t *i)
{
	char q = buf[*i];
	size_t s = *i + 1, k = s;

	while (k < len && buf[k] != q && buf[k] != '\n') {
		if (buf[k] == '\\' && k + 1 < len)
			k++;
		k++;
	}
	if (k >= len || buf[k] != q)
		return NULL;
	*i = k + 1;
	return pt_xstrndup(buf + s, k - s);
}

static void skip_space(const char *buf, size_t len, size_t *i)
{
	while (*i < len && isspace((unsigned char)buf[*i]))
		(*i)++;
}

char *pysyspath_finder_mapping(const char *buf, size_t len, const char *key)
{
	static const char word[] = "MAPPING";
	const char *m = buf;

	while ((m = memmem(m, len - (size_t)(m - buf), word, sizeof(word) - 1))) {
		size_t i = (size_t)(m - buf) + sizeof(word) - 1;

		m++;
		/* MAPPING = {...} or MAPPING: dict[str, str] = {...}; the '=' then '{'. */
		while (i < len && buf[i] != '=' && buf[i] != '\n')
			i++;
		if (i >= len || buf[i] != '=')
			continue;
		i++;
		skip_space(buf, len, &i);
		if (i >= len || buf[i] != '{')
			continue;
		i++;
		for (;;) {
			char *k, *v;

			skip_space(buf, len, &i);
			if (i >= len || (buf[i] != '\'' && buf[i] != '"'))
				break;
			if (!(k = quoted(buf, len, &i)))
				break;
			skip_space(buf, len, &i);
			if (i >= len || buf[i] != ':') {
				free(k);
				break;
			}
			i++;
			skip_space(buf, len, &i);
			v = i < len && (buf[i] == '\'' || buf[i] == '"') ? quoted(buf, len, &i) : NULL;
			if (v && !strcmp(k, key)) {
				free(k);
				return v;
			}
			free(k);
			free(v);
			if (!v)
				break;
			skip_space(buf, len, &i);
			if (i >= len || buf[i] != ',')
				break;
			i++;
		}
	}
	return NULL;
}

char *pysyspath_egg_link(const char *buf, size_t len)
{
	size_t pos = 0, ll;
	const char *l;

	if (!next_line(buf, len, &pos, &l, &ll))
		return NULL;
	while (ll && isspace((unsigned char)l[ll - 1]))
		ll--;
	if (!ll || memchr(l, '\0', ll))
		return NULL;
	return pt_xstrndup(l, ll);
}

/* The whole file, up to PYSYSPATH_MAX_FILE; NULL when unreadable or larger (a note says so). */
static char *slurp(const char *path, size_t *len, struct pt_diag *diag)
{
	uint8_t *buf;

	if (pt_read_regular(path, PYSYSPATH_MAX_FILE, PT_SEV_NOTE, 0, &buf, len, diag) != 0)
		return NULL;
	return (char *)buf;
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/* Files in dir whose names start with pre and end with suf, sorted (site.py sorts .pth). */
static size_t list_dir(const char *dir, const char *pre, const char *suf, char ***out)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	size_t k = 0, alloc = 0, pl = strlen(pre), sl = strlen(suf);

	*out = NULL;
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		const char *nm = ents[i]->d_name;
		size_t l = strlen(nm);

		if (l >= pl + sl && !strncmp(nm, pre, pl) && !strcmp(nm + l - sl, suf))
			push(out, &k, &alloc, pt_xasprintf("%s/%s", dir, nm));
		free(ents[i]);
	}
	free(ents);
	return k;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The .pth (or .egg-link) in a site dir that names entry; new string or NULL. */
static char *who_added(const char *entry, const char *const *site_dirs, size_t n_site,
		       struct pt_diag *diag)
{
	char *found = NULL;

	for (size_t s = 0; s < n_site && !found; s++) {
		char **files;
		size_t nf = list_dir(site_dirs[s], "", ".egg-link", &files);

		for (size_t f = 0; f < nf && !found; f++) {
			size_t len;
			char *buf = slurp(files[f], &len, diag), *p = buf ? pysyspath_egg_link(buf, len) : NULL;

			if (p && same_dir(p, entry))
				found = pt_xstrdup(files[f]);
			free(p);
			free(buf);
		}
		free_strv(files, nf);
		nf = list_dir(site_dirs[s], "", ".pth", &files);
		for (size_t f = 0; f < nf && !found; f++) {
			size_t len, np;
			char *buf = slurp(files[f], &len, diag), **paths;

			if (!buf)
				continue;
			np = pysyspath_pth_paths(buf, len, site_dirs[s], &paths);
			for (size_t k = 0; k < np && !found; k++)
				if (same_dir(paths[k], entry))
					found = pt_xstrdup(files[f]);
			free_strv(paths, np);
			free(buf);
		}
		free_strv(files, nf);
	}
	return found;
}

static bool source_checkout(const char *dir)
{
	char *a = pt_xasprintf("%s/setup.py", dir), *b = pt_xasprintf("%s/c10", dir);
	struct stat st;
	bool r = is_file(a) && stat(b, &st) == 0 && S_ISDIR(st.st_mode);

	free(a);
	free(b);
	return r;
}

static char *find_ext(const char *pkg, const char *const *suffixes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *p = pt_xasprintf("%s/_C%s", pkg, suffixes[i]);

		if (is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* A PEP 660 finder mapping torch, from the __editable__*.pth files of the site dirs. */
static bool editable(const char *const *site_dirs, size_t n_site, struct pysyspath_torch *t,
		     struct pt_diag *diag)
{
	for (size_t s = 0; s < n_site; s++) {
		char **files;
		size_t nf = list_dir(site_dirs[s], "__editable__", ".pth", &files);

		for (size_t f = 0; f < nf; f++) {
			size_t len, ni;
			char *buf = slurp(files[f], &len, diag), **mods;

			if (!buf)
				continue;
			ni = pysyspath_pth_imports(buf, len, &mods);
			free(buf);
			for (size_t m = 0; m < ni; m++) {
				char *src = pt_xasprintf("%s/%s.py", site_dirs[s], mods[m]);
				char *code = slurp(src, &len, diag);
				char *dir = code ? pysyspath_finder_mapping(code, len, "torch") : NULL;

				free(code);
				if (dir) {
					t->how = PYSYSPATH_EDITABLE;
					t->pkg_dir = dir;
					t->evidence = src;
					free_strv(mods, ni);
					free_strv(files, nf);
					return true;
				}
				free(src);
			}
			free_strv(mods, ni);
		}
		free_strv(files, nf);
	}
	return false;
}

int pysyspath_locate(const char *const *sys_path, size_t n_path, const char *cwd,
		     const char *const *site_dirs, size_t n_site, const char *const *ext_suffixes,
		     size_t n_suffixes, struct pysyspath_torch *t, struct pt_diag *diag)
{
	static const char *const dflt[] = { ".so" };

	memset(t, 0, sizeof(*t));
	if (!n_suffixes) {
		ext_suffixes = dflt;
		n_suffixes = 1;
	}
	for (size_t i = 0; i < n_path; i++) {
		char *abs, *init;

		if (!sys_path[i][0] && !cwd)
			continue;
		abs = !sys_path[i][0] ? pt_xstrdup(cwd)
		      : sys_path[i][0] == '/' || !cwd ? pt_xstrdup(sys_path[i])
						      : pt_xasprintf("%s/%s", cwd, sys_path[i]);
		/* A regular package: torch/__init__.py (a namespace directory would lose to it). */
		init = pt_xasprintf("%s/torch/__init__.py", abs);
		if (!is_file(init)) {
			free(init);
			free(abs);
			continue;
		}
		free(init);
		t->entry = abs;
		t->index = i;
		t->pkg_dir = pt_xasprintf("%s/torch", abs);
		if (!sys_path[i][0] || (i == 0 && cwd && same_dir(abs, cwd)))
			t->how = PYSYSPATH_CWD;
		for (size_t s = 0; s < n_site && t->how == PYSYSPATH_NONE; s++)
			if (same_dir(abs, site_dirs[s]))
				t->how = PYSYSPATH_SITE;
		if (t->how == PYSYSPATH_NONE && (t->evidence = who_added(abs, site_dirs, n_site, diag)))
			t->how = PYSYSPATH_PTH;
		if (t->how == PYSYSPATH_NONE)
			t->how = PYSYSPATH_PATH;
		break;
	}
	if (!t->pkg_dir && !editable(site_dirs, n_site, t, diag))
		return 1;
	{
		char *up = pt_xstrdup(t->pkg_dir), *sl = strrchr(up, '/');

		if (sl)
			*sl = '\0';
		t->source_checkout = source_checkout(up);
		free(up);
	}
	t->ext = find_ext(t->pkg_dir, ext_suffixes, n_suffixes);
	return 0;
}

void pysyspath_torch_release(struct pysyspath_torch *t)
{
	free(t->pkg_dir);
	free(t->entry);
	free(t->evidence);
	free(t->ext);
	memset(t, 0, sizeof(*t));
}
