/* This machine's NVIDIA GPUs and driver; see gpuprobe.h. */
#include "gpuprobe.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cudadriver.h"
#include "strbuf.h"
#include "xalloc.h"

/* At most this much of a /proc file is read (they are a few hundred bytes). */
#define PROC_MAX 8192

static char *read_small(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = pt_xmalloc(PROC_MAX + 1);
	n = fread(buf, 1, PROC_MAX, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The value of "Key:   value" in text (trimmed), or NULL. Caller frees. */
static char *field(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, kl) || l[kl] != ':')
			continue;
		const char *v = l + kl + 1, *e = strchr(v, '\n');

		if (!e)
			e = v + strlen(v);
		while (v < e && isspace((unsigned char)*v))
			v++;
		while (e > v && isspace((unsigned char)e[-1]))
			e--;
		return e > v ? pt_xstrndup(v, (size_t)(e - v)) : NULL;
	}
	return NULL;
}

/* The newest CUDA a driver supports, as 12040 (cudadriver's table); 0 when unknown. */
static int driver_cuda(const char *driver)
{
	int minor = 0, major = cudadriver_cuda_for_driver(driver, &minor);

	return major < 0 ? 0 : major * 1000 + minor * 10;
}

static struct gpuprobe_gpu *add_gpu(struct gpuprobe *p)
{
	PT_GROW(p->v, p->n, p->alloc);
	memset(&p->v[p->n], 0, sizeof(p->v[0]));
	return &p->v[p->n++];
}

static int by_bus(const void *a, const void *b)
{
	const struct gpuprobe_gpu *x = a, *y = b;

	return strcmp(x->bus ? x->bus : "", y->bus ? y->bus : "");
}

void gpuprobe_proc(struct gpuprobe *p, const char *dir)
{
	char path[4096];
	char *text;
	DIR *d;
	struct dirent *de;

	text = pt_fmt(path, sizeof(path), "%s/version", dir) == 0 ? read_small(path) : NULL;
	if (!text) {
		p->proc_why = pt_xasprintf("no %s (the NVIDIA kernel driver is not loaded)", path);
		return;
	}
	p->proc = true;
	{
		char v[64];

		if (cudadriver_from_proc(text, strlen(text), v, sizeof(v)) == 0)
			p->kernel_driver = pt_xstrdup(v);
	}
	free(text);
	if (p->kernel_driver && !p->cuda_version) {
		p->cuda_version = driver_cuda(p->kernel_driver);
		if (p->cuda_version)
			p->cuda_from = "driver version";
	}
	d = pt_fmt(path, sizeof(path), "%s/gpus", dir) == 0 ? opendir(path) : NULL;
	if (!d) {
		p->proc_why = pt_xasprintf("no %s", path);
		return;
	}
	size_t first = p->n;
	while ((de = readdir(d))) {
		struct gpuprobe_gpu *g;
		char *model;

		if (de->d_name[0] == '.')
			continue;
		if (pt_fmt(path, sizeof(path), "%s/gpus/%s/information", dir, de->d_name) < 0)
			continue;	/* a path over 4096 bytes names no file */
		text = read_small(path);
		if (!text)
			continue;
		model = field(text, "Model");
		g = add_gpu(p);
		g->model = model ? model : pt_xstrdup("(no model name)");
		g->bus = field(text, "Bus Location");
		if (!g->bus)
			g->bus = pt_xstrdup(de->d_name);
		if (model && cudaarch_model_cc(model, &g->cc) == 0) {
			g->cc_known = true;
			g->cc_from = "model name";
		}
		free(text);
	}
	closedir(d);
	if (p->n > first)
		qsort(p->v + first, p->n - first, sizeof(p->v[0]), by_bus);
	if (p->n == first)
		p->proc_why = pt_xasprintf("no GPU in %s/gpus", dir);
}

/* The driver API as far as it is used here (cuda.h, stable since CUDA 4). */
typedef int (*cu_init_t)(unsigned);
typedef int (*cu_int_t)(int *);
typedef int (*cu_get_t)(int *, int);
typedef int (*cu_name_t)(char *, int, int);
typedef int (*cu_attr_t)(int *, int, int);
typedef int (*cu_err_t)(int, const char **);
enum { CU_ATTR_CC_MAJOR = 75, CU_ATTR_CC_MINOR = 76 };

/* "0000:01:00.0" and "00000000:01:00.0" are the same bus. */
static bool same_bus(const char *a, const char *b)
{
	const char *ca = strchr(a, ':'), *cb = strchr(b, ':');

	if (!ca || !cb)
		return false;
	return !strcasecmp(ca, cb) && strtoul(a, NULL, 16) == strtoul(b, NULL, 16);
}

void gpuprobe_libcuda(struct gpuprobe *p, const char *soname)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	cu_init_t init;
	cu_int_t version, count;
	cu_get_t get;
	cu_name_t name, busid;
	cu_attr_t attr;
	cu_err_t errstr;
	int rc, n = 0, drv = 0;
	const char *es = NULL;

	if (!h) {
		const char *e = dlerror();

		p->libcuda_why = pt_xstrdup(e ? e : soname);
		return;
	}
	init = (cu_init_t)dlsym(h, "cuInit");
	version = (cu_int_t)dlsym(h, "cuDriverGetVersion");
	count = (cu_int_t)dlsym(h, "cuDeviceGetCount");
	get = (cu_get_t)dlsym(h, "cuDeviceGet");
	name = (cu_name_t)dlsym(h, "cuDeviceGetName");
	busid = (cu_name_t)dlsym(h, "cuDeviceGetPCIBusId");
	attr = (cu_attr_t)dlsym(h, "cuDeviceGetAttribute");
	errstr = (cu_err_t)dlsym(h, "cuGetErrorString");
	if (!init || !version || !count || !get || !name || !attr) {
		p->libcuda_why = pt_xasprintf("%s lacks the driver API (cuInit, cuDeviceGetAttribute)",
					      soname);
		dlclose(h);
		return;
	}
	if (version(&drv) == 0 && drv > 0) {
		p->cuda_version = drv;
		p->cuda_from = "libcuda";
	}
	rc = init(0);
	if (rc != 0) {
		if (errstr)
			errstr(rc, &es);
		p->libcuda_why = pt_xasprintf("cuInit: error %d (%s)", rc, es ? es : "?");
		dlclose(h);
		return;
	}
	if (count(&n) != 0 || n < 0)
		n = 0;
	for (int i = 0; i < n; i++) {
		int dev, ma = 0, mi = 0;
		char nm[256] = "", bus[64] = "";
		struct gpuprobe_gpu *g = NULL;

		if (get(&dev, i) != 0 || attr(&ma, CU_ATTR_CC_MAJOR, dev) != 0 ||
		    attr(&mi, CU_ATTR_CC_MINOR, dev) != 0)
			continue;
		name(nm, (int)sizeof(nm) - 1, dev);
		if (busid)
			busid(bus, (int)sizeof(bus) - 1, dev);
		for (size_t k = 0; *bus && k < p->n; k++)
			if (p->v[k].bus && same_bus(p->v[k].bus, bus))
				g = &p->v[k];
		if (!g) {
			g = add_gpu(p);
			g->bus = *bus ? pt_xstrdup(bus) : NULL;
		}
		free(g->model);
		g->model = pt_xstrdup(*nm ? nm : "(no name)");
		g->cc.major = ma;
		g->cc.minor = mi;
		g->cc_known = true;
		g->cc_from = "libcuda";
	}
	p->libcuda = true;
	/* The library stays loaded: unloading a driver library buys nothing in a short run. */
}

void gpuprobe_release(struct gpuprobe *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].model);
		free(p->v[i].bus);
	}
	free(p->v);
	free(p->kernel_driver);
	free(p->proc_why);
	free(p->libcuda_why);
	memset(p, 0, sizeof(*p));
}
