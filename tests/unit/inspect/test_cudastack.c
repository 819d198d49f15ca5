/*
 * inspect/torch/cudastack.c and fwdcompat.c: built-with against loaded on the
 * real pasted configurations of tests/fixtures/show_config (003.txt: torch
 * 2.8 cu128 with cuDNN 9.10.2 loaded, built with 9.8; 013.txt: CUDA 9.2,
 * cuDNN 7.4.2 built with 7.1.2; 020.txt: CUDA 11.3 and CUDNN_VERSION=8.2.0),
 * each with the libraries a process could map; library identification from
 * file names and pip dist-info folders (made in a scratch tree);
 * CUDA_VISIBLE_DEVICES values, cuda-compat paths and torch/version.py.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastack.h"
#include "fwdcompat.h"
#include "ptest.h"
#include "showconfig.h"

static void load_fixture(const char *name, struct showconfig *c)
{
	const char *dir = getenv("PT_FIXTURES");
	char *path, *buf;
	size_t len;
	struct pt_diag d;

	assert_non_null(dir);
	path = malloc(strlen(dir) + strlen(name) + 32);
	assert_non_null(path);
	sprintf(path, "%s/show_config/%s", dir, name);
	buf = ptest_slurp(path, &len);
	assert_non_null(buf);
	pt_diag_init(&d);
	assert_int_equal(showconfig_parse((const uint8_t *)buf, len, c, path, &d), 0);
	pt_diag_release(&d);
	free(buf);
	free(path);
}

/* The message of the n-th finding (0-based) of severity sev, or NULL. */
static const char *nth(const struct pt_diag *d, enum pt_severity sev, size_t n)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].sev == sev && !strcmp(d->v[i].where, "cudastack") && n-- == 0)
			return d->v[i].what;
	return NULL;
}

/* 003: cuDNN 9.10.2 runs, 9.8 built ("Built with CuDNN 90.8"): same major, newer minor: a note. */
static void cudnn_newer_minor_is_compatible(void **state)
{
	struct showconfig c;
	struct pt_diag d;
	const char *m;

	(void)state;
	load_fixture("003.txt", &c);
	pt_diag_init(&d);
	cudastack_compare(&c, "12.8", NULL, 0, "/py", &d);
	assert_null(nth(&d, PT_SEV_WARNING, 0));
	m = nth(&d, PT_SEV_NOTE, 1);
	assert_non_null(m);
	assert_string_equal(m, "cuDNN: built with 9.8 (show_config's Built with CuDNN), loads 9.10.2 "
			       "(show_config's CuDNN line): versions compatible");
	m = nth(&d, PT_SEV_NOTE, 0);
	assert_string_equal(m, "CUDA runtime: built with 12.8 (CUDA_VERSION build setting), loads 12.8 "
			       "(show_config's CUDA Runtime line): versions compatible");
	pt_diag_release(&d);
	showconfig_release(&c);
}

/* 003 with a cuDNN 8 library mapped: another major, the error torch raises named. */
static void cudnn_other_major_loaded(void **state)
{
	struct showconfig c;
	struct pt_diag d;
	struct cudastack_loaded l = { "libcudnn", "/opt/cudnn/lib/libcudnn.so.8.9.7", "8.9.7", "the file name", 0, NULL };
	const char *m;

	(void)state;
	load_fixture("003.txt", &c);
	pt_diag_init(&d);
	cudastack_compare(&c, "12.8", &l, 1, "/py", &d);
	m = nth(&d, PT_SEV_WARNING, 0);
	assert_non_null(m);
	assert_string_equal(m, "cuDNN: torch is built with cuDNN 9.8 (show_config's Built with CuDNN) but loads "
			       "8.9.7 (/opt/cudnn/lib/libcudnn.so.8.9.7, version from the file name): another "
			       "major version; torch raises 'cuDNN version incompatibility' at the first cuDNN call");
	assert_null(nth(&d, PT_SEV_WARNING, 1));
	pt_diag_release(&d);
	showconfig_release(&c);
}

/* 020: CUDNN_VERSION=8.2.0 and CUDA_VERSION=11.3 with an older cuDNN 8.1 and CUDA runtime 11.1 mapped. */
static void older_minor_loaded(void **state)
{
	struct showconfig c;
	struct pt_diag d;
	struct cudastack_loaded l[] = {
		{ "libcudart", "/usr/local/cuda-11.1/lib64/libcudart.so.11.1.74", "11.1.74", "the file name", 0, NULL },
		{ "libcudnn", "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.1", "8.1.1", "the file name", 0, NULL },
	};
	const char *m;

	(void)state;
	load_fixture("020.txt", &c);
	pt_diag_init(&d);
	cudastack_compare(&c, "11.3", l, 2, "/py", &d);
	m = nth(&d, PT_SEV_WARNING, 0);
	assert_non_null(m);
	assert_non_null(strstr(m, "CUDA runtime: torch is built with CUDA runtime 11.3 (CUDA_VERSION build setting) "
				  "but loads the older 11.1.74 (/usr/local/cuda-11.1/lib64/libcudart.so.11.1.74"));
	m = nth(&d, PT_SEV_WARNING, 1);
	assert_non_null(m);
	assert_non_null(strstr(m, "cuDNN: torch is built with cuDNN 8.2.0 (CUDNN_VERSION build setting) but loads "
				  "the older 8.1.1"));
	pt_diag_release(&d);
	showconfig_release(&c);
}

/* 013: torch 1.1's CuDNN 7.4.2 / Built with CuDNN 7.1.2: a note; a cuDNN for CUDA 10 with CUDA 9.2: a warning. */
static void cudnn_for_other_cuda(void **state)
{
	struct showconfig c;
	struct pt_diag d;
	struct cudastack_loaded l = { "libcudnn", "/site/nvidia/cudnn/lib/libcudnn.so.7", "7.4.2",
				      "nvidia_cudnn_cu10-7.4.2.dist-info", 10, "nvidia_cudnn_cu10-7.4.2.dist-info" };
	const char *m;

	(void)state;
	load_fixture("013.txt", &c);
	pt_diag_init(&d);
	cudastack_compare(&c, NULL, NULL, 0, "/py", &d);
	assert_null(nth(&d, PT_SEV_WARNING, 0));
	/* No CUDA_VERSION setting in torch 1.1's format: the runtime has nothing to be compared with. */
	assert_non_null(nth(&d, PT_SEV_NOTE, 0));
	assert_string_equal(nth(&d, PT_SEV_NOTE, 0), "cuDNN: built with 7.1.2 (show_config's Built with CuDNN), "
			    "loads 7.4.2 (show_config's CuDNN line): versions compatible");
	assert_null(nth(&d, PT_SEV_NOTE, 1));
	pt_diag_release(&d);
	pt_diag_init(&d);
	cudastack_compare(&c, "9.2", &l, 1, "/py", &d);
	m = nth(&d, PT_SEV_WARNING, 0);
	assert_non_null(m);
	assert_string_equal(m, "cuDNN: the cuDNN loaded, /site/nvidia/cudnn/lib/libcudnn.so.7, is the build for CUDA "
			       "10 (nvidia_cudnn_cu10-7.4.2.dist-info), torch is built for CUDA 9.2 "
			       "(torch.version.cuda): cuDNN supports only the CUDA major it is built for; install "
			       "the cuDNN for CUDA 9 (nvidia-cudnn-cu9)");
	pt_diag_release(&d);
	showconfig_release(&c);
}

/* A CPU build's configuration and no libraries: nothing at all. */
static void cpu_build_says_nothing(void **state)
{
	struct showconfig c;
	struct pt_diag d;

	(void)state;
	load_fixture("debian-1.13.1.txt", &c);
	pt_diag_init(&d);
	cudastack_compare(&c, NULL, NULL, 0, "/py", &d);
	assert_int_equal(d.n, 0);
	pt_diag_release(&d);
	showconfig_release(&c);
}

/* Versions from file names and from a wheel's dist-info two levels up (pip's nvidia/ layout). */
static void identify_libraries(void **state)
{
	char dir[PTEST_PATH_MAX], *p;
	static const char *const tree[] = {
		"d site/nvidia/cudnn/lib",
		"d site/nvidia/nccl/lib",
		"d cuda/lib",
		"f site/nvidia/cudnn/lib/libcudnn.so.9",
		"d site/nvidia_cudnn_cu12-9.1.0.70.dist-info",
		"f site/nvidia/nccl/lib/libnccl.so.2",
		"d site/nvidia_nccl_cu13-2.28.9.dist-info",
		"f cuda/lib/libcudart.so.13",
		"d cuda/dist-info/nvidia_cuda_runtime-13.0.96.dist-info",
		NULL,
	};
	struct cudastack_store st = { 0 };
	struct cudastack_loaded l;

	(void)state;
	assert_non_null(ptest_tmpdir(dir, "cudastack"));
	assert_int_equal(ptest_tree(dir, tree), 0);
	assert_int_equal(cudastack_identify("/usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127", &l, &st), 0);
	assert_string_equal(l.stem, "libcudart");
	assert_string_equal(l.version, "12.4.127");
	assert_int_equal(l.for_cuda, 0);
	assert_int_equal(cudastack_identify("/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.2.6.0", &l, &st), -1);
	assert_int_equal(cudastack_identify("/x/libcudnn_ops.so.9", &l, &st), -1);
	p = ptest_path(dir, "site/nvidia/cudnn/lib/libcudnn.so.9");
	assert_int_equal(cudastack_identify(p, &l, &st), 0);
	assert_string_equal(l.version, "9.1.0.70");
	assert_string_equal(l.version_from, "nvidia_cudnn_cu12-9.1.0.70.dist-info");
	assert_int_equal(l.for_cuda, 12);
	free(p);
	p = ptest_path(dir, "site/nvidia/nccl/lib/libnccl.so.2");
	assert_int_equal(cudastack_identify(p, &l, &st), 0);
	assert_string_equal(l.version, "2.28.9");
	assert_int_equal(l.for_cuda, 13);
	free(p);
	p = ptest_path(dir, "cuda/lib/libcudart.so.13");
	assert_int_equal(cudastack_identify(p, &l, &st), 0);
	assert_string_equal(l.version, "13.0.96");
	assert_int_equal(l.for_cuda, 13);
	free(p);
	cudastack_store_release(&st);
	assert_int_equal(ptest_rmtree(dir), 0);
}

static void visible_devices(void **state)
{
	(void)state;
	assert_true(fwdcompat_hides_all(""));
	assert_true(fwdcompat_hides_all(" "));
	assert_true(fwdcompat_hides_all("-1"));
	assert_true(fwdcompat_hides_all("none"));
	assert_true(fwdcompat_hides_all("NoDevFiles"));
	assert_false(fwdcompat_hides_all(NULL));
	assert_false(fwdcompat_hides_all("0"));
	assert_false(fwdcompat_hides_all("1,0"));
	assert_false(fwdcompat_hides_all("GPU-8c1f2b4e-5a3d-4e27-9f0b-1d2c3e4f5a6b"));
	assert_false(fwdcompat_hides_all("MIG-GPU-8c1f2b4e/1/0"));
}

static void compat_paths(void **state)
{
	(void)state;
	assert_true(fwdcompat_is_compat_libcuda("/usr/local/cuda-12.8/compat/libcuda.so.570.124.06"));
	assert_true(fwdcompat_is_compat_libcuda("/usr/local/cuda/compat/libcuda.so.1"));
	assert_true(fwdcompat_is_compat_libcuda("/opt/cuda-compat-12-8/lib/libcuda.so.1"));
	assert_false(fwdcompat_is_compat_libcuda("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15"));
	assert_false(fwdcompat_is_compat_libcuda("/compat"));
	assert_false(fwdcompat_is_compat_libcuda(NULL));
}

static void version_py(void **state)
{
	static const char deb[] = "from typing import Optional\n\n__version__ = '2.6.0+debian'\ndebug = False\n"
				  "cuda: Optional[str] = '12.4'\ngit_version = 'Unknown'\nhip: Optional[str] = None\n";
	static const char cpu[] = "__version__ = '1.13.0a0'\ndebug = False\ncuda = None\nhip = None\n";
	static const char old[] = "cuda = \"10.2\"";
	char v[16];

	(void)state;
	assert_int_equal(fwdcompat_version_py_cuda(deb, sizeof(deb) - 1, v, sizeof(v)), 1);
	assert_string_equal(v, "12.4");
	assert_int_equal(fwdcompat_version_py_cuda(cpu, sizeof(cpu) - 1, v, sizeof(v)), 0);
	assert_int_equal(fwdcompat_version_py_cuda(old, sizeof(old) - 1, v, sizeof(v)), 1);
	assert_string_equal(v, "10.2");
	/* Cut short, too long for out, an unclosed quote. */
	assert_int_equal(fwdcompat_version_py_cuda(old, 8, v, sizeof(v)), 0);
	assert_int_equal(fwdcompat_version_py_cuda(old, sizeof(old) - 1, v, 3), 0);
	assert_int_equal(fwdcompat_version_py_cuda("cuda = '12", 10, v, sizeof(v)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cudnn_newer_minor_is_compatible),
		cmocka_unit_test(cudnn_other_major_loaded),
		cmocka_unit_test(older_minor_loaded),
		cmocka_unit_test(cudnn_for_other_cuda),
		cmocka_unit_test(cpu_build_says_nothing),
		cmocka_unit_test(identify_libraries),
		cmocka_unit_test(visible_devices),
		cmocka_unit_test(compat_paths),
		cmocka_unit_test(version_py),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
