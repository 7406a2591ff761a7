/* expand.h - writing a game tree into a document: each root expanded
 * into its Left and Right options (and joint options), to a depth or
 * completely, as a DAG -- transpositions, and positions equal up to the
 * ruleset's symmetries (one vertex of the position graph), are one node.
 * What cg-options does. */
#ifndef CG_EXPAND_H
#define CG_EXPAND_H

#include "format/doc.h"

/* What an expansion has done so far (read by progress reports). */
struct cg_expand_stats {
	unsigned long long expanded;   /* positions expanded */
	unsigned long depth;           /* depth of the last one */
	size_t waiting;                /* nodes queued */
	uint32_t root;                 /* when stopped: the root whose tree
	                                * was being expanded */
};

/* Expand the roots of d to max_depth moves (0: the whole tree), breadth
 * first so each node gets its least depth; joint: also the joint options
 * of synchronized rulesets.  Nodes already expanded in d are walked into,
 * and nodes with a position but only some options get them all.  Polls
 * cg_stop (base/watch.h: a signal or the memory limit) between positions
 * and between options, and ticks the progress reports: 0 when done, -1
 * when stopped (d then holds a partial expansion, not to be written).
 * st may be NULL. */
int cg_expand_doc(struct cg_doc *d, unsigned long max_depth, int joint,
    struct cg_expand_stats *st);

#endif
