# perf-workload.py - the program profiled for example-perf.txt.gz: a little
# of everything a Python service does (JSON, regular expressions, zlib,
# hashing, sorting), so that the flame graph has several distinct towers.
#
#   perf record -F 999 --call-graph dwarf,16384 -o perf.data -- python3 perf-workload.py
#   perf script -i perf.data | gzip -9 > example-perf.txt.gz
import hashlib
import json
import random
import re
import zlib

random.seed(1)
words = ["".join(random.choice("abcdefghij") for _ in range(8)) for _ in range(20000)]


def parse():
    doc = json.dumps([{"w": w, "n": i} for i, w in enumerate(words)])
    return json.loads(doc)


def grep():
    pattern = re.compile(r"a.c|[hij]{3}")
    return sum(1 for w in words if pattern.search(w))


def pack():
    return len(zlib.compress(" ".join(words).encode(), 9))


def digest():
    h = hashlib.sha256()
    for w in words:
        h.update(w.encode())
    return h.hexdigest()


def sort():
    return sorted(words, key=lambda w: w[::-1])[:3]


for _ in range(10):
    parse()
    grep()
    pack()
    digest()
    sort()
