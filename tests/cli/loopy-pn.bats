#!/usr/bin/env bats
# cg-outcome --search pns on loopy games: proof-number searches from the
# root, never the whole graph.  Whenever it answers, the answer is the
# one of a brute force written for the tests (tests/cli/loopy/strips.py,
# brute.py: iteration to a fixed point over the whole graph), never of
# cgtools' code; where it cannot decide it says so and exits 1.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

@test "pns on every Backsliding Toads and Frogs strip up to 7 squares: the brute force's classes" {
	python3 -c '
import itertools
for n in range(1, 8):
    for t in itertools.product(".tf", repeat=n):
        print("".join(t))' > "$T/pos"
	[ "$(wc -l < "$T/pos")" -eq 3279 ]
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" backsliding $(cat "$T/pos") |
	    cut -f1,2 > "$T/want"
	cg cg-parse -r backsliding < "$T/pos" | cg cg-outcome -t --search pns > "$T/got"
	diff "$T/want" "$T/got"
	# the draws and the classes with one draw are among them
	for c in D PHat PCheck NHat NCheck; do
		grep -q "	$c\$" "$T/want" || { echo "no $c"; return 1; }
	done
}

@test "pns on random loopy documents: the brute force's classes" {
	python3 "$CG_ROOT/tests/cli/loopy/brute.py" 40 150 partizan "$T"
	for i in $(seq 0 149); do
		cg cg-outcome -t --search pns "$T/g$i.cgt" > "$T/g$i.got" ||
		    { echo "g$i: exit $?"; return 1; }
		cut -f1,2 "$T/g$i.want" | diff - "$T/g$i.got" ||
		    { cat "$T/g$i.cgt"; return 1; }
	done
	python3 "$CG_ROOT/tests/cli/loopy/brute.py" 41 40 impartial "$T"
	for i in $(seq 0 39); do
		# impartial: a value 0 is P, inf without 0 in K a draw, else N
		cut -f1,2 "$T/g$i.want" | sed -e 's/	0$/	P/' \
		    -e 's/	inf(0[,)].*/	N/' -e 's/	inf.*/	D/' -e 's/	[0-9]*$/	N/' > "$T/g$i.cls"
		cg cg-outcome -t --search pns "$T/g$i.cgt" | diff "$T/g$i.cls" - ||
		    { cat "$T/g$i.cgt"; return 1; }
	done
}

@test "pns answers a large Fox and Geese position that exploration cannot under the same memory" {
	# Nine geese on the 8x8 board, the fox on a1 penned by the goose on
	# b2 (the fox's only square, b2, is taken; a goose never moves up).
	# The fox to move has no move: Right moving first loses.  The geese
	# to move move a goose of the top rows, and the fox still has no
	# move: Left moving first wins.  Class L (by hand).
	p='.x.x.x.x|x.x.x.x.|........|........|........|........|.x......|o.......'
	run bash -c "echo '$p' | cg-outcome -r foxgeese -t --search pns --max-memory 40"
	assert_success
	assert_output "$p	L"
	run bash -c "echo '$p' | cg-outcome -r foxgeese -t --max-memory 40"
	assert_failure 1
	assert_output --partial "game too large to explore: memory limit of 40 MB reached"
}

@test "pns says when it cannot decide, and gives the class alone" {
	# the start of Fox and Geese with four geese: far too large a proof
	# for 20 MB
	p='.x.x.x.x|........|........|........|........|........|........|o.......'
	run bash -c "echo '$p' | cg-outcome -r foxgeese -t --search pns --max-memory 20"
	assert_failure 1
	assert_output --regexp "^cg-outcome: -:1: the proof-number search cannot decide the game: memory limit of 20 MB reached after [0-9]+ positions and [0-9]+ tree nodes\$"
	for o in --remoteness --children; do
		run bash -c "cg-parse -r backsliding t.f | cg-outcome --search pns $o"
		assert_failure
		assert_output --partial "outcome class alone"
	done
}
