/* test_dyadic.c - dyadic rationals past 64 bits: the word-sized fast path
 * and the GMP path agree at the boundaries, values stay reduced and
 * canonical (equal values, equal fields), and the bound is a data error.
 * Expected values are powers of two and sums worked by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/canon.h"
#include "values/notation.h"
#include "base/buf.h"
#include "tap.h"

static char *
S(struct cg_dyadic x)
{
	static char out[4][4096];
	static int k;
	struct cg_buf b;

	cg_buf_init(&b);
	cg_dyadic_print(x, &b);
	k = (k + 1) % 4;
	snprintf(out[k], sizeof out[k], "%s", cg_buf_str(&b));
	cg_buf_free(&b);
	return out[k];
}

static struct cg_dyadic
D(int64_t num, int exp)
{
	return cg_dyadic_make(num, exp);
}

static int
same(struct cg_dyadic a, struct cg_dyadic b)
{
	return a.num == b.num && a.exp == b.exp;
}

struct huge {
	struct cg_dyadic x;
	int rounds;
};

/* doubles x until it passes the bound */
static void
double_on(void *arg)
{
	struct huge *h = arg;

	for (h->rounds = 0; h->rounds < 70000; h->rounds++)
		h->x = cg_dyadic_add(h->x, h->x);
}

int
main(void)
{
	const int64_t max = INT64_MAX;
	struct cg_dyadic two62 = D((int64_t)1 << 62, 0), x, y, z;
	uint64_t w[CG_DYADIC_MAX_WORDS], bday;
	long e;
	int neg;
	size_t n;
	char msg[256];
	struct huge h;

	/* 2^62 + 2^62 = 2^63 leaves the word, and comes back */
	x = cg_dyadic_add(two62, two62);
	ok(cg_dyadic_is_big(x), "2^63 is big");
	is_str(S(x), "9223372036854775808", "2^62 + 2^62 printed");
	y = cg_dyadic_sub(x, two62);
	ok(!cg_dyadic_is_big(y) && same(y, two62), "2^63 - 2^62 is 2^62 again, small");
	/* the same value made twice has the same fields */
	z = cg_dyadic_add(D(max, 0), D(1, 0));
	ok(same(z, x), "INT64_MAX + 1 equals 2^62 + 2^62 field for field");
	ok(same(cg_dyadic_neg(cg_dyadic_neg(x)), x), "--x = x");
	is_str(S(cg_dyadic_neg(x)), "-9223372036854775808", "-2^63");
	ok(cg_dyadic_sign(cg_dyadic_neg(x)) < 0 && cg_dyadic_sign(x) > 0,
	    "signs of big values");
	/* order across the boundary */
	ok(cg_dyadic_cmp(D(max, 0), x) < 0, "2^63 - 1 < 2^63");
	ok(cg_dyadic_cmp(cg_dyadic_neg(x), D(-max, 0)) < 0, "-2^63 < -(2^63 - 1)");
	ok(cg_dyadic_cmp(x, x) == 0, "2^63 = 2^63");
	/* halving past exponent 62 */
	y = cg_dyadic_half(D(1, 62));
	is_str(S(y), "1/9223372036854775808", "half of 1/2^62");
	is_int(cg_dyadic_exponent(y), 63, "its exponent");
	ok(cg_dyadic_cmp(y, D(0, 0)) > 0 && cg_dyadic_cmp(y, D(1, 62)) < 0,
	    "0 < 1/2^63 < 1/2^62");
	z = cg_dyadic_add(y, y);
	ok(same(z, D(1, 62)), "1/2^63 + 1/2^63 = 1/2^62, small again");
	/* 3/2^64 - 1/2^64 = 1/2^63 (reduced) */
	x = cg_dyadic_half(cg_dyadic_half(D(3, 62)));
	z = cg_dyadic_half(cg_dyadic_half(D(1, 62)));
	ok(same(cg_dyadic_sub(x, z), y), "3/2^64 - 1/2^64 = 1/2^63");
	/* floor: -(2^64 + 1)/2 -> -(2^63 + 1) */
	x = cg_dyadic_half(cg_dyadic_neg(cg_dyadic_add(cg_dyadic_add(
	    cg_dyadic_add(two62, two62), cg_dyadic_add(two62, two62)),
	    D(1, 0))));
	is_str(S(x), "-18446744073709551617/2", "-(2^64 + 1)/2");
	is_str(S(cg_dyadic_floor(x)), "-9223372036854775809", "its floor");
	ok(!cg_dyadic_is_integer(x) &&
	    cg_dyadic_is_integer(cg_dyadic_floor(x)), "integer or not");
	/* birthdays: 1 + floor(|x|) + exponent; 2^64 does not fit */
	ok(cg_dyadic_birthday(y, &bday) == 0 && bday == 64,
	    "birthday of 1/2^63 is 64");
	x = cg_dyadic_add(cg_dyadic_add(two62, two62), cg_dyadic_add(two62,
	    two62));
	ok(cg_dyadic_birthday(x, &bday) < 0, "birthday of 2^64 past 64 bits");
	ok(cg_dyadic_birthday(cg_dyadic_sub(x, D(1, 0)), &bday) == 0 &&
	    bday == UINT64_MAX, "birthday of 2^64 - 1 fits");
	/* words out and in */
	x = cg_dyadic_neg(cg_dyadic_half(cg_dyadic_add(x, D(1, 0))));
	n = cg_dyadic_export(x, w, &e, &neg);
	ok(n == 2 && w[0] == 1 && w[1] == 1 && e == 1 && neg == 1,
	    "-(2^64 + 1)/2 as words");
	ok(cg_dyadic_import(w, n, (uint64_t)e, neg, &y) == 0 && same(x, y),
	    "and back");
	w[0] = 4;
	w[1] = 0;
	ok(cg_dyadic_import(w, 2, 2, 0, &y) == 0 && same(y, D(1, 0)),
	    "4/4 imported is 1, small");
	ok(cg_dyadic_import(w, 1, CG_DYADIC_MAX_BITS + 1, 0, &y) < 0,
	    "an exponent past the bound is refused");
	/* the bound: 2^65535 takes 65536 bits, the most allowed; doubling
	 * it is a data error */
	h.x = D(1, 0);
	ok(cg_canon_catch(double_on, &h, msg, sizeof msg) < 0,
	    "doubling without end stops");
	is_int(h.rounds, CG_DYADIC_MAX_BITS - 1, "at 2^65535 + 2^65535");
	is_str(msg, "number beyond 65536 bits", "with a message");
	return tap_done();
}
