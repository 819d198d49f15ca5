/* fuzz-links: ptinspect_lib */
/*
 * libFuzzer target: a generated C++ file as buildsource scans it (brace
 * depth, strings, comments, declarations, registrations) and answers a line
 * of it, against a few real entries of native_functions.yaml; and the input's
 * first line as a symbol and as an operator whose derivatives.yaml entry is
 * looked up (a few real 2.14 entries).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buildsource.h"
#include "nativefuncs.h"
#include "xalloc.h"

static const char yaml[] =
	"- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
	"  structured_delegate: add.out\n"
	"- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
	"  structured: True\n"
	"  ufunc_inner_loop:\n"
	"    Generic: add (AllAndComplex, BFloat16, Half)\n"
	"  dispatch:\n"
	"    MPS: add_out_mps\n"
	"- func: fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)\n"
	"  dispatch:\n"
	"    CPU, CUDA: fill_\n"
	"- func: relu(Tensor self) -> Tensor\n"
	"- func: _linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)\n"
	"  structured_delegate: _linalg_det.result\n"
	"- func: linalg_det(Tensor A) -> Tensor\n"
	"  autogen: linalg_det.out\n";

static const char deriv_yaml[] =
	"- name: ldexp.Tensor(Tensor self, Tensor other) -> Tensor\n"
	"  self: grad * at::pow(2.0, other).conj()\n"
	"- name: random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)\n"
	"  self: zeros_like(grad)\n"
	"- name: random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)\n"
	"  self: zeros_like(grad)\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nativefuncs nf, deriv;
	static int ready;
	struct pt_diag d;
	size_t lines = 1;

	if (!ready) {
		pt_diag_init(&d);
		if (nativefuncs_parse((const uint8_t *)yaml, strlen(yaml), &nf, "nf", &d) < 0 ||
		    nativefuncs_parse_derivatives((const uint8_t *)deriv_yaml, strlen(deriv_yaml), &deriv, "d", &d) < 0)
			__builtin_trap();
		pt_diag_release(&d);
		ready = 1;
	}
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	for (size_t k = 0; k < 4; k++) {
		struct build_source s;
		size_t line = k == 3 ? lines + 1 : 1 + (lines * k) / 3;

		memset(&s, 0, sizeof(s));
		if (buildsource_resolve_line(&nf, k & 1 ? "RegisterFunctionalization_0.cpp" : k == 2 ? "VariableType_0.cpp" : "RegisterCPU.cpp",
					     (const char *)data, size, line, &s) == 0 && !s.function)
			__builtin_trap();
		if (s.entry && (s.entry < nf.v || s.entry >= nf.v + nf.n))
			__builtin_trap();
		build_source_release(&s);
	}
	{
		size_t n = 0;
		char *sym;
		struct build_source s;

		while (n < size && n < 4096 && data[n] != '\n' && data[n])
			n++;
		sym = pt_xstrndup((const char *)data, n);
		memset(&s, 0, sizeof(s));
		buildsource_resolve_symbol(&nf, sym, &s);
		build_source_release(&s);
		{
			bool fe;
			const struct nf_entry *e = buildsource_derivative(&deriv, sym, &fe);

			if (e && (e < deriv.v || e >= deriv.v + deriv.n))
				__builtin_trap();
		}
		free(sym);
	}
	return 0;
}
