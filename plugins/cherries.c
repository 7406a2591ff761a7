/*
 * cherries.c - Cherries (van den Bergh, De Mol; CGSynch): segments of
 * Left (B) and Right (R) stones; a move takes a stone of your colour from
 * either end of a segment.  Synchronized (CGSynch's rule): moves on
 * different segments each remove their end; on the same segment both ends
 * go.  A decided position is worth the number of stones the player who
 * can still move could take alone (positive for Left): every stone of a
 * one-colour position.  (CGSynch counts segment ends instead when both
 * colours remain, which it warns about; see cherries(7).)
 *
 * Text: segments of B/b and R/r/W/w separated by _ . or spaces, e.g.
 * "BRB_RBR"; "_" is the empty position.  canonical() reverses segments
 * and sorts them.
 */
#include "cherries.h"

/* both_ends 1: a stone from either end of a segment */
CH_RULESET(cherries, 1,
    "Cherries: take a stone of your colour from either end of a segment "
    "(CGSynch's joint moves)")
