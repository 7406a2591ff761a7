#!/usr/bin/env bats
# Misere quotients of octal games (cg-outcome --quotient N), against the
# published figures and against misere outcomes found by a brute force
# written in tests/cli/quotient/check.py.
load common

@test "quotient: |Q_30(0.07)| = 360" {
	# Expected: the MisereSolver question-and-answer page of
	# miseregames.wordpress.com (2007): Dawson's Kayles, heaps up to 30.
	heavy
	run cg cg-outcome -r octal:0.07 --quotient 30 -t
	assert_success
	[ "$(printf '%s\n' "$output" | cut -f1,2)" = "$(printf '0.07\t360')" ]
}

@test "quotient: 0.123 has a quotient of order 20, found by heap 9" {
	# Expected: Plambeck, "Taming the wild in impartial combinatorial
	# games", INTEGERS 5 (2005) #G05: 0.123's misere quotient has 20
	# elements.  It is the whole game's: the pretending function is
	# periodic, proven by the heaps up to 30.
	run cg cg-outcome -r octal:0.123 --quotient 30
	assert_success
	assert_line "$(printf 'order\t20')"
	assert_line --regexp '^periodic	.*the quotient of the whole game$'
}

@test "quotient: 0.123's presentation and P-portion" {
	# Expected: Siegel's MisereSolver (public CGSuite repository,
	# org.cgsuite.core.misere.solver, built here from its source with a
	# shim for its octal move generator) on 0.123 to heap 30 prints
	# <a,b,c,d | a2=1, b4=b2, b2c=b3, c2=1, b2d=d, cd=bd, d3=ad2> with
	# P-portion {a, b2, ac, bd, d2}: the same relations, sorted here.
	run cg cg-outcome -r octal:0.123 --quotient 30 -t
	assert_success
	rels=$(printf '%s\n' "$output" | cut -f4 | sed 's/.*| //; s/>$//' |
	    tr ',' '\n' | sed 's/^ //' | sort | tr '\n' ' ')
	[ "$rels" = "a^2=1 b^2c=b^3 b^2d=d b^4=b^2 c^2=1 cd=bd d^3=ad^2 " ]
	pp=$(printf '%s\n' "$output" | cut -f5 | tr ',' '\n' | sed 's/^ //' |
	    sort | tr '\n' ' ')
	[ "$pp" = "a ac b^2 bd d^2 " ]
}

@test "quotient: an order-8 quotient is R8 (0.75)" {
	# Expected: Siegel (arXiv math/0703070; Plambeck and Siegel, JCTA 115,
	# 2008): the only misere quotient of order 8 is
	# R8 = <a,b,c | a^2=1, b^3=b, bc=ab, c^2=b^2>, P-portion {a, b^2}.
	# 0.75's quotient has order 8.
	run cg cg-outcome -r octal:0.75 --quotient 40 -t
	assert_success
	[ "$(printf '%s\n' "$output" | cut -f2,3)" = "$(printf '8\t2')" ]
	rels=$(printf '%s\n' "$output" | cut -f4 | sed 's/.*| //; s/>$//' |
	    tr ',' '\n' | sed 's/^ //' | sort | tr '\n' ' ')
	[ "$rels" = "a^2=1 b^3=b bc=ab c^2=b^2 " ]
	[ "$(printf '%s\n' "$output" | cut -f5)" = "a, b^2" ]
}

@test "quotient: 0.3122 is infinite at heap 7: a clear stop" {
	# Expected: 0.3122's quotient of heaps up to 7 is infinite (Games of
	# No Chance 4, pp. 267-278); the run stops at heap 7, exit 1.
	run cg cg-outcome -r octal:0.3122 --quotient 9 --quotient-limit 1024
	assert_failure 1
	assert_output --partial "heap 7: a candidate of more than 1024 elements"
	assert_output --partial "the quotient may be infinite"
}

@test "quotient: outcomes from the printed quotient equal a brute force" {
	# Each code's text (presentation, P-portion, pretending function) is
	# read by check.py, which multiplies and rewrites by the relations,
	# and compares with misere outcomes it finds by its own search.
	for c in 0.07:14 0.77:13 0.123:13 0.75:12 0.137:12 0.6:12 4.7:12; do
		code=${c%%:*} max=${c##*:}
		cg cg-outcome -r octal:$code --quotient "$max" > "$BATS_TEST_TMPDIR/q"
		run python3 "$BATS_TEST_DIRNAME/quotient/check.py" "$code" \
		    "$BATS_TEST_TMPDIR/q" "$max" 60 7
		[ "$output" = 0 ] || { echo "$code: $output"; false; }
	done
}

@test "quotient: cg-outcome -m on heap sums uses it, and agrees with the search" {
	printf '%s\n' 3+4+5+7 2+2+2 6+10+14 1+1 11 > "$BATS_TEST_TMPDIR/s"
	cg cg-parse -r octal:0.07 < "$BATS_TEST_TMPDIR/s" > "$BATS_TEST_TMPDIR/p"
	run cg cg-outcome -m -t -v "$BATS_TEST_TMPDIR/p"
	assert_success
	assert_output --partial "from the misere quotient of heaps up to 14"
	q=$(cg cg-outcome -m -t "$BATS_TEST_TMPDIR/p")
	s=$(cg cg-outcome -m -t --search dfs "$BATS_TEST_TMPDIR/p")
	[ "$q" = "$s" ]
	# a hundred heaps: the quotient answers at once
	seq 1 100 | awk '{ print $1 % 13 + 1 }' | paste -sd+ |
	    cg cg-parse -r octal:0.07 > "$BATS_TEST_TMPDIR/h"
	run cg cg-outcome -m -t -v "$BATS_TEST_TMPDIR/h"
	assert_success
	assert_output --partial "misere outcome of 100 heaps from the misere quotient"
}

@test "quotient: usage and bad rulesets" {
	run cg cg-outcome --quotient 5
	assert_failure 2
	run cg cg-outcome -r octal:0.07 --quotient 0
	assert_failure 2
	run cg cg-outcome -r domineering --quotient 5
	assert_failure 1
	assert_output --partial "is not a heap game"
}

@test "quotient: a tame game has the tame quotient T2; rules files and subtraction games too" {
	# Expected: subtraction {1,2} has nim values 0,1,2 and is tame; the
	# quotient of a tame game with heaps of those values is
	# T2 = <a,b | a^2=1, b^3=b>, P-portion {a, b^2} (Plambeck and Siegel,
	# JCTA 115, 2008: the tame quotients).
	run cg cg-outcome -r subtraction:1,2 --quotient 20 -t
	assert_success
	assert_output "$(printf '1,2\t6\t2\t<a,b | a^2=1, b^3=b>\ta, b^2')"
	# 0.123 written as a rules file has 0.123's quotient
	mkdir -p "$BATS_TEST_TMPDIR/r"
	printf '%s\n' 'board heaps' 'measure counters' 'both take 1 leave 0' \
	    'both take 2 leave 1' 'both take 3 leave 0,1' \
	    > "$BATS_TEST_TMPDIR/r/t123.cgr"
	run cg cg-outcome -P "$BATS_TEST_TMPDIR/r" -r t123 --quotient 30 -t
	assert_success
	a=$(printf '%s\n' "$output" | cut -f2-)
	run cg cg-outcome -r octal:0.123 --quotient 30 -t
	[ "$(printf '%s\n' "$output" | cut -f2-)" = "$a" ]
}
