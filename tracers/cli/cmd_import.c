/*
 * `pttrace import [--name N] [--into RUN] PATH...`: TORCH_TRACE files or
 * directories from elsewhere (a cluster job's per-rank files) become one run,
 * or join an existing one. Each file is copied into <run dir>/trace/ first:
 * the run directory holds the content, the index is rebuilt from it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jsonout.h"
#include "pttrace.h"
#include "db_json.h"
#include "logs_query.h"
#include "runs.h"
#include "tt_ingest.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: pttrace import [--name NAME] [--into RUN] [--json] PATH...\n"
	"\n"
	"Index TORCH_TRACE files (dedicated_log_torch_trace_*.log) as one run, or\n"
	"add them to RUN. A directory stands for every *.log file below it.\n"
	"The files are copied into the run's directory (trace/).\n"
	"\n"
	"Exit status: 0 fine; 1 damaged lines, md5 mismatches or rank conflicts\n"
	"(all else indexed); 2 usage error or unreadable input.\n";


struct srcfile {
	char *src;	/* absolute */
	char *base;
};

/*
 * path itself when it is a file; the *.log files below it when it is a
 * directory (a job directory also holds stdout, stderr and other files, and
 * TORCH_TRACE files always end in .log).
 */
static void collect(const char *path, struct srcfile **v, size_t *n, size_t *alloc,
		    struct pt_diag *diag, int in_dir)
{
	struct stat st;
	size_t len = strlen(path);

	if (stat(path, &st) < 0) {
		pt_diag_add(diag, PT_SEV_ERROR, path, NULL, "cannot read: %s", strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **names;
		int k = scandir(path, &names, NULL, alphasort);

		for (int i = 0; i < k; i++) {
			if (names[i]->d_name[0] != '.') {
				char *p = pt_xasprintf("%s/%s", path, names[i]->d_name);

				collect(p, v, n, alloc, diag, 1);
				free(p);
			}
			free(names[i]);
		}
		free(names);
		return;
	}
	if (!S_ISREG(st.st_mode) || (in_dir && (len < 4 || strcmp(path + len - 4, ".log"))))
		return;
	PT_GROW(*v, *n, *alloc);
	(*v)[*n].src = realpath(path, NULL);
	if (!(*v)[*n].src)
		(*v)[*n].src = pt_xstrdup(path);
	(*v)[*n].base = pt_xstrdup(strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	(*n)++;
}

int cmd_import(int argc, char **argv, struct pt_cli *ctx)
{
	const char *name = NULL, *into = NULL;
	struct srcfile *files = NULL;
	size_t nfiles = 0, alloc = 0;
	struct pt_diag diag;
	struct db *ix = NULL;
	int64_t run_id = 0;
	struct tt_ingest_totals tot = {0};
	int i, rc = EXIT_USAGE;
	uint64_t t0 = pt_now_ns();

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--name") && i + 1 < argc)
			name = argv[++i];
		else if (!strcmp(argv[i], "--into") && i + 1 < argc)
			into = argv[++i];
		else if (!strcmp(argv[i], "--json"))
			ctx->json = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return EXIT_FINE;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			pt_cli_bad_option(ctx, argv[i]);
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		}
	}
	if (i >= argc || (name && into)) {
		fputs(i >= argc ? "pttrace import: no PATH given\n" : "pttrace import: --name and --into exclude each other\n", stderr);
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&diag);
	for (; i < argc; i++)
		collect(argv[i], &files, &nfiles, &alloc, &diag, 0);
	if (pt_diag_count(&diag, PT_SEV_ERROR))
		goto out;
	if (pt_cmd_open(ctx, NULL, &ix, NULL, &diag) < 0)
		goto out_nodiag;
	if (into) {
		if (runs_resolve(ix, into, &run_id) < 0)
			goto out;
	} else {
		char cwd[PATH_MAX];
		char host[256] = "";
		struct run_info ri = {0};
		time_t t = time(NULL);
		struct tm tm;

		ri.name = name;
		ri.source = "import";
		ri.argv = argv;
		ri.argc = argc;
		ri.cwd = getcwd(cwd, sizeof(cwd));
		gethostname(host, sizeof(host) - 1);
		ri.host = host;
		ri.trace = 1;
		ri.started_us = pt_wall_us();
		ri.tz_offset_s = localtime_r(&t, &tm) ? tm.tm_gmtoff : 0;
		if (runs_create(ix, &ri, &run_id) < 0)
			goto out;
	}
	{
		/* All files at once: parsed on all cores, written in this order. */
		const char **srcs = pt_xcalloc(nfiles + 1, sizeof(*srcs));
		int irc;

		for (size_t k = 0; k < nfiles; k++)
			srcs[k] = files[k].src;
		irc = tt_import_files(ix, run_id, srcs, nfiles, isatty(2), &diag, &tot);
		free(srcs);
		if (irc < 0)
			goto out;
	}
	if (tt_mark_indexed(ix, run_id) < 0)
		goto out;
	if (!into && runs_finish(ix, run_id, RUN_EXITED, 0, pt_wall_us(), 0, 0) < 0)
		goto out;
	{
		double s = (double)(pt_now_ns() - t0) / 1e9;

		if (ctx->json) {
			json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:{s:f, s:f, s:f}}",
					      "run", (json_int_t)run_id, "files", (json_int_t)tot.files,
					      "bytes", (json_int_t)tot.bytes, "records", (json_int_t)tot.records,
					      "payloads", (json_int_t)tot.payloads,
					      "payload_md5_mismatches", (json_int_t)tot.md5_mismatches,
					      "damaged_lines", (json_int_t)tot.damaged, "seconds", s,
					      "cpu_seconds", "read", tot.cpu_read, "parse", tot.cpu_parse,
					      "write", tot.cpu_write);

			pt_json_print(stdout, o);
			json_decref(o);
		} else {
			printf("run %lld: %llu file%s, %.1f MB, %llu records, %llu payloads in %.2f s"
			       " (%.0f MB/s); %llu md5 mismatches, %llu damaged lines\n",
			       (long long)run_id, (unsigned long long)tot.files, tot.files == 1 ? "" : "s",
			       (double)tot.bytes / 1e6, (unsigned long long)tot.records,
			       (unsigned long long)tot.payloads, s, s > 0 ? (double)tot.bytes / 1e6 / s : 0.0,
			       (unsigned long long)tot.md5_mismatches, (unsigned long long)tot.damaged);
		}
	}
	rc = pt_diag_count(&diag, PT_SEV_WARNING) ? EXIT_PROBLEMS : EXIT_FINE;
out:
	db_close(ix);
	pt_print_diag(ctx, &diag);
	pt_diag_release(&diag);
out_nodiag:
	for (size_t k = 0; k < nfiles; k++) {
		free(files[k].src);
		free(files[k].base);
	}
	free(files);
	return rc;
}
