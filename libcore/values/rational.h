/* rational.h - exact rationals (GMP mpq) as cg-synch prints and reads them.
 *
 * Values are printed as an integer ("-3") or "num/den" ("-25/6"); a value
 * known only in floating point is printed with six decimals, as CGSynch
 * prints every synchronized value ("-5.195833"), optionally after a '~'. */
#ifndef CG_RATIONAL_H
#define CG_RATIONAL_H

#include <stddef.h>
#include <gmp.h>

#include "base/buf.h"

/* Number of decimal digits of |z| (0 has one digit). */
size_t cg_mpz_digits(const mpz_t z);
/* Do numerator and denominator of q have at most maxdigits digits? */
int cg_q_fits(const mpq_t q, size_t maxdigits);
/* Append q as "n" or "n/d". */
void cg_q_print(struct cg_buf *out, const mpq_t q);
/* Parse "n", "-n", "n/d" (d > 0) into q (canonicalised); 0 on success,
 * -1 on malformed text. */
int cg_q_parse(mpq_t q, const char *s);
/* Append v with six decimals ("%.6f", never "-0.000000"), after a '~'
 * when approx is non-zero. */
void cg_d_print(struct cg_buf *out, double v, int approx);

#endif
