#!/usr/bin/env python3
"""Reference reader of TORCH_TRACE directories for the torch2 tier's tests.

    tracecheck.py TRACE_DIR...   prints one JSON summary for all the files

Deliberately small and independent of pttrace (it is what pttrace's index is
compared against): the record grammar of docs/torch-trace-formats.md section 3
(prefix, envelope, TAB payload lines, has_payload = MD5 of the payload), and
nothing else. Standard library only, so it runs inside the chroot and on the
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


def read_file(path):
    with open(path, "rb") as fh:
        lines = fh.read().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = {"name": os.path.basename(path), "records": 0, "payloads": 0, "md5_bad": 0,
           "unparsed_lines": 0, "kinds": {}, "compile_ids": [], "ranks": [],
           "failures": [], "restarts": [], "recompile_reasons": [], "artifacts": {}}
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
        if kind == "compilation_metrics":
            if meta.get("fail_type"):
                out["failures"].append({"compile_id": cid, "fail_type": meta["fail_type"],
                                        "fail_reason": meta.get("fail_reason")})
            if meta.get("restart_reasons"):
                out["restarts"].append({"compile_id": cid, "reasons": meta["restart_reasons"]})
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
