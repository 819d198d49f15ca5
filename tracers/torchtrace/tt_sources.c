/* The files an import stands for (tt_sources.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tt_sources.h"
#include "xalloc.h"

struct tt_seen_dir {
	dev_t dev;
	ino_t ino;
	char *path;
};

static const char *file_type(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	       : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static void collect(struct tt_sources *w, const char *path, int in_dir, struct pt_diag *diag)
{
	enum pt_severity sev = in_dir ? PT_SEV_WARNING : PT_SEV_ERROR;
	struct stat st;
	size_t len = strlen(path);

	if (stat(path, &st) < 0) {
		pt_diag_add(diag, sev, path, NULL, "cannot read: %s%s", strerror(errno),
			    in_dir ? "; skipped" : "");
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **names;
		int k;

		for (size_t i = 0; i < w->ndirs; i++) {
			if (w->dirs[i].dev == st.st_dev && w->dirs[i].ino == st.st_ino) {
				if (!in_dir)
					pt_diag_add(diag, PT_SEV_NOTE, path, NULL,
						    "the same directory as '%s': read once", w->dirs[i].path);
				return;
			}
		}
		PT_GROW(w->dirs, w->ndirs, w->adirs);
		w->dirs[w->ndirs].dev = st.st_dev;
		w->dirs[w->ndirs].ino = st.st_ino;
		w->dirs[w->ndirs++].path = pt_xstrdup(path);
		k = scandir(path, &names, NULL, alphasort);
		if (k < 0)
			pt_diag_add(diag, sev, path, NULL, "cannot read: %s%s", strerror(errno),
				    in_dir ? "; skipped" : "");
		for (int i = 0; i < k; i++) {
			if (names[i]->d_name[0] != '.') {
				char *p = pt_xasprintf("%s/%s", path, names[i]->d_name);

				collect(w, p, 1, diag);
				free(p);
			}
			free(names[i]);
		}
		if (k >= 0)
			free(names);
		return;
	}
	if (in_dir && (len < 4 || strcmp(path + len - 4, ".log")))
		return;
	if (!S_ISREG(st.st_mode)) {
		pt_diag_add(diag, sev, path, NULL, "%s, not a TORCH_TRACE file%s",
			    file_type(st.st_mode), in_dir ? "; skipped" : "");
		return;
	}
	for (size_t i = 0; i < w->n; i++) {
		if (w->v[i].dev == st.st_dev && w->v[i].ino == st.st_ino) {
			pt_diag_add(diag, PT_SEV_NOTE, path, NULL, "the same file as '%s': imported once",
				    w->v[i].src);
			return;
		}
	}
	PT_GROW(w->v, w->n, w->alloc);
	w->v[w->n].src = realpath(path, NULL);
	if (!w->v[w->n].src)
		w->v[w->n].src = pt_xstrdup(path);
	w->v[w->n].dev = st.st_dev;
	w->v[w->n].ino = st.st_ino;
	w->n++;
}

void tt_sources_add(struct tt_sources *s, const char *path, struct pt_diag *diag)
{
	collect(s, path, 0, diag);
}

void tt_sources_release(struct tt_sources *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].src);
	free(s->v);
	for (size_t i = 0; i < s->ndirs; i++)
		free(s->dirs[i].path);
	free(s->dirs);
	memset(s, 0, sizeof(*s));
}
