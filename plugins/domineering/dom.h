/*
 * dom.h - what the files of the Domineering ruleset share: the bit-line
 * counting helpers (always inlined, so each function that counts is
 * built with them), the counts of one player's lines, and the
 * extensions the descriptor hands out.
 */
#ifndef DOM_H
#define DOM_H

#include <stdint.h>

#include "cg/bitsearch.h"
#include "cg/movecounts.h"
#include "cg/ruleset.h"
#include "lib/grid.h"

/* Dominoes one player could place alone: floor(run/2) summed over the
 * maximal runs of empty cells of each column (vertical) or row. */
int64_t dom_alone(const unsigned char *cells, int rows, int cols,
    int vertical);

extern const struct cg_move_counts dom_move_counts;   /* counts.c */
extern const struct cg_bit_search dom_bit_search;     /* bits.c */


/*
 * The counts below are popcounts on bit lines.  Built for any x86-64,
 * __builtin_popcountll is a call into libgcc; so the functions that
 * count (DOM_HOT) are built twice, once for processors with the popcnt
 * instruction, and the loader picks one (GCC's target_clones).  Their
 * helpers are always inlined, so they are built with them.
 */
#if defined(__x86_64__) && !defined(__POPCNT__) && defined(__GNUC__)
#define DOM_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define DOM_HOT
#endif
#define DOM_INLINE static inline __attribute__((always_inline))

DOM_INLINE int
dom_pop(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* The first cells of the pairs a greedy walk takes from each run of x:
 * (s, s+1), (s+2, s+3), ..., the last cell of an odd run left.  Those
 * are the cells an even distance from their run's start, followed by a
 * cell of x.  Adding a run's start carries through the run, so the runs
 * that start on an even bit are the cells x + (starts on even bits)
 * changes. */
DOM_INLINE uint64_t
dom_pair_firsts(uint64_t x)
{
	const uint64_t even = 0x5555555555555555u;
	uint64_t starts = x & ~(x << 1), from_even;

	from_even = ((x + (starts & even)) ^ x) & x;
	return ((from_even & even) | (x & ~from_even & ~even)) & x >> 1;
}

/* The pairs themselves: both cells of each. */
DOM_INLINE uint64_t
dom_pairs(uint64_t x)
{
	uint64_t f = dom_pair_firsts(x);

	return f | f << 1;
}

/* The proof cells of line a of nl: those no opposing domino can cover. */
DOM_INLINE uint64_t
dom_proof_bits(const uint64_t *line, int nl, int a)
{
	return line[a] & ~(a > 0 ? line[a - 1] : 0) &
	    ~(a + 1 < nl ? line[a + 1] : 0);
}

/*
 * dom_slots (counts.c) on bit lines, given the safe cells sm[] of each
 * line: the reserve of every free domino a walk from each run's start
 * takes, type 1 by twos and type 2 by threes; kept in *b when it is sure
 * of more than the pool.
 */
DOM_INLINE void
dom_bits_slots(const uint64_t *line, int nl, const uint64_t *sm,
    const uint64_t *used, const uint64_t *guard, uint32_t areas,
    struct cg_move_bounds *b, int side)
{
	uint64_t slot[64], open[64], firsts, adj, two_f, rest;
	uint32_t one = 0, two = 0, room = 0, sure;
	int a, free = 0;

	for (a = 0; a < nl; a++) {
		slot[a] = dom_pairs(line[a] & ~sm[a] & ~used[a] & ~guard[a]);
		open[a] = slot[a] & ~dom_proof_bits(line, nl, a);
	}
	for (a = 0; a < nl; a++) {
		firsts = dom_pair_firsts(line[a] & ~sm[a] & ~used[a] &
		    ~guard[a]);
		adj = open[a] & ((a > 0 ? open[a - 1] : 0) |
		    (a + 1 < nl ? open[a + 1] : 0));
		two_f = firsts & (adj | adj >> 1);
		two += (uint32_t)dom_pop(two_f);
		one += (uint32_t)dom_pop(firsts & ~two_f);
		room += (uint32_t)dom_pop(line[a] & (sm[a] | slot[a] |
		    used[a] | ~dom_proof_bits(line, nl, a)));
		rest = line[a] & ~sm[a] & ~slot[a] & ~used[a];
		free |= (rest & rest >> 1) != 0;
	}
	sure = b->safe[side] + areas / 2 * 2 + one / 2 + two / 3;
	if (sure <= b->sure[side])
		return;
	b->sure[side] = sure;
	b->room[side] = room / 2;
	b->first[side] = sure + (areas % 2 == 1 ? 4 : (free ||
	    one % 2 == 1 || two % 3 != 0));
}

/*
 * Protective areas (Bullock's Obsequi): 2x2 blocks of empty cells on
 * lines a and a + 1, positions p and p + 1, walled on one side: the
 * line beside them there (a - 1 or a + 2) filled, or the board's edge.
 * Every opposing domino that touches one lies across its two lines, or
 * across the line away from the wall and the guard cells beyond it.
 * The player who enters one by that line makes the two cells by the wall
 * proof: a move and a safe one.  Paired, the player answers a touch on
 * one by entering the other, so each is worth a move, and each entry
 * takes a domino from each of the opponent's two lines through it (its
 * run loses the two cells at its walled end): the opponent's most falls
 * by one an area.  No area cell is another's guard, so one opposing domino touches
 * at most one area; used[] gets the areas' cells, guard[] the empty
 * cells beyond them, both kept from the other reserves.
 */
DOM_INLINE uint32_t
dom_bits_areas(const uint64_t *line, int nl, uint64_t *used, uint64_t *guard)
{
	uint64_t cand, f, both, open;
	uint32_t n = 0;
	int a, side, w, o;

	for (a = 0; a < nl; a++)
		used[a] = guard[a] = 0;
	for (a = 0; a + 1 < nl; a++)
		for (side = 0; side < 2; side++) {
			/* side 0: the wall at a - 1, the guard line a + 2 */
			w = side ? a + 2 : a - 1;
			o = side ? a - 1 : a + 2;
			open = w >= 0 && w < nl ? line[w] : 0;
			cand = line[a] & line[a + 1] & ~open &
			    ~(used[a] | guard[a] | used[a + 1] | guard[a + 1]);
			if (o >= 0 && o < nl)
				cand &= ~used[o];
			f = dom_pair_firsts(cand);
			if (f == 0)
				continue;
			both = f | f << 1;
			n += (uint32_t)dom_pop(f);
			used[a] |= both;
			used[a + 1] |= both;
			if (o >= 0 && o < nl)
				guard[o] |= both & line[o];
		}
	return n;
}

/*
 * dom_guaranteed and dom_alone on bit lines: line[a] holds the empty
 * cells of line a of the player's view (bit b = cell b along it, at most
 * 64), nl lines.  The same passes in the same order, so the same counts.
 * With slots, dom_slots's reserve too (what cg.move-counts gives); the
 * bit search goes without it: there the extra pass costs more time than
 * the positions it settles save (7x8: 2.38 s without, 2.75 s with).
 * The protective areas come first (dom_bits_areas); *deny gets the moves
 * their pairs take from the opponent's most, which the caller subtracts.
 */
DOM_INLINE void
dom_bits_side(const uint64_t *line, int nl, struct cg_move_bounds *b,
    int side, int slots, uint32_t *deny)
{
	uint32_t safe = 0, pool = 0, room = 0, most = 0, areas;
	uint64_t e, p, run, marks, open = 0, avail, picks, smask, rest;
	uint64_t sm[64], used[64], guard[64];
	int a, first, last, free = 0;

	areas = dom_bits_areas(line, nl, used, guard);
	for (a = 0; a < nl; a++) {
		e = line[a];
		p = e & ~(a > 0 ? line[a - 1] : 0) &
		    ~(a + 1 < nl ? line[a + 1] : 0);
		/* most: each run alone, floor(run / 2) dominoes */
		most += (uint32_t)dom_pop(dom_pair_firsts(e));
		/* safe: runs of proof cells, an odd one less its last cell,
		 * or its first when only the cell before it is empty */
		smask = 0;
		for (uint64_t x = p; x != 0; x &= ~run) {
			run = x & ~(x + (x & -x));
			if (dom_pop(run) < 2)
				continue;
			first = __builtin_ctzll(run);
			last = 63 - __builtin_clzll(run);
			if (dom_pop(run) % 2 == 1) {
				int after = last < 63 && (e >> (last + 1) & 1);
				int before = first > 0 && (e >> (first - 1) & 1);

				run &= ~((uint64_t)1 << (!after && before ?
				    first : last));
			}
			smask |= run;
			safe += (uint32_t)dom_pop(run) / 2;
		}
		sm[a] = smask;
		/* pool: pairs of free cells, an open one never across from
		 * an open pool cell of the line before */
		avail = e & ~smask & ~used[a] & ~guard[a] & (p | ~open);
		picks = dom_pairs(avail);
		pool += (uint32_t)dom_pop(picks) / 2;
		open = picks & ~p;
		marks = smask | picks | used[a];
		room += (uint32_t)dom_pop(e & (marks | ~p));
		rest = e & ~marks;
		free |= (rest & rest >> 1) != 0;
	}
	b->most[side] = most;
	b->safe[side] = safe;
	b->sure[side] = safe + pool / 2 + areas / 2 * 2;
	b->room[side] = room / 2;
	/* first: the area left over, entered first, gives two moves and
	 * takes two from the opponent's most (first counts both); else a
	 * domino off the reserve played first leaves it whole, and one of
	 * an odd pool leaves pairs */
	b->first[side] = b->sure[side] + (areas % 2 == 1 ? 4 :
	    (free || pool % 2 == 1));
	*deny = areas / 2 * 2;
	if (slots)
		dom_bits_slots(line, nl, sm, used, guard, areas, b, side);
}

#endif
