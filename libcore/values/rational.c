/* rational.c - printing and parsing exact rationals (see rational.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/rational.h"
#include "base/util.h"

size_t
cg_mpz_digits(const mpz_t z)
{
	size_t n = mpz_sizeinbase(z, 10);
	mpz_t p;

	/* mpz_sizeinbase may be one too large for base 10: check 10^(n-1) */
	if (n <= 1)
		return 1;
	mpz_init(p);
	mpz_ui_pow_ui(p, 10, (unsigned long)(n - 1));
	if (mpz_cmpabs(z, p) < 0)
		n--;
	mpz_clear(p);
	return n;
}

int
cg_q_fits(const mpq_t q, size_t maxdigits)
{
	size_t a = mpz_sizeinbase(mpq_numref(q), 10);
	size_t b = mpz_sizeinbase(mpq_denref(q), 10);

	/* fast path: sizeinbase is exact or one too large */
	if (a <= maxdigits && b <= maxdigits)
		return 1;
	if (a > maxdigits + 1 || b > maxdigits + 1)
		return 0;
	return cg_mpz_digits(mpq_numref(q)) <= maxdigits &&
	    cg_mpz_digits(mpq_denref(q)) <= maxdigits;
}

void
cg_q_print(struct cg_buf *out, const mpq_t q)
{
	size_t need = mpz_sizeinbase(mpq_numref(q), 10) +
	    mpz_sizeinbase(mpq_denref(q), 10) + 3;
	char *s = cg_xmalloc(need);

	mpq_get_str(s, 10, q);
	cg_buf_addstr(out, s);
	free(s);
}

int
cg_q_parse(mpq_t q, const char *s)
{
	const char *p = s, *slash;
	char *num;
	size_t i;
	int rc;

	if (*p == '-' || *p == '+')
		p++;
	slash = strchr(p, '/');
	for (i = 0; p[i] != '\0'; i++)
		if ((p[i] < '0' || p[i] > '9') && p + i != slash)
			return -1;
	if (i == 0 || p == slash || (slash != NULL && slash[1] == '\0'))
		return -1;
	num = cg_xstrdup(*s == '+' ? s + 1 : s);
	rc = mpq_set_str(q, num, 10);
	free(num);
	if (rc != 0 || mpz_sgn(mpq_denref(q)) == 0)
		return -1;
	mpq_canonicalize(q);
	return 0;
}

void
cg_d_print(struct cg_buf *out, double v, int approx)
{
	char tmp[64];

	snprintf(tmp, sizeof tmp, "%.6f", v);
	if (strcmp(tmp, "-0.000000") == 0)
		strcpy(tmp, "0.000000");
	if (approx)
		cg_buf_addc(out, '~');
	cg_buf_addstr(out, tmp);
}
