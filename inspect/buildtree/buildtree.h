/*
 * A CMake + Ninja build tree of PyTorch (setup.py's build/): the files read
 * (CMakeCache.txt, build.ninja and its includes, .ninja_log,
 * compile_commands.json) and what follows from them: configuration fields,
 * which setup.py environment variable set which, the build-time profile,
 * memory risk, the cross-check against the libraries produced. No printing:
 * report_build.c renders.
 */
#ifndef PT_BUILDTREE_H
#define PT_BUILDTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buildninja.h"
#include "cmakecache.h"
#include "compdb.h"
#include "diag.h"
#include "ninjalog.h"

struct buildtree {
	char *dir;		/* the build directory */
	char *source_dir;	/* CMAKE_HOME_DIRECTORY / torch_SOURCE_DIR, or NULL */
	bool have_cache, have_ninja, have_log, have_compdb;
	bool ninja_whole;	/* build.ninja and each include it names were read as regular files */
	struct cmakecache cache;
	struct buildninja ninja;
	struct ninjalog log;
	struct compdb compdb;
	char *cxx_version, *c_version, *cuda_version;	/* from CMakeFiles/<ver>/CMake*Compiler.cmake */
};

/*
 * DIR: a build dir (has CMakeCache.txt) or a source checkout with build/.
 * Returns 0, or -1 when neither holds a CMake cache (an error in d).
 * compdb: also read compile_commands.json (large: tens of MB).
 */
int buildtree_load(const char *dir, bool compdb, struct buildtree *t, struct pt_diag *d);
void buildtree_release(struct buildtree *t);

/*
 * A whole regular file into a new buffer (the caller frees *buf), refused past
 * max bytes: pt_read_regular (fsutil.h) with errors, so a FIFO never blocks.
 * Returns 0, 1 when it does not exist, -1 on error (in d, naming path).
 */
int build_read_file(const char *path, size_t max, uint8_t **buf, size_t *len, struct pt_diag *d);

/* One configuration field. */
struct build_field {
	const char *group;	/* "build", "compiler", "options", "cuda", "libraries" */
	const char *name;	/* "build type", "USE_CUDA", ... */
	char *value;		/* NULL: not in the cache */
	const char *key;	/* the cache key it came from, or NULL */
	const char *env;	/* setup.py environment variable that sets it, or NULL */
};

struct build_config {
	struct build_field *v;
	size_t n, alloc;
};

void buildtree_config(const struct buildtree *t, struct build_config *c);
void build_config_release(struct build_config *c);

/* The setup.py variables: name, what it sets, how. Static storage, NULL-terminated. */
struct setup_env {
	const char *env, *key, *how;
};
extern const struct setup_env setup_env_map[];

/* The .ninja_log profile. */
struct build_edge_time {
	const char *output;	/* points into the log */
	uint32_t ms;
	uint32_t start_ms;
	uint32_t run;
};

struct build_group_time {
	char *name;		/* a CMake target ("c10") or a folder ("c10/core") */
	uint64_t ms;
	size_t edges;
};

struct build_run {
	uint32_t index;
	size_t edges;
	uint64_t sum_ms;	/* the edges' durations added */
	uint32_t wall_ms;	/* first start to last end */
	double parallelism;	/* sum / wall */
	uint32_t max_concurrent;
};

struct build_profile {
	size_t n_records, n_outputs;	/* log lines, distinct outputs (latest kept) */
	struct build_run *runs;
	size_t n_runs;
	struct build_edge_time *slowest;	/* latest record per edge, slowest first */
	size_t n_slowest;
	struct build_group_time *targets, *folders;	/* slowest first */
	size_t n_targets, n_folders;
	struct build_edge_time *critical;	/* the last run's critical path, first edge first */
	size_t n_critical;
	uint64_t critical_ms;
	struct build_edge_time *last;		/* the last run's edges, slowest first */
	size_t n_last;
};

/* Needs t->have_log; uses build.ninja for the critical path when it was read. */
void buildtree_profile(const struct buildtree *t, struct build_profile *p);
void build_profile_release(struct build_profile *p);

/* The CMake target of an output ("caffe2/CMakeFiles/torch_cpu.dir/..." -> "torch_cpu"), or NULL. */
char *build_output_target(const char *output);
/* The source folder of an object output, or the output's own folder. */
char *build_output_folder(const char *output);

/* What the last run rebuilt and why (from the log: the record before it). */
enum build_rebuild_reason {
	BUILD_REBUILT_NEW,		/* no earlier record: built for the first time */
	BUILD_REBUILT_COMMAND,		/* its command hash changed (flags, defines, options) */
	BUILD_REBUILT_INPUTS,		/* same command: an input (source, header) was newer */
};

struct build_rebuilt {
	const char *output;
	uint32_t ms;
	enum build_rebuild_reason reason;
	const struct ninjalog_rec *rec;		/* its record in the last run */
	const struct ninjalog_rec *prev;	/* the one before (its previous build), NULL when new */
};

/* The last run's edges (latest record per output in it), slowest first. */
void buildtree_since_last(const struct buildtree *t, struct build_rebuilt **out, size_t *n);
const char *build_rebuild_reason_key(enum build_rebuild_reason r);

/* Memory risk. */
struct build_heavy {
	char *file;		/* the translation unit */
	const char *why;	/* the known-heavy pattern it matched */
	uint32_t ms;		/* its compile time in the log, 0 when not there */
};

struct build_memory {
	uint64_t ram_bytes;	/* this machine's */
	long max_jobs;		/* MAX_JOBS in the environment, or -1 */
	long jobs_default;	/* what setup.py uses without it: the CPU count */
	uint32_t observed_max_concurrent;	/* from the log */
	struct build_heavy *heavy;
	size_t n_heavy;
	size_t a_heavy;		/* capacity (PT_GROW) */
	size_t n_units;		/* translation units: build.ninja's compile edges (else compile_commands.json) */
};

void buildtree_memory(const struct buildtree *t, const struct build_profile *p,
		      struct build_memory *m);
/*
 * The machine's part of it alone (ram_bytes, max_jobs, jobs_default), with
 * max_jobs the value of MAX_JOBS (NULL: unset): what `ptinspect preflight`
 * checks before there is a tree. buildtree_memory starts with it.
 */
void build_memory_machine(struct build_memory *m, const char *max_jobs);
void build_memory_release(struct build_memory *m);

/* Cross-check against the libraries produced. */
struct build_lib_check {
	char *path;
	bool dwarf;		/* .debug_info in the file (or split-DWARF skeletons) */
	char *rpath, *runpath;
	bool older_than_inputs;
	char *newer_input;	/* the first input newer than it */
	char *dispatch_trace;	/* libtorch_cpu / libc10 only: "compiled in", "compiled out", NULL */
	char *cuda_arch_list;	/* the fat binaries' targets as a TORCH_CUDA_ARCH_LIST, NULL: none */
	bool is_object;		/* a CUDA object of the last build, not a library */
};

struct build_check {
	struct build_lib_check *libs;
	size_t n_libs;
	size_t a_libs;		/* capacity (PT_GROW) */
	struct pt_diag findings;	/* warnings: mismatches; notes: agreements */
};

void buildtree_check(const struct buildtree *t, struct build_check *c);
void build_check_release(struct build_check *c);

#endif
