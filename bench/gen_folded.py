#!/usr/bin/env python3
"""gen_folded.py - deterministic synthetic folded stacks for benchmarks.

  gen_folded.py deep  OUT   ~55 MB, ~170k lines, stacks 50-150 frames deep
  gen_folded.py wide  OUT   1M unique stacks, 4-12 frames
  gen_folded.py perf  OUT N a `perf script`-like text of N samples
                             (~10k unique stacks), for the collapsers

Same arguments, same bytes: the generator is a fixed LCG, no downloads.
Output is sorted like collapser output (LC_ALL=C sort), except perf.
"""
import sys


class Rng:
    def __init__(self, seed):
        self.state = seed

    def next(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        return (self.state >> 33) % n


WORDS = ["read", "write", "alloc", "free", "parse", "lex", "hash", "lookup", "insert", "sort",
         "merge", "flush", "poll", "wait", "lock", "unlock", "send", "recv", "copy", "scan",
         "compile", "eval", "render", "draw", "encode", "decode", "update", "visit"]
MODULES = ["net", "io", "vm", "gc", "db", "ui", "fs", "sched", "mm", "http"]


def name(rng):
    return "%s::%s_%s_%d" % (MODULES[rng.next(len(MODULES))], WORDS[rng.next(len(WORDS))],
                             WORDS[rng.next(len(WORDS))], rng.next(500))


def short_name(rng):
    return "%s%d" % ("abcdefghijklmnopqrstuvwxyz"[rng.next(26)], rng.next(60))


def deep(out):
    rng = Rng(1)
    # Like a real profile: each new stack is an earlier one cut at some depth
    # and grown by a few new frames, so neighbours share long prefixes and
    # the tree has a few unique frames per line. Short names keep the file
    # near 55 MB for 170k lines of 50-150 frames.
    stacks = [[short_name(rng) for _ in range(90 + rng.next(60))] for _ in range(50)]
    seen = set()
    lines = []
    while len(lines) < 170000:
        base = stacks[rng.next(len(stacks))]
        cut = 50 + rng.next(max(1, len(base) - 50))
        stack = base[:cut]
        target = max(50, min(150, cut + 1 + rng.next(8)))
        while len(stack) < target:
            stack.append(short_name(rng))
        key = ";".join(stack)
        if key in seen:
            continue
        seen.add(key)
        if len(stacks) < 20000:
            stacks.append(stack)
        else:
            stacks[rng.next(len(stacks))] = stack
        lines.append("%s %d" % (key, 1 + rng.next(1000)))
    write_sorted(out, lines)


def wide(out):
    rng = Rng(2)
    roots = [name(rng) for _ in range(50)]
    seen = set()
    lines = []
    while len(lines) < 1000000:
        depth = 4 + rng.next(9)
        stack = [roots[rng.next(len(roots))]] + ["f%d" % rng.next(3000) for _ in range(depth - 1)]
        key = ";".join(stack)
        if key in seen:
            continue
        seen.add(key)
        lines.append("%s %d" % (key, 1 + rng.next(100)))
    write_sorted(out, lines)


def perf(out, samples):
    rng = Rng(3)
    stacks = []
    for _ in range(10000):
        depth = 5 + rng.next(40)
        stacks.append([("%x" % (0x400000 + rng.next(1 << 20)), name(rng),
                        "/usr/lib/lib%s.so" % MODULES[rng.next(len(MODULES))]) for _ in range(depth)])
    with open(out, "w") as f:
        for i in range(samples):
            s = stacks[rng.next(len(stacks))]
            f.write("java %d/%d [00%d] %d.%06d: %d cycles:u: \n" % (
                1000 + rng.next(10), 2000 + rng.next(50), rng.next(4), 100 + i // 1000, i % 1000000,
                1 + rng.next(100000)))
            for pc, sym, mod in s:
                f.write("\t    %s %s+0x%x (%s)\n" % (pc, sym, rng.next(4096), mod))
            f.write("\n")


def write_sorted(out, lines):
    lines.sort(key=lambda s: s.encode())
    with open(out, "w") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    mode, out = sys.argv[1], sys.argv[2]
    if mode == "deep":
        deep(out)
    elif mode == "wide":
        wide(out)
    elif mode == "perf":
        perf(out, int(sys.argv[3]))
    else:
        sys.exit(__doc__)
