#!/usr/bin/env bats
# sprouts ruleset: Glop's notation, options derived by hand, published
# outcomes, nim values and misere outcomes.
load common

texts() { awk -F'\t' '$1 == "N" {print $3}'; }
printed() { cg cg-parse -r sprouts "$@" | texts; }
printed_on() { local t=$1; shift; cg cg-parse -r "sprouts:$t" "$@" | texts; }
opts() { cg cg-options -r sprouts -t <<< "$1" | cut -f2; }
has_outcome() { [ -x "$CG_BUILD/bin/cg-outcome" ]; }

@test "sprouts: printing follows Glop (0*k for runs of unused spots)" {
	# Glop's printing routine writes every run of two or more unused
	# spots of a region as 0*k; a single one stays 0.
	run printed '0.0' '0*3' '0*2.0' '0*1' '!' '1a1a' \
	    '0.0.1a1a|0.AB|AB+0' '0*2.AB|0*2.AB'
	assert_success
	assert_output $'0*2\n0*3\n0*3\n0\n!\n1a1a\n0*2.1a1a|0.AB|AB+0\n0*2.AB|0*2.AB'
}

@test "sprouts: extended letters Z(k) and m(k)" {
	# the 26th upper-case letter has no compact name: every upper-case
	# letter is then printed Z(k); m(1) is a
	run printed '1AZ(26)|AZ(26)' 'Y1|Y1' '1m(1)1m(1)'
	assert_success
	assert_output $'1Z(1)Z(26)|Z(1)Z(26)\nY1|Y1\n1a1a'
}

@test "sprouts: parse(print(p)) reads back over a whole game tree" {
	# every node text of the tree of 0*4 (cg-parse checks the round
	# trip of each position it reads)
	cg cg-parse -r sprouts '0*4' | cg cg-options -a | texts \
	    > "$BATS_TEST_TMPDIR/t"
	cg cg-parse -r sprouts < "$BATS_TEST_TMPDIR/t" | texts \
	    > "$BATS_TEST_TMPDIR/u"
	cmp "$BATS_TEST_TMPDIR/t" "$BATS_TEST_TMPDIR/u"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/t")" -gt 50 ]
}

@test "sprouts: malformed positions name the column" {
	local t want
	while IFS=$'\t' read -r t want; do
		run cg cg-parse -r sprouts "$t"
		assert_failure 1
		assert_output --partial "$want"
	done <<'EOF'
	column 1: empty position
0||0	column 3: empty region
0..0	column 3: empty boundary
0|	column 2: empty region
0+	column 2: empty region
1A!1	column 3: '!'
01	column 1: an unused spot 0 must be a boundary by itself
1ab1a	column 3: lower-case letter 'b' occurs once
3	column 1: dead vertex
0@	column 2: expected a genus after '@'
0@1.0	column 4: expected '|' or '+' after the genus
@1	column 1: '@' must follow the last boundary of a region
0@101	column 2: genus out of range
0.z1@1	column 3: two-boundary letter 'z' occurs once in its region
1zz1@1	column 3: two-boundary letter 'z' occurs twice in one boundary
Z(0)	column 1: expected 'Z(k)'
0*0	column 1: 0*0 has no spots
10*2	column 2: 0*k must stand for whole boundaries
0#	column 2: unexpected character
1A|1	column 2: upper-case letter 'A' occurs once in its land
1AA|1	column 3: upper-case letter 'A' occurs twice in one region
1A|1A|1A	column 8: upper-case letter 'A' occurs more than twice
EOF
}

@test "sprouts: a bad position in a file names the line" {
	printf '0*3\n0..0\n' > "$BATS_TEST_TMPDIR/p"
	run cg cg-parse -r sprouts < "$BATS_TEST_TMPDIR/p"
	assert_failure 1
	assert_output --partial ':2: '
	assert_output --partial 'column 3: empty boundary'
}

@test "sprouts: topology parameter and the genus suffix" {
	run cg cg-parse -r sprouts:0 0
	assert_success
	# the parameter is the surface of a region alone that does not say
	# otherwise (Glop's start position on a surface): 0*5 on the torus,
	# the Klein bottle; a region in the plane says @0 there
	run printed_on 1 '0*5' '0*2@-1' '0*2@0' '0.AB|AB'
	assert_output $'0*5@1\n0*2@-1\n0*2@0\n0.AB|AB'
	run printed_on -2 '0*8'
	assert_output '0*8@-2'
	# in the plane the suffix is written only where a region has one
	run printed '0*5@1' '0*2@0' '1a1a@-3|2AB@2|AB'
	assert_output $'0*5@1\n0*2\n1a1a@-3|2AB@2|AB'
	for bad in x 1.5 101 -101 +1; do
		run cg cg-parse -r "sprouts:$bad" 0
		assert_failure 2
		assert_output --partial 'is not a genus'
	done
}

@test "sprouts: options of two spots on the torus and the projective plane" {
	# 0*2@1: a curve joining the spots (1a1a on the torus); a loop on a
	# spot that cuts the torus in a disc and a holed torus, the other
	# spot in either (0.AB@1|AB, or 0.AB|AB once the 2-life region AB
	# forgets its handle); a loop round the handle, which cuts nothing:
	# one region of genus 0 whose two boundaries both hold the spot and
	# the new spot (0.zy.zy).
	run bash -c "cg-options -r sprouts -t <<< '0*2@1' | cut -f2"
	assert_output '0.AB@1|AB, 0.AB|AB, 0.zy.zy, 1a1a@1'
	# 0*2@-1: the same joining curve and cutting loops (the Mobius band
	# keeps the cross-cap), and a one-sided loop through the cross-cap:
	# the disc left has one boundary walking round the loop twice,
	# spot, new spot, spot, new spot (0.abab).
	run bash -c "cg-options -r sprouts -t <<< '0*2@-1' | cut -f2"
	assert_output '0.AB@-1|AB, 0.AB|AB, 0.abab, 1a1a@-1'
}

@test "sprouts: values on surfaces" {
	has_outcome || skip "cg-outcome not built"
	check_vectors outcome.tsv 'sprouts:-?[1-9][0-9]*' nimber -- \
	    cg cg-outcome -t -n
	check_vectors outcome.tsv 'sprouts:-?[1-9][0-9]*' outcome -- \
	    cg cg-outcome -t
}

@test "sprouts: options of one spot and of its child" {
	# 0: the only move is a loop on the spot; the spot (now two curve
	# ends) and the new spot each keep one life and lie on the loop,
	# which bounds two regions: AB|AB.
	run opts 0
	assert_output 'AB|AB'
	# AB|AB: a curve from A to B in either region kills both; the new
	# spot has one life in two regions of one life each: nothing left.
	run opts 'AB|AB'
	assert_output '!'
	# both players have the same options (impartial)
	run bash -c "cg-parse -r sprouts 0 | cg-options -t"
	assert_output $'0\tAB|AB\tAB|AB'
}

@test "sprouts: options of two and three spots" {
	# 0*2: join the two spots (a path 1-a-1, the middle spot met twice
	# walking round it: 1a1a), or a loop on one spot with the other
	# spot inside or outside (the same on the sphere): 0.AB|AB.
	run opts '0*2'
	assert_output '0.AB|AB, 1a1a'
	# 0*3: join two spots (0.1a1a), or a loop with the two other spots
	# both on one side (0*2.AB|AB) or one on each side (0.AB|0.AB).
	run bash -c "cg-options -r sprouts -t <<< '0*3' | cut -f2 | tr ',' '\n' | sed 's/^ //' | sort"
	assert_output $'0*2.AB|AB\n0.1a1a\n0.AB|0.AB'
}

@test "sprouts: options of 1a1a" {
	# 1a1a: a path end-middle-end.  End to other end closes a cycle of
	# four one-life spots (ABCD|ABCD); end to middle makes a cycle of
	# the end and the new spot with the other end hanging inside or
	# outside (1AB|AB); a loop on an end leaves the new spot alone in
	# its inner region (a 2 on the outside: 1a2a).  The middle spot has
	# one life: no loop on it.
	run bash -c "cg-options -r sprouts -t <<< '1a1a' | cut -f2 | tr ',' '\n' | sed 's/^ //' | sort"
	assert_output $'1AB|AB\n1a2a\nABCD|ABCD'
}

@test "sprouts: dead regions and letters reduce away" {
	# '2' alone and AB in a region of its own with nothing else: no
	# move (a region needs two lives)
	run opts 2
	assert_output ''
	# a land written with its letters renamed or regions swapped has
	# the same options
	a=$(opts '0.AB|AB')
	b=$(opts 'BA|0.BA')
	[ -n "$a" ] && [ "$a" = "$b" ]
	# the example of Glop's manual, as drawn and as reduced by hand
	a=$(opts '1aa.AB|AB+0.aaABC|0.1ab1bcDca.ACB|D')
	b=$(opts '12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB')
	[ -n "$a" ] && [ "$a" = "$b" ]
}

@test "sprouts: the 1-spot game is a second-player win" {
	has_outcome || skip "cg-outcome not built"
	# 0 -> AB|AB -> ! : exactly two moves, so the first player loses;
	# nim value mex{mex{0}} = mex{1} = 0.
	run bash -c "cg-parse -r sprouts 0 | cg-outcome -t -n"
	assert_output $'0\t0'
	run bash -c "cg-parse -r sprouts 0 | cg-outcome -t"
	assert_output $'0\tP'
}

@test "sprouts: published outcomes" {
	has_outcome || skip "cg-outcome not built"
	check_vectors outcome.tsv sprouts outcome -- cg cg-outcome -t
}

@test "sprouts: nim values" {
	has_outcome || skip "cg-outcome not built"
	check_vectors outcome.tsv sprouts nimber -- cg cg-outcome -t -n
}

@test "sprouts: published misere outcomes" {
	has_outcome || skip "cg-outcome not built"
	check_vectors outcome.tsv sprouts misere -- cg cg-outcome -t -m
}

@test "sprouts: a stored tree gives the plugin's answers" {
	has_outcome || skip "cg-outcome not built"
	a=$(cg-parse -r sprouts '0*4' '0.1a1a' '2AB|AB' | cg-outcome -t -n)
	b=$(cg-parse -r sprouts '0*4' '0.1a1a' '2AB|AB' | cg-options -a | cg-outcome -t -n)
	[ -n "$a" ] && [ "$a" = "$b" ]
}

@test "sprouts: lands are components" {
	has_outcome || skip "cg-outcome not built"
	# 0*3 has nim value 1 and 0 has 0 (above): 0*3+0 is 1, and 0*3+0*3
	# is 1 xor 1 = 0
	run bash -c "cg-parse -r sprouts '0*3+0' '0*3+0*3' | cg-outcome -t -n"
	assert_output $'0*3+0\t1\n0*3+0*3\t0'
}

@test "sprouts: relabelled, rotated, mirrored and shuffled positions keep their value" {
	has_outcome || skip "cg-outcome not built"
	# each right-hand position is the left-hand one with its letters
	# renamed, boundaries rotated, regions and lands shuffled and some
	# lands mirrored (every boundary reversed): the same game, so the
	# same nim value, whatever form the canonisation reaches
	cat > "$BATS_TEST_TMPDIR/pairs" <<'EOF'
1a2a+AB.CD|AB|CD	1k2k+BK|FU.KB|UF
2a2a.AB|AB	b2b2.CQ|QC
2aAa.2|ABC|BC	2.2eOe|TY|YTO
2abcAcba|BC.DE.A|BC|DE	2ifcWcfi|GA|FQ|QF.AG.W
122+1+AB|AB	JM|JM+221+1
2aAbcBCcbDa|AD|BC	IS|HY|aIjkYHkjSa2
12.A|1B|AB	MP|21.M|1P
2abA2Bba|AC|BC	FE|2daF2Cad|EC
1.2AB|AB+22	1.U2C|UC+22
2a2a.A|2B|AB	d2d2.H|2X|XH
1aA2BCa|ACD|BD	Rd1dLD2|LRT|TD
1A2BCD|ABED|CE	HTY1U2|HGYU|TG
0.ABC|ACD|BEF|DEF	RPG|0.BST|PBR|TSG
1A2BC|1B|AC	U1|UL1E2|EL
1A|abBbaA|BCD|CD	TL|lWlbKb|LWT|1K
2.ABCDEF|AFEDCG|BG	CH|2.MCPIQG|MGQIPH
EOF
	tr '\t' '\n' < "$BATS_TEST_TMPDIR/pairs" | cg cg-parse -r sprouts |
	    cg cg-outcome -t -n | cut -f2 | paste - - > "$BATS_TEST_TMPDIR/v"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/v")" -eq 16 ]
	run awk '$1 != $2' "$BATS_TEST_TMPDIR/v"
	assert_output ''
}
