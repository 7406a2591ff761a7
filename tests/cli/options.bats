#!/usr/bin/env bats
# cg-options: expanding roots into options, to a depth or the whole DAG.
# Expected values are derived by hand from the rules of nim (a move takes
# any positive number of counters from one heap).
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

count_nodes() { grep -c '^N	' "$1"; }

@test "-t: each root's Left and Right options (nim is impartial)" {
	# 3 -> 0, 1, 2 (the heap becomes k, k ascending); 1+2 -> 2 (first
	# heap emptied), then the second heap becomes 0 or 1: 1, 1+1
	run sh -c 'cg-parse -r nim 3 1+2 0 | cg-options -t'
	assert_success
	assert_output "$(printf '3\t0, 1, 2\t0, 1, 2\n1+2\t2, 1, 1+1\t2, 1, 1+1\n0\t\t')"
}

@test "-r reads bare positions, keeping their text as labels" {
	run sh -c "printf '2\n' | cg-options -r nim -t"
	assert_success
	assert_output "$(printf '2\t0, 1\t0, 1')"
}

@test "default depth 1: the roots are expanded, their options are not" {
	cg-parse -r nim 3 | cg-options > "$T/d1"
	# 3 and its options 0, 1, 2
	[ "$(count_nodes "$T/d1")" -eq 4 ]
	[ "$(grep -c '^E	' "$T/d1")" -eq 1 ]
	cg-parse -r nim 3 | cg-options -d 2 > "$T/d2"
	# depth 2 expands 1 and 2 too (0 has no options but is expanded)
	[ "$(grep -c '^E	' "$T/d2")" -eq 4 ]
}

@test "-a: the whole game as a DAG, transpositions merged" {
	# nim 2+2 reaches 2+2, 2+1 (= 1+2), 2, 1+1, 1, 0: six positions,
	# though the tree has many more paths
	cg-parse -r nim 2+2 | cg-options -a > "$T/a"
	[ "$(count_nodes "$T/a")" -eq 6 ]
	[ "$(grep -c '^E	' "$T/a")" -eq 6 ]
	# nim's canonical form sorts heaps, so 1+2 and 2+1 are one node
	cg-parse -r nim 1+3 | cg-options -a > "$T/b"
	# 1+3 -> 3, 1+2, 1+1, 1; 3 -> 0,1,2; 1+2 -> 2,1+1,1; ... : {1+3, 3, 1+2,
	# 1+1, 2, 1, 0}
	[ "$(count_nodes "$T/b")" -eq 7 ]
}

@test "-a on an expanded tree changes nothing; -d continues a partial expansion" {
	cg-parse -r nim 2+3 | cg-options -a > "$T/a"
	cg-options -a "$T/a" | cmp - "$T/a"
	cg-parse -r nim 2+3 | cg-options -d 1 | cg-options -d 1 | cg-options -a > "$T/b"
	cmp "$T/a" "$T/b"
}

@test "an expanded tree read from a file gives the same -t answers as the plugin" {
	cg-parse -r nim 3 1+2 | cg-options -t > "$T/direct"
	cg-parse -r nim 3 1+2 | cg-options -a | cg-options -t > "$T/tree"
	cmp "$T/direct" "$T/tree"
}

@test "a hand-written abstract tree (no ruleset): labels are #ID" {
	printf 'cgt\t1\nN\t1\nE\t1\nN\t4\nL\t4\t1\nE\t4\nroot\t4\nend\n' > "$T/t"
	run cg cg-options -t "$T/t"
	assert_success
	assert_output "$(printf '#4\t#1\t')"
}

@test "-j on a ruleset without joint options adds nothing" {
	cg-parse -r nim 2 | cg-options -a > "$T/a"
	cg-parse -r nim 2 | cg-options -a -j > "$T/b"
	cmp "$T/a" "$T/b"
}

@test "--dot: a Graphviz picture labelled by position and move; impartial: one edge per move" {
	# Nim is impartial: the move 1:0 is one black edge, not a blue and a
	# red one
	run sh -c 'cg-parse -r nim 2 | cg-options -a --dot'
	assert_success
	assert_line --index 0 "digraph cg {"
	assert_line "	n1 [label=\"2\"];"
	assert_line "	n1 -> n2 [color=black, label=\"1:0\"];"
	assert_line "	n1 -> n3 [color=black, label=\"1:1\"];"
	refute_line --partial "color=blue"
	refute_line --partial "color=red"
	# 2 -> 0, 2 -> 1, 1 -> 0
	[ "$(grep -c -- '->' <<<"$output")" -eq 3 ]
	assert_line --partial "black: a move of either player"
	assert_line --index -1 "}"
	# a partizan game keeps its colours: ..|.. has two Left moves (blue)
	# and two Right moves (red)
	run sh -c 'cg-parse -r domineering ..\|.. | cg-options --dot'
	[ "$(grep -c 'color=blue' <<<"$output")" -eq 2 ]
	[ "$(grep -c 'color=red' <<<"$output")" -eq 2 ]
}

@test "--dot: an edge to a merged equivalent says so, never contradicting its target" {
	# xo|ox: Left's a2-b2 (x takes the o on its right) leaves .x|ox, drawn
	# as node 2; a2-a1 (x takes the o below it) leaves .o|xx, a mirror
	# image of .x|ox merged into node 2: its edge says (equivalent)
	run sh -c "cg-parse -r clobber 'xo|ox' | cg-options --dot"
	assert_success
	assert_line --partial "n2 [tooltip=\".x|ox\""
	assert_line "	n1 -> n2 [color=blue, label=\"a2-b2\"];"
	assert_line "	n1 -> n2 [color=blue, label=\"a2-a1 (equivalent)\"];"
	assert_line --partial "(equivalent): the move reaches not the position drawn"
	# no stand-in: no mark, no legend line for it (2+1 leads to 1, 1+1
	# and 2, 1+1 to 1 and 1 to 0, each the position drawn)
	run sh -c "cg-parse -r nim 2+1 | cg-options -a --dot"
	assert_success
	refute_output --partial "equivalent"
}

@test "--dot: boards are small grids, other positions text; dot reads it" {
	# ..# over ...: a 2 x 3 board, the blocked square dark
	run sh -c "cg-parse -r domineering '..#|...' | cg-options --dot"
	assert_success
	assert_line --partial "n1 [tooltip=\"..#|...\", margin=\"0.05\", label=<<TABLE"
	[ "$(grep '^	n1 ' <<<"$output" | grep -o '<TR>' | wc -l)" -eq 2 ]
	[ "$(grep '^	n1 ' <<<"$output" | grep -o '<TD ' | wc -l)" -eq 6 ]
	[ "$(grep '^	n1 ' <<<"$output" | grep -o 'BGCOLOR' | wc -l)" -eq 1 ]
	# Sprouts and game literals are no boards, '|' or not
	run sh -c "cg-parse -r sprouts '0.AB|AB' | cg-options --dot"
	refute_output --partial "TABLE"
	assert_line "	n1 [label=\"0.AB|AB\"];"
	# Graphviz takes every kind of picture without a complaint
	for cmd in "cg-parse -r clobber 'xo.|.ox'" "cg-parse -r nim 2+1" \
	    "cg-parse -r cutcake 2x2 | cg-options -a -j" \
	    "cg-parse -r game '{1|*}+^'"; do
		run sh -c "$cmd | cg-options -a --dot | dot -Tpng -o '$T/p.png' 2>&1"
		assert_success
		assert_output ""
		[ -s "$T/p.png" ]
	done
}

@test "-t and --dot together, -d 0 and -d x are usage errors" {
	run cg cg-options -t --dot /dev/null
	[ "$status" -eq 2 ]
	run cg cg-options -d 0 /dev/null
	[ "$status" -eq 2 ]
	run cg cg-options -d x /dev/null
	[ "$status" -eq 2 ]
	assert_output "cg-options: bad argument 'x' for -d (want 1 to 18446744073709551615)"
}

@test "malformed input: file and line" {
	printf 'cgt\t1\nruleset\tnim\nN\t1\t3\nL\t1\t2\nend\n' > "$T/bad"
	run cg cg-options "$T/bad"
	[ "$status" -eq 1 ]
	assert_output "cg-options: $T/bad:4: option node 2 is not defined (define nodes before using them)"
}

@test "-t with position text needing escapes" {
	printf 'cgt\t1\nN\t1\nE\t1\nN\t2\nL\t2\t1\nE\t2\nA\t2\tk\tv\nroot\t2\nend\n' > "$T/t"
	run cg cg-options -t "$T/t"
	assert_success
	assert_output "$(printf '#2\t#1\t')"
}

@test "missing file, --help, bad option" {
	run cg cg-options "$T/none"
	[ "$status" -eq 1 ]
	assert_output "cg-options: $T/none: No such file or directory"
	run cg cg-options -h
	assert_success
	run cg cg-options -Z
	[ "$status" -eq 2 ]
}

@test "> /dev/full and | head -n1" {
	run sh -c 'cg-parse -r nim 5 | cg-options -t > /dev/full'
	[ "$status" -eq 1 ]
	assert_output "cg-options: standard output: No space left on device"
	run bash -c 'cg-parse -r nim 7+7+7+7 | cg-options -a --dot 2>"$0" | head -n1; echo "${PIPESTATUS[1]}" >"$0.st"' "$T/err"
	assert_output "digraph cg {"
	[ ! -s "$T/err" ]
}
