/*
 * One line of a run's output → what it is: a TORCH_LOGS line (glog-style
 * prefix from a .py file, then optional " [compile id]" and " [__artifact]"),
 * a C++ log line (glog or c10 prefix from a C++ file), the pre-2.3 TORCH_LOGS
 * form, or none of these. Grouping lines into records is logs_ingest.c's job; this
 * file only looks at one line. See docs/formats/torch-trace-formats.md, 6-7.
 */
#ifndef PT_TORCHLOGS_H
#define PT_TORCHLOGS_H

#include <stddef.h>
#include <stdint.h>

#include "compileid.h"
#include "glog.h"

enum torchlogs_kind {
	TORCHLOGS_NONE,		/* no known prefix */
	TORCHLOGS_LOG,		/* TORCH_LOGS (Python logging through torch's formatter) */
	TORCHLOGS_CPP,		/* C++: glog (with or without year) or c10's bracketed form */
};

struct torchlogs_line {
	enum torchlogs_kind kind;
	struct glog_prefix g;	/* the prefix (for the pre-2.3 form: time, level only) */
	struct compileid cid;	/* all NONE when the line has none */
	size_t artifact_off, artifact_len;	/* artifact name without "__"; len 0: none */
	size_t msg_off;		/* the message after prefix, compile id and artifact */
	/*
	 * Bytes [0, key_len) are what consecutive lines of one record share
	 * (PyTorch repeats the full prefix on every line of a multi-line message).
	 */
	size_t key_len;
	int old_form;		/* BACKCOMPAT: torch 2.1/2.2 "[YYYY-mm-dd hh:mm:ss,mmm] ..." */
};

/*
 * Classify buf[0..len) (one line without its newline). Always fills *t;
 * returns t->kind. Never reads outside buf.
 */
enum torchlogs_kind torchlogs_parse(const uint8_t *buf, size_t len, struct torchlogs_line *t);

#endif
