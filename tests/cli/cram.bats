#!/usr/bin/env bats
# cram ruleset: CGSuite and Glop notations, options, published values
# (when the analysis tools are built).
load common

texts() { awk -F'\t' '$1 == "N" {print $3}'; }
round() { cg cg-parse -r cram "$@" | texts | cg cg-parse -r cram | texts; }
moves() {
	cg cg-parse -r cram "$1" | cg cg-options |
	    awk -F'\t' -v s="$2" '$1 == "N" {t[$2] = $3} $1 == s {print $4 "\t" t[$3]}'
}

@test "cram: parse and print round trip" {
	run round '..|..' '.#.|...' '....'
	assert_success
	assert_output $'..|..\n.#.|...\n....'
}

@test "cram: Glop's notation is read and printed in CGSuite's" {
	# B000*0GG000000E: width 3 (cells before *), then 9 more cells: 4
	# rows, the second with its two right cells filled (Glop's manual)
	run round 'B000*0GG000000E' '0000*E' '00*00E' '0*E' '000*0GG00G00GF'
	assert_success
	assert_output $'...|.##|...|...\n....\n..|..\n.\n...|.##|..#|..#'
	# a sum of two boards: side by side, a filled column between them
	run round '00*00E00*E'
	assert_output $'..#..|..###'
}

@test "cram: bad positions name the column and the reason" {
	run cg cg-parse -r cram '00*0E'
	assert_failure 1
	assert_output --partial 'column 5: bad board widths'
	run cg cg-parse -r cram '0000'
	assert_failure 1
	assert_output --partial "column 5: missing 'E'"
	run cg cg-parse -r cram '0000E'
	assert_failure 1
	assert_output --partial "column 5: missing '*'"
	run cg cg-parse -r cram '00*0*0E'
	assert_failure 1
	assert_output --partial "column 5: second '*'"
	run cg cg-parse -r cram '0a*E'
	assert_failure 1
	assert_output --partial "column 2: bad character 'a'"
	run cg cg-parse -r cram '*E'
	assert_failure 1
	assert_output --partial 'column 1'
	run cg cg-parse -r cram '..|.'
	assert_failure 1
	assert_output --partial 'column 5: bad board widths'
}

@test "cram: both players have the same options" {
	# ..|..: the vertical dominoes (columns a, b), then the horizontal
	# ones (top row, bottom row), for either player; all four children
	# are the same position up to symmetry (an L tromino)
	run moves '..|..' L
	assert_output $'a1-a2\t#.|#.\nb1-b2\t#.|#.\na2-b2\t#.|#.\na1-b1\t#.|#.'
	run moves '..|..' R
	assert_output $'a1-a2\t#.|#.\nb1-b2\t#.|#.\na2-b2\t#.|#.\na1-b1\t#.|#.'
	# a single row: horizontal only
	run moves '...' L
	assert_output $'a1-b1\t##.\nb1-c1\t##.'
}

# rows of outcome.tsv for property $1 with at most 30 squares (the 36-square
# boards take half a minute), as position<TAB>value
small_rows() {
	awk -F'\t' -v p="$1" '$1 == "cram" && $3 == p {
	    s = $2; n = gsub(/[0G.#]/, "&", s); if (n <= 30) print $2 "\t" $4 }' \
	    "$VECTORS/outcome.tsv"
}

@test "cram: published nim values" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	run small_rows nimber
	[ "${#lines[@]}" -ge 40 ]
	echo "$output" | cut -f1 | cg cg-parse -r cram | cg cg-outcome -t -n |
	    cut -f2 > "$BATS_TEST_TMPDIR/got"
	run diff <(echo "$output" | cut -f2) "$BATS_TEST_TMPDIR/got"
	assert_success
}

@test "cram: depth-first nim values in 6 MB of tables start again, and agree" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# 3x12 (*1) and 4x7 (*3), Lemoine and Viennot: 17-50 MB of tables
	# unbounded; in 6 MB the search starts again hundreds of times
	run bash -c "awk -F'\t' '\$1 == \"cram\" && \$3 == \"nimber\" &&
		(\$2 == \"000000000000*000000000000000000000000E\" ||
		 \$2 == \"0000000*000000000000000000000E\") {
		print \$2 \"\t\" \$4 }' '$VECTORS/outcome.tsv'"
	[ "${#lines[@]}" -eq 2 ]
	echo "$output" > "$BATS_TEST_TMPDIR/want"
	cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-outcome -r cram -t -n -v \
	    --search dfs --table-memory 6 > "$BATS_TEST_TMPDIR/got" \
	    2> "$BATS_TEST_TMPDIR/err"
	run diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	assert_success
	grep -q ' restarts, ' "$BATS_TEST_TMPDIR/err"
}

@test "cram: published misere nim values" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	run small_rows misere
	[ "${#lines[@]}" -ge 20 ]
	echo "$output" | cut -f1 | cg cg-parse -r cram | cg cg-outcome -t -m |
	    cut -f2 > "$BATS_TEST_TMPDIR/got"
	run diff <(echo "$output" | cut -f2) "$BATS_TEST_TMPDIR/got"
	assert_success
}

@test "cram: published canonical form" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv cram canon -- cg-canon -t
}
