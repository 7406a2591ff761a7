#!/usr/bin/env bats
# cg-canon: canonical forms and properties against the published vectors
# (tests/vectors/canon.tsv), documents versus plugins, bad input.
load common

need_plugin() {
	[ -f "$CG_BUILD/plugins/$1.so" ] || skip "plugin $1 not built"
}

# Published canonical forms of RULESET (rows from independent computations
# written in other notations are compared as values: see check_vectors).
canon_vectors() {
	check_vectors canon.tsv "$1" canon --canon-semantic -- cg cg-canon -t
}

@test "cg-canon: --help, --version" {
	run cg cg-canon --help
	assert_success
	assert_output --partial "usage: cg-canon"
	run cg cg-canon --version
	assert_success
}

@test "cg-canon: a bad option is a usage error" {
	run cg cg-canon -Z
	assert_failure 2
	run cg cg-canon -p nosuch -r game
	assert_failure 2
	assert_output --partial "unknown property 'nosuch'"
}

@test "cg-canon: a missing file is a data error" {
	run cg cg-canon /nonexistent/file.cgt
	assert_failure 1
	assert_output --partial "/nonexistent/file.cgt"
}

@test "cg-canon: a bad literal names file, line and column" {
	run cg cg-canon -r game -t <<<$'{1|2}\n{3|2|1}'
	assert_failure 1
	assert_output --partial "-:2:"
	assert_output --partial "ambiguous"
	run cg cg-canon -r game -t <<<'{1|2'
	assert_failure 1
	assert_output --partial "-:1:"
}

@test "cg-canon: an option naming an undefined node is an error with its line" {
	run cg cg-canon -t <<<$'cgt\t1\nN\t1\nL\t2\t1\nE\t1\nroot\t1\nend'
	assert_failure 1
	assert_output --partial "-:3:"
}

@test "cg-canon: writing to a full disk fails" {
	run bash -c "echo '{1|*}' | '$CG_BUILD/bin/cg-canon' -r game -t > /dev/full"
	assert_failure 1
}

@test "cg-canon: quiet when the reader goes away" {
	# 1/2 + 1/2 = 1 (two halves make a whole)
	run bash -c "yes '1/2+1/2' | head -n 20000 | '$CG_BUILD/bin/cg-canon' -r game -t | head -n1"
	assert_success
	assert_output $'1/2+1/2\t1'
}

@test "cg-canon: game literals, published canonical forms" {
	need_plugin game
	check_vectors canon.tsv game canon -- cg cg-canon -t
}

@test "cg-canon: game literals, published properties" {
	need_plugin game
	local p
	for p in birthday lstop rstop mean temp thermograph atomic rcf outcome; do
		check_vectors canon.tsv game "$p" -- cg cg-canon -t -p "$p"
	done
}

@test "cg-canon: -p gives one column per property" {
	need_plugin game
	run cg cg-canon -r game -t -p canon,outcome,birthday,number,nimber,infinitesimal <<<'^*'
	assert_success
	assert_output $'^*\t^*\tN\t2\tfalse\tfalse\ttrue'
}

@test "cg-canon: -c compares with a game (==, <, >, <>)" {
	need_plugin game
	run cg cg-canon -r game -t -c 0 -c '*' <<<$'^\nv\n*\n+-1\n0'
	assert_success
	assert_output $'^\t>\t<>\nv\t<\t<>\n*\t<>\t==\n+-1\t<>\t<>\n0\t==\t<>'
}

@test "cg-canon: without -t the roots are annotated" {
	need_plugin game
	run bash -c "echo '1/2+1/2' | cg-parse -r game | '$CG_BUILD/bin/cg-canon' -p canon,outcome"
	assert_success
	assert_output --partial $'A\t1\tcanon\t1'
	assert_output --partial $'A\t1\toutcome\tL'
	# idempotent: the output reads back
	run bash -c "echo '1/2+1/2' | cg-parse -r game | '$CG_BUILD/bin/cg-canon' | '$CG_BUILD/bin/cg-canon' -t"
	assert_success
	assert_output $'1/2+1/2\t1'
}

@test "cg-canon: expanded tree and plugin give the same answer" {
	need_plugin game
	local lits='{1|*}+^
{3||2+*|1+*}
+-1+-2
{0,*|v}
{0|*||*|||*||||*}'
	run bash -c "printf '%s\n' '$lits' | cg-parse -r game | '$CG_BUILD/bin/cg-canon' -t | cut -f2"
	assert_success
	local direct=$output
	# expand fully, strip position text and ruleset so only the tree is left
	run bash -c "printf '%s\n' '$lits' | cg-parse -r game | cg-options -a |
	    awk -F'\t' 'BEGIN{OFS=\"\t\"} \$1==\"ruleset\"{\$2=\"\"} \$1==\"N\"{print \$1,\$2; next} {print}' |
	    '$CG_BUILD/bin/cg-canon' -t | cut -f2"
	assert_success
	assert_equal "$output" "$direct"
}

@test "cg-canon: a tree with a cycle is refused" {
	run cg cg-canon -t <<<$'cgt\t1\nN\t1\nN\t2\nL\t1\t2\nL\t2\t1\nE\t1\nE\t2\nroot\t1\nend'
	assert_failure 1
}

@test "cg-canon: deep games do not overflow the stack" {
	need_plugin nim
	run cg cg-canon -r nim -t <<<'200'
	assert_success
	assert_output $'200\t*200'
	# 300 nested braces: {|} = 0, {0|} = 1, ..., so the integer 299
	run bash -c "python3 -c \"print('{'*300 + '|}'*300)\" | '$CG_BUILD/bin/cg-canon' -r game -t | cut -f2"
	assert_success
	assert_output 299
	need_plugin hackenbush
	# a green stalk of 200 edges is *200 (a nim heap), through 200 levels
	# of positions
	run bash -c "python3 -c \"print('e'*200)\" | '$CG_BUILD/bin/cg-canon' -r hackenbush -t | cut -f2"
	assert_success
	assert_output '*200'
	# 100 blue then 100 red edges: a blue edges then b red ones are
	# (a - 1) + 1/2^b (Berlekamp's rule: lr = 1/2, llr = 3/2, lrr = 1/4),
	# so 99 + 2^-100, a number past 64 bits, exact
	run bash -c "python3 -c \"print('l'*100 + 'r'*100)\" | '$CG_BUILD/bin/cg-canon' -r hackenbush -t | cut -f2"
	assert_success
	assert_output "$(python3 -c 'print("%d/%d" % (99 * 2**100 + 1, 2**100))')"
}

@test "cg-canon: numbers past 64 bits are exact, and a line past the bounds costs only itself" {
	need_plugin hackenbush
	need_plugin game
	# Berlekamp's rule for Hackenbush strings: the first run of edges of
	# one colour counts 1 each, every edge after the first change of
	# colour half the one before, its sign its colour.  So llr = 3/2,
	# rrl = -3/2, and l(lr)^37 = 2 - 1/2 + 1/4 - ... - 1/2^73
	# = 2 - (1 + 2^-73)/3 = (5 * 2^73 - 1) / (3 * 2^73)
	local long="l$(printf 'lr%.0s' $(seq 37))"
	run bash -c "printf 'llr\n%s\nrrl\n' '$long' | '$CG_BUILD/bin/cg-canon' -r hackenbush -t"
	assert_success
	assert_output "$(printf 'llr\t3/2\n%s\t%s\nrrl\t-3/2' "$long" \
	    "$(python3 -c 'print("%d/%d" % ((5 * 2**73 - 1) // 3, 2**73))')")"
	# 2^62 + 2^62 = 2^63; {0 | 2^-62} = 2^-63, birthday 64, and the
	# stops and mean of a number are the number; 3(2^63 - 1) has a
	# birthday past 64 bits: that line fails, the others are answered
	# ({1|0}: birthday 2, left stop 1, mean 1/2)
	run bash -c "printf '%s\n' 4611686018427387904+4611686018427387904 '{0|1/4611686018427387904}' \
	    9223372036854775807+9223372036854775807+9223372036854775807 '{1|0}' |
	    '$CG_BUILD/bin/cg-canon' -r game -t -p canon,birthday,lstop,mean"
	assert_failure 1
	assert_line -n 0 "$(printf '4611686018427387904+4611686018427387904\t9223372036854775808\t9223372036854775808\t9223372036854775808\t9223372036854775808')"
	assert_line -n 1 "$(printf '{0|1/4611686018427387904}\t1/9223372036854775808\t64\t1/9223372036854775808\t1/9223372036854775808')"
	assert_line -n 2 "cg-canon: -:3: position '9223372036854775807+9223372036854775807+9223372036854775807': birthday beyond 64 bits"
	assert_line -n 3 "$(printf '{1|0}\t{1|0}\t2\t1\t1/2')"
}

@test "cg-canon: huge integers are not expanded" {
	need_plugin game
	run cg cg-canon -r game -t -p canon,birthday <<<'-1823437481924+1'
	assert_success
	assert_output $'-1823437481924+1\t-1823437481923\t1823437481923'
}

@test "cg-canon: domineering, published canonical forms" {
	need_plugin domineering
	canon_vectors domineering
}

@test "cg-canon: domineering, small outcome rows" {
	need_plugin domineering
	# boards of at most 20 squares: larger ones are cg-outcome's job
	local rows
	rows=$(awk -F'\t' '$1 == "domineering" && $3 == "outcome" {
	    s = $2; n = gsub(/[.#]/, "&", s); if (n <= 20) print }' "$VECTORS/canon.tsv")
	[ -n "$rows" ]
	run bash -c "printf '%s\n' \"\$1\" | cut -f2 | cg-parse -r domineering |
	    '$CG_BUILD/bin/cg-canon' -t -p outcome | cut -f2" _ "$rows"
	assert_success
	assert_equal "$output" "$(printf '%s\n' "$rows" | cut -f4)"
	echo "# $(printf '%s\n' "$rows" | wc -l) outcome rows"
}

@test "cg-canon: toads and frogs, published canonical forms" {
	need_plugin toads
	canon_vectors toads
}

@test "cg-canon: clobber, amazons, cram, col, snort" {
	local rs
	for rs in clobber amazons cram col snort; do
		need_plugin "$rs"
		canon_vectors "$rs"
	done
}

@test "cg-canon: cutcake and hackenbush" {
	local rs
	for rs in cutcake hackenbush; do
		need_plugin "$rs"
		canon_vectors "$rs"
	done
}

@test "cg-canon: -K consults a knowledge base, also for components" {
	need_plugin octal
	[ -x "$CG_BUILD/bin/cg-kb-build" ] || skip "cg-kb-build not built"
	# a base that (wrongly, on purpose) says the heap 3 is *7: seeing *7
	# proves the base was used; 3+1 is then *7 + * = *6.  Octal 0.[37]
	# rather than Nim, which gives every heap's value on sight (cg.value);
	# by hand its G(1) = 1, G(2) = 2, G(3) = 3 (take 1 leaving one heap,
	# take 2 leaving none or one, take 3 leaving none).
	printf 'cgt\t1\nruleset\toctal:0.[37]\nN\t1\t3\nA\t1\tcanon\t*7\nroot\t1\nend\n' |
	    cg cg-kb-build -k canon -o "$BATS_TEST_TMPDIR/fake.cgkb"
	run cg cg-canon -r 'octal:0.[37]' -t -K "$BATS_TEST_TMPDIR/fake.cgkb" <<<$'3\n3+1\n2'
	assert_success
	assert_output $'3\t*7\n3+1\t*6\n2\t*2'
	run cg cg-canon -r 'octal:0.[37]' -t <<<'3'
	assert_output $'3\t*3'
}

@test "cg-canon: incentives (hand-derived)" {
	need_plugin game
	# +-1: 1 - (+-1) = 1 + +-1 = {2|0} and +-1 - (-1) = {2|0};
	# ^: 0 - ^ = v is dominated by ^ - * = ^* (^* - v = ^^* > 0)
	run cg cg-canon -r game -t -p incentives <<<$'+-1\n^'
	assert_success
	assert_output $'+-1\t{{2|0}}\n^\t{^*}'
}

@test "cg-canon: domineering and toads, expanded tree and plugin agree" {
	local rs pos
	for rs in domineering toads; do
		need_plugin "$rs"
		case $rs in
		domineering) pos=$'...|...|...\n....|....|....\n.#..|..#.|..##|....' ;;
		toads) pos=$'t.tftff\nttt..fff\ntf.ttff' ;;
		esac
		run bash -c "printf '%s\n' \"\$1\" | cg-parse -r $rs | '$CG_BUILD/bin/cg-canon' -t" _ "$pos"
		assert_success
		local direct=$output
		run bash -c "printf '%s\n' \"\$1\" | cg-parse -r $rs | cg-options -a | '$CG_BUILD/bin/cg-canon' -t" _ "$pos"
		assert_success
		assert_equal "$output" "$direct"
	done
}

@test "cg-canon: every printed canonical form reads back as itself" {
	local rs forms=
	for rs in domineering toads amazons; do
		[ -f "$CG_BUILD/plugins/$rs.so" ] || continue
		forms+=$(awk -F'\t' -v r="$rs" '$1 == r && $3 == "canon" {print $2}' \
		    "$VECTORS/canon.tsv" "$VECTORS/kb.tsv" | cg-parse -r "$rs" |
		    cg cg-canon -t | cut -f2)$'\n'
	done
	forms+=$(awk -F'\t' '$1 == "game" && $3 == "canon" {print $4}' "$VECTORS/canon.tsv")
	run bash -c "printf '%s\n' \"\$1\" | grep . | '$CG_BUILD/bin/cg-canon' -r game -t |
	    awk -F'\t' '\$1 != \$2 {print \"differs: \" \$0; bad = 1} END {print NR; exit bad}'" _ "$forms"
	assert_success
	echo "# $output forms"
}

@test "--jobs: one thread and several give the same forms" {
	printf '%s\n' '....|....|....|....' '...|...|...|...|...' '.....|..#..|.....|.....' \
	    > "$BATS_TEST_TMPDIR/d"
	run cg cg-canon -r domineering -t --jobs 1 "$BATS_TEST_TMPDIR/d"
	assert_success
	one=$output
	run cg cg-canon -r domineering -t --jobs 3 "$BATS_TEST_TMPDIR/d"
	assert_success
	[ "$output" = "$one" ]
	run cg cg-canon -r domineering -t --jobs 0 "$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 2 ]
}
