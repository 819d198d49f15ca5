/* common/jsonarena.c: jansson's values from a per-thread bump arena, and every other use of jansson beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "jsonarena.h"

static const char ENV[] = "{\"compilation_metrics\": {\"co_name\": \"kernel\", \"cache_size\": 0,"
			  " \"restart_reasons\": [], \"start_time\": 1752877801.875862},"
			  " \"frame_id\": 3, \"has_payload\": \"0123456789abcdef0123456789abcdef\"}";

static json_t *load(const char *s)
{
	json_error_t err;
	json_t *v = json_loadb(s, strlen(s), 0, &err);

	assert_non_null(v);
	return v;
}

/* Values come from the arena; when the last is freed it starts over at the same place. */
static void starts_over(void **state)
{
	json_t *a, *b;
	struct pt_json_arena_stats st;

	(void)state;
	pt_json_arena_enter();
	a = load(ENV);
	st = pt_json_arena_stats();
	assert_true(st.live > 5);
	assert_int_equal(json_integer_value(json_object_get(a, "frame_id")), 3);
	assert_string_equal(json_string_value(json_object_get(json_object_get(a, "compilation_metrics"),
							  "co_name")), "kernel");
	json_decref(a);
	assert_int_equal(pt_json_arena_stats().live, 0);
	b = load(ENV);
	assert_ptr_equal(a, b);	/* the same first bytes of the block */
	json_decref(b);
	pt_json_arena_leave();
	pt_json_arena_release();
}

/* A value made before enter is freed inside with free(); one made inside is freed after leave. */
static void mixed_lifetimes(void **state)
{
	json_t *outside, *inside;
	char *s;

	(void)state;
	outside = load(ENV);
	pt_json_arena_enter();
	inside = load(ENV);
	json_decref(outside);	/* malloc'd: goes to free() */
	pt_json_arena_leave();
	outside = load(ENV);	/* after leave: malloc again */
	assert_true(pt_json_arena_stats().live > 0);
	s = json_dumps(inside, JSON_COMPACT | JSON_SORT_KEYS);
	assert_non_null(s);
	assert_non_null(strstr(s, "\"frame_id\":3"));
	free(s);
	json_decref(inside);	/* in the block, freed after leave */
	assert_int_equal(pt_json_arena_stats().live, 0);
	json_decref(outside);
	pt_json_arena_release();
}

/* A document larger than the block: the rest comes from malloc, all of it reads back and frees. */
static void overflows_to_malloc(void **state)
{
	json_t *arr = json_array(), *back;
	char *s;
	struct pt_json_arena_stats st;

	(void)state;
	for (int i = 0; i < 40000; i++)
		json_array_append_new(arr, json_integer(i));
	s = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	pt_json_arena_enter();
	back = load(s);
	st = pt_json_arena_stats();
	assert_true(st.from_malloc > 0);
	assert_int_equal(json_array_size(back), 40000);
	assert_int_equal(json_integer_value(json_array_get(back, 39999)), 39999);
	json_decref(back);
	assert_int_equal(pt_json_arena_stats().live, 0);
	pt_json_arena_leave();
	free(s);
	pt_json_arena_release();
}

/* release with a value still live keeps the block: the value can still be read and freed. */
static void release_with_live_value(void **state)
{
	json_t *v;

	(void)state;
	pt_json_arena_enter();
	v = load(ENV);
	pt_json_arena_release();
	assert_true(pt_json_arena_stats().live > 0);
	assert_int_equal(json_integer_value(json_object_get(v, "frame_id")), 3);
	json_decref(v);
	assert_int_equal(pt_json_arena_stats().live, 0);
	pt_json_arena_release();
}

/* Threads that never enter use jansson as before, while another thread parses in its arena. */
static void *other_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		json_t *v = load(ENV);
		char *s = json_dumps(v, 0);

		json_decref(v);
		free(s);
	}
	return (void *)(uintptr_t)pt_json_arena_stats().from_arena;
}

static void other_threads_unaffected(void **state)
{
	pthread_t t[2];
	void *r;

	(void)state;
	pt_json_arena_enter();
	for (int k = 0; k < 2; k++)
		assert_int_equal(pthread_create(&t[k], NULL, other_thread, NULL), 0);
	for (int i = 0; i < 2000; i++)
		json_decref(load(ENV));
	for (int k = 0; k < 2; k++) {
		assert_int_equal(pthread_join(t[k], &r), 0);
		assert_int_equal((uintptr_t)r, 0);
	}
	assert_int_equal(pt_json_arena_stats().live, 0);
	pt_json_arena_leave();
	pt_json_arena_release();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(starts_over),
		cmocka_unit_test(mixed_lifetimes),
		cmocka_unit_test(overflows_to_malloc),
		cmocka_unit_test(release_with_live_value),
		cmocka_unit_test(other_threads_unaffected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
