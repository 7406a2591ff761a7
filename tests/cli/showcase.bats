#!/usr/bin/env bats
# scripts/showcase (make showcase): the tour shows the suite - values, who
# wins, a knowledge base, best moves, a proof check, pictures, a game - and
# says every line of output in words (a bare "0" under "who wins" said
# nothing).
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

@test "the showcase runs, shows the suite and makes its files" {
	run env CG_SHOWCASE_OUT="$T" sh "$CG_ROOT/scripts/showcase" "$CG_BUILD"
	assert_success
	assert_line "showcase: done"
	refute_output --partial "skipped"
	refute_output --partial "failed"
	# a knowledge base, best moves, a proof check, pictures, a game
	assert_line --regexp '^\$ cg-kb-build -r domineering --family 8 -o '
	assert_line --regexp '^    positions stored: [0-9]+, each once up to symmetry$'
	assert_line --regexp '^\$ echo .* \| cg-kb best '
	assert_line --regexp '^    from \.\.\.\|\.\.\. Left plays b1-b2, to \.#\.\|\.#\. \(value 2, outcome L\): a winning move$'
	assert_line --regexp '^\$ cg-kb-build --verify '
	assert_line --regexp 'sound \(1041 entries'
	assert_line --regexp '^    cg-outcome: check: [0-9]+ positions in the proof, 0 wrong database entries$'
	assert_line --regexp '^\$ .*\| cg-plot > '
	assert_line --regexp '^\$ .*\| cg-options -a --dot > '
	assert_line --regexp '^\$ printf .* \| cg-play '
	xmllint --noout "$T/thermographs.svg"
	[ -s "$T/clobber.dot" ]
	[ -s "$T/domineering.cgkb" ]
}

@test "every line of the showcase's output says in words what it shows" {
	run env CG_SHOWCASE_OUT="$T" sh "$CG_ROOT/scripts/showcase" "$CG_BUILD"
	assert_success
	# the tools' output lines (indented) are said again in words: no raw
	# TAB-separated columns, no line of one bare token such as "0"
	run grep -c "$(printf '\t')" <<<"$output"
	assert_output 0
	run sh -c "env CG_SHOWCASE_OUT='$T' sh '$CG_ROOT/scripts/showcase' '$CG_BUILD' | grep -E '^    +[^ ]+\$'"
	assert_output ""
	# outcome classes and nim values come with what they mean
	run env CG_SHOWCASE_OUT="$T" sh "$CG_ROOT/scripts/showcase" "$CG_BUILD"
	assert_line "    ....|.... has nim value 0: the second player wins"
	assert_line "    xxo: L: Left wins, whoever starts"
	assert_line "    xoo|x..: P: the second player wins (whoever moves first loses)"
}
