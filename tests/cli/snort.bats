#!/usr/bin/env bats
# snort ruleset: options derived by hand, published value.
load common

opts() { cg cg-options -r snort -t -- <<< "$1"; }

@test "snort: parse and print round trip" {
	run bash -c "cg-parse -r snort 'L-.-.-.-L' 'R-(-.;-L)' | awk -F'\t' '\$1 == \"N\" {print \$3}'"
	assert_success
	assert_output $'L-.-.-.-L\nR-.(-.;-L)'
	run cg cg-parse -r snort 'L-.-.-Q'
	assert_failure 1
	assert_output --partial 'column 7'
}

@test "snort: options of L-.-R" {
	# Left may colour vertices that are untinted or next to blue: 1
	# (2 becomes L: L-R) or 2 (3, next to red, goes: L).  Right: 2 (1
	# goes: R) or 3 (2 becomes R: L-R).
	run opts 'L-.-R'
	assert_output $'L-.-R\tL-R, L\tR, L-R'
}

@test "snort: a lone vertex and two joined ones" {
	run opts 'L'
	assert_output $'L\t0\t'
	# .-.: whoever colours one vertex tints the other their way
	run opts '.-.'
	assert_output $'.-.\tL, L\tR, R'
}

@test "snort: components are separate" {
	run opts 'L+R'
	assert_output $'L+R\tR\tL'
}

@test "snort: published canonical form" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv 'snort' canon -- cg cg-canon -t
}

@test "snort: values by components equal values of the whole tree" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	set -- 'L-.-R+.-.' ':A-.-L-.-:A' 'R-.(-.;-L;-.-.)' 'L-.-.-.-L+R-.' \
	    '.-.-.-.-.' ':A-.-.-:A-R'
	a=$(cg-parse -r snort -- "$@" | cg cg-canon -t)
	b=$(cg-parse -r snort -- "$@" | cg-options -a | cg cg-canon -t)
	[ -n "$a" ] && [ "$a" = "$b" ]
}
