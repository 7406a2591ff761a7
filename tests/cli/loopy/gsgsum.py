#!/usr/bin/env python3
# gsgsum.py SEED COUNT DIR - random sums of loopy impartial games for
# loopy-sums.bats, and what a brute force written here says of them,
# never cgtools' code.
#
# For each of COUNT documents (seeded by SEED) it writes DIR/sN.cgt, a
# cgt(5) version-2 document of two or three random impartial graphs with
# one root in each, and DIR/sN.want, the row `cg-outcome -n --sum` must
# print: the roots' labels joined by '+', a TAB, the generalized
# Sprague-Grundy value of their sum.
#
# The sum is never formed by a rule here: its value is read off the
# product graph (a node is a tuple of the terms' nodes; a move moves one
# term) by the defining property of Smith's function: g(u) = m exactly
# when u + *m is lost for the player to move, and when no m is, g(u) is
# infinite with K the finite values of u's options, u + *k then won for
# k in K and drawn otherwise (checked).  Outcomes are found by
# retrograde analysis (counting each position's options won for the
# opponent) on the product of the sum with a nim heap.  A finite value
# is at most the number of options (it is their mex), so heaps up to
# the largest number of options plus one settle every value.
#
# DIR/cases counts the documents by the kind of terms: "fin+fin",
# "fin+inf", "inf+inf" (two terms or more infinite), so that the test
# can see that each case of the rule was met.
import itertools
import random
import sys


def outcomes(nodes, opts):
    """Retrograde analysis of an impartial graph given as a list of
    nodes and a function from a node to its options: +1 won for the
    player to move, -1 lost, 0 drawn."""
    index = {u: i for i, u in enumerate(nodes)}
    succ = [[index[v] for v in opts(u)] for u in nodes]
    pred = [[] for _ in nodes]
    for i, row in enumerate(succ):
        for j in row:
            pred[j].append(i)
    res = [0] * len(nodes)
    left = [len(row) for row in succ]
    queue = [i for i in range(len(nodes)) if left[i] == 0]
    for i in queue:
        res[i] = -1
    while queue:
        j = queue.pop()
        for i in pred[j]:
            if res[i] != 0:
                continue
            if res[j] < 0:
                res[i] = 1
                queue.append(i)
            else:
                left[i] -= 1
                if left[i] == 0:
                    res[i] = -1
                    queue.append(i)
    return {u: res[index[u]] for u in nodes}


def reach(start, opts):
    seen, todo = {start}, [start]
    while todo:
        u = todo.pop()
        for v in opts(u):
            if v not in seen:
                seen.add(v)
                todo.append(v)
    return sorted(seen)


def values(start, opts):
    """Smith's values of every node reachable from start, as text."""
    nodes = reach(start, opts)
    kmax = max(len(opts(u)) for u in nodes) + 2
    won = {}
    for k in range(kmax):
        # (u, h): the game u plus a nim heap of h <= k
        heap = [(u, h) for u in nodes for h in range(k + 1)]

        def hopts(p):
            u, h = p
            return [(v, h) for v in opts(u)] + [(u, j) for j in range(h)]
        res = outcomes(heap, hopts)
        for u in nodes:
            won[u, k] = res[u, k]
    val = {}
    for u in nodes:
        fin = [k for k in range(kmax) if won[u, k] < 0]
        val[u] = fin[0] if fin else None
    text = {}
    for u in nodes:
        if val[u] is not None:
            text[u] = str(val[u])
            continue
        K = sorted({val[v] for v in opts(u) if val[v] is not None})
        for k in range(kmax):
            assert won[u, k] == (1 if k in K else 0), (u, k)
        text[u] = 'inf' + ('(' + ','.join(map(str, K)) + ')' if K else '')
    return text


def main():
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    cases = {'fin+fin': 0, 'fin+inf': 0, 'inf+inf': 0}
    for g in range(count):
        terms, base, roots = [], 0, []
        for _ in range(rng.choice((2, 2, 3))):
            n = rng.randint(1, 6)
            # mostly moves down to a smaller node (a game that ends), a
            # few back up, so that values finite and infinite both come
            edges = []
            for _ in range(rng.randint(0, 2 * n + 1)):
                x, y = rng.randrange(n), rng.randrange(n)
                if x < y and rng.random() < 0.75:
                    x, y = y, x
                if x != y or rng.random() < 0.2:
                    edges.append((x, y))
            opt = [[y for (x, y) in edges if x == u] for u in range(n)]
            root = rng.randrange(n)
            terms.append((base, n, edges, opt, root))
            roots.append(base + root + 1)
            base += n
        with open('%s/s%d.cgt' % (out, g), 'w') as f:
            f.write('cgt\t2\n')
            for b, n, edges, _, _ in terms:
                for u in range(n):
                    f.write('N\t%d\n' % (b + u + 1))
                for (x, y) in edges:
                    for s in 'LR':
                        f.write('%s\t%d\t%d\n' % (s, b + x + 1, b + y + 1))
            for r in roots:
                f.write('root\t%d\n' % r)
            f.write('end\n')

        def popts(p):
            o = []
            for i, (_, _, _, opt, _) in enumerate(terms):
                o += [p[:i] + (v,) + p[i + 1:] for v in opt[p[i]]]
            return o
        start = tuple(t[4] for t in terms)
        val = values(start, popts)[start]
        # the class of the sum, straight from retrograde analysis of the
        # product, must be the one the value names (cg-outcome(1))
        res = outcomes(reach(start, popts), popts)[start]
        if val == '0':
            assert res == -1
        elif val[0] != 'i' or val.startswith('inf(0'):
            assert res == 1
        else:
            assert res == 0
        own = [values(t[4], lambda u, t=t: t[3][u])[t[4]] for t in terms]
        ninf = sum(v.startswith('inf') for v in own)
        cases[('fin+fin', 'fin+inf')[ninf] if ninf < 2 else 'inf+inf'] += 1
        with open('%s/s%d.want' % (out, g), 'w') as f:
            f.write('%s\t%s\n' % ('+'.join('#%d' % r for r in roots), val))
    with open('%s/cases' % out, 'w') as f:
        for k in sorted(cases):
            f.write('%s %d\n' % (k, cases[k]))


if __name__ == '__main__':
    main()
