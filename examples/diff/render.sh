#!/bin/sh
# examples/diff/render.sh - draws the -O0 vs -O2 comparison twice: the
# classic differential graph (AFTER widths: functions inlined away at -O2
# are invisible) and --diff-union (they stay, in grey-lavender).
set -eu
cd "$(dirname "$0")"
bin=${FG_BIN:-../../build}
mkdir -p ../out
"$bin/fg-diff" -n O0.folded O2.folded >../out/diff.folded
"$bin/fg-render" --title "work.c: -O0 vs -O2 (AFTER widths)" -o ../out/diff.svg ../out/diff.folded
"$bin/fg-render" --diff-union --title "work.c: -O0 (before) vs -O2 (after), --diff-union" \
	-o ../out/diff-union.svg ../out/diff.folded
echo "wrote ../out/diff.svg and ../out/diff-union.svg"
