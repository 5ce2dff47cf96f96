#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [NAME...] - runs each libFuzzer harness
# (build-fuzz/fuzz_NAME, built by "make fuzz") for SECONDS, seeded from the
# test fixtures, and prints one "ok -"/"not ok -" line per harness with the
# number of executions. Crashes are kept in build-fuzz/crashes/; inputs that
# once crashed a harness live in tests/fuzz/regressions/NAME/ and run first.
set -u
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
names=("$@")
if [ ${#names[@]} = 0 ]; then
	for f in build-fuzz/fuzz_*; do [ -x "$f" ] && names+=("$(basename "$f")"); done
fi
seeds() { # the fixture files that make good seeds for a harness
	case $1 in
	fuzz_render|fuzz_folded) ls tests/fixtures/render/*.folded tests/fixtures/diff/*.folded ;;
	fuzz_diff) ls tests/fixtures/diff/*.folded ;;
	fuzz_collapse_trace) ls tests/fixtures/dtrace/* tests/fixtures/stap/* 2>/dev/null ;;
	fuzz_collapse_bpftrace) ls tests/fixtures/bpftrace/*.txt 2>/dev/null ;;
	fuzz_detect) ls tests/fixtures/detect/* tests/fixtures/bpftrace/*.txt tests/fixtures/dtrace/rules.txt tests/fixtures/stap/rules.txt tests/fixtures/perf/*.perf tests/fixtures/render/*.folded 2>/dev/null ;;
	fuzz_collapse_perf) ls tests/fixtures/perf/*.perf 2>/dev/null ;;
	esac
}
failed=0
for name in "${names[@]}"; do
	corpus=build-fuzz/corpus/$name
	mkdir -p "$corpus" build-fuzz/crashes
	for s in $(seeds "$name"); do
		[ "$(stat -c %s "$s")" -lt 65536 ] && cp "$s" "$corpus/seed-$(basename "$s")"
	done
	log=build-fuzz/$name.log
	# Inputs that once crashed a harness (tests/fuzz/regressions/NAME/)
	# run first, once each, and seed the corpus.
	if [ -d "tests/fuzz/regressions/$name" ]; then
		if ! "build-fuzz/$name" tests/fuzz/regressions/"$name"/* >"$log" 2>&1; then
			echo "not ok - $name: a regression input crashes it (see $log)"
			grep -aE "ERROR|SUMMARY|fuzz_|Running: " "$log" | head -n 5 | sed 's/^/    /'
			failed=1
			continue
		fi
		cp tests/fuzz/regressions/"$name"/* "$corpus"/
	fi
	"build-fuzz/$name" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096 \
		-artifact_prefix=build-fuzz/crashes/"$name"- -print_final_stats=1 "$corpus" >"$log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	if [ "$status" = 0 ]; then
		echo "ok - $name: ${execs:-?} executions in ${seconds}s, no crash"
	else
		echo "not ok - $name: crashed after ${execs:-?} executions (see $log)"
		grep -E "ERROR|SUMMARY|fuzz_" "$log" | head -n 5 | sed 's/^/    /'
		failed=1
	fi
done
exit $failed
