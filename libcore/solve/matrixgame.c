/* matrixgame.c - zero-sum matrix games (see matrixgame.h).
 *
 * The LP, for a matrix B with every entry >= 1 (A shifted by a constant):
 *     maximise sum q_j  subject to  B q <= 1, q >= 0.
 * Its optimum z gives value(B) = 1/z, Right's strategy y = q/z, and
 * Left's strategy x = p/z where p are the optimal dual prices (the
 * objective-row entries of the slack columns in the final tableau).  The
 * origin is feasible, so no phase 1 is needed, and B > 0 keeps it
 * bounded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solve/matrixgame.h"
#include "base/util.h"

/* Pivots before switching from Dantzig's rule to Bland's (no cycling). */
#define DANTZIG_LIMIT(m, n) (50 + 4 * ((m) + (n)))

/* Rows and columns still in play after dominance. */
struct reduced {
	size_t *row, *col;
	size_t mr, nc;
};

static void
reduced_init(struct reduced *r, size_t m, size_t n)
{
	size_t i;

	r->row = cg_xreallocarray(NULL, m, sizeof *r->row);
	r->col = cg_xreallocarray(NULL, n, sizeof *r->col);
	for (i = 0; i < m; i++)
		r->row[i] = i;
	for (i = 0; i < n; i++)
		r->col[i] = i;
	r->mr = m;
	r->nc = n;
}

static void
reduced_free(struct reduced *r)
{
	free(r->row);
	free(r->col);
}

static void
drop(size_t *v, size_t *len, size_t at)
{
	memmove(v + at, v + at + 1, (*len - at - 1) * sizeof *v);
	(*len)--;
}

/* ------------------------------------------------------------ exact */

#define AQ(i, j) a[(i) * n + (j)]

static void
dominance_q(size_t n, mpq_srcptr const *a, struct reduced *r)
{
	size_t p, k, t;
	int changed = 1, dom;

	while (changed) {
		changed = 0;
		/* a row is dropped when another row is at least as good */
		for (p = 0; p < r->mr && r->mr > 1; p++)
			for (k = 0; k < r->mr; k++) {
				if (k == p)
					continue;
				dom = 1;
				for (t = 0; t < r->nc && dom; t++)
					if (mpq_cmp(AQ(r->row[k], r->col[t]),
					    AQ(r->row[p], r->col[t])) < 0)
						dom = 0;
				if (dom) {
					drop(r->row, &r->mr, p);
					p--;
					changed = 1;
					break;
				}
			}
		for (p = 0; p < r->nc && r->nc > 1; p++)
			for (k = 0; k < r->nc; k++) {
				if (k == p)
					continue;
				dom = 1;
				for (t = 0; t < r->mr && dom; t++)
					if (mpq_cmp(AQ(r->row[t], r->col[k]),
					    AQ(r->row[t], r->col[p])) > 0)
						dom = 0;
				if (dom) {
					drop(r->col, &r->nc, p);
					p--;
					changed = 1;
					break;
				}
			}
	}
}

/* Simplex on the reduced matrix; strategies in reduced indices. */
static void
simplex_q(size_t n, mpq_srcptr const *a, const struct reduced *r,
    mpq_ptr value, mpq_t *xr, mpq_t *yr)
{
	size_t mr = r->mr, nc = r->nc, w = nc + mr + 1, rows = mr + 1;
	size_t i, j, e, l, iter = 0, *basis;
	mpq_t *T, shift, t, ratio, best;

#define TQ(i, j) T[(i) * w + (j)]
	T = cg_xreallocarray(NULL, rows * w, sizeof *T);
	basis = cg_xreallocarray(NULL, mr, sizeof *basis);
	mpq_inits(shift, t, ratio, best, NULL);
	/* shift = 1 - min entry */
	mpq_set(shift, AQ(r->row[0], r->col[0]));
	for (i = 0; i < mr; i++)
		for (j = 0; j < nc; j++)
			if (mpq_cmp(AQ(r->row[i], r->col[j]), shift) < 0)
				mpq_set(shift, AQ(r->row[i], r->col[j]));
	mpq_set_ui(t, 1, 1);
	mpq_sub(shift, t, shift);
	for (i = 0; i < rows * w; i++)
		mpq_init(T[i]);
	for (i = 0; i < mr; i++) {
		for (j = 0; j < nc; j++)
			mpq_add(TQ(i, j), AQ(r->row[i], r->col[j]), shift);
		mpq_set_ui(TQ(i, nc + i), 1, 1);
		mpq_set_ui(TQ(i, w - 1), 1, 1);
		basis[i] = nc + i;
	}
	for (j = 0; j < nc; j++)
		mpq_set_si(TQ(mr, j), -1, 1);
	for (;;) {
		int bland = ++iter > DANTZIG_LIMIT(mr, nc);

		e = w;
		for (j = 0; j + 1 < w; j++)
			if (mpq_sgn(TQ(mr, j)) < 0 && (e == w ||
			    (!bland && mpq_cmp(TQ(mr, j), TQ(mr, e)) < 0))) {
				e = j;
				if (bland)
					break;
			}
		if (e == w)
			break;
		l = mr;
		for (i = 0; i < mr; i++) {
			if (mpq_sgn(TQ(i, e)) <= 0)
				continue;
			mpq_div(ratio, TQ(i, w - 1), TQ(i, e));
			if (l == mr || mpq_cmp(ratio, best) < 0 ||
			    (mpq_equal(ratio, best) && basis[i] < basis[l])) {
				l = i;
				mpq_set(best, ratio);
			}
		}
		if (l == mr)
			break; /* cannot happen: B > 0 bounds the LP */
		/* pivot on (l, e) */
		mpq_set(t, TQ(l, e));
		for (j = 0; j < w; j++)
			if (mpq_sgn(TQ(l, j)) != 0)
				mpq_div(TQ(l, j), TQ(l, j), t);
		for (i = 0; i < rows; i++) {
			if (i == l || mpq_sgn(TQ(i, e)) == 0)
				continue;
			mpq_set(t, TQ(i, e));
			for (j = 0; j < w; j++) {
				if (mpq_sgn(TQ(l, j)) == 0)
					continue;
				mpq_mul(ratio, t, TQ(l, j));
				mpq_sub(TQ(i, j), TQ(i, j), ratio);
			}
		}
		basis[l] = e;
	}
	/* z = TQ(mr, w-1); value = 1/z - shift */
	mpq_inv(t, TQ(mr, w - 1));
	mpq_sub(value, t, shift);
	if (yr != NULL) {
		for (j = 0; j < nc; j++)
			mpq_set_ui(yr[j], 0, 1);
		for (i = 0; i < mr; i++)
			if (basis[i] < nc)
				mpq_mul(yr[basis[i]], TQ(i, w - 1), t);
	}
	if (xr != NULL)
		for (i = 0; i < mr; i++)
			mpq_mul(xr[i], TQ(mr, nc + i), t);
	for (i = 0; i < rows * w; i++)
		mpq_clear(T[i]);
	mpq_clears(shift, t, ratio, best, NULL);
	free(T);
	free(basis);
#undef TQ
}

int
cg_mg_solve_q(size_t m, size_t n, mpq_srcptr const *a, mpq_ptr value,
    mpq_t *x, mpq_t *y)
{
	size_t i, j, bi = 0, bj = 0, *rmin, *cmax;
	struct reduced r;
	mpq_t *xr = NULL, *yr = NULL;
	int saddle;

	/* pure saddle point: max of row minima = min of column maxima */
	rmin = cg_xreallocarray(NULL, m, sizeof *rmin);
	cmax = cg_xreallocarray(NULL, n, sizeof *cmax);
	for (i = 0; i < m; i++) {
		rmin[i] = 0;
		for (j = 1; j < n; j++)
			if (mpq_cmp(AQ(i, j), AQ(i, rmin[i])) < 0)
				rmin[i] = j;
		if (mpq_cmp(AQ(i, rmin[i]), AQ(bi, rmin[bi])) > 0)
			bi = i;
	}
	for (j = 0; j < n; j++) {
		cmax[j] = 0;
		for (i = 1; i < m; i++)
			if (mpq_cmp(AQ(i, j), AQ(cmax[j], j)) > 0)
				cmax[j] = i;
		if (mpq_cmp(AQ(cmax[j], j), AQ(cmax[bj], bj)) < 0)
			bj = j;
	}
	saddle = mpq_equal(AQ(bi, rmin[bi]), AQ(cmax[bj], bj));
	free(rmin);
	free(cmax);
	if (x != NULL)
		for (i = 0; i < m; i++)
			mpq_set_ui(x[i], 0, 1);
	if (y != NULL)
		for (j = 0; j < n; j++)
			mpq_set_ui(y[j], 0, 1);
	if (saddle) {
		mpq_set(value, AQ(bi, bj));
		if (x != NULL)
			mpq_set_ui(x[bi], 1, 1);
		if (y != NULL)
			mpq_set_ui(y[bj], 1, 1);
		return 1;
	}
	reduced_init(&r, m, n);
	dominance_q(n, a, &r);
	xr = cg_xreallocarray(NULL, r.mr, sizeof *xr);
	yr = cg_xreallocarray(NULL, r.nc, sizeof *yr);
	for (i = 0; i < r.mr; i++)
		mpq_init(xr[i]);
	for (j = 0; j < r.nc; j++)
		mpq_init(yr[j]);
	if (r.mr == 1 && r.nc == 1) {
		mpq_set(value, AQ(r.row[0], r.col[0]));
		mpq_set_ui(xr[0], 1, 1);
		mpq_set_ui(yr[0], 1, 1);
	} else if (r.mr == 2 && r.nc == 2) {
		mpq_srcptr pa = AQ(r.row[0], r.col[0]), pb = AQ(r.row[0], r.col[1]);
		mpq_srcptr pc = AQ(r.row[1], r.col[0]), pd = AQ(r.row[1], r.col[1]);
		mpq_t den, t, one;

		mpq_inits(den, t, one, NULL);
		mpq_add(den, pa, pd);
		mpq_sub(den, den, pb);
		mpq_sub(den, den, pc);
		if (mpq_sgn(den) == 0) {
			mpq_clears(den, t, one, NULL);
			simplex_q(n, a, &r, value, xr, yr);
		} else {
			/* v = (ad - bc)/den, x0 = (d - c)/den, y0 = (d - b)/den */
			mpq_set_ui(one, 1, 1);
			mpq_mul(value, pa, pd);
			mpq_mul(t, pb, pc);
			mpq_sub(value, value, t);
			mpq_div(value, value, den);
			mpq_sub(xr[0], pd, pc);
			mpq_div(xr[0], xr[0], den);
			mpq_sub(xr[1], one, xr[0]);
			mpq_sub(yr[0], pd, pb);
			mpq_div(yr[0], yr[0], den);
			mpq_sub(yr[1], one, yr[0]);
			mpq_clears(den, t, one, NULL);
		}
	} else {
		simplex_q(n, a, &r, value, xr, yr);
	}
	for (i = 0; i < r.mr; i++) {
		if (x != NULL)
			mpq_set(x[r.row[i]], xr[i]);
		mpq_clear(xr[i]);
	}
	for (j = 0; j < r.nc; j++) {
		if (y != NULL)
			mpq_set(y[r.col[j]], yr[j]);
		mpq_clear(yr[j]);
	}
	free(xr);
	free(yr);
	reduced_free(&r);
	return 0;
}

#undef AQ

/* ------------------------------------------------------------ double */

#define AD(i, j) a[(i) * n + (j)]
#define EPS 1e-12

static void
dominance_d(size_t n, const double *a, struct reduced *r)
{
	size_t p, k, t;
	int changed = 1, dom;

	while (changed) {
		changed = 0;
		for (p = 0; p < r->mr && r->mr > 1; p++)
			for (k = 0; k < r->mr; k++) {
				if (k == p)
					continue;
				dom = 1;
				for (t = 0; t < r->nc && dom; t++)
					if (AD(r->row[k], r->col[t]) <
					    AD(r->row[p], r->col[t]))
						dom = 0;
				if (dom) {
					drop(r->row, &r->mr, p);
					p--;
					changed = 1;
					break;
				}
			}
		for (p = 0; p < r->nc && r->nc > 1; p++)
			for (k = 0; k < r->nc; k++) {
				if (k == p)
					continue;
				dom = 1;
				for (t = 0; t < r->mr && dom; t++)
					if (AD(r->row[t], r->col[k]) >
					    AD(r->row[t], r->col[p]))
						dom = 0;
				if (dom) {
					drop(r->col, &r->nc, p);
					p--;
					changed = 1;
					break;
				}
			}
	}
}

static double
simplex_d(size_t n, const double *a, const struct reduced *r, double *xr,
    double *yr)
{
	size_t mr = r->mr, nc = r->nc, w = nc + mr + 1, rows = mr + 1;
	size_t i, j, e, l, iter = 0, *basis;
	double *T, shift, t, ratio, best = 0, z, scale = 1;

#define TD(i, j) T[(i) * w + (j)]
	T = cg_xcalloc(rows * w, sizeof *T);
	basis = cg_xreallocarray(NULL, mr, sizeof *basis);
	shift = AD(r->row[0], r->col[0]);
	for (i = 0; i < mr; i++)
		for (j = 0; j < nc; j++)
			if (AD(r->row[i], r->col[j]) < shift)
				shift = AD(r->row[i], r->col[j]);
	shift = 1 - shift;
	for (i = 0; i < mr; i++) {
		for (j = 0; j < nc; j++) {
			TD(i, j) = AD(r->row[i], r->col[j]) + shift;
			if (TD(i, j) > scale)
				scale = TD(i, j);
		}
		TD(i, nc + i) = 1;
		TD(i, w - 1) = 1;
		basis[i] = nc + i;
	}
	for (j = 0; j < nc; j++)
		TD(mr, j) = -1;
	for (;;) {
		int bland = ++iter > DANTZIG_LIMIT(mr, nc);

		if (iter > 100000)
			break;
		e = w;
		for (j = 0; j + 1 < w; j++)
			if (TD(mr, j) < -EPS && (e == w ||
			    (!bland && TD(mr, j) < TD(mr, e)))) {
				e = j;
				if (bland)
					break;
			}
		if (e == w)
			break;
		l = mr;
		for (i = 0; i < mr; i++) {
			if (TD(i, e) <= EPS * scale)
				continue;
			ratio = TD(i, w - 1) / TD(i, e);
			if (l == mr || ratio < best - EPS ||
			    (fabs(ratio - best) <= EPS && basis[i] < basis[l])) {
				l = i;
				best = ratio;
			}
		}
		if (l == mr)
			break;
		t = TD(l, e);
		for (j = 0; j < w; j++)
			TD(l, j) /= t;
		TD(l, e) = 1;
		for (i = 0; i < rows; i++) {
			if (i == l || TD(i, e) == 0)
				continue;
			t = TD(i, e);
			for (j = 0; j < w; j++)
				TD(i, j) -= t * TD(l, j);
			TD(i, e) = 0;
		}
		basis[l] = e;
	}
	z = TD(mr, w - 1);
	if (yr != NULL) {
		for (j = 0; j < nc; j++)
			yr[j] = 0;
		for (i = 0; i < mr; i++)
			if (basis[i] < nc)
				yr[basis[i]] = TD(i, w - 1) / z;
	}
	if (xr != NULL)
		for (i = 0; i < mr; i++)
			xr[i] = TD(mr, nc + i) / z;
	free(T);
	free(basis);
#undef TD
	return 1 / z - shift;
}

double
cg_mg_solve_d(size_t m, size_t n, const double *a, double *x, double *y)
{
	size_t i, j, bi = 0, bj = 0, *rmin, *cmax;
	struct reduced r;
	double v, *xr, *yr, lo, hi;

	rmin = cg_xreallocarray(NULL, m, sizeof *rmin);
	cmax = cg_xreallocarray(NULL, n, sizeof *cmax);
	for (i = 0; i < m; i++) {
		rmin[i] = 0;
		for (j = 1; j < n; j++)
			if (AD(i, j) < AD(i, rmin[i]))
				rmin[i] = j;
		if (AD(i, rmin[i]) > AD(bi, rmin[bi]))
			bi = i;
	}
	for (j = 0; j < n; j++) {
		cmax[j] = 0;
		for (i = 1; i < m; i++)
			if (AD(i, j) > AD(cmax[j], j))
				cmax[j] = i;
		if (AD(cmax[j], j) < AD(cmax[bj], bj))
			bj = j;
	}
	lo = AD(bi, rmin[bi]);
	hi = AD(cmax[bj], bj);
	free(rmin);
	free(cmax);
	if (x != NULL)
		for (i = 0; i < m; i++)
			x[i] = 0;
	if (y != NULL)
		for (j = 0; j < n; j++)
			y[j] = 0;
	if (lo == hi) {
		if (x != NULL)
			x[bi] = 1;
		if (y != NULL)
			y[bj] = 1;
		return AD(bi, bj);
	}
	reduced_init(&r, m, n);
	dominance_d(n, a, &r);
	xr = cg_xcalloc(r.mr, sizeof *xr);
	yr = cg_xcalloc(r.nc, sizeof *yr);
	if (r.mr == 1 && r.nc == 1) {
		v = AD(r.row[0], r.col[0]);
		xr[0] = yr[0] = 1;
	} else if (r.mr == 2 && r.nc == 2 &&
	    AD(r.row[0], r.col[0]) + AD(r.row[1], r.col[1]) -
	    AD(r.row[0], r.col[1]) - AD(r.row[1], r.col[0]) != 0) {
		double pa = AD(r.row[0], r.col[0]), pb = AD(r.row[0], r.col[1]);
		double pc = AD(r.row[1], r.col[0]), pd = AD(r.row[1], r.col[1]);
		double den = pa + pd - pb - pc;

		v = (pa * pd - pb * pc) / den;
		xr[0] = (pd - pc) / den;
		xr[1] = 1 - xr[0];
		yr[0] = (pd - pb) / den;
		yr[1] = 1 - yr[0];
	} else {
		v = simplex_d(n, a, &r, xr, yr);
	}
	/* the value lies between the pure maximin and minimax */
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	for (i = 0; i < r.mr; i++)
		if (x != NULL)
			x[r.row[i]] = xr[i];
	for (j = 0; j < r.nc; j++)
		if (y != NULL)
			y[r.col[j]] = yr[j];
	free(xr);
	free(yr);
	reduced_free(&r);
	return v;
}
