# `ptinspect build --json --source -` on every function of a torch build
# tree's generated files (tests/torch2/buildtree, both flavours), against a
# truth read here independently of ptinspect. Used by
# tests/integration/torch2/build_source.sh (torch 2.6) and build_source_sid.sh
# (torch 2.14); what it asks and how it knows the answer is described there.
#   python3 source_walk.py PTINSPECT TREE
# Prints a line per file, a "total:" line, the first failures, then "ok" or
# "FAILED" last.
import json, os, re, subprocess, sys, time
ptinspect, tree = sys.argv[1], sys.argv[2]
src = os.path.dirname(tree)
gen = os.path.join(tree, "aten/src/ATen")
files = sorted(f for f in os.listdir(gen) if re.match(r"(Register\w*|Operators_\d+)\.cpp$", f) and "Everything" not in f)
DEF = re.compile(r"^( {0,4})(?!(?:if|for|while|switch|return|namespace|struct|TORCH_LIBRARY\w*)\b)[A-Za-z_:][^;{}()]*?\b((?:\w+::)*\w+)\((.*)\)\s*(?:const\s*)?(?:override\s*)?\{\s*$")
queries, truth = [], []
HELPERS = {"create_out", "resize_out", "check_inplace", "maybe_create_proxy", "to_meta", "has_internal_overlap_helper",
           "to_functional_tensor", "from_functional_tensor"}
opsname = {}
for h in os.listdir(os.path.join(gen, "ops")):
    if h.endswith("_ops.h"):
        for m in re.finditer(r'struct TORCH_API (\w+) \{.*?name = "aten::([^"]+)";\s*static constexpr const char\* overload_name = "([^"]*)"',
                             open(os.path.join(gen, "ops", h), encoding="utf-8").read(), re.S):
            opsname[m.group(1)] = m.group(2) + ("." + m.group(3) if m.group(3) else "")
stats = {}
for f in files:
    path = os.path.join(gen, f)
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    impl = {}
    for m in re.finditer(r'm\.impl\("(?:aten::)?([^"]+)",\s*TORCH_FN\((?:\w+::)*(\w+)\)\)', text):
        impl.setdefault(m.group(2), m.group(1))
    ops = {}
    for m in re.finditer(r'STATIC_CONST_STR_OUT_OF_LINE_FOR_WIN_CUDA\((\w+), (name|overload_name), "([^"]*)"\)', text):
        ops.setdefault(m.group(1), {})[m.group(2)] = m.group(3)
    pending_structs = []
    members, in_struct = {}, None
    n_ops_seen = 0
    for i, l in enumerate(lines):
        ln = i + 1
        m = re.match(r"^struct (\w+) ", l)
        if m:
            pending_structs.append((ln, m.group(1)))
            in_struct = m.group(1)
            members[in_struct] = []
            continue
        if l.startswith("};"):
            in_struct = None
        m = DEF.match(l)
        if not m:
            continue
        if in_struct and l.startswith(" "):
            # A member (maybe_get_output ...): the struct's operator, known once its wrapper is.
            members[in_struct].append((ln, m.group(2)))
            continue
        name = m.group(2)
        body = lines[i + 1] if i + 1 < len(lines) else ""
        want = None
        # torchgen's templates' helpers; anything else without a truth here is counted, not checked.
        kind = "helper" if name.split("::")[-1] in HELPERS else "unverified"
        base = name.split("::")[-1]
        if name in impl:
            want, kind = impl[name], "registered"
        elif re.search(r"\bwrapper_\w+\(", body) and re.search(r"\b(wrapper_\w+)\(", body).group(1) in impl:
            want, kind = impl[re.search(r"\b(wrapper_\w+)\(", body).group(1)], "C++ API"
        elif f.startswith("Operators_"):
            mm = re.match(r"(?:create_(\w+)_typed_handle|(\w+)::(?:call|redispatch))$", name)
            if mm:
                u = mm.group(1) or mm.group(2)
                if u in opsname:
                    want, kind = opsname[u], "_ops"
        sm = re.match(r"(structured_\w+) op", body.strip())
        if sm and want:
            for sl, sn in pending_structs:
                if sn == sm.group(1):
                    queries.append(f"{path}:{sl + 1}")
                    truth.append((f, sl, "struct " + sn, want, "struct"))
                    for ml, mn in members.get(sn, []):
                        queries.append(f"{path}:{ml}")
                        truth.append((f, ml, sn + "::" + mn, want, "member"))
            pending_structs = []
        if f.startswith("Operators_"):
            n_ops_seen += 1
            if n_ops_seen % 4:
                continue
        queries.append(f"{path}:{ln + 1 if body.strip() and not body.startswith('}') else ln}")
        truth.append((f, ln, name, want, kind))
# A sample of autograd's Functions.cpp: every 10th node's apply.
fpath = os.path.join(src, "torch/csrc/autograd/generated/Functions.cpp")
nodes = []
for i, l in enumerate(open(fpath, encoding="utf-8").read().split("\n")):
    m = re.match(r"^variable_list (\w+Backward\w*)::apply\(", l)
    if m:
        nodes.append((i + 1, m.group(1)))
for ln, node in nodes[::10]:
    queries.append(f"{fpath}:{ln + 1}")
    truth.append(("Functions.cpp", ln, node + "::apply", node, "autograd"))
t0 = time.time()
p = subprocess.run([ptinspect, "build", "--json", "--source", "-", tree], input="\n".join(queries) + "\n",
                   capture_output=True, text=True)
dt = time.time() - t0
doc = json.loads(p.stdout)
ans = doc["answers"]
assert len(ans) == len(queries), (len(ans), len(queries))
def camel(n):
    return ("".join(x.title() for x in n.split("_")) + "Backward").replace("ForwardBackward", "Backward")
bad = []
n_op = ok = helpers = unverified = 0
for (f, ln, name, want, kind), a in zip(truth, ans):
    stats.setdefault(f, [0, 0, 0])
    if want is None:
        if kind == "helper":
            helpers += 1
            stats[f][2] += 1
        else:
            unverified += 1
        continue
    n_op += 1
    stats[f][0] += 1
    got = a and a["operator"] and a["operator"]["name"]
    if kind == "autograd":
        dv = a and a.get("derivative")
        prefix = re.sub(r"(AutogradNestedTensor)?\d+$", "", want)
        prefix = re.sub(r"(Backward)\d+[A-Za-z]*(_copy)?$", r"\1", prefix)
        b0 = dv["name"].split(".")[0] if dv else ""
        good = bool(dv) and (camel(b0) == prefix or camel("foreach_" + b0) == prefix or camel(b0 + "_copy") == prefix)
        if not good:
            bad.append(f"{f}:{ln} {name}: derivative {dv and dv['name']!r}, operator {got!r}")
    else:
        good = got == want
        if not good:
            bad.append(f"{f}:{ln} {name} ({kind}): want {want!r}, have {got!r} ({a and a.get('found_by')})")
    if good:
        ok += 1
        stats[f][1] += 1
for f, (n, o, h) in sorted(stats.items()):
    print(f"{f}: {o}/{n} resolved, {h} helpers")
# Helpers (create_out, resize_out, to_meta, ...) implement no operator: ptinspect must say so, not guess one.
guessed = [f"{f}:{ln} {name}: helper given operator {a['operator']['name']!r}" for (f, ln, name, want, kind), a in zip(truth, ans)
           if kind == "helper" and not (a and a["helper"] and not a["operator"])]
print(f"total: {ok}/{n_op} functions that implement an operator resolved ({100.0 * ok / max(n_op, 1):.2f}%), {helpers} helpers "
      f"({len(guessed)} given an operator), {unverified} not checked (no registration to read); {len(queries)} queries in {dt:.2f} s, exit {p.returncode}")
print("\n".join(bad[:40]))
print(p.stderr[:2000], end="")
print("\n".join(guessed[:20]))
print("ok" if not bad and not guessed and p.returncode == 0 and n_op > 20000 and helpers > 50 else "FAILED")
