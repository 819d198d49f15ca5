/*
 * TORCH_SHOW_DISPATCH_TRACE lines:
 *   "<depth spaces>[call] op=[aten::add.Tensor], key=[AutogradCPU]"
 * Labels call, redispatch, callBoxed, redispatchBoxed; depth = leading spaces
 * (torch 2.0+, top level 1; 1.13 prints none). Lines from several threads
 * can be torn: "[call] op=[aten::ad [call] op=[aten::mul], key=[CPU]" then
 * "d.Tensor], key=[CPU]"; dispatch_parse_torn finds the whole call at the
 * end of such a line and dispatch_is_tail the rest, so the caller can join
 * head and tail. See docs/formats/torch-trace-formats.md, section 8.
 */
#ifndef PT_DISPATCH_H
#define PT_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

enum dispatch_label {
	DISPATCH_CALL,
	DISPATCH_REDISPATCH,
	DISPATCH_CALL_BOXED,
	DISPATCH_REDISPATCH_BOXED,
};

struct dispatch_call {
	enum dispatch_label label;
	int depth;		/* leading spaces; -1 when none (torch 1.13) */
	size_t start;		/* offset of the call's first space or '[' in the line */
	size_t op_off, op_len;	/* "aten::add" */
	size_t ovl_off, ovl_len;	/* "Tensor"; len 0 when none */
	size_t key_off, key_len;	/* "AutogradCPU" */
};

/* "call", "redispatch", ... */
const char *dispatch_label_name(enum dispatch_label l);

/* The whole line is one call. 0 and *c, or -1. */
int dispatch_parse(const uint8_t *buf, size_t len, struct dispatch_call *c);

/*
 * A torn line: a call at the end, preceded by a fragment of another
 * (c->start > 0; the fragment is buf[0..c->start)). 0 and *c, or -1.
 */
int dispatch_parse_torn(const uint8_t *buf, size_t len, struct dispatch_call *c);

/*
 * Offsets of every "[label] op=[" token in the line, in order (at most max;
 * returns how many there are). Each token is one call that began: the
 * dispatcher writes the token in one piece, the operator name and key in
 * others, so threads tear lines between them (1.13: "[call] op=[aten::add"
 * "[call] op=[.Tensor], key=[..."). Counting tokens counts calls.
 */
size_t dispatch_find_labels(const uint8_t *buf, size_t len, size_t *pos, size_t max);

/*
 * Best effort on one torn segment starting at a label token: label, the
 * operator text up to the next ']' (or the end), and the key when "], key=["
 * follows. Returns 0 (fields may be empty: key_len 0 when absent), -1 when
 * buf does not start with a label token.
 */
int dispatch_parse_loose(const uint8_t *buf, size_t len, struct dispatch_call *c);

/* 1 when the line looks like the tail of a torn call: no label, ends in "], key=[Key]". */
int dispatch_is_tail(const uint8_t *buf, size_t len);

/* 1 when the line could be the head of a torn call: spaces, a label, " op=[" and no end. */
int dispatch_is_head(const uint8_t *buf, size_t len);

#endif
