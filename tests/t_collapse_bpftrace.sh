#!/usr/bin/env bash
# fg-collapse-bpftrace: the 17 reference captures (where the original
# stackcollapse-bpftrace.pl is right: the same stacks, summed and sorted;
# where it is wrong, each case named after the list of the original's
# mistakes in the reference data, ../shared/reference; see also
# fg-collapse-bpftrace(1), DIFFERENCES), the frame and key rules on committed fixtures
# (tests/fixtures/bpftrace), an independent model (tests/tools/
# bpftrace_oracle.awk), CRLF, gzip, several inputs, -j, -o, exit statuses.
. "$(dirname "$0")/lib.sh"

BPF=$BIN/fg-collapse-bpftrace
F=$FIXTURES/bpftrace
ORACLE=$FG_ROOT/tests/tools/bpftrace_oracle.awk

# sum_sort: folded lines in any order -> equal stacks summed, sorted bytewise.
sum_sort() {
	awk '{ c = $NF; sub(/ [^ ]*$/, ""); if (!($0 in s)) s[$0] = 0; s[$0] += c }
	     END { for (k in s) printf "%s %d\n", k, s[k] }' "$@" | LC_ALL=C sort
}
# double: folded lines with every count doubled (an empty stack stays empty).
double() { awk '{ n = $NF; sub(/[0-9]+$/, ""); print $0 (2 * n) }' "$@"; }
# no_offsets: "func+123" -> "func" in every frame of folded lines.
no_offsets() { sed -E 's/\+[0-9]+(;| [0-9]+$)/\1/g; s/\+[0-9]+(;| [0-9]+$)/\1/g' "$@"; }

# run NAME ARGS...: runs fg-collapse-bpftrace, output in $TMP/out, stderr in
# $TMP/err, exit status in $status.
run() { "$BPF" "$@" >"$TMP/out" 2>"$TMP/err"; status=$?; }

# --- the reference captures ------------------------------------------------
R=$REFERENCE/collapse-bpftrace
if [ -d "$R" ] && [ -f "$R/ORIGINAL.md" ]; then
	# Where the original is right: its stacks, summed and sorted
	# (--includeoffset: it keeps offsets), and without offsets by default.
	for name in bpftrace-refguide-kstack bpftrace-refguide-ustack \
		bpftrace-refguide-watchpoint-kstack bpftrace-tutorial-noindent \
		martins3-asahi-arm64-kstack martins3-kvm-annotated martins3-qemu-ustack \
		martins3-shell-session; do
		sum_sort "$R/expected/$name.txt" >"$TMP/want"
		run --includeoffset "$R/$name.txt"
		check_eq "reference $name: exit status 0" 0 "$status"
		check_same "reference $name --includeoffset: the original's stacks, summed and sorted" \
			"$TMP/want" "$TMP/out"
		check_eq "reference $name: no warnings" "" "$(cat "$TMP/err")"
		no_offsets "$R/expected/$name.txt" | sum_sort >"$TMP/want"
		run "$R/$name.txt"
		check_same "reference $name: offsets removed by default" "$TMP/want" "$TMP/out"
	done
	# 11 (unsorted, unmerged): qemu-ustack has two entries with one stack.
	check_eq "reference martins3-qemu-ustack: original bug 11, equal stacks printed twice, summed here" \
		"$(($(wc -l <"$R/expected/martins3-qemu-ustack.txt") - 1))" \
		"$("$BPF" --includeoffset "$R/martins3-qemu-ustack.txt" | wc -l)"

	# Original bug 4 (blank lines of perf and raw modes become empty frames:
	# a leading ';') and 11 (perf mode keeps each frame's address).
	sed -E 's/^;//; s/(^|;)[0-9a-f]{16} /\1/g' "$R/expected/bpftrace-refguide-kstack-perf.txt" |
		no_offsets >"$TMP/want"
	run "$R/bpftrace-refguide-kstack-perf.txt"
	check_same "reference bpftrace-refguide-kstack-perf: original bugs 4 and 11, no empty frame, no addresses" \
		"$TMP/want" "$TMP/out"
	sed 's/^;//' "$R/expected/bpftrace-refguide-kstack-raw.txt" >"$TMP/want"
	run "$R/bpftrace-refguide-kstack-raw.txt"
	check_same "reference bpftrace-refguide-kstack-raw: original bug 4, no empty frame, bare addresses kept" \
		"$TMP/want" "$TMP/out"

	# Original bug 5: "@[]: N" (an empty kernel stack) was dropped; it is
	# kept as an empty-stack line " N", all such entries summed.
	for name in inferno-input2-kstack inferno-input3-kstack martins3-aarch64-empty-key; do
		{
			cat "$R/expected/$name.txt"
			awk '/^@\[\]: [0-9]+$/ { sub(/^@\[\]: /, ""); print " " $0 }' "$R/$name.txt"
		} | sum_sort >"$TMP/want"
		run --includeoffset "$R/$name.txt"
		check_same "reference $name: original bug 5, the empty stacks (@[]: N) kept as ' N'" \
			"$TMP/want" "$TMP/out"
		check "reference $name: an empty-stack line is there" grep -q '^ [0-9]*$' "$TMP/out"
		check_eq "reference $name: no warnings" "" "$(cat "$TMP/err")"
	done

	# Original bugs 1 (named maps lost: @reads[, @bio_backmerge[) and 2
	# (a stack after other key fields lost), against the independent model.
	for name in martins3-thp-named-map ming1-named-kstack-comm ming1-probe-keys-then-kstack; do
		check_eq "reference $name: the original printed nothing" 0 "$(wc -c <"$R/expected/$name.txt")"
		awk -f "$ORACLE" "$R/$name.txt" | sum_sort >"$TMP/want"
		run --includeoffset "$R/$name.txt"
		check "reference $name: stacks found" test -s "$TMP/out"
		check_same "reference $name: original bugs 1 and 2, every entry kept (the model agrees)" \
			"$TMP/want" "$TMP/out"
	done
	check_eq "reference ming1-named-kstack-comm: the comm after the stack is the root frame" \
		"fio;entry_SYSCALL_64_after_hwframe;do_syscall_64" \
		"$("$BPF" "$R/ming1-named-kstack-comm.txt" | cut -d';' -f1-3)"
	check_eq "reference ming1-probe-keys-then-kstack: the fields before the stack, in key order" \
		"kfunc:vmlinux:fput;ublkb20;ublk.loop;entry_SYSCALL_64_after_hwframe" \
		"$("$BPF" "$R/ming1-probe-keys-then-kstack.txt" | cut -d';' -f1-4)"

	# Original bugs 1 and 6: @usecs[kstack] = hist() is a named map of
	# histograms; no stack is made of it, and one warning names it.
	run "$R/bpftrace-biostacks-hist.txt"
	check_eq "reference bpftrace-biostacks-hist: original bug 6, histograms give no stacks (exit 2)" \
		"2 0" "$status $(wc -c <"$TMP/out")"
	check_eq "reference bpftrace-biostacks-hist: one warning names the map" 1 \
		"$(grep -c 'map @usecs holds histograms' "$TMP/err")"

	# The model agrees on every reference capture it can read.
	for f in "$R"/*.txt; do
		case $(basename "$f") in bpftrace-refguide-kstack-perf.txt | bpftrace-refguide-kstack-raw.txt | \
			bpftrace-biostacks-hist.txt) continue ;; esac
		awk -f "$ORACLE" "$f" | sum_sort >"$TMP/want"
		"$BPF" --includeoffset "$f" >"$TMP/out" 2>/dev/null
		check_same "reference $(basename "$f" .txt): the independent model agrees" "$TMP/want" "$TMP/out"
	done

	# Original bug 7: CRLF input gave nothing.
	sed 's/$/\r/' "$R/inferno-input2-kstack.txt" >"$TMP/crlf.txt"
	"$BPF" "$R/inferno-input2-kstack.txt" >"$TMP/lf.out"
	run "$TMP/crlf.txt"
	check_same "reference inferno-input2-kstack with CRLF: original bug 7, the same stacks" "$TMP/lf.out" "$TMP/out"

	# Several inputs and -j: counts add, any number of threads, same bytes.
	for f in "$R"/*.txt; do cat "$f"; done >"$TMP/all.txt"
	for _ in $(seq 1 40); do cat "$TMP/all.txt"; done >"$TMP/many.txt"
	"$BPF" -j 1 "$TMP/many.txt" >"$TMP/j1.out" 2>"$TMP/j1.err"
	for j in 2 3 8 0; do
		"$BPF" -j "$j" "$TMP/many.txt" >"$TMP/jn.out" 2>"$TMP/jn.err"
		check_same "all references x40: -j $j output equals -j 1" "$TMP/j1.out" "$TMP/jn.out"
		check_same "all references x40: -j $j warnings equal -j 1" "$TMP/j1.err" "$TMP/jn.err"
	done
	"$BPF" "$TMP/all.txt" "$TMP/all.txt" >"$TMP/two.out" 2>/dev/null
	"$BPF" "$TMP/all.txt" 2>/dev/null | double >"$TMP/two.want"
	check_same "all references: two files, counts added" "$TMP/two.want" "$TMP/two.out"
else
	skip_reference "bpftrace reference captures ($R)"
fi

# --- frame and key rules, from committed fixtures ----------------------------
cd "$F" || exit 1
run rules.txt
check_eq "fixture rules: exit status 0, no warnings" "0 " "$status $(cat "$TMP/err")"
check_same "fixture rules: frames, keys, named maps, empty stacks" rules.expected.txt "$TMP/out"
run --includeoffset rules.txt
check_same "fixture rules --includeoffset" rules.includeoffset.expected.txt "$TMP/out"
run malformed.txt
check_eq "fixture malformed: exit status 0 (bad entries are warnings)" 0 "$status"
check_same "fixture malformed: only the good entry" malformed.expected.txt "$TMP/out"
check_same "fixture malformed: one warning per bad entry, one per map of histograms or stats, file:line" \
	malformed.expected.err "$TMP/err"

# Each rule on its own line of rules.expected.txt, named after the original's bugs.
has() { grep -qxF -- "$2" rules.expected.txt && pass "$1" || fail "$1" "no line '$2'"; }
has "bug 1: a named map (@cpu[) is folded" "cpumain;cpuleaf 2"
has "bug 2: fields before the stack become root frames in key order" \
	"tracepoint:block:block_rq_issue;sda;1234;scsi_queue_rq;blk_mq_start_request 11"
has "bug 3: no ', ' frame; 10 (key order kept): @[kstack, ustack, comm] is comm, user root..leaf, kernel root..leaf" \
	"bash;uroot;uleaf;kroot;kleaf 6"
has "bug 3 and 5: an empty first stack (@[, ) adds nothing" "bash;uroot;uleaf 2"
has "bug 5: an empty second stack (, , bash]) adds nothing" "bash;kroot;kleaf 1"
has "bug 5: @[]: 248 and @[ + ]: 2 are one empty stack" " 250"
has "bug 5: @[, bash]: 7 and @both[, , bash]: 9 are the stack 'bash'" "bash 16"
has "bug 4: perf mode, the blank line is no frame, addresses and (module) go" \
	"__libc_write;do_syscall_64;do_mmap 10"
has "bug 4: raw mode, bare addresses stay" "ffffffffb3e03ae3;ffffffffb4019501 4"
has "bug 7: '@[ ' with a trailing space opens an entry" "spaced 1"
has "bug 7: an indented '  @[' opens an entry" "indented 1"
has "bug 8: ';' in a frame becomes ':'; [unknown], bare hex, operator+ stay" \
	"main;operator+;Lfoo/Bar:::baz;[unknown];0x61ce258d4c544155 3"
has "bug 11: equal stacks summed (leaf+12 five times and seven times, 007 read as 7)" "main;mid;leaf 12"
has "bug 11: two spaces before a field are not part of it (,  bash]: 1)" "bash;leaf 1"
has "a field between two stacks, and after them" "kworker;42;cpu3;uleaf;leaf 1"
has "white space before a removed +OFF or (module) goes too" "modpadded;padded 1"
check "one-line maps without a stack (@[sys_read]: 5, @: 3) are not folded" \
	sh -c "! grep -q 'sys_read\\|987654321' rules.expected.txt"

# CRLF, gzip, stdin, several inputs.
sed 's/$/\r/' rules.txt >"$TMP/crlf.txt"
run "$TMP/crlf.txt"
check_same "fixture rules with CRLF: original bug 7, the same output" rules.expected.txt "$TMP/out"
"$BPF" <rules.txt >"$TMP/stdin.out"
check_same "fixture rules from stdin" rules.expected.txt "$TMP/stdin.out"
gzip -c rules.txt >"$TMP/rules.txt.gz"
if "$BPF" "$TMP/rules.txt.gz" >"$TMP/gz.out" 2>"$TMP/gz.err"; then
	check_same "fixture rules, gzip input" rules.expected.txt "$TMP/gz.out"
elif grep -q zlib "$TMP/gz.err"; then
	skip "bpftrace gzip input" "built without zlib"
else
	fail "bpftrace gzip input" "$(cat "$TMP/gz.err")"
fi
double rules.expected.txt >"$TMP/double.want"
"$BPF" rules.txt - <rules.txt >"$TMP/double.out"
check_same "a file and - (stdin): counts added" "$TMP/double.want" "$TMP/double.out"
# An entry cut off at the end of one input is not continued by the next.
printf '@[\n    a+1\n' >"$TMP/cut.txt"
printf '    b+1\n]: 5\n' >"$TMP/rest.txt"
run "$TMP/cut.txt" "$TMP/rest.txt"
check_eq "inputs do not continue each other: the cut entry is reported with file:line" \
	"fg-collapse-bpftrace: $TMP/cut.txt:2: map @: the entry of the last 2 lines has no ']:' line (the input is cut off): ignored
fg-collapse-bpftrace: no stacks found in the input" "$(cat "$TMP/err")"
check_eq "inputs do not continue each other: nothing folded (exit 2)" "2 0" "$status $(wc -c <"$TMP/out")"

# -j on a larger fixture input (many blocks, entries across block ends).
for _ in $(seq 1 3000); do cat rules.txt malformed.txt; done >"$TMP/big.txt"
"$BPF" -j 1 "$TMP/big.txt" >"$TMP/bj1.out" 2>"$TMP/bj1.err"
for j in 2 5 0; do
	"$BPF" -j "$j" "$TMP/big.txt" >"$TMP/bjn.out" 2>"$TMP/bjn.err"
	check_same "fixtures x3000: -j $j output equals -j 1" "$TMP/bj1.out" "$TMP/bjn.out"
	check_same "fixtures x3000: -j $j warnings equal -j 1" "$TMP/bj1.err" "$TMP/bjn.err"
done
check_eq "fixtures x3000: the histogram map is named once in the whole run" 1 \
	"$(grep -c 'map @usecs holds histograms' "$TMP/bj1.err")"
check_eq "fixtures x3000: counts are 3000 times the fixture's" "main;mid;leaf 36000" \
	"$(grep '^main;mid;leaf ' "$TMP/bj1.out")"

# -o: atomic, the old file kept on failure.
echo old >"$TMP/result.folded"
"$BPF" -o "$TMP/result.folded" rules.txt
check_same "-o FILE" rules.expected.txt "$TMP/result.folded"
"$BPF" -o "$TMP/result.folded" "$TMP/missing.txt" 2>/dev/null
check_same "-o: an unreadable input leaves the old file" rules.expected.txt "$TMP/result.folded"

# Exit statuses and messages (original bug 9: an unreadable file exited 0).
check_status "a missing file is an I/O error (2): original bug 9" 2 "$BPF" "$TMP/missing.txt"
"$BPF" "$TMP/missing.txt" 2>"$TMP/missing.err"
check "a missing file: the message names the program and the file" \
	grep -q "^fg-collapse-bpftrace: .*missing.txt: No such file" "$TMP/missing.err"
check_status "unknown option is a usage error (1)" 1 "$BPF" --bogus
check_status "-j -1 is a usage error (1)" 1 "$BPF" -j -1 rules.txt
check_status "empty input is no valid input (2)" 2 "$BPF" /dev/null
check_status "--help (0)" 0 "$BPF" --help
check "--help shows the synopsis" sh -c "'$BPF' --help | grep -q '^Usage: fg-collapse-bpftrace \\[--includeoffset\\]'"
check_eq "--version" "fg-collapse-bpftrace $("$BPF" --version | awk '{print $2}')" "$("$BPF" --version)"

# Hostile input: a 100,000-frame stack, binary garbage.
awk 'BEGIN { print "@["; for (i = 100000; i > 0; i--) printf "    f%d+1\n", i; print "]: 1" }' >"$TMP/deep.txt"
"$BPF" "$TMP/deep.txt" >"$TMP/deep.out"
check_eq "a 100,000-frame stack" 100000 "$(tr ';' '\n' <"$TMP/deep.out" | wc -l)"
head -c 200000 /dev/urandom >"$TMP/random.bin"
"$BPF" "$TMP/random.bin" >/dev/null 2>&1
status=$?
check "random bytes do not crash" test "$status" -lt 3
