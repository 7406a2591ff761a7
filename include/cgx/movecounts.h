/*
 * cgx/movecounts.h - the "cg.move-counts" ruleset extension (see
 * cg-ruleset(3)): static bounds on how many moves each player can still
 * make in a position, with which an outcome search settles a sum without
 * looking at its options (the "safe moves" of Domineering solvers:
 * Breuker, Uiterwijk and van den Herik; Bullock's Obsequi).
 *
 * counts(pos, b) fills, for side s (CG_LEFT, CG_RIGHT):
 *   b->sure[s]  moves s can make in pos whatever the opponent plays
 *               there: s has a way of moving sure[s] times in pos that
 *               no sequence of opponent moves in pos can prevent, if s
 *               answers some opponent moves there at once (a Domineering
 *               player keeping one of two dominoes the opponent cannot
 *               both destroy with one move, or one of three of which one
 *               move destroys at most two);
 *   b->safe[s]  of those, moves on squares the opponent can never touch,
 *               which need no answer (a domino no opposing domino can
 *               ever cover);
 *   b->most[s]  no sequence of play in pos, however the moves of the two
 *               players interleave, gives s more than most[s] moves
 *               while the opponent plays for its sure moves as counted
 *               in sure[!s] (a maximum set of disjoint dominoes of s,
 *               less one for each protective area of the opponent's in
 *               a pair; or any upper bound).  The host compares most[s]
 *               only with the opponent's sure and first, so what that
 *               play of the opponent's denies s may be taken off.
 *   b->room[s]  (only when b->flags has CG_BOUNDS_ROOM) when s plays
 *               its sure moves as above, the moves the opponent makes in
 *               pos plus the moves s makes from that reserve never exceed
 *               room[s] (Domineering: half the empty squares, less those
 *               the opponent can never cover and s's reserve leaves free).
 *   b->first[s] (only when b->flags has CG_BOUNDS_FIRST) the moves s
 *               is sure of when s moves first in pos, plus the moves
 *               that first move takes from the opponent's most[!s]: at
 *               least sure[s] (Domineering: four more when a protective
 *               area is left over from the pairs, two moves for s and
 *               two off the opponent's lines; else one more when s has
 *               a domino off its reserve to play first, or a pool that
 *               does not pair, or go by threes, evenly: it plays the odd
 *               one first).
 *   b->first_sure[s], b->first_room[s] (only when b->flags has
 *               CG_BOUNDS_FIRST_ROOM) when s moves first in pos and then
 *               plays as it plans: s makes at least first_sure[s] moves
 *               from its reserve, and those plus the opponent's moves in
 *               pos never exceed first_room[s] (Domineering: two more sure
 *               moves for an area left over, one for an odd pool, or the
 *               same sure moves in less room, when the first move is a
 *               safe domino shifted onto a cell of the opponent's, which
 *               leaves a proof cell and perhaps the opponent's cells
 *               beside it unused).  first_sure[s] >= sure[s].
 * So 0 <= safe <= sure <= most, sure <= room and sure <= first.
 * The host zeroes *b first; a field left 0 is the weakest claim (room or
 * first without its flag is no claim).  The counts add over the
 * components of a sum (a player answers in the component the opponent
 * just played in), and the player to move gains first - sure in one
 * component of its choice; so in normal play the player X to move in a
 * sum wins when sure[X] + max(first[X] - sure[X]) > most[Y] or 2 sure[X]
 * + max(2 (first_sure[X] - sure[X]) - (first_room[X] - room[X]), 0) >
 * room[X] (stuck, X would have made as many moves as Y, at least
 * sure[X] of them from its reserve, or first_sure[X] when it moved first
 * as planned in one component), and loses when sure[Y] >= most[X] or 2
 * sure[Y] + 1 > room[Y] (Y the opponent).  The closer the
 * bounds, the more sums are settled; wrong bounds give wrong outcomes, so
 * a ruleset offers them only where they are proved.  safe and most also
 * order the moves the search tries (the mover's lead first; the
 * cg.search-order extension, cgx/searchorder.h, breaks the ties).
 *
 * The host asks extension(cx, CG_EXT_MOVE_COUNTS) once, when it loads
 * the ruleset, and calls counts() from the threads the ruleset's states
 * serve, like options().
 * Growth: fields are only appended to both structs; the host reads a
 * field of struct cg_move_counts only below its struct_size, and passes
 * a struct cg_move_bounds of its own size in bounds_size.
 */
#ifndef CG_MOVECOUNTS_H
#define CG_MOVECOUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "../cg/ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_MOVE_COUNTS "cg.move-counts"

/* Indexed by enum cg_side. */
struct cg_move_bounds {
	uint32_t sure[2];
	uint32_t safe[2];
	uint32_t most[2];
	uint32_t room[2];
	uint32_t flags;          /* CG_BOUNDS_* */
	uint32_t first[2];
	uint32_t first_sure[2];  /* appended: CG_BOUNDS_FIRST_ROOM */
	uint32_t first_room[2];
};

#define CG_BOUNDS_ROOM 1u        /* room[] is a claim */
#define CG_BOUNDS_FIRST 2u       /* first[] is a claim */
#define CG_BOUNDS_FIRST_ROOM 4u  /* first_sure[] and first_room[] are */

struct cg_move_counts {
	uint32_t struct_size;   /* sizeof(struct cg_move_counts) of the plugin */
	/* CG_OK, or an error for bytes that are not a position.  b points
	 * to bounds_size zeroed bytes; the plugin fills the fields of
	 * struct cg_move_bounds that lie below bounds_size. */
	int (*counts)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, struct cg_move_bounds *b, size_t bounds_size);
};

#ifdef __cplusplus
}
#endif
#endif
