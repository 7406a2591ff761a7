/* pn2.c - PN2 (Breuker): proof-number search whose leaves are expanded
 * by a second search of bounded size in a table of its own; see
 * pn_int.h. */
#include <stdlib.h>

#include "base/util.h"
#include "solve/pn_int.h"
#include "solve/sums.h"

/* --------------------------------------------------------------- PN2 */

/* The node of t's node x in table w (of worker solver ws, s's when the
 * same), made with x's numbers when new: WHOLE sums are translated
 * between the solvers' sum tables. */
uint32_t
pn2_copy_node(struct cg_solver *ws, struct ptab *w, struct cg_solver *s,
    const struct ptab *t, uint32_t x)
{
	const struct pnode *nd = &t->node[x];
	uint32_t y = NONE;
	size_t before = w->n;

	switch (nd->kind) {
	case N_COUPLE:
		y = pn_couple(ws, w, (uint32_t)nd->id, (uint32_t)(nd->id >> 32));
		break;
	case N_MULTI: {
		const uint32_t *mk = t->mkey + nd->id;

		y = pn_multi(ws, w, mk + 2, mk[0], mk[1]);
		break;
	}
	case N_WHOLE: {
		uint64_t e = (uint32_t)nd->id;

		if (ws != s) {
			size_t len;
			const unsigned char *k = sv_sum_key(s, e, &len);

			e = sv_sum_intern_key(ws, k, len);
		}
		y = pn_whole(ws, w, e, (int)(nd->id >> 32),
		    (nd->flags & F_MISERE) != 0, nd->order);
		break;
	}
	}
	nd = &t->node[x];
	if (proven(nd) && !proven(&w->node[y]))
		pn_prove(ws, w, y, nd->pn == 0);
	else if (w->n > before && !proven(&w->node[y])) {
		w->node[y].pn = nd->pn;
		w->node[y].dn = nd->dn;
	}
	return y;
}

/*
 * Leaf x of t was searched as node y of table w (worker solver ws): x
 * takes y's result, or y's children with their numbers (y's own when it
 * is a MULTI: the nim value folded and whether it is down to one land).
 */
void
pn2_adopt(struct cg_solver *s, struct ptab *t, uint32_t x, struct cg_solver *ws,
    const struct ptab *w, uint32_t y)
{
	struct pns *p = s->pns;
	const struct pnode *wn = &w->node[y];
	uint32_t i, k, z;

	if (proven(wn)) {
		pn_prove(s, t, x, wn->pn == 0);
		return;
	}
	if (!(wn->flags & F_EXPANDED) || proven(&t->node[x]) ||
	    (t->node[x].flags & F_EXPANDED))
		return;
	for (i = 0; i < wn->nkids; i++) {
		wn = &w->node[y];
		k = w->kid[wn->kids + i];
		z = pn2_copy_node(s, t, ws, w, k);
		if (!(t->node[z].flags & F_EXPANDED) && !proven(&t->node[z])) {
			/* the worker's numbers are the better informed */
			t->node[z].pn = w->node[k].pn;
			t->node[z].dn = w->node[k].dn;
		}
		pn_touched(t, z);
		pn_rec_add(p, i, i, z);
	}
	wn = &w->node[y];
	pn_set_kids(s, t, x);
	if (wn->kind == N_MULTI) {
		t->node[x].nim = wn->nim;
		t->node[x].flags |= wn->flags & F_FINAL;
	}
}

static uint64_t
pn2_budget(const struct ptab *t)
{
	uint64_t b = t->n / 4;

	return b < 256 ? 256 : b > 65536 ? 65536 : b;
}

int
pn2_expand(struct cg_solver *s, struct ptab *t, uint32_t x)
{
	struct pns *p = s->pns;
	struct ptab *w = &p->t2;
	uint32_t y;
	int r;

	pn_tab_clear(w);
	y = pn2_copy_node(s, w, s, t, x);
	p->level = 2;
	r = pns_run(s, w, &y, pn2_budget(t), &p->p2);
	p->level = 1;
	if (r < 0)
		return -1;
	pn2_adopt(s, t, x, s, w, y);
	return 0;
}

/* The proof-number engines share one tree (pn_int.h). */
const struct cg_engine cg_engine_pn2 = {
	.name = "pn2",
	.flags = CG_ENGINE_MISERE | CG_ENGINE_NIMBER,
	.outcome = pn_outcome,
	.nimber = pn_nimber,
	.memory = pn_memory,
	.branch = pn_branch,
	.free = pn_free,
};
