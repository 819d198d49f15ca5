/* Thread count for parallel steps; see jobs.h. */
#include "jobs.h"

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

unsigned pt_cpus(unsigned max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t cs;

	if (sched_getaffinity(0, sizeof(cs), &cs) == 0 && CPU_COUNT(&cs) < n)
		n = CPU_COUNT(&cs);
	if (n < 1)
		n = 1;
	if (max && (unsigned long)n > max)
		n = (long)max;
	return (unsigned)n;
}

unsigned pt_jobs(unsigned max)
{
	const char *e = getenv("PT_JOBS");
	long n;

	if (!e || !*e)
		return pt_cpus(max);
	n = strtol(e, NULL, 10);
	if (n < 1)
		n = 1;
	if (max && (unsigned long)n > max)
		n = (long)max;
	return (unsigned)n;
}
