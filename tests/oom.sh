#!/usr/bin/env bash
# tests/oom.sh - allocation-failure test (issue 13 item 12), run by make
# check-extra: the render, collapse and diff paths are run once per
# allocation they make, with exactly that allocation failing (SQLite
# style). Each run must either succeed with the right output, or exit 2
# saying "out of memory" and leave the -o FILE and palette.map as they
# were: never exit 0 with a wrong file, never a wrong file on disk.
# Environment: FG_BUILD (the build whose libfolded.a is used).
set -u
cd "$(dirname "$0")/.." || exit 1
build=${FG_BUILD:-build}
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fg-oom.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
zlib=$(grep -q 'FG_HAVE_ZLIB' <(strings "$build/libfolded.a" 2>/dev/null) && echo -lz)
for p in fg-render fg-collapse-stap fg-collapse-perf fg-diff; do
	$cc -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -Isrc/lib -Isrc/prog -DFG_VERSION_STRING='"oom"' \
		src/prog/$p.c src/prog/cli.c tests/oom/failalloc.c "$build/libfolded.a" \
		-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup \
		-o "$tmp/$p" -lz -lpthread -lm 2>"$tmp/cc.err" ||
		$cc -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -Isrc/lib -Isrc/prog -DFG_VERSION_STRING='"oom"' \
			src/prog/$p.c src/prog/cli.c tests/oom/failalloc.c "$build/libfolded.a" \
			-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup \
			-o "$tmp/$p" -lpthread -lm 2>"$tmp/cc.err" || {
		echo "not ok - oom: $p does not build"; sed 's/^/    /' "$tmp/cc.err"; exit 1; }
done

# Inputs: a small graph with names shared by several frames (entities), a
# palette.map and a nameattr file; perf and stap text; two profiles.
printf 'main;parse;read_line 30\nmain;parse;read_block 20\nmain;render;read_line 5\nmain;idle 1\nother 2\n' >"$tmp/in.folded"
printf 'main\thref=https://example.com/\ttitle=The main\tg_extra=data-x="1"\n' >"$tmp/attrs"
printf 'main->rgb(1,2,3)\nkept->rgb(4,5,6)\n' >"$tmp/palette.orig"
printf 'p 1 1.0: 1 cycles:\n\t1 read_line (/bin/x)\n\t2 main (/bin/x)\n\np 1 2.0: 1 cycles:\n\t3 idle (/bin/x)\n\n' >"$tmp/in.perf"
printf ' read_line\n main\n 3\n idle\n main\n 2\n' >"$tmp/in.stap"
for i in $(seq 1 300); do echo "main;f$((i % 7));g$i;h$((i % 13)) $i"; done >"$tmp/big.folded"
# View data (a tree line of ~100 KB) larger than the writer's line buffer
# has room for: an append that fails there must fail the run.
awk 'BEGIN { for (i = 1; i <= 20000; i++) print "main;f" i % 7 ";g" i ";h" i % 13, i }' >"$tmp/wide.folded"
# Blocks enough for fg_graph_read's threads and its ring of buffers (graph_read.c).
awk 'BEGIN { for (i = 1; i <= 90000; i++) print "m" i % 5 ";f" i % 7 ";g" i % 1000 ";h" i % 13, i % 9 + 1 }' >"$tmp/blocks.folded"
printf 'main;a;0x1f 5\nmain;b 3\n' >"$tmp/before"
printf 'main;a;0x2e 4\nmain;c 9\n' >"$tmp/after"

failures=0 checks=0
# scenario NAME PROGRAM [--stdout] ARGS...: runs it with every allocation
# failing in turn (the output file is $tmp/out; palette.map in $tmp/run).
# With --stdout the output goes to standard output instead, and a failed
# run must have written nothing or all of it (the graphs here are smaller
# than the writer's buffer: nothing goes out before the end); with --cp,
# a run that fails only in preparing palette.map still delivers the whole
# graph, as a stream may have had its first bytes already.
scenario() {
	local name=$1 program=$2 stdout=
	shift 2
	[ "$1" = --stdout ] && { stdout=1; shift; }
	mkdir -p "$tmp/run"
	cp "$tmp/palette.orig" "$tmp/run/palette.map"
	if [ -n "$stdout" ]; then
		(cd "$tmp/run" && FG_COUNT_ALLOC=$tmp/count "$tmp/$program" "$@" >"$tmp/expected" 2>/dev/null)
	else
		(cd "$tmp/run" && FG_COUNT_ALLOC=$tmp/count "$tmp/$program" -o "$tmp/expected" "$@" 2>/dev/null)
	fi
	cp "$tmp/run/palette.map" "$tmp/palette.expected"
	local total
	total=$(cat "$tmp/count")
	local bad=0 n why delivered=0
	for n in $(seq 1 "$total"); do
		why=
		cp "$tmp/palette.orig" "$tmp/run/palette.map"
		printf 'OLD\n' >"$tmp/out"
		if [ -n "$stdout" ]; then
			(cd "$tmp/run" && FG_FAIL_ALLOC=$n "$tmp/$program" "$@" >"$tmp/stdout" 2>"$tmp/err")
		else
			(cd "$tmp/run" && FG_FAIL_ALLOC=$n "$tmp/$program" -o "$tmp/out" "$@" >"$tmp/stdout" 2>"$tmp/err")
		fi
		local status=$?
		[ -z "$stdout" ] || [ $status != 0 ] || cp "$tmp/stdout" "$tmp/out"
		if [ $status = 0 ]; then
			cmp -s "$tmp/out" "$tmp/expected" || why="exit 0 with a different output"
			cmp -s "$tmp/run/palette.map" "$tmp/palette.expected" || why="$why; exit 0 with a different palette.map"
		elif [ $status = 2 ]; then
			grep -q 'out of memory' "$tmp/err" || why="exit 2 without 'out of memory': $(head -c 200 "$tmp/err")"
			if [ -n "$stdout" ]; then
				if cmp -s "$tmp/stdout" "$tmp/expected"; then
					delivered=$((delivered + 1))
				elif [ -s "$tmp/stdout" ]; then
					why="$why; the output cut short"
				fi
			else
				[ "$(cat "$tmp/out")" = OLD ] || why="$why; the output file was changed"
			fi
			cmp -s "$tmp/run/palette.map" "$tmp/palette.orig" ||
				cmp -s "$tmp/run/palette.map" "$tmp/palette.expected" || why="$why; palette.map damaged"
		else
			why="exit status $status: $(head -c 200 "$tmp/err")"
		fi
		if ls -A "$tmp" | grep -q '^\.out\.'; then
			why="$why; a temporary file left"
			rm -f "$tmp"/.out.*
		fi
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			[ $bad -le 5 ] && echo "    allocation $n of $total: $why"
		fi
	done
	checks=$((checks + 1))
	if [ -n "$stdout" ] && [ "$delivered" = 0 ] && [[ " $* " = *" --cp "* ]]; then
		echo "    no failure in palette.map's preparation delivered the graph"
		bad=$((bad + 1))
	fi
	if [ $bad = 0 ]; then
		echo "ok - oom: $name: each of $total allocations failing: out of memory or the right output"
	else
		echo "not ok - oom: $name: $bad of $total failing allocations went wrong"
		failures=$((failures + 1))
	fi
}

scenario "fg-render --cp --nameattr" fg-render --cp --nameattr "$tmp/attrs" "$tmp/in.folded"
scenario "fg-render --cp to stdout" fg-render --stdout --cp "$tmp/in.folded"
scenario "fg-render differential" fg-render "$tmp/before"
scenario "fg-render -j2, 300 stacks" fg-render -j2 --inverted "$tmp/big.folded"
scenario "fg-render, view data past the line buffer" fg-render "$tmp/wide.folded"
scenario "fg-render -j3, blocks through the threads" fg-render -j3 "$tmp/blocks.folded"
scenario "fg-collapse-stap -j1" fg-collapse-stap -j1 "$tmp/in.stap"
scenario "fg-collapse-stap -j2" fg-collapse-stap -j2 "$tmp/in.stap"
scenario "fg-collapse-perf -j1" fg-collapse-perf -j1 "$tmp/in.perf"
scenario "fg-diff -n -s" fg-diff -n -s "$tmp/before" "$tmp/after"
[ $failures = 0 ]
