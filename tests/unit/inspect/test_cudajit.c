/*
 * cudajit: which registered fat binaries a GPU runs only through PTX JIT, and
 * how many bytes of PTX that is; the JIT cache as CUDA_CACHE_DISABLE and
 * CUDA_CACHE_MAXSIZE size it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "cudajit.h"

struct ent {
	uint16_t kind;
	uint32_t arch;
	char variant;
	uint64_t payload, unpacked;	/* unpacked 0: not compressed */
};

/* One scan: fat binaries of entries, nfb[i] entries each, in section sec[i]. */
static void make(struct cuda_scan *s, struct cuda_section *secs, struct cuda_fatbin *fbs,
		 struct fatbin_entry *ev, const struct ent *e, const size_t *nfb, const size_t *sec,
		 size_t n_fb)
{
	size_t k = 0;

	memset(s, 0, sizeof(*s));
	secs[0].kind = CUDA_SEC_REGISTERED;
	secs[1].kind = CUDA_SEC_RELOCATABLE;
	s->secs = secs;
	s->n_secs = 2;
	s->fatbins = fbs;
	s->n_fatbins = n_fb;
	for (size_t f = 0; f < n_fb; f++) {
		memset(&fbs[f], 0, sizeof(fbs[f]));
		fbs[f].section = sec[f];
		fbs[f].first_entry = k;
		fbs[f].n_entries = nfb[f];
		for (size_t i = 0; i < nfb[f]; i++, k++) {
			memset(&ev[k], 0, sizeof(ev[k]));
			ev[k].fatbin = f;
			ev[k].kind = e[k].kind;
			ev[k].arch = e[k].arch;
			ev[k].variant = e[k].variant;
			ev[k].payload_size = e[k].payload;
			if (e[k].unpacked) {
				ev[k].comp = FATBIN_COMP_LZ4;
				ev[k].compressed_size = (uint32_t)e[k].payload;
				ev[k].uncompressed_size = e[k].unpacked;
			}
		}
	}
	s->entries.v = ev;
	s->entries.n = k;
}

static struct cuda_cc cc(int major, int minor)
{
	struct cuda_cc c = { major, minor };

	return c;
}

static void jit_per_fatbin(void **state)
{
	/*
	 * 0: sm_80 + compute_80      1: compute_70 + compute_75 (compressed)
	 * 2: sm_90a only             3: compute_90 in __nv_relfatbin (never loaded)
	 * 4: LTO-IR only (no code the driver runs: not counted)
	 */
	static const struct ent e[] = {
		{ FATBIN_KIND_ELF, 80, 0, 1000, 0 },	{ FATBIN_KIND_PTX, 80, 0, 3000, 0 },
		{ FATBIN_KIND_PTX, 70, 0, 500, 0 },	{ FATBIN_KIND_PTX, 75, 0, 400, 7000 },
		{ FATBIN_KIND_ELF, 90, 'a', 800, 0 },
		{ FATBIN_KIND_PTX, 90, 0, 9000, 0 },
		{ FATBIN_KIND_LTO, 75, 0, 100, 0 },
	};
	static const size_t nfb[] = { 2, 2, 1, 1, 1 }, sec[] = { 0, 0, 0, 1, 0 };
	struct cuda_section secs[2];
	struct cuda_fatbin fbs[5];
	struct fatbin_entry ev[7];
	struct cuda_scan s;
	struct cudajit j;

	(void)state;
	memset(secs, 0, sizeof(secs));
	make(&s, secs, fbs, ev, e, nfb, sec, 5);
	/* 8.6: SASS sm_80 for 0; 1 only through compute_75's PTX (the highest, unpacked size). */
	cudajit_load(&s, cc(8, 6), &j);
	assert_int_equal(j.registered, 3);
	assert_int_equal(j.without, 1);		/* sm_90a runs on 9.0 only */
	assert_int_equal(j.jit_fatbins, 1);
	assert_int_equal(j.jit_bytes, 7000);
	/* 12.0: no SASS anywhere; 0 and 1 JIT (3000 + 7000); sm_90a does not run. */
	cudajit_load(&s, cc(12, 0), &j);
	assert_int_equal(j.jit_fatbins, 2);
	assert_int_equal(j.jit_bytes, 10000);
	assert_int_equal(j.without, 1);
	/* 9.0: sm_90a runs; 0 and 1 through PTX. */
	cudajit_load(&s, cc(9, 0), &j);
	assert_int_equal(j.without, 0);
	assert_int_equal(j.jit_fatbins, 2);
	/* 7.0: compute_80 and sm_80 do not run there: 0 has no code for it; 1 JITs compute_70. */
	cudajit_load(&s, cc(7, 0), &j);
	assert_int_equal(j.without, 2);
	assert_int_equal(j.jit_fatbins, 1);
	assert_int_equal(j.jit_bytes, 500);
}

static void jit_cache_from_env(void **state)
{
	uint64_t b;
	bool off;

	(void)state;
	assert_true(cudajit_cache(NULL, NULL, &b, &off));
	assert_int_equal(b, CUDAJIT_CACHE_DEFAULT);
	assert_false(off);
	assert_true(cudajit_cache("0", "268435456", &b, &off));
	assert_int_equal(b, 268435456);
	assert_true(cudajit_cache(NULL, "99999999999", &b, &off));
	assert_int_equal(b, CUDAJIT_CACHE_MAX);		/* 4 GiB at most */
	assert_true(cudajit_cache("1", "268435456", &b, &off));
	assert_true(off);
	assert_int_equal(b, 0);
	assert_false(cudajit_cache(NULL, "1G", &b, &off));
	assert_int_equal(b, CUDAJIT_CACHE_DEFAULT);
	assert_false(cudajit_cache(NULL, "-5", &b, &off));
	assert_false(cudajit_cache(NULL, "99999999999999999999999", &b, &off));
	assert_true(cudajit_cache(NULL, "", &b, &off));	/* set but empty: the default */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jit_per_fatbin),
		cmocka_unit_test(jit_cache_from_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
