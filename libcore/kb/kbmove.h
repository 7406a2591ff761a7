/* kbmove.h - the moves of a position with the values they lead to, from
 * knowledge bases (cg_kb_add) and, for positions no base holds, from the
 * engines (kbvalue.h).  Used by cg-kb best and cg-play. */
#ifndef CG_KBMOVE_H
#define CG_KBMOVE_H

#include <stddef.h>
#include <stdint.h>

#include "host/plugin.h"
#include "values/canon.h"

struct cg_kbmove {
	char *move;               /* the move's name, or NULL */
	unsigned char *child;     /* the position it leads to */
	size_t len;
	char **value;             /* values of the child, one per kind asked
	                           * (NULL when unknown) */
	char *outcome;            /* the child's outcome class */
	int from_base;            /* 1 if every value came from a base */
	int wins;                 /* the mover wins after it (normal play) */
	int draws;                /* a draw after it with best play (a
	                           * game that ends in a result) */
	int best;
};

/*
 * Every option of side from pos, in the plugin's order, with the values of
 * kinds[0..nkinds-1] and the outcome of each child.  The best moves are the
 * winning ones (the child is P or a win for the mover); when no move wins,
 * every move is best.  In a game that ends in a result (cg.result) the
 * outcome is the child's class (cg-outcome(1)) and the best moves are
 * those whose result, by minimax, is the mover's best.  In a loopy game
 * (CG_LOOPY) the outcome is the child's class of a loopy game, by
 * retrograde analysis, and the best moves are the quickest wins, else
 * the draws, else the slowest losses.  With kinds NULL, only the moves and children are
 * filled in (no values, no best).  Returns the number of moves (0: side cannot move).
 */
size_t cg_kb_moves(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, enum cg_side side, const char *const *kinds, size_t nkinds,
    struct cg_kbmove **out);
void cg_kb_moves_free(struct cg_kbmove *m, size_t n, size_t nkinds);
/* The value of kind for a position from the added bases: that of its
 * canonical form, or else combined from its components' (canonical forms
 * added, the outcome of that sum, nim values XORed; no component: 0).
 * malloc'ed, or NULL. */
char *cg_kb_lookup(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, const char *kind);
/* The canonical form of a position from the added bases: its own, or
 * its components' added; CG_NO_GAME when a base lacks one. */
cg_game cg_kb_lookup_game(struct cg_plugin *rs, const unsigned char *pos,
    size_t len);
/* Count of values found in bases and computed, since the start. */
void cg_kb_moves_counts(size_t *from_base, size_t *computed);

#endif
