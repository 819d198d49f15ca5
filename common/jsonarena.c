/*
 * jansson's allocations from a per-thread bump arena; see jsonarena.h.
 */
#include "jsonarena.h"

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "diag.h"
#include "xalloc.h"

#define ALIGN 16	/* malloc's: jansson's values hold doubles, 64-bit integers, pointers */

static __thread struct arena {
	char *blk;		/* PT_JSON_ARENA_BYTES, or NULL */
	size_t used;		/* bytes handed out since the arena last started over */
	size_t live;		/* of them, not freed yet */
	int active;
	size_t from_arena, from_malloc;
} A;

static int in_arena(const void *p)
{
	return A.blk && (uintptr_t)p >= (uintptr_t)A.blk &&
	       (uintptr_t)p < (uintptr_t)A.blk + PT_JSON_ARENA_BYTES;
}

static void *arena_malloc(size_t n)
{
	if (A.active && A.blk) {
		size_t need = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);

		if (need >= n && need <= PT_JSON_ARENA_BYTES - A.used) {
			void *p = A.blk + A.used;

			A.used += need;
			A.live++;
			A.from_arena++;
			return p;
		}
		A.from_malloc++;
	}
	return malloc(n);
}

static void arena_free(void *p)
{
	if (!p)
		return;
	if (!in_arena(p)) {
		free(p);
		return;
	}
	if (!A.live)
		PT_BUG("a jansson value freed twice in the JSON arena");
	if (--A.live == 0)
		A.used = 0;	/* every value made here is gone: start over */
}

static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void install(void)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
}

void pt_json_arena_install(void)
{
	pthread_once(&installed, install);
}

void pt_json_arena_enter(void)
{
	pt_json_arena_install();
	if (!A.blk) {
		/* malloc's alignment is ALIGN on the 64-bit targets; the block starts on it. */
		A.blk = pt_xmalloc(PT_JSON_ARENA_BYTES);
		A.used = A.live = 0;
	}
	A.active = 1;
}

void pt_json_arena_leave(void)
{
	A.active = 0;
}

void pt_json_arena_release(void)
{
	A.active = 0;
	if (A.blk && !A.live) {
		free(A.blk);
		A.blk = NULL;
		A.used = 0;
	}
}

struct pt_json_arena_stats pt_json_arena_stats(void)
{
	return (struct pt_json_arena_stats){
		.live = A.live, .from_arena = A.from_arena, .from_malloc = A.from_malloc,
	};
}
