/* dfs_misere.c - the depth-first engine in misere play: small
 * components replaced by one component of their misere canonical form
 * each, and the genus of sums (CGSuite's recursion); see dfs_int.h. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "graph/graph.h"
#include "solve/dfs_int.h"
#include "values/misere.h"
#include "solve/sums.h"

/* --------------------------------------------- misere: equal games */

#define MFORM_UNKNOWN 0
#define MFORM_BIG 1

static void
mform_grow(struct cg_solver *s, uint32_t c)
{
	if (c < s->capmform)
		return;
	s->mform = cg_xgrow_zero(s->mform, &s->capmform, c, sizeof *s->mform);
	s->mheight = cg_xreallocarray(s->mheight, s->capmform,
	    sizeof *s->mheight);
}

/* The component standing for every component of misere game g: of those
 * met, one of least height, so that a sum never stands for a longer one
 * and the search, whose moves shorten sums, cannot come back to a sum. */
static uint32_t
mrep_of(struct cg_solver *s, uint32_t g, uint32_t c)
{
	s->mrep = cg_xgrow_zero(s->mrep, &s->capmrep, g, sizeof *s->mrep);
	if (s->mrep[g] == 0 || s->mheight[s->mrep[g] - 1] > s->mheight[c])
		s->mrep[g] = c + 1;
	return s->mrep[g] - 1;
}

/* The sum ids[0..n) with each component whose form is made replaced by
 * the one standing for its form, form 0 dropped and pairs of * cancelled,
 * into out (unsorted); *changed when it differs from ids. */
static size_t
m_map(struct cg_solver *s, const uint32_t *ids, size_t n, uint32_t *out,
    int *changed)
{
	size_t i, m = 0;
	uint32_t star = 0;
	int odd = 0;

	*changed = 0;
	for (i = 0; i < n; i++) {
		uint32_t c = ids[i], g = c < s->capmform ? s->mform[c] : 0;

		if (g <= MFORM_BIG) {
			out[m++] = c;
			continue;
		}
		g -= 2;
		if (g == 0)                     /* the zero game */
			continue;
		if (cg_mtab_is_star(s->mt, g)) {
			odd ^= 1;
			star = s->mrep[g] - 1;
			*changed |= star != c;
			continue;
		}
		out[m] = s->mrep[g] - 1;
		*changed |= out[m++] != c;
	}
	if (odd)
		out[m++] = star;
	*changed |= m != n;
	return m;
}

/* Make the form of every small component of ids[0..n) not tried yet
 * (within mform_work expansions each), and let the shortest component
 * met of each form stand for it.  -1 when a stop came. */
static int
m_make_forms(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		uint32_t c = ids[i];
		uint64_t eg;

		mform_grow(s, c);
		if (s->mform[c] == MFORM_UNKNOWN) {
			(void)cg_graph_key(s->graph, c, &len);
			if (len > s->mform_bytes) {
				s->mform[c] = MFORM_BIG;
				continue;
			}
			eg = sv_sum_intern(s, 'G', &c, 1, NULL);
			if (dfs_gen_rec(s, eg) < 0) {
				size_t depth = s->nfr;
				int r;

				s->gen_left = s->mform_work;
				dfs_push_gen(s, eg);
				r = dfs_run(s, depth);
				s->gen_left = 0;
				if (r < 0 && STOPPED(s))
					return -1;
				if (r < 0) {
					s->mform[c] = MFORM_BIG;
					continue;
				}
			}
			s->mform[c] = (uint32_t)dfs_gen_rec(s, eg) + 2;
			s->mheight[c] = dfs_gen_height(s, eg);
		}
		if (s->mform[c] != MFORM_BIG && s->mform[c] - 2 != 0)
			(void)mrep_of(s, s->mform[c] - 2, c);   /* not 0 */
	}
	return 0;
}

/*
 * Misere play has no nim values, but two games with the same misere
 * canonical form may stand for each other in any sum (Conway, ONAG ch.
 * 12): the small components of a sum are replaced by one component of
 * their form each, a component of form 0 is dropped and two of form *
 * cancel (* + * = 0 in misere play), so that sums differing only in
 * small parts of equal forms are searched once, as Glop's reduced
 * canonical trees merge them (Lemoine and Viennot, arXiv:0908.4407).
 * A small component's form comes from its whole game tree (the genus
 * search), so only components whose key has at most mform_bytes bytes
 * are made, each within mform_work expansions.  Returns the reduced
 * sum's entry, or -1 when the sum is already reduced.
 */
int64_t
dfs_m_reduce(struct cg_solver *s, uint64_t e)
{
	size_t n = sv_sum_ids(s, e), m;
	uint32_t buf[64], *ids, *out;
	int changed;
	int64_t r = -1;

	/* a copy: the forms' searches reuse s->ids2 */
	ids = n < 32 ? buf : cg_xmalloc(2 * (n + 1) * sizeof *ids);
	out = ids + n + 1;
	memcpy(ids, s->ids2, n * sizeof *ids);
	if (m_make_forms(s, ids, n) == 0) {
		m = m_map(s, ids, n, out, &changed);
		if (changed) {
			qsort(out, m, sizeof *out, sv_cmp_u32);
			r = (int64_t)sv_sum_intern(s, 'M', out, m, NULL);
			if (r == (int64_t)e)
				r = -1;
		}
	}
	if (ids != buf)
		free(ids);
	return r;
}

/* The entry of sum ids[0..n) as dfs_m_reduce makes it from the forms made
 * already, when that differs from the sum and is in the table; else -1.
 * Makes no form: it runs while a sum's options are enumerated. */
int64_t
dfs_m_known(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	uint32_t buf[32], *out = n < 32 ? buf : cg_xmalloc((n + 1) *
	    sizeof *out);
	size_t m;
	int changed;
	int64_t r = -1;

	m = m_map(s, ids, n, out, &changed);
	if (changed) {
		qsort(out, m, sizeof *out, sv_cmp_u32);
		r = sv_sum_find(s, 'M', 0, out, m);
	}
	if (out != buf)
		free(out);
	return r;
}

/* ------------------------------------------------------------ genus */

/* Misere canonical game of 'G' sum entry e, -1 = none.  The entry's
 * value is the game + 1 in the low 32 bits, and the sum's height (its
 * longest play) in the high ones. */
int64_t
dfs_gen_rec(struct cg_solver *s, uint64_t e)
{
	uint32_t v = (uint32_t)s->sums->val[e];

	return v ? (int64_t)v - 1 : -1;
}

uint32_t
dfs_gen_height(struct cg_solver *s, uint64_t e)
{
	return (uint32_t)(s->sums->val[e] >> 32);
}

static void
finish_gen(struct cg_solver *s, struct frame *f)
{
	uint32_t i, nchild = f->nchild, h = 0;
	uint32_t *o = cg_xcalloc(nchild + 1, sizeof *o);

	for (i = 0; i < nchild; i++) {
		uint32_t rec = s->ar[f->index + i];
		uint64_t e = s->ar[rec + 1] | (uint64_t)s->ar[rec + 2] << 32;

		o[i] = (uint32_t)dfs_gen_rec(s, e);
		if (dfs_gen_height(s, e) >= h)
			h = dfs_gen_height(s, e) + 1;
	}
	if (!STOPPED(s))
		s->sums->val[f->st] = ((uint64_t)cg_mtab_canon(s->mt, o,
		    nchild) + 1) | (uint64_t)h << 32;
	s->stats.solved++;
	free(o);
}

void
dfs_push_gen(struct cg_solver *s, uint64_t e)
{
	struct frame *f = dfs_push(s, K_GEN);

	f->st = e;
}

/* The game of a sum of two or more components is the sum of theirs
 * (cg_mtab_add), so its tree, the product of theirs, is never searched:
 * each component's game is made first (a frame pushed, back at stage 11)
 * and then added.  Returns 1 when the frame is done or waits, 0 for a
 * single component (searched by its moves). */
static int
gen_add(struct cg_solver *s, struct frame *f)
{
	size_t n = sv_sum_ids(s, f->st), i;
	uint32_t g = 0, h = 0;

	if (n < 2)
		return 0;
	/* s->ids2 holds the sum throughout: interning and adding leave it
	 * alone */
	for (i = 0; i < n; i++) {
		uint64_t e = sv_sum_intern(s, 'G', s->ids2 + i, 1, NULL);

		if (dfs_gen_rec(s, e) < 0) {
			f->stage = 10;
			dfs_push_gen(s, e);
			return 1;
		}
		g = cg_mtab_add(s->mt, g, (uint32_t)dfs_gen_rec(s, e));
		h += dfs_gen_height(s, e);
	}
	if (!STOPPED(s))
		s->sums->val[f->st] = ((uint64_t)g + 1) | (uint64_t)h << 32;
	s->stats.solved++;
	dfs_finish(s, 0);
	return 1;
}

void
dfs_step_gen(struct cg_solver *s, struct frame *f)
{
	switch (f->stage) {
	case 0: {
		int cut;
		size_t off0;
		uint64_t moves;

		if (dfs_gen_rec(s, f->st) >= 0) {
			dfs_finish(s, 0);
			return;
		}
		if (gen_add(s, f))
			return;
		tick(s);
		moves = sv_expand_sum(s, f->st, 'G', CG_LEFT, CG_LEFT, SV_ALL, &cut,
		    &off0);
		f = &s->fr[s->nfr - 1];
		if (moves == 0) {
			noffbuf = off0;
			s->sums->val[f->st] = 1;   /* the zero game */
			dfs_finish(s, 0);
			return;
		}
		dfs_make_index(s, f, offbuf + off0, (uint32_t)(noffbuf - off0));
		noffbuf = off0;
		f->stage = 1;
	}
	/* fall through */
	case 1:
		while (f->idx < f->nchild) {
			uint32_t rec = s->ar[f->index + f->idx];
			uint64_t e = s->ar[rec + 1] |
			    (uint64_t)s->ar[rec + 2] << 32;

			if (dfs_gen_rec(s, e) < 0) {
				dfs_push_gen(s, e);
				return;
			}
			f->idx++;
		}
		finish_gen(s, f);
		dfs_finish(s, 0);
		return;
	case 2:
		f->idx++;
		f->stage = 1;
		dfs_step_gen(s, f);
		return;
	case 11:                        /* a component's game made */
		f->stage = 0;
		dfs_step_gen(s, f);
		return;
	}
}

/* ------------------------------------------------------------- queries */

static int64_t
genus_of(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	size_t depth = s->nfr;
	uint32_t *sorted = cg_xmalloc((n + 1) * sizeof *sorted);
	uint64_t e;

	memcpy(sorted, ids, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, sv_cmp_u32);
	e = sv_sum_intern(s, 'G', sorted, n, NULL);
	free(sorted);
	dfs_push_gen(s, e);
	if (dfs_run(s, depth) < 0)
		return -1;
	return dfs_gen_rec(s, e);
}

int64_t
cg_solver_misere_nimber(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	int64_t g = genus_of(s, ids, n);

	return g < 0 ? CG_SOLVE_INTERRUPTED :
	    (int64_t)cg_mtab_gminus(s->mt, (uint32_t)g);
}

int
cg_solver_genus(struct cg_solver *s, const uint32_t *ids, size_t n,
    struct cg_buf *out)
{
	int64_t g = genus_of(s, ids, n);

	if (g < 0)
		return CG_SOLVE_INTERRUPTED;
	cg_mtab_genus(s->mt, (uint32_t)g, out);
	return 0;
}

