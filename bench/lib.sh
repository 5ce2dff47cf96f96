# bench/lib.sh - sourced by the benchmark scripts: cached inputs made by
# repeating a source file, and a timer that reports the median of several
# runs with MB/s and the peak RSS.
#
#   bench_input NAME MB SOURCE...  prints the path of $BENCH_TMP/NAME: the
#                                  SOURCEs concatenated, repeated to ~MB MB,
#                                  read once so that it is in the page cache
#   bench_run LABEL INPUT COMMAND...  runs COMMAND $BENCH_RUNS times; prints
#       LABEL  MB 502.3  median 0.412 s  1219.2 MB/s  CPU 0.398 s  peak RSS 7.5 MB
#       and, when BENCH_TARGET_MBS / BENCH_TARGET_RSS are set, whether the
#       run met those targets: [1000 MB/s: missed, 0.19x; RSS <= 56 MB: met]
#       (MB: 10^6 bytes, input and peak RSS alike. CPU: user + system
#       time, the median; with threads it exceeds the
#       wall time, and on a busy machine it is the steadier figure).
#       BENCH_LAST_US is then the median in microseconds. MB is INPUT's
#       size, or BENCH_INPUT_BYTES when set (a command of several inputs).

BENCH_TMP=${BENCH_TMP:-${TMPDIR:-/tmp}/fg-bench}
BENCH_RUNS=${BENCH_RUNS:-5}
mkdir -p "$BENCH_TMP"

bench_input() {
	local out=$BENCH_TMP/$1 mb=$2
	shift 2
	local unit=$BENCH_TMP/$(basename "$out").unit
	cat "$@" >"$unit"
	local size copies
	size=$(stat -c %s "$unit")
	copies=$((mb * 1000000 / size + 1))
	if [ ! -s "$out" ] || [ "$(stat -c %s "$out")" != $((size * copies)) ]; then
		for _ in $(seq 1 "$copies"); do cat "$unit"; done >"$out"
	fi
	rm -f "$unit"
	cat "$out" >/dev/null
	echo "$out"
}

bench_run() {
	local label=$1 input=$2
	shift 2
	local times=() cpus=() rss=0 start end r cpu
	for _ in $(seq 1 "$BENCH_RUNS"); do
		start=$(date +%s%N)
		/usr/bin/time -f '%M %U %S' -o "$BENCH_TMP/rss" "$@" >/dev/null 2>&1
		end=$(date +%s%N)
		times+=("$(((end - start) / 1000))")
		read -r r cpu < <(tail -n 1 "$BENCH_TMP/rss" | awk '{ printf "%s %.0f\n", $1, ($2 + $3) * 1e6 }')
		cpus+=("${cpu%.*}")
		[ "$r" -gt "$rss" ] && rss=$r
	done
	local median cpu_median
	median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((BENCH_RUNS + 1) / 2))p")
	cpu_median=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "$(((BENCH_RUNS + 1) / 2))p")
	BENCH_LAST_US=$median
	awk -v l="$label" -v b="${BENCH_INPUT_BYTES:-$(stat -L -c %s "$input")}" -v us="$median" -v cpu="$cpu_median" -v rss="$rss" \
		-v mbs="${BENCH_TARGET_MBS:-}" -v most="${BENCH_TARGET_RSS:-}" 'BEGIN {
		rate = us > 0 ? b / us : 0
		mb = rss * 1024 / 1e6 # (time reports KiB; MB here are 10^6 bytes, as in MB/s)
		printf "%-34s MB %7.1f   median %6.3f s   %7.1f MB/s   CPU %6.3f s   peak RSS %6.1f MB",
			l, b / 1e6, us / 1e6, rate, cpu / 1e6, mb
		verdict = ""
		if (mbs != "")
			verdict = sprintf("%s MB/s: %s, %.2fx", mbs, (rate >= mbs ? "met" : "missed"), rate / mbs)
		if (most != "")
			verdict = verdict (verdict != "" ? "; " : "") \
				sprintf("RSS <= %s MB: %s", most, (mb <= most ? "met" : "missed"))
		printf "%s\n", (verdict != "" ? "   [" verdict "]" : "") }'
	rm -f "$BENCH_TMP/rss"
}
