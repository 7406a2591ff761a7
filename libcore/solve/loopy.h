/* loopy.h - cg-outcome's values of the games of a document read as a
 * graph that may have cycles (cgt(5) version 2): outcome classes with
 * draws, remoteness, generalized Sprague-Grundy values, by retro.h. */
#ifndef CG_SOLVE_LOOPY_H
#define CG_SOLVE_LOOPY_H

#include <stdio.h>

#include "format/doc.h"

enum {
	CG_LOOPY_CLASS = 1,        /* the outcome class ("outcome") */
	CG_LOOPY_NIMBER = 2,       /* generalized SG value ("nimber") */
	CG_LOOPY_REMOTENESS = 4    /* "wN lN", "d" per side ("remoteness") */
};

/*
 * The values asked for (CG_LOOPY_*, in that order) of each root of d:
 * one row per root written to tsv (label, then the values), or, with tsv
 * NULL, annotations of the roots under the keys above.  The game is the
 * document's graph as written, so every node's options must be there:
 * a node with a position of a ruleset needs its E record.  Stops with
 * "file:line: ..." on a node that lacks it, and, for CG_LOOPY_NIMBER,
 * on a node whose Left and Right options differ (not impartial).
 */
void cg_loopy_rows(struct cg_doc *d, unsigned what, FILE *tsv);

#endif
