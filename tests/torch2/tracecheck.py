#!/usr/bin/env python3
"""Reference reader of TORCH_TRACE directories for the torch2 tier's tests.

    tracecheck.py TRACE_DIR...   prints one JSON summary for all the files

Deliberately small and independent of pttrace (it is what pttrace's index is
compared against): the record grammar of docs/torch-trace-formats.md section 3
(prefix, envelope, TAB payload lines, has_payload = MD5 of the payload), and
a plain reading of the payloads the tier checks pttrace's answers against:
graph-break reasons, recompile reasons, compiled-autograd captures and the
torch_version artifact, in the shapes of torch 2.6 and 2.14 (see the functions
below). Standard library only, so it runs inside the chroot and on the
host alike.
"""
import hashlib
import json
import os
import re
import sys

# <L><MMDD> <hh:mm:ss.uuuuuu> <pid> <path>:<line>] <json>
PREFIX = re.compile(r"^([VIWEC])(\d{4}) (\d\d:\d\d:\d\d\.\d{6}) (\d+) (.+?):(\d+)\] (\{.*)$")
CONTEXT = {"rank", "compiled_autograd_id", "frame_id", "frame_compile_id", "attempt",
           "stack", "subgraph_name", "has_payload"}


def compile_id(env):
    """PyTorch's own spelling: 0/0, 0/0_1, !0, !0/1/0 (None without one)."""
    ca, fr, co, at = (env.get(k) for k in
                      ("compiled_autograd_id", "frame_id", "frame_compile_id", "attempt"))
    if fr is None and ca is None:
        return None
    s = "" if fr is None else f"{fr}/{co}" + (f"_{at}" if at else "")
    if ca is not None:
        return f"!{ca}" + (f"/{s}" if s else "")
    return s


def break_reason(text):
    """(where, cause) of a dynamo_graph_break_reason payload. 2.6: the "Reason: "
    line. 2.14: below "Graph Break Reason: " (after its "Encountered graph break
    when attempting to trace ...:" line and a blank one), the type line and the
    "Explanation: " of its block, as "<type>: <explanation>"."""
    lines = text.split("\n")
    where = next((l.strip()[len("Graph break in user code at "):] for l in lines
                  if l.strip().startswith("Graph break in user code at ")), None)
    for i, l in enumerate(lines):
        if l.startswith("Graph Break Reason: "):
            rest = [l[len("Graph Break Reason: "):]] + lines[i + 1:]
            if rest[0].endswith(":") and len(rest) > 1 and rest[1] == "":
                rest = rest[1:]
                while rest and rest[0] == "":
                    rest = rest[1:]
            kind = rest[0].strip()
            block = []
            for x in rest[1:]:
                if x == "":
                    break
                block.append(x.strip())
            expl = next((x[len("Explanation: "):] for x in block if x.startswith("Explanation: ")), None)
            return where, f"{kind}: {expl}" if expl else kind
    reason = next((l.strip()[len("Reason: "):] for l in lines if l.strip().startswith("Reason: ")), text)
    return where, reason


def recompile_reasons(text):
    """[(previous compile id, failed guard)] of a recompile_reasons payload: a JSON
    list (2.6; 2.14 with several) or one reason as plain text (2.14 with one).
    A reason is "<id>: <guard>  # comment  # where", 2.14 adding lines below."""
    try:
        v = json.loads(text)
    except ValueError:
        v = None
    items = v if isinstance(v, list) else [text]
    out = []
    for r in items:
        first = r.split("\n")[0]
        prev, _, guard = first.partition(": ")
        out.append((prev, guard.split("  #")[0].rstrip()))
    return out


def read_file(path):
    with open(path, "rb") as fh:
        lines = fh.read().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = {"name": os.path.basename(path), "records": 0, "payloads": 0, "md5_bad": 0,
           "unparsed_lines": 0, "kinds": {}, "compile_ids": [], "ranks": [],
           "failures": [], "restarts": [], "recompile_reasons": [], "artifacts": {},
           "graph_breaks": [], "recompiles": [], "torch_version": None}
    m = re.search(r"_rank_(\d+)_", out["name"])
    out["rank_in_name"] = int(m.group(1)) if m else None
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\r")
        i += 1
        m = PREFIX.match(line)
        if not m:
            out["unparsed_lines"] += 1
            continue
        env = json.loads(m.group(7))
        kinds = [k for k in env if k not in CONTEXT]
        kind = kinds[0] if kinds else "?"
        out["records"] += 1
        out["kinds"][kind] = out["kinds"].get(kind, 0) + 1
        payload = []
        while i < len(lines) and lines[i].startswith("\t"):
            payload.append(lines[i].rstrip("\r")[1:])
            i += 1
        if "has_payload" in env:
            out["payloads"] += 1
            text = "\n".join(payload)
            if hashlib.md5(text.encode("utf-8")).hexdigest() != env["has_payload"]:
                out["md5_bad"] += 1
        if "rank" in env and env["rank"] not in out["ranks"]:
            out["ranks"].append(env["rank"])
        cid = compile_id(env)
        if cid is not None and cid not in out["compile_ids"]:
            out["compile_ids"].append(cid)
        meta = env.get(kind)
        if kind == "artifact":
            name = meta.get("name")
            out["artifacts"][name] = out["artifacts"].get(name, 0) + 1
            if name == "recompile_reasons":
                out["recompile_reasons"].append({"compile_id": cid, "reasons": "\n".join(payload)})
                for prev, guard in recompile_reasons("\n".join(payload)):
                    out["recompiles"].append({"compile_id": cid, "guard_of": prev, "failed_guard": guard})
            if name == "dynamo_graph_break_reason":
                where, cause = break_reason("\n".join(payload))
                out["graph_breaks"].append({"compile_id": cid, "where": where, "reason": cause})
            if name == "torch_version" and out["torch_version"] is None:
                out["torch_version"] = json.loads("\n".join(payload)).get("pytorch_version")
        if kind == "compilation_metrics":
            if meta.get("fail_type"):
                out["failures"].append({"compile_id": cid, "fail_type": meta["fail_type"],
                                        "fail_reason": meta.get("fail_reason")})
            if meta.get("restart_reasons"):
                out["restarts"].append({"compile_id": cid, "reasons": meta["restart_reasons"]})
    # Compiled-autograd captures: compile ids [!N] with no frame (2.14).
    out["captures"] = [c for c in out["compile_ids"] if c.startswith("!") and "/" not in c]
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    files = []
    for d in argv[1:]:
        for name in sorted(os.listdir(d)):
            if name.startswith("dedicated_log_torch_trace_") and name.endswith(".log"):
                files.append(read_file(os.path.join(d, name)))
    json.dump({"files": files}, sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
