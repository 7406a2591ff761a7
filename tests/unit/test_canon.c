/* test_canon.c - the canonical game store: identities derived by hand,
 * algebraic laws on many literals, and the printer against the published
 * rows of tests/vectors/canon.tsv (ruleset game, property canon). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/canon.h"
#include "values/notation.h"
#include "values/canonprop.h"
#include "host/plugin.h"
#include "values/thermo.h"
#include "tap.h"

static cg_game
G(const char *s)
{
	char msg[256];
	size_t col;
	cg_game g;

	if (cg_canon_parse(s, strlen(s), &g, msg, sizeof msg, &col) < 0) {
		printf("# cannot parse '%s': column %zu: %s\n", s, col, msg);
		exit(1);
	}
	return g;
}

static char *
P(cg_game g)
{
	static char out[8][4096];
	static int k;
	struct cg_buf b;

	cg_buf_init(&b);
	cg_canon_print(g, &b);
	k = (k + 1) % 8;
	snprintf(out[k], sizeof out[k], "%s", cg_buf_str(&b));
	cg_buf_free(&b);
	return out[k];
}

#define SAME(a, b) ok(G(a) == G(b), "%s = %s", a, b)

static void
identities(void)
{
	/* each line: a hand derivation in the comment */
	SAME("^+^", "^^");              /* definition of ^^ */
	SAME("*+*", "0");               /* * is its own negative */
	SAME("*2+*3", "*");             /* nim sum 2 xor 3 = 1 */
	SAME("{1|-1}", "+-1");          /* definition of the switch */
	SAME("1/2+1/2", "1");
	SAME("{0|1}", "1/2");           /* simplest number between 0 and 1 */
	SAME("{0|1/2}", "1/4");
	SAME("{-1|1}", "0");            /* simplest number strictly between */
	SAME("{-5|7/4}", "0");
	SAME("{1|4}", "2");             /* simplest integer between 1 and 4 */
	SAME("{0|0}", "*");
	SAME("{0,*|0,*}", "*2");
	SAME("{0,*2|0,*2}", "*");       /* mex{0,2} = 1 */
	SAME("^+v", "0");
	SAME("{0|*}", "^");
	SAME("{0,*|0}", "^*");
	SAME("{0|^}", "^^*");           /* WW: double-up-star */
	SAME("{{1|0}|}", "0");          /* {1|0} reverses through 0 >= G */
	SAME("{{2|0}|}", "0");          /* likewise */
	SAME("2+{1|-1}", "{3|1}");      /* number translation */
	SAME("3+-1", "{4|2}");
	SAME("-(^*)", "v*");
	SAME("1-1", "0");
	SAME("-1823437481924+1823437481924", "0");
	SAME("{0||0|-2}", "Tiny(2)");
	SAME("{2|0||0}", "Miny(2)");
	ok(cg_canon_compare(G("^"), G("0")) == 1, "^ > 0");
	ok(cg_canon_compare(G("v"), G("0")) == -1, "v < 0");
	ok(cg_canon_compare(G("*"), G("0")) == 2, "* <> 0");
	ok(cg_canon_compare(G("^*"), G("0")) == 2, "^* <> 0");
	ok(cg_canon_compare(G("^^*"), G("0")) == 1, "^^* > 0");
	ok(cg_canon_compare(G("+-1"), G("0")) == 2, "+-1 <> 0");
	ok(cg_canon_compare(G("1/4"), G("1/2")) == -1, "1/4 < 1/2");
	ok(cg_canon_compare(G("Tiny(2)"), G("^")) == -1, "tiny < ^");
	is_int(cg_canon_outcome(G("+-1")), 'N', "+-1 is N");
	is_int(cg_canon_outcome(G("0")), 'P', "0 is P");
	is_int(cg_canon_outcome(G("v")), 'R', "v is R");
	is_int(cg_canon_birthday(G("*2")), 2, "birthday *2");
	is_int(cg_canon_birthday(G("+-1")), 2, "birthday +-1");
	is_int(cg_canon_birthday(G("3/4")), 3, "birthday 3/4 = {1/2|1}");
	is_int(cg_canon_birthday(G("-7")), 7, "birthday -7");
	/* +-1 = {1|-1}: mean 0, temperature 1 */
	is_int(cg_thermo_mean(G("+-1")).num, 0, "mean of +-1");
	is_int(cg_thermo_temp(G("+-1")).num, 1, "temperature of +-1");
	is_int(cg_thermo_temp(G("+-1")).exp, 0, "temperature of +-1 is whole");
	/* {2|0}+{2|0}: Left takes 2 and leaves {2|0}... mean 2 */
	is_int(cg_thermo_mean(G("{2|0}+{2|0}")).num, 2, "mean adds");
	is_str(P(G("^^^")), "^3", "three ups print ^3");
	is_str(P(G("-1/2")), "-1/2", "negative fraction");
	is_str(P(G("{0|1}+*")), "1/2*", "number and star");
}

/* Laws that must hold for any games. */
static void
laws(void)
{
	static const char *lit[] = {
		"0", "*", "^", "v*", "1/2", "-3/4", "+-1", "{1|*}", "{3||2*|1*}",
		"{0|^*5}", "Tiny(1)", "Miny(2)", "{2|0}", "{0,*|v}", "^<2>",
		"^[3]", "+-{1,{2|0}}", "{1/2|-1/2}", "*3", "-2",
	};
	size_t n = sizeof lit / sizeof lit[0], i, j, k;
	int comm = 1, assoc = 1, inv = 1, order = 1, neg = 1;

	for (i = 0; i < n; i++) {
		cg_game a = G(lit[i]);

		if (cg_canon_add(a, cg_canon_neg(a)) != cg_canon_zero())
			inv = 0;
		if (cg_canon_neg(cg_canon_neg(a)) != a)
			neg = 0;
		for (j = 0; j < n; j++) {
			cg_game b = G(lit[j]);
			int le = cg_canon_leq(a, b);
			/* a <= b iff 0 <= b - a */
			int le2 = cg_canon_leq(cg_canon_zero(),
			    cg_canon_sub(b, a));

			if (cg_canon_add(a, b) != cg_canon_add(b, a))
				comm = 0;
			if (le != le2)
				order = 0;
			for (k = 0; k < n; k += 3) {
				cg_game c = G(lit[k]);

				if (cg_canon_add(cg_canon_add(a, b), c) !=
				    cg_canon_add(a, cg_canon_add(b, c)))
					assoc = 0;
			}
		}
	}
	ok(comm, "a + b = b + a");
	ok(assoc, "(a + b) + c = a + (b + c)");
	ok(inv, "a - a = 0");
	ok(neg, "-(-a) = a");
	ok(order, "a <= b iff 0 <= b - a");
	/* printing then reading gives the same game */
	for (i = 0; i < n; i++) {
		cg_game a = G(lit[i]);

		ok(G(P(a)) == a, "read(print(%s)) = %s", lit[i], lit[i]);
	}
}

/* The printer against the published game rows. */
static void
vectors(void)
{
	const char *path = getenv("CG_VECTORS");
	char line[8192], file[1024];
	FILE *fp;
	int rows = 0;

	snprintf(file, sizeof file, "%s/canon.tsv", path ? path :
	    "tests/vectors");
	fp = fopen(file, "r");
	if (fp == NULL) {
		ok(0, "open %s", file);
		return;
	}
	while (fgets(line, sizeof line, fp)) {
		char *f[5], *p = line;
		int k;

		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (k = 0; k < 5; k++) {
			f[k] = p;
			p = p ? strchr(p, '\t') : NULL;
			if (p)
				*p++ = '\0';
		}
		if (strcmp(f[0], "game") != 0 || strcmp(f[2], "canon") != 0)
			continue;
		is_str(P(G(f[1])), f[3], "printer: %s", f[1]);
		rows++;
	}
	fclose(fp);
	ok(rows > 10, "%d published printer rows", rows);
}

struct addarg {
	cg_game a, b, r;
};

static void
add_fn(void *p)
{
	struct addarg *x = p;

	x->r = cg_canon_add(x->a, x->b);
}

/* A bounded catch stops a construction past its steps with a data error
 * and leaves the store usable; an unbounded one does not stop it. */
static void
budget(void)
{
	struct addarg x;
	char msg[256];
	uint64_t steps;
	int rc;

	/* {7|-7} + {6|-6} recurses into 7 + {6|-6}, {7|-7} + 6, ...: more
	 * than 3 steps */
	x.a = G("{7|-7}");
	x.b = G("{6|-6}");
	steps = 3;
	rc = cg_canon_catch_bounded(add_fn, &x, msg, sizeof msg, &steps);
	ok(rc == -1 && strstr(msg, "too costly") != NULL,
	    "3 steps are too few for {7|-7} + {6|-6}: %s", rc ? msg : "built");
	steps = 0;
	rc = cg_canon_catch_bounded(add_fn, &x, msg, sizeof msg, &steps);
	/* hand derivation: Left moves to 7 + {6|-6} = {13|1} or
	 * {7|-7} + 6 = {13|-1}; {13|1} dominates; Right's mirror:
	 * {-1|-13}; so {{13|1}|{-1|-13}} */
	ok(rc == 0 && x.r == G("{{13|1}|{-1|-13}}"),
	    "unbounded: {7|-7} + {6|-6} = %s", P(x.r));
	/* a bound is for all the constructions inside: two sums that each
	 * fit in 1000 steps exhaust 1000 together only if they take more
	 * than 1000 in all; what is left comes back */
	x.a = G("{5|-5}");
	x.b = G("{4|-4}");
	steps = 1000;
	rc = cg_canon_catch_bounded(add_fn, &x, msg, sizeof msg, &steps);
	ok(rc == 0 && steps > 0 && steps < 1000,
	    "a bounded catch reports the steps left (%llu of 1000)",
	    (unsigned long long)steps);
	x.a = G("{9|-9}");
	rc = cg_canon_catch(add_fn, &x, msg, sizeof msg);
	ok(rc == 0, "cg_canon_catch has no step bound");
}

int
main(void)
{
	budget();
	identities();
	laws();
	vectors();
	return tap_done();
}
