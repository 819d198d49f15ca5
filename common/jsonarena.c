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

/*
 * Under AddressSanitizer the block is poisoned but for the values handed
 * out, and poisoned again when it starts over: a value read after the last
 * one was freed (a record field left pointing into its envelope) is still
 * reported as a use after free.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PT_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PT_ARENA_ASAN 1
#endif
#endif
#ifdef PT_ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

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

			UNPOISON(p, n);
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
	if (--A.live == 0) {
		POISON(A.blk, A.used);
		A.used = 0;	/* every value made here is gone: start over */
	}
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
		POISON(A.blk, PT_JSON_ARENA_BYTES);
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
		UNPOISON(A.blk, PT_JSON_ARENA_BYTES);
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
