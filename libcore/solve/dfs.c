/* dfs.c - the depth-first engine: impartial sums searched as couples
 * (C, n) standing for C + *n, sums of any game searched whole with a
 * transposition table, early cut-offs and move ordering, and bounded
 * tables that start again from the root (restarts); see dfs_int.h. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "graph/graph.h"
#include "solve/dfs_int.h"
#include "solve/engine.h"
#include "solve/settle.h"
#include "solve/sums.h"

static int dfs_outcome(const struct cg_engine *, struct cg_solver *,
    const uint32_t *, size_t, int);
static int64_t dfs_nimber(const struct cg_engine *, struct cg_solver *,
    const uint32_t *, size_t);

struct frame *
dfs_push(struct cg_solver *s, int kind)
{
	struct frame *f;

	if (s->nfr == s->capfr) {
		s->capfr = s->capfr ? 2 * s->capfr : 64;
		s->fr = cg_xreallocarray(s->fr, s->capfr, sizeof *s->fr);
	}
	f = &s->fr[s->nfr++];
	memset(f, 0, sizeof *f);
	f->kind = (uint8_t)kind;
	f->base = s->arlen;
	return f;
}

void
dfs_finish(struct cg_solver *s, int64_t v)
{
	struct frame *f = &s->fr[--s->nfr];

	s->arlen = f->base;
	s->ret = v;
	if (s->nfr > 0)
		s->fr[s->nfr - 1].stage++;
}

/* ------------------------------------------------------- child index */

static int
cmp_rec(const void *a, const void *b, void *arg)
{
	const uint32_t *ar = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t kx = ar[x], ky = ar[y];

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Build the sorted index of the records at ar[base..arlen) whose offsets
 * (absolute) are in offs[0..n). */
void
dfs_make_index(struct cg_solver *s, struct frame *f, const uint32_t *offs,
    uint32_t n)
{
	size_t i;

	f->index = s->arlen;
	sv_ar_reserve(s, n);
	for (i = 0; i < n; i++)
		s->ar[s->arlen++] = offs[i];
	if (n > 1)   /* s->ar may still be NULL when n == 0 */
		qsort_r(s->ar + f->index, n, sizeof *s->ar, cmp_rec, s->ar);
	f->nchild = n;
	f->idx = 0;
}

/* ------------------------------------------------ impartial: couples */

struct cctx {
	struct cg_solver *s;
	uint32_t n;
	int cut;
	size_t first;   /* offbuf start for this expansion */
};

static int
guide_loss(struct cg_solver *s, const uint32_t *u, size_t nu, uint32_t n)
{
	size_t i;
	int64_t g;

	if (s->guide == NULL)
		return 0;
	for (i = 0; i < nu; i++) {
		g = s->guide(s->guide_ctx, s, u[i]);
		if (g < 0)
			return 0;
		n ^= (uint32_t)g;
	}
	return n == 0;
}

static int
couple_child(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct cctx *cc = ctx;
	struct cg_solver *s = cc->s;
	uint32_t n = cc->n, nu = 0, rec;
	size_t i;
	int64_t key = 0, v;

	(void)move;
	rec = (uint32_t)s->arlen;
	sv_ar_reserve(s, 3 + k);
	s->arlen += 3;
	for (i = 0; i < k; i++) {
		v = known(s, ids[i]);
		if (v >= 0) {
			n ^= (uint32_t)v;
		} else {
			s->ar[s->arlen++] = ids[i];
			nu++;
			key += okey(s, ids[i]);
		}
	}
	if (nu == 0 || (nu == 1 && winbit(s, s->ar[rec + 3], n))) {
		s->arlen = rec;
		if (nu == 0 && n == 0) {
			cc->cut = 1;
			return 1;
		}
		return 0;
	}
	if (guide_loss(s, s->ar + rec + 3, nu, n))
		key = 0;
	else
		key = 2 * key + 2;
	s->ar[rec] = sv_clamp_key(key);
	s->ar[rec + 1] = n;
	s->ar[rec + 2] = nu;
	sv_off_add(s, rec);
	return 0;
}

static void
push_couple(struct cg_solver *s, uint32_t c, uint32_t n)
{
	struct frame *f = dfs_push(s, K_COUPLE);

	f->c = c;
	f->n = n;
	f->acc = (int64_t)s->stats.expanded;   /* for the carry */
}

static void
push_nim(struct cg_solver *s, uint32_t c)
{
	struct frame *f = dfs_push(s, K_NIM);

	f->c = c;
}

/* A SUM frame for comps[0..k) + *n (comps copied into the arena); comps
 * given either as a pointer outside the arena or as an arena offset. */
static void
push_sum_at(struct cg_solver *s, const uint32_t *comps, size_t off,
    uint32_t k, uint32_t n)
{
	struct frame *f;
	size_t i;

	sv_ar_reserve(s, k);
	if (comps == NULL)
		comps = s->ar + off;
	f = dfs_push(s, K_SUM);
	f->n = n;
	f->cnt = k;
	for (i = 0; i < k; i++)
		s->ar[s->arlen++] = comps[i];
}

static void
push_sum(struct cg_solver *s, const uint32_t *comps, uint32_t k, uint32_t n)
{
	push_sum_at(s, comps, 0, k, n);
}

/* Component c's word after a couple search: G + *n is a win (win), or
 * c's nim value is n; a word whose search took at least carry_min
 * expansions is also carried over to later starts of a bounded search,
 * keyed by c's bytes. */
static void
couple_done(struct cg_solver *s, struct frame *f, int win)
{
	uint32_t c = f->c, n = f->n;

	if (win)
		setwin(s, c, n);
	else
		setnim(s, c, n);
	if (s->carry != NULL && !STOPPED(s) &&
	    s->stats.expanded - (uint64_t)f->acc >= s->carry_min &&
	    (!win || n < WINBITS)) {
		size_t len;
		const unsigned char *key = sv_carry_key(s, 'C', 0, &c, 1, &len);
		int isnew;
		uint64_t e = sv_tab_intern(s->carry, key, len, &isnew);
		uint64_t *w = &s->carry->val[e];

		if (!win)
			*w = NIM_KNOWN | n;
		else if (!(*w & NIM_KNOWN))
			*w |= (uint64_t)1 << n;
	}
	dfs_finish(s, win);
}

static void
step_couple(struct cg_solver *s, struct frame *f)
{
	int64_t v;

	switch (f->stage) {
	case 0: {
		struct cctx cc;
		uint32_t i, c = f->c, n = f->n;
		size_t off0;

		v = known(s, c);
		if (v >= 0) {
			dfs_finish(s, v != n);
			return;
		}
		if (winbit(s, c, n)) {
			dfs_finish(s, 1);
			return;
		}
		tick(s);
		cc.s = s;
		cc.n = n;
		cc.cut = 0;
		off0 = noffbuf;
		comp_options(s, c, CG_LEFT, couple_child, &cc);
		f = &s->fr[s->nfr - 1];
		if (!cc.cut) {
			for (i = 0; i < n; i++) {
				uint32_t rec;

				if (winbit(s, c, i))
					continue;
				rec = (uint32_t)s->arlen;
				sv_ar_reserve(s, 4);
				s->ar[s->arlen++] = guide_loss(s, &c, 1, i) ? 0 :
				    sv_clamp_key(2 * okey(s, c) + 3);
				s->ar[s->arlen++] = i;
				s->ar[s->arlen++] = 1;
				s->ar[s->arlen++] = c;
				sv_off_add(s, rec);
			}
		}
		if (cc.cut) {
			noffbuf = off0;
			couple_done(s, f, 1);
			return;
		}
		if (noffbuf == off0) {
			couple_done(s, f, 0);
			return;
		}
		dfs_make_index(s, f, offbuf + off0, (uint32_t)(noffbuf - off0));
		noffbuf = off0;
		f->stage = 1;
	}
	/* fall through */
	case 1:
		if (f->idx == f->nchild) {
			couple_done(s, f, 0);
			return;
		}
		{
			uint32_t rec = s->ar[f->index + f->idx];

			/* the SUM frame reads the record before it grows */
			push_sum_at(s, NULL, rec + 3, s->ar[rec + 2],
			    s->ar[rec + 1]);
		}
		return;
	case 2:
		if (s->ret == 0) {
			couple_done(s, f, 1);
			return;
		}
		f->idx++;
		f->stage = 1;
		step_couple(s, f);
		return;
	}
}

static void
step_sum(struct cg_solver *s, struct frame *f)
{
	uint32_t *a, k, j, keep, i;
	int64_t v;

	/* stage 0 first visit, 1 after a NIM child: fold, then act */
	a = s->ar + f->base;
	k = 0;
	for (i = 0; i < f->cnt; i++) {
		v = known(s, a[i]);
		if (v >= 0)
			f->n ^= (uint32_t)v;
		else
			a[k++] = a[i];
	}
	f->cnt = k;
	s->arlen = f->base + k;
	if (k == 0) {
		dfs_finish(s, f->n != 0);
		return;
	}
	if (k == 1) {
		uint32_t c = a[0], n = f->n;

		s->arlen = f->base;
		f->kind = K_COUPLE;
		f->stage = 0;
		f->c = c;
		f->n = n;
		f->acc = (int64_t)s->stats.expanded;
		return;
	}
	/* keep the largest for the couple search; solve the others */
	keep = 0;
	for (j = 1; j < k; j++)
		if (okey(s, a[j]) >= okey(s, a[keep]))
			keep = j;
	j = keep == 0 ? 1 : 0;
	f->stage = 0;
	push_nim(s, a[j]);
	/* finish() of the NIM child bumps our stage to 1; treat as 0 */
}

static void
step_nim(struct cg_solver *s, struct frame *f)
{
	int64_t v;

	if (f->stage == 1) {
		if (s->ret == 0) {
			dfs_finish(s, f->n);
			return;
		}
		f->n++;
		f->stage = 0;
	}
	v = known(s, f->c);
	if (v >= 0) {
		dfs_finish(s, v);
		return;
	}
	while (winbit(s, f->c, f->n))
		f->n++;
	{
		uint32_t c = f->c, n = f->n;

		push_couple(s, c, n);
	}
}

static void
step_xor(struct cg_solver *s, struct frame *f)
{
	int64_t v;

	if (f->stage == 1) {
		f->acc ^= s->ret;
		f->idx++;
		f->stage = 0;
	}
	while (f->idx < f->cnt) {
		uint32_t c = s->ar[f->base + f->idx];

		v = known(s, c);
		if (v < 0) {
			push_nim(s, c);
			return;
		}
		f->acc ^= v;
		f->idx++;
	}
	dfs_finish(s, f->acc);
}

static void
push_s(struct cg_solver *s, uint64_t e, int side, int misere)
{
	struct frame *f = dfs_push(s, K_S);

	f->st = e;
	f->side = (uint8_t)side;
	f->misere = (uint8_t)misere;
	f->acc = (int64_t)s->stats.expanded;   /* for the carry */
}

/* Record sum f->st's result for its side and return it; a result whose
 * search took at least carry_min expansions is also carried over to
 * later starts of a bounded search (normal play only). */
static void
done_s(struct cg_solver *s, struct frame *f, int win)
{
	int tag = f->misere ? 'M' : 'N';

	if (s->carry != NULL && !f->misere && !STOPPED(s) &&
	    s->stats.expanded - (uint64_t)f->acc >= s->carry_min) {
		size_t len, n;
		int32_t k;
		const unsigned char *key;
		int isnew;
		uint64_t c;

		n = sv_sum_ids_k(s, f->st, &k);
		key = sv_carry_key(s, tag, k, s->ids2, n, &len);
		c = sv_tab_intern(s->carry, key, len, &isnew);
		s->carry->val[c] |= (uint64_t)(1 | win << 1) << (2 * f->side);
	}
	sv_sum_set(s, f->st, f->side, win, tag);
	dfs_finish(s, win);
}

static void
step_s(struct cg_solver *s, struct frame *f)
{
	int tag = f->misere ? 'M' : 'N';
	int side = f->side, other = s->impartial ? side : !side;
	uint64_t v;

	switch (f->stage) {
	case 0: {
		int cut;
		size_t off0;
		uint64_t moves;

		v = *&s->sums->val[f->st];
		if (v >> (2 * side) & 1) {
			dfs_finish(s, v >> (2 * side + 1) & 1);
			return;
		}
		if (f->misere && s->impartial && s->mform_bytes > 0) {
			int64_t r = dfs_m_reduce(s, f->st);

			f = &s->fr[s->nfr - 1];
			if (r >= 0) {
				s->stats.mreduced++;
				v = s->sums->val[r];
				if (v >> (2 * side) & 1) {
					done_s(s, f, v >> (2 * side + 1) & 1);
					return;
				}
				f->stage = 20;  /* back at 21 with its result */
				push_s(s, (uint64_t)r, side, f->misere);
				return;
			}
		}
		tick(s);
		if (!f->misere && !s->impartial) {
			int32_t k;
			size_t n = sv_sum_ids_k(s, f->st, &k);
			int r = s->counts ? sv_static(s, s->ids2, n, k, side,
			    NULL) : -1;

			if (r < 0)
				r = sv_forms(s, s->ids2, n, k, side, 1);
			if (r >= 0) {
				done_s(s, f, r);
				return;
			}
		}
		moves = sv_expand_sum(s, f->st, tag, side, other, SV_LAZY, &cut,
		    &off0);
		f = &s->fr[s->nfr - 1];
		if (cut) {
			noffbuf = off0;
			done_s(s, f, 1);
			return;
		}
		if (moves == 0) {
			noffbuf = off0;
			done_s(s, f, f->misere);
			return;
		}
		dfs_make_index(s, f, offbuf + off0, (uint32_t)(noffbuf - off0));
		noffbuf = off0;
		f->stage = 1;
	}
	/* fall through */
	case 1:
		if (f->idx == f->nchild) {
			done_s(s, f, 0);
			return;
		}
		{
			uint32_t rec = s->ar[f->index + f->idx];
			uint64_t e;

			/* a lazy child was not in the carried results when
			 * recorded, and only sums in the tables are carried
			 * since: made without looking again */
			if (s->ar[rec + 2] == REC_LAZY)
				e = sv_sum_intern_here(s, tag,
				    (int32_t)s->ar[rec + 1], s->ar + rec + 4,
				    s->ar[rec + 3], NULL);
			else
				e = s->ar[rec + 1] |
				    (uint64_t)s->ar[rec + 2] << 32;
			push_s(s, e, other, f->misere);
		}
		return;
	case 2:
		if (s->ret == 0) {
			done_s(s, f, 1);
			return;
		}
		f->idx++;
		f->stage = 1;
		step_s(s, f);
		return;
	case 21:                        /* the reduced sum searched */
		done_s(s, f, (int)s->ret);
		return;
	}
}

/* ------------------------------------------------------------- driver */

int
dfs_run(struct cg_solver *s, size_t depth)
{
	while (s->nfr > depth) {
		struct frame *f = &s->fr[s->nfr - 1];

		/* a stop, or a misere form out of its work (dfs_m_reduce) */
		if (STOPPED(s) || (s->gen_left != 0 && f->kind == K_GEN &&
		    f->stage == 0 && --s->gen_left == 0)) {
			s->arlen = s->fr[depth].base;
			s->nfr = depth;
			noffbuf = 0;
			return -1;
		}
		switch (f->kind) {
		case K_NIM: step_nim(s, f); break;
		case K_COUPLE: step_couple(s, f); break;
		case K_SUM: step_sum(s, f); break;
		case K_XOR: step_xor(s, f); break;
		case K_S: step_s(s, f); break;
		case K_GEN: dfs_step_gen(s, f); break;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ restarts */

/*
 * Bounded tables for the normal-play depth-first searches (outcomes, and
 * nim values of impartial games): with a budget (cg_solver_set_budget)
 * the search runs in a scratch solver with a graph of its own.  When the
 * scratch's tables pass the budget it unwinds (nothing half-seen is
 * recorded) and is thrown away, and a fresh one starts again from the
 * root.  What took at least carry_min expansions to find is carried in
 * s->carry, keyed by bytes a fresh graph gives again: the results of
 * partizan sums (their components' bytes, sorted; done_s) and the words
 * of impartial components (nim value, or the *n that win beside them;
 * couple_done).  A fresh start finds them as it meets those positions, so
 * it goes down the same path without their subtrees.  A start that
 * carries nothing new halves carry_min; at carry_min 1 the last start
 * runs without a budget (the memory limit stops it, as any search).
 */
#define CARRY_MIN 8

/* The scratch's progress is its owner's (whose reports add them up). */
static void
owner_progress(struct cg_solver *t, void *arg)
{
	struct cg_solver *s = arg;

	(void)t;
	s->progress(s, s->progress_arg);
}

static struct cg_solver *
scratch_new(struct cg_solver *s, size_t budget)
{
	struct cg_solver *t = cg_solver_new(s->rs);

	t->engine = &cg_engine_dfs;
	t->interrupt = s->interrupt;
	if (s->progress != NULL) {
		t->progress = owner_progress;
		t->progress_arg = s;
	}
	t->every = s->every;
	t->next_progress = s->every;
	t->lookup = s->lookup;
	t->lookup_ctx = s->lookup_ctx;
	t->budget = budget;
	t->carry = s->carry;
	t->carry_min = s->carry_min;
	t->scratch = 1;
	return t;
}

/* The outcome (nimber 0) or the nim value (nimber 1) of ids[0..n) by
 * depth-first searches in scratch solvers within s->budget. */
static int64_t
bounded_run(struct cg_solver *s, const uint32_t *ids, size_t n, int nimber)
{
	uint32_t *tids = cg_xmalloc((n + 1) * sizeof *tids);
	struct cg_solver *t;
	size_t i, len, before;
	const unsigned char *key;
	size_t budget = s->budget;
	int64_t o;

	if (s->carry == NULL) {
		s->carry = sv_tab_new();
		s->carry_min = CARRY_MIN;
	}
	for (;;) {
		t = scratch_new(s, budget);
		for (i = 0; i < n; i++) {
			key = cg_graph_key(s->graph, ids[i], &len);
			tids[i] = cg_graph_vertex(t->graph,
			    cg_graph_ruleset(s->graph, ids[i]), key, len);
		}
		before = s->carry->n;
		s->live = t;
		o = nimber ? dfs_nimber(&cg_engine_dfs, t, tids, n) :
		    dfs_outcome(&cg_engine_dfs, t, tids, n, 0);
		s->live = NULL;
		s->stats.expanded += t->stats.expanded;
		s->stats.solved += t->stats.solved;
		s->stats.formed += t->stats.formed;
		s->stats.sighted += t->stats.sighted;
		s->stats.mreduced += t->stats.mreduced;
		if (o != CG_SOLVE_INTERRUPTED || !t->restart) {
			cg_solver_free(t);
			break;
		}
		cg_solver_free(t);
		s->restarts++;
		if (s->carry->n == before) {
			if (s->carry_min > 1)
				s->carry_min /= 2;
			else
				budget = 0;
		}
	}
	free(tids);
	return o;
}


/* ------------------------------------------------------------- queries */

static int
dfs_outcome(const struct cg_engine *self, struct cg_solver *s,
    const uint32_t *ids, size_t n, int misere)
{
	size_t depth = s->nfr;
	int w[2], side;
	int32_t k = 0;
	uint32_t *sorted;

	(void)self;
	if (s->budget != 0 && !s->scratch && !misere && s->doc == NULL &&
	    s->guide == NULL)
		return (int)bounded_run(s, ids, n, 0);
	if (s->impartial && !misere) {
		push_sum(s, ids, (uint32_t)n, 0);
		if (dfs_run(s, depth) < 0)
			return CG_SOLVE_INTERRUPTED;
		return s->ret ? 'N' : 'P';
	}
	sorted = cg_xmalloc((n + 1) * sizeof *sorted);
	memcpy(sorted, ids, n * sizeof *sorted);
	if (!misere)
		sv_fold_ints(s, sorted, &n, &k);
	qsort(sorted, n, sizeof *sorted, sv_cmp_u32);
	for (side = 0; side < 2; side++) {
		uint64_t e = sv_sum_intern_k(s, misere ? 'M' : 'N', k, sorted, n,
		    NULL);

		push_s(s, e, s->impartial ? CG_LEFT : side, misere);
		if (dfs_run(s, depth) < 0) {
			free(sorted);
			return CG_SOLVE_INTERRUPTED;
		}
		w[side] = (int)s->ret;
		if (s->impartial) {
			w[1] = w[0];
			break;
		}
	}
	free(sorted);
	return cg_outcome_class(w[0], w[1]);
}

static int64_t
dfs_nimber(const struct cg_engine *self, struct cg_solver *s,
    const uint32_t *ids, size_t n)
{
	size_t depth = s->nfr, i;
	struct frame *f;

	(void)self;
	if (s->budget != 0 && !s->scratch && s->doc == NULL &&
	    s->guide == NULL)
		return bounded_run(s, ids, n, 1);
	sv_ar_reserve(s, n);
	f = dfs_push(s, K_XOR);
	f->cnt = (uint32_t)n;
	for (i = 0; i < n; i++)
		s->ar[s->arlen++] = ids[i];
	if (dfs_run(s, depth) < 0)
		return CG_SOLVE_INTERRUPTED;
	return s->ret;
}

/* Memory: the stack and the misere forms (the arena and the tables of
 * sums are the solver's). */
static size_t
dfs_memory(const struct cg_solver *s)
{
	return s->capfr * sizeof *s->fr + s->capmform * 2 * sizeof *s->mform +
	    s->capmrep * sizeof *s->mrep;
}

/* The branch: for each couple or sum frame from the root, the child
 * being searched and how many there are. */
static int
dfs_branch(struct cg_solver *s, struct cg_buf *out)
{
	size_t i;
	int first = 1;

	for (i = 0; i < s->nfr; i++) {
		const struct frame *f = &s->fr[i];

		if ((f->kind != K_COUPLE && f->kind != K_S) || f->stage == 0)
			continue;
		cg_buf_addf(out, "%s%u/%u", first ? "" : " ", f->idx + 1,
		    f->nchild);
		first = 0;
	}
	return 1;
}

static void
dfs_free(struct cg_solver *s)
{
	free(s->fr);
	free(s->mform);
	free(s->mheight);
	free(s->mrep);
	s->fr = NULL;
	s->mform = s->mheight = s->mrep = NULL;
	s->nfr = s->capfr = s->capmform = s->capmrep = 0;
}

const struct cg_engine cg_engine_dfs = {
	.name = "dfs",
	.flags = CG_ENGINE_MISERE | CG_ENGINE_NIMBER | CG_ENGINE_FALLBACK,
	.outcome = dfs_outcome,
	.nimber = dfs_nimber,
	.memory = dfs_memory,
	.branch = dfs_branch,
	.free = dfs_free,
};
