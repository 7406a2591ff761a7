#!/usr/bin/env python3
# stoppers.py SEED COUNT - random small stoppers written as loopy game
# literals, and their order as a brute force written here finds it, never
# cgtools' code.  Prints COUNT lines "G<TAB>H<TAB>REL" where REL is ==,
# >, < or <> (confused), for `cg-parse -r game G | cg-canon -t -c H`.
# stoppers.py equal DOC - the order of the first two roots of a cgt(5)
# document of abstract nodes (cg-parse's graphs of two literals).
#
# A literal is a tree of braces whose options are 0, 1, -1, *, a new
# brace, `pass' or the label of a brace around it (a back edge).  Only
# stoppers are kept: no infinite alternating play from any node (a cycle
# in the graph of (node, side to move) states).  The order of stoppers
# (Siegel, Combinatorial Game Theory, ch. VI): G >= H when Left, moving
# second in G - H, survives (does not lose; endless play is survival).
# Right's forced wins are found as the least fixed point of "Right to
# move has a move to a position Left loses; Left to move has no move, or
# every move goes to a position Right wins".
import random
import sys

ATOMS = {"0": ([], []), "*": (["0"], ["0"]), "1": (["0"], []),
         "-1": ([], ["0"])}


class Graph:
    def __init__(self):
        self.opts = [[], []]      # opts[s][x]: list of nodes

    def node(self):
        self.opts[0].append([])
        self.opts[1].append([])
        return len(self.opts[0]) - 1

    def atom(self, a, memo):
        if a in memo:
            return memo[a]
        x = self.node()
        memo[a] = x
        for s in (0, 1):
            for b in ATOMS[a][s]:
                self.opts[s][x].append(self.atom(b, memo))
        return x


def gen(rng, g, depth, stack, names):
    """A random brace: its text; its node is added to g."""
    x = g.node()
    label = "g%d" % len(names)
    names.append(label)
    stack.append((label, x))
    memo = {}
    parts = [[], []]
    for s in (0, 1):
        for _ in range(rng.randint(0, 2)):
            r = rng.random()
            if r < 0.45:
                a = rng.choice(sorted(ATOMS))
                parts[s].append(a)
                y = g.atom(a, memo)
            elif r < 0.75 and len(stack) > 0:
                lab, y = rng.choice(stack)
                parts[s].append("pass" if y == x else lab)
            elif depth > 0:
                t, y = gen(rng, g, depth - 1, stack, names)
                parts[s].append(t)
            else:
                parts[s].append("0")
                y = g.atom("0", memo)
            if y not in g.opts[s][x]:
                g.opts[s][x].append(y)
    stack.pop()
    return "%s{%s|%s}" % (label, ",".join(parts[0]), ",".join(parts[1])), x


def is_stopper(g, x):
    color = {}

    def dfs(st):
        color[st] = 1
        v, s = st
        for y in g.opts[s][v]:
            t = (y, 1 - s)
            if color.get(t) == 1:
                return False
            if t not in color and not dfs(t):
                return False
        color[st] = 2
        return True

    # every follower with either player to move (Siegel: no endless
    # alternating play from any subposition; in a sum either player may
    # be to move at any of them)
    seen, todo = {x}, [x]
    while todo:
        v = todo.pop()
        for s in (0, 1):
            for y in g.opts[s][v]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
    for v in seen:
        for s in (0, 1):
            if (v, s) not in color and not dfs((v, s)):
                return False
    return True


def ge(g, x, y):
    """x >= y: Left survives x - y with Right to move."""
    n = len(g.opts[0])
    # Left's moves in x - y: x to a Left option, y to a Right option
    def moves(p, s):
        a, b = p
        return [(c, b) for c in g.opts[s][a]] + \
               [(a, c) for c in g.opts[1 - s][b]]
    pos = [(a, b) for a in range(n) for b in range(n)]
    rwin = set()      # Right to move wins
    llose = set()     # Left to move loses
    changed = True
    while changed:
        changed = False
        for p in pos:
            if p not in llose and all(q in rwin for q in moves(p, 0)):
                llose.add(p)
                changed = True
            if p not in rwin and any(q in llose for q in moves(p, 1)):
                rwin.add(p)
                changed = True
    return (x, y) not in rwin


def relation(g, x, y):
    a, b = ge(g, x, y), ge(g, y, x)
    return "==" if a and b else ">" if a else "<" if b else "<>"


def read_doc(path):
    """The graph of a cgt(5) document of abstract nodes, and its roots."""
    g = Graph()
    at, roots = {}, []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "N":
            at[f[1]] = g.node()
        elif f[0] in ("L", "R"):
            g.opts[0 if f[0] == "L" else 1][at[f[1]]].append(at[f[2]])
        elif f[0] == "root":
            roots.append(at[f[1]])
    return g, roots


def main():
    if sys.argv[1] == "equal":
        # stoppers.py equal DOC...: the order of each document's first two
        # roots (a game and the simplest form cg-canon printed for it),
        # one line each
        for path in sys.argv[2:]:
            g, roots = read_doc(path)
            print(relation(g, roots[0], roots[1]))
        return
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    made = 0
    while made < count:
        g = Graph()
        names = []
        tg, x = gen(rng, g, 2, [], names)
        th, y = gen(rng, g, 1, [], names)
        if not is_stopper(g, x) or not is_stopper(g, y):
            continue
        print("%s\t%s\t%s" % (tg, th, relation(g, x, y)))
        made += 1


if __name__ == "__main__":
    main()
