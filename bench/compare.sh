#!/usr/bin/env bash
# bench/compare.sh OLD_BUILD [NEW_BUILD] - before/after figures for a change:
# fg-render of two builds on the bench's inputs, their runs interleaved (old,
# new, old, new...) so that the machine's drift, tens of percent from one
# minute to the next on a shared virtual machine, falls on both alike.
# Prints, per input and thread count, each build's median wall time, the
# change, and each build's least CPU time (user + system, the steadier figure
# on a busy machine), and checks that both wrote the same SVG.
#
# Not run by `make bench` (bench/run.sh): it needs the build to compare with,
#   git worktree add /tmp/old HEAD~1 && make -C /tmp/old -j2 all
#   bench/compare.sh /tmp/old/build
# COMPARE_RUNS runs of each (default 11); COMPARE_SHAPES narrows the inputs
# (default: wide-sorted wide-blocks wide-shuffled deep unique-shuffled).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
old=${1:?usage: bench/compare.sh OLD_BUILD [NEW_BUILD]}
new=${2:-build}
runs=${COMPARE_RUNS:-11}
shapes=${COMPARE_SHAPES:-wide-sorted wide-blocks wide-shuffled deep unique-shuffled}
for b in "$old" "$new"; do
	[ -x "$b/fg-render" ] || { echo "bench/compare.sh: no $b/fg-render" >&2; exit 2; }
done

# The inputs, made as bench/render.sh makes them.
input() {
	local f=$BENCH_TMP/$1.folded
	case $1 in
	wide-*) [ -s "$f" ] || python3 bench/gen_folded.py wide "$f" "${1#wide-}" ;;
	unique-*) [ -s "$f" ] || python3 bench/gen_folded.py unique "$f" "${1#unique-}" ;;
	deep) [ -s "$f" ] || python3 bench/gen_folded.py deep "$f" ;;
	*) echo "bench/compare.sh: unknown shape $1" >&2; return 1 ;;
	esac
	cat "$f" >/dev/null
	echo "$f"
}

# One run: wall microseconds and CPU microseconds.
run_once() {
	local start end
	start=$(date +%s%N)
	/usr/bin/time -f '%U %S' -o "$BENCH_TMP/compare.time" "$@" >/dev/null 2>&1
	end=$(date +%s%N)
	awk -v us=$(((end - start) / 1000)) '{ printf "%d %.0f\n", us, ($1 + $2) * 1e6 }' \
		"$BENCH_TMP/compare.time"
}

echo "fg-render, $old -> $new (medians of $runs interleaved runs; CPU: the least)"
status=0
for shape in $shapes; do
	f=$(input "$shape") || exit 2
	for j in 1 0; do
		label=-j$j
		[ "$j" = 0 ] && label=default
		: >"$BENCH_TMP/compare.old"
		: >"$BENCH_TMP/compare.new"
		for _ in $(seq 1 "$runs"); do
			run_once "$old/fg-render" -j$j -o "$BENCH_TMP/compare-old.svg" "$f" >>"$BENCH_TMP/compare.old"
			run_once "$new/fg-render" -j$j -o "$BENCH_TMP/compare-new.svg" "$f" >>"$BENCH_TMP/compare.new"
		done
		cmp -s "$BENCH_TMP/compare-old.svg" "$BENCH_TMP/compare-new.svg" || {
			echo "ERROR: $shape, $label: the two builds wrote different SVGs"
			status=1
		}
		awk -v shape="$shape" -v label="$label" -v runs="$runs" '
			function median(a, n,   i, j, t) {
				for (i = 2; i <= n; i++)
					for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
				return a[int((n + 1) / 2)]
			}
			FNR == 1 { file++ }
			{ wall[file, FNR] = $1; if (!((file, "cpu") in least) || $2 < least[file, "cpu"]) least[file, "cpu"] = $2 }
			END {
				for (k = 1; k <= 2; k++) {
					for (i = 1; i <= runs; i++) w[i] = wall[k, i]
					m[k] = median(w, runs)
				}
				printf "%-16s %-8s %8.1f -> %8.1f ms  %+6.1f%%   CPU %7.1f -> %7.1f ms\n", shape, label,
					m[1] / 1e3, m[2] / 1e3, (m[2] - m[1]) * 100 / m[1],
					least[1, "cpu"] / 1e3, least[2, "cpu"] / 1e3
			}' "$BENCH_TMP/compare.old" "$BENCH_TMP/compare.new"
	done
done
rm -f "$BENCH_TMP"/compare.* "$BENCH_TMP"/compare-*.svg
exit $status
