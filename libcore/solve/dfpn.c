/* dfpn.c - depth-first proof-number search (Nagai) with the 1 + epsilon
 * trick (Pawlewicz and Lew); see pn_int.h. */
#include <stdlib.h>

#include "base/util.h"
#include "solve/pn_int.h"

/* ------------------------------------------------------------- df-pn */

static void
dpush(struct pns *p, uint32_t x, uint32_t thpn, uint32_t thdn)
{
	if (p->nds == p->capds) {
		p->capds = p->capds ? 2 * p->capds : 64;
		p->ds = cg_xreallocarray(p->ds, p->capds, sizeof *p->ds);
	}
	p->ds[p->nds].x = x;
	p->ds[p->nds].thpn = thpn;
	p->ds[p->nds].thdn = thdn;
	p->nds++;
}

/* 1 + epsilon: a sibling's bound loosened by a quarter. */
static uint32_t
loosen(uint32_t d)
{
	uint64_t v;

	if (d >= INF - 1)
		return INF;
	v = (uint64_t)d + 1 + d / 4;
	return v >= INF ? INF - 1 : (uint32_t)v;
}

int
dfpn_run(struct cg_solver *s, struct ptab *t, uint32_t *root)
{
	struct pns *p = s->pns;
	uint64_t since = 0;

	p->nds = 0;
	dpush(p, *root, INF, INF);
	while (p->nds > 0) {
		struct dframe *f = &p->ds[p->nds - 1];
		uint32_t x = f->x, b, y, th;
		struct pnode *nd = &t->node[x];
		const struct pnode *c;

		if (STOPPED(s))
			return -1;
		if (!(nd->flags & F_EXPANDED) && !proven(nd)) {
			if (pn_expand(s, t, x) < 0)
				return -1;
			/* x's parents hear its numbers whatever they were */
			pn_touched(t, x);
			since++;
		}
		b = pn_refresh(s, t, x);
		pn_update_dag(s, t);
		if (since >= 4096) {
			size_t i;
			uint32_t *r;

			/* between updates: the heap is empty */
			since = 0;
			r = cg_xmalloc(p->nds * sizeof *r);
			for (i = 0; i < p->nds; i++)
				r[i] = p->ds[i].x;
			pn_maybe_collect(s, t, r, p->nds);
			for (i = 0; i < p->nds; i++)
				p->ds[i].x = r[i];
			free(r);
			/* a collection renumbers the nodes: the root (the
			 * stack's bottom) too, which the answer below is
			 * read from, and drops children proven wins */
			*root = p->ds[0].x;
			p->root = *root;
			f = &p->ds[p->nds - 1];
			x = f->x;
			b = pn_refresh(s, t, x);
			pn_update_dag(s, t);
		}
		nd = &t->node[x];
		if (b == NONE || nd->pn >= f->thpn || nd->dn >= f->thdn) {
			p->nds--;
			continue;
		}
		y = t->kid[nd->kids + b];
		c = &t->node[y];
		if (nd->kind == N_MULTI) {
			if (nd->flags & F_FINAL) {
				dpush(p, y, f->thpn, f->thdn);
				continue;
			}
			/* the land counts by min(pn, dn): bound the smaller
			 * (bounding both would stop it while its min is
			 * still below the bound, and loop) */
			th = f->thpn < f->thdn ? f->thpn : f->thdn;
			if (th != INF)
				th = th - nd->pn + (c->pn < c->dn ? c->pn : c->dn);
			if (c->pn <= c->dn)
				dpush(p, y, th, INF);
			else
				dpush(p, y, INF, th);
			continue;
		}
		th = loosen(p->dn2);
		if (f->thpn < th)
			th = f->thpn;
		dpush(p, y, f->thdn == INF ? INF : f->thdn - nd->dn + c->pn, th);
	}
	return proven(&t->node[*root]) ? t->node[*root].pn == 0 : -1;
}

/* The proof-number engines share one tree (pn_int.h). */
const struct cg_engine cg_engine_dfpn = {
	.name = "dfpn",
	.flags = CG_ENGINE_MISERE | CG_ENGINE_NIMBER |
	    CG_ENGINE_AUTO_IMPARTIAL,
	.outcome = pn_outcome,
	.nimber = pn_nimber,
	.memory = pn_memory,
	.branch = pn_branch,
	.free = pn_free,
};
