#!/usr/bin/env bats
# subtraction ruleset: parameters, notation, options, published values.
load common

opts() { cg cg-options -r "$1" -t <<< "$2"; }

@test "subtraction: parse and print round trip" {
	run bash -c "cg-parse -r subtraction:1,2 '3 + 4' 0 '5,0,2' | awk -F'\\t' '\$1 == \"N\" {print \$3}'"
	assert_success
	assert_output $'3+4\n0\n5+2'
}

@test "subtraction: bad positions name the column" {
	run cg cg-parse -r subtraction:1 '3+x'
	assert_failure 1
	assert_output --partial "column 3: expected a heap size, found 'x'"
	run cg cg-parse -r subtraction:1 '3+'
	assert_failure 1
	assert_output --partial 'column 3'
}

@test "subtraction: bad parameters exit 2 with a reason" {
	run cg cg-parse -r subtraction 3
	assert_failure 2
	assert_output --partial 'needs parameters'
	run cg cg-parse -r subtraction:1,0 3
	assert_failure 2
	assert_output --partial 'must be positive'
	run cg cg-parse -r subtraction:1/2/3 3
	assert_failure 2
	assert_output --partial 'only two sets'
	run cg cg-parse -r subtraction:1,,2 3
	assert_failure 2
}

@test "subtraction: partizan options (CGSuite's {1,3},{2,3})" {
	# heap 6: Left takes 1 or 3 (5, 3); Right takes 2 or 3 (4, 3).
	run opts subtraction:1,3/2,3 6
	assert_output $'6\t5, 3\t4, 3'
	# heap 1: Left takes 1 (0); Right nothing.
	run opts subtraction:1,3/2,3 1
	assert_output $'1\t0\t'
}

@test "subtraction: impartial options on a sum" {
	# 2,3,7 on 7+1: heap 1 allows nothing; heap 7 becomes 5, 4 or 0.
	run opts subtraction:2,3,7 7+1
	assert_output $'7+1\t5+1, 4+1, 1\t5+1, 4+1, 1'
	run bash -c "cg-parse -r subtraction:2,3,7 7+1 | cg-options | grep '^L'"
	assert_line -n 0 $'L\t1\t2\t1:5'
	assert_line -n 2 $'L\t1\t4\t1:0'
}

@test "subtraction: the partizan game tree (CGSuite's heap 6)" {
	run bash -c "cg-parse -r subtraction:1,3/2,3 6 | cg-options -a | cg-options -t"
	assert_success
	assert_output $'6\t5, 3\t4, 3'
}

@test "subtraction: CGSuite's canonical form of {1,3},{2,3} heap 6" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	# CGSuite's regression test (research notes, others.md section 4)
	run bash -c "cg-parse -r subtraction:1,3/2,3 6 | cg-canon -t"
	assert_success
	assert_output $'6\t{1|1,{1|0}||0,{1|0}|0|||0,{1|0}|0}'
}

@test "subtraction: published nimbers" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	check_vectors impartial.tsv 'subtraction:.*' nimber -- cg cg-outcome -t -n
}
