/*
 * `ptinspect undefined FILE...`: FILE's dependency tree resolved as the
 * loader would (ptinspect deps), then every undefined non-weak symbol of
 * every object bound against the load order, with versions (bindcheck.h):
 * what `ldd -r FILE` reports, without running the loader, grouped per object
 * and demangled, with their ABI twins and gone torch symbols (bindcheck.h).
 * Exit 1 when a symbol is defined nowhere (or a library is missing).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bindcheck.h"
#include "jsonout.h"
#include "ldpath.h"
#include "ptinspect.h"
#include "report_elf.h"
#include "report_doctor.h"
#include "resolve.h"
#include "xalloc.h"

static const char usage_text[] =
	"usage: ptinspect undefined [OPTIONS] FILE...\n"
	"Resolves FILE's dependencies with the loader's rules and binds every undefined,\n"
	"non-weak symbol of every object against the load order (FILE first), like\n"
	"`ldd -r FILE` but without running anything; lists, per object, the symbols no\n"
	"object defines, demangled; names those a loaded object defines with the other\n"
	"C++ ABI (a _GLIBCXX_USE_CXX11_ABI mismatch) and torch symbols the loaded torch\n"
	"does not export.\n"
	"  --ld-library-path LIST  use LIST instead of $LD_LIBRARY_PATH\n"
	"  --all                   every symbol (default: the first 20 per object)\n"
	"  --json                  one JSON document\n"
	"  --color=WHEN            auto, always, never\n"
	"Exit status: 0 every symbol binds, 1 undefined symbols or missing libraries,\n"
	"2 usage error or unreadable FILE.\n";

static int one(const char *file, const char *llp, bool all, json_t *arr, struct pt_diag *d,
	       const struct pt_cli *ctx)
{
	struct ldpath_env env;
	struct resolve_result res;
	struct bindcheck_result b;
	char **paths;
	int rc;

	ldpath_env_init(&env, "", d);
	env.ld_library_path = llp;
	if (resolve_tree(file, &env, &res, d) != 0) {
		resolve_release(&res);
		ldpath_env_release(&env);
		return EXIT_USAGE;
	}
	paths = pt_xcalloc(res.n_objs, sizeof(*paths));
	for (size_t i = 0; i < res.n_objs; i++)
		paths[i] = res.objs[i].realpath;
	if (bindcheck_run((const char *const *)paths, res.n_objs, &b, d) != 0) {
		rc = EXIT_USAGE;
	} else {
		rc = b.n || res.n_missing ? EXIT_PROBLEMS : EXIT_FINE;
		if (arr) {
			json_t *j = report_bindcheck_json(paths, res.n_objs, &b);

			json_object_set_new(j, "file", pt_json_str(file));
			json_object_set_new(j, "missing_libraries", json_integer((json_int_t)res.n_missing));
			json_array_append_new(arr, j);
		} else {
			printf("%s: %zu objects, %zu undefined non-weak references checked, %zu defined by "
			       "no object%s\n", file, res.n_objs, b.n_refs, b.n,
			       res.n_missing ? " (libraries missing: see ptinspect deps)" : "");
			if (b.n_abi)
				printf("  %zu of them defined with the other C++ ABI: a _GLIBCXX_USE_CXX11_ABI "
				       "mismatch (see below which side uses which)\n", b.n_abi);
			if (b.n_torch_gone)
				printf("  %zu of them in torch's namespaces and not exported by the loaded torch "
				       "(built against another torch version?)\n", b.n_torch_gone);
			report_bindcheck_text(stdout, paths, &b, all ? 0 : 20, 2, PT_CLI_STYLE(ctx));
		}
	}
	bindcheck_release(&b);
	free(paths);
	resolve_release(&res);
	ldpath_env_release(&env);
	return rc;
}

int cmd_undefined(int argc, char **argv, struct pt_cli *ctx)
{
	static const struct option longopts[] = {
		PT_CLI_OPTIONS,
		{ "ld-library-path", required_argument, NULL, 'L' },
		{ "all", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	const char *llp = getenv("LD_LIBRARY_PATH");
	bool all = false;
	json_t *arr = NULL;
	struct pt_diag d;
	int c, rc = EXIT_FINE;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'L': llp = optarg; break;
		case 'a': all = true; break;
		default:
			if ((c = pt_cli_option(ctx, c, optarg, usage_text)) >= 0)
				return c;
		}
	}
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	pt_diag_init(&d);
	if (ctx->json)
		arr = json_array();
	for (int i = optind; i < argc; i++) {
		int r = one(argv[i], llp, all, arr, &d, ctx);

		if (r > rc)
			rc = r;
	}
	if (arr) {
		json_t *doc = json_object();

		json_object_set_new(doc, "files", arr);
		json_object_set_new(doc, "problems", report_problems_json(&d));
		pt_json_print(stdout, doc);
		json_decref(doc);
	}
	/* The resolver's warnings (missing libraries) are for ptinspect deps; errors stay. */
	{
		struct pt_diag e;

		pt_diag_init(&e);
		for (size_t i = 0; i < d.n; i++)
			if (d.v[i].sev == PT_SEV_ERROR)
				pt_diag_add(&e, PT_SEV_ERROR, d.v[i].file, d.v[i].where, "%s", d.v[i].what);
		pt_diag_print(&e, stderr, ctx->prog, ctx->color_err);
		pt_diag_release(&e);
	}
	pt_diag_release(&d);
	return rc;
}
