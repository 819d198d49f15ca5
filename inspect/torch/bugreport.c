/* collect_env's facts, gathered without importing torch; see bugreport.h. */
#include "bugreport.h"

#include <ctype.h>
#include <dirent.h>
#include <gnu/libc-version.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmp.h"
#include "cudadriver.h"
#include "envcheck.h"
#include "fsutil.h"
#include "ldcache.h"
#include "strbuf.h"
#include "xalloc.h"

static const struct {
	const char *key, *label;
} fields[BR_N_FIELDS] = {
	[BR_TORCH_VERSION] = { "torch_version", "PyTorch version" },
	[BR_IS_DEBUG_BUILD] = { "is_debug_build", "Is debug build" },
	[BR_CUDA_COMPILED_VERSION] = { "cuda_compiled_version", "CUDA used to build PyTorch" },
	[BR_HIP_COMPILED_VERSION] = { "hip_compiled_version", "ROCM used to build PyTorch" },
	[BR_OS] = { "os", "OS" },
	[BR_GCC_VERSION] = { "gcc_version", "GCC version" },
	[BR_CLANG_VERSION] = { "clang_version", "Clang version" },
	[BR_CMAKE_VERSION] = { "cmake_version", "CMake version" },
	[BR_LIBC_VERSION] = { "libc_version", "Libc version" },
	[BR_PYTHON_VERSION] = { "python_version", "Python version" },
	[BR_PYTHON_PLATFORM] = { "python_platform", "Python platform" },
	[BR_IS_CUDA_AVAILABLE] = { "is_cuda_available", "Is CUDA available" },
	[BR_CUDA_RUNTIME_VERSION] = { "cuda_runtime_version", "CUDA runtime version" },
	[BR_CUDA_MODULE_LOADING] = { "cuda_module_loading", "CUDA_MODULE_LOADING set to" },
	[BR_NVIDIA_GPU_MODELS] = { "nvidia_gpu_models", "GPU models and configuration" },
	[BR_NVIDIA_DRIVER_VERSION] = { "nvidia_driver_version", "Nvidia driver version" },
	[BR_CUDNN_VERSION] = { "cudnn_version", "cuDNN version" },
	[BR_HIP_RUNTIME_VERSION] = { "hip_runtime_version", "HIP runtime version" },
	[BR_MIOPEN_RUNTIME_VERSION] = { "miopen_runtime_version", "MIOpen runtime version" },
	[BR_IS_XNNPACK_AVAILABLE] = { "is_xnnpack_available", "Is XNNPACK available" },
	[BR_CPU_INFO] = { "cpu_info", "CPU" },
};

const char *bugreport_key(enum bugreport_field f)
{
	return (unsigned)f < BR_N_FIELDS ? fields[f].key : "?";
}

const char *bugreport_label(enum bugreport_field f)
{
	return (unsigned)f < BR_N_FIELDS ? fields[f].label : "?";
}

/* The line of buf at *pos without its newline; false at the end. */
static bool line_at(const char *buf, size_t len, size_t *pos, const char **l, size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*l = buf + *pos;
	nl = memchr(*l, '\n', len - *pos);
	*n = nl ? (size_t)(nl - *l) : len - *pos;
	*pos += *n + 1;
	return true;
}

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (memchr(s, '\0', n))
		n = strlen(s);
	return pt_xstrndup(s, n);
}

char *bugreport_first_match(const char *buf, size_t len, const char *prefix)
{
	size_t pos = 0, n, pl = strlen(prefix);
	const char *l;

	while (line_at(buf, len, &pos, &l, &n)) {
		const char *m = pl <= n ? memmem(l, n, prefix, pl) : NULL;

		if (m)
			return trimmed(m + pl, n - (size_t)(m + pl - l));
	}
	return NULL;
}

char *bugreport_os_release(const char *buf, size_t len)
{
	size_t pos = 0, n;
	const char *l;

	while (line_at(buf, len, &pos, &l, &n)) {
		if (n < 12 || strncmp(l, "PRETTY_NAME=", 12))
			continue;
		l += 12;
		n -= 12;
		if (n >= 2 && (l[0] == '"' || l[0] == '\'') && l[n - 1] == l[0]) {
			l++;
			n -= 2;
		}
		return trimmed(l, n);
	}
	return NULL;
}

char *bugreport_cpu_model(const char *buf, size_t len)
{
	size_t pos = 0, n, cpus = 0;
	const char *l;
	char *model = NULL, *out;

	while (line_at(buf, len, &pos, &l, &n)) {
		const char *colon = memchr(l, ':', n);

		if (!colon)
			continue;
		if (n >= 9 && !strncmp(l, "processor", 9))
			cpus++;
		if (!model && n >= 10 && !strncmp(l, "model name", 10))
			model = trimmed(colon + 1, n - (size_t)(colon + 1 - l));
	}
	if (!model)
		return NULL;
	out = pt_xasprintf("%s (%zu CPU%s)", model, cpus, cpus == 1 ? "" : "s");
	free(model);
	return out;
}

/* A small file's first 64 KB (/proc/cpuinfo can be longer); NULL when unreadable. */
static char *slurp(const char *path, size_t *len)
{
	struct pt_diag d;
	uint8_t *buf;

	pt_diag_init(&d);	/* a system file we cannot read is a blank in the report, not a message */
	if (pt_read_regular(path, 65536, PT_SEV_NOTE, PT_READ_PREFIX, &buf, len, &d) != 0)
		buf = NULL;
	pt_diag_release(&d);
	return (char *)buf;
}

/* `TOOL ARG` on PATH, its output's first match of prefix; NULL if no tool or no match. */
static char *tool(const char *name, const char *arg, const char *prefix)
{
	char *path = pyenv_which(name), *res = NULL;
	struct pt_strbuf sb;
	int st;

	if (!path)
		return NULL;
	pt_strbuf_init(&sb, 65536);
	st = pyenv_run_capture((char *const[]){ path, (char *)arg, NULL }, &sb, 1);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		res = prefix ? bugreport_first_match(pt_strbuf_str(&sb), sb.len, prefix)
			     : trimmed(pt_strbuf_str(&sb), sb.len);
	pt_strbuf_release(&sb);
	free(path);
	return res;
}

static char *tf(int v)
{
	return pt_xstrdup(v == 1 ? "True" : v == 0 ? "False" : "N/A");
}

static const char *loaded_lib(const struct pyenv_report *r, const char *stem)
{
	const struct pyenv_loaded *l = envcheck_find_loaded(r, stem);

	return l ? (l->realpath ? l->realpath : l->name) : NULL;
}

static const char *base(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

static char *cuda_runtime(const struct pyenv_report *r, const struct importdiag *g)
{
	const char *rt = loaded_lib(r, "libcudart");
	int maj, min;
	char *nvcc;

	if (!rt && g && g->cuda.checked)
		rt = g->cuda.cudart;
	if (rt && cudadriver_runtime_from_path(rt, &maj, &min) == 0 && min >= 0)
		return pt_xasprintf("%d.%d (%s, the libcudart torch %s)", maj, min, rt,
				    r->torch_ok ? "loaded" : "would load");
	/* collect_env's own source: nvcc on PATH (r'release .+ V(.*)'). */
	nvcc = tool("nvcc", "--version", ", V");
	if (nvcc) {
		char *s = pt_xasprintf("%s (nvcc on PATH; torch %s no libcudart)", nvcc,
				       r->torch_ok ? "loaded" : "would load");

		free(nvcc);
		return s;
	}
	return pt_xstrdup(rt ? rt : "No CUDA");
}

static char *cudnn(const struct pyenv_report *r, const struct importdiag *g)
{
	struct pt_strbuf sb;
	struct ldcache c;
	struct pt_diag d;
	const char *lib = loaded_lib(r, "libcudnn");
	char *out;

	pt_strbuf_init(&sb, 8192);
	if (r->torch_ok && r->cudnn_version > 0)
		pt_strbuf_addf_trunc(&sb, "%ld", r->cudnn_version);
	if (lib)
		pt_strbuf_addf_trunc(&sb, "%s%s", sb.len ? " " : "", lib);
	for (size_t i = 0; g && i < g->n_missing; i++)
		if (!strncmp(g->missing[i].name, "libcudnn", 8))
			pt_strbuf_addf_trunc(&sb, "%s%s needed but not found", sb.len ? "; " : "", g->missing[i].name);
	/* collect_env's guess: what ldconfig knows (the cache, read, not ldconfig -p). */
	pt_diag_init(&d);
	if (!sb.len && ldcache_load(&c, "/etc/ld.so.cache", &d) == 0) {
		size_t k = 0;

		for (size_t i = 0; i < c.n; i++)
			if (!strncmp(c.v[i].key, "libcudnn.so.", 12) && c.v[i].flags == 0x0303)
				pt_strbuf_addf_trunc(&sb, "%s%s", k++ ? ", " : "Probably one of the following: ",
					       c.v[i].value);
		ldcache_release(&c);
	}
	pt_diag_release(&d);
	out = pt_xstrdup(sb.len ? pt_strbuf_str(&sb) : "No cuDNN (none loaded, none in ld.so.cache)");
	pt_strbuf_release(&sb);
	return out;
}

static char *driver(const struct importdiag *g)
{
	size_t len;
	char *t = slurp("/proc/driver/nvidia/version", &len), v[64];

	if (t && cudadriver_from_proc(t, len, v, sizeof(v)) == 0) {
		free(t);
		return pt_xstrdup(v);
	}
	free(t);
	if (g && g->cuda.driver[0])
		return pt_xasprintf("%s (from %s)", g->cuda.driver, g->cuda.libcuda ? g->cuda.libcuda : "?");
	return pt_xstrdup("Could not collect (no /proc/driver/nvidia/version: no NVIDIA kernel driver)");
}

static char *gpus(void)
{
	char *s = tool("nvidia-smi", "-L", NULL);

	if (s && *s) {
		for (char *p = s; *p; p++)
			if (*p == '\n')
				*p = ';';
		return s;
	}
	free(s);
	return pt_xstrdup("Could not collect (no nvidia-smi on PATH)");
}

static const char *const relevant[] = { "torch", "numpy", "mypy", "flake8", "triton", "optree",
					"onnx", "nccl", "nvidia", "cudnn", "mkl", "magma", "cuda" };

static bool is_relevant(const char *name)
{
	for (size_t i = 0; i < PT_ARRAY_SIZE(relevant); i++) {
		size_t n = strlen(relevant[i]);

		for (const char *p = name; *p; p++)
			if (!strncasecmp(p, relevant[i], n))
				return true;
	}
	return false;
}

static void conda(struct bugreport *b)
{
	const char *pre = getenv("CONDA_PREFIX");
	char *dir;
	DIR *dp;
	struct dirent *e;

	if (!pre || !*pre)
		return;
	dir = pt_xasprintf("%s/conda-meta", pre);
	dp = opendir(dir);
	free(dir);
	if (!dp)
		return;
	while ((e = readdir(dp))) {
		/* name-version-build.json */
		char *n = pt_xstrdup(e->d_name), *v, *bld, *json = strstr(n, ".json");

		if (json && !json[5] && (*json = '\0', bld = strrchr(n, '-')) && (*bld = '\0', v = strrchr(n, '-')) &&
		    (*v = '\0', is_relevant(n))) {
			PT_GROW(b->conda, b->n_conda, b->a_conda);
			b->conda[b->n_conda++] = pt_xasprintf("[conda] %-24s %-12s %s", n, v + 1, bld + 1);
		}
		free(n);
	}
	closedir(dp);
}

void bugreport_collect(const struct pyenv_report *r, const struct importdiag *g, struct bugreport *b)
{
	struct utsname u;
	size_t len;
	char *t;
	const char *torch_dist = NULL;

	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < r->n_dists; i++)
		if (!strcasecmp(r->dist_name[i], "torch"))
			torch_dist = r->dist_version[i];
	if (r->torch_ok)
		b->v[BR_TORCH_VERSION] = pt_xstrdup(r->torch_version ? r->torch_version : "N/A");
	else
		b->v[BR_TORCH_VERSION] = torch_dist ? pt_xasprintf("%s (installed; import torch fails)", torch_dist)
						    : pt_xstrdup("N/A (import torch fails)");
	b->v[BR_IS_DEBUG_BUILD] = tf(r->torch_ok ? r->debug : -1);
	if (r->torch_ok)
		b->v[BR_CUDA_COMPILED_VERSION] = pt_xstrdup(r->cuda ? r->cuda : "None");
	else if (g && g->cuda.checked && g->cuda.rt_major >= 0)
		b->v[BR_CUDA_COMPILED_VERSION] = pt_xasprintf("N/A (import fails; its libraries need %s)",
							      base(g->cuda.cudart));
	else
		b->v[BR_CUDA_COMPILED_VERSION] = pt_xstrdup("N/A (import torch fails)");
	b->v[BR_HIP_COMPILED_VERSION] = pt_xstrdup(r->torch_ok ? (r->hip ? r->hip : "N/A") : "N/A");
	t = slurp("/etc/os-release", &len);
	{
		char *pretty = t ? bugreport_os_release(t, len) : NULL;

		uname(&u);
		b->v[BR_OS] = pt_xasprintf("%s (%s)", pretty ? pretty : u.sysname, u.machine);
		free(pretty);
	}
	free(t);
	b->v[BR_GCC_VERSION] = tool("gcc", "--version", "gcc ");
	b->v[BR_CLANG_VERSION] = tool("clang", "--version", "clang version ");
	b->v[BR_CMAKE_VERSION] = tool("cmake", "--version", "cmake ");
	b->v[BR_LIBC_VERSION] = r->libc_ver && *r->libc_ver && strcmp(r->libc_ver, "-")
					? pt_xstrdup(r->libc_ver)
					: pt_xasprintf("glibc-%s", gnu_get_libc_version());
	b->v[BR_PYTHON_VERSION] = pt_xasprintf("%s (%d-bit runtime)",
					       r->python_version_full ? r->python_version_full
								      : r->python_version ? r->python_version : "?",
					       r->python_bits ? r->python_bits : 64);
	b->v[BR_PYTHON_PLATFORM] = pt_xstrdup(r->python_platform ? r->python_platform : "N/A");
	b->v[BR_IS_CUDA_AVAILABLE] = tf(r->torch_ok ? r->cuda_available : -1);
	b->v[BR_CUDA_RUNTIME_VERSION] = cuda_runtime(r, g);
	b->v[BR_CUDA_MODULE_LOADING] = pt_xstrdup(getenv("CUDA_MODULE_LOADING") ? getenv("CUDA_MODULE_LOADING")
										 : "N/A");
	b->v[BR_NVIDIA_GPU_MODELS] = gpus();
	b->v[BR_NVIDIA_DRIVER_VERSION] = driver(g);
	b->v[BR_CUDNN_VERSION] = cudnn(r, g);
	b->v[BR_HIP_RUNTIME_VERSION] = pt_xstrdup("N/A");
	b->v[BR_MIOPEN_RUNTIME_VERSION] = pt_xstrdup("N/A");
	b->v[BR_IS_XNNPACK_AVAILABLE] = tf(r->torch_ok ? r->xnnpack : -1);
	t = slurp("/proc/cpuinfo", &len);
	b->v[BR_CPU_INFO] = t ? bugreport_cpu_model(t, len) : NULL;
	free(t);
	for (size_t i = 0; i < BR_N_FIELDS; i++)
		if (!b->v[i])
			b->v[i] = pt_xstrdup("Could not collect");
	for (size_t i = 0; i < r->n_dists; i++) {
		PT_GROW(b->pip, b->n_pip, b->a_pip);
		b->pip[b->n_pip++] = pt_xasprintf("[pip3] %s==%s", r->dist_name[i], r->dist_version[i]);
	}
	if (b->n_pip > 1)
		qsort(b->pip, b->n_pip, sizeof(*b->pip), pt_cmp_strp);
	conda(b);
	if (b->n_conda > 1)
		qsort(b->conda, b->n_conda, sizeof(*b->conda), pt_cmp_strp);
}

void bugreport_release(struct bugreport *b)
{
	for (size_t i = 0; i < BR_N_FIELDS; i++)
		free(b->v[i]);
	for (size_t i = 0; i < b->n_pip; i++)
		free(b->pip[i]);
	free(b->pip);
	for (size_t i = 0; i < b->n_conda; i++)
		free(b->conda[i]);
	free(b->conda);
	memset(b, 0, sizeof(*b));
}
