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
check_failure "fg-diff - -: a usage error (stdin cannot be read twice)" 1 "cannot both be the standard input" \
	sh -c 'echo "a 1" | "$1" - -' sh "$D"
check_failure "fg-diff - /dev/stdin: one pipe twice is a usage error" 1 "are one pipe (-, /dev/stdin)" \
	sh -c 'echo "a 1" | "$1" - /dev/stdin' sh "$D"
mkfifo "$TMP/fifo"
check_failure "fg-diff FIFO FIFO: a usage error, before anything waits on it" 1 "which can be read only once" \
	timeout 10 "$D" "$TMP/fifo" "$TMP/fifo"
printf 'a 2\n' >"$TMP/after-a"
check_eq "fg-diff FILE FILE: a file named twice is read twice" "a 2 2" "$("$D" "$TMP/after-a" "$TMP/after-a" 2>&1)"
check_eq "fg-diff - /dev/stdin from a file: opened again, read twice" "a 2 2" \
	"$("$D" - /dev/stdin <"$TMP/after-a" 2>&1)"
check_eq "fg-diff - FILE: stdin as one of the two still works" "a 1 2" "$(echo 'a 1' | "$D" - "$TMP/after-a" 2>&1)"
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
check "--diff-union: the root says before and after as every frame does" \
	grep -q '	122	all; before 82, after 90; 0.00%' "$TMP/union.frames"
check "plain differential root stays flamegraph.pl's" grep -q '<title>all ([0-9,]*&s;100%)</title>' "$TMP/diff.svg"
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

# --flamechart --diff-union: boxes are union-wide, so a flame chart's input
# times (AFTER) cannot place them; a frame after one that shrank ('a', 2
# before, 1 after) overlapped it, and its children left it.
printf 'b 1 5\na 2 1\nb 3 1\nb;c 0 4\n' >"$TMP/chart.folded"
"$R" --flamechart --diff-union "$TMP/chart.folded" 2>/dev/null >"$TMP/chart.svg"
python3 "$FG_ROOT/tests/tools/svgcheck.py" "$TMP/chart.svg" >"$TMP/chart.frames"
check_eq "--flamechart --diff-union: siblings side by side, children inside" \
	"$(printf '37\t684.3\t337.1\t4\tc; before 0, after 4, only after; +28.57%%\n53\t10\t421.4\t5\tb; before 1, after 5; +28.57%%\n53\t431.4\t168.6\t2\ta; before 2, after 1; -7.14%%\n53\t600\t590\t7\tb; before 3, after 5; -14.29%%\n69\t10\t1180\t14\tall; before 6, after 11; 0.00%%')" \
	"$(cat "$TMP/chart.frames")"
awk 'BEGIN { srand(7); for (i = 0; i < 400; i++) { s = "f" int(rand() * 3)
	for (d = int(rand() * 4); d > 0; d--) s = s ";g" int(rand() * 3)
	print s, int(rand() * 3) * int(rand() * 50), int(rand() * 3) * int(rand() * 50) } }' >"$TMP/chart2.folded"
"$R" --flamechart --diff-union --minwidth 0 "$TMP/chart2.folded" 2>/dev/null >"$TMP/chart2.svg"
python3 "$FG_ROOT/tests/tools/svgcheck.py" "$TMP/chart2.svg" >"$TMP/chart2.frames"
check "--flamechart --diff-union: no frame overlaps a sibling or leaves its parent (400 random lines)" \
	python3 -c '
import sys
rows = {}
for line in open(sys.argv[1]):
    y, x, w = (float(v) for v in line.split("\t")[:3])
    rows.setdefault(y, []).append((x, w))
for y, frames in rows.items():
    frames.sort()
    for (x1, w1), (x2, _) in zip(frames, frames[1:]):
        if x1 + w1 > x2 + 0.15:
            sys.exit("overlap at y %g: %g+%g > %g" % (y, x1, w1, x2))
    for x, w in frames if y + 16 in rows else ():
        if not any(px - 0.15 <= x and x + w <= px + pw + 0.15 for px, pw in rows[y + 16]):
            sys.exit("outside its parent at y %g: %g+%g" % (y, x, w))
' "$TMP/chart2.frames"

# Empty stacks (' 5', samples with an empty backtrace) are stacks like any other.
printf ' 5\na 3\n' >"$TMP/e1"
printf ' 2\nb 8\n' >"$TMP/e2"
check_eq "empty stack: in the union, first" "$(printf ' 5 2\na 3 0\nb 0 8')" "$("$D" "$TMP/e1" "$TMP/e2")"
check_eq "empty stack: -n scales it too" "$(printf ' 6 2\na 3 0\nb 0 8')" "$("$D" -n "$TMP/e1" "$TMP/e2")"

# Issue 13 item 9: -n is exact for any counts (it went through double).
printf 'a 5\n' >"$TMP/n1"
printf 'a 18446744073709551615\n' >"$TMP/n2"
check_eq "-n: 5 scaled to a total of 2^64-1" "a 18446744073709551615 18446744073709551615" "$("$D" -n "$TMP/n1" "$TMP/n2" 2>&1)"
python3 - "$TMP" <<'PY'
import random, sys
from fractions import Fraction
random.seed(13)
d = sys.argv[1]
for case in range(20):
    n = random.randint(1, 6)
    limit = random.choice([10, 2**40, 2**62, 2**64 // n - 1])
    before = {f"s{i}": random.randint(0, limit) for i in range(n)}
    after = {f"s{i}": random.randint(0, limit) for i in range(n)}
    if random.random() < 0.5:
        before["s0"] = Fraction(random.randint(0, 10**6), 10**6) + random.randint(0, 1000)
    with open(f"{d}/b{case}", "w") as f:
        for k, v in before.items():
            f.write(f"{k} {float(v) if False else (v if isinstance(v, int) else format(float(v), '.6f'))}\n")
    with open(f"{d}/a{case}", "w") as f:
        for k, v in after.items():
            f.write(f"{k} {v}\n")
    # the oracle reads back what was written
    def read(path):
        out = {}
        for line in open(path):
            k, v = line.split()
            out[k] = Fraction(v)
        return out
    b, a = read(f"{d}/b{case}"), read(f"{d}/a{case}")
    tb, ta = sum(b.values()), sum(a.values())
    with open(f"{d}/e{case}", "w") as f:
        for k in sorted(set(b) | set(a)):
            v = b.get(k, 0)
            if tb != 0 and tb != ta:
                v = (v * ta / tb).__floor__()
            av = a.get(k, 0)
            def fmt(x):
                x = Fraction(x)
                if x.denominator == 1:
                    return str(x.numerator)
                s = f"{x.numerator // x.denominator}.{(x - x.numerator // x.denominator) * 10**18 // 1:018d}".rstrip('0')
                return s
            f.write(f"{k} {fmt(v)} {fmt(av)}\n")
PY
bad=
for c in $(seq 0 19); do
	"$D" -n "$TMP/b$c" "$TMP/a$c" >"$TMP/o$c" 2>&1 || bad="$bad $c(status)"
	cmp -s "$TMP/e$c" "$TMP/o$c" || bad="$bad $c"
done
check_eq "-n: exact against rational arithmetic (20 random profiles up to 2^64-1)" "" "$bad"

# A write that fails midway (the output larger than a buffer) names the
# output and the reason, as a failure at the end does.
awk 'BEGIN { for (i = 0; i < 30000; i++) print "main;f" i ";g" i, 5 }' >"$TMP/wide.folded"
check_failure "fg-diff: a full disk midway names <stdout> and why" 2 "^fg-diff: <stdout>: write failed: No space left on device$" \
	sh -c '"$1" "$2" "$2" >/dev/full' sh "$D" "$TMP/wide.folded"
check_failure "fg-diff -o: past ulimit -f midway names the file and why" 2 "^fg-diff: $TMP/limited: write failed: File too large$" \
	sh -c 'ulimit -f 64; "$1" -o "$3" "$2" "$2"' sh "$D" "$TMP/wide.folded" "$TMP/limited"
check "fg-diff -o: ... and leaves no file" test ! -e "$TMP/limited"

# A change of 1 past 2^53 is a change: the delta was the difference of two
# doubles, both 2^53 here, so the shrunk frame was drawn white.
printf 'a 9007199254740993 9007199254740992\n' >"$TMP/big.folded"
"$R" "$TMP/big.folded" 2>/dev/null >"$TMP/big.svg"
check "differential colour: a change of 1 at 2^53 is the largest change (blue)" \
	sh -c "grep -B1 '>a (' '$TMP/big.svg' | grep -q '<g fill=\"#0000ff\">'"
