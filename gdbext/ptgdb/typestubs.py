# pt-types: give GDB the DWARF of c10::TensorImpl when the libraries carry none
# (release builds, Debian's libtorch, pip wheels). Compiles stubs/tensor_types.cpp
# against the headers of the torch that is loaded (or given), caches the object,
# and adds it with `add-symbol-file OBJ -o OFFSET` (tensor-layout.md §5, fix 2).
import hashlib
import os
import shlex
import subprocess

import gdb

STUB_SOURCE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "stubs", "tensor_types.cpp")
_MARKER = os.path.join("c10", "core", "TensorImpl.h")


# The stub's own symbols (its pointer variables, header constants in .rodata)
# would otherwise sit at small addresses and label null pointers (`0x0
# <ptgdb_stub::tensor>`). Only its types are wanted, so move it to an address no
# pointer has: non-canonical on x86-64.
LOAD_OFFSET = 0x4000000000000000


class StubError(Exception):
    pass


def loaded_torch_library():
    """Path of the loaded libc10 (or libtorch_cpu), or None."""
    best = None
    for objfile in gdb.objfiles():
        name = os.path.basename(objfile.filename or "")
        if name.startswith("libc10.so"):
            return objfile.filename
        if name.startswith("libtorch_cpu.so") and best is None:
            best = objfile.filename
    return best


def include_dirs_for(library):
    """Header directories that belong to a torch library: ../include for wheels and
    source builds (torch/lib -> torch/include), <prefix>/include for system installs."""
    d = os.path.dirname(os.path.realpath(library))
    out = []
    for _ in range(4):
        for cand in (os.path.join(d, "include"), os.path.join(os.path.dirname(d), "include")):
            if os.path.isfile(os.path.join(cand, _MARKER)) and cand not in out:
                out.append(cand)
        if out:
            break
        d = os.path.dirname(d)
    return out


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ptgdb")


def _object_path(include, compiler, std, extra):
    """Cache file name: a hash of the header tree's TensorImpl.h, compiler, flags, stub."""
    with open(STUB_SOURCE, "rb") as f:
        src = f.read()
    marker = os.path.join(include, _MARKER)
    key = hashlib.sha256(repr((os.path.realpath(include), os.stat(marker).st_mtime_ns,
                               compiler, std, list(extra))).encode() + src).hexdigest()[:16]
    return os.path.join(cache_dir(), "tensor_types-%s.o" % key)


def default_std(include):
    """The C++ standard the headers need: c++17 (torch 1.13 to 2.9), c++20 where
    ATen.h refuses less (2.14.1: "#error C++20 or later compatible compiler is
    required to use ATen.")."""
    try:
        with open(os.path.join(include, "ATen", "ATen.h"), "rb") as f:
            head = f.read(4096)
    except OSError:
        return "c++17"
    return "c++20" if b"C++20 or later" in head else "c++17"


def build(include, compiler="g++", std="c++17", extra=(), rebuild=False):
    """Compile the stub against include; returns the object path (cached by the
    header tree, compiler and flags)."""
    marker = os.path.join(include, _MARKER)
    if not os.path.isfile(marker):
        raise StubError("no %s under %s" % (_MARKER, include))
    if not os.path.isfile(STUB_SOURCE):
        raise StubError("stub source missing: %s" % STUB_SOURCE)
    out = _object_path(include, compiler, std, extra)
    if os.path.isfile(out) and not rebuild:
        return out
    os.makedirs(cache_dir(), exist_ok=True)
    tmp = out + ".%d.tmp" % os.getpid()
    cmd = [compiler, "-g", "-O0", "-std=" + std, "-femit-class-debug-always", "-c",
           "-I", include]
    api = os.path.join(include, "torch", "csrc", "api", "include")
    if os.path.isdir(api):
        cmd += ["-I", api]
    cmd += list(extra) + [STUB_SOURCE, "-o", tmp]
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise StubError("%s: %s" % (compiler, e))
    if r.returncode != 0:
        tail = r.stdout.decode(errors="replace").strip().splitlines()[-5:]
        raise StubError("%s failed (%s):\n%s" % (compiler, " ".join(map(shlex.quote, cmd)),
                                                "\n".join(tail)))
    os.replace(tmp, out)
    return out


def is_loaded(path):
    real = os.path.realpath(path)
    return any(o.filename and os.path.realpath(o.filename) == real for o in gdb.objfiles())


def load(path):
    """add-symbol-file, keeping the selected frame (add-symbol-file selects frame 0)."""
    if is_loaded(path):
        return False
    level = None
    try:
        level = gdb.selected_frame().level()
    except gdb.error:
        pass
    gdb.execute("add-symbol-file %s -o 0x%x" % (shlex.quote(path), LOAD_OFFSET), to_string=True)
    if level:
        # Frame.select() is silent; the `frame N` command would print the frame.
        frame = gdb.newest_frame()
        for _ in range(level):
            if frame.older() is None:
                break
            frame = frame.older()
        frame.select()
    return True


def cached(include, compiler="g++", std="c++17", extra=()):
    """Whether build() would reuse an object (for the user message only)."""
    try:
        return os.path.isfile(_object_path(include, compiler, std, extra))
    except OSError:
        return False
