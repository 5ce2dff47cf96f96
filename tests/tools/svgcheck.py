#!/usr/bin/env python3
"""svgcheck: check an fg-render SVG against docs/svg-contract.md and list its frames.

  svgcheck.py FILE.svg      exit 0 and print "y x width count name" per frame
                            (sorted), or exit 1 naming the first violation:
                            not well-formed XML, not exactly one <script>,
                            an element or event-handler attribute that the
                            contract does not allow (so nothing from the
                            input became markup), a frame without title/rect.
"""
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
TITLE = re.compile(r"^(?P<name>.*) \((?P<count>[0-9][0-9,]*) [^,()]*?, (?P<pct>[0-9.]+)%(?P<rest>.*)\)$", re.S)
FRAME_CHILDREN = {"title", "rect", "text"}


def local(tag):
    return tag.split("}", 1)[-1]


def fail(path, message):
    print(f"svgcheck: {path}: {message}")
    sys.exit(1)


def main(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(path, f"not well-formed XML: {e}")
    scripts = [e for e in root.iter() if local(e.tag) == "script"]
    if len(scripts) != 1:
        fail(path, f"{len(scripts)} script elements, expected 1")
    for e in root.iter():
        for attribute in e.attrib:
            if local(attribute).lower().startswith("on"):
                fail(path, f"event handler attribute {attribute} on <{local(e.tag)}>")
    frames_group = [e for e in root.iter() if e.get("id") == "frames"]
    if len(frames_group) != 1:
        fail(path, "no single #frames group")
    frames = []
    for group in frames_group[0]:
        if local(group.tag) != "g" or group.find(SVG + "title") is not None:
            fail(path, f"#frames child <{local(group.tag)}> is not a colour group")
        for frame in group:
            if local(frame.tag) not in ("g", "a"):
                fail(path, f"unexpected <{local(frame.tag)}> in a colour group")
            kinds = [local(c.tag) for c in frame]
            if kinds[:2] != ["title", "rect"] or len(kinds) > 3 or (len(kinds) == 3 and kinds[2] != "text"):
                fail(path, f"frame children {kinds}, expected title, rect[, text]")
            for child in frame:
                if len(child):
                    fail(path, f"<{local(child.tag)}> in a frame has child elements")
            title = frame[0].text or ""
            m = TITLE.match(title)
            if not m:
                fail(path, f"title {title!r} is not 'NAME (N UNIT, P%)'")
            rect = frame[1]
            frames.append((float(rect.get("y")), float(rect.get("x")), float(rect.get("width")),
                           m.group("count"), m.group("name") + m.group("rest")))
    for f in sorted(frames):
        print("%g\t%g\t%g\t%s\t%s" % f)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
