/*
 * A per-thread bump arena for jansson's allocations, for a thread that
 * parses many short-lived JSON documents (the TORCH_TRACE envelopes: a
 * record's object is freed before the next line is parsed). glibc's
 * malloc/free for each value, key and hashtable of an envelope were about
 * 3 % of an import's CPU.
 *
 *	pt_json_arena_install();	once, before the threads that use it start
 *	pt_json_arena_enter();		on the parsing thread
 *	... json_loadb / json_decref, as many as wanted ...
 *	pt_json_arena_leave();
 *	pt_json_arena_release();	when the thread is done with it
 *
 * jansson's allocator hooks are process-wide, so the functions installed
 * serve every thread (install before any other thread uses jansson: the
 * hooks are two plain pointers inside jansson; any mix of old and new is
 * still correct, since the new ones are malloc and free outside an arena): a thread that has not entered (or has left) gets
 * malloc, and free() takes every pointer that is not in the calling
 * thread's arena. So between enter and leave, a jansson value must be freed
 * on the thread that made it (a value handed to another thread must be made
 * outside the arena), and a string from json_dumps made inside must not
 * go to free(). The arena is one block of PT_JSON_ARENA_BYTES per
 * thread (allocated at the first enter): it starts over each time every
 * value made in it has been freed; what does not fit comes from malloc.
 */
#ifndef PT_JSONARENA_H
#define PT_JSONARENA_H

#include <stddef.h>

#define PT_JSON_ARENA_BYTES (256u << 10)

/* Set jansson's allocator to the arena's (idempotent, thread-safe). */
void pt_json_arena_install(void);

/* This thread's jansson allocations come from its arena until leave. */
void pt_json_arena_enter(void);
void pt_json_arena_leave(void);

/* Free this thread's block unless a value in it is still live (then it stays: a leak, not a crash). */
void pt_json_arena_release(void);

/* This thread's arena: values live in it, and allocations served by it and by malloc while entered. */
struct pt_json_arena_stats {
	size_t live, from_arena, from_malloc;
};
struct pt_json_arena_stats pt_json_arena_stats(void);

#endif
