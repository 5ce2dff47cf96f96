#!/bin/sh
# examples/diff/record.sh - the before/after pair of the README and
# fg-diff(1): work.c built at -O0 and -O2, profiled with perf, folded,
# compared. Needs gcc and perf; the committed O0.folded and O2.folded were
# made by it (with the process name made the same, so the trees align).
set -eu
cd "$(dirname "$0")"
bin=${FG_BIN:-../../build}
gcc -O0 -g -fno-omit-frame-pointer work.c -o /tmp/work-O0
gcc -O2 -g -fno-omit-frame-pointer work.c -o /tmp/work-O2
for level in O0 O2; do
	perf record -F 999 -g -o "/tmp/$level.data" "/tmp/work-$level" >/dev/null
	perf script -i "/tmp/$level.data" | "$bin/fg-collapse-perf" | sed "s/^work-$level;/work;/" >"$level.folded"
done
