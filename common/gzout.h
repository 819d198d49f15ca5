/*
 * A stdio stream that writes gzip (RFC 1952) into another one: what the
 * report writes compressed (chromium_events.json.gz, which Perfetto and
 * chrome://tracing open as they are). The one file that includes zlib's
 * header. The gzip header carries no name and a zero time, so the same
 * bytes in give the same file out.
 */
#ifndef PT_GZOUT_H
#define PT_GZOUT_H

#include <stdint.h>
#include <stdio.h>

/*
 * A stream whose bytes go deflated into raw (level 1-9; 1 is the fastest).
 * fclose() of it finishes the gzip member and closes raw, and returns EOF
 * when anything failed (a write of raw, zlib, the close of raw); *written
 * (may be NULL) is then the compressed size. raw is closed here too when
 * this fails (NULL, errno set).
 */
FILE *pt_gzout_open(FILE *raw, int level, uint64_t *written);

#endif
