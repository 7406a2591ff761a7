#!/usr/bin/env bats
# chomp ruleset: notation, options, symmetry, values derived by hand.
load common

opts() { cg cg-options -r chomp -t <<< "$1"; }

@test "chomp: parse and print round trip" {
	# rectangles print as RxC, other diagrams as row lengths
	run bash -c "cg-parse -r chomp 4x7 3,3,3 5,3,3,1 1 | awk -F'\\t' '\$1 == \"N\" {print \$3}'"
	assert_success
	assert_output $'4x7\n3x3\n5,3,3,1\n1x1'
	run bash -c "cg-parse -r chomp 4x7 5,3,3,1 | awk -F'\\t' '\$1 == \"N\" {print \$3}' | cg-parse -r chomp | awk -F'\\t' '\$1 == \"N\" {print \$3}'"
	assert_output $'4x7\n5,3,3,1'
}

@test "chomp: bad positions name the column" {
	run cg cg-parse -r chomp 3,4
	assert_failure 1
	assert_output --partial 'column 3: row 2 is longer than the row below it'
	run cg cg-parse -r chomp 0x2
	assert_failure 1
	assert_output --partial 'column 1'
	run cg cg-parse -r chomp 3x3y
	assert_failure 1
	assert_output --partial 'column 4'
}

@test "chomp: options of 2x3" {
	# rows [3,3] bottom first; the poison (1,1) cannot be chosen.
	# (1,2) leaves [1,1]=2x1, (1,3) [2,2]=2x2, (2,1) [3]=1x3,
	# (2,2) [3,1], (2,3) [3,2].
	run opts 2x3
	assert_output $'2x3\t2x1, 2x2, 1x3, 3,1, 3,2\t2x1, 2x2, 1x3, 3,1, 3,2'
	run bash -c "cg-parse -r chomp 2x3 | cg-options | grep '^L' | cut -f4 | paste -sd' '"
	assert_output '1,2 1,3 2,1 2,2 2,3'
}

@test "chomp: only the poison left has no moves" {
	run opts 1x1
	assert_output $'1x1\t\t'
	# 3,1: (1,2) [1,1], (1,3) [2,1], (2,1) [3]
	run opts 3,1
	assert_output $'3,1\t2x1, 2,1, 1x3\t2x1, 2,1, 1x3'
}

@test "chomp: transposed boards are one node" {
	# the diagrams inside 2x3 holding the poison: 9; [2] and [1,1]
	# (1x2 and 2x1) are transposes of each other and [2,1] is its own,
	# so the DAG has 8 nodes
	run bash -c "cg-parse -r chomp 2x3 | cg-options -a | grep -c '^N'"
	assert_output 8
}

@test "chomp: nim values derived by hand" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# 1x1 = 0 (no move); 1x2 -> 1x1: 1; 2,1 -> 1x2 or 2x1 (both 1): 0;
	# 2x2 -> 2x1, 1x2 (1) or 2,1 (0): mex{0,1} = 2.
	run bash -c "cg-parse -r chomp 1x1 1x2 2,1 2x2 | cg-outcome -t -n"
	assert_success
	assert_output $'1x1\t0\n1x2\t1\n2,1\t0\n2x2\t2'
	# every rectangle but 1x1 is a first-player win (strategy stealing)
	run bash -c "cg-parse -r chomp 3x4 4x4 2x7 | cg-outcome -t"
	assert_output $'3x4\tN\n4x4\tN\n2x7\tN'
}

@test "chomp: known second-player wins" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# Two rows (a, a-1) are P: every move is answered by restoring the
	# shape (Gale 1974); (9,7) is N (move to (8,7)).  A symmetric L,
	# bottom row n and n-1 single squares above, is P by mirroring;
	# (4,1,1) is N (take square (1,4) to make the symmetric (3,1,1)).
	run bash -c "cg-parse -r chomp 9,8 9,7 4,1,1,1 4,1,1 5,4 | cg-outcome -t"
	assert_success
	assert_output $'9,8\tP\n9,7\tN\n4,1,1,1\tP\n4,1,1\tN\n5,4\tP'
}

@test "chomp: nim values by brute force, with the proof-number tree collected mid-search" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	command -v python3 >/dev/null || skip "no python3"
	# --table-memory 1 makes df-pn collect its tree every 4096
	# expansions; a collection renumbers the nodes, the root among them
	# (before the fix the answer was read from the stale number: a crash,
	# "interrupted" or a wrong value).  Expected: mex by brute force over
	# the Young diagrams inside each rectangle, sharing no code.
	run python3 -c '
from functools import lru_cache
@lru_cache(maxsize=None)
def nim(rows):
    seen = set()
    for i, n in enumerate(rows):
        for j in range(n):
            if (i, j) != (0, 0):
                t = tuple(min(r, j) if k >= i else r for k, r in enumerate(rows))
                seen.add(nim(tuple(r for r in t if r)))
    m = 0
    while m in seen:
        m += 1
    return m
for r, c in ((6, 7), (7, 8), (6, 9)):
    print("%dx%d\t%d" % (r, c, nim((c,) * r)))'
	assert_success
	want=$output
	run bash -c "printf '6x7\n7x8\n6x9\n' | cg-outcome -r chomp -t -n --table-memory 1"
	assert_success
	assert_output "$want"
	# the parent links and the children's numbers (kn) are built again
	# by each collection, in PNS and PN2 as in df-pn
	for s in pns pn2; do
		run bash -c "printf '6x7\n7x8\n6x9\n' | cg-outcome -r chomp -t -n --search $s --table-memory 1"
		assert_success
		assert_output "$want"
	done
}
