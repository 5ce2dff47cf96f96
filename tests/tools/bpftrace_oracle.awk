# bpftrace_oracle.awk - an independent model of fg-collapse-bpftrace for
# plain captures (one stack per key, any map name, fields before and after
# the stack, integer values), written apart from the C parser so that the
# tests compare two readings of the format. Prints "fields;root;...;leaf N"
# per entry, unsorted and unsummed, offsets kept; the test sorts and sums.
# Not handled (the C parser's own tests cover them): several stacks in a
# key, perf and raw modes, histograms, CRLF, cut-off entries.
function emit(count,    line, i) {
	line = fields
	for (i = n; i >= 1; i--)
		line = line (line == "" ? "" : ";") frame[i]
	print line " " count
	inside = 0
}
function add_fields(text,    parts, k, i) {
	k = split(text, parts, /, /)
	for (i = 1; i <= k; i++) {
		gsub(/^[ \t]+|[ \t]+$/, "", parts[i])
		if (parts[i] != "")
			fields = fields (fields == "" ? "" : ";") parts[i]
	}
}
{
	sub(/[ \t]+$/, "")
}
!inside && /^[ \t]*@[A-Za-z0-9_]*\[/ {
	rest = $0
	sub(/^[ \t]*@[A-Za-z0-9_]*\[/, "", rest)
	fields = ""
	n = 0
	if (rest ~ /\]: [0-9]+$/) { # a one-line entry: only an empty stack counts
		count = rest; sub(/.*\]: /, "", count)
		sub(/\]: [0-9]+$/, "", rest)
		if (rest == "" || rest ~ /^, |, $|, , /) { add_fields(rest); emit(count) }
		next
	}
	sub(/,$/, "", rest)
	add_fields(rest)
	inside = 1
	next
}
inside && /^[ \t]*[\],]/ {
	text = $0
	sub(/^[ \t]*,?[ \t]*/, "", text)
	count = text; sub(/.*\]: /, "", count)
	sub(/\]: [0-9]+$/, "", text)
	add_fields(text)
	emit(count)
	next
}
inside && /[^ \t]/ {
	f = $0
	sub(/^[ \t]+/, "", f)
	gsub(/;/, ":", f)
	frame[++n] = f
}
