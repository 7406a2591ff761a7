#!/usr/bin/env bats
# cutcake ruleset: notation, options, joint options, published values.
load common

opts() { cg cg-options -r cutcake -t <<< "$1"; }

@test "cutcake: parse and print round trip" {
	run bash -c "cg-parse -r cutcake 8x3 '3x4 + 2X1' 1x1 | awk -F'\\t' '\$1 == \"N\" {print \$3}'"
	assert_success
	assert_output $'8x3\n3x4+2x1\n1x1'
	run bash -c "cg-parse -r cutcake 8x3 '3x4 + 2X1' | awk -F'\\t' '\$1 == \"N\" {print \$3}' | cg-parse -r cutcake | awk -F'\\t' '\$1 == \"N\" {print \$3}'"
	assert_output $'8x3\n3x4+2x1'
}

@test "cutcake: bad positions name the column" {
	run cg cg-parse -r cutcake '3y4'
	assert_failure 1
	assert_output --partial "column 2: expected 'x'"
	run cg cg-parse -r cutcake '3x4+0x2'
	assert_failure 1
	assert_output --partial 'column 5: a piece needs at least one row'
	run cg cg-parse -r cutcake '3x4+'
	assert_failure 1
	assert_output --partial 'column 5'
	run cg cg-parse -r cutcake ''
	assert_failure 1
	assert_output --partial 'column 1'
}

@test "cutcake: Left cuts columns, Right cuts rows" {
	# 1x3: Left cuts after column 1 or 2 (1x1+1x2, 1x2+1x1); Right has
	# one row: nothing.  The two cuts give the same pieces in another
	# order, one node (cg-options merges positions equal up to the
	# ruleset's canonical form), so it is printed twice as first seen.
	run opts 1x3
	assert_output $'1x3\t1x1+1x2, 1x1+1x2\t'
	# 3x1: the transpose, Right's cuts only.
	run opts 3x1
	assert_output $'3x1\t\t1x1+2x1, 1x1+2x1'
	# 2x2: one cut each.
	run opts 2x2
	assert_output $'2x2\t2x1+2x1\t1x2+1x2'
}

@test "cutcake: options of a sum name the piece" {
	run bash -c "cg-parse -r cutcake 1x2+2x1 | cg-options | grep '^[LR]'"
	assert_line -n 0 $'L\t1\t2\t1:c1'
	assert_line -n 1 $'R\t1\t3\t2:r1'
}

@test "cutcake: joint options split a piece into four" {
	run bash -c "cg-parse -r cutcake 2x2 | cg-options -j | grep -E '^(J|N)'"
	assert_success
	assert_line $'N\t4\t1x1+1x1+1x1+1x1'
	assert_line $'J\t1\t0\t0\t4'
}

@test "cutcake: published canonical forms" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv 'cutcake' canon -- cg cg-canon -t
}

@test "cutcake: published synchronized outcome classes" {
	heavy
	[ -x "$CG_BUILD/bin/cg-synch" ] || skip "cg-synch not built"
	check_vectors synch.tsv 'cutcake' synch-outcome -- cg cg-synch -t -c
}

@test "cutcake: values by pieces equal values of the whole tree" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	set -- 3x4 2x3+3x2 4x1+1x4+2x2 1x1+3x3 2x5
	a=$(cg-parse -r cutcake "$@" | cg cg-canon -t)
	b=$(cg-parse -r cutcake "$@" | cg-options -a | cg cg-canon -t)
	[ -n "$a" ] && [ "$a" = "$b" ]
}
