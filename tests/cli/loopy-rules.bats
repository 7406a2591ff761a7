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
	for t in cg-synch cg-plot 'cg-kb-build -o x.kb' \
	    'cg-kb-build --measure 0-9 -o x.kb'; do
		run bash -c "cg-parse -r slide 'l..r' | timeout 20 $t"
		assert_failure 1
		assert_output "${t%% *}: -:3: ruleset 'slide' is loopy (its moves can come back to a position, so a game may never end): this program needs every game to end (cg-outcome solves loopy games)"
	done
	# a loopy ruleset's base is one retrograde analysis of a family
	# (kb-loopy.bats), and this rules file declares none
	run timeout 20 cg-kb-build -r slide --family 3 -o "$T/x.kb"
	assert_failure 1
	assert_output "cg-kb-build: ruleset 'slide' cannot enumerate families"
	cg cg-parse -r nim 3 > "$T/n.cgt"
	run timeout 20 cg-kb-build -o "$T/n.kb" "$T/n.cgt"
	assert_success
	# a lookup takes loopy positions, from a base of their ruleset only
	run bash -c "cg-parse -r slide l.r | timeout 20 cg-kb lookup $T/n.kb"
	assert_failure 1
	assert_output "cg-kb: $T/n.kb: base is for 'nim', not 'slide'"
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

# every string over the characters $1 of lengths 1 to $2
strings() {
	python3 -c '
import itertools, sys
for n in range(1, int(sys.argv[2]) + 1):
    for t in itertools.product(sys.argv[1], repeat=n):
        print("".join(t))' "$1" "$2"
}

@test "cg-outcome solves positions of a loopy ruleset: classes and remoteness as a brute force finds them" {
	strings '.lr' 5 > "$T/pos"
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" slide $(cat "$T/pos") > "$T/want"
	run bash -c "cg-parse -r slide $(tr '\n' ' ' < "$T/pos") | cg-outcome -t --remoteness | diff - '$T/want'"
	assert_success
	# every class of a game that ends meets the test (the draws come
	# with Backsliding Toads and Frogs, backsliding.bats)
	assert_equal "$(cut -f2 "$T/want" | sort -u | tr '\n' ' ')" "L N P R "
	# hand check: in l..r the player to move is squeezed against the
	# edge: L .l.r, R .lr., L l.r., R lr.., and Left cannot move
	assert_equal "$(grep '^l\.\.r	' "$T/want")" "l..r	P	l4 l4"
}

@test "the same values from the graph cg-options -a writes, cycles and all" {
	for p in l..r .l.r. l.l.r; do
		run bash -c "cg-parse -r slide $p | cg-options -a | cg-outcome -t --remoteness"
		assert_success
		want=$(cg-parse -r slide $p | cg-outcome -t --remoteness)
		assert_equal "${output#*	}" "${want#*	}"
	done
	run bash -c "cg-parse -r slide l..r | cg-options -a | grep -c '^N'"
	assert_output 6
}

@test "cg-outcome -n gives generalized Sprague-Grundy values of a loopy impartial ruleset" {
	printf '%s\n' 'board strip' 'cells . x' 'loopy' \
	    'both x . -> . x  along e w' > "$T/rules/imp.cgr"
	strings '.x' 5 > "$T/pos"
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" imp -n $(cat "$T/pos") > "$T/want"
	run bash -c "cg-parse -r imp $(tr '\n' ' ' < "$T/pos") | cg-outcome -t -n --remoteness | diff - '$T/want'"
	assert_success
	grep -q '	inf	' "$T/want"
	run bash -c "cg-parse -r slide l.r | cg-outcome -n"
	assert_failure 1
	assert_output "cg-outcome: -:3: ruleset 'slide' is not impartial: -n needs an impartial game"
}

@test "cg-outcome refuses -m and -g for a loopy ruleset, and takes a partial graph" {
	for o in -m -g; do
		run bash -c "cg-parse -r slide l.r | cg-outcome $o"
		assert_failure 1
		assert_output "cg-outcome: -:3: ruleset 'slide' is loopy (its moves can come back to a position, so a game may never end): -m and -g do not take it"
	done
	# one level of options written out: the root is still explored
	# through the ruleset (l..r is P, as the first test finds)
	run bash -c "cg-parse -r slide l..r | cg-options | timeout 20 cg-outcome -t"
	assert_success
	assert_output "l..r	P"
	# a document of loopy positions and an abstract game: refused
	run bash -c "printf 'cgt\t1\nruleset\tslide\nN\t1\tl.r\nruleset\t\nN\t2\nE\t2\nroot\t1\nroot\t2\nend\n' | cg-outcome -t"
	assert_failure 1
	assert_output --partial "a root that is no position of a loopy ruleset"
}

@test "cg-outcome annotates the roots of a loopy ruleset and reports the graph it explored" {
	run bash -c "cg-parse -r slide l.r lr | cg-outcome --remoteness -v 2>'$T/err'"
	assert_success
	assert_line "A	1	outcome	N"
	assert_line "A	1	remoteness	w1 w1"
	assert_line "A	2	outcome	P"
	# l.r, .lr and lr. from it, and lr: 4 positions; moves: l.r has two,
	# .lr and lr. one each
	run cat "$T/err"
	assert_output --regexp '^cg-outcome: 4 positions, 4 moves explored and solved in [0-9.]+ s$'
}

@test "cg-outcome stops at the memory limit while exploring, with the root's line" {
	run bash -c "cg-parse -r slide l.r | cg-outcome -t --max-memory 1"
	assert_failure 1
	assert_output --regexp "^cg-outcome: -:3: game too large to explore: memory limit of 1 MB reached after [0-9]+ positions$"
}

@test "cg-outcome --children lists a loopy position's options with their classes" {
	# l..r: Left's l slides to .l.r, Right's r to l.r.; their classes
	# from the brute force
	want=$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" slide .l.r l.r. | cut -f2)
	run bash -c "cg-parse -r slide l..r | cg-outcome --children"
	assert_success
	assert_output "l..r	L:1-2	.l.r	$(sed -n 1p <<<"$want")
l..r	R:4-3	l.r.	$(sed -n 2p <<<"$want")"
	# impartial, with -n: each move once, with the option's value
	printf '%s\n' 'board strip' 'cells . x' 'loopy' \
	    'both x . -> . x  along e w' > "$T/rules/imp.cgr"
	want=$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" imp -n .x.. x... | cut -f2)
	run bash -c "cg-parse -r imp x... | cg-outcome --children -n"
	assert_success
	assert_output --partial "x...	1-2	.x..	$(sed -n 1p <<<"$want")"
	[ "${#lines[@]}" -eq 1 ]
}
