#!/usr/bin/env bats
# The cherries ruleset: options and joint options derived by hand from the
# rules, and the alternating values of tests/vectors/synch.tsv.
load common

@test "parse: separators collapse, empty position" {
	run sh -c 'cg-parse -r cherries "BR  rb" "__B_" _ | grep "^N" | cut -f3'
	assert_success
	assert_output "$(printf 'BR_RB\nB\n_')"
}

@test "options: a stone of your colour from either end" {
	# BRB_R: Left takes the front or the back B (RB_R, BR_R: one node,
	# as a segment read backwards is the same, so both print as the first);
	# Right takes the R
	run sh -c 'cg-parse -r cherries BRB_R | cg-options -t'
	assert_success
	assert_output "$(printf 'BRB_R\tRB_R, RB_R\tBRB')"
}

@test "joint options: the same segment loses both ends" {
	# BR: Left front, Right back, same segment -> empty (decided 0);
	# BR_RB: Left's moves 1< and 2>, Right's 1> and 2<.  (1<,1>) -> RB
	# (both ends of segment 1 go) ... value by hand: entries
	# (1<,1>) = RB, (1<,2<) = R_B, (2>,1>) = B_R, (2>,2<) = BR.  RB, BR
	# are 0 (they empty at once); R_B and B_R are decided 0 too (one
	# stone each): value 0.
	run sh -c 'echo BR | cg-synch -r cherries --matrix | grep "^entry"'
	assert_output "$(printf 'entry\t0\t0\t_\t0')"
	run sh -c 'echo BR_RB | cg-synch -r cherries -t'
	assert_output "$(printf 'BR_RB\t0')"
}

@test "decided values count the stones the mover could take" {
	# BBB: 3; RR_R: -3; BRB (Right cannot move): Left takes both B: 2
	run sh -c 'cg-parse -r cherries BBB RR_R BRB | cg-synch -t'
	assert_output "$(printf 'BBB\t3\nRR_R\t-3\nBRB\t2')"
}

@test "canonical form folds reversal and order: one node" {
	run sh -c 'cg-parse -r cherries BBR_RB RBB_BR | cg-options -a | grep -c "^N"'
	[ "$output" -ge 1 ]
}

@test "bad characters are errors with their column" {
	run cg cg-parse -r cherries 'BR_X'
	assert_failure 1
	assert_output --partial "column 4"
}

@test "alternating values (cg-canon) of synch.tsv" {
	heavy
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors synch.tsv cherries canon -- cg-canon -t
}
