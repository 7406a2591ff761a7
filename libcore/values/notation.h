/* notation.h - canonical forms in CGSuite's notation: uptimals, the order
 * of options, printing, and reading game literals. */
#ifndef CG_NOTATION_H
#define CG_NOTATION_H

#include "values/canon.h"

/* Uptimal expansion x + d1.^ + d2.^2 + ... + *nim, when g has one. */
struct cg_uptimal {
	struct cg_dyadic x;
	uint64_t nim;
	int len;
	const int64_t *d;   /* d[0..len-1], owned by the store */
};
int cg_canon_uptimal(cg_game g, struct cg_uptimal *u);
/* ^<n> (up-nth) and ^[n] (up to the nth), n >= 0. */
cg_game cg_canon_up_pow(int n);
cg_game cg_canon_up_powto(int n);

/* CGSuite's deterministic order of games (numbers, nimbers, uptimals,
 * then the rest), as options are printed: <0, 0 or >0. */
int cg_canon_order(cg_game a, cg_game b);

/* Printing in CGSuite's plain-text notation (byte-exact). */
void cg_canon_print(cg_game g, struct cg_buf *out);

/* Read a game literal (the `game' ruleset's syntax, which includes every
 * canonical form the printer writes).  Returns 0, or -1 with a message
 * and a 1-based column in *col (1 for a literal that is well-formed but
 * whose value is too large for the store). */
int cg_canon_parse(const char *text, size_t len, cg_game *out,
    char *msg, size_t msgsize, size_t *col);
/* cg_canon_parse of a value from elsewhere (what: "knowledge base value"),
 * which must parse: else exit 1 naming what, the text and the reason. */
cg_game cg_canon_value(const char *text, size_t len, const char *what);

#endif
