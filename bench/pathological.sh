#!/usr/bin/env bash
# bench/pathological.sh [BUILD_DIR] - shapes that once made fg slow or big
# for no reason (issues 5 and 12): every one must stay linear in its input
# and its memory must grow with unique frames only. Reports time and peak
# RSS; a regression shows as a case taking seconds instead of milliseconds.
#   10M unique stacks       fg-render and fg-diff (memory: unique frames)
#   a 1,000,000-frame stack fg-render --minwidth 0 (no recursion per depth)
#   a 128 MiB line          fg-render, from a file and through a pipe
#                           (the block reader once rescanned it per MiB)
#   200,000-space runs      each collapser and fg-render (fg-collapse-perf's
#                           header matcher once retried the run per space)
#   a 1 MB frame name       fg-render
#   lines alternating       fg-render: "p;a1;y", "p;a;z" under "p;a1!x" (once
#   between two names       a node per line, merged in quadratic time: 25 s)
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
B=${1:-build}
BENCH_RUNS=1
ten=$BENCH_TMP/ten-million.folded
[ -s "$ten" ] || awk 'BEGIN { for (i = 0; i < 10000000; i++) printf "proc%d;fn%d;leaf%d %d\n", i % 97, i % 1009, i, 1 + i % 7 }' >"$ten"
BENCH_TARGET_RSS=400 bench_run "fg-render: 10M unique stacks" "$ten" "$B/fg-render" -o "$BENCH_TMP/ten.svg" "$ten"
BENCH_TARGET_RSS=400 bench_run "fg-render: 10M unique stacks, -j4 (4 CPUs' default)" "$ten" "$B/fg-render" -j4 \
	-o "$BENCH_TMP/ten.svg" "$ten"
bench_run "fg-diff: 10M unique stacks vs itself" "$ten" "$B/fg-diff" -o "$BENCH_TMP/ten.diff" "$ten" "$ten"
deep=$BENCH_TMP/deep-1m.folded
[ -s "$deep" ] || python3 -c "print('root;' + ';'.join('f%d' % i for i in range(1000000)) + ' 1')" >"$deep"
bench_run "fg-render: one 1,000,000-frame stack" "$deep" "$B/fg-render" --minwidth 0 -o "$BENCH_TMP/deep.svg" "$deep"
long=$BENCH_TMP/long-line.folded
[ -s "$long" ] || python3 -c "import sys; sys.stdout.write('a;' + 'x' * (128 << 20) + ' 5\n')" >"$long"
bench_run "fg-render: a 128 MiB line (file)" "$long" "$B/fg-render" -o "$BENCH_TMP/long.svg" "$long"
bench_run "fg-render: a 128 MiB line (pipe)" "$long" sh -c 'cat "$1" | "$2" -o "$3"' sh "$long" "$B/fg-render" "$BENCH_TMP/long.svg"
spaces=$BENCH_TMP/spaces.txt
python3 -c "import sys; s = ' ' * 200000; sys.stdout.write('x' + s + 'y\n\t' + s + 'ffff x (y)\n' + 'a;b' + s + '5\n' + s + '\n')" >"$spaces"
for p in fg-collapse-perf fg-collapse-dtrace fg-collapse-stap fg-render; do
	bench_run "$p: 200,000-space runs" "$spaces" "$B/$p" -o "$BENCH_TMP/spaces.out" "$spaces"
done
alt=$BENCH_TMP/alternating.folded
[ -s "$alt" ] || awk 'BEGIN { print "p;a1!x 1"; for (i = 0; i < 200000; i++) print (i % 2 ? "p;a;z 1" : "p;a1;y 1") }' >"$alt"
bench_run "fg-render: 200,000 lines alternating a1;y and a;z" "$alt" "$B/fg-render" -o "$BENCH_TMP/alt.svg" "$alt"
name=$BENCH_TMP/long-name.folded
python3 -c "print('a;' + 'x' * 1000000 + ' 5')" >"$name"
bench_run "fg-render: a 1 MB frame name" "$name" "$B/fg-render" -o "$BENCH_TMP/name.svg" "$BENCH_TMP/alt.svg" "$name"
rm -f "$BENCH_TMP/ten.svg" "$BENCH_TMP/ten.diff" "$BENCH_TMP/deep.svg" "$BENCH_TMP/long.svg" "$BENCH_TMP/spaces.out" "$BENCH_TMP/name.svg" "$BENCH_TMP/alt.svg"
