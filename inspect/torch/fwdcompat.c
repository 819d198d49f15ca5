/* cuda-compat's libcuda, CUDA_VISIBLE_DEVICES, a CPU torch for a CUDA build; see fwdcompat.h. */
#include "fwdcompat.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudadriver.h"
#include "envcheck.h"
#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

/* version.py is a few hundred bytes, CMakeCache.txt of torch about 100 KB. */
#define VERSION_PY_MAX (64u * 1024)

bool fwdcompat_hides_all(const char *v)
{
	if (!v)
		return false;
	while (isspace((unsigned char)*v))
		v++;
	/*
	 * CUDA reads the list up to the first entry that is neither an index nor
	 * a GPU-/MIG- UUID: "", "-1", "none", "NoDevFiles" (Slurm) hide every device.
	 */
	if (isdigit((unsigned char)*v))
		return false;
	return strncmp(v, "GPU-", 4) && strncmp(v, "MIG-", 4);
}

bool fwdcompat_is_compat_libcuda(const char *path)
{
	const char *s;

	if (!path)
		return false;
	if (strstr(path, "/cuda-compat") || strstr(path, "/compat/libcuda"))
		return true;
	s = strrchr(path, '/');
	return s && s - path >= 7 && !strncmp(s - 7, "/compat", 7);
}

int fwdcompat_version_py_cuda(const char *buf, size_t len, char *out, size_t n)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q;

		if (!eol)
			eol = end;
		/* cuda = '12.4'   or   cuda: Optional[str] = '12.4' */
		if (eol - p > 4 && !strncmp(p, "cuda", 4) && (p[4] == ' ' || p[4] == '=' || p[4] == ':') &&
		    (q = memchr(p, '=', (size_t)(eol - p)))) {
			q++;
			while (q < eol && *q == ' ')
				q++;
			if (q < eol && (*q == '\'' || *q == '"')) {
				const char *close = memchr(q + 1, *q, (size_t)(eol - q - 1));

				if (close && close > q + 1 && (size_t)(close - q - 1) < n) {
					memcpy(out, q + 1, (size_t)(close - q - 1));
					out[close - q - 1] = '\0';
					return 1;
				}
			}
			return 0;
		}
		p = eol + 1;
	}
	return 0;
}

static void check_compat(const struct pyenv_report *r, const struct importdiag *g, struct pt_diag *f)
{
	const char *lib = g && g->cuda.libcuda ? g->cuda.libcuda : NULL;
	char real[PATH_MAX], ver[64] = "", kernel[64] = "";
	uint8_t *buf = NULL;
	size_t len = 0;
	struct pt_diag quiet;

	if (!lib) {
		const struct pyenv_loaded *l = envcheck_find_loaded(r, "libcuda");

		lib = l ? (l->realpath ? l->realpath : l->name) : NULL;
	}
	if (!lib || !(fwdcompat_is_compat_libcuda(lib) ||
		      (realpath(lib, real) && fwdcompat_is_compat_libcuda(real))))
		return;
	if (!realpath(lib, real))
		pt_fmt_trunc(real, sizeof(real), "%s", lib);
	cudadriver_from_libcuda(real, ver, sizeof(ver));
	pt_diag_init(&quiet);
	if (pt_read_regular("/proc/driver/nvidia/version", 64 * 1024, PT_SEV_NOTE, PT_READ_PREFIX, &buf, &len,
			    &quiet) == 0)
		cudadriver_from_proc((const char *)buf, len, kernel, sizeof(kernel));
	free(buf);
	pt_diag_release(&quiet);
	pt_diag_add(f, PT_SEV_WARNING, r->python, "compat-libcuda",
		    "libcuda.so.1 resolves to cuda-compat's %s%s%s%s ahead of the driver's own libcuda "
		    "(kernel module %s): forward compatibility works only on data-center GPUs with a "
		    "supported driver branch; elsewhere CUDA init fails with error 804 "
		    "(cudaErrorCompatNotSupportedOnDevice: forward compatibility was attempted on non "
		    "supported HW), and a compat libcuda other than the kernel module's version with "
		    "error 803; take the compat directory off LD_LIBRARY_PATH (or ld.so.conf) unless this "
		    "GPU needs it", real, ver[0] ? " (driver API " : "", ver, ver[0] ? ")" : "",
		    kernel[0] ? kernel : "unknown: no /proc/driver/nvidia/version");
}

static void check_visible(const struct pyenv_report *r, const struct importdiag *g, const char *visible,
			  struct pt_diag *f)
{
	bool cuda_torch = r->cuda || (g && g->cuda.checked) || !r->torch_ok;

	if (!visible || !fwdcompat_hides_all(visible))
		return;
	pt_diag_add(f, cuda_torch ? PT_SEV_WARNING : PT_SEV_NOTE, r->python, "visible-devices",
		    "CUDA_VISIBLE_DEVICES=\"%s\" hides every GPU: torch.cuda.is_available() is False and "
		    "torch.cuda.device_count() 0 in this environment%s; unset it (or list the devices, "
		    "CUDA_VISIBLE_DEVICES=0)", visible,
		    cuda_torch ? "" : " (this torch is a CPU build anyway)");
}

static char *pkg_parent(const char *torch_file)
{
	char *d = pt_xstrdup(torch_file), *s;

	for (int i = 0; i < 2 && (s = strrchr(d, '/')); i++)
		*s = '\0';
	return d;
}

static void check_cpu_torch(const struct pyenv_report *r, const struct fwdcompat_tree *trees,
			    size_t n_trees, struct pt_diag *f)
{
	char *used;
	struct pt_diag quiet;

	if (!r->torch_ok || r->cuda || r->hip || !r->torch_file)
		return;
	pt_diag_init(&quiet);
	for (size_t i = 0; i < n_trees; i++)
		if (trees[i].use_cuda == 1)
			pt_diag_add(f, PT_SEV_WARNING, r->python, "cpu-torch",
				    "a CPU-only torch is imported (%s, torch.version.cuda is None), "
				    "but the build tree %s is configured with USE_CUDA=ON (%s): the torch "
				    "imported is not that build; install it (pip install -e . -v "
				    "--no-build-isolation, or python setup.py develop) or put it first on "
				    "sys.path", r->torch_file, trees[i].dir, trees[i].cache);
	used = pkg_parent(r->torch_file);
	for (size_t i = 0; i < r->n_cands; i++) {
		char *p, ver[64];
		uint8_t *buf = NULL;
		size_t len = 0;

		if (!strcmp(r->cands[i].dir, used))
			continue;
		p = pt_xasprintf("%s/torch/version.py", r->cands[i].dir);
		if (pt_read_regular(p, VERSION_PY_MAX, PT_SEV_NOTE, PT_READ_PREFIX, &buf, &len, &quiet) == 0 &&
		    fwdcompat_version_py_cuda((const char *)buf, len, ver, sizeof(ver)))
			pt_diag_add(f, PT_SEV_WARNING, r->python, "cpu-torch",
				    "a CPU-only torch is imported from %s (torch.version.cuda is None) while a CUDA "
				    "torch (torch.version.cuda '%s', %s) is in %s (%s), later on sys.path: it is "
				    "shadowed; remove the CPU one (pip uninstall torch) or put %s first",
				    used, ver, p, r->cands[i].dir, r->cands[i].kind, r->cands[i].dir);
		free(buf);
		free(p);
	}
	free(used);
	pt_diag_release(&quiet);
}

void fwdcompat_check(const struct pyenv_report *r, const struct importdiag *g, const char *visible,
		     const struct fwdcompat_tree *trees, size_t n_trees, struct pt_diag *findings)
{
	check_compat(r, g, findings);
	check_visible(r, g, visible, findings);
	check_cpu_torch(r, trees, n_trees, findings);
}
