/* qsort/bsearch comparators both tools use, each in one place. */
#ifndef PT_CMP_H
#define PT_CMP_H

/* Elements are char *: strcmp order. */
int pt_cmp_strp(const void *a, const void *b);

#endif
