#!/usr/bin/env python3
"""frame_order: check the order of an fg-render SVG's frames in its text.

  frame_order.py FILE.svg

Frames are grouped by colour (one <g fill> each); within a group they must
come in the order of a walk of the tree with a stack: a frame, then its
children's subtrees from the rightmost child to the leftmost (the order
fg-render has always written, docs/svg-contract.md). The tree is rebuilt
from the geometry alone: a frame's parent is the frame one level below
that overlaps it most (use a wide --width: x is rounded to 0.1). Exits 0, or 1 naming the first frame out of
order. Not for --inverted (levels grow downwards there).
"""
import bisect
import re
import sys

RECT = re.compile(r'<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)"')


def main(path):
    frames, group = [], -1  # (group, x, y, width), in the text's order
    for line in open(path, encoding="utf-8"):
        if line.startswith('<g fill="'):
            group += 1
        r = RECT.search(line) if line.startswith("<g><title>") else None
        if r:
            frames.append((group, float(r.group(1)), float(r.group(2)), float(r.group(3))))
    if not frames:
        print(f"frame_order: {path}: no frames")
        return 1
    levels = sorted({f[2] for f in frames}, reverse=True)  # the root's is the lowest on the page
    depth = {y: d for d, y in enumerate(levels)}
    by_depth = {}
    for i, f in enumerate(frames):
        by_depth.setdefault(depth[f[2]], []).append(i)
    starts = {}
    for d, ids in by_depth.items():
        ids.sort(key=lambda i: frames[i][1])
        starts[d] = [frames[i][1] for i in ids]
    children = {i: [] for i in range(len(frames))}
    roots = []
    for i, f in enumerate(frames):
        d = depth[f[2]]
        if d == 0:
            roots.append(i)
            continue
        # (x and width are rounded to 0.1: of the frames one level below
        # that start near its middle, the one overlapping it most)
        at = bisect.bisect_right(starts[d - 1], f[1] + f[3] / 2)
        near = by_depth[d - 1][max(at - 2, 0):at + 1]
        overlap = lambda p: min(f[1] + f[3], frames[p][1] + frames[p][3]) - max(f[1], frames[p][1])
        parent = max(near, key=overlap, default=None)
        if parent is None or overlap(parent) < -0.15:
            print(f"frame_order: {path}: frame at x={f[1]} y={f[2]} has no parent")
            return 1
        children[parent].append(i)
    # The walk: a frame, then its children's subtrees, rightmost first.
    place, stack = {}, sorted(roots, key=lambda i: frames[i][1])
    while stack:
        i = stack.pop()
        place[i] = len(place)
        stack.extend(sorted(children[i], key=lambda c: frames[c][1]))
    last = {}
    for i, f in enumerate(frames):
        if place[i] < last.get(f[0], -1):
            print(f"frame_order: {path}: frame at x={f[1]} y={f[2]} (colour group {f[0]}) "
                  f"comes after one the walk visits later")
            return 1
        last[f[0]] = place[i]
    print(f"{len(frames)} frames in walk order")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
