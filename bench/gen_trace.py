#!/usr/bin/python3
"""Bench-side TORCH_TRACE generator: SIZE_MB of records taken from a real
fixture log (default: tlparse's multi_rank_logs rank 1, 3.56 MB, 810
records), copied over and over. Each copy after the first gets its own
payloads (a JSON payload gains a "bench_copy": N member after its opening
brace, other payloads a last line "# bench copy N") with has_payload's md5
recomputed, so the database stores new payloads as a long real job would,
instead of finding every copy's payloads already stored (--dup keeps the
copies identical, the old bench's input).

usage: gen_trace.py [--dup] [--src FILE] SIZE_MB OUT
"""
import hashlib, re, sys

def records(data, eol):
    rec = []
    for line in data.split(eol):
        if line and not line.startswith(b"\t") and rec:
            yield rec
            rec = []
        rec.append(line)
    if rec and rec != [b""]:
        yield rec

def main():
    args = sys.argv[1:]
    dup = "--dup" in args
    args = [a for a in args if a != "--dup"]
    src = "tests/fixtures/traces/tlparse-tests/inputs/multi_rank_logs/dedicated_log_torch_trace_rank_1.log"
    if args and args[0] == "--src":
        src, args = args[1], args[2:]
    want = int(float(args[0]) * 1048576)
    data = open(src, "rb").read()
    # A CRLF file (the first line ends in CR) has CRLF everywhere: keep it so.
    eol = b"\r\n" if data.split(b"\n", 1)[0].endswith(b"\r") else b"\n"
    recs = list(records(data, eol))
    md5re = re.compile(rb'"has_payload": "[0-9a-f]{32}"')
    done, copy = 0, 0
    with open(args[1], "wb") as out:
        while done < want:
            buf = []
            for rec in recs:
                env, pay = rec[0], rec[1:]
                while pay and pay[-1] == b"":
                    pay = pay[:-1]
                if copy and not dup and md5re.search(env) and pay:
                    lines = [l[1:] for l in pay]
                    if lines[0] == b"{":
                        lines.insert(1, b'"bench_copy": %d,' % copy)
                    else:
                        lines.append(b"# bench copy %d" % copy)
                    md5 = hashlib.md5(b"\n".join(lines)).hexdigest().encode()
                    env = md5re.sub(b'"has_payload": "' + md5 + b'"', env)
                    pay = [b"\t" + l for l in lines]
                buf.append(eol.join([env] + pay) + eol)
            chunk = b"".join(buf)
            out.write(chunk)
            done += len(chunk)
            copy += 1

main()
