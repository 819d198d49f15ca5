/*
 * Symbol binding as `ldd -r` checks it, without running anything: every
 * undefined, non-weak symbol of every object that a dynamic relocation
 * names (dynsym_mark_relocs: the others ld.so never binds) is looked up in the objects
 * of the scope, in load order (the executable first, as ld.so's global
 * scope), with its required version, by ld.so's matching rules (dynsym.h).
 * The symbols no object defines are what `import torch` reports as
 * "undefined symbol: ..." (only the first one; this lists all).
 */
#ifndef PT_BINDCHECK_H
#define PT_BINDCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

struct bindcheck_undef {
	size_t obj;		/* index into the paths given: the object that needs it */
	char *name;		/* mangled, as in .dynsym */
	char *version;		/* the version it requires, or NULL */
	char *version_file;	/* the library that version is required from, or NULL */
	/*
	 * Its twin of the other libstdc++ ABI (abiname.h), defined by object
	 * twin_obj, or NULL: a _GLIBCXX_USE_CXX11_ABI mismatch; user_cxx11 says
	 * which side (true: this object was built with =1, the definer with =0).
	 */
	char *twin;
	size_t twin_obj;
	bool user_cxx11;
	/* No twin, in c10::/at::/torch::, and a torch library is in the scope. */
	bool torch_gone;
};

struct bindcheck_result {
	struct bindcheck_undef *v;	/* in object order, then symbol order */
	size_t n;
	size_t n_refs;		/* undefined non-weak references checked (relocated ones) */
	size_t n_objs_read;	/* objects whose symbol table was read */
	size_t n_abi;		/* undefined symbols with an ABI twin */
	size_t n_torch_gone;	/* torch symbols the loaded torch does not export */
	bool *unread;		/* per object: no symbol table (skipped, a warning says why) */
};

/*
 * Check every object of paths[0..n) against all of them in that order.
 * Returns 0 (the undefined symbols are data), or -1 when nothing could be
 * read. Objects without a usable .dynsym are warnings and skipped. Only
 * when some symbol is undefined are the defined ones demangled (those whose
 * mangled prefix matches an undefined one's) to look for ABI twins.
 */
int bindcheck_run(const char *const *paths, size_t n, struct bindcheck_result *r,
		  struct pt_diag *diag);
void bindcheck_release(struct bindcheck_result *r);

/*
 * A symbol a linker reported undefined, by its demangled name (as ld writes
 * it), looked up among the defined dynamic symbols of the library at path
 * with either libstdc++ ABI (abiname_normalise on both sides): the
 * definition's demangled name (malloc'd) when one is there with the other
 * ABI's spelling, else NULL (also when path cannot be read: a warning).
 * What `ptinspect buildlog` says of an undefined reference.
 */
char *bindcheck_abi_definition(const char *path, const char *demangled, struct pt_diag *diag);

#endif
