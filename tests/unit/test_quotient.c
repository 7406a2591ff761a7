/* test_quotient.c - misere quotients (solve/quotient.h).
 *
 * Expected values: the quotient is a commutative monoid (checked from its
 * table), reduced (no two elements behave alike in every context), and
 * it predicts the misere outcome of every sum of up to four heaps of up
 * to 10 counters, each outcome found here by a plain search from the
 * definition (a sum without moves is N; else P when every move leads to
 * N).  Orders: 0.75's quotient has 8 elements, the only order-8 quotient
 * (Siegel, arXiv math/0703070); 0.123's has 20 (Plambeck, INTEGERS 5,
 * 2005); 0.3122's is infinite at heap 7 (Games of No Chance 4, pp. 267-
 * 278), so a run with a small element limit stops there. */
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "solve/quotient.h"
#include "tap.h"

struct code {
	uint32_t mask[8], flags[8];
	uint32_t t;
	struct cg_heap_rules r;
};

/* "0.75": digit k is mask[k] (bits: leave 0, 1 or 2 heaps). */
static void
code_of(struct code *c, const char *s)
{
	uint32_t k;

	memset(c, 0, sizeof *c);
	c->mask[0] = (uint32_t)(s[0] - '0') & 4;
	for (k = 1; s[k + 1] != '\0'; k++)
		c->mask[k] = (uint32_t)(s[k + 1] - '0');
	c->t = k - 1;
	c->r.struct_size = sizeof c->r;
	c->r.max_take = c->t;
	c->r.mask = c->mask;
	c->r.flags = c->flags;
}

static struct cg_bytemap *memo;
static const struct code *cur;

/* Misere P (1) or N (0) of the sum h[0..n), heaps ascending. */
static int
misere_p(const uint32_t *h, size_t n)
{
	uint32_t o[64];         /* at most one heap per counter */
	size_t i, j, m;
	uint32_t k, a, left;
	uint64_t e;
	int isnew, any = 0;

	e = cg_bytemap_intern(memo, h, n * sizeof *h, &isnew);
	if (!isnew)
		return (int)*cg_bytemap_value(memo, e) - 1;
	for (i = 0; i < n; i++) {
		for (k = 0; k <= cur->t && k <= h[i]; k++) {
			uint32_t mask = cur->mask[k];

			left = h[i] - k;
			for (a = 0; a <= left; a++) {
				/* a = 0: leave nothing or one heap; a > 0: split */
				uint32_t parts[2], np = 0;

				if (a == 0 && left == 0 && k > 0 && (mask & 1))
					np = 0;
				else if (a == 0 && left > 0 && k > 0 && (mask & 2))
					parts[np++] = left;
				else if (a > 0 && 2 * a <= left && a < left &&
				    (mask & 4)) {
					parts[np++] = a;
					parts[np++] = left - a;
				} else
					continue;
				m = 0;
				for (j = 0; j < n; j++)
					if (j != i)
						o[m++] = h[j];
				for (j = 0; j < np; j++) {
					size_t p = m++;

					while (p > 0 && o[p - 1] > parts[j]) {
						o[p] = o[p - 1];
						p--;
					}
					o[p] = parts[j];
				}
				any = 1;
				if (misere_p(o, m)) {
					e = cg_bytemap_intern(memo, h,
					    n * sizeof *h, &isnew);
					*cg_bytemap_value(memo, e) = 1;
					return 0;
				}
			}
		}
	}
	e = cg_bytemap_intern(memo, h, n * sizeof *h, &isnew);
	*cg_bytemap_value(memo, e) = (uint64_t)any + 1;
	return any;
}

static void
check(const char *s, uint32_t heaps, uint32_t order)
{
	struct code c;
	struct cg_quot *q;
	const char *why;
	char msg[256];
	uint32_t n, x, y, z, bad = 0, h[4];
	int assoc = 1, comm = 1, reduced = 1;

	code_of(&c, s);
	q = cg_quot_new(&c.r, &why);
	ok(q != NULL, "%s: rules accepted", s);
	is_int(cg_quot_extend(q, heaps, msg, sizeof msg), 0, "%s: heaps to %u",
	    s, heaps);
	n = cg_quot_order(q);
	if (order)
		is_int(n, order, "%s: order", s);
	for (x = 0; x < n; x++)
		for (y = 0; y < n; y++) {
			if (cg_quot_mul(q, x, y) != cg_quot_mul(q, y, x))
				comm = 0;
			for (z = 0; z < n && n <= 64; z++)
				if (cg_quot_mul(q, cg_quot_mul(q, x, y), z) !=
				    cg_quot_mul(q, x, cg_quot_mul(q, y, z)))
					assoc = 0;
		}
	ok(comm && assoc && cg_quot_mul(q, 0, n - 1) == n - 1,
	    "%s: a commutative monoid with identity 0", s);
	for (x = 0; x < n && reduced; x++)
		for (y = x + 1; y < n && reduced; y++) {
			for (z = 0; z < n; z++)
				if (cg_quot_is_p(q, cg_quot_mul(q, x, z)) !=
				    cg_quot_is_p(q, cg_quot_mul(q, y, z)))
					break;
			if (z == n)
				reduced = 0;
		}
	ok(reduced, "%s: no two elements alike in every context", s);
	memo = cg_bytemap_new();
	cur = &c;
	for (h[0] = 1; h[0] <= 10; h[0]++)
		for (h[1] = h[0]; h[1] <= 10; h[1]++)
			for (h[2] = h[1]; h[2] <= 10; h[2]++)
				for (h[3] = h[2]; h[3] <= 10; h[3]++) {
					uint32_t k, m = 1;

					for (k = 1; k <= 4; k++) {
						m = 0;
						for (z = 0; z < k; z++)
							m = cg_quot_mul(q, m,
							    cg_quot_phi(q, h[z]));
						if (cg_quot_is_p(q, m) !=
						    misere_p(h, k))
							bad++;
					}
				}
	is_int(bad, 0, "%s: outcomes of sums of up to four heaps of up to 10",
	    s);
	cg_bytemap_free(memo);
	cg_quot_free(q);
}

int
main(void)
{
	struct code c;
	struct cg_quot *q;
	const char *why;
	char msg[256];

	check("0.75", 12, 8);
	check("0.123", 30, 20);
	check("0.77", 40, 0);
	check("0.07", 20, 0);
	check("0.137", 16, 0);
	check("4.7", 12, 0);
	code_of(&c, "0.3122");
	q = cg_quot_new(&c.r, &why);
	cg_quot_limit(q, 256);
	is_int(cg_quot_extend(q, 9, msg, sizeof msg), -1, "0.3122 stops");
	is_int(cg_quot_heaps(q), 6, "0.3122: heaps up to 6 done, 7 is not");
	ok(strstr(msg, "heap 7") != NULL, "0.3122: the message names heap 7");
	cg_quot_free(q);
	return tap_done();
}
