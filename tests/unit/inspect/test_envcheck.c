/*
 * envcheck + pyenv_parse: the cross-checks on synthetic helper reports
 * (two copies of a library, CUDA runtime vs libcudart, a pip wheel over a
 * source build), the report parser's marker handling, the producer-flag
 * parser of debuginfo and the TORCH_SHOW_DISPATCH_TRACE rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "dispatchtrace.h"
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

/* No marker, or a broken document after it: -1 with a reason, never a crash. */
static void report_without_marker(void **state)
{
	struct pyenv_report r;
	struct pt_diag d;
	static const char bad[] = "\n@@PTINSPECT-PYENV-JSON@@\n{\"mode\": ";

	(void)state;
	pt_diag_init(&d);
	assert_int_equal(pyenv_parse("Traceback ...", 13, "/py", &r, &d), -1);
	assert_int_equal(pyenv_parse(bad, sizeof(bad) - 1, "/py", &r, &d), -1);
	assert_int_equal(pt_diag_count(&d, PT_SEV_ERROR), 2);
	pyenv_report_release(&r);
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

/* DW_AT_producer: the last -O and -g win; -gsplit-dwarf and -gdwarf-5 are not -g levels. */
static void producer_flags(void **state)
{
	char *o, *g;

	(void)state;
	debuginfo_producer_flags("GNU C17 12.2.0 -mtune=generic -g -gsplit-dwarf -O2 -fPIC", &o, &g);
	assert_string_equal(o, "-O2");
	assert_string_equal(g, "-g");
	free(o);
	free(g);
	debuginfo_producer_flags("GNU C++17 12.2.0 -g1 -O3 -O0 -gdwarf-5", &o, &g);
	assert_string_equal(o, "-O0");
	assert_string_equal(g, "-g1");
	free(o);
	free(g);
	debuginfo_producer_flags("clang version 14.0.6", &o, &g);
	assert_null(o);
	assert_null(g);
}

/* The dispatch-trace rules of torch-trace-formats.md §8, one row each. */
static void dispatch_trace_rules(void **state)
{
	static const struct {
		const char *text;
		int debug, want;
	} t[] = {
		/* RelWithDebInfo defines NDEBUG: nothing (Debian 1.13). */
		{ "  - Build settings: BUILD_TYPE=RelWithDebInfo, TORCH_VERSION=1.13.0, ", 0, 0 },
		/* A Debug build prints. */
		{ "  - Build settings: BUILD_TYPE=Debug, TORCH_VERSION=2.1.0, ", 1, 1 },
		/* 2.7+: Release with -DHAS_TORCH_SHOW_DISPATCH_TRACE prints. */
		{ "  - Build settings: BUILD_TYPE=Release, CXX_FLAGS=-O2 -DHAS_TORCH_SHOW_DISPATCH_TRACE, TORCH_VERSION=2.7.0, ", 0, 1 },
		/* Before 2.7 the macro does nothing. */
		{ "  - Build settings: BUILD_TYPE=Release, CXX_FLAGS=-O2 -DHAS_TORCH_SHOW_DISPATCH_TRACE, TORCH_VERSION=2.6.0, ", 0, 0 },
		/* Nothing to tell from. */
		{ "  - GCC 12.2", -1, -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct showconfig c;
		struct dispatchtrace dt;
		struct pt_diag d;

		pt_diag_init(&d);
		assert_int_equal(showconfig_parse((const uint8_t *)t[i].text, strlen(t[i].text), &c, "t", &d), 0);
		dispatchtrace_check(&c, NULL, t[i].debug, NULL, &dt, &d);
		if (dt.can_print != t[i].want)
			fail_msg("row %zu: can_print %d, want %d (%s)", i, dt.can_print, t[i].want, dt.why);
		assert_true((dt.rebuild != NULL) == (t[i].want != 1));
		dispatchtrace_release(&dt);
		showconfig_release(&c);
		pt_diag_release(&d);
	}
	assert_int_equal(dispatchtrace_text_present((const unsigned char *)"x], key=[y", 10), 1);
	assert_int_equal(dispatchtrace_text_present((const unsigned char *)"], key=", 7), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_copies_of_libtorch),
		cmocka_unit_test(cudart_version),
		cmocka_unit_test(pip_wheel_shadows_source_build),
		cmocka_unit_test(report_without_marker),
		cmocka_unit_test(lib_stems),
		cmocka_unit_test(producer_flags),
		cmocka_unit_test(dispatch_trace_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
