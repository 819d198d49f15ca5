# The gdb.printing.PrettyPrinter that dispatches a value to its printer class,
# with one named subprinter per kind so `disable pretty-printer global ptgdb;Tensor`
# turns one off.
import gdb
import gdb.printing

from . import classify, printers


class PtPrettyPrinter(gdb.printing.PrettyPrinter):
    def __init__(self):
        super().__init__("ptgdb", [gdb.printing.SubPrettyPrinter(k)
                                   for k in classify.ALL_KINDS])
        self._by_name = {s.name: s for s in self.subprinters}

    def __call__(self, value):
        t = value.type.strip_typedefs()
        if t.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
            t = t.target().strip_typedefs()
        if t.code == gdb.TYPE_CODE_PTR:
            target = t.target().strip_typedefs().unqualified()
            kind = classify.classify_pointer(target.tag or target.name)
        else:
            t = t.unqualified()
            kind = classify.classify(t.tag or t.name)
        if kind is None or not self._by_name[kind].enabled:
            return None
        return printers.BY_KIND[kind](value)
