/*
 * cg/heaprules.h - the "cg.heap-rules" ruleset extension (see
 * cg-ruleset(3)): a heap game (take-and-break, subtraction) whose
 * positions are sums of single heaps, described as data, so that the host
 * computes nim values of heaps without building positions.
 *
 * From a heap of n counters a move removes k counters (1 <= k <= n, or
 * k = 0 for a pure split) and leaves the remaining n - k counters as j
 * non-empty heaps, where bit j of mask[k] says j heaps are allowed (j = 0
 * only when n == k).  Takes above max_take use tail_mask (0 when none are
 * allowed; 0.[3] for Nim has tail_mask 0x3).  flags[k] adds restrictions
 * on the heaps left by a take of k.
 *
 * Growth: fields are only appended; the host reads a field only when
 * struct_size covers it (CG_HEAP_RULES_HAS).
 */
#ifndef CG_HEAPRULES_H
#define CG_HEAPRULES_H

#include <stddef.h>
#include <stdint.h>

#include "ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_HEAP_RULES "cg.heap-rules"

#define CG_HEAP_UNEQUAL 1u /* the heaps left must be pairwise different */
#define CG_HEAP_EQUAL   2u /* the heaps left must all be the same size */

/* Called by heaps() once per heap of a position. */
typedef void (*cg_heap_fn)(void *ctx, uint64_t size);

struct cg_heap_rules {
	uint32_t struct_size;   /* sizeof(struct cg_heap_rules) of the plugin */
	uint32_t max_take;
	const uint32_t *mask;   /* mask[0..max_take] */
	const uint32_t *flags;  /* flags[0..max_take] */
	uint32_t tail_mask;
	uint32_t tail_flags;

	/* Appended after version 1's first fields.  A nim sequence the ruleset knows for every
	 * heap by a theorem, not by computation (the host can prove periods
	 * of games with bounded takes itself); known_period 0 when there is
	 * none.  For n < known_preperiod + known_period, G(n) is
	 * known_values[n]; beyond, G(n) = G(n - known_period) + known_saltus.
	 * Nim: preperiod 0, period 1, saltus 1, values { 0 }: G(n) = n. */
	uint32_t known_preperiod;
	uint32_t known_period;
	uint32_t known_saltus;
	const uint32_t *known_values;
	/* The heaps of a position of this ruleset: fn(ctx, size) for each
	 * heap (heaps without counters may be left out).  CG_OK, or an error
	 * for bytes that are not a position.  NULL when not given. */
	int (*heaps)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, cg_heap_fn fn, void *ctx);
};

/* Does the plugin's struct r hold field (appended since version 1)? */
#define CG_HEAP_RULES_HAS(r, field)                                      \
	((r)->struct_size >= offsetof(struct cg_heap_rules, field) +       \
	    sizeof((r)->field))

#ifdef __cplusplus
}
#endif
#endif
