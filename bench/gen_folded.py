#!/usr/bin/env python3
"""gen_folded.py - deterministic synthetic folded stacks for benchmarks.

  gen_folded.py deep  OUT   ~55 MB, ~170k lines, stacks 50-150 frames deep
  gen_folded.py wide  OUT [ORDER]
                            the real-world shape of a system-wide profile:
                            ~55 MB, ~169k lines, 19 frames a line on average,
                            ~6 new tree nodes a line (~1M nodes); ORDER is
                            sorted (default), blocks (8 sorted blocks
                            concatenated, as `cat host*.folded`) or shuffled
                            (as a SQL GROUP BY gives); same lines in each
  gen_folded.py unique OUT [ORDER]
                            1M unique random stacks, 4-12 frames (62 MB)
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


def remember(seen, stacks, limit, rng, key, stack):
    """False for a stack already made; else keeps it as a base for later
    stacks (replacing a random one once there are `limit`)."""
    if key in seen:
        return False
    seen.add(key)
    if len(stacks) < limit:
        stacks.append(stack)
    else:
        stacks[rng.next(len(stacks))] = stack
    return True


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
        if not remember(seen, stacks, 20000, rng, key, stack):
            continue
        lines.append("%s %d" % (key, 1 + rng.next(1000)))
    write_sorted(out, lines)


def wide(out, order):
    rng = Rng(4)
    # Many processes, a vocabulary of ~40k function names (~19 bytes), and,
    # as in deep(), each new stack an earlier one cut and grown by a few new
    # frames: 1-9 (5 on average; ~7 new nodes a line with the padding), to a
    # depth of 8-30 (19 on average): ~1.18M nodes.
    procs = ["%s-%d" % (WORDS[rng.next(len(WORDS))], 100 + rng.next(30000)) for _ in range(300)]
    vocab = ["%s::%s%s%d" % (MODULES[rng.next(len(MODULES))], WORDS[rng.next(len(WORDS))],
                             WORDS[rng.next(len(WORDS))][:4].title(), rng.next(1500))
             for _ in range(40000)]
    stacks = [[procs[i]] + [vocab[rng.next(len(vocab))] for _ in range(4 + rng.next(20))]
              for i in range(len(procs))]
    seen = set()
    lines = []
    while len(lines) < 169000:
        base = stacks[rng.next(len(stacks))]
        grow = 1 + rng.next(9)
        depth = 8 + rng.next(23)
        cut = max(1, min(len(base), depth - grow))
        stack = base[:cut] + [vocab[rng.next(len(vocab))] for _ in range(max(grow, depth - cut))]
        key = ";".join(stack)
        if not remember(seen, stacks, 50000, rng, key, stack):
            continue
        # Skewed counts: most stacks are rare, a few are hot.
        count = 1 + rng.next(20) if rng.next(10) else 1 + rng.next(2000)
        lines.append("%s %d" % (key, count))
    write_ordered(out, lines, order, rng)


def unique(out, order):
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
    write_ordered(out, lines, order, rng)


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
    write_ordered(out, lines, "sorted", None)


def write_ordered(out, lines, order, rng):
    """sorted: bytewise; blocks: the lines dealt into 8 parts, each sorted,
    concatenated; shuffled: a fixed permutation."""
    lines.sort(key=lambda s: s.encode())
    if order == "blocks":
        parts = [[] for _ in range(8)]
        for line in lines:
            parts[rng.next(8)].append(line)
        lines = [line for part in parts for line in part]
    elif order == "shuffled":
        for i in range(len(lines) - 1, 0, -1):
            j = rng.next(i + 1)
            lines[i], lines[j] = lines[j], lines[i]
    elif order != "sorted":
        sys.exit("unknown order: " + order)
    with open(out, "w") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    mode, out = sys.argv[1], sys.argv[2]
    if mode == "deep":
        deep(out)
    elif mode in ("wide", "unique"):
        (wide if mode == "wide" else unique)(out, sys.argv[3] if len(sys.argv) > 3 else "sorted")
    elif mode == "perf":
        perf(out, int(sys.argv[3]))
    else:
        sys.exit(__doc__)
