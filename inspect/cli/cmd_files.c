/*
 * `ptinspect FILE...`, `ptinspect deps FILE...` and `ptinspect cuda FILE...`: every report that exists
 * for each file, or only some sections of it. Options are parsed here once;
 * each section is collected by its module and rendered by report*.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudaarch.h"
#include "cudajit.h"
#include "cmd_package.h"
#include "gpu_opt.h"
#include "debuginfo.h"
#include "dispatchtrace.h"
#include "envcheck.h"
#include "fatbin_scan.h"
#include "jsonout.h"
#include "ldpath.h"
#include "ptinspect.h"
#include "report_elf.h"
#include "report_cuda.h"
#include "report_debug.h"
#include "report_deps.h"
#include "report_portable.h"
#include "resolve.h"
#include "xalloc.h"

enum files_section {
	SEC_ELF = 1 << 0,
	SEC_DEPS = 1 << 1,
	SEC_CUDA = 1 << 2,
	SEC_DEBUG = 1 << 3,	/* debuginfo.c: DWARF, split DWARF, debuglink, verdict */
	SEC_ALL = ~0,
};

#define MAX_GPUS 32

struct files_opts {
	unsigned sections;
	const char *usage;
	/* deps */
	struct ldpath_env env;
	struct deps_view view;
	const char *root;
	const char *llp;
	int llp_set;
	const char *cache_file;
	const char *hwcaps;
	int secure, no_cache;
	int tree;			/* --tree: the default report with the whole dependency tree */
	bool summary;			/* the default report as a summary (no --tree, no tree option) */
	/* CUDA section (SEC_CUDA) */
	struct cuda_cc gpus[MAX_GPUS];	/* --gpu */
	const char *gpu_args[MAX_GPUS];
	size_t n_gpus;
	struct gpu_auto gpu_auto;	/* --gpu=auto */
	unsigned scan_flags;		/* --registered-only */
	int verify;			/* --verify */
	int entries;			/* --entries */
	int cuda_deps;			/* --cuda-deps: every CUDA library of the tree */
	/* portability (the default report): rpathlint, verfloor, mlpolicy, torchext */
	const char *tag;		/* --tag: the platform tag claimed for the file */
	const char *against;		/* --against: a torch to check an extension against */
	int no_pkg_cache;		/* --no-package-cache: a package's facts read afresh, kept nowhere */
};

#define DEPS_OPTIONS                                                                          \
	"Dependency options:\n"                                                               \
	"  --ld-library-path=LIST  use LIST as LD_LIBRARY_PATH (default: the environment's)\n"\
	"  --root=DIR          resolve inside a sysroot or unpacked image (its ld.so.cache too)\n" \
	"  --ld-so-cache=FILE  read this cache instead of ROOT/etc/ld.so.cache\n"           \
	"  --no-cache          ignore ld.so.cache (like ld.so --inhibit-cache)\n"            \
	"  --hwcaps=LIST       active glibc-hwcaps subdirs, best first (default: this CPU's;\n" \
	"                      'none' for none), e.g. x86-64-v3,x86-64-v2\n"                \
	"  --secure            resolve as for a setuid program (AT_SECURE)\n"               \
	"  --tree              the whole dependency tree (the default report is a summary;\n" \
	"                      'ptinspect deps' always prints the tree)\n"                  \
	"  --depth=N           print the tree N levels deep (implies --tree)\n"              \
	"  --no-tree           one line per dependency, in load order (implies --tree)\n"    \
	"  -v, --verbose       also show edges to libraries already loaded (implies --tree)\n"

#define PORTABLE_OPTIONS                                                                      \
	"Portability options:\n"                                                              \
	"  --tag=TAG           check a platform tag claimed for the file (a wheel's,\n"     \
	"                      e.g. manylinux_2_17_x86_64) against its symbol versions\n"   \
	"  --against=DIR       check a torch extension's torch symbols against the torch\n"  \
	"                      in DIR (site-packages/torch, or a directory of libraries)\n" \
	"  --no-package-cache  read a package's members afresh; neither read nor write\n"   \
	"                      the facts cache (PT_CACHE_DIR=off does the same)\n"

#define CUDA_OPTIONS                                                                          \
	"CUDA options:\n"                                                                     \
	"  --gpu=CC            can a GPU run it: 8.6, sm_86, 120, h100, rtx5090 ... (repeatable)\n" \
	"  --gpu=auto          this machine's GPUs (/proc/driver/nvidia, libcuda.so.1)\n"    \
	"  --registered-only   only .nv_fatbin and __nv_relfatbin (skip the data-section scan)\n" \
	"  --verify            decompress every SASS/PTX entry and check it\n"               \
	"  --entries           list every fat binary entry (text)\n"                          \
	"  --cuda-deps         also every CUDA library of the dependency tree, with the\n"    \
	"                      known dlopen edges; names the weakest link per --gpu\n"

#define COMMON_OPTIONS                                                                        \
	"Options:\n"                                                                          \
	"  --json              one JSON document for the whole invocation\n"                \
	"  --color=WHEN        auto (default), always, never; NO_COLOR is respected\n"       \
	"  -h, --help          this text\n"

#define EXIT_TEXT                                                                             \
	"Exit status: 0 fine, 1 problems found (missing library, unmet version,\n"            \
	"damaged data), 2 usage error or unreadable input.\n"

/*
 * An RPATH or RUNPATH list with its tokens expanded for this object: into
 * elf[key] when elf is given (--json), else as text lines under label.
 */
static void rpath_dirs(json_t *elf, const char *key, const char *label, const char *list,
		       const char *origin, const struct ldpath_env *env)
{
	char **dirs;
	size_t n;

	if (!list)
		return;
	n = ldpath_split(list, false, origin, env, &dirs);
	if (elf)
		json_object_set_new(elf, key, pt_json_strv(dirs, n));
	for (size_t i = 0; i < n; i++) {
		if (!elf)
			printf("  %-9s %s %s\n", i ? "" : label, i ? " " : "=", dirs[i]);
		free(dirs[i]);
	}
	free(dirs);
}

/*
 * The CUDA section of one file: scan, optional verify, render. Returns how
 * many --gpu values cannot run the file's code (exit 1: a problem found).
 */
static size_t cuda_section(const struct elfobj *o, const struct files_opts *fo,
			   struct pt_cli *ctx, json_t *fj, struct pt_diag *diag)
{
	struct cuda_scan scan;
	struct cuda_verify ver;
	struct report_cuda r;
	struct report_cuda_opts ro = {
		.gpus = fo->gpus,
		.gpu_args = fo->gpu_args,
		.n_gpus = fo->n_gpus,
		.driver_cuda = gpu_auto_driver_cuda(&fo->gpu_auto),
		.entries = fo->entries,
		.only = !(fo->sections & SEC_ELF),
		.brief = fo->summary,
	};
	size_t unrunnable = 0;

	/* The JIT cache the driver will use in this environment: the verdicts' JIT lines. */
	if (!cudajit_cache(getenv("CUDA_CACHE_DISABLE"), getenv("CUDA_CACHE_MAXSIZE"), &ro.jit_cache,
			   &ro.jit_cache_off))
		pt_diag_add(diag, PT_SEV_NOTE, "CUDA_CACHE_MAXSIZE", NULL,
			    "not a byte count: the driver's default (1 GiB) assumed");
	cuda_scan(o, fo->scan_flags, &scan, diag);
	if (fo->verify)
		cuda_scan_verify(o, &scan, &ver, diag);
	report_cuda_init(&r, &scan, fo->verify ? &ver : NULL, o->path, diag);
	for (size_t g = 0; scan.n_fatbins && g < fo->n_gpus; g++) {
		struct cuda_verdict v;

		cudaarch_verdict(&r.sum, fo->gpus[g], &v);
		cudaarch_apply_driver(&v, ro.driver_cuda);
		if (v.how == CUDA_RUN_NONE)
			unrunnable++;
	}
	if (fj) {
		json_object_set_new(fj, "cuda", report_cuda_json(&r, &ro));
	} else {
		if (!(fo->sections & SEC_ELF))
			printf("%s%s%s\n", pt_c(ctx->color, PT_C_BOLD), o->path,
			       pt_c(ctx->color, PT_C_RESET));
		report_cuda_text(stdout, &r, &ro, PT_CLI_STYLE(ctx));
	}
	report_cuda_release(&r);
	if (fo->verify)
		cuda_verify_release(&ver);
	cuda_scan_release(&scan);
	return unrunnable;
}

/* --cuda-deps: every library of the resolved tree (plus known dlopen edges) with device code. */
static size_t cuda_deps_section(struct resolve_result *r, const struct files_opts *fo,
				struct pt_cli *ctx, json_t *fj, struct pt_diag *diag)
{
	struct cudadeps cd;
	struct report_cuda_opts ro = {
		.gpus = fo->gpus,
		.gpu_args = fo->gpu_args,
		.n_gpus = fo->n_gpus,
	};
	size_t bad;

	cudadeps_collect(&cd, r, &fo->env, fo->scan_flags, diag);
	bad = cudadeps_unrunnable(&cd, fo->gpus, fo->n_gpus);
	if (fj)
		json_object_set_new(fj, "cuda_deps", report_cudadeps_json(&cd, r, &ro));
	else
		report_cudadeps_text(stdout, &cd, r, &ro, PT_CLI_STYLE(ctx));
	cudadeps_release(&cd);
	return bad;
}

/*
 * The sections of o the CUDA scan and the dispatcher-trace check will read
 * whole (10.6 MB of libtorch_cpu.so), read ahead while the dependencies
 * are resolved: with a cold page cache the disk reads both at once.
 */
#define SCAN_READ_AHEAD (32u << 20)

static void read_ahead_scans(struct elfobj *o, const struct files_opts *fo, bool dispatch)
{
	struct elfobj_range *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;

	if (fo->sections & SEC_CUDA)
		na = cuda_scan_ranges(o, fo->scan_flags, &a);
	if (dispatch)
		nb = dispatchtrace_ranges(o, &b);
	if (nb) {
		a = pt_xreallocarray(a, na + nb, sizeof(*a));
		memcpy(a + na, b, nb * sizeof(*b));
	}
	elfobj_read_ahead(o, a, na + nb, SCAN_READ_AHEAD);
	free(a);
	free(b);
}

/* What the default report says about moving the file to another machine. */
struct portable {
	bool on;
	struct verfloor fl;
	struct mlpolicy_answer pol;
	bool have_pol;
	struct rpathlint_result lint;
	struct torchext ext;
	bool have_ext;
	struct torchext_against against;
	bool have_against;
};

static void portable_collect(struct portable *p, const struct elfobj *o, const struct resolve_result *r,
			     const struct files_opts *fo, struct pt_diag *diag)
{
	char *origin = r && r->n_objs ? NULL : ldpath_dirname(o->path);
	char *abs = origin ? ldpath_absolute(&fo->env, origin) : NULL;
	struct rpathlint_input in = {
		.o = o,
		.origin = r && r->n_objs ? r->objs[0].origin : abs,
		.env = &fo->env,
		.tree = r && r->n_objs ? r : NULL,
	};

	/* Inside --root the object is where the root puts it: $ORIGIN and the entries both in-root. */
	if (in.origin && fo->root && *fo->root) {
		size_t rl = strlen(fo->root);

		while (rl > 1 && fo->root[rl - 1] == '/')
			rl--;
		if (!strncmp(in.origin, fo->root, rl) && (in.origin[rl] == '/' || !in.origin[rl]))
			in.origin = in.origin[rl] ? in.origin + rl : "/";
	}
	memset(p, 0, sizeof(*p));
	p->on = true;
	verfloor_compute(o, &p->fl);
	p->have_pol = mlpolicy_answer(&p->fl, fo->tag, &p->pol, diag) == 0;
	rpathlint_check(&in, &p->lint, diag);
	p->have_ext = torchext_read(o, &p->ext, diag) == 0;
	if (p->have_ext && p->ext.is_extension && fo->against)
		p->have_against = torchext_against(&p->ext, fo->against, &p->against, diag) == 0;
	free(origin);
	free(abs);
}

/* Problems: a lint warning, a claim that does not hold, torch symbols missing. */
static bool portable_bad(const struct portable *p)
{
	if (!p->on)
		return false;
	for (size_t i = 0; p->have_pol && i < p->pol.n_claims; i++)
		if (!p->pol.claims[i].ok)
			return true;
	return p->lint.n_problems || (p->have_against && p->against.n_missing);
}

static void portable_text(const struct portable *p, const struct files_opts *fo, struct pt_cli *ctx)
{
	const struct pt_style *st = PT_CLI_STYLE(ctx);

	report_floor_text(stdout, &p->fl, p->have_pol ? &p->pol : NULL, 2, st);
	if (fo->summary)
		report_rpathlint_summary(stdout, &p->lint, 2, st);
	else
		report_rpathlint_text(stdout, &p->lint, 2, st);
	if (p->have_ext)
		report_torchext_text(stdout, &p->ext, p->have_against ? &p->against : NULL, !fo->summary, 2, st);
}

static void portable_json(const struct portable *p, json_t *fj)
{
	json_object_set_new(fj, "floor", report_floor_json(&p->fl, p->have_pol ? &p->pol : NULL));
	json_object_set_new(fj, "rpath_lint", report_rpathlint_json(&p->lint));
	if (p->have_ext && p->ext.is_extension)
		json_object_set_new(fj, "torch_extension",
				    report_torchext_json(&p->ext, p->have_against ? &p->against : NULL));
}

static void portable_release(struct portable *p)
{
	if (!p->on)
		return;
	verfloor_release(&p->fl);
	if (p->have_pol)
		mlpolicy_answer_release(&p->pol);
	rpathlint_release(&p->lint);
	torchext_release(&p->ext);
	if (p->have_against)
		torchext_against_release(&p->against);
}

static int inspect_one(const char *path, struct files_opts *fo, struct pt_cli *ctx,
		       json_t *files, json_t *problems)
{
	struct portable port = { 0 };
	struct elfobj o;
	struct resolve_result r = { 0 };
	struct pt_diag diag;
	struct debuginfo di;
	struct dispatchtrace dt = { 0 };
	int have_dt = 0;
	bool want_dt = false;
	int rc = EXIT_FINE, have_deps = 0, cuda_bad = 0, have_di = 0;
	int debug_only = fo->sections == SEC_DEBUG;
	json_t *fj = NULL;

	pt_diag_init(&diag);
	memset(&di, 0, sizeof(di));
	if (elfobj_open(&o, path, &diag) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (fo->sections & SEC_DEBUG) {
		char stem[64];

		/* libtorch_cpu holds the dispatcher: can TORCH_SHOW_DISPATCH_TRACE print? */
		want_dt = envcheck_lib_stem(path, stem, sizeof(stem)) && !strcmp(stem, "libtorch_cpu");
	}
	read_ahead_scans(&o, fo, want_dt);
	if ((fo->sections & SEC_DEPS) || fo->cuda_deps)
		have_deps = resolve_tree(path, &fo->env, &r, &diag) == 0;
	if (fo->sections & SEC_DEBUG) {
		have_di = debuginfo_read_obj(&o, NULL, &di, &diag) == 0;
		if (want_dt)
			have_dt = dispatchtrace_check_obj(NULL, NULL, -1, &o, &dt, &diag) == 0;
	}
	if (fo->sections == (unsigned)SEC_ALL)
		portable_collect(&port, &o, have_deps ? &r : NULL, fo, &diag);
	if (ctx->json) {
		fj = json_object();
		json_object_set_new(fj, "file", pt_json_str(path));
		if (fo->sections & SEC_ELF) {
			json_t *elf = report_elf_json(&o);

			if (have_deps) {
				rpath_dirs(elf, "rpath_dirs", NULL, o.rpath, r.objs[0].origin, &fo->env);
				rpath_dirs(elf, "runpath_dirs", NULL, o.runpath, r.objs[0].origin, &fo->env);
			}
			json_object_set_new(fj, "elf", elf);
		}
		if (have_deps && (fo->sections & SEC_DEPS))
			json_object_set_new(fj, "deps", report_deps_json(&r));
		if (port.on)
			portable_json(&port, fj);
		if (have_di)
			json_object_set_new(fj, "debug", report_debug_json(&di));
		if (have_dt)
			json_object_set_new(fj, "dispatch_trace", report_dispatchtrace_json(&dt));
	} else {
		if (debug_only)
			printf("%s%s%s\n", pt_c(ctx->color, PT_C_BOLD), path, pt_c(ctx->color, PT_C_RESET));
		if (fo->sections & SEC_ELF)
			report_elf_text(stdout, &o, !have_di, PT_CLI_STYLE(ctx));
		if (have_deps && (fo->sections & SEC_DEPS)) {
			rpath_dirs(NULL, NULL, "RPATH", o.rpath, r.objs[0].origin, &fo->env);
			rpath_dirs(NULL, NULL, "RUNPATH", o.runpath, r.objs[0].origin, &fo->env);
			if (fo->summary)
				report_deps_summary_text(stdout, &r, PT_CLI_STYLE(ctx));
			else
				report_deps_text(stdout, &r, &fo->view, PT_CLI_STYLE(ctx));
		}
		if (port.on)
			portable_text(&port, fo, ctx);
		if (have_di && fo->summary)
			report_debug_line(stdout, &di, 2, PT_CLI_STYLE(ctx));
		else if (have_di)
			report_debug_text(stdout, &di, 2, PT_CLI_STYLE(ctx));
		if (have_dt)
			report_dispatchtrace_text(stdout, &dt, 2, PT_CLI_STYLE(ctx));
	}
	if ((fo->sections & SEC_CUDA) && cuda_section(&o, fo, ctx, fj, &diag))
		cuda_bad = 1;
	if (fo->cuda_deps && have_deps && cuda_deps_section(&r, fo, ctx, fj, &diag))
		cuda_bad = 1;
	if (pt_diag_count(&diag, PT_SEV_WARNING) || cuda_bad || portable_bad(&port))
		rc = EXIT_PROBLEMS;
	/* `ptinspect debug`: a library without usable DWARF is the finding. */
	if (debug_only && have_di && di.verdict != DEBUGINFO_FULL)
		rc = EXIT_PROBLEMS;
out:
	if (ctx->json) {
		json_t *p = report_problems_json(&diag);

		if (fj) {
			json_object_set(fj, "problems", p);
			json_array_append_new(files, fj);
		}
		json_array_extend(problems, p);
		json_decref(p);
	} else {
		fflush(stdout);
	}
	pt_diag_print(&diag, stderr, ctx->prog, ctx->color_err);
	pt_diag_release(&diag);
	if (r.objs)
		resolve_release(&r);
	debuginfo_release(&di);
	if (have_dt)
		dispatchtrace_release(&dt);
	portable_release(&port);
	elfobj_release(&o);
	return rc;
}

static int parse_hwcaps(struct ldpath_env *env, const char *list)
{
	for (size_t i = 0; i < env->n_hwcaps; i++)
		free(env->hwcaps[i]);
	env->n_hwcaps = 0;
	if (!strcmp(list, "none"))
		return 0;
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",:");

		if (l) {
			PT_GROW(env->hwcaps, env->n_hwcaps, env->a_hwcaps);
			env->hwcaps[env->n_hwcaps++] = pt_xstrndup(p, l);
		}
		p += l + (p[l] != '\0');
	}
	return 0;
}

/* The loader's environment for this invocation: options over this machine's defaults. */
static int setup_env(struct files_opts *fo, struct pt_cli *ctx)
{
	struct pt_diag d;
	int rc = 0;

	pt_diag_init(&d);
	ldpath_env_init(&fo->env, fo->root, &d);
	if (fo->cache_file) {
		ldcache_release(&fo->env.cache);
		free((char *)fo->env.cache_path);
		fo->env.cache_path = pt_xstrdup(fo->cache_file);
		fo->env.no_cache = ldcache_load(&fo->env.cache, fo->cache_file, &d) != 0;
		if (fo->env.no_cache)
			rc = -1;	/* a cache named on the command line must be readable */
	} else if (fo->env.no_cache) {
		/* No cache in a sysroot is normal; on the host it is worth a note. */
		for (size_t i = 0; i < d.n; i++)
			d.v[i].sev = PT_SEV_NOTE;
	}
	if (fo->no_cache)
		fo->env.no_cache = true;
	fo->env.ld_library_path = fo->llp_set ? fo->llp : getenv("LD_LIBRARY_PATH");
	fo->env.secure = fo->secure;
	if (fo->hwcaps)
		parse_hwcaps(&fo->env, fo->hwcaps);
	if (!ctx->json || rc)
		pt_diag_print(&d, stderr, ctx->prog, ctx->color_err);
	pt_diag_release(&d);
	return rc;
}

/* The options into fo: -1 (go on: the FILEs start at optind), or the exit code. */
static int parse_opts(int argc, char **argv, struct pt_cli *ctx, struct files_opts *fo)
{
	enum { O_LLP = 256, O_ROOT, O_CACHE, O_NOCACHE, O_HWCAPS, O_SECURE,
	       O_DEPTH, O_NOTREE, O_TREE, O_GPU, O_REGONLY, O_VERIFY, O_ENTRIES, O_CUDADEPS, O_TAG, O_AGAINST,
	       O_NOPKGCACHE };
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "verbose", no_argument, NULL, 'v' },
		{ "ld-library-path", required_argument, NULL, O_LLP },
		{ "root", required_argument, NULL, O_ROOT },
		{ "ld-so-cache", required_argument, NULL, O_CACHE },
		{ "no-cache", no_argument, NULL, O_NOCACHE },
		{ "hwcaps", required_argument, NULL, O_HWCAPS },
		{ "secure", no_argument, NULL, O_SECURE },
		{ "depth", required_argument, NULL, O_DEPTH },
		{ "no-tree", no_argument, NULL, O_NOTREE },
		{ "tree", no_argument, NULL, O_TREE },
		{ "gpu", required_argument, NULL, O_GPU },
		{ "registered-only", no_argument, NULL, O_REGONLY },
		{ "verify", no_argument, NULL, O_VERIFY },
		{ "entries", no_argument, NULL, O_ENTRIES },
		{ "cuda-deps", no_argument, NULL, O_CUDADEPS },
		{ "tag", required_argument, NULL, O_TAG },
		{ "against", required_argument, NULL, O_AGAINST },
		{ "no-package-cache", no_argument, NULL, O_NOPKGCACHE },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	optind = 0;	/* GNU: re-initialise getopt for this argv */
	while ((c = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (c) {
		case 'v': fo->view.verbose = 1; break;
		case O_LLP: fo->llp = optarg; fo->llp_set = 1; break;
		case O_ROOT: fo->root = optarg; break;
		case O_CACHE: fo->cache_file = optarg; break;
		case O_NOCACHE: fo->no_cache = 1; break;
		case O_NOPKGCACHE: fo->no_pkg_cache = 1; break;
		case O_HWCAPS: fo->hwcaps = optarg; break;
		case O_SECURE: fo->secure = 1; break;
		case O_NOTREE: fo->view.flat = 1; break;
		case O_TREE: fo->tree = 1; break;
		case O_TAG:
		case O_AGAINST:
			if (fo->sections != (unsigned)SEC_ALL) {
				fprintf(stderr, "%s: '%s' needs the default report (ptinspect FILE)\n",
					ctx->prog, argv[optind - 1]);
				return EXIT_USAGE;
			}
			if (c == O_TAG)
				fo->tag = optarg;
			else
				fo->against = optarg;
			break;
		case O_DEPTH:
			fo->view.max_depth = (int)strtol(optarg, &end, 10);
			if (*end || fo->view.max_depth < 1) {
				fprintf(stderr, "%s: --depth wants a positive number, not '%s'\n",
					ctx->prog, optarg);
				return EXIT_USAGE;
			}
			break;
		case O_GPU:
		case O_REGONLY:
		case O_VERIFY:
		case O_ENTRIES:
		case O_CUDADEPS:
			if (!(fo->sections & SEC_CUDA)) {
				fprintf(stderr, "%s: '%s' needs the CUDA report (ptinspect cuda)\n",
					ctx->prog, argv[optind - 1]);
				return EXIT_USAGE;
			}
			if (c == O_REGONLY)
				fo->scan_flags |= CUDA_SCAN_REGISTERED_ONLY;
			else if (c == O_VERIFY)
				fo->verify = 1;
			else if (c == O_ENTRIES)
				fo->entries = 1;
			else if (c == O_CUDADEPS)
				fo->cuda_deps = 1;
			else if (fo->n_gpus == MAX_GPUS) {
				fprintf(stderr, "%s: at most %d --gpu options\n", ctx->prog, MAX_GPUS);
				return EXIT_USAGE;
			} else if (!strcmp(optarg, "auto")) {
				if (gpu_auto_add(ctx, fo->gpus, fo->gpu_args, &fo->n_gpus, MAX_GPUS,
						 &fo->gpu_auto) != 0)
					return EXIT_USAGE;
			} else if (gpu_opt_parse(ctx, optarg, &fo->gpus[fo->n_gpus]) != 0) {
				return EXIT_USAGE;
			} else {
				fo->gpu_args[fo->n_gpus++] = optarg;
			}
			break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, fo->usage)) >= 0)
				return c;
		}
	}
	if (optind >= argc) {
		fputs(fo->usage, stderr);
		return EXIT_USAGE;
	}
	/* The bare report is a summary unless the tree, or an option of the tree, is asked for. */
	fo->summary = fo->sections == (unsigned)SEC_ALL && !fo->tree && !fo->view.flat && !fo->view.max_depth &&
		      !fo->view.verbose;
	if (fo->root && (!*fo->root || fo->root[0] != '/')) {
		fprintf(stderr, "%s: --root wants an absolute directory, not '%s'\n", ctx->prog, fo->root);
		return EXIT_USAGE;
	}
	return -1;
}

/* Each FILE's report (fo->sections), one JSON document for all with --json. */
static int run(int argc, char **argv, struct pt_cli *ctx, struct files_opts *fo)
{
	json_t *files = NULL, *problems = NULL;
	int rc = parse_opts(argc, argv, ctx, fo);

	if (rc >= 0) {
		gpu_auto_release(&fo->gpu_auto);
		return rc;
	}
	rc = EXIT_FINE;
	if (((fo->sections & SEC_DEPS) || fo->cuda_deps) && setup_env(fo, ctx) != 0) {
		ldpath_env_release(&fo->env);
		gpu_auto_release(&fo->gpu_auto);
		return EXIT_USAGE;
	}
	if (ctx->json) {
		files = json_array();
		problems = json_array();
	}
	for (int i = optind; i < argc; i++) {
		/* A wheel, a conda package or a directory: one package report (cmd_package.c). */
		struct package_cli pc = {
			.env = &fo->env, .details = !fo->summary, .gpus = fo->gpus,
			.gpu_args = fo->gpu_args, .n_gpus = fo->n_gpus, .tag = fo->tag,
			.against = fo->against, .no_cache = fo->no_pkg_cache,
		};
		int r = (fo->sections & SEC_DEPS) && package_cli_applies(argv[i]) ?
			package_cli_one(argv[i], &pc, ctx, files, problems) :
			inspect_one(argv[i], fo, ctx, files, problems);

		if (r > rc)
			rc = r;
		if (!ctx->json && i + 1 < argc)
			putchar('\n');
	}
	if (ctx->json) {
		json_t *doc = json_object();

		json_object_set_new(doc, "files", files);
		json_object_set_new(doc, "problems", problems);
		pt_json_print(stdout, doc);
		json_decref(doc);
	}
	if ((fo->sections & SEC_DEPS) || fo->cuda_deps)
		ldpath_env_release(&fo->env);
	/* --gpu=auto found no GPU to judge: "can this machine run it" is answered no. */
	if (fo->gpu_auto.used && !fo->gpu_auto.added && rc < EXIT_PROBLEMS)
		rc = EXIT_PROBLEMS;
	gpu_auto_release(&fo->gpu_auto);
	return rc;
}

/* The per-file reports: `ptinspect FILE...` (name NULL) and its subcommands. */
static const struct files_cmd {
	const char *name;
	unsigned sections;
	const char *usage;
} files_cmds[] = {
	{ NULL, SEC_ALL,
	  "usage: ptinspect [OPTIONS] FILE...\n"
	  "A summary of every report for each file: ELF identity, the direct\n"
	  "dependencies and where each resolved, problems anywhere in the tree,\n"
	  "CUDA code, debug info. --tree: the whole dependency tree.\n"
	  COMMON_OPTIONS DEPS_OPTIONS PORTABLE_OPTIONS CUDA_OPTIONS EXIT_TEXT },
	{ "cuda", SEC_CUDA,
	  "usage: ptinspect cuda [OPTIONS] FILE...\n"
	  "The CUDA fat binaries in each file: targets, TORCH_CUDA_ARCH_LIST, and\n"
	  "whether a GPU can run them.\n"
	  COMMON_OPTIONS CUDA_OPTIONS
	  "Dependency options (with --cuda-deps): those of 'ptinspect deps'.\n"
	  "Exit status: 0 fine, 1 problems found (damaged fat binaries, a --gpu that\n"
	  "cannot run the code), 2 usage error or unreadable input.\n" },
	{ "debug", SEC_DEBUG,
	  "usage: ptinspect debug [OPTIONS] FILE...\n"
	  "Whether each file can be debugged: DWARF in the file, split DWARF\n"
	  "(.dwo/.dwp), a separate debug file (.gnu_debuglink, build-id under\n"
	  "/usr/lib/debug), compiler flags from DW_AT_producer, and a verdict:\n"
	  "\"gdb can show tensor fields here\", \"symbols only\" or \"nothing\".\n"
	  COMMON_OPTIONS
	  "Exit status: 0 every file has usable DWARF, 1 some file has not,\n"
	  "2 usage error or unreadable input.\n" },
	{ "deps", SEC_ELF | SEC_DEPS,
	  "usage: ptinspect deps [OPTIONS] FILE...\n"
	  "The ELF and dependency report only, resolved as glibc's ld.so would.\n"
	  COMMON_OPTIONS DEPS_OPTIONS EXIT_TEXT },
};

int cmd_files(int argc, char **argv, struct pt_cli *ctx)
{
	const char *name = ctx->cmd ? ctx->cmd->name : NULL;
	struct files_opts fo = { 0 };

	for (size_t i = 0; i < PT_ARRAY_SIZE(files_cmds); i++) {
		const struct files_cmd *fc = &files_cmds[i];

		if (name ? fc->name && !strcmp(fc->name, name) : !fc->name) {
			fo.sections = fc->sections;
			fo.usage = fc->usage;
			return run(argc, argv, ctx, &fo);
		}
	}
	PT_BUG("ptinspect %s has no row in files_cmds", name);
}
