/*
 * C++ symbol names compared across the two libstdc++ ABIs
 * (_GLIBCXX_USE_CXX11_ABI=0: std::string is `Ss`, std::list `St4list`;
 * =1: std::__cxx11::basic_string, std::__cxx11::list and [abi:cxx11] tags).
 * Mangled names cannot be compared by substitution (back-references such as
 * S0_ and S5_ shift), so demangled names are normalised: `std::__cxx11::` and
 * `[abi:cxx11]` removed, basic_string<char, ...> spelled std::string.
 */
#ifndef PT_ABINAME_H
#define PT_ABINAME_H

#include <stdbool.h>
#include <stddef.h>

/* Demangled (libiberty, verbose), or NULL when not a C++ name; malloc'd. */
char *abiname_demangle(const char *mangled);
/* The ABI-neutral spelling of a demangled name; malloc'd. */
char *abiname_normalise(const char *demangled);
/* Whether a mangled name uses the cxx11 ABI (std::__cxx11 or an [abi:cxx11] tag). */
bool abiname_is_cxx11(const char *mangled);
/*
 * The part of a mangled name two ABI twins share, an index key: the source
 * names after `_Z` and its openers (N, K, TI, ...), up to the first
 * substitution, ABI tag or parameter; starts at *start, the length returned.
 * Empty for names that begin in std:: (std::__cxx11 or not).
 */
size_t abiname_key(const char *mangled, size_t *start);
/* Whether a demangled name is in torch's C++ namespaces (c10::, at::, torch::, caffe2::). */
bool abiname_torch_ns(const char *demangled);

#endif
