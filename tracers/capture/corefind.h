/*
 * Where a crashed child's core went: /proc/sys/kernel/core_pattern read as
 * the kernel reads it (a file name relative to the process's directory with
 * %p and the other specifiers, core_uses_pid's ".PID", or "|program" that
 * gets the core on its stdin, systemd-coredump most often), the core size
 * limit the child had, and the gdb command line that opens the core with
 * ptgdb loaded (docs/guide-gdb.md). Nothing is printed; the result is
 * sentences and paths for the caller to show and keep.
 */
#ifndef PT_COREFIND_H
#define PT_COREFIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The kernel's core_pattern limit (CORENAME_MAX_SIZE) is 128; a longer text is read up to here. */
#define COREFIND_PATTERN_MAX 4096

/* 1 for the signals whose default action dumps core (SIGSEGV, SIGABRT, SIGBUS, ...). */
int corefind_signal_dumps(int sig);

/* What the kernel knows of the process when it names the core (format_corename). */
struct corefind_proc {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	int sig;
	const char *cwd;	/* the process's working directory, absolute */
};

enum corefind_kind {
	COREPAT_FILE,		/* a path: glob is where the core is written */
	COREPAT_PIPE,		/* "|program args": program gets the core */
	COREPAT_EMPTY,		/* no pattern: the kernel writes no core */
};

struct corefind_pattern {
	enum corefind_kind kind;
	/*
	 * COREPAT_FILE: a glob(3) pattern of the core's absolute path: the
	 * known specifiers expanded, the others (%e %E %f %t %h %c %d) '*',
	 * other characters escaped.
	 */
	char glob[COREFIND_PATTERN_MAX * 2 + 64];
	char program[COREFIND_PATTERN_MAX];	/* COREPAT_PIPE: the program's path */
	int systemd;		/* COREPAT_PIPE: the program is systemd-coredump */
};

/*
 * Read a core_pattern text (bytes and a length; it ends at the first
 * newline or NUL) for process p, with core_uses_pid. 0, or -1 when the
 * result would not fit (the text is longer than the kernel takes).
 */
int corefind_parse_pattern(const char *text, size_t len, int uses_pid,
			   const struct corefind_proc *p, struct corefind_pattern *out);

/* What is known of the crash: the child, how it ended, what it had. */
struct corefind_query {
	struct corefind_proc proc;
	int core_dumped;	/* WCOREDUMP of its wait status */
	int64_t core_limit;	/* its RLIMIT_CORE soft limit in bytes, -1 unlimited */
	int core_raised;	/* --core raised that limit for it */
	int64_t started_s;	/* when it started (epoch seconds): an older file is not its core */
	const char *exe;	/* the program, for gdb */
	const char *pattern;	/* core_pattern's text; NULL: read /proc/sys/kernel/core_pattern */
	int uses_pid;		/* core_uses_pid; -1: read /proc/sys/kernel/core_uses_pid */
	const char *ptgdb_load;	/* ptgdb's load.py; NULL: gdb without it */
};

struct corefind_result {
	char *pattern;		/* the core_pattern that applied (new string) */
	char *core;		/* the core file found (new string), NULL */
	char *note;		/* one sentence: where the core is, or why there is none */
	char *gdb;		/* a shell command line that opens it in gdb with ptgdb, NULL */
};

/* Fill *r (always: at least note). */
void corefind_locate(const struct corefind_query *q, struct corefind_result *r);
void corefind_result_release(struct corefind_result *r);

/*
 * ptgdb's load.py for this pttrace: $PTTRACE_PTGDB when set, installed beside it
 * (<bin>/../share/ptools/gdbext), at the configured data directory, or,
 * for a pttrace of the build tree, the source tree's gdbext/. New string or
 * NULL.
 */
char *corefind_ptgdb_load(void);

/* s quoted for a POSIX shell when it needs it (new string). */
char *corefind_shell_quote(const char *s);

#endif
