/* Symbol names across the two libstdc++ ABIs; see abiname.h. */
#include "abiname.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

char *abiname_demangle(const char *mangled)
{
	if (strncmp(mangled, "_Z", 2))
		return NULL;
	return cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE | DMGL_TYPES);
}

/* Replace every `from` in s (malloc'd) by `to`; returns the new string, s freed. */
static char *replace_all(char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	const char *q = s, *p;
	char *out, *o;

	for (p = strstr(s, from); p; p = strstr(p + fl, from))
		n++;
	if (!n)
		return s;
	out = o = pt_xmalloc(strlen(s) + n * tl + 1);
	while ((p = strstr(q, from))) {
		memcpy(o, q, (size_t)(p - q));
		o += p - q;
		memcpy(o, to, tl);
		o += tl;
		q = p + fl;
	}
	strcpy(o, q);
	free(s);
	return out;
}

char *abiname_normalise(const char *demangled)
{
	char *s = pt_xstrdup(demangled);

	s = replace_all(s, "std::__cxx11::", "std::");
	s = replace_all(s, "[abi:cxx11]", "");
	s = replace_all(s, "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
			"std::string");
	s = replace_all(s, "std::basic_string<char, std::char_traits<char>, std::allocator<char>>",
			"std::string");
	return s;
}

bool abiname_is_cxx11(const char *mangled)
{
	return strstr(mangled, "St7__cxx11") || strstr(mangled, "B5cxx11");
}

size_t abiname_key(const char *m, size_t *start)
{
	size_t i = 2;

	if (strncmp(m, "_Z", 2)) {
		*start = 0;
		return strlen(m);
	}
	/* Special names (_ZTI, _ZTV, ...), nested-name openers and cv-qualifiers. */
	if (m[i] == 'T' && m[i + 1])
		i += 2;
	while (m[i] == 'N' || m[i] == 'K' || m[i] == 'V' || m[i] == 'r' || m[i] == 'L')
		i++;
	*start = i;
	/* The length-prefixed source names that follow, up to a std:: (S), a tag (B) or the end. */
	while (m[i] >= '1' && m[i] <= '9') {
		size_t len = 0;

		while (m[i] >= '0' && m[i] <= '9' && len < 100000)
			len = len * 10 + (size_t)(m[i++] - '0');
		for (size_t k = 0; k < len && m[i]; k++)
			i++;
	}
	return i - *start;
}

bool abiname_torch_ns(const char *d)
{
	static const char *const pre[] = { "typeinfo name for ", "typeinfo for ", "vtable for ",
					   "VTT for ", "guard variable for ", "non-virtual thunk to " };
	static const char *const ns[] = { "c10::", "at::", "torch::", "caffe2::" };

	for (size_t i = 0; i < PT_ARRAY_SIZE(pre); i++)
		if (!strncmp(d, pre[i], strlen(pre[i])))
			d += strlen(pre[i]);
	for (size_t i = 0; i < PT_ARRAY_SIZE(ns); i++)
		if (!strncmp(d, ns[i], strlen(ns[i])))
			return true;
	return false;
}
