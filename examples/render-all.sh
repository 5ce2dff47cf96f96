#!/bin/sh
# render-all.sh - renders every example profile into examples/out/ (not
# committed): the folded stacks (NAME.folded) and the flame graph
# (NAME.svg) of each, and the graph that libfolded-demo.c builds in memory.
#
#   make && examples/render-all.sh      (FG_BUILD=DIR: use another build)
set -eu
cd "$(dirname "$0")"
bin=${FG_BUILD:-build} # relative to the repository, as for tests/run.sh
case $bin in /*) ;; *) bin=../$bin ;; esac
out=out
mkdir -p "$out"

render() { # NAME COLLAPSER INPUT [COLLAPSER OPTIONS] -- [RENDER OPTIONS]
	name=$1 collapser=$2 input=$3
	shift 3
	options=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do options="$options $1"; shift; done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086 # options are single words
	"$bin/$collapser" $options "$input" > "$out/$name.folded"
	"$bin/fg-render" "$@" -o "$out/$name.svg" "$out/$name.folded"
	echo "$out/$name.svg"
}

# perf's cpu-clock event counts nanoseconds: each sample adds its period.
render perf fg-collapse-perf example-perf.txt.gz -- \
	--title "perf: python3 perf-workload.py" --countname ns
render perf-all fg-collapse-perf example-perf.txt.gz --all -- \
	--title "perf --all: kernel frames in orange" --colors java --countname ns
render perf-icicle fg-collapse-perf example-perf.txt.gz -- \
	--title "perf: icicle graph" --inverted --countname ns
render dtrace fg-collapse-dtrace example-dtrace.txt -- \
	--title "DTrace: ustack() of fg-collapse-perf"
render stap fg-collapse-stap example-stap.txt -- \
	--title "SystemTap: kernel stacks of file copying" --colors io

# libfolded from C: the demo linked with the static library of this build.
if [ -f "$bin/libfolded.a" ]; then
	cc=${CC:-cc}
	"$cc" -std=c11 -Wall -Wextra -I../include libfolded-demo.c "$bin/libfolded.a" \
		-o "$out/libfolded-demo" -lz -lpthread -lm 2>/dev/null ||
		"$cc" -std=c11 -Wall -Wextra -I../include libfolded-demo.c "$bin/libfolded.a" \
			-o "$out/libfolded-demo" -lpthread -lm
	"$out/libfolded-demo" "$out/libfolded-demo.svg" 2>/dev/null
	echo "$out/libfolded-demo.svg"
fi
