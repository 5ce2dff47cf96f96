#!/usr/bin/env bash
# bench/viewdata.sh [BUILD_DIR] - what the view data costs (issue 14): its
# bytes per --view-nodes budget on a 200,000-node profile (bench/views.mjs's
# synthetic one), and the SVG bytes over the 17 reference cases against
# flamegraph.pl's (budget: at most 0.6). Timings of the views: bench/views.mjs.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
B=${1:-build}
R=$B/fg-render
big=$BENCH_TMP/views-200k.folded
if [ ! -s "$big" ]; then
	node -e '
const src = require("fs").readFileSync("bench/views.mjs", "utf8");
const fn = src.slice(src.indexOf("function syntheticFolded"), src.indexOf("const nodes ="));
process.stdout.write(new Function(fn + "; return syntheticFolded;")()(200000));' >"$big"
fi
data_bytes() { sed -n '/<metadata id="fg-data">/,/<\/metadata>/p' "$1" | wc -c; }
echo "view data of a 200,000-node profile ($(wc -l <"$big") lines)"
for n in 0 25000 50000 100000 200000; do
	"$R" --view-nodes $n -o "$BENCH_TMP/v.svg" "$big" 2>/dev/null
	printf '  --view-nodes %-6s SVG %9d bytes, view data %8d bytes\n' $n \
		"$(wc -c <"$BENCH_TMP/v.svg")" "$(data_bytes "$BENCH_TMP/v.svg")"
done
ref=../shared/reference/render
if [ -f "$ref/cases.tsv" ]; then
	ours=0 theirs=0 data=0
	while IFS=$'\t' read -r name input options; do
		case $name in '#'*|'') continue ;; esac
		set -f
		# shellcheck disable=SC2086 # options are space-separated words
		set -- $options
		set +f
		"$R" "$@" -o "$BENCH_TMP/r.svg" "$ref/inputs/$input" 2>/dev/null
		ours=$((ours + $(wc -c <"$BENCH_TMP/r.svg")))
		data=$((data + $(data_bytes "$BENCH_TMP/r.svg")))
		theirs=$((theirs + $(wc -c <"$ref/expected/$name.svg")))
	done <"$ref/cases.tsv"
	awk -v a="$ours" -v b="$theirs" -v d="$data" 'BEGIN { printf "17 reference cases: %d bytes vs flamegraph.pl %d: ratio %.3f (view data %d bytes, %.3f of theirs)\n", a, b, a / b, d, d / b }'
fi
