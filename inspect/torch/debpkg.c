/* Debian package ownership through dpkg-query; see debpkg.h. */
#include "debpkg.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pyenv.h"
#include "strbuf.h"
#include "xalloc.h"

#define DPKG_QUERY "/usr/bin/dpkg-query"

size_t debpkg_parse_search(const char *buf, size_t len, struct debpkg_owner **out)
{
	size_t pos = 0, n = 0, alloc = 0;

	*out = NULL;
	while (pos < len) {
		const char *l = buf + pos, *nl = memchr(l, '\n', len - pos), *sep;
		size_t ll = nl ? (size_t)(nl - l) : len - pos;

		pos += ll + 1;
		/* "pkg, pkg2: /path": the separator is the first ": /". */
		sep = ll >= 3 ? memmem(l, ll, ": /", 3) : NULL;
		/* buf is not NUL-terminated: compare within the line (strncmp read past it). */
		if (!sep || memchr(l, '\0', ll) || (ll >= 10 && !memcmp(l, "diversion ", 10)))
			continue;
		for (const char *p = l; p < sep;) {
			const char *c = memchr(p, ',', (size_t)(sep - p)), *e = c ? c : sep;
			const char *s = p;

			while (s < e && *s == ' ')
				s++;
			if (e > s) {
				PT_GROW(*out, n, alloc);
				(*out)[n].package = pt_xstrndup(s, (size_t)(e - s));
				(*out)[n].path = pt_xstrndup(sep + 2, ll - (size_t)(sep + 2 - l));
				n++;
			}
			p = c ? c + 1 : sep;
		}
	}
	return n;
}

static int query(char **argv_tail, size_t n_tail, struct pt_strbuf *out)
{
	const char *admin = getenv("PTINSPECT_DPKG_ADMINDIR");
	char *argv[8], *adm = NULL;
	size_t k = 0;
	int st;

	if (access(DPKG_QUERY, X_OK) != 0)
		return -1;
	argv[k++] = (char *)DPKG_QUERY;
	if (admin && *admin)
		argv[k++] = adm = pt_xasprintf("--admindir=%s", admin);
	for (size_t i = 0; i < n_tail && k < 7; i++)
		argv[k++] = argv_tail[i];
	argv[k] = NULL;
	st = pyenv_run_capture(argv, out, 1);
	free(adm);
	return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

size_t debpkg_owners(const char *name, struct debpkg_owner **out)
{
	struct pt_strbuf sb;
	char *pat = pt_xasprintf("*/%s", name);
	size_t n = 0;

	*out = NULL;
	pt_strbuf_init(&sb, DEBPKG_MAX_OUTPUT);
	if (query((char *[]){ (char *)"-S", pat }, 2, &sb) == 0)
		n = debpkg_parse_search(pt_strbuf_str(&sb), sb.len, out);
	pt_strbuf_release(&sb);
	free(pat);
	return n;
}

int debpkg_installed(const char *pkg)
{
	struct pt_strbuf sb;
	int rc;

	pt_strbuf_init(&sb, 4096);
	rc = query((char *[]){ (char *)"-W", (char *)"-f=${db:Status-Abbrev}", (char *)pkg }, 3, &sb);
	if (rc >= 0)
		rc = rc == 0 && sb.len >= 2 && !strncmp(pt_strbuf_str(&sb), "ii", 2);
	pt_strbuf_release(&sb);
	return rc;
}

void debpkg_owners_free(struct debpkg_owner *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].package);
		free(v[i].path);
	}
	free(v);
}
