/*
 * cg/result.h - the "cg.result" ruleset extension (see cg-ruleset(3)):
 * a game won by a condition on the board, drawn, or scored, rather than
 * lost by the player who cannot move (normal play).
 *
 * A ruleset that answers extension("cg.result") with a struct
 * cg_result_rules plays games that end in a result: when a position is
 * over, it says so and with what result, whoever is to move; and it says
 * what a player gets who is to move and has no move.  Such a game is one
 * component: the host never adds such positions up, never splits them
 * into sums, and gives them no canonical form; it solves them by minimax
 * over positions (cg-outcome(1)), plays them (cg-play(1)), and refuses
 * them where a value is a normal-play game (cg-canon, cg-synch,
 * cg-kb-build).  options() of a position that is over emits nothing.
 *
 * Results are ordered for the minimax, worst for Left first:
 *     Right wins  <  a draw  <  Left wins                 (no payoffs)
 *     Right wins  <  every payoff  <  Left wins            (payoffs)
 * where, in a game with payoffs, a draw is the payoff 0.  Left's payoff
 * is what Left scores, Right's its negative.
 *
 * The host asks once, when it loads the ruleset; the pointer lives as
 * long as the state.  Growth: fields are only appended; the host reads a
 * field only when struct_size covers it (CG_RESULT_RULES_HAS).
 */
#ifndef CG_RESULT_H
#define CG_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_RESULT "cg.result"

/* What result() says of a position, and what the player to move gets
 * when stuck (no move). */
enum cg_result {
	CG_RESULT_NONE = 0,   /* result(): play goes on */
	CG_RESULT_LEFT = 1,   /* Left has won */
	CG_RESULT_RIGHT = 2,  /* Right has won */
	CG_RESULT_DRAW = 3,   /* a draw */
	CG_RESULT_PAYOFF = 4, /* over, Left scoring *payoff */
	/* stuck only: */
	CG_RESULT_MOVER_LOSES = 5, /* normal play: who cannot move loses */
	CG_RESULT_MOVER_WINS = 6   /* misere: who cannot move wins */
};

struct cg_result_rules {
	uint32_t struct_size;  /* sizeof(struct cg_result_rules) of the plugin */
	/* What the player to move gets with no move: CG_RESULT_MOVER_LOSES,
	 * CG_RESULT_MOVER_WINS, CG_RESULT_DRAW or CG_RESULT_PAYOFF (the
	 * payoff of the position, from payoff()). */
	uint32_t stuck;
	/* Is pos over, whoever is to move?  Sets *res to CG_RESULT_NONE
	 * (play goes on), _LEFT, _RIGHT, _DRAW, or (a game with payoffs
	 * only) _PAYOFF with *payoff set; returns CG_OK or an error. */
	int (*result)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, int *res, int64_t *payoff);
	/* Left's payoff at pos, for a stuck player under CG_RESULT_PAYOFF;
	 * NULL when the game has no payoffs.  A payoff is above INT64_MIN
	 * and below INT64_MAX. */
	int (*payoff)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, int64_t *payoff);
};

/* Does the plugin's struct r hold field (appended since version 1)? */
#define CG_RESULT_RULES_HAS(r, field)                                     \
	((r)->struct_size >= offsetof(struct cg_result_rules, field) +     \
	    sizeof((r)->field))

#ifdef __cplusplus
}
#endif
#endif
