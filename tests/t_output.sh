#!/usr/bin/env bash
# tests/t_output.sh - what -o FILE does in every program (issue 13 items
# 10 and 11): no valid input leaves FILE untouched (exit 2); FIFOs and
# devices are written through; a symlink is followed; long names work.
. "$(dirname "$0")/lib.sh"

valid() { # PROGRAM: a valid input for it
	case $1 in
	fg-collapse-perf) printf 'prog 1 1.0: cycles:\n\tabc func (/bin/x)\n\n' ;;
	fg-collapse-stap|fg-collapse-dtrace) printf ' func\n 3\n' ;;
	fg-collapse-bpftrace) printf '@[\n    func+1\n    main+2\n]: 3\n' ;;
	*) printf 'a;b 3\n' ;;
	esac
}

# through_link NAME LINK TARGET: $exe -o LINK writes what $TMP/expected
# holds into TARGET, and LINK (and each link after TARGET) stays a link.
through_link() {
	local name=$1 link=$2 target=$3; shift 3
	"$exe" -o "$link" "${args[@]}" 2>/dev/null
	local l
	for l in "$link" "$@"; do
		[ -L "$l" ] || { fail "$name" "$(ls -l "$l" 2>&1)"; return; }
	done
	if cmp -s "$TMP/expected" "$target"; then
		pass "$name"
	else
		fail "$name" "$(ls -l "$link" "$target" 2>&1)"
	fi
}

for p in fg-collapse-perf fg-collapse-stap fg-collapse-dtrace fg-collapse-bpftrace fg-collapse fg-render fg-diff; do
	exe=$BIN/$p
	# Item 10: no valid input, -o FILE: exit 2, FILE keeps its contents.
	printf 'yesterday\n' >"$TMP/kept"
	printf 'nothing valid here\n' >"$TMP/empty.in"
	args=("$TMP/empty.in")
	[ $p = fg-diff ] && args=("$TMP/empty.in" "$TMP/empty.in")
	"$exe" -o "$TMP/kept" "${args[@]}" >/dev/null 2>"$TMP/err"
	status=$?
	if [ $status = 2 ] && [ "$(cat "$TMP/kept")" = yesterday ]; then
		pass "$p: -o FILE with no valid input exits 2 and leaves FILE untouched"
	else
		fail "$p: -o FILE with no valid input exits 2 and leaves FILE untouched" \
			"status $status, FILE: $(head -c 80 "$TMP/kept")" "$(cat "$TMP/err")"
	fi
	ls -a "$TMP" | grep -q '^\.kept\.' && fail "$p: no temporary file left" "$(ls -a "$TMP")"

	valid $p >"$TMP/in"
	args=("$TMP/in")
	[ $p = fg-diff ] && args=("$TMP/in" "$TMP/in")
	"$exe" "${args[@]}" >"$TMP/expected" 2>/dev/null

	# Item 11: a FIFO is written through, not replaced.
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	timeout 5 cat "$TMP/fifo" >"$TMP/from-fifo" &
	reader=$!
	"$exe" -o "$TMP/fifo" "${args[@]}" 2>"$TMP/err"
	status=$?
	wait $reader
	if [ $status = 0 ] && [ -p "$TMP/fifo" ] && cmp -s "$TMP/expected" "$TMP/from-fifo"; then
		pass "$p: -o FIFO writes into the FIFO"
	else
		fail "$p: -o FIFO writes into the FIFO" "status $status" "$(ls -l "$TMP/fifo")" "$(cat "$TMP/err")"
	fi
	# /dev/stdout (a link to a pipe here) and /dev/null are written
	# through. Through links in $TMP: a program that replaces its target
	# then replaces the link, never /dev/null itself (we may be root).
	ln -sf /proc/self/fd/1 "$TMP/stdout"
	ln -sf /dev/null "$TMP/null"
	out=$("$exe" -o "$TMP/stdout" "${args[@]}" 2>/dev/null | cmp - "$TMP/expected" 2>&1)
	check_eq "$p: -o /dev/stdout writes to standard output" "" "$out"
	"$exe" -o "$TMP/null" "${args[@]}" 2>/dev/null
	if [ -L "$TMP/null" ] && [ -c /dev/null ]; then
		pass "$p: -o /dev/null writes through"
	else
		fail "$p: -o /dev/null writes through" "$(ls -l "$TMP/null")"
	fi
	# A symlink is followed: the file it points to is replaced, the link stays.
	printf 'old\n' >"$TMP/target"
	rm -f "$TMP/link"
	ln -s target "$TMP/link"
	through_link "$p: -o SYMLINK replaces the file the link points to" "$TMP/link" "$TMP/target"
	# A 250-byte file name: the temporary name must still fit NAME_MAX.
	long=$TMP/$(printf 'n%.0s' $(seq 250))
	"$exe" -o "$long" "${args[@]}" 2>"$TMP/err"
	if cmp -s "$TMP/expected" "$long"; then
		pass "$p: -o with a 250-byte file name"
	else
		fail "$p: -o with a 250-byte file name" "$(cat "$TMP/err")"
	fi
	rm -f "$long"
	# Item 14: a full disk names the file and the reason.
	if [ -c /dev/full ]; then
		ln -sf /dev/full "$TMP/full"
		check_failure "$p: a full disk: the path and the reason" 2 \
			'full: write failed: No space left on device' "$exe" -o "$TMP/full" "${args[@]}"
	fi
	# The file size limit (ulimit -f): an error like a full disk's, FILE
	# kept, no temporary file left (the signal would kill the program).
	printf 'yesterday\n' >"$TMP/kept"
	# (Messages through a pipe: a file would be past the limit too.)
	err=$(ulimit -f 0 && exec "$exe" -o "$TMP/kept" "${args[@]}" 2>&1 >/dev/null)
	status=$?
	if [ $status = 2 ] && [ "$(cat "$TMP/kept")" = yesterday ] && [[ $err == *'kept: write failed: File too large'* ]] &&
		! ls -a "$TMP" | grep -q '^\.kept\.'; then
		pass "$p: past ulimit -f: exit 2, FILE kept, no temporary file"
	else
		fail "$p: past ulimit -f: exit 2, FILE kept, no temporary file" "status $status" "$(ls -a "$TMP")" "$err"
	fi
	rm -f "$TMP"/.kept.*
	# -o '': a usage error, before any input is read.
	check_failure "$p: -o '' is a usage error, found before the input" 1 'an empty file name for --output' \
		timeout 10 "$exe" -o '' "$TMP/fifo"
	# A dangling link: the file it names is created, the link stays.
	rm -f "$TMP/dangling" "$TMP/made"
	ln -s made "$TMP/dangling"
	through_link "$p: -o DANGLING-LINK creates the file the link names" "$TMP/dangling" "$TMP/made"
	# /dev/stdout when the shell appends to a file: appended to, not
	# replaced (the file behind it kept what was written before), however
	# the file behind stdout is named.
	ln -sf /dev/stdout "$TMP/my-stdout"
	for name in /dev/stdout /dev//stdout "$TMP/my-stdout"; do
		printf 'before\n' >"$TMP/log"
		"$exe" -o "$name" "${args[@]}" >>"$TMP/log" 2>/dev/null
		if [ "$(head -n 1 "$TMP/log")" = before ] && tail -n +2 "$TMP/log" | cmp -s - "$TMP/expected"; then
			pass "$p: -o $name >> FILE appends to FILE"
		else
			fail "$p: -o $name >> FILE appends to FILE" "$(head -c 200 "$TMP/log")"
		fi
	done
	# A chain of links, dangling at its end in another directory.
	mkdir -p "$TMP/far"
	rm -f "$TMP/far/made" "$TMP/far/hop" "$TMP/first-hop"
	ln -s made "$TMP/far/hop"
	ln -s far/hop "$TMP/first-hop"
	through_link "$p: -o through a chain of links, dangling in another directory" \
		"$TMP/first-hop" "$TMP/far/made" "$TMP/far/hop"
	# /dev/stdin open for reading (a pipe: the output would be lost, or
	# hang): a clear error.
	check_failure "$p: -o /dev/stdin on a pipe: refused" 2 '/dev/stdin: open for reading only' \
		sh -c 'exe=$1; shift; echo | "$exe" -o /dev/stdin "$@"' sh "$exe" "${args[@]}"
	check_failure "$p: -o /dev/fd/N of a closed descriptor: an error" 2 '/dev/fd/9: Bad file descriptor' \
		"$exe" -o /dev/fd/9 "${args[@]}"
	# stdin closed: "-" fails as closed, instead of reading again the
	# file that took its descriptor.
	check_failure "$p: - with stdin closed: Bad file descriptor" 2 '<stdin>: Bad file descriptor' \
		sh -c 'exe=$1; shift; exec "$exe" "$@" - <&-' sh "$exe" "${args[@]:1}"
	# A path longer than PATH_MAX: the message keeps its start and its
	# reason; cut at 511 bytes, it ended inside the path, saying nothing.
	long=$TMP/$(printf 'd%.0s' $(seq 200))
	for i in $(seq 1 25); do long=$long/$(printf 'd%.0s' $(seq 200)); done
	check_failure "$p: -o PATH longer than PATH_MAX says why" 2 \
		"^$p: $TMP/dd*\\.\\.\\.[d/]*/out: .*File name too long\$" "$exe" -o "$long/out" "${args[@]}"
done

# --cp: palette.map is written only once the SVG is in place; a run whose
# output fails leaves it as it was (here: not there).
if [ -c /dev/full ]; then
	mkdir -p "$TMP/cp" && printf 'a;b 3\n' >"$TMP/cp/in"
	(cd "$TMP/cp" && "$BIN/fg-render" --cp -o /dev/full in 2>/dev/null)
	check "fg-render --cp: a failed -o writes no palette.map" test ! -e "$TMP/cp/palette.map"
	(cd "$TMP/cp" && "$BIN/fg-render" --cp -o out.svg in 2>/dev/null)
	check "fg-render --cp: a run that succeeds writes it" test -s "$TMP/cp/palette.map"
fi
# A palette.map that cannot be written (here: in /proc, where no file can
# be made, even as root) is a warning: the SVG is delivered, exit 0.
if [ -d /proc/self ]; then
	printf 'a;b 3\n' >"$TMP/cp-in"
	rm -f "$TMP/cp-out.svg"
	err=$(cd /proc && "$BIN/fg-render" --cp -o "$TMP/cp-out.svg" "$TMP/cp-in" 2>&1)
	status=$?
	if [ $status = 0 ] && grep -q '</svg>' "$TMP/cp-out.svg" && [[ $err == *'palette.map is not updated'* ]]; then
		pass "fg-render --cp: palette.map not writable: a warning, the SVG delivered"
	else
		fail "fg-render --cp: palette.map not writable: a warning, the SVG delivered" "status $status" "$err"
	fi
	out=$(cd /proc && "$BIN/fg-render" --cp "$TMP/cp-in" 2>/dev/null | tail -c 7)
	check_eq "fg-render --cp: palette.map not writable: the SVG on stdout" "</svg>" "$out"
fi

# SIGTERM/SIGINT during -o: tests/unit/test_output.c.

# -o /dev/stdout on a socket (a service's stdout): the descriptor is written
# to; reopening the path fails on a socket.
if command -v python3 >/dev/null; then
	printf 'a;b 3\n' >"$TMP/sock-in"
	got=$(python3 - "$BIN/fg-collapse" "$TMP/sock-in" <<'PY'
import socket, subprocess, sys
a, b = socket.socketpair()
p = subprocess.run([sys.argv[1], '-o', '/dev/stdout', sys.argv[2]], stdout=a.fileno())
a.close()
print(p.returncode, b.recv(100).decode().strip())
PY
)
	check_eq "-o /dev/stdout on a socket writes to it" "0 a;b 3" "$got"
fi

# -o over an existing file keeps its owner and group, as a shell redirection
# does (root:www-data 0640, replaced by a root job, became root:root 0640,
# which the web server could no longer read). As root: any owner; else a
# group of ours other than the primary one, when there is one.
printf 'a;b 3\n' >"$TMP/own-in"
"$BIN/fg-render" -o "$TMP/own.svg" "$TMP/own-in" 2>/dev/null
if [ "$(id -u)" = 0 ]; then
	owner=12345:12346
else
	g=$(id -G | tr ' ' '\n' | grep -vx "$(id -g)" | head -n 1)
	owner=${g:+$(id -u):$g}
fi
if [ -z "$owner" ] || ! chown "$owner" "$TMP/own.svg" 2>/dev/null; then
	skip "-o keeps the replaced file's owner and group" "not root, and no second group"
else
	chmod 640 "$TMP/own.svg"
	for p in fg-render fg-collapse; do
		"$BIN/$p" -o "$TMP/own.svg" "$TMP/own-in" 2>/dev/null
		check_eq "$p -o keeps the replaced file's owner, group and mode" \
			"${owner/:/ } 640" "$(stat -c '%u %g %a' "$TMP/own.svg")"
	done
fi
# ... but never its set-user-ID or set-group-ID bits: an SVG is no program
# (a root job replacing a file of another user's, mode 4750, made a
# set-user-ID file of its own).
printf 'a;b 3\n' >"$TMP/setid-in"
for p in fg-render fg-collapse; do
	"$BIN/$p" -o "$TMP/setid.svg" "$TMP/setid-in" 2>/dev/null
	chmod 6751 "$TMP/setid.svg"
	"$BIN/$p" -o "$TMP/setid.svg" "$TMP/setid-in" 2>/dev/null
	check_eq "$p -o keeps the permissions but not the set-ID bits" "751" "$(stat -c '%a' "$TMP/setid.svg")"
done
