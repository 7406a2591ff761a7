/* test_matrixgame.c - the zero-sum matrix game solvers on games whose
 * values are known by hand, and an optimality certificate on random games:
 * x'A >= v >= Ay componentwise proves (x, y, v) optimal without trusting
 * the solver. */
#include <math.h>
#include <stdlib.h>

#include "solve/matrixgame.h"
#include "values/rational.h"
#include "tap.h"

static void
solve_q(size_t m, size_t n, const long *num, const long *den, mpq_t v,
    mpq_t *x, mpq_t *y, int *saddle)
{
	/* calloc: gcc cannot tell that the loop fills p before the call */
	mpq_t *e = calloc(m * n, sizeof *e);
	mpq_srcptr *p = calloc(m * n, sizeof *p);
	size_t k;

	if (e == NULL || p == NULL)
		abort();

	for (k = 0; k < m * n; k++) {
		mpq_init(e[k]);
		mpq_set_si(e[k], num[k], den ? (unsigned long)den[k] : 1);
		mpq_canonicalize(e[k]);
		p[k] = e[k];
	}
	*saddle = cg_mg_solve_q(m, n, p, v, x, y);
	for (k = 0; k < m * n; k++)
		mpq_clear(e[k]);
	free(e);
	free(p);
}

static int
q_is(const mpq_t q, const char *want)
{
	mpq_t w;
	int r;

	mpq_init(w);
	if (cg_q_parse(w, want) != 0) {
		mpq_clear(w);
		return 0;
	}
	r = mpq_equal(q, w);
	mpq_clear(w);
	return r;
}

/* Check x'A >= v and Ay <= v, x and y distributions (exact). */
static int
certificate_q(size_t m, size_t n, const long *a, const mpq_t v, mpq_t *x,
    mpq_t *y)
{
	mpq_t s, t, sum;
	size_t i, j;
	int good = 1;

	mpq_inits(s, t, sum, NULL);
	for (i = 0; i < m; i++) {
		if (mpq_sgn(x[i]) < 0)
			good = 0;
		mpq_add(sum, sum, x[i]);
	}
	if (mpq_cmp_ui(sum, 1, 1) != 0)
		good = 0;
	mpq_set_ui(sum, 0, 1);
	for (j = 0; j < n; j++) {
		if (mpq_sgn(y[j]) < 0)
			good = 0;
		mpq_add(sum, sum, y[j]);
	}
	if (mpq_cmp_ui(sum, 1, 1) != 0)
		good = 0;
	for (j = 0; j < n; j++) {
		mpq_set_ui(s, 0, 1);
		for (i = 0; i < m; i++) {
			mpq_set_si(t, a[i * n + j], 1);
			mpq_mul(t, t, x[i]);
			mpq_add(s, s, t);
		}
		if (mpq_cmp(s, v) < 0)
			good = 0;
	}
	for (i = 0; i < m; i++) {
		mpq_set_ui(s, 0, 1);
		for (j = 0; j < n; j++) {
			mpq_set_si(t, a[i * n + j], 1);
			mpq_mul(t, t, y[j]);
			mpq_add(s, s, t);
		}
		if (mpq_cmp(s, v) > 0)
			good = 0;
	}
	mpq_clears(s, t, sum, NULL);
	return good;
}

static mpq_t *
qvec(size_t n)
{
	mpq_t *v = malloc(n * sizeof *v);
	size_t i;

	for (i = 0; i < n; i++)
		mpq_init(v[i]);
	return v;
}

static void
qvec_free(mpq_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mpq_clear(v[i]);
	free(v);
}

int
main(void)
{
	mpq_t v, *x = qvec(8), *y = qvec(8);
	int saddle;
	size_t k;

	mpq_init(v);

	/* Rock-paper-scissors: skew-symmetric, so the value is 0; by
	 * symmetry the unique optimum is (1/3, 1/3, 1/3) for both. */
	{
		static const long a[] = { 0, -1, 1, 1, 0, -1, -1, 1, 0 };

		solve_q(3, 3, a, NULL, v, x, y, &saddle);
		ok(mpq_sgn(v) == 0 && !saddle, "rock-paper-scissors = 0");
		ok(q_is(x[0], "1/3") && q_is(x[1], "1/3") && q_is(x[2], "1/3"),
		    "rock-paper-scissors: Left plays 1/3 each");
		ok(q_is(y[0], "1/3") && q_is(y[1], "1/3") && q_is(y[2], "1/3"),
		    "rock-paper-scissors: Right plays 1/3 each");
		ok(certificate_q(3, 3, a, v, x, y), "rps certificate");
		ok(fabs(cg_mg_solve_d(3, 3, (const double[]){ 0, -1, 1, 1, 0,
		    -1, -1, 1, 0 }, NULL, NULL)) < 1e-12, "rps = 0 (double)");
	}
	/* 2x2 without saddle point [[3,-1],[-2,1]]: row minima -1,-2,
	 * column maxima 3,1, so no saddle; closed form (ad-bc)/(a+d-b-c) =
	 * (3-2)/(3+1+1+2) = 1/7, x0 = (d-c)/7 = 3/7, y0 = (d-b)/7 = 2/7. */
	{
		static const long a[] = { 3, -1, -2, 1 };

		solve_q(2, 2, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "1/7") && !saddle, "2x2 closed form = 1/7");
		ok(q_is(x[0], "3/7") && q_is(x[1], "4/7"), "2x2 Left 3/7 4/7");
		ok(q_is(y[0], "2/7") && q_is(y[1], "5/7"), "2x2 Right 2/7 5/7");
		ok(fabs(cg_mg_solve_d(2, 2, (const double[]){ 3, -1, -2, 1 },
		    NULL, NULL) - 1.0 / 7) < 1e-12, "2x2 = 1/7 (double)");
	}
	/* Matching pennies with fractions [[1/2, -1/3], [-1/3, 1/2]]:
	 * (1/4 - 1/9)/(1 + 2/3) = (5/36)/(5/3) = 1/12. */
	{
		static const long num[] = { 1, -1, -1, 1 }, den[] = { 2, 3, 3, 2 };

		solve_q(2, 2, num, den, v, x, y, &saddle);
		ok(q_is(v, "1/12"), "fractional pennies = 1/12");
	}
	/* Saddle point [[4,2,3],[1,0,5]]: row 0 minimum 2 equals column 1
	 * maximum 2. */
	{
		static const long a[] = { 4, 2, 3, 1, 0, 5 };

		solve_q(2, 3, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "2") && saddle, "saddle point = 2");
		ok(q_is(x[0], "1") && q_is(y[1], "1"), "saddle strategies pure");
	}
	/* Degenerate: a row of equal entries and a column of equal entries:
	 * [[5,5,5],[1,9,2]]: Right answers row 0 with anything (5), row 1
	 * with column 0 (1): saddle at 5 (row minima 5, 1; column maxima
	 * 5, 9, 5). */
	{
		static const long a[] = { 5, 5, 5, 1, 9, 2 };

		solve_q(2, 3, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "5"), "row of equal entries = 5");
	}
	/* 1x1 and 1xn */
	{
		static const long a[] = { -7, 3, -2 };

		solve_q(1, 1, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "-7"), "1x1");
		solve_q(1, 3, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "-7"), "1x3 = its minimum");
		solve_q(3, 1, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "3"), "3x1 = its maximum");
	}
	/* 3x2 needing dominance then 2x2: [[2,-1],[-1,1],[0,-2]]: row 2 is
	 * dominated by row 0 (2>=0, -1>=-2); left [[2,-1],[-1,1]]:
	 * (2-1)/(2+1+1+1) = 1/5. */
	{
		static const long a[] = { 2, -1, -1, 1, 0, -2 };

		solve_q(3, 2, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "1/5"), "dominance then 2x2 = 1/5");
		ok(mpq_sgn(x[2]) == 0, "dominated row gets weight 0");
		ok(certificate_q(3, 2, a, v, x, y), "certificate");
	}
	/* Shift invariance on RPS + 5: value 5. */
	{
		static const long a[] = { 5, 4, 6, 6, 5, 4, 4, 6, 5 };

		solve_q(3, 3, a, NULL, v, x, y, &saddle);
		ok(q_is(v, "5"), "rps + 5 = 5");
	}
	/* Random games: exact certificate, and the double solver agrees. */
	{
		unsigned seed = 12345;
		int good = 1, agree = 1, trial;

		for (trial = 0; trial < 300; trial++) {
			size_t m = 1 + trial % 7, n = 1 + (trial / 7) % 7, i;
			long a[64];
			double d[64], vd;

			for (i = 0; i < m * n; i++) {
				seed = seed * 1103515245u + 12345u;
				a[i] = (long)((seed >> 16) % 21) - 10;
				d[i] = (double)a[i];
			}
			solve_q(m, n, a, NULL, v, x, y, &saddle);
			if (!certificate_q(m, n, a, v, x, y))
				good = 0;
			vd = cg_mg_solve_d(m, n, d, NULL, NULL);
			if (fabs(vd - mpq_get_d(v)) > 1e-9)
				agree = 0;
		}
		ok(good, "300 random games: exact strategies certify the value");
		ok(agree, "300 random games: double solver agrees");
	}
	for (k = 0; k < 1; k++)
		mpq_clear(v);
	qvec_free(x, 8);
	qvec_free(y, 8);
	return tap_done();
}
