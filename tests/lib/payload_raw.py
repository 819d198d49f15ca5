#!/usr/bin/python3
"""The raw bytes of a pttrace report payload page, as its "raw bytes" link
gives them: p/<md5>.txt when the page links to one, else the page's lines
(span.l of its pre.code, joined with newlines, a last newline when the pre
says data-nl), read the way a browser reads them (HTML entities decoded),
which is what report.js puts in its download. Written to stdout.

usage: payload_raw.py PAGE.html
"""
import html.parser, os, re, sys


class Lines(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.depth, self.nl, self.in_pre = [], 0, False, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "pre" and "code" in (a.get("class") or "").split():
            self.in_pre, self.nl = True, a.get("data-nl") == "1"
        elif self.in_pre and tag == "span":
            if self.depth == 0 and "l" in (a.get("class") or "").split():
                self.lines.append("")
                self.depth = 1
            elif self.depth:
                self.depth += 1

    def handle_endtag(self, tag):
        if tag == "pre":
            self.in_pre = False
        elif self.in_pre and tag == "span" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.lines[-1] += data


page = sys.argv[1]
text = open(page, encoding="utf-8").read()
m = re.search(r'<a href="([0-9a-f]+\.txt)" download>raw bytes</a>', text)
if m:
    sys.stdout.buffer.write(open(os.path.join(os.path.dirname(page), m.group(1)), "rb").read())
    sys.exit(0)
if 'class="raw"' not in text:
    sys.exit("%s: no raw bytes link" % page)
p = Lines()
p.feed(text)
sys.stdout.buffer.write(("\n".join(p.lines) + ("\n" if p.nl else "")).encode("utf-8"))
