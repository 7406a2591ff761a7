#!/usr/bin/env bats
# clobber ruleset: notation, options, move names, published values (when
# cg-canon is built).
load common

texts() { awk -F'\t' '$1 == "N" {print $3}'; }
round() { cg cg-parse -r clobber "$@" | texts | cg cg-parse -r clobber | texts; }
moves() {
	cg cg-parse -r clobber "$1" | cg cg-options |
	    awk -F'\t' -v s="$2" '$1 == "N" {t[$2] = $3} $1 == s {print $4 "\t" t[$3]}'
}

@test "clobber: parse and print round trip" {
	# upper case X and O are read as x and o
	run round 'xox|ox.' 'XO' '.' 'x.o|...'
	assert_success
	assert_output $'xox|ox.\nxo\n.\nx.o|...'
}

@test "clobber: bad positions name the column and the reason" {
	run cg cg-parse -r clobber 'xo#'
	assert_failure 1
	assert_output --partial "column 3: bad character '#'"
	run cg cg-parse -r clobber 'xo|x'
	assert_failure 1
	assert_output --partial 'column 5: bad board widths'
	run cg cg-parse -r clobber ''
	assert_failure 1
	assert_output --partial 'column 1: empty board'
}

@test "clobber: options of xo" {
	# x on a1 takes the o on b1 and the reverse; a lone stone is 0, so
	# both children are one node
	run moves 'xo' L
	assert_output $'a1-b1\t.x'
	run moves 'xo' R
	assert_output $'b1-a1\t.x'
}

@test "clobber: options of xox|ox." {
	# Left: a2 takes b2 or a1; c2 takes b2; b1 takes b2 or a1.
	# Right: b2 takes a2, c2 or b1; a1 takes a2 or b1.  Children equal
	# up to symmetry share one node (the first met): b2-b1 leaves
	# x.x|oo., whose L-shaped group (corner o, arms o and x) is
	# o.x|ox.'s, the child of b2-a2.
	run moves 'xox|ox.' L
	assert_output $'a2-b2\t.xx|ox.\na2-a1\t.ox|xx.\nc2-b2\txx.|ox.\nb1-b2\txxx|o..\nb1-a1\txox|x..'
	run moves 'xox|ox.' R
	assert_output $'b2-a2\to.x|ox.\nb2-c2\tx.o|ox.\nb2-b1\to.x|ox.\na1-a2\toox|.x.\na1-b1\txox|.o.'
}

@test "clobber: a lone colour has no moves" {
	run moves 'xx|x.' L
	assert_output ''
	run moves 'x.o' R
	assert_output ''
}

@test "clobber: published canonical form" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv clobber canon -- cg-canon -t
}
