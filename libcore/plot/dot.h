/* dot.h - a document's game graph as a Graphviz (dot) picture.
 *
 * A box per node, labelled by its position (a board as a small grid, for
 * rulesets flagged CG_BOARD) or #ID; roots drawn thick.  A move is an
 * edge labelled by its name: blue for Left, red for Right, or one black
 * edge when both players have the same moves (impartial games), purple
 * and dashed for joint moves (i, j) of synchronized games.  A node stands
 * for every position with the same canonical representative (its parts
 * reordered, its mirror images and turns, say); when a named move reaches such a position and
 * not the one drawn, its edge says "(equivalent)", so that a label and its
 * target never contradict each other.  A legend under the picture says what the colours mean. */
#ifndef CG_DOT_H
#define CG_DOT_H

#include "format/doc.h"

/* Append the picture of d. */
void cg_dot_write(struct cg_buf *out, const struct cg_doc *d);

#endif
