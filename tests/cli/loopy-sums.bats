#!/usr/bin/env bats
# cg-outcome -n --sum: the generalized Sprague-Grundy value of a sum of
# loopy impartial games from its terms' values.  Expected values come
# from brute forces written for the tests (tests/cli/loopy/gsgsum.py and
# strips.py: values read off the whole product game), never from
# cgtools' code.
load common

setup() {
	T=$(mktemp -d)
	mkdir "$T/rules"
	# pair: x steps right into an empty square; two x side by side step
	# left together (strips.py's 'pair'); '#' walls split a strip
	printf '%s\n' 'board strip' 'cells . x #' 'loopy' 'components #' \
	    'both x . -> . x  along e' 'both . x x -> x x .  along e' \
	    > "$T/rules/pair.cgr"
	export CG_PLUGIN_PATH=$T/rules
}

teardown() {
	rm -rf "$T"
}

@test "random sums of loopy impartial graphs: the rule gives the product's value" {
	python3 "$CG_ROOT/tests/cli/loopy/gsgsum.py" 7 120 "$T"
	# every case of the rule is met: finite terms, one infinite term,
	# two infinite terms or more
	run awk '$2 == 0' "$T/cases"
	assert_output ""
	for i in $(seq 0 119); do
		cg cg-outcome -n --sum "$T/s$i.cgt" > "$T/s$i.got" ||
		    { echo "s$i: exit $?"; return 1; }
		diff "$T/s$i.want" "$T/s$i.got" || { cat "$T/s$i.cgt"; return 1; }
	done
}

@test "sums of positions of a loopy ruleset, and strips with walls: the brute force's values of the whole strip" {
	local a b want
	for a in x. .x xx. x.x .xx xx x; do
		for b in x. xx. x.x x.. .x.x; do
			want=$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" pair -n "$a#$b" | cut -f2)
			run bash -c "cg-parse -r pair '$a' '$b' | cg-outcome -n --sum"
			assert_success
			assert_output "$a+$b	$want"
			# the strip with its wall is that sum: its
			# components are valued alone and added by the rule
			run bash -c "cg-parse -r pair '$a#$b' | cg-outcome -t -n"
			assert_output "$a#$b	$want"
			# and its class is the one the brute force finds
			# for the whole strip
			want=$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" pair "$a#$b" | cut -f1,2)
			run bash -c "cg-parse -r pair '$a#$b' | cg-outcome -t"
			assert_output "$want"
		done
	done
}

@test "--sum of a short impartial game's graph is the nim sum" {
	# nim heaps 1, 2 and 4: 1 XOR 2 XOR 4 = 7; 3 and 3: 0
	run bash -c "cg-parse -r nim 1 2 4 | cg-options -a | cg-outcome -n --sum"
	assert_success
	assert_output $'1+2+4\t7'
	run bash -c "cg-parse -r nim 3 3 | cg-options -a | cg-outcome -n --sum"
	assert_output $'3+3\t0'
}

@test "--sum takes -n and nothing that is not a value of the sum" {
	for o in '' '-n --remoteness' '-n --children' '-n -m' '-g'; do
		run bash -c "cg-parse -r pair x. | cg-outcome --sum $o"
		assert_failure 2
	done
	run bash -c "cg-parse -r nim 2 | cg-options -a | sed 's/^R/#R/' | cg-outcome -n --sum"
	assert_failure 1
	assert_output --partial "is not impartial"
}

@test "a strip of many walled parts: valued part by part, where its product is far too large" {
	# eleven parts x.x# (each inf, as the brute force finds: x.x -> .xx
	# -> xx. -> x.x) and one x. (1, strips.py): 1 and inf, then inf
	# with inf, are inf with K empty: a draw.  The product of the parts'
	# graphs has 3^11 * 2 positions; the parts alone have 3 and 2.
	p=$(printf 'x.x#%.0s' $(seq 11))x.
	[ "$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" pair -n x.x x. | cut -f2 | tr '\n' ' ')" = "inf 1 " ]
	run bash -c "cg-parse -r pair '$p' | cg-outcome -t -n -v --max-memory 40"
	assert_success
	assert_line "$p	inf"
	assert_line --regexp "^cg-outcome: 5 positions, [0-9]+ moves explored and solved"
	run bash -c "cg-parse -r pair '$p' | cg-outcome -t"
	assert_output "$p	D"
}
