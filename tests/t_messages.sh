#!/usr/bin/env bash
# tests/t_messages.sh - messages and --help (issue 13 items 14 and 18).
# (-o '', a full disk: t_output.sh; an overflow found while merging:
# t_collapse_dtrace_stap.sh.)
. "$(dirname "$0")/lib.sh"
R=$BIN/fg-render

# The invalid-lines summary names the file of each line.
printf 'a 1\nbad\n' >"$TMP/f1"
printf 'b 1\nbad\nworse\n' >"$TMP/f2"
"$R" "$TMP/f1" "$TMP/f2" 2>"$TMP/err" >/dev/null
check "the invalid-lines summary names each line's file" \
	grep -q "ignored 3 lines with invalid format ($TMP/f1 line 2, $TMP/f2 line 2, 3)" "$TMP/err"

# ... and a long path by its end, which tells two files apart (it was cut
# to its first 60 bytes: the same directory twice).
long=$TMP/profiles-from-the-production-cluster-2026-11-24/collapsed-by-the-nightly-job
mkdir -p "$long"
printf 'bad\na 1\n' >"$long/host1.folded"
printf 'a 1\nbad\n' >"$long/host2.folded"
"$R" "$long/host1.folded" "$long/host2.folded" 2>"$TMP/err" >/dev/null
check "the invalid-lines summary keeps a long path's end" \
	grep -q "(\.\.[^ ]*/host1\.folded line 1, \.\.[^ ]*/host2\.folded line 2)" "$TMP/err"
printf 'bad\n' >"$TMP/bad"
check_failure "fg-diff names standard input <stdin>, not -" 2 "no valid input in <stdin> or " \
	sh -c '"$1" - "$2" <"$2"' sh "$BIN/fg-diff" "$TMP/bad"

# A count with 19 decimals: say why it is refused.
printf 'a 1.0000000000000000001\nb 1\n' >"$TMP/decimals"
"$R" "$TMP/decimals" 2>"$TMP/err" >/dev/null
check "a count with 19 decimals: the message says why" grep -qF 'decimals:1: count beyond 2^64 - 1 or with more than 18 decimals' "$TMP/err"
check "a count with 19 decimals: not 'no valid count'" sh -c "! grep -q 'no valid count' '$TMP/err'"

# perf event names reach stderr without terminal escape sequences.
printf 'p 1 1.0: 1 cyc:\n\tabc f (/x)\n\np 1 2.0: 1 ev\033[2J\033]0;x\007:\n\tabc g (/x)\n\n' >"$TMP/perf"
"$BIN/fg-collapse-perf" "$TMP/perf" >/dev/null 2>"$TMP/err"
check "perf event names: a warning is given" grep -q 'skipping samples of event' "$TMP/err"
check "perf event names: no control bytes on stderr" sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$TMP/err'"

# fg-diff -ns is -n -s, as in difffolded.pl (getopts).
printf 'a;0x1f 2\n' >"$TMP/b"
printf 'a;0x2e 4\n' >"$TMP/a"
"$BIN/fg-diff" -n -s "$TMP/b" "$TMP/a" >"$TMP/expected" 2>&1
"$BIN/fg-diff" -ns "$TMP/b" "$TMP/a" >"$TMP/out" 2>&1
check_same "fg-diff -ns is -n -s" "$TMP/expected" "$TMP/out"
"$BIN/fg-diff" -sn "$TMP/b" "$TMP/a" >"$TMP/out" 2>&1
check_same "fg-diff -sn is -n -s" "$TMP/expected" "$TMP/out"
check_status "fg-diff -nx is refused" 1 "$BIN/fg-diff" -nx "$TMP/b" "$TMP/a"

# --he is ambiguous in fg-render (--height, --help), as Getopt::Long says.
printf 'a 1\n' >"$TMP/in"
"$R" --he 20 "$TMP/in" >/dev/null 2>"$TMP/err"
status=$?
if [ $status = 1 ] && grep -q "option '--he' is ambiguous" "$TMP/err"; then
	pass "fg-render --he is ambiguous"
else
	fail "fg-render --he is ambiguous" "status $status: $(cat "$TMP/err")"
fi
# ... and named as typed, with one dash or two.
check_failure "fg-render -he: '-he' is ambiguous" 1 "option '-he' is ambiguous" "$R" -he 20 "$TMP/in"
check_failure "fg-render -h: '-h' is ambiguous" 1 "option '-h' is ambiguous" "$R" -h "$TMP/in"
check_failure "fg-render --fo=x: '--fo' is ambiguous" 1 "option '--fo' is ambiguous" "$R" --fo=x "$TMP/in"
# ... listing what it could mean, as GNU getopt does: every option of the
# prefix, --help and --version included, and no other.
check_failure "fg-render --he lists --height and --help" 1 \
	"option '--he' is ambiguous; possibilities: '--height' '--help'\$" "$R" --he 20 "$TMP/in"
check_failure "fg-render --fo lists the three --font options" 1 \
	"possibilities: '--fonttype' '--fontsize' '--fontwidth'\$" "$R" --fo=x "$TMP/in"
check_failure "fg-collapse-perf -a lists --all and --addrs" 1 \
	"option '-a' is ambiguous; possibilities: '--all' '--addrs'\$" "$BIN/fg-collapse-perf" -a /dev/null
check "fg-render --hel is --help" sh -c "'$R' --hel | grep -q '^Usage: fg-render'"
check "fg-render --heig 20 is --height" "$R" --heig 20 "$TMP/in" -o "$TMP/h.svg"
check "fg-diff --h is --help" sh -c "'$BIN/fg-diff' --h | grep -q '^Usage: fg-diff'"
check "fg-collapse-stap --v is --version" sh -c "'$BIN/fg-collapse-stap' --v | grep -q '^fg-collapse-stap '"

# One --help style: "Usage:", the same option wording, the exit statuses.
for p in fg-collapse-perf fg-collapse-stap fg-collapse-dtrace fg-collapse-bpftrace fg-collapse fg-render fg-diff; do
	"$BIN/$p" --help >"$TMP/help"
	check "$p --help starts with 'Usage: $p'" sh -c "head -1 '$TMP/help' | grep -q '^Usage: $p '"
	check "$p --help ends with the exit statuses" \
		grep -q '^Exit status: 0 success, 1 usage error, 2 no valid input or I/O error.$' "$TMP/help"
	check "$p --help: --help and --version lines" sh -c \
		"grep -q -- '--help  *display this help and exit' '$TMP/help' && grep -q -- '--version  *display the version and exit' '$TMP/help'"
	check "$p --help says 'one per core'" sh -c "! grep -q 'per CPU' '$TMP/help'"
	if grep -q -- '--jobs' "$TMP/help"; then
		check "$p --help: -j says 0 = one per core" grep -q '0 = one per core' "$TMP/help"
	fi
	check "$p --help: standard output, not stdout" sh -c "! grep -q '(default: stdout)' '$TMP/help'"
done

# A file name or option value made of terminal escapes is shown with '?'
# for each control character (C0, DEL, C1), as ls shows it, in errors,
# warnings and usage errors alike: it must not drive the terminal.
esc=$(printf '\033]0;pwned\007\302\233x\177')
"$R" "$TMP/no-such-$esc" >/dev/null 2>"$TMP/err"
check "a missing file's name is shown without its control characters" \
	grep -qF "no-such-?]0;pwned??x?: " "$TMP/err"
check "... and no control character reaches standard error" \
	sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$TMP/err'"
"$R" --encoding "$esc" "$TMP/in" >/dev/null 2>"$TMP/err"
check "an option's value is shown without its control characters" \
	grep -qF "'?]0;pwned??x?'" "$TMP/err"
printf 'a;b 1\nbad line\n' >"$TMP/bad-$esc"
"$R" "$TMP/bad-$esc" -o "$TMP/bad.svg" 2>"$TMP/err"
check "a warning names its file without control characters" \
	grep -qF "bad-?]0;pwned??x?:2: " "$TMP/err"
# ... a raw C1 byte too (0x9b is CSI to a terminal not in UTF-8 mode, as
# the Linux console; [[:cntrl:]] in the C locale does not see it), each
# byte of no valid UTF-8 sequence, and the bidi controls, which would
# reorder the rest of the line; valid UTF-8 and a tab are kept.
raw=$(printf 'x\233[2Jy\342\200\256z\342\201\246\355\240\200\303\251\tw')
"$R" "$TMP/no-such-$raw" >/dev/null 2>"$TMP/err"
check "a raw C1 byte, invalid UTF-8 and bidi controls are shown as '?'" \
	grep -qF "no-such-x?[2Jy?z????$(printf '\303\251\t')w: " "$TMP/err"
"$R" "--ti$esc" "$TMP/in" >/dev/null 2>"$TMP/err"
check "an unknown option is shown without its control characters" \
	sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$TMP/err' && grep -q 'ti?]0;pwned' '$TMP/err'"

# Each message is one write(2): stderr is unbuffered, and a line written a
# piece at a time mixes with those of other programs writing there.
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
	printf 'a;b 1\nbad line\n' >"$TMP/one-write"
	strace -f -s 500 -e trace=write -o "$TMP/strace" "$R" "$TMP/no-such-$esc" >/dev/null 2>&1
	check_eq "each message to stderr is one write" "1" \
		"$(grep -c 'write(2, ".*no-such-.*No such file or directory\\n"' "$TMP/strace")"
	strace -f -s 500 -e trace=write -o "$TMP/strace" "$R" "$TMP/one-write" >/dev/null 2>&1
	check "... including a warning naming file and line" grep -q 'write(2, ".*one-write:2: .*ignored\\n"' "$TMP/strace"
else
	skip "each message to stderr is one write" "no strace here"
fi
