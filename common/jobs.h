/*
 * How many threads a parallel step uses: PT_JOBS when set (1 = no extra
 * threads), else the CPUs this process may run on (its affinity mask, so a
 * container or `taskset` limit is respected); capped at max.
 */
#ifndef PT_JOBS_H
#define PT_JOBS_H

unsigned pt_jobs(unsigned max);

/* The CPUs this process may run on (affinity mask), whatever PT_JOBS says; capped at max. */
unsigned pt_cpus(unsigned max);

#endif
