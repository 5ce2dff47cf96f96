# tests/lib.sh - sourced by every tests/t_*.sh script.
#
# A test prints one line per check: "ok - NAME", "not ok - NAME" (followed
# by indented detail lines) or "skip - NAME: why". tests/run.sh counts them.
# Helpers below make each check one line in the scripts.

set -u
FG_ROOT=${FG_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
FG_BUILD=${FG_BUILD:-build}
case $FG_BUILD in /*) BIN=$FG_BUILD ;; *) BIN=$FG_ROOT/$FG_BUILD ;; esac
SHARED=${FG_SHARED:-$FG_ROOT/../shared}
REFERENCE=$SHARED/reference
SVGFRAMES=$SHARED/tools/svgframes
FIXTURES=$FG_ROOT/tests/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fg-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

pass() { echo "ok - $1"; }
fail() {
	echo "not ok - $1"
	shift
	[ $# -gt 0 ] && printf '%s\n' "$@" | head -n 20 | sed 's/^/    /'
	return 0
}
skip() { echo "skip - $1: $2"; }

# check NAME COMMAND...: passes when the command exits 0.
check() {
	local name=$1; shift
	local out
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

# check_same NAME EXPECTED_FILE ACTUAL_FILE: byte-identical files.
check_same() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(diff -u "$2" "$3" | head -n 20)"; fi
}

# check_eq NAME EXPECTED ACTUAL: equal strings.
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi
}

# check_status NAME EXPECTED_STATUS COMMAND...: the command's exit status.
check_status() {
	local name=$1 want=$2; shift 2
	"$@" >/dev/null 2>&1
	local got=$?
	if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "exit status $got, expected $want"; fi
}

# check_failure NAME STATUS PATTERN COMMAND...: the command exits with
# STATUS and its stderr matches PATTERN (grep).
check_failure() {
	local name=$1 want=$2 pattern=$3; shift 3
	"$@" >/dev/null 2>"$TMP/err"
	local got=$?
	if [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err"; then
		pass "$name"
	else
		fail "$name" "status $got: $(cat "$TMP/err")"
	fi
}

# check_xml NAME FILE: FILE is well-formed XML.
check_xml() {
	local out
	if out=$(python3 -c 'import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$2" 2>&1); then
		pass "$1"
	else
		fail "$1" "$out"
	fi
}

have_reference() { [ -d "$REFERENCE" ]; }
# skip_reference NAME: the one message for missing reference data.
skip_reference() {
	skip "$1" "reference data not found at $REFERENCE (put the shared/ directory beside the repository, or set FG_SHARED=DIR)"
}
