/* pysyspath: .pth files, egg-links, setuptools editable finders, and the walk of sys.path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptest.h"
#include "pysyspath.h"
#include "ptest.h"

static void free_v(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void pth_paths_and_imports(void **state)
{
	static const char pth[] = "# comment\n\n/abs/dir\nrel/dir   \nimport foo; foo.install()\n"
				  "import\tbar\nimportant\n/last/no/newline";
	char **v;
	size_t n;

	(void)state;
	n = pysyspath_pth_paths(pth, sizeof(pth) - 1, "/site", &v);
	assert_int_equal(n, 4);
	assert_string_equal(v[0], "/abs/dir");
	assert_string_equal(v[1], "/site/rel/dir");
	/* "important" is a path: only "import" followed by a blank is code (site.py). */
	assert_string_equal(v[2], "/site/important");
	assert_string_equal(v[3], "/last/no/newline");
	free_v(v, n);
	n = pysyspath_pth_imports(pth, sizeof(pth) - 1, &v);
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "foo");
	assert_string_equal(v[1], "bar");
	free_v(v, n);
	/* A NUL inside a line is not a path. */
	n = pysyspath_pth_paths("/a\0b\n/c\n", 8, "/s", &v);
	assert_int_equal(n, 1);
	assert_string_equal(v[0], "/c");
	free_v(v, n);
}

/* The text setuptools 69 writes into __editable___torch_2_6_0_finder.py (shortened). */
static const char finder[] =
	"import sys\nfrom importlib.machinery import ModuleSpec, PathFinder\n"
	"MAPPING: dict[str, str] = {'functorch': '/src/pytorch/functorch', 'torch': '/src/pytorch/torch', "
	"'torchgen': '/src/pytorch/torchgen'}\n"
	"NAMESPACES: dict[str, list[str]] = {}\nPATH_PLACEHOLDER = '__editable__.torch-2.6.0.finder' + \".__path_hook__\"\n";

static void finder_mapping(void **state)
{
	char *p;

	(void)state;
	p = pysyspath_finder_mapping(finder, sizeof(finder) - 1, "torch");
	assert_non_null(p);
	assert_string_equal(p, "/src/pytorch/torch");
	free(p);
	assert_null(pysyspath_finder_mapping(finder, sizeof(finder) - 1, "numpy"));
	/* Older setuptools: MAPPING = {...} with double quotes. */
	p = pysyspath_finder_mapping("MAPPING = {\"torch\": \"/x/torch\"}", 31, "torch");
	assert_non_null(p);
	assert_string_equal(p, "/x/torch");
	free(p);
	/* Every truncation: no crash, and no value unless the literal is complete. */
	for (size_t cut = 0; cut < sizeof(finder) - 1; cut++) {
		p = pysyspath_finder_mapping(finder, cut, "torch");
		if (p) {
			assert_string_equal(p, "/src/pytorch/torch");
			assert_true(cut > 100);
		}
		free(p);
	}
}

static void egg_link(void **state)
{
	char *p;

	(void)state;
	p = pysyspath_egg_link("/src/pytorch\n.\n", 15);
	assert_string_equal(p, "/src/pytorch");
	free(p);
	assert_null(pysyspath_egg_link("", 0));
	assert_null(pysyspath_egg_link("\n", 1));
}

static char tmp[PTEST_PATH_MAX];

static void mk(const char *rel, const char *text)
{
	char p[2 * PTEST_PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	for (s = strchr(p + strlen(tmp) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if (text) {
		FILE *f = fopen(p, "w");

		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	} else {
		mkdir(p, 0755);
	}
}

static char *at(const char *rel)
{
	static char b[4][2 * PTEST_PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(b[k], sizeof(b[k]), "%s/%s", tmp, rel);
	return b[k];
}

static void locate(void **state)
{
	struct pysyspath_torch t;
	struct pt_diag d;
	const char *sfx[] = { ".cpython-311-x86_64-linux-gnu.so", ".abi3.so", ".so" };
	const char *site[1];
	const char *path[3];
	char buf[3 * PTEST_PATH_MAX];

	(void)state;
	assert_non_null(ptest_tmpdir(tmp, "pysyspath"));
	pt_diag_init(&d);
	/* A legacy develop install: easy-install.pth names the checkout, torch.egg-link too. */
	mk("src/pytorch/setup.py", "");
	mk("src/pytorch/c10", NULL);
	mk("src/pytorch/torch/__init__.py", "");
	mk("src/pytorch/torch/_C.cpython-311-x86_64-linux-gnu.so", "");
	snprintf(buf, sizeof(buf), "%s\n", at("src/pytorch"));
	mk("site/easy-install.pth", buf);
	mk("site/torch.egg-link", buf);
	mk("cwd", NULL);
	site[0] = at("site");
	path[0] = "";
	path[1] = at("site");
	path[2] = at("src/pytorch");
	assert_int_equal(pysyspath_locate(path, 3, at("cwd"), site, 1, sfx, 3, &t, &d), 0);
	assert_int_equal(t.how, PYSYSPATH_PTH);
	assert_int_equal(t.index, 2);
	assert_string_equal(t.pkg_dir, at("src/pytorch/torch"));
	/* The egg-link is seen first (either names the checkout). */
	assert_string_equal(t.evidence, at("site/torch.egg-link"));
	assert_true(t.source_checkout);
	assert_string_equal(t.ext, at("src/pytorch/torch/_C.cpython-311-x86_64-linux-gnu.so"));
	pysyspath_torch_release(&t);

	/* Standing in the checkout: sys.path[0] ("") wins. */
	assert_int_equal(pysyspath_locate(path, 3, at("src/pytorch"), site, 1, sfx, 3, &t, &d), 0);
	assert_int_equal(t.how, PYSYSPATH_CWD);
	assert_int_equal(t.index, 0);
	pysyspath_torch_release(&t);

	/* A PEP 660 editable install, nothing on sys.path: the finder's MAPPING. */
	snprintf(buf, sizeof(buf), "MAPPING: dict[str, str] = {'torch': '%s'}\n", at("src/pytorch/torch"));
	mk("site2/__editable___torch_2_6_0_finder.py", buf);
	mk("site2/__editable__.torch-2.6.0.pth", "import __editable___torch_2_6_0_finder; __editable___torch_2_6_0_finder.install()\n");
	site[0] = at("site2");
	path[1] = at("site2");
	assert_int_equal(pysyspath_locate(path, 2, at("cwd"), site, 1, sfx, 3, &t, &d), 0);
	assert_int_equal(t.how, PYSYSPATH_EDITABLE);
	assert_null(t.entry);
	assert_string_equal(t.evidence, at("site2/__editable___torch_2_6_0_finder.py"));
	assert_true(t.source_checkout);
	pysyspath_torch_release(&t);

	/* Nothing anywhere. */
	path[1] = at("cwd");
	site[0] = at("cwd");
	assert_int_equal(pysyspath_locate(path, 2, at("cwd"), site, 1, sfx, 3, &t, &d), 1);
	assert_int_equal(t.how, PYSYSPATH_NONE);
	pysyspath_torch_release(&t);
	pt_diag_release(&d);
	assert_int_equal(ptest_rmtree(tmp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pth_paths_and_imports),
		cmocka_unit_test(finder_mapping),
		cmocka_unit_test(egg_link),
		cmocka_unit_test(locate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
