/* heapseq.h - nim sequences of heap games (take-and-break, subtraction)
 * described by struct cg_heap_rules, and their periodicity.
 *
 * Values are computed heap by heap.  Two-heap splits use per-value
 * position bitsets and, when the sequence has a "sparse space" (a bit
 * mask under which the values of almost all heaps have odd parity), the
 * rare-values method: a value of the common class can only come from a
 * split into a common and a rare heap, so only the few rare heaps are
 * tried.  Both are exact; the mask only changes the speed. */
#ifndef CG_HEAPSEQ_H
#define CG_HEAPSEQ_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "cg/heaprules.h"

/* The largest heap of --sequence, --periodicity and --heap-limit: that
 * of the heap rulesets (a heap of 2^31 - 1 counters). */
#define CG_HEAPSEQ_MAX 0x7fffffffUL

struct cg_heapseq;

/* A sequence for these rules (copied); NULL with *why set when the rules
 * cannot be used (e.g. a take of 0 leaving one heap: a loopy game). */
struct cg_heapseq *cg_heapseq_new(const struct cg_heap_rules *r,
    const char **why);
void cg_heapseq_free(struct cg_heapseq *s);
/* Compute values of heaps 0..n (at least; fewer when cg_stop is set: a
 * signal or the memory limit).  With shortcut set, once the sequence is
 * proven periodic (cg_heapseq_period) the remaining values are filled in
 * by the period instead of being computed. */
void cg_heapseq_compute(struct cg_heapseq *s, size_t n, int shortcut);
/* The values computed so far: heaps 0..*len-1. */
const uint32_t *cg_heapseq_values(const struct cg_heapseq *s, size_t *len);
/* Was the shortcut used (the periodicity proven before n)? */
int cg_heapseq_shortcut_used(const struct cg_heapseq *s);
/* Largest take (t of the Guy-Smith test); UINT32_MAX when unbounded. */
uint32_t cg_heapseq_max_take(const struct cg_heapseq *s);
/* Do the rules allow splitting into two or more heaps? */
int cg_heapseq_splits(const struct cg_heapseq *s);
/* Does a period found by cg_heapseq_find_period prove the sequence
 * periodic?  Guy and Smith's theorem covers bounded takes leaving at most
 * two heaps with no condition on them: not Grundy's game (4!.0: unequal
 * heaps) nor hexadecimal codes that leave three (0.3F). */
int cg_heapseq_provable(const struct cg_heapseq *s);

struct cg_period {
	size_t period, preperiod;
	long saltus;
};

/* The sequence the rules declare (cg/heaprules.h known_*), if any: 1 with
 * *per and the values of heaps 0 .. preperiod + period - 1. */
int cg_heapseq_known(const struct cg_heapseq *s, struct cg_period *per,
    const uint32_t **values);

/*
 * Search v[0..len-1] for (arithmetic-)periodicity: the least period p,
 * and for it the least preperiod e, with v[n+p] = v[n] + saltus for all
 * n >= e inside the data (saltus 0 unless takes are unbounded), accepted only when the data reach far enough
 * to prove it: v[n + p] = v[n] for e <= n < 2e + p + t when the rules
 * split heaps (Guy-Smith), for e <= n < e + t otherwise, so 2e + 2p + t
 * <= len and e + p + t <= len.  Returns 1 and fills *out when found.
 */
int cg_heapseq_find_period(const uint32_t *v, size_t len, uint32_t t,
    int splits, struct cg_period *out);

/* cg-outcome's heap mode on out: with seq != (unsigned long)-1 the
 * values of heaps 0..seq on one line, comma-separated; with per !=
 * (unsigned long)-1 the periodicity proven with heaps up to per, as
 * CGSuite prints it, or "Nothing".  Dies (the ruleset name in the
 * message) on rules it cannot use or a stop. */
void cg_heapseq_print(FILE *out, const struct cg_heap_rules *r,
    const char *name, unsigned long seq, unsigned long per, int noshortcut);
/* cg_heapseq_print for ruleset spec (NAME[:PARAMS]), loaded from the
 * plugin path; dies with a usage error for a ruleset that cannot load and
 * a data error for one that is no heap game (exports no cg.heap-rules). */
void cg_heapseq_print_ruleset(FILE *out, const char *spec,
    unsigned long seq, unsigned long per, int noshortcut);

#endif
