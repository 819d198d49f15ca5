/*
 * Compile ids as PyTorch prints them and as tlparse names directories:
 * "[0/0]", "[0/1_1]" (attempt 1), "[!0]" and "[!0/1/0]" (compiled autograd),
 * tlparse's "-" for a missing part ("[!0/-/-]", "-_0_0_0"). Shared by the
 * TORCH_LOGS parser and the TORCH_TRACE reader.
 * See docs/formats/torch-trace-formats.md, section 3.
 */
#ifndef PT_COMPILEID_H
#define PT_COMPILEID_H

#include <stddef.h>
#include <stdint.h>

/* Four nullable parts; COMPILEID_NONE marks a missing one. */
#define COMPILEID_NONE (-1)

struct compileid {
	int64_t ca;		/* compiled autograd id ("!N") */
	int64_t frame;		/* frame id */
	int64_t compile;	/* frame compile id */
	int64_t attempt;	/* restart attempt; NONE when not written (same as 0 in PyTorch) */
};

/* All four parts missing. */
void compileid_clear(struct compileid *id);

/*
 * Parse buf[0..len): "[0/0]", "[0/0_1]", "[!0]", "[!0/1/0]", "[!0/1/0_2]", "[-/-]",
 * "[!0/-/-]", or the same without brackets ("0/1", as a --compile option is
 * written). A "-" part is missing. Returns the number of bytes used (the whole
 * bracketed id, or all of len without brackets), or -1 when buf is not a
 * compile id (*id is then cleared). Never reads outside buf[0..len).
 */
int compileid_parse(const uint8_t *buf, size_t len, struct compileid *id);

/*
 * PyTorch's form without brackets: "0/0", "0/0_1", "!0", "!0/1/0"; a missing
 * part is "-". Writes at most n bytes (NUL included) like snprintf and returns
 * the length it needed.
 */
int compileid_format(const struct compileid *id, char *out, size_t n);

/*
 * tlparse's directory name "{ca}_{frame}_{compile}_{attempt}" with "-" for a
 * missing part: "-_0_0_0", "0_1_0_0", "-_-_-_-". A missing attempt with a
 * frame compile id present is written 0 (tlparse folds runtime records into
 * attempt 0). Same return convention as compileid_format.
 */
int compileid_format_dir(const struct compileid *id, char *out, size_t n);

/* 1 when the ids are equal, a missing attempt counting as 0. */
int compileid_equal(const struct compileid *a, const struct compileid *b);

/*
 * A map from five integers (who, ca, frame, compile, attempt: a compile of a
 * process or file) to three, for lookups by compile id that must not search
 * every compile (review-reliability-2 N4, N15). Open addressing; zeroed is
 * empty. Used by the compiles load and the report.
 */
struct cidmap {
	struct cidmap_ent { int64_t k[5]; int64_t v[3]; int used; } *e;
	size_t cap, used;
};
/* The key of a compile of who, a missing attempt as 0 (compileid_equal's rule). */
void cidmap_key(int64_t *k, int64_t who, const struct compileid *cid);
/* The values of k, or NULL; with add, created (values -1) when missing. */
int64_t *cidmap_get(struct cidmap *m, const int64_t *k, int add);
void cidmap_release(struct cidmap *m);

/* Longest text compileid_format can produce, NUL included. */
#define COMPILEID_MAX 96

#endif
