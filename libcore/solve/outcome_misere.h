/* outcome_misere.h - misere canonical forms of impartial games, with
 * their normal and misere nim values, phylum and genus (for -g).
 *
 * Games are hash-consed: a game is its set of canonical options, and two
 * canonical games are equal exactly when they are the same number.  The
 * simplification follows Conway (On Numbers and Games, ch. 12): a game
 * equals Y, an option of one of its options, when every option of Y is an
 * option of the game and every other option has Y as an option; it equals
 * 0 when it is a misere N-position all of whose options have 0 as an
 * option.  The phylum (nim heap, tame, restive, restless, wild...) and the
 * genus g^(g0 g1 ...) -- g the normal nim value, gk the misere nim value of
 * G + 2 + ... + 2 (k twos) -- are computed as CGSuite does, which decides
 * how the genus is printed (3^1431, 0^20, 6^(1,9,10,8)). */
#ifndef CG_OUTCOME_MISERE_H
#define CG_OUTCOME_MISERE_H

#include <stddef.h>
#include <stdint.h>

#include "host/plugin.h"

struct cg_mtab;

struct cg_mtab *cg_mtab_new(void);
void cg_mtab_free(struct cg_mtab *t);
/* The canonical game whose options are opts[0..n) (canonical numbers;
 * the array is sorted in place).  0 is the zero game. */
uint32_t cg_mtab_canon(struct cg_mtab *t, uint32_t *opts, size_t n);
/* The canonical game of the sum of canonical games a and b. */
uint32_t cg_mtab_add(struct cg_mtab *t, uint32_t a, uint32_t b);
/* Whether canonical game g is *, the game whose one option is 0. */
int cg_mtab_is_star(const struct cg_mtab *t, uint32_t g);
uint32_t cg_mtab_gplus(const struct cg_mtab *t, uint32_t g);
uint32_t cg_mtab_gminus(const struct cg_mtab *t, uint32_t g);
/* Append the genus in CGSuite's plain-text notation. */
void cg_mtab_genus(const struct cg_mtab *t, uint32_t g, struct cg_buf *out);
size_t cg_mtab_memory(const struct cg_mtab *t);

#endif
