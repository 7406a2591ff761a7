/* lgame_int.h - what lgame.c, lgame_canon.c and lgame_lit.c share. */
#ifndef CG_SOLVE_LGAME_INT_H
#define CG_SOLVE_LGAME_INT_H

#include <stdint.h>

#include "solve/lgame.h"

/* Bounds that keep a literal or a comparison from exhausting memory: the
 * order of a graph is found over every pair of its nodes, about 100 bytes
 * a pair (2^21 pairs, graphs of 1448 nodes, stay near 200 MB). */
#define CG_LGAME_MAX (1u << 22)
#define CG_LGAME_MAXPAIRS (1ull << 21)

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
/* ge[i * n + j]: q[i] >= q[j], for stoppers. */
uint8_t *lg_ge_matrix(const struct cg_lgame *g, const uint32_t *q,
    uint32_t n);

#endif
