#!/usr/bin/env bats
# cg-rules(7), the tutorial of rules files: every rules file it shows
# (the displays whose first line is "; NAME.cgr") is written into rules/,
# then every "$ command" of the page runs, in order, and must print what
# the page shows (tests/cli/examples.pl, reading the page's DESCRIPTION
# as if it were its EXAMPLES).
load common

setup() {
	T=$(mktemp -d)
	cd "$T"
}

teardown() {
	cd /
	rm -rf "$T"
}

PAGE="$CG_ROOT/man/man7/cg-rules.7"

@test "cg-rules(7): every rules file it shows is loaded, every step prints what it shows" {
	mkdir rules
	awk '
	    /^\.Bd -literal/ { inblk = 1; first = 1; file = ""; next }
	    /^\.Ed/ { if (file != "") close(file); inblk = 0; file = ""; next }
	    inblk && first { first = 0
		if ($0 ~ /^; [a-z0-9_-]+\.cgr$/) file = "rules/" substr($0, 3) }
	    inblk && file != "" { line = $0; gsub(/\\&/, "", line);
		gsub(/\\e/, "\\", line); print line > file }
	' "$PAGE"
	[ "$(ls rules | wc -l)" -ge 12 ]
	for f in rules/*.cgr; do
		name=$(basename "$f" .cgr)
		# (oops.cgr is refused on purpose; grab.cgr wants parameters)
		[ "$name" = oops ] || [ "$name" = grab ] && continue
		CG_PLUGIN_PATH=rules cg-parse -r "$name" < /dev/null > /dev/null ||
		    { echo "$f does not load"; return 1; }
	done
	sed 's/^\.Sh DESCRIPTION$/.Sh EXAMPLES/' "$PAGE" > cg-rules.7
	run perl "$CG_ROOT/tests/cli/examples.pl" cg-rules.7
	assert_success
	assert_line --regexp '^# [0-9]+ examples run$'
}

@test "Ski Jumps uses nothing the tutorial does not teach" {
	# each word of the language skijumps.cgr uses appears in cg-rules(7)
	for w in board grid cells measure left right along '.*' '|' '[' \
	    ':e' ':w' ':s'; do
		grep -q -F -- "$w" "$PAGE" || { echo "'$w' not in the tutorial"; return 1; }
	done
	for w in $(sed 's/;.*//' "$CG_ROOT/tests/rules/skijumps.cgr" | awk '{print $1}' | sort -u); do
		grep -q -w -- "$w" "$PAGE" || { echo "directive '$w' not in the tutorial"; return 1; }
	done
}
