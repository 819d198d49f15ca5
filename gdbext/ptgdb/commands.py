# pt-tensor, pt-storage, pt-dispatch-keys, pt-types and the pt-threshold /
# pt-edgeitems settings. Each command reads memory only (no inferior calls).
import argparse
import shlex

import gdb

from . import layout, printers, typestubs


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _Usage("%s: %s" % (self.prog, message))


class _CxxLanguage:
    """Evaluate in C++ even in a frame without debug info (a PLT stub, a stripped
    libtorch), where GDB's auto language is C and `(at::Tensor *)$rsi` fails."""

    def __enter__(self):
        self.saved = None
        try:
            if gdb.current_language() != "c++":
                self.saved = gdb.parameter("language")
                gdb.execute("set language c++", to_string=True)
        except (AttributeError, gdb.error):
            pass

    def __exit__(self, *exc):
        if self.saved is not None:
            gdb.execute("set language %s" % self.saved, to_string=True)


def _eval(expr):
    if not expr.strip():
        raise gdb.GdbError("an expression is required")
    with _CxxLanguage():
        return gdb.parse_and_eval(expr)


class PtTensor(gdb.Command):
    """Print a tensor the way torch would summarise it, reading memory only.
Usage: pt-tensor EXPR [--full | --edge N | --raw]

EXPR is an at::Tensor, at::TensorBase, c10::intrusive_ptr<c10::TensorImpl>,
c10::TensorImpl or c10::TensorImpl * (e.g. `pt-tensor self`,
`pt-tensor *(at::Tensor *)$rsi`).
  --full    print every element (at most 100000) instead of summarising
  --edge N  keep N elements at each end of a summarised dimension
  --raw     print each element's bytes as a little-endian integer in hex
A second line gives the TensorImpl and storage addresses, refcounts, the
autograd meta pointer and the dispatch keys. See also `set pt-threshold`."""

    def __init__(self):
        super().__init__("pt-tensor", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        full = raw = False
        edge = None
        words = arg.split()
        while words and words[-1].startswith("--") or (len(words) > 1 and words[-2] == "--edge"):
            w = words.pop()
            if w == "--full":
                full = True
            elif w == "--raw":
                raw = True
            elif w == "--edge":
                raise gdb.GdbError("pt-tensor: --edge needs a number")
            elif words and words[-1] == "--edge":
                words.pop()
                try:
                    edge = int(w)
                except ValueError:
                    raise gdb.GdbError("pt-tensor: --edge needs a number, not '%s'" % w)
            else:
                raise gdb.GdbError("pt-tensor: unknown option '%s' (see help pt-tensor)" % w)
        value = _eval(" ".join(words))
        try:
            info = layout.read_tensor(value)
        except layout.Unreadable as e:
            gdb.write("<unreadable tensor: %s>\n" % e)
            return
        gdb.write(printers.info_string(info, full, raw, edge) + "\n")
        if info.undefined:
            return
        details = ["impl=0x%x (%s)" % (info.impl, info.impl_class)]
        if info.refcount is not None:
            details.append("refcount=%d" % info.refcount)
        if info.weakcount is not None:
            details.append("weakcount=%d" % info.weakcount)
        details.append("storage=0x%x" % info.storage_impl)
        details.append("data=0x%x" % info.data)
        if info.nbytes is not None:
            details.append("nbytes=%d" % info.nbytes)
        if info.autograd_meta is not None:
            details.append("autograd_meta=0x%x" % info.autograd_meta)
        details.append("keys=" + printers.keyset_string(info.key_set))
        gdb.write("  " + " ".join(details) + "\n")


class PtStorage(gdb.Command):
    """Print a tensor's storage: data pointer, size in bytes, device, refcount, allocator.
Usage: pt-storage EXPR

EXPR is a c10::Storage, c10::StorageImpl, c10::intrusive_ptr<c10::StorageImpl>
or anything pt-tensor accepts (then its storage is shown)."""

    def __init__(self):
        super().__init__("pt-storage", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        value = _eval(arg)
        try:
            fields = printers.storage_fields(value)
        except (layout.Unreadable, gdb.error) as e:
            gdb.write("<unreadable storage: %s>\n" % e)
            return
        if fields is None:
            gdb.write("Storage(<null>)\n")
            return
        gdb.write("Storage(" + ", ".join("%s=%s" % f for f in fields) + ")\n")


class PtDispatchKeys(gdb.Command):
    """Decode a DispatchKeySet: runtime keys as C++ prints them, then the raw bits.
Usage: pt-dispatch-keys EXPR

EXPR is a c10::DispatchKeySet, a tensor (its key_set_), or an integer repr_.
Names come from the DWARF enums c10::DispatchKey and c10::BackendComponent
(bit numbers move between torch versions)."""

    def __init__(self):
        super().__init__("pt-dispatch-keys", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        value = _eval(arg)
        t = value.type.strip_typedefs()
        try:
            if t.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_ENUM):
                repr_ = int(value) & ((1 << 64) - 1)
            elif layout.type_name(t) == "c10::DispatchKeySet":
                repr_ = int(layout.need(layout.strip(value), "repr_"))
            else:
                # key_set_ alone: damaged sizes or storage must not hide the keys (N21).
                undefined, repr_ = layout.read_key_set(value)
                if undefined:
                    gdb.write("at::Tensor <undefined>\n")
                    return
        except (layout.Unreadable, gdb.error) as e:
            gdb.write("<unreadable dispatch keys: %s>\n" % e)
            return
        gdb.write(printers.keyset_string(repr_) + "\n")
        back, func = layout.keyset_bits(repr_)
        gdb.write("  repr_=0x%x\n" % repr_)
        if back is not None:
            gdb.write("  backend bits: %s\n" % (", ".join(back) or "none"))
            gdb.write("  functionality bits: %s\n" % (", ".join(func) or "none"))
        else:
            gdb.write("  (no DWARF for c10::DispatchKey; run pt-types for names)\n")


class PtTypes(gdb.Command):
    """Load type information for c10::TensorImpl when the libraries have none.
Usage: pt-types [--headers DIR] [--compiler CXX] [--std STD] [--rebuild]
       pt-types --stub OBJECT

Compiles ptgdb's stubs/tensor_types.cpp with -g -femit-class-debug-always
against the headers of the loaded torch (DIR/c10/core/TensorImpl.h; found from
the loaded libc10 unless --headers is given), caches the object under
~/.cache/ptgdb, and adds it with add-symbol-file (types only). The selected
frame is kept. --stub loads an object built beforehand (same headers!)."""

    def __init__(self):
        super().__init__("pt-types", gdb.COMMAND_DATA, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        p = _Parser(prog="pt-types", add_help=False)
        p.add_argument("--headers")
        p.add_argument("--compiler", default="g++")
        p.add_argument("--std")   # default: what the headers need (typestubs.default_std)
        p.add_argument("--stub")
        p.add_argument("--rebuild", action="store_true")
        try:
            a = p.parse_args(shlex.split(arg))
        except _Usage as e:
            raise gdb.GdbError(str(e))
        try:
            if a.stub:
                obj = a.stub
            else:
                if a.headers:
                    include = a.headers
                else:
                    lib = typestubs.loaded_torch_library()
                    if lib is None:
                        raise typestubs.StubError(
                            "no libc10 loaded yet (run or load a core first, or give --headers)")
                    dirs = typestubs.include_dirs_for(lib)
                    if not dirs:
                        raise typestubs.StubError(
                            "no torch headers found near %s; give --headers DIR" % lib)
                    include = dirs[0]
                std = a.std or typestubs.default_std(include)
                if a.rebuild or not typestubs.cached(include, a.compiler, std):
                    gdb.write("pt-types: compiling type stubs against %s\n" % include)
                    gdb.flush()
                obj = typestubs.build(include, a.compiler, std, rebuild=a.rebuild)
            loaded = typestubs.load(obj)
        except typestubs.StubError as e:
            raise gdb.GdbError("pt-types: %s" % e)
        layout.clear_cache()
        ok = layout.lookup_type("c10::TensorImpl") is not None
        gdb.write("pt-types: %s %s; c10::TensorImpl is %s\n" % (
            "loaded" if loaded else "already loaded", obj,
            "complete" if ok else "STILL INCOMPLETE"))


class _IntParam(gdb.Parameter):
    def __init__(self, name, key, doc):
        self.key = key
        self.set_doc = "Set " + doc
        self.show_doc = "Show " + doc
        self.__doc__ = doc
        super().__init__(name, gdb.COMMAND_DATA, gdb.PARAM_ZUINTEGER)
        self.value = printers.SETTINGS[key]

    def get_set_string(self):
        printers.SETTINGS[self.key] = int(self.value)
        return ""

    def get_show_string(self, svalue):
        return "%s is %s." % (self.key, svalue)


_registered = []


def register():
    """Create the commands and settings once per GDB session."""
    if _registered:
        return
    _registered.extend([PtTensor(), PtStorage(), PtDispatchKeys(), PtTypes(),
                        _IntParam("pt-threshold", "threshold",
                                  "the number of elements above which ptgdb summarises a tensor."),
                        _IntParam("pt-edgeitems", "edgeitems",
                                  "the number of elements ptgdb keeps at each end of a summarised dimension.")])
