"""Payload md5 failures of TORCH_TRACE files counted by tlparse's rule
(tlparse 0.4.3 src/lib.rs parse_path): lines split on \n with a trailing \r
dropped, empty lines dropped before parsing, a record's payload the following
lines that start with TAB, minus the TAB, joined with \n. Prints
"<count> <path>" per file. An independent reference for pttrace's count."""
import sys, hashlib, json, re
for path in sys.argv[1:]:
    data = open(path,'rb').read()
    lines = data.split(b'\n')
    if lines and lines[-1] == b'': lines.pop()
    lines = [l[:-1] if l.endswith(b'\r') else l for l in lines]
    lines = [l for l in lines if l]
    bad = 0; i = 0; n = len(lines)
    while i < n:
        l = lines[i]; i += 1
        m = re.search(rb'\] (\{.*)$', l)
        if not m: continue
        try: e = json.loads(m.group(1))
        except Exception: continue
        if 'has_payload' not in e or 'str' in e: continue
        p = []
        while i < n and lines[i].startswith(b'\t'):
            p.append(lines[i][1:]); i += 1
        if hashlib.md5(b'\n'.join(p)).hexdigest() != e['has_payload']: bad += 1
    print(bad, path)
