/* canonorder.c - the order of canonical games (see canon.h): G <= H by
 * the options, with both stops of each game kept in its record as a
 * quick test first and a table of answers shared by every thread;
 * comparison, outcome classes, stops. */
#include <stdatomic.h>

#include "values/canon.h"
#include "values/dyadic.h"

#include "values/canon_int.h"

/* Can g <= h hold as far as the stops tell? */
static int
stops_allow_leq(cg_game g, cg_game h)
{
	struct cg_dyadic gl, gr, hl, hr;

	canon_stops(g, &gl, &gr);
	canon_stops(h, &hl, &hr);
	return cg_dyadic_cmp(gl, hl) <= 0 && cg_dyadic_cmp(gr, hr) <= 0;
}

static int
nus_leq(cg_game g, cg_game h)
{
	const struct nus *a = NUS(g), *b = NUS(h);
	int c = cg_dyadic_cmp(nus_x(g), nus_x(h));

	if (c != 0)
		return c < 0;
	if (a->up < b->up - 1)
		return 1;
	if (a->up == b->up - 1)
		return (a->nim ^ b->nim) != 1;
	return a->up == b->up && a->nim == b->nim;
}

int
canon_leq(cg_game g, cg_game h)
{
	struct leqtab *t;
	const cg_game *o;
	size_t n, i;
	int res = 1;
	uint64_t key = 0, slot = 0, v;

	if (g == h)
		return 1;
	if ((flags_of(REC(g)) & flags_of(REC(h)) & F_NUS))
		return nus_leq(g, h);
	/* G <= H needs both stops of G at most H's: a test of four words
	 * of the two records that settles most pairs of hot games, kept
	 * out of the cache so that it holds the pairs that cost */
	if (!stops_allow_leq(g, h))
		return 0;
	t = atomic_load_explicit(&canon_leqtab, memory_order_acquire);
	if (t != NULL && g < (1u << 31) && h < (1u << 31)) {
		key = (uint64_t)g << 33 | (uint64_t)h << 1;
		slot = mix(g * 0x9e3779b1u ^ h) ^ h;
		slot = (slot ^ ((uint64_t)g << 7)) & t->mask;
		v = atomic_load_explicit(&t->e[slot], memory_order_relaxed);
		if ((v & ~(uint64_t)1) == key)
			return (int)(v & 1);
	} else {
		t = NULL;
	}
	canon_deeper();
	if (!is_number(g)) {
		o = LOPTS(g, &n);
		for (i = 0; i < n && res; i++)
			if (canon_leq(h, o[i]))
				res = 0;
	}
	if (res && !is_number(h)) {
		o = ROPTS(h, &n);
		for (i = 0; i < n && res; i++)
			if (canon_leq(o[i], g))
				res = 0;
	}
	SHALLOWER();
	if (t != NULL)
		atomic_store_explicit(&t->e[slot], key | (uint64_t)res,
		    memory_order_relaxed);
	return res;
}

int
cg_canon_leq(cg_game g, cg_game h)
{
	return canon_leq(g, h);
}

int
cg_canon_compare(cg_game g, cg_game h)
{
	int a, b;

	if (g == h)
		return 0;
	a = canon_leq(g, h);
	b = canon_leq(h, g);
	return a ? (b ? 0 : -1) : (b ? 1 : 2);
}

int
cg_canon_outcome(cg_game g)
{
	int ge0 = canon_leq(canon_store.zero, g),
	    le0 = canon_leq(g, canon_store.zero);

	if (ge0 && le0)
		return 'P';
	if (ge0)
		return 'L';
	if (le0)
		return 'R';
	return 'N';
}

/* Both stops of g, computed once and kept in its record (several
 * threads may compute them at once; they write the same values). */
void
canon_stops(cg_game g, struct cg_dyadic *ls, struct cg_dyadic *rs)
{
	struct rec *r = REC(g);
	struct cg_dyadic best[2], v[2];
	const cg_game *o;
	size_t n, i;
	int s;

	if (flags_of(r) & F_STOPS) {
		ls->num = __atomic_load_n(&r->lnum, __ATOMIC_RELAXED);
		ls->exp = __atomic_load_n(&r->lexp, __ATOMIC_RELAXED);
		rs->num = __atomic_load_n(&r->rnum, __ATOMIC_RELAXED);
		rs->exp = __atomic_load_n(&r->rexp, __ATOMIC_RELAXED);
		return;
	}
	if (flags_of(r) & F_NUS) {
		*ls = *rs = nus_x(g);
		return;
	}
	canon_deeper();
	for (s = 0; s < 2; s++) {
		o = cg_canon_options(g, (enum cg_side)s, &n);
		best[s] = cg_dyadic_make(0, 0);
		for (i = 0; i < n; i++) {
			canon_stops(o[i], &v[0], &v[1]);
			/* Left's stop is the best right stop of an option */
			if (i == 0 || (s == 0 ? cg_dyadic_cmp(v[1], best[s]) > 0 :
			    cg_dyadic_cmp(v[0], best[s]) < 0))
				best[s] = s == 0 ? v[1] : v[0];
		}
	}
	SHALLOWER();
	r = REC(g);
	__atomic_store_n(&r->lnum, best[0].num, __ATOMIC_RELAXED);
	__atomic_store_n(&r->lexp, best[0].exp, __ATOMIC_RELAXED);
	__atomic_store_n(&r->rnum, best[1].num, __ATOMIC_RELAXED);
	__atomic_store_n(&r->rexp, best[1].exp, __ATOMIC_RELAXED);
	__atomic_fetch_or(&r->flags, F_STOPS, __ATOMIC_RELEASE);
	*ls = best[0];
	*rs = best[1];
}

static struct cg_dyadic
stop(cg_game g, int side)
{
	struct cg_dyadic ls, rs;

	canon_stops(g, &ls, &rs);
	return side == 0 ? ls : rs;
}

struct cg_dyadic
cg_canon_left_stop(cg_game g)
{
	return stop(g, 0);
}

struct cg_dyadic
cg_canon_right_stop(cg_game g)
{
	return stop(g, 1);
}
