// A c10::TensorImpl made with libc10 alone (no ATen): 2x3 floats 0..5. Built against
// the real DEBUG=1 libc10 of tests/torch2/buildtree by tests/integration/torch2/gdbext_debug_libc10.sh.
#include <c10/core/CPUAllocator.h>
#include <c10/core/TensorImpl.h>
#include <cstdio>

extern "C" __attribute__((noinline)) void stop_here(const void *p) { asm volatile("" : : "r"(p) : "memory"); }

int main()
{
	c10::Storage storage(c10::Storage::use_byte_size_t(), 6 * sizeof(float), c10::GetCPUAllocator(), true);
	auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), c10::DispatchKeySet(c10::DispatchKey::CPU),
							 caffe2::TypeMeta::Make<float>());
	impl->set_sizes_contiguous({2, 3});
	float *d = static_cast<float *>(impl->mutable_data());
	for (int i = 0; i < 6; i++)
		d[i] = (float)i;
	stop_here(impl.get());
	std::printf("%g\n", d[5]);
	return 0;
}
