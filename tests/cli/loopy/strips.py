#!/usr/bin/env python3
# strips.py GAME [-n] POSITION... - what a brute force written here says
# of positions of loopy games on a strip, for loopy-rules.bats and
# backsliding.bats, never cgtools' code.
#
# The moves of each game are written out below from its rules; the
# positions every root reaches by either player's moves are generated
# breadth first, and brute.py's solve() (iteration to a fixed point of
# the definitions of normal play) or gsg() (generalized Sprague-Grundy
# values through their defining property) is run on that graph.  One
# line per position: `POSITION<TAB>CLASS<TAB>REMOTENESS`, or with -n
# `POSITION<TAB>VALUE<TAB>REMOTENESS`, as `cg-outcome -t --remoteness`
# (and -n) print them.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from brute import CLASS, gsg, rtext, solve  # noqa: E402


def steps(p, piece, dirs):
    """piece moves one square in each direction of dirs into '.'."""
    out = []
    for i, c in enumerate(p):
        if c != piece:
            continue
        for d in dirs:
            j = i + d
            if 0 <= j < len(p) and p[j] == '.':
                q = list(p)
                q[i], q[j] = '.', piece
                out.append(''.join(q))
    return out


def jumps(p, piece, over, d):
    """piece jumps over one `over` in direction d into '.'."""
    out = []
    for i, c in enumerate(p):
        j, k = i + d, i + 2 * d
        if c == piece and 0 <= k < len(p) and p[j] == over and p[k] == '.':
            q = list(p)
            q[i], q[k] = '.', piece
            out.append(''.join(q))
    return out


def shift_pair(p):
    """two x side by side step together one square left into '.'."""
    return [p[:i] + 'xx.' + p[i + 3:] for i in range(len(p) - 2)
            if p[i:i + 3] == '.xx']


# slide: l (Left) and r (Right) step one square either way into an
# empty square.  imp: x steps either way, for both players.  pair: x
# steps right into an empty square, and two x side by side step left
# together into an empty square, for both players (any other square,
# such as '#', is never entered).
# backsliding: Backsliding Toads and Frogs (Siegel, Games of No Chance 3;
# CGSuite's BackslidingToadsAndFrogs): a toad t (Left) steps right into
# an empty square or jumps right over one frog into an empty square,
# and may step back left into an empty square; a frog f (Right) the
# same, mirrored; no backward jumps.
GAMES = {
    'slide': (lambda p: steps(p, 'l', (1, -1)),
              lambda p: steps(p, 'r', (1, -1))),
    'imp': (lambda p: steps(p, 'x', (1, -1)),
            lambda p: steps(p, 'x', (1, -1))),
    'pair': (lambda p: steps(p, 'x', (1,)) + shift_pair(p),
             lambda p: steps(p, 'x', (1,)) + shift_pair(p)),
    'backsliding': (lambda p: steps(p, 't', (1, -1)) + jumps(p, 't', 'f', 1),
                    lambda p: steps(p, 'f', (-1, 1)) + jumps(p, 'f', 't', -1)),
}


def main():
    game, args = sys.argv[1], sys.argv[2:]
    nim = args and args[0] == '-n'
    if nim:
        args = args[1:]
    moves = GAMES[game]
    index, order = {}, []
    for p in args:
        if p not in index:
            index[p] = len(order)
            order.append(p)
    opts = [[], []]
    i = 0
    while i < len(order):
        p = order[i]
        for s in (0, 1):
            row = []
            for q in moves[s](p):
                if q not in index:
                    index[q] = len(order)
                    order.append(q)
                row.append(index[q])
            opts[s].append(row)
        i += 1
    n = len(order)
    res, rem = solve(n, opts)
    val = gsg(n, opts[0]) if nim else None
    for p in args:
        u = index[p]
        first = val[u] if nim else CLASS[res[0][u], -res[1][u]]
        print('%s\t%s\t%s %s' % (p, first, rtext(res[0][u], rem[0][u]),
                                 rtext(res[1][u], rem[1][u])))


main()
