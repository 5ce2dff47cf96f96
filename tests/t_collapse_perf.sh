#!/usr/bin/env bash
# tests/t_collapse_perf.sh - fg-collapse-perf: the 79 reference cases of
# stackcollapse-perf.pl (with the fixes fg-collapse-perf(1) lists), the real-world
# shapes of tests/fixtures/perf, options, threads, I/O and exit statuses.
. "$(dirname "$0")/lib.sh"

PERF=$BIN/fg-collapse-perf
FIX=$FIXTURES/perf

# ------------------------------------------------------------ reference cases
if have_reference && [ -d "$REFERENCE/collapse-perf" ]; then
	ref=$REFERENCE/collapse-perf
	for input in "$ref"/*.txt; do
		name=$(basename "$input" .txt)
		for option in pid tid kernel jit all addrs; do
			"$PERF" --$option "$input" >"$TMP/out" 2>/dev/null
			check_same "reference $name --$option" "$ref/expected/$name-collapsed-$option.txt" "$TMP/out"
		done
	done
	if "$PERF" "$ref/example-perf-stacks.txt.gz" >"$TMP/out" 2>"$TMP/err" || ! grep -q "built without zlib" "$TMP/err"; then
		check_same "reference example-perf-stacks.txt.gz" "$ref/expected/example-perf-stacks-collapsed.txt" "$TMP/out"
	else
		skip "reference example-perf-stacks.txt.gz" "built without zlib"
	fi
else
	skip_reference "reference cases"
fi

# ---------------------------------------------------------------- fixtures
# fixture EXPECTED INPUT [OPTIONS...]: the output of tests/fixtures/perf/INPUT
# is tests/fixtures/perf/EXPECTED (each one checked by hand against the
# script's rules: its expressions, as collapse_perf.c and perf_line.c
# state them).
fixture() {
	local expected=$1 input=$2
	shift 2
	(cd "$FIX" && "$PERF" "$@" "$input") >"$TMP/out" 2>/dev/null
	check_same "fixture $input $* -> $expected" "$FIX/$expected" "$TMP/out"
}
fixture tidy.folded tidy.perf
fixture tidy-all-addrs-tid.folded tidy.perf --all --addrs --tid
fixture inline.folded inline.perf
fixture inline-inline.folded inline.perf --inline
fixture inline-srcline-srcline.folded inline-srcline.perf --srcline
fixture inline-srcline-context.folded inline-srcline.perf --context
fixture skip-after.folded skip-after.perf
fixture skip-after-main-other.folded skip-after.perf --skip-after main --skip-after other
# Many --skip-after names are a set, each frame looked up once (a list
# compared with every frame made 20,000 names on 200,000 frames take 12 s):
# 4,000 more names, prefixes of main and other among them, change nothing.
many=(--skip-after mai --skip-after othe --skip-after mainx)
for i in $(seq 1 2000); do many+=(--skip-after "f$i"); done
(cd "$FIX" && "$PERF" "${many[@]}" --skip-after main "${many[@]}" --skip-after other skip-after.perf) \
	>"$TMP/out" 2>/dev/null
check_same "fixture skip-after.perf with 4,006 --skip-after names -> skip-after-main-other.folded" \
	"$FIX/skip-after-main-other.folded" "$TMP/out"
(cd "$FIX" && "$PERF" "${many[@]}" skip-after.perf) >"$TMP/out" 2>/dev/null
check_same "fixture skip-after.perf with 2,003 names of no frame -> skip-after.folded" \
	"$FIX/skip-after.folded" "$TMP/out"
fixture merge.folded merge.perf
fixture no-trailing-blank.folded no-trailing-blank.perf
fixture crlf.folded crlf.perf
fixture bad-lines.folded bad-lines.perf
fixture oneline-mixed-pid.folded oneline-mixed.perf --pid
fixture real-gcc.folded real-gcc.perf
fixture real-gcc-all-tid.folded real-gcc.perf --all --tid
fixture real-node-all.folded real-node.perf --all
fixture real-system-all-pid.folded real-system.perf --all --pid
fixture real-tracepoint.folded real-tracepoint.perf
fixture real-tracepoint-write.folded real-tracepoint.perf --event-filter syscalls:sys_enter_write
fixture real-tracepoint-write.folded real-tracepoint.perf --e=syscalls:sys_enter_write
fixture real-oneline-tid.folded real-oneline.perf --tid
fixture real-srcline-srcline.folded real-srcline.perf --srcline
# --srcline and --context on input not from -F+srcline (the original's
# --inline --context was used on plain 'perf script' output): a frame line is
# never taken for the source line of the frame before it (that glued every
# other frame into the name of its callee), and it is reported.
fixture real-gcc.folded real-gcc.perf --context
fixture real-gcc.folded real-gcc.perf --srcline
fixture inline-inline.folded inline.perf --context
sed 's/$/\r/' "$FIX/real-gcc.perf" >"$TMP/real-gcc-crlf.perf"
"$PERF" --context "$TMP/real-gcc-crlf.perf" 2>/dev/null >"$TMP/out"
check_same "--context on plain perf script with CRLF line ends: no frame taken for a source line" \
	"$FIX/real-gcc.folded" "$TMP/out"
(cd "$FIX" && "$PERF" --context real-gcc.perf 2>&1 >/dev/null | head -1) >"$TMP/err"
check_eq "--context on plain perf script: the frame taken for a source line is reported" \
	"fg-collapse-perf: real-gcc.perf:3: a frame where --srcline expects a source line (is the input from 'perf script -F+srcline'?)" \
	"$(cat "$TMP/err")"
# The original's prefixes keep their meaning where fg's own options share
# them: --j is --jit (not --jobs), --s and -s are --srcline (not --skip-after).
fixture real-node-all.folded real-node.perf --k --j
fixture real-srcline-srcline.folded real-srcline.perf --s
fixture real-srcline-srcline.folded real-srcline.perf -s
# ... but -j with one dash is --jobs, in every spelling.
fixture real-node-all.folded real-node.perf --all -j 2
fixture real-node-all.folded real-node.perf --all -j2
fixture real-node-all.folded real-node.perf --all -j=2

# CRLF and LF give the same stacks.
sed 's/$/\r/' "$FIX/tidy.perf" >"$TMP/tidy-crlf.perf"
"$PERF" "$TMP/tidy-crlf.perf" >"$TMP/out" 2>/dev/null
check_same "CRLF input = LF input" "$FIX/tidy.folded" "$TMP/out"

# JIT names with spaces keep them; perf maps get _[j] with --jit.
check_eq "JIT name with spaces" "yes" \
	"$(grep -q 'JS:\*fib /tmp/rec/app.js:1:13_\[j\]' "$FIX/real-node-all.folded" && echo yes)"

# ------------------------------------------------------------- deep stacks
# 5,000 and 100,000 frames: no recursion, nothing quadratic.
for depth in 5000 100000; do
	awk -v d=$depth 'BEGIN { print "deep 1 1.0: 3 cycles:"; for (i = 0; i < d; i++) printf "\t%x f%d+0x1 (/deep)\n", i, i; print "" }' >"$TMP/deep.perf"
	awk -v d=$depth 'BEGIN { printf "deep"; for (i = d - 1; i >= 0; i--) printf ";f%d", i; print " 3" }' >"$TMP/deep.expected"
	"$PERF" "$TMP/deep.perf" >"$TMP/out" 2>/dev/null
	check_same "a $depth-frame stack" "$TMP/deep.expected" "$TMP/out"
done

# ---------------------------------------------------------------- warnings
"$PERF" "$FIX/bad-lines.perf" 2>&1 >/dev/null | sed "s|$FIX/||" >"$TMP/err"
printf '%s\n' "fg-collapse-perf: bad-lines.perf:3: unrecognized line: this line is not perf output" \
	"fg-collapse-perf: bad-lines.perf:6: unrecognized line: garbage" >"$TMP/want"
check_same "bad lines reported as FILE:LINE" "$TMP/want" "$TMP/err"

{ echo "app 1 1.0: 1 cycles:"; for i in $(seq 1 25); do echo "junk $i"; done; } >"$TMP/junk.perf"
"$PERF" "$TMP/junk.perf" 2>&1 >/dev/null | sed "s|$TMP/||" >"$TMP/err"
check_eq "first 10 warnings, then a count" "11 junk.perf:11: unrecognized line: junk 10 15 more warnings not shown" \
	"$(wc -l <"$TMP/err") $(sed -n '10s/^fg-collapse-perf: //p' "$TMP/err") $(sed -n '11s/^fg-collapse-perf: junk.perf: //p' "$TMP/err")"

"$PERF" "$FIX/real-tracepoint.perf" 2>&1 >/dev/null | sed "s|$FIX/||" >"$TMP/err"
check_eq "a second event is reported once" \
	"fg-collapse-perf: real-tracepoint.perf:18: skipping samples of event syscalls:sys_enter_write: only the first event, syscalls:sys_enter_read, is collapsed (see fg-collapse-perf --event-filter)" \
	"$(cat "$TMP/err")"

# perf script --show-task-events: side-band records ("PERF_RECORD_COMM:")
# are no event (the script's expression needs the line's last token to end
# in ':'), so they neither become the event filter nor make samples skipped.
printf 'prog 123 [000] 1.000: PERF_RECORD_COMM: prog:123/123\nprog 123 [000] 1.002: 1 cycles:\n\t1 a (/x)\n\nprog 123 [000] 1.003: PERF_RECORD_COMM: prog:123/124\nprog 124 [000] 1.004: 1 cycles:\n\t1 b (/x)\n\n' >"$TMP/comm.perf"
"$PERF" "$TMP/comm.perf" >"$TMP/out" 2>"$TMP/err"
check_eq "PERF_RECORD_COMM lines are no event" "prog;a 1|prog;b 1|" "$(tr '\n' '|' <"$TMP/out")$(cat "$TMP/err")"

# Nor are they samples: the process exits last ("PERF_RECORD_EXIT" ends the
# input, no blank line after it), and between samples printed one to a line
# (no call chains; the comm padded, as on their headers) a record must not
# count as a stack of the process name alone, nor, first, hide that mode.
printf 'prog 123 [000] 1.002: 1 cycles:\n\t1 a (/x)\n\nprog 123 [000] 1.009: PERF_RECORD_EXIT(123:123):(1:1)\n' >"$TMP/exit.perf"
"$PERF" "$TMP/exit.perf" >"$TMP/out" 2>"$TMP/err"
check_eq "PERF_RECORD_EXIT last is no sample" "prog;a 1|" "$(tr '\n' '|' <"$TMP/out")$(cat "$TMP/err")"
printf '%16s 123 [000] 1.000: PERF_RECORD_COMM exec: prog:123/123\n%16s 123 [000] 1.001: 1 cycles:  1 a (/x)\n%16s 123 [000] 1.002: PERF_RECORD_MMAP2 123/123: [0x7f00(0x1000) @ 0 08:01 9 0]: r-xp /x\n%16s 123 [000] 1.003: 1 cycles:  2 b (/x)\n%16s 123 [000] 1.004: PERF_RECORD_EXIT(123:123):(1:1)\n' prog prog prog prog prog >"$TMP/side.perf"
"$PERF" "$TMP/side.perf" >"$TMP/out" 2>"$TMP/err"
check_eq "side-band records between one-line samples" "prog;a 1|prog;b 1|" "$(tr '\n' '|' <"$TMP/out")$(cat "$TMP/err")"
"$BIN/fg-collapse" "$TMP/side.perf" >"$TMP/out" 2>"$TMP/err"
check_eq "side-band records between one-line samples, fg-collapse" "prog;a 1|prog;b 1|" "$(tr '\n' '|' <"$TMP/out")$(cat "$TMP/err")"

# A module replaced after it was loaded: "(/usr/lib/libx.so.1 (deleted))"
# is that module (the original keeps "foo+0x1 " and loses the module).
printf 'p 5 1.0: 1 cycles:\n\t7f01 foo+0x1 (/usr/lib/libx.so.1 (deleted))\n\t7f02 [unknown] (/usr/lib/liby.so (deleted))\n\t7f03 bar (deleted))\n\n' >"$TMP/deleted.perf"
check_eq "modules marked (deleted)" "p;bar;[liby.so];foo 1" "$("$PERF" "$TMP/deleted.perf" 2>&1)"
check_eq "modules marked (deleted), --addrs" "p;bar;[liby.so <7f02>];foo 1" "$("$PERF" --addrs "$TMP/deleted.perf" 2>&1)"

# An --event-filter naming an event the input lacks: the message says so.
printf 'p 1 1.0: 1 cycles:\n\t1 a (/x)\n\n' >"$TMP/cycles.perf"
check_failure "--event-filter of an event not in the input: named in the message" 2 \
	"^fg-collapse-perf: no stacks found in the input (no samples of event instructions, which --event-filter asks for)$" \
	"$PERF" --event-filter instructions "$TMP/cycles.perf"
check_failure "no filter, no stacks: the plain message" 2 "^fg-collapse-perf: no stacks found in the input$" \
	"$PERF" /dev/null
# A long filter is cut in the message between two UTF-8 characters.
long=a$(printf 'é%.0s' $(seq 150))
"$PERF" --event-filter "$long" "$TMP/cycles.perf" 2>&1 >/dev/null | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1
check_eq "a long --event-filter in the message: still valid UTF-8" 0 $?

# ----------------------------------------------------------------- threads
# Any -j gives the same bytes, on stdout and stderr. The input is big enough
# to be cut into ranges (several MB), and has every shape: references,
# fixtures, one-line samples, CRLF, bad lines (warnings with line numbers).
{
	for i in $(seq 1 12); do
		cat "$FIX"/real-*.perf "$FIX"/tidy.perf "$FIX"/merge.perf "$TMP/tidy-crlf.perf"
		if have_reference; then cat "$REFERENCE"/collapse-perf/*.txt; fi
		echo "junk line $i"
		echo
	done
} >"$TMP/mix.perf"
for options in "" "--all --tid" "--srcline --inline"; do
	"$PERF" -j 1 $options "$TMP/mix.perf" >"$TMP/j1.out" 2>"$TMP/j1.err"
	for j in 2 4 7; do
		"$PERF" -j $j $options "$TMP/mix.perf" >"$TMP/jn.out" 2>"$TMP/jn.err"
		check_same "-j 1 = -j $j ($options) stdout" "$TMP/j1.out" "$TMP/jn.out"
		check_same "-j 1 = -j $j ($options) stderr" "$TMP/j1.err" "$TMP/jn.err"
	done
done
# One-line samples (no blank lines at all): cut at sample headers.
for i in $(seq 1 3000); do cat "$FIX/real-oneline.perf"; done >"$TMP/oneline.perf"
"$PERF" -j 1 "$TMP/oneline.perf" >"$TMP/j1.out" 2>&1
"$PERF" -j 3 "$TMP/oneline.perf" >"$TMP/jn.out" 2>&1
check_same "-j 1 = -j 3 on one-line samples" "$TMP/j1.out" "$TMP/jn.out"
check_eq "one-line samples all counted" "inl;outer $((44088176 * 3000))" "$(cat "$TMP/j1.out")"

# -------------------------------------------------------------------- I/O
gzip -c "$FIX/tidy.perf" >"$TMP/tidy.perf.gz"
if "$PERF" "$TMP/tidy.perf.gz" 2>&1 >/dev/null | grep -q "built without zlib"; then
	skip "gzip input" "built without zlib"
	check_status "gzip input without zlib: exit status 2" 2 "$PERF" "$TMP/tidy.perf.gz"
else
	"$PERF" "$TMP/tidy.perf.gz" >"$TMP/out" 2>/dev/null
	check_same "gzip input" "$FIX/tidy.folded" "$TMP/out"
	"$PERF" - <"$TMP/tidy.perf.gz" >"$TMP/out" 2>/dev/null
	check_same "gzip on stdin" "$FIX/tidy.folded" "$TMP/out"
fi

"$PERF" "$FIX/skip-after.perf" "$FIX/skip-after.perf" >"$TMP/out" 2>/dev/null
check_eq "several inputs add up" "app;_start;__libc_start_main;main;leaf 2|app;_start;other;helper;leaf 2" \
	"$(paste -sd'|' "$TMP/out")"
# An input's last sample ends with the input, even without a blank line.
"$PERF" "$FIX/no-trailing-blank.perf" "$FIX/no-trailing-blank.perf" >"$TMP/out" 2>/dev/null
check_eq "inputs do not run into each other" "app;main;leaf 10" "$(cat "$TMP/out")"

echo "old" >"$TMP/atomic.folded"
"$PERF" -o "$TMP/atomic.folded" "$FIX/tidy.perf" 2>/dev/null
check_same "-o FILE" "$FIX/tidy.folded" "$TMP/atomic.folded"
check_eq "-o leaves no temporary file" "atomic.folded" "$(cd "$TMP" && ls atomic.folded* | paste -sd' ')"
mkdir -p "$TMP/ro" && echo "old" >"$TMP/ro/out.folded" && chmod 555 "$TMP/ro"
if [ "$(id -u)" != 0 ]; then
	check_status "-o into a read-only directory fails" 2 "$PERF" -o "$TMP/ro/out.folded" "$FIX/tidy.perf"
	check_eq "-o keeps the old file on failure" "old" "$(cat "$TMP/ro/out.folded")"
else
	skip "-o into a read-only directory" "running as root"
fi
chmod 755 "$TMP/ro"

# ------------------------------------------------------------ exit status
check_status "exit 0 on success" 0 "$PERF" "$FIX/tidy.perf"
check_status "exit 0 with warnings" 0 "$PERF" "$FIX/bad-lines.perf"
check_status "exit 1 on an unknown option" 1 "$PERF" --bogus "$FIX/tidy.perf"
check_status "exit 1 on an ambiguous prefix (--a: addrs, all)" 1 "$PERF" --a "$FIX/tidy.perf"
check_status "exit 1 on a bad -j" 1 "$PERF" -j x "$FIX/tidy.perf"
check_status "exit 2 on a missing file" 2 "$PERF" "$TMP/missing.perf"
check_status "exit 2 on input without stacks" 2 "$PERF" /dev/null
check_status "exit 0 on --help" 0 "$PERF" --help
check_status "exit 0 on --version" 0 "$PERF" --version
echo old >"$TMP/out"
"$PERF" -o "$TMP/out" "$FIX/skip-after.perf" "$TMP/missing.perf" 2>/dev/null
check_eq "a missing file stops the run and -o keeps the old file (as every fg program)" "old" "$(cat "$TMP/out")"
"$PERF" --k --p "$FIX/tidy.perf" >"$TMP/out" 2>/dev/null
check_eq "unique prefixes: --k --p" "swapper-?;cpu_idle_[k] 1" "$(tail -n 1 "$TMP/out")"

# Warnings quote the line safely: control characters and bytes that are
# not UTF-8 become '?', UTF-8 stays.
printf 'app 1 1.0: 1 cycles:\n\t1 f (/x)\nfun\xc3\xa7\xc3\xa3o \xff\x1b[31m\n' >"$TMP/bytes.perf"
check_eq "warnings are safe for a terminal" \
	"fg-collapse-perf: bytes.perf:3: unrecognized line: função ??[31m" \
	"$("$PERF" "$TMP/bytes.perf" 2>&1 >/dev/null | sed "s|$TMP/||")"

# ------------------------------------------- runs of spaces (issue 12)
# The header matcher tries a run of spaces once as the comm's end: a comm
# followed by many spaces is still a header, a run not followed by a PID is
# still no header, and a 200,000-space line is read (once quadratic: 83 s).
s=$(printf '%2000s' '')
printf 'java%s1234 1.5: 3 cycles: \n\tffff main+0x1 (/bin/app)\n\nx%sy z%s5 1.0: cycles:\n\tffff f (/bin/app)\n\n' "$s" "$s" "$s" >"$TMP/spaces.txt"
check_eq "spaces: a comm followed by 2,000 spaces is a header (spaces in a comm become _)" "java;main 3
x$(echo "$s" | tr ' ' _)y_z;f 1" "$("$PERF" "$TMP/spaces.txt" 2>/dev/null)"
python3 -c "import sys; sys.stdout.write('x' + ' ' * 200000 + 'y\n\tffff f (m)\n\n')" >"$TMP/long-spaces.txt"
"$PERF" "$TMP/long-spaces.txt" >"$TMP/out" 2>"$TMP/err"
check "spaces: a 200,000-space line is read (reported as unrecognized)" grep -q "unrecognized line" "$TMP/err"
