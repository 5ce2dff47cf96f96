#!/usr/bin/env bash
# t_cli.sh - the command-line contract every fg program keeps (issue 6):
# --help matches the man page's SYNOPSIS (every option of one is in the
# other), --version prints "NAME VERSION", an unknown option is a usage
# error (exit 1) with a message, "--opt=value" equals "--opt value", and
# "-" reads standard input. Runs over every program in the build directory,
# so a new program is held to it as soon as it is built.
. "$(dirname "$0")/lib.sh"

version=$(sed -n 's/^#define FG_VERSION "\(.*\)"/\1/p' "$FG_ROOT/include/folded.h")

# options_of_synopsis MANPAGE: the options of the SYNOPSIS section, one a line
# (".Op Fl \-title Ar TEXT" gives --title, ".Op Fl o Ar FILE" gives -o).
options_of_synopsis() {
	python3 - "$1" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
m = re.search(r"^\.Sh SYNOPSIS\n(.*?)^\.Sh ", text, re.S | re.M)
for line in (m.group(1) if m else "").splitlines():
    words = line.replace("\\-", "-").split()
    for i, word in enumerate(words[:-1]):
        if word == "Fl":
            flag = re.match(r"-?[A-Za-z0-9][A-Za-z0-9-]*", words[i + 1])
            if flag:
                print("-" + flag.group(0))
EOF
}

# options_of_help FILE: the options --help lists, one group of aliases a
# line ("-o --output"): those of the usage lines (up to the first blank
# line) one by one, and those that begin an indented description line.
options_of_help() {
	python3 - "$1" <<'EOF'
import re, sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
option = r"--?[A-Za-z0-9][A-Za-z0-9-]*"
usage = True
for line in lines:
    if not line.strip():
        usage = False
        continue
    if usage:
        for o in re.findall(r"(?:^|[\s\[|(])(" + option + ")", line):
            print(o)
    elif re.match(r"\s+-", line):
        # "  -o, --output FILE  text": the options before the description.
        head = re.split(r"(?<=\S)\s{2,}", line.strip() + "  ", 1)[0]
        aliases = [o for o in re.findall(r"(?:^|[\s,])(" + option + ")", " " + head)]
        if aliases:
            print(" ".join(aliases))
EOF
}

# A small valid input for each program, and an option taking a value.
input_of() {
	case $1 in
	fg-collapse-perf) echo "$FIXTURES/perf/merge.perf" ;;
	fg-collapse-dtrace) echo "$FIXTURES/dtrace/rules.txt" ;;
	fg-collapse-stap) echo "$FIXTURES/stap/rules.txt" ;;
	fg-collapse-bpftrace) echo "$FIXTURES/bpftrace/rules.txt" ;;
	fg-collapse) echo "$FIXTURES/detect/bpftrace-prompt.txt" ;;
	fg-render) echo "$FIXTURES/render/basic.folded" ;;
	fg-diff) echo "$FIXTURES/diff/before.folded" ;;
	esac
}

programs=()
for p in "$BIN"/fg-*; do [ -x "$p" ] && [ -f "$p" ] && programs+=("$(basename "$p")"); done
[ ${#programs[@]} -gt 0 ] || fail "programs in $BIN" "none built: run make"

for p in "${programs[@]}"; do
	exe=$BIN/$p

	# --help: exit 0, text on stdout, nothing on stderr.
	"$exe" --help >"$TMP/help" 2>"$TMP/help.err"
	status=$?
	if [ "$status" = 0 ] && [ -s "$TMP/help" ] && [ ! -s "$TMP/help.err" ]; then
		pass "$p --help exits 0, prints to stdout"
	else
		fail "$p --help exits 0, prints to stdout" "exit status $status" "$(cat "$TMP/help.err")"
	fi

	# --help against the man page's SYNOPSIS, both ways.
	page=$FG_ROOT/man/$p.1
	if [ ! -f "$page" ]; then
		skip "$p --help matches its man page" "man/$p.1 is missing"
	else
		options_of_synopsis "$page" | sort -u >"$TMP/synopsis"
		options_of_help "$TMP/help" >"$TMP/help.options"
		if [ ! -s "$TMP/synopsis" ]; then
			fail "$p: options found in the SYNOPSIS of man/$p.1" "none: is there a .Sh SYNOPSIS with Fl macros?"
		fi
		missing=()
		while read -r o; do
			grep -qE -- "(^| )$o( |$)" "$TMP/help.options" || missing+=("$o")
		done <"$TMP/synopsis"
		if [ ${#missing[@]} = 0 ]; then
			pass "$p: every SYNOPSIS option is in --help"
		else
			fail "$p: every SYNOPSIS option is in --help" "missing from --help: ${missing[*]}"
		fi
		extra=()
		while read -r group; do
			found=false
			for o in $group; do
				case $o in --help | --version) found=true ;; esac
				grep -qxF -- "$o" "$TMP/synopsis" && found=true
			done
			$found || extra+=("$group")
		done <"$TMP/help.options"
		if [ ${#extra[@]} = 0 ]; then
			pass "$p: every --help option is in the SYNOPSIS"
		else
			fail "$p: every --help option is in the SYNOPSIS" "missing from man/$p.1: ${extra[*]}"
		fi
		absent=()
		for section in DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
			grep -qx "\.Sh $section" "$page" || absent+=("$section")
		done
		if [ ${#absent[@]} = 0 ]; then
			pass "$p: man page has DESCRIPTION, OPTIONS, EXIT STATUS, EXAMPLES, SEE ALSO"
		else
			fail "$p: man page has DESCRIPTION, OPTIONS, EXIT STATUS, EXAMPLES, SEE ALSO" "missing: ${absent[*]}"
		fi
	fi

	# --version: "NAME VERSION" alone, exit 0.
	out=$("$exe" --version 2>&1)
	status=$?
	if [ "$status" = 0 ] && [ "$out" = "$p $version" ]; then
		pass "$p --version prints '$p $version'"
	else
		fail "$p --version prints '$p $version'" "exit status $status, output: $out"
	fi

	# As Getopt::Long: -hel and -vers (one dash, a prefix) are --help and
	# --version; a value given them is refused; output that cannot be
	# written is an I/O error (exit 2), as for any other output.
	"$exe" -hel >"$TMP/hel" 2>&1
	check_same "$p -hel is --help" "$TMP/help" "$TMP/hel"
	check_eq "$p -vers is --version" "$p $version" "$("$exe" -vers 2>&1)"
	check_failure "$p --help=x is refused" 1 "option '--help=x' takes no value" "$exe" --help=x
	check_failure "$p --version=1 is refused" 1 "option '--version=1' takes no value" "$exe" --version=1
	if [ -w /dev/full ]; then
		check_failure "$p --help to a full disk exits 2" 2 "$p: standard output: write failed" \
			sh -c '"$1" --help >/dev/full' sh "$exe"
		check_failure "$p --version to a full disk exits 2" 2 "$p: standard output: write failed" \
			sh -c '"$1" --version >/dev/full' sh "$exe"
	fi

	# An unknown option: exit 1, a message naming it on stderr, nothing on stdout.
	"$exe" --no-such-option "$TMP/none" >"$TMP/out" 2>"$TMP/err"
	status=$?
	if [ "$status" = 1 ] && grep -q -- "$p: .*--no-such-option" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		pass "$p: unknown option is a usage error (exit 1, message)"
	else
		fail "$p: unknown option is a usage error (exit 1, message)" "exit status $status" "$(cat "$TMP/err")"
	fi
	check_status "$p: -Z (unknown short option) exits 1" 1 "$exe" -Z

	input=$(input_of "$p")
	if [ -z "$input" ]; then
		skip "$p: --opt=value, -o and - (stdin)" "no sample input known to t_cli.sh"
		continue
	fi
	second=()
	[ "$p" = fg-diff ] && second=("$FIXTURES/diff/after.folded")

	# -o FILE, --output=FILE, --output FILE and --out FILE (a unique prefix)
	# write what stdout gets.
	"$exe" "$input" "${second[@]}" >"$TMP/stdout" 2>/dev/null
	"$exe" -o "$TMP/o1" "$input" "${second[@]}" 2>/dev/null
	"$exe" --output="$TMP/o2" "$input" "${second[@]}" 2>/dev/null
	"$exe" --output "$TMP/o3" "$input" "${second[@]}" 2>/dev/null
	"$exe" --out "$TMP/o4" "$input" "${second[@]}" 2>/dev/null
	if [ -s "$TMP/stdout" ] && cmp -s "$TMP/stdout" "$TMP/o1" && cmp -s "$TMP/o1" "$TMP/o2" &&
		cmp -s "$TMP/o2" "$TMP/o3" && cmp -s "$TMP/o3" "$TMP/o4"; then
		pass "$p: -o F, --output=F, --output F, --out F and stdout agree"
	else
		fail "$p: -o F, --output=F, --output F, --out F and stdout agree" "$(ls -l "$TMP"/stdout "$TMP"/o[1-4] 2>&1)"
	fi
	# An option with a value that changes the output, both spellings.
	case $p in
	fg-render) value_option=(--title "T i t l e") ;;
	fg-collapse-perf) value_option=(--event-filter cycles) ;;
	fg-collapse-*) value_option=(--jobs 2) ;;
	*) value_option=() ;;
	esac
	if [ ${#value_option[@]} = 2 ]; then
		"$exe" "${value_option[0]}" "${value_option[1]}" "$input" >"$TMP/v1" 2>&1
		"$exe" "${value_option[0]}=${value_option[1]}" "$input" >"$TMP/v2" 2>&1
		check_same "$p: ${value_option[0]}=VALUE equals ${value_option[0]} VALUE" "$TMP/v1" "$TMP/v2"
	fi
	# A missing value is a usage error.
	check_status "$p: -o without its value exits 1" 1 "$exe" "$input" -o
	# -j past 1024, in every program that has -j (all but fg-diff); an
	# integer is [-+]?[0-9]+ (no space before it, as after).
	if [ "$p" != fg-diff ]; then
		check_failure "$p: -j 100000 is refused (exit 1)" 1 "$p: -j must be between 0 and 1024" \
			"$exe" -j 100000 "$input"
		check_failure "$p: -j ' 2' is refused" 1 "$p: invalid integer ' 2'" "$exe" -j ' 2' "$input"
		check_failure "$p: -j '2 ' is refused" 1 "$p: invalid integer '2 '" "$exe" -j '2 ' "$input"
		"$exe" -j +2 "$input" "${second[@]}" >"$TMP/plus" 2>/dev/null
		check_same "$p: -j +2 is -j 2" "$TMP/stdout" "$TMP/plus"
		# Threads that cannot all start (here 256 MB stacks under
		# ulimit -v 600000; a pids limit does the same): those that did
		# do the work, as the output is the same for any -j; the
		# collapsers failed with "cannot start a thread".
		if [ -n "${ASAN_OPTIONS:-}" ]; then
			skip "$p: -j 8 where threads cannot start" "a sanitizer build reserves terabytes of shadow memory"
		elif ! (ulimit -s 262144 && ulimit -v 600000) 2>/dev/null; then
			skip "$p: -j 8 where threads cannot start" "cannot set ulimit -s 262144 and -v 600000"
		else
			(ulimit -s 262144 && ulimit -v 600000 && exec "$exe" -j 8 "$input" "${second[@]}") \
				>"$TMP/few" 2>"$TMP/few.err"
			status=$?
			if [ $status = 0 ] && cmp -s "$TMP/stdout" "$TMP/few"; then
				pass "$p: -j 8 where threads cannot start: the output of -j 1"
			else
				fail "$p: -j 8 where threads cannot start: the output of -j 1" "status $status" "$(cat "$TMP/few.err")"
			fi
		fi
	fi

	# "-" is standard input, and so is no operand (but for fg-diff).
	if [ "$p" = fg-diff ]; then
		"$exe" - "${second[@]}" <"$input" >"$TMP/stdin" 2>/dev/null
	else
		"$exe" - <"$input" >"$TMP/stdin" 2>/dev/null
		"$exe" <"$input" >"$TMP/stdin2" 2>/dev/null
		check_same "$p: no operand reads standard input" "$TMP/stdout" "$TMP/stdin2"
	fi
	check_same "$p: - reads standard input" "$TMP/stdout" "$TMP/stdin"

	# A missing input file: exit 2, "prog: FILE: reason".
	"$exe" "$TMP/does-not-exist" "${second[@]}" >/dev/null 2>"$TMP/err"
	status=$?
	if [ "$status" = 2 ] && grep -q "^$p: .*does-not-exist" "$TMP/err"; then
		pass "$p: a missing file exits 2 with 'prog: FILE: reason'"
	else
		fail "$p: a missing file exits 2 with 'prog: FILE: reason'" "exit status $status" "$(cat "$TMP/err")"
	fi
done

# gzip input larger than one read: the first read of a file can exceed the
# inflater's input buffer (a heap overflow once); files and pipes alike.
R=$BIN/fg-render
if [ -x "$R" ] && command -v gzip >/dev/null; then
	python3 -c '
import random
r = random.Random(6)
for i in range(40000):
    print("main;f%08x;g%08x;h%08x %d" % (r.getrandbits(32), r.getrandbits(32), r.getrandbits(32), r.randint(1, 9)))
' >"$TMP/big.folded"
	gzip -1 -c "$TMP/big.folded" >"$TMP/big.folded.gz"
	if "$R" "$TMP/big.folded.gz" 2>&1 >/dev/null | grep -q "built without zlib"; then
		skip "fg-render: a large gzip file" "built without zlib"
	else
		"$R" "$TMP/big.folded" >"$TMP/big.svg" 2>&1
		"$R" "$TMP/big.folded.gz" >"$TMP/big-file.svg" 2>&1
		"$R" <"$TMP/big.folded.gz" >"$TMP/big-pipe.svg" 2>&1
		check "fg-render: a $(($(wc -c <"$TMP/big.folded.gz") / 1024)) KB gzip file gives the plain file's SVG" \
			cmp "$TMP/big.svg" "$TMP/big-file.svg"
		check "fg-render: the same gzip data on a pipe too" cmp "$TMP/big.svg" "$TMP/big-pipe.svg"
	fi
fi
