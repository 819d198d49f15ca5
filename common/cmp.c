/* Comparators; see cmp.h. */
#include "cmp.h"

#include <string.h>

int pt_cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
