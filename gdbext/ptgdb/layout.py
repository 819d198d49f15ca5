# Read a TensorImpl (and its StorageImpl) from inferior memory, finding every
# field by its DWARF name: never an offset (docs/formats/tensor-layout.md §1-§4).
# No inferior calls, so it works on core files. Anything unreadable raises
# Unreadable(reason); callers print `<unreadable tensor: reason>`.
import gdb

from . import classify, dtypes, summarize

MAX_DIMS = 64              # sanity bound on SizesAndStrides.size_ (garbage check)
SPAN_READ_LIMIT = 1 << 20  # one read_memory when the shown elements lie this close
FULL_LIMIT = 100000        # --full never reads more elements than this


class Unreadable(Exception):
    pass


class TypesMissing(Unreadable):
    pass


_cache = {}


def clear_cache(*_args):
    """Types, enums and vtable names depend on the loaded objfiles."""
    _cache.clear()


gdb.events.new_objfile.connect(clear_cache)
gdb.events.clear_objfiles.connect(clear_cache)


def _cached(key, fn):
    if key not in _cache:
        _cache[key] = fn()
    return _cache[key]


def strip(value):
    """The value with references, typedefs and cv removed from its type."""
    t = value.type
    if t.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
        value = value.referenced_value()
    return value.cast(value.type.strip_typedefs().unqualified())


def type_name(t):
    t = t.strip_typedefs().unqualified()
    return t.tag or t.name or str(t)


def lookup_type(name):
    """A complete type by name, or None (GDB may only know a declaration)."""
    def find():
        try:
            t = gdb.lookup_type(name).strip_typedefs()
        except gdb.error:
            return None
        return t if t.fields() else None
    return _cached(("type", name), find)


def enum_values(name):
    """{enumerator: value} of a DWARF enum (qualifiers removed), or {}."""
    def find():
        try:
            t = gdb.lookup_type(name).strip_typedefs()
        except gdb.error:
            return {}
        if t.code != gdb.TYPE_CODE_ENUM:
            return {}
        return {f.name.split("::")[-1]: f.enumval for f in t.fields()}
    return _cached(("enum", name), find)


def scalar_types():
    return _cached("scalar_types",
                   lambda: dtypes.ScalarTypeTable(enum_values("c10::ScalarType")))


def field(value, name, depth=4, deep=False, code=None):
    """value.<name>, searched through base classes and anonymous unions/structs
    (deep: through every struct/union member, for library-internal layouts;
    code: only a field whose type has this gdb.TYPE_CODE_*)."""
    t = value.type.strip_typedefs()
    for f in t.fields():
        if f.name == name and (code is None or f.type.strip_typedefs().code == code):
            return value[f]
    if depth == 0:
        return None
    for f in t.fields():
        ft = f.type.strip_typedefs() if f.type is not None else None
        if f.is_base_class or not f.name or (
                deep and ft is not None and ft.code in (gdb.TYPE_CODE_STRUCT,
                                                         gdb.TYPE_CODE_UNION)):
            found = field(value[f], name, depth - 1, deep, code)
            if found is not None:
                return found
    return None


def need(value, name):
    v = field(value, name)
    if v is None:
        raise Unreadable("no field %s in %s" % (name, type_name(value.type)))
    return v


def has_field(value, name):
    return field(value, name) is not None


def symbol_at(addr):
    """`info symbol` text for an address ('' when nothing matches); minimal symbols
    count, so this works on stripped libraries (the vtables are exported)."""
    def find():
        try:
            out = gdb.execute("info symbol 0x%x" % addr, to_string=True)
        except gdb.error:
            return ""
        return "" if out.startswith("No symbol matches") else out.strip()
    return _cached(("sym", addr), find)


def undefined_singleton():
    def find():
        try:
            return int(gdb.parse_and_eval("&'c10::UndefinedTensorImpl::_singleton'"))
        except gdb.error:
            return None
    return _cached("undef", find)


def deref(ptr):
    """*ptr as a value built from one read of sizeof(*ptr) bytes. Value.dereference()
    would look up the dynamic type through RTTI and warn for classes whose typeinfo
    is not exported (at::QTensorImpl in Debian's libtorch)."""
    t = ptr.type.strip_typedefs().target().strip_typedefs()
    buf = gdb.selected_inferior().read_memory(int(ptr), t.sizeof)
    return gdb.Value(buf, t)


def read_optional(opt):
    """(engaged, payload) of c10::optional (1.13: init_, storage_.value_) or
    std::optional (libstdc++: _M_payload._M_engaged, ._M_payload._M_value)."""
    # BACKCOMPAT: torch 1.13 c10::optional; 2.x uses std::optional.
    engaged = field(opt, "init_", 6, True)
    value = None
    if engaged is not None:
        value = field(opt, "value_", 6, True)
    else:
        engaged = field(opt, "_M_engaged", 6, True)
        value = field(opt, "_M_value", 6, True)
    if engaged is None or value is None:
        raise Unreadable("unknown optional layout %s" % type_name(opt.type))
    return bool(engaged), value


# BACKCOMPAT: torch 1.13 DeviceType numbering when the enum has no DWARF.
_DEVICE_TYPES_1_13 = {0: "cpu", 1: "cuda", 6: "hip", 9: "xla", 12: "xpu", 13: "mps",
                      14: "meta", 17: "lazy", 19: "privateuseone"}


def device_text(dev):
    """'cpu', 'cuda:0', 'meta' from a c10::Device value."""
    typ = need(dev, "type_")
    idx = int(need(dev, "index_"))
    names = enum_values("c10::DeviceType")
    if names:
        by_val = {v: k for k, v in names.items()}
        name = by_val.get(int(typ), "device#%d" % int(typ))
        name = "privateuseone" if name == "PrivateUse1" else name.lower()
    else:
        name = _DEVICE_TYPES_1_13.get(int(typ), "device#%d" % int(typ))
    return name if idx < 0 else "%s:%d" % (name, idx)


def sym_int(value):
    """int, or None when the SymInt is symbolic. 1.13 tags symbolic ones with top bits
    101, 2.x stores pointers below -2**62; both read as data_ < -2**62."""
    data = int(need(value, "data_"))
    return None if data < -(1 << 62) else data


def keyset_names(repr_):
    """Runtime keys of a DispatchKeySet repr_ the way C++ prints them (per-backend
    functionality bits combined with backend bits), or None without the enums."""
    dk = enum_values("c10::DispatchKey")
    bc = enum_values("c10::BackendComponent")
    if not dk or "EndOfBackendKeys" not in bc:
        return None
    end_backend = bc["EndOfBackendKeys"]
    dk_by_val = {}
    for k, v in dk.items():
        dk_by_val.setdefault(v, k)
    backends = [b + 1 for b in range(end_backend) if repr_ >> b & 1]
    out = []
    for bit in range(end_backend, 64):
        if not repr_ >> bit & 1:
            continue
        fname = dk_by_val.get(bit - end_backend + 1, "DispatchKey#%d" % (bit - end_backend + 1))
        start = dk.get("StartOf%sBackends" % fname)
        if start is None:
            out.append(fname)
        elif backends:
            out.extend(dk_by_val.get(start + b, "%s#%d" % (fname, b)) for b in backends)
        else:
            out.append(fname)
    return out


def keyset_bits(repr_):
    """(backend component names, functionality key names) set in repr_."""
    dk = enum_values("c10::DispatchKey")
    bc = enum_values("c10::BackendComponent")
    if not dk or "EndOfBackendKeys" not in bc:
        return None, None
    end_backend = bc["EndOfBackendKeys"]
    dk_by_val = {}
    bc_by_val = {}
    for k, v in dk.items():
        dk_by_val.setdefault(v, k)
    for k, v in bc.items():
        bc_by_val.setdefault(v, k)
    back = [bc_by_val.get(b + 1, "#%d" % (b + 1)) for b in range(end_backend) if repr_ >> b & 1]
    func = [dk_by_val.get(b - end_backend + 1, "#%d" % (b - end_backend + 1))
            for b in range(end_backend, 64) if repr_ >> b & 1]
    return back, func


class TensorInfo:
    """What the printers need from one TensorImpl, read once."""
    undefined = False
    symbolic = False
    impl_class = None
    refcount = None
    weakcount = None
    autograd_meta = 0
    key_set = None
    data = 0
    nbytes = None
    storage_impl = 0


def impl_pointer(value):
    """A c10::TensorImpl* (complete type) from Tensor, TensorBase, intrusive_ptr,
    TensorImpl or TensorImpl*."""
    value = strip(value)
    t = value.type
    if t.code != gdb.TYPE_CODE_PTR:
        kind = classify.classify(type_name(t))
        if kind == classify.TENSOR:
            value = strip(need(need(value, "impl_"), "target_"))
        elif kind == classify.INTRUSIVE_TENSOR:
            value = strip(need(value, "target_"))
        elif kind == classify.TENSOR_IMPL:
            value = value.address
        else:
            raise Unreadable("not a tensor type: %s" % type_name(t))
    impl_type = lookup_type("c10::TensorImpl")
    if impl_type is None:
        raise TypesMissing("no type information for c10::TensorImpl; run pt-types")
    return value.cast(impl_type.pointer())


def read_tensor(value):
    """TensorInfo for a tensor-like value. Raises Unreadable."""
    try:
        return _read_tensor(impl_pointer(value))
    except gdb.MemoryError as e:
        raise Unreadable(str(e))
    except gdb.error as e:
        raise Unreadable(str(e))


def read_key_set(value):
    """(undefined, repr_) of a tensor-like value: key_set_ read by itself, so that a
    tensor whose sizes, strides, dtype or storage are damaged still shows its keys
    (nothing else of the TensorImpl is read or checked). Raises Unreadable."""
    try:
        ptr = impl_pointer(value)
        addr = int(ptr)
        if addr == 0:
            raise Unreadable("null TensorImpl pointer")
        vptr = int.from_bytes(gdb.selected_inferior().read_memory(addr, 8), "little")
        impl_class = classify.vtable_class(symbol_at(vptr))
        if impl_class == "c10::UndefinedTensorImpl" or addr == undefined_singleton():
            return True, None
        if not classify.is_tensor_impl_class(impl_class):
            raise Unreadable("not a TensorImpl (vptr 0x%x)" % vptr)
        return False, int(need(need(deref(ptr), "key_set_"), "repr_")) & ((1 << 64) - 1)
    except gdb.MemoryError as e:
        raise Unreadable(str(e))
    except gdb.error as e:
        raise Unreadable(str(e))


def _read_tensor(ptr):
    info = TensorInfo()
    info.impl = int(ptr)
    if info.impl == 0:
        raise Unreadable("null TensorImpl pointer")
    impl = deref(ptr)
    vptr = int.from_bytes(gdb.selected_inferior().read_memory(info.impl, 8), "little")
    info.impl_class = classify.vtable_class(symbol_at(vptr))
    if info.impl_class == "c10::UndefinedTensorImpl" or info.impl == undefined_singleton():
        info.undefined = True
        return info
    if not classify.is_tensor_impl_class(info.impl_class):
        raise Unreadable("not a TensorImpl (vptr 0x%x)" % vptr)
    info.refcount, info.weakcount = refcounts(impl)

    idx = int(need(need(impl, "data_type_"), "index_"))
    info.dtype, info.dtype_label = scalar_types().lookup(idx)
    engaged, dev = read_optional(need(impl, "device_opt_"))
    info.device = device_text(dev) if engaged else "none"
    info.key_set = int(need(need(impl, "key_set_"), "repr_"))
    # A std::unique_ptr: libstdc++ keeps the pointer in a tuple's _M_head_impl
    # (the deleter's empty _M_head_impl comes first in the base-class walk).
    am = field(need(impl, "autograd_meta_"), "_M_head_impl", 8, True, gdb.TYPE_CODE_PTR)
    info.autograd_meta = int(am) if am is not None else None

    sym = field(impl, "has_symbolic_sizes_strides_")
    if sym is not None and bool(sym):
        info.symbolic = True
        return info

    ss = need(impl, "sizes_and_strides_")
    ndim = int(need(ss, "size_"))
    if ndim < 0 or ndim > MAX_DIMS:
        raise Unreadable("implausible ndim %d" % ndim)
    if ndim <= 5:
        # SizesAndStrides: 5 inline dimensions, sizes in slots 0-4, strides in 5-9.
        inline = need(ss, "inlineStorage_")
        raw = [int(inline[i]) for i in range(10)]
        info.sizes, info.strides = raw[:ndim], raw[5:5 + ndim]
    else:
        p = int(need(ss, "outOfLineStorage_"))
        buf = gdb.selected_inferior().read_memory(p, 16 * ndim)
        raw = [int.from_bytes(buf[8 * i:8 * i + 8], "little", signed=True)
               for i in range(2 * ndim)]
        info.sizes, info.strides = raw[:ndim], raw[ndim:]
    info.offset = int(need(impl, "storage_offset_"))
    info.numel = int(need(impl, "numel_"))
    prod = 1
    for s in info.sizes:
        if s < 0:
            raise Unreadable("negative size in %s" % info.sizes)
        prod *= s
    if prod != info.numel:
        raise Unreadable("numel_ %d does not match sizes %s" % (info.numel, info.sizes))
    if info.offset < 0:
        raise Unreadable("negative storage offset %d" % info.offset)

    sptr = need(need(need(impl, "storage_"), "storage_impl_"), "target_")
    info.storage_impl = int(sptr)
    if info.storage_impl:
        st = deref(sptr)
        info.data = int(need(need(need(st, "data_ptr_"), "ptr_"), "data_"))
        info.nbytes = sym_int(need(st, "size_bytes_"))
    return info


def element_bytes(info, indices, raw=False):
    """{index tuple: bytes of that element} for a readable CPU tensor. Reads only
    the listed elements (a span when they are close), never the whole storage."""
    d = info.dtype
    if d.sub_byte_bits:
        return _sub_byte_elements(info, indices)
    isz = d.itemsize
    offs = summarize.element_offsets(indices, info.strides, info.offset)
    if not offs:
        return {}
    lo, hi = min(offs) * isz, (max(offs) + 1) * isz
    if lo < 0 or (info.nbytes is not None and hi > info.nbytes):
        raise Unreadable("view [%d, %d) exceeds storage of %s bytes" % (lo, hi, info.nbytes))
    inf = gdb.selected_inferior()
    out = {}
    if hi - lo <= SPAN_READ_LIMIT:
        buf = inf.read_memory(info.data + lo, hi - lo).tobytes()
        for idx, o in zip(indices, offs):
            out[idx] = buf[o * isz - lo:o * isz - lo + isz]
    else:
        # One read per distinct offset: elements that share one (stride 0) share it.
        seen = {}
        for idx, o in zip(indices, offs):
            if o not in seen:
                seen[o] = inf.read_memory(info.data + o * isz, isz).tobytes()
            out[idx] = seen[o]
    return out


def _sub_byte_elements(info, indices):
    bits = info.dtype.sub_byte_bits
    # Packed along the last dimension of a contiguous tensor; views of packed
    # tensors are not produced by ATen's sub-byte kernels.
    # NEEDSWORK: non-contiguous packed views are not decoded.
    expect = 1
    for d in range(len(info.sizes) - 1, -1, -1):
        if info.sizes[d] != 1 and info.strides[d] != expect:
            raise Unreadable("non-contiguous %s view" % info.dtype.name)
        expect *= info.sizes[d]
    inf = gdb.selected_inferior()
    out = {}
    mask = (1 << bits) - 1
    for idx in indices:
        byte, shift = summarize.sub_byte_location(idx, info.sizes, bits)
        byte += info.offset
        if info.nbytes is not None and byte >= info.nbytes:
            raise Unreadable("packed element beyond storage of %d bytes" % info.nbytes)
        b = inf.read_memory(info.data + byte, 1).tobytes()[0]
        out[idx] = bytes([(b >> shift) & mask])
    return out


def refcounts(obj):
    """(refcount, weakcount) of a c10::intrusive_ptr_target (None where unknown):
    separate atomics refcount_ and weakcount_ up to torch 2.9; one 64-bit
    combined_refcount_ later (PR #163394; 2.14.1: the low 32 bits the refcount,
    bits 32-62 the weakcount, bit 63 "has a PyObject")."""
    if has_field(obj, "refcount_"):
        rc = int(need(obj, "refcount_")["_M_i"])
        wc = int(need(obj, "weakcount_")["_M_i"]) if has_field(obj, "weakcount_") else None
        return rc, wc
    if has_field(obj, "combined_refcount_"):
        v = int(need(obj, "combined_refcount_")["_M_i"])
        return v & 0xffffffff, (v & ~(1 << 63)) >> 32
    return None, None
