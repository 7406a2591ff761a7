/* quotient.h - misere quotients of heap games (Plambeck and Siegel,
 * "Misere quotients for impartial games", JCTA 115, 2008).
 *
 * The quotient Q_n of a heap game is the set of sums of heaps of at most
 * n counters modulo indistinguishability in misere play (G ~ H when G + X
 * and H + X have the same misere outcome for every such sum X): a finite
 * commutative monoid with a P-portion (the classes of misere
 * P-positions) and a pretending function Phi from heaps to it.  Misere
 * outcomes of sums then follow from one product, as nim values give
 * normal-play outcomes.
 *
 * Q_n is found heap by heap.  A candidate (monoid, P-portion, Phi) is
 * accepted only when it is verified: no element x and heap h with x.Phi(h)
 * in P while x.Phi(t) is too for an option t of h (checked over all of
 * the monoid), and no sum predicted N whose options are all predicted N
 * (checked over the finite set of (element, transition set) pairs the
 * sums reach).  A verified candidate, reduced, is the quotient.  When the
 * candidate of the previous heaps cannot take the new heap, a direct sum
 * with a cyclic monoid is tried and then recalibrated from the least sum
 * it gets wrong, whose true outcome comes from a search over its options.
 */
#ifndef CG_QUOTIENT_H
#define CG_QUOTIENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "cg/heaprules.h"

/* Elements a candidate may have before the run stops (an infinite
 * quotient, such as 0.3122's at heap 7, grows without end). */
#define CG_QUOT_LIMIT ((uint32_t)1 << 13)

struct cg_quot;

/* For the rules r (copied); NULL with *why when they cannot be used (a
 * loopy take). */
struct cg_quot *cg_quot_new(const struct cg_heap_rules *r, const char **why);
void cg_quot_free(struct cg_quot *q);
/* Report each heap's step on f (NULL: quiet). */
void cg_quot_progress(struct cg_quot *q, FILE *f);
/* Largest candidate tried before giving up (0: CG_QUOT_LIMIT). */
void cg_quot_limit(struct cg_quot *q, uint32_t elements);

/* Extend to heaps 1..n: 0, or -1 with a message (a candidate past the
 * limit, a stop by signal or memory) and the quotient of the heaps done
 * so far kept. */
int cg_quot_extend(struct cg_quot *q, uint32_t n, char *msg, size_t len);

uint32_t cg_quot_heaps(const struct cg_quot *q);   /* n reached */
uint32_t cg_quot_order(const struct cg_quot *q);
uint32_t cg_quot_pcount(const struct cg_quot *q);
/* The last heap whose pretending value lies outside the submonoid of the
 * smaller heaps' values (0: none). */
uint32_t cg_quot_last_growth(const struct cg_quot *q);
/* Proven periodicity of Phi from heap n0 on with period p (n0 + p <= n):
 * 1 when the heaps reached prove that Q is the whole game's quotient
 * (bounded takes leaving at most two heaps: Phi(m + p) = Phi(m) for
 * n0 <= m < 2 n0 + p + t, t the largest take), else 0. */
int cg_quot_period(const struct cg_quot *q, uint32_t *n0, uint32_t *p);

/* Its text: generators named a, b, ... in the order of the heaps that
 * bring them (each the value of a heap outside the submonoid of the
 * smaller heaps' values), normal forms, relations.  Made from q as it
 * is (free it before extending q). */
struct cg_quot_pres;
struct cg_quot_pres *cg_quot_pres_new(const struct cg_quot *q);
void cg_quot_pres_free(struct cg_quot_pres *p);
/* "<a,b | a^2=1, b^3=b>" */
void cg_quot_presentation(const struct cg_quot_pres *p, struct cg_buf *out);
/* The heap of each generator; their count. */
uint32_t cg_quot_generators(const struct cg_quot_pres *p,
    const uint32_t **heaps);
/* Element x in normal form ("1", "a", "b^2c"). */
void cg_quot_element(const struct cg_quot_pres *p, uint32_t x,
    struct cg_buf *out);
/* The P-portion as normal forms separated by ", ", in normal-form
 * order. */
void cg_quot_pportion(const struct cg_quot_pres *p, struct cg_buf *out);
/* Phi(h), for h <= n or beyond by a proven period (else UINT32_MAX). */
uint32_t cg_quot_phi(const struct cg_quot *q, uint64_t h);
uint32_t cg_quot_mul(const struct cg_quot *q, uint32_t x, uint32_t y);
int cg_quot_is_p(const struct cg_quot *q, uint32_t x);

/* cg-outcome --quotient: Q_n of ruleset spec (NAME[:PARAMS]) on out, in
 * the text form cg-outcome(1) defines, or with tsv one line: the code,
 * the order, the P-positions, the presentation, the P-portion.  Dies on
 * a ruleset that is no heap game or a quotient it cannot find within
 * limit elements (0: CG_QUOT_LIMIT). */
void cg_quot_print_ruleset(FILE *out, const char *spec, unsigned long n,
    uint32_t limit, int tsv, int progress);

#endif
