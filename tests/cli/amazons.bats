#!/usr/bin/env bats
# amazons ruleset: notation, options, move names, published values (when
# the analysis tools are built).
load common

texts() { awk -F'\t' '$1 == "N" {print $3}'; }
round() { cg cg-parse -r amazons "$@" | texts | cg cg-parse -r amazons | texts; }
moves() {
	cg cg-parse -r amazons "$1" | cg cg-options |
	    awk -F'\t' -v s="$2" '$1 == "N" {t[$2] = $3} $1 == s {print $4 "\t" t[$3]}'
}

@test "amazons: parse and print round trip" {
	# MCGS's upper-case X and O are read as x and o
	run round 'x..|o..' '.X#|.O.' 'x' '#.x.o#'
	assert_success
	assert_output $'x..|o..\n.x#|.o.\nx\n#.x.o#'
}

@test "amazons: bad positions name the column and the reason" {
	run cg cg-parse -r amazons 'x..|o.'
	assert_failure 1
	assert_output --partial 'column 7: bad board widths'
	run cg cg-parse -r amazons 'x.a'
	assert_failure 1
	assert_output --partial "column 3: bad character 'a'"
	run cg cg-parse -r amazons ''
	assert_failure 1
	assert_output --partial 'column 1: empty board'
}

@test "amazons: options of x.o" {
	# x on a1 can only step to b1 (o blocks c1); from b1 the arrow goes
	# back to a1: one move.  The same for Right, mirrored.
	run moves 'x.o' L
	assert_output $'a1-b1/a1\t#xo'
	run moves 'x.o' R
	assert_output $'c1-b1/c1\t#xo'
}

@test "amazons: options of x..|o.." {
	# x on a2 lands on b2 (arrows a2 c2 b1 c1), c2 (b2 a2 b1 c1) or b1
	# (a2 b2 c2 c1): 12 moves, in that order (directions up-left, up,
	# up-right, left, right, down-left, down, down-right, nearest first)
	run moves 'x..|o..' L
	assert_success
	[ "${#lines[@]}" -eq 12 ]
	assert_line -n 0 --partial $'a2-b2/a2\t'
	assert_line -n 1 --partial $'a2-b2/c2\t'
	assert_line -n 2 --partial $'a2-b2/b1\t'
	assert_line -n 3 --partial $'a2-b2/c1\t'
	assert_line -n 4 --partial $'a2-c2/b2\t'
	assert_line -n 5 --partial $'a2-c2/a2\t'
	assert_line -n 8 --partial $'a2-b1/a2\t'
	assert_line -n 11 --partial $'a2-b1/c1\t'
	run bash -c "cg-parse -r amazons 'x..|o..' | cg-options | grep -c '^R'"
	assert_output 12
}

@test "amazons: an amazon with no empty neighbour has no moves" {
	run moves 'x#|#o' L
	assert_output ''
	run moves 'xo' R
	assert_output ''
}

@test "amazons: published canonical forms" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv amazons canon --canon-semantic -- cg-canon -t
	check_vectors kb.tsv amazons canon --canon-semantic -- cg-canon -t
}

@test "amazons: published outcomes" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	check_vectors kb.tsv amazons outcome -- cg-outcome -t
}
