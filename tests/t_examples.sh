#!/usr/bin/env bash
# The shipped examples: the README's picture (examples/example-perf.svg) is
# what examples/example-perf.sh draws with this build, so a viewer or layout
# change that was not redrawn (`make example`) fails here.
. "$(dirname "$0")/lib.sh"

if "$BIN/fg-collapse-perf" --version >/dev/null 2>&1 &&
	! "$BIN/fg-collapse-perf" "$FG_ROOT/examples/example-perf.txt.gz" 2>&1 >/dev/null | grep -q zlib; then
	"$FG_ROOT/examples/example-perf.sh" "$BIN" "$TMP/example-perf.svg"
	check_same "examples/example-perf.svg is up to date (else: make example)" \
		"$FG_ROOT/examples/example-perf.svg" "$TMP/example-perf.svg"
else
	skip "examples/example-perf.svg is up to date" "built without zlib"
fi
