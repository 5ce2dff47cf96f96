# fg-diff (difffolded.pl) and differential graphs, incl. --diff-union.
. "$(dirname "$0")/lib.sh"

D=$BIN/fg-diff
R=$BIN/fg-render
F=$FIXTURES/diff
ORACLE=$FG_ROOT/tests/tools/difffolded_oracle.pl

for options in "" "-n" "-s" "-n -s"; do
	# shellcheck disable=SC2086
	"$D" $options "$F/before.folded" "$F/after.folded" >"$TMP/ours" 2>"$TMP/err"
	check_eq "fg-diff $options: exit 0" 0 $?
	check "fg-diff $options: sorted bytewise by stack" sh -c "cut -d' ' -f1 '$TMP/ours' | LC_ALL=C sort -c"
	golden=$F/expected${options:+$(printf '%s' "$options" | tr ' ' '-' | tr -s '-')}.txt
	check_same "fg-diff $options: golden output" "$golden" "$TMP/ours"
	if command -v perl >/dev/null; then
		# shellcheck disable=SC2086
		perl "$ORACLE" $options "$F/before.folded" "$F/after.folded" | LC_ALL=C sort >"$TMP/theirs"
		LC_ALL=C sort "$TMP/ours" >"$TMP/ours.sorted"
		check_same "fg-diff $options: the lines of difffolded.pl" "$TMP/theirs" "$TMP/ours.sorted"
	else
		skip "fg-diff $options vs difffolded.pl" "perl not installed"
	fi
done

# Random profiles against the oracle: integer counts, shared and unshared stacks.
if command -v perl >/dev/null; then
	for seed in 1 2 3; do
		for side in 1 2; do
			awk -v seed=$((seed * 10 + side)) 'BEGIN { srand(seed)
				for (i = 0; i < 400; i++) {
					d = 1 + int(rand() * 4); s = "main"
					for (j = 0; j < d; j++) s = s ";f" int(rand() * 6) (rand() < 0.1 ? "_0x" int(rand() * 999) : "")
					print s, int(rand() * 50)
				} }' >"$TMP/r$side"
		done
		for options in "" "-n -s"; do
			# shellcheck disable=SC2086
			"$D" $options "$TMP/r1" "$TMP/r2" | LC_ALL=C sort >"$TMP/ours"
			# shellcheck disable=SC2086
			perl "$ORACLE" $options "$TMP/r1" "$TMP/r2" | LC_ALL=C sort >"$TMP/theirs"
			check_same "fg-diff $options: random profiles $seed equal difffolded.pl" "$TMP/theirs" "$TMP/ours"
		done
	done
fi

printf 'a;b 0.1\na;b 0.2\nc 1\n' >"$TMP/dec1"
printf 'a;b 1\n' >"$TMP/dec2"
check_eq "fg-diff keeps decimals exactly (0.1 + 0.2 = 0.3)" "a;b 0.3 1
c 1 0" "$("$D" "$TMP/dec1" "$TMP/dec2")"
check_status "fg-diff with one file is a usage error" 1 "$D" "$F/before.folded"
check_status "fg-diff with a missing file exits 2" 2 "$D" "$F/before.folded" "$TMP/nope"
gzip -c "$F/after.folded" >"$TMP/after.gz"
if "$D" "$F/before.folded" "$TMP/after.gz" >"$TMP/gz" 2>/dev/null; then
	check_same "fg-diff reads gzip input" "$F/expected.txt" "$TMP/gz"
else
	check "fg-diff: gzip without zlib is refused clearly" sh -c "'$D' '$F/before.folded' '$TMP/after.gz' 2>&1 | grep -q 'without zlib'"
fi
"$D" -o "$TMP/out.txt" "$F/before.folded" "$F/after.folded"
check_same "fg-diff -o writes the file" "$F/expected.txt" "$TMP/out.txt"
"$D" "$F/before.folded" - <"$F/after.folded" >"$TMP/stdin"
check_same "fg-diff reads - as stdin" "$F/expected.txt" "$TMP/stdin"

# Differential graphs.
"$D" "$F/before.folded" "$F/after.folded" | "$R" >"$TMP/diff.svg" 2>/dev/null
check "differential graph: contract" python3 "$FG_ROOT/tests/tools/svgcheck.py" "$TMP/diff.svg"
check "differential graph: hot_loop grew (red, +%)" grep -q 'hot_loop (30&s;[0-9.]*%; +' "$TMP/diff.svg"
check "differential graph: the vanished path is not drawn" sh -c "! grep -q '>gone (' '$TMP/diff.svg'"
"$D" "$F/before.folded" "$F/after.folded" | "$R" --diff-union >"$TMP/union.svg" 2>/dev/null
python3 "$FG_ROOT/tests/tools/svgcheck.py" "$TMP/union.svg" >"$TMP/union.frames"
check "--diff-union: contract" test -s "$TMP/union.frames"
check "--diff-union: the vanished path is drawn, its tooltip says so" \
	grep -q '	14	gone; before 14, after 0, only before' "$TMP/union.frames"
check "--diff-union: its child too" grep -q '	4	deeper; before 4, after 0, only before' "$TMP/union.frames"
check "--diff-union: the new path says only after" grep -q '	7	new_path; before 0, after 7, only after' "$TMP/union.frames"
fill_of() { # the fill of the colour group holding the frame called $1
	awk -v name=">$1 (" '/^<g fill=/ { fill = $0 } index($0, name) { print fill; exit }' "$2"
}
check_eq "--diff-union: vanished frames have their own colour" '<g fill="#b4b4d2">' "$(fill_of gone "$TMP/union.svg")"
check_eq "--diff-union: new frames have another" '<g fill="#d2c8a0">' "$(fill_of new_path "$TMP/union.svg")"
check "--diff-union: a parent is as wide as the max of both sides of its children" \
	grep -q '	14	gone; before 14' "$TMP/union.frames"
check_same "--diff-union: golden frames" "$F/union.frames" "$TMP/union.frames"
"$D" "$F/before.folded" "$F/after.folded" | "$R" --diff-threshold 20 >"$TMP/noise.svg" 2>/dev/null
check "--diff-threshold: small changes are white, big ones coloured" sh -c \
	"grep -q 'sys_read (22&s;[0-9.]*%; 0.00%)' '$TMP/noise.svg' && grep -q 'hot_loop (30&s;[0-9.]*%; +' '$TMP/noise.svg'"

# Empty stacks (' 5', samples with an empty backtrace) are stacks like any other.
printf ' 5\na 3\n' >"$TMP/e1"
printf ' 2\nb 8\n' >"$TMP/e2"
check_eq "empty stack: in the union, first" "$(printf ' 5 2\na 3 0\nb 0 8')" "$("$D" "$TMP/e1" "$TMP/e2")"
check_eq "empty stack: -n scales it too" "$(printf ' 6 2\na 3 0\nb 0 8')" "$("$D" -n "$TMP/e1" "$TMP/e2")"
