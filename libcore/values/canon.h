/* canon.h - the canonical short-game store.
 *
 * Every canonical short game is a 32-bit id (cg_game) into one hash-consed
 * store: construction always canonicalises (duplicates removed, reversible
 * options bypassed, dominated options removed) and interns the result, so
 * two games are equal exactly when their ids are equal.  Numbers (dyadic
 * rationals of any size, dyadic.h), nimbers and up multiples, and their
 * sums x + n.^ + *k ("NUS"), have compact records and arithmetic fast
 * paths; their options are made only when someone asks for them, so a
 * huge integer is not a chain of games.  Sums, negatives, comparisons and
 * birthdays are cached.  The store lives for the whole process.
 *
 * Data errors -- a number past CG_DYADIC_MAX_BITS, an up multiple or
 * nimber past the store's range, a birthday past 64 bits, a game deeper
 * than CG_CANON_MAX_DEPTH (birthday of the games involved, a bound that
 * keeps the C stack safe) -- stop the program with a clear message,
 * unless cg_canon_catch is running, which returns them to its caller;
 * running out of memory stops the program. */
#ifndef CG_CANON_H
#define CG_CANON_H

#include <stddef.h>
#include <stdint.h>

#include "cg/ruleset.h"
#include "values/dyadic.h"

typedef uint32_t cg_game;

#define CG_NO_GAME ((cg_game)UINT32_MAX)
/* The largest up multiple and nimber of a number-up-star (the game
 * literals' GL_MAX_UP and GL_MAX_NIM). */
#define CG_CANON_MAX_UP ((int64_t)1 << 40)
#define CG_CANON_MAX_NIM ((uint64_t)1 << 40)
#define CG_CANON_MAX_DEPTH 10000
/* Games read from files (cgkb(5), checkpoints) are built under
 * cg_canon_catch_bounded with this many recursive steps, plus 1024 per
 * byte of games read, for the whole file: crafted games can make
 * comparisons exponential.  2^24 steps is about a second; the largest
 * game of the 4x4 Amazons base takes 22,028. */
#define CG_CANON_MAX_STEPS ((uint64_t)1 << 24)

/* Constructors. */
cg_game cg_canon_zero(void);
cg_game cg_canon_number(struct cg_dyadic x);
cg_game cg_canon_integer(int64_t n);
/* x + up.^ + *nim. */
cg_game cg_canon_nus(struct cg_dyadic x, int64_t up, uint64_t nim);
/* The canonical form of {L | R} (options are canonical ids). */
cg_game cg_canon_make(const cg_game *l, size_t nl, const cg_game *r,
    size_t nr);
/* {L | R} as it is, for options known to form a canonical game (the
 * negative of one has the negated options): no simplification tried. */
cg_game cg_canon_make_canonical(const cg_game *l, size_t nl,
    const cg_game *r, size_t nr);

/* Arithmetic and order. */
cg_game cg_canon_add(cg_game g, cg_game h);
cg_game cg_canon_neg(cg_game g);
cg_game cg_canon_sub(cg_game g, cg_game h);
int cg_canon_leq(cg_game g, cg_game h);
/* Comparison: 0 equal, 1 greater, -1 less, 2 confused. */
int cg_canon_compare(cg_game g, cg_game h);

/* Inspection. */
const cg_game *cg_canon_options(cg_game g, enum cg_side side, size_t *n);
int cg_canon_is_nus(cg_game g);
int cg_canon_is_number(cg_game g);
int cg_canon_is_nimber(cg_game g);
int cg_canon_is_integer(cg_game g);
/* Parts of a NUS (returns 0 when g is not one). */
int cg_canon_nus_parts(cg_game g, struct cg_dyadic *x, int64_t *up,
    uint64_t *nim);
/* Birthday (a data error when it does not fit 64 bits). */
uint64_t cg_canon_birthday(cg_game g);
/* Outcome class: 'L', 'R', 'N' or 'P'. */
int cg_canon_outcome(cg_game g);
struct cg_dyadic cg_canon_left_stop(cg_game g);
struct cg_dyadic cg_canon_right_stop(cg_game g);


/* Raise a data error of the store (for the value modules: dyadic.c). */
void cg_canon_data_error(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

/*
 * Run fn(arg) with the store's data errors returned as -1 with the
 * message in msg, instead of exiting; 0 when fn returns.  Per thread.
 * The store stays consistent: no data error is raised while an insert is
 * half done; temporaries of the operation that failed may leak.  For
 * callers that know where their input came from, so that the error can
 * name it.
 */
int cg_canon_catch(void (*fn)(void *), void *arg, char *msg, size_t msgsize);
/* The same, with at most *steps recursive steps in all inside fn (0: no
 * bound); on return *steps is what is left (0 after a data error). */
int cg_canon_catch_bounded(void (*fn)(void *), void *arg, char *msg,
    size_t msgsize, uint64_t *steps);

/* The store's recursion guard, for walkers of games outside the store
 * (the printer): stops the program past CG_CANON_MAX_DEPTH levels. */
void cg_canon_enter(void);
void cg_canon_leave(void);

/* Give back the memory of every thread's caches of sums, negatives and
 * comparisons (they start small again); only while no other thread uses
 * the store, between the phases of a computation. */
void cg_canon_shrink_caches(void);

/* Statistics: games created, bytes held. */
size_t cg_canon_count(void);
size_t cg_canon_memory(void);

/* Per-game memos for other modules: one pointer-sized word per game and
 * memo, NULL until set.  Several threads may compute the same memo; the
 * first to set it wins and cg_canon_memo_set returns the word now held
 * (the caller frees its own value when that is not it). */
enum cg_canon_memo {
	CG_MEMO_THERMOGRAPH,      /* thermo.c's struct thermo */
	CG_MEMO_REDUCED,          /* reduced canonical form: id + 1 */
	CG_MEMO_ATOMIC_WEIGHT,    /* id + 1 */
	CG_MEMO_FAR_STAR,         /* far star + 1 */
	CG_MEMO_HEAT_STAR,        /* id + 1 */
	CG_MEMO_STAR_PROJECTION,  /* id + 1 */
	CG_MEMO_COUNT
};
void *cg_canon_memo(cg_game g, enum cg_canon_memo m);
void *cg_canon_memo_set(cg_game g, enum cg_canon_memo m, void *v);

#endif
