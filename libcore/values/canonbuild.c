/* canonbuild.c - the canonical form of {L | R} (see canon.h): duplicate
 * options removed, dominated options removed (best stops first, so that
 * a dominated option meets its dominator early), reversible options
 * bypassed against the game not yet built, and the result recognised as
 * a number, up multiple or nimber (NUS) when it is one, so that equal
 * games intern to one id in the store (canon.c). */
#include <stdlib.h>
#include <string.h>

#include "values/canon.h"
#include "values/dyadic.h"

#include "values/canon_int.h"
#include "values/gamevec.h"

/* Option lists are short: insertion sort below 32, a library sort
 * above. */
static void
sort_ids(cg_game *v, size_t n)
{
	size_t i, j;
	cg_game x;

	if (n > 32) {
		qsort(v, n, sizeof *v, cmp_id);
		return;
	}
	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

void
canon_vec_sort_unique(struct vec *a)
{
	size_t i, k = 0;

	sort_ids(a->v, a->n);
	for (i = 0; i < a->n; i++)
		if (k == 0 || a->v[k - 1] != a->v[i])
			a->v[k++] = a->v[i];
	a->n = k;
}

/* An option with its stops, for removing dominated options. */
struct ranked {
	cg_game g;
	struct cg_dyadic ls, rs;
};

/* Left options by stops, highest first; Right's lowest first (dir). */
static int
cmp_ranked(const void *pa, const void *pb, void *arg)
{
	const struct ranked *a = pa, *b = pb;
	int c = cg_dyadic_cmp(b->ls, a->ls);

	if (c == 0)
		c = cg_dyadic_cmp(b->rs, a->rs);
	if (c == 0)
		c = a->g < b->g ? -1 : a->g > b->g;
	return *(const int *)arg == 0 ? c : -c;
}

/* Does x <= y hold?  Both stops of x at most y's is needed, and settles
 * most pairs of hot options without a comparison of games. */
static int
ranked_leq(const struct ranked *x, const struct ranked *y)
{
	if (cg_dyadic_cmp(x->ls, y->ls) > 0 || cg_dyadic_cmp(x->rs, y->rs) > 0)
		return 0;
	return canon_leq(x->g, y->g);
}

/*
 * Keep the maxima (left, dir = 0) or minima (right, dir = 1).  The
 * options are taken best stops first, against the maxima kept so far: a
 * dominated option meets its dominator early, and a new maximum can only
 * beat a kept one whose stops are no better, which in this order means
 * equal stops.  Each option is compared with the maxima, not with every
 * other option.
 */
static void
remove_dominated(struct vec *a, int dir)
{
	struct ranked *r, *keep;
	size_t i, j, n = a->n, nk = 0;

	if (n < 2)
		return;
	r = cg_xmalloc(2 * n * sizeof *r);
	keep = r + n;
	for (i = 0; i < n; i++) {
		r[i].g = a->v[i];
		canon_stops(r[i].g, &r[i].ls, &r[i].rs);
	}
	if (n > 32) {
		qsort_r(r, n, sizeof *r, cmp_ranked, &dir);
	} else {
		for (i = 1; i < n; i++) {
			struct ranked x = r[i];

			for (j = i; j > 0 && cmp_ranked(&r[j - 1], &x, &dir) > 0;
			    j--)
				r[j] = r[j - 1];
			r[j] = x;
		}
	}
	for (i = 0; i < n; i++) {
		int dominated = 0;

		for (j = 0; j < nk && !dominated; j++)
			dominated = dir == 0 ? ranked_leq(&r[i], &keep[j]) :
			    ranked_leq(&keep[j], &r[i]);
		if (dominated)
			continue;
		/* kept options the new one dominates (equal stops only) */
		for (j = 0; j < nk; ) {
			if (dir == 0 ? ranked_leq(&keep[j], &r[i]) :
			    ranked_leq(&r[i], &keep[j]))
				keep[j] = keep[--nk];
			else
				j++;
		}
		keep[nk++] = r[i];
	}
	for (i = 0; i < nk; i++)
		a->v[i] = keep[i].g;
	a->n = nk;
	free(r);
}

static int geq_g(cg_game x, const struct vec *l, const struct vec *r);

/* x <= G = {l | r}, G not built yet. */
static int
leq_g(cg_game x, const struct vec *l, const struct vec *r)
{
	uint32_t key = x << 1, slot = mix(key * 0x9e3779b1u) & 0xffff;
	const cg_game *o;
	size_t i, n;
	int res = 1;
	struct work *w = W();

	if (w->rmemo[slot].gen == w->rgen && w->rmemo[slot].key == key)
		return w->rmemo[slot].val;
	canon_deeper();
	for (i = 0; i < r->n && res; i++)
		if (canon_leq(r->v[i], x))
			res = 0;
	if (res) {
		o = LOPTS(x, &n);
		for (i = 0; i < n && res; i++)
			if (geq_g(o[i], l, r))
				res = 0;
	}
	SHALLOWER();
	w->rmemo[slot].gen = w->rgen;
	w->rmemo[slot].key = key;
	w->rmemo[slot].val = (uint8_t)res;
	return res;
}

/* x >= G = {l | r}. */
static int
geq_g(cg_game x, const struct vec *l, const struct vec *r)
{
	uint32_t key = x << 1 | 1, slot = mix(key * 0x9e3779b1u) & 0xffff;
	const cg_game *o;
	size_t i, n;
	int res = 1;
	struct work *w = W();

	if (w->rmemo[slot].gen == w->rgen && w->rmemo[slot].key == key)
		return w->rmemo[slot].val;
	canon_deeper();
	for (i = 0; i < l->n && res; i++)
		if (canon_leq(x, l->v[i]))
			res = 0;
	if (res) {
		o = ROPTS(x, &n);
		for (i = 0; i < n && res; i++)
			if (leq_g(o[i], l, r))
				res = 0;
	}
	SHALLOWER();
	w->rmemo[slot].gen = w->rgen;
	w->rmemo[slot].key = key;
	w->rmemo[slot].val = (uint8_t)res;
	return res;
}

static void
new_generation(void)
{
	struct work *w = W();

	if (++w->rgen == 0) {
		memset(w->rmemo, 0, (1u << 16) * sizeof *w->rmemo);
		w->rgen = 1;
	}
}

/* Bypass reversible options of side dir (0 left, 1 right); 1 if any. */
static int
bypass(struct vec *l, struct vec *r, int dir)
{
	struct vec *a = dir == 0 ? l : r;
	size_t i = 0, j, n, m, k;
	const cg_game *o, *p;
	int any = 0, found;
	cg_game opt, rev;

	while (i < a->n) {
		opt = a->v[i];
		found = 0;
		if (dir == 0)
			o = ROPTS(opt, &n);
		else
			o = LOPTS(opt, &n);
		for (j = 0; j < n && !found; j++) {
			rev = o[j];
			found = dir == 0 ? leq_g(rev, l, r) : geq_g(rev, l, r);
		}
		if (!found) {
			i++;
			continue;
		}
		any = 1;
		rev = o[j - 1];
		/* replace opt by rev's options on side dir */
		a->v[i] = a->v[a->n - 1];
		a->n--;
		if (dir == 0)
			p = LOPTS(rev, &m);
		else
			p = ROPTS(rev, &m);
		for (k = 0; k < m; k++)
			if (!vec_has(a, p[k]))
				vec_push(a, p[k]);
		/* the value of G is unchanged, so memoised answers stand */
	}
	return any;
}

/* Is the canonical {l | r} the NUS cand? */
static int
is_nus_form(cg_game cand, const struct vec *l, const struct vec *r)
{
	const cg_game *o;
	size_t n;

	o = LOPTS(cand, &n);
	if (!same_list(o, n, l->v, l->n))
		return 0;
	o = ROPTS(cand, &n);
	return same_list(o, n, r->v, r->n);
}

static cg_game
recognise_nus(const struct vec *l, const struct vec *r)
{
	struct cg_dyadic x, y;
	const struct nus *a, *b;
	cg_game cand = CG_NO_GAME;
	size_t i;

	if (l->n == 0 && r->n == 0)
		return canon_store.zero;
	for (i = 0; i < l->n; i++)
		if (!is_nus(l->v[i]))
			return CG_NO_GAME;
	for (i = 0; i < r->n; i++)
		if (!is_nus(r->v[i]))
			return CG_NO_GAME;
	if (l->n == 0 && r->n == 1 && cg_canon_is_integer(r->v[0]) &&
	    NUS(r->v[0])->num <= 0) {
		cand = cg_canon_number(cg_dyadic_add(nus_x(r->v[0]),
		    cg_dyadic_make(-1, 0)));
	} else if (l->n == 1 && r->n == 0 && cg_canon_is_integer(l->v[0]) &&
	    NUS(l->v[0])->num >= 0) {
		cand = cg_canon_number(cg_dyadic_add(nus_x(l->v[0]),
		    cg_dyadic_make(1, 0)));
	} else if (l->n == 1 && r->n == 1) {
		a = NUS(l->v[0]);
		b = NUS(r->v[0]);
		x = nus_x(l->v[0]);
		y = nus_x(r->v[0]);
		if (is_number(l->v[0]) && is_number(r->v[0]) &&
		    cg_dyadic_cmp(x, y) < 0)
			cand = cg_canon_number(cg_dyadic_half(
			    cg_dyadic_add(x, y)));
		else if (is_number(l->v[0]) && cg_dyadic_cmp(x, y) == 0 &&
		    b->up >= 0)
			cand = cg_canon_nus(x, b->up + 1, b->nim ^ 1);
		else if (is_number(r->v[0]) && cg_dyadic_cmp(x, y) == 0 &&
		    a->up <= 0)
			cand = cg_canon_nus(x, a->up - 1, a->nim ^ 1);
	} else if (l->n == 2 && r->n == 1 && is_number(r->v[0])) {
		cand = cg_canon_nus(nus_x(r->v[0]), 1, 1);
	} else if (l->n == 1 && r->n == 2 && is_number(l->v[0])) {
		cand = cg_canon_nus(nus_x(l->v[0]), -1, 1);
	}
	if (cand != CG_NO_GAME && is_nus_form(cand, l, r))
		return cand;
	if (l->n == r->n && l->n > 0) {
		/* x + *k: options x + *j, j < k, on both sides */
		x = nus_x(l->v[0]);
		for (i = 0; i < l->n; i++)
			if (NUS(l->v[i])->up != 0 ||
			    cg_dyadic_cmp(nus_x(l->v[i]), x) != 0)
				return CG_NO_GAME;
		cand = cg_canon_nus(x, 0, l->n);
		if (is_nus_form(cand, l, r))
			return cand;
	}
	return CG_NO_GAME;
}

/* Intern canonical, sorted, duplicate-free option lists. */
cg_game
canon_intern_canonical(const struct vec *l, const struct vec *r)
{
	cg_game g;

	g = recognise_nus(l, r);
	if (g != CG_NO_GAME)
		return g;
	return canon_intern(l, r);
}

/* Nimber shortcut: all options x + *j with one x, equal mex each side. */
static cg_game
nimber_shortcut(const struct vec *l, const struct vec *r)
{
	struct cg_dyadic x;
	uint64_t mex[2];
	const struct vec *side[2] = { l, r };
	size_t i;
	int s;

	if (l->n == 0 || r->n == 0)
		return CG_NO_GAME;
	x = is_nus(l->v[0]) ? nus_x(l->v[0]) : cg_dyadic_make(0, 0);
	for (s = 0; s < 2; s++) {
		unsigned char seen[64];

		memset(seen, 0, sizeof seen);
		for (i = 0; i < side[s]->n; i++) {
			cg_game g = side[s]->v[i];

			if (!is_nus(g) || NUS(g)->up != 0 ||
			    cg_dyadic_cmp(nus_x(g), x) != 0)
				return CG_NO_GAME;
			if (NUS(g)->nim < 64)
				seen[NUS(g)->nim] = 1;
		}
		for (mex[s] = 0; mex[s] < 64 && seen[mex[s]]; mex[s]++)
			;
		if (mex[s] == 64)
			return CG_NO_GAME;
	}
	if (mex[0] != mex[1])
		return CG_NO_GAME;
	return cg_canon_nus(x, 0, mex[0]);
}

cg_game
canon_make_vec(struct vec *l, struct vec *r)
{
	struct work *w = W();
	cg_game g;

	ensure_init();
	if (LOAD(canon_store.n) >= 2 * w->sized &&
	    LOAD(canon_store.n) >= (1u << 12))
		canon_grow_caches(w);
	canon_vec_sort_unique(l);
	canon_vec_sort_unique(r);
	/* Options that are exactly those of a game in the store: that game,
	 * with no simplification (the store holds canonical games only, so
	 * their option lists are already simplified).  Reading a games
	 * dictionary rebuilds millions of games this way. */
	g = canon_opts_lookup(canon_hash_opts(l->v, l->n, r->v, r->n), l, r);
	if (g != CG_NO_GAME)
		return g;
	g = nimber_shortcut(l, r);
	if (g != CG_NO_GAME)
		return g;
	remove_dominated(l, 0);
	remove_dominated(r, 1);
	new_generation();
	if (bypass(l, r, 0) | bypass(l, r, 1)) {
		canon_vec_sort_unique(l);
		canon_vec_sort_unique(r);
		remove_dominated(l, 0);
		remove_dominated(r, 1);
	}
	canon_vec_sort_unique(l);
	canon_vec_sort_unique(r);
	return canon_intern_canonical(l, r);
}

/* A pair of option lists holding lo and ro (give it back with
 * pair_put). */
static struct vec *
pair_of(const cg_game *lo, size_t nl, const cg_game *ro, size_t nr)
{
	struct vec *lr = canon_pair_get();
	size_t i;

	for (i = 0; i < nl; i++)
		vec_push(&lr[0], lo[i]);
	for (i = 0; i < nr; i++)
		vec_push(&lr[1], ro[i]);
	return lr;
}

cg_game
cg_canon_make(const cg_game *lo, size_t nl, const cg_game *ro, size_t nr)
{
	struct vec *lr;
	cg_game g;

	canon_deeper();
	lr = pair_of(lo, nl, ro, nr);
	g = canon_make_vec(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	return g;
}

cg_game
cg_canon_make_canonical(const cg_game *lo, size_t nl, const cg_game *ro,
    size_t nr)
{
	struct vec *lr;
	cg_game g;

	ensure_init();
	canon_deeper();
	lr = pair_of(lo, nl, ro, nr);
	canon_vec_sort_unique(&lr[0]);
	canon_vec_sort_unique(&lr[1]);
	g = canon_intern_canonical(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	return g;
}
