#!/usr/bin/env bash
# bench/render.sh [BUILD_DIR] - fg-render throughput, memory and start-up.
# Inputs are generated deterministically (bench/gen_folded.py) or built by
# prefixing copies of the reference example; output goes to a file (-o).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
B=${1:-build}
R=$B/fg-render

deep=$BENCH_TMP/deep.folded
[ -s "$deep" ] || python3 bench/gen_folded.py deep "$deep"
for order in sorted blocks shuffled; do
	f=$BENCH_TMP/wide-$order.folded
	[ -s "$f" ] || python3 bench/gen_folded.py wide "$f" $order
	f=$BENCH_TMP/unique-$order.folded
	[ "$order" = blocks ] || [ -s "$f" ] || python3 bench/gen_folded.py unique "$f" $order
done
cat "$deep" "$BENCH_TMP"/wide-*.folded "$BENCH_TMP"/unique-*.folded >/dev/null

# Issue 12's targets, on the real-world shape (56 MB, 169k lines, 19 frames a
# line, ~1.2M nodes): >= 1 GB/s (about 50 ms) in every order, peak RSS <=
# 56 MB; inferno-flamegraph measured 0.44 / 0.47 / 0.56 s and ~113 MB there.
# The SVG must be the same bytes in every order and for every -j.
echo "fg-render (median of $BENCH_RUNS runs, output to a file)"
echo "# targets (wide): >= 1000 MB/s, peak RSS <= 56 MB, in every order"
echo "# default: -j0, one thread per CPU (here $(nproc)), at most 4; -j4 is the"
echo "# default of a machine with 4 CPUs or more (its time here: on $(nproc) CPUs)"
declare -A ours
for order in sorted blocks shuffled; do
	for j in 1 2 4 0; do
		f=$BENCH_TMP/wide-$order.folded
		label=-j$j
		[ "$j" = 0 ] && label="default"
		BENCH_TARGET_MBS=1000 BENCH_TARGET_RSS=56 \
			bench_run "wide, $order, $label" "$f" "$R" -j$j -o "$BENCH_TMP/wide-$order-$j.svg" "$f"
		[ "$j" = 0 ] && ours[$order]=$BENCH_LAST_US
	done
done

# The same files through the tools fg-render is measured against, when this
# machine has them: flamegraph.pl ($FLAMEGRAPH_PL, else from PATH; run with
# perl) and inferno-flamegraph (from PATH). $BENCH_RIVAL_RUNS runs each
# (default 1: flamegraph.pl takes seconds); ratio = their time / ours (the
# default -j).
flamegraph_pl=${FLAMEGRAPH_PL:-$(command -v flamegraph.pl || true)}
inferno=$(command -v inferno-flamegraph || true)
for rival in flamegraph.pl inferno-flamegraph; do
	case $rival in
	flamegraph.pl) [ -n "$flamegraph_pl" ] && command -v perl >/dev/null || {
		echo "(flamegraph.pl: not found; set FLAMEGRAPH_PL to measure it)"; continue; }
		run=(perl "$flamegraph_pl") ;;
	*) [ -n "$inferno" ] || { echo "(inferno-flamegraph: not on PATH)"; continue; }
		run=("$inferno") ;;
	esac
	for order in sorted blocks shuffled; do
		f=$BENCH_TMP/wide-$order.folded
		BENCH_RUNS=${BENCH_RIVAL_RUNS:-1} bench_run "$rival: wide, $order" "$f" "${run[@]}" "$f"
		awk -v a="$BENCH_LAST_US" -v b="${ours[$order]}" -v r="$rival" -v o="$order" \
			'BEGIN { printf "    fg-render is %.1fx as fast as %s (wide, %s)\n", a / b, r, o }'
	done
done
for order in sorted blocks shuffled; do
	for j in 1 2 4 0; do
		cmp -s "$BENCH_TMP/wide-sorted-1.svg" "$BENCH_TMP/wide-$order-$j.svg" ||
			echo "ERROR: wide, $order, -j$j: the SVG differs from the sorted input's"
	done
done
rm -f "$BENCH_TMP"/wide-*.svg
# Several files on one command line: the second adds no frames, so the peak
# is one file's (a guess sized from the first file showed here, at 65 MB).
two=("$BENCH_TMP/wide-sorted.folded" "$BENCH_TMP/wide-shuffled.folded")
BENCH_TARGET_RSS=56 BENCH_INPUT_BYTES=$(stat -L -c %s "${two[@]}" | awk '{ s += $1 } END { print s }') \
	bench_run "wide, sorted then shuffled: 2 files" "${two[0]}" "$R" -o "$BENCH_TMP/out.svg" "${two[@]}"
for j in 1 2; do
	bench_run "deep: $(wc -l <"$deep") lines, 50-150 fr., -j$j" "$deep" "$R" -j$j -o "$BENCH_TMP/out.svg" "$deep"
done
shuf --random-source=<(yes) "$deep" >"$BENCH_TMP/deep-shuffled.folded"
bench_run "deep, shuffled" "$BENCH_TMP/deep-shuffled.folded" "$R" -o "$BENCH_TMP/out.svg" "$BENCH_TMP/deep-shuffled.folded"
for order in sorted shuffled; do
	for j in 1 2; do
		f=$BENCH_TMP/unique-$order.folded
		bench_run "1M unique random stacks, $order, -j$j" "$f" "$R" -j$j -o "$BENCH_TMP/out.svg" "$f"
	done
done
example=../shared/reference/render/inputs/example-perf.folded
if [ -f "$example" ]; then
	big=$BENCH_TMP/big.folded
	if [ ! -s "$big" ]; then
		for i in $(seq 1 160); do sed "s/^/p$i;/" "$example"; done >"$big"
	fi
	for j in 1 2; do
		bench_run "160 prefixed copies of the example, -j$j" "$big" "$R" -j$j -o "$BENCH_TMP/out.svg" "$big"
	done
	bench_run "... --minwidth 0 (every frame)" "$big" "$R" --minwidth 0 -o "$BENCH_TMP/out.svg" "$big"
	"$R" -o "$BENCH_TMP/big.svg" "$big"
	echo "    SVG: $(stat -c %s "$BENCH_TMP/big.svg") bytes, $(grep -c '<rect x=' "$BENCH_TMP/big.svg") frames"
fi

# Start-up: a tiny graph, many times, against /bin/true (the cost of the loop
# and of starting any process).
printf 'main;a 1\nmain;b 2\n' >"$BENCH_TMP/tiny.folded"
loop() { local start end; start=$(date +%s%N); for _ in $(seq 1 300); do "$@" >/dev/null 2>&1; done
	end=$(date +%s%N); echo $((end - start)); }
ours=$(loop "$R" "$BENCH_TMP/tiny.folded")
base=$(loop /bin/true)
awk -v a="$ours" -v b="$base" 'BEGIN { printf "start-up + tiny graph: %.2f ms per run (/bin/true: %.2f ms; difference %.2f ms)\n", a / 300e6, b / 300e6, (a - b) / 300e6 }'
