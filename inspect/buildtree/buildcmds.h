/*
 * The compile commands of a tree, kept between `ptinspect build` runs so that
 * --since-last can show a command change as its flag diff. .ninja_log keeps
 * only a 64-bit hash of each edge's command (build_log.cc: MurmurHash64A of
 * the evaluated command, seed 0xDECAFBADDECAFBAD, logs v5 and v6; whether a
 * v7 log hashes alike is checked on the log, build_commands_agree), so the old text is never in the tree: each run records the
 * commands it sees, output -> command and its hash as ninja computes it, in
 * $XDG_CACHE_HOME/ptools/build-commands/<hash of the tree's real path>.json
 * (outside the tree), and a later run finds there the command whose hash is
 * the one the previous .ninja_log record holds. Bytes and lengths in, structs
 * and diagnostics out; the file is written whole to a temporary file and
 * renamed into place.
 */
#ifndef PT_BUILDCMDS_H
#define PT_BUILDCMDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* ninja's command hash (build_log.cc, HashCommand, logs v5 and v6). */
uint64_t ninja_command_hash(const void *s, size_t n);

/*
 * Split a command like a POSIX shell (blanks separate; '...' literal; "..."
 * with \ before $ ` " \ newline; \ outside quotes escapes the next byte).
 * Returns 0, or -1 when a quote is left open (the tokens up to it are kept).
 */
int cmd_tokenize(const char *s, size_t n, char ***tok, size_t *n_tok);
void cmd_tokens_free(char **tok, size_t n);

/*
 * The flags of old and new compared as multisets, a flag and its separate
 * argument taken as one (-D X, -I X, -o X, -gencode X, -isystem X, ...: -D,
 * -U, -I, -L, -l joined as written without the blank). A removed flag and an
 * added one of the same kind make one change "A -> B" (-DNAME, -O, -g, -std,
 * -f[no-]X, -W[no-]X, -X=...).
 */
struct cmd_change {
	char *from, *to;	/* NULL: added (from) or removed (to) */
};

struct cmd_diff {
	struct cmd_change *v;
	size_t n, alloc;
	bool reordered;		/* the same flags in another order */
	char *text;		/* "-DA=1 -> -DA=2, -O0 -> -O1, added -g, removed -DB"; "the same flags ..." */
};

void cmd_flag_diff(const char *old_cmd, const char *new_cmd, struct cmd_diff *d);
void cmd_flag_diff_release(struct cmd_diff *d);

/* One recorded command. */
struct cmd_record {
	char *output;		/* as ninja names it (relative to the build dir) */
	uint64_t hash;		/* ninja_command_hash(command) */
	char *command;
};

struct cmd_cache {
	char *tree;		/* the build dir's real path */
	struct cmd_record *v;	/* an output's latest command first, then an earlier one */
	size_t n, alloc;
	size_t n_dropped;	/* not kept: past the size cap */
};

/* The cap on the cache file (bytes of commands and outputs). */
#define CMD_CACHE_MAX ((size_t)64 << 20)

/*
 * Where the cache of the build dir lies: $XDG_CACHE_HOME (else $HOME/.cache)
 * /ptools/build-commands/<16 hex digits: ninja_command_hash of the real
 * path>.json. NULL when PTOOLS_NO_CACHE=1, or no real path, or neither
 * variable is set; *real: the real path (the caller frees).
 */
char *cmd_cache_path(const char *dir, char **real);

/*
 * The cache file: {"format": "ptools-build-commands", "version": 1, "tree":
 * PATH, "commands": [{"output", "hash": 16 hex digits, "command"}, ...]}.
 * Entries with a hash that is not their command's are dropped (said in d).
 * Returns 0, or -1 when it is not such a file (a warning in d naming src).
 */
int cmd_cache_parse(const uint8_t *buf, size_t len, struct cmd_cache *c, const char *src, struct pt_diag *d);
/* The recorded command of output whose hash is hash, or NULL. */
const struct cmd_record *cmd_cache_find(const struct cmd_cache *c, const char *output, uint64_t hash);
/* Append (copies); sizes beyond CMD_CACHE_MAX are counted in n_dropped instead. */
void cmd_cache_add(struct cmd_cache *c, const char *output, const char *command, size_t *bytes);
/*
 * The next cache: now's records, and for each output the latest earlier
 * command of old whose hash differs (an output now lacks: dropped).
 */
void cmd_cache_merge(const struct cmd_cache *now, const struct cmd_cache *old, struct cmd_cache *out);
/* Write it to path (directories made, temporary file + rename). 0, or -1 (a note in d). */
int cmd_cache_write(const char *path, const struct cmd_cache *c, struct pt_diag *d);
void cmd_cache_release(struct cmd_cache *c);

/*
 * The build dir's commands as ninja evaluates them: `ninja -C DIR -t compdb`
 * (ninja 1.10 and later print every rule's edges with their output). Returns
 * 0, or -1 when ninja is not there, fails or takes over
 * CMD_NINJA_TIMEOUT_S (nothing said: the caller says the old command is not
 * known). It only reads the manifest, but the manifest may include a file
 * that never ends (a FIFO): the caller runs it only when buildtree read every
 * ninja file as a regular file (ninja_whole), and the deadline (childwait)
 * covers what buildtree does not read (nested includes).
 */
#define CMD_NINJA_TIMEOUT_S 30
int cmd_cache_from_ninja(const char *dir, struct cmd_cache *c);

#endif
