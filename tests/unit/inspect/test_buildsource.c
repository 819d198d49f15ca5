/*
 * buildsource: torchgen's names on real excerpts of torch 2.6's generated
 * files (tests/fixtures/buildsource, provenance in its README): the
 * overload-first unstructured wrapper (wrapper_CPU_Tensor_fill_), the
 * overload-less one (wrapper_CPU__relu), structured wrappers and their
 * structs' members, out variants, a helper (create_out), registration lines,
 * the C++ API that calls a wrapper, BackendSelect's and Functionalization's
 * plain names, Operators' _ops names, a CompositeImplicitAutograd wrapper
 * whose name is also another operator's structured one (_linalg_det), an
 * autogen: out variant, autograd's node, the node VariableType's kernel makes
 * (torch 2.6's std::shared_ptr and 2.14's c10::intrusive_ptr, from the sid
 * tree); the derivatives.yaml entry of a node's operator on 2.14's entries;
 * and the same names as symbols.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildsource.h"
#include "nativefuncs.h"
#include "ptest.h"
#include "xalloc.h"

static struct nativefuncs nf;

static char *fixture(const char *name, size_t *len)
{
	const char *src = getenv("PT_SRC");
	char path[4096];
	char *buf;

	snprintf(path, sizeof(path), "%s/tests/fixtures/buildsource/%s", src ? src : ".", name);
	buf = ptest_slurp(path, len);
	assert_non_null(buf);
	return buf;
}

static int setup(void **state)
{
	size_t len;
	char *y = fixture("native_functions.yaml", &len);
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(nativefuncs_parse((const uint8_t *)y, len, &nf, "native_functions.yaml", &d), 0);
	assert_int_equal(d.n, 0);
	pt_diag_release(&d);
	free(y);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	nativefuncs_release(&nf);
	return 0;
}

/* The 1-based line of the first line of the file holding needle, plus delta. */
static size_t line_of(const char *buf, const char *needle, size_t delta)
{
	const char *p = strstr(buf, needle);
	size_t ln = 1;

	assert_non_null(p);
	for (const char *c = buf; c < p; c++)
		ln += *c == '\n';
	return ln + delta;
}

struct want {
	const char *needle;
	size_t delta;
	const char *function;	/* NULL: not checked */
	const char *op;		/* NULL: none (a helper) */
	const char *key;	/* NULL: none */
	const char *klass;
};

static void check_file(const char *file, const struct want *w, size_t n)
{
	size_t len;
	char *buf = fixture(file, &len);

	for (size_t i = 0; i < n; i++) {
		struct build_source s;
		size_t line = line_of(buf, w[i].needle, w[i].delta);
		int rc;

		memset(&s, 0, sizeof(s));
		rc = buildsource_resolve_line(&nf, file, buf, len, line, &s);
		print_message("%s:%zu %s -> %s (%s)\n", file, line, w[i].needle, s.entry ? s.entry->name : "-",
			      s.via ? s.via : "");
		assert_int_equal(rc, 0);
		if (w[i].function)
			assert_string_equal(s.function, w[i].function);
		if (w[i].op) {
			assert_non_null(s.entry);
			assert_string_equal(s.entry->name, w[i].op);
			assert_false(s.helper);
		} else {
			assert_null(s.entry);
			assert_true(s.helper);
		}
		if (w[i].key)
			assert_string_equal(s.dispatch_key, w[i].key);
		else
			assert_null(s.dispatch_key);
		if (w[i].klass)
			assert_string_equal(s.klass, w[i].klass);
		build_source_release(&s);
	}
	free(buf);
}


static void names(void **state)
{
	const struct nf_entry *e;
	(void)state;

	e = nativefuncs_find(&nf, "fill_.Tensor");
	assert_non_null(e);
	assert_string_equal(e->wrapper_name, "Tensor_fill_");
	assert_string_equal(e->native_name, "fill__Tensor");
	assert_false(e->out_fn);
	e = nativefuncs_find(&nf, "relu");
	assert_string_equal(e->wrapper_name, "_relu");
	e = nativefuncs_find(&nf, "add.out");
	assert_true(e->out_fn);
	assert_string_equal(e->native_name, "add_out_out");
	assert_string_equal(e->wrapper_name, "out_add_out");
	assert_string_equal(e->unambiguous, "add_out");
	/* autogen: _new_zeros_with_same_feature_meta.out, an entry of its own. */
	e = nativefuncs_find(&nf, "_new_zeros_with_same_feature_meta.out");
	assert_non_null(e);
	assert_string_equal(e->autogen_of, "_new_zeros_with_same_feature_meta");
	assert_true(e->out_fn);
	assert_ptr_equal(nativefuncs_find_wrapper(&nf, "out__new_zeros_with_same_feature_meta_out"), e);
	/* "_linalg_det": linalg_det's unstructured suffix and _linalg_det's native name. */
	assert_ptr_equal(nativefuncs_find_wrapper(&nf, "_linalg_det"), nativefuncs_find(&nf, "linalg_det"));
	assert_ptr_equal(nativefuncs_find_native(&nf, "_linalg_det"), nativefuncs_find(&nf, "_linalg_det"));
}

static void register_cpu(void **state)
{
	static const struct want w[] = {
		{ "at::Tensor & wrapper_CPU_Tensor_fill_(", 1, "wrapper_CPU_Tensor_fill_", "fill_.Tensor", "CPU", NULL },
		{ "at::Tensor & wrapper_CPU_Scalar_fill_(", 0, "wrapper_CPU_Scalar_fill_", "fill_.Scalar", "CPU", NULL },
		{ "at::Tensor wrapper_CPU__relu(", 1, "wrapper_CPU__relu", "relu", "CPU", NULL },
		{ "at::Tensor wrapper_CPU_add_Tensor(", 2, "wrapper_CPU_add_Tensor", "add.Tensor", "CPU", NULL },
		{ "at::Tensor & wrapper_CPU_add_out_out(", 1, "wrapper_CPU_add_out_out", "add.out", "CPU", NULL },
		/* A member of the struct the wrapper instantiates. */
		{ "struct structured_ufunc_add_CPU_functional ", 3, "wrapper_CPU_add_Tensor", "add.Tensor", "CPU",
		  "structured_ufunc_add_CPU_functional" },
		{ "struct structured_ufunc_add_CPU_out ", 1, "wrapper_CPU_add_out_out", "add.out", "CPU",
		  "structured_ufunc_add_CPU_out" },
		{ "Tensor create_out(", 2, "create_out", NULL, NULL, NULL },
		/* Registrations: one line, and one split over two. */
		{ "m.impl(\"add.Tensor\"", 0, NULL, "add.Tensor", NULL, NULL },
		{ "m.impl(\"fill_.Tensor\"", 1, NULL, "fill_.Tensor", NULL, NULL },
		/* at::cpu::add, the C++ API: the wrapper it calls. */
		{ "at::Tensor add(const at::Tensor & self", 1, "add", "add.Tensor", "CPU", NULL },
	};
	(void)state;
	check_file("RegisterCPU.cpp", w, PT_ARRAY_SIZE(w));
}

static void other_files(void **state)
{
	static const struct want bs[] = {
		{ "at::Tensor _make_dep_token(", 1, "_make_dep_token", "_make_dep_token", NULL, NULL },
		{ "C10_ALWAYS_INLINE", 0, "_make_dep_token", "_make_dep_token", NULL, NULL },
	};
	static const struct want ci[] = {
		{ "wrapper_CompositeImplicitAutograd__linalg_det(", 1, NULL, "linalg_det", "CompositeImplicitAutograd", NULL },
		{ "wrapper_CompositeImplicitAutograd__dropout(", 1, NULL, "dropout", "CompositeImplicitAutograd", NULL },
	};
	static const struct want ce[] = {
		{ "wrapper_CompositeExplicitAutograd_out__new_zeros", 1, NULL, "_new_zeros_with_same_feature_meta.out",
		  "CompositeExplicitAutograd", NULL },
	};
	static const struct want fz[] = {
		{ "at::Tensor & add_out_out(", 3, "add_out_out", "add.out", NULL, NULL },
	};
	static const struct want ops[] = {
		{ "create_add_Tensor_typed_handle() {", 1, "create_add_Tensor_typed_handle", "add.Tensor", NULL, NULL },
		{ "at::Tensor add_Tensor::call(", 1, "add_Tensor::call", "add.Tensor", NULL, NULL },
		{ "at::Tensor add_Tensor::redispatch(", 2, "add_Tensor::redispatch", "add.Tensor", NULL, NULL },
	};
	(void)state;
	check_file("RegisterBackendSelect.cpp", bs, PT_ARRAY_SIZE(bs));
	check_file("RegisterCompositeImplicitAutograd.cpp", ci, PT_ARRAY_SIZE(ci));
	check_file("RegisterCompositeExplicitAutograd.cpp", ce, PT_ARRAY_SIZE(ce));
	check_file("RegisterFunctionalization_0.cpp", fz, PT_ARRAY_SIZE(fz));
	check_file("Operators_2.cpp", ops, PT_ARRAY_SIZE(ops));
}

/* Functions.cpp alone names the node (its operator needs VariableType: the torch2 test). */
static void autograd_node(void **state)
{
	size_t len;
	char *buf = fixture("Functions.cpp", &len);
	struct build_source s;
	(void)state;

	memset(&s, 0, sizeof(s));
	assert_int_equal(buildsource_resolve_line(&nf, "Functions.cpp", buf, len, line_of(buf, "::apply(", 2), &s), 0);
	assert_string_equal(s.function, "MulBackward0::apply");
	assert_string_equal(s.klass, "MulBackward0");
	build_source_release(&s);
	/* A line outside every function. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(buildsource_resolve_line(&nf, "Functions.cpp", buf, len, 1, &s), -1);
	assert_null(s.entry);
	build_source_release(&s);
	free(buf);
}

/* VariableType's mul_Tensor makes MulBackward0: 2.6 holds it in a std::shared_ptr, 2.14 in a c10::intrusive_ptr. */
static void variable_type_node(void **state)
{
	static const char *const files[] = { "VariableType_0.cpp", "VariableType_0-2.14.cpp" };
	(void)state;

	for (size_t i = 0; i < PT_ARRAY_SIZE(files); i++) {
		size_t len;
		char *buf = fixture(files[i], &len);
		struct build_source s;

		memset(&s, 0, sizeof(s));
		print_message("%s\n", files[i]);
		assert_int_equal(buildsource_resolve_line(&nf, "VariableType_0.cpp", buf, len,
							  line_of(buf, "grad_fn->set_next_edges(", 0), &s), 0);
		assert_string_equal(s.function, "mul_Tensor");
		assert_non_null(s.entry);
		assert_string_equal(s.entry->name, "mul.Tensor");
		assert_non_null(s.node);
		assert_string_equal(s.node, "MulBackward0");
		build_source_release(&s);
		free(buf);
	}
}

/*
 * An autograd node's derivatives.yaml entry from its kernel's operator, on
 * real 2.14 entries: torch 2.14 autogenerates functionals (random.to,
 * embedding_renorm) whose nodes take the in-place's formulas, and ldexp_'s
 * node is ldexp.Tensor's.
 */
static void derivative_entries(void **state)
{
	static const struct {
		const char *op, *want;
		bool foreach;
	} c[] = {
		{ "mul.Tensor", "mul.Tensor", false },	  { "mul_.Tensor", "mul.Tensor", false },
		{ "ldexp_", "ldexp.Tensor", false },	  { "random.to", "random_.to", false },
		{ "random.from", "random_.from", false }, { "random", "random_", false },
		{ "embedding_renorm", "embedding_renorm_", false }, { "_foreach_mul.Tensor", "mul.Tensor", true },
		{ "random.nope", NULL, false },		  { "no_such_op", NULL, false },
	};
	size_t len;
	char *y = fixture("derivatives-2.14.yaml", &len);
	struct nativefuncs deriv;
	struct pt_diag d;
	(void)state;

	pt_diag_init(&d);
	assert_int_equal(nativefuncs_parse_derivatives((const uint8_t *)y, len, &deriv, "derivatives.yaml", &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(deriv.n, 6);
	for (size_t i = 0; i < PT_ARRAY_SIZE(c); i++) {
		bool fe = true;
		const struct nf_entry *e = buildsource_derivative(&deriv, c[i].op, &fe);

		print_message("%s -> %s\n", c[i].op, e ? e->name : "-");
		if (c[i].want) {
			assert_non_null(e);
			assert_string_equal(e->name, c[i].want);
		} else {
			assert_null(e);
		}
		assert_int_equal(fe, c[i].foreach);
	}
	nativefuncs_release(&deriv);
	pt_diag_release(&d);
	free(y);
}

static void symbols(void **state)
{
	static const struct {
		const char *sym, *op, *key, *function;
	} c[] = {
		{ "at::_ops::add_Tensor::call", "add.Tensor", NULL, "add_Tensor::call" },
		{ "at::_ops::add_Tensor::redispatch(c10::DispatchKeySet, at::Tensor const&)", "add.Tensor", NULL,
		  "add_Tensor::redispatch" },
		{ "at::(anonymous namespace)::wrapper_CPU__relu(at::Tensor const&)", "relu", "CPU", "wrapper_CPU__relu" },
		{ "wrapper_CPU_Tensor_fill_", "fill_.Tensor", "CPU", "wrapper_CPU_Tensor_fill_" },
		{ "wrapper_CompositeImplicitAutograd__linalg_det", "linalg_det", "CompositeImplicitAutograd", NULL },
		{ "wrapper_CPU__linalg_det", "_linalg_det", "CPU", NULL },
		{ "at::native::fill_", "fill_.Scalar", "CPU", "fill_" },
		{ "at::native::structured_mul_out::impl", "mul.out", "CPU", NULL },
		{ "_make_dep_token", "_make_dep_token", NULL, NULL },
	};
	(void)state;
	for (size_t i = 0; i < PT_ARRAY_SIZE(c); i++) {
		struct build_source s;

		memset(&s, 0, sizeof(s));
		buildsource_resolve_symbol(&nf, c[i].sym, &s);
		print_message("%s -> %s (%s)\n", c[i].sym, s.entry ? s.entry->name : "-", s.via ? s.via : "");
		assert_non_null(s.entry);
		assert_string_equal(s.entry->name, c[i].op);
		if (c[i].key)
			assert_string_equal(s.dispatch_key, c[i].key);
		if (c[i].function)
			assert_string_equal(s.function, c[i].function);
		build_source_release(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(register_cpu),
		cmocka_unit_test(other_files),
		cmocka_unit_test(autograd_node),
		cmocka_unit_test(variable_type_node),
		cmocka_unit_test(derivative_entries),
		cmocka_unit_test(symbols),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
