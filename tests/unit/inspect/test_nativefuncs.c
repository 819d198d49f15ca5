/*
 * nativefuncs: entries as native_functions.yaml writes them (func, dispatch
 * rows with several keys, structured, structured_delegate, ufunc_inner_loop,
 * comments), torchgen's C++ names, lookups; not YAML, not a list, entries
 * without func; YAML aliases refused (N5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "nativefuncs.h"
#include "xalloc.h"

#define P(s) (const uint8_t *)(s), strlen(s)

static const char yaml[] =
	"# See README.md in this directory for more guidance\n"
	"\n"
	"- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
	"  device_check: NoCheck   # TensorIterator\n"
	"  structured_delegate: add.out\n"
	"  variants: function, method\n"
	"  dispatch:\n"
	"    SparseCPU, SparseCUDA, SparseMeta: add_sparse\n"
	"    ZeroTensor: add_zerotensor\n"
	"  tags: [core, pointwise]\n"
	"\n"
	"- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)\n"
	"  structured_delegate: add.out\n"
	"\n"
	"- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
	"  structured: True\n"
	"  ufunc_inner_loop:\n"
	"    Generic: add (AllAndComplex, BFloat16, Half)\n"
	"  dispatch:\n"
	"    MkldnnCPU: mkldnn_add_out\n"
	"\n"
	"- func: resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)\n"
	"  dispatch:\n"
	"    Meta: resize__symint\n"
	"    CPU: resize_\n"
	"\n"
	"- func: relu(Tensor self) -> Tensor\n"
	"\n"
	"- variants: function\n";

static void entries(void **state)
{
	struct nativefuncs nf;
	struct pt_diag d;
	const struct nf_entry *e;
	const char *keys = NULL;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(nativefuncs_parse(P(yaml), &nf, "y", &d), 0);
	assert_int_equal(nf.n, 5);
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 1);
	assert_string_equal(d.v[0].where, "line 29");
	e = &nf.v[0];
	assert_string_equal(e->name, "add.Tensor");
	assert_string_equal(e->unambiguous, "add_Tensor");
	assert_int_equal(e->line, 3);
	assert_string_equal(e->structured_delegate, "add.out");
	assert_int_equal(e->n_dispatch, 2);
	assert_string_equal(e->dispatch[0].keys, "SparseCPU, SparseCUDA, SparseMeta");
	assert_string_equal(e->dispatch[0].kernel, "add_sparse");
	assert_false(e->structured);
	assert_string_equal(nf.v[1].unambiguous, "add__Tensor");
	assert_true(nf.v[2].structured);
	assert_true(nf.v[2].ufunc);
	assert_string_equal(nf.v[2].unambiguous, "add_out");
	assert_string_equal(nf.v[3].unambiguous, "resize_");
	assert_ptr_equal(nativefuncs_find(&nf, "add.out"), &nf.v[2]);
	assert_ptr_equal(nativefuncs_find(&nf, "relu"), &nf.v[4]);
	assert_null(nativefuncs_find(&nf, "add"));
	assert_ptr_equal(nativefuncs_find_cpp(&nf, "add__Tensor"), &nf.v[1]);
	assert_ptr_equal(nativefuncs_find_kernel(&nf, "resize_", &keys), &nf.v[3]);
	assert_string_equal(keys, "CPU");
	assert_null(nativefuncs_find_kernel(&nf, "nope", &keys));
	nativefuncs_release(&nf);
	pt_diag_release(&d);
}

static void not_native_functions(void **state)
{
	struct nativefuncs nf;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(nativefuncs_parse(P("- func: [unclosed\n"), &nf, "y", &d), -1);
	assert_non_null(strstr(d.v[0].what, "not YAML"));
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(nativefuncs_parse(P("func: x\n"), &nf, "y", &d), -1);
	assert_string_equal(d.v[0].what, "not native_functions.yaml: the top level is not a list");
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(nativefuncs_parse(P(""), &nf, "y", &d), -1);
	pt_diag_release(&d);
	pt_diag_init(&d);
	assert_int_equal(nativefuncs_parse(P("- 1\n- [a]\n- func: {x: 1}\n"), &nf, "y", &d), 0);
	assert_int_equal(nf.n, 0);
	assert_int_equal(pt_diag_count(&d, PT_SEV_WARNING), 3);
	nativefuncs_release(&nf);
	pt_diag_release(&d);
}

/*
 * N5: an alias is refused with the file and the place of the first alias, as a
 * list item, a dispatch table or a scalar; nothing is kept. (Each alias used to
 * be copied: one entry of K dispatch keys aliased N times made N x K copies.)
 */
static void aliases_refused(void **state)
{
	static const struct {
		const char *yaml, *where, *what;
	} cases[] = {
		{ "- &a\n  func: a(Tensor self) -> Tensor\n  dispatch:\n    CPU: a_cpu\n- *a\n- *a\n",
		  "line 5 column 3", "a YAML alias (*a): aliases are not supported in native_functions.yaml" },
		{ "- func: a(Tensor self) -> Tensor\n  dispatch: &d\n    CPU: a_cpu\n- func: b(Tensor self) -> Tensor\n  dispatch: *d\n",
		  "line 5 column 13", "a YAML alias (*d): aliases are not supported in native_functions.yaml" },
		{ "- func: &f a(Tensor self) -> Tensor\n- func: *f\n",
		  "line 2 column 9", "a YAML alias (*f): aliases are not supported in native_functions.yaml" },
		{ "- func: a(Tensor self) -> Tensor\n  dispatch:\n    CPU: &k a_cpu\n    CUDA: *k\n",
		  "line 4 column 11", "a YAML alias (*k): aliases are not supported in native_functions.yaml" },
	};
	(void)state;

	for (size_t i = 0; i < PT_ARRAY_SIZE(cases); i++) {
		struct nativefuncs nf;
		struct pt_diag d;

		pt_diag_init(&d);
		assert_int_equal(nativefuncs_parse(P(cases[i].yaml), &nf, "nf.yaml", &d), -1);
		assert_int_equal(nf.n, 0);
		assert_null(nf.v);
		assert_int_equal(d.n, 1);
		assert_int_equal(d.v[0].sev, PT_SEV_ERROR);
		assert_string_equal(d.v[0].file, "nf.yaml");
		assert_string_equal(d.v[0].where, cases[i].where);
		assert_string_equal(d.v[0].what, cases[i].what);
		pt_diag_release(&d);
	}
	/* An anchor without an alias is only a name: read as before. */
	{
		struct nativefuncs nf;
		struct pt_diag d;

		pt_diag_init(&d);
		assert_int_equal(nativefuncs_parse(P("- &a\n  func: a(Tensor self) -> Tensor\n"), &nf, "nf.yaml", &d), 0);
		assert_int_equal(nf.n, 1);
		assert_int_equal(d.n, 0);
		nativefuncs_release(&nf);
		pt_diag_release(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries),
		cmocka_unit_test(not_native_functions),
		cmocka_unit_test(aliases_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
