/* canonprop.c - properties of canonical games for cg-canon -p. */
#include <stdlib.h>
#include <string.h>

#include "values/canonprop.h"
#include "values/notation.h"
#include "values/thermo.h"
#include "base/util.h"

static const char *const names[] = {
	"canon", "outcome", "birthday", "lstop", "rstop", "mean", "temp",
	"thermograph", "atomic", "rcf", "incentives", "number", "integer",
	"nimber", "nus", "infinitesimal", "numberish", "switch", "uptimal",
	"zero", "allsmall", NULL
};

int
cg_canon_property_known(const char *name)
{
	size_t i;

	for (i = 0; names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

static int
is_zero_dy(struct cg_dyadic d)
{
	return d.num == 0;
}

/* Memo helpers: the store's memo words hold id + 1. */
static cg_game
memo_get(cg_game g, enum cg_canon_memo m)
{
	void *v = cg_canon_memo(g, m);

	return v == NULL ? CG_NO_GAME : (cg_game)((uintptr_t)v - 1);
}

static void
memo_set(cg_game g, enum cg_canon_memo m, cg_game v)
{
	cg_canon_memo_set(g, m, (void *)(uintptr_t)((uintptr_t)v + 1));
}

static cg_game
map_options(cg_game g, cg_game (*f)(cg_game), cg_game addl, cg_game addr)
{
	const cg_game *o;
	size_t n[2], i;
	cg_game *v[2], res;
	int s;

	for (s = 0; s < 2; s++) {
		o = cg_canon_options(g, (enum cg_side)s, &n[s]);
		v[s] = cg_xcalloc(n[s] + 1, sizeof *v[s]);
		for (i = 0; i < n[s]; i++) {
			o = cg_canon_options(g, (enum cg_side)s, &n[s]);
			v[s][i] = f(o[i]);
			if ((s == 0 ? addl : addr) != CG_NO_GAME)
				v[s][i] = cg_canon_add(v[s][i], s == 0 ? addl : addr);
		}
	}
	res = cg_canon_make(v[0], n[0], v[1], n[1]);
	free(v[0]);
	free(v[1]);
	return res;
}

/* G heated by *: numbers stay, otherwise {GL^* + * | GR^* + *}. */
static cg_game
heat_star(cg_game g)
{
	cg_game r, star;

	if (cg_canon_is_number(g))
		return g;
	if ((r = memo_get(g, CG_MEMO_HEAT_STAR)) != CG_NO_GAME)
		return r;
	star = cg_canon_nus(cg_dyadic_make(0, 0), 0, 1);
	r = map_options(g, heat_star, star, star);
	memo_set(g, CG_MEMO_HEAT_STAR, r);
	return r;
}

/* Star projection: x* becomes x, recursively. */
static cg_game
star_projection(cg_game g)
{
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim;
	cg_game r;

	if (cg_canon_is_number(g))
		return g;
	if (cg_canon_nus_parts(g, &x, &up, &nim) && up == 0 && nim == 1)
		return cg_canon_number(x);
	if ((r = memo_get(g, CG_MEMO_STAR_PROJECTION)) != CG_NO_GAME)
		return r;
	r = map_options(g, star_projection, CG_NO_GAME, CG_NO_GAME);
	memo_set(g, CG_MEMO_STAR_PROJECTION, r);
	return r;
}

/* Reduced canonical form: the number part of a number-up-star, else the
 * star projection of G heated by * (as CGSuite computes it). */
cg_game
cg_canon_rcf(cg_game g)
{
	struct cg_dyadic x;
	cg_game r;

	if (cg_canon_nus_parts(g, &x, NULL, NULL))
		return cg_canon_number(x);
	if ((r = memo_get(g, CG_MEMO_REDUCED)) != CG_NO_GAME)
		return r;
	r = star_projection(heat_star(g));
	memo_set(g, CG_MEMO_REDUCED, r);
	return r;
}

/* ------------------------------------------------------------ atomic
 * Naive atomic weight: a number-up-star's up multiple; otherwise
 * G'' = {aw(GL) - 2 | aw(GR) + 2}, and when G'' is an integer it is
 * corrected by comparing G with the far star *F (F one more than every
 * nimber among G's followers): G < *F gives the least integer n with
 * n |> every aw(GL) - 2, G > *F the greatest with n <| every aw(GR) + 2.
 * Defined here for infinitesimals; other games have no atomic weight. */

static uint64_t
far_star(cg_game g)
{
	const cg_game *o;
	size_t n, i;
	uint64_t f = 1, c;
	void *held;
	int s;

	if (cg_canon_is_nimber(g)) {
		uint64_t nim;

		cg_canon_nus_parts(g, NULL, NULL, &nim);
		return nim + 1;
	}
	if ((held = cg_canon_memo(g, CG_MEMO_FAR_STAR)) != NULL)
		return (uint64_t)(uintptr_t)held;
	for (s = 0; s < 2; s++) {
		o = cg_canon_options(g, (enum cg_side)s, &n);
		for (i = 0; i < n; i++) {
			c = far_star(o[i]);
			o = cg_canon_options(g, (enum cg_side)s, &n);
			if (c > f)
				f = c;
		}
	}
	cg_canon_memo_set(g, CG_MEMO_FAR_STAR, (void *)(uintptr_t)f);
	return f;
}

/* The ceiling and the floor of a stop, where atomic weights start
 * looking for the integer they need. */
static struct cg_dyadic
dy_ceil(struct cg_dyadic d)
{
	if (cg_dyadic_is_integer(d))
		return d;
	return cg_dyadic_add(cg_dyadic_floor(d), cg_dyadic_make(1, 0));
}

static struct cg_dyadic
dy_floor(struct cg_dyadic d)
{
	return cg_dyadic_floor(d);
}

static cg_game
naive_aw(cg_game g)
{
	const cg_game *o;
	size_t n[2], i;
	cg_game *v[2], g0, res, fs;
	int64_t up;
	int s, lf, gf;

	if (cg_canon_nus_parts(g, NULL, &up, NULL))
		return cg_canon_integer(up);
	if ((res = memo_get(g, CG_MEMO_ATOMIC_WEIGHT)) != CG_NO_GAME)
		return res;
	for (s = 0; s < 2; s++) {
		o = cg_canon_options(g, (enum cg_side)s, &n[s]);
		v[s] = cg_xcalloc(n[s] + 1, sizeof *v[s]);
		for (i = 0; i < n[s]; i++) {
			cg_game a;

			o = cg_canon_options(g, (enum cg_side)s, &n[s]);
			a = naive_aw(o[i]);
			v[s][i] = cg_canon_add(a, cg_canon_integer(s == 0 ? -2 : 2));
		}
	}
	g0 = cg_canon_make(v[0], n[0], v[1], n[1]);
	res = g0;
	if (cg_canon_is_integer(g0)) {
		fs = cg_canon_nus(cg_dyadic_make(0, 0), 0, far_star(g));
		lf = cg_canon_leq(g, fs);
		gf = cg_canon_leq(fs, g);
		struct cg_dyadic one = cg_dyadic_make(1, 0), best, k;

		if (lf && !gf) {
			for (i = 0; i < n[0]; i++) {
				k = dy_ceil(cg_canon_right_stop(v[0][i]));
				if (cg_canon_leq(cg_canon_number(k), v[0][i]))
					k = cg_dyadic_add(k, one);
				if (i == 0 || cg_dyadic_cmp(k, best) > 0)
					best = k;
			}
			res = n[0] == 0 ? cg_canon_zero() : cg_canon_number(best);
		} else if (gf && !lf) {
			for (i = 0; i < n[1]; i++) {
				k = dy_floor(cg_canon_left_stop(v[1][i]));
				if (cg_canon_leq(v[1][i], cg_canon_number(k)))
					k = cg_dyadic_sub(k, one);
				if (i == 0 || cg_dyadic_cmp(k, best) < 0)
					best = k;
			}
			res = n[1] == 0 ? cg_canon_zero() : cg_canon_number(best);
		}
	}
	free(v[0]);
	free(v[1]);
	memo_set(g, CG_MEMO_ATOMIC_WEIGHT, res);
	return res;
}

cg_game
cg_canon_atomic_weight(cg_game g)
{
	if (cg_canon_left_stop(g).num != 0 || cg_canon_right_stop(g).num != 0)
		return CG_NO_GAME;
	return naive_aw(g);
}

/* ------------------------------------------------------------ printing */

static void
print_bool(int v, struct cg_buf *out)
{
	cg_buf_addstr(out, v ? "true" : "false");
}

static int
order_qsort(const void *a, const void *b)
{
	return cg_canon_order(*(const cg_game *)a, *(const cg_game *)b);
}

/* Left incentives GL - G and Right incentives G - GR, duplicates and
 * dominated ones (those <= another) removed, in CGSuite's order. */
static void
print_incentives(cg_game g, struct cg_buf *out)
{
	const cg_game *o;
	size_t n, i, j, k = 0, m = 0;
	cg_game *v;
	unsigned char *dead;

	o = cg_canon_options(g, CG_LEFT, &n);
	v = cg_xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++) {
		o = cg_canon_options(g, CG_LEFT, &n);
		v[k++] = cg_canon_sub(o[i], g);
	}
	o = cg_canon_options(g, CG_RIGHT, &n);
	v = cg_xreallocarray(v, k + n + 1, sizeof *v);
	for (i = 0; i < n; i++) {
		o = cg_canon_options(g, CG_RIGHT, &n);
		v[k++] = cg_canon_sub(g, o[i]);
	}
	dead = cg_xcalloc(k + 1, 1);
	for (i = 0; i < k; i++)
		for (j = 0; j < k && !dead[i]; j++)
			if (i != j && !dead[j] && (v[i] == v[j] ? j < i :
			    cg_canon_leq(v[i], v[j])))
				dead[i] = 1;
	for (i = 0; i < k; i++)
		if (!dead[i])
			v[m++] = v[i];
	qsort(v, m, sizeof *v, order_qsort);
	cg_buf_addc(out, '{');
	for (i = 0; i < m; i++) {
		if (i)
			cg_buf_addc(out, ',');
		cg_canon_print(v[i], out);
	}
	cg_buf_addc(out, '}');
	free(dead);
	free(v);
}

void
cg_canon_property(cg_game g, const char *name, struct cg_buf *out)
{
	struct cg_dyadic ls, rs;
	struct cg_uptimal u;

	if (strcmp(name, "canon") == 0) {
		cg_canon_print(g, out);
	} else if (strcmp(name, "outcome") == 0) {
		cg_buf_addc(out, cg_canon_outcome(g));
	} else if (strcmp(name, "birthday") == 0) {
		cg_buf_addf(out, "%llu",
		    (unsigned long long)cg_canon_birthday(g));
	} else if (strcmp(name, "lstop") == 0) {
		cg_dyadic_print(cg_canon_left_stop(g), out);
	} else if (strcmp(name, "rstop") == 0) {
		cg_dyadic_print(cg_canon_right_stop(g), out);
	} else if (strcmp(name, "mean") == 0) {
		cg_dyadic_print(cg_thermo_mean(g), out);
	} else if (strcmp(name, "temp") == 0) {
		cg_dyadic_print(cg_thermo_temp(g), out);
	} else if (strcmp(name, "thermograph") == 0) {
		cg_thermo_print(g, out);
	} else if (strcmp(name, "atomic") == 0) {
		cg_game a = cg_canon_atomic_weight(g);

		if (a == CG_NO_GAME)
			cg_buf_addstr(out, "-");
		else
			cg_canon_print(a, out);
	} else if (strcmp(name, "rcf") == 0) {
		cg_canon_print(cg_canon_rcf(g), out);
	} else if (strcmp(name, "incentives") == 0) {
		print_incentives(g, out);
	} else if (strcmp(name, "number") == 0) {
		print_bool(cg_canon_is_number(g), out);
	} else if (strcmp(name, "integer") == 0) {
		print_bool(cg_canon_is_integer(g), out);
	} else if (strcmp(name, "nimber") == 0) {
		print_bool(cg_canon_is_nimber(g), out);
	} else if (strcmp(name, "nus") == 0) {
		print_bool(cg_canon_is_nus(g), out);
	} else if (strcmp(name, "infinitesimal") == 0) {
		ls = cg_canon_left_stop(g);
		rs = cg_canon_right_stop(g);
		print_bool(is_zero_dy(ls) && is_zero_dy(rs), out);
	} else if (strcmp(name, "numberish") == 0) {
		ls = cg_canon_left_stop(g);
		rs = cg_canon_right_stop(g);
		print_bool(cg_dyadic_cmp(ls, rs) == 0, out);
	} else if (strcmp(name, "switch") == 0) {
		print_bool(cg_canon_neg(g) == g && g != cg_canon_zero() &&
		    !cg_canon_is_nimber(g), out);
	} else if (strcmp(name, "uptimal") == 0) {
		print_bool(cg_canon_uptimal(g, &u), out);
	} else if (strcmp(name, "zero") == 0) {
		print_bool(g == cg_canon_zero(), out);
	} else if (strcmp(name, "allsmall") == 0) {
		print_bool(cg_canon_atomic_weight(g) != CG_NO_GAME, out);
	}
}
