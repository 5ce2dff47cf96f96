# Every case of ../shared/reference/render: same frames as flamegraph.pl's
# SVG (tools/svgframes --compare), well-formed XML, and in total at most
# 0.6 of the reference's bytes (issue 14's budget: the view data and the
# views' code added about 0.1 to the 0.49 before them).
. "$(dirname "$0")/lib.sh"

R=$REFERENCE/render
if [ ! -f "$R/cases.tsv" ]; then
	skip_reference "render reference"
	exit 0
fi
ours=0 theirs=0
while IFS=$'\t' read -r name input options; do
	case $name in '#'*|'') continue ;; esac
	set -f
	# shellcheck disable=SC2086 # options are space-separated words
	set -- $options
	set +f
	svg=$TMP/$name.svg
	"$BIN/fg-render" "$@" "$R/inputs/$input" >"$svg" 2>"$TMP/$name.err"
	status=$?
	check_eq "render $name: exit status" 0 "$status"
	out=$("$SVGFRAMES" --compare "$svg" "$R/expected/$name.svg" 2>&1)
	if [ $? = 0 ]; then pass "render $name: frames match flamegraph.pl ($(echo "$out" | tail -n 1))"
	else fail "render $name: frames differ from flamegraph.pl" "$out"; fi
	check_xml "render $name: well-formed XML" "$svg"
	ours=$((ours + $(wc -c <"$svg")))
	theirs=$((theirs + $(wc -c <"$R/expected/$name.svg")))
done <"$R/cases.tsv"
ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.3f", a / b }')
if awk -v a="$ours" -v b="$theirs" 'BEGIN { exit !(a <= b * 0.6) }'; then
	pass "render reference: total bytes $ours vs $theirs (ratio $ratio <= 0.6)"
else
	fail "render reference: total bytes $ours vs $theirs (ratio $ratio > 0.6)"
fi
