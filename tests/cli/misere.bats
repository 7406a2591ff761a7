#!/usr/bin/env bats
# misere play: sums searched through their components' misere canonical
# forms (cg-outcome -m), against brute forces that share no code.
load common

# the outcome column of cg-outcome -t, and the count of sums it searched
# as equal sums of other components (-v)
outcomes() { cut -f2 "$1"; }
reduced() {
	grep -o '[0-9]* by equal misere forms' "$1" |
	    awk '{ s += $1 } END { print s + 0 }'
}

# Python: the heaps an octal code's move leaves of a heap of n (the code
# is argv[1]), for the brute forces below
OCTAL_PY='
import random, sys
from functools import lru_cache
digits = [int(c) for c in sys.argv[1].split(".")[1]]
def options(n):
    for k, d in enumerate(digits, 1):
        if k > n:
            break
        if d & 1 and n == k:
            yield ()
        if d & 2 and n > k:
            yield (n - k,)
        if d & 4 and n - k >= 2:
            for a in range(1, (n - k) // 2 + 1):
                yield (a, n - k - a)
'

@test "misere: sums of octal heaps agree with a brute force" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	command -v python3 >/dev/null || skip "no python3"
	# Kayles, Dawson's Kayles and Dawson's chess: 20 sums of 2-5 heaps
	# of 1-13 each.  A misere sum is not settled by nim values, so the
	# search replaces each small component by one of the same misere
	# canonical form (dropping 0, cancelling * + *): a wrong form or a
	# wrong cancellation changes answers here.  Expected: a brute force
	# over multisets of heaps.
	for code in 0.77 0.07 0.137; do
		python3 -c "$OCTAL_PY"'
R = random.Random(11)
@lru_cache(maxsize=None)
def wins(heaps):
    moved = False
    for i, h in enumerate(heaps):
        for o in options(h):
            moved = True
            rest = heaps[:i] + heaps[i + 1:] + o
            if not wins(tuple(sorted(rest))):
                return True
    return not moved
for t in range(20):
    heaps = [R.randint(1, 13) for i in range(R.randint(2, 5))]
    print("%s\t%s" % ("+".join(map(str, heaps)),
        "N" if wins(tuple(sorted(heaps))) else "P"))
' "$code" > "$BATS_TEST_TMPDIR/want"
		[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -eq 20 ]
		# --search: the search itself, not the misere quotient
		cut -f1 "$BATS_TEST_TMPDIR/want" |
		    cg cg-outcome -r "octal:$code" -t -m -v --search dfs \
		    > "$BATS_TEST_TMPDIR/got" 2> "$BATS_TEST_TMPDIR/err"
		run diff <(outcomes "$BATS_TEST_TMPDIR/want") \
		    <(outcomes "$BATS_TEST_TMPDIR/got")
		assert_success
		[ "$(reduced "$BATS_TEST_TMPDIR/err")" -gt 0 ]
	done
}

@test "misere: Cram boards agree with a brute force" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	command -v python3 >/dev/null || skip "no python3"
	# 25 boards of 3-4 rows and 3-5 columns, a sixth of the squares
	# filled, so that moves split them into small regions whose forms
	# stand in for them.  Expected: a brute force over whole boards.
	python3 -c '
import random
from functools import lru_cache
R = random.Random(5)
@lru_cache(maxsize=None)
def wins(b):
    g = b.split("|")
    moved = False
    for y in range(len(g)):
        for x in range(len(g[0])):
            if g[y][x] != ".":
                continue
            for dy, dx in ((1, 0), (0, 1)):
                if y + dy < len(g) and x + dx < len(g[0]) and g[y + dy][x + dx] == ".":
                    moved = True
                    n = [list(r) for r in g]
                    n[y][x] = n[y + dy][x + dx] = "#"
                    if not wins("|".join("".join(r) for r in n)):
                        return True
    return not moved
for t in range(25):
    h, w = R.randint(3, 4), R.randint(3, 5)
    b = "|".join("".join("#" if R.random() < 1 / 6 else "." for x in range(w))
                 for y in range(h))
    print("%s\t%s" % (b, "N" if wins(b) else "P"))
' > "$BATS_TEST_TMPDIR/want"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -eq 25 ]
	cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-outcome -r cram -t -m -v \
	    > "$BATS_TEST_TMPDIR/got" 2> "$BATS_TEST_TMPDIR/err"
	run diff <(outcomes "$BATS_TEST_TMPDIR/want") \
	    <(outcomes "$BATS_TEST_TMPDIR/got")
	assert_success
	[ "$(reduced "$BATS_TEST_TMPDIR/err")" -gt 0 ]
}

@test "misere: nim values of octal heap sums agree with a brute force" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	command -v python3 >/dev/null || skip "no python3"
	# The misere nim value of a sum is not the XOR of its parts': the
	# genus search makes each heap's misere canonical game and adds them
	# (cg_mtab_add).  Expected: the misere Grundy value over the whole
	# sum's tree (1 for the end, else the mex of the options'), by brute
	# force.
	for code in 0.77 0.137; do
		python3 -c "$OCTAL_PY"'
R = random.Random(3)
@lru_cache(maxsize=None)
def gminus(heaps):
    seen = set()
    for i, h in enumerate(heaps):
        for o in options(h):
            seen.add(gminus(tuple(sorted(heaps[:i] + heaps[i + 1:] + o))))
    if not seen:
        return 1
    g = 0
    while g in seen:
        g += 1
    return g
for t in range(15):
    heaps = [R.randint(1, 9) for i in range(R.randint(2, 4))]
    print("%s\t%d" % ("+".join(map(str, heaps)), gminus(tuple(sorted(heaps)))))
' "$code" > "$BATS_TEST_TMPDIR/want"
		[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -eq 15 ]
		cut -f1 "$BATS_TEST_TMPDIR/want" |
		    cg cg-outcome -r "octal:$code" -t -m -n > "$BATS_TEST_TMPDIR/got"
		run diff <(outcomes "$BATS_TEST_TMPDIR/want") \
		    <(outcomes "$BATS_TEST_TMPDIR/got")
		assert_success
	done
}
