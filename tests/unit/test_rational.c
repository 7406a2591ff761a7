/* test_rational.c - printing, parsing and digit counting of rationals. */
#include <stdlib.h>

#include "host/plugin.h"
#include "values/rational.h"
#include "tap.h"

int
main(void)
{
	struct cg_buf b;
	mpq_t q;

	mpq_init(q);
	cg_buf_init(&b);
	ok(cg_q_parse(q, "-25/6") == 0, "parse -25/6");
	cg_q_print(&b, q);
	is_str(cg_buf_str(&b), "-25/6", "print -25/6");
	ok(cg_q_parse(q, "10/4") == 0, "parse 10/4");
	b.len = 0;
	cg_q_print(&b, q);
	is_str(cg_buf_str(&b), "5/2", "10/4 is canonicalised");
	ok(cg_q_parse(q, "7") == 0 && mpz_cmp_si(mpq_numref(q), 7) == 0,
	    "integer");
	ok(cg_q_parse(q, "1/0") != 0, "zero denominator rejected");
	ok(cg_q_parse(q, "1/") != 0 && cg_q_parse(q, "/2") != 0 &&
	    cg_q_parse(q, "x") != 0 && cg_q_parse(q, "") != 0 &&
	    cg_q_parse(q, "1/2/3") != 0, "malformed rejected");
	/* 10^60 - 1 has 60 digits, 10^60 has 61 */
	mpz_ui_pow_ui(mpq_numref(q), 10, 60);
	mpz_set_ui(mpq_denref(q), 1);
	is_int(cg_mpz_digits(mpq_numref(q)), 61, "10^60 has 61 digits");
	ok(!cg_q_fits(q, 60), "10^60 does not fit 60 digits");
	mpz_sub_ui(mpq_numref(q), mpq_numref(q), 1);
	is_int(cg_mpz_digits(mpq_numref(q)), 60, "10^60-1 has 60 digits");
	ok(cg_q_fits(q, 60), "10^60-1 fits 60 digits");
	mpz_set_si(mpq_numref(q), -9);
	is_int(cg_mpz_digits(mpq_numref(q)), 1, "-9 has 1 digit");
	b.len = 0;
	cg_d_print(&b, -5.1958334, 1);
	is_str(cg_buf_str(&b), "~-5.195833", "approximate print");
	b.len = 0;
	cg_d_print(&b, -1e-9, 0);
	is_str(cg_buf_str(&b), "0.000000", "no negative zero");
	b.len = 0;
	cg_d_print(&b, -2.5, 0);
	is_str(cg_buf_str(&b), "-2.500000", "CGSynch form");
	cg_buf_free(&b);
	mpq_clear(q);
	return tap_done();
}
