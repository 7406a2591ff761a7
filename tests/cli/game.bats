#!/usr/bin/env bats
# game ruleset: CGSuite game literals as positions.  Expected options come
# from the definitions: {L|R} has options L and R, the longest run of
# slashes splits a literal, x+y moves in one summand, +-G = {G|-G}, an
# integer n > 0 is {n-1|}, a dyadic m/2^k is {(m-1)/2^k | (m+1)/2^k}, *n
# is {0,...,*(n-1) | same}, ^ = {0|*}, ^[n] = {^[n-1]|*}, ^<n> =
# {0 | * - ^[n-1]}, Tiny(G) = {0 || 0 | -G}.
load common

setup() {
	[ -f "$CG_BUILD/plugins/game.so" ] || skip "game plugin not built"
}

@test "game: parse and print round trip" {
	local lits='{3|||2||1|0,*||||-1/2}
73/16v9*8
^*6
+-{1,{2|0}}
3+-1
-(^<2>*)+^[3]
Tiny({2|1})
2Miny(2)
-1823437481924
{|}
{,|}'
	run bash -c "printf '%s\n' '$lits' | head -n 10 | cg-parse -r game | awk -F'\t' '\$1==\"N\"{print \$3}'"
	assert_success
	local once=$output
	run bash -c "printf '%s\n' \"\$1\" | cg-parse -r game | awk -F'\t' '\$1==\"N\"{print \$3}'" _ "$once"
	assert_success
	assert_equal "$output" "$once"
	assert_line --index 0 '{{3|{2|{1|0,*}}}|-1/2}'
}

@test "game: bad literals name the column" {
	run cg cg-parse -r game <<<'{3|2|1}'
	assert_failure 1
	assert_output --partial "column 3: ambiguous slashes"
	run cg cg-parse -r game <<<'1/3'
	assert_failure 1
	assert_output --partial "column 3: denominator 3 is not a power of 2"
	run cg cg-parse -r game <<<'{1|'
	assert_failure 1
	assert_output --partial "column 1: unclosed '{'"
	run cg cg-parse -r game <<<'^^x'
	assert_failure 1
	assert_output --partial "column 3: unexpected 'x'"
	# numbers of any size to 65536 bits; a numerator that wrapped once
	# read 2^64 + 2^63 - 4 as 2^63 - 4
	run cg cg-parse -r game <<<"$(printf '9%.0s' $(seq 19800))0"
	assert_failure 1
	assert_output --partial "column 1: number too large (more than 65536 bits)"
	run cg cg-parse -r game <<<'1/3000000000000000000000'
	assert_failure 1
	assert_output --partial "column 3: denominator 3000000000000000000000 is not a power of 2"
}

@test "game: numbers past 64 bits are read, printed and moved in exactly" {
	# 2^64 + 2^63 - 4 = 27670116110564327420, {n|} = n + 1; -2^63 is
	# past INT64_MAX in magnitude; 2^64/2^64 = 1; 1/2^64 has options
	# 0 and 1/2^63; -3/2^64 + ^* has Left options x and x* and Right x
	run cg cg-options -t -r game <<<$'27670116110564327420\n-9223372036854775808\n18446744073709551616/18446744073709551616\n1/18446744073709551616\n-3/18446744073709551616^*'
	assert_success
	assert_output $'27670116110564327420\t27670116110564327419\t\n-9223372036854775808\t\t-9223372036854775807\n18446744073709551616/18446744073709551616\t0\t\n1/18446744073709551616\t0\t1/9223372036854775808\n-3/18446744073709551616^*\t-3/18446744073709551616, -3/18446744073709551616*\t-3/18446744073709551616'
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	run cg cg-canon -t -r game <<<$'{27670116110564327420|}\n{0|1/18446744073709551616}\n99999999999999999999*+1'
	assert_success
	assert_output $'{27670116110564327420|}\t27670116110564327421\n{0|1/18446744073709551616}\t1/36893488147419103232\n99999999999999999999*+1\t100000000000000000000*'
}

@test "game: options of atoms" {
	run cg cg-options -t -r game <<<$'*3\n5\n-2\n3/4\n^\n73/16v9*8'
	assert_success
	assert_output $'*3\t0, *, *2\t0, *, *2\n5\t4\t\n-2\t\t-1\n3/4\t1/2\t1\n^\t0\t*\n73/16v9*8\t73/16v8*9\t73/16'
}

@test "game: options of braces, switches and sums" {
	run cg cg-options -t -r game <<<$'{3|||2||1|0,*||||-1/2}\n+-{1,{2|0}}\n{1|*}+^\n^[2]\nTiny(1)'
	assert_success
	assert_line --index 0 $'{3|||2||1|0,*||||-1/2}\t{3|{2|{1|0,*}}}\t-1/2'
	assert_line --index 1 $'+-{1,{2|0}}\t1, {2|0}\t-(1), -({2|0})'
	assert_line --index 2 $'{1|*}+^\t1+^, {1|*}+0\t*+^, {1|*}+*'
	assert_line --index 3 $'^[2]\t^[1]\t*'
	assert_line --index 4 $'Tiny(1)\t0\t{0|-(1)}'
}

@test "game: a sum is its components' sum (decompose) and equals the literal" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	# ^ + ^ = ^^ and {1|-1} + {1|-1} = 0 (a switch plus itself: the
	# second player copies)
	run cg cg-canon -r game -t <<<$'^+^\n+-1+-1\n1/2+1/2+*+*'
	assert_success
	assert_output $'^+^\t^^\n+-1+-1\t0\n1/2+1/2+*+*\t1'
}
