/*
 * compile_commands.json (CMake's CMAKE_EXPORT_COMPILE_COMMANDS): an array of
 * {directory, file, command | arguments, output}. Parsed with jansson.
 */
#ifndef PT_COMPDB_H
#define PT_COMPDB_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct compdb_entry {
	char *directory;
	char *file;
	char *output;		/* NULL when absent */
	char *command;		/* "command", or "arguments" joined with spaces */
	size_t index;		/* position in the array */
};

struct compdb {
	struct compdb_entry *v;
	size_t n;
	size_t n_bad;
};

/* Returns 0, or -1 when it is not JSON or not an array (an error in d). */
int compdb_parse(const uint8_t *buf, size_t len, struct compdb *c, const char *src,
		 struct pt_diag *d);
void compdb_release(struct compdb *c);

/* Whether the command has the flag as a whole word ("-g", "-DNDEBUG", "-O3"). */
int compdb_has_flag(const char *command, const char *flag);

#endif
