/* play.h - a person's side of a game (cg-play): the move meant by what
 * they type, and a position shown the way they read it. */
#ifndef CG_PLAY_H
#define CG_PLAY_H

#include <stddef.h>

#include "host/plugin.h"
#include "kb/kbmove.h"

/*
 * The index in m[0..n-1] (the moves of side from pos, as cg_kb_moves gives
 * them) of the move text means:
 *   "#N"       the Nth move, counted from 1;
 *   a name     read by the ruleset's move_parse(), or one of the names
 *              options() gives (a name wins over a position spelled the
 *              same: "#N" always reaches a move);
 *   a position the position the move leads to, in the ruleset's notation,
 *              equal to it or equivalent to it (the same canonical
 *              representative: a mirror image, say).
 * Returns -1 with the reason (one line, no newline) appended to why; when
 * the move reaches only an equivalent of the position typed, a note saying
 * which move was taken is appended to why.
 */
long cg_play_choose(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, enum cg_side side, const struct cg_kbmove *m, size_t n,
    const char *text, struct cg_buf *why);

/*
 * Append pos the way a person reads it, each line starting with indent: a
 * board drawn as a grid with coordinates (rulesets flagged CG_BOARD) or
 * the position's text; then, when the position is a sum of two or more
 * components that its text does not already spell out, a line naming
 * them ("sum of 2 components: A + B").
 */
void cg_play_show(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, const char *indent, struct cg_buf *out);

/*
 * Is the game over at pos with side to move?  -1 when it goes on; else
 * the winner (CG_LEFT or CG_RIGHT), or 2 when there is none (a draw, a
 * payoff of 0), with what happened appended to out: "Right cannot move:
 * Left wins" under normal play; for a game that ends in a result
 * (cg.result), "the game is over: a draw", "Left cannot move: Left
 * scores 3, Left wins" and the like.
 */
int cg_play_over(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, enum cg_side side, struct cg_buf *out);

/*
 * The positions of one game, for loopy rulesets, whose positions can
 * come back: cg_play_repeat records that pos (up to the ruleset's
 * symmetries) is reached with side to move.  The second time it appends
 * a line to out saying so ("This position has come back with Left to
 * move (a third time is a draw).\n") and returns 0; the third time, the
 * draw ("This position has come back a third time with Left to move: a
 * draw.\n") and returns 1: the game is over.
 */
struct cg_play_history;
struct cg_play_history *cg_play_history_new(void);
int cg_play_repeat(struct cg_play_history *h, struct cg_plugin *rs,
    const unsigned char *pos, size_t len, enum cg_side side,
    struct cg_buf *out);
void cg_play_history_free(struct cg_play_history *h);

#endif
