/*
 * The glog-style line prefix that PyTorch's TORCH_LOGS formatter, its
 * TORCH_TRACE writer and C++ logging (glog, c10) put before a message:
 *
 *   [rank1]:I1122 02:47:18.432000 9740 torch/_dynamo/guards.py:2364] message
 *   W20261122 03:40:01.833858 11342 Copy.cpp:250] message      (glog with year)
 *   [W1122 02:54:13.085491037 ProcessGroupGloo.cpp:527] message (c10, no pid)
 *
 * Parses only the prefix; what follows (compile id, artifact, JSON) is the
 * caller's. Also turns the year-less local time into UTC microseconds given
 * the run's own clock. See docs/formats/torch-trace-formats.md, 3, 6, 7.
 */
#ifndef PT_GLOG_H
#define PT_GLOG_H

#include <stddef.h>
#include <stdint.h>

enum glog_form {
	GLOG_FORM_TEXT,	/* "L[YYYY]MMDD hh:mm:ss.frac pid path:line] " (Python or glog) */
	GLOG_FORM_C10,	/* "[LMMDD hh:mm:ss.frac path:line] " (c10's own logger, no pid) */
};

struct glog_prefix {
	enum glog_form form;
	int rank;		/* N of a leading "[rankN]:", -1 when absent */
	char level;		/* first letter: V I W E C F (F: glog FATAL) */
	int levelno;		/* Python level number: V 10, I 20, W 30, E 40, C and F 50;
				   0 for a custom level name */
	size_t level_off, level_len;	/* the level name (1 letter, or a custom name in full) */
	int year;		/* 0 when the line has none (all but glog's newer format) */
	int month, day, hour, min, sec;
	uint32_t nsec;		/* the fraction in nanoseconds (6 digits: micro, 9: nano) */
	int frac_digits;
	int64_t pid;		/* process (or early-2024 pthread) id; -1 in the c10 form */
	size_t file_off, file_len;	/* emitting file, offsets into the parsed buffer */
	int64_t lineno;
	size_t msg_off;		/* first byte of the message: after "] " (or "]" at the end) */
};

/*
 * Parse the prefix at the start of buf[0..len) (one line, without its
 * newline). Returns 0 and fills *p, or -1 when the line has no such prefix.
 * Never reads outside buf[0..len); lengths of every field are bounded.
 */
int glog_parse(const uint8_t *buf, size_t len, struct glog_prefix *p);

/*
 * UTC microseconds since the epoch of the prefix's local time. The prefix
 * has no time zone and usually no year: they come from the run. ref_us is a
 * UTC time near the line (the run's start), tz_off_s the run's UTC offset
 * (east positive). Without a year, the year that puts the time closest to
 * ref_us is chosen, so "V1231 ..." then "V0101 ..." straddles New Year.
 */
int64_t glog_time_us(const struct glog_prefix *p, int64_t ref_us, long tz_off_s);

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
int64_t glog_days_from_civil(int64_t y, unsigned m, unsigned d);

#endif
