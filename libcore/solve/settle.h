/* settle.h - sums settled without a search of their own, for every
 * engine of normal partizan play (settle.c): integers folded, sums of
 * known canonical forms added, sums the ruleset's move counts decide.
 * Not for tools. */
#ifndef CG_SETTLE_H
#define CG_SETTLE_H

#include <stddef.h>
#include <stdint.h>

#include "solve/solver_int.h"

/* A component's integer value in s->ival: not worked out yet, or not an
 * integer. */
#define INT_UNKNOWN INT32_MIN
#define INT_NOT     (INT32_MIN + 1)

/* Options of components as a list of [k, k component numbers]. */
struct sv_ilist {
	uint32_t *v;
	size_t n, cap;
};
/* A graph option callback appending to the sv_ilist ctx. */
int sv_ilist_add(void *ctx, const char *move, const uint32_t *ids,
    size_t k);

/* Fold the integer components of comps[0..*n) into *k (normal play). */
void sv_fold_ints(struct cg_solver *s, uint32_t *comps, size_t *n,
    int32_t *k);
/* The outcome of comps[0..n) + k in normal play with side to move from
 * the canonical forms of its components (made when met often enough, or
 * with make 0 only those made already): 1 the side to move wins, 0 it
 * loses, -1 not settled. */
int sv_forms(struct cg_solver *s, const uint32_t *comps, size_t n,
    int32_t k, int side, int make);
/* The same settled by the ruleset's move counts (cgx/movecounts.h), and
 * *order (when given) a search-order key for the player who moved into
 * the sum. */
int sv_static(struct cg_solver *s, const uint32_t *comps, size_t n,
    int32_t k, int side, int64_t *order);

/* The move counts' verdict on a sum in normal play (cgx/movecounts.h),
 * side x to move: 1 x wins, 0 x loses, -1 not settled.  The counts are
 * the sum's; lead[] the most first - sure of one component; room[]
 * UINT64_MAX where some component makes no claim; rlead[] the most
 * 2 (first_sure - sure) - (first_room - room) of one component (0 when
 * none is above 0).  X stuck at its turn has made as many moves as Y, at
 * least sure[X] of them from its reserve (first_sure in the component
 * it moved first in); Y stuck has made one fewer than X.  (sv_static and
 * the bit search share it.) */
static inline int
counts_verdict(const uint64_t sure[2], const uint64_t most[2],
    const uint64_t room[2], const uint64_t lead[2], const uint64_t rlead[2],
    int x)
{
	int y = !x;

	if (sure[x] + lead[x] > most[y] || (room[x] != UINT64_MAX &&
	    2 * sure[x] + rlead[x] > room[x]))
		return 1;
	if (sure[y] >= most[x] || (room[y] != UINT64_MAX &&
	    2 * sure[y] + 1 > room[y]))
		return 0;
	return -1;
}

#endif
