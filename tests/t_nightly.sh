#!/usr/bin/env bash
# examples/cron/fg-nightly, with a stand-in perf (record writes its -o and
# waits; script prints a fixture, or runs $STUB_SCRIPT): files appear only
# whole, a failing step publishes nothing, two runs at once do not mix, the
# comparison with yesterday is extra, old files go, and no guessable name
# in the web directory is written through.
. "$(dirname "$0")/lib.sh"

NIGHTLY=$FG_ROOT/examples/cron/fg-nightly
for tool in flock gzip; do
	command -v "$tool" >/dev/null || { skip "fg-nightly" "no $tool"; exit 0; }
done
stub=$TMP/bin
mkdir -p "$stub"
cat >"$stub/perf" <<'STUB'
#!/bin/sh
case $1 in
record)
	shift
	while [ $# -gt 0 ]; do
		case $1 in -o) out=$2; shift 2 ;; --) shift; break ;; *) shift ;; esac
	done
	echo data >"$out"
	exec "$@" ;;
script)
	if [ -n "${STUB_SCRIPT:-}" ]; then sh -c "$STUB_SCRIPT"; else cat "$STUB_INPUT"; fi ;;
esac
STUB
chmod +x "$stub/perf"
for p in fg-collapse-perf fg-render fg-diff; do ln -s "$BIN/$p" "$stub/$p"; done
export STUB_INPUT=$FIXTURES/perf/tidy.perf FG_SECONDS=0
day=$(date +%Y-%m-%d)
yesterday=$(date -d "$day 12:00 1 day ago" +%Y-%m-%d)
nightly() { PATH=$stub:$PATH sh "$NIGHTLY" "$@"; }
quiet() { nightly "$@" 2>/dev/null; } # (fg-render: "Stack count is low")

W=$TMP/web
check "a run publishes the graph, the folded stacks and the latest link" quiet "$W"
check "the graph is whole" grep -q '</svg>' "$W/cpu-$day.svg"
check_eq "cpu-latest.svg names today's graph" "cpu-$day.svg" "$(readlink "$W/cpu-latest.svg")"
check "the folded stacks are readable gzip" gzip -t "$W/cpu-$day.folded.gz"
check_eq "no temporary file is left" "" "$(ls -A "$W" | grep '^\.')"

# perf script failing part-way: nothing published, yesterday's files kept.
cp "$W/cpu-$day.svg" "$TMP/kept.svg"
cp "$W/cpu-$day.folded.gz" "$TMP/kept.folded.gz"
STUB_SCRIPT="head -c 300 '$STUB_INPUT'; exit 3" nightly "$W" 2>"$TMP/err"
check_eq "perf script failing: exit 1" 1 $?
check "perf script failing: said so" grep -q 'perf script failed: nothing published' "$TMP/err"
check_same "perf script failing: the graph is untouched" "$TMP/kept.svg" "$W/cpu-$day.svg"
check_same "perf script failing: the folded stacks are untouched" "$TMP/kept.folded.gz" \
	"$W/cpu-$day.folded.gz"

# Two runs at once: both succeed, one after the other, and the stacks
# stay one gzip stream.
quiet "$W" & first=$!
quiet "$W"; second=$?
wait "$first"
check_eq "two runs at once both succeed" "0 0" "$? $second"
check "two runs at once: the folded stacks are one whole gzip stream" gzip -t "$W/cpu-$day.folded.gz"

# A link planted at the old, guessable temporary name is not written through.
printf 'precious\n' >"$TMP/victim"
ln -s "$TMP/victim" "$W/.cpu-$day.folded.gz.tmp"
quiet "$W"
check_eq "a planted link is not written through" "precious" "$(cat "$TMP/victim")"
rm -f "$W/.cpu-$day.folded.gz.tmp"

# Yesterday's stacks damaged: the comparison fails, said and exit 1, but
# today's graph is still the latest.
rm -f "$W/cpu-latest.svg"
printf 'not gzip' >"$W/cpu-$yesterday.folded.gz"
nightly "$W" 2>"$TMP/err"
check_eq "a failed comparison: exit 1" 1 $?
check "a failed comparison: said so" grep -q "no comparison with $yesterday" "$TMP/err"
check_eq "a failed comparison: today is still the latest" "cpu-$day.svg" "$(readlink "$W/cpu-latest.svg")"
"$BIN/fg-collapse-perf" "$STUB_INPUT" | gzip -c >"$W/cpu-$yesterday.folded.gz"
check "with yesterday's stacks: the differential graph" quiet "$W"
check "the differential graph is whole" grep -q '</svg>' "$W/diff-$day.svg"

# Old files go, through a directory given as a symbolic link too.
touch -d '40 days ago' "$W/cpu-2000-01-01.svg" "$W/diff-2000-01-01.svg" "$W/cpu-2000-01-01.folded.gz"
ln -s "$W" "$TMP/link"
check "a run through a linked directory" quiet "$TMP/link"
check_eq "files older than FG_KEEP_DAYS are deleted" "" "$(ls "$W" | grep 2000-01-01)"
check "today's files are kept" test -f "$W/cpu-$day.svg"

# An existing directory where the latest link goes: a failure, not a link
# put inside it.
rm -f "$W/cpu-latest.svg"
mkdir "$W/cpu-latest.svg"
nightly "$W" 2>/dev/null
check_eq "a directory at cpu-latest.svg: exit 1" 1 $?
check_eq "a directory at cpu-latest.svg: nothing put in it" "" "$(ls -A "$W/cpu-latest.svg")"

# What someone who can write the web directory puts at a name the run
# writes is replaced by the rename, never written through: a link to a
# file elsewhere, and a FIFO (which would block the run, holding the lock).
rmdir "$W/cpu-latest.svg"
printf 'precious\n' >"$TMP/victim2"
rm -f "$W/cpu-$day.svg" "$W/diff-$day.svg"
ln -s "$TMP/victim2" "$W/cpu-$day.svg"
mkfifo "$W/diff-$day.svg"
check "a link and a FIFO at the graphs' names: the run succeeds" timeout 60 sh -c \
	'PATH=$1:$PATH sh "$2" "$3" 2>/dev/null' sh "$stub" "$NIGHTLY" "$W"
check_eq "the linked file is untouched" "precious" "$(cat "$TMP/victim2")"
check "the graph replaced the link" test -f "$W/cpu-$day.svg" -a ! -h "$W/cpu-$day.svg"
check "the differential graph replaced the FIFO" test -f "$W/diff-$day.svg"

# A step failing after the graph is drawn (gzip here) still publishes
# nothing: the graph of the run before stays.
cp "$W/cpu-$day.svg" "$TMP/kept2.svg"
printf '#!/bin/sh\nexit 1\n' >"$stub/gzip"
chmod +x "$stub/gzip"
STUB_INPUT=$FIXTURES/perf/merge.perf nightly "$W" 2>/dev/null # (another graph)
check_eq "gzip failing: exit 1" 1 $?
rm -f "$stub/gzip"
check_same "gzip failing: the graph published before is untouched" "$TMP/kept2.svg" "$W/cpu-$day.svg"
check_eq "gzip failing: no temporary file is left" "" "$(ls -A "$W" | grep '^\.')"

# Pruning spares the graph that the latest link names, however old.
touch -d '40 days ago' "$W/cpu-$day.svg"
quiet "$W" >/dev/null # (today's run renders the graph anew: age it again)
touch -d '40 days ago' "$W/cpu-$day.svg"
STUB_SCRIPT='exit 3' nightly "$W" 2>/dev/null
check "pruning spares the latest graph" test -f "$W/$(readlink "$W/cpu-latest.svg")"

# Numbers are checked.
check_failure "FG_KEEP_DAYS=-1 is refused" 1 "FG_KEEP_DAYS must be a whole number of days" \
	env FG_KEEP_DAYS=-1 PATH="$stub:$PATH" sh "$NIGHTLY" "$W"
check_failure "no directory: a usage message, exit 1" 1 "usage: fg-nightly WEB_DIRECTORY" sh "$NIGHTLY"
