# ctest-labels: one-tree
# The include graph of common/, inspect/ and tracers/ has no cycle between
# modules (a module is x.c with its x.h), nor has their call graph (a module
# naming a function another defines), and no layer reaches up: common/
# includes nothing of the tools, a tool's library nothing of its cli/ folder,
# and one tool nothing of the other; struct db is defined in tracers/store/db.c only,
# and a library's header is included by its door only (DOORS: sqlite3.h by
# tracers/store/db.c, db_feed.c and db_jscan.c, zlib.h by common/gzout.c, ...).
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
    "inspect/buildtree": {"common", "inspect/elf", "inspect/cuda", "inspect/torch", "inspect/package"},
    "inspect/package": {"common", "inspect/elf", "inspect/cuda", "inspect/torch"},
    "inspect/buildlog": {"common"},
    "inspect/preflight": {"common", "inspect/elf", "inspect/cuda", "inspect/torch", "inspect/buildtree"},
    "inspect/report": {"common", "inspect/elf", "inspect/cuda", "inspect/torch", "inspect/buildtree",
                       "inspect/preflight", "inspect/package", "inspect/buildlog"},
    "inspect/cli": {"common", "inspect/elf", "inspect/cuda", "inspect/torch", "inspect/buildtree",
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
                       "tracers/logs", "tracers/render", "tracers"},
    "tracers/render": {"common", "tracers/parse", "tracers/store", "tracers/torchtrace",
                       "tracers/logs", "tracers"},
    "tracers/cli": {"common", "tracers/parse", "tracers/capture", "tracers/store", "tracers/logs",
                    "tracers/torchtrace", "tracers/report", "tracers/render", "tracers"},
}
# Narrower than a folder: tracers/report reads logs/ only through logs_query.h
# and the top level of tracers/ only through run_diff.h; logs/ follows the
# capture's spool files (spool.h) and nothing else of capture/.
ONLY = {("tracers/report", "tracers/logs"): {"logs_query.h"},
        ("tracers/logs", "tracers/capture"): {"spool.h"},
        ("tracers/report", "tracers"): {"run_diff.h"}}
# A folder's own headers: included from that folder only.
PRIVATE = {"tt_internal.h": "tracers/torchtrace", "report_pages.h": "tracers/report",
           "db_internal.h": "tracers/store"}
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
sys.setrecursionlimit(10000)
def cycles(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    def visit(v):
        index[v] = low[v] = len(index); stack.append(v); on.add(v)
        for w in graph.get(v, ()):
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
    return out
for c in cycles(edges):
    print("FAIL: include cycle between modules: " + " <-> ".join(c))
# Calls: a module that names a function another module defines (not static, at column 0
# with its body's brace on the next line: the tree's style) depends on it, and no circle
# of those either. The include graph cannot see one where each side includes only a
# shared header (tt_records, tt_compiles and tt_events once called each other in a
# circle through tt_query.h). Names defined more than once (main, each tool's cmd_diff)
# belong to different programs and are left out.
def code(f):
    t = re.sub(r"/\*.*?\*/", " ", open(f, errors="replace").read(), flags=re.S)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', t)
body = {f: code(f) for f in files if f.endswith(".c")}
defs = {}
for f, t in body.items():
    for m in re.finditer(r"^(?!static\b)[A-Za-z_][^;{}()#]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\n\{", t, re.M):
        defs.setdefault(m.group(1), []).append(f)
calls = {}
for f, t in body.items():
    for n in set(re.findall(r"\b[A-Za-z_]\w*\b", t)):
        if len(defs.get(n, ())) == 1 and defs[n][0] != f:
            calls.setdefault(mod(f), {}).setdefault(mod(defs[n][0]), set()).add(n)
for c in cycles(calls):
    print("FAIL: call cycle between modules: " + " <-> ".join(c))
    for x in c:
        for y in c:
            if y in calls.get(x, {}):
                print("  %s -> %s: %s" % (x, y, ", ".join(sorted(calls[x][y]))))
# An array's length is PT_ARRAY_SIZE (common/xalloc.h), not a division spelled out.
for f in files:
    if f != "common/xalloc.h":
        for m in re.finditer(r'sizeof\s*\(?\s*(\w+)\s*\)?\s*/\s*sizeof\s*\(*\s*(?:\*\s*\1|\1\s*\)?\s*\[\s*0\s*\])', open(f, errors="replace").read()):
            print("FAIL: %s: %s (use PT_ARRAY_SIZE)" % (f, m.group(0)))
# Integers from bytes are read through common/bytes.h only (architecture.md, Conventions).
for f in files:
    for m in re.finditer(r'^static (?:inline )?u?int(?:16|32|64)_t (le|be|rd)(16|32|64)\(', open(f, errors="replace").read(), re.M):
        print("FAIL: %s defines its own %s%s (use bytes.h)" % (f, m.group(1), m.group(2)))
# The store's connection is opaque: its fields are db.c's own.
for f in files:
    if f != "tracers/store/db.c" and re.search(r'^struct db(_stmt)? \{', open(f, errors="replace").read(), re.M):
        print("FAIL: %s defines struct db or db_stmt (opaque outside tracers/store/db.c)" % f)
# SQLite's API is the store's: the connection (db.c), the row feeds' virtual table
# (db_feed.c) and the JSON scanners (db_jscan.c). Everything else goes through them.
SQLITE_FILES = {"tracers/store/db.c", "tracers/store/db_feed.c", "tracers/store/db_jscan.c"}
# One door per dependency: a library's header is included by its door files only.
DOORS = {
    "sqlite3.h": SQLITE_FILES,
    "zlib.h": {"common/gzout.c"},
    "archive.h": {"inspect/package/pkgarchive.c"},
    "archive_entry.h": {"inspect/package/pkgarchive.c"},
    "yaml.h": {"inspect/buildtree/nativefuncs.c"},
    "zstd.h": {"inspect/cuda/fatbin_unpack.c"},
    "lz4.h": {"inspect/cuda/fatbin_unpack.c"},
    "Python.h": {"inspect/pyenv-helper/pyembed.c"},
}
for f in files:
    text = open(f, errors="replace").read()
    for hdr, allowed in sorted(DOORS.items()):
        if f not in allowed and re.search(r'^\s*#\s*include\s*[<"]' + re.escape(hdr) + r'[>"]', text, re.M):
            print("FAIL: %s includes %s (only %s may)" % (f, hdr, ", ".join(sorted(allowed))))
print("modules: %d, edges: %d, functions: %d, call edges: %d" % (len(set(map(mod, files))),
      sum(map(len, edges.values())), len(defs), sum(map(len, calls.values()))))
PY
cat "$T/report"
grep -q '^FAIL' "$T/report" && fail "the include or call graph breaks the plan (above)"
pass
finish
