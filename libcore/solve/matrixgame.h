/* matrixgame.h - two-person zero-sum matrix games with mixed strategies.
 *
 * The row player (Left) maximises, the column player (Right) minimises;
 * payoff a[i*n+j] when Left plays row i and Right column j.  The solvers
 * try a pure saddle point first, then remove weakly dominated rows and
 * columns, use the closed form of 2x2 games, and run a simplex (Dantzig's
 * rule, Bland's rule after many pivots) on what is left.  The optimal
 * strategies returned put zero weight on removed rows and columns. */
#ifndef CG_MATRIXGAME_H
#define CG_MATRIXGAME_H

#include <stddef.h>
#include <gmp.h>

/*
 * Exact solve.  a holds m*n pointers to the entries (m, n >= 1).  The
 * value goes to value; x (m entries) and y (n entries), when not NULL,
 * must be initialised and receive optimal mixed strategies of Left and
 * Right.  Returns 1 when a pure saddle point decided the game, 0 when
 * mixed strategies were needed.
 */
int cg_mg_solve_q(size_t m, size_t n, mpq_srcptr const *a, mpq_ptr value,
    mpq_t *x, mpq_t *y);

/* The same in double precision; returns the value. */
double cg_mg_solve_d(size_t m, size_t n, const double *a, double *x,
    double *y);

#endif
