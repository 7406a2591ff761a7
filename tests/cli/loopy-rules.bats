#!/usr/bin/env bats
# Loopy rulesets (CG_LOOPY, a rules file's 'loopy'): the tools that need
# every game to end refuse them with file:line and exit 1, none hangs;
# cg-outcome solves their positions with draws.  Expected values come
# from hand derivations in the comments or from the brute force of
# tests/cli/loopy/brute.py (its solve()), never from cgtools' code.
load common

setup() {
	T=$(mktemp -d)
	mkdir "$T/rules"
	# A strip where each player slides a piece of their own one square
	# either way into an empty square: moves come straight back.
	printf '%s\n' 'summary slide: l and r slide either way' \
	    'board strip' 'cells . l r' 'loopy' \
	    'left  l . -> . l  along e w' 'right r . -> . r  along e w' \
	    > "$T/rules/slide.cgr"
	export CG_PLUGIN_PATH=$T/rules
}

teardown() {
	rm -rf "$T"
}

# rules_error LINES...: load a rules file made of the lines
rules_error() {
	printf '%s\n' "$@" > "$T/rules/bad.cgr"
	run cg cg-parse -r bad x
}

@test "a rules file says loopy in place of a measure, and cg-parse -l shows it" {
	run cg cg-parse -L
	assert_success
	assert_line "slide	loopy	slide: l and r slide either way"
}

@test "loopy goes with neither a measure nor an end on the board" {
	rules_error 'board strip' 'cells . x' 'loopy' 'measure x' 'left x . -> . x'
	assert_failure 1
	assert_output --partial "bad.cgr:4: 'measure' and 'loopy' both given"
	rules_error 'board strip' 'cells . x' 'loopy' 'loopy' 'left x . -> . x'
	assert_failure 1
	assert_output --partial "bad.cgr:4: 'loopy' given twice"
	rules_error 'board heaps' 'loopy' 'both take any'
	assert_failure 1
	assert_output --partial "bad.cgr:2: 'loopy' is for grid and strip boards"
	rules_error 'board strip' 'cells . x' 'loopy' 'left x . -> . x' \
	    'win left x'
	assert_failure 1
	assert_output --partial "bad.cgr:3: 'loopy' with 'win'"
	rules_error 'board strip' 'cells . x' 'left x . -> . x'
	assert_failure 1
	assert_output --partial "or says 'loopy'"
}

@test "every tool that needs games to end refuses a loopy ruleset, none hangs" {
	local t
	for t in cg-canon cg-synch cg-plot 'cg-kb-build -o x.kb' \
	    'cg-kb-build --measure 0-9 -o x.kb'; do
		run bash -c "cg-parse -r slide 'l..r' | timeout 20 $t"
		assert_failure 1
		assert_output "${t%% *}: -:3: ruleset 'slide' is loopy (its moves can come back to a position, so a game may never end): this program needs every game to end (cg-outcome solves loopy games)"
	done
	run timeout 20 cg-kb-build -r slide --family 3 -o "$T/x.kb"
	assert_failure 1
	assert_output --partial "cg-kb-build: ruleset 'slide' is loopy"
	cg cg-parse -r nim 3 > "$T/n.cgt"
	run timeout 20 cg-kb-build -o "$T/n.kb" "$T/n.cgt"
	assert_success
	run bash -c "cg-parse -r slide l.r | timeout 20 cg-kb lookup $T/n.kb"
	assert_failure 1
	assert_output --partial "cg-kb: -:3: ruleset 'slide' is loopy"
}

@test "cg-options lists and expands a loopy ruleset's positions, cycles and all" {
	run bash -c "cg-parse -r slide 'l..r' | cg-options -t"
	assert_success
	assert_output "l..r	.l.r	l.r."
	# l.r: Left slides l to the middle (.lr), Right slides r to the
	# middle (lr.); from each the only move goes straight back.
	run bash -c 'cg-parse -r slide l.r | cg-options -a'
	assert_success
	assert_line --index 0 "cgt	2"
	assert_line "N	2	.lr"
	assert_line "N	3	lr."
	assert_line "L	2	1	2-1"
	assert_line "R	3	1	2-3"
}
