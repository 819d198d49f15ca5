// bench/gdb_print.sh's program: one float32 tensor of 10^8 elements (400 MB of
// address space; at::empty leaves most pages untouched) and a non-contiguous view.
#include <ATen/ATen.h>

extern "C" void __attribute__((noinline)) stop_here(void) { asm volatile(""); }

int main()
{
	at::Tensor big = at::empty({10000, 10000}, at::kFloat);
	float *p = big.data_ptr<float>();
	for (int64_t i = 0; i < 3; i++)
		for (int64_t j = 0; j < 3; j++) {
			p[i * 10000 + j] = float(i + j);
			p[(9999 - i) * 10000 + 9999 - j] = float(-i - j);
		}
	at::Tensor bigt = big.t();
	stop_here();
	return (int)bigt.dim() - 2;
}
