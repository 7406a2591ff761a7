#!/usr/bin/env python3
# sides.py gen SEED COUNT - random small loopy game literals that are no
# stoppers (endless alternating play is possible), one per line.
# sides.py merged GAME SIDES - the same check for each root i of the
# document GAME (such as cg-options -a writes for a ruleset's positions),
# its two sides roots 2i and 2i + 1 of the document SIDES; a line each.
# Both must be graphs, every node with its options: cg-parse -r game
# writes one only when a literal is loopy (add `on' as a last root),
# and short games alone as positions without options.
# sides.py check DOC... - for each cgt(5) document whose roots are a game
# G and two stoppers S and T (cg-canon's onside and offside of G, read by
# cg-parse), prints "ok" when S equals G in the onside order and T equals
# G in the offside order, as the brute force written here finds it,
# never cgtools' code; else what differs.
#
# Sides (Siegel, Combinatorial Game Theory, AMS 2013, ch. VI): G >= H in
# the onside order when Left, moving second in G - H, wins, where a
# player who cannot move loses and endless play is Left's unless from
# some point on all moves are in H (the component whose endless play is
# Right's in -H's offside); in the offside order, unless from some point
# on all moves are in G.  Found as a Buchi game: the positions where
# neither player forces the other out of moves, then the greatest set
# from which Left forces, again and again, a move in the component whose
# endless play is Left's.
import random
import sys

from stoppers import ATOMS, Graph, gen, is_stopper, read_doc


def side_ge(g, x, y, onside):

    def moves(p, s):
        """(next position, move in x's component) for s to move."""
        a, b = p
        return [((c, b), True) for c in g.opts[s][a]] + \
               [((a, c), False) for c in g.opts[1 - s][b]]
    # the positions reached from (x, y) with Right to move
    pos, seen = [], {(x, y, 1)}
    todo = [(x, y, 1)]
    while todo:
        p = todo.pop()
        pos.append(p)
        for q, _ in moves(p[:2], p[2]):
            q = q + (1 - p[2],)
            if q not in seen:
                seen.add(q)
                todo.append(q)
    lwin, rwin = set(), set()     # Left wins / Right wins, by running out
    changed = True
    while changed:
        changed = False
        for a, b, s in pos:
            p = (a, b, s)
            if p in lwin or p in rwin:
                continue
            nxt = [q + (1 - s,) for q, _ in moves((a, b), s)]
            mine, theirs = (lwin, rwin) if s == 0 else (rwin, lwin)
            if any(q in mine for q in nxt):
                mine.add(p)
                changed = True
            elif all(q in theirs for q in nxt):
                theirs.add(p)
                changed = True
    w = {p for p in pos if p not in lwin and p not in rwin}
    while True:
        att = set()
        changed = True
        while changed:
            changed = False
            for p in w - att:
                a, b, s = p
                good = []
                for q, inx in moves((a, b), s):
                    q = q + (1 - s,)
                    acc = inx if onside else not inx
                    good.append((q, q in w and (acc or q in att)))
                if s == 0:
                    ok = any(gd for _, gd in good)
                else:
                    ok = all(gd or q in lwin for q, gd in good)
                if ok:
                    att.add(p)
                    changed = True
        if att == w:
            break
        w = att
    p = (x, y, 1)
    return p in lwin or p in w


def main():
    if sys.argv[1] == "gen":
        rng = random.Random(int(sys.argv[2]))
        made = 0
        while made < int(sys.argv[3]):
            g = Graph()
            t, x = gen(rng, g, 2, [], [])
            if is_stopper(g, x):
                continue
            print(t)
            made += 1
        return
    if sys.argv[1] == "merged":
        g, roots = read_doc(sys.argv[2])
        h, hroots = read_doc(sys.argv[3])
        base = len(g.opts[0])
        for side in (0, 1):
            g.opts[side] += [[y + base for y in o] for o in h.opts[side]]
        for i, x in enumerate(roots):
            print(verdict(g, x, hroots[2 * i] + base,
                          hroots[2 * i + 1] + base))
        return
    for path in sys.argv[2:]:
        g, (x, s, t) = read_doc(path)
        print(verdict(g, x, s, t))


def verdict(g, x, s, t):
    bad = []
    if not is_stopper(g, s) or not is_stopper(g, t):
        bad.append("a side is no stopper")
    if not (side_ge(g, s, x, True) and side_ge(g, x, s, True)):
        bad.append("onside differs")
    if not (side_ge(g, t, x, False) and side_ge(g, x, t, False)):
        bad.append("offside differs")
    return "ok" if not bad else "; ".join(bad)

main()
