/* synch.h - synchronized games: both players choose a move at once.
 *
 * The value of a position where both can move is the value of the
 * zero-sum matrix game over its joint options (CGSynch's definition),
 * Left maximising with mixed strategies; a decided position (at most one
 * player can move) is worth what the ruleset says (decided_value), or,
 * in a tree, the longest run of moves of the side that can move.  Exact
 * while numerators and denominators have at most max_digits digits, else
 * floating point ('~' and six decimals).  Or the Cincotti-Iida outcome
 * classes (L R D LD RD LRD).  A solver serves one document: its roots
 * and the positions they lead to. */
#ifndef CG_SYNCH_H
#define CG_SYNCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/doc.h"

struct cg_synch_options {
	int classes;          /* outcome classes instead of values */
	int float_mode;       /* floating point throughout */
	size_t max_digits;    /* 0: 60 */
};

struct cg_synch;

struct cg_synch *cg_synch_new(const struct cg_synch_options *o,
    struct cg_doc *d);
void cg_synch_free(struct cg_synch *s);
/* Solve root (node) x and append its value or class to out. */
void cg_synch_root(struct cg_synch *s, uint32_t x, struct cg_buf *out);
/* Solve x and write its matrix, the entries' values and both players'
 * optimal strategies (cg-synch --matrix). */
void cg_synch_matrix(struct cg_synch *s, uint32_t x, FILE *out);
/* Positions met so far. */
size_t cg_synch_positions(const struct cg_synch *s);
/* Counts and table size on err (cg-synch -v). */
void cg_synch_stats(const struct cg_synch *s, FILE *err);

#endif
