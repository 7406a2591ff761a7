#!/usr/bin/env python3
# foxgeese.py POSITION... - what a brute force written here says of Fox
# and Geese positions (foxgeese(7)), for foxgeese.bats, never cgtools'
# code: `POSITION<TAB>CLASS<TAB>REMOTENESS` as `cg-outcome -t
# --remoteness` prints them.
#
# The rules, from CGSuite's FoxAndGeese: squares (row, col) counted from
# 1 at the bottom left; a goose (Left) steps to (row - 1, col +- 1) if
# that square is on the board and empty; the fox (Right) steps to
# (row +- 1, col +- 1) if on the board and not a goose.  CGSuite's
# Decomposition makes a position off when the fox's row is at least the
# highest goose's row, or one less with a square diagonally above the
# fox (inside the board's width) that holds no goose: there the geese
# have no move and the fox's only move keeps the position.  The graph of
# every position the roots reach is solved by brute.py's solve().
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from brute import CLASS, rtext, solve  # noqa: E402


def read(text):
    rows = text.split('|')
    h, w = len(rows), len(rows[0])
    geese, fox = set(), None
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch == 'x':
                geese.add((h - i, j + 1))
            elif ch == 'o':
                fox = (h - i, j + 1)
    return (w, h, frozenset(geese), fox)


def off(p):
    w, h, geese, (fr, fc) = p
    top = max((r for r, c in geese), default=0)
    if fr >= top:
        return True
    return fr + 1 == top and ((fc > 1 and (top, fc - 1) not in geese) or
                              (fc < w and (top, fc + 1) not in geese))


def moves(p, side):
    w, h, geese, fox = p
    if off(p):
        return [p] if side == 1 else []
    out = []
    if side == 0:
        for (r, c) in geese:
            for dc in (-1, 1):
                q = (r - 1, c + dc)
                if q[0] >= 1 and 1 <= q[1] <= w and q != fox and \
                        q not in geese:
                    out.append((w, h, (geese - {(r, c)}) | {q}, fox))
    else:
        for dr in (-1, 1):
            for dc in (-1, 1):
                q = (fox[0] + dr, fox[1] + dc)
                if 1 <= q[0] <= h and 1 <= q[1] <= w and q not in geese:
                    out.append((w, h, geese, q))
    return out


def main():
    roots = [read(t) for t in sys.argv[1:]]
    index, order = {}, []
    for p in roots:
        if p not in index:
            index[p] = len(order)
            order.append(p)
    opts = [[], []]
    i = 0
    while i < len(order):
        for s in (0, 1):
            row = []
            for q in moves(order[i], s):
                if q not in index:
                    index[q] = len(order)
                    order.append(q)
                row.append(index[q])
            opts[s].append(row)
        i += 1
    res, rem = solve(len(order), opts)
    for t, p in zip(sys.argv[1:], roots):
        u = index[p]
        print('%s\t%s\t%s %s' % (t, CLASS[res[0][u], -res[1][u]],
                                 rtext(res[0][u], rem[0][u]),
                                 rtext(res[1][u], rem[1][u])))


main()
