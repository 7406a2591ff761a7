/* select.h - mining a knowledge base: the positions whose values satisfy
 * an expression (cg-kb select), and how many positions hold each value
 * of a kind (cg-kb count).
 *
 * A kind is one the base stores, or one that follows from its canonical
 * forms (a cg-canon -p property, the outcome, the nim value of a nimber:
 * what cg-kb-build would store for it).  Entries with equal references
 * hold equal values, so a comparison is evaluated once per distinct
 * reference of the kind it reads and a value computed once per distinct
 * canonical form; one pass over the base does the rest.
 *
 * The expression grammar (cg-kb(1)):
 *   expr  := conj { "or" conj }
 *   conj  := unary { "and" unary }
 *   unary := "not" unary | "(" expr ")" | KIND [OP VALUE]
 *   OP    := "==" | "!=" | "<" | ">" | "<=" | ">=" | "<>" | "<|" | "|>"
 * A VALUE runs to a space outside brackets, an unmatched ')' or the end. */
#ifndef CG_KB_SELECT_H
#define CG_KB_SELECT_H

#include <stdio.h>

#include "kb/kbfile.h"

/* An expression compiled against one base.  A malformed expression, an
 * operator its kind does not take or an unknown kind exits 2 with the
 * column; a kind the base neither holds nor can compute exits 1. */
struct cg_kbsel;
struct cg_kbsel *cg_kbsel_new(struct cg_kbfile *f, const char *expr);
/* Does the entry satisfy the expression?  (Its key is not read.) */
int cg_kbsel_match(struct cg_kbsel *s, const struct cg_kbentry *e);
void cg_kbsel_free(struct cg_kbsel *s);

/* Write the entries of f that satisfy expr, in index order, with the
 * values of kinds (comma-separated, stored or computed; NULL: those f
 * stores): a cgt document of one root per entry, or with tsv one line
 * per entry, the position and the values, TAB-separated. */
void cg_kb_select(struct cg_kbfile *f, const char *expr, const char *kinds,
    int tsv, FILE *out);
/* Write how many entries (those that satisfy expr, when not NULL) hold
 * each value of kind: "count<TAB>value" lines by count, most first, ties
 * in the order of the values ('-' counts the entries without one), then
 * "total<TAB>count". */
void cg_kb_count(struct cg_kbfile *f, const char *kind, const char *expr,
    FILE *out);

#endif
