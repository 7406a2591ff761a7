/* lgame_int.h - what lgame.c, lgame_canon.c and lgame_lit.c share. */
#ifndef CG_SOLVE_LGAME_INT_H
#define CG_SOLVE_LGAME_INT_H

#include <stdint.h>

#include "base/util.h"
#include "base/watch.h"
#include "solve/lgame.h"

/* Bounds that keep a literal or a comparison from exhausting memory: the
 * order of a graph is found over every pair of its nodes, about 100 bytes
 * a pair (2^21 pairs, graphs of 1448 nodes, stay near 200 MB). */
#define CG_LGAME_MAX (1u << 22)
#define CG_LGAME_MAXPAIRS (1ull << 21)

/* Long loops poll this: a signal or the memory limit (cg_stop) ends the
 * program with the reason and its status. */
static inline void
lg_poll(void)
{
	if (cg_stop)
		cg_die(cg_stop_status(), "%s", cg_stop_reason());
}

/* A map from 64-bit keys to node numbers (open addressing). */
struct lg_map {
	uint64_t *key;
	uint32_t *val;
	size_t n, cap;
};

void lg_map_init(struct lg_map *m);
void lg_map_free(struct lg_map *m);
/* The value slot of key; *isnew says whether it was just made. */
uint32_t *lg_map_get(struct lg_map *m, uint64_t key, int *isnew);

/* Nodes reachable from x, breadth first from x (q[0] == x). */
uint32_t *lg_reach(const struct cg_lgame *g, uint32_t x, uint32_t *n);
/*
 * Strongly connected components (Tarjan) of what is under x, numbered
 * sinks first (*ncomp of them): with alt, of the states (node, side to
 * move), comp[2 * v + s], where a move of s passes the turn; without, of
 * the nodes, comp[v], every option an edge.  UINT32_MAX for what is not
 * under x.
 */
uint32_t *lg_comps(const struct cg_lgame *g, uint32_t x, int alt,
    uint32_t *ncomp);
/* Is v {pass|} (s = CG_LEFT: on) or {|pass} (off) by its shape? */
int lg_is_pass_only(const struct cg_lgame *g, uint32_t v, int s);
/* ge[i * n + j]: q[i] >= q[j], for stoppers. */
uint8_t *lg_ge_matrix(const struct cg_lgame *g, const uint32_t *q,
    uint32_t n);

/* An order of the nodes q[0 .. n) of a graph: ge[pos[a] * n + pos[b]]
 * says a >= b.  For a side's order of a graph with alternating cycles,
 * comp (lg_comps of its states) keeps a bypass or a deletion from
 * cutting the cycle it stands on; NULL for stoppers. */
struct lg_order {
	uint8_t *ge;
	uint32_t *pos, n;
	const uint32_t *comp;
	int side;
};

/* Bypass one reversible option of v for side s (1 if one was), and
 * delete the dominated ones (1 if any was), by the order o. */
int lg_bypass(struct cg_lgame *w, uint32_t v, int s,
    const struct lg_order *o);
int lg_undominate(struct cg_lgame *w, uint32_t v, int s,
    const struct lg_order *o);

/* Sides of a loopy game: the order of stoppers, or of onsides (endless
 * play is Left's) or offsides (Right's). */
enum { LG_STOPPER, LG_ONSIDE, LG_OFFSIDE };

/* Left survives A(a) - B(b) with Right moving first, endless play judged
 * by side (lgame_side.c); -1 when the game of differences has more than
 * CG_LGAME_MAXPAIRS positions. */
int lg_side_ge(const struct cg_lgame *A, uint32_t a,
    const struct cg_lgame *B, uint32_t b, int side);
/* ge[i * n + j]: q[i] >= q[j] by side, or NULL when too large. */
uint8_t *lg_side_matrix(const struct cg_lgame *g, const uint32_t *q,
    uint32_t n, int side);
/* Simplify the stopper's nodes under root in place (lgame_canon.c); a
 * frozen root keeps its options; track[0 .. nt) follow fusion. */
void lg_simplify_in_place(struct cg_lgame *w, uint32_t root, int frozen,
    uint32_t *track, size_t nt);
/* cg_lgame_simplify of a stopper too large to order whole: one strongly
 * connected component at a time (lgame_big.c); a component too large to
 * order is an error with a message. */
int lg_simplify_by_parts(const struct cg_lgame *g, uint32_t x,
    struct cg_lgame *out, char *msg, size_t msgsize);
/* Copy the nodes of c under r into g (new nodes, breadth first from r);
 * r's node in g. */
uint32_t lg_graft(struct cg_lgame *g, const struct cg_lgame *c, uint32_t r);
/* A copy of the nodes under x into out, x as node 0. */
void lg_copy_under(const struct cg_lgame *g, uint32_t x,
    struct cg_lgame *out);

#endif
