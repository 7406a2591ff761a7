/* dyadic.h - dyadic rationals num / 2^exp of any size, exact.
 *
 * A value that fits (|num| < 2^63, exp <= 62) is held in the struct
 * itself and its arithmetic is a few machine instructions.  A larger one
 * is "big": exp is CG_DYADIC_BIG and num is +-(1 + i), where i indexes an
 * interned table of magnitudes (GMP integers with their exponents) that
 * lives for the whole process.  Values are always reduced and a value
 * that fits is never big, so equal values have equal fields (fields may
 * be hashed and compared as they are), negation flips the sign of num,
 * and the sign of num is the sign of the value.  Other fields must not be
 * read directly: exp is not the exponent of a big value.
 *
 * Numerators and exponents are bounded by CG_DYADIC_MAX_BITS; past it an
 * operation is a data error of the canonical store (cg_canon_catch), so a
 * small input cannot ask for unbounded memory. */
#ifndef CG_DYADIC_H
#define CG_DYADIC_H

#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

struct cg_buf;

struct cg_dyadic {
	int64_t num;
	int exp;
};

#define CG_DYADIC_BIG (-1)
#define CG_DYADIC_MAX_BITS 65536

/* num / 2^exp reduced; exp >= 0 (CG_DYADIC_BIG passes a big value on). */
struct cg_dyadic cg_dyadic_make(int64_t num, int exp);
/* num / 2^exp from a GMP integer (exp >= 0). */
struct cg_dyadic cg_dyadic_from_mpz(const mpz_t num, long exp);
/* The numerator and exponent of x in lowest terms. */
void cg_dyadic_to_mpz(struct cg_dyadic x, mpz_t num, long *exp);

struct cg_dyadic cg_dyadic_add(struct cg_dyadic a, struct cg_dyadic b);
struct cg_dyadic cg_dyadic_sub(struct cg_dyadic a, struct cg_dyadic b);
struct cg_dyadic cg_dyadic_neg(struct cg_dyadic a);
struct cg_dyadic cg_dyadic_half(struct cg_dyadic a);
/* The largest integer <= a. */
struct cg_dyadic cg_dyadic_floor(struct cg_dyadic a);
int cg_dyadic_cmp_big(struct cg_dyadic a, struct cg_dyadic b);

/* Order: -1, 0, 1.  Inline: comparisons of stops settle most comparisons
 * of games, and they are almost always of small values. */
static inline int
cg_dyadic_cmp(struct cg_dyadic a, struct cg_dyadic b)
{
	if (a.exp != CG_DYADIC_BIG && b.exp != CG_DYADIC_BIG) {
		int f = a.exp > b.exp ? a.exp : b.exp;
		__int128 v = (__int128)a.num * ((__int128)1 << (f - a.exp));
		__int128 w = (__int128)b.num * ((__int128)1 << (f - b.exp));

		return v < w ? -1 : v > w;
	}
	return cg_dyadic_cmp_big(a, b);
}

static inline int
cg_dyadic_sign(struct cg_dyadic a)
{
	return (a.num > 0) - (a.num < 0);
}

static inline int
cg_dyadic_is_big(struct cg_dyadic a)
{
	return a.exp == CG_DYADIC_BIG;
}

/* The exponent of the denominator, 0 for an integer. */
long cg_dyadic_exponent(struct cg_dyadic a);
int cg_dyadic_is_integer(struct cg_dyadic a);
/* The birthday of the number a, or -1 when it does not fit 64 bits. */
int cg_dyadic_birthday(struct cg_dyadic a, uint64_t *bday);

/* For files: the magnitude of x as 64-bit words, least significant
 * first, into w (room for CG_DYADIC_MAX_WORDS); the count is returned,
 * the exponent in *exp and the sign (1: negative) in *neg. */
#define CG_DYADIC_MAX_WORDS (CG_DYADIC_MAX_BITS / 64 + 1)
size_t cg_dyadic_export(struct cg_dyadic x, uint64_t *w, long *exp,
    int *neg);
/* The value made from them (reduced), or -1 when past the bounds. */
int cg_dyadic_import(const uint64_t *w, size_t n, uint64_t exp, int neg,
    struct cg_dyadic *x);

/* CGSuite's notation: 3, -7/8; any size. */
void cg_dyadic_print(struct cg_dyadic x, struct cg_buf *out);

#endif
