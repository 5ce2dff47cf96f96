#!/usr/bin/env bash
# libfolded's surface: the shared library exports exactly what folded.h
# declares (everything else is built hidden), and the version lives in one
# place (folded.h's FG_VERSION, which the Makefile reads).
. "$(dirname "$0")/lib.sh"

SO=$BIN/libfolded.so
HEADER=$FG_ROOT/include/folded.h
if [ -e "$SO" ] && command -v nm >/dev/null; then
	nm -D --defined-only "$SO" | awk '$2 ~ /^[TDRB]$/ { print $3 }' | sort >"$TMP/exported"
	undocumented=
	while read -r symbol; do
		grep -qw -- "$symbol" "$HEADER" || undocumented="$undocumented $symbol"
	done <"$TMP/exported"
	check_eq "libfolded.so exports nothing that folded.h does not declare" "" "$undocumented"
	check "libfolded.so exports the API (fg_graph_write_svg, fg_collapse_run)" \
		sh -c "grep -qx fg_graph_write_svg '$TMP/exported' && grep -qx fg_collapse_run '$TMP/exported'"
	# Every function folded.h declares is exported (none was left hidden).
	grep -v -e 'static inline' -e '^typedef' "$HEADER" | sed -n 's/^[a-z_ ]*[ *]\(fg_[a-z0-9_]*\)(.*/\1/p' | sort -u >"$TMP/declared"
	check_eq "every function folded.h declares is exported" "" \
		"$(comm -23 "$TMP/declared" "$TMP/exported" | tr '\n' ' ')"
else
	skip "exported symbols" "no $SO or no nm"
fi
version=$(sed -n 's/^#define FG_VERSION "\(.*\)"/\1/p' "$HEADER")
check "the version is defined once, in folded.h, and the programs print it" \
	sh -c "'$BIN/fg-render' --version | grep -qx 'fg-render $version'"
check "the shared library is named after that version" test -e "$BIN/libfolded.so.$version"
check_eq "the Makefile defines no version of its own" "" \
	"$(grep -nE '^VERSION *:?= *[0-9]' "$FG_ROOT/Makefile")"
