/* pns.c - proof-number search (Allis), its parallel driver (--jobs),
 * and the queries of the proof-number engines; see pn_int.h. */
#include <stdlib.h>
#include <string.h>

#include "base/jobs.h"
#include "base/util.h"
#include "solve/pn_int.h"
#include "solve/settle.h"
#include "solve/sums.h"

/* One iteration: down from root to a most-proving node, expand it (a
 * second-level search in PN2), update the path.  -1 when stopped. */
static int
descend(struct cg_solver *s, struct ptab *t, uint32_t root, struct path *pa)
{
	struct pns *p = s->pns;
	uint32_t x = root, b;

	pa->n = 0;
	for (;;) {
		struct pnode *nd = &t->node[x];

		pn_path_push(pa, x);
		if (proven(nd))
			break;
		if (!(nd->flags & F_EXPANDED)) {
			int r = (p->pn2 && p->level == 1 && t == &p->t) ?
			    pn2_expand(s, t, x) : pn_expand(s, t, x);

			if (r < 0)
				return -1;
			/* x's parents hear its numbers whatever they were */
			pn_refresh(s, t, x);
			pn_touched(t, x);
			break;
		}
		b = pn_refresh(s, t, x);
		if (b == NONE)
			break;
		pa->at[pa->n - 1] = b;
		pa->of[pa->n - 1] = t->node[x].nkids;
		x = t->kid[t->node[x].kids + b];
	}
	pn_update_dag(s, t);
	return 0;
}

/* PNS from *root until it is proven, budget expansions are spent (0: no
 * budget) or a stop: 1 a win, 0 a loss, 2 unproven, -1 stopped. */
int
pns_run(struct cg_solver *s, struct ptab *t, uint32_t *root, uint64_t budget,
    struct path *pa)
{
	uint64_t start = s->stats.expanded;
	const struct pnode *nd;

	for (;;) {
		nd = &t->node[*root];
		if (proven(nd))
			return nd->pn == 0;
		if (STOPPED(s))
			return -1;
		if (budget != 0 && s->stats.expanded - start >= budget)
			return 2;
		pn_maybe_collect(s, t, root, 1);
		if (t == &s->pns->t)
			s->pns->root = *root;   /* renumbered: the branch shown */
		if (descend(s, t, *root, pa) < 0)
			return -1;
	}
}

/* ---------------------------------------------------------- parallel */

struct round {
	struct cg_solver *s;
	struct pns *p;
	uint64_t budget;
	size_t njob;
};

static void
run_job(void *ctx, size_t j)
{
	struct round *rd = ctx;
	struct cg_solver *ws = rd->p->w[j];
	struct pns *wp = ws->pns;
	struct job *jb = &rd->p->job[j];

	jb->wroot = pn2_copy_node(ws, &wp->t, rd->s, &rd->p->t, jb->leaf);
	(void)pns_run(ws, &wp->t, &jb->wroot, rd->budget, &wp->p1);
}

static void pns_init(struct cg_solver *s);

static void
busy_add(struct pns *p, uint32_t x)
{
	if (p->nbusy == p->capbusy) {
		p->capbusy = p->capbusy ? 2 * p->capbusy : 64;
		p->busy = cg_xreallocarray(p->busy, p->capbusy,
		    sizeof *p->busy);
	}
	p->busy[p->nbusy++] = x;
	p->t.node[x].flags |= F_BUSY;
}

/* Down from root to a leaf no job has: 1 found (in pa, marked busy), 0
 * none left this round, 2 the descent met a proof (the path updated:
 * try again), -1 stopped. */
static int
select_leaf(struct cg_solver *s, uint32_t root, struct path *pa)
{
	struct ptab *t = &s->pns->t;
	uint32_t x = root, b;
	size_t i;

	pa->n = 0;
	for (;;) {
		struct pnode *nd = &t->node[x];

		pn_path_push(pa, x);
		if (nd->flags & F_BUSY)
			return 0;
		if (!proven(nd) && !(nd->flags & F_EXPANDED)) {
			int r = pn_node_known(s, nd);

			if (r >= 0) {
				pn_prove(s, t, x, r);
				break;
			}
			busy_add(s->pns, x);
			return 1;
		}
		b = pn_refresh(s, t, x);
		if (proven(&t->node[x]))
			break;
		if (b == NONE) {
			/* every child busy: so is this node, this round */
			busy_add(s->pns, x);
			for (i = pa->n - 1; i-- > 0;)
				pn_refresh(s, t, pa->x[i]);
			return 2;
		}
		pa->at[pa->n - 1] = b;
		pa->of[pa->n - 1] = t->node[x].nkids;
		x = t->kid[t->node[x].kids + b];
	}
	for (i = pa->n - 1; i-- > 0;)
		pn_refresh(s, t, pa->x[i]);
	return 2;
}

static uint64_t
job_budget(const struct ptab *t)
{
	uint64_t b = t->n / 8;

	return b < 512 ? 512 : b > 16384 ? 16384 : b;
}

static int
pns_parallel(struct cg_solver *s, uint32_t *root)
{
	struct pns *p = s->pns;
	struct ptab *t = &p->t;
	struct round rd;
	unsigned j;
	size_t i, tries;
	uint64_t before[CG_MAX_JOBS];

	if (p->nw < s->jobs) {
		p->w = cg_xreallocarray(p->w, s->jobs, sizeof *p->w);
		p->job = cg_xreallocarray(p->job, s->jobs, sizeof *p->job);
		for (j = p->nw; j < s->jobs; j++) {
			p->w[j] = sv_worker(s);
			pns_init(p->w[j]);
			p->w[j]->pns->limit = p->limit / (2 * s->jobs);
			memset(&p->job[j], 0, sizeof p->job[j]);
		}
		p->nw = s->jobs;
	}
	rd.s = s;
	rd.p = p;
	for (;;) {
		if (proven(&t->node[*root]))
			return t->node[*root].pn == 0;
		if (STOPPED(s))
			return -1;
		pn_maybe_collect(s, t, root, 1);
		p->root = *root;
		/* pick the leaves */
		rd.njob = 0;
		for (tries = 0; rd.njob < s->jobs && tries < 4 * s->jobs + 64;
		    tries++) {
			struct job *jb = &p->job[rd.njob];
			int r = select_leaf(s, *root, &jb->path);

			if (r == 0 || proven(&t->node[*root]))
				break;
			if (r == 1)
				jb->leaf = jb->path.x[jb->path.n - 1], rd.njob++;
		}
		pn_update_dag(s, t);
		if (rd.njob == 0) {
			for (i = 0; i < p->nbusy; i++)
				t->node[p->busy[i]].flags &= ~F_BUSY;
			p->nbusy = 0;
			continue;
		}
		rd.budget = job_budget(t);
		for (j = 0; j < rd.njob; j++) {
			struct cg_solver *ws = p->w[j];

			before[j] = ws->stats.expanded;
			if (pn_tab_bytes(&ws->pns->t) > ws->pns->limit)
				pn_tab_clear(&ws->pns->t);
		}
		cg_graph_share(s->graph, 1);
		cg_parallel_for(rd.njob, (unsigned)rd.njob, 1, run_job, &rd);
		cg_graph_share(s->graph, 0);
		for (i = 0; i < p->nbusy; i++)
			t->node[p->busy[i]].flags &= ~F_BUSY;
		p->nbusy = 0;
		if (STOPPED(s))
			return -1;
		for (j = 0; j < rd.njob; j++) {
			struct job *jb = &p->job[j];
			struct cg_solver *ws = p->w[j];

			s->stats.expanded += ws->stats.expanded - before[j];
			pn2_adopt(s, t, jb->leaf, ws, &ws->pns->t, jb->wroot);
			for (i = jb->path.n; i-- > 0;)
				pn_refresh(s, t, jb->path.x[i]);
			pn_touched(t, jb->leaf);
			pn_update_dag(s, t);
			{
				/* the branch shown: the last job's */
				struct path tmp = p->p1;

				p->p1 = jb->path;
				jb->path = tmp;
			}
		}
		if (s->progress != NULL)
			s->progress(s, s->progress_arg);
	}
}

/* ----------------------------------------------------------- drivers */

static void
pns_init(struct cg_solver *s)
{
	if (s->pns != NULL)
		return;
	s->pns = cg_xcalloc(1, sizeof *s->pns);
	s->pns->limit = s->tree_limit != 0 ? s->tree_limit : pn_table_limit();
	s->pns->level = 1;
	s->pns->root = NONE;
}

/* Search from *root with p->how: 1 a win for the player to move, 0
 * a loss, -1 stopped (then the tree is dropped: an expansion may have
 * been cut short). */
static int
solve(struct cg_solver *s, uint32_t *root)
{
	struct pns *p = s->pns;
	int r;

	p->root = *root;
	p->pn2 = p->how == &cg_engine_pn2;
	if (p->how == &cg_engine_dfpn)
		r = dfpn_run(s, &p->t, root);
	else if (s->jobs > 1)
		r = pns_parallel(s, root);
	else
		r = pns_run(s, &p->t, root, 0, &p->p1);
	p->root = NONE;
	p->nds = 0;
	if (r < 0) {
		pn_tab_clear(&p->t);
		pn_tab_clear(&p->t2);
		p->p1.n = p->p2.n = 0;
	}
	return r;
}

int
pn_outcome(const struct cg_engine *how, struct cg_solver *s,
    const uint32_t *ids, size_t n, int misere)
{
	struct pns *p;
	uint32_t root, *u;
	size_t i, m = 0;
	int64_t v;
	int r, w[2], side;

	pns_init(s);
	p = s->pns;
	p->how = how;
	if (s->impartial && !misere) {
		uint32_t nim = 0;

		u = cg_xmalloc((n + 1) * sizeof *u);
		for (i = 0; i < n; i++) {
			v = known(s, ids[i]);
			if (v >= 0)
				nim ^= (uint32_t)v;
			else
				u[m++] = ids[i];
		}
		qsort(u, m, sizeof *u, sv_cmp_u32);
		m = pn_cancel_pairs(u, m);
		if (m == 0) {
			free(u);
			return nim ? 'N' : 'P';
		}
		root = pn_multi(s, &p->t, u, m, nim);
		free(u);
		r = solve(s, &root);
		if (r < 0)
			return CG_SOLVE_INTERRUPTED;
		return r ? 'N' : 'P';
	}
	{
		int32_t k = 0;
		uint64_t e;

		u = cg_xmalloc((n + 1) * sizeof *u);
		memcpy(u, ids, n * sizeof *u);
		if (!misere)
			sv_fold_ints(s, u, &n, &k);
		qsort(u, n, sizeof *u, sv_cmp_u32);
		e = sv_sum_intern_k(s, misere ? 'M' : 'N', k, u, n, NULL);
		free(u);
		for (side = 0; side < 2; side++) {
			root = pn_whole(s, &p->t, e, s->impartial ? CG_LEFT : side,
			    misere, 0);
			r = solve(s, &root);
			if (r < 0)
				return CG_SOLVE_INTERRUPTED;
			w[side] = r;
			if (s->impartial) {
				w[1] = w[0];
				break;
			}
		}
	}
	return cg_outcome_class(w[0], w[1]);
}

/* The nim value of component c. */
static int64_t
component_nimber(struct cg_solver *s, uint32_t c)
{
	uint32_t k, root;
	int64_t v;
	int r;

	for (k = 0;; k++) {
		v = known(s, c);
		if (v >= 0)
			return v;
		if (winbit(s, c, k))
			continue;
		root = pn_couple(s, &s->pns->t, c, k);
		r = solve(s, &root);
		if (r < 0)
			return CG_SOLVE_INTERRUPTED;
		if (r == 0)
			return k;
	}
}

int64_t
pn_nimber(const struct cg_engine *how, struct cg_solver *s,
    const uint32_t *ids, size_t n)
{
	int64_t v, acc = 0;
	size_t i;

	pns_init(s);
	s->pns->how = how;
	for (i = 0; i < n; i++) {
		if ((v = component_nimber(s, ids[i])) < 0)
			return CG_SOLVE_INTERRUPTED;
		acc ^= v;
	}
	return acc;
}

int
pn_branch(struct cg_solver *s, struct cg_buf *out)
{
	struct pns *p = s->pns;
	const struct ptab *t;
	size_t i;

	if (p == NULL)
		return 0;
	t = &p->t;
	if (p->root != NONE && p->root < t->n)
		cg_buf_addf(out, "pn %u dn %u: ", t->node[p->root].pn,
		    t->node[p->root].dn);
	if (p->how == &cg_engine_dfpn) {
		for (i = 0; i + 1 < p->nds; i++) {
			const struct pnode *nd = &t->node[p->ds[i].x];
			uint32_t q, y = p->ds[i + 1].x;

			for (q = 0; q < nd->nkids; q++)
				if (t->kid[nd->kids + q] == y)
					break;
			cg_buf_addf(out, "%s%u/%u", i ? " " : "", q + 1,
			    nd->nkids);
		}
		return 1;
	}
	for (i = 0; i + 1 < p->p1.n; i++)
		cg_buf_addf(out, "%s%u/%u", i ? " " : "", p->p1.at[i] + 1,
		    p->p1.of[i]);
	return 1;
}

size_t
pn_memory(const struct cg_solver *s)
{
	const struct pns *p = s->pns;
	size_t b;
	unsigned j;

	if (p == NULL)
		return 0;
	b = pn_tab_bytes(&p->t) + pn_tab_bytes(&p->t2);
	for (j = 0; j < p->nw; j++)
		b += pn_memory(p->w[j]);
	return b;
}

void
pn_free(struct cg_solver *s)
{
	struct pns *p = s->pns;
	unsigned j;

	if (p == NULL)
		return;
	for (j = 0; j < p->nw; j++)
		cg_solver_free(p->w[j]);
	for (j = 0; j < p->nw; j++)
		pn_path_free(&p->job[j].path);
	free(p->w);
	free(p->job);
	free(p->busy);
	pn_tab_free(&p->t);
	pn_tab_free(&p->t2);
	pn_path_free(&p->p1);
	pn_path_free(&p->p2);
	free(p->ds);
	free(p->rec);
	free(p->u);
	free(p->mk);
	free(p);
	s->pns = NULL;
}

const struct cg_engine cg_engine_pns = {
	.name = "pns",
	.flags = CG_ENGINE_MISERE | CG_ENGINE_NIMBER,
	.outcome = pn_outcome,
	.nimber = pn_nimber,
	.memory = pn_memory,
	.branch = pn_branch,
	.free = pn_free,
};
