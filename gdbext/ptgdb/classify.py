# Type name -> kind of printer. Pure Python (no gdb import), unit-tested without GDB.
# Names are GDB's spelling after strip_typedefs() and removing references and cv.
import re

TENSOR = "Tensor"                  # at::Tensor, at::TensorBase, c10::optional's payload
TENSOR_IMPL = "TensorImpl"         # c10::TensorImpl (and subclasses) by value
TENSOR_IMPL_PTR = "TensorImplPtr"  # c10::TensorImpl *
INTRUSIVE_TENSOR = "IntrusiveTensor"   # c10::intrusive_ptr<c10::TensorImpl, ...>
STORAGE = "Storage"                # c10::Storage
STORAGE_IMPL = "StorageImpl"       # c10::StorageImpl
ARRAY_REF = "ArrayRef"             # c10::ArrayRef<T> (IntArrayRef = ArrayRef<long>)
SMALL_VECTOR = "SmallVector"       # c10::SmallVector<T, N>
SYM_INT = "SymInt"
SCALAR_TYPE = "ScalarType"
DEVICE = "Device"
DISPATCH_KEY_SET = "DispatchKeySet"
OPTIONAL = "Optional"              # c10::optional<T>, std::optional<T> of the above
SCALAR = "Scalar"                  # at::Scalar == c10::Scalar
SIZES_AND_STRIDES = "SizesAndStrides"
TYPE_META = "TypeMeta"

ALL_KINDS = [TENSOR, TENSOR_IMPL, TENSOR_IMPL_PTR, INTRUSIVE_TENSOR, STORAGE, STORAGE_IMPL,
             ARRAY_REF, SMALL_VECTOR, SYM_INT, SCALAR_TYPE, DEVICE, DISPATCH_KEY_SET,
             OPTIONAL, SCALAR, SIZES_AND_STRIDES, TYPE_META]

_EXACT = {
    "at::Tensor": TENSOR,
    "at::TensorBase": TENSOR,
    "c10::TensorImpl": TENSOR_IMPL,
    "c10::Storage": STORAGE,
    "c10::StorageImpl": STORAGE_IMPL,
    "c10::SymInt": SYM_INT,
    "c10::ScalarType": SCALAR_TYPE,
    "c10::Device": DEVICE,
    "c10::DispatchKeySet": DISPATCH_KEY_SET,
    "c10::Scalar": SCALAR,
    "at::Scalar": SCALAR,
    "c10::impl::SizesAndStrides": SIZES_AND_STRIDES,
    "caffe2::TypeMeta": TYPE_META,
}

_PREFIX = [
    (re.compile(r"^c10::intrusive_ptr<c10::TensorImpl\b"), INTRUSIVE_TENSOR),
    (re.compile(r"^c10::intrusive_ptr<c10::StorageImpl\b"), STORAGE_IMPL),
    (re.compile(r"^c10::ArrayRef<"), ARRAY_REF),
    (re.compile(r"^c10::SmallVector<"), SMALL_VECTOR),
]

_OPTIONAL = re.compile(r"^(?:c10|std)::optional<(.*)>$")

# Subclasses of TensorImpl keep its fields; the printer handles them the same way.
_IMPL_SUBCLASS = re.compile(r"^(?:c10|at|torch)::[\w:]*TensorImpl$")


def classify(name):
    """Kind for a type name, or None when the extension has no printer for it."""
    if not name:
        return None
    if name in _EXACT:
        return _EXACT[name]
    for rx, kind in _PREFIX:
        if rx.match(name):
            return kind
    m = _OPTIONAL.match(name)
    if m and classify(m.group(1).strip()) is not None:
        return OPTIONAL
    if _IMPL_SUBCLASS.match(name):
        return TENSOR_IMPL
    return None


def classify_pointer(target_name):
    """Kind for a pointer whose target type is target_name (only TensorImpl pointers)."""
    if classify(target_name) == TENSOR_IMPL:
        return TENSOR_IMPL_PTR
    return None


def vtable_class(symbol_text):
    """'vtable for c10::TensorImpl + 16 in section ...' -> 'c10::TensorImpl' (or None)."""
    m = re.match(r"^vtable for (\S+) \+ \d+", symbol_text or "")
    return m.group(1) if m else None


def is_tensor_impl_class(cls):
    """Whether a class named by a vtable is TensorImpl or one of its known subclasses
    (QTensorImpl, OpaqueTensorImpl<...>, SparseTensorImpl, FunctionalTensorWrapper, ...)."""
    if not cls:
        return False
    base = re.sub(r"<.*", "", cls)
    return base.endswith("TensorImpl") or base.endswith("TensorWrapper")
