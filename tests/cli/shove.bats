#!/usr/bin/env bats
# The shove ruleset: options derived by hand, synchronized and alternating
# values of tests/vectors/synch.tsv.
load common

@test "options: everything left of the stone moves one square left" {
	# BRB: Left shoves 0 -> _RB; Left shoves 2 -> RB_ = RB; Right shoves
	# 1 -> R_B
	run sh -c 'cg-parse -r shove BRB | cg-options -t'
	assert_success
	assert_output "$(printf 'BRB\t_RB, RB\tR_B')"
}

@test "joint: squares up to the smaller index move two, then one" {
	# B_R_B with Left 4, Right 2: squares 0..2 move two left (B falls
	# off, R goes from 2 to 0), squares 3..4 one left (B from 4 to 3):
	# R__B.  Its only joint option (B3, R0) drops R and moves B to 2:
	# __B, decided 3.
	run sh -c 'echo B_R_B | cg-synch -r shove --matrix | grep "^entry	1	0"'
	assert_success
	assert_output "$(printf 'entry\t1\t0\tR__B\t3')"
}

@test "bad characters are errors with their column" {
	run cg cg-parse -r shove 'B?'
	assert_failure 1
	assert_output --partial "column 2"
}

@test "synch rows of synch.tsv" {
	check_vectors synch.tsv shove synch -- cg-synch -t
}

@test "alternating values (cg-canon) of synch.tsv" {
	heavy
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors synch.tsv shove canon -- cg-canon -t
}
