/* quotient_int.h - what quotient.c (candidates, growth) and
 * quotient_check.c (verification, the least failure) share.  Not for
 * tools: they use quotient.h. */
#ifndef CG_QUOTIENT_INT_H
#define CG_QUOTIENT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/bytemap.h"
#include "solve/quotient.h"

#define MAXC 12                 /* components of a candidate */
#define WMAX 4096               /* heaps of --quotient at most */

struct table {                  /* a finite commutative monoid */
	uint32_t n;
	uint32_t *mul;          /* n * n */
};

struct dsum {
	int nc;
	struct table c[MAXC];
	uint64_t size;
};

/* A reduced candidate or quotient: table, P-portion, Phi of heaps 0..n,
 * and each element's lex-least sum (heap, exponent pairs). */
struct quot {
	struct table t;
	uint8_t *isp;
	uint32_t *phi;
	uint32_t *woff;         /* t.n + 1 */
	uint32_t *wh, *we;
};

struct cg_quot {
	struct cg_heap_rules r;
	uint32_t *mask, *flags;
	int provable;
	uint32_t maxtake;       /* the rules' arrays: mask[0..maxtake] */
	uint32_t take;          /* the largest take allowed (periodicity) */
	/* options of heap h: opt[optoff[h] .. optoff[h+1]), each a count
	 * then that many heap sizes */
	uint32_t *optoff, *opt;
	size_t nopt, capopt;
	uint32_t n;             /* heaps done */
	struct quot q;
	uint32_t last_growth;
	uint32_t limit;
	FILE *progress;
};

#define UNSET UINT32_MAX

struct trsets {
	uint32_t *off, *el;     /* heap h: el[off[h] .. off[h+1]) */
};

struct word {                   /* a sum of heaps, sizes ascending */
	uint32_t *h;
	uint32_t n, cap;
};

/* The true misere outcome (1: P) of sums with heap n, the others valued
 * by the verified quotient of the smaller heaps. */
struct truth {
	const struct cg_quot *g;
	const struct quot *prev;
	uint32_t n;
	struct cg_bytemap *memo;
	int over;
};

static inline uint32_t
tmul(const struct table *t, uint32_t x, uint32_t y)
{
	return t->mul[(size_t)x * t->n + y];
}

/* The sets {Phi(t) : t an option of h} for h = 0..n (quotient.c). */
void cg_quot_tr_build(const struct cg_quot *g, uint32_t n,
    const struct dsum *d, const uint64_t *phi, const uint32_t *cls,
    uint32_t ncls, struct trsets *s);
void cg_quot_tr_free(struct trsets *s);

/* quotient_check.c */
void cg_quot_word_push(struct word *w, uint32_t h);
void cg_quot_word_of(const struct quot *q, uint32_t x, struct word *w);
int cg_quot_predict(const struct quot *q, const struct word *w);
int cg_quot_truth(struct truth *t, const struct word *w);
int cg_quot_descend(struct truth *t, const struct quot *q, struct word *w);
int cg_quot_least_failure(const struct cg_quot *g, uint32_t n,
    const struct quot *q, struct word *w);
int cg_quot_verify(const struct cg_quot *g, uint32_t n, const struct quot *q,
    struct word *w);

#endif
