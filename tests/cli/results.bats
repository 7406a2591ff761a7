#!/usr/bin/env bats
# Games that end in a result (cgr(5) "Results", cg/result.h): the shipped
# tictactoe, connectfour and breakthrough, and a scored game, solved by
# cg-outcome and checked against a brute-force minimax written below from
# the games' rules (bf.py, independent of the rules files and of the
# interpreter); the tools that have no meaning for them refuse them.
load common

setup() {
	T=$(mktemp -d)
	write_bf > "$T/bf.py"
}

teardown() {
	rm -rf "$T"
}

# The brute force: each game's moves and end written out in Python.
write_bf() {
	cat <<'PY'
# Brute-force minimax of the games in results.bats, written from the games'
# rules (not from the rules files): each position a tuple of rows, top
# first; results +1 Left wins, 0 draw, -1 Right wins (or a payoff).
import sys
from functools import lru_cache

@lru_cache(maxsize=None)
def lines(rows, cols, k):
    return tuple(_lines(rows, cols, k))

def _lines(rows, cols, k):
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    yield cells

def k_in_row(b, ch, k):
    return any(all(b[a][c] == ch for a, c in l)
               for l in lines(len(b), len(b[0]), k))

def put(b, r, c, ch):
    row = b[r][:c] + ch + b[r][c + 1:]
    return b[:r] + (row,) + b[r + 1:]

def place_moves(b, ch):            # tic-tac-toe: any empty square
    return [put(b, r, c, ch) for r in range(len(b))
            for c in range(len(b[0])) if b[r][c] == '.']

def drop_moves(b, ch):             # connect four: lowest empty square
    out = []
    for c in range(len(b[0])):
        for r in range(len(b) - 1, -1, -1):
            if b[r][c] == '.':
                out.append(put(b, r, c, ch))
                break
    return out

def pawn_moves(b, ch):             # breakthrough
    me, dr = ('x', -1) if ch == 'x' else ('o', 1)
    foe = 'o' if me == 'x' else 'x'
    out = []
    for r in range(len(b)):
        for c in range(len(b[0])):
            if b[r][c] != me or not 0 <= r + dr < len(b):
                continue
            for dc in (-1, 0, 1):
                if not 0 <= c + dc < len(b[0]):
                    continue
                t = b[r + dr][c + dc]
                if t == '.' or (t == foe and dc != 0):
                    out.append(put(put(b, r, c, '.'), r + dr, c + dc, me))
    return out

def clobber_moves(b, ch):          # clobber: onto an adjacent enemy stone
    foe = 'o' if ch == 'x' else 'x'
    out = []
    for r in range(len(b)):
        for c in range(len(b[0])):
            if b[r][c] != ch:
                continue
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                a, d = r + dr, c + dc
                if 0 <= a < len(b) and 0 <= d < len(b[0]) and b[a][d] == foe:
                    out.append(put(put(b, r, c, '.'), a, d, ch))
    return out

WIN = 10**9

def game(name):
    if name == 'tictactoe':
        def over(b):
            x, o = k_in_row(b, 'x', 3), k_in_row(b, 'o', 3)
            return (0 if x and o else WIN if x else -WIN if o else None)
        return place_moves, over, lambda b, me: 0
    if name == 'connectfour':
        def over(b):
            x, o = k_in_row(b, 'x', 4), k_in_row(b, 'o', 4)
            return (0 if x and o else WIN if x else -WIN if o else None)
        return drop_moves, over, lambda b, me: 0
    if name == 'breakthrough':
        def over(b):
            x = 'x' in b[0] or not any('o' in r for r in b)
            o = 'o' in b[-1] or not any('x' in r for r in b)
            return (0 if x and o else WIN if x else -WIN if o else None)
        return pawn_moves, over, lambda b, me: -WIN if me == 'x' else WIN
    if name == 'clobberscore':     # the stuck player ends it: x - o
        return clobber_moves, lambda b: None, \
            lambda b, me: sum(r.count('x') - r.count('o') for r in b)
    raise SystemExit('unknown game ' + name)

def solve(name, text):
    moves, over, stuck = game(name)

    @lru_cache(maxsize=None)
    def value(b, me):
        v = over(b)
        if v is not None:
            return v
        kids = moves(b, me)
        if not kids:
            return stuck(b, me)
        other = 'o' if me == 'x' else 'x'
        vals = [value(k, other) for k in kids]
        return max(vals) if me == 'x' else min(vals)

    b = tuple(text.split('|'))
    return value(b, 'x'), value(b, 'o')

def cls(l, r):
    s = lambda v: (v > 0) - (v < 0)
    return {(1, 1): 'L', (-1, -1): 'R', (1, -1): 'N', (-1, 1): 'P',
            (0, 0): 'D', (0, 1): 'PHat', (-1, 0): 'PCheck',
            (1, 0): 'NHat', (0, -1): 'NCheck'}[(s(l), s(r))]

name = sys.argv[1]
for text in sys.stdin.read().split():
    l, r = solve(name, text)
    if name == 'clobberscore':
        print('%s\t%s\t%d %d' % (text, cls(l, r), l, r))
    else:
        print('%s\t%s' % (text, cls(l, r)))
PY
}

# same GAME POSITION...: cg-outcome -t agrees with the brute force
same() {
	local game=$1
	shift
	printf '%s\n' "$@" > "$T/in"
	python3 "$T/bf.py" "$game" < "$T/in" > "$T/want"
	cg cg-outcome -r "$game" -t < "$T/in" > "$T/got"
	diff "$T/want" "$T/got"
}

@test "tictactoe: the empty board is a draw whoever starts (D), and positions agree with a brute force" {
	# the classical fact that Tic-Tac-Toe is a draw with best play,
	# whoever starts; the brute force derives it too
	run cg cg-outcome -r tictactoe -t <<< '...|...|...'
	assert_success
	assert_output "$(printf '...|...|...\tD')"
	same tictactoe '...|...|...' 'x..|...|...' '.x.|...|...' '....' \
	    'xo.|...|...' 'xx.|oo.|...' 'xxx|oo.|...' 'ooo|xx.|x..' \
	    'x.o|...|o.x' '.o.|.x.|...' 'xo.|.x.|..o' 'x..|.o.|...'
}

@test "connectfour: small boards and positions agree with a brute force" {
	same connectfour '....|....|....' '...|...|...' \
	    '....|....|xo..|ox..' '....|x...|xo..|xoo.' \
	    '....|....|.o..|xxo.' '....|....|o...|xx.o'
}

@test "breakthrough: small boards and positions agree with a brute force" {
	same breakthrough 'ooo|...|xxx' 'ooo|...|...|xxx' \
	    '.o..|o...|..x.|.x.x' 'o.o|.x.|...|x..' '...|.o.|x..' \
	    '..o|...|.x.|...' 'o..|...|..x' '.o.|...|...|.x.'
}

@test "a game won on the board has no moves once won" {
	run sh -c "printf 'xxx|oo.|...\n' | cg-options -r tictactoe -t"
	assert_output "$(printf 'xxx|oo.|...\t\t')"
	run sh -c "echo '..|..|..' | cg-outcome -r connectfour -t"
	assert_output "$(printf '..|..|..\tD')"
}

@test "a scored game: classes and payoffs per first player agree with a brute force" {
	mkdir "$T/rules"
	printf '%s\n' 'board grid' 'cells . x o' 'measure xo' \
	    'left x o -> . x along orthogonal' \
	    'right o x -> . o along orthogonal' 'payoff x - o' \
	    > "$T/rules/clobberscore.cgr"
	export CG_PLUGIN_PATH=$T/rules
	same clobberscore 'xoxo|oxox' 'xo|ox' 'xxo|oox|xo.' 'xox' \
	    'xoxox|o.x..' 'oxo' 'xo' 'x.o'
	# the payoffs as a document annotation too
	run sh -c "echo xox | cg-outcome -r clobberscore | grep '^A'"
	assert_output "$(printf 'A\t1\toutcome\tNHat\nA\t1\tpayoff\t2 0')"
}

@test "the tools whose values are normal-play games refuse a game won on the board" {
	for t in cg-canon cg-synch; do
		run sh -c "echo '...|...|...' | $t -r tictactoe -t"
		assert_failure 1
		assert_output --partial "$t: -:1: ruleset 'tictactoe' is won, drawn or scored on the board (cg.result):"
	done
	run cg cg-kb-build -r tictactoe --family 3x3 -o "$T/t.kb"
	assert_failure 1
	assert_output "cg-kb-build: ruleset 'tictactoe' is won, drawn or scored on the board (cg.result): its positions have no values a base stores"
	run sh -c "echo '...|...|...' | cg-outcome -r tictactoe -t -m"
	assert_failure 1
	assert_output --partial "-m, -n and -g have no meaning there"
	run cg cg-parse -L
	assert_line --regexp "^tictactoe	symmetry,board,measure,result	Tic-Tac-Toe"
}

@test "cg-play plays a game won on the board to its result" {
	run sh -c "printf '#1\n' | cg-play -r tictactoe -y right 'xx.|oo.|...'"
	assert_success
	assert_line "Left (computer) plays c3"
	assert_line "the game is over: Left wins (the computer)."
	# a full board: the player to move cannot move, and draws
	run sh -c "cg-play -r tictactoe 'xox|xoo|oxx' < /dev/null"
	assert_line "Left cannot move: a draw."
}

@test "rules files that misuse the result directives are refused with their line" {
	mkdir "$T/rules"
	bad() {
		printf '%s\n' "$@" > "$T/rules/bad.cgr"
		CG_PLUGIN_PATH=$T/rules run cg cg-parse -r bad x
		assert_failure 1
	}
	bad 'board grid' 'cells . x' 'measure .' 'components x' 'left . -> x' 'win left x x'
	assert_output --partial "bad.cgr:6: a game won, drawn or scored on the board is one component"
	bad 'board grid' 'cells . x' 'measure .' 'left . -> x' 'nomove payoff'
	assert_output --partial "bad.cgr:5: 'nomove payoff' needs a 'payoff'"
	bad 'board grid' 'cells . x' 'measure .' 'left . -> x' 'win x x'
	assert_output --partial "bad.cgr:5: 'win' names the winner"
	bad 'board grid' 'cells . x' 'measure .' 'left . -> x' 'win left count x ~ 3'
	assert_output --partial "bad.cgr:5: unknown comparison '~'"
	bad 'board grid' 'cells . x' 'measure .' 'symmetry mirror' 'left . -> x' 'win left x . along e'
	assert_output --partial "bad.cgr:6: the symmetry does not hold: it turns this condition along e into one along w"
	bad 'board heaps' 'measure counters' 'both take 1' 'nomove draw'
	assert_output --partial "bad.cgr:4: 'nomove' is for grids and strips"
	bad 'board grid' 'cells . x' 'measure .' 'left . -> x' 'payoff x - y'
	assert_output --partial "bad.cgr:5: 'y' is not a cell"
}

@test "--children: each option of a game won on the board with its class, as the brute force has it" {
	run sh -c "echo 'xx.|oo.|...' | cg-outcome -r tictactoe --children"
	assert_success
	[ "${#lines[@]}" -eq 10 ]
	assert_line --index 0 "$(printf 'xx.|oo.|...\tL:c3\txxx|oo.|...\tL')"
	printf '%s\n' "$output" | cut -f3 | python3 "$T/bf.py" tictactoe > "$T/want"
	printf '%s\n' "$output" | cut -f3,4 > "$T/got"
	diff "$T/want" "$T/got"
}

@test "nomove wins: misere play on one board; cg-play announces a payoff" {
	mkdir "$T/rules"
	printf '%s\n' 'board strip' 'cells . x o' 'measure xo' \
	    'left x o -> . x along e w' 'right o x -> . o along e w' \
	    'nomove wins' > "$T/rules/misclob.cgr"
	printf '%s\n' 'board grid' 'cells . x o' 'measure xo' \
	    'left x o -> . x along orthogonal' \
	    'right o x -> . o along orthogonal' 'payoff x - o' \
	    > "$T/rules/clobberscore.cgr"
	export CG_PLUGIN_PATH=$T/rules
	# by hand: xo, Left first: x takes o, Right is stuck and so wins;
	# Right first: o takes x, Left is stuck and wins: P.  xox, Left
	# first: either capture leaves Right stuck (Right wins); Right
	# first: o takes an x, the other x and o are apart, Left is stuck
	# and wins: P
	run sh -c "printf 'xo\nxox\n' | cg-outcome -r misclob -t"
	assert_output "$(printf 'xo\tP\nxox\tP')"
	# xox: Left's capture leaves .xx (or xx.), Right is stuck: 2 - 0
	run sh -c "printf '#1\n' | cg-play -r clobberscore xox"
	assert_line "Right cannot move: Left scores 2, Left wins (you)."
}
