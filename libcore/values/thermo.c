/* thermo.c - thermographs (see thermo.h).
 *
 * A wall is a list of points (t, v) with t decreasing and the last t = -1,
 * and slopes s[i]: s[0] above the first point, s[i] on [t[i], t[i-1]].
 * Thermograph of a non-integer G: left scaffold = max over G^L of the right
 * wall of G^L minus t, right scaffold = min over G^R of the left wall plus
 * t; the temperature is the lowest t at which the left scaffold is no
 * longer above the right one, and above it both walls are the vertical
 * mast.  Results are memoised in the store (CG_MEMO_THERMOGRAPH). */
#include <stdlib.h>
#include <string.h>

#include "values/thermo.h"
#include "base/util.h"

struct wall {
	int n;
	struct cg_dyadic *t, *v;
	int *s;
};

struct thermo {
	struct wall w[2];      /* left, right */
	struct cg_dyadic mast, temp;
};

typedef struct cg_dyadic dy;

static dy
D(int64_t n)
{
	return cg_dyadic_make(n, 0);
}

static dy
mul_int(dy a, int k)
{
	dy r = D(0);
	int i, neg = k < 0;

	if (neg)
		k = -k;
	for (i = 0; i < k; i++)
		r = cg_dyadic_add(r, a);
	return neg ? cg_dyadic_neg(r) : r;
}

/* a / k for k in {1, 2, 4}. */
static dy
div_int(dy a, int k)
{
	int neg = k < 0;

	if (neg)
		k = -k;
	if (k == 4)
		a = cg_dyadic_half(cg_dyadic_half(a));
	else if (k == 2)
		a = cg_dyadic_half(a);
	else if (k != 1)
		cg_die(CG_EXIT_DATA, "thermograph slope %d unexpected", k);
	return neg ? cg_dyadic_neg(a) : a;
}

static void
wall_alloc(struct wall *w, int n)
{
	w->n = n;
	w->t = cg_xreallocarray(NULL, (size_t)n, sizeof *w->t);
	w->v = cg_xreallocarray(NULL, (size_t)n, sizeof *w->v);
	w->s = cg_xreallocarray(NULL, (size_t)n, sizeof *w->s);
}

static void
wall_free(struct wall *w)
{
	free(w->t);
	free(w->v);
	free(w->s);
	memset(w, 0, sizeof *w);
}

static void
wall_copy(struct wall *dst, const struct wall *src)
{
	wall_alloc(dst, src->n);
	memcpy(dst->t, src->t, (size_t)src->n * sizeof *dst->t);
	memcpy(dst->v, src->v, (size_t)src->n * sizeof *dst->v);
	memcpy(dst->s, src->s, (size_t)src->n * sizeof *dst->s);
}

/* Value at t, and the slope of the piece just below t (below = 1) or just
 * above t (below = 0). */
static dy
wall_eval(const struct wall *w, dy t, int below, int *slope)
{
	int i;

	if (cg_dyadic_cmp(t, w->t[0]) > 0 ||
	    (!below && cg_dyadic_cmp(t, w->t[0]) == 0)) {
		if (slope)
			*slope = w->s[0];
		return cg_dyadic_add(w->v[0],
		    mul_int(cg_dyadic_sub(t, w->t[0]), w->s[0]));
	}
	for (i = 1; i < w->n; i++)
		if (cg_dyadic_cmp(t, w->t[i]) > 0 ||
		    (!below && cg_dyadic_cmp(t, w->t[i]) == 0) ||
		    i == w->n - 1) {
			if (slope)
				*slope = w->s[i];
			return cg_dyadic_add(w->v[i],
			    mul_int(cg_dyadic_sub(t, w->t[i]), w->s[i]));
		}
	if (slope)
		*slope = w->s[0];
	return w->v[0];
}

/* Add k*t. */
static void
wall_tilt(struct wall *w, int k)
{
	int i;

	for (i = 0; i < w->n; i++) {
		w->v[i] = cg_dyadic_add(w->v[i], mul_int(w->t[i], k));
		w->s[i] += k;
	}
}

static int
cmp_desc(const void *a, const void *b)
{
	return cg_dyadic_cmp(*(const dy *)b, *(const dy *)a);
}

/* Remove points where the slope does not change (keeps the last). */
static void
wall_simplify(struct wall *w)
{
	int i, k = 0;

	for (i = 0; i < w->n; i++) {
		if (i < w->n - 1 && w->s[i] == w->s[i + 1])
			continue;
		w->t[k] = w->t[i];
		w->v[k] = w->v[i];
		w->s[k] = w->s[i];
		k++;
	}
	w->n = k;
}

/* Extreme of two walls: max (sign 1) or min (sign -1). */
static void
wall_ext(struct wall *out, const struct wall *a, const struct wall *b,
    int sign)
{
	dy *pts;
	int np = 0, cap = (a->n + b->n) * 2 + 4, i, sa, sb;
	dy d0, d1, va, vb, mid;

	pts = cg_xreallocarray(NULL, (size_t)cap, sizeof *pts);
	for (i = 0; i < a->n; i++)
		pts[np++] = a->t[i];
	for (i = 0; i < b->n; i++)
		pts[np++] = b->t[i];
	qsort(pts, (size_t)np, sizeof *pts, cmp_desc);
	{
		int k = 0;

		for (i = 0; i < np; i++)
			if (k == 0 || cg_dyadic_cmp(pts[k - 1], pts[i]) != 0)
				pts[k++] = pts[i];
		np = k;
	}
	/* crossings: top ray, then each interval */
	{
		int n0 = np;

		d0 = cg_dyadic_sub(wall_eval(a, pts[0], 0, &sa),
		    wall_eval(b, pts[0], 0, &sb));
		if (sa != sb) {
			/* a - b = d0 + (sa - sb)(t - t0) = 0 */
			dy tc = cg_dyadic_sub(pts[0], div_int(d0, sa - sb));

			if (cg_dyadic_cmp(tc, pts[0]) > 0)
				pts[np++] = tc;
		}
		for (i = 0; i + 1 < n0; i++) {
			d0 = cg_dyadic_sub(wall_eval(a, pts[i], 1, &sa),
			    wall_eval(b, pts[i], 1, &sb));
			d1 = cg_dyadic_sub(wall_eval(a, pts[i + 1], 0, NULL),
			    wall_eval(b, pts[i + 1], 0, NULL));
			if ((d0.num > 0 && d1.num < 0) || (d0.num < 0 &&
			    d1.num > 0)) {
				/* d(t) = d0 + (sa - sb)(t - t_i) */
				dy tc = cg_dyadic_sub(pts[i],
				    div_int(d0, sa - sb));

				pts[np++] = tc;
			}
		}
		qsort(pts, (size_t)np, sizeof *pts, cmp_desc);
	}
	wall_alloc(out, np);
	for (i = 0; i < np; i++) {
		out->t[i] = pts[i];
		va = wall_eval(a, pts[i], 0, NULL);
		vb = wall_eval(b, pts[i], 0, NULL);
		out->v[i] = (cg_dyadic_cmp(va, vb) * sign >= 0) ? va : vb;
	}
	/* slopes: top ray, then each piece by its midpoint */
	mid = cg_dyadic_add(pts[0], D(1));
	va = wall_eval(a, mid, 0, &sa);
	vb = wall_eval(b, mid, 0, &sb);
	out->s[0] = cg_dyadic_cmp(va, vb) * sign > 0 ? sa :
	    cg_dyadic_cmp(va, vb) * sign < 0 ? sb : (sign > 0 ?
	    (sa > sb ? sa : sb) : (sa < sb ? sa : sb));
	for (i = 1; i < np; i++) {
		mid = cg_dyadic_half(cg_dyadic_add(pts[i - 1], pts[i]));
		va = wall_eval(a, mid, 0, &sa);
		vb = wall_eval(b, mid, 0, &sb);
		out->s[i] = cg_dyadic_cmp(va, vb) * sign >= 0 ? sa : sb;
	}
	free(pts);
	wall_simplify(out);
}

static void
wall_const(struct wall *w, dy v)
{
	wall_alloc(w, 1);
	w->t[0] = D(-1);
	w->v[0] = v;
	w->s[0] = 0;
}

static const struct thermo *thermo(cg_game g);

static _Thread_local int depth;

/* The walls of g cut at temperature T, with the mast above. */
static void
wall_cut(struct wall *out, const struct wall *sc, dy T, dy mast)
{
	int i, k = 0;

	wall_alloc(out, sc->n + 1);
	out->t[k] = T;
	out->v[k] = mast;
	out->s[k] = 0;
	k++;
	for (i = 0; i < sc->n; i++) {
		if (cg_dyadic_cmp(sc->t[i], T) >= 0)
			continue;
		out->t[k] = sc->t[i];
		out->v[k] = sc->v[i];
		out->s[k] = 0;
		k++;
	}
	/* slope of the piece below each point */
	for (i = 1; i < k; i++) {
		dy mid = cg_dyadic_half(cg_dyadic_add(out->t[i - 1],
		    out->t[i]));

		wall_eval(sc, mid, 0, &out->s[i]);
	}
	if (cg_dyadic_cmp(T, D(-1)) == 0) {
		k = 1;
	}
	out->n = k;
	wall_simplify(out);
}

static struct thermo *
compute(cg_game g)
{
	struct thermo *th = cg_xcalloc(1, sizeof *th);
	struct wall sc[2], tmp;
	const cg_game *o;
	size_t n, i;
	int s, j, sl, sr;
	dy x, T, Dv;

	if (cg_canon_is_integer(g)) {
		cg_canon_nus_parts(g, &x, NULL, NULL);
		wall_const(&th->w[0], x);
		wall_const(&th->w[1], x);
		th->mast = x;
		th->temp = D(-1);
		return th;
	}
	if (++depth > CG_CANON_MAX_DEPTH)
		cg_die(CG_EXIT_DATA, "game too deep for a thermograph");
	for (s = 0; s < 2; s++) {
		o = cg_canon_options(g, (enum cg_side)s, &n);
		if (n == 0)
			cg_die(CG_EXIT_DATA, "thermograph: one-sided non-integer");
		for (i = 0; i < n; i++) {
			const struct thermo *c = thermo(o[i]);
			struct wall w;

			wall_copy(&w, &c->w[!s]);
			wall_tilt(&w, s == 0 ? -1 : 1);
			if (i == 0) {
				sc[s] = w;
			} else {
				wall_ext(&tmp, &sc[s], &w, s == 0 ? 1 : -1);
				wall_free(&sc[s]);
				wall_free(&w);
				sc[s] = tmp;
			}
		}
	}
	depth--;
	/* lowest t >= -1 with sc[0](t) <= sc[1](t) */
	{
		dy *pts;
		int np = 0, k;

		pts = cg_xreallocarray(NULL, (size_t)(sc[0].n + sc[1].n),
		    sizeof *pts);
		for (j = 0; j < sc[0].n; j++)
			pts[np++] = sc[0].t[j];
		for (j = 0; j < sc[1].n; j++)
			pts[np++] = sc[1].t[j];
		qsort(pts, (size_t)np, sizeof *pts, cmp_desc);
		/* ascending walk */
		T = D(-1);
		Dv = cg_dyadic_sub(wall_eval(&sc[0], T, 0, NULL),
		    wall_eval(&sc[1], T, 0, NULL));
		if (Dv.num > 0) {
			int found = 0;

			for (k = np - 1; k >= 0 && !found; k--) {
				dy hi, dhi;

				if (cg_dyadic_cmp(pts[k], T) <= 0)
					continue;
				hi = pts[k];
				dhi = cg_dyadic_sub(wall_eval(&sc[0], hi, 0, NULL),
				    wall_eval(&sc[1], hi, 0, NULL));
				if (dhi.num <= 0) {
					wall_eval(&sc[0], hi, 1, &sl);
					wall_eval(&sc[1], hi, 1, &sr);
					T = cg_dyadic_add(T, div_int(Dv, sr - sl));
					found = 1;
				} else {
					T = hi;
					Dv = dhi;
				}
			}
			if (!found) {
				wall_eval(&sc[0], T, 0, &sl);
				wall_eval(&sc[1], T, 0, &sr);
				T = cg_dyadic_add(T, div_int(Dv, sr - sl));
			}
		}
		free(pts);
	}
	th->temp = T;
	th->mast = wall_eval(&sc[0], T, 0, NULL);
	for (s = 0; s < 2; s++) {
		wall_cut(&th->w[s], &sc[s], T, th->mast);
		wall_free(&sc[s]);
	}
	return th;
}

static void
thermo_free(struct thermo *th)
{
	wall_free(&th->w[0]);
	wall_free(&th->w[1]);
	free(th);
}

static const struct thermo *
thermo(cg_game g)
{
	const struct thermo *held = cg_canon_memo(g, CG_MEMO_THERMOGRAPH);
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim;
	struct thermo *th;

	if (held != NULL)
		return held;
	if (cg_canon_nus_parts(g, &x, &up, &nim) && !(up == 0 && nim == 0)) {
		/* x + n.^ + *k has the thermograph of x*, x^ or xv */
		cg_game rep;

		if (up == 0 || ((up == 1 || up == -1) && nim == 1))
			rep = cg_canon_nus(x, 0, 1);
		else
			rep = cg_canon_nus(x, up > 0 ? 1 : -1, 0);
		if (rep != g) {
			const struct thermo *r = thermo(rep);

			return cg_canon_memo_set(g, CG_MEMO_THERMOGRAPH,
			    (void *)r);
		}
	}
	th = compute(g);
	held = cg_canon_memo_set(g, CG_MEMO_THERMOGRAPH, th);
	if (held != th)
		thermo_free(th);
	return held;
}

struct cg_dyadic
cg_thermo_mean(cg_game g)
{
	return thermo(g)->mast;
}

struct cg_dyadic
cg_thermo_temp(cg_game g)
{
	return thermo(g)->temp;
}

static void
print_wall(const struct wall *w, struct cg_buf *out)
{
	int i;

	cg_dyadic_print(w->v[0], out);
	cg_buf_addstr(out, ",[");
	for (i = 0; i < w->n - 1; i++) {
		if (i)
			cg_buf_addc(out, ',');
		cg_dyadic_print(w->t[i], out);
	}
	cg_buf_addstr(out, "],[");
	for (i = 0; i < w->n; i++) {
		if (i)
			cg_buf_addc(out, ',');
		cg_buf_addf(out, "%d", w->s[i]);
	}
	cg_buf_addc(out, ']');
}

void
cg_thermo_print(cg_game g, struct cg_buf *out)
{
	const struct thermo *th = thermo(g);

	cg_buf_addstr(out, "Thermograph(");
	cg_dyadic_print(th->mast, out);
	cg_buf_addc(out, ',');
	{
		/* print_wall writes the wall's top value: the mast */
		struct cg_buf tmp;

		cg_buf_init(&tmp);
		print_wall(&th->w[0], &tmp);
		/* skip the value: we printed the mast already */
		cg_buf_addstr(out, strchr(cg_buf_str(&tmp), ',') + 1);
		cg_buf_addc(out, ',');
		cg_dyadic_print(th->mast, out);
		cg_buf_addc(out, ',');
		tmp.len = 0;
		print_wall(&th->w[1], &tmp);
		cg_buf_addstr(out, strchr(cg_buf_str(&tmp), ',') + 1);
		cg_buf_free(&tmp);
	}
	cg_buf_addc(out, ')');
}
