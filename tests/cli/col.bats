#!/usr/bin/env bats
# col ruleset: CGSuite's graph notation, options, published value.
load common

opts() { cg cg-options -r col -t -- <<< "$1"; }
texts() { cg-parse -r col -- "$@" | awk -F'\t' '$1 == "N" {print $3}'; }

@test "col: parse and print round trip" {
	# dots are optional; a path "---" has four vertices; names make
	# cycles; '(' ';' ')' make branches; '+' separates components
	run texts 'R-.-R' '---' ':A----:A' '--(-;--;---)' 'L-R+.' 0
	assert_success
	assert_output $'R-.-R\n.-.-.-.\n.:A-.-.-.-.:A\n.-.-.(-.;-.-.;-.-.-.)\nL-R+.\n0'
}

@test "col: printed text parses back to itself" {
	run bash -c "cg-parse -r col -- ':A-L-(-.;-R-:A)' '.:{x}-.-.:{x}' | awk -F'\t' '\$1 == \"N\" {print \$3}' > $BATS_TEST_TMPDIR/a && cg-parse -r col < $BATS_TEST_TMPDIR/a | awk -F'\t' '\$1 == \"N\" {print \$3}' | diff - $BATS_TEST_TMPDIR/a"
	assert_success
}

@test "col: bad graphs name the column" {
	run cg cg-parse -r col 'LR'
	assert_failure 1
	assert_output --partial "column 2: expected '-', '(' or '+', found 'R'"
	run cg cg-parse -r col 'L:A-R:A'
	assert_failure 1
	assert_output --partial "column 5: vertex 'A' has two tints"
	run cg cg-parse -r col 'L(-.'
	assert_failure 1
	assert_output --partial "column 5: expected ';' or ')'"
	run cg cg-parse -r col 'x'
	assert_failure 1
	assert_output --partial 'column 1'
	run cg cg-parse -r col ''
	assert_failure 1
}

@test "col: options of L-.-R" {
	# vertex 1 is next to blue, 3 next to red.  Left colours 2 (vertex
	# 3, next to red and now blue, goes; L is left) or 3 (2 becomes
	# L: L-L); Left may not colour 1.  Right colours 1 (2 becomes R:
	# R-R) or 2 (1 goes; R is left).
	run opts 'L-.-R'
	assert_output $'L-.-R\tL, L-L\tR-R, R'
}

@test "col: a lone vertex" {
	# untinted: both may colour it ({0|0} = *); tinted L: only Right.
	run opts '.'
	assert_output $'.\t0\t0'
	run opts 'L'
	assert_output $'L\t\t0'
}

@test "col: move names are vertex numbers in printed order" {
	run bash -c "cg-parse -r col 'L-.-R' | cg-options | grep '^[LR]' | cut -f1,4"
	assert_output $'L\t2\nL\t3\nR\t1\nR\t2'
}

@test "col: published canonical form" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv 'col' canon -- cg cg-canon -t
}

@test "col: values by components equal values of the whole tree" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	set -- 'L-.-R+.-.' ':A-.-L-.-:A' 'R-.(-.;-L;-.-.)' 'L-.-.-.-L+R-.' \
	    '.-.-.-.-.' ':A-.-.-:A-R'
	a=$(cg-parse -r col -- "$@" | cg cg-canon -t)
	b=$(cg-parse -r col -- "$@" | cg-options -a | cg cg-canon -t)
	[ -n "$a" ] && [ "$a" = "$b" ]
}
