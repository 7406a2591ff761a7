/*
 * test_retro.c - retrograde analysis of loopy games and generalized
 * Sprague-Grundy values (solve/retro.h).
 *
 * Expected values come from a brute force written here: the outcome of
 * every position by iterating the definitions (a player without a move
 * has lost in 0; one with an option lost for the opponent wins in one
 * more than the shortest such; one whose every option is won for the
 * opponent loses in one more than the longest; the rest are draws) from
 * "all drawn" to a fixed point, and the generalized Sprague-Grundy value
 * g(u) through its defining property (Smith 1966): u + *m is a loss for
 * the player to move exactly when g(u) = m, and for g(u) = inf(K),
 * u + *k is a win when k is in K and a draw otherwise.  Hand examples
 * are worked in the comments.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "solve/retro.h"
#include "tap.h"

/* A graph built edge by edge, sides 0 and 1. */
struct g {
	uint32_t n, ne[2];
	uint32_t from[2][256], to[2][256];
	uint32_t off[2][65], row[2][256];
	struct cg_retro_graph rg;
};

static void
g_init(struct g *g, uint32_t n)
{
	memset(g, 0, sizeof *g);
	g->n = n;
}

static void
g_edge(struct g *g, int s, uint32_t x, uint32_t y)
{
	g->from[s][g->ne[s]] = x;
	g->to[s][g->ne[s]++] = y;
}

static const struct cg_retro_graph *
g_done(struct g *g)
{
	uint32_t x, k, m;
	int s;

	for (s = 0; s < 2; s++) {
		m = 0;
		for (x = 0; x < g->n; x++) {
			g->off[s][x] = m;
			for (k = 0; k < g->ne[s]; k++)
				if (g->from[s][k] == x)
					g->row[s][m++] = g->to[s][k];
		}
		g->off[s][g->n] = m;
		g->rg.off[s] = g->off[s];
		g->rg.to[s] = g->row[s];
	}
	g->rg.n = g->n;
	return &g->rg;
}

/* ---- the brute force: res/rem of (x, side to move) by iteration */

static void
brute(const struct g *g, int impartial, int *res, uint32_t *rem)
{
	int nres[2 * 64];
	uint32_t nrem[2 * 64], x, k;
	int s, changed;

	for (x = 0; x < 2 * g->n; x++) {
		res[x] = 0;
		rem[x] = 0;
	}
	do {
		changed = 0;
		for (x = 0; x < g->n; x++)
			for (s = 0; s < 2; s++) {
				int ms = impartial ? 0 : s, t = impartial ? 0 : !s;
				int anyloss = 0, allwin = 1, deg = 0;
				uint32_t lo = UINT32_MAX, hi = 0;

				for (k = 0; k < g->ne[ms]; k++) {
					uint32_t y = g->to[ms][k], c;

					if (g->from[ms][k] != x)
						continue;
					deg++;
					c = 2 * y + (uint32_t)t;
					if (res[c] < 0) {
						anyloss = 1;
						if (rem[c] < lo)
							lo = rem[c];
					}
					if (res[c] > 0) {
						if (rem[c] > hi)
							hi = rem[c];
					} else
						allwin = 0;
				}
				if (anyloss) {
					nres[2 * x + s] = 1;
					nrem[2 * x + s] = lo + 1;
				} else if (allwin) {
					nres[2 * x + s] = -1;
					nrem[2 * x + s] = deg ? hi + 1 : 0;
				} else {
					nres[2 * x + s] = 0;
					nrem[2 * x + s] = 0;
				}
			}
		for (x = 0; x < 2 * g->n; x++) {
			if (nres[x] != res[x] || nrem[x] != rem[x])
				changed = 1;
			res[x] = nres[x];
			rem[x] = nrem[x];
		}
	} while (changed);
}

static uint32_t seed = 12345;

static uint32_t
rnd(uint32_t n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) % n;
}

static void
random_graph(struct g *g, uint32_t n, uint32_t edges, int sides)
{
	uint32_t k;
	int s;

	g_init(g, n);
	for (s = 0; s < sides; s++)
		for (k = 0; k < edges; k++)
			g_edge(g, s, rnd(n), rnd(n));
}

/* Retrograde against the brute force on random partizan graphs. */
static void
test_random_outcomes(void)
{
	struct g g;
	int res[128], bad = 0, t;
	uint32_t rem[128], x;

	for (t = 0; t < 300; t++) {
		const struct cg_retro_graph *rg;
		struct cg_retro *r;
		int s;

		random_graph(&g, 1 + rnd(12), rnd(30), 2);
		rg = g_done(&g);
		r = cg_retro_solve(rg);
		brute(&g, 0, res, rem);
		for (x = 0; x < g.n; x++)
			for (s = 0; s < 2; s++)
				if (r->res[s][x] != res[2 * x + s] ||
				    (res[2 * x + s] != 0 &&
				    r->rem[s][x] != rem[2 * x + s]))
					bad++;
		cg_retro_free(r);
	}
	is_int(bad, 0, "300 random loopy partizan graphs: result and "
	    "remoteness as the brute force");
}

/* Hand examples of classes and remoteness. */
static void
test_hand(void)
{
	struct g g;
	struct cg_retro *r;
	struct cg_buf b;

	/* 0: no moves (P).  1: Left and Right move to 0 (N, w1 w1).
	 * 2: Left moves to 3, Right to 0: Left moving first reaches a
	 * draw at best, Right moving first wins in 1: NCheck.
	 * 3: Left to 3, Right to 3: a draw both ways, D.
	 * 4: Left to 1 (where Right wins in 1), Right none: Left moving
	 * first loses in 2, Right moving first loses in 0: P. */
	g_init(&g, 5);
	g_edge(&g, 0, 1, 0);
	g_edge(&g, 1, 1, 0);
	g_edge(&g, 0, 2, 3);
	g_edge(&g, 1, 2, 0);
	g_edge(&g, 0, 3, 3);
	g_edge(&g, 1, 3, 3);
	g_edge(&g, 0, 4, 1);
	r = cg_retro_solve(g_done(&g));
	is_str(cg_retro_class(r, 0), "P", "no moves: P");
	is_str(cg_retro_class(r, 1), "N", "{0|0}: N");
	is_str(cg_retro_class(r, 2), "NCheck", "{a|0} with a{a|a}: NCheck");
	is_str(cg_retro_class(r, 3), "D", "a{a|a}: D");
	is_str(cg_retro_class(r, 4), "P", "{*|}: P");
	cg_buf_init(&b);
	cg_retro_remoteness_text(r, 2, &b);
	is_str(cg_buf_str(&b), "d w1", "NCheck node: remoteness d w1");
	b.len = 0;
	cg_retro_remoteness_text(r, 4, &b);
	is_str(cg_buf_str(&b), "l2 l0", "{*|}: remoteness l2 l0");
	cg_buf_free(&b);
	cg_retro_free(r);

	/* Right moving first in 0 -> Left at 1 -> ... a pass-like pair:
	 * 0 Left to 1; 1 Right to 0; only Left ever moves from 0 and only
	 * Right from 1, so 0 with Right to move and 1 with Left to move
	 * are losses in 0, and 0 with Left to move goes to 1 with Right to
	 * move, then 0 with Left to move again: a draw.  Classes: 0 is
	 * PHat (Left first draws, Right first loses for Right), 1 is
	 * PCheck. */
	g_init(&g, 2);
	g_edge(&g, 0, 0, 1);
	g_edge(&g, 1, 1, 0);
	r = cg_retro_solve(g_done(&g));
	is_str(cg_retro_class(r, 0), "PHat", "two-node cycle: PHat");
	is_str(cg_retro_class(r, 1), "PCheck", "two-node cycle: PCheck");
	cg_retro_free(r);

	/* Remoteness: the loser delays.  0 terminal; 1 -> 0; 2 -> 1;
	 * 3 -> {0, 2} impartially (both sides alike): 1 is w1, 2 is l2,
	 * 3 wins in 1 (to 0) rather than 3 (to 2); 4 -> {1, 3}: all wins,
	 * the loser picks the longer, l2 (both w1, so 1 + 1 = 2). 5 ->
	 * {4}: w3. */
	g_init(&g, 6);
	{
		static const uint32_t e[][2] = { {1, 0}, {2, 1}, {3, 0},
		    {3, 2}, {4, 1}, {4, 3}, {5, 4} };
		size_t i;
		int s;

		for (s = 0; s < 2; s++)
			for (i = 0; i < sizeof e / sizeof e[0]; i++)
				g_edge(&g, s, e[i][0], e[i][1]);
	}
	r = cg_retro_solve(g_done(&g));
	is_int(r->res[0][3] * (int)r->rem[0][3], 1, "winner hurries: w1");
	is_int(r->res[0][4] * (int)r->rem[0][4], -2, "loser delays: l2");
	is_int(r->res[0][5] * (int)r->rem[0][5], 3, "w3 above it");
	cg_retro_free(r);
}

/* The brute force of g(u): outcomes of u + *k in the product graph. */
static void
brute_gsg_check(const struct g *g, const struct cg_gsg *v, int *bad)
{
	uint32_t kmax = g->n + 2, x, y, k, j, e;
	struct g *p = calloc(1, sizeof *p);
	int res[128];
	uint32_t rem[128];

	for (x = 0; x < g->n; x++) {
		struct cg_gsg_value a = cg_gsg_of(v, x);
		uint32_t found = CG_GSG_INF;

		for (k = 0; k < kmax; k++) {
			int r0, inK = 0;

			/* u + *k: nodes (y, h) as y * (k + 1) + h for
			 * the nodes y reachable or not, heaps h <= k */
			if (g->n * (k + 1) > 64)
				break;
			g_init(p, g->n * (k + 1));
			for (y = 0; y < g->n; y++)
				for (j = 0; j <= k; j++) {
					uint32_t h;

					for (e = 0; e < g->ne[0]; e++)
						if (g->from[0][e] == y)
							g_edge(p, 0, y * (k + 1) + j,
							    g->to[0][e] * (k + 1) + j);
					for (h = 0; h < j; h++)
						g_edge(p, 0, y * (k + 1) + j,
						    y * (k + 1) + h);
				}
			if (p->ne[0] > 256)
				break;
			g_done(p);
			brute(p, 1, res, rem);
			r0 = res[2 * (x * (k + 1) + k)];
			if (r0 < 0 && found == CG_GSG_INF)
				found = k;
			for (j = 0; j < a.nk; j++)
				if (a.k[j] == k)
					inK = 1;
			if (a.v == CG_GSG_INF && r0 != (inK ? 1 : 0))
				(*bad)++;
		}
		if (k == kmax && found != a.v)
			(*bad)++;
	}
	free(p);
}

static void
test_random_gsg(void)
{
	struct g g;
	int bad = 0, t;

	for (t = 0; t < 200; t++) {
		struct cg_gsg *v;

		random_graph(&g, 1 + rnd(5), rnd(9), 1);
		g_done(&g);
		v = cg_gsg_solve(&g.rg);
		brute_gsg_check(&g, v, &bad);
		cg_gsg_free(v);
	}
	is_int(bad, 0, "200 random loopy impartial graphs: g(u) as u + *k "
	    "plays");
}

/* The sum rule against the values of the product graph. */
static void
test_sums(void)
{
	struct g a, b, p;
	int bad = 0, t;
	uint32_t x, y, e;

	for (t = 0; t < 200; t++) {
		struct cg_gsg *va, *vb, *vp;

		random_graph(&a, 1 + rnd(6), rnd(10), 1);
		random_graph(&b, 1 + rnd(6), rnd(10), 1);
		g_done(&a);
		g_done(&b);
		g_init(&p, a.n * b.n);
		for (x = 0; x < a.n; x++)
			for (y = 0; y < b.n; y++) {
				for (e = 0; e < a.ne[0]; e++)
					if (a.from[0][e] == x)
						g_edge(&p, 0, x * b.n + y,
						    a.to[0][e] * b.n + y);
				for (e = 0; e < b.ne[0]; e++)
					if (b.from[0][e] == y)
						g_edge(&p, 0, x * b.n + y,
						    x * b.n + b.to[0][e]);
			}
		g_done(&p);
		va = cg_gsg_solve(&a.rg);
		vb = cg_gsg_solve(&b.rg);
		vp = cg_gsg_solve(&p.rg);
		for (x = 0; x < a.n; x++)
			for (y = 0; y < b.n; y++) {
				struct cg_gsg_value s = cg_gsg_add(
				    cg_gsg_of(va, x), cg_gsg_of(vb, y));
				struct cg_gsg_value w = cg_gsg_of(vp,
				    x * b.n + y);

				if (s.v != w.v || s.nk != w.nk ||
				    (s.nk && memcmp(s.k, w.k, s.nk *
				    sizeof *s.k) != 0))
					bad++;
				free(s.k);
			}
		cg_gsg_free(va);
		cg_gsg_free(vb);
		cg_gsg_free(vp);
	}
	is_int(bad, 0, "200 random pairs: the sum rule gives the product's "
	    "values");
}

static void
test_gsg_hand(void)
{
	struct g g;
	struct cg_gsg *v;
	struct cg_buf b;
	static const char *const want[] = { "0", "1", "inf(0)", "inf",
	    "inf(1)", "2" };
	uint32_t x;

	/* 0 terminal: 0.  1 -> 0: 1.  2 -> {0, 2}: it can stop at 0 or
	 * loop: inf(0).  3 -> 3: inf.  4 -> {1, 3}: 1 is finite and 3
	 * infinite with 0 not in its K, so 3 does not reverse out through
	 * 0... 4 has no option 0, so mex is 0, but option 3 (infinite) has
	 * no option of value 0: inf(1).  5 -> {0, 1}: 2. */
	g_init(&g, 6);
	g_edge(&g, 0, 1, 0);
	g_edge(&g, 0, 2, 0);
	g_edge(&g, 0, 2, 2);
	g_edge(&g, 0, 3, 3);
	g_edge(&g, 0, 4, 1);
	g_edge(&g, 0, 4, 3);
	g_edge(&g, 0, 5, 0);
	g_edge(&g, 0, 5, 1);
	v = cg_gsg_solve(g_done(&g));
	cg_buf_init(&b);
	for (x = 0; x < 6; x++) {
		b.len = 0;
		cg_gsg_text(cg_gsg_of(v, x), &b);
		is_str(cg_buf_str(&b), want[x], "hand graph node %u", x);
	}
	cg_buf_free(&b);
	cg_gsg_free(v);
}

/* A path of 200000 nodes, i -> i + 1, and a loop from the end of a
 * second copy back to its start: along the path the values alternate
 * 0, 1 from the end (mex of one option) and the remoteness is the
 * distance to the end; the loop is drawn everywhere, inf.  Labelling in
 * index order would need a pass per node here. */
static void
test_long(void)
{
	enum { N = 200000 };
	uint32_t *off = calloc(2 * N + 1, sizeof *off);
	uint32_t *to = calloc(2 * N, sizeof *to), x, m = 0, bad = 0;
	struct cg_retro_graph g;
	struct cg_retro *r;
	struct cg_gsg *v;

	for (x = 0; x < 2 * N; x++) {
		off[x] = m;
		if (x < N - 1 || (x >= N && x < 2 * N - 1))
			to[m++] = x + 1;
		else if (x == 2 * N - 1)
			to[m++] = N;
	}
	off[2 * N] = m;
	g.n = 2 * N;
	g.off[0] = g.off[1] = off;
	g.to[0] = g.to[1] = to;
	v = cg_gsg_solve(&g);
	r = cg_retro_solve(&g);
	for (x = 0; x < N; x++) {
		uint32_t d = N - 1 - x;

		if (v->val[x] != d % 2 || v->val[N + x] != CG_GSG_INF ||
		    r->rem[0][x] != d || r->res[1][x] != (d % 2 ?
		    CG_RETRO_WIN : CG_RETRO_LOSS) ||
		    r->res[0][N + x] != CG_RETRO_DRAW)
			bad++;
	}
	is_int(bad, 0, "a path of %d nodes and a cycle of as many", N);
	cg_gsg_free(v);
	cg_retro_free(r);
	free(off);
	free(to);
}

int
main(void)
{
	test_hand();
	test_random_outcomes();
	test_gsg_hand();
	test_random_gsg();
	test_sums();
	test_long();
	return tap_done();
}
