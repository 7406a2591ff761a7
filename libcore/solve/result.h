/* result.h - games that end in a result (cg/result.h: won by a condition
 * on the board, drawn, or scored): for each player moving first, the
 * minimax result, by a depth-first search over positions with a table of
 * the results found.  Such a game is one component: no sums, no
 * decomposition.
 *
 * A result is a number, ordered as Left prefers:
 *     CG_RESULT_RIGHT_WINS < payoffs < CG_RESULT_LEFT_WINS,
 * a draw being 0 (in a game without payoffs, the only three results).
 * Its sign says who wins: positive Left, negative Right, 0 a draw. */
#ifndef CG_SOLVE_RESULT_H
#define CG_SOLVE_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "host/plugin.h"

#define CG_RESULT_LEFT_WINS  INT64_MAX
#define CG_RESULT_RIGHT_WINS INT64_MIN

struct cg_result_solver;

/* The solver of rs (rs->result not NULL), made on first use and kept,
 * with what it found, until cg_result_free_all(). */
struct cg_result_solver *cg_result_solver(struct cg_plugin *rs);
void cg_result_free_all(void);

/* The result of pos (position bytes of the solver's ruleset) with side
 * to move, in *v.  0, or -1 when the search was stopped (cg_stop).
 * Exits with the ruleset's message on a plugin error. */
int cg_result_solve(struct cg_result_solver *s, const unsigned char *pos,
    size_t len, enum cg_side side, int64_t *v);

/* A root's row: its outcome class appended to cls and, in a game with
 * payoffs, to pay the two results "LEFTFIRST RIGHTFIRST" as
 * cg_result_text writes them.  0, or -1 when the search was stopped. */
int cg_result_row(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, struct cg_buf *cls, struct cg_buf *pay);

/* cg-outcome's row of root x of d (a position of a ruleset with a
 * result): written to tsv, or with tsv NULL the root annotated with
 * "outcome" and, with payoffs, "payoff".  0, or -1 when stopped. */
struct cg_doc;
int cg_result_root(struct cg_doc *d, uint32_t x, FILE *tsv);

/* The options of pos, Left's then Right's, each with its value as a
 * root's row gives it (the class, then the payoffs after a blank in a
 * game with payoffs): fn(ctx, side, move, child, value), child the
 * option's text.  0, or -1 when the search was stopped. */
int cg_result_children(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, void (*fn)(void *ctx, int side, const char *move,
    const char *child, const char *value), void *ctx);

/* The outcome class of results lv (Left moving first) and rv (Right
 * moving first), as CGSuite names loopy outcome classes: "L", "R", "N",
 * "P", "D", "PHat", "PCheck", "NHat" or "NCheck". */
const char *cg_result_class(int64_t lv, int64_t rv);
/* A result as a payoff: the integer, "inf" (Left wins) or "-inf" (Right
 * wins). */
void cg_result_text(int64_t v, struct cg_buf *out);
/* Does the game of rs have payoffs (cg_result_rules.payoff given)? */
int cg_result_payoffs(const struct cg_plugin *rs);
/* Positions the solver of rs has solved (both sides counted apart). */
uint64_t cg_result_positions(struct cg_result_solver *s);

#endif
