#!/usr/bin/env bats
# Rules files (cgr(5)) whose patterns read the edge and a separating cell
# at either end or inside, and whose rules have preconditions (a pattern
# present, or absent, on the board).  Dawson's chess both ways: as the
# octal game 0.137 on a strip of pins, and on its 3xn board with
# compulsory captures (the shipped dawsonchess.cgr).
load common

setup() {
	T=$(mktemp -d)
	mkdir "$T/r"
	export CG_PLUGIN_PATH=$T/r
}

teardown() {
	rm -rf "$T"
}

# The Sprague-Grundy values of Dawson's chess, the octal game 0.137, for
# heaps of 0..131: OEIS A002187 (data as published; Winning Ways, pp. 89
# and 102).  Period 34 with the last exception at 51.
A002187=0,1,1,2,0,3,1,1,0,3,3,2,2,4,0,5,2,2,3,3,0,1,1,3,0,2,1,1,0,4,5,2,7,4,0,1,1,2,0,3,1,1,0,3,3,2,2,4,4,5,5,2,3,3,0,1,1,3,0,2,1,1,0,4,5,3,7,4,8,1,1,2,0,3,1,1,0,3,3,2,2,4,4,5,5,9,3,3,0,1,1,3,0,2,1,1,0,4,5,3,7,4,8,1,1,2,0,3,1,1,0,3,3,2,2,4,4,5,5,9,3,3,0,1,1,3,0,2,1,1,0,4

# pins N: a row of N pins
pins() {
	printf 'x%.0s' $(seq 1 "$1")
}

@test "remove a lone pin: 0.137 on a strip, the gap and the edge at both ends" {
	# 0.137: take a heap of 1 (a lone pin), take 2 from a heap leaving 0
	# or 1 heaps (two pins at an end of a row), take 3 leaving 0, 1 or 2
	# heaps (any three pins side by side)
	cat > "$T/r/pins.cgr" <<'CGR'
board      strip
cells      . x
measure    x
components .
symmetry   mirror
both  [.|] x [.|] -> = . =
both  [.|] x x    -> = . .   along e w
both  x x x       -> . . .
CGR
	for n in $(seq 1 131); do pins "$n"; echo; done > "$T/rows"
	got=$(cg-parse -r pins < "$T/rows" | cg cg-outcome -t -n | cut -f2 |
	    paste -sd,)
	[ "0,$got" = "$A002187" ] || { echo "got 0,$got"; return 1; }
	# the rows of a position are its components: a lone pin at either
	# end, in the middle
	run sh -c 'cg-parse -r pins x.xxx.x | cg-outcome -t -n'
	assert_output "$(printf 'x.xxx.x\t2')"   # 1 ^ 2 ^ 1
	o='..xxx.x, x...x.x, x.....x, ..xxx.x, x...x.x'
	# the moves, starting square by starting square: the lone pin at 1
	# (a match from the edge before square 1), 3-4 (from the gap at 2),
	# 3-5, the lone pin at 7 and 4-5 (from the gap at 6); the mirror image of a
	# position is the same node (x.x...x is named x...x.x, x.xxx.. is
	# named ..xxx.x)
	run sh -c 'cg-parse -r pins x.xxx.x | cg-options -t'
	assert_output "$(printf 'x.xxx.x\t%s\t%s' "$o" "$o")"
}

@test "the edge starts a match: every direction whose line begins beyond the board" {
	cat > "$T/r/rim.cgr" <<'CGR'
board    grid
cells    . x
measure  x
left     | x -> | .      along all
right    x [.|] -> . =   along e
CGR
	# hand count, 3x3 full: a corner begins 5 of the 8 lines through it
	# (the 3 directions pointing off the board from it do not), a side's
	# middle 3 lines, the centre none: 4*5 + 4*3 = 32 moves for Left;
	# Right's: the three x's of the e column
	run sh -c "cg-parse -r rim 'xxx|xxx|xxx' | cg-options -t | cut -f2 | tr , '\\n' | wc -l"
	assert_output 32
	run sh -c "cg-parse -r rim 'xxx|xxx|xxx' | cg-options -t | cut -f3"
	assert_output 'xx.|xxx|xxx, xxx|xx.|xxx, xxx|xxx|xx.'
	# one row: every direction but w begins a line at a1 (7), but e at c1
	run sh -c "cg-parse -r rim 'x.x' | cg-options -t"
	l='..x, ..x, ..x, ..x, ..x, ..x, ..x, x.., x.., x.., x.., x.., x.., x..'
	assert_output "$(printf 'x.x\t%s\t..x, x..' "$l")"
}

@test "dawsonchess: the 3xn start is won by the player to move exactly when 0.137 is not 0 at n" {
	# Winning Ways (pp. 89, 102): Dawson's chess on n files is the octal
	# game 0.137 on a heap of n, its forced captures taken together; so
	# the player to move from the start (either colour: the board is the
	# same seen from the other side) wins exactly when A002187(n) != 0.
	# The canonical form is not *g in general: right after its own
	# advance White has a capture, a move no alternating play from the
	# start reaches, and the positions between captures are no nimbers.
	local n want= got
	for n in $(seq 1 20); do
		cut=$(printf '%s' "$A002187" | cut -d, -f$((n + 1)))
		want="$want$([ "$cut" = 0 ] && echo P || echo N) "
		printf '%s|%s|%s\n' "$(printf 'b%.0s' $(seq 1 $n))" \
		    "$(printf '.%.0s' $(seq 1 $n))" "$(printf 'w%.0s' $(seq 1 $n))"
	done > "$T/starts"
	unset CG_PLUGIN_PATH
	got=$(cg-parse -r dawsonchess < "$T/starts" | cg cg-outcome -t | cut -f2 |
	    tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "want $want"; echo "got  $got"; return 1; }
	# one file, by hand: either pawn steps forward and the file is
	# blocked: {0|0} = *
	run sh -c "cg-parse -r dawsonchess 'b|.|w' | cg-canon -t"
	assert_output "$(printf 'b|.|w\t*')"
}

@test "dawsonchess: the canonical forms of the starts are a brute force's, not *g past 4 files" {
	# An independent move generator (Python, below) writes the whole
	# game graph of the start on n files as an abstract document; its
	# canonical forms must be the ruleset's.  For 5 files both are *,
	# where 0.137 has 3: the positions between forced captures, where
	# the player who just moved could capture again, are no nimbers.
	cat > "$T/bf.py" <<'PY'
import sys
sys.setrecursionlimit(100000)
n = int(sys.argv[1])
def moves(rows, side):
    pawn, enemy, fwd = ('w', 'b', 1) if side == 'L' else ('b', 'w', -1)
    caps, steps = [], []
    for r in range(3):
        for c in range(n):
            if rows[r][c] != pawn or not 0 <= r + fwd < 3:
                continue
            for c2 in (c - 1, c + 1):
                if 0 <= c2 < n and rows[r + fwd][c2] == enemy:
                    caps.append((r, c, r + fwd, c2))
            if rows[r + fwd][c] == '.':
                steps.append((r, c, r + fwd, c))
    out = []
    for r, c, r2, c2 in caps or steps:    # a capture if there is one
        b = [list(x) for x in rows]
        b[r][c], b[r2][c2] = '.', pawn
        out.append(tuple(''.join(x) for x in b))
    return out
ids, lines = {}, []
def visit(b):
    if b not in ids:
        L = [visit(x) for x in moves(b, 'L')]
        R = [visit(x) for x in moves(b, 'R')]
        ids[b] = i = len(ids) + 1
        lines.append('N\t%d' % i)
        lines.extend('L\t%d\t%d' % (i, x) for x in L)
        lines.extend('R\t%d\t%d' % (i, x) for x in R)
        lines.append('E\t%d' % i)
    return ids[b]
root = visit(('w' * n, '.' * n, 'b' * n))   # row 1 (White's) first
print('cgt\t1\n' + '\n'.join(lines) + '\nroot\t%d\nend' % root)
PY
	local n want got
	unset CG_PLUGIN_PATH
	for n in 1 2 3 4 5; do
		want=$(python3 "$T/bf.py" "$n" | cg cg-canon -t | cut -f2)
		got=$(cg-parse -r dawsonchess "$(printf 'b%.0s' $(seq 1 $n))|$(printf '.%.0s' $(seq 1 $n))|$(printf 'w%.0s' $(seq 1 $n))" |
		    cg cg-canon -t | cut -f2)
		[ "$got" = "$want" ] || { echo "$n files: $got, brute force $want"; return 1; }
	done
	[ "$got" = '*' ]
}

@test "dawsonchess: a player who can capture must" {
	unset CG_PLUGIN_PATH
	# White's pawn on b2 can take a3: its steps forward (a1-a2, b2-b3)
	# are not allowed; Black's a3 must take b2.  By hand: after b2-a3
	# Black has no pawn and White a1-a2 (L); after a3-b2 each side can
	# only take the other's last pawn (N)
	run sh -c "cg-parse -r dawsonchess 'b.|.w|w.' | cg-outcome --children"
	assert_output "$(printf 'b.|.w|w.\tL:b2-a3\tw.|..|w.\tL\nb.|.w|w.\tR:a3-b2\t..|.b|w.\tN')"
	# two files: White's a1-a2 is taken by b3 and retaken by b1, and
	# Black, blocked, loses: the start's children are all won by the
	# player who made them
	run sh -c "cg-parse -r dawsonchess 'bb|..|ww' | cg-outcome --children"
	assert_output "$(printf 'bb|..|ww\tL:a1-a2\tbb|w.|.w\tL\nbb|..|ww\tL:b1-b2\tbb|.w|w.\tL\nbb|..|ww\tR:a3-a2\t.b|b.|ww\tR\nbb|..|ww\tR:b3-b2\tb.|.b|ww\tR')"
}

@test "the measure's proof knows a match from the edge starts next to it" {
	# Left turns the first x into t: 2 fewer for the x, and t adds its
	# distance to the west edge, which is 1 from the edge: -1, proved.
	# The same turn anywhere (or at the east end) adds up to the strip's
	# length: refused
	printf '%s\n' 'board strip' 'cells . x t' 'measure 2*x + t:w' \
	    'left | x -> | t' 'right x -> .' > "$T/r/lead.cgr"
	run sh -c "cg-parse -r lead xxx | cg-options -t"
	assert_output "$(printf 'xxx\ttxx\t.xx, x.x, xx.')"
	printf '%s\n' 'board strip' 'cells . x t' 'measure 2*x + t:w' \
	    'left x | -> t |' > "$T/r/trail.cgr"
	run cg cg-parse -r trail x
	assert_failure 1
	assert_output --partial "trail.cgr:4: this rule does not always decrease the measure (line 3): along e, 'x|' becoming 't|' raises it, the more the farther from the edge"
}

@test "conditions: 'if' a pattern is on the board, 'unless' it is" {
	# Left removes an x only if some o is on the strip, Right an o only
	# unless two x's stand side by side
	cat > "$T/r/cond.cgr" <<'CGR'
board    strip
cells    . x o
measure  xo
left     x -> .  if o
right    o -> .  unless x x
CGR
	run sh -c "cg-parse -r cond x xo xxo x.xo | cg-options -t"
	assert_output "$(printf 'x\t\t\nxo\t.o\tx.\nxxo\t.xo, x.o\t\nx.xo\t..xo, x..o\tx.x.')"
}

# refused FILE-TEXT LINE MESSAGE: the rules file is refused, one line
refused() {
	printf '%b' "$1" > "$T/r/bad.cgr"
	run cg cg-parse -r bad '.'
	assert_failure 1
	[ "${#lines[@]}" -eq 1 ] || { echo "want one line: $output"; return 1; }
	assert_output --partial "bad.cgr:$2: $3"
}

@test "bad conditions: FILE:LINE: what is wrong" {
	G='board grid\ncells . w b\nmeasure w:n\n'
	refused "${G}left w . -> . w along n if\n" 4 "'if' needs a pattern"
	refused "${G}left w . -> . w unless w b along ne along n\n" 4 "'along' after a condition's pattern is the condition's"
	refused "${G}left w . -> . w unless w z\n" 4 "pattern 'wz': 'z' is not a cell"
	refused "${G}left w . -> . w if w if w if w if w if w\n" 4 "too many conditions on one rule (at most 4)"
	refused "${G}components .\nleft w . -> . w along n unless w b along ne nw\n" 5 "a rule with a condition reads the whole board"
	refused "${G}symmetry mirror\nleft w . -> . w along n unless w b along ne\n" 5 "the symmetry does not hold: the left-right mirror turns this rule's conditions into others"
}

@test "components with the separator at both ends of patterns: the same values as the whole board" {
	# the file without 'components' solves each board whole: the sum of
	# the parts must be its value
	cat > "$T/r/split.cgr" <<'CGR'
board    grid
cells    . x o
measure  xo
components .
left     [.|] x [.|] -> = . =        along all
left     [.|] x x -> = . .           along orthogonal
right    [.|] o o [.|] -> = . . =    along e s
right    [.|] o x -> = . .           along n e
CGR
	grep -v '^components' "$T/r/split.cgr" > "$T/r/whole.cgr"
	# 40 boards of 2x2 to 3x4, drawn with a fixed seed
	awk 'BEGIN { srand(41); for (i = 0; i < 40; i++) {
	    r = 2 + int(rand() * 2); c = 2 + int(rand() * 3); s = ""
	    for (a = 0; a < r; a++) { if (a) s = s "|"
		for (b = 0; b < c; b++) s = s substr(".xo", 1 + int(rand() * 3), 1) }
	    print s } }' > "$T/boards"
	cg-parse -r split < "$T/boards" | cg cg-canon -t | cut -f2 > "$T/split"
	cg-parse -r whole < "$T/boards" | cg cg-canon -t | cut -f2 > "$T/whole"
	[ "$(wc -l < "$T/split")" -eq 40 ]
	cmp "$T/split" "$T/whole" || { paste "$T/boards" "$T/split" "$T/whole"; return 1; }
}
