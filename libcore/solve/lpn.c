/* lpn.c - proof-number search on loopy games (lpn.h).
 *
 * Allis's proof-number search over a tree: each node is a position
 * reached by one path from the root, so the path it rests on is the
 * chain of its parents and a repetition is found by walking it.  A node
 * where the prover moves (an OR node) is proven by one proven child, an
 * AND node by all; proof numbers count the leaves still to prove, and
 * the most-proving leaf is expanded next.  Positions are kept once, in
 * a table of states, with their options and the results settled for
 * good; tree nodes point at them. */
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "solve/lpn.h"
#include "solve/retro.h"

#define INF UINT32_MAX
#define NOLOOP UINT32_MAX        /* a disproof that rests on no repetition */
#define TREE_MAX (UINT32_MAX - 1)

/* Results settled for good, per state and side to move: bits by
 * whether the prover is the side to move (0) or the other (2), then
 * proven (1) or disproven (2). */
#define TT_BIT(mover_proves, proven) \
	(1u << (((mover_proves) ? 0 : 2) + ((proven) ? 0 : 1)))

struct state {
	uint64_t off[2];         /* its options in opt: off .. off + cnt */
	uint32_t cnt[2];
	unsigned char have[2];   /* options generated */
	unsigned char tt[2];     /* TT_BIT, by side to move */
};

struct tnode {
	uint32_t parent;         /* INF at the root */
	uint32_t first, n;       /* children: tree[first .. first + n) */
	uint32_t state;
	uint32_t pn, dn;
	uint32_t depth;
	uint32_t loop;           /* a disproof's shallowest repetition */
	unsigned char side;      /* to move */
	unsigned char expanded;  /* children made, or solved as a leaf */
};

struct cg_lpn {
	cg_lpn_options_fn options;
	void *ctx;
	struct cg_bytemap *map;  /* state bytes -> state number */
	struct state *st;
	size_t nst, capst;
	uint32_t *opt;
	uint64_t nopt, capopt;
	struct tnode *tree;
	size_t ntree, captree;
	uint64_t made;           /* tree nodes over every query */
	int side;                /* the side being generated */
	uint32_t from;           /* the state being generated */
};

struct cg_lpn *
cg_lpn_new(cg_lpn_options_fn options, void *ctx)
{
	struct cg_lpn *p = cg_xcalloc(1, sizeof *p);

	p->options = options;
	p->ctx = ctx;
	p->map = cg_bytemap_new();
	return p;
}

void
cg_lpn_free(struct cg_lpn *p)
{
	if (p == NULL)
		return;
	cg_bytemap_free(p->map);
	free(p->st);
	free(p->opt);
	free(p->tree);
	free(p);
}

static uint32_t
intern(struct cg_lpn *p, const unsigned char *key, size_t len)
{
	int isnew;
	uint64_t x = cg_bytemap_intern(p->map, key, len, &isnew);

	if (x >= TREE_MAX)
		cg_die(CG_EXIT_DATA, "more than %lu positions met",
		    (unsigned long)TREE_MAX);
	if (isnew) {
		if (p->nst == p->capst) {
			p->capst = p->capst ? 2 * p->capst : 1024;
			p->st = cg_xreallocarray(p->st, p->capst,
			    sizeof *p->st);
		}
		memset(&p->st[p->nst++], 0, sizeof *p->st);
	}
	return (uint32_t)x;
}

static void
on_option(void *ectx, const unsigned char *q, size_t qlen)
{
	struct cg_lpn *p = ectx;
	uint32_t y = intern(p, q, qlen);

	if (p->nopt == p->capopt) {
		p->capopt = p->capopt ? 2 * p->capopt : 4096;
		p->opt = cg_xreallocarray(p->opt, p->capopt, sizeof *p->opt);
	}
	p->opt[p->nopt++] = y;
}

/* State x's options for side (generated once). */
static const uint32_t *
options(struct cg_lpn *p, uint32_t x, int side, uint32_t *n)
{
	struct state *s = &p->st[x];
	const unsigned char *key;
	size_t len;

	if (!s->have[side]) {
		uint64_t start = p->nopt;

		/* keys never move, so the state may be read while its
		 * options are interned */
		key = cg_bytemap_key(p->map, x, &len);
		p->options(p->ctx, key, len, side, on_option, p);
		s = &p->st[x];
		s->off[side] = start;
		s->cnt[side] = (uint32_t)(p->nopt - start);
		s->have[side] = 1;
	}
	*n = s->cnt[side];
	return p->opt + s->off[side];
}

/*
 * Drop the subtrees below solved nodes (a solved node is never chosen
 * again, and its parent reads only its numbers), sliding the nodes left
 * in place down over the gaps.  Children are always made after their
 * parent, so every node keeps its place relative to the others and
 * moves only down; *keep is a node's number, renumbered.
 */
static void
compact(struct cg_lpn *p, uint32_t *keep)
{
	size_t n = p->ntree, i, j;
	uint32_t *fwd = cg_xcalloc(n ? n : 1, sizeof *fwd), k;
	struct tnode t;

	/* which nodes live: the root, and the children of a live node
	 * that is not solved */
	if (n > 0)
		fwd[0] = 1;
	for (i = 0; i < n; i++) {
		t = p->tree[i];
		if (fwd[i] && t.pn != 0 && t.dn != 0)
			for (k = 0; k < t.n; k++)
				fwd[t.first + k] = 1;
	}
	for (i = j = 0; i < n; i++)
		fwd[i] = fwd[i] ? (uint32_t)j++ : INF;
	for (i = 0; i < n; i++) {
		if (fwd[i] == INF)
			continue;
		t = p->tree[i];
		if (t.parent != INF)
			t.parent = fwd[t.parent];
		if (t.pn == 0 || t.dn == 0)
			t.n = 0;
		else if (t.n > 0)
			t.first = fwd[t.first];
		p->tree[fwd[i]] = t;
	}
	p->ntree = j;
	if (keep != NULL)
		*keep = fwd[*keep];
	free(fwd);
}

/* Room for n more tree nodes: 0, or -1 (cg_stop set) when growing the
 * tree would pass the memory limit (asked before it grows, which the
 * sampling thread would see only after the fact).  Before the tree
 * grows, what is solved is dropped from it (compact, renumbering
 * *keep); it grows only when that leaves it more than half full. */
static int
reserve(struct cg_lpn *p, size_t n, uint32_t *keep)
{
	size_t cap = p->captree ? p->captree : 4096;

	if (p->ntree + n <= p->captree)
		return 0;
	if (p->captree > 0) {
		compact(p, keep);
		if (2 * (p->ntree + n) <= p->captree)
			return 0;
	}
	if (p->ntree + n > TREE_MAX)
		return -1;
	while (cap < p->ntree + n)
		cap *= 2;
	if (cap == p->captree)
		return 0;
	if (!cg_watch_room((cap - p->captree) * sizeof *p->tree))
		return p->ntree + n <= p->captree ? 0 : -1;
	p->tree = cg_xreallocarray(p->tree, cap, sizeof *p->tree);
	p->captree = cap;
	return 0;
}

/* A node (room made by reserve). */
static uint32_t
new_node(struct cg_lpn *p)
{
	memset(&p->tree[p->ntree], 0, sizeof *p->tree);
	p->made++;
	return (uint32_t)p->ntree++;
}

static void
set_proven(struct tnode *t)
{
	t->pn = 0;
	t->dn = INF;
	t->expanded = 1;
}

static void
set_disproven(struct tnode *t, uint32_t loop)
{
	t->pn = INF;
	t->dn = 0;
	t->loop = loop;
	t->expanded = 1;
}

/* Record a result settled for good. */
static void
settle(struct cg_lpn *p, const struct tnode *t, int prover, int proven)
{
	p->st[t->state].tt[t->side] |= TT_BIT(t->side == prover, proven);
}

/* A new node's value before it is expanded: a repetition on its path,
 * a result settled for good, or 1 and 1. */
static void
init_node(struct cg_lpn *p, uint32_t c, int prover)
{
	struct tnode *t = &p->tree[c];
	unsigned tt = p->st[t->state].tt[t->side];
	uint32_t a;

	t->pn = t->dn = 1;
	t->loop = NOLOOP;
	for (a = t->parent; a != INF; a = p->tree[a].parent)
		if (p->tree[a].state == t->state &&
		    p->tree[a].side == t->side) {
			set_disproven(t, p->tree[a].depth);
			return;
		}
	if (tt & TT_BIT(t->side == prover, 1))
		set_proven(t);
	else if (tt & TT_BIT(t->side == prover, 0))
		set_disproven(t, NOLOOP);
}

static uint32_t
add_sat(uint32_t a, uint32_t b)
{
	return a >= INF - b ? INF : a + b;
}

/* Node x's numbers from its children; a result settled for good is
 * recorded. */
static void
compute(struct cg_lpn *p, uint32_t x, int prover)
{
	struct tnode *t = &p->tree[x], *c;
	int or = t->side == prover;
	uint32_t i, pn = or ? INF : 0, dn = or ? 0 : INF, loop;

	loop = or ? NOLOOP : 0;
	for (i = 0; i < t->n; i++) {
		c = &p->tree[t->first + i];
		if (or) {
			pn = c->pn < pn ? c->pn : pn;
			dn = add_sat(dn, c->dn);
			if (c->dn == 0 && c->loop < loop)
				loop = c->loop;
		} else {
			pn = add_sat(pn, c->pn);
			dn = c->dn < dn ? c->dn : dn;
			if (c->dn == 0 && (c->loop == NOLOOP || c->loop > loop))
				loop = c->loop;
		}
	}
	t->pn = pn;
	t->dn = dn;
	if (pn == 0) {
		settle(p, t, prover, 1);
	} else if (dn == 0) {
		/* resting only on repetitions of itself or of positions
		 * below it, the disproof holds on any path */
		if (loop == NOLOOP || loop >= t->depth) {
			loop = NOLOOP;
			settle(p, t, prover, 0);
		}
		t->loop = loop;
	}
}

/* Make node *at's children (*at renumbered when the tree is
 * compacted to make room). */
static int
expand(struct cg_lpn *p, uint32_t *at, int prover)
{
	uint32_t x = *at;
	uint32_t n, i, c, first;
	const uint32_t *o = options(p, p->tree[x].state, p->tree[x].side, &n);
	uint64_t off = (uint64_t)(o - p->opt);

	if (n == 0) {
		/* the player to move has lost */
		if (p->tree[x].side == prover) {
			set_disproven(&p->tree[x], NOLOOP);
			settle(p, &p->tree[x], prover, 0);
		} else {
			set_proven(&p->tree[x]);
			settle(p, &p->tree[x], prover, 1);
		}
		return 0;
	}
	if (reserve(p, n, &x) < 0)
		return -1;
	*at = x;
	first = (uint32_t)p->ntree;
	for (i = 0; i < n; i++) {
		c = new_node(p);
		p->tree[c].parent = x;
		p->tree[c].state = p->opt[off + i];
		p->tree[c].side = (unsigned char)!p->tree[x].side;
		p->tree[c].depth = p->tree[x].depth + 1;
		init_node(p, c, prover);
	}
	p->tree[x].first = first;
	p->tree[x].n = n;
	p->tree[x].expanded = 1;
	compute(p, x, prover);
	return 0;
}

/* Can prover force a win from state x, side to move?  1, 0, or -1 when
 * stopped. */
static int
prove(struct cg_lpn *p, uint32_t x, int side, int prover)
{
	uint32_t r, m, i, best, c;
	struct tnode *t;

	p->ntree = 0;
	if (reserve(p, 1, NULL) < 0)
		return -1;
	r = new_node(p);
	p->tree[r].parent = INF;
	p->tree[r].state = x;
	p->tree[r].side = (unsigned char)side;
	init_node(p, r, prover);
	while (p->tree[r].pn != 0 && p->tree[r].dn != 0) {
		if (cg_stop)
			return -1;
		/* the most-proving leaf: the child of least proof number
		 * where the prover moves, of least disproof number where
		 * the opponent does */
		for (m = r; p->tree[m].expanded; m = best) {
			t = &p->tree[m];
			best = t->first;
			for (i = 1; i < t->n; i++) {
				c = t->first + i;
				if (t->side == prover ? p->tree[c].pn <
				    p->tree[best].pn : p->tree[c].dn <
				    p->tree[best].dn)
					best = c;
			}
		}
		if (expand(p, &m, prover) < 0)
			return -1;
		cg_progress_tick();
		for (m = p->tree[m].parent; m != INF; m = p->tree[m].parent) {
			uint32_t pn = p->tree[m].pn, dn = p->tree[m].dn;

			compute(p, m, prover);
			if (p->tree[m].pn == pn && p->tree[m].dn == dn)
				break;
		}
	}
	return p->tree[r].pn == 0;
}

int
cg_lpn_solve(struct cg_lpn *p, const unsigned char *pos, size_t len,
    int side, int *res)
{
	uint32_t x = intern(p, pos, len);
	int k, rc;

	/* first whether the player to move can win, then whether the
	 * opponent can; neither: a draw */
	for (k = 0; k < 2; k++) {
		rc = prove(p, x, side, k ? !side : side);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			*res = k ? CG_RETRO_LOSS : CG_RETRO_WIN;
			return 0;
		}
	}
	*res = CG_RETRO_DRAW;
	return 0;
}

void
cg_lpn_count(const struct cg_lpn *p, uint64_t *positions, uint64_t *nodes)
{
	*positions = p->nst;
	*nodes = p->made;
}
