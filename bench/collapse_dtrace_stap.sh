#!/usr/bin/env bash
# bench/collapse_dtrace_stap.sh [BUILD_DIR] - throughput of fg-collapse-dtrace
# and fg-collapse-stap on cached input.
#
# Input: the reference inputs (../shared/reference) concatenated to about
# FG_BENCH_MB megabytes (default 300) in $TMPDIR. Each program runs 5 times
# per thread count, output to a file; the median wall time gives MB/s, and
# /usr/bin/time -v the peak RSS (MB: 10^6 bytes). Prints one line per case:
#   fg-collapse-dtrace -j1   MB 300.0   median 0.512 s   586.1 MB/s   peak RSS 12.3 MB
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
shared=${FG_SHARED:-../shared}
want_mb=${FG_BENCH_MB:-300}
runs=5
tmp=${TMPDIR:-/tmp}/fg-bench-trace
mkdir -p "$tmp"

make_input() { # NAME SOURCE: SOURCE repeated to about want_mb MB
	local out=$tmp/$1
	local size=$(($(stat -c %s "$2")))
	local copies=$((want_mb * 1000000 / size + 1))
	if [ ! -s "$out" ] || [ "$(stat -c %s "$out")" != $((size * copies)) ]; then
		for _ in $(seq 1 "$copies"); do cat "$2"; done >"$out"
	fi
	cat "$out" >/dev/null # into the page cache
	echo "$out"
}

if [ ! -d "$shared/reference" ]; then
	echo "skip: $shared/reference absent" >&2
	exit 0
fi
dtrace_in=$(make_input dtrace.txt "$shared/reference/collapse-dtrace/example-dtrace-stacks.txt")
stap_in=$(make_input stap.txt "$shared/reference/collapse-stap/cxx-stap-stacks.txt")

jobs_list="1 $(nproc)"
[ "$(nproc)" = 1 ] && jobs_list=1

bench() { # PROGRAM INPUT JOBS
	local prog=$1 input=$2 jobs=$3 times=() rss=0
	local mb
	mb=$(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f", b / 1e6 }')
	for _ in $(seq 1 $runs); do
		/usr/bin/time -v -o "$tmp/time.txt" "$build/$prog" -j "$jobs" -o "$tmp/out.folded" "$input"
		local wall r
		wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time.txt" |
			awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
		r=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
		times+=("$wall")
		[ "$r" -gt "$rss" ] && rss=$r
	done
	local median
	median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")
	awk -v p="$prog" -v j="$jobs" -v mb="$mb" -v t="$median" -v rss="$rss" 'BEGIN {
		printf "%-20s -j%-3s MB %7s   median %6.3f s   %8.1f MB/s   peak RSS %6.1f MB\n",
			p, j, mb, t, (t > 0 ? mb / t : 0), rss * 1024 / 1e6 }'
}

for j in $jobs_list; do
	bench fg-collapse-dtrace "$dtrace_in" "$j"
	bench fg-collapse-stap "$stap_in" "$j"
done
rm -f "$tmp/out.folded" "$tmp/time.txt"
