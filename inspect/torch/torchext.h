/*
 * A torch C++/CUDA extension (torch.utils.cpp_extension, a custom op
 * library): which torch it was built against, read from what it needs. The
 * torch libraries it names (DT_NEEDED libc10.so, libtorch_cpu.so ...), the
 * undefined symbols in torch's namespaces (c10::, at::, torch::, caffe2::),
 * the C++ ABI its undefined C++ symbols use (std::__cxx11 names:
 * _GLIBCXX_USE_CXX11_ABI=1; std::string as `Ss`: =0), the pybind11 ABI id
 * it registers (`__pybind11_internals_v4_gcc_libstdcpp_cxxabi1011`), and the
 * torch/CUDA version in a package version's local tag ("+pt26cu124").
 *
 * torchext_against checks those torch symbols against what one torch's
 * libraries export (`--against SITE_PACKAGES/torch`): the ones it lacks, and
 * among them those with a twin of the other C++ ABI (abiname.h), which
 * names an ABI mismatch rather than another torch.
 *
 * Works on what elfobj read, from a file or from bytes (elfobj_open_mem).
 */
#ifndef PT_TORCHEXT_H
#define PT_TORCHEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "elfobj.h"

enum torchext_abi {
	TORCHEXT_ABI_NONE,	/* no C++ symbol of either ABI needed or defined */
	TORCHEXT_ABI_CXX11,	/* _GLIBCXX_USE_CXX11_ABI=1 */
	TORCHEXT_ABI_OLD,	/* _GLIBCXX_USE_CXX11_ABI=0 */
	TORCHEXT_ABI_MIXED,	/* both (objects built both ways linked together) */
};

/* "cxx11" (=1), "old" (=0), "mixed", "none". */
const char *torchext_abi_name(enum torchext_abi a);

struct torchext {
	bool is_extension;	/* names a torch library or needs a torch symbol */
	char **torch_needed;	/* DT_NEEDED entries that are torch's libraries */
	size_t n_torch_needed;
	size_t n_torch_syms;	/* undefined, non-weak symbols in torch's namespaces */
	size_t n_cxx11;		/* C++ symbols (undefined or defined) with std::__cxx11 / [abi:cxx11] */
	size_t n_old;		/* C++ symbols with the old std::string (`Ss`, basic_string<char> without __cxx11) */
	enum torchext_abi abi;
	char *pybind11_id;	/* "__pybind11_internals_v4_gcc_libstdcpp_cxxabi1016", or NULL */
	char *gcc;		/* the newest "GCC: (Debian 12.2.0-14) 12.2.0" of .comment, or NULL */
	/* the undefined torch symbols, mangled, sorted (what torchext_against checks) */
	char **syms;
};

/* Read o's symbols. Returns 0, or -1 when o has no usable .dynsym (a warning in diag). */
int torchext_read(const struct elfobj *o, struct torchext *x, struct pt_diag *diag);
void torchext_release(struct torchext *x);

/* A torch version in a package version's local tag: "2.1.2+pt26cu124" -> torch "2.6", cuda "12.4". */
struct torchext_tag {
	char torch[16];		/* "2.6", "" when none */
	char cuda[16];		/* "12.4", "cpu", "" when none */
};
bool torchext_parse_tag(const char *version, struct torchext_tag *t);

/* One torch symbol the extension needs that the torch checked against does not export. */
struct torchext_missing {
	char *name;		/* mangled */
	char *demangled;	/* or NULL */
	char *twin;		/* the other ABI's spelling that torch does export, or NULL */
	char *twin_lib;		/* the library that exports the twin (file name), or NULL */
};

struct torchext_against {
	char *torch_dir;	/* as given */
	char *version;		/* torch/version.py's __version__, or NULL */
	enum torchext_abi torch_abi;	/* the ABI of the C++ names torch's libraries export */
	char **libs;		/* the libraries read (file names), in the order searched */
	size_t n_libs;
	size_t n_checked;	/* the extension's torch symbols looked up */
	struct torchext_missing *missing;
	size_t n_missing;
	size_t n_twins;		/* missing ones with a twin of the other ABI */
};

/*
 * Look x's torch symbols up in the libraries of torch_dir (a site-packages
 * torch: torch_dir/lib/lib*.so*; or a directory of libraries). Returns 0,
 * or -1 when no torch library could be read there (PT_SEV_ERROR).
 */
int torchext_against(const struct torchext *x, const char *torch_dir, struct torchext_against *a,
		     struct pt_diag *diag);
void torchext_against_release(struct torchext_against *a);

#endif
