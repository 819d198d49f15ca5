/*
 * A PyTorch build tree: loading its files and the analyses over them.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildtree.h"
#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

#define TOP_N 25

int build_read_file(const char *path, size_t max, uint8_t **buf, size_t *len, struct pt_diag *d)
{
	return pt_read_regular(path, max, PT_SEV_ERROR, 0, buf, len, d);
}

/*
 * Every file of the tree is read here, through the one checked reader: a
 * FIFO or a device is "not a regular file (a FIFO)", never a blocked read.
 * sev: PT_SEV_ERROR for the file the tree cannot do without (CMakeCache.txt),
 * PT_SEV_WARNING for the others (the report goes on without them).
 */
static int read_file(const char *path, enum pt_severity sev, uint8_t **buf, size_t *len, struct pt_diag *d)
{
	return pt_read_regular(path, PT_READ_MAX, sev, 0, buf, len, d);
}

/* There, whatever it is (a FIFO too: read_file says what is wrong with it). */
static int is_there(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* set(CMAKE_CXX_COMPILER_VERSION "14.2.0") in CMakeFiles/<cmake ver>/<file>. */
static char *compiler_version(const char *dir, const char *file, const char *var, struct pt_diag *d)
{
	char *pat = pt_xasprintf("%s/CMakeFiles/*/%s", dir, file), *out = NULL;
	glob_t g;

	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc) {
		uint8_t *buf;
		size_t len;
		if (read_file(g.gl_pathv[g.gl_pathc - 1], PT_SEV_WARNING, &buf, &len, d) == 0) {
			char *key = pt_xasprintf("set(%s \"", var);
			const char *p = memmem(buf, len, key, strlen(key));

			if (p) {
				const char *v = p + strlen(key), *e = memchr(v, '"', len - (size_t)(v - (const char *)buf));

				if (e)
					out = pt_xstrndup(v, (size_t)(e - v));
			}
			free(key);
			free(buf);
		}
	}
	if (g.gl_pathc || 1)
		globfree(&g);
	free(pat);
	return out;
}

/* compile_commands.json, read and parsed on a thread of its own (buildtree_load). */
struct compdb_job {
	char *path;
	struct compdb c;
	struct pt_diag d;
	bool ok;
};

static void *load_compdb(void *arg)
{
	struct compdb_job *j = arg;
	uint8_t *buf = NULL;
	size_t len = 0;

	if (read_file(j->path, PT_SEV_WARNING, &buf, &len, &j->d) == 0 && compdb_parse(buf, len, &j->c, j->path, &j->d) == 0)
		j->ok = true;
	free(buf);
	return NULL;
}

int buildtree_load(const char *dir, bool want_compdb, struct buildtree *t, struct pt_diag *d)
{
	uint8_t *buf;
	size_t len;
	char *p;
	int rc, compdb_started = 0;
	struct compdb_job cj;
	pthread_t compdb_thread;

	memset(t, 0, sizeof(*t));
	{
		char *a = pt_xasprintf("%s/CMakeCache.txt", dir), *b = pt_xasprintf("%s/build/CMakeCache.txt", dir);

		if (is_there(a))
			t->dir = pt_xstrdup(dir);
		else if (is_there(b))
			t->dir = pt_xasprintf("%s/build", dir);
		free(a);
		free(b);
	}
	if (!t->dir) {
		pt_diag_add(d, PT_SEV_ERROR, dir, NULL,
			    "not a CMake build tree: no CMakeCache.txt in it or in its build/");
		return -1;
	}
	p = pt_xasprintf("%s/CMakeCache.txt", t->dir);
	rc = read_file(p, PT_SEV_ERROR, &buf, &len, d);
	if (rc == 0 && cmakecache_parse(buf, len, &t->cache, p, d) == 0)
		t->have_cache = true;
	free(buf);
	free(p);
	if (!t->have_cache)
		return -1;
	{
		const char *s = cmakecache_value(&t->cache, "CMAKE_HOME_DIRECTORY");

		if (!s)
			s = cmakecache_value(&t->cache, "Torch_SOURCE_DIR");
		t->source_dir = s ? pt_xstrdup(s) : NULL;
	}
	/* compile_commands.json (tens of MB of JSON) is read while the manifest and the log are. */
	if (want_compdb) {
		memset(&cj, 0, sizeof(cj));
		cj.path = pt_xasprintf("%s/compile_commands.json", t->dir);
		pt_diag_init(&cj.d);
		compdb_started = pthread_create(&compdb_thread, NULL, load_compdb, &cj) == 0;
	}
	p = pt_xasprintf("%s/build.ninja", t->dir);
	rc = read_file(p, PT_SEV_WARNING, &buf, &len, d);
	if (rc == 0 && buildninja_parse(buf, len, &t->ninja, p, d) == 0)
		t->have_ninja = t->ninja_whole = true;
	free(buf);
	free(p);
	if (t->have_ninja && t->ninja.n_includes > 16)
		t->ninja_whole = false;
	/* CMake puts the rules in an included file; edges may be there too. */
	for (size_t i = 0; t->have_ninja && i < t->ninja.n_includes && i < 16; i++) {
		struct buildninja inc;
		const char *name = t->ninja.includes[i];

		p = name[0] == '/' ? pt_xstrdup(name) : pt_xasprintf("%s/%s", t->dir, name);
		if (read_file(p, PT_SEV_WARNING, &buf, &len, d) != 0)
			t->ninja_whole = false;
		else if (buildninja_parse(buf, len, &inc, p, d) == 0) {
			for (size_t k = 0; k < inc.n_edges; k++) {
				PT_GROW(t->ninja.edges, t->ninja.n_edges, t->ninja.alloc_edges);
				t->ninja.edges[t->ninja.n_edges++] = inc.edges[k];
			}
			for (size_t k = 0; k < inc.n_rules; k++) {
				PT_GROW(t->ninja.rules, t->ninja.n_rules, t->ninja.alloc_rules);
				t->ninja.rules[t->ninja.n_rules++] = inc.rules[k];
			}
			inc.n_edges = inc.n_rules = 0;
			buildninja_release(&inc);
		}
		free(buf);
		free(p);
	}
	if (t->have_ninja)
		buildninja_index(&t->ninja);
	p = pt_xasprintf("%s/.ninja_log", t->dir);
	rc = read_file(p, PT_SEV_WARNING, &buf, &len, d);
	if (rc == 0 && ninjalog_parse(buf, len, &t->log, p, d) == 0)
		t->have_log = true;
	free(buf);
	free(p);
	if (want_compdb) {
		if (compdb_started)
			pthread_join(compdb_thread, NULL);
		else
			load_compdb(&cj);
		/* Its messages where a reading in order would have put them. */
		for (size_t i = 0; i < cj.d.n; i++)
			pt_diag_add(d, cj.d.v[i].sev, cj.d.v[i].file, cj.d.v[i].where, "%s", cj.d.v[i].what);
		pt_diag_release(&cj.d);
		t->compdb = cj.c;
		t->have_compdb = cj.ok;
		free(cj.path);
	}
	t->cxx_version = compiler_version(t->dir, "CMakeCXXCompiler.cmake", "CMAKE_CXX_COMPILER_VERSION", d);
	t->c_version = compiler_version(t->dir, "CMakeCCompiler.cmake", "CMAKE_C_COMPILER_VERSION", d);
	t->cuda_version = compiler_version(t->dir, "CMakeCUDACompiler.cmake", "CMAKE_CUDA_COMPILER_VERSION", d);
	return 0;
}

void buildtree_release(struct buildtree *t)
{
	free(t->dir);
	free(t->source_dir);
	cmakecache_release(&t->cache);
	buildninja_release(&t->ninja);
	ninjalog_release(&t->log);
	compdb_release(&t->compdb);
	free(t->cxx_version);
	free(t->c_version);
	free(t->cuda_version);
	memset(t, 0, sizeof(*t));
}

/*
 * setup.py (tools/setup_helpers/cmake.py and env.py of torch 2.6): which
 * environment variable ends up where.
 */
const struct setup_env setup_env_map[] = {
	{ "DEBUG", "CMAKE_BUILD_TYPE", "DEBUG=1 gives Debug" },
	{ "REL_WITH_DEB_INFO", "CMAKE_BUILD_TYPE", "REL_WITH_DEB_INFO=1 gives RelWithDebInfo" },
	{ "CMAKE_BUILD_TYPE", "CMAKE_BUILD_TYPE", "used as is when neither DEBUG nor REL_WITH_DEB_INFO is set" },
	{ "MAX_JOBS", NULL, "ninja -j MAX_JOBS (not in the cache; default: the CPU count)" },
	{ "USE_NINJA", "CMAKE_GENERATOR", "USE_NINJA=0 gives Unix Makefiles" },
	{ "CMAKE_FRESH", NULL, "CMAKE_FRESH=1 runs cmake --fresh (the cache is rebuilt)" },
	{ "CUDA_HOME", "CUDA_TOOLKIT_ROOT_DIR", "passed as CUDA_TOOLKIT_ROOT_DIR; its bin/nvcc is CMAKE_CUDA_COMPILER" },
	{ "TORCH_CUDA_ARCH_LIST", "TORCH_CUDA_ARCH_LIST", "passed as is; the gencode flags follow from it" },
	{ "CFLAGS", "CMAKE_C_FLAGS", "read by CMake at the first configure (and CXXFLAGS for C++)" },
	{ "CXXFLAGS", "CMAKE_CXX_FLAGS", "read by CMake at the first configure" },
	{ "USE_*", "USE_*", "every USE_, BUILD_ and CMAKE_ variable is passed as -D (USE_CUDA=0 -> USE_CUDA:BOOL=0)" },
	{ NULL, NULL, NULL },
};

static void add_field(struct build_config *c, const char *group, const char *name, const char *value,
		      const char *key, const char *env)
{
	PT_GROW(c->v, c->n, c->alloc);
	c->v[c->n++] = (struct build_field){ group, name, value ? pt_xstrdup(value) : NULL, key, env };
}

static void add_key(struct build_config *c, const struct buildtree *t, const char *group,
		    const char *name, const char *key, const char *env)
{
	add_field(c, group, name, cmakecache_value(&t->cache, key), key, env);
}

/* The first of keys present in the cache. */
static const char *first_key(const struct buildtree *t, const char *const *keys)
{
	for (; *keys; keys++)
		if (cmakecache_get(&t->cache, *keys))
			return *keys;
	return NULL;
}

void buildtree_config(const struct buildtree *t, struct build_config *c)
{
	const char *type = cmakecache_value(&t->cache, "CMAKE_BUILD_TYPE");
	char *s;

	memset(c, 0, sizeof(*c));
	add_key(c, t, "build", "build type", "CMAKE_BUILD_TYPE", "DEBUG / REL_WITH_DEB_INFO");
	add_key(c, t, "build", "generator", "CMAKE_GENERATOR", "USE_NINJA");
	add_field(c, "build", "source", t->source_dir, "CMAKE_HOME_DIRECTORY", NULL);
	add_key(c, t, "build", "install prefix", "CMAKE_INSTALL_PREFIX", NULL);
	add_key(c, t, "compiler", "C compiler", "CMAKE_C_COMPILER", "CC");
	add_field(c, "compiler", "C compiler version", t->c_version, NULL, NULL);
	add_key(c, t, "compiler", "C++ compiler", "CMAKE_CXX_COMPILER", "CXX");
	add_field(c, "compiler", "C++ compiler version", t->cxx_version, NULL, NULL);
	add_key(c, t, "compiler", "C flags", "CMAKE_C_FLAGS", "CFLAGS");
	add_key(c, t, "compiler", "C++ flags", "CMAKE_CXX_FLAGS", "CXXFLAGS");
	if (type && *type) {
		char *k = pt_xasprintf("CMAKE_CXX_FLAGS_%s", type);

		for (char *q = k; *q; q++)
			if (*q >= 'a' && *q <= 'z')
				*q = (char)(*q - 'a' + 'A');
		s = pt_xasprintf("C++ flags (%s)", type);
		/* name and key must outlive c: keep them in the cache's own strings. */
		{
			const struct cmakecache_entry *e = cmakecache_get(&t->cache, k);

			add_field(c, "compiler", e ? "C++ flags (build type)" : "C++ flags (build type)",
				  e ? e->value : NULL, e ? e->key : NULL, "DEBUG / REL_WITH_DEB_INFO");
		}
		free(s);
		free(k);
	}
	add_key(c, t, "compiler", "linker flags", "CMAKE_SHARED_LINKER_FLAGS", "LDFLAGS");
	/* Every USE_* option, as the cache holds it. */
	for (size_t i = 0; i < t->cache.n; i++) {
		const struct cmakecache_entry *e = &t->cache.v[i];

		if (strncmp(e->key, "USE_", 4) || !strcmp(e->type, "INTERNAL") || !strcmp(e->type, "STATIC"))
			continue;
		add_field(c, "options", e->key, e->value, e->key, e->key);
	}
	add_key(c, t, "options", "BUILD_TEST", "BUILD_TEST", "BUILD_TEST");
	add_key(c, t, "options", "BUILD_PYTHON", "BUILD_PYTHON", "BUILD_PYTHON");
	add_key(c, t, "cuda", "TORCH_CUDA_ARCH_LIST", "TORCH_CUDA_ARCH_LIST", "TORCH_CUDA_ARCH_LIST");
	add_key(c, t, "cuda", "CUDA toolkit", "CUDA_TOOLKIT_ROOT_DIR", "CUDA_HOME");
	add_key(c, t, "cuda", "nvcc", "CMAKE_CUDA_COMPILER", "CUDA_HOME");
	add_field(c, "cuda", "nvcc version", t->cuda_version, NULL, NULL);
	add_key(c, t, "cuda", "CUDA flags", "CMAKE_CUDA_FLAGS", "TORCH_CUDA_ARCH_LIST");
	/* The gencode flags CMake derived from the list: a .cu unit's command (compile_commands.json). */
	for (size_t i = 0; t->have_compdb && i < t->compdb.n; i++) {
		const struct compdb_entry *e = &t->compdb.v[i];
		size_t fl = strlen(e->file);
		struct pt_strbuf sb;

		if (fl < 3 || strcmp(e->file + fl - 3, ".cu"))
			continue;
		pt_strbuf_init(&sb, 1u << 16);
		for (const char *p = e->command; (p = strstr(p, "-gencode")) != NULL;) {
			const char *q = p + 8;
			size_t n;

			while (*q == ' ' || *q == '=')
				q++;
			n = strcspn(q, " ");
			if (sb.len)
				pt_strbuf_adds_trunc(&sb, " ");
			pt_strbuf_addf_trunc(&sb, "-gencode %.*s", (int)n, q);
			p = q + n;
		}
		if (sb.len) {
			add_field(c, "cuda", "nvcc gencode", pt_strbuf_str(&sb), NULL, "TORCH_CUDA_ARCH_LIST");
			pt_strbuf_release(&sb);
			break;
		}
		pt_strbuf_release(&sb);
	}
	{
		static const char *const cudnn[] = { "CUDNN_LIBRARY_PATH", "CUDNN_LIBRARY", "CUDNN_INCLUDE_PATH", NULL };
		const char *k = first_key(t, cudnn);

		add_field(c, "cuda", "cuDNN", k ? cmakecache_value(&t->cache, k) : NULL, k, "CUDNN_LIB_DIR");
	}
	{
		static const char *const nccl[] = { "NCCL_LIBRARIES", "NCCL_LIBRARY", "NCCL_INCLUDE_DIR", NULL };
		const char *k = first_key(t, nccl);

		add_field(c, "cuda", "NCCL", k ? cmakecache_value(&t->cache, k) : NULL, k, "USE_SYSTEM_NCCL");
	}
	add_key(c, t, "libraries", "BLAS", "BLAS", "BLAS");
	{
		static const char *const blas[] = { "BLAS_LIBRARIES", "GENERIC_BLAS_LIBRARIES", "BLAS_blas_LIBRARY", NULL };
		const char *k = first_key(t, blas);

		add_field(c, "libraries", "BLAS libraries", k ? cmakecache_value(&t->cache, k) : NULL, k,
			  "GENERIC_BLAS_LIBRARIES");
	}
	{
		static const char *const lapack[] = { "LAPACK_LIBRARIES", "LAPACK_lapack_LIBRARY", NULL };
		const char *k = first_key(t, lapack);

		add_field(c, "libraries", "LAPACK", k ? cmakecache_value(&t->cache, k) : NULL, k, NULL);
	}
	{
		static const char *const py[] = { "Python_EXECUTABLE", "PYTHON_EXECUTABLE", "Python3_EXECUTABLE", NULL };
		const char *k = first_key(t, py);

		add_field(c, "libraries", "Python", k ? cmakecache_value(&t->cache, k) : NULL, k, NULL);
	}
}

void build_config_release(struct build_config *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].value);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
