/* retro.h - games on a finite graph that may have cycles (loopy games):
 * outcomes with draws by retrograde analysis, and generalized
 * Sprague-Grundy values of impartial graphs.
 *
 * A graph has nodes 0 .. n-1 and, for each side, the options of each
 * node in compressed rows: node x's options for side s are
 * to[s][off[s][x] .. off[s][x+1]).  Play is normal: a player who cannot
 * move loses; play that never ends is a draw.  A position is a node and
 * the side to move; a move by s from x to y leaves the other side to
 * move in y. */
#ifndef CG_SOLVE_RETRO_H
#define CG_SOLVE_RETRO_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

struct cg_retro_graph {
	uint32_t n;
	const uint32_t *off[2];   /* [CG_LEFT], [CG_RIGHT]: n + 1 each */
	const uint32_t *to[2];
};

/* Results per node and side to move, for the player to move. */
enum { CG_RETRO_LOSS = -1, CG_RETRO_DRAW = 0, CG_RETRO_WIN = 1 };

struct cg_retro {
	uint32_t n;
	int8_t *res[2];           /* CG_RETRO_* for the side to move */
	/* Moves to the end under best play: the winner takes the shortest
	 * win, the loser the longest loss; 0 at a draw (there is none). */
	uint32_t *rem[2];
};

/* Solve every position of g: O(nodes + options).  Free with
 * cg_retro_free. */
struct cg_retro *cg_retro_solve(const struct cg_retro_graph *g);
void cg_retro_free(struct cg_retro *r);

/* The outcome class of node x, as CGSuite names the classes of loopy
 * games ("L", "R", "N", "P", "D", "PHat", "PCheck", "NHat", "NCheck";
 * see cg_result_class). */
const char *cg_retro_class(const struct cg_retro *r, uint32_t x);

/* The remoteness of node x as cg-outcome(1) writes it: for Left moving
 * first, then Right, "wN" (the player to move wins in N moves), "lN"
 * (loses in N moves) or "d" (a draw), separated by a blank: "w3 l0". */
void cg_retro_remoteness_text(const struct cg_retro *r, uint32_t x,
    struct cg_buf *out);

/*
 * Generalized Sprague-Grundy values (Smith 1966; Fraenkel and Yesha
 * 1986) of an impartial graph: options are to[0] / off[0] (to[1] and
 * off[1] are not read).  A value is finite, or infinite with the set K
 * of the finite values of the node's options, written inf(K).
 */
#define CG_GSG_INF UINT32_MAX

struct cg_gsg {
	uint32_t n;
	uint32_t *val;            /* the finite value, or CG_GSG_INF */
	/* for an infinite node x, K is kset[koff[x] .. koff[x+1]),
	 * ascending without repeats; empty for a finite node */
	uint32_t *koff, *kset;
};

struct cg_gsg *cg_gsg_solve(const struct cg_retro_graph *g);
void cg_gsg_free(struct cg_gsg *v);

/* A value: finite v (k unused), or v == CG_GSG_INF with K k[0..nk)
 * ascending. */
struct cg_gsg_value {
	uint32_t v;
	uint32_t *k;
	size_t nk;
};

/* Node x's value (pointing into v). */
struct cg_gsg_value cg_gsg_of(const struct cg_gsg *v, uint32_t x);
/* "3", "inf" (K empty) or "inf(0,1,4)". */
void cg_gsg_text(struct cg_gsg_value a, struct cg_buf *out);
/* The value of a sum from the values of its two terms: a xor b when both
 * are finite; inf(K xor a) for finite a and inf(K); inf (K empty) for
 * two infinite terms, a draw.  The result's k is allocated (free it). */
struct cg_gsg_value cg_gsg_add(struct cg_gsg_value a, struct cg_gsg_value b);

#endif
