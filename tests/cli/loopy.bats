#!/usr/bin/env bats
# Loopy games: cgt(5) version-2 documents with cycles through cg-outcome
# (classes with draws, remoteness, generalized Sprague-Grundy values), and
# the tools that refuse them.  Expected values come from the literature
# (cited at each test), from hand derivations in the comments, or from
# the brute force of tests/cli/loopy/brute.py, never from cgtools' code.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

need_plugin() {
	[ -f "$CG_BUILD/plugins/$1.so" ] || skip "plugin $1 not built"
}

# mk FILE LINES...: write the lines (printf %b escapes) to $T/FILE
mk() {
	local f=$T/$1
	shift
	: > "$f"
	for l in "$@"; do printf '%b\n' "$l" >> "$f"; done
}

# Ferguson, Game Theory, Part I (Impartial Combinatorial Games), section
# 3.4, Figure 3.4: a -> b -> c -> a, c -> d -> e.  Ferguson: e is
# terminal (value 0), d has value 1, and a, b, c are tied (drawn).  The
# infinite values follow from the definition (Smith; Fraenkel-Yesha):
# a's and b's only options are infinite (K empty); c's options are a
# (infinite) and d (1), so K = {1}.
ferguson() {
	mk f.cgt 'cgt\t2' 'ruleset\t' 'N\t1\ta' 'N\t2\tb' 'N\t3\tc' 'N\t4\td' 'N\t5\te'
	for e in 1:2 2:3 3:1 3:4 4:5; do
		printf 'L\t%s\t%s\nR\t%s\t%s\n' ${e%:*} ${e#*:} ${e%:*} ${e#*:} >> "$T/f.cgt"
	done
	printf 'root\t%s\n' 1 2 3 4 5 >> "$T/f.cgt"
	echo end >> "$T/f.cgt"
}

@test "Ferguson's Figure 3.4: a, b, c drawn, d = 1, e = 0" {
	ferguson
	run cg cg-outcome -t -n "$T/f.cgt"
	assert_success
	assert_output $'a\tinf\nb\tinf\nc\tinf(1)\nd\t1\ne\t0'
	run cg cg-outcome -t "$T/f.cgt"
	assert_success
	assert_output $'a\tD\nb\tD\nc\tD\nd\tN\ne\tP'
}

@test "remoteness by hand: the winner hurries, the loser delays; draws have none" {
	# 1 = a: Left to b, Right to 3 (no moves); 2 = b: both back to a.
	# a, Left first: to b, where Right goes back to a: a draw.  a, Right
	# first: to 3, where Left cannot move: w1.  b, Left first: to a with
	# Right to move, who wins in 1: l2.  b, Right first: to a with Left
	# to move: a draw.
	mk a.cgt 'cgt\t2' 'ruleset\t' 'N\t1\ta' 'N\t2\tb' 'N\t3\tend' \
	    'L\t1\t2' 'R\t1\t3' 'L\t2\t1' 'R\t2\t1' 'root\t1' 'root\t2' 'root\t3' 'end'
	run cg cg-outcome -t --remoteness "$T/a.cgt"
	assert_success
	assert_output $'a\tNCheck\td w1\nb\tPCheck\tl2 d\nend\tP\tl0 l0'
	# 1: a pass for both (a self loop) and nothing else: a draw both
	# ways, D.  2: the same pass, and Right may also move to 3 (no
	# moves).  Right moving first goes to 3 and wins: w1.  Left moving
	# first can only pass, and then Right goes to 3: l2.  So R.
	mk p.cgt 'cgt\t2' 'N\t1' 'N\t2' 'N\t3' 'L\t1\t1' 'R\t1\t1' 'L\t2\t2' 'R\t2\t2' \
	    'R\t2\t3' 'root\t1' 'root\t2' 'end'
	run cg cg-outcome -t --remoteness "$T/p.cgt"
	assert_success
	assert_output $'#1\tD\td d\n#2\tR\tl2 w1'
}

@test "an impartial self loop with a way out is inf(0): the player to move wins" {
	# 1 -> {1, 2}, 2 terminal: round 0 gives 2 the value 0; 1 has an
	# option of value 0, and its other option (itself) never gets one of
	# value 1, so 1 is infinite with K = {0}: N, won by moving to 2
	printf 'cgt\t2\nN\t1\nN\t2\nL\t1\t1\nR\t1\t1\nL\t1\t2\nR\t1\t2\nroot\t1\nend\n' > "$T/s.cgt"
	run cg cg-outcome -t -n --remoteness "$T/s.cgt"
	assert_success
	assert_output $'#1\tinf(0)\tw1 w1'
	run cg cg-outcome -t "$T/s.cgt"
	assert_output $'#1\tN'
}

@test "random loopy partizan documents: classes and remoteness as a brute force finds them" {
	python3 "$CG_ROOT/tests/cli/loopy/brute.py" 40 60 partizan "$T"
	for i in $(seq 0 59); do
		cg cg-outcome -t --remoteness "$T/g$i.cgt" > "$T/g$i.got" ||
		    { echo "g$i: exit $?"; return 1; }
		diff "$T/g$i.want" "$T/g$i.got" || { cat "$T/g$i.cgt"; return 1; }
	done
}

@test "random loopy impartial documents: generalized Sprague-Grundy values as u + *k plays" {
	python3 "$CG_ROOT/tests/cli/loopy/brute.py" 41 40 impartial "$T"
	for i in $(seq 0 39); do
		cg cg-outcome -t -n "$T/g$i.cgt" > "$T/g$i.got" ||
		    { echo "g$i: exit $?"; return 1; }
		diff "$T/g$i.want" "$T/g$i.got" || { cat "$T/g$i.cgt"; return 1; }
	done
}

@test "a document with a cycle is annotated and written back as version 2, idempotently" {
	ferguson
	run cg cg-outcome "$T/f.cgt"
	assert_success
	assert_line --index 0 $'cgt\t2'
	assert_line $'A\t3\toutcome\tD'
	cg cg-outcome "$T/f.cgt" > "$T/1.cgt"
	cg cg-outcome "$T/1.cgt" | cmp - "$T/1.cgt"
	cg cg-outcome -n --remoteness "$T/f.cgt" > "$T/2.cgt"
	grep -q $'^A\t3\tnimber\tinf(1)$' "$T/2.cgt"
	grep -q $'^A\t3\tremoteness\td d$' "$T/2.cgt"
	grep -q $'^A\t4\tremoteness\tw1 w1$' "$T/2.cgt"
}

@test "an acyclic document keeps today's answers; --remoteness adds the moves to the end" {
	need_plugin nim
	# nim 2: N, nim value 2; expanded by cg-options -a, the first player
	# wins in one move (to 0) whoever moves
	run cg cg-outcome -r nim -t <<< 2
	assert_output $'2\tN'
	run bash -c "cg-parse -r nim 2 | cg-options -a | cg-outcome -t --remoteness"
	assert_success
	assert_output $'2\tN\tw1 w1'
	run bash -c "cg-parse -r nim 2 | cg-options -a | cg-outcome -t -n --remoteness"
	assert_output $'2\t2\tw1 w1'
}

@test "refusals: -m, -g, --children on a cycle; -n on a partizan one; a position without its E record" {
	mk a.cgt 'cgt\t2' 'N\t1' 'N\t2' 'L\t1\t2' 'R\t2\t1' 'root\t1' 'end'
	for o in -m -g --children; do
		run cg cg-outcome $o "$T/a.cgt"
		assert_failure 1
		assert_output "cg-outcome: $T/a.cgt:5: node 2 is its own follower: a loopy game (a cycle), which -m, -g and --children do not take"
	done
	run cg cg-outcome -n "$T/a.cgt"
	assert_failure 1
	assert_output "cg-outcome: $T/a.cgt:2: node 1 is not impartial (its Left and Right options differ): -n needs an impartial game"
	need_plugin nim
	mk b.cgt 'cgt\t2' 'ruleset\tnim' 'N\t1\t1' 'N\t2\t0' 'L\t1\t2' 'R\t1\t2' 'L\t2\t1' 'root\t1' 'end'
	run cg cg-outcome "$T/b.cgt"
	assert_failure 1
	assert_output "cg-outcome: $T/b.cgt:3: node 1 has a position but no 'E' record: the game of a document taken as a graph needs every node's options (cg-options -a writes them)"
	run cg cg-outcome --remoteness -m "$T/a.cgt"
	assert_failure 2
}

@test "tools that take only games that end refuse a cycle and never hang" {
	ferguson
	echo '{1|0}' > "$T/g"
	cg cg-kb-build -r game -o "$T/gb" "$T/g"
	for t in cg-synch cg-plot cg-kb; do
		case $t in
		cg-kb) run timeout 20 "$CG_BUILD/bin/$t" lookup "$T/gb" "$T/f.cgt" ;;
		*) run timeout 20 "$CG_BUILD/bin/$t" "$T/f.cgt" ;;
		esac
		[ "$status" -ne 124 ] || { echo "$t hangs"; return 1; }
		assert_failure 1
		# line 12 is L 3 1, the move from c back to a
		assert_output "$t: $T/f.cgt:12: node 3 is its own follower: a loopy game (a cycle), which this program does not take (cg-outcome solves it)"
	done
	run timeout 20 "$CG_BUILD/bin/cg-kb-build" -o "$T/k.cgkb" "$T/f.cgt"
	assert_failure 1
	assert_output --partial "node 3 is its own follower"
	# cg-options walks through the expanded nodes of a graph with cycles
	# and writes it again as it was
	run timeout 20 "$CG_BUILD/bin/cg-options" "$T/f.cgt"
	assert_success
	cg cg-options "$T/f.cgt" > "$T/f2.cgt"
	run bash -c "cg-options '$T/f2.cgt' | cmp - '$T/f2.cgt'"
	assert_success
	run bash -c "cg-options -t '$T/f.cgt' | head -n 3"
	assert_output "a	b	b
b	c	c
c	a, d	a, d"

	# cg-canon takes loopy games: a, b and c are no stoppers (the
	# impartial cycle a -> b -> c -> a is alternating play without end),
	# so they get sides; d = {e|e} = * and e = 0 (cg-canon(1), loopy
	# games)
	run timeout 20 "$CG_BUILD/bin/cg-canon" -t "$T/f.cgt"
	assert_success
	assert_output --partial $'d\t*\ne\t0'
	# a's sides, checked by the brute force of the sides' order
	# (loopy/sides.py) against a written out as a literal: a = {b|b},
	# b = {c|c}, c = {a,*|a,*}
	IFS=$'\t' read -r _ on off <<< "$(cg cg-canon -t -p onside,offside "$T/f.cgt" | head -n 1)"
	cg cg-parse -r game -- 'a{{{a,*|a,*}|{a,*|a,*}}|{{a,*|a,*}|{a,*|a,*}}}' \
	    "$on" "$off" > "$T/sides.cgt"
	run python3 "$BATS_TEST_DIRNAME/loopy/sides.py" check "$T/sides.cgt"
	assert_output ok
}
