/* Comparing keys, each way in one place: qsort/bsearch comparators, the string hash. */
#ifndef PT_CMP_H
#define PT_CMP_H

#include <stdint.h>

/* Elements are char *: strcmp order. */
int pt_cmp_strp(const void *a, const void *b);

/* FNV-1a of a NUL-terminated string: the hash of the open-addressing name indexes. */
uint32_t pt_hash_str(const char *s);

#endif
