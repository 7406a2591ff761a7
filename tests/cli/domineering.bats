#!/usr/bin/env bats
# domineering ruleset: notation, options, move names, joint options,
# published values (when cg-canon is built).
load common

# the printed text of every node of a document
texts() { awk -F'\t' '$1 == "N" {print $3}'; }
# parse positions, print them, parse and print again
round() { cg cg-parse -r domineering "$@" | texts | cg cg-parse -r domineering | texts; }
# options of one position as MOVE<TAB>CHILD-TEXT lines, side L or R
moves() {
	cg cg-parse -r domineering "$1" | cg cg-options |
	    awk -F'\t' -v s="$2" '$1 == "N" {t[$2] = $3} $1 == s {print $4 "\t" t[$3]}'
}

@test "domineering: parse and print round trip" {
	# ("#" alone on a line of standard input is a comment for
	# cg-parse, so the filled board is written #|# here)
	run round '..|..' '.#.|...' '#|#' '....' '.|.|.'
	assert_success
	assert_output $'..|..\n.#.|...\n#|#\n....\n.|.|.'
}

@test "domineering: bad positions name the column and the reason" {
	run cg cg-parse -r domineering '..|.'
	assert_failure 1
	assert_output --partial 'column 5: bad board widths'
	run cg cg-parse -r domineering '.|..'
	assert_failure 1
	assert_output --partial 'column 4: bad board widths'
	run cg cg-parse -r domineering '.x'
	assert_failure 1
	assert_output --partial "column 2: bad character 'x'"
	run cg cg-parse -r domineering ''
	assert_failure 1
	assert_output --partial 'column 1: empty board'
	run cg cg-parse -r domineering '..||..'
	assert_failure 1
	assert_output --partial 'column 4: empty row'
	run bash -c "printf '..\n.o\n' | cg-parse -r domineering"
	assert_failure 1
	assert_output --partial '-:2:'
	assert_output --partial 'column 2'
	run cg cg-parse -r domineering "$(printf '.%.0s' {1..256})"
	assert_failure 1
	assert_output --partial 'column 256: board too large'
}

@test "domineering: options of ..|.." {
	# Left (vertical): column a or column b; Right (horizontal): the
	# top row (rank 2) or the bottom row (rank 1).  Rows are numbered
	# from the bottom, columns lettered from the left.  The two Left
	# children are mirror images: one node (the first one met).
	run moves '..|..' L
	assert_output $'a1-a2\t#.|#.\nb1-b2\t#.|#.'
	run moves '..|..' R
	assert_output $'a2-b2\t##|..\na1-b1\t##|..'
}

@test "domineering: options of .|. and .." {
	# .|.: Left's one domino fills both cells; Right has none.
	run moves '.|.' L
	assert_output $'a1-a2\t#|#'
	run moves '.|.' R
	assert_output ''
	# ..: Right's one domino; Left has none.
	run moves '..' R
	assert_output $'a1-b1\t##'
	run moves '..' L
	assert_output ''
}

@test "domineering: options of .#.|...|..#" {
	# vertical pairs: a3-a2, a2-a1, c3-c2, b2-b1 -- listed top row
	# first, left to right: (a3,a2) (c3,c2) (a2,a1) (b2,b1).
	# horizontal pairs: a2-b2, b2-c2, a1-b1.
	run moves '.#.|...|..#' L
	assert_output $'a2-a3\t##.|#..|..#\nc2-c3\t.##|..#|..#\na1-a2\t.#.|#..|#.#\nb1-b2\t.#.|.#.|.##'
	run moves '.#.|...|..#' R
	assert_output $'a2-b2\t.#.|##.|..#\nb2-c2\t.#.|.##|..#\na1-b1\t.#.|...|###'
}

@test "domineering: -t merges options equal up to the mirrors" {
	# the two Left moves of ..|.. are mirror images: one node
	run bash -c "cg-parse -r domineering '..|..' | cg-options -t"
	assert_output $'..|..\t#.|#., #.|#.\t##|.., ##|..'
}

@test "domineering: joint options" {
	# Left's column a (0) or b (1) with Right's top (0) or bottom (1)
	# row: every pair leaves one empty cell, all four are one node up to
	# symmetry (##|#.).
	run bash -c "cg-parse -r domineering '..|..' | cg-options -j | grep '^J'"
	assert_output $'J\t1\t0\t0\t4\nJ\t1\t0\t1\t4\nJ\t1\t1\t0\t4\nJ\t1\t1\t1\t4'
}

@test "domineering: whole game tree reads back" {
	run bash -c "cg-parse -r domineering '..|..|..' | cg-options -a | cg-options -t"
	assert_success
	assert_line -n 0 --partial $'..|..|..\t'
}

@test "domineering: published canonical forms" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	check_vectors canon.tsv domineering canon --canon-semantic -- cg-canon -t
}

@test "domineering: published synchronized outcome classes" {
	[ -x "$CG_BUILD/bin/cg-synch" ] || skip "cg-synch not built"
	check_vectors synch.tsv domineering synch-outcome -- cg-synch -t -c
}

@test "domineering: published outcomes of small boards" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# the rows of at most 24 squares (98 of them; the larger ones take
	# minutes)
	run bash -c "awk -F'\t' '\$1 == \"domineering\" && \$3 == \"outcome\" && length(\$2) <= 30 {print \$2 \"\t\" \$4}' '$VECTORS/canon.tsv' |
	    awk -F'\t' '{ n = gsub(/[.#]/, \"&\", \$1); if (n <= 24) print \$1 \"\t\" \$2 }'"
	[ "$(echo "$output" | wc -l)" -eq 98 ]
	echo "$output" | cut -f1 | cg cg-parse -r domineering | cg cg-outcome -t > "$BATS_TEST_TMPDIR/got"
	run diff <(echo "$output") "$BATS_TEST_TMPDIR/got"
	assert_success
}

@test "domineering: outcomes by safe-move counts agree with canonical forms" {
	[ -x "$CG_BUILD/bin/cg-canon" ] || skip "cg-canon not built"
	# cg-outcome settles sums by the cg.move-counts bounds (sure moves
	# against most moves); cg-canon computes each board's canonical form
	# without them, and the game ruleset's outcome of that form is the
	# board's.  150 boards of 3x3 to 5x6, a quarter of the squares filled
	# (an off-by-one in either bound changed 20 to 50 of them here).
	awk 'BEGIN { srand(7); for (i = 0; i < 150; i++) {
		r = 3 + int(rand() * 3); c = 3 + int(rand() * 4); s = ""
		for (y = 0; y < r; y++) { if (y) s = s "|"
			for (x = 0; x < c; x++) s = s (rand() < 0.25 ? "#" : ".") }
		print s } }' > "$BATS_TEST_TMPDIR/boards"
	cg cg-canon -r domineering -t "$BATS_TEST_TMPDIR/boards" | cut -f2 |
	    cg cg-outcome -r game -t | cut -f2 > "$BATS_TEST_TMPDIR/forms"
	# both searches that use the counts: whole boards as bits (the
	# default) and sums of components
	for s in bits dfs; do
		cg cg-outcome -r domineering -t --search $s "$BATS_TEST_TMPDIR/boards" |
		    cut -f2 > "$BATS_TEST_TMPDIR/search"
		[ "$(wc -l < "$BATS_TEST_TMPDIR/search")" -eq 150 ]
		run diff "$BATS_TEST_TMPDIR/search" "$BATS_TEST_TMPDIR/forms"
		assert_success
	done
}

@test "domineering: sums of regions settled by canonical forms agree with a brute force" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	command -v python3 >/dev/null || skip "no python3"
	# 30 sums of three rectangles of 2-3 rows and 2-4 columns apart, a
	# tenth of the squares filled: the search over components settles a
	# sum by the canonical forms of its regions once it has met them in
	# a few sums (forms the move counts cannot see past, mostly hot
	# games).  Expected: a brute force over whole boards, sharing no
	# code; the forms must have settled some sums (a Left/Right slip in
	# their outcome changed 6 of the 30).
	run python3 -c '
import random, sys
from functools import lru_cache
R = random.Random(7)
boards = []
for t in range(30):
    rects = []
    for i in range(3):
        h, w = R.randint(2, 3), R.randint(2, 4)
        rects.append([[R.random() > 0.1 for x in range(w)] for y in range(h)])
    H = max(len(r) for r in rects)
    rows = []
    for y in range(H):
        rows.append("#".join("".join("." if y < len(r) and r[y][x] else "#"
                    for x in range(len(r[0]))) for r in rects))
    boards.append("|".join(rows))
@lru_cache(maxsize=None)
def wins(b, left):
    g = b.split("|")
    for y in range(len(g)):
        for x in range(len(g[0])):
            if left and y + 1 < len(g) and g[y][x] == g[y + 1][x] == ".":
                n = g[:]
                n[y] = n[y][:x] + "#" + n[y][x + 1:]
                n[y + 1] = n[y + 1][:x] + "#" + n[y + 1][x + 1:]
                if not wins("|".join(n), False):
                    return True
            if not left and x + 1 < len(g[0]) and g[y][x] == g[y][x + 1] == ".":
                n = g[:]
                n[y] = n[y][:x] + "##" + n[y][x + 2:]
                if not wins("|".join(n), True):
                    return True
    return False
for b in boards:
    l, r = wins(b, True), wins(b, False)
    print("%s\t%s" % (b, "N" if l and r else "L" if l else "R" if r else "P"))
'
	assert_success
	echo "$output" > "$BATS_TEST_TMPDIR/want"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -eq 30 ]
	cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-outcome -r domineering -t -v \
	    > "$BATS_TEST_TMPDIR/got" 2> "$BATS_TEST_TMPDIR/err"
	run diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	assert_success
	grep -q ' [1-9][0-9]* settled by canonical forms' "$BATS_TEST_TMPDIR/err"
	# with a knowledge base of every region up to 8 squares (-K), the
	# forms of those come from it at once: the same answers, more sums
	# settled by forms, fewer positions expanded
	[ -x "$CG_BUILD/bin/cg-kb-build" ] || skip "cg-kb-build not built"
	cg cg-kb-build -r domineering --family 8 -o "$BATS_TEST_TMPDIR/kb" 2>/dev/null
	cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-outcome -r domineering -t -v \
	    -K "$BATS_TEST_TMPDIR/kb" > "$BATS_TEST_TMPDIR/gotk" 2> "$BATS_TEST_TMPDIR/errk"
	run diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/gotk"
	assert_success
	count() { grep -o "[0-9]* $1" "$2" | awk '{ s += $1 } END { print s + 0 }'; }
	[ "$(count 'settled by' "$BATS_TEST_TMPDIR/errk")" -gt "$(count 'settled by' "$BATS_TEST_TMPDIR/err")" ]
	[ "$(count expanded "$BATS_TEST_TMPDIR/errk")" -lt "$(count expanded "$BATS_TEST_TMPDIR/err")" ]
}

@test "domineering: whole-board search past 64 rows or columns and over several regions" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# a 1x100 strip is wider than a bit state's 64 columns and a 200x1
	# one taller than its 64 rows: the search falls back to components.
	# No vertical domino fits the first and Right has 50, so Right wins
	# whoever starts (R); the second is Left's alone (L).  Two 2x2
	# squares apart are two switches +-1, whose sum is 0: the player to
	# move loses (P); with a third square, one switch is left (N).
	strip=$(awk 'BEGIN { while (n++ < 100) printf "."; print "" }')
	column=$(awk 'BEGIN { while (n++ < 200) printf "%s.", (n > 1 ? "|" : ""); print "" }')
	printf '%s\n%s\n..#..|..#..\n..#..#..|..#..#..\n' "$strip" "$column" > "$BATS_TEST_TMPDIR/in"
	for s in auto bits; do
		run sh -c "cg-outcome -r domineering -t --search $s '$BATS_TEST_TMPDIR/in' | cut -f2"
		assert_success
		assert_output "$(printf 'R\nL\nP\nN')"
	done
}

@test "domineering: published outcomes of larger boards (strips, 3xn, up to 42 squares)" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# rows of canon-slow.tsv that the move counts bring within seconds:
	# 2xn and nx2 strips to 30, 3x13, 3x14 and their transposes
	# (independent computation), and Uiterwijk's 8x5, 5x8, 9x4, 6x7, 7x6
	run bash -c "awk -F'\t' '\$1 == \"domineering\" && \$3 == \"outcome\" {
		r = split(\$2, a, \"|\"); c = length(a[1])
		if (r <= 3 || c <= 3 || r * c <= 42) print \$2 \"\t\" \$4 }' '$VECTORS/canon-slow.tsv'"
	[ "$(echo "$output" | wc -l)" -eq 27 ]
	echo "$output" > "$BATS_TEST_TMPDIR/want"
	cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-parse -r domineering |
	    cg cg-outcome -t > "$BATS_TEST_TMPDIR/got"
	run diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	assert_success
	# the bit search on one and on two threads, on the boards it is
	# picked for (3 rows and columns or more: 9 of them)
	grep -v -e '^[^|]*|[^|]*	' -e '^.\{1,2\}|' "$BATS_TEST_TMPDIR/want" > "$BATS_TEST_TMPDIR/wide"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/wide")" -eq 9 ]
	for j in 1 2; do
		cut -f1 "$BATS_TEST_TMPDIR/wide" | cg cg-parse -r domineering |
		    cg cg-outcome -t --search bits --jobs $j > "$BATS_TEST_TMPDIR/got"
		run diff "$BATS_TEST_TMPDIR/wide" "$BATS_TEST_TMPDIR/got"
		assert_success
	done
}

# g_minus_g SEED COUNT FILL: COUNT boards G beside their transposes -G
# (each player's dominoes turned into the other's), G 6x6 with FILL of
# its squares empty, each with its outcome: G - G = 0, a second-player
# win (P); with a vertical domino's two cells beside them +1 (L), with a
# horizontal one's -1 (R)
g_minus_g() {
	awk -v seed="$1" -v count="$2" -v fill="$3" 'BEGIN {
		srand(seed); n = 6
		for (k = 0; k < count; k++) {
			for (r = 0; r < n; r++)
				for (c = 0; c < n; c++)
					g[r, c] = rand() < fill ? "." : "#"
			extra = k % 3; line = ""
			for (r = 0; r < n; r++) {
				row = ""
				for (c = 0; c < n; c++) row = row g[r, c]
				row = row "#"
				for (c = 0; c < n; c++) row = row g[c, r]
				row = row "#" (extra == 1 && r < 2 ? "." : "#") \
				    (extra == 2 && r == 0 ? ".." : "##")
				line = line (r ? "|" : "") row
			}
			print line "\t" (extra == 0 ? "P" : extra == 1 ? "L" : "R")
		}
	}'
}

@test "domineering: the bit search's packed table, full and shared by two threads, keeps G + -G = 0" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# g_minus_g's boards: 6 rows and 17 columns leave 26 bits of the
	# second word clear, so the table keeps its results there (CG_BIT_SPARE);
	# 1 MiB of table holds 32,768 results and these searches expand
	# about 80,000 positions each, so results take each other's places
	g_minus_g 11 12 0.7 > "$BATS_TEST_TMPDIR/want"
	for j in 1 2; do
		cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-parse -r domineering |
		    cg cg-outcome -t --search bits --table-memory 1 --jobs $j \
		    > "$BATS_TEST_TMPDIR/got"
		run diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
		assert_success
	done
}

@test "domineering: the bit search keeps G + -G = 0 where it asks for transposition cutoffs" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# g_minus_g's boards with 60 or more of 102 squares empty, where the
	# ruleset asks the host to look up every child in the table before
	# it searches any (CG_BIT_ETC, from 52 empty squares on boards of 81
	# or more), besides its children() and key().  (These searches are
	# small: a cutoff that read a child's result the wrong way round went
	# unnoticed here, so this checks outcomes, not the cutoffs' reading.)
	g_minus_g 5 3 0.8 > "$BATS_TEST_TMPDIR/want"
	[ "$(awk -F'\t' '{ if (gsub(/\./, ".", $1) < 52) bad++ } END { print bad + 0 }' "$BATS_TEST_TMPDIR/want")" -eq 0 ]
	cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-parse -r domineering |
	    cg cg-outcome -t --search bits --jobs 2 > "$BATS_TEST_TMPDIR/got"
	run diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	assert_success
}

@test "domineering: --table-memory keeps the depth-first tables small, the outcomes right" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# Uiterwijk's 7x8 (R) and 8x7 (L): past 9 MB of tables unbounded
	# (the move counts settle smaller boards in less); in 9 MB the search
	# starts again many times and must still find them
	run bash -c "awk -F'\t' '\$1 == \"domineering\" && \$3 == \"outcome\" &&
		(\$2 == \"........|........|........|........|........|........|........\" ||
		 \$2 == \".......|.......|.......|.......|.......|.......|.......|.......\") {
		print \$2 \"\t\" \$4 }' '$VECTORS/canon.tsv' '$VECTORS/canon-slow.tsv'"
	[ "$(echo "$output" | wc -l)" -eq 2 ]
	echo "$output" > "$BATS_TEST_TMPDIR/want"
	cut -f1 "$BATS_TEST_TMPDIR/want" | cg cg-parse -r domineering |
	    cg cg-outcome -t -v --search dfs --table-memory 9 > "$BATS_TEST_TMPDIR/got" \
	    2> "$BATS_TEST_TMPDIR/err"
	run diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	assert_success
	grep -q ' restarts, ' "$BATS_TEST_TMPDIR/err"
}

# the 8x8 board and its published outcome (Breuker, Uiterwijk and van den
# Herik 2000: the first player wins)
board8() {
	awk -F'\t' '$1 == "domineering" && $3 == "outcome" &&
	    $2 == "........|........|........|........|........|........|........|........" {
	    print $2 "\t" $4 }' "$VECTORS/canon-slow.tsv"
}

# SIGINT to cg-outcome $1 a moment after its search began (its first
# progress line in the file $2); it may have ended by then
interrupt_search() {
	local i

	for i in $(seq 1 600); do
		grep -q ' expanded' "$2" && break
		sleep 0.05
	done
	sleep 0.2
	kill -INT "$1" 2>/dev/null || true
}

@test "domineering: --checkpoint resumes a stopped bit search" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	board8 > "$BATS_TEST_TMPDIR/want"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -eq 1 ]
	cut -f1 "$BATS_TEST_TMPDIR/want" > "$BATS_TEST_TMPDIR/in"
	# 8x9 takes a minute: stopped by SIGINT a moment after its search
	# began, it leaves what it found in its checkpoint (which is written
	# otherwise only once a minute)
	awk 'BEGIN { for (i = 0; i < 8; i++) printf "%s.........", i ? "|" : ""
	    print "" }' > "$BATS_TEST_TMPDIR/in89"
	"$CG_BUILD/bin/cg-outcome" -r domineering -t -v \
	    --checkpoint "$BATS_TEST_TMPDIR/8x9.ckpt" "$BATS_TEST_TMPDIR/in89" \
	    2> "$BATS_TEST_TMPDIR/err89" &
	pid=$!
	interrupt_search "$pid" "$BATS_TEST_TMPDIR/err89"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 130 ]
	grep -q 'interrupted' "$BATS_TEST_TMPDIR/err89"
	[ -s "$BATS_TEST_TMPDIR/8x9.ckpt" ]
	ck="$BATS_TEST_TMPDIR/8x8.ckpt"
	# 8x8 stopped the same way (or done by then on a fast machine), then
	# resumed to its answer
	"$CG_BUILD/bin/cg-outcome" -r domineering -t -v --checkpoint "$ck" \
	    "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/out" \
	    2> "$BATS_TEST_TMPDIR/err" &
	pid=$!
	interrupt_search "$pid" "$BATS_TEST_TMPDIR/err"
	status=0
	wait "$pid" || status=$?
	if [ "$status" -ne 0 ]; then
		[ "$status" -eq 130 ]
		grep -q 'interrupted' "$BATS_TEST_TMPDIR/err"
	fi
	[ -s "$ck" ]
	run bash -c "'$CG_BUILD/bin/cg-outcome' -r domineering -t -v \
	    --checkpoint '$ck' '$BATS_TEST_TMPDIR/in' 2> '$BATS_TEST_TMPDIR/err'"
	assert_success
	assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
	grep -q ' results from the checkpoint, ' "$BATS_TEST_TMPDIR/err"
	# a third run finds the answer itself there: nothing is searched
	run bash -c "'$CG_BUILD/bin/cg-outcome' -r domineering -t -v \
	    --checkpoint '$ck' '$BATS_TEST_TMPDIR/in' 2>&1 >/dev/null"
	assert_success
	assert_output --regexp 'domineering: [01] expanded'
	# the two threads of --jobs 2 share one checkpoint as well
	rm -f "$ck"
	run "$CG_BUILD/bin/cg-outcome" -r domineering -t --jobs 2 \
	    --checkpoint "$ck" "$BATS_TEST_TMPDIR/in"
	assert_success
	assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
	[ -s "$ck" ]
}

@test "domineering: --checkpoint-size bounds the checkpoint, which still resumes to the answer" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	board8 > "$BATS_TEST_TMPDIR/want"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -eq 1 ]
	cut -f1 "$BATS_TEST_TMPDIR/want" > "$BATS_TEST_TMPDIR/in"
	local bound=4096 ck="$BATS_TEST_TMPDIR/8x8.ckpt" free="$BATS_TEST_TMPDIR/free.ckpt"
	run cg cg-outcome -r domineering -t --checkpoint "$ck" \
	    --checkpoint-size 4x "$BATS_TEST_TMPDIR/in"
	[ "$status" -eq 2 ]
	run cg cg-outcome -r domineering -t --checkpoint "$ck" \
	    --checkpoint-size 1000 "$BATS_TEST_TMPDIR/in"
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: --checkpoint-size: at least 4k (or 0: no bound)"
	# without a bound the whole search leaves more than 4k of results
	run cg cg-outcome -r domineering -t --checkpoint "$free" \
	    --checkpoint-size 0 "$BATS_TEST_TMPDIR/in"
	assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
	[ "$(stat -c %s "$free")" -gt "$bound" ]
	# with one, the file stays within it, stopped (or done by then) ...
	"$CG_BUILD/bin/cg-outcome" -r domineering -t -v --checkpoint "$ck" \
	    --checkpoint-size 4k "$BATS_TEST_TMPDIR/in" \
	    > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" &
	pid=$!
	interrupt_search "$pid" "$BATS_TEST_TMPDIR/err"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 0 ] || [ "$status" -eq 130 ]
	[ -s "$ck" ] && [ "$(stat -c %s "$ck")" -le "$bound" ]
	# ... resumes from it to the published answer, and stays within it
	run bash -c "'$CG_BUILD/bin/cg-outcome' -r domineering -t -v \
	    --checkpoint '$ck' --checkpoint-size 4k '$BATS_TEST_TMPDIR/in' \
	    2> '$BATS_TEST_TMPDIR/err'"
	assert_success
	assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
	grep -q ' [1-9][0-9]* results from the checkpoint, ' "$BATS_TEST_TMPDIR/err"
	[ "$(stat -c %s "$ck")" -le "$bound" ]
	# the costliest result kept is the root's: a third run searches nothing
	run bash -c "'$CG_BUILD/bin/cg-outcome' -r domineering -t -v \
	    --checkpoint '$ck' --checkpoint-size 4k '$BATS_TEST_TMPDIR/in' 2>&1 >/dev/null"
	assert_success
	assert_output --regexp 'domineering: [01] expanded'
	# 8x9 stopped a moment after it began leaves its table's results
	# too, far more than 4k of them: still within the bound, and a file
	# the next run reads
	awk 'BEGIN { for (i = 0; i < 8; i++) printf "%s.........", i ? "|" : ""
	    print "" }' > "$BATS_TEST_TMPDIR/in89"
	for run in 1 2; do
		"$CG_BUILD/bin/cg-outcome" -r domineering -t -v \
		    --checkpoint "$BATS_TEST_TMPDIR/8x9.ckpt" --checkpoint-size 4k \
		    "$BATS_TEST_TMPDIR/in89" 2> "$BATS_TEST_TMPDIR/err89" &
		pid=$!
		interrupt_search "$pid" "$BATS_TEST_TMPDIR/err89"
		status=0
		wait "$pid" || status=$?
		[ "$status" -eq 130 ]
		grep -q 'interrupted' "$BATS_TEST_TMPDIR/err89"
		# (written afresh with the costliest results, half the bound's
		# worth, when it passed the bound)
		size=$(stat -c %s "$BATS_TEST_TMPDIR/8x9.ckpt")
		[ "$size" -le "$bound" ] && [ "$size" -gt $((bound / 4)) ]
	done
	[ ! -e "$BATS_TEST_TMPDIR/8x9.ckpt.tmp" ]
}

@test "domineering: a damaged checkpoint is refused, never believed" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	board8 > "$BATS_TEST_TMPDIR/want"
	cut -f1 "$BATS_TEST_TMPDIR/want" > "$BATS_TEST_TMPDIR/in"
	ck="$BATS_TEST_TMPDIR/c.ckpt"
	printf 'not a checkpoint\n' > "$ck"
	run cg cg-outcome -r domineering -t --checkpoint "$ck" "$BATS_TEST_TMPDIR/in"
	[ "$status" -eq 1 ]
	assert_output --partial "not a cgtools checkpoint"
	rm -f "$ck"
	cg cg-outcome -r domineering -t --checkpoint "$ck" "$BATS_TEST_TMPDIR/in" >/dev/null
	cp "$ck" "$BATS_TEST_TMPDIR/good"
	size=$(stat -c %s "$ck")
	# one byte changed anywhere: the chained checksums refuse the file,
	# or (a length now reaching past the end looks like a batch a kill
	# cut short) the records from there on are searched again; never a
	# wrong answer
	damaged=0
	for at in 9 10 $((size / 3)) $((size / 2)) $((size - 3)); do
		cp "$BATS_TEST_TMPDIR/good" "$ck"
		printf '\377' | dd of="$ck" bs=1 seek=$at conv=notrunc 2>/dev/null
		run cg cg-outcome -r domineering -t --checkpoint "$ck" "$BATS_TEST_TMPDIR/in"
		if [ "$status" -eq 0 ]; then
			assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
		else
			[ "$status" -eq 1 ]
			assert_output --partial "damaged at byte"
			damaged=$((damaged + 1))
		fi
	done
	[ "$damaged" -gt 0 ]
}
