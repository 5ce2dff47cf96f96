#!/usr/bin/env bash
# bench/limits.sh [BUILD_DIR] - the limits of issue 5: 10 million unique
# stacks through fg-render and fg-diff, a 100,000-frame stack and a 1 MB
# frame name; reports time and peak RSS ("memory as the data needs").
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
B=${1:-build}
BENCH_RUNS=1
ten=$BENCH_TMP/ten-million.folded
[ -s "$ten" ] || awk 'BEGIN { for (i = 0; i < 10000000; i++) printf "proc%d;fn%d;leaf%d %d\n", i % 97, i % 1009, i, 1 + i % 7 }' >"$ten"
bench_run "fg-render: 10M unique stacks" "$ten" "$B/fg-render" -o "$BENCH_TMP/ten.svg" "$ten"
bench_run "fg-diff: 10M unique stacks vs itself" "$ten" "$B/fg-diff" -o "$BENCH_TMP/ten.diff" "$ten" "$ten"
deep=$BENCH_TMP/deep-100k.folded
awk 'BEGIN { s = "root"; for (i = 0; i < 100000; i++) s = s ";f" i; print s " 1" }' >"$deep"
bench_run "fg-render: one 100,000-frame stack" "$deep" "$B/fg-render" --minwidth 0 -o "$BENCH_TMP/deep.svg" "$deep"
long=$BENCH_TMP/long-name.folded
python3 -c "print('a;' + 'x' * 1000000 + ' 5')" >"$long"
bench_run "fg-render: a 1 MB frame name" "$long" "$B/fg-render" -o "$BENCH_TMP/long.svg" "$long"
