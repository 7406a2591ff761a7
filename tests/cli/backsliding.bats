#!/usr/bin/env bats
# Backsliding Toads and Frogs (backsliding(7)), a loopy ruleset.  Expected
# values come from CGSuite's tests (cited), from hand derivations in the
# comments, or from the brute force of tests/cli/loopy/strips.py, which
# has the rules written out in Python, never from cgtools' code.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

@test "backsliding: positions read and print as toads(7) writes them" {
	run cg cg-parse -r backsliding 'TT..ff' '.'
	assert_success
	assert_line "N	1	tt..ff"
	assert_line "N	2	."
	run cg cg-parse -r backsliding 'tx'
	assert_failure 1
	assert_output --partial "cg-parse: argument 1: bad backsliding position 'tx': column 2: expected 't', 'f' or '.', found 'x'"
	run cg cg-parse -r backsliding ''
	assert_failure 1
	assert_output --partial "empty strip"
}

@test "backsliding: moves forward, jumps forward, slides back, never jumps back" {
	# .t.f: the toad slides forward (2-3) or back (2-1); the frog slides
	# forward only (4-3), the edge is behind it
	run bash -c "cg-parse -r backsliding .t.f | cg-options -t"
	assert_output ".t.f	..tf, t..f	.tf."
	# .tf.: the toad jumps the frog (2-4) or slides back (2-1); the frog
	# jumps the toad (3-1) or slides back (3-4)
	run bash -c "cg-parse -r backsliding .tf. | cg-options -t"
	assert_output ".tf.	..ft, t.f.	ft.., .t.f"
	# .ft.: each creature has the other behind it and an empty square
	# beyond: no backward jump, so the toad only slides forward (3-4)
	# and the frog only forward (2-1); ft: no move at all
	run bash -c "cg-parse -r backsliding ft .ft. | cg-options -t"
	assert_line "ft		"
	assert_line ".ft.	.f.t	f.t."
}

@test "backsliding: ttt..fff is a draw, as CGSuite's value of it says" {
	# CGSuite, GameStripTest: BackslidingToadsAndFrogs("ttt..fff").GameValue
	# is {on||0|-1/2} & {1/2|0||off}.  Left moving first: in the offside
	# {1/2|0||off} (endless play counts for Right) Left's one move is to
	# {1/2|0}, where Right moves to 0 and Left cannot move, so Left cannot
	# force a win; in the onside {on||0|-1/2} (endless play counts for
	# Left) Left moves to on and never loses, so Left does not lose.
	# Right moving first, mirrored: to off in the offside, and {0|-1/2}
	# then 0 in the onside.  A draw whoever starts: D.
	run bash -c "cg-parse -r backsliding ttt..fff | cg-outcome -t --remoteness"
	assert_success
	assert_output "ttt..fff	D	d d"
}

@test "backsliding: every strip of up to 7 squares as a brute force solves it" {
	python3 -c '
import itertools
for n in range(1, 8):
    for t in itertools.product(".tf", repeat=n):
        print("".join(t))' > "$T/pos"
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" backsliding $(cat "$T/pos") > "$T/want"
	[ "$(wc -l < "$T/want")" -eq 3279 ]
	run bash -c "cg-parse -r backsliding < '$T/pos' | cg-outcome -t --remoteness | diff - '$T/want'"
	assert_success
	# the strips meet the classes only loopy games have
	for c in D PHat PCheck NHat NCheck; do
		grep -q "	$c	" "$T/want" || { echo "no $c"; return 1; }
	done
}

@test "backsliding: the graph cg-options -a writes gives the same values" {
	for p in t.f t..f tt..ff .t.tf.f; do
		want=$(cg-parse -r backsliding $p | cg-outcome -t --remoteness)
		run bash -c "cg-parse -r backsliding $p | cg-options -a | cg-outcome -t --remoteness"
		assert_success
		assert_equal "${output#*	}" "${want#*	}"
	done
	run bash -c "cg-parse -r backsliding t.f | cg-options -a | head -n 1"
	assert_output "cgt	2"
}

@test "backsliding: cg-synch refuses it, cg-canon explores it" {
	run bash -c "cg-parse -r backsliding t.f | timeout 20 cg-synch -t"
	assert_failure 1
	assert_output --partial "cg-synch: -:3: ruleset 'backsliding' is loopy"
	# cg-canon explores a loopy position's whole graph (its class is the
	# brute force's, strips.py: P)
	run bash -c "cg-parse -r backsliding t.f | timeout 20 cg-canon -t -p outcome"
	assert_success
	assert_output "t.f	P"
	[ "$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" backsliding t.f | cut -f2)" = P ]
}

@test "backsliding: an interrupt stops a large exploration" {
	# twelve toads and twelve frogs on 32 squares reach far more
	# positions than the time this test waits: the signal goes once the
	# first progress line shows the exploration under way
	"$CG_BUILD/bin/cg-outcome" -r backsliding -t -v --max-memory 400 \
	    <<<"tttttttttttt........ffffffffffff" > "$T/out" 2> "$T/err" &
	pid=$!
	for i in $(seq 1 200); do
		grep -q 'positions explored' "$T/err" && break
		sleep 0.05
	done
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 130 ] || { cat "$T/err"; return 1; }
	run tail -n 1 "$T/err"
	assert_output "cg-outcome: interrupted"
	grep -q '^cg-outcome: [0-9]* positions explored, [0-9]* waiting' "$T/err"
	[ ! -s "$T/out" ]
}

@test "backsliding: --dot draws the cycles, a move and its way back" {
	# t.f.: Left's 1-2 leads to .tf., whose toad slides back (2-1)
	run bash -c "cg-parse -r backsliding t.f. | cg-options -a --dot"
	assert_success
	assert_line '	n1 [label="t.f."];'
	assert_line --regexp '^	n1 -> (n[0-9]+) \[color=blue, label="1-2"\];$'
	to=$(printf '%s\n' "$output" | sed -n 's/^	n1 -> \(n[0-9]*\) \[color=blue, label="1-2"\];$/\1/p')
	assert_line "	$to -> n1 [color=blue, label=\"2-1\"];"
	command -v dot > /dev/null || skip "no Graphviz"
	printf '%s\n' "$output" | dot -Tsvg > "$T/g.svg"
	grep -q '<svg' "$T/g.svg"
}

@test "backsliding: cg-canon's sides of every strip of 6 squares, by a brute force" {
	# every strip of three and of six squares (t.f, 0 in cg-rules(7),
	# among them; some have two sides that differ): the onside and
	# offside cg-canon gives
	# must equal the position in that side's order, as loopy/sides.py's
	# own solver of the sides' order finds it on the positions' graph
	python3 -c "
import itertools
for n in (3, 6):
    for t in itertools.product('tf.', repeat=n):
        print(''.join(t))" > "$T/pos"
	cg cg-parse -r backsliding < "$T/pos" | cg cg-options -a > "$T/g.cgt"
	cg cg-canon -t -p onside,offside "$T/g.cgt" > "$T/sides"
	[ "$(wc -l < "$T/sides")" -eq 756 ]
	[ "$(awk -F'\t' '$2 != $3' "$T/sides" | wc -l)" -ge 1 ]
	cut -f2,3 "$T/sides" | tr '\t' '\n' > "$T/lits"
	echo on >> "$T/lits"
	cg cg-parse -r game < "$T/lits" > "$T/s.cgt"
	run python3 "$CG_ROOT/tests/cli/loopy/sides.py" merged "$T/g.cgt" "$T/s.cgt"
	assert_success
	[ "$(grep -c '^ok$' <<< "$output")" -eq 756 ]
}
