/* The clocks both tools read, in one place. */
#ifndef PT_CLOCK_H
#define PT_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Monotonic clock in nanoseconds: durations, progress redraws. */
uint64_t pt_now_ns(void);

/* Wall clock: UTC microseconds since the epoch (what the database stores). */
int64_t pt_wall_us(void);

/* CPU time the calling thread has used, in seconds (0 when unavailable). */
double pt_thread_cpu_s(void);

/* The CLOCK_REALTIME instant ms milliseconds from now, for pthread_cond_timedwait. */
struct timespec pt_deadline_ms(long ms);

#endif
