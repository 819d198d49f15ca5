/* Driver against runtime; see cudadriver.h. */
#include "cudadriver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"
#include "strbuf.h"
#include "xalloc.h"

/* NVIDIA's table: the first Linux driver of each CUDA toolkit release. */
static const struct {
	int maj, min;
	const char *driver;
} table[] = {
	{ 10, 0, "410.48" },	 { 10, 1, "418.39" },	  { 10, 2, "440.33" },
	{ 11, 0, "450.36.06" },	 { 11, 1, "455.23" },	  { 11, 2, "460.27.03" },
	{ 11, 3, "465.19.01" },	 { 11, 4, "470.42.01" },  { 11, 5, "495.29.05" },
	{ 11, 6, "510.39.01" },	 { 11, 7, "515.43.04" },  { 11, 8, "520.61.05" },
	{ 12, 0, "525.60.13" },	 { 12, 1, "530.30.02" },  { 12, 2, "535.54.03" },
	{ 12, 3, "545.23.06" },	 { 12, 4, "550.54.14" },  { 12, 5, "555.42.02" },
	{ 12, 6, "560.28.03" },	 { 12, 8, "570.26" },	  { 12, 9, "575.51.03" },
	{ 13, 0, "580.65.06" },
};
#define N_TABLE (PT_ARRAY_SIZE(table))
/* Minor version compatibility: the minimum for every release of a major. */
static const struct {
	int maj;
	const char *driver;
} compat[] = { { 11, "450.80.02" }, { 12, "525.60.13" }, { 13, "580.65.06" } };

int cudadriver_parse_version(const char *s, int *maj, int *min, int *patch)
{
	int v[3] = { -1, -1, -1 }, k = 0;
	const char *p = s;

	while (k < 3) {
		uint64_t x;
		ssize_t n = pt_dec_u64(p, strlen(p), 1000000, &x);

		if (n == 0)
			break;
		if (n < 0)
			return -1;
		v[k++] = (int)x;
		p += n;
		if (*p != '.')
			break;
		p++;
	}
	*maj = v[0];
	*min = v[1];
	*patch = v[2];
	return k ? 0 : -1;
}

static int vcmp(const char *a, const char *b)
{
	int x[3] = { -1, -1, -1 }, y[3] = { -1, -1, -1 };	/* as parse leaves them when it gives up */

	cudadriver_parse_version(a, &x[0], &x[1], &x[2]);
	cudadriver_parse_version(b, &y[0], &y[1], &y[2]);
	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

int cudadriver_from_libcuda(const char *path, char *out, size_t n)
{
	const char *b = strrchr(path, '/'), *so;
	int a, c, d;

	b = b ? b + 1 : path;
	so = strstr(b, "libcuda.so.");
	if (!so)
		return -1;
	so += strlen("libcuda.so.");
	/* libcuda.so.1 is the SONAME, not a driver version. */
	if (cudadriver_parse_version(so, &a, &c, &d) < 0 || c < 0 || a < 100)
		return -1;
	pt_fmt_trunc(out, n, "%s", so);
	return 0;
}

int cudadriver_from_proc(const char *text, size_t len, char *out, size_t n)
{
	static const char key[] = "Kernel Module";
	const char *p = memmem(text, len, key, sizeof(key) - 1);
	size_t i, s;

	if (!p)
		return -1;
	i = (size_t)(p - text) + sizeof(key) - 1;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == ':'))
		i++;
	/* "NVIDIA UNIX Open Kernel Module for x86_64  550.54.15": skip words to the number. */
	while (i < len && text[i] != '\n' && (text[i] < '0' || text[i] > '9')) {
		while (i < len && text[i] != ' ' && text[i] != '\n')
			i++;
		while (i < len && text[i] == ' ')
			i++;
	}
	s = i;
	while (i < len && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.'))
		i++;
	if (i == s || i - s >= n)
		return -1;
	memcpy(out, text + s, i - s);
	out[i - s] = '\0';
	return 0;
}

int cudadriver_runtime_from_path(const char *path, int *maj, int *min)
{
	const char *b = strrchr(path, '/'), *so;
	int p;

	b = b ? b + 1 : path;
	so = strstr(b, "libcudart.so.");
	*maj = *min = -1;
	if (!so)
		return -1;
	return cudadriver_parse_version(so + strlen("libcudart.so."), maj, min, &p);
}

int cudadriver_cuda_for_driver(const char *driver, int *minor_out)
{
	int best = -1;

	for (size_t i = 0; i < N_TABLE; i++)
		if (vcmp(driver, table[i].driver) >= 0)
			best = (int)i;
	if (best < 0)
		return -1;
	*minor_out = table[best].min;
	return table[best].maj;
}

const char *cudadriver_min_driver(int maj, int min, int use_compat)
{
	if (use_compat) {
		for (size_t i = 0; i < PT_ARRAY_SIZE(compat); i++)
			if (compat[i].maj == maj)
				return compat[i].driver;
	}
	for (size_t i = 0; i < N_TABLE; i++)
		if (table[i].maj == maj && (min < 0 ? 1 : table[i].min >= min))
			return table[i].driver;
	return NULL;
}

enum cudadriver_verdict cudadriver_check(const char *driver, int rt_maj, int rt_min, char *why,
					 size_t n)
{
	const char *need_major = cudadriver_min_driver(rt_maj, rt_min, 1);
	const char *need_full = cudadriver_min_driver(rt_maj, rt_min, 0);
	int dmin = -1, dmaj = cudadriver_cuda_for_driver(driver, &dmin);
	char rt[32], dc[32];

	if (rt_min >= 0)
		pt_fmt_trunc(rt, sizeof(rt), "%d.%d", rt_maj, rt_min);
	else
		pt_fmt_trunc(rt, sizeof(rt), "%d", rt_maj);
	if (dmaj >= 0)
		pt_fmt_trunc(dc, sizeof(dc), "CUDA %d.%d", dmaj, dmin);
	else
		pt_fmt_trunc(dc, sizeof(dc), "older than CUDA 10.0");
	if (!need_major) {
		pt_fmt_trunc(why, n, "CUDA runtime %s is not in ptinspect's driver table", rt);
		return CUDADRIVER_UNKNOWN;
	}
	if (vcmp(driver, need_major) < 0) {
		pt_fmt_trunc(why, n,
			 "the CUDA runtime (%s) is newer than the NVIDIA driver %s (%s): CUDA %d "
			 "needs driver >= %s; update the driver, or use a torch built for %s",
			 rt, driver, dc, rt_maj, need_major, dc);
		return CUDADRIVER_TOO_OLD;
	}
	if (need_full && vcmp(driver, need_full) < 0) {
		pt_fmt_trunc(why, n,
			 "the NVIDIA driver %s (%s) is older than CUDA runtime %s's own (>= %s): it runs "
			 "through minor version compatibility, but PTX built by CUDA %s cannot be JIT-compiled",
			 driver, dc, rt, need_full, rt);
		return CUDADRIVER_MINOR_COMPAT;
	}
	pt_fmt_trunc(why, n, "the NVIDIA driver %s (%s) runs CUDA runtime %s", driver, dc, rt);
	return CUDADRIVER_OK;
}
