#!/usr/bin/env bats
# The push ruleset: notation, options (derived by hand from the rules),
# round trips, and the alternating values of tests/vectors/synch.tsv.
load common

@test "parse and print: synonyms, trailing gaps dropped, empty row" {
	run sh -c 'cg-parse -r push "b.r W" BR__ _ | grep "^N" | cut -f3'
	assert_success
	assert_output "$(printf 'B_R_R\nBR\n_')"
}

@test "bad characters are errors with their column" {
	run cg cg-parse -r push 'BRX'
	assert_failure 1
	assert_output --partial "column 3"
}

@test "options: a push shunts the block to the nearest gap; index 0 falls off" {
	# B_RB: Left pushes 0 (falls off) -> __RB -> "__RB"; Left pushes 3:
	# block R,B at 2..3 moves into the gap at 1 -> BRB; Right pushes 2
	# into the gap -> BR_B.
	run sh -c 'cg-parse -r push B_RB | cg-options -t'
	assert_success
	assert_output "$(printf 'B_RB\t__RB, BRB\tBR_B')"
}

@test "joint options: the smaller index is pushed first" {
	# BR: Left 0 then Right 1 on _R -> R (index 0)
	run sh -c 'cg-parse -r push BR | cg-options -j | grep "^J"'
	assert_success
	assert_output --partial "$(printf 'J\t1\t0\t0\t')"
}

@test "alternating values (cg-canon) of synch.tsv" {
	heavy
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors synch.tsv push canon -- cg-canon -t
}
