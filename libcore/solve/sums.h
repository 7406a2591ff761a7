/* sums.h - the table of sums every engine shares (sums.c): sums of
 * components interned by tag and sorted component numbers, their value
 * bits, the expansion of a sum into child records in the solver's
 * arena, and the results a bounded search carries across its restarts.
 * Not for tools.
 *
 * Sum keys: a tag byte ('N' normal partizan play, with the sum's
 * integer part k in 4 bytes; 'M' misere play; 'G' misere genus), then
 * the sorted component numbers.  Sum values: for 'N' and 'M', bit 2 side
 * set = known, bit 2 side + 1 = the player to move (side) wins; for 'G',
 * the misere game + 1 in the low 32 bits and the sum's height above. */
#ifndef CG_SUMS_H
#define CG_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include "solve/solver_int.h"

/* A hash table from byte strings to 64-bit values, faster than a generic
 * map for the solver's access pattern (mostly misses and hits on fresh
 * keys): each slot keeps the key's 32-bit hash next to its entry number,
 * so a probe chain is walked in one or two cache lines without touching
 * the entries.  Entries are numbered in insertion order. */
struct otab {
	uint64_t *slots;        /* hash << 32 | (entry + 1), 0 = empty */
	size_t nslots;
	uint64_t *off;          /* key offset << 24 | length (< 16 MB) */
	uint64_t *val;
	size_t n, cap;
	unsigned char *arena;
	size_t alen, acap;
};

struct otab *sv_tab_new(void);
void sv_tab_free(struct otab *t);
const unsigned char *sv_tab_key(const struct otab *t, uint64_t e,
    size_t *len);
/* The entry of key (made with value 0 when new: *isnew). */
uint64_t sv_tab_intern(struct otab *t, const void *key, size_t len,
    int *isnew);
/* The entry of key, or -1. */
int64_t sv_tab_find(const struct otab *t, const void *key, size_t len);
size_t sv_tab_memory(const struct otab *t);

/* A sum's key by its components' bytes, sorted, for the carried results
 * (a fresh graph numbers components differently); in s->key. */
const unsigned char *sv_carry_key(struct cg_solver *s, int tag, int32_t k,
    const uint32_t *ids, size_t n, size_t *len);

/* The solver's arena of 32-bit words: room for extra more, one more. */
void sv_ar_reserve(struct cg_solver *s, size_t extra);
void sv_ar_push(struct cg_solver *s, uint32_t v);
/* qsort's comparison of uint32_t. */
int sv_cmp_u32(const void *a, const void *b);
/* Append a child record's arena offset to s->offs. */
void sv_off_add(struct cg_solver *s, uint32_t o);
/* Order keys in 32 bits, order kept. */
uint32_t sv_clamp_key(int64_t k);

/* The sum entry of tag, integer part k (tag 'N') and sorted components
 * ids[0..n): sv_sum_intern_k takes a result an earlier start of a
 * bounded search carried over when the entry is new, sv_sum_intern_here
 * does not look; sv_sum_intern is k = 0. */
uint64_t sv_sum_intern_k(struct cg_solver *s, int tag, int32_t k,
    const uint32_t *ids, size_t n, int *isnew);
uint64_t sv_sum_intern_here(struct cg_solver *s, int tag, int32_t k,
    const uint32_t *ids, size_t n, int *isnew);
uint64_t sv_sum_intern(struct cg_solver *s, int tag, const uint32_t *ids,
    size_t n, int *isnew);
/* The entry of such a sum if there is one, or one carried over (then
 * made), else -1. */
int64_t sv_sum_find(struct cg_solver *s, int tag, int32_t k,
    const uint32_t *ids, size_t n);
/* The value word of sum entry e (see above). */
uint64_t *sv_sum_val(struct cg_solver *s, uint64_t e);
/* The key bytes of sum entry e, and the entry of such bytes (made when
 * new): sums carried between two solvers' tables. */
const unsigned char *sv_sum_key(struct cg_solver *s, uint64_t e,
    size_t *len);
uint64_t sv_sum_intern_key(struct cg_solver *s, const unsigned char *key,
    size_t len);
/* The components of sum entry e, copied into s->ids2 (their number
 * returned); *k its integer part. */
size_t sv_sum_ids_k(struct cg_solver *s, uint64_t e, int32_t *k);
size_t sv_sum_ids(struct cg_solver *s, uint64_t e);

/* Expand sum entry e for side into records [order key, entry lo, entry
 * hi] in s->ar, their offsets appended to s->offs from *off0; children
 * known to be wins for the player then to move (other) are left out, one
 * known to be a loss sets *cut and ends the enumeration (with SV_ALL:
 * every child recorded, nothing cut).  With SV_LAZY a child that is not
 * in the tables yet is not made: its record is [order key, integer part,
 * REC_LAZY, n, n components].  Returns the number of moves generated. */
#define SV_ALL  1
#define SV_LAZY 2
#define REC_LAZY UINT32_MAX     /* sum entries are below 2^32 (otab) */
uint64_t sv_expand_sum(struct cg_solver *s, uint64_t e, int tag, int side,
    int other, int flags, int *cut, size_t *off0);
/* Record the result of sum entry e for the player to move (side). */
void sv_sum_set(struct cg_solver *s, uint64_t e, int side, int win, int tag);

#endif
