#!/usr/bin/env python3
"""Every page of a pttrace report is reachable from its index.html.

usage: reachable.py REPORT_DIR...

Walks the local links (href, src) from each REPORT_DIR/index.html, page to
page, and prints every .html file under REPORT_DIR that no walk reached
("orphan: p/<md5>.html") and every local link whose target does not exist
("broken: c/x.html -> p/y.html"). Exit status 0 when there is neither, 1
otherwise, 2 on a usage error or a directory without index.html.
"""
import html
import os
import re
import sys
from urllib.parse import unquote, urlsplit

LINK = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']*)["']""")


def check(root):
    pages = set()
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".html"):
                pages.add(os.path.relpath(os.path.join(d, n), root))
    if "index.html" not in pages:
        print("%s: no index.html" % root)
        return None
    seen, todo, problems = set(), ["index.html"], []
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        with open(os.path.join(root, page), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for url in LINK.findall(text):
            parts = urlsplit(html.unescape(url))
            if parts.scheme or parts.netloc or not parts.path:
                continue    # another site, or a place on this page
            target = os.path.normpath(os.path.join(os.path.dirname(page), unquote(parts.path)))
            if target.startswith(".."):
                problems.append("broken: %s -> %s (outside the report)" % (page, url))
            elif not os.path.exists(os.path.join(root, target)):
                problems.append("broken: %s -> %s" % (page, url))
            elif target.endswith(".html") and target not in seen:
                todo.append(target)
    problems += ["orphan: %s" % p for p in sorted(pages - seen)]
    for p in problems:
        print("%s: %s" % (root, p))
    print("%s: %d pages, %d reached, %d problems" % (root, len(pages), len(seen), len(problems)))
    return not problems


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    results = [check(d) for d in argv[1:]]
    if any(r is None for r in results):
        return 2
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
