#!/usr/bin/python3
"""Writes a ninja file of real edges of the torch build tree, changed on purpose.

    ninja-edges.py TREE_BUILD_NINJA IN_TREE_DIR OUT_DIR SPEC...

TREE_BUILD_NINJA is the tree's build.ninja as the host sees it, IN_TREE_DIR
the build directory as the edges see it (the bed's path: its rules.ninja is
included), OUT_DIR the scratch directory the objects go to (the bed's path).
Each SPEC is NAME=SOURCE[|EDIT...]: the edge of the object compiled from
SOURCE (a path under the checkout, as build.ninja names it) copied with its
variables, its output put in OUT_DIR/NAME.o, and each EDIT applied to its
variables: VAR-=WORD (drop a word), VAR+=WORDS (append), VAR:OLD=>NEW
(replace a substring). Used by tests/integration/torch2/buildlog_real.sh:
the commands stay the tree's own (compiler, defines, includes, flags).
"""
import re
import sys

ninja, intree, out, specs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
text = open(ninja, encoding="utf-8").read()
lines = ["include %s/CMakeFiles/rules.ninja" % intree, ""]
for spec in specs:
    name, _, rest = spec.partition("=")
    parts = rest.split("|")
    src, edits = parts[0], parts[1:]
    m = re.search(r"^build ([^:\n]*\.o): (\S+) (\S*/%s)[ \n][^\n]*\n?((?:  [^\n]*\n)+)" % re.escape(src), text, re.M)
    if not m:
        sys.exit("ninja-edges: no edge for %s" % src)
    rule, source, block = m.group(2), m.group(3), m.group(4)
    vars_ = {}
    for l in block.splitlines():
        k, _, v = l.strip().partition(" = ")
        vars_[k] = v
    vars_["DEP_FILE"] = "%s/%s.o.d" % (out, name)
    vars_["OBJECT_DIR"] = vars_["OBJECT_FILE_DIR"] = out
    for e in edits:
        if "-=" in e:
            k, w = e.split("-=", 1)
            vars_[k] = " ".join(x for x in vars_[k].split() if x != w)
        elif "+=" in e:
            k, w = e.split("+=", 1)
            vars_[k] = (vars_.get(k, "") + " " + w).strip()
        elif ":" in e and "=>" in e:
            k, rep = e.split(":", 1)
            old, new = rep.split("=>", 1)
            if old not in vars_[k]:
                sys.exit("ninja-edges: %s has no %r" % (k, old))
            vars_[k] = vars_[k].replace(old, new)
        else:
            sys.exit("ninja-edges: bad edit %r" % e)
    lines.append("build %s/%s.o: %s %s" % (out, name, rule, source))
    lines += ["  %s = %s" % (k, v) for k, v in vars_.items()]
    lines.append("")
print("\n".join(lines))
