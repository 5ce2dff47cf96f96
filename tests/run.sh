#!/usr/bin/env bash
# tests/run.sh - the whole test suite (make check). Prints every check and
# ends with "N passed, N failed, N skipped"; exits non-zero if any failed.
#
# Environment: FG_BUILD (build directory, default build), FG_SHARED (the
# reference data, default ../shared), FG_ONLY (a substring: run only the
# test files whose name contains it).
set -u
cd "$(dirname "$0")/.."
export FG_ROOT=$PWD
export FG_BUILD=${FG_BUILD:-build}
case $FG_BUILD in /*) build=$FG_BUILD ;; *) build=$FG_ROOT/$FG_BUILD ;; esac
only=${FG_ONLY:-}
log=$(mktemp "${TMPDIR:-/tmp}/fg-run.XXXXXX")
trap 'rm -f "$log"' EXIT

run() { # NAME COMMAND...: runs one test program, adds its lines to the log
	echo "# $1"
	local out=$log.one
	"${@:2}" >"$out" 2>&1
	local status=$?
	cat "$out"
	cat "$out" >>"$log"
	# A crash or a failing exit without any "not ok" line is a failure too.
	if [ "$status" != 0 ] && ! grep -q '^not ok' "$out"; then
		echo "not ok - $1 exited with status $status" | tee -a "$log"
	fi
	rm -f "$out"
}

# Unit tests: each tests/unit/test_*.c is a program linked with libfolded.
mkdir -p "$build/tests"
for src in tests/unit/test_*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	case $name in *"$only"*) ;; *) continue ;; esac
	exe=$build/tests/$name
	if ! ${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -g ${FG_TEST_CFLAGS:-} -Iinclude -Isrc/lib -Itests/unit \
		"$src" "$build/libfolded.a" -o "$exe" -lz -lpthread -lm 2>"$log.cc"; then
		${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -g ${FG_TEST_CFLAGS:-} -Iinclude -Isrc/lib -Itests/unit \
			"$src" "$build/libfolded.a" -o "$exe" -lpthread -lm 2>"$log.cc" ||
			{ echo "not ok - $name does not compile" | tee -a "$log"; sed 's/^/    /' "$log.cc" | head -20; rm -f "$log.cc"; continue; }
	fi
	rm -f "$log.cc"
	run "$name" "$exe"
done

# Shell tests: tests/t_*.sh.
for t in tests/t_*.sh; do
	[ -e "$t" ] || continue
	case $t in *"$only"*) ;; *) continue ;; esac
	run "$(basename "$t")" bash "$t"
done

# Browser tests, when Chromium and playwright-core are installed.
case browser in *"$only"*)
	if [ -x /usr/bin/chromium ] && [ -d tests/browser/node_modules/playwright-core ]; then
		echo "# browser"
		out=$(FG_RENDER=$build/fg-render node --test tests/browser/ 2>&1)
		status=$?
		echo "$out"
		p=$(echo "$out" | sed -n 's/^# pass //p' | tail -n 1)
		f=$(echo "$out" | sed -n 's/^# fail //p' | tail -n 1)
		s=$(echo "$out" | sed -n 's/^# skipped //p' | tail -n 1)
		for _ in $(seq 1 "${p:-0}"); do echo "ok - browser" >>"$log"; done
		for _ in $(seq 1 "${f:-0}"); do echo "not ok - browser" >>"$log"; done
		for _ in $(seq 1 "${s:-0}"); do echo "skip - browser" >>"$log"; done
		if [ "$status" != 0 ] && [ "${f:-0}" = 0 ]; then echo "not ok - browser suite exited $status" | tee -a "$log"; fi
	else
		why="needs /usr/bin/chromium and tests/browser/node_modules (apt-get install chromium npm; cd tests/browser && npm ci)"
		if [ -n "${CI:-}" ]; then # CI installs both: a skip there would hide a broken setup
			echo "not ok - browser tests cannot run in CI: $why" | tee -a "$log"
		else
			echo "skip - browser: $why" | tee -a "$log"
		fi
	fi ;;
esac

passed=$(grep -c '^ok' "$log")
failed=$(grep -c '^not ok' "$log")
skipped=$(grep -c '^skip' "$log")
echo
grep '^not ok' "$log" | sed 's/^/FAILED: /'
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
