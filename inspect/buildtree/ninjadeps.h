/*
 * .ninja_deps: the dependencies ninja keeps from compilers' depfiles (deps =
 * gcc), binary, written by ninja's deps_log.cc. Read as ninja 1.4 to 1.13
 * write it (format versions 3 and 4; see ninjadeps.c). Bytes and a length
 * in, the paths and each output's latest dependency list out.
 */
#ifndef PT_NINJADEPS_H
#define PT_NINJADEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct ninjadeps_entry {
	int64_t mtime;		/* the output's mtime when its deps were recorded (v4: ns, v3: s) */
	uint32_t *ids;		/* into paths */
	uint32_t n;
	bool have;		/* a deps record was seen for this id */
};

struct ninjadeps {
	int version;			/* 3 or 4 */
	char **paths;			/* by id */
	size_t n_paths, a_paths;
	struct ninjadeps_entry *deps;	/* by output id, n_paths long: the latest record of each */
	size_t a_deps;
	size_t n_deps_records;		/* deps records read (the latest and the replaced ones) */
	size_t n_outputs;		/* ids with a deps record */
	size_t valid_len;		/* bytes up to the end of the last whole record */
	bool damaged;			/* a record was cut or bad: reading stopped there, as ninja does */
	/* Built by ninjadeps_index: ids sorted by path. */
	uint32_t *by_path;
};

/*
 * Returns 0 (a damaged tail is a warning, what was before it kept), or -1
 * when the header is not a deps log's or names a version not read here (an
 * error in d). src names the file in messages.
 */
int ninjadeps_parse(const uint8_t *buf, size_t len, struct ninjadeps *l, const char *src, struct pt_diag *d);
void ninjadeps_release(struct ninjadeps *l);

/* The id of a path as ninja recorded it, or -1. Indexes on first use (not thread-safe). */
int64_t ninjadeps_find(struct ninjadeps *l, const char *path);
/* The latest deps of an output path, or NULL. */
const struct ninjadeps_entry *ninjadeps_get(struct ninjadeps *l, const char *path);

#endif
