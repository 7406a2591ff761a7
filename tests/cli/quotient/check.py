#!/usr/bin/env python3
"""Check a misere quotient printed by cg-outcome --quotient against misere
outcomes found by brute force, written here independently of cgtools.

usage: check.py CODE QUOTIENT-TEXT-FILE MAXHEAP NSUMS SEED

The octal code's digit k (k = 1, 2, ...; a digit 4 before the point: a
heap may be split in two without taking) says what taking k counters from a
heap may leave: bit 1 nothing (the whole heap), bit 2 one heap, bit 4 two
heaps.  A sum's misere outcome: P when it has a move and every move leads
to N; a sum without moves is N (its mover has lost the right to move, and
so wins).  The quotient's outcome of a sum: multiply the pretending values
of its heaps, reduce by the presentation's relations (a complete rewriting
system: apply any relation whose left side divides the monomial until none
does), and look the normal form up in the P-portion.  Prints the number of
sums on which the two disagree, then the first few of them."""
import random
import re
import sys
from functools import lru_cache

code, qfile, maxheap, nsums, seed = sys.argv[1:6]
maxheap, nsums = int(maxheap), int(nsums)
whole, frac = code.split('.')
split0 = int(whole or '0') & 4     # digit 0: split without taking
digits = [int(c) for c in frac]


def heap_moves(n):
    out = set()
    if split0:
        for a in range(1, n // 2 + 1):
            out.add((a, n - a))
    for k, d in enumerate(digits, start=1):
        if k > n:
            break
        m = n - k
        if d & 1 and m == 0:
            out.add(())
        if d & 2 and m > 0:
            out.add((m,))
        if d & 4:
            for a in range(1, m // 2 + 1):
                out.add((a, m - a))
    return out


@lru_cache(maxsize=None)
def misere_p(s):
    any_move = False
    for i, h in enumerate(s):
        if i and s[i - 1] == h:
            continue
        rest = s[:i] + s[i + 1:]
        for o in heap_moves(h):
            any_move = True
            if misere_p(tuple(sorted(rest + o))):
                return False
    return any_move


text = open(qfile).read()
fields = dict(line.split('\t', 1) for line in text.splitlines())
pres = fields['presentation']
gens = pres[1:pres.index('|') if '|' in pres else -1].strip().split(',')
gens = [g.strip() for g in gens if g.strip()]


def mono(s):
    e = [0] * len(gens)
    if s == '1':
        return tuple(e)
    for name, exp in re.findall(r'([a-z]|g[0-9]+)(?:\^([0-9]+))?', s):
        e[gens.index(name)] += int(exp) if exp else 1
    return tuple(e)


rules = []
if '|' in pres:
    for rel in pres[pres.index('|') + 1:-1].split(','):
        lhs, rhs = rel.strip().split('=')
        rules.append((mono(lhs), mono(rhs)))


def normal(m):
    m = list(m)
    changed = True
    while changed:
        changed = False
        for lhs, rhs in rules:
            if all(a >= b for a, b in zip(m, lhs)):
                m = [a - b + c for a, b, c in zip(m, lhs, rhs)]
                changed = True
    return tuple(m)


pp = fields['P-portion'].strip('{}')
pset = {mono(x.strip()) for x in pp.split(',')} if pp else set()
phi = {}
for item in fields['pretending'].split():
    h, m = item.split(':')
    phi[int(h)] = mono(m)

random.seed(int(seed))
bad = []
for _ in range(nsums):
    s = tuple(sorted(random.randint(1, maxheap)
                     for _ in range(random.randint(1, 5))))
    m = tuple(0 for _ in gens)
    for h in s:
        m = normal(tuple(a + b for a, b in zip(m, phi[h])))
    if (m in pset) != misere_p(s):
        bad.append(s)
print(len(bad))
for s in bad[:5]:
    print('+'.join(map(str, s)))
