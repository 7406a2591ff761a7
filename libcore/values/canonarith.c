/* canonarith.c - sums and negatives of canonical games (see canon.h).
 * Number-up-star games add part by part; other sums are built from the
 * options and canonicalised (canonbuild.c), with a direct-mapped cache
 * per worker for sums and for negatives. */
#include "values/canon.h"
#include "values/dyadic.h"

#include "values/canon_int.h"
#include "values/gamevec.h"

cg_game
cg_canon_neg(cg_game g)
{
	struct cache_ent *e;
	struct vec *lr;
	const cg_game *o;
	size_t n, i;
	uint32_t slot;
	cg_game res;
	struct work *w;

	ensure_init();
	if (is_nus(g)) {
		const struct nus *u = NUS(g);

		return canon_nus_find(-u->num, u->exp, -u->up, u->nim, 1);
	}
	w = W();
	slot = mix(g) & w->negmask;
	e = &w->neg[slot];
	if (e->a == g)
		return e->r;
	canon_deeper();
	lr = canon_pair_get();
	o = ROPTS(g, &n);
	for (i = 0; i < n; i++)
		vec_push(&lr[0], cg_canon_neg(o[i]));
	o = LOPTS(g, &n);
	for (i = 0; i < n; i++)
		vec_push(&lr[1], cg_canon_neg(o[i]));
	/* the negative of a canonical form is canonical */
	canon_vec_sort_unique(&lr[0]);
	canon_vec_sort_unique(&lr[1]);
	res = canon_intern_canonical(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	e = &w->neg[slot];
	e->a = g;
	e->r = res;
	/* and the other way round */
	e = &w->neg[mix(res) & w->negmask];
	e->a = res;
	e->r = g;
	return res;
}

static cg_game
nus_add(cg_game g, cg_game h)
{
	const struct nus *a = NUS(g), *b = NUS(h);
	struct cg_dyadic x = cg_dyadic_add(nus_x(g), nus_x(h));
	int64_t up;

	if (__builtin_add_overflow(a->up, b->up, &up))
		cg_canon_data_error("up multiple or nimber too large");
	return cg_canon_nus(x, up, a->nim ^ b->nim);
}

cg_game
cg_canon_add(cg_game g, cg_game h)
{
	struct cache_ent *e;
	struct vec *lr;
	const cg_game *o;
	size_t n, i;
	uint32_t slot;
	cg_game res, t;
	int s;
	struct work *w;

	ensure_init();
	if (g == canon_store.zero)
		return h;
	if (h == canon_store.zero)
		return g;
	if (is_nus(g) && is_nus(h))
		return nus_add(g, h);
	if (g > h) {
		t = g;
		g = h;
		h = t;
	}
	w = W();
	slot = (mix(g * 0x85ebca6bu ^ h) + h) & w->summask;
	e = &w->sum[slot];
	if (e->a == g && e->b == h)
		return e->r;
	canon_deeper();
	lr = canon_pair_get();
	for (s = 0; s < 2; s++) {
		struct vec *v = &lr[s];

		/* a number summand contributes no options (translation) */
		if (!is_number(g)) {
			o = cg_canon_options(g, (enum cg_side)s, &n);
			for (i = 0; i < n; i++)
				vec_push(v, cg_canon_add(o[i], h));
		}
		if (!is_number(h)) {
			o = cg_canon_options(h, (enum cg_side)s, &n);
			for (i = 0; i < n; i++)
				vec_push(v, cg_canon_add(g, o[i]));
		}
	}
	res = canon_make_vec(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	e = &w->sum[slot];
	e->a = g;
	e->b = h;
	e->r = res;
	return res;
}

cg_game
cg_canon_sub(cg_game g, cg_game h)
{
	return cg_canon_add(g, cg_canon_neg(h));
}
