/* `ptinspect PACKAGE`: read, render, exit code (cmd_package.h). */
#include "cmd_package.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmp.h"
#include "jsonout.h"
#include "package.h"
#include "pkgcache.h"
#include "report_elf.h"
#include "report_package.h"
#include "term.h"
#include "xalloc.h"

bool package_cli_applies(const char *path)
{
	struct stat st;

	return package_is_package(path, stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

static bool is_archive_name(const char *n)
{
	return package_is_package(n, false);
}

/* A dist/ folder: the packages at its top, when it holds no unpacked one. */
static size_t dist_folder(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, a = 0;
	bool unpacked = false;

	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if ((l > 10 && !strcmp(de->d_name + l - 10, ".dist-info")) || !strcmp(de->d_name, "info"))
			unpacked = true;
		else if (is_archive_name(de->d_name)) {
			PT_GROW(v, n, a);
			v[n++] = pt_xstrdup(de->d_name);
		}
	}
	if (d)
		closedir(d);
	if (unpacked || !n) {
		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return 0;
	}
	qsort(v, n, sizeof(*v), pt_cmp_strp);
	*out = v;
	return n;
}

static int one(const char *path, const struct package_cli *pc, struct pt_cli *ctx, json_t *files,
	       json_t *problems)
{
	struct pkg_opts po = { .env = pc->env, .tag = pc->tag, .against = pc->against,
			       .no_cache = pc->no_cache };
	struct report_package_opts ro = {
		.details = pc->details, .gpus = pc->gpus, .gpu_args = pc->gpu_args, .n_gpus = pc->n_gpus,
	};
	struct package p;
	struct pt_diag diag;
	int rc, read;

	pt_diag_init(&diag);
	read = pkgcache_package_read(path, &po, &p, &diag);
	if (ctx->json) {
		json_t *fj = json_object(), *pj = report_problems_json(&diag);

		json_object_set_new(fj, "file", pt_json_str(path));
		json_object_set_new(fj, "package", report_package_json(&p, &ro));
		/* only where the facts cache was asked: a hit read no member */
		if (p.cache == PKGCACHE_HIT || p.cache == PKGCACHE_MISS)
			json_object_set_new(fj, "cache", pt_json_str(pkgcache_state_name(p.cache)));
		json_object_set(fj, "problems", pj);
		json_array_append_new(files, fj);
		json_array_extend(problems, pj);
		json_decref(pj);
	} else if (read == 0 || p.n_members) {
		report_package_text(stdout, &p, &ro, PT_CLI_STYLE(ctx));
		fflush(stdout);
	}
	pt_diag_print(&diag, stderr, ctx->prog, ctx->color_err);
	rc = read != 0 || pt_diag_count(&diag, PT_SEV_ERROR) ? EXIT_USAGE
	     : pt_diag_count(&diag, PT_SEV_WARNING) || report_package_unrunnable(&p, &ro) ||
	       p.n_against_missing ? EXIT_PROBLEMS
	     : EXIT_FINE;
	pt_diag_release(&diag);
	package_release(&p);
	return rc;
}

int package_cli_one(const char *path, const struct package_cli *pc, struct pt_cli *ctx,
		    json_t *files, json_t *problems)
{
	char **v = NULL;
	size_t n = 0;
	struct stat st;
	int rc = EXIT_FINE;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		n = dist_folder(path, &v);
	if (!n)
		return one(path, pc, ctx, files, problems);
	for (size_t i = 0; i < n; i++) {
		char *full = pt_xasprintf("%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", v[i]);
		int r = one(full, pc, ctx, files, problems);

		if (r > rc)
			rc = r;
		if (!ctx->json && i + 1 < n)
			putchar('\n');
		free(full);
		free(v[i]);
	}
	free(v);
	return rc;
}
