#!/usr/bin/env python3
"""Write a TORCH_TRACE file (the envelope format of docs/pttrace-trace.1) from a list
of (envelope dict, payload or None): each envelope gets its has_payload md5, each
payload line a leading TAB. Used by tests to build hostile or corner-case traces.

    mktrace.py OUT xss      a trace whose payloads, names and kinds carry HTML/JS
"""
import hashlib
import json
import sys


def write(out, records):
    with open(out, "w", encoding="utf-8") as f:
        for i, (env, payload) in enumerate(records):
            env = dict(env)
            if payload is not None:
                env["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
            f.write("V1124 10:00:%02d.000000 4242 torch/_logging/structured.py:%d] %s\n"
                    % (i % 60, 100 + i, json.dumps(env)))
            if payload is not None:
                for line in payload.split("\n"):
                    f.write("\t" + line + "\n")


XSS = '</script><img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2</script>'


def xss(out):
    stack = [{"line": 3, "name": "<img src=y onerror=alert(3)>", "filename": 0}]
    write(out, [
        ({"str": ["/home/u/<b>model</b>.py", 0]}, None),
        ({"dynamo_start": {"stack": stack}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}, None),
        ({"dynamo_output_graph": {"sizes": {}}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0},
         "def forward(self):\n    return '" + XSS + "'\n"),
        ({"artifact": {"name": "<script>alert(4)</script>", "encoding": "string"},
          "frame_id": 0, "frame_compile_id": 0, "attempt": 0}, XSS),
        ({"dynamo_cpp_guards_str": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0},
         "TREE_GUARD_MANAGER:\n| +- GLOBAL_STATE: ___check_global_state()\n| +- " + XSS),
        ({"compilation_metrics": {"co_name": "<script>alert(5)</script>", "co_filename": XSS,
                                  "co_firstlineno": 1, "graph_op_count": 2, "fail_type": None,
                                  "restart_reasons": [XSS], "entire_frame_compile_time_s": 0.5,
                                  "start_time": 1.0},
          "frame_id": 0, "frame_compile_id": 0, "attempt": 0}, None),
        ({"<b>odd_kind</b>": {}}, XSS),
    ])


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] != "xss":
        sys.exit(__doc__)
    xss(sys.argv[1])
    print(XSS)
