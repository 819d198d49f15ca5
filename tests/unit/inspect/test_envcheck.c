/*
 * inspect/torch/envcheck.c: the cross-checks on synthetic helper reports (two
 * copies of a library, CUDA runtime vs libcudart, a pip wheel over a source
 * build, nvcc flags vs the fat binaries) and library stems. The reports are
 * made with pyenv_parse (its own tests: test_pyenv.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "envcheck.h"
#include "pyenv.h"

/* A helper report around the given "loaded" and "torch_candidates" JSON arrays. */
static void parse_report(const char *loaded, const char *cands, const char *extra,
			 struct pyenv_report *r)
{
	char buf[8192];
	struct pt_diag d;

	snprintf(buf, sizeof(buf),
		 "torch printed this\n\n@@PTINSPECT-PYENV-JSON@@\n"
		 "{\"mode\": \"child\", \"torch_ok\": true, \"torch_file\": \"/w/site/torch/__init__.py\","
		 " \"torch_version\": \"2.5.0\", %s \"loaded\": %s, \"torch_candidates\": %s}\n",
		 extra, loaded, cands);
	pt_diag_init(&d);
	assert_int_equal(pyenv_parse(buf, strlen(buf), "/py", r, &d), 0);
	pt_diag_release(&d);
}

static const char *find_msg(const struct pt_diag *d, const char *where)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].where && !strcmp(d->v[i].where, where))
			return d->v[i].what;
	return NULL;
}

/* Two different libtorch_cpu files in one process is a finding; the same file twice is not. */
static void two_copies_of_libtorch(void **state)
{
	struct pyenv_report r;
	struct envcheck_opts o = { 0 };
	struct pt_diag d;
	const char *m;

	(void)state;
	parse_report("[{\"name\": \"/a/libtorch_cpu.so\", \"realpath\": \"/a/libtorch_cpu.so\", \"by_import\": true},"
		     " {\"name\": \"/b/libc10.so\", \"realpath\": \"/b/libc10.so\", \"by_import\": true},"
		     " {\"name\": \"/c/libc10.so\", \"realpath\": \"/b/libc10.so\", \"by_import\": true},"
		     " {\"name\": \"/w/libtorch_cpu.so.2.5\", \"realpath\": \"/w/libtorch_cpu.so.2.5\", \"by_import\": true}]",
		     "[]", "", &r);
	assert_int_equal(r.n_loaded, 4);
	pt_diag_init(&d);
	envcheck_run(&r, NULL, &o, &d);
	m = find_msg(&d, "duplicate");
	assert_non_null(m);
	assert_string_equal(m, "two copies of libtorch_cpu in one process: /a/libtorch_cpu.so and /w/libtorch_cpu.so.2.5");
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 1);	/* libc10 twice is one file */
	pt_diag_release(&d);
	pyenv_report_release(&r);
}

/* Built for CUDA 12.8 but libcudart 12.4 loaded: older runtime; 12.9 is fine. */
static void cudart_version(void **state)
{
	struct pyenv_report r;
	struct envcheck_opts o = { 0 };
	struct pt_diag d;

	(void)state;
	parse_report("[{\"name\": \"libtorch_cpu.so\", \"realpath\": \"/w/libtorch_cpu.so\", \"by_import\": true},"
		     " {\"name\": \"libcudart.so.12\", \"realpath\": \"/x/libcudart.so.12.4.127\", \"by_import\": true}]",
		     "[]", "\"cuda\": \"12.8\",", &r);
	pt_diag_init(&d);
	envcheck_run(&r, NULL, &o, &d);
	assert_non_null(find_msg(&d, "cudart"));
	assert_non_null(strstr(find_msg(&d, "cudart"), "built for CUDA runtime 12.8 but loaded /x/libcudart.so.12.4.127 (12.4): older"));
	pt_diag_release(&d);
	pyenv_report_release(&r);

	parse_report("[{\"name\": \"libtorch_cpu.so\", \"realpath\": \"/w/libtorch_cpu.so\", \"by_import\": true},"
		     " {\"name\": \"libcudart.so.12\", \"realpath\": \"/x/libcudart.so.12.9.79\", \"by_import\": true}]",
		     "[]", "\"cuda\": \"12.8\",", &r);
	pt_diag_init(&d);
	envcheck_run(&r, NULL, &o, &d);
	assert_null(find_msg(&d, "cudart"));
	pt_diag_release(&d);
	pyenv_report_release(&r);
}

/* The imported torch is a pip wheel while a source tree comes later on sys.path. */
static void pip_wheel_shadows_source_build(void **state)
{
	struct pyenv_report r;
	struct envcheck_opts o = { 0 };
	struct pt_diag d;

	(void)state;
	parse_report("[{\"name\": \"x\", \"realpath\": \"/w/site/torch/lib/libtorch_cpu.so\", \"by_import\": true}]",
		     "[{\"dir\": \"/w/site\", \"kind\": \"pip wheel\"}, {\"dir\": \"/src/pytorch\", \"kind\": \"source tree\"}]",
		     "", &r);
	pt_diag_init(&d);
	envcheck_run(&r, NULL, &o, &d);
	assert_string_equal(find_msg(&d, "shadow"),
			    "a pip wheel shadows a source build: torch is imported from /w/site (pip wheel), "
			    "the build in /src/pytorch is never seen");
	pt_diag_release(&d);
	pyenv_report_release(&r);
}

/* Flags that name more than the library holds: stale; the library holding more: a note. */
static void nvcc_flags_vs_fatbins(void **state)
{
	char *cfg[] = { "sm_80", "sm_90", "compute_90" };
	char *bin[] = { "sm_80", "sm_90a", "compute_90" };
	struct pt_diag d;

	(void)state;
	pt_diag_init(&d);
	envcheck_arch_compare(cfg, 3, bin, 3, "/x/libtorch_cuda.so", "/py", &d);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.v[0].sev, PT_SEV_WARNING);
	assert_string_equal(d.v[0].what, "the NVCC architecture flags name sm_90 but /x/libtorch_cuda.so "
			    "holds no code for that: a stale build (the library was built with other flags)");
	assert_int_equal(d.v[1].sev, PT_SEV_NOTE);
	assert_non_null(strstr(d.v[1].what, "also holds sm_90a"));
	pt_diag_release(&d);
	/* The same sets: nothing to say. */
	pt_diag_init(&d);
	envcheck_arch_compare(cfg, 3, cfg, 3, "/x/libtorch_cuda.so", "/py", &d);
	assert_int_equal(d.n, 0);
	pt_diag_release(&d);
}

static void lib_stems(void **state)
{
	char s[64];

	(void)state;
	assert_string_equal(envcheck_lib_stem("/usr/lib/libtorch_cpu.so.1.13.0", s, sizeof(s)), "libtorch_cpu");
	assert_string_equal(envcheck_lib_stem("libcudart.so.12", s, sizeof(s)), "libcudart");
	assert_null(envcheck_lib_stem("/x/_C.cpython-311-x86_64-linux-gnu.so", s, sizeof(s)));
	assert_null(envcheck_lib_stem("/x/libfoo.sox", s, sizeof(s)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_copies_of_libtorch),
		cmocka_unit_test(cudart_version),
		cmocka_unit_test(pip_wheel_shadows_source_build),
		cmocka_unit_test(nvcc_flags_vs_fatbins),
		cmocka_unit_test(lib_stems),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
