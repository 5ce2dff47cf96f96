#!/usr/bin/env bash
# bench/collapse_bpftrace.sh [BUILD_DIR] - fg-collapse-bpftrace throughput
# on a large generated bpftrace output (target: >= 500 MB/s), and
# fg-collapse on the same input (detection plus the same parser).
#
# Input (deterministic, made once in $BENCH_TMP, default /tmp/fg-bench): a
# generated capture of about 20 MB, repeated to FG_BENCH_MB MB (500): the
# "Attaching" banner, then 12,000 entries of an anonymous @[kstack] map
# (8-space indented "func+OFF" frames, 10 to 40 of them, as bpftrace 0.20
# prints them), 4,000 of @[kstack, ustack, comm], 2,000 perf-mode entries,
# counts up to 99,999; about 18,000 unique stacks. Each case runs
# BENCH_RUNS (5) times with -j 1 and -j 2 (or -j nproc); the median wall
# time gives MB/s. No timing is ever asserted: this only reports.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
mb=${FG_BENCH_MB:-500}
. bench/lib.sh

awk 'BEGIN {
	srand(15)
	for (i = 0; i < 3000; i++) name[i] = sprintf("%s_%s%d", (i % 3 ? "do" : "__x64"), \
		substr("abcdefghijklmnopqrstuvwxyz", i % 26 + 1, 5), i)
	print "Attaching 3 probes..."
	print "^C"
	print ""
	for (e = 0; e < 18000; e++) {
		depth = 10 + int(rand() * 31)
		base = int(rand() * 2900)
		if (e < 12000) {
			print "@["
			for (d = 0; d < depth; d++)
				printf "        %s+%d\n", name[(base + d * 7) % 3000], 1 + (d * 37 + e) % 500
			printf "]: %d\n", 1 + int(rand() * 99999)
		} else if (e < 16000) {
			print "@cpu["
			for (d = 0; d < depth / 2; d++)
				printf "        %s+%d\n", name[(base + d * 11) % 3000], 1 + d * 13
			print ", "
			for (d = 0; d < depth / 2; d++)
				printf "        user_%s+%d\n", name[(base + d * 5) % 3000], 4 + d
			printf ", comm%d]: %d\n", e % 17, 1 + int(rand() * 999)
		} else {
			print "@perf["
			for (d = 0; d < depth; d++)
				printf "\tffffffff81%06x %s+%d\n", (base * 64 + d) % 16777216, name[(base + d) % 3000], d
			print ""
			printf "]: %d\n", 1 + int(rand() * 50)
		}
	}
}' >"$BENCH_TMP/bpftrace.txt"
input=$(bench_input bpftrace.big "$mb" "$BENCH_TMP/bpftrace.txt")

jobs_list="1 2"
[ "$(nproc)" -gt 2 ] && jobs_list="1 2 $(nproc)"
echo "# fg-collapse-bpftrace on $(nproc) CPUs ($(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)); $("$build/fg-collapse-bpftrace" "$BENCH_TMP/bpftrace.txt" | wc -l) unique stacks"
for j in $jobs_list; do
	bench_run "fg-collapse-bpftrace -j$j" "$input" "$build/fg-collapse-bpftrace" -j "$j" "$input"
done
for j in $jobs_list; do
	bench_run "fg-collapse -j$j (detected)" "$input" "$build/fg-collapse" -j "$j" "$input"
done
