/* quotient_check.c - checking a candidate misere quotient (see
 * quotient.h): the verification that makes it the quotient, and the
 * least sum it gets wrong, from which the next candidate is made. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "solve/quotient_int.h"

/* ---------------------------------------------------------- sums */

void
cg_quot_word_push(struct word *w, uint32_t h)
{
	uint32_t i;

	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->h = cg_xreallocarray(w->h, w->cap, sizeof *w->h);
	}
	for (i = w->n; i > 0 && w->h[i - 1] > h; i--)
		w->h[i] = w->h[i - 1];
	w->h[i] = h;
	w->n++;
}

/* w with heap i replaced by option parts p[0..cnt). */
static void
word_option(const struct word *w, uint32_t i, const uint32_t *p,
    uint32_t cnt, struct word *out)
{
	uint32_t j;

	out->n = 0;
	for (j = 0; j < w->n; j++)
		if (j != i)
			cg_quot_word_push(out, w->h[j]);
	for (j = 0; j < cnt; j++)
		cg_quot_word_push(out, p[j]);
}

/* x's lex-least sum in q, as a word. */
void
cg_quot_word_of(const struct quot *q, uint32_t x, struct word *w)
{
	uint32_t i, e;

	w->n = 0;
	for (i = q->woff[x]; i < q->woff[x + 1]; i++)
		for (e = 0; e < q->we[i]; e++)
			cg_quot_word_push(w, q->wh[i]);
}

int
cg_quot_predict(const struct quot *q, const struct word *w)
{
	uint32_t x = 0, i;

	for (i = 0; i < w->n; i++)
		x = tmul(&q->t, x, q->phi[w->h[i]]);
	return q->isp[x];
}

#define TRUTH_LIMIT ((size_t)1 << 22)

int
cg_quot_truth(struct truth *t, const struct word *w)
{
	const struct cg_quot *g = t->g;
	struct word o = { 0 };
	uint32_t i, j;
	uint64_t e;
	int isnew, p = 0, any = 0;

	if (w->n == 0 || w->h[w->n - 1] != t->n)
		return cg_quot_predict(t->prev, w);
	e = cg_bytemap_intern(t->memo, w->h, w->n * sizeof *w->h, &isnew);
	if (!isnew && *cg_bytemap_value(t->memo, e) != 0)
		return (int)*cg_bytemap_value(t->memo, e) - 1;
	if (cg_bytemap_count(t->memo) > TRUTH_LIMIT || cg_stop) {
		t->over = 1;
		return 0;
	}
	p = 1;
	for (i = 0; i < w->n && p; i++) {
		if (i > 0 && w->h[i] == w->h[i - 1])
			continue;
		for (j = g->optoff[w->h[i]]; j < g->optoff[w->h[i] + 1] && p;
		    j += 1 + g->opt[j]) {
			any = 1;
			word_option(w, i, g->opt + j + 1, g->opt[j], &o);
			if (cg_quot_truth(t, &o))
				p = 0;
		}
	}
	free(o.h);
	p = p && any;
	*cg_bytemap_value(t->memo, e) = (uint64_t)p + 1;
	return p;
}

/* From w, mispredicted by q or with a mispredicted option, to a sum that
 * q mispredicts while predicting all its options right.  0, or -1 when
 * the search is too large. */
int
cg_quot_descend(struct truth *t, const struct quot *q, struct word *w)
{
	const struct cg_quot *g = t->g;
	struct word o = { 0 };
	uint32_t i, j;
	int moved = 1;

	while (moved && !t->over) {
		moved = 0;
		for (i = 0; i < w->n && !moved; i++) {
			if (i > 0 && w->h[i] == w->h[i - 1])
				continue;
			for (j = g->optoff[w->h[i]]; j < g->optoff[w->h[i] + 1];
			    j += 1 + g->opt[j]) {
				word_option(w, i, g->opt + j + 1, g->opt[j], &o);
				if (cg_quot_predict(q, &o) != cg_quot_truth(t, &o)) {
					struct word tmp = *w;

					*w = o;
					o = tmp;
					moved = 1;
					break;
				}
			}
		}
	}
	free(o.h);
	if (t->over || cg_quot_predict(q, w) == cg_quot_truth(t, w))
		return -1;
	return 0;
}

/* ---------------------------------------------------------- least failure */

/* Sums compared as MisereSolver orders them: the largest heap's count
 * first, then the next heap's. */
static int
word_cmp(const struct word *a, const struct word *b)
{
	uint32_t i = a->n, j = b->n;

	while (i > 0 && j > 0) {
		if (a->h[i - 1] != b->h[j - 1])
			return a->h[i - 1] > b->h[j - 1] ? 1 : -1;
		i--;
		j--;
	}
	return i > 0 ? 1 : j > 0 ? -1 : 0;
}

struct lex {
	const struct cg_quot *g;
	const struct quot *q;
	const struct trsets *tr;
	uint32_t W, *ex;
	const uint64_t *pbits;
	uint64_t **seen;        /* per element: transition sets met */
	uint32_t *nseen, *capseen;
	size_t steps;
	int found;
	struct word *out;
};

#define LEX_STEPS ((size_t)1 << 24)

/* Has element x met a subset of t?  If not, remember t. */
static int
lex_dominated(struct lex *L, uint32_t x, const uint64_t *t)
{
	uint32_t i, b;

	for (i = 0; i < L->nseen[x]; i++) {
		const uint64_t *s = L->seen[x] + (size_t)i * L->W;

		for (b = 0; b < L->W && !(s[b] & ~t[b]); b++)
			;
		if (b == L->W)
			return 1;
	}
	if (L->nseen[x] == L->capseen[x]) {
		L->capseen[x] = L->capseen[x] ? 2 * L->capseen[x] : 4;
		L->seen[x] = cg_xreallocarray(L->seen[x],
		    (size_t)L->capseen[x] * L->W, sizeof **L->seen);
	}
	memcpy(L->seen[x] + (size_t)L->nseen[x]++ * L->W, t,
	    L->W * sizeof *t);
	return 0;
}

/* Sums over heaps d, d-1, ..., 1 after a prefix of element x and
 * transition set t, in lex order: the first whose prediction N has no
 * option predicted P. */
static void
lex_rec(struct lex *L, uint32_t d, uint32_t x, const uint64_t *t, int empty)
{
	const struct quot *q = L->q;
	uint64_t *nt;
	uint32_t e, b, j, h, o;

	if (L->found || ++L->steps > LEX_STEPS)
		return;
	if (d == 0) {
		int hasp = 0;

		if (empty || q->isp[x])
			return;
		for (b = 0; b < L->W; b++)
			if (t[b] & L->pbits[b])
				hasp = 1;
		if (hasp)
			return;
		L->found = 1;
		L->out->n = 0;
		for (h = 1; h < L->g->n + 2 && h < WMAX; h++)
			for (e = 0; e < L->ex[h]; e++)
				cg_quot_word_push(L->out, h);
		return;
	}
	lex_rec(L, d - 1, x, t, empty);
	if (L->tr->off[d] == L->tr->off[d + 1])
		return;
	nt = cg_xcalloc(L->W, sizeof *nt);
	for (e = 1; !L->found; e++) {
		uint64_t *cur = cg_xcalloc(L->W, sizeof *cur);

		for (b = 0; b < L->W; b++) {
			uint64_t v = (e == 1 ? t : nt)[b];

			while (v) {
				o = tmul(&q->t, (uint32_t)(b * 64 +
				    (uint32_t)__builtin_ctzll(v)), q->phi[d]);
				v &= v - 1;
				cur[o / 64] |= (uint64_t)1 << (o % 64);
			}
		}
		for (j = L->tr->off[d]; j < L->tr->off[d + 1]; j++) {
			o = tmul(&q->t, x, L->tr->el[j]);
			cur[o / 64] |= (uint64_t)1 << (o % 64);
		}
		x = tmul(&q->t, x, q->phi[d]);
		memcpy(nt, cur, L->W * sizeof *nt);
		free(cur);
		if (lex_dominated(L, x, nt) || L->steps > LEX_STEPS)
			break;
		L->ex[d] = e;
		lex_rec(L, d - 1, x, nt, 0);
		L->ex[d] = 0;
	}
	free(nt);
}

/*
 * The least sum q gets wrong, as MisereSolver finds it: the least of the
 * P-check's failures (an element's lex-least sum plus a heap) and the
 * first sum in lex order predicted N with no option predicted P, the
 * search cut where an element meets a superset of a transition set it
 * met before.  Every smaller sum is then predicted consistently, so this
 * one is wrong and its options right.  0 with w, -1 when none is found.
 */
int
cg_quot_least_failure(const struct cg_quot *g, uint32_t n, const struct quot *q,
    struct word *w)
{
	struct dsum d1 = { 0 };
	struct trsets tr;
	struct lex L = { 0 };
	struct word c = { 0 };
	uint64_t *phi64, *pbits, *t0;
	uint32_t nq = q->t.n, x, h, j;
	int have = 0;

	d1.nc = 1;
	d1.c[0] = q->t;
	d1.size = nq;
	phi64 = cg_xreallocarray(NULL, (size_t)n + 1, sizeof *phi64);
	for (h = 0; h <= n; h++)
		phi64[h] = q->phi[h];
	cg_quot_tr_build(g, n, &d1, phi64, NULL, nq, &tr);
	free(phi64);
	for (x = 0; x < nq; x++)
		for (h = 1; h <= n; h++) {
			if (!q->isp[tmul(&q->t, x, q->phi[h])])
				continue;
			for (j = tr.off[h]; j < tr.off[h + 1]; j++)
				if (q->isp[tmul(&q->t, x, tr.el[j])])
					break;
			if (j == tr.off[h + 1])
				continue;
			cg_quot_word_of(q, x, &c);
			cg_quot_word_push(&c, h);
			if (!have || word_cmp(&c, w) < 0) {
				struct word tmp = *w;

				*w = c;
				c = tmp;
				have = 1;
			}
		}
	L.g = g;
	L.q = q;
	L.tr = &tr;
	L.W = (nq + 63) / 64;
	pbits = cg_xcalloc(L.W, sizeof *pbits);
	for (x = 0; x < nq; x++)
		if (q->isp[x])
			pbits[x / 64] |= (uint64_t)1 << (x % 64);
	L.pbits = pbits;
	L.ex = cg_xcalloc((size_t)n + 2, sizeof *L.ex);
	L.seen = cg_xcalloc(nq, sizeof *L.seen);
	L.nseen = cg_xcalloc(nq, sizeof *L.nseen);
	L.capseen = cg_xcalloc(nq, sizeof *L.capseen);
	L.out = &c;
	t0 = cg_xcalloc(L.W, sizeof *t0);
	lex_rec(&L, n, 0, t0, 1);
	if (L.found && (!have || word_cmp(&c, w) < 0)) {
		struct word tmp = *w;

		*w = c;
		c = tmp;
		have = 1;
	}
	for (x = 0; x < nq; x++)
		free(L.seen[x]);
	free(L.seen);
	free(L.nseen);
	free(L.capseen);
	free(L.ex);
	free(t0);
	free(pbits);
	free(c.h);
	cg_quot_tr_free(&tr);
	return have ? 0 : -1;
}

/* ---------------------------------------------------------- verification */

/* Heaps 1..n grouped by (Phi, transition set) in q: one representative
 * each, terminal heaps left out. */
static uint32_t
heap_classes(const struct quot *q, const struct trsets *tr, uint32_t n,
    uint32_t *rep)
{
	struct cg_bytemap *m = cg_bytemap_new();
	uint32_t *key = cg_xreallocarray(NULL, q->t.n + 2, sizeof *key);
	uint32_t h, k = 0, len;
	int isnew;

	for (h = 1; h <= n; h++) {
		if (tr->off[h] == tr->off[h + 1])
			continue;
		len = tr->off[h + 1] - tr->off[h];
		key[0] = q->phi[h];
		memcpy(key + 1, tr->el + tr->off[h], len * sizeof *key);
		(void)cg_bytemap_intern(m, key, (len + 1) * sizeof *key,
		    &isnew);
		if (isnew)
			rep[k++] = h;
	}
	cg_bytemap_free(m);
	free(key);
	return k;
}

#define STATE_LIMIT ((size_t)1 << 23)

/*
 * Verify q (its Phi) for heaps 1..n: 0 when it is the quotient, 1 with a
 * failing sum in w, -1 when the check is too large.
 */
int
cg_quot_verify(const struct cg_quot *g, uint32_t n, const struct quot *q,
    struct word *w)
{
	struct trsets trs, *tr = &trs;
	struct dsum d1 = { 0 };
	uint64_t *phi64;
	uint32_t nq = q->t.n, W = (nq + 63) / 64, *hc, nh, x, i, j;
	uint64_t *pbits, *tb = NULL, *nt;
	uint32_t *sq = NULL, *spar = NULL, *sh = NULL, *head, *next = NULL;
	size_t ns = 0, cap = 0, s;
	int res = 0;

	d1.nc = 1;
	d1.c[0] = q->t;
	d1.size = nq;
	phi64 = cg_xreallocarray(NULL, (size_t)n + 1, sizeof *phi64);
	for (i = 0; i <= n; i++)
		phi64[i] = q->phi[i];
	cg_quot_tr_build(g, n, &d1, phi64, NULL, nq, tr);
	free(phi64);
	hc = cg_xreallocarray(NULL, (size_t)n + 1, sizeof *hc);
	nh = heap_classes(q, tr, n, hc);
	/* P-check over the whole monoid */
	for (x = 0; x < nq; x++)
		for (i = 0; i < nh; i++) {
			uint32_t h = hc[i];

			if (!q->isp[tmul(&q->t, x, q->phi[h])])
				continue;
			for (j = tr->off[h]; j < tr->off[h + 1]; j++)
				if (q->isp[tmul(&q->t, x, tr->el[j])]) {
					cg_quot_word_of(q, x, w);
					cg_quot_word_push(w, h);
					free(hc);
					cg_quot_tr_free(tr);
					return 1;
				}
		}
	/* N-check over (element, transition set) states */
	pbits = cg_xcalloc(W, sizeof *pbits);
	for (x = 0; x < nq; x++)
		if (q->isp[x])
			pbits[x / 64] |= (uint64_t)1 << (x % 64);
	head = cg_xreallocarray(NULL, nq, sizeof *head);
	memset(head, 0xff, nq * sizeof *head);
	nt = cg_xcalloc(W, sizeof *nt);
#define GROW() do {                                                          \
	if (ns == cap) {                                                     \
		cap = cap ? 2 * cap : 1024;                                  \
		tb = cg_xreallocarray(tb, cap * W, sizeof *tb);              \
		sq = cg_xreallocarray(sq, cap, sizeof *sq);                  \
		spar = cg_xreallocarray(spar, cap, sizeof *spar);            \
		sh = cg_xreallocarray(sh, cap, sizeof *sh);                  \
		next = cg_xreallocarray(next, cap, sizeof *next);            \
	}                                                                    \
} while (0)
	GROW();
	memset(tb, 0, W * sizeof *tb);
	sq[0] = 0;
	spar[0] = UNSET;
	sh[0] = 0;
	next[0] = UNSET;
	head[0] = 0;
	ns = 1;
	for (s = 0; s < ns && res == 0; s++) {
		for (i = 0; i < nh && res == 0; i++) {
			uint32_t h = hc[i], q0 = sq[s], gq = q->phi[h];
			uint32_t nq2 = tmul(&q->t, q0, gq), o;
			const uint64_t *ts = tb + s * W;
			int hasp = 0, dom = 0, bit;
			size_t b;

			memset(nt, 0, W * sizeof *nt);
			for (b = 0; b < W; b++) {
				uint64_t v = ts[b];

				while (v) {
					bit = __builtin_ctzll(v);
					v &= v - 1;
					o = tmul(&q->t, (uint32_t)(b * 64 +
					    (size_t)bit), gq);
					nt[o / 64] |= (uint64_t)1 << (o % 64);
				}
			}
			for (j = tr->off[h]; j < tr->off[h + 1]; j++) {
				o = tmul(&q->t, q0, tr->el[j]);
				nt[o / 64] |= (uint64_t)1 << (o % 64);
			}
			for (b = 0; b < W; b++)
				if (nt[b] & pbits[b])
					hasp = 1;
			if (q->isp[nq2] == hasp) {
				/* a failure: the sum of this state */
				size_t u;

				w->n = 0;
				cg_quot_word_push(w, h);
				for (u = s; u != 0; u = spar[u])
					cg_quot_word_push(w, sh[u]);
				res = 1;
				break;
			}
			for (o = head[nq2]; o != UNSET && !dom; o = next[o]) {
				const uint64_t *to = tb + (size_t)o * W;

				if (o == 0)
					continue;
				for (b = 0; b < W && !(to[b] & ~nt[b]); b++)
					;
				dom = b == W;
			}
			if (dom)
				continue;
			if (ns >= STATE_LIMIT || cg_stop) {
				res = -1;
				break;
			}
			GROW();
			ts = tb + s * W;
			memcpy(tb + ns * W, nt, W * sizeof *nt);
			sq[ns] = nq2;
			spar[ns] = (uint32_t)s;
			sh[ns] = h;
			next[ns] = head[nq2];
			head[nq2] = (uint32_t)ns;
			ns++;
		}
	}
#undef GROW
	free(nt);
	free(head);
	free(pbits);
	free(tb);
	free(sq);
	free(spar);
	free(sh);
	free(next);
	free(hc);
	cg_quot_tr_free(tr);
	return res;
}

