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
