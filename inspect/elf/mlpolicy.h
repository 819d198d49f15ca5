/*
 * manylinux / musllinux policies, from auditwheel's own policy files
 * (manylinux-policy.json, musllinux-policy.json of Debian's
 * python3-auditwheel, embedded at build time: inspect/elf/data/README.md),
 * and the questions auditwheel answers with them
 * (auditwheel/policy/__init__.py): which policy a set of required symbol
 * versions satisfies (versioned_symbols_policy), which libraries a policy
 * lets a wheel take from the system (lib_whitelist), and whether a wheel's
 * platform tag claims more than its files allow.
 */
#ifndef PT_MLPOLICY_H
#define PT_MLPOLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "verfloor.h"

enum mlpolicy_libc { MLPOLICY_GLIBC, MLPOLICY_MUSL };

/* One family's allowed versions in one policy ("GLIBC" -> "GLIBC_2.2.5", ...). */
struct mlpolicy_family {
	char *prefix;		/* "GLIBC", "GLIBCXX", "CXXABI", "GCC", "ZLIB", "LIBATOMIC" */
	char **versions;	/* full names, "GLIBC_2.17", sorted (strcmp) for bsearch */
	size_t n;
};

struct mlpolicy {
	char *name;		/* with the architecture: "manylinux_2_17_x86_64"; "linux_x86_64" */
	char **aliases;		/* "manylinux2014_x86_64" */
	size_t n_aliases;
	int priority;		/* higher: older, more compatible; 0 for linux */
	int glibc_major, glibc_minor;	/* from the name (2, 17); musl: (1, 2); 0 for linux */
	struct mlpolicy_family *fam;
	size_t n_fam;
	char **whitelist;	/* libraries a wheel may take from the system */
	size_t n_whitelist;
};

/* The policies of one libc for one architecture, highest priority first; linux last. */
struct mlpolicy_set {
	enum mlpolicy_libc libc;
	char *arch;		/* "x86_64" */
	struct mlpolicy *v;
	size_t n;
	const char *source;	/* provenance: "auditwheel 6.7.0 (Debian python3-auditwheel ...)" */
};

/*
 * Parse a policy file (JSON bytes) for arch, as auditwheel's WheelPolicies
 * does: only the policies that list arch, plus "linux". Returns 0, or -1
 * with a PT_SEV_ERROR in diag (not JSON, not a policy list, arch unknown to
 * every policy). source is kept as a pointer.
 */
int mlpolicy_load(struct mlpolicy_set *s, enum mlpolicy_libc libc, const char *arch,
		  const char *json, size_t len, const char *source, struct pt_diag *diag);

/* The same from the embedded copy of auditwheel's file. */
int mlpolicy_load_builtin(struct mlpolicy_set *s, enum mlpolicy_libc libc, const char *arch,
			  struct pt_diag *diag);
void mlpolicy_release(struct mlpolicy_set *s);

/* The embedded file's bytes and its provenance line (static storage). */
const char *mlpolicy_builtin_json(enum mlpolicy_libc libc, size_t *len);
const char *mlpolicy_builtin_source(void);

/* By name or alias ("manylinux2014_x86_64"), or NULL. */
const struct mlpolicy *mlpolicy_find(const struct mlpolicy_set *s, const char *name);

/*
 * auditwheel's versioned_symbols_policy: the highest-priority policy whose
 * families allow every required version of a family it lists (versions of
 * other families, e.g. OPENSSL_3.0, do not count). Never NULL ("linux" at
 * worst). *blocking (may be NULL) gets the first required version, in the
 * order given, that the next higher policy lacks (what holds the tag down),
 * or NULL at the top; it points into versions.
 */
const struct mlpolicy *mlpolicy_implied(const struct mlpolicy_set *s, char *const *versions,
					size_t n, const char **blocking);

/* Whether policy p lets a wheel take soname from the system (lib_whitelist). */
bool mlpolicy_whitelisted(const struct mlpolicy *p, const char *soname);

/* One platform tag of a wheel, against what its files imply. */
struct mlpolicy_claim {
	char *tag;			/* as written: "manylinux_2_17_x86_64" */
	const struct mlpolicy *policy;	/* the policy it names, or NULL */
	bool other_arch;		/* a tag of another architecture or libc */
	bool unknown;			/* not a tag auditwheel's policies know, nor manylinux_X_Y */
	/*
	 * The claim holds: the tag is no newer-compatible than the implied policy
	 * (its priority is at most the implied one's; a manylinux_X_Y the file
	 * does not list is compared by its glibc X.Y).
	 */
	bool ok;
};

/*
 * Check a wheel's platform tag (one tag, or a compressed set
 * "manylinux_2_17_x86_64.manylinux2014_x86_64") against implied. Returns
 * the number of claims written to *out (caller frees with
 * mlpolicy_claims_release); each tag is one claim.
 */
size_t mlpolicy_check_claim(const struct mlpolicy_set *s, const struct mlpolicy *implied,
			    const char *platform_tag, struct mlpolicy_claim **out);
void mlpolicy_claims_release(struct mlpolicy_claim *c, size_t n);

/*
 * Everything said about one object's floor: the policies of its libc and
 * architecture (loaded from the embedded files), the implied policy, what
 * holds it down, and the claims of a platform tag when one is given.
 */
struct mlpolicy_answer {
	struct mlpolicy_set set;	/* empty (n == 0) when the architecture is unknown */
	const struct mlpolicy *implied;	/* NULL only when set is empty */
	const char *blocking;		/* into the verfloor's versions, or NULL */
	struct mlpolicy_claim *claims;
	size_t n_claims;
};

/*
 * The answer for floor f (verfloor_compute), against claimed (a wheel's
 * platform tag, or NULL). Returns 0, or -1 when the embedded policies could
 * not be read for f's architecture (a note in diag; a->implied NULL).
 */
int mlpolicy_answer(const struct verfloor *f, const char *claimed, struct mlpolicy_answer *a,
		    struct pt_diag *diag);
void mlpolicy_answer_release(struct mlpolicy_answer *a);

#endif
