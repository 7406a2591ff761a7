#!/usr/bin/env bats
# Fox and Geese (foxgeese(7)), a loopy ruleset.  Expected values come
# from CGSuite's tests (cited), from hand derivations in the comments,
# or from the brute force of tests/cli/loopy/foxgeese.py, which has the
# rules written out in Python, never from cgtools' code.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# every board of W columns and H rows with G geese and the fox on dark
# squares
boards() {
	python3 -c '
import itertools, sys
w, h, ng = map(int, sys.argv[1:4])
dark = [(r, c) for r in range(1, h + 1) for c in range(1, w + 1)
        if (r + c) % 2 == 0]
for g in itertools.combinations(dark, ng):
    for f in dark:
        if f not in g:
            print("|".join("".join("x" if (r, c) in g else "o" if (r, c) == f
                                   else "." for c in range(1, w + 1))
                           for r in range(h, 0, -1)))' "$@"
}

@test "foxgeese: positions are read on the dark squares, with one fox" {
	run cg cg-parse -r foxgeese 'x.x.|....|o...'
	assert_success
	assert_line "N	1	x.x.|....|o..."
	run cg cg-parse -r foxgeese '.x..|....|o...'
	assert_failure 1
	assert_output --partial "column 2: geese and the fox stand on dark squares"
	run cg cg-parse -r foxgeese 'x.x.|....|....'
	assert_failure 1
	assert_output --partial "no fox"
	run cg cg-parse -r foxgeese 'x.x.|...|o...'
	assert_failure 1
	assert_output --partial "rows of different lengths"
}

@test "foxgeese: the geese step down diagonally, the fox any way diagonally" {
	# x.x.|....|o... : geese on a3 and c3, the fox on a1.  a3 can go to
	# b2 only (there is no column left of a); c3 to b2 or d2.  The fox on
	# a1 (bottom row, first column) has b2 alone.
	run bash -c "cg-parse -r foxgeese 'x.x.|....|o...' | cg-options -t"
	assert_output "x.x.|....|o...	..x.|.x..|o..., x...|.x..|o..., x...|...x|o...	x.x.|.o..|...."
	# the fox on b2, one row below the highest goose (c3) with a3 empty
	# diagonally above it, has escaped (CGSuite: off): the geese have no
	# move, the fox's one move keeps the position
	run bash -c "cg-parse -r foxgeese '..x.|.o..|....' | cg-options -t"
	assert_output "..x.|.o..|....		..x.|.o..|...."
	# off: Left to move cannot move (l0); Right to move moves, and then
	# Left cannot (w1): Right wins both ways, R
	run bash -c "cg-parse -r foxgeese '..x.|.o..|....' | cg-outcome -t --remoteness"
	assert_output "..x.|.o..|....	R	l0 w1"
}

@test "foxgeese: CGSuite's values of Fox and Geese positions give Left the win" {
	# CGSuite, GameGridTest, "define FoxAndGeese properly":
	#   FoxAndGeese({(4,2),(4,4),(4,6),(4,8)}, (1,1)).GameValue = {4*|7/2}
	#   GenFoxAndGeese(boardWidth => 10)({(3,1),(3,3),(3,5),(3,7),(3,9)},
	#     (1,9)).GameValue = {6over|5*}
	#   FoxAndGeese.ValuesTable({(3,1),(3,3),(3,5),(3,7)}): the fox on
	#     b2 2over, d2 2, f2 3*, h2 4over, a1 {6|2over}, c1 {2over|2},
	#     e1 {4|3||2}, g1 {4over|3*}.
	# Every one is a game whose Left and Right options (or itself, for
	# 2, 3*, 2over, 4over) are greater than 0, so Left wins moving first
	# and second: class L.
	cat > "$T/pos" <<-'EOS'
	.x.x.x.x|........|........|o.......
	x.x.x.x.x.|..........|........o.
	x.x.x.x.|.o......|........
	x.x.x.x.|...o....|........
	x.x.x.x.|.....o..|........
	x.x.x.x.|.......o|........
	x.x.x.x.|........|o.......
	x.x.x.x.|........|..o.....
	x.x.x.x.|........|....o...
	x.x.x.x.|........|......o.
	EOS
	run bash -c "cg-parse -r foxgeese < '$T/pos' | cg-outcome -t | cut -f2 | sort | uniq -c"
	assert_success
	assert_output "     10 L"
}

@test "foxgeese: cg-canon gives CGSuite's values of the ValuesTable positions" {
	# the same sources as above: the fox on b2 2over, d2 2, f2 3*,
	# h2 4over, a1 {6|2over}, c1 {2over|2}, e1 {4|3||2}, g1 {4over|3*}
	cat > "$T/pos" <<-'EOS'
	x.x.x.x.|.o......|........
	x.x.x.x.|...o....|........
	x.x.x.x.|.....o..|........
	x.x.x.x.|.......o|........
	x.x.x.x.|........|o.......
	x.x.x.x.|........|..o.....
	x.x.x.x.|........|....o...
	x.x.x.x.|........|......o.
	EOS
	run bash -c "cg-parse -r foxgeese < '$T/pos' | cg-canon -t | cut -f2"
	assert_success
	assert_output "2over
2
3*
4over
{6|2over}
{2over|2}
{4|3||2}
{4over|3*}"
}

@test "foxgeese: cg-canon gives CGSuite's values of the 8x8 and 10-wide boards" {
	heavy
	# the first two positions above: {4*|7/2} and {6over|5*}; graphs of
	# about 10,000 nodes, simplified one set of geese at a time
	printf '%s\n' '.x.x.x.x|........|........|o.......' \
	    'x.x.x.x.x.|..........|........o.' > "$T/pos"
	run bash -c "cg-parse -r foxgeese < '$T/pos' | cg-canon -t | cut -f2"
	assert_success
	assert_output "{4*|7/2}
{6over|5*}"
}

@test "foxgeese: the start position is 2over, as Winning Ways gives it for 8x8" {
	heavy
	# Winning Ways, 2nd edition, vol. 3, Fox and Geese: on the standard
	# 8x8 board, with the geese on a1, c1, e1, g1 and the fox on e8, the
	# value is 2 + over (Jonathan Welton's correction of the first
	# edition's 1 + over, which supposed an endless board).  Here the
	# geese move down, so the board is turned over: geese on the top
	# row's dark squares, the fox on e1.  721,696 positions.
	run bash -c "echo '.x.x.x.x|........|........|........|........|........|........|....o...' |
	    cg-parse -r foxgeese | cg-canon -t -p canon,outcome | cut -f2-"
	assert_success
	assert_output "2over	L"
}

@test "foxgeese: every board of small families as a brute force solves it" {
	boards 4 4 2 > "$T/pos"
	boards 5 5 3 >> "$T/pos"
	boards 4 6 2 >> "$T/pos"
	[ "$(wc -l < "$T/pos")" -eq $((168 + 2860 + 660)) ]
	python3 "$CG_ROOT/tests/cli/loopy/foxgeese.py" $(cat "$T/pos") > "$T/want"
	run bash -c "cg-parse -r foxgeese < '$T/pos' | cg-outcome -t --remoteness | diff - '$T/want'"
	assert_success
	for c in L R N P; do
		grep -q "	$c	" "$T/want" || { echo "no $c"; return 1; }
	done
}

@test "foxgeese: cg-play pens the fox, the board drawn with coordinates" {
	# x.x.|....|o... with the geese (Left) to move: the fox on a1 has one
	# square, b2, and a3-b2 takes it: Left wins at once, the quickest
	# win (the brute force: Left moving first wins in 1)
	[ "$(python3 "$CG_ROOT/tests/cli/loopy/foxgeese.py" 'x.x.|....|o...' | cut -f2,3)" = "N	w1 w3" ]
	run cg cg-play -r foxgeese -y right 'x.x.|....|o...' <<<$'#1\n'
	assert_success
	assert_line "  3  x . x ."
	assert_line "  1  o . . ."
	assert_line "     a b c d"
	assert_line "Left (computer) plays a3-b2"
	assert_line "Right cannot move: Left wins (the computer)."
}

@test "foxgeese: cg-canon stops on a signal while it simplifies" {
	# the start position takes about half a minute: SIGTERM after a
	# second ends it at once, with no value written
	echo '.x.x.x.x|........|........|........|........|........|........|....o...' |
	    cg cg-parse -r foxgeese > "$T/s.cgt"
	"$CG_BUILD/bin/cg-canon" -t "$T/s.cgt" > "$T/out" 2> "$T/err" &
	pid=$!
	sleep 1
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 143 ]
	grep -q '^cg-canon: .*interrupted$' "$T/err"
	[ ! -s "$T/out" ]
}
