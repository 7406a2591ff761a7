/*
 * test_domreserve - the arithmetic of Domineering's reserve
 * (plugins/domineering/dom.h) against exhaustive play of the games of
 * counts it stands for.  The counts' claims rest on these: a wrong
 * formula here is a wrong outcome there.
 *
 * The pool: n dominoes no opposing domino can break two of, q of them
 * with a proof cell, and perhaps one protective area left over.  Each
 * turn the opponent breaks a pool domino (its proof cell, if any, is
 * then wasted), or touches the area (across its two lines: both its
 * dominoes gone; from its guard line: the area's other domino stays as a
 * pool domino with a proof cell, perhaps in place of a pool domino the
 * same opposing domino broke on the guard cell), or lets the player have
 * everything left.  The player then plays a pool domino, enters the
 * area (a move, and a safe one after it), or plays elsewhere.  The
 * score is 4 per player move plus 1 per wasted cell, what the room test
 * counts; the opponent minimises it, the player maximises it.
 *
 * The slots: one of type 1 (an opposing domino breaks at most that one)
 * and two of type 2 (one breaks at most two); the score is the player's
 * moves.
 */
#include <stdint.h>
#include <string.h>

#include "dom.h" /* plugins/domineering/ */
#include "tap.h"

#define N 14

static int memo[N + 2][N + 2][2];

/* The pool's game with the opponent to move: n0 dominoes without a
 * proof cell, n1 with one, ar the area left over. */
static int pool_game(int n0, int n1, int ar);

static int
pool_answer(int n0, int n1, int ar)
{
	int best = pool_game(n0, n1, ar), v;

	if (n0 > 0 && (v = 4 + pool_game(n0 - 1, n1, ar)) > best)
		best = v;
	if (n1 > 0 && (v = 4 + pool_game(n0, n1 - 1, ar)) > best)
		best = v;
	if (ar && (v = 8 + pool_game(n0, n1, 0)) > best)
		best = v;
	return best;
}

static int
pool_game(int n0, int n1, int ar)
{
	int *m = &memo[n0][n1][ar], best, v;

	if (*m != 0)
		return *m - 1;
	best = 4 * (n0 + n1) + 8 * ar;
#define TRY(w, a, b, c) \
	if ((v = (w) + pool_answer(a, b, c)) < best) best = v
	if (n0 > 0)
		TRY(0, n0 - 1, n1, ar);
	if (n1 > 0)
		TRY(1, n0, n1 - 1, ar);
	if (ar) {
		TRY(0, n0, n1, 0);
		TRY(0, n0, n1 + 1, 0);
		if (n0 > 0)
			TRY(0, n0 - 1, n1 + 1, 0);
		if (n1 > 0)
			TRY(1, n0, n1, 0);
	}
#undef TRY
	*m = best + 1;
	return best;
}

/* p = c with one fewer of kind k; 0 when c has none. */
static int
one_fewer(const int c[4], int k, int p[4])
{
	if (c[k] == 0)
		return 0;
	memcpy(p, c, 4 * sizeof *p);
	p[k]--;
	return 1;
}

/*
 * The pool's game with the safe options: o[k] options wasting k cells
 * when played.  The opponent may also block an option (a domino on its
 * cell: nothing wasted, nothing else touched); the player may play an
 * option (its safe domino shifted: the waste), and takes the rest when
 * the opponent stops.  opt_y: the opponent to move; opt_x: the player.
 */
#define ON 7    /* pool dominoes, each kind */
#define OK 3    /* options of each weight */
static int omemo[2][ON + 2][ON + 2][2][OK + 1][OK + 1][OK + 1];

static int opt_y(int n0, int n1, int ar, const int o[4]);

static int
opt_x(int n0, int n1, int ar, const int o[4])
{
	int *m = &omemo[1][n0][n1][ar][o[1]][o[2]][o[3]], best, v, k, p[4];

	if (*m != 0)
		return *m - 1;
	best = opt_y(n0, n1, ar, o);
	if (n0 > 0 && (v = 4 + opt_y(n0 - 1, n1, ar, o)) > best)
		best = v;
	if (n1 > 0 && (v = 4 + opt_y(n0, n1 - 1, ar, o)) > best)
		best = v;
	if (ar && (v = 8 + opt_y(n0, n1, 0, o)) > best)
		best = v;
	for (k = 1; k <= 3; k++)
		if (one_fewer(o, k, p) && (v = k + opt_y(n0, n1, ar, p)) > best)
			best = v;
	*m = best + 1;
	return best;
}

static int
opt_y(int n0, int n1, int ar, const int o[4])
{
	int *m = &omemo[0][n0][n1][ar][o[1]][o[2]][o[3]], best, v, k, p[4];

	if (*m != 0)
		return *m - 1;
	best = 4 * (n0 + n1) + 8 * ar + o[1] + 2 * o[2] + 3 * o[3];
#define TRY(w, a, b, c, oo) \
	if ((v = (w) + opt_x(a, b, c, oo)) < best) best = v
	if (n0 > 0)
		TRY(0, n0 - 1, n1, ar, o);
	if (n1 > 0)
		TRY(1, n0, n1 - 1, ar, o);
	if (ar) {
		TRY(0, n0, n1, 0, o);
		TRY(0, n0, n1 + 1, 0, o);
		if (n0 > 0)
			TRY(0, n0 - 1, n1 + 1, 0, o);
		if (n1 > 0)
			TRY(1, n0, n1, 0, o);
	}
	for (k = 1; k <= 3; k++)
		if (one_fewer(o, k, p))
			TRY(0, n0, n1, ar, p);
#undef TRY
	*m = best + 1;
	return best;
}

/* The counts' value of the game as dom.h reckons it: 4 moves + waste. */
static int
opt_counted(int n, int q, int ar, const int o[4], uint32_t skip)
{
	uint32_t w[4] = { 0, (uint32_t)o[1], (uint32_t)o[2], (uint32_t)o[3] };

	return 4 * (int)dom_pool_kept((uint32_t)n, (uint32_t)ar) +
	    (int)dom_pool_waste((uint32_t)n, (uint32_t)q, (uint32_t)ar) +
	    (int)dom_options_waste(w, skip, dom_pool_tempo((uint32_t)n,
	    (uint32_t)ar));
}

/* One game of the options' check: 1 when the counts miss its value
 * (bit 0: the opponent to move, bit 1: the player). */
static int
option_game(int n, int q, int ar, const int o[4])
{
	uint32_t w[4] = { 0, (uint32_t)o[1], (uint32_t)o[2], (uint32_t)o[3] };
	int best, v, top = (int)dom_options_top(w), miss = 0;

	if (opt_y(n - q, q, ar, o) != opt_counted(n, q, ar, o, 0))
		miss |= 1;
	/* moving first: the best of nothing special, a pool domino (one
	 * without a proof cell if there is one), the area (two moves), or
	 * the heaviest option */
	best = opt_counted(n, q, ar, o, 0);
	if (n > 0 && (v = 4 + opt_counted(n - 1, q - (q == n), ar, o, 0)) >
	    best)
		best = v;
	if (ar && (v = 8 + opt_counted(n, q, 0, o, 0)) > best)
		best = v;
	if (top > 0 && (v = top + opt_counted(n, q, ar, o, 1)) > best)
		best = v;
	if (best != opt_x(n - q, q, ar, o))
		miss |= 2;
	return miss;
}

static void
test_options(void)
{
	int n, q, ar, o[4] = { 0 }, miss = 0, tried = 0;

	for (ar = 0; ar < 2; ar++)
		for (n = 0; n <= 6; n++)
			for (q = 0; q <= n; q++)
				for (o[1] = 0; o[1] <= OK; o[1]++)
					for (o[2] = 0; o[2] <= OK; o[2]++)
						for (o[3] = 0; o[3] <= OK;
						    o[3]++, tried++)
							miss |= option_game(n,
							    q, ar, o);
	ok(!(miss & 1), "with safe options too, the counts are the game's "
	    "value (%d games: pool up to 6, 3 options of each weight)",
	    tried);
	ok(!(miss & 2), "moving first, the best of the first moves counted "
	    "is the game's value");
}

static int slot_memo[3 * N][3 * N];

/* Slots kept with the opponent to move. */
static int
slot_game(int one, int two)
{
	int *m = &slot_memo[one][two], best = one + two, k, a, b, v, w;

	if (*m != 0)
		return *m - 1;
	/* the opponent breaks one of type 1 (k = 3), or k of type 2, or
	 * lets the player have them all; the player then plays one of
	 * either, or elsewhere */
	for (k = 0; k <= 3; k++) {
		a = one - (k == 3);
		b = two - (k < 3 ? k : 0);
		if (k == 0 || a < 0 || b < 0)
			continue;
		v = slot_game(a, b);
		if (a > 0 && (w = 1 + slot_game(a - 1, b)) > v)
			v = w;
		if (b > 0 && (w = 1 + slot_game(a, b - 1)) > v)
			v = w;
		if (v < best)
			best = v;
	}
	*m = best + 1;
	return best;
}

/*
 * The slots' game for the room test: p1 and q1 of type 1 without and
 * with a proof cell, p2 and q2 of type 2, o[k] safe options wasting k
 * cells.  The opponent breaks one of type 1, or one or two of type 2
 * (a proof cell of each wasted), or blocks an option, or lets the
 * player have everything; the player then plays a slot or an option,
 * or elsewhere.  The score is 4 per player move plus 1 per wasted cell.
 */
#define S1 7    /* slots of type 1, each kind */
#define S2 9    /* of type 2 */
#define SO 2    /* options of each weight */
static int smemo[2][S1 + 1][S1 + 1][S2 + 1][S2 + 1][SO + 1][SO + 1][SO + 1];

static int sl_y(const int s[4], const int o[4]);

static int
sl_x(const int s[4], const int o[4])
{
	int *m = &smemo[1][s[0]][s[1]][s[2]][s[3]][o[1]][o[2]][o[3]], best,
	    v, k, t[4], p[4];

	if (*m != 0)
		return *m - 1;
	best = sl_y(s, o);
	for (k = 0; k < 4; k++)
		if (one_fewer(s, k, t) && (v = 4 + sl_y(t, o)) > best)
			best = v;
	for (k = 1; k <= 3; k++)
		if (one_fewer(o, k, p) && (v = k + sl_y(s, p)) > best)
			best = v;
	*m = best + 1;
	return best;
}

static int
sl_y(const int s[4], const int o[4])
{
	int *m = &smemo[0][s[0]][s[1]][s[2]][s[3]][o[1]][o[2]][o[3]], best,
	    v, k, a, b, t[4], p[4];

	if (*m != 0)
		return *m - 1;
	best = 4 * (s[0] + s[1] + s[2] + s[3]) + o[1] + 2 * o[2] + 3 * o[3];
	for (k = 0; k < 2; k++)
		if (one_fewer(s, k, t) && (v = k + sl_x(t, o)) < best)
			best = v;
	/* a plain ones and b with a proof cell of type 2 at once */
	for (a = 0; a <= 2; a++)
		for (b = 0; a + b <= 2; b++) {
			if (a + b == 0 || a > s[2] || b > s[3])
				continue;
			memcpy(t, s, sizeof t);
			t[2] -= a;
			t[3] -= b;
			if ((v = b + sl_x(t, o)) < best)
				best = v;
		}
	for (k = 1; k <= 3; k++)
		if (one_fewer(o, k, p) && (v = sl_x(s, p)) < best)
			best = v;
	*m = best + 1;
	return best;
}

static void
test_slots_room(void)
{
	int s[4], o[4] = { 0 }, one, q1, two, q2, over = 0, exact = 0,
	    tried = 0, v, c;
	uint32_t w[4] = { 0 };

	for (one = 0; one <= S1; one++)
		for (q1 = 0; q1 <= one; q1++)
			for (two = 0; two <= S2; two++)
				for (q2 = 0; q2 <= two; q2++)
					for (o[1] = 0; o[1] <= SO; o[1]++)
						for (o[2] = 0; o[2] <= SO; o[2]++)
							for (o[3] = 0; o[3] <= SO;
							    o[3]++, tried++) {
		s[0] = one - q1;
		s[1] = q1;
		s[2] = two - q2;
		s[3] = q2;
		for (c = 1; c <= 3; c++)
			w[c] = (uint32_t)o[c];
		v = sl_y(s, o);
		c = 4 * (int)dom_slots_kept((uint32_t)one, (uint32_t)two) +
		    (int)dom_slots_waste((uint32_t)one, (uint32_t)q1,
		    (uint32_t)two, (uint32_t)q2, w, 0);
		over += c > v;
		exact += c == v;
	}
	ok(over == 0, "the slots' moves and waste, with safe options, never "
	    "pass their game's value (%d games: 7 of type 1, 9 of type 2, 2 "
	    "options of each weight; %d exact)", tried, exact);
}

int
main(void)
{
	int n, q, ar, bad_keep = 0, bad_first = 0, bad_slots = 0, one, two,
	    first, v;

	for (ar = 0; ar < 2; ar++)
		for (n = 0; n <= 12; n++)
			for (q = 0; q <= n; q++) {
				int want = pool_game(n - q, q, ar);

				if (want != 4 * (int)dom_pool_kept((uint32_t)n,
				    (uint32_t)ar) + (int)dom_pool_waste(
				    (uint32_t)n, (uint32_t)q, (uint32_t)ar))
					bad_keep++;
				if (n == 0)
					continue;
				/* a pool domino first, one without a proof
				 * cell if there is one */
				first = q < n ? 4 + pool_game(n - q - 1, q, ar) :
				    4 + pool_game(0, q - 1, ar);
				v = q > 0 ? 4 + pool_game(n - q, q - 1, ar) : 0;
				if (v > first || first != 4 + 4 *
				    (int)dom_pool_kept((uint32_t)n - 1,
				    (uint32_t)ar) + (int)dom_pool_waste(
				    (uint32_t)n - 1, (uint32_t)(q - (q == n)),
				    (uint32_t)ar))
					bad_first++;
			}
	ok(bad_keep == 0, "the pool's moves and waste, with and without an "
	    "area left over, are its game's value (n up to 12)");
	ok(bad_first == 0, "moving first, a pool domino without a proof cell "
	    "is best, and its value is as counted");
	for (one = 0; one <= 12; one++)
		for (two = 0; two <= 15; two++) {
			v = slot_game(one, two);
			first = 0;
			if (one > 0 && 1 + slot_game(one - 1, two) > first)
				first = 1 + slot_game(one - 1, two);
			if (two > 0 && 1 + slot_game(one, two - 1) > first)
				first = 1 + slot_game(one, two - 1);
			if (v != (int)dom_slots_kept((uint32_t)one,
			    (uint32_t)two) || (one + two > 0 && first != v +
			    dom_slots_first((uint32_t)one, (uint32_t)two)))
				bad_slots++;
		}
	ok(bad_slots == 0, "slots kept, and kept moving first, are their "
	    "game's value (12 of type 1, 15 of type 2)");
	test_options();
	test_slots_room();
	return tap_done();
}
