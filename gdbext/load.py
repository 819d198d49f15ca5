# `source /path/to/gdbext/load.py` in GDB loads the ptgdb package next to this file.
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

import ptgdb  # noqa: E402

ptgdb.register(None)
