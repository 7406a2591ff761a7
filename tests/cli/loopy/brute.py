#!/usr/bin/env python3
# brute.py SEED COUNT MODE DIR - random loopy games for loopy.bats, and
# what a brute force written here says of them, never cgtools' code.
#
# For each of COUNT random graphs (seeded by SEED) it writes DIR/gN.cgt,
# a cgt(5) version-2 document with every node a root, and DIR/gN.want,
# the rows `cg-outcome -t --remoteness` (MODE partizan) or
# `cg-outcome -t -n` (MODE impartial) must print.
#
# Partizan: the result of every (node, side to move) is iterated from
# "all drawn" to a fixed point of the definitions of normal play: no move
# is a loss in 0; an option lost for the opponent makes a win in one more
# than the shortest such; all options won for the opponent make a loss in
# one more than the longest; anything else stays a draw.  The class is
# read from the results by the table of cg-outcome(1) (CGSuite's loopy
# outcome classes).
#
# Impartial: the generalized Sprague-Grundy value through its defining
# property (Smith 1966): g(u) = m exactly when u + *m is lost for the
# player to move; when no m is, g(u) is infinite with K the finite values
# of u's options, and then u + *k is won when k is in K and drawn
# otherwise (checked here too).
import random
import sys


def solve(n, opts):
    """opts[s][x]: options of x for side s (the side then switches when
    len(opts) == 2; one list means an impartial game).  Returns res, rem
    indexed [s][x], res +1 win, -1 loss, 0 draw for the player to move."""
    sides = len(opts)
    res = [[0] * n for _ in range(sides)]
    rem = [[0] * n for _ in range(sides)]
    while True:
        nres = [[0] * n for _ in range(sides)]
        nrem = [[0] * n for _ in range(sides)]
        for s in range(sides):
            t = (s + 1) % sides
            for x in range(n):
                o = opts[s][x]
                loss = [rem[t][y] for y in o if res[t][y] < 0]
                if loss:
                    nres[s][x], nrem[s][x] = 1, min(loss) + 1
                elif all(res[t][y] > 0 for y in o):
                    nres[s][x] = -1
                    nrem[s][x] = max([rem[t][y] for y in o], default=-1) + 1
        if nres == res and nrem == rem:
            return res, rem
        res, rem = nres, nrem


CLASS = {(1, 1): 'L', (-1, -1): 'R', (1, -1): 'N', (-1, 1): 'P',
         (0, 0): 'D', (0, 1): 'PHat', (-1, 0): 'PCheck', (1, 0): 'NHat',
         (0, -1): 'NCheck'}


def rtext(r, m):
    return 'd' if r == 0 else ('w' if r > 0 else 'l') + str(m)


def gsg(n, opt):
    """Values by the outcomes of u + *k in the product graph."""
    kmax = n + 2
    outcome = {}
    for k in range(kmax):
        # node (u, h) is u * (k + 1) + h
        prod = [[] for _ in range(n * (k + 1))]
        for u in range(n):
            for h in range(k + 1):
                prod[u * (k + 1) + h] = [v * (k + 1) + h for v in opt[u]] + \
                    [u * (k + 1) + j for j in range(h)]
        res, _ = solve(len(prod), [prod])
        for u in range(n):
            outcome[u, k] = res[0][u * (k + 1) + k]
    val = []
    for u in range(n):
        fin = [k for k in range(kmax) if outcome[u, k] < 0]
        val.append(fin[0] if fin else None)
    text = []
    for u in range(n):
        if val[u] is not None:
            text.append(str(val[u]))
            continue
        K = sorted({val[v] for v in opt[u] if val[v] is not None})
        for k in range(kmax):
            assert outcome[u, k] == (1 if k in K else 0), (u, k)
        text.append('inf' + ('(' + ','.join(map(str, K)) + ')' if K else ''))
    return text


def main():
    seed, count, mode, out = int(sys.argv[1]), int(sys.argv[2]), \
        sys.argv[3], sys.argv[4]
    rng = random.Random(seed)
    for g in range(count):
        n = rng.randint(1, 9 if mode == 'partizan' else 6)
        m = rng.randint(0, 2 * n + 2)
        edges = [[(rng.randrange(n), rng.randrange(n)) for _ in range(m)]]
        if mode == 'partizan':
            edges.append([(rng.randrange(n), rng.randrange(n))
                          for _ in range(rng.randint(0, 2 * n + 2))])
        opts = [[[y for (x, y) in e if x == u] for u in range(n)]
                for e in edges]
        with open('%s/g%d.cgt' % (out, g), 'w') as f:
            f.write('cgt\t2\n')
            for u in range(n):
                f.write('N\t%d\n' % (u + 1))
            for s, e in enumerate(edges):
                for (x, y) in e:
                    f.write('%s\t%d\t%d\n' % ('LR'[s], x + 1, y + 1))
                    if mode == 'impartial':
                        f.write('R\t%d\t%d\n' % (x + 1, y + 1))
            for u in range(n):
                f.write('root\t%d\n' % (u + 1))
            f.write('end\n')
        with open('%s/g%d.want' % (out, g), 'w') as f:
            if mode == 'partizan':
                res, rem = solve(n, opts)
                for u in range(n):
                    # Right to move winning is Right winning
                    f.write('#%d\t%s\t%s %s\n' % (
                        u + 1, CLASS[res[0][u], -res[1][u]],
                        rtext(res[0][u], rem[0][u]),
                        rtext(res[1][u], rem[1][u])))
            else:
                for u, t in enumerate(gsg(n, opts[0])):
                    f.write('#%d\t%s\n' % (u + 1, t))


if __name__ == '__main__':
    main()
