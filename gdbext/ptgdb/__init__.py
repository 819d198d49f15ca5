# ptgdb: readable PyTorch tensors in GDB, live or post-mortem, from memory only.
# Load with `source <prefix>/share/ptools/gdbext/ptgdb.py`-style one-liners
# (see docs/ptgdb.7) or by GDB's auto-load hook installed next to libc10.
import gdb
import gdb.printing

from . import commands, lookup

_printer = None


def register(objfile=None):
    """Register the printers (with objfile, or globally when None) and the
    commands. Safe to call more than once: the printer is added once per objfile."""
    global _printer
    commands.register()
    if _printer is None:
        _printer = lookup.PtPrettyPrinter()
    target = objfile if objfile is not None else None
    existing = (objfile.pretty_printers if objfile is not None
                else gdb.pretty_printers)
    if any(getattr(p, "name", None) == "ptgdb" for p in existing):
        return
    gdb.printing.register_pretty_printer(target, _printer)
