/*
 * cg/movecounts.h - the "cg.move-counts" ruleset extension (see
 * cg-ruleset(3)): static bounds on how many moves each player can still
 * make in a position, with which an outcome search settles a sum without
 * looking at its options (the "safe moves" of Domineering solvers:
 * Breuker, Uiterwijk and van den Herik; Bullock's Obsequi).
 *
 * counts(pos) fills, for side s (CG_LEFT, CG_RIGHT):
 *   safe[s]  moves s can make in pos whatever the opponent plays there:
 *            s has a way of moving safe[s] times in pos that no sequence
 *            of opponent moves in pos can prevent (a Domineering domino
 *            no horizontal domino can ever touch);
 *   most[s]  no sequence of play in pos, however the moves of the two
 *            players interleave, gives s more than most[s] moves (a
 *            maximum set of disjoint dominoes of s, or any upper bound).
 * A player can always make at least 0 moves and most >= safe.  Both are
 * additive over the components of a sum, so in normal play the player X
 * to move in a sum wins when safe[X] > most[Y] and loses when safe[Y] >=
 * most[X] (Y the opponent): each player only plays safe moves.  The
 * closer the bounds, the more sums are settled; wrong bounds give wrong
 * outcomes, so a ruleset offers them only where they are proved.
 *
 * The host asks extension(cx, CG_EXT_MOVE_COUNTS) once per state and
 * calls counts() from the threads the state serves, like options().
 */
#ifndef CG_MOVECOUNTS_H
#define CG_MOVECOUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_MOVE_COUNTS "cg.move-counts"

struct cg_move_counts {
	uint32_t struct_size;   /* sizeof(struct cg_move_counts) of the plugin */
	/* CG_OK, or an error for bytes that are not a position.  Indexed
	 * by enum cg_side. */
	int (*counts)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, uint32_t safe[2], uint32_t most[2]);
};

#ifdef __cplusplus
}
#endif
#endif
