# ctest-labels: one-tree
# The include graph of common/, inspect/ and tracers/ has no cycle between
# modules (a module is x.c with its x.h), and no layer reaches up: common/
# includes nothing of the tools, a tool's library nothing of its cli/ folder,
# and one tool nothing of the other; struct db is defined in tracers/store/db.c only.
# docs/internals/architecture.md is the plan: each folder includes only the
# folders its "May include" line names (ALLOW below, the same lists), so a new
# edge between folders, and with it the next circle, fails here until the plan
# says it may be. A folder's private headers (PRIVATE) are included from it only.
. "$PT_TESTLIB/common.sh" || exit 2
cd "$PT_SRC" || exit 2
/usr/bin/python3 - >"$T/report" <<'PY'
import os, re, sys
roots = ["common", "inspect", "tracers"]
files = [os.path.join(d, f) for r in roots for d, _, fs in os.walk(r) for f in fs if f.endswith((".c", ".h"))]
headers = {}
for f in files:
    if f.endswith(".h"):
        headers.setdefault(os.path.basename(f), []).append(f)
for h, where in headers.items():
    if len(where) > 1:
        print("FAIL: header name %s is not unique: %s" % (h, " ".join(where)))
mod = lambda f: f[:-2]
# Folder -> the folders it may include besides its own (architecture.md's
# "May include" of each section). A folder not listed here fails: a new folder
# gets its line in architecture.md and here.
ALLOW = {
    "common": set(),
    "inspect/elf": {"common"},
    "inspect/cuda": {"common", "inspect/elf"},
    "inspect/torch": {"common", "inspect/elf", "inspect/cuda"},
    "inspect/build": {"common", "inspect/elf", "inspect/cuda", "inspect/torch"},
    "inspect/package": {"common", "inspect/elf", "inspect/cuda", "inspect/torch"},
    "inspect/buildlog": {"common"},
    "inspect/preflight": {"common", "inspect/elf", "inspect/cuda", "inspect/torch", "inspect/build"},
    "inspect/report": {"common", "inspect/elf", "inspect/cuda", "inspect/torch", "inspect/build",
                       "inspect/preflight", "inspect/package", "inspect/buildlog"},
    "inspect/cli": {"common", "inspect/elf", "inspect/cuda", "inspect/torch", "inspect/build",
                    "inspect/preflight", "inspect/package", "inspect/buildlog", "inspect/report"},
    "inspect/pyenv-helper": set(),
    "tracers/parse": {"common"},
    "tracers/capture": {"common"},
    "tracers/store": {"common"},
    "tracers/logs": {"common", "tracers/parse", "tracers/store", "tracers/capture"},
    "tracers/torchtrace": {"common", "tracers/parse", "tracers/store"},
    "tracers": {"common", "tracers/parse", "tracers/capture", "tracers/store", "tracers/logs",
                "tracers/torchtrace"},
    "tracers/report": {"common", "tracers/parse", "tracers/store", "tracers/torchtrace",
                       "tracers/logs", "tracers"},
    "tracers/cli": {"common", "tracers/parse", "tracers/capture", "tracers/store", "tracers/logs",
                    "tracers/torchtrace", "tracers/report", "tracers"},
}
# Narrower than a folder: tracers/report reads logs/ only through logs_query.h
# and the top level of tracers/ only through run_diff.h; logs/ follows the
# capture's spool files (spool.h) and nothing else of capture/.
ONLY = {("tracers/report", "tracers/logs"): {"logs_query.h"},
        ("tracers/logs", "tracers/capture"): {"spool.h"},
        ("tracers/report", "tracers"): {"run_diff.h"}}
# A folder's own headers: included from that folder only.
PRIVATE = {"tt_internal.h": "tracers/torchtrace", "report_pages.h": "tracers/report"}
for d in sorted({os.path.dirname(f) for f in files}):
    if d not in ALLOW:
        print("FAIL: folder %s has no include rule (add its \"May include\" to architecture.md and ALLOW)" % d)
edges = {}
for f in files:
    for inc in re.findall(r'^#include "([^"]+)"', open(f, errors="replace").read(), re.M):
        if inc not in headers:
            continue          # generated (version.h) or outside the tree
        to = headers[inc][0]
        a, b = mod(f), mod(to)
        if a != b:
            edges.setdefault(a, set()).add(b)
        # Layers: common/ is below both tools; a library is below its cli/; the tools are apart.
        top = lambda p: p.split("/")[0]
        if top(f) == "common" and top(to) != "common":
            print("FAIL: %s includes %s (common/ must not depend on a tool)" % (f, to))
        if top(f) in ("inspect", "tracers") and top(to) in ("inspect", "tracers") and top(f) != top(to):
            print("FAIL: %s includes %s (the tools are independent)" % (f, to))
        if "/cli/" not in f and "/cli/" in to:
            print("FAIL: %s includes %s (a library module depends on the CLI)" % (f, to))
        fd, td = os.path.dirname(f), os.path.dirname(to)
        if inc in PRIVATE and fd != PRIVATE[inc]:
            print("FAIL: %s includes %s (%s/'s own, for that folder only)" % (f, inc, PRIVATE[inc]))
        if fd != td and fd in ALLOW and td not in ALLOW[fd]:
            print("FAIL: %s includes %s (%s/ may include only: %s)" % (f, to, fd, ", ".join(sorted(ALLOW[fd])) or "nothing of the tree"))
        elif (fd, td) in ONLY and inc not in ONLY[(fd, td)]:
            print("FAIL: %s includes %s (%s/ may include of %s/ only %s)" % (f, to, fd, td, ", ".join(sorted(ONLY[(fd, td)]))))
# Tarjan's strongly connected components: any with more than one module is a cycle.
index, low, stack, on, out = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = len(index); stack.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            out.append(sorted(comp))
for v in sorted({m for m in map(mod, files)}):
    if v not in index:
        visit(v)
for c in out:
    print("FAIL: include cycle between modules: " + " <-> ".join(c))
# The store's connection is opaque: its fields are db.c's own.
for f in files:
    if f != "tracers/store/db.c" and re.search(r'^struct db(_stmt)? \{', open(f, errors="replace").read(), re.M):
        print("FAIL: %s defines struct db or db_stmt (opaque outside tracers/store/db.c)" % f)
print("modules: %d, edges: %d" % (len(set(map(mod, files))), sum(map(len, edges.values()))))
PY
cat "$T/report"
grep -q '^FAIL' "$T/report" && fail "the include graph breaks the plan (above)"
pass
finish
