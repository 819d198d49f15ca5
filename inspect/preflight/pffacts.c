/*
 * The facts preflight predicts with. Sources:
 *
 * - pf_sms: NVIDIA's CUDA Toolkit release notes ("Deprecated and dropped
 *   features", "New features": 12.0 dropped Kepler sm_35/37; 12.8 added
 *   sm_100/101/120 and their 'a' variants; 12.9 added sm_103/121 and the
 *   family-specific 'f' variants; 13.0 dropped offline compilation for
 *   Maxwell, Pascal and Volta, sm_50..sm_72, and renamed sm_101 to sm_110),
 *   checked against `nvcc --list-gpu-arch` / `--list-gpu-code` of CUDA 13.0
 *   V13.0.88 (compute_75 80 86 87 88 89 90 100 110 103 120 121), which
 *   tests/integration/inspect/preflight.sh compares with this table.
 * - pf_host_maxes: each release's include/crt/host_config.h ("#if __GNUC__ >
 *   15" / "__clang_major__ >= 21" in 13.0), the same limits NVIDIA's Linux
 *   installation guide lists. Only a fallback: preflight reads the
 *   host_config.h beside the nvcc it found.
 * - pf_torch_bool: tools/setup_helpers/env.py (check_env_flag,
 *   check_negative_env_flag) of torch 2.6.
 * - pf_env_vars: setup.py's header comment and tools/setup_helpers/cmake.py of
 *   torch 2.6 (every USE_/BUILD_/CMAKE_ variable is passed to CMake as -D;
 *   CUDNN_LIB_DIR becomes CUDNN_LIBRARY; CUDAHOSTCXX is CUDA_HOST_COMPILER).
 * - pf_arch_names, pf_common_archs: cmake/Modules_CUDA_fix/upstream/FindCUDA/
 *   select_compute_arch.cmake of torch 2.6.
 * - pf_torch_options: the option() and cmake_dependent_option() names of
 *   torch 2.6's CMakeLists.txt, and the USE_ variables setup.py reads itself.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pffacts.h"
#include "strbuf.h"
#include "xalloc.h"

#define C PF_CUDA

static const struct pf_sm pf_sms[] = {
	{ 35, C(9, 0), C(12, 0), 0, 0 },
	{ 37, C(9, 0), C(12, 0), 0, 0 },
	{ 50, C(9, 0), C(13, 0), 0, 0 },
	{ 52, C(9, 0), C(13, 0), 0, 0 },
	{ 53, C(9, 0), C(13, 0), 0, 0 },
	{ 60, C(9, 0), C(13, 0), 0, 0 },
	{ 61, C(9, 0), C(13, 0), 0, 0 },
	{ 62, C(9, 0), C(13, 0), 0, 0 },
	{ 70, C(9, 0), C(13, 0), 0, 0 },
	{ 72, C(10, 0), C(13, 0), 0, 0 },
	{ 75, C(10, 0), 0, 0, 0 },
	{ 80, C(11, 0), 0, 0, 0 },
	{ 86, C(11, 1), 0, 0, 0 },
	{ 87, C(11, 4), 0, 0, 0 },
	{ 88, C(13, 0), 0, 0, 0 },
	{ 89, C(11, 8), 0, 0, 0 },
	{ 90, C(11, 8), 0, C(12, 0), 0 },
	{ 100, C(12, 8), 0, C(12, 8), C(12, 9) },
	{ 101, C(12, 8), C(13, 0), C(12, 8), C(12, 9) },
	{ 103, C(12, 9), 0, C(12, 9), C(12, 9) },
	{ 110, C(13, 0), 0, C(13, 0), C(13, 0) },
	{ 120, C(12, 8), 0, C(12, 8), C(12, 9) },
	{ 121, C(12, 9), 0, C(12, 9), C(12, 9) },
};

size_t pf_sm_table(const struct pf_sm **v)
{
	*v = pf_sms;
	return PT_ARRAY_SIZE(pf_sms);
}

int pf_nvcc_accepts(int cuda, unsigned arch, char variant)
{
	for (size_t i = 0; i < PT_ARRAY_SIZE(pf_sms); i++) {
		const struct pf_sm *s = &pf_sms[i];
		int since = variant == 'a' ? s->since_a : variant == 'f' ? s->since_f : s->since;

		if (s->arch != arch)
			continue;
		if (variant && variant != 'a' && variant != 'f')
			return 0;
		return since && cuda >= since && (!s->removed || cuda < s->removed);
	}
	return -1;
}

void pf_nvcc_range(int cuda, unsigned *lo, unsigned *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < PT_ARRAY_SIZE(pf_sms); i++)
		if (pf_nvcc_accepts(cuda, pf_sms[i].arch, 0) == 1) {
			if (!*lo)
				*lo = pf_sms[i].arch;
			*hi = pf_sms[i].arch;
		}
}

static const struct pf_host_max pf_host_maxes[] = {
	{ C(11, 0), 9, 9 },
	{ C(11, 1), 10, 10 },
	{ C(11, 4), 11, 12 },
	{ C(11, 8), 11, 14 },
	{ C(12, 0), 12, 14 },
	{ C(12, 1), 12, 15 },
	{ C(12, 2), 12, 16 },
	{ C(12, 4), 13, 17 },
	{ C(12, 6), 13, 18 },
	{ C(12, 8), 14, 19 },
	{ C(13, 0), 15, 20 },
};

const struct pf_host_max *pf_host_max_for(int cuda)
{
	const struct pf_host_max *r = NULL;

	for (size_t i = 0; i < PT_ARRAY_SIZE(pf_host_maxes); i++)
		if (cuda >= pf_host_maxes[i].cuda)
			r = &pf_host_maxes[i];
	return r;
}

int pf_torch_bool(const char *v)
{
	static const char *const yes[] = { "ON", "1", "YES", "TRUE", "Y" };
	static const char *const no[] = { "OFF", "0", "NO", "FALSE", "N" };

	for (size_t i = 0; i < 5; i++) {
		if (!strcasecmp(v, yes[i]))
			return 1;
		if (!strcasecmp(v, no[i]))
			return 0;
	}
	return -1;
}

const struct pf_env_var pf_env_vars[] = {
	{ "DEBUG", PF_ENV_BOOL, "a Debug build (-O0 -g); wins over REL_WITH_DEB_INFO" },
	{ "REL_WITH_DEB_INFO", PF_ENV_BOOL, "a RelWithDebInfo build (-O2 -g)" },
	{ "CMAKE_BUILD_TYPE", PF_ENV_STRING, "the build type when neither DEBUG nor REL_WITH_DEB_INFO is set" },
	{ "MAX_JOBS", PF_ENV_JOBS, "compile jobs at once (default: the CPU count)" },
	{ "USE_CUDA", PF_ENV_BOOL, "the CUDA backend (default: on when CMake finds CUDA)" },
	{ "USE_CUDNN", PF_ENV_BOOL, "cuDNN (default: on with CUDA when found)" },
	{ "USE_NCCL", PF_ENV_BOOL, "NCCL for multi-GPU collectives" },
	{ "USE_DISTRIBUTED", PF_ENV_BOOL, "torch.distributed" },
	{ "USE_MKLDNN", PF_ENV_BOOL, "oneDNN CPU kernels" },
	{ "USE_ROCM", PF_ENV_BOOL, "the ROCm (HIP) backend" },
	{ "USE_NINJA", PF_ENV_BOOL, "Ninja (default when ninja is on PATH); 0: Unix Makefiles" },
	{ "BUILD_TEST", PF_ENV_BOOL, "the C++ tests (default on: hundreds of extra targets)" },
	{ "TORCH_CUDA_ARCH_LIST", PF_ENV_ARCHLIST, "the GPU code built (default: the GPUs found, else a common list)" },
	{ "CUDA_HOME", PF_ENV_DIR, "the CUDA toolkit; its bin/nvcc compiles the CUDA code" },
	{ "CUDA_PATH", PF_ENV_DIR, "the CUDA toolkit, when CUDA_HOME is not set" },
	{ "CUDACXX", PF_ENV_PROG, "CMake's CUDA compiler (nvcc)" },
	{ "CUDNN_LIB_DIR", PF_ENV_DIR, "where cuDNN's libraries are (passed as CUDNN_LIBRARY)" },
	{ "CUDNN_INCLUDE_DIR", PF_ENV_DIR, "where cudnn.h is" },
	{ "CMAKE_PREFIX_PATH", PF_ENV_DIRLIST, "where CMake looks for packages (setup.py puts site-packages first)" },
	{ "CC", PF_ENV_PROG, "the C compiler" },
	{ "CXX", PF_ENV_PROG, "the C++ compiler (nvcc's host compiler too when it is Clang; else nvcc keeps its own, CUDAHOSTCXX sets it)" },
	{ "CUDAHOSTCXX", PF_ENV_PROG, "nvcc's host compiler (passed as CUDA_HOST_COMPILER)" },
	{ "CMAKE_FRESH", PF_ENV_BOOL, "configure again from scratch (newer torch; 2.6: setup.py --cmake)" },
	{ "USE_SYSTEM_LIBS", PF_ENV_BOOL, "the system's copies of third-party libraries instead of third_party/" },
	{ "_GLIBCXX_USE_CXX11_ABI", PF_ENV_ABI, "libstdc++'s ABI (passed as GLIBCXX_USE_CXX11_ABI)" },
	{ NULL, 0, NULL },
};

const struct pf_env_var *pf_env_var_find(const char *name)
{
	for (size_t i = 0; pf_env_vars[i].name; i++)
		if (!strcmp(pf_env_vars[i].name, name))
			return &pf_env_vars[i];
	return NULL;
}

const char *const pf_torch_options[] = {
	"BUILD_AOT_INDUCTOR_TEST", "BUILD_BINARY", "BUILD_BUNDLE_PTXAS", "BUILD_CAFFE2",
	"BUILD_CUSTOM_PROTOBUF", "BUILD_DOCS", "BUILD_EXECUTORCH", "BUILD_FUNCTORCH", "BUILD_JNI",
	"BUILD_LIBTORCH_CPU_WITH_DEBUG", "BUILD_LIBTORCH_WHL", "BUILD_LITE_INTERPRETER",
	"BUILD_MOBILE_AUTOGRAD", "BUILD_PYTHON", "BUILD_PYTHON_ONLY", "BUILD_SHARED_LIBS",
	"BUILD_STATIC_RUNTIME_BENCHMARK", "BUILD_TEST",
	"USE_ASAN", "USE_C10D_GLOO", "USE_C10D_MPI", "USE_C10D_NCCL", "USE_C10D_UCC",
	"USE_COLORIZE_OUTPUT", "USE_COREML_DELEGATE", "USE_CPP_CODE_COVERAGE", "USE_CUDA",
	"USE_CUDA_STATIC_LINK", "USE_CUDNN", "USE_CUDSS", "USE_CUFILE", "USE_CUPTI_SO",
	"USE_CUSPARSELT", "USE_DISTRIBUTED", "USE_FAKELOWP", "USE_FBGEMM", "USE_FLASH_ATTENTION",
	"USE_GFLAGS", "USE_GLOG", "USE_GLOO", "USE_GLOO_WITH_OPENSSL", "USE_GOLD_LINKER", "USE_ITT",
	"USE_KINETO", "USE_LITE_INTERPRETER_PROFILER", "USE_LITE_PROTO", "USE_MAGMA",
	"USE_MEM_EFF_ATTENTION", "USE_MIMALLOC", "USE_MIMALLOC_ON_MKL", "USE_MKLDNN",
	"USE_MKLDNN_ACL", "USE_MKLDNN_CBLAS", "USE_MPI", "USE_MPS", "USE_NATIVE_ARCH", "USE_NCCL",
	"USE_NINJA", "USE_NNAPI", "USE_NNPACK", "USE_NUMA", "USE_NUMPY", "USE_NVRTC",
	"USE_OBSERVERS", "USE_OPENCL", "USE_OPENMP", "USE_PER_OPERATOR_HEADERS",
	"USE_PRECOMPILED_HEADERS", "USE_PROF", "USE_PYTORCH_METAL", "USE_PYTORCH_METAL_EXPORT",
	"USE_PYTORCH_QNNPACK", "USE_RCCL", "USE_ROCM", "USE_ROCM_KERNEL_ASSERT", "USE_SNPE",
	"USE_SOURCE_DEBUG_ON_MOBILE", "USE_STATIC_CUDNN", "USE_STATIC_MKL", "USE_STATIC_NCCL",
	"USE_SYSTEM_BENCHMARK", "USE_SYSTEM_CPUINFO", "USE_SYSTEM_EIGEN_INSTALL", "USE_SYSTEM_FP16",
	"USE_SYSTEM_FXDIV", "USE_SYSTEM_GLOO", "USE_SYSTEM_LIBS", "USE_SYSTEM_NCCL",
	"USE_SYSTEM_ONNX", "USE_SYSTEM_PSIMD", "USE_SYSTEM_PTHREADPOOL", "USE_SYSTEM_PYBIND11",
	"USE_SYSTEM_SLEEF", "USE_SYSTEM_TENSORPIPE", "USE_SYSTEM_UCC", "USE_SYSTEM_XNNPACK",
	"USE_TENSORPIPE", "USE_TSAN", "USE_UCC", "USE_VULKAN", "USE_VULKAN_FP16_INFERENCE",
	"USE_VULKAN_RELAXED_PRECISION", "USE_XNNPACK", "USE_XPU",
	NULL,
};

size_t pf_edit_distance(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b);
	/* Three rows of the optimal-string-alignment table; names are short. */
	size_t r0[65], r1[65], r2[65], *pp = r0, *p = r1, *cur = r2;

	if (la > 64 || lb > 64)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	for (size_t j = 0; j <= lb; j++)
		p[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *t;

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = p[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (p[j - 1] + cost < v)
				v = p[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			cur[j] = v;
		}
		t = pp;
		pp = p;
		p = cur;
		cur = t;
	}
	return p[lb] > cap ? cap + 1 : p[lb];
}

static const struct {
	const char *name;
	unsigned archs[2];
} pf_arch_names[] = {
	{ "Kepler+Tesla", { 37, 0 } },
	{ "Kepler", { 35, 0 } },
	{ "Maxwell+Tegra", { 53, 0 } },
	{ "Maxwell", { 50, 52 } },
	{ "Pascal", { 60, 61 } },
	{ "Volta+Tegra", { 72, 0 } },
	{ "Volta", { 70, 0 } },
	{ "Turing", { 75, 0 } },
	{ "Ampere+Tegra", { 87, 0 } },
	{ "Ampere", { 80, 86 } },
	{ "Ada", { 89, 0 } },
	{ "Hopper", { 90, 0 } },
	{ "Blackwell", { 100, 0 } },
};

size_t pf_arch_name(const char *name, size_t n, unsigned *out, size_t max)
{
	for (size_t i = 0; i < PT_ARRAY_SIZE(pf_arch_names); i++) {
		size_t k = 0;

		if (strlen(pf_arch_names[i].name) != n || memcmp(pf_arch_names[i].name, name, n))
			continue;
		for (size_t j = 0; j < 2 && pf_arch_names[i].archs[j]; j++)
			if (k < max)
				out[k++] = pf_arch_names[i].archs[j];
		return k;
	}
	return 0;
}

const char *pf_common_archs(int cuda, char *buf, size_t n)
{
	struct pt_strbuf sb;

	pt_strbuf_init(&sb, n ? n - 1 : 0);
	/* select_compute_arch.cmake: "3.5" "5.0", then by CUDA version. */
	if (cuda < C(12, 0))
		pt_strbuf_adds_trunc(&sb, "3.5;");
	pt_strbuf_adds_trunc(&sb, "5.0");
	if (cuda > C(10, 5)) {
		pt_strbuf_adds_trunc(&sb, ";8.0");
		if (cuda < C(11, 1))
			pt_strbuf_adds_trunc(&sb, ";8.0+PTX");
	}
	if (cuda >= C(11, 1)) {
		pt_strbuf_adds_trunc(&sb, ";8.6");
		if (cuda < C(11, 8))
			pt_strbuf_adds_trunc(&sb, ";8.6+PTX");
	}
	if (cuda >= C(11, 8)) {
		pt_strbuf_adds_trunc(&sb, ";8.9;9.0");
		if (cuda < C(12, 0))
			pt_strbuf_adds_trunc(&sb, ";8.9+PTX;9.0+PTX");
	}
	if (cuda >= C(12, 0))
		pt_strbuf_adds_trunc(&sb, ";9.0a");
	if (cuda > C(12, 6))
		pt_strbuf_adds_trunc(&sb, ";10.0");
	pt_fmt_trunc(buf, n, "%s", pt_strbuf_str(&sb));
	pt_strbuf_release(&sb);
	return buf;
}

uint64_t pf_device_bytes_sass(unsigned arch)
{
	if (arch < 70)
		return 115ull << 20;
	if (arch < 80)
		return 84ull << 20;
	if (arch < 90)
		return 117ull << 20;
	return 121ull << 20;
}
