/*
 * Settings that make a working CUDA torch see no GPU, or the wrong driver:
 * a libcuda from cuda-compat (the forward-compatibility package,
 * /usr/local/cuda-X.Y/compat/libcuda.so.*) found ahead of the driver's,
 * CUDA_VISIBLE_DEVICES hiding every device, and a CPU-only torch imported
 * where the user built or installed a CUDA one (a build tree configured
 * with USE_CUDA=ON, a CUDA torch later on sys.path). Findings are pt_diag
 * messages whose "where" is "compat-libcuda", "visible-devices" or
 * "cpu-torch". Reads files (torch/version.py), no printing.
 */
#ifndef PT_FWDCOMPAT_H
#define PT_FWDCOMPAT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "importdiag.h"
#include "pyenv.h"

/* Whether CUDA_VISIBLE_DEVICES's value hides every GPU ("", "-1", "none", "NoDevFiles"). */
bool fwdcompat_hides_all(const char *value);

/* Whether path is a cuda-compat libcuda (its directory is named compat, or cuda-compat in the path). */
bool fwdcompat_is_compat_libcuda(const char *path);

/*
 * The torch.version.cuda a torch/version.py says (buf[0..len)): "12.4" into
 * out, 1; 0 when it says None or nothing.
 */
int fwdcompat_version_py_cuda(const char *buf, size_t len, char *out, size_t n);

/*
 * Every check. g: the import diagnosis (its CUDA part names the libcuda the
 * loader's rules find from libcudart), or NULL. visible: the value of
 * CUDA_VISIBLE_DEVICES the interpreter ran with (NULL: unset). trees: the
 * build trees the caller read (the source checkout here, --expect), with
 * what their CMakeCache.txt says of USE_CUDA (build/cmakecache.h's
 * cmakecache_dir_bool; torch/ reads no build tree itself).
 */
struct fwdcompat_tree {
	const char *dir;	/* the tree as the user named it */
	const char *cache;	/* its CMakeCache.txt */
	int use_cuda;		/* 1 ON, 0 OFF, -1 not set */
};
void fwdcompat_check(const struct pyenv_report *r, const struct importdiag *g, const char *visible,
		     const struct fwdcompat_tree *trees, size_t n_trees, struct pt_diag *findings);

#endif
