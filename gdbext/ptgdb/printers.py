# The printer classes: one small class per kind (classify.py), each turning a
# gdb.Value into text through layout.py (memory) and summarize.py (text).
import gdb

from . import classify, dtypes, layout, summarize

# Settable with `set pt-threshold N` / `set pt-edgeitems N` (commands.py).
SETTINGS = {"threshold": summarize.DEFAULT_THRESHOLD,
            "edgeitems": summarize.DEFAULT_EDGEITEMS}


def _values_text(info, full, raw, edge):
    dev = info.device
    if dev == "meta":
        return "<no data: meta tensor>"
    if not dev.startswith("cpu"):
        # A device pointer means nothing in host memory (or in a core file).
        return "<values in %s memory, not readable from the host>" % dev
    if info.dtype is None:
        return "<no decoder for %s>" % info.dtype_label
    if info.numel and not info.data:
        raise layout.Unreadable("null data pointer with numel %d" % info.numel)
    edge = SETTINGS["edgeitems"] if edge is None else edge
    summ = summarize.should_summarize(info.numel, SETTINGS["threshold"])
    if full:
        summ = False
    # Whatever pt-threshold says, never walk more than FULL_LIMIT elements.
    if info.numel > layout.FULL_LIMIT:
        summ = True
    # A summary shows at most SUMMARY_LIMIT elements, read one by one from their
    # offsets (strides): a broadcast view costs what it shows, never its numel.
    limit = summarize.shown_limit(summ)
    indices = summarize.shown_indices(info.sizes, summ, edge, limit)
    raw_bytes = layout.element_bytes(info, indices)
    if raw:
        values = {k: dtypes.raw_int(b) for k, b in raw_bytes.items()}
        fmt = summarize.raw_formatter()
    else:
        values = {k: info.dtype.decode(b) for k, b in raw_bytes.items()}
        fmt = summarize.formatter(info.dtype.kind, [values[k] for k in indices])
    return summarize.render(info.sizes, values, fmt, summ, edge, limit)


def tensor_string(value, full=False, raw=False, edge=None):
    """The one-line print of any tensor-like value; never raises for bad memory."""
    try:
        info = layout.read_tensor(value)
    except layout.Unreadable as e:
        return "<unreadable tensor: %s>" % e
    return info_string(info, full, raw, edge)


def info_string(info, full=False, raw=False, edge=None):
    if info.undefined:
        return "at::Tensor <undefined>"
    if info.symbolic:
        return "tensor(<symbolic>, dtype=%s, device=%s)" % (info.dtype_label, info.device)
    try:
        body = _values_text(info, full, raw, edge)
    except (layout.Unreadable, gdb.error) as e:
        # gdb.MemoryError is a gdb.error: a core file without the page, a freed buffer.
        return "<unreadable tensor: %s; dtype=%s, shape=%s, device=%s>" % (
            e, info.dtype_label, summarize.format_list(info.sizes), info.device)
    return summarize.tensor_text(body, info.dtype_label, info.sizes, info.strides,
                                 info.offset, info.device)


class TensorPrinter:
    """at::Tensor, at::TensorBase, c10::intrusive_ptr<c10::TensorImpl, ...>."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        return tensor_string(self.value)


class TensorImplPrinter(TensorPrinter):
    """c10::TensorImpl (or a subclass) by value."""


class TensorImplPtrPrinter(TensorPrinter):
    """c10::TensorImpl *: the address, then the tensor."""

    def to_string(self):
        addr = int(self.value)
        if addr == 0:
            return "(c10::TensorImpl *) 0x0"
        return "(c10::TensorImpl *) 0x%x %s" % (addr, tensor_string(self.value))


def storage_impl_pointer(value):
    """A c10::StorageImpl* from Storage, StorageImpl, intrusive_ptr<StorageImpl> or a tensor."""
    value = layout.strip(value)
    kind = classify.classify(layout.type_name(value.type))
    if kind == classify.STORAGE:
        return layout.need(layout.need(value, "storage_impl_"), "target_")
    if kind == classify.STORAGE_IMPL:
        if layout.has_field(value, "target_"):
            return layout.need(value, "target_")
        return value.address
    ptr = layout.impl_pointer(value)
    return layout.need(layout.need(layout.need(ptr.dereference(), "storage_"),
                                   "storage_impl_"), "target_")


def storage_fields(value):
    """[(name, text)] of a storage: data, nbytes, device, refcount, resizable, allocator."""
    sptr = storage_impl_pointer(value)
    if int(sptr) == 0:
        return None
    st = layout.deref(sptr)
    dp = layout.need(st, "data_ptr_")
    nbytes = layout.sym_int(layout.need(st, "size_bytes_"))
    out = [("data", "0x%x" % int(layout.need(layout.need(dp, "ptr_"), "data_"))),
           ("nbytes", "<symbolic>" if nbytes is None else str(nbytes)),
           ("device", layout.device_text(layout.need(dp, "device_")))]
    rc, _ = layout.refcounts(st)
    if rc is not None:
        out.append(("refcount", str(rc)))
    if layout.has_field(st, "resizable_"):
        out.append(("resizable", str(bool(layout.need(st, "resizable_")))))
    if layout.has_field(st, "allocator_"):
        alloc = int(layout.need(st, "allocator_"))
        sym = layout.symbol_at(int.from_bytes(
            gdb.selected_inferior().read_memory(alloc, 8), "little")) if alloc else ""
        cls = classify.vtable_class(sym)
        out.append(("allocator", "0x%x%s" % (alloc, " <%s>" % cls if cls else "")))
    return out


class StoragePrinter:
    """c10::Storage, c10::StorageImpl, c10::intrusive_ptr<c10::StorageImpl>."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            fields = storage_fields(self.value)
        except (layout.Unreadable, gdb.error) as e:
            return "<unreadable storage: %s>" % e
        if fields is None:
            return "Storage(<null>)"
        keep = [f for f in fields if f[0] in ("nbytes", "device")]
        return "Storage(" + ", ".join("%s=%s" % f for f in keep) + ")"


def _is_integer(t):
    t = t.strip_typedefs()
    return t.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR, gdb.TYPE_CODE_BOOL)


class _SequencePrinter:
    """Shared by ArrayRef and SmallVector: integers as [a, b], others as children."""
    LIMIT = 200

    def __init__(self, value):
        self.value = layout.strip(value)

    def _parts(self):
        raise NotImplementedError

    def to_string(self):
        try:
            data, length, elem = self._parts()
            if length < 0 or length > 1 << 32:
                return "<unreadable array: length %d>" % length
            if _is_integer(elem):
                items = [int(data[i]) for i in range(min(length, self.LIMIT))]
                text = summarize.format_list(items, self.LIMIT)
                return text if length <= self.LIMIT else text[:-1] + " (%d total)]" % length
            return "%s of length %d" % (layout.type_name(self.value.type), length)
        except gdb.error as e:
            return "<unreadable array: %s>" % e

    def children(self):
        try:
            data, length, elem = self._parts()
        except gdb.error:
            return
        if _is_integer(elem):
            return
        for i in range(min(length, self.LIMIT)):
            yield "[%d]" % i, data[i]

    def display_hint(self):
        return "array"


class ArrayRefPrinter(_SequencePrinter):
    def _parts(self):
        elem = self.value.type.template_argument(0)
        data = layout.need(self.value, "Data").cast(elem.pointer())
        return data, int(layout.need(self.value, "Length")), elem


class SmallVectorPrinter(_SequencePrinter):
    def _parts(self):
        elem = self.value.type.template_argument(0)
        data = layout.need(self.value, "BeginX").cast(elem.pointer())
        return data, int(layout.need(self.value, "Size")), elem


class SymIntPrinter:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            v = layout.sym_int(layout.strip(self.value))
        except gdb.error as e:
            return "<unreadable SymInt: %s>" % e
        return "<symbolic>" if v is None else str(v)


class ScalarTypePrinter:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        d, label = layout.scalar_types().lookup(int(self.value))
        return label


class TypeMetaPrinter(ScalarTypePrinter):
    def to_string(self):
        d, label = layout.scalar_types().lookup(int(layout.need(self.value, "index_")))
        return label


class DevicePrinter:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            return layout.device_text(layout.strip(self.value))
        except (layout.Unreadable, gdb.error) as e:
            return "<unreadable Device: %s>" % e


def keyset_string(repr_):
    names = layout.keyset_names(repr_)
    if names is None:
        return "DispatchKeySet(0x%x)" % repr_
    return "DispatchKeySet(" + ", ".join(names) + ")"


class DispatchKeySetPrinter:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            return keyset_string(int(layout.need(layout.strip(self.value), "repr_")))
        except (layout.Unreadable, gdb.error) as e:
            return "<unreadable DispatchKeySet: %s>" % e


class OptionalPrinter:
    """c10::optional<T> / std::optional<T> of a kind printed here: nullopt or the payload."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            engaged, payload = layout.read_optional(layout.strip(self.value))
        except (layout.Unreadable, gdb.error) as e:
            return "<unreadable optional: %s>" % e
        return payload if engaged else "nullopt"


class ScalarPrinter:
    """at::Scalar: tag + union v (1.13: d, i, z, b as i, symbolic sd/si; 2.x adds u)."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            v = layout.strip(self.value)
            tag = str(layout.need(v, "tag")).split("::")[-1]
            u = layout.need(v, "v")
            if tag == "HAS_d":
                return "Scalar(%r)" % float(u["d"])
            if tag == "HAS_i":
                return "Scalar(%d)" % int(u["i"])
            if tag == "HAS_u":
                return "Scalar(%d)" % int(u["u"])
            if tag == "HAS_b":
                return "Scalar(%s)" % bool(int(u["i"]))
            if tag == "HAS_z":
                z = u["z"]
                return "Scalar(%r)" % complex(float(layout.need(z, "real_")),
                                             float(layout.need(z, "imag_")))
            return "Scalar(<symbolic %s>)" % tag
        except (layout.Unreadable, gdb.error) as e:
            return "<unreadable Scalar: %s>" % e


class SizesAndStridesPrinter:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            ss = layout.strip(self.value)
            n = int(layout.need(ss, "size_"))
            if n < 0 or n > layout.MAX_DIMS:
                return "<unreadable SizesAndStrides: size_ %d>" % n
            if n <= 5:
                a = layout.need(ss, "inlineStorage_")
                sizes = [int(a[i]) for i in range(n)]
                strides = [int(a[5 + i]) for i in range(n)]
            else:
                p = layout.need(ss, "outOfLineStorage_")
                sizes = [int(p[i]) for i in range(n)]
                strides = [int(p[n + i]) for i in range(n)]
            return "sizes=%s strides=%s" % (summarize.format_list(sizes),
                                            summarize.format_list(strides))
        except (layout.Unreadable, gdb.error) as e:
            return "<unreadable SizesAndStrides: %s>" % e


BY_KIND = {
    classify.TENSOR: TensorPrinter,
    classify.INTRUSIVE_TENSOR: TensorPrinter,
    classify.TENSOR_IMPL: TensorImplPrinter,
    classify.TENSOR_IMPL_PTR: TensorImplPtrPrinter,
    classify.STORAGE: StoragePrinter,
    classify.STORAGE_IMPL: StoragePrinter,
    classify.ARRAY_REF: ArrayRefPrinter,
    classify.SMALL_VECTOR: SmallVectorPrinter,
    classify.SYM_INT: SymIntPrinter,
    classify.SCALAR_TYPE: ScalarTypePrinter,
    classify.TYPE_META: TypeMetaPrinter,
    classify.DEVICE: DevicePrinter,
    classify.DISPATCH_KEY_SET: DispatchKeySetPrinter,
    classify.OPTIONAL: OptionalPrinter,
    classify.SCALAR: ScalarPrinter,
    classify.SIZES_AND_STRIDES: SizesAndStridesPrinter,
}
