/* expand.h - writing a game tree into a document: each root expanded
 * into its Left and Right options (and joint options), to a depth or
 * completely, as a DAG -- transpositions, and positions equal up to the
 * ruleset's symmetries (one vertex of the position graph), are one node.
 * What cg-options does. */
#ifndef CG_EXPAND_H
#define CG_EXPAND_H

#include "format/doc.h"

/* Expand the roots of d to max_depth moves (0: the whole tree), breadth
 * first so each node gets its least depth; joint: also the joint options
 * of synchronized rulesets.  Nodes already expanded in d are walked into,
 * and nodes with a position but only some options get them all. */
void cg_expand_doc(struct cg_doc *d, unsigned long max_depth, int joint);

#endif
