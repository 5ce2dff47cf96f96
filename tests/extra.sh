#!/usr/bin/env bash
# tests/extra.sh - make check-extra: what the main suite cannot check from a
# build directory alone (CI runs it after make check):
#   1. a build without zlib (build-nozlib/) passes the whole suite, and
#      refuses gzip input with a clear message;
#   2. make install into a staging DESTDIR installs every file, the
#      pkg-config file works for a shared and a static link of
#      examples/libfolded-demo.c, and make uninstall removes it all;
#   3. every man page passes mandoc -T lint -W warning and renders with man;
#   4. the programs run clean under valgrind on the examples;
#   5. with each allocation failing in turn, the programs say "out of
#      memory" (exit 2) or give the right output, never a wrong file
#      (tests/oom.sh).
# Prints "ok - ", "not ok - " and "skip - " lines, then a summary; exits 1
# if anything failed. Environment: FG_BUILD (default build), MAKE.
set -u
cd "$(dirname "$0")/.." || exit 1
export FG_ROOT=$PWD
MAKE=${MAKE:-make}
build=${FG_BUILD:-build}
case $build in /*) ;; *) build=$FG_ROOT/$build ;; esac
version=$(sed -n 's/^#define FG_VERSION "\(.*\)"/\1/p' include/folded.h)
soversion=$(sed -n 's/^SOVERSION *:= *//p' Makefile)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fg-extra.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0

pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() {
	echo "not ok - $1"
	failed=$((failed + 1))
	shift
	[ $# -gt 0 ] && printf '%s\n' "$@" | head -n 30 | sed 's/^/    /'
	return 0
}
skip() { echo "skip - $1: $2"; skipped=$((skipped + 1)); }
check() { # NAME COMMAND...: passes when the command exits 0
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}
have() { command -v "$1" >/dev/null 2>&1; }
vg() { # NAME STATUS COMMAND...: exits STATUS with no memory errors or leaks
	local name=$1 want=$2
	shift 2
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
		"$@" >"$tmp/vg.out" 2>"$tmp/vg.err"
	local status=$?
	if [ "$status" = "$want" ]; then
		pass "valgrind $name"
	elif [ "$status" = 99 ]; then
		fail "valgrind $name" "$(grep '^==' "$tmp/vg.err" | head -n 25)"
	else
		fail "valgrind $name: exit status $status, expected $want" "$(head -n 10 "$tmp/vg.err")"
	fi
}

programs=()
for p in "$build"/fg-*; do [ -x "$p" ] && programs+=("$(basename "$p")"); done
if [ ${#programs[@]} = 0 ]; then
	fail "programs built in $build" "run make first"
fi

# ---------------------------------------------------------------- no zlib
echo "# build without zlib (build-nozlib)"
if out=$($MAKE -s B=build-nozlib ZLIB=0 all 2>&1); then
	pass "no-zlib build"
	if [ -n "$out" ]; then fail "no-zlib build has no warnings" "$out"; else pass "no-zlib build has no warnings"; fi
	if nm build-nozlib/libfolded.a 2>/dev/null | grep -qE ' U (inflate|zlibVersion)'; then
		fail "no-zlib library does not use zlib" "$(nm build-nozlib/libfolded.a | grep -E ' U (inflate|zlib)')"
	else
		pass "no-zlib library does not use zlib"
	fi
	printf 'a;b 1\n' | gzip -c > "$tmp/in.gz"
	for p in "${programs[@]}"; do
		[ "$p" = fg-diff ] && args=("$tmp/in.gz" "$tmp/in.gz") || args=("$tmp/in.gz")
		build-nozlib/"$p" "${args[@]}" >/dev/null 2>"$tmp/err"
		status=$?
		if [ "$status" = 2 ] && grep -q "built without zlib" "$tmp/err"; then
			pass "no-zlib $p: gzip input refused with a clear message, exit 2"
		else
			fail "no-zlib $p: gzip input refused with a clear message, exit 2" \
				"exit status $status" "$(cat "$tmp/err")"
		fi
	done
	FG_BUILD=build-nozlib tests/run.sh >"$tmp/nozlib.log" 2>&1
	status=$?
	summary=$(tail -n 1 "$tmp/nozlib.log")
	if [ "$status" = 0 ]; then
		pass "no-zlib test suite: $summary"
	else
		fail "no-zlib test suite: $summary" "$(grep '^not ok' "$tmp/nozlib.log")"
	fi
else
	fail "no-zlib build" "$out"
fi

# ---------------------------------------------------------------- install
echo "# make install into a staging DESTDIR"
stage=$tmp/stage
prefix=/usr/local
root=$stage$prefix
if out=$($MAKE -s B="$build" install DESTDIR="$stage" PREFIX=$prefix 2>&1); then
	pass "make install DESTDIR=... PREFIX=$prefix"
	missing=()
	for p in "${programs[@]}"; do [ -x "$root/bin/$p" ] || missing+=("bin/$p"); done
	for f in lib/libfolded.a "lib/libfolded.so.$version" lib/pkgconfig/libfolded.pc \
		include/folded.h; do
		[ -f "$root/$f" ] || missing+=("$f")
	done
	for page in man/*.1; do [ -f "$root/share/man/man1/${page#man/}" ] || missing+=("$page"); done
	for page in man/*.3; do [ -f "$root/share/man/man3/${page#man/}" ] || missing+=("$page"); done
	if [ ${#missing[@]} = 0 ]; then pass "every file installed"; else fail "every file installed" "missing: ${missing[*]}"; fi
	check "libfolded.so.$soversion and libfolded.so link to libfolded.so.$version" \
		test "$(readlink "$root/lib/libfolded.so")" = "libfolded.so.$version" -a \
		"$(readlink "$root/lib/libfolded.so.$soversion")" = "libfolded.so.$version"
	if have readelf; then
		soname=$(readelf -d "$root/lib/libfolded.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
		check "soname is libfolded.so.$soversion" test "$soname" = "libfolded.so.$soversion"
	fi
	check "installed fg-render --version" sh -c "'$root/bin/fg-render' --version | grep -qx 'fg-render $version'"
	check "installed folded.h compiles alone" sh -c \
		"printf '#include <folded.h>\nint main(void){return 0;}\n' | ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I'$root/include' -x c - -o '$tmp/h'"

	if have pkg-config; then
		export PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage
		check "pkg-config --modversion libfolded is $version" \
			test "$(pkg-config --modversion libfolded 2>&1)" = "$version"
		cflags=$(pkg-config --cflags libfolded) libs=$(pkg-config --libs libfolded)
		# shellcheck disable=SC2086 # pkg-config's output is meant to be split
		if out=$(${CC:-cc} -std=c11 -Wall -Wextra -Werror examples/libfolded-demo.c $cflags $libs \
			-o "$tmp/demo-shared" 2>&1); then
			pass "libfolded-demo links with pkg-config --cflags --libs"
			if LD_LIBRARY_PATH=$root/lib ldd "$tmp/demo-shared" | grep -q "libfolded.so.$soversion => $root/lib/"; then
				pass "libfolded-demo uses the staged libfolded.so.$soversion"
			else
				fail "libfolded-demo uses the staged libfolded.so.$soversion" "$(LD_LIBRARY_PATH=$root/lib ldd "$tmp/demo-shared")"
			fi
			if out=$(LD_LIBRARY_PATH=$root/lib "$tmp/demo-shared" "$tmp/demo-shared.svg" 2>&1) &&
				grep -q '<title>multiply (75' "$tmp/demo-shared.svg"; then
				pass "libfolded-demo (shared) writes its SVG"
			else
				fail "libfolded-demo (shared) writes its SVG" "$out"
			fi
			if have valgrind; then
				LD_LIBRARY_PATH=$root/lib vg "libfolded-demo (shared library)" 0 "$tmp/demo-shared" "$tmp/demo-vg.svg"
			fi
		else
			fail "libfolded-demo links with pkg-config --cflags --libs" "$out"
		fi
		static_libs=$(pkg-config --static --libs libfolded)
		# shellcheck disable=SC2086
		if out=$(${CC:-cc} -std=c11 -Wall -Wextra -Werror -static examples/libfolded-demo.c \
			$cflags $static_libs -o "$tmp/demo-static" 2>&1); then
			pass "libfolded-demo links statically with pkg-config --static"
			if out=$("$tmp/demo-static" "$tmp/demo-static.svg" 2>&1) &&
				cmp -s "$tmp/demo-static.svg" "$tmp/demo-shared.svg"; then
				pass "libfolded-demo (static) writes the same SVG"
			else
				fail "libfolded-demo (static) writes the same SVG" "$out"
			fi
		else
			fail "libfolded-demo links statically with pkg-config --static" "$out"
		fi
		unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
	else
		skip "pkg-config example" "pkg-config is not installed"
	fi

	if out=$($MAKE -s B="$build" uninstall DESTDIR="$stage" PREFIX=$prefix 2>&1); then
		left=$(find "$stage" ! -type d)
		if [ -z "$left" ]; then pass "make uninstall removes every file"; else fail "make uninstall removes every file" "$left"; fi
	else
		fail "make uninstall" "$out"
	fi
else
	fail "make install DESTDIR=... PREFIX=$prefix" "$out"
fi
if $MAKE -s B="$build" install DESTDIR="$tmp/opt" PREFIX=/opt/fg >/dev/null 2>&1 &&
	grep -qx 'prefix=/opt/fg' "$tmp/opt/opt/fg/lib/pkgconfig/libfolded.pc" &&
	[ -x "$tmp/opt/opt/fg/bin/fg-render" ]; then
	pass "PREFIX=/opt/fg installs under /opt/fg and says so in libfolded.pc"
else
	fail "PREFIX=/opt/fg installs under /opt/fg and says so in libfolded.pc"
fi

# -------------------------------------------------------------- man pages
echo "# man pages"
if have mandoc; then
	for page in man/*.[1-9]; do
		out=$(mandoc -T lint -W warning "$page" 2>&1)
		if [ -z "$out" ]; then pass "mandoc -T lint $page"; else fail "mandoc -T lint $page" "$out"; fi
	done
else
	skip "mandoc -T lint" "mandoc is not installed (apt-get install mandoc)"
fi
if have man; then
	for page in man/*.[1-9]; do
		out=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
		if [ -z "$out" ]; then pass "man -l $page renders without warnings"; else fail "man -l $page renders without warnings" "$out"; fi
	done
else
	skip "man -l" "man is not installed"
fi
for p in "${programs[@]}"; do
	[ -f "man/$p.1" ] || skip "man page of $p" "man/$p.1 is missing"
done
[ -f man/libfolded.3 ] || fail "man/libfolded.3 exists"

# ---------------------------------------------------------------- valgrind
echo "# valgrind"
if have valgrind; then
	gzip -dc examples/example-perf.txt.gz > "$tmp/perf.txt"
	if [ -x "$build/fg-collapse-perf" ]; then
		vg "fg-collapse-perf -j 2 examples/example-perf.txt.gz" 0 \
			"$build/fg-collapse-perf" -j 2 examples/example-perf.txt.gz
		cp "$tmp/vg.out" "$tmp/perf.folded"
		vg "fg-collapse-perf --all --pid -j 1 (stdin)" 0 \
			"$build/fg-collapse-perf" --all --pid -j 1 <"$tmp/perf.txt"
	fi
	if [ -x "$build/fg-collapse-dtrace" ]; then
		vg "fg-collapse-dtrace -j 2 examples/example-dtrace.txt" 0 \
			"$build/fg-collapse-dtrace" -j 2 examples/example-dtrace.txt
		cp "$tmp/vg.out" "$tmp/dtrace.folded"
	fi
	if [ -x "$build/fg-collapse-stap" ]; then
		vg "fg-collapse-stap -j 2 examples/example-stap.txt" 0 \
			"$build/fg-collapse-stap" -j 2 examples/example-stap.txt
		cp "$tmp/vg.out" "$tmp/stap.folded"
	fi
	if [ -x "$build/fg-diff" ] && [ -s "$tmp/dtrace.folded" ] && [ -s "$tmp/stap.folded" ]; then
		vg "fg-diff -n (DTrace and SystemTap examples)" 0 \
			"$build/fg-diff" -n "$tmp/dtrace.folded" "$tmp/stap.folded"
		cp "$tmp/vg.out" "$tmp/diff.folded"
	fi
	if [ -x "$build/fg-render" ]; then
		for name in perf dtrace stap diff; do
			[ -s "$tmp/$name.folded" ] &&
				vg "fg-render -o FILE ($name example)" 0 "$build/fg-render" -o "$tmp/$name.svg" "$tmp/$name.folded"
		done
		if [ -s "$tmp/perf.folded" ]; then
			vg "fg-render --inverted --colors java --hash (stdin)" 0 \
				"$build/fg-render" --inverted --colors java --hash <"$tmp/perf.folded"
			vg "fg-render --flamechart --reverse --minwidth 1%" 0 \
				"$build/fg-render" --flamechart --reverse --minwidth 1% "$tmp/perf.folded"
		fi
		echo "no count here" >"$tmp/invalid.folded"
		vg "fg-render with no valid input (exit 2)" 2 "$build/fg-render" "$tmp/invalid.folded"
	fi
else
	skip "valgrind" "valgrind is not installed (apt-get install valgrind)"
fi

# 5. Allocation failures (issue 13 item 12): every allocation of the
# render, collapse and diff paths fails in turn (tests/oom.sh).
while IFS= read -r line; do
	case $line in
	"ok - "*) pass "${line#ok - }" ;;
	"not ok - "*) fail "${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < <(FG_BUILD=$build tests/oom.sh 2>&1)

echo
echo "check-extra: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
