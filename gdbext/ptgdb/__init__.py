# ptgdb: readable PyTorch tensors in GDB, live or post-mortem, from memory only.
# Loaded by `source <prefix>/share/ptools/gdbext/load.py` (docs/ptgdb.7) or by
# GDB's auto-load hook installed under the real libc10's name (libc10-gdb.py.in).
import gdb
import gdb.printing

from . import commands, lookup

_printer = None


def _registered_anywhere():
    lists = [gdb.pretty_printers] + [o.pretty_printers for o in gdb.objfiles()]
    return any(getattr(p, "name", None) == "ptgdb" for lst in lists for p in lst)


def register(objfile=None):
    """Register the printers (on objfile, or globally when None) and the commands.
    Once per session: `source` after auto-load (or the reverse) adds nothing."""
    global _printer
    commands.register()
    if _printer is None:
        _printer = lookup.PtPrettyPrinter()
    if _registered_anywhere():
        return
    gdb.printing.register_pretty_printer(objfile, _printer)
    # GDB asks each objfile's printers (in load order) before the global
    # ones, and libstdc++ registers its std::optional printer on its own
    # objfile: from torch 2.x c10::optional is std::optional, whose contents
    # would then print as libstdc++'s "std::optional = {...}". Being first on
    # every objfile (the main program comes first) keeps ptgdb in charge;
    # values it does not know fall through to the next printer.
    for obj in gdb.objfiles():
        _put_first(obj)
    gdb.events.new_objfile.connect(lambda ev: _put_first(ev.new_objfile))


def _put_first(obj):
    lst = obj.pretty_printers
    if lst and lst[0] is _printer:
        return
    if _printer in lst:
        lst.remove(_printer)
    lst.insert(0, _printer)
