#!/usr/bin/env bash
# bench/collapse_perf.sh [BUILD_DIR] - fg-collapse-perf throughput and
# memory on cached `perf script` text (the goal: >= 1 GB/s; peak RSS
# under 64 MB on 1 GB with ~10k unique stacks).
#
# Inputs (deterministic, made once in $BENCH_TMP, default /tmp/fg-bench):
#   example      the gunzipped example-perf-stacks.txt.gz repeated (Java and
#                kernel stacks, 710 unique stacks), FG_BENCH_MB MB (500)
#   references   the 13 reference inputs, each ended by a blank line,
#                repeated to FG_BENCH_MB MB (the first event, instructions,
#                filters most samples out, as stackcollapse-perf.pl does)
#   unique-10k   1 GB: the example with its process names numbered 1..15,
#                so ~10,600 unique stacks (memory must not grow with input)
# Each case runs BENCH_RUNS (5) times with -j 1 and -j 2 (or -j nproc); the
# median wall time gives MB/s. stackcollapse-perf.pl is not downloaded: set
# STACKCOLLAPSE_PERF=/path/to/stackcollapse-perf.pl to time it as well.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
shared=${FG_SHARED:-../shared}
mb=${FG_BENCH_MB:-500}
. bench/lib.sh
perf=$build/fg-collapse-perf
ref=$shared/reference/collapse-perf
if [ ! -d "$ref" ]; then
	echo "skip: $ref absent (set FG_SHARED)" >&2
	exit 0
fi

gunzip -c "$ref/example-perf-stacks.txt.gz" >"$BENCH_TMP/example.txt"
for f in "$ref"/*.txt; do cat "$f"; echo; done >"$BENCH_TMP/references.txt"
for i in $(seq 1 15); do sed -E "s/^([^[:space:]#][^ ]*) /\1$i /" "$BENCH_TMP/example.txt"; done >"$BENCH_TMP/unique.txt"

example=$(bench_input example.perf "$mb" "$BENCH_TMP/example.txt")
references=$(bench_input references.perf "$mb" "$BENCH_TMP/references.txt")

jobs_list="1 2"
[ "$(nproc)" -gt 2 ] && jobs_list="1 2 $(nproc)"

echo "# fg-collapse-perf on $(nproc) CPUs ($(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1))"
for j in $jobs_list; do
	bench_run "example -j$j" "$example" "$perf" -j "$j" "$example"
	bench_run "example --all -j$j" "$example" "$perf" --all -j "$j" "$example"
	bench_run "references -j$j" "$references" "$perf" -j "$j" "$references"
done
if [ -n "${STACKCOLLAPSE_PERF:-}" ]; then
	BENCH_RUNS=1 bench_run "stackcollapse-perf.pl (example)" "$example" perl "$STACKCOLLAPSE_PERF" "$example"
else
	echo "# stackcollapse-perf.pl: not timed (set STACKCOLLAPSE_PERF to its path)"
fi

# Memory: 1 GB with ~10k unique stacks.
unique=$(bench_input unique-10k.perf 1000 "$BENCH_TMP/unique.txt")
stacks=$("$perf" -j 2 "$unique" | wc -l)
echo "# unique-10k.perf: $stacks unique stacks"
for j in $jobs_list; do
	BENCH_RUNS=3 bench_run "unique-10k (1 GB) -j$j" "$unique" "$perf" -j "$j" "$unique"
done
rm -f "$BENCH_TMP/example.txt" "$BENCH_TMP/references.txt" "$BENCH_TMP/unique.txt"
[ -n "${FG_BENCH_KEEP:-}" ] || rm -f "$example" "$references" "$unique"
