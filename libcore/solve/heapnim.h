/* heapnim.h - nim values of heaps and of sums of heaps from a ruleset's
 * cg.heap-rules extension (cg/heaprules.h), without building positions.
 *
 * A heap's value comes, in this order, from the sequence the rules declare
 * (Nim: G(n) = n), from a period proven on the values computed so far
 * (Guy-Smith: only for bounded takes), or from the values computed heap
 * by heap up to a limit.  Past the limit with no period known, the value
 * is unknown and the caller gets a clear error instead of a runaway
 * computation.  A sum's value is the XOR of its heaps' (Sprague-Grundy). */
#ifndef CG_HEAPNIM_H
#define CG_HEAPNIM_H

#include <stddef.h>
#include <stdint.h>

#include "cg/heaprules.h"
#include "host/plugin.h"

/* Heaps computed one by one when no period is known, by default: 1 MB
 * of values, which the octal games of Winning Ways reach within seconds;
 * Grundy's game, which has no known period, computes up to it in under
 * a minute. */
#define CG_HEAPNIM_LIMIT ((size_t)1 << 18)

struct cg_heapnim;

/* For the rules r (copied), computing heaps up to limit one by one (0:
 * CG_HEAPNIM_LIMIT).  NULL with *why when the rules cannot be used. */
struct cg_heapnim *cg_heapnim_new(const struct cg_heap_rules *r,
    size_t limit, const char **why);
/* For a loaded ruleset: NULL (and *why NULL) when it exports no heap
 * rules, or they cannot be used (*why says why). */
struct cg_heapnim *cg_heapnim_for(struct cg_plugin *p, size_t limit,
    const char **why);
void cg_heapnim_free(struct cg_heapnim *h);
/* Use no period, declared or proven: every value up to the limit is
 * computed heap by heap (cg-outcome --no-shortcut, to check periods). */
void cg_heapnim_compute_all(struct cg_heapnim *h);

/* The nim value of one heap of n counters: 0 with *value, or -1 with a
 * message in msg ("nim value of heap N unknown: ...") when n is past the
 * limit and no period is known. */
int cg_heapnim_heap(struct cg_heapnim *h, uint64_t n, uint64_t *value,
    char *msg, size_t msglen);
/* The nim value of a position of p (a sum of heaps, listed by the rules'
 * heaps() hook): the XOR of its heaps' values.  0; -1 with a message for
 * a heap of unknown value; -2 with a message when the heaps cannot be
 * listed (no heaps() hook, bytes the plugin refuses). */
int cg_heapnim_position(struct cg_heapnim *h, struct cg_plugin *p,
    const unsigned char *pos, size_t len, uint64_t *value, char *msg,
    size_t msglen);

/* What is known: the period (and preperiod, saltus) proven or declared,
 * 1; or 0 while none is.  The values up to preperiod + period are then
 * available through cg_heapnim_heap. */
int cg_heapnim_period(const struct cg_heapnim *h, size_t *period,
    size_t *preperiod, long *saltus);

#endif
