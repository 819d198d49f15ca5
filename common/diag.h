/*
 * Diagnostics as data: modules record "file: where: what" messages here and
 * never print; the front end decides how to show them and which exit code
 * follows (git's strbuf *err, SQLite's pzErrMsg).
 */
#ifndef PT_DIAG_H
#define PT_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum pt_severity {
	PT_SEV_NOTE,	/* informational, never changes the exit code */
	PT_SEV_WARNING,	/* a problem in the input: exit 1 */
	PT_SEV_ERROR,	/* the input could not be used at all: exit 2 */
};

struct pt_diag_msg {
	enum pt_severity sev;
	char *file;	/* may be NULL */
	char *where;	/* "offset 0x40", "line 12"; may be NULL */
	char *what;
	unsigned long long hash;	/* of the four fields: a repeated message is kept once */
};

struct pt_diag {
	struct pt_diag_msg *v;
	size_t n, alloc;
	size_t max;	/* messages past this are counted, not stored (0: 1000) */
	size_t dropped;
};

void pt_diag_init(struct pt_diag *d);
void pt_diag_release(struct pt_diag *d);

/*
 * Record one message; file and where may be NULL. Copies every string. A
 * message equal to one already stored (severity, file, where, text) is not
 * added again.
 */
void pt_diag_add(struct pt_diag *d, enum pt_severity sev, const char *file,
		 const char *where, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void pt_diag_vadd(struct pt_diag *d, enum pt_severity sev, const char *file,
		  const char *where, const char *fmt, va_list ap);

/* Number of messages at sev or worse. */
size_t pt_diag_count(const struct pt_diag *d, enum pt_severity sev);

/* Move all messages of src to the end of dst; src is left empty. */
void pt_diag_take(struct pt_diag *dst, struct pt_diag *src);

/*
 * Print every message as "prog: 'file': where: what", one a line, with
 * "warning: " / "note: " before notes and warnings. color: 1 to colour.
 */
void pt_diag_print(const struct pt_diag *d, FILE *f, const char *prog, int color);

/* One message in the same format, for front ends. */
void pt_diag_format(FILE *f, const char *prog, const struct pt_diag_msg *m, int color);

/* Lower every message worse than sev to sev (a caller that only warns). */
void pt_diag_downgrade(struct pt_diag *d, enum pt_severity sev);

/*
 * Invariants (git's BUG()): a broken one is a bug in ptools, never a message
 * for the user's input. Prints "BUG: file:line: what" on stderr and aborts.
 */
#define PT_BUG(...) pt_bug(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void pt_bug(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
