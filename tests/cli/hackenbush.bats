#!/usr/bin/env bats
# The hackenbush ruleset: both notations, their errors, round trips, and
# the alternating values of tests/vectors (canon.tsv, synch.tsv).
load common

@test "matrix notation: mirror entries are one edge, numbering kept" {
	# 3:_B_B_R_R_ : (0,1) B and its mirror (1,0) B: one blue edge; (1,2)
	# R and (2,1) R: one red edge on top.  Printed with the upper
	# triangle only.
	run sh -c 'cg-parse -r hackenbush 3:_B_B_R_R_ | grep "^N" | cut -f3'
	assert_success
	assert_output "3:_B___R___"
}

@test "matrix errors: self-loop (synch-bench.txt's first graph), mirror colours, length, colour" {
	g=$(awk -F'\t' '$1 == "hackenbush" {print $2; exit}' "$VECTORS/synch-bench.txt")
	run cg cg-parse -r hackenbush "$g"
	assert_failure 1
	assert_output --partial "self-loop"
	run cg cg-parse -r hackenbush 2:_RB_
	assert_failure 1
	assert_output --partial "different colours"
	run cg cg-parse -r hackenbush 3:_B_B_R_R
	assert_failure 1
	assert_output --partial "needs 9 entries, found 8"
	run cg cg-parse -r hackenbush 2:_X__
	assert_failure 1
	assert_output --partial "column 4: unknown edge colour 'X'"
}

@test "string notation: branches, named vertices, errors" {
	run sh -c 'cg-parse -r hackenbush "l(l;rl)" lrl 0 | grep "^N" | cut -f3'
	assert_success
	assert_output "$(printf 'l(l;rl)\nlrl\n0')"
	run cg cg-parse -r hackenbush 'l(r'
	assert_failure 1
	assert_output --partial "unclosed"
	run cg cg-parse -r hackenbush 'l)'
	assert_failure 1
	run cg cg-parse -r hackenbush ':{g}l:{g}'
	assert_failure 1
	assert_output --partial "self-loop"
	run cg cg-parse -r hackenbush 'lxr'
	assert_failure 1
	assert_output --partial "column 2"
}

@test "cycles through named vertices print and read back (cg-parse checks)" {
	run cg cg-parse -r hackenbush 'e(ee:{waist};ee:{waist}e(ee;e(e:{head};e:{head}e)))' 'l:{a}r(l:{a})'
	assert_success
}

@test "options: what is cut off from the ground disappears" {
	# lrl: Left cuts the bottom edge (everything goes) or the top one;
	# Right cuts the middle one, leaving l.
	run sh -c 'cg-parse -r hackenbush lrl | cg-options -t'
	assert_success
	assert_output "$(printf 'lrl\t0, lr\tl')"
}

@test "tree canonical form: mirror-image drawings are one position" {
	run sh -c 'cg-parse -r hackenbush "(lr;rl)" | cg-options -a | grep -c "^N"'
	a=$output
	run sh -c 'cg-parse -r hackenbush "(rl;lr)" | cg-options -a | grep -c "^N"'
	[ "$a" = "$output" ]
}

@test "synchronized values are not additive: BR stalk 0, two side by side 1/2" {
	# research notes: v(lr) = 0 but v(lr + lr) = 1/2 (CGSynch agrees)
	run sh -c 'cg-parse -r hackenbush lr "(lr;lr)" | cg-synch -t'
	assert_success
	assert_output "$(printf 'lr\t0\n(lr;lr)\t1/2')"
}

@test "alternating values (cg-canon): canon.tsv and synch.tsv rows" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv hackenbush canon -- cg-canon -t
	check_vectors synch.tsv hackenbush canon -- cg-canon -t
}
