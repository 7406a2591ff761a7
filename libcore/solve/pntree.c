/* pntree.c - the proof-number searches' tree: a table of nodes keyed
 * by what they stand for, their expansion, the refresh of their numbers
 * through the parent links, and the collection of a table past its
 * limit; see pn_int.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "solve/pn_int.h"
#include "solve/sums.h"

/* ------------------------------------------------------------- table */

static uint32_t
hash_id(int kind, uint64_t id)
{
	uint64_t h = (id ^ (uint64_t)kind << 62) * 0x9e3779b97f4a7c15ull;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return (uint32_t)h | 1;
}

static uint32_t
hash_key(const uint32_t *mk, size_t len)
{
	return (uint32_t)cg_hash_bytes(mk, len * 4, N_MULTI) | 1;
}

static uint32_t
node_hash(const struct ptab *t, const struct pnode *nd)
{
	const uint32_t *mk;

	if (nd->kind != N_MULTI)
		return hash_id(nd->kind, nd->id);
	mk = t->mkey + nd->id;
	return hash_key(mk, mk[0] + 2);
}

void
pn_tab_clear(struct ptab *t)
{
	t->n = 0;
	t->nkid = t->dead = 0;
	t->nmkey = 0;
	t->nlink = 0;
	t->nheap = 0;
	t->regrow = 0;
	if (t->slot != NULL)
		memset(t->slot, 0, t->nslot * sizeof *t->slot);
}

void
pn_tab_free(struct ptab *t)
{
	free(t->node);
	free(t->slot);
	free(t->kid);
	free(t->mkey);
	free(t->link);
	free(t->kn);
	free(t->heap);
	memset(t, 0, sizeof *t);
}

size_t
pn_tab_bytes(const struct ptab *t)
{
	return t->cap * sizeof *t->node + t->nslot * sizeof *t->slot +
	    t->capkid * sizeof *t->kid + t->capmkey * sizeof *t->mkey +
	    t->caplink * sizeof *t->link + t->capkid * sizeof *t->kn;
}

/* The bytes the table's contents use (tab_bytes: what it holds). */
static size_t
tab_used(const struct ptab *t)
{
	return t->n * sizeof *t->node + t->nslot * sizeof *t->slot +
	    t->nkid * sizeof *t->kid + t->nmkey * sizeof *t->mkey +
	    t->nlink * sizeof *t->link + t->nkid * sizeof *t->kn;
}

static void
slots_build(struct ptab *t, size_t want)
{
	size_t ns = 1024, i, j;

	while (ns < 2 * want)
		ns *= 2;
	if (ns != t->nslot) {
		free(t->slot);
		t->slot = cg_xcalloc(ns, sizeof *t->slot);
		t->nslot = ns;
	} else {
		memset(t->slot, 0, ns * sizeof *t->slot);
	}
	for (i = 0; i < t->n; i++) {
		uint32_t h = node_hash(t, &t->node[i]);

		for (j = h & (ns - 1); t->slot[j] != 0; j = (j + 1) & (ns - 1))
			;
		t->slot[j] = (uint64_t)h << 32 | (i + 1);
	}
}

/* The node of (kind, id) -- or of MULTI key mk[0..len) -- or NONE with
 * *at its slot. */
static uint32_t
tab_find(const struct ptab *t, int kind, uint64_t id, const uint32_t *mk,
    size_t len, uint32_t h, size_t *at)
{
	size_t j;
	uint64_t v;

	if (t->nslot == 0) {
		*at = 0;
		return NONE;
	}
	for (j = h & (t->nslot - 1); (v = t->slot[j]) != 0;
	    j = (j + 1) & (t->nslot - 1)) {
		const struct pnode *nd;

		if ((uint32_t)(v >> 32) != h)
			continue;
		nd = &t->node[(uint32_t)v - 1];
		if (nd->kind != kind)
			continue;
		if (kind != N_MULTI ? nd->id == id :
		    (t->mkey[nd->id] + 2 == len &&
		    memcmp(t->mkey + nd->id, mk, len * 4) == 0))
			return (uint32_t)v - 1;
	}
	*at = j;
	return NONE;
}

static uint32_t
tab_add(struct ptab *t, int kind, uint64_t id, uint32_t h, size_t at)
{
	struct pnode *nd;
	uint32_t x;

	if (t->n >= INF - 2)
		cg_die(CG_EXIT_DATA, "proof-number tree full");
	if (t->nslot == 0 || cg_watch_double(t->n + 1, t->nslot,
	    2 * t->nslot * sizeof *t->slot)) {
		slots_build(t, t->n + 1);
		tab_find(t, kind, id, t->mkey + (kind == N_MULTI ? id : 0),
		    kind == N_MULTI ? t->mkey[id] + 2 : 0, h, &at);
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4096;
		t->node = cg_xreallocarray(t->node, t->cap, sizeof *t->node);
	}
	x = (uint32_t)t->n++;
	nd = &t->node[x];
	memset(nd, 0, sizeof *nd);
	nd->kind = (uint8_t)kind;
	nd->id = id;
	nd->par = NONE;
	nd->pn = nd->dn = 1;
	t->slot[at] = (uint64_t)h << 32 | (x + 1);
	return x;
}

/* Node parent has child among its children, at kid[slot]. */
static void
link_add(struct ptab *t, uint32_t child, uint32_t parent, uint32_t slot)
{
	t->kn[slot].pn = t->node[child].pn;
	t->kn[slot].dn = t->node[child].dn;
	if (t->nlink == t->caplink) {
		t->caplink = t->caplink ? 2 * t->caplink : 65536;
		t->link = cg_xreallocarray(t->link, t->caplink,
		    sizeof *t->link);
	}
	t->link[t->nlink].parent = parent;
	t->link[t->nlink].slot = slot;
	t->link[t->nlink].next = t->node[child].par;
	t->node[child].par = (uint32_t)t->nlink++;
}

static void
kid_reserve(struct ptab *t, size_t extra)
{
	if (t->nkid + extra > t->capkid) {
		while (t->nkid + extra > t->capkid)
			t->capkid = t->capkid ? 2 * t->capkid : 65536;
		t->kid = cg_xreallocarray(t->kid, t->capkid, sizeof *t->kid);
		t->kn = cg_xreallocarray(t->kn, t->capkid, sizeof *t->kn);
	}
}

/* --------------------------------------------------------- results */

/* What the words or the sums already say of a node: 1 a win for the
 * player to move, 0 a loss, -1 unknown. */
int
pn_node_known(struct cg_solver *s, const struct pnode *nd)
{
	uint32_t c, n;
	int64_t v;
	uint64_t w;
	int side;

	switch (nd->kind) {
	case N_COUPLE:
		c = (uint32_t)nd->id;
		n = (uint32_t)(nd->id >> 32);
		v = known(s, c);
		if (v >= 0)
			return v != n;
		return winbit(s, c, n) ? 1 : -1;
	case N_WHOLE:
		side = (int)(nd->id >> 32);
		w = *sv_sum_val(s, (uint32_t)nd->id);
		if (w >> (2 * side) & 1)
			return (int)(w >> (2 * side + 1) & 1);
		return -1;
	}
	return -1;
}

static void
record(struct cg_solver *s, const struct pnode *nd, int win)
{
	uint32_t c, n;
	int side;

	switch (nd->kind) {
	case N_COUPLE:
		c = (uint32_t)nd->id;
		n = (uint32_t)(nd->id >> 32);
		if (win)
			setwin(s, c, n);
		else if (known(s, c) < 0)
			setnim(s, c, n);
		break;
	case N_WHOLE:
		side = (int)(nd->id >> 32);
		if (pn_node_known(s, nd) < 0)
			sv_sum_set(s, (uint32_t)nd->id, side, win,
			    (nd->flags & F_MISERE) ? 'M' : 'N');
		break;
	}
}

void
pn_prove(struct cg_solver *s, struct ptab *t, uint32_t x, int win)
{
	struct pnode *nd = &t->node[x];

	if (nd->flags & F_EXPANDED) {
		t->dead += nd->nkids;
		nd->nkids = 0;
	}
	nd->pn = win ? 0 : INF;
	nd->dn = win ? INF : 0;
	record(s, nd, win);
	/* wherever it is proven, the parents must hear it: a parent whose
	 * kn still showed it open would choose it again and again */
	pn_touched(t, x);
}

/* ------------------------------------------------------------ nodes */

static uint32_t
order_of(int64_t k)
{
	return sv_clamp_key(k);
}

uint32_t
pn_couple(struct cg_solver *s, struct ptab *t, uint32_t c, uint32_t n)
{
	uint64_t id = c | (uint64_t)n << 32;
	uint32_t h = hash_id(N_COUPLE, id), x;
	size_t at;
	int r;

	x = tab_find(t, N_COUPLE, id, NULL, 0, h, &at);
	if (x != NONE)
		return x;
	x = tab_add(t, N_COUPLE, id, h, at);
	t->node[x].order = order_of(okey(s, c));
	r = pn_node_known(s, &t->node[x]);
	if (r >= 0) {
		t->node[x].pn = r ? 0 : INF;
		t->node[x].dn = r ? INF : 0;
	}
	return x;
}

/* Drop equal pairs from the sorted u[0..m): G + G = 0. */
size_t
pn_cancel_pairs(uint32_t *u, size_t m)
{
	size_t i, k = 0;

	for (i = 0; i < m; i++) {
		if (k > 0 && u[k - 1] == u[i]) {
			k--;
			continue;
		}
		u[k++] = u[i];
	}
	return k;
}

static void
scratch(uint32_t **a, size_t *cap, size_t n)
{
	if (n > *cap) {
		*cap = 2 * n;
		*a = cg_xreallocarray(*a, *cap, sizeof **a);
	}
}

/* The node of u[0..m) + *n, u sorted, of unknown nim values, no pair
 * equal, m >= 1. */
uint32_t
pn_multi(struct cg_solver *s, struct ptab *t, const uint32_t *u, size_t m,
    uint32_t n)
{
	struct pns *p = s->pns;
	uint32_t h, x;
	size_t at, i;
	int64_t key = 0;

	if (m == 1)
		return pn_couple(s, t, u[0], n);
	scratch(&p->mk, &p->capmk, m + 2);
	p->mk[0] = (uint32_t)m;
	p->mk[1] = n;
	memcpy(p->mk + 2, u, m * sizeof *u);
	h = hash_key(p->mk, m + 2);
	x = tab_find(t, N_MULTI, 0, p->mk, m + 2, h, &at);
	if (x != NONE)
		return x;
	if (t->nmkey + m + 2 > t->capmkey) {
		while (t->nmkey + m + 2 > t->capmkey)
			t->capmkey = t->capmkey ? 2 * t->capmkey : 65536;
		t->mkey = cg_xreallocarray(t->mkey, t->capmkey,
		    sizeof *t->mkey);
	}
	memcpy(t->mkey + t->nmkey, p->mk, (m + 2) * sizeof *p->mk);
	x = tab_add(t, N_MULTI, t->nmkey, h, at);
	t->nmkey += m + 2;
	for (i = 0; i < m; i++)
		key += okey(s, u[i]);
	t->node[x].order = order_of(key);
	t->node[x].nim = n;
	return x;
}

uint32_t
pn_whole(struct cg_solver *s, struct ptab *t, uint64_t e, int side, int misere,
    uint32_t order)
{
	uint64_t id = e | (uint64_t)side << 32;
	uint32_t h = hash_id(N_WHOLE, id), x;
	size_t at;
	int r;

	x = tab_find(t, N_WHOLE, id, NULL, 0, h, &at);
	if (x != NONE)
		return x;
	x = tab_add(t, N_WHOLE, id, h, at);
	t->node[x].order = order;
	if (misere)
		t->node[x].flags |= F_MISERE;
	r = pn_node_known(s, &t->node[x]);
	if (r >= 0) {
		t->node[x].pn = r ? 0 : INF;
		t->node[x].dn = r ? INF : 0;
	}
	return x;
}

/* -------------------------------------------------------- expansion */

struct xctx {
	struct cg_solver *s;
	struct ptab *t;
	uint32_t n, seq;
	int cut;
};

void
pn_rec_add(struct pns *p, uint32_t order, uint32_t seq, uint32_t node)
{
	if (p->nrec == p->caprec) {
		p->caprec = p->caprec ? 2 * p->caprec : 256;
		p->rec = cg_xreallocarray(p->rec, p->caprec, sizeof *p->rec);
	}
	p->rec[p->nrec].order = order;
	p->rec[p->nrec].seq = seq;
	p->rec[p->nrec].node = node;
	p->nrec++;
}

/* A child y of the node being expanded: a loss for its mover makes the
 * node a win at once; a win, or a child met before, adds nothing. */
static int
add_kid(struct xctx *xc, uint32_t y)
{
	struct pnode *nd = &xc->t->node[y];

	if (nd->dn == 0) {
		xc->cut = 1;
		return 1;
	}
	if (nd->pn == 0 || (nd->flags & F_SEEN))
		return 0;
	nd->flags |= F_SEEN;
	pn_rec_add(xc->s->pns, nd->order, xc->seq++, y);
	return 0;
}

static int
couple_option(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct xctx *xc = ctx;
	struct cg_solver *s = xc->s;
	struct pns *p = s->pns;
	uint32_t n = xc->n;
	size_t i, m = 0;
	int64_t v;

	(void)move;
	scratch(&p->u, &p->capu, k + 1);
	for (i = 0; i < k; i++) {
		v = known(s, ids[i]);
		if (v >= 0)
			n ^= (uint32_t)v;
		else
			p->u[m++] = ids[i];
	}
	m = pn_cancel_pairs(p->u, m);
	if (m == 0) {
		if (n != 0)
			return 0;
		xc->cut = 1;
		return 1;
	}
	if (m == 1 && winbit(s, p->u[0], n))
		return 0;
	return add_kid(xc, pn_multi(s, xc->t, p->u, m, n));
}

static int
cmp_krec(const void *a, const void *b)
{
	const struct krec *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The node takes the children collected in p->rec, in order. */
void
pn_set_kids(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct pns *p = s->pns;
	struct pnode *nd;
	size_t i;

	for (i = 0; i < p->nrec; i++)
		t->node[p->rec[i].node].flags &= ~F_SEEN;
	if (p->nrec > 1)
		qsort(p->rec, p->nrec, sizeof *p->rec, cmp_krec);
	kid_reserve(t, p->nrec);
	nd = &t->node[x];
	nd->kids = (uint32_t)t->nkid;
	nd->nkids = (uint32_t)p->nrec;
	nd->flags |= F_EXPANDED;
	for (i = 0; i < p->nrec; i++) {
		link_add(t, p->rec[i].node, x, (uint32_t)t->nkid);
		t->kid[t->nkid++] = p->rec[i].node;
	}
	p->nrec = 0;
}

static void
drop_recs(struct cg_solver *s, struct ptab *t)
{
	struct pns *p = s->pns;
	size_t i;

	for (i = 0; i < p->nrec; i++)
		t->node[p->rec[i].node].flags &= ~F_SEEN;
	p->nrec = 0;
}

static int
expand_couple(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct xctx xc;
	uint32_t c = (uint32_t)t->node[x].id, i;

	xc.s = s;
	xc.t = t;
	xc.n = (uint32_t)(t->node[x].id >> 32);
	xc.seq = 0;
	xc.cut = 0;
	tick(s);
	comp_options(s, c, CG_LEFT, couple_option, &xc);
	if (STOPPED(s)) {
		drop_recs(s, t);
		return -1;
	}
	for (i = 0; i < xc.n && !xc.cut; i++)
		if (!winbit(s, c, i))
			add_kid(&xc, pn_couple(s, t, c, i));
	if (xc.cut) {
		drop_recs(s, t);
		pn_prove(s, t, x, 1);
		return 0;
	}
	if (s->pns->nrec == 0) {
		pn_prove(s, t, x, 0);
		return 0;
	}
	pn_set_kids(s, t, x);
	return 0;
}

static int
expand_multi(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct pns *p = s->pns;
	uint32_t m = t->mkey[t->node[x].id], i, k, nim, y;
	int64_t v;

	nim = t->node[x].nim;
	for (i = 0; i < m; i++) {
		uint32_t u = t->mkey[t->node[x].id + 2 + i];

		v = known(s, u);
		if (v >= 0) {
			nim ^= (uint32_t)v;
			continue;
		}
		for (k = 0; winbit(s, u, k); k++)
			;
		y = pn_couple(s, t, u, k);
		pn_rec_add(p, order_of(okey(s, u)), i, y);
	}
	/* lands are distinct: no F_SEEN needed */
	pn_set_kids(s, t, x);
	t->node[x].nim = nim;
	return 0;
}

static int
expand_whole(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct pnode *nd = &t->node[x];
	struct xctx xc;
	uint64_t e = (uint32_t)nd->id, moves;
	int side = (int)(nd->id >> 32), other = s->impartial ? side : !side;
	int misere = (nd->flags & F_MISERE) != 0, cut;
	size_t off0, base = s->arlen, i;

	tick(s);
	moves = sv_expand_sum(s, e, misere ? 'M' : 'N', side, other, 0, &cut,
	    &off0);
	if (STOPPED(s)) {
		s->noffs = off0;
		s->arlen = base;
		return -1;
	}
	xc.s = s;
	xc.t = t;
	xc.seq = 0;
	xc.cut = cut;
	for (i = off0; i < s->noffs && !xc.cut; i++) {
		uint32_t r = s->offs[i];
		uint64_t ce = s->ar[r + 1] | (uint64_t)s->ar[r + 2] << 32;

		add_kid(&xc, pn_whole(s, t, ce, other, misere, s->ar[r]));
	}
	s->noffs = off0;
	s->arlen = base;
	if (xc.cut) {
		drop_recs(s, t);
		pn_prove(s, t, x, 1);
		return 0;
	}
	if (moves == 0) {
		pn_prove(s, t, x, misere);
		return 0;
	}
	if (s->pns->nrec == 0) {
		pn_prove(s, t, x, 0);
		return 0;
	}
	pn_set_kids(s, t, x);
	return 0;
}

/* Expand node x (its children made, or its result found); -1 when a stop
 * cut the expansion short (x is left as it was). */
int
pn_expand(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	int r = pn_node_known(s, &t->node[x]);

	if (r >= 0) {
		pn_prove(s, t, x, r);
		return 0;
	}
	switch (t->node[x].kind) {
	case N_COUPLE:
		return expand_couple(s, t, x);
	case N_MULTI:
		return expand_multi(s, t, x);
	}
	return expand_whole(s, t, x);
}

/* ---------------------------------------------------------- refresh */

/* Re-evaluate an expanded OR node (COUPLE, WHOLE) from its children's
 * numbers in kn[], which the links keep up to date; returns the child to
 * search (not busy), or NONE when the node is proven or every child is
 * busy.  Children proven wins stay in the list (their links name their
 * slots) and are passed over; a collection drops them. */
static uint32_t
refresh_or(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct pnode *nd = &t->node[x];
	const struct kidnum *kn = t->kn + nd->kids;
	uint32_t i, m = 0, best = NONE, cpn, cdn;
	uint32_t pn = INF, dn = 0, bdn = INF, dn2 = INF;
	int busy = s->pns->nbusy > 0;

	for (i = 0; i < nd->nkids; i++) {
		cpn = kn[i].pn;
		cdn = kn[i].dn;
		if (cpn == 0)
			continue;
		if (cdn == 0) {
			pn_prove(s, t, x, 1);
			return NONE;
		}
		if (cdn < pn)
			pn = cdn;
		if (!busy || !(t->node[t->kid[nd->kids + i]].flags & F_BUSY)) {
			if (cdn < bdn) {
				dn2 = bdn;
				bdn = cdn;
				best = i;
			} else if (cdn < dn2) {
				dn2 = cdn;
			}
		}
		dn = sadd(dn, cpn);
		m++;
	}
	if (m == 0) {
		pn_prove(s, t, x, 0);
		return NONE;
	}
	nd->pn = pn;
	nd->dn = dn;
	s->pns->dn2 = dn2;
	return best;
}

static uint32_t
refresh_multi(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct pnode *nd = &t->node[x];
	uint32_t i, m = 0, nim = nd->nim, n = nd->nkids, y, sum = 0, best, mm, most;
	const struct pnode *c;

	if (nd->flags & F_FINAL) {
		c = &t->node[t->kid[nd->kids]];
		if (proven(c)) {
			pn_prove(s, t, x, c->pn == 0);
			return NONE;
		}
		nd->pn = c->pn;
		nd->dn = c->dn;
		return (c->flags & F_BUSY) ? NONE : 0;
	}
	for (i = 0; i < n; i++) {
		y = t->kid[t->node[x].kids + i];
		for (;;) {
			uint32_t u, k;
			int64_t v;

			c = &t->node[y];
			u = (uint32_t)c->id;
			k = (uint32_t)(c->id >> 32);
			v = known(s, u);
			if (v >= 0) {
				nim ^= (uint32_t)v;
				y = NONE;
				break;
			}
			if (c->dn == 0) {
				nim ^= k;
				y = NONE;
				break;
			}
			if (c->pn != 0 && !winbit(s, u, k))
				break;
			for (k++; winbit(s, u, k); k++)
				;
			y = pn_couple(s, t, u, k);
			link_add(t, y, x, t->node[x].kids + m);
		}
		if (y != NONE)
			t->kid[t->node[x].kids + m++] = y;
	}
	nd = &t->node[x];
	t->dead += nd->nkids - m;
	nd->nkids = m;
	nd->nim = nim;
	if (m == 0) {
		pn_prove(s, t, x, nim != 0);
		return NONE;
	}
	if (m == 1) {
		y = pn_couple(s, t, (uint32_t)t->node[t->kid[nd->kids]].id, nim);
		link_add(t, y, x, t->node[x].kids);
		nd = &t->node[x];
		t->kid[nd->kids] = y;
		nd->flags |= F_FINAL;
		return refresh_multi(s, t, x);
	}
	/* Every land must be settled; the one with the most left to settle
	 * (min(pn, dn) largest, the first in order on ties) is searched
	 * next: on Sprouts (bench/sprouts-vs-spots) it beats both the first
	 * land in order and the cheapest first. */
	best = NONE;
	for (i = 0, most = 0; i < m; i++) {
		c = &t->node[t->kid[nd->kids + i]];
		mm = c->pn < c->dn ? c->pn : c->dn;
		sum = sadd(sum, mm);
		if (c->flags & F_BUSY)
			continue;
		if (best == NONE || mm > most) {
			best = i;
			most = mm;
		}
	}
	nd->pn = nd->dn = sum;
	return best;
}

/* Re-evaluate node x; the child to search next, or NONE (proven, not
 * expanded, or every child busy). */
static uint32_t
refresh_node(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct pnode *nd = &t->node[x];
	int r;

	if (proven(nd))
		return NONE;
	r = pn_node_known(s, nd);
	if (r >= 0) {
		pn_prove(s, t, x, r);
		return NONE;
	}
	if (!(nd->flags & F_EXPANDED))
		return NONE;
	if (nd->kind == N_MULTI)
		return refresh_multi(s, t, x);
	return refresh_or(s, t, x);
}

/* Node x's numbers changed: its parents hear them (kn) and are queued to
 * be refreshed in turn (pn_update_dag). */
void
pn_touched(struct ptab *t, uint32_t x)
{
	uint32_t l, pn = t->node[x].pn, dn = t->node[x].dn;

	for (l = t->node[x].par; l != NONE; l = t->link[l].next) {
		const struct plink *lk = &t->link[l];
		struct pnode *y = &t->node[lk->parent];
		struct kidnum old;
		uint64_t ndn;
		uint32_t npn;
		uint16_t mark = F_RESCAN;

		if (proven(y))
			continue;
		if (t->kid[lk->slot] != x) {
			/* a stale link, or a MULTI's list compacted */
			if (y->kind != N_MULTI)
				continue;
			goto queue;
		}
		old = t->kn[lk->slot];
		if (old.pn == pn && old.dn == dn)
			continue;
		t->kn[lk->slot].pn = pn;
		t->kn[lk->slot].dn = dn;
		if (y->kind == N_MULTI || (y->flags & F_RESCAN) ||
		    pn == 0 || dn == 0 || old.pn == 0 || y->dn >= INF - 1)
			goto queue;
		/* an OR node: dn the sum of its children's pn, pn the least
		 * of their dn -- changed in place, unless the least rose */
		ndn = (uint64_t)y->dn - old.pn + pn;
		npn = y->pn;
		if (dn < npn)
			npn = dn;
		else if (old.dn == npn && dn > old.dn)
			goto queue;
		if (ndn >= INF - 1)
			goto queue;
		if (npn == y->pn && ndn == y->dn)
			continue;
		y->pn = npn;
		y->dn = (uint32_t)ndn;
		mark = F_CHANGED;
	queue:
		y->flags |= mark;
		if (!(y->flags & F_QUEUED)) {
			y->flags |= F_QUEUED;
			pn_heap_push(t, lk->parent);
		}
	}
}

/* refresh_node, and the news passed on to the parents. */
uint32_t
pn_refresh(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	uint32_t opn = t->node[x].pn, odn = t->node[x].dn, b;

	b = refresh_node(s, t, x);
	if ((t->node[x].pn != opn || t->node[x].dn != odn) &&
	    !proven(&t->node[x]))   /* prove() has told them */
		pn_touched(t, x);
	return b;
}

/* -------------------------------------------------------- collection */

void
pn_path_push(struct path *pa, uint32_t x)
{
	if (pa->n == pa->cap) {
		pa->cap = pa->cap ? 2 * pa->cap : 64;
		pa->x = cg_xreallocarray(pa->x, pa->cap, sizeof *pa->x);
		pa->at = cg_xreallocarray(pa->at, pa->cap, sizeof *pa->at);
		pa->of = cg_xreallocarray(pa->of, pa->cap, sizeof *pa->of);
	}
	pa->x[pa->n] = x;
	pa->at[pa->n] = 0;
	pa->of[pa->n] = 0;
	pa->n++;
}

void
pn_path_free(struct path *pa)
{
	free(pa->x);
	free(pa->at);
	free(pa->of);
	memset(pa, 0, sizeof *pa);
}

/* A child an OR node keeps in its list once proven a win (refresh_or
 * passes over it): a collection drops it. */
static int
dropped_kid(const struct ptab *t, const struct pnode *nd,
    const struct pnode *c)
{
	return nd->kind != N_MULTI && c->pn == 0;
}

/*
 * Keep the nodes the roots reach through expanded unproven nodes, drop
 * the rest, renumber (in the old order) and remap roots[0..nroots).
 */
static void
collect(struct ptab *t, uint32_t *roots, size_t nroots)
{
	uint32_t *stack, *map, *kid, *mkey;
	size_t ns = 0, i, j, nn = 0, nk = 0, nm = 0, nmk = 0;

	stack = cg_xmalloc((t->n + 1) * sizeof *stack);
	for (i = 0; i < nroots; i++)
		if (roots[i] != NONE)
			stack[ns++] = roots[i];
	while (ns > 0) {
		struct pnode *nd = &t->node[stack[--ns]];

		if (nd->flags & F_MARK)
			continue;
		nd->flags |= F_MARK;
		if (nd->kind == N_MULTI)
			nmk += t->mkey[nd->id] + 2;
		if (!(nd->flags & F_EXPANDED) || proven(nd))
			continue;
		for (j = 0; j < nd->nkids; j++) {
			const struct pnode *c = &t->node[t->kid[nd->kids + j]];

			if (dropped_kid(t, nd, c))
				continue;
			nk++;
			if (!(c->flags & F_MARK))
				stack[ns++] = t->kid[nd->kids + j];
		}
	}
	free(stack);
	map = cg_xmalloc((t->n + 1) * sizeof *map);
	kid = cg_xmalloc((nk + 1) * sizeof *kid);
	mkey = cg_xmalloc((nmk + 1) * sizeof *mkey);
	for (i = 0; i < t->n; i++)
		map[i] = (t->node[i].flags & F_MARK) ? (uint32_t)nn++ : NONE;
	for (i = 0, nn = 0; i < t->n; i++) {
		struct pnode nd = t->node[i];

		if (!(nd.flags & F_MARK))
			continue;
		nd.flags &= ~F_MARK;
		if (nd.kind == N_MULTI) {
			size_t len = t->mkey[nd.id] + 2;

			memcpy(mkey + nm, t->mkey + nd.id, len * sizeof *mkey);
			nd.id = nm;
			nm += len;
		}
		t->node[nn++] = nd;
	}
	/* children, now that every node has its new number */
	for (i = 0, j = 0; i < nn; i++) {
		struct pnode *nd = &t->node[i];
		size_t q, m;

		if (!(nd->flags & F_EXPANDED) || proven(nd)) {
			nd->kids = 0;
			if (nd->flags & F_EXPANDED)
				nd->nkids = 0;
			continue;
		}
		for (q = 0, m = 0; q < nd->nkids; q++) {
			uint32_t y = map[t->kid[nd->kids + q]];

			if (y != NONE && !dropped_kid(t, nd, &t->node[y]))
				kid[j + m++] = y;
		}
		nd->kids = (uint32_t)j;
		nd->nkids = (uint32_t)m;
		j += m;
	}
	free(t->kid);
	t->kid = kid;
	t->nkid = t->capkid = j;
	t->kn = cg_xreallocarray(t->kn, j + 1, sizeof *t->kn);
	/* the parent links again, of the children kept */
	t->nlink = 0;
	for (i = 0; i < nn; i++)
		t->node[i].par = NONE;
	for (i = 0; i < nn; i++) {
		size_t q;

		for (q = 0; q < t->node[i].nkids; q++)
			link_add(t, t->kid[t->node[i].kids + q], (uint32_t)i,
			    t->node[i].kids + (uint32_t)q);
	}
	t->dead = 0;
	free(t->mkey);
	t->mkey = mkey;
	t->nmkey = t->capmkey = nm;
	for (i = 0; i < nroots; i++)
		if (roots[i] != NONE)
			roots[i] = map[roots[i]];
	free(map);
	t->n = nn;
	if (t->cap > 2 * nn + 4096) {
		t->cap = nn + 4096;
		t->node = cg_xreallocarray(t->node, t->cap, sizeof *t->node);
	}
	slots_build(t, nn);
}

/* The table's limit: a share of --max-memory, or of the machine. */
size_t
pn_table_limit(void)
{
	size_t lim = cg_watch_limit();
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	if (lim != 0)
		return lim / 5 * 2;
	if (pages > 0 && psz > 0)
		return (size_t)pages * (size_t)psz / 4;
	return (size_t)4 << 30;
}

/* Past the limit (or with much garbage), collect; a tree that stays
 * large goes on as PN2.  A tree still past the limit after a collection
 * is not collected again until it has grown by half: else df-pn, which
 * looks every 4096 expansions, would spend nearly all its time
 * collecting a tree of live nodes, again and again. */
void
pn_maybe_collect(struct cg_solver *s, struct ptab *t, uint32_t *roots,
    size_t nroots)
{
	struct pns *p = s->pns;
	size_t b = pn_tab_bytes(t);

	if ((b < p->limit || tab_used(t) < t->regrow) &&
	    !(t->dead > t->nkid / 2 && t->nkid > (1u << 24)))
		return;
	/* the collection's copies are made at once: past the memory limit
	 * the search stops rather than overshoot it (the copies can take
	 * gigabytes between two samples of the watch) */
	if (!cg_watch_room((t->n + 1) * 2 * sizeof(uint32_t) +
	    t->nkid * sizeof *t->kid + t->nmkey * sizeof *t->mkey))
		return;
	collect(t, roots, nroots);
	t->regrow = tab_used(t) + tab_used(t) / 2;
	if (pn_tab_bytes(t) > p->limit / 4 * 3 && t == &p->t)
		p->pn2 = 1;
}

/* ---------------------------------------------------- refresh queue */

static int
heap_less(const struct ptab *t, uint32_t a, uint32_t b)
{
	return t->node[a].order < t->node[b].order;
}

void
pn_heap_push(struct ptab *t, uint32_t x)
{
	size_t i, up;

	if (t->nheap == t->capheap) {
		t->capheap = t->capheap ? 2 * t->capheap : 256;
		t->heap = cg_xreallocarray(t->heap, t->capheap,
		    sizeof *t->heap);
	}
	for (i = t->nheap++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!heap_less(t, x, t->heap[up]))
			break;
		t->heap[i] = t->heap[up];
	}
	t->heap[i] = x;
}

static uint32_t
pn_heap_pop(struct ptab *t)
{
	uint32_t top = t->heap[0], x = t->heap[--t->nheap];
	size_t i = 0, c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= t->nheap)
			break;
		if (c + 1 < t->nheap && heap_less(t, t->heap[c + 1],
		    t->heap[c]))
			c++;
		if (!heap_less(t, t->heap[c], x))
			break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	if (t->nheap > 0)
		t->heap[i] = x;
	return top;
}

/*
 * Bring every node above the ones touched up to date through the parent
 * links, as SPOTS does, not only the path a descent took: the tree is a
 * DAG, and a parent elsewhere would keep stale numbers until a descent
 * passed it and lead the next descents astray, at the cost of many more
 * expansions.  Nodes go least order first, which puts a position's
 * options before it in games whose keys count what is left to play; any
 * order gives the same numbers, a worse one refreshes some nodes twice.
 */
void
pn_update_dag(struct cg_solver *s, struct ptab *t)
{
	uint32_t x;
	uint16_t f;

	while (t->nheap > 0) {
		x = pn_heap_pop(t);
		f = t->node[x].flags;
		t->node[x].flags &= ~(F_QUEUED | F_RESCAN | F_CHANGED);
		if (proven(&t->node[x]))
			continue;
		/* numbers changed in place have not been passed on yet */
		if (f & F_RESCAN)
			(void)pn_refresh(s, t, x);
		if ((f & F_CHANGED) && !proven(&t->node[x]))
			pn_touched(t, x);
	}
}
