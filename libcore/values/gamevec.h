/* gamevec.h - a small growable array of game ids, for the store's
 * construction and its printers (internal to values/). */
#ifndef CG_GAMEVEC_H
#define CG_GAMEVEC_H

#include <stdlib.h>
#include <string.h>

#include "values/canon.h"
#include "base/util.h"

struct vec {
	cg_game *v;
	size_t n, cap;
	cg_game small[16];
};

static inline void
vec_init(struct vec *a)
{
	a->v = a->small;
	a->n = 0;
	a->cap = 16;
}

static inline void
vec_free(struct vec *a)
{
	if (a->v != a->small)
		free(a->v);
}

static inline void
vec_push(struct vec *a, cg_game g)
{
	if (a->n == a->cap) {
		size_t nc = a->cap * 2;

		if (a->v == a->small) {
			a->v = cg_xreallocarray(NULL, nc, sizeof *a->v);
			memcpy(a->v, a->small, a->n * sizeof *a->v);
		} else {
			a->v = cg_xreallocarray(a->v, nc, sizeof *a->v);
		}
		a->cap = nc;
	}
	a->v[a->n++] = g;
}

static inline int
vec_has(const struct vec *a, cg_game g)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] == g)
			return 1;
	return 0;
}

#endif
