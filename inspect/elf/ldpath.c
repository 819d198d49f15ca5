/*
 * Loader environment and path rules; see ldpath.h and elf-loader.md §4, §5,
 * §12, §13. Values are Debian 12 x86-64's: $LIB is lib/x86_64-linux-gnu,
 * $PLATFORM x86_64, glibc 2.36 with the legacy hwcaps subdirectories.
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

/*
 * The x86-64 micro-architecture levels glibc's hwcaps use (sysdeps/x86/
 * get-isa-level.h): v2 = CMPXCHG16B LAHF POPCNT SSE3 SSE4.1 SSE4.2 SSSE3;
 * v3 adds AVX AVX2 BMI1 BMI2 F16C FMA LZCNT MOVBE with OS support for YMM;
 * v4 adds AVX512F/BW/CD/DQ/VL with OS support for ZMM.
 */
static int x86_level(void)
{
	unsigned a, b, c, d, c81 = 0, b7 = 0;
	uint64_t xcr0 = 0;
	int v2, v3, v4;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 1;
	if (__get_cpuid(0x80000001, &a, &b, &c81, &d) == 0)
		c81 = 0;
	if (__get_cpuid_max(0, NULL) >= 7) {
		unsigned a7, c7, d7;
		__cpuid_count(7, 0, a7, b7, c7, d7);
		(void)a7, (void)c7, (void)d7;
	}
	if (c & (1u << 27))	/* OSXSAVE */
		xcr0 = xgetbv0();
	v2 = (c & (1u << 0)) && (c & (1u << 9)) && (c & (1u << 13)) && (c & (1u << 19)) &&
	     (c & (1u << 20)) && (c & (1u << 23)) && (c81 & 1u);
	v3 = v2 && (c & (1u << 28)) && (b7 & (1u << 5)) && (b7 & (1u << 3)) && (b7 & (1u << 8)) &&
	     (c & (1u << 29)) && (c & (1u << 12)) && (c81 & (1u << 5)) && (c & (1u << 22)) &&
	     (xcr0 & 6) == 6;
	v4 = v3 && (b7 & (1u << 16)) && (b7 & (1u << 30)) && (b7 & (1u << 28)) &&
	     (b7 & (1u << 17)) && (b7 & (1u << 31)) && (xcr0 & 0xe0) == 0xe0;
	return v4 ? 4 : v3 ? 3 : v2 ? 2 : 1;
}

int ldpath_env_init(struct ldpath_env *env, const char *root, struct pt_diag *diag)
{
	static char cwd[4096];
	const char *ver = gnu_get_libc_version();
	int major = 0, minor = 0, level = x86_level();
	char *cache_path;

	memset(env, 0, sizeof(*env));
	env->root = root ? root : "";
	env->cwd = getcwd(cwd, sizeof(cwd)) ? cwd : "/";
	env->lib = "lib/x86_64-linux-gnu";
	env->platform = "x86_64";
	env->n_system_dirs = sizeof(debian_system_dirs) / sizeof(debian_system_dirs[0]);
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
