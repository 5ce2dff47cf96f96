#!/usr/bin/env bash
# tests/t_collapse_perf.sh - fg-collapse-perf: the 79 reference cases of
# stackcollapse-perf.pl (with the fixes of SPEC section 8), the real-world
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
	"$PERF" "$ref/example-perf-stacks.txt.gz" >"$TMP/out" 2>/dev/null
	check_same "reference example-perf-stacks.txt.gz" "$ref/expected/example-perf-stacks-collapsed.txt" "$TMP/out"
else
	skip "reference cases" "$REFERENCE/collapse-perf not found (set FG_SHARED)"
fi
