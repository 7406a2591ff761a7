/* lgame_side.c - the onside and offside of a loopy game (lgame.h).
 *
 * A loopy game G that is not a stopper has two sides (Siegel,
 * Combinatorial Game Theory, AMS 2013, ch. VI; Winning Ways, vol. 2,
 * ch. 11): the onside G+, where endless play is a win for Left, and the
 * offside G-, where it is a win for Right.  G is stopper-sided when each
 * side equals a stopper; its value is then written "G+ & G-".
 *
 * Sides are compared in the game of differences H - G (Left survives
 * moving second): for onsides, Left wins an endless play unless it ends
 * up in the G component alone (moves in H go on forever, where endless
 * play is Left's); for offsides, unless it ends up in H alone.  That is
 * a Buchi condition on the moves in one component, solved over the
 * positions the differences reach.
 *
 * The side of G is found by changing G's graph without changing that
 * side (CGSuite's way, Siegel's "Loopy Games and Computation", 2005):
 * moves to on or off settled at once, dominated and reversible options
 * dealt with in the side's order, moves on alternating cycles deleted
 * where they do not matter, and a cycle unravelled (the loser of its
 * endless play may go round it only a few times).  When no alternating
 * cycle is left, the graph is a stopper; its simplest form is the side,
 * and is checked against G in the side's order before it is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/lgame.h"
#include "solve/lgame_int.h"

/* Rounds of changes before giving up, and laps an unravelled cycle
 * keeps (CGSuite tries up to three). */
#define SIDE_ROUNDS 64
#define LAPS 3

/* ------------------------------------------------------------ differences */

/* The positions of A(a) - B(b) reached from some starts: a position is
 * (a, b, mover); Left moves a to a Left option or b to a Right option,
 * Right the other way round.  inA[e] marks a move in A. */
struct diff {
	const struct cg_lgame *A, *B;
	struct lg_map map;
	uint64_t *key;
	uint32_t n, cap;
	uint32_t *off;
	uint32_t *to;
	uint8_t *inA;
	size_t ne, ecap;
};

static uint64_t
dkey(uint32_t a, uint32_t b, int m)
{
	return (uint64_t)a << 33 | (uint64_t)b << 1 | (uint64_t)m;
}

static uint32_t
dstate(struct diff *d, uint32_t a, uint32_t b, int m)
{
	int isnew;
	uint32_t *v = lg_map_get(&d->map, dkey(a, b, m), &isnew);

	if (!isnew)
		return *v;
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 256;
		d->key = cg_xreallocarray(d->key, d->cap, sizeof *d->key);
		d->off = cg_xreallocarray(d->off, d->cap + 1, sizeof *d->off);
	}
	d->key[d->n] = dkey(a, b, m);
	*v = d->n;
	return d->n++;
}

static void
dedge(struct diff *d, uint32_t t, int ina)
{
	if (d->ne == d->ecap) {
		d->ecap = d->ecap ? 2 * d->ecap : 1024;
		d->to = cg_xreallocarray(d->to, d->ecap, sizeof *d->to);
		d->inA = cg_xreallocarray(d->inA, d->ecap, 1);
	}
	d->to[d->ne] = t;
	d->inA[d->ne++] = (uint8_t)ina;
}

/* Explore from the starts already in d; -1 when too large. */
static int
dexplore(struct diff *d)
{
	uint32_t i, k;

	for (i = 0; i < d->n; i++) {
		uint64_t key = d->key[i];
		uint32_t a = (uint32_t)(key >> 33);
		uint32_t b = (uint32_t)(key >> 1) & 0xffffffffu;
		int m = (int)(key & 1);
		const struct cg_lnode *va = &d->A->v[a], *vb = &d->B->v[b];

		if (d->n > 2 * CG_LGAME_MAXPAIRS)
			return -1;
		if ((i & 4095) == 0)
			lg_poll();
		d->off[i] = (uint32_t)d->ne;
		for (k = 0; k < va->nopt[m]; k++)
			dedge(d, dstate(d, va->opt[m][k], b, !m), 1);
		for (k = 0; k < vb->nopt[!m]; k++)
			dedge(d, dstate(d, a, vb->opt[!m][k], !m), 0);
		if (d->ne > UINT32_MAX / 2)
			return -1;
	}
	d->off[d->n] = (uint32_t)d->ne;
	return 0;
}

static void
dfree(struct diff *d)
{
	lg_map_free(&d->map);
	free(d->key);
	free(d->off);
	free(d->to);
	free(d->inA);
}

/* lw[i]: Left wins position i of d, endless play judged by side. */
static uint8_t *
dsolve(const struct diff *d, int side)
{
	uint32_t n = d->n, i, k, h = 0, t = 0;
	int8_t *res = cg_xcalloc(n ? n : 1, 1);
	uint32_t *cnt = cg_xcalloc(n ? n : 1, sizeof *cnt);
	uint32_t *q = cg_xcalloc(n ? n : 1, sizeof *q);
	uint32_t *poff = cg_xcalloc((size_t)n + 2, sizeof *poff);
	uint32_t *pto = cg_xcalloc(d->ne ? d->ne : 1, sizeof *pto);
	uint8_t *lw = cg_xcalloc(n ? n : 1, 1), *w, *at;
	int changed;

	/* predecessors, then retrograde analysis: no move is a loss */
	for (i = 0; i < d->ne; i++)
		poff[d->to[i] + 2]++;
	for (i = 0; i < n; i++)
		poff[i + 2] += poff[i + 1];
	for (i = 0; i < n; i++)
		for (k = d->off[i]; k < d->off[i + 1]; k++)
			pto[poff[d->to[k] + 1]++] = i;
	for (i = 0; i < n; i++) {
		cnt[i] = d->off[i + 1] - d->off[i];
		if (cnt[i] == 0) {
			res[i] = -1;
			q[t++] = i;
		}
	}
	while (h < t) {
		uint32_t x = q[h++];

		for (k = poff[x]; k < poff[x + 1]; k++) {
			uint32_t p = pto[k];

			if (res[p] != 0)
				continue;
			if (res[x] < 0 || --cnt[p] == 0) {
				res[p] = res[x] < 0 ? 1 : -1;
				q[t++] = p;
			}
		}
	}
	for (i = 0; i < n; i++) {
		int m = (int)(d->key[i] & 1);

		lw[i] = m == CG_LEFT ? res[i] > 0 : res[i] < 0;
		if (side == LG_STOPPER && res[i] == 0)
			lw[i] = 1;
	}
	free(cnt);
	free(q);
	free(poff);
	free(pto);
	if (side == LG_STOPPER) {
		free(res);
		return lw;
	}
	/* Buchi: W shrinks to the positions from which Left can force,
	 * again and again, a move in the component whose endless play is
	 * Left's (A for onsides, B for offsides) without leaving W. */
	w = cg_xcalloc(n ? n : 1, 1);
	at = cg_xcalloc(n ? n : 1, 1);
	for (i = 0; i < n; i++)
		w[i] = res[i] == 0;
	for (;;) {
		int lost = 0;

		lg_poll();
		memset(at, 0, n);
		do {
			changed = 0;
			for (i = n; i-- > 0;) {
				int m = (int)(d->key[i] & 1), ok;

				if (!w[i] || at[i])
					continue;
				ok = m != CG_LEFT;
				for (k = d->off[i]; k < d->off[i + 1]; k++) {
					uint32_t y = d->to[k];
					int acc = side == LG_ONSIDE ? d->inA[k] :
					    !d->inA[k];
					int good = w[y] && (acc || at[y]);

					if (m == CG_LEFT && good) {
						ok = 1;
						break;
					}
					if (m != CG_LEFT && !good && !lw[y]) {
						ok = 0;
						break;
					}
				}
				if (ok) {
					at[i] = 1;
					changed = 1;
				}
			}
		} while (changed);
		for (i = 0; i < n; i++)
			if (w[i] && !at[i]) {
				w[i] = 0;
				lost = 1;
			}
		if (!lost)
			break;
	}
	for (i = 0; i < n; i++)
		lw[i] |= w[i];
	free(w);
	free(at);
	free(res);
	return lw;
}

int
lg_side_ge(const struct cg_lgame *A, uint32_t a, const struct cg_lgame *B,
    uint32_t b, int side)
{
	struct diff d;
	uint8_t *lw;
	int r;

	memset(&d, 0, sizeof d);
	d.A = A;
	d.B = B;
	dstate(&d, a, b, CG_RIGHT);
	if (dexplore(&d) < 0) {
		dfree(&d);
		return -1;
	}
	lw = dsolve(&d, side);
	r = lw[0];
	free(lw);
	dfree(&d);
	return r;
}

uint8_t *
lg_side_matrix(const struct cg_lgame *g, const uint32_t *q, uint32_t n,
    int side)
{
	struct diff d;
	uint8_t *lw, *ge;
	uint64_t i;

	if ((uint64_t)n * n > CG_LGAME_MAXPAIRS)
		return NULL;
	memset(&d, 0, sizeof d);
	d.A = d.B = g;
	for (i = 0; i < (uint64_t)n * n; i++)
		dstate(&d, q[i / n], q[i % n], CG_RIGHT);
	if (dexplore(&d) < 0) {
		dfree(&d);
		return NULL;
	}
	lw = dsolve(&d, side);
	ge = cg_xcalloc(n ? (size_t)n * n : 1, 1);
	/* the starts are the first n * n positions, in order */
	memcpy(ge, lw, (size_t)n * n);
	free(lw);
	dfree(&d);
	return ge;
}

/* ------------------------------------------------------------ graphs */


uint32_t
lg_graft(struct cg_lgame *g, const struct cg_lgame *c, uint32_t r)
{
	uint32_t n, *q = lg_reach(c, r, &n), *at, i, k;
	int s;

	at = cg_xcalloc(c->n ? c->n : 1, sizeof *at);
	for (i = 0; i < n; i++)
		at[q[i]] = cg_lgame_node(g);
	for (i = 0; i < n; i++)
		for (s = 0; s < 2; s++)
			for (k = 0; k < c->v[q[i]].nopt[s]; k++)
				cg_lgame_edge(g, at[q[i]], s,
				    at[c->v[q[i]].opt[s][k]]);
	free(at);
	free(q);
	return g->n - n;
}

void
lg_copy_under(const struct cg_lgame *g, uint32_t x, struct cg_lgame *out)
{
	cg_lgame_init(out);
	lg_graft(out, g, x);
}

static void
drop_opt(struct cg_lnode *v, int s, uint32_t k)
{
	memmove(v->opt[s] + k, v->opt[s] + k + 1,
	    (v->nopt[s] - k - 1) * sizeof *v->opt[s]);
	v->nopt[s]--;
}

/* Moves to on and off, and (for the side where endless play is the
 * mover's foe) moves the opponent undoes at once. */
static int
obvious(struct cg_lgame *w, int side)
{
	uint32_t n, *q = lg_reach(w, 0, &n), i, k;
	int changed = 0, s;

	for (i = 0; i < n; i++)
		for (s = 0; s < 2; s++) {
			struct cg_lnode *v = &w->v[q[i]];
			int foe = s == CG_LEFT ? LG_OFFSIDE : LG_ONSIDE;

			for (k = 0; k < v->nopt[s]; k++) {
				uint32_t t = v->opt[s][k], j;
				int back = 0;

				if (lg_is_pass_only(w, t, s) && t != q[i] &&
				    v->nopt[s] > 1) {
					/* a move to on (off for Right) is best */
					v->opt[s][0] = t;
					v->nopt[s] = 1;
					changed = 1;
					break;
				}
				for (j = 0; j < w->v[t].nopt[!s]; j++)
					back |= w->v[t].opt[!s][j] == q[i];
				if ((lg_is_pass_only(w, t, !s) && t != q[i]) ||
				    (side == foe && back)) {
					drop_opt(v, s, k--);
					changed = 1;
				}
			}
		}
	free(q);
	return changed;
}

/* Dominated and reversible options, in the side's order. */
static int
basic(struct cg_lgame *w, int side)
{
	struct lg_order o;
	uint32_t n, *q = lg_reach(w, 0, &n), i, *comp;
	int changed = 0, s, b;

	o.ge = lg_side_matrix(w, q, n, side);
	if (o.ge == NULL) {
		free(q);
		return 0;
	}
	o.pos = cg_xcalloc(w->n, sizeof *o.pos);
	o.n = n;
	o.side = side;
	o.comp = comp = lg_comps(w, 0, 1, NULL);
	for (i = 0; i < n; i++)
		o.pos[q[i]] = i;
	for (i = 0; i < n; i++) {
		for (s = 0; s < 2; s++)
			for (b = 0; b < 4 && lg_bypass(w, q[i], s, &o); b++)
				changed = 1;
		for (s = 0; s < 2; s++)
			changed |= lg_undominate(w, q[i], s, &o);
	}
	free(o.ge);
	free(o.pos);
	free(comp);
	free(q);
	return changed;
}

static int
cyclic(const uint32_t *comp, uint32_t v, int s, uint32_t t)
{
	return comp[2 * v + s] != UINT32_MAX &&
	    comp[2 * v + s] == comp[2 * t + !s];
}

/* A copy of w with the same numbering, without option k of side s of v
 * (v == UINT32_MAX: with every option). */
static void
copy_without(const struct cg_lgame *w, uint32_t v, int s, uint32_t k,
    struct cg_lgame *out)
{
	uint32_t i, j;
	int z;

	cg_lgame_init(out);
	for (i = 0; i < w->n; i++)
		cg_lgame_node(out);
	for (i = 0; i < w->n; i++)
		for (z = 0; z < 2; z++)
			for (j = 0; j < w->v[i].nopt[z]; j++)
				if (i != v || z != s || j != k)
					cg_lgame_edge(out, i, z,
					    w->v[i].opt[z][j]);
}

/* Delete moves on alternating cycles that do not change their node's
 * side: a Left move deleted must leave the node no worse for Left, a
 * Right move no worse for Right. */
static int
irrelevant(struct cg_lgame *w, int side)
{
	uint32_t *comp = lg_comps(w, 0, 1, NULL), v, k, t;
	int changed = 0, s, r;

	for (v = 0; v < w->n; v++)
		for (s = 0; s < 2; s++)
			for (k = 0; k < w->v[v].nopt[s]; k++) {
				struct cg_lgame w2;

				t = w->v[v].opt[s][k];
				if (!cyclic(comp, v, s, t))
					continue;
				lg_poll();
				copy_without(w, v, s, k, &w2);
				r = s == CG_LEFT ? lg_side_ge(&w2, v, w, v,
				    side) : lg_side_ge(w, v, &w2, v, side);
				cg_lgame_free(&w2);
				if (r == 1) {
					drop_opt(&w->v[v], s, k--);
					changed = 1;
				}
			}
	free(comp);
	return changed;
}

/*
 * Unravel the move of s from v to t, on an alternating cycle: the nodes
 * of that cycle's component get `laps' pairs of copies (one where Left
 * is to move, one where Right is), alternating play walks through the
 * copies, a move out of turn leaves them, and the move v -> t leads one
 * lap further each time, until after the last lap it is gone.
 */
static void
unravel_by(const struct cg_lgame *w, uint32_t v, int s, uint32_t t,
    int laps, const uint32_t *comp, struct cg_lgame *out)
{
	uint32_t c = comp[2 * v + s], nc = 0, *ren, i, j, base;
	int k, z;

	copy_without(w, UINT32_MAX, 0, 0, out);
	ren = cg_xcalloc(w->n ? w->n : 1, sizeof *ren);
	for (i = 0; i < w->n; i++)
		ren[i] = comp[2 * i] == c || comp[2 * i + 1] == c ? nc++ :
		    UINT32_MAX;
	base = out->n;
	/* copy (k, z) of node i, where z is to move: base + (2k + z) nc */
	for (i = 0; i < (uint32_t)(2 * laps) * nc; i++)
		cg_lgame_node(out);
#define COPY(kk, zz, ii) (base + (uint32_t)(2 * (kk) + (zz)) * nc + ren[ii])
	for (i = 0; i < w->n; i++) {
		if (ren[i] == UINT32_MAX)
			continue;
		for (k = 0; k < laps; k++)
			for (z = 0; z < 2; z++)
				for (j = 0; j < w->v[i].nopt[z]; j++) {
					uint32_t y = w->v[i].opt[z][j];
					/* the mover's move stays in turn */
					uint32_t cz = COPY(k, z, i);

					if (i == v && z == s && y == t) {
						if (k + 1 < laps)
							cg_lgame_edge(out, cz, z,
							    COPY(k + 1, !z, y));
						continue;
					}
					cg_lgame_edge(out, COPY(k, !z, i), z, y);
					cg_lgame_edge(out, cz, z,
					    ren[y] != UINT32_MAX ?
					    COPY(k, !z, y) : y);
				}
	}
	/* the first move v -> t enters the first lap */
	for (j = 0; j < out->v[v].nopt[s]; j++)
		if (out->v[v].opt[s][j] == t)
			out->v[v].opt[s][j] = COPY(0, !s, t);
#undef COPY
	free(ren);
}

/* Unravel one move on an alternating cycle of the side's loser (Right
 * for onsides), if that keeps the root's side; 1 if one was. */
static int
unravel(struct cg_lgame *w, int side)
{
	uint32_t *comp = lg_comps(w, 0, 1, NULL), v, k;
	int s = side == LG_ONSIDE ? CG_RIGHT : CG_LEFT, laps;

	for (v = 0; v < w->n; v++)
		for (k = 0; k < w->v[v].nopt[s]; k++) {
			uint32_t t = w->v[v].opt[s][k];

			if (!cyclic(comp, v, s, t))
				continue;
			for (laps = 1; laps <= LAPS; laps++) {
				struct cg_lgame u;

				unravel_by(w, v, s, t, laps, comp, &u);
				if (lg_side_ge(&u, 0, w, 0, side) == 1 &&
				    lg_side_ge(w, 0, &u, 0, side) == 1) {
					cg_lgame_free(w);
					lg_copy_under(&u, 0, w);
					cg_lgame_free(&u);
					free(comp);
					return 1;
				}
				cg_lgame_free(&u);
			}
		}
	free(comp);
	return 0;
}

int
cg_lgame_side(const struct cg_lgame *g, uint32_t x, int onside,
    struct cg_lgame *out, char *msg, size_t msgsize)
{
	int side = onside ? LG_ONSIDE : LG_OFFSIDE, round, r1, r2;
	struct cg_lgame w, s;

	if (cg_lgame_is_stopper(g, x))
		return cg_lgame_simplify(g, x, out, msg, msgsize);
	lg_copy_under(g, x, &w);
	if ((uint64_t)w.n * w.n > CG_LGAME_MAXPAIRS) {
		snprintf(msg, msgsize, "a game of %u nodes that is no stopper: "
		    "its sides are found for games of at most 1448 nodes",
		    (unsigned)w.n);
		cg_lgame_free(&w);
		return -1;
	}
	for (round = 0; round < SIDE_ROUNDS; round++) {
		int changed;

		lg_poll();
		changed = obvious(&w, side);

		changed |= basic(&w, side);
		if (cg_lgame_is_stopper(&w, 0))
			break;
		changed |= irrelevant(&w, side);
		if (cg_lgame_is_stopper(&w, 0))
			break;
		if (!changed && !unravel(&w, side))
			break;
	}
	if (!cg_lgame_is_stopper(&w, 0)) {
		cg_lgame_free(&w);
		snprintf(msg, msgsize, "its %s is not a stopper (not "
		    "stopper-sided: an alternating cycle matters in it)",
		    onside ? "onside" : "offside");
		return -1;
	}
	if (cg_lgame_simplify(&w, 0, &s, msg, msgsize) < 0) {
		cg_lgame_free(&w);
		return -1;
	}
	cg_lgame_free(&w);
	r1 = lg_side_ge(&s, 0, g, x, side);
	r2 = lg_side_ge(g, x, &s, 0, side);
	if (r1 != 1 || r2 != 1) {
		cg_lgame_free(&s);
		snprintf(msg, msgsize, "its %s %s", onside ? "onside" :
		    "offside", r1 < 0 || r2 < 0 ? "is too large to check" :
		    "was not found (the stopper found differs from it)");
		return -1;
	}
	*out = s;
	return 0;
}
