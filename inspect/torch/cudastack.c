/* Built-with against loaded CUDA runtime, cuDNN, NCCL; see cudastack.h. */
#include "cudastack.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envcheck.h"
#include "ldpath.h"
#include "resolve.h"
#include "xalloc.h"

static const struct {
	const char *stem, *what, *wheel;	/* wheel: the dist-info name's prefix */
} stack[] = {
	{ "libcudart", "CUDA runtime", "nvidia_cuda_runtime" },
	{ "libcudnn", "cuDNN", "nvidia_cudnn" },
	{ "libnccl", "NCCL", "nvidia_nccl" },
};
#define N_STACK (PT_ARRAY_SIZE(stack))

static int stack_index(const char *stem)
{
	for (size_t i = 0; i < N_STACK; i++)
		if (!strcmp(stem, stack[i].stem))
			return (int)i;
	return -1;
}

/* "12.4.127" -> v[0..2]; returns how many parts were read (0: not a version). */
static int parse_ver(const char *s, long v[3])
{
	int n = 0;

	v[0] = v[1] = v[2] = -1;
	while (s && n < 3 && isdigit((unsigned char)*s)) {
		char *e;

		v[n++] = strtol(s, &e, 10);
		if (*e != '.')
			break;
		s = e + 1;
	}
	return n;
}

static char *keep(struct cudastack_store *st, char *s)
{
	PT_GROW(st->s, st->n, st->a);
	st->s[st->n++] = s;
	return s;
}

void cudastack_store_release(struct cudastack_store *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->s[i]);
	free(st->s);
	memset(st, 0, sizeof(*st));
}

/* In dir (or dir/dist-info): PREFIX[_cuNN]-VERSION.dist-info. New name or NULL. */
static char *find_dist(const char *dir, const char *prefix)
{
	for (int sub = 0; sub < 2; sub++) {
		char *d = sub ? pt_xasprintf("%s/dist-info", dir) : pt_xstrdup(dir);
		DIR *dh = opendir(d);
		struct dirent *e;
		char *found = NULL;
		size_t pl = strlen(prefix);

		free(d);
		if (!dh)
			continue;
		while (!found && (e = readdir(dh))) {
			const char *n = e->d_name, *rest = n + pl;
			size_t len = strlen(n);

			if (strncmp(n, prefix, pl) || len < 10 || strcmp(n + len - 10, ".dist-info"))
				continue;
			/* nvidia_cudnn_cu12-9.1.0.70, nvidia_cuda_runtime-13.0.96 (no suffix) */
			if (!strncmp(rest, "_cu", 3) && isdigit((unsigned char)rest[3]))
				rest += 3 + strspn(rest + 3, "0123456789");
			if (*rest == '-' && isdigit((unsigned char)rest[1]))
				found = pt_xstrdup(n);
		}
		closedir(dh);
		if (found)
			return found;
	}
	return NULL;
}

int cudastack_identify(const char *path, struct cudastack_loaded *out, struct cudastack_store *st)
{
	char stem[256];
	const char *b, *so;
	long v[3];
	int k;

	memset(out, 0, sizeof(*out));
	if (!envcheck_lib_stem(path, stem, sizeof(stem)) || (k = stack_index(stem)) < 0)
		return -1;
	out->stem = stack[k].stem;
	out->path = path;
	b = strrchr(path, '/');
	b = b ? b + 1 : path;
	so = strstr(b, ".so.");
	/* The full version in the name (libcudart.so.12.4.127); a bare soname major is not one. */
	if (so && parse_ver(so + 4, v) >= 2) {
		out->version = keep(st, pt_xstrdup(so + 4));
		out->version_from = "the file name";
	}
	/* A pip wheel: site-packages/nvidia/cudnn/lib/libcudnn.so.9 and nvidia_cudnn_cu12-*.dist-info. */
	{
		char *dir = pt_xstrdup(path), *s;

		for (int up = 0; up < 4 && (s = strrchr(dir, '/')) && s != dir; up++) {
			char *dist;

			*s = '\0';
			if (up == 0)
				continue;	/* the library's own directory holds no dist-info */
			dist = find_dist(dir, stack[k].wheel);
			if (dist) {
				const char *cu = strstr(dist, "_cu"), *dash = strchr(dist, '-');

				/* nvidia_cudnn_cu13: the "_cu" followed by digits, not the one of "_cudnn". */
				while (cu && !isdigit((unsigned char)cu[3]))
					cu = strstr(cu + 3, "_cu");

				keep(st, dist);
				if (cu && dash && cu < dash && isdigit((unsigned char)cu[3]))
					out->for_cuda = atoi(cu + 3);
				else if (k == 0 && dash)
					out->for_cuda = atoi(dash + 1);
				if (out->for_cuda)
					out->for_cuda_from = dist;
				if (!out->version && dash) {
					out->version = keep(st, pt_xstrndup(dash + 1, strlen(dash + 1) - 10));
					out->version_from = dist;
				}
				break;
			}
		}
		free(dir);
	}
	return 0;
}

static const struct cudastack_loaded *find(const struct cudastack_loaded *l, size_t n, const char *stem)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i].stem, stem))
			return &l[i];
	return NULL;
}

/* "9.19.0 (/x/libcudnn.so.9, file name)" */
static char *loaded_text(const char *version, const char *path, const char *from)
{
	if (path)
		return pt_xasprintf("%s (%s%s%s)", version ? version : "an unknown version", path,
				    from ? ", version from " : "", from ? from : "");
	return pt_xasprintf("%s (%s)", version, from);
}

static void compare_one(const char *what, const char *built, const char *built_from, const char *ver,
			const char *path, const char *from, bool minor_forward, const char *consequence,
			const char *python, struct pt_diag *f)
{
	long b[3], l[3];
	char *lt;

	if (!built || !ver || parse_ver(built, b) < 1 || parse_ver(ver, l) < 1)
		return;
	lt = loaded_text(ver, path, from);
	if (b[0] != l[0])
		pt_diag_add(f, PT_SEV_WARNING, python, "cudastack",
			    "%s: torch is built with %s %s (%s) but loads %s: another major version%s%s",
			    what, what, built, built_from, lt, consequence ? "; " : "", consequence ? consequence : "");
	else if (minor_forward && b[1] >= 0 && l[1] >= 0 && l[1] < b[1])
		pt_diag_add(f, PT_SEV_WARNING, python, "cudastack",
			    "%s: torch is built with %s %s (%s) but loads the older %s: a library older "
			    "than the one built against lacks what torch may call%s%s", what, what, built,
			    built_from, lt, consequence ? "; " : "", consequence ? consequence : "");
	else
		pt_diag_add(f, PT_SEV_NOTE, python, "cudastack", "%s: built with %s (%s), loads %s: versions compatible",
			    what, built, built_from, lt);
	free(lt);
}

void cudastack_compare(const struct showconfig *cfg, const char *torch_cuda,
		       const struct cudastack_loaded *libs, size_t n, const char *python,
		       struct pt_diag *f)
{
	const struct cudastack_loaded *rt = find(libs, n, "libcudart"), *dnn = find(libs, n, "libcudnn");
	const struct cudastack_loaded *nccl = find(libs, n, "libnccl");
	const char *cuda = NULL, *cuda_from = NULL, *cudnn = NULL, *cudnn_from = NULL;
	const char *s;
	long cv[3] = { -1, -1, -1 };

	/* Built with: the "Built with" sub-lines are the compile-time versions where they differ. */
	if (cfg && cfg->built_with_cuda_runtime) {
		cuda = cfg->built_with_cuda_runtime;
		cuda_from = "show_config's Built with CUDA Runtime";
	} else if (cfg && (s = showconfig_setting(cfg, "CUDA_VERSION")) && *s) {
		cuda = s;
		cuda_from = "CUDA_VERSION build setting";
	} else if (torch_cuda) {
		cuda = torch_cuda;
		cuda_from = "torch.version.cuda";
	}
	if (cfg && cfg->built_with_cudnn_version) {
		cudnn = cfg->built_with_cudnn_version;
		cudnn_from = "show_config's Built with CuDNN";
	} else if (cfg && (s = showconfig_setting(cfg, "CUDNN_VERSION")) && *s) {
		cudnn = s;
		cudnn_from = "CUDNN_VERSION build setting";
	}
	if (cuda)
		parse_ver(cuda, cv);

	/* The CUDA runtime: the file mapped, else what torch reported (show_config's CUDA Runtime). */
	if (rt && rt->version)
		compare_one("CUDA runtime", cuda, cuda_from, rt->version, rt->path, rt->version_from, true,
			    "CUDA fails to start or calls fail (cudaErrorCallRequiresNewerDriver, undefined "
			    "symbols)", python, f);
	else if (cfg && cfg->cuda_runtime)
		compare_one("CUDA runtime", cuda, cuda_from, cfg->cuda_runtime, NULL,
			    "show_config's CUDA Runtime line", true, NULL, python, f);

	/* cuDNN: torch's own check (torch.backends.cudnn) wants the same major, a minor not older. */
	{
		const char *ver = dnn && dnn->version ? dnn->version : cfg ? cfg->cudnn_version : NULL;
		const char *from = dnn && dnn->version ? dnn->version_from : "show_config's CuDNN line";
		int for_cuda = dnn ? dnn->for_cuda : 0;
		const char *for_from = dnn && dnn->for_cuda ? dnn->for_cuda_from : NULL;
		long fc[3];

		compare_one("cuDNN", cudnn, cudnn_from, ver, dnn ? dnn->path : NULL, from, true,
			    "torch raises 'cuDNN version incompatibility' at the first cuDNN call", python, f);
		if (!for_cuda && cfg && cfg->cudnn_cuda && parse_ver(cfg->cudnn_cuda, fc) >= 1) {
			for_cuda = (int)fc[0];
			for_from = "show_config's built against CUDA";
		}
		if (for_cuda && cv[0] > 0 && for_cuda != cv[0])
			pt_diag_add(f, PT_SEV_WARNING, python, "cudastack",
				    "cuDNN: the cuDNN loaded%s%s%s is the build for CUDA %d (%s), torch is built "
				    "for CUDA %s (%s): cuDNN supports only the CUDA major it is built for; install "
				    "the cuDNN for CUDA %ld (nvidia-cudnn-cu%ld)",
				    dnn && dnn->path ? ", " : "", dnn && dnn->path ? dnn->path : "",
				    dnn && dnn->path ? "," : "", for_cuda, for_from, cuda, cuda_from, cv[0], cv[0]);
	}

	/* NCCL: torch does not print the NCCL it was built with; its CUDA major must match. */
	if (nccl) {
		const char *use = cfg ? showconfig_setting(cfg, "USE_NCCL") : NULL;

		if (nccl->for_cuda && cv[0] > 0 && nccl->for_cuda != cv[0])
			pt_diag_add(f, PT_SEV_WARNING, python, "cudastack",
				    "NCCL: the NCCL loaded, %s (%s, %s), is the build for CUDA %d, torch is built "
				    "for CUDA %s (%s): NCCL supports only the CUDA major it is built for; install the NCCL for CUDA %ld "
				    "(nvidia-nccl-cu%ld)", nccl->version ? nccl->version : "?", nccl->path,
				    nccl->version_from ? nccl->version_from : "no version known", nccl->for_cuda,
				    cuda, cuda_from, cv[0], cv[0]);
		else
			pt_diag_add(f, PT_SEV_NOTE, python, "cudastack",
				    "NCCL: loads %s (%s%s%s)%s%s", nccl->version ? nccl->version : "an unknown version",
				    nccl->path, nccl->version_from ? ", version from " : "",
				    nccl->version_from ? nccl->version_from : "", use ? "; USE_NCCL=" : "",
				    use ? use : "");
	}
}

/* torch.backends.cudnn.version() (91900) as "9.19.0", cuDNN 9's numbering; 8902 as "8.9.2". */
static char *cudnn_number(long v)
{
	if (v >= 90000)
		return pt_xasprintf("%ld.%ld.%ld", v / 10000, v % 10000 / 100, v % 100);
	return pt_xasprintf("%ld.%ld.%ld", v / 1000, v % 1000 / 100, v % 100);
}

void cudastack_check(const struct pyenv_report *r, const struct showconfig *cfg, const char *ext,
		     struct pt_diag *findings)
{
	struct cudastack_loaded libs[N_STACK] = { 0 };
	struct cudastack_store st = { 0 };
	struct resolve_result res = { 0 };
	bool have_res = false;
	size_t n = 0;

	if (r->torch_ok && !r->cuda)
		return;
	if (r->torch_ok) {
		for (size_t i = 0; i < r->n_loaded && n < N_STACK; i++) {
			struct cudastack_loaded l;

			if (r->loaded[i].realpath && cudastack_identify(r->loaded[i].realpath, &l, &st) == 0 &&
			    !find(libs, n, l.stem))
				libs[n++] = l;
		}
	} else if (ext) {
		struct ldpath_env env;
		struct pt_diag quiet;

		pt_diag_init(&quiet);
		ldpath_env_init(&env, "", &quiet);
		env.ld_library_path = r->ld_library_path;
		have_res = resolve_tree(ext, &env, &res, &quiet) == 0;
		for (size_t i = 0; have_res && i < res.n_objs && n < N_STACK; i++) {
			struct cudastack_loaded l;

			if (cudastack_identify(res.objs[i].realpath, &l, &st) == 0 && !find(libs, n, l.stem))
				libs[n++] = l;
		}
		ldpath_env_release(&env);
		pt_diag_release(&quiet);
	}
	/* A libcudnn.so.9 without a version in its name: torch's own answer. */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(libs[i].stem, "libcudnn") && r->cudnn_version > 0 &&
		    (!libs[i].version || strcmp(libs[i].version_from, "the file name"))) {
			libs[i].version = keep(&st, cudnn_number(r->cudnn_version));
			libs[i].version_from = "torch.backends.cudnn.version()";
		}
	cudastack_compare(cfg, r->cuda, libs, n, r->python, findings);
	if (have_res)
		resolve_release(&res);
	cudastack_store_release(&st);
}
