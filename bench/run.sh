#!/usr/bin/env bash
# bench/run.sh [BUILD_DIR] - what `make bench` runs: every bench/*.sh
# script (but this one, lib.sh and compare.sh, which needs a second build)
# in turn, with BUILD_DIR (default build).
set -u
cd "$(dirname "$0")/.."
status=0
for script in bench/*.sh; do
	case $script in bench/run.sh | bench/lib.sh | bench/compare.sh) continue ;; esac
	echo "## $script"
	bash "$script" "${1:-build}" || status=1
done
exit $status
