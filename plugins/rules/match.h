/*
 * match.h - the ways a rule's pattern matches along a line of squares,
 * one at a time, with a stack of its own (no recursion: a group repeated
 * along a line of 255 squares is 255 choices deep).  Inline, for grid.c
 * and frozen.c, which try it at every square of every position.
 *
 * A pattern is a sequence of elements, some in groups that repeat (groups
 * do not nest).  At a group repeated at least its least number of times
 * there is a choice: leave it, or repeat it once more.  Leaving comes
 * first, so matches come fewer repetitions first, the earlier groups
 * deciding last; the choice not taken is pushed and taken when what
 * follows is exhausted.  Each time a group is left is a split of the
 * line tried; a match may try at most MATCH_SPLITS of them.
 *
 * The line's square j (from 0) is cells[k0 + j * step]; it has len
 * squares.  The squares -1 and len, just beyond its two ends, are the
 * edge, which only an element holding the edge matches; nothing lies
 * beyond them.  A match starts on square 0, or (pre) on square -1.  A
 * square k with fixed[k] 0 (fixed not NULL) is read as anything an
 * element accepts.  match_next() leaves the elements matched on the board
 * in elem[0..n), elem[j] on square j; lead and edge say whether the match
 * began on the edge before square 0 and ended on the edge after square
 * len - 1.
 */
#ifndef CG_RULES_MATCH_H
#define CG_RULES_MATCH_H

#include "rules.h"

#define MATCH_SPLITS 10000
#define MATCH_STACK  (MAX_MATCH + MAX_ELEMS + 1)

struct match {
	const struct rule *ru;
	const unsigned char *cells, *fixed;
	int k0, step, len;
	int elem[MAX_MATCH];
	int n, lead, edge;
	int pre;               /* the match starts on square -1 */
	int at;                /* the square of the next element */
	int i;                 /* the next element */
	int started;
	long splits;
	struct {
		short g, reps, n, at;
	} stk[MATCH_STACK];    /* choices not taken: one more repetition */
	int nstk;
};

static inline void
match_start(struct match *mt, const struct rule *ru,
    const unsigned char *cells, int k0, int step, int len,
    const unsigned char *fixed, int pre)
{
	mt->ru = ru;
	mt->cells = cells;
	mt->k0 = k0;
	mt->step = step;
	mt->len = len;
	mt->fixed = fixed;
	mt->n = 0;
	mt->i = 0;
	mt->nstk = 0;
	mt->splits = 0;
	mt->started = 0;
	mt->pre = pre;
	mt->at = pre ? -1 : 0;
	mt->lead = mt->edge = 0;
}

/* Does element x fit the line's square j?  1 it does, 0 it does not, 2
 * the square is the edge and x matches it. */
static inline int
match_fits(const struct match *mt, const struct elem *x, int j)
{
	int k;

	if (j < -1 || j > mt->len)
		return 0;
	if (j == -1 || j == mt->len)
		return x->edge ? 2 : 0;
	k = mt->k0 + j * mt->step;
	if (mt->fixed != NULL && !mt->fixed[k])
		return (x->match.bits[0] | x->match.bits[1] |
		    x->match.bits[2] | x->match.bits[3]) != 0;
	return cs_has(&x->match, mt->cells[k]);
}

/* Repeat group g once more from square mt->at: 0 when it does not fit
 * (groups never hold the edge). */
static inline int
match_repeat(struct match *mt, int g)
{
	const struct group *gr = &mt->ru->g[g];
	int j;

	for (j = 0; j < gr->count; j++) {
		if (mt->n == MAX_MATCH ||
		    match_fits(mt, &mt->ru->e[gr->first + j], mt->at) != 1)
			return 0;
		mt->elem[mt->n++] = gr->first + j;
		mt->at++;
	}
	return 1;
}

enum { MW_FAIL, MW_MATCH, MW_GROUP };

/* The elements from mt->i on, from square mt->at on, up to the end of
 * the pattern (MW_MATCH), a group (MW_GROUP, its number in *g) or an
 * element that does not fit (MW_FAIL).  An element on the edge takes its
 * square but is not one of the cells matched. */
static inline int
match_walk(struct match *mt, int *g)
{
	const struct rule *ru = mt->ru;
	int fit;

	for (; mt->i < ru->ne; mt->i++) {
		if ((*g = ru->gof[mt->i]) >= 0)
			return MW_GROUP;
		fit = match_fits(mt, &ru->e[mt->i], mt->at);
		if (fit == 0 || (fit == 1 && mt->n == MAX_MATCH))
			return MW_FAIL;
		if (fit == 1)
			mt->elem[mt->n++] = mt->i;
		mt->at++;
	}
	/* only the edge fits square -1, and square len only the edge */
	mt->lead = mt->pre;
	mt->edge = mt->at > mt->len;
	return MW_MATCH;
}

/* Back to the latest choice not taken that fits: group g repeated once
 * more, *reps times in all.  0 when there is none left. */
static inline int
match_back(struct match *mt, int *g, int *reps)
{
	while (mt->nstk > 0) {
		mt->nstk--;
		*g = mt->stk[mt->nstk].g;
		*reps = mt->stk[mt->nstk].reps + 1;
		mt->n = mt->stk[mt->nstk].n;
		mt->at = mt->stk[mt->nstk].at;
		if (match_repeat(mt, *g))
			return 1;
	}
	return 0;
}

/* 1 a match, 0 no more, -1 past MATCH_SPLITS splits */
static inline int
match_next(struct match *mt)
{
	const struct group *gr;
	int g = -1, reps = 0, w;

	w = mt->started ? MW_FAIL : match_walk(mt, &g);
	mt->started = 1;
	for (;;) {
		if (w == MW_MATCH)
			return 1;
		if (w == MW_FAIL) {
			if (!match_back(mt, &g, &reps))
				return 0;
		} else
			reps = 0;
		/* group g has been matched reps times */
		for (gr = &mt->ru->g[g]; reps < gr->min; reps++)
			if (!match_repeat(mt, g))
				break;
		if (reps < gr->min) {
			w = MW_FAIL;
			continue;
		}
		if (gr->count > 0) {
			/* leave it, and come back for one more */
			if (mt->nstk == MATCH_STACK ||
			    ++mt->splits > MATCH_SPLITS)
				return -1;
			mt->stk[mt->nstk].g = (short)g;
			mt->stk[mt->nstk].reps = (short)reps;
			mt->stk[mt->nstk].at = (short)mt->at;
			mt->stk[mt->nstk++].n = (short)mt->n;
		}
		mt->i = gr->first + gr->count;
		w = match_walk(mt, &g);
	}
}

#endif
