#!/bin/sh
# example-perf.sh [BUILD_DIR [OUT]] - draws the README's picture,
# examples/example-perf.svg (or OUT), from the shipped perf profile, with
# the programs of BUILD_DIR (default build). `make example` runs it; `make
# check` runs it into a temporary file and fails when the committed SVG
# differs (a viewer or layout change that was not redrawn).
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build}
out=${2:-examples/example-perf.svg}
"$bin/fg-collapse-perf" examples/example-perf.txt.gz |
	"$bin/fg-render" --title 'python3 examples/perf-workload.py, sampled by perf at 999 Hz' \
		--countname ns -o "$out"
