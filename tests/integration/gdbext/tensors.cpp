// Test program for the GDB extension (tests/integration/gdbext/gdb_tensors.sh).
// Recipe: g++ -g -O0 -std=c++17 tensors.cpp -o tensors -ltorch -ltorch_cpu -lc10
// (Debian 12 libtorch-dev 1.13.1). Plain -g on purpose: TensorImpl's DWARF lives
// only in libc10 (vtable home rule), so the runner loads the type stubs (pt-types).
//
// Each "// expect NAME: TEXT" line is what `output NAME` must print at the
// breakpoint in stop_here()'s caller. Values are written as raw bytes, and
// main() dumps every tensor's elements (logical order, hex of the element's
// bytes as a little-endian integer) to argv[1]: the oracle for `pt-tensor --raw`.
#include <ATen/ATen.h>
#include <c10/util/Optional.h>
#include <c10/util/SmallVector.h>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

static FILE *dump;

template <class T>
static at::Tensor make(at::ScalarType st, at::IntArrayRef sizes, std::vector<T> vals)
{
	at::Tensor t = at::empty(sizes, at::TensorOptions().dtype(st));
	std::memcpy(t.data_ptr(), vals.data(), vals.size() * sizeof(T));
	return t;
}

static at::Tensor make_q(at::ScalarType st, at::IntArrayRef sizes, std::vector<uint8_t> bytes)
{
	at::Tensor t = at::_empty_affine_quantized(sizes, at::TensorOptions().dtype(st), 0.5, 1);
	size_t n = t.storage().nbytes();
	std::memcpy(t.data_ptr(), bytes.data(), std::min(n, bytes.size()));
	return t;
}

// Sub-byte quantized types pack 8/bits elements per byte along the last
// dimension (ATen/quantized/Quantizer.cpp get_sub_byte_tensor_size).
static void dump_elem(const at::TensorBase &t, const std::vector<int64_t> &idx)
{
	const uint8_t *base = static_cast<const uint8_t *>(t.storage().data());
	size_t isz = t.element_size();
	at::ScalarType st = t.scalar_type();
	if (st == at::kQUInt4x2 || st == at::kQUInt2x4) {
		int bits = st == at::kQUInt4x2 ? 4 : 2, per = 8 / bits;
		int64_t cols = t.size(t.dim() - 1), row = 0;
		for (int64_t d = 0; d + 1 < t.dim(); d++)
			row = row * t.size(d) + idx[d];
		int64_t j = idx.back();
		uint8_t b = base[row * ((cols + per - 1) / per) + j / per];
		fprintf(dump, " 0x%x", (b >> ((j % per) * bits)) & ((1 << bits) - 1));
		return;
	}
	int64_t off = t.storage_offset();
	for (size_t d = 0; d < idx.size(); d++)
		off += idx[d] * t.stride(d);
	const uint8_t *p = base + off * isz;
	fprintf(dump, " 0x");
	bool lead = true;
	for (size_t i = isz; i-- > 0;) {
		if (lead && p[i] == 0 && i > 0)
			continue;
		fprintf(dump, lead ? "%x" : "%02x", p[i]);
		lead = false;
	}
}

static void dump_tensor(const char *name, const at::TensorBase &t)
{
	fprintf(dump, "%s:", name);
	int64_t n = t.numel();
	std::vector<int64_t> idx(t.dim(), 0);
	for (int64_t k = 0; k < n; k++) {
		dump_elem(t, idx);
		for (int64_t d = t.dim() - 1; d >= 0; d--) {
			if (++idx[d] < t.size(d))
				break;
			idx[d] = 0;
		}
	}
	fprintf(dump, "\n");
}

#define DUMP(t) dump_tensor(#t, t)

extern "C" void __attribute__((noinline)) stop_here(void) { asm volatile(""); }

int main(int argc, char **argv)
{
	dump = argc > 1 ? fopen(argv[1], "w") : stdout;
	using c10::Half; using c10::BFloat16;
	at::Tensor f32 = make<float>(at::kFloat, {2, 3}, {1, 2, 3, 4, 5, 6});
	// expect f32: tensor([[1., 2., 3.], [4., 5., 6.]], dtype=float32, shape=[2, 3], strides=[3, 1], device=cpu)
	at::Tensor f64 = make<double>(at::kDouble, {3}, {0.5, -1.25, 3});
	// expect f64: tensor([0.5000, -1.2500, 3.0000], dtype=float64, shape=[3], strides=[1], device=cpu)
	at::Tensor f16 = make<Half>(at::kHalf, {4}, {Half(1.5f), Half(-2.0f), Half(0.25f), Half(65504.0f)});
	// expect f16: tensor([1.5000e+00, -2.0000e+00, 2.5000e-01, 6.5504e+04], dtype=float16, shape=[4], strides=[1], device=cpu)
	at::Tensor bf16 = make<BFloat16>(at::kBFloat16, {3}, {BFloat16(1.0f), BFloat16(0.5f), BFloat16(-3.0f)});
	// expect bf16: tensor([1.0000, 0.5000, -3.0000], dtype=bfloat16, shape=[3], strides=[1], device=cpu)
	at::Tensor fspecial = make<float>(at::kFloat, {4}, {NAN, INFINITY, -INFINITY, 2});
	// expect fspecial: tensor([nan, inf, -inf, 2.], dtype=float32, shape=[4], strides=[1], device=cpu)
	at::Tensor u8 = make<uint8_t>(at::kByte, {4}, {0, 1, 128, 255});
	// expect u8: tensor([0, 1, 128, 255], dtype=uint8, shape=[4], strides=[1], device=cpu)
	at::Tensor i8 = make<int8_t>(at::kChar, {3}, {-128, 0, 127});
	// expect i8: tensor([-128, 0, 127], dtype=int8, shape=[3], strides=[1], device=cpu)
	at::Tensor i16 = make<int16_t>(at::kShort, {2}, {-32768, 1234});
	// expect i16: tensor([-32768, 1234], dtype=int16, shape=[2], strides=[1], device=cpu)
	at::Tensor i32 = make<int32_t>(at::kInt, {2, 2}, {-1, 2, 2147483647, 0});
	// expect i32: tensor([[-1, 2], [2147483647, 0]], dtype=int32, shape=[2, 2], strides=[2, 1], device=cpu)
	at::Tensor i64 = make<int64_t>(at::kLong, {2}, {INT64_MIN, 42});
	// expect i64: tensor([-9223372036854775808, 42], dtype=int64, shape=[2], strides=[1], device=cpu)
	at::Tensor b = make<uint8_t>(at::kBool, {3}, {1, 0, 1});
	// expect b: tensor([True, False, True], dtype=bool, shape=[3], strides=[1], device=cpu)
	at::Tensor c32 = make<c10::complex<Half>>(at::kComplexHalf, {2},
		{c10::complex<Half>(Half(1.0f), Half(2.0f)), c10::complex<Half>(Half(-0.5f), Half(0.0f))});
	// expect c32: tensor([1.0000+2.j, -0.5000+0.j], dtype=complex32, shape=[2], strides=[1], device=cpu)
	at::Tensor c64 = make<c10::complex<float>>(at::kComplexFloat, {2},
		{c10::complex<float>(1.0f, -2.5f), c10::complex<float>(3.0f, 0.0f)});
	// expect c64: tensor([1.-2.5000j, 3.+0.0000j], dtype=complex64, shape=[2], strides=[1], device=cpu)
	at::Tensor c128 = make<c10::complex<double>>(at::kComplexDouble, {1, 2},
		{c10::complex<double>(0.0, 1.0), c10::complex<double>(-7.0, -8.0)});
	// expect c128: tensor([[0.+1.j, -7.-8.j]], dtype=complex128, shape=[1, 2], strides=[2, 1], device=cpu)
	at::Tensor qi8 = make_q(at::kQInt8, {3}, {0xff, 0x00, 0x7f});
	// expect qi8: tensor([-1, 0, 127], dtype=qint8, shape=[3], strides=[1], device=cpu)
	at::Tensor qu8 = make_q(at::kQUInt8, {3}, {0xff, 0x00, 0x7f});
	// expect qu8: tensor([255, 0, 127], dtype=quint8, shape=[3], strides=[1], device=cpu)
	at::Tensor qi32 = make_q(at::kQInt32, {2}, {0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0});
	// expect qi32: tensor([-1, 16], dtype=qint32, shape=[2], strides=[1], device=cpu)
	at::Tensor qu4 = make_q(at::kQUInt4x2, {2, 3}, {0x21, 0x03, 0x54, 0x06});
	// expect qu4: tensor([[1, 2, 3], [4, 5, 6]], dtype=quint4x2, shape=[2, 3], strides=[3, 1], device=cpu)
	at::Tensor qu2 = make_q(at::kQUInt2x4, {5}, {0xe4, 0x02});
	// expect qu2: tensor([0, 1, 2, 3, 2], dtype=quint2x4, shape=[5], strides=[1], device=cpu)
	at::Tensor tr = f32.t();
	// expect tr: tensor([[1., 4.], [2., 5.], [3., 6.]], dtype=float32, shape=[3, 2], strides=[1, 3], device=cpu)
	at::Tensor sl = at::arange(12, at::kLong).reshape({3, 4}).slice(1, 1, 3);
	// expect sl: tensor([[1, 2], [5, 6], [9, 10]], dtype=int64, shape=[3, 2], strides=[4, 1], offset=1, device=cpu)
	at::Tensor step = at::arange(10, at::kInt).slice(0, 1, 10, 3);
	// expect step: tensor([1, 4, 7], dtype=int32, shape=[3], strides=[3], offset=1, device=cpu)
	at::Tensor zd = at::scalar_tensor(3.5, at::kFloat);
	// expect zd: tensor(3.5000, dtype=float32, shape=[], strides=[], device=cpu)
	at::Tensor empty = at::empty({0, 4}, at::kFloat);
	// expect empty: tensor([], dtype=float32, shape=[0, 4], strides=[4, 1], device=cpu)
	at::Tensor d6 = at::arange(8, at::kShort).reshape({1, 2, 1, 2, 1, 2});
	// expect d6: tensor([[[[[[0, 1]], [[2, 3]]]], [[[[4, 5]], [[6, 7]]]]]], dtype=int16, shape=[1, 2, 1, 2, 1, 2], strides=[8, 4, 4, 2, 2, 1], device=cpu)
	at::Tensor big = at::arange(2000, at::kLong).reshape({40, 50});
	// expect big: tensor([[0, 1, 2, ..., 47, 48, 49], [50, 51, 52, ..., 97, 98, 99], [100, 101, 102, ..., 147, 148, 149], ..., [1850, 1851, 1852, ..., 1897, 1898, 1899], [1900, 1901, 1902, ..., 1947, 1948, 1949], [1950, 1951, 1952, ..., 1997, 1998, 1999]], dtype=int64, shape=[40, 50], strides=[50, 1], device=cpu)
	at::Tensor meta = at::empty({2, 3}, at::TensorOptions().dtype(at::kFloat).device(at::kMeta));
	// expect meta: tensor(<no data: meta tensor>, dtype=float32, shape=[2, 3], strides=[3, 1], device=meta)
	at::Tensor fake_cuda = at::ones({2}, at::kFloat); // the runner patches its device to cuda:0
	at::Tensor undef;
	// expect undef: at::Tensor <undefined>
	at::TensorBase base = f64;
	// expect base: tensor([0.5000, -1.2500, 3.0000], dtype=float64, shape=[3], strides=[1], device=cpu)
	c10::TensorImpl *impl = i32.unsafeGetTensorImpl();
	c10::intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl> iptr = b.getIntrusivePtr();
	// expect iptr: tensor([True, False, True], dtype=bool, shape=[3], strides=[1], device=cpu)
	c10::IntArrayRef sizes = big.sizes();
	// expect sizes: [40, 50]
	c10::SmallVector<int64_t, 5> sv = {7, 8, 9};
	// expect sv: [7, 8, 9]
	c10::SymInt si(12);
	// expect si: 12
	c10::ScalarType st = at::kBFloat16;
	// expect st: bfloat16
	c10::Device dev(at::kCPU);
	// expect dev: cpu
	c10::Device dev1(c10::DeviceType::CUDA, 1);
	// expect dev1: cuda:1
	c10::DispatchKeySet ks = f32.key_set();
	// expect ks: DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)
	c10::DispatchKeySet qks = qi8.key_set();
	// expect qks: DispatchKeySet(QuantizedCPU, ADInplaceOrView, AutogradCPU, AutocastCPU)
	c10::optional<c10::ScalarType> ost = at::kHalf;
	// expect ost: float16
	c10::optional<c10::Device> onone;
	// expect onone: nullopt
	c10::optional<at::Tensor> ot = zd;
	// expect ot: tensor(3.5000, dtype=float32, shape=[], strides=[], device=cpu)
	at::Scalar sd = 2.5;
	// expect sd: Scalar(2.5)
	at::Scalar sint = int64_t(-3);
	// expect sint: Scalar(-3)
	at::Scalar sb = true;
	// expect sb: Scalar(True)
	at::Scalar sz = c10::complex<double>(1, -2);
	// expect sz: Scalar((1-2j))
	c10::Storage storage = f32.storage();
	// expect storage: Storage(nbytes=24, device=cpu)
	uintptr_t garbage[2] = {0xdeadbeef, 0};
	at::Tensor *bad = reinterpret_cast<at::Tensor *>(&garbage[0]);
	// expect *bad: <unreadable tensor: Cannot access memory at address 0xdeadbeef>
	uintptr_t zeros[32] = {0};
	uintptr_t notimpl[1] = {(uintptr_t)zeros};
	at::Tensor *wrong = reinterpret_cast<at::Tensor *>(&notimpl[0]);
	// expect *wrong: <unreadable tensor: not a TensorImpl (vptr 0x0)>

	// Tensors the runner corrupts (gdb_tensors.sh, corrupt_cases.py: the review's N21).
	at::Tensor t1 = at::zeros({2, 3, 4}), t2 = at::zeros({2, 3, 4}), t3 = at::zeros({2, 3, 4});
	at::Tensor t4 = at::zeros({2, 3, 4}), t5 = at::zeros({2, 3, 4}), t6 = at::zeros({2, 3, 4});
	at::Tensor t7 = at::zeros({2, 3, 4}), t8 = at::zeros({2, 3, 4}), t9 = at::zeros({1, 1, 1, 1, 2, 3, 4});
	at::Tensor t10 = at::zeros({2, 3, 4}), t11 = at::zeros({2, 3, 4}), t12 = at::zeros({2, 3, 4});

	DUMP(f32); DUMP(f64); DUMP(f16); DUMP(bf16); DUMP(fspecial); DUMP(u8); DUMP(i8);
	DUMP(i16); DUMP(i32); DUMP(i64); DUMP(b); DUMP(c32); DUMP(c64); DUMP(c128);
	DUMP(qi8); DUMP(qu8); DUMP(qi32); DUMP(qu4); DUMP(qu2); DUMP(tr); DUMP(sl); DUMP(step);
	DUMP(zd); DUMP(empty); DUMP(d6); DUMP(big); DUMP(base);
	fclose(dump);
	stop_here();
	(void)impl; (void)sizes; (void)sv; (void)si; (void)st; (void)dev; (void)dev1;
	(void)ks; (void)qks; (void)ost; (void)onone; (void)ot; (void)sd; (void)sint;
	(void)sb; (void)sz; (void)bad; (void)wrong; (void)meta; (void)fake_cuda; (void)undef;
	(void)t1; (void)t2; (void)t3; (void)t4; (void)t5; (void)t6; (void)t7; (void)t8; (void)t9;
	(void)t10; (void)t11; (void)t12;
	return 0;
}
