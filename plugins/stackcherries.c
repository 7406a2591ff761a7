/*
 * stackcherries.c - StackCherries (CGSynch): like Cherries, but a stone
 * may only be taken from the front (the first stone written) of a
 * segment.  Synchronized: both players take the front stones of their
 * segments (always different segments).  CGSynch never finishes this
 * ruleset's synchronized analysis (its joint-option matrix is never
 * stored); cg-synch applies the same rules as Cherries.  A decided
 * position is worth the stones the player who can still move could take
 * alone: every stone of a one-colour position.
 *
 * Text as for cherries: "BRB_RBR"; "_" is the empty position.
 * canonical() sorts the segments (they cannot be reversed).
 */
#include "cherries.h"

/* both_ends 0: a stone from the front of a segment only */
CH_RULESET(stackcherries, 0,
    "StackCherries: take the front stone of a segment starting with your "
    "colour (CGSynch's joint moves)")
