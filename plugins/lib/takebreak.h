/*
 * plugins/lib/takebreak.h - the moves of take-and-break games on one heap
 * (header-only), shared by the octal ruleset and rules.so's heap rules,
 * so that the two find, order and name moves alike.
 *
 * A move takes k counters from a heap of n and leaves the rest as j
 * non-empty heaps, for each bit j set in a mask (a base-32 digit of an
 * octal or hexadecimal code: 1 = take the whole heap, 2 = leave one heap,
 * 4 = two, 8 = three, 16 = four), the heaps left perhaps all different,
 * all equal or not all equal.  Taking nothing (k = 0) only splits.  The
 * heaps a move leaves come in increasing order; a move is named
 * "HEAP:LEFT" (1-based heap, the heaps left joined by '+', or 0).
 */
#ifndef CG_PLUGIN_TAKEBREAK_H
#define CG_PLUGIN_TAKEBREAK_H

#include <stdio.h>
#include <string.h>

#include "cg/heaprules.h"
#include "cg/ruleset.h"
#include "heaps.h"

#define TB_MAX_PARTS 4 /* base-32 digits allow up to four heaps */

/* What the heaps a move leaves must be, when it leaves two or more. */
enum { TB_NONE, TB_UNEQUAL, TB_EQUAL, TB_SOME };

/* The value of a base-32 digit (0-9, A-V, either case), or -1. */
static inline int
tb_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'V')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'v')
		return c - 'a' + 10;
	return -1;
}

/* The cg.heap-rules flags of a constraint (TB_SOME has none: a code with
 * it exports no heap rules). */
static inline uint32_t
tb_heap_flags(int cons)
{
	return cons == TB_UNEQUAL ? CG_HEAP_UNEQUAL : cons == TB_EQUAL ?
	    CG_HEAP_EQUAL : 0;
}

/* Enumerating the moves from one heap: fn sees the heaps each leaves. */
struct tb_gen {
	int (*fn)(struct tb_gen *g, const uint32_t *parts, size_t n);
	uint32_t parts[TB_MAX_PARTS];
};

/* Put parts[idx..j-1], each >= min, summing to rest; constraint c. */
static inline int
tb_split(struct tb_gen *g, size_t idx, size_t j, uint32_t min, uint32_t rest,
    int c)
{
	uint32_t a, left;
	size_t k;
	int rc;

	if (idx == j - 1) {
		if (rest < min)
			return 0;
		g->parts[idx] = rest;
		if (c == TB_SOME && g->parts[0] == rest)
			return 0; /* all equal (nondecreasing) */
		return g->fn(g, g->parts, j);
	}
	left = (uint32_t)(j - idx);
	for (a = min; (uint64_t)a * left <= rest; a++) {
		if (c == TB_UNEQUAL) {
			/* room for strictly increasing a+1, a+2, ... */
			uint64_t need = 0;

			for (k = 0; k < left; k++)
				need += a + k;
			if (need > rest)
				break;
		}
		g->parts[idx] = a;
		rc = tb_split(g, idx + 1, j, c == TB_UNEQUAL ? a + 1 : a,
		    rest - a, c);
		if (rc)
			return rc;
		if (c == TB_EQUAL)
			break;
	}
	return 0;
}

/* Take k from a heap of n leaving j heaps for each bit j of mask, j
 * ascending; stops on the first non-zero fn. */
static inline int
tb_take(struct tb_gen *g, uint32_t n, uint32_t k, uint32_t mask, int cons)
{
	uint32_t m = n - k;
	size_t j;
	int rc, c;

	if ((mask & 1) && m == 0 && k > 0 && (rc = g->fn(g, g->parts, 0)) != 0)
		return rc;
	for (j = 1; j <= TB_MAX_PARTS && j <= m; j++) {
		if (!(mask >> j & 1) || (k == 0 && j == 1))
			continue;
		c = j >= 2 ? cons : TB_NONE;
		if (c == TB_EQUAL && m % j != 0)
			continue;
		rc = tb_split(g, 0, j, c == TB_EQUAL ? m / (uint32_t)j : 1, m,
		    c);
		if (rc)
			return rc;
	}
	return 0;
}

/* An fn that stops at the first move: is there one? */
static inline int
tb_found(struct tb_gen *g, const uint32_t *parts, size_t n)
{
	(void)g;
	(void)parts;
	(void)n;
	return 1;
}

/* Emitting the moves of heap number heap of pos: child holds len +
 * 4 * TB_MAX_PARTS bytes. */
struct tb_opt {
	struct tb_gen g;
	const unsigned char *pos;
	size_t len, heap;
	unsigned char *child;
	cg_emit_fn emit;
	void *ctx;
};

/* The fn of a struct tb_opt (its g): the child and the move's name. */
static inline int
tb_emit_move(struct tb_gen *g, const uint32_t *parts, size_t n)
{
	struct tb_opt *o = (struct tb_opt *)(void *)g;
	char move[96];
	size_t clen, k, w;

	clen = heaps_replace(o->child, o->pos, o->len, o->heap, parts, n);
	w = (size_t)snprintf(move, sizeof move, "%zu:%s", o->heap + 1,
	    n ? "" : "0");
	for (k = 0; k < n && w < sizeof move; k++)
		w += (size_t)snprintf(move + w, sizeof move - w, "%s%u",
		    k ? "+" : "", parts[k]);
	return o->emit(o->ctx, o->child, clen, move) ? CG_STOP : 0;
}

#endif
