/* The clocks both tools read, in one place. */
#ifndef PT_CLOCK_H
#define PT_CLOCK_H

#include <stdint.h>

/* Monotonic clock in nanoseconds: durations, progress redraws. */
uint64_t pt_now_ns(void);

/* Wall clock: UTC microseconds since the epoch (what the database stores). */
int64_t pt_wall_us(void);

#endif
