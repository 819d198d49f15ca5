/*
 * Loader environment and path rules; see ldpath.h and elf-loader.md §4, §5,
 * §12, §13. Values are Debian 12 x86-64's: $LIB is lib/x86_64-linux-gnu,
 * $PLATFORM x86_64 (haswell or xeon_phi on Intel CPUs, as glibc's loader sets
 * it), glibc 2.36 with the legacy hwcaps subdirectories.
 */
#include "ldpath.h"

#include <cpuid.h>
#include <limits.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "strbuf.h"
#include "xalloc.h"

static const char *const debian_system_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib",
};

/* xgetbv without needing -mxsave. */
static uint64_t xgetbv0(void)
{
	uint32_t a, d;

	__asm__ volatile("xgetbv" : "=a"(a), "=d"(d) : "c"(0));
	return (uint64_t)d << 32 | a;
}

/* The CPUID bits glibc's loader decides by (sysdeps/x86/cpu-features.c). */
struct x86_cpu {
	unsigned c1, b7, c81;	/* CPUID 1 ECX, 7.0 EBX, 0x80000001 ECX */
	uint64_t xcr0;		/* 0 without OSXSAVE */
	bool intel;		/* "GenuineIntel" */
};

static void x86_cpu_read(struct x86_cpu *cpu)
{
	unsigned a, b, c, d, max;

	memset(cpu, 0, sizeof(*cpu));
	max = __get_cpuid_max(0, NULL);
	if (max == 0)
		return;
	__cpuid(0, a, b, c, d);
	cpu->intel = b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;
	if (__get_cpuid(1, &a, &b, &c, &d))
		cpu->c1 = c;
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		cpu->c81 = c;
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		cpu->b7 = b;
	}
	if (cpu->c1 & (1u << 27))	/* OSXSAVE */
		cpu->xcr0 = xgetbv0();
}

#define C1(bit) ((cpu->c1 >> (bit)) & 1u)
#define B7(bit) ((cpu->b7 >> (bit)) & 1u)
#define C81(bit) ((cpu->c81 >> (bit)) & 1u)
/* YMM (and XMM) state enabled by the OS; with it OPMASK and both ZMM halves. */
#define YMM_OS(cpu) (((cpu)->xcr0 & 6) == 6)
#define ZMM_OS(cpu) (YMM_OS(cpu) && ((cpu)->xcr0 & 0xe0) == 0xe0)

/*
 * The x86-64 micro-architecture levels glibc's hwcaps use (sysdeps/x86/
 * get-isa-level.h): v2 = CMPXCHG16B LAHF POPCNT SSE3 SSE4.1 SSE4.2 SSSE3;
 * v3 adds AVX AVX2 BMI1 BMI2 F16C FMA LZCNT MOVBE with OS support for YMM;
 * v4 adds AVX512F/BW/CD/DQ/VL with OS support for ZMM.
 */
static int x86_level(const struct x86_cpu *cpu)
{
	int v2, v3, v4;

	v2 = C1(0) && C1(9) && C1(13) && C1(19) && C1(20) && C1(23) && C81(0);
	v3 = v2 && C1(28) && B7(5) && B7(3) && B7(8) && C1(29) && C1(12) && C81(5) && C1(22) && YMM_OS(cpu);
	v4 = v3 && B7(16) && B7(30) && B7(28) && B7(17) && B7(31) && ZMM_OS(cpu);
	return v4 ? 4 : v3 ? 3 : v2 ? 2 : 1;
}

/*
 * $PLATFORM: the kernel's AT_PLATFORM ("x86_64"), which glibc's loader
 * replaces on Intel CPUs (init_cpu_features, unchanged from 2.26 to at least
 * 2.39): "xeon_phi" with AVX512CD, AVX512ER and AVX512PF usable, else
 * "haswell" with AVX2 FMA BMI1 BMI2 LZCNT MOVBE POPCNT usable. On such a CPU
 * (this project's CI machines among them) `$ORIGIN/$PLATFORM` is
 * `$ORIGIN/haswell`. *avx512_1: the legacy hwcap bit HWCAP_X86_AVX512_1,
 * set there too (Intel, AVX512CD without AVX512ER, AVX512BW DQ VL usable).
 */
static const char *x86_platform(const struct x86_cpu *cpu, bool *avx512_1)
{
	bool avx512 = ZMM_OS(cpu) && B7(16);	/* AVX512F usable */

	*avx512_1 = false;
	if (!cpu->intel)
		return "x86_64";
	if (avx512 && B7(28)) {			/* AVX512CD */
		if (B7(27)) {			/* AVX512ER */
			if (B7(26))		/* AVX512PF */
				return "xeon_phi";
		} else if (B7(30) && B7(17) && B7(31)) {
			*avx512_1 = true;
		}
	}
	if (YMM_OS(cpu) && C1(28) && B7(5) && C1(12) && B7(3) && B7(8) && C81(5) && C1(22) && C1(23))
		return "haswell";
	return "x86_64";
}
#undef C1
#undef B7
#undef C81

/*
 * glibc < 2.37's legacy hwcap subdirectories (elf/dl-hwcaps.c,
 * _dl_important_hwcaps): every non-empty combination of tls, the platform,
 * avx512_1 (when set) and x86_64, in that order, the longest first as binary
 * counting down gives them, each once. `ld.so --help` lists the components,
 * `LD_DEBUG=libs` the combinations.
 */
static void legacy_dirs(struct ldpath_env *env, bool avx512_1)
{
	const char *comp[4];
	size_t n = 0;

	comp[n++] = "tls";
	comp[n++] = env->platform;
	if (avx512_1)
		comp[n++] = "avx512_1";
	comp[n++] = "x86_64";
	env->legacy = pt_xcalloc((size_t)1 << n, sizeof(char *));
	for (unsigned mask = (1u << n) - 1; mask; mask--) {
		struct pt_strbuf b;
		bool dup = false;

		pt_strbuf_init(&b, 256);
		for (size_t i = 0; i < n; i++)
			if (mask & (1u << (n - 1 - i)))
				if (pt_strbuf_addf(&b, "%s%s", b.len ? "/" : "", comp[i]) < 0)
					PT_BUG("four short names do not fit in 256 bytes");
		for (size_t i = 0; i < env->n_legacy && !dup; i++)
			dup = !strcmp(env->legacy[i], b.buf);
		if (dup)
			pt_strbuf_release(&b);
		else
			env->legacy[env->n_legacy++] = pt_strbuf_detach(&b);
	}
}

int ldpath_env_init(struct ldpath_env *env, const char *root, struct pt_diag *diag)
{
	static char cwd[4096];
	const char *ver = gnu_get_libc_version();
	int major = 0, minor = 0, level;
	struct x86_cpu cpu;
	bool avx512_1;
	char *cache_path;

	memset(env, 0, sizeof(*env));
	x86_cpu_read(&cpu);
	level = x86_level(&cpu);
	env->root = root ? root : "";
	env->cwd = getcwd(cwd, sizeof(cwd)) ? cwd : "/";
	env->lib = "lib/x86_64-linux-gnu";
	env->platform = x86_platform(&cpu, &avx512_1);
	env->n_system_dirs = PT_ARRAY_SIZE(debian_system_dirs);
	env->system_dirs = pt_xcalloc(env->n_system_dirs, sizeof(char *));
	for (size_t i = 0; i < env->n_system_dirs; i++)
		env->system_dirs[i] = pt_xstrdup(debian_system_dirs[i]);
	env->hwcaps = pt_xcalloc(3, sizeof(char *));
	env->a_hwcaps = 3;
	for (int l = 4; l >= 2; l--)
		if (level >= l)
			env->hwcaps[env->n_hwcaps++] = pt_xasprintf("x86-64-v%d", l);
	/* glibc 2.37 dropped the legacy tls/ and platform subdirectories. */
	if (sscanf(ver, "%d.%d", &major, &minor) == 2)
		env->legacy_hwcaps = major == 2 && minor < 37;
	if (env->legacy_hwcaps)
		legacy_dirs(env, avx512_1);
	cache_path = ldpath_in_root(env, "/etc/ld.so.cache");
	env->cache_path = cache_path;
	if (ldcache_load(&env->cache, cache_path, diag) != 0)
		env->no_cache = true;
	return 0;
}

void ldpath_env_release(struct ldpath_env *env)
{
	for (size_t i = 0; i < env->n_system_dirs; i++)
		free(env->system_dirs[i]);
	free(env->system_dirs);
	for (size_t i = 0; i < env->n_hwcaps; i++)
		free(env->hwcaps[i]);
	free(env->hwcaps);
	for (size_t i = 0; i < env->n_legacy; i++)
		free(env->legacy[i]);
	free(env->legacy);
	ldcache_release(&env->cache);
	free((char *)env->cache_path);
	memset(env, 0, sizeof(*env));
}

/*
 * Symbolic links inside --root are followed as the loader in that root sees
 * them: an absolute target starts again at the root, ".." stops there.
 * Debian's NVIDIA driver libraries are reached through /etc/alternatives
 * (libcuda.so.1 -> /etc/alternatives/nvidia--libcuda.so.1-x86_64-linux-gnu
 * -> /usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.1); read as host
 * paths those links point outside the root, at nothing.
 */
#define IN_ROOT_MAX_LINKS 40

char *ldpath_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return pt_xstrdup(".");
	if (slash == path)
		return pt_xstrdup("/");
	return pt_xstrndup(path, (size_t)(slash - path));
}

char *ldpath_absolute(const struct ldpath_env *env, const char *path)
{
	if (path[0] == '/')
		return pt_xstrdup(path);
	return pt_xasprintf("%s/%s", env->cwd, path);
}

char *ldpath_in_root(const struct ldpath_env *env, const char *path)
{
	struct pt_strbuf cur;	/* resolved so far, inside the root ("" is its top) */
	char *todo, *rest;
	int links = 0;
	size_t rl;

	if (!env->root || !*env->root || path[0] != '/')
		return pt_xstrdup(path);
	rl = strlen(env->root);
	if (rl + 1 >= 1 << 16)
		return pt_xstrdup(path);	/* a root of 64 KiB: no file is there */
	pt_strbuf_init(&cur, 1 << 16);
	if (pt_strbuf_adds(&cur, env->root) < 0)
		PT_BUG("a root shorter than the cap does not fit");
	todo = pt_xstrdup(path);
	rest = todo;
	while (*rest) {
		char *comp, *slash, link[PATH_MAX];
		struct stat st;
		ssize_t n;

		while (*rest == '/')
			rest++;
		if (!*rest)
			break;
		comp = rest;
		slash = strchr(rest, '/');
		rest = slash ? slash + 1 : rest + strlen(rest);
		if (slash)
			*slash = '\0';
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *s = strrchr(cur.buf, '/');

			if (s && (size_t)(s - cur.buf) >= rl) {
				*s = '\0';
				cur.len = (size_t)(s - cur.buf);
			}
			continue;
		}
		size_t before = cur.len;
		if (pt_strbuf_addf(&cur, "/%s", comp) < 0)
			break;	/* past 64 KiB (a symlink loop growing the path): resolved this far */
		if (links >= IN_ROOT_MAX_LINKS || lstat(cur.buf, &st) != 0 || !S_ISLNK(st.st_mode))
			continue;
		n = readlink(cur.buf, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		links++;
		cur.buf[before] = '\0';
		cur.len = before;
		if (link[0] == '/') {
			cur.buf[rl] = '\0';
			cur.len = rl;
		}
		char *next = pt_xasprintf("%s/%s", link, rest);

		free(todo);
		todo = rest = next;
	}
	free(todo);
	if (cur.len == rl && pt_strbuf_adds(&cur, "/") < 0)
		PT_BUG("the root alone fills the buffer");
	return pt_strbuf_detach(&cur);
}

/* Length of the DST name at s (after '$'), with *brace set for ${...}; 0 if none. */
static size_t dst_name(const char *s, const char **name, size_t *namelen)
{
	if (*s == '{') {
		const char *e = strchr(s, '}');
		if (!e)
			return 0;
		*name = s + 1;
		*namelen = (size_t)(e - s - 1);
		return (size_t)(e - s + 1);
	}
	size_t n = 0;
	while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
	       (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
		n++;
	*name = s;
	*namelen = n;
	return n;
}

char *ldpath_expand(const char *s, const char *origin, const struct ldpath_env *env,
		    bool is_path_list_element)
{
	size_t cap = strlen(s) * 4 + 4096, len = 0;
	char *out = pt_xmalloc(cap);

	for (const char *p = s; *p;) {
		const char *name, *val = NULL;
		size_t namelen, used;

		if (*p != '$' || !(used = dst_name(p + 1, &name, &namelen))) {
			PT_RESERVE(out, len + 2, cap);
			out[len++] = *p++;
			continue;
		}
#define IS(lit) (namelen == sizeof(lit) - 1 && !memcmp(name, lit, namelen))
		if (IS("ORIGIN")) {
			/* Secure mode: $ORIGIN only at the start of an element (§8). */
			if (env->secure && (p != s || !is_path_list_element))
				goto drop;
			val = origin;
		} else if (IS("LIB")) {
			val = env->lib;
		} else if (IS("PLATFORM")) {
			val = env->platform;
		} else {
			/* $OSNAME, $FOO ...: not a token glibc knows; kept literally. */
			size_t n = used + 1;
			PT_RESERVE(out, len + n + 1, cap);
			memcpy(out + len, p, n);
			len += n;
			p += n;
			continue;
		}
#undef IS
		/* A recognised token without a value drops the whole element. */
		if (!val || !*val)
			goto drop;
		size_t vl = strlen(val);
		PT_RESERVE(out, len + vl + 1, cap);
		memcpy(out + len, val, vl);
		len += vl;
		p += used + 1;
	}
	out[len] = '\0';
	return out;
drop:
	free(out);
	return NULL;
}

size_t ldpath_split(const char *list, bool is_ld_library_path, const char *origin,
		    const struct ldpath_env *env, char ***out)
{
	char **v = NULL;
	size_t n = 0, alloc = 0;
	const char *seps = is_ld_library_path ? ":;" : ":";
	const char *p = list;

	for (;;) {
		size_t l = strcspn(p, seps);
		char *elem = pt_xstrndup(p, l), *dir;

		/* An empty element means the current directory. */
		dir = l ? ldpath_expand(elem, origin, env, true) : pt_xstrdup(env->cwd);
		free(elem);
		if (dir) {
			size_t dl = strlen(dir);

			while (dl > 1 && dir[dl - 1] == '/')
				dir[--dl] = '\0';
			if (dir[0] != '/') {
				/* Relative elements are relative to the process's cwd. */
				char *abs = pt_xasprintf("%s/%s", env->cwd, dir);
				free(dir);
				dir = abs;
			}
			PT_GROW(v, n, alloc);
			v[n++] = dir;
		}
		if (!p[l])
			break;
		p += l + 1;
	}
	*out = v;
	return n;
}
