#!/usr/bin/env bats
# cg-play: interactive play against a knowledge base.  The nim values are
# derived by hand (Bouton: a position is P exactly when the XOR of its
# heaps is 0), so these tests need no engine; nim names a move HEAP:LEFT.
load common

setup() {
	T=$(mktemp -d)
	# every position reachable from 2+1, with its outcome
	cg-parse -r nim 2+1 | cg-options -a | awk -F'\t' '{ print }
	    $1 == "N" { printf "A\t%s\toutcome\t%s\n", $2,
	        ($3 == "0" || $3 == "1+1") ? "P" : "N" }' > "$T/d"
	cg-kb-build -a -k outcome -o "$T/nim.cgkb" "$T/d"
}

teardown() {
	rm -rf "$T"
}

@test "--help, --version, usage errors" {
	run cg cg-play --help
	assert_success
	assert_output --partial "usage: cg-play"
	run cg cg-play --version
	assert_success
	run cg cg-play --bogus
	[ "$status" -eq 2 ]
	run cg cg-play 2+1
	[ "$status" -eq 2 ]
	run cg cg-play -r nim
	[ "$status" -eq 2 ]
	run cg cg-play -r nim -y up 2+1
	[ "$status" -eq 2 ]
}

@test "a malformed position, a missing or corrupt base exit 1" {
	run cg cg-play -r nim 'x'
	[ "$status" -eq 1 ]
	assert_output --partial "position 'x'"
	run cg cg-play -K "$T/nope" -r nim 2+1
	[ "$status" -eq 1 ]
	assert_output --partial "$T/nope"
	head -c 50 "$T/nim.cgkb" > "$T/short"
	run cg cg-play -K "$T/short" -r nim 2+1 </dev/null
	[ "$status" -eq 1 ]
	assert_output --partial "truncated"
}

@test "a game: bad input is refused and asked again, the computer answers" {
	run cg cg-play -K "$T/nim.cgkb" -r nim 2+1 <<<$'?\n9:9\n\n1:1\n1:0\n'
	assert_success
	assert_line "You play Left; Left moves first.  Type ? for your moves, hint, or quit."
	assert_line "  1:0  1:1  2:0"
	assert_line "illegal move '9:9': '9:9' is not a legal move for Left"
	# 1+1 is P: both of Right's moves lose
	assert_line "Right (computer) plays 1:0  (every move loses)"
	assert_line "Right cannot move: Left wins (you)."
}

@test "the computer plays the winning move" {
	# from 2+1 the only move to a P position is 1:1 (to 1+1)
	run cg cg-play -K "$T/nim.cgkb" -r nim -y right 2+1 </dev/null
	assert_success
	assert_line "Left (computer) plays 1:1"
	run cg cg-play -K "$T/nim.cgkb" -r nim -y right 2+1 <<<$'hint\nquit'
	# from 1+1 every move of Right loses: both are listed
	assert_line "  1:0  leads to 1, N"
	assert_line "  2:0  leads to 1, N"
	refute_line --partial "Right cannot move"
}

@test "end of input stops quietly; output errors" {
	run cg cg-play -K "$T/nim.cgkb" -r nim 2+1 </dev/null
	assert_success
	run sh -c "$CG_BUILD/bin/cg-play -K '$T/nim.cgkb' -r nim 2+1 </dev/null >/dev/full"
	[ "$status" -eq 1 ]
	run sh -c "$CG_BUILD/bin/cg-play -K '$T/nim.cgkb' -r nim 2+1 </dev/null | head -n1"
	assert_success
	assert_output "You play Left; Left moves first.  Type ? for your moves, hint, or quit."
}

@test "Amazons: the board with coordinates, moves checked by the ruleset" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	run cg cg-play -r amazons 'x..|..o' <<<$'b1-b2/a1\na2-c2/b1\n'
	assert_success
	assert_line "  2  x . . "
	assert_line "     a b c "
	assert_line --partial "illegal move 'b1-b2/a1'"
	assert_line --regexp "^Right \(computer\) plays [a-c][12]-[a-c][12]/[a-c][12]"
}
