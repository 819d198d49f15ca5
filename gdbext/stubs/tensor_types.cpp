// Type stubs for ptgdb (pt-types): compiled against the headers of the torch
// being debugged, with -g -femit-class-debug-always, and added to GDB with
// `add-symbol-file stub.o -o 0x4000000000000000` (pt-types). GCC emits a
// polymorphic class's full DWARF only where its vtable lives (TensorImpl's key
// function is in libc10), so release builds leave c10::TensorImpl incomplete;
// these variables make GDB's opaque-type resolution find a complete one.
// Defines nothing else; never linked.
#include <ATen/core/Tensor.h>
#include <ATen/core/TensorBase.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/Storage.h>
#include <c10/core/StorageImpl.h>
#include <c10/core/SymInt.h>
#include <c10/core/TensorImpl.h>
#include <c10/core/UndefinedTensorImpl.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/SmallVector.h>

namespace ptgdb_stub {
at::Tensor *tensor;
at::TensorBase *tensor_base;
c10::TensorImpl *tensor_impl;
c10::UndefinedTensorImpl *undefined_impl;
c10::StorageImpl *storage_impl;
c10::Storage *storage;
c10::impl::SizesAndStrides *sizes_and_strides;
c10::Scalar *scalar;
c10::SymInt *sym_int;
c10::IntArrayRef *int_array_ref;
c10::SmallVector<int64_t, 5> *small_vector;
c10::DispatchKeySet *key_set;
c10::DispatchKey dispatch_key;
c10::BackendComponent backend_component;
c10::ScalarType scalar_type;
c10::DeviceType device_type;
} // namespace ptgdb_stub
