/* lpn.h - proof-number search on a loopy game, for positions whose
 * whole graph is too large to explore (retro.h solves a whole graph).
 *
 * A position is a state (a byte string, the same bytes for equal
 * positions) and the side to move.  One search asks whether a player,
 * the prover, can force a win: the opponent left without a move within
 * a finite number of moves.  Two such searches give the result for the
 * player to move: a win when that player can force one, a loss when the
 * opponent can, else a draw.
 *
 * Repetitions (the graph-history interaction problem): a position met
 * again on the path it was reached by counts as not won for the prover
 * (a play that goes round for ever wins nothing).  That is exact at the
 * root: a player who can force a win can force one that never repeats a
 * position, by always moving to a position of smaller remoteness.  A
 * proof never rests on a repetition, so proven positions are stored for
 * every path; a disproof is stored only when every repetition it rests
 * on comes back to the disproven position itself or below it (then the
 * opponent can keep to it for ever, whatever came before), and is kept
 * only in its own subtree otherwise. */
#ifndef CG_SOLVE_LPN_H
#define CG_SOLVE_LPN_H

#include <stddef.h>
#include <stdint.h>

/* The moves of a game: emit(ectx, q, qlen) for each option of state
 * pos when side (CG_LEFT, CG_RIGHT) moves, q the option's state. */
typedef void (*cg_lpn_emit_fn)(void *ectx, const unsigned char *q,
    size_t qlen);
typedef void (*cg_lpn_options_fn)(void *ctx, const unsigned char *pos,
    size_t len, int side, cg_lpn_emit_fn emit, void *ectx);

struct cg_lpn;

/* A search over the game options(ctx, ...): its table of states and the
 * results proven or disproven for good are kept from query to query. */
struct cg_lpn *cg_lpn_new(cg_lpn_options_fn options, void *ctx);
void cg_lpn_free(struct cg_lpn *p);

/* The result for side, to move at state pos: CG_RETRO_WIN, _LOSS or
 * _DRAW in *res, and 0; or -1 when cg_stop stopped the search (a
 * signal, the memory limit) or its tree would pass 2^32 - 2 nodes, the
 * result being then unknown. */
int cg_lpn_solve(struct cg_lpn *p, const unsigned char *pos, size_t len,
    int side, int *res);

/* Positions (states with a side to move) met, and tree nodes made, over
 * every query so far. */
void cg_lpn_count(const struct cg_lpn *p, uint64_t *positions,
    uint64_t *nodes);

#endif
