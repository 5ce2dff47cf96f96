#!/usr/bin/env bash
# tests/t_input.sh - reading gzip input (issue 13 item 13): the magic is
# found even when a pipe delivers one byte first, and zero padding after
# the last member (which gzip -d accepts) is not corruption.
. "$(dirname "$0")/lib.sh"
if ! "$BIN/fg-diff" <(printf 'a 1\n' | gzip) <(printf 'a 1\n') >/dev/null 2>&1; then
	skip "gzip input" "this fg was built without zlib"
	exit 0
fi
printf 'a;b 3\nc 2\n' >"$TMP/plain"
gzip -c "$TMP/plain" >"$TMP/in.gz"
"$BIN/fg-diff" "$TMP/plain" "$TMP/plain" >"$TMP/expected"
slow() { head -c1 "$TMP/in.gz"; sleep 0.3; tail -c +2 "$TMP/in.gz"; }
slow | "$BIN/fg-diff" - "$TMP/plain" >"$TMP/out" 2>"$TMP/err"
check_same "a pipe that delivers one byte first is still read as gzip" "$TMP/expected" "$TMP/out"
slow | "$BIN/fg-collapse-stap" >/dev/null 2>"$TMP/err"
check "fg-collapse-stap: a one-byte first read is still gzip" sh -c "! grep -q 'neither a frame' '$TMP/err'"
{ cat "$TMP/in.gz"; head -c 1000 /dev/zero; } >"$TMP/padded.gz"
check "gzip -d accepts zero padding" sh -c "gzip -dc '$TMP/padded.gz' >/dev/null 2>&1 || [ \$? = 2 ]"
"$BIN/fg-diff" "$TMP/padded.gz" "$TMP/plain" >"$TMP/out" 2>"$TMP/err"
status=$?
if [ $status = 0 ] && cmp -s "$TMP/expected" "$TMP/out"; then
	pass "zero padding after the last gzip member is ignored"
else
	fail "zero padding after the last gzip member is ignored" "status $status" "$(cat "$TMP/err")"
fi
{ cat "$TMP/in.gz" "$TMP/in.gz"; head -c 10 /dev/zero; } >"$TMP/two.gz"
"$BIN/fg-diff" "$TMP/two.gz" "$TMP/plain" >"$TMP/out" 2>&1
check "two members then padding: both read" grep -q '^a;b 6 3$' "$TMP/out"
{ cat "$TMP/in.gz"; head -c 10 /dev/zero; printf 'junk'; } >"$TMP/junk.gz"
check_failure "garbage after the padding is still an error, and says so" 2 \
	"junk.gz: trailing data after the gzip data (not another gzip member)" \
	"$BIN/fg-diff" "$TMP/junk.gz" "$TMP/plain"
# After a gzip member, only another gzip member: a zlib stream is garbage
# (as for gzip -d), not more input.
python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(b"z;z 9\n"))' >"$TMP/z.zlib"
cat "$TMP/in.gz" "$TMP/z.zlib" >"$TMP/gz-zlib.gz"
check_failure "a zlib stream after a gzip member is not read as one" 2 \
	"gz-zlib.gz: trailing data after the gzip data" "$BIN/fg-diff" "$TMP/gz-zlib.gz" "$TMP/plain"
# A damaged second member is corruption, not trailing data; and trailing
# data whose first byte comes alone (a pipe) is trailing data still.
printf 'a;c 2\n' | gzip -c >"$TMP/m2.gz"
python3 -c 'import sys; m = bytearray(open(sys.argv[1], "rb").read()); m[-8] ^= 0xff; sys.stdout.buffer.write(m)' \
	"$TMP/m2.gz" >"$TMP/m2-bad.gz"
cat "$TMP/in.gz" "$TMP/m2-bad.gz" >"$TMP/bad-second.gz"
check_failure "a damaged second member is corrupt gzip data" 2 "bad-second.gz: corrupt gzip data (incorrect data check)" \
	"$BIN/fg-diff" "$TMP/bad-second.gz" "$TMP/plain"
check_failure "trailing data whose first byte comes alone is trailing data" 2 \
	"<stdin>: trailing data after the gzip data" \
	sh -c '{ cat "$1"; printf "\037"; sleep 0.3; printf junk; } | "$2" - "$3"' sh "$TMP/in.gz" "$BIN/fg-diff" "$TMP/plain"
