#!/usr/bin/env python3
"""flame_model: an independent model of flamegraph.pl's frame layout.

  flame_model.py [--inverted] [--reverse] [--width N] [--height N]
                 [--fontsize N] [--minwidth N[%]] [--subtitle TEXT] FILE.folded

prints "y x width count name" per frame, sorted, in the format of
svgcheck.py, computed the way flamegraph.pl computes it (not the way
fg-render does): the stacks are sorted frame by frame (a stack that ends
sorts before its extensions), then walked in that order with a running
sample clock; a frame opens at the clock when the stack first differs from
the previous one and closes where it stops being shared. So a frame's own
samples come before its children, at its left edge. Frames narrower than
minwidth are dropped before the depth is measured. A subtitle adds a band
of 2 x fontsize above the frames (flamegraph.pl forgets it when inverted,
drawing the frames over the subtitle; fg-render, and this model, do not).

  flame_model.py --compare MODEL.txt SVGCHECK.txt

compares two such listings, allowing 0.1 px of difference in x and width,
and prints the first difference (exit 1) or nothing (exit 0).
"""
import re
import sys
from fractions import Fraction

LINE = re.compile(rb"^(.*?)\s+([0-9.]+)\r?$")
ANNOTATION = re.compile(r"_\[[kwij]\]$")


def read(path, reverse):
    sums = {}
    for raw in open(path, "rb").read().split(b"\n"):
        m = LINE.match(raw)
        if not m:
            continue
        try:
            stack, count = m.group(1), Fraction(m.group(2).decode())
        except ValueError:
            continue
        frames = tuple(stack.split(b";")) if stack else ()
        if reverse:
            frames = frames[::-1]
        sums[frames] = sums.get(frames, 0) + count
    return sums


def layout(sums):
    """(depth, start, end, name) of every frame, by the running clock."""
    done, open_frames, clock, previous = [], [], 0, ()
    for stack in sorted(sums):  # tuples: a prefix sorts first
        shared = 0
        while shared < min(len(stack), len(previous)) and stack[shared] == previous[shared]:
            shared += 1
        while len(open_frames) > shared:
            depth, start, name = open_frames.pop()
            done.append((depth + 1, start, clock, name))
        for depth in range(shared, len(stack)):
            open_frames.append((depth, clock, stack[depth]))
        clock += sums[stack]
        previous = stack
    while open_frames:
        depth, start, name = open_frames.pop()
        done.append((depth + 1, start, clock, name))
    done.append((0, 0, clock, b"all"))
    return done, clock


def main(argv):
    opts = {"width": 1200, "height": 16, "fontsize": 12, "minwidth": "0.1", "subtitle": ""}
    inverted = reverse = False
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--inverted":
            inverted = True
        elif a == "--reverse":
            reverse = True
        elif a.startswith("--") and a[2:] in opts:
            opts[a[2:]] = argv[i + 1]
            i += 1
        else:
            args.append(a)
        i += 1
    sums = read(args[0], reverse)
    frames, total = layout(sums)
    width, height, fontsize = float(opts["width"]), float(opts["height"]), float(opts["fontsize"])
    per = (width - 20) / total
    mw = opts["minwidth"]
    minwidth = total * float(mw[:-1]) / 100 * per if mw.endswith("%") else float(mw)
    frames = [f for f in frames if (f[2] - f[1]) * per >= minwidth]
    depth_max = max(f[0] for f in frames)
    ypad1, ypad2 = 3 * fontsize, 2 * fontsize + 10
    ypad3 = 2 * fontsize if opts["subtitle"] else 0
    image_height = (depth_max + 1) * height + ypad1 + ypad2 + ypad3
    top = ypad1 + ypad3  # (the first frame row's y when inverted)
    out = []
    for depth, start, end, name in frames:
        y = top + depth * height if inverted else image_height - ypad2 - (depth + 1) * height + 1
        shown = "all" if depth == 0 else ANNOTATION.sub("", name.decode("utf-8", "replace"))
        out.append((y, 10 + start * per, (end - start) * per, f"{round(end - start):,}", shown))
    for f in sorted(out):
        print("%g\t%.1f\t%.1f\t%s\t%s" % (f[0], float(f[1]), float(f[2]), f[3], f[4]))


def compare(a_path, b_path):
    a = [l.split("\t") for l in open(a_path, encoding="utf-8").read().splitlines()]
    b = [l.split("\t") for l in open(b_path, encoding="utf-8").read().splitlines()]
    key = lambda f: (float(f[0]), f[4], f[3], round(float(f[1])))
    a.sort(key=key)
    b.sort(key=key)
    if len(a) != len(b):
        print(f"{len(a)} frames in the model, {len(b)} drawn")
        return 1
    for fa, fb in zip(a, b):
        same = (float(fa[0]) == float(fb[0]) and fa[3:] == fb[3:]
                and abs(float(fa[1]) - float(fb[1])) <= 0.1001 and abs(float(fa[2]) - float(fb[2])) <= 0.1001)
        if not same:
            print("model: " + " ".join(fa) + "\ndrawn: " + " ".join(fb))
            return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
