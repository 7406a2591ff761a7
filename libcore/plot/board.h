/* board.h - positions of rulesets flagged CG_BOARD drawn as grids: on a
 * terminal (cg-play) and in Graphviz nodes (cg-options --dot).
 *
 * A board text is rows of one character per square separated by '|', the
 * top row first (cg/ruleset.h).  Columns are named a, b, ..., z, aa, ab,
 * ... from the left and rows 1, 2, ... from the bottom, as the rulesets'
 * move names do. */
#ifndef CG_BOARD_H
#define CG_BOARD_H

#include <stddef.h>

#include "host/plugin.h"

/* Does the ruleset print its positions as boards? */
int cg_board_is(const struct cg_plugin *rs);

/* The shape of a board text: 0 and *rows, *cols set when every row has
 * the same non-zero length; -1 when the text is no board (then it is
 * shown as text). */
int cg_board_shape(const char *text, size_t *rows, size_t *cols);

/* Append the name of column c (0-based): "a", ..., "z", "aa", ... */
void cg_board_column(struct cg_buf *out, size_t c);

/* Append a board text drawn for a terminal: each line starts with indent,
 * then the row number and the squares; a last line names the columns.
 *     2  x . .
 *     1  . . o
 *        a b c                                                     */
void cg_board_draw(const char *text, const char *indent,
    struct cg_buf *out);

#endif
