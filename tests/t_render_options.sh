#!/usr/bin/env bash
# tests/t_render_options.sh - fg-render's hostile or careless option
# values (issue 13 items 3, 4 and 5): refused with exit 1 when out of their
# documented range, else a valid SVG that says what was asked.
. "$(dirname "$0")/lib.sh"
R=$BIN/fg-render
printf 'main;work 100\nmain;idle 50\n' >"$TMP/in"

# Item 3: --encoding must match the UTF-8 that is written.
for enc in UTF-16 EBCDIC-US ISO-8859-1 'x"y' ''; do
	check_status "--encoding '$enc' is refused (exit 1)" 1 "$R" --encoding "$enc" "$TMP/in"
done
for enc in UTF-8 utf-8; do
	"$R" --encoding $enc "$TMP/in" >"$TMP/enc.svg" 2>/dev/null
	check "--encoding $enc is declared" grep -q "<?xml version=\"1.0\" encoding=\"$enc\"" "$TMP/enc.svg"
	check_xml "--encoding $enc: well-formed XML" "$TMP/enc.svg"
done

# Item 4: every numeric option has a range; inf, huge and tiny values are
# usage errors, not undefined behaviour.
for opt in --fontsize --fontwidth --minwidth --height --width --factor --diff-threshold; do
	for v in inf -inf nan 1e300 1e-300 -1 0; do
		case $opt$v in --minwidth0|--diff-threshold0|--factor0) continue ;; esac
		# 1e-300 is in range for --minwidth and --diff-threshold (from 0).
		case $opt$v in --minwidth1e-300|--diff-threshold1e-300) continue ;; esac
		"$R" $opt "$v" "$TMP/in" >"$TMP/out" 2>"$TMP/err"
		status=$?
		if [ $status = 1 ] && [ ! -s "$TMP/out" ]; then
			pass "$opt $v is refused (exit 1)"
		else
			fail "$opt $v is refused (exit 1)" "status $status" "$(cat "$TMP/err")"
		fi
	done
done
check_status "--minwidth 101% is refused" 1 "$R" --minwidth 101% "$TMP/in"
# Numbers as Perl's Getopt::Long reads them (and --minwidth as
# flamegraph.pl's ^[0-9.]+%?$ does, an exponent let through): what strtod
# alone would also take, hex, spaces, a lone '%', is refused.
for v in 0x10 ' 5' '5 ' % . 1.2.3 +5 5%% 1e 0x1p3; do
	check_status "--minwidth '$v' is refused" 1 "$R" --minwidth "$v" "$TMP/in"
done
for v in 0x10 ' 12' '12 ' 0x1p3 1e + . infinity; do
	check_status "--fontsize '$v' is refused" 1 "$R" --fontsize "$v" "$TMP/in"
done
for spec in "--minwidth 5" "--minwidth 5." "--minwidth .5" "--minwidth 30%" "--minwidth 1e1" \
	"--minwidth 0000000000000000000000000000000000000000000000000000000000000000000001.5" \
	"--fontsize +12" "--fontsize 1.2e1" "--fontsize .5E+1" "--factor 2"; do
	# shellcheck disable=SC2086
	check_status "$spec is accepted" 0 "$R" $spec "$TMP/in"
done
check_status "-j 100000 is refused" 1 "$R" -j 100000 "$TMP/in"
"$R" --width 0 "$TMP/in" 2>"$TMP/err" >/dev/null
check_eq "a range is said in plain digits" "fg-render: --width must be between 21 and 1000000" "$(head -n 1 "$TMP/err")"
"$R" --view-nodes=4294967296 "$TMP/in" 2>"$TMP/err" >/dev/null
check_eq "an integer past the range of int is out of range, not invalid" \
	"fg-render: integer '4294967296' out of range" "$(head -n 1 "$TMP/err")"
"$R" --fontsize 1000 --fontwidth 10 --height 10000 --width 1000000 --minwidth 100% "$TMP/in" >"$TMP/big.svg" 2>/dev/null
check "the ends of the ranges are accepted" test -s "$TMP/big.svg"
check "the ends of the ranges: no huge coordinates" sh -c "! sed '/<script>/,/<\/script>/d' '$TMP/big.svg' | grep -q 'e+\|922337'"
check "--minwidth 1e-300 (pixels) is accepted" "$R" --minwidth 1e-300 "$TMP/in" -o "$TMP/tiny.svg"

# Item 5: a non-ASCII --countname and --fonttype stay whole; an
# apostrophe in --fonttype cannot open a CSS string.
"$R" --countname 'échantillons' --fonttype 'Déjà Vu' "$TMP/in" >"$TMP/utf.svg" 2>/dev/null
check "--countname 'échantillons' in the entity" grep -q '<!ENTITY s " échantillons, ">' "$TMP/utf.svg"
check "--countname 'échantillons' in data-countname" grep -q 'data-countname="échantillons"' "$TMP/utf.svg"
check "--fonttype 'Déjà Vu' stays whole" grep -q 'font-family:Déjà Vu,sans-serif' "$TMP/utf.svg"
check "no U+FFFD anywhere" sh -c "! grep -q $(printf '\357\277\275') '$TMP/utf.svg'"
check_xml "non-ASCII options: well-formed XML" "$TMP/utf.svg"
# A tab in --countname or --nametype reaches the viewer as a tab: a raw one
# in an attribute is read as a space (XML normalization), so the viewer's
# count name did not match the titles' and, with ' (' in it, it took
# 'x (100 ms' for the name x in the table, search and views.
"$R" --countname "$(printf 'ms (\twall')" --nametype "$(printf 'F\tn:')" "$TMP/in" >"$TMP/tab.svg" 2>/dev/null
check_eq "a tab in --countname and --nametype survives attribute normalization" "ms (	wall|F	n:" \
	"$(python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.get("data-countname") + "|" + r.get("data-nametype"))' "$TMP/tab.svg")"
"$R" --fonttype "Comic Sans' MS" "$TMP/in" >"$TMP/quote.svg" 2>/dev/null
check "--fonttype with an apostrophe: no quote in the style sheet" sh -c "! sed -n '/<style>/,/<\/style>/p' '$TMP/quote.svg' | grep -q \"'\""
check "--fonttype with an apostrophe: the frame height rule is there" grep -q '#frames rect{height:15px;' "$TMP/quote.svg"
"$R" --height 24 "$TMP/in" >"$TMP/tall.svg" 2>/dev/null
check "frames are 1 px shorter than --height, with flamegraph.pl's rounded corners (rx 2, ry 2)" \
	grep -q '^#frames rect{height:23px;rx:2px;ry:2px}$' "$TMP/tall.svg"

# --total with --minwidth: flamegraph.pl draws the root across the --total
# but prunes it, like any frame, by its own samples. A profile narrower
# than the threshold at that scale draws no frame at all (not a lone "all"
# bar); one just wide enough keeps the root and its frames. (50 samples in
# 1180 px: 0.059 px at --total 1000000, 0.59 px at 100000, against the
# default 0.1 px; 50 against 10% and 5% of 1000.)
printf 'a;b 50\n' >"$TMP/fifty"
frames_of() { python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
print(sum(1 for e in r.iter("{http://www.w3.org/2000/svg}rect") if e.get("x") is not None and e.get("id") is None))' "$1"; }
for spec in "--total 1000000:0" "--total 100000:3" "--total 1000 --minwidth 10%:0" "--total 1000 --minwidth 5%:3"; do
	# shellcheck disable=SC2086
	"$R" ${spec%:*} "$TMP/fifty" >"$TMP/pruned.svg" 2>/dev/null
	check_eq "50 samples with ${spec%:*}: ${spec##*:} frames" "${spec##*:}" "$(frames_of "$TMP/pruned.svg")"
done
