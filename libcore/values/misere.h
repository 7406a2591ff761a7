/* misere.h - misere canonical forms of impartial games, with
 * their normal and misere nim values, phylum and genus (cg-outcome -g), and
 * (misereform.c) their printed forms and properties (cg-canon -m).
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
#ifndef CG_MISERE_H
#define CG_MISERE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

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
/* The number of canonical games made. */
size_t cg_mtab_count(const struct cg_mtab *t);

/* A canonical game's options (sorted by number), birthday, normal (G+)
 * and misere (G-) nim values. */
const uint32_t *cg_mtab_options(const struct cg_mtab *t, uint32_t g,
    size_t *n);
uint32_t cg_mtab_birthday(const struct cg_mtab *t, uint32_t g);
/* The nim heap *n: options *0 .. *(n-1). */
uint32_t cg_mtab_nim(struct cg_mtab *t, uint32_t n);
/* n + 1 when g is the nim heap *n, else 0. */
uint32_t cg_mtab_heap_size(const struct cg_mtab *t, uint32_t g);
/* CGSuite's phyla: tame is hereditarily tame (nim heaps and games whose
 * options are all tame), generally tame adds the reversibly tame games;
 * restive is hereditarily restive, generally restive adds the
 * reversibly restive ones; tameable adds the tameable games to the
 * generally tame. */
int cg_mtab_is_tame(const struct cg_mtab *t, uint32_t g);
int cg_mtab_is_generally_tame(const struct cg_mtab *t, uint32_t g);
int cg_mtab_is_tameable(const struct cg_mtab *t, uint32_t g);
int cg_mtab_is_restive(const struct cg_mtab *t, uint32_t g);
int cg_mtab_is_generally_restive(const struct cg_mtab *t, uint32_t g);
int cg_mtab_is_restless(const struct cg_mtab *t, uint32_t g);

/* Where misereform.c keeps its memos (freed with the table). */
struct cg_mtab_form;
struct cg_mtab_form **cg_mtab_form_slot(struct cg_mtab *t);
void cg_mtab_form_free(struct cg_mtab_form *f);

/* Forms in CGSuite's notation and their properties (misereform.c). */
/* Append g as CGSuite prints it: *[2#0], *[2[2]], *[(2#1)2##]. */
void cg_mtab_print(struct cg_mtab *t, uint32_t g, struct cg_buf *out);
/* Is name a property cg_mtab_property knows (canon, outcome, genus,
 * mate, misere-nim-value, nim-value, birthday, tame, restive, restless,
 * half-tame, generally-tame, generally-restive, tameable, extraverted,
 * introverted, even, prime, nim-heap, options, parts, partitions)? */
int cg_mtab_property_known(const char *name);
/* The names, comma separated, for messages. */
const char *cg_mtab_property_names(void);
/* Append property name of g to out. */
void cg_mtab_property(struct cg_mtab *t, uint32_t g, const char *name,
    struct cg_buf *out);

#endif
