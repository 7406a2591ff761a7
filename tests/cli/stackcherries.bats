#!/usr/bin/env bats
# The stackcherries ruleset: only the front stone of a segment may be
# taken.  Expected values derived by hand.
load common

@test "options: the front stone only" {
	# BRB_RB: Left takes the front of BRB; Right the front of RB
	run sh -c 'cg-parse -r stackcherries BRB_RB | cg-options -t'
	assert_success
	assert_output "$(printf 'BRB_RB\tRB_RB\tBRB_B')"
}

@test "synchronized values by hand" {
	# B_R: both take their stone at once -> empty: 0.
	# BB_R: -> B: decided 1.  BRB_R: -> RB, where only Right can move
	# (the front is R) and could take one stone alone: -1.
	run sh -c 'cg-parse -r stackcherries B_R BB_R BRB_R | cg-synch -t'
	assert_success
	assert_output "$(printf 'B_R\t0\nBB_R\t1\nBRB_R\t-1')"
}

@test "alternating: a one-colour position is its number of stones" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	run sh -c 'cg-parse -r stackcherries BBB_B RR | cg-canon -t'
	assert_output "$(printf 'BBB_B\t4\nRR\t-2')"
}

@test "bad characters are errors with their column" {
	run cg cg-parse -r stackcherries 'B%'
	assert_failure 1
	assert_output --partial "column 2"
}
