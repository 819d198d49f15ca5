/*
 * --since-last: what made the last ninja run rebuild what it did. For each
 * output rebuilt with an unchanged command, its inputs (build.ninja's, and
 * the headers ninja keeps in .ninja_deps) whose mtime is newer than the
 * output's previous build in .ninja_log: grouped by input, "this header
 * changed -> N objects". Also the outputs built for the first time, those
 * whose command changed, and ccache's figures when the tree compiles through
 * it. No printing: report_build.c renders.
 */
#ifndef PT_BUILDSINCE_H
#define PT_BUILDSINCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buildcmds.h"
#include "buildtree.h"
#include "diag.h"
#include "ninjadeps.h"

/* One input that changed, and the outputs of the last run it made ninja rebuild. */
struct since_cause {
	char *input;		/* as ninja names it (absolute, or relative to the build dir) */
	char *shown;		/* relative to the source dir when under it, else input */
	bool built;		/* an output of build.ninja rebuilt by the last run (a knock-on) */
	int64_t mtime;		/* its mtime now (ns) */
	const char **outputs;	/* point into the log */
	size_t n, alloc;
	bool all_objects;	/* every output is an object file (.o) */
};

/* An output rebuilt because its command changed. */
struct since_command {
	const char *output;	/* points into the log */
	char *target;		/* its CMake target, or NULL */
	uint64_t hash, prev_hash;	/* its .ninja_log records': the last run's, the one before */
};

/* What is known of a command change (build_since_commands). */
enum since_cmd_state {
	SINCE_CMD_DIFF,		/* both commands recorded: the flag diff */
	SINCE_CMD_OLD_UNKNOWN,	/* no recorded command has the previous record's hash */
	SINCE_CMD_NOT_RECORDING,	/* --no-record / PTOOLS_NO_CACHE=1 */
	SINCE_CMD_NEW_UNKNOWN,	/* the old one is known, the last run's is not (build.ninja changed since) */
	SINCE_CMD_OTHER_HASH,	/* the log's hashes are not MurmurHash64A's of any command now (another ninja) */
	SINCE_CMD_NOTHING_TO_RECORD,	/* no commands now either (no build.ninja, no ninja): nothing recorded */
};

/* The outputs whose commands changed alike: "-DFOO=1 -> -DFOO=2: 12 objects". */
struct since_cmd_group {
	enum since_cmd_state state;
	struct cmd_diff diff;	/* SINCE_CMD_DIFF */
	const char *text;	/* diff.text, or the state's sentence */
	const char **outputs;	/* point into the log, sorted */
	size_t n, alloc;
	bool all_objects;
};

struct ccache_stats {
	bool ran;		/* ccache --print-stats ran and printed its counters */
	uint64_t direct_hit, preprocessed_hit, miss, uncacheable;
	uint64_t size_kib, files;
	int64_t zeroed, updated;	/* stats_zeroed_timestamp, stats_updated_timestamp (s; 0: never) */
};

struct build_since {
	bool have_deps;
	bool inputs_known;	/* build.ninja or .ninja_deps was read: the inputs were looked at */
	struct ninjadeps deps;
	bool moved;		/* the tree was configured elsewhere: paths mapped (see map_*) */
	char *map_from, *map_to;	/* recorded prefix -> prefix here */
	struct since_cause *causes;	/* the changed files (built == false) first, most outputs first */
	size_t n_causes, alloc_causes;
	size_t n_changed;	/* outputs rebuilt for an input (reason inputs changed) */
	size_t n_explained;	/* of them, with a newer input found */
	const char **unexplained;	/* no input newer than its previous build */
	size_t n_unexplained, alloc_unexplained;
	const char **several;	/* only rebuilt inputs changed, several of them (links, archives) */
	size_t n_several, alloc_several;
	const char **new_outputs;	/* built for the first time */
	size_t n_new, alloc_new;
	struct since_command *commands;
	size_t n_commands, alloc_commands;
	struct since_cmd_group *cmd_groups;	/* build_since_commands: most outputs first */
	size_t n_cmd_groups, alloc_cmd_groups;
	struct since_cmd_group *pending;	/* not rebuilt yet: build.ninja's command changed after the last run */
	size_t n_pending, alloc_pending, n_pending_outputs;	/* (outputs point into build_since_commands' now) */
	bool uses_ccache;	/* a compiler launcher or compiler path names ccache */
	const char *ccache_how;	/* the cache entry that says so */
	struct ccache_stats ccache;
	int64_t last_run_start;	/* wall time (ns) the last run's first edge started, 0 unknown */
	int64_t prev_run_end;	/* the latest mtime (ns) the runs before it recorded, 0 none */
	bool ccache_this_build;	/* ccache's stats were zeroed between the two: its figures are the last run's */
	bool ccache_zeroed_after;	/* ... zeroed after the last run began: not its figures */
};

/*
 * r, n: buildtree_since_last's list. Reads .ninja_deps and the inputs' mtimes;
 * run_ccache: ask `ccache --print-stats` when the tree uses ccache.
 */
void buildtree_since(struct buildtree *t, const struct build_rebuilt *r, size_t n, bool run_ccache,
		     struct build_since *s, struct pt_diag *d);
void build_since_release(struct build_since *s);

/*
 * Each command change against the recorded commands (buildcmds.h): now, the
 * commands as build.ninja has them now (NULL: not known); old, the cache as
 * recorded before this run (NULL: none yet); recording: false under
 * --no-record. Also the outputs whose command in build.ninja now is not the
 * one their latest record in l hashed (ninja rebuilds them next), in
 * s->pending. hash_known: false when the log's hashes are not ours
 * (build_commands_agree found none of a sample equal).
 */
void build_since_commands(struct build_since *s, const struct ninjalog *l, bool hash_known, bool recording,
			  const struct cmd_cache *now, const struct cmd_cache *old);
/*
 * Of up to 64 outputs of the log's latest records that now has a command for
 * (*compared), how many hash to the log's hash: none of many means the log's
 * ninja hashes another way (ninja's log v7 may; v5 and v6 are MurmurHash64A).
 */
size_t build_commands_agree(const struct ninjalog *l, const struct cmd_cache *now, size_t *compared);
/* The sentence of a state other than SINCE_CMD_DIFF. */
const char *since_cmd_state_text(enum since_cmd_state st);
const char *since_cmd_state_key(enum since_cmd_state st);

/* `ccache --print-stats` output ("key\tvalue" lines). Returns 0, or -1 when no counter was read. */
int ccache_stats_parse(const uint8_t *buf, size_t len, struct ccache_stats *c);

#endif
