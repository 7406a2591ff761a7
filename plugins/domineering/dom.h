/*
 * dom.h - what the files of the Domineering ruleset share: the bit-line
 * counting helpers (always inlined, so each function that counts is
 * built with them), the counts of one player's lines, and the
 * extensions the descriptor hands out.
 */
#ifndef DOM_H
#define DOM_H

#include <stdint.h>

#include "cgx/bitsearch.h"
#include "cg/conjugate.h"
#include "cgx/movecounts.h"
#include "cg/rank.h"
#include "cg/ruleset.h"
#include "grid.h"

/* Dominoes one player could place alone: floor(run/2) summed over the
 * maximal runs of empty cells of each column (vertical) or row. */
int64_t dom_alone(const unsigned char *cells, int rows, int cols,
    int vertical);

extern const struct cg_move_counts dom_move_counts;   /* counts.c */
extern const struct cg_bit_search dom_bit_search;     /* bits.c */
extern const struct cg_rank dom_rank;                 /* rank.c */


/*
 * The counts below are popcounts and masks on bit lines.  Built for any
 * x86-64, __builtin_popcountll is a call into libgcc and x & ~y two
 * instructions; so the functions that count (DOM_HOT) are built three
 * times, for x86-64-v3 processors (BMI1 and BMI2: andn, blsr, tzcnt,
 * shifts by a register without cl; AVX2), for those with the popcnt
 * instruction only, and for any, and the loader picks one (GCC's
 * target_clones).  Their helpers are always inlined, so they are built
 * with them.  There is no fourth build for x86-64-v4 (AVX-512): it runs
 * no faster than v3's.
 */
#if defined(__x86_64__) && !defined(__POPCNT__) && defined(__GNUC__)
#define DOM_HOT __attribute__((target_clones("arch=x86-64-v3", "popcnt", \
	"default")))
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

/* Slots kept, of one of type 1 (an opposing domino that hits it hits no
 * other) and two of type 2 (one hits at most two), when the player
 * answers each hit with a slot: one/2 + two/3, and one more when both
 * leave some over (the opponent breaks only one of those two at a
 * time). */
DOM_INLINE uint32_t
dom_slots_kept(uint32_t one, uint32_t two)
{
	return one / 2 + two / 3 + (one % 2 == 1 && two % 3 != 0);
}

/* Moving first, the player keeps one slot more, unless one is odd and
 * two is 1 more than a multiple of 3 (the first answer then only
 * breaks up what was left over).  Both by exhaustive play of the counts
 * alone: the opponent breaks one of type 1, up to two of type 2, or
 * none; the player plays one. */
DOM_INLINE int
dom_slots_first(uint32_t one, uint32_t two)
{
	return one % 2 == 0 ? two % 3 != 0 : two % 3 != 1;
}

/*
 * The cells the safe options waste for sure besides, given w[k] options
 * wasting k cells, heaviest first (the first skip of them left out):
 * the opponent's block of one is answered by playing another, so of
 * each pair the second is wasted; but with a tempo (a move the
 * reserve's count leaves over: dom_pool_tempo, or the slots' in
 * dom_slots_waste) the player answers the first block with that and the
 * pairs shift: the first, third, ... are wasted.  With dom_pool_kept and
 * dom_pool_waste, by exhaustive play of the counts (the pool's game, its
 * area and the options: the opponent breaks, touches, blocks an option
 * or stops; the player answers, or plays an option); with the slots', a
 * lower bound of their game, by the same play.
 */
DOM_INLINE uint32_t
dom_options_waste(const uint32_t w[4], uint32_t skip, int tempo)
{
	uint32_t wt, n, i = 0, sum = 0, wasted = tempo ? 0u : 1u;

	/* by weight: of the n options counted from the i-th, those at an
	 * even or at an odd place, without a loop over the options */
	for (wt = 3; wt >= 1; wt--) {
		n = w[wt];
		if (skip >= n) {
			skip -= n;
			continue;
		}
		n -= skip;
		skip = 0;
		sum += wt * ((n + (i % 2 == wasted)) / 2);
		i += n;
	}
	return sum;
}

/* The heaviest option's weight, 0 for none. */
DOM_INLINE uint32_t
dom_options_top(const uint32_t w[4])
{
	return w[3] ? 3 : w[2] ? 2 : w[1] ? 1 : 0;
}

/* Take (fs, waste) as the plan moving first when it gains the room test
 * (2 first_sure > first_room) more than the best so far. */
DOM_INLINE void
dom_plan_try(uint32_t *bfs, uint32_t *bfr, uint32_t cells, uint32_t fs,
    uint32_t waste)
{
	uint32_t fr = (cells - waste) / 2;

	if (2 * (int64_t)fs - fr > 2 * (int64_t)*bfs - *bfr) {
		*bfs = fs;
		*bfr = fr;
	}
}

/*
 * Cells the slots waste for sure: q1 of the one of type 1 and q2 of the
 * two of type 2 have a proof cell, left to no one when the opponent
 * breaks them.  The opponent breaks those without one first and the
 * player plays those without one first, so of each type the waste is
 * the slots with a proof cell less those the player's count keeps of
 * them, and one less for the remainder's move (as Obsequi reckons it).
 * With dom_slots_kept, a lower bound of the slots' game (4 a move + the
 * waste) by exhaustive play of the counts (test_domreserve).
 */
DOM_INLINE uint32_t
dom_slots_waste(uint32_t one, uint32_t q1, uint32_t two, uint32_t q2,
    const uint32_t w[4], uint32_t skip)
{
	int64_t n = (int64_t)q2 - (two / 3 - (two - q2) / 3) + q1 -
	    (one / 2 - (one - q1) / 2) - (one % 2 == 1 && two % 3 != 0);

	return (n > 0 ? (uint32_t)n : 0) + dom_options_waste(w, skip,
	    (one % 2 == 1) != (two % 3 != 0));
}

/*
 * The second reserve's counts into b (whose safe and most the first
 * reserve's counting set): safe dominoes, paired areas, and slots, q1
 * of the one of type 1 and q2 of the two of type 2 with a proof cell.
 * An area left over from the pairs is two dominoes of type 2 without a
 * proof cell (one opposing domino across its lines breaks both; one
 * from its guard line breaks one and leaves the other the player's, with
 * a proof cell), as Obsequi counts it; or, moving first, the player
 * enters it for two moves and takes two from the opponent's most.
 * Otherwise moving first the player plays the slot that gains the room
 * test most.  cells: those the opponent can cover or the reserve holds;
 * free: a domino on no reserve's cells, to play first.
 */
DOM_INLINE void
dom_slots_take(struct cg_move_bounds *b, int side, uint32_t safe,
    uint32_t areas, uint32_t one, uint32_t q1, uint32_t two, uint32_t q2,
    const uint32_t w[4], uint32_t cells, int free)
{
	uint32_t base = safe + areas / 2 * 2, t2 = two + areas % 2 * 2,
	    sure = base + dom_slots_kept(one, t2), first, fs, fr, k;
	/* the first slot played: type 1 or 2, with a proof cell or not */
	uint32_t avail[4] = { one - q1, q1, t2 - q2, q2 };

	b->sure[side] = sure;
	b->room[side] = (cells - dom_slots_waste(one, q1, t2, q2, w, 0)) / 2;
	first = sure + (uint32_t)(free || dom_slots_first(one, t2));
	fs = sure;
	fr = b->room[side];
	for (k = 0; k < 4; k++)
		if (avail[k] > 0)
			dom_plan_try(&fs, &fr, cells, base + 1 +
			    dom_slots_kept(one - (k < 2), t2 - (k >= 2)),
			    dom_slots_waste(one - (k < 2), q1 - (k == 1),
			    t2 - (k >= 2), q2 - (k == 3), w, 0));
	if (dom_options_top(w) > 0)
		dom_plan_try(&fs, &fr, cells, sure, dom_options_top(w) +
		    dom_slots_waste(one, q1, t2, q2, w, 1));
	if (areas % 2 == 1) {
		/* the area entered first, the slots as they were */
		uint32_t own = base + dom_slots_kept(one, two) + 2;

		dom_plan_try(&fs, &fr, cells, own,
		    dom_slots_waste(one, q1, two, q2, w, 0));
		first = own + 2 > first ? own + 2 : first;
	}
	b->first[side] = first;
	b->first_sure[side] = fs;
	b->first_room[side] = fr;
}

/* cg.move-counts claims one reserve: the second's counts of side, sl,
 * replace b's when they are sure of more. */
DOM_INLINE void
dom_keep_surer(struct cg_move_bounds *b, const struct cg_move_bounds *sl,
    int side)
{
	if (sl->sure[side] <= b->sure[side])
		return;
	b->sure[side] = sl->sure[side];
	b->room[side] = sl->room[side];
	b->first[side] = sl->first[side];
	b->first_sure[side] = sl->first_sure[side];
	b->first_room[side] = sl->first_room[side];
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
 * cells beyond them, both kept from the other reserves but the pool and
 * the slots.  A pool domino (or a slot) may lie on a guard cell: the opposing domino that breaks
 * it there and touches the area (across the area's open line and the
 * guard line) leaves the area's two cells by the wall as a new pool
 * domino (the one by the filled cell now proof), which only an opposing
 * domino on the area's own cells can break, so the pool keeps its size
 * (and its proof cells, for the waste) and needs no answer, and the
 * player answers the touch on the area as ever.
 */
DOM_INLINE uint32_t
dom_bits_areas(const uint64_t *line, int nl, uint64_t *used, uint64_t *guard)
{
	uint64_t cand, f, both, open, sq;
	uint32_t n = 0;
	int a, side, w, o;

	for (a = 0; a < nl; a++)
		used[a] = guard[a] = 0;
	for (a = 0; a + 1 < nl; a++) {
		/* an area needs two empty cells side by side on both lines */
		sq = line[a] & line[a + 1];
		if ((sq & sq >> 1) == 0)
			continue;
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
	}
	return n;
}

/*
 * Safe options (Bullock's Obsequi): a safe domino with an empty cell c
 * beside it on its line that is the opponent's to cover (not proof) and
 * in no reserve.  Played shifted onto c, the domino is still a move, and
 * it leaves its other cell, proof, to no one; and each cell across from
 * c whose other side is filled (or the edge) is the opponent's no more,
 * and no reserve's: 1 to 3 cells wasted, the option's weight w[].  The
 * opponent's only way to stop one is a domino on c and a cell across,
 * which are kept from every reserve, the areas' guards and the other
 * options (each domino gives one, c once): it touches nothing else, so
 * the player can answer it by playing another option.  opt[] gets the
 * cells c.  pk[] holds the pool's cells.
 */
DOM_INLINE void
dom_bits_options(const uint64_t *line, int nl, const uint64_t *sm,
    const uint64_t *pk, const uint64_t *used, const uint64_t *guard,
    uint64_t *opt, uint32_t w[4])
{
	uint64_t f, ok, left, right, x, up, down, across[2];
	int a, k, side;

	w[0] = w[1] = w[2] = w[3] = 0;
	for (a = 0; a < nl; a++) {
		/* most lines have no safe domino, so no option */
		if (sm[a] == 0) {
			opt[a] = 0;
			continue;
		}
		for (side = 0; side < 2; side++) {
			k = side ? a + 1 : a - 1;
			across[side] = k >= 0 && k < nl ? line[k] &
			    (pk[k] | used[k] | guard[k] |
			    (side ? 0 : opt[k])) : 0;
		}
		f = dom_pair_firsts(sm[a]);
		ok = line[a] & ~dom_proof_bits(line, nl, a) & ~pk[a] &
		    ~used[a] & ~guard[a] & ~across[0] & ~across[1];
		/* the cell before each domino, else the cell after it */
		left = f >> 1 & ok;
		right = (f & ~(left << 1)) << 2 & ok & ~left;
		opt[a] = x = left | right;
		if (x == 0)
			continue;
		/* the cells across with a filled cell beyond */
		up = a > 0 ? x & line[a - 1] & ~(a > 1 ? line[a - 2] : 0) : 0;
		down = a + 1 < nl ? x & line[a + 1] &
		    ~(a + 2 < nl ? line[a + 2] : 0) : 0;
		w[3] += (uint32_t)dom_pop(up & down);
		w[2] += (uint32_t)dom_pop(up ^ down);
		w[1] += (uint32_t)dom_pop(x & ~(up | down));
	}
}

/*
 * dom_slots (counts.c) on bit lines, given the safe cells sm[] of each
 * line: the reserve of every free domino a walk from each run's start
 * takes (guard cells too, as the pool), type 1 by twos and type 2 by
 * threes, those with a proof cell counted for the waste, and the safe
 * options beside none of them (dom_bits_options, the slots in place of
 * the pool), into *b.
 */
DOM_INLINE void
dom_bits_slots(const uint64_t *line, int nl, const uint64_t *sm,
    const uint64_t *used, const uint64_t *guard, uint32_t areas,
    struct cg_move_bounds *b, int side)
{
	uint64_t slot[64], open[64], opt[64], first[64], firsts, adj, two_f,
	    rest, pf;
	uint32_t w[4];
	uint32_t one = 0, two = 0, q1 = 0, q2 = 0, room = 0;
	int a, free = 0;

	for (a = 0; a < nl; a++) {
		first[a] = dom_pair_firsts(line[a] & ~sm[a] & ~used[a]);
		slot[a] = first[a] | first[a] << 1;
		open[a] = slot[a] & ~dom_proof_bits(line, nl, a);
	}
	for (a = 0; a < nl; a++) {
		firsts = first[a];
		adj = open[a] & ((a > 0 ? open[a - 1] : 0) |
		    (a + 1 < nl ? open[a + 1] : 0));
		two_f = firsts & (adj | adj >> 1);
		two += (uint32_t)dom_pop(two_f);
		one += (uint32_t)dom_pop(firsts & ~two_f);
		/* the slots with a proof cell */
		pf = slot[a] & ~open[a];
		pf = firsts & (pf | pf >> 1);
		q2 += (uint32_t)dom_pop(two_f & pf);
		q1 += (uint32_t)dom_pop(firsts & ~two_f & pf);
		room += (uint32_t)dom_pop(line[a] & (sm[a] | slot[a] |
		    used[a] | ~dom_proof_bits(line, nl, a)));
		rest = line[a] & ~sm[a] & ~slot[a] & ~used[a];
		free |= (rest & rest >> 1) != 0;
	}
	dom_bits_options(line, nl, sm, slot, used, guard, opt, w);
	dom_slots_take(b, side, b->safe[side], areas, one, q1, two, q2, w,
	    room, free);
}

/*
 * The pool of n dominoes, q of them with a proof cell, with an area left
 * over from the pairs (left) or not.  The opponent breaks a pool domino
 * (the player answers with another, or enters the area: a move and a
 * safe one), or touches the area (across its lines, or from its guard
 * line, which leaves a pool domino with a proof cell there, perhaps for
 * one it broke on the guard cell), or lets the player have the rest.  A
 * broken pool domino's proof cell is left to no one.  By exhaustive play
 * of these counts (n up to 13), the player keeps floor(n/2) pool moves,
 * ceil(n/2) with the area (its two dominoes and the pool's odd one are
 * worth one together), and at least dom_pool_waste cells are wasted on
 * top (4 moves + the waste is what the room test counts).
 */
DOM_INLINE uint32_t
dom_pool_kept(uint32_t n, uint32_t left)
{
	return left ? (n + 1) / 2 : n / 2;
}

DOM_INLINE uint32_t
dom_pool_waste(uint32_t n, uint32_t q, uint32_t left)
{
	if (left)
		return n % 2 == 1 ? q / 2 : (q + 1) / 2;
	return q - (n / 2 - (n - q) / 2);
}

/* The tempo of dom_options_waste: a pool domino or the area's two left
 * over by the count of the pool's game. */
DOM_INLINE int
dom_pool_tempo(uint32_t n, uint32_t left)
{
	return left ? n % 2 == 0 : n % 2 == 1;
}

/*
 * sure and first of side from what the reserve holds: safe dominoes;
 * areas (paired, one move each; one left over when odd); the pool of n
 * dominoes; free, a domino off the reserve to play first.  Moving first,
 * the player plays whichever gains most for the most test: the area left
 * over (two moves, and two off the opponent's most), a pool domino or a
 * free one.  Neither needs the options, so the verdicts these settle
 * (most of the mover's wins) are had without counting them.
 */
DOM_INLINE void
dom_reserve_first(struct cg_move_bounds *b, int side, uint32_t safe,
    uint32_t areas, uint32_t n, int free)
{
	uint32_t left = areas % 2, base = safe + areas / 2 * 2,
	    s = base + dom_pool_kept(n, left);

	b->sure[side] = s;
	b->first[side] = s + (uint32_t)(free != 0);
	if (n > 0 && base + 1 + dom_pool_kept(n - 1, left) > b->first[side])
		b->first[side] = base + 1 + dom_pool_kept(n - 1, left);
	if (left && base + n / 2 + 4 > b->first[side])
		b->first[side] = base + n / 2 + 4;
}

/*
 * room, first_sure and first_room of side from the same reserve (after
 * dom_reserve_first, whose sure they start from), its pool of n
 * dominoes q of them with a proof cell, and w[k] the safe
 * options wasting k cells; cells, the empty cells the opponent can cover
 * or the reserve holds; freek, a free domino on cells the opponent could
 * cover, off every option.  Moving first, the player plays whichever
 * gains the room test most: the area left over, a free domino on the
 * opponent's cells, a pool domino (one without a proof cell if there is
 * one), or the heaviest option.  (The best of these is the value of the
 * counts' game moving first, by the same exhaustive play.)
 */
DOM_INLINE void
dom_reserve_room(struct cg_move_bounds *b, int side, uint32_t safe,
    uint32_t areas, uint32_t n, uint32_t q, const uint32_t w[4],
    uint32_t cells, int freek)
{
	uint32_t left = areas % 2, base = safe + areas / 2 * 2, waste, fs, fr,
	    top = dom_options_top(w), s = b->sure[side];

	waste = dom_pool_waste(n, q, left) +
	    dom_options_waste(w, 0, dom_pool_tempo(n, left));
	b->room[side] = (cells - waste) / 2;
	fs = s;
	fr = b->room[side];
	if (freek)
		dom_plan_try(&fs, &fr, cells, s + 1, waste);
	if (n > 0)
		dom_plan_try(&fs, &fr, cells, base + 1 +
		    dom_pool_kept(n - 1, left),
		    dom_pool_waste(n - 1, q - (q == n), left) +
		    dom_options_waste(w, 0, dom_pool_tempo(n - 1, left)));
	if (left)
		dom_plan_try(&fs, &fr, cells, base + n / 2 + 2,
		    dom_pool_waste(n, q, 0) +
		    dom_options_waste(w, 0, dom_pool_tempo(n, 0)));
	if (top > 0)
		dom_plan_try(&fs, &fr, cells, s, dom_pool_waste(n, q, left) +
		    top + dom_options_waste(w, 1, dom_pool_tempo(n, left)));
	b->first_sure[side] = fs;
	b->first_room[side] = fr;
}

/* Both: every count of the reserve. */
DOM_INLINE void
dom_reserve_plan(struct cg_move_bounds *b, int side, uint32_t safe,
    uint32_t areas, uint32_t n, uint32_t q, const uint32_t w[4],
    uint32_t cells, int free, int freek)
{
	dom_reserve_first(b, side, safe, areas, n, free);
	dom_reserve_room(b, side, safe, areas, n, q, w, cells, freek);
}

/* Most moves of the player of lines line[0..nl) (dom_alone): each run
 * alone, floor(run / 2) dominoes. */
DOM_INLINE uint32_t
dom_bits_most(const uint64_t *line, int nl)
{
	uint32_t most = 0;
	int a;

	for (a = 0; a < nl; a++)
		most += (uint32_t)dom_pop(dom_pair_firsts(line[a]));
	return most;
}

/* What counting one side's first reserve leaves for the rest of its
 * counts (dom_bits_side_room) and for its second reserve. */
struct dom_work {
	uint64_t sm[64];        /* the safe dominoes' cells, by line */
	uint64_t used[64];      /* the protective areas' cells */
	uint64_t guard[64];     /* the empty cells beyond them */
	uint64_t pk[64];        /* the pool's cells */
	uint64_t free_k[64];    /* cells of no reserve the opponent can cover */
	uint32_t areas;
	uint32_t pool, pprot;   /* the pool's dominoes, those with a proof cell */
	uint32_t cells;         /* those the opponent can cover or a reserve holds */
};

/*
 * dom_guaranteed and dom_alone on bit lines: line[a] holds the empty
 * cells of line a of the player's view (bit b = cell b along it, at most
 * 64), nl lines.  The same passes in the same order, so the same counts.
 * wk keeps what dom_bits_side_slots needs for dom_slots's reserve
 * (cg.move-counts keeps whichever is sure of more; the bit search's
 * settle takes a verdict from either, the second only when the first
 * gives none).
 * The protective areas come first (dom_bits_areas); *deny gets the moves
 * their pairs take from the opponent's most, which the caller subtracts.
 * This first step sets most, safe, sure and first; dom_bits_side_room
 * adds the options and what they waste.
 */
DOM_INLINE void
dom_bits_side_first(const uint64_t *line, int nl, struct cg_move_bounds *b,
    int side, struct dom_work *wk, uint32_t *deny)
{
	uint32_t safe = 0, pool = 0, cells = 0, most = 0, areas, pprot = 0;
	uint64_t e, p, run, keep, marks, open = 0, avail, picks, smask, rest;
	uint64_t *sm = wk->sm, *used = wk->used, *pk = wk->pk;
	int a, first, last, free = 0;

	areas = dom_bits_areas(line, nl, used, wk->guard);
	for (a = 0; a < nl; a++) {
		e = line[a];
		p = e & ~(a > 0 ? line[a - 1] : 0) &
		    ~(a + 1 < nl ? line[a + 1] : 0);
		/* most: each run alone, floor(run / 2) dominoes */
		most += (uint32_t)dom_pop(dom_pair_firsts(e));
		/* safe: runs of proof cells, an odd one less its last cell,
		 * or its first when only the cell before it is empty */
		smask = 0;
		/* the runs of two cells or more (most proof cells are alone) */
		for (uint64_t x = p & (p << 1 | p >> 1); x != 0; x &= ~run) {
			run = x & ~(x + (x & -x));
			first = __builtin_ctzll(run);
			last = 63 - __builtin_clzll(run);
			keep = run;
			if (dom_pop(run) % 2 == 1) {
				int after = last < 63 && (e >> (last + 1) & 1);
				int before = first > 0 && (e >> (first - 1) & 1);

				keep &= ~((uint64_t)1 << (!after && before ?
				    first : last));
			}
			smask |= keep;
			safe += (uint32_t)dom_pop(keep) / 2;
		}
		sm[a] = smask;
		/* pool: pairs of free cells, an open one never across from
		 * an open pool cell of the line before; guard cells too (see
		 * dom_bits_areas) */
		avail = e & ~smask & ~used[a] & (p | ~open);
		picks = dom_pair_firsts(avail);
		pprot += (uint32_t)dom_pop(picks & (p | p >> 1));
		picks |= picks << 1;
		pk[a] = picks;
		pool += (uint32_t)dom_pop(picks) / 2;
		open = picks & ~p;
		marks = smask | picks | used[a];
		cells += (uint32_t)dom_pop(e & (marks | ~p));
		rest = e & ~marks;
		free |= (rest & rest >> 1) != 0;
		wk->free_k[a] = rest & ~p;
	}
	b->most[side] = most;
	b->safe[side] = safe;
	dom_reserve_first(b, side, safe, areas, pool, free);
	*deny = areas / 2 * 2;
	wk->areas = areas;
	wk->pool = pool;
	wk->pprot = pprot;
	wk->cells = cells;
}

/* The rest of dom_bits_side_first's counts into b: the safe options
 * (dom_bits_options), room, first_sure and first_room. */
DOM_INLINE void
dom_bits_side_room(const uint64_t *line, int nl, struct cg_move_bounds *b,
    int side, const struct dom_work *wk)
{
	uint64_t opt[64], rest;
	uint32_t w[4];
	int a, freek = 0;

	dom_bits_options(line, nl, wk->sm, wk->pk, wk->used, wk->guard, opt,
	    w);
	/* a free domino for the room test: on cells the opponent could
	 * cover, none an option's or across from one */
	for (a = 0; a < nl && !freek; a++) {
		rest = wk->free_k[a] & ~opt[a] & ~(a > 0 ? opt[a - 1] : 0) &
		    ~(a + 1 < nl ? opt[a + 1] : 0);
		freek = (rest & rest >> 1) != 0;
	}
	dom_reserve_room(b, side, b->safe[side], wk->areas, wk->pool,
	    wk->pprot, w, wk->cells, freek);
}

/* Both steps: every count of the side's first reserve. */
DOM_INLINE void
dom_bits_side(const uint64_t *line, int nl, struct cg_move_bounds *b,
    int side, struct dom_work *wk, uint32_t *deny)
{
	dom_bits_side_first(line, nl, b, side, wk, deny);
	dom_bits_side_room(line, nl, b, side, wk);
}

/* The second reserve's counts of the side dom_bits_side counted into b
 * (with wk), into sl. */
DOM_INLINE void
dom_bits_side_slots(const uint64_t *line, int nl, const struct dom_work *wk,
    const struct cg_move_bounds *b, struct cg_move_bounds *sl, int side)
{
	sl->most[side] = b->most[side];
	sl->safe[side] = b->safe[side];
	dom_bits_slots(line, nl, wk->sm, wk->used, wk->guard, wk->areas, sl,
	    side);
}

#endif
