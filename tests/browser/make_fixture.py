#!/usr/bin/env python3
"""make_fixture.py - a throwaway stand-in for fg-render, for the browser tests.

Writes an SVG that follows docs/svg-contract.md (with src/viewer/*.js
and viewer.css embedded the way src/tools/embed.c minifies them) from a
folded file. Geometry follows flamegraph.pl (docs/svg-contract.md): xpad 10,
width per sample (W - 20) / total, siblings sorted by name, self samples
after the children (as reference/render shows), frames under --minwidth px dropped. Colours: the "hot"
palette seeded from the name; differential input (two counts) is drawn white
to red / white to blue.

The tests use build/fg-render when it exists and this script otherwise.

usage: make_fixture.py [--inverted] [--reverse] [--title T] [--subtitle T]
                       [--width N] [--minwidth PX] [--href NAME=URL]...
                       FILE.folded > out.svg
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRAME_HEIGHT = 16
FONT_SIZE = 12
FONT_WIDTH = 0.59


def viewer_js():
    """The viewer's script files in the order the Makefile joins them (VIEWER_JS)."""
    text = open(os.path.join(ROOT, "Makefile")).read().replace("\\\n", " ")
    line = re.search(r"^VIEWER_JS\s*:=(.*)$", text, re.M).group(1)
    return line.split()


def minify(path):
    """What src/tools/embed.c does to the viewer sources."""
    out = []
    in_block = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.lstrip(" \t").rstrip("\r\n \t")
            if in_block:
                if "*/" in p and p.find("*/") + 2 == len(p):
                    in_block = False
                continue
            if not p or p.startswith("//"):
                continue
            if p.startswith("/*"):
                close = p.find("*/", 2)
                if close < 0:
                    in_block = True
                    continue
                if close + 2 == len(p):
                    continue
            if "]]>" in p:
                sys.exit(path + ": contains ]]>")
            out.append(p + "\n")
    return "".join(out)


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def num(v):
    """Shortest form with 0.1 precision: 10, 913.6."""
    s = "%.1f" % v
    return s[:-2] if s.endswith(".0") else s


def strip_annotation(name):
    return re.sub(r"_\[[kjiw]\]$", "", name)


def hot_colour(name):
    seed = sum(ord(c) for c in name) % (1 << 32)
    state = (seed << 16) | 0x330E
    state = (0x5DEECE66D * state + 0xB) % (1 << 48)
    v = state / float(1 << 48)
    return "#%02x%02x%02x" % (205 + int(50 * v), int(230 * v), int(55 * v))


class Node:
    __slots__ = ("name", "children", "total", "self_count", "delta")

    def __init__(self, name):
        self.name = name
        self.children = {}
        self.total = 0
        self.self_count = 0
        self.delta = None


def read_folded(path, reverse):
    root = Node("")
    diff = False
    count_re = re.compile(r"^[0-9]+(\.[0-9]+)?$")
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if " " not in line:
                continue
            stack, c2 = line.rsplit(" ", 1)
            if not count_re.match(c2):
                continue
            c1 = None
            if " " in stack:
                head, maybe = stack.rsplit(" ", 1)
                if count_re.match(maybe):
                    stack, c1 = head, maybe
            frames = stack.split(";")
            if reverse:
                frames.reverse()
            n = float(c2)
            node = root
            root.total += n
            for name in frames:
                child = node.children.get(name)
                if child is None:
                    child = node.children[name] = Node(name)
                    if c1 is not None:
                        child.delta = 0
                child.total += n
                node = child
            node.self_count += n
            if c1 is not None:
                diff = True
                node.delta = (node.delta or 0) + n - float(c1)
    return root, diff


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inverted", action="store_true")
    ap.add_argument("--reverse", action="store_true")
    ap.add_argument("--title")
    ap.add_argument("--subtitle")
    ap.add_argument("--width", type=float, default=1200)
    ap.add_argument("--minwidth", type=float, default=0.1)
    ap.add_argument("--href", action="append", default=[])
    ap.add_argument("file")
    a = ap.parse_args()

    root, diff = read_folded(a.file, a.reverse)
    total = root.total
    width = a.width
    if total <= 0:
        sys.exit("no valid input")
    wpt = (width - 20) / total
    links = dict(h.split("=", 1) for h in a.href)

    # Lay out depth first: (node, depth, start time).
    laid = []
    stack = [(root, 0, 0.0)]
    while stack:
        node, depth, start = stack.pop()
        if node.total * wpt < a.minwidth:
            continue
        laid.append((node, depth, start))
        t = start
        kids = []
        for name in sorted(node.children):
            kids.append((node.children[name], depth + 1, t))
            t += node.children[name].total
        stack.extend(reversed(kids))
    maxdepth = max(d for _, d, _ in laid)
    ypad1 = 3 * FONT_SIZE
    ypad2 = 2 * FONT_SIZE + 10
    ypad3 = 2 * FONT_SIZE if a.subtitle else 0
    height = (maxdepth + 1) * FRAME_HEIGHT + ypad1 + ypad2 + ypad3
    maxdelta = max([1] + [abs(n.delta) for n, _, _ in laid if n.delta is not None])

    groups = {}
    for node, depth, start in laid:
        x1 = 10 + start * wpt
        x2 = 10 + (start + node.total) * wpt
        rx = float("%.1f" % x1)
        rw = float("%.1f" % (float("%.1f" % x2) - rx))
        if a.inverted:
            y = ypad1 + depth * FRAME_HEIGHT
        else:
            y = height - ypad2 - (depth + 1) * FRAME_HEIGHT + 1
        shown = strip_annotation(node.name)
        samples = "{:,}".format(int(round(node.total)))
        if node is root:
            title = "all (%s&s;100%%)" % samples
        else:
            title = "%s (%s&s;%.2f%%" % (esc(shown), samples, 100 * round(node.total) / total)
            if node.delta is not None:
                title += "; %s%.2f%%" % ("+" if node.delta > 0 else "", 100 * node.delta / total)
            title += ")"
        label = ""
        chars = int((x2 - x1) / (FONT_SIZE * FONT_WIDTH))
        if node is not root and chars >= 3:
            label = shown if len(shown) <= chars else shown[:chars - 2] + ".."
        if node.name in ("--", "-"):
            fill = "#a0a0a0" if node.name == "--" else "#c8c8c8"
        elif node.delta is not None:
            v = node.delta
            if v > 0:
                g = int(210 * (maxdelta - v) / maxdelta)
                fill = "#ff%02x%02x" % (g, g)
            elif v < 0:
                b = int(210 * (maxdelta + v) / maxdelta)
                fill = "#%02x%02xff" % (b, b)
            else:
                fill = "#ffffff"
        else:
            fill = hot_colour(node.name)
        href = links.get(node.name)
        tag = "a" if href else "g"
        attrs = ' xlink:href="%s" target="_top"' % esc(href) if href else ""
        block = '<%s%s><title>%s</title><rect x="%s" y="%s" width="%s"/>' % (
            tag, attrs, title, num(rx), num(y), num(rw))
        if label:
            block += '<text x="%s" y="%s">%s</text>' % (num(rx + 3), num(y + (FRAME_HEIGHT - 1) / 2 + 3), esc(label))
        block += "</%s>" % tag
        groups.setdefault(fill, []).append(block)

    fs = FONT_SIZE
    title = a.title or ("Icicle Graph" if a.inverted else "Flame Graph")
    out = []
    w = num(width)
    h = num(height)
    out.append('<?xml version="1.0" standalone="no"?>\n')
    out.append('<!DOCTYPE svg [<!ENTITY s " samples, ">]>\n')
    out.append('<svg version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" '
               'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
               'data-nametype="Function:" data-fontsize="%d" data-fontwidth="%s" data-inverted="%d" '
               'data-countname="samples" data-xpad="10" data-frameheight="%d"%s>\n'
               % (w, h, w, h, fs, FONT_WIDTH, 1 if a.inverted else 0, FRAME_HEIGHT,
                  ' data-diff="1"' if diff else ""))
    out.append("<style>" + minify(os.path.join(ROOT, "src/viewer/viewer.css")))
    out.append("text{font-family:Verdana;font-size:%dpx}#title{font-size:%dpx}"
               "#frames rect{height:%dpx;rx:2px;ry:2px}</style>\n" % (fs, fs + 5, FRAME_HEIGHT - 1))
    out.append('<defs><linearGradient id="bg" y1="0" y2="1" x1="0" x2="0">'
               '<stop stop-color="#eeeeee" offset="5%"/><stop stop-color="#eeeeb0" offset="95%"/>'
               '</linearGradient></defs>\n')
    out.append('<rect id="background" width="100%" height="100%" fill="url(#bg)"/>\n')
    out.append('<text id="title" x="%s" y="%d">%s</text>\n' % (num(width / 2), 2 * fs, esc(title)))
    if a.subtitle:
        out.append('<text id="subtitle" x="%s" y="%d">%s</text>\n' % (num(width / 2), 4 * fs, esc(a.subtitle)))
    out.append('<text id="details" x="10" y="%s"> </text>\n' % num(height - ypad2 / 2))
    out.append('<text id="unzoom" class="hide" x="10" y="%d">Reset Zoom</text>\n' % (2 * fs))
    out.append('<text id="search" x="%s" y="%d">Search</text>\n' % (num(width - 110), 2 * fs))
    out.append('<text id="ignorecase" x="%s" y="%d">ic</text>\n' % (num(width - 26), 2 * fs))
    out.append('<text id="matched" x="%s" y="%s"> </text>\n' % (num(width - 110), num(height - ypad2 / 2)))
    out.append('<g id="frames">\n')
    for fill in sorted(groups):
        out.append('<g fill="%s">\n%s\n</g>\n' % (fill, "\n".join(groups[fill])))
    out.append("</g>\n")
    out.append("<script><![CDATA[\n" + "".join(minify(os.path.join(ROOT, f)) for f in viewer_js()) + "]]></script>\n")
    out.append("</svg>\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
