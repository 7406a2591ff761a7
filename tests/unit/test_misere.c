/*
 * test_misere.c - misere canonical forms (values/misere.h): CGSuite's
 * printed forms and properties of the games in CGSuite's own test table
 * (lib/core/src/test/scala/org/cgsuite/lang/MisereCanonicalGameTestCase
 * .scala in the public cgsuite repository, 2.x), each game built here
 * from CGSuite's input list by a reader of this file's own, and a few
 * values of Winning Ways (2nd ed., vol. 2, ch. 13) and On Numbers and
 * Games (ch. 12).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "values/misere.h"
#include "tap.h"

static struct cg_mtab *T;
static const char *S;

static uint32_t rd_expr(void);

/* CGSuite's misere specifiers: an integer is a nim heap, a list a game
 * with those options; the outer *[x] of one element is x itself. */
static uint32_t
rd_list_game(void)
{
	uint32_t o[64];
	size_t n = 0;

	S++;                            /* [ */
	while (*S != ']') {
		o[n++] = rd_expr();
		if (*S == ',')
			S++;
	}
	S++;
	return cg_mtab_canon(T, o, n);
}

static uint32_t
rd_elem(void)
{
	if (*S == '[')
		return rd_list_game();
	if (*S == '*') {                /* *[ ... ]: one element is itself */
		const char *save;
		uint32_t g;

		S++;
		save = S;
		S++;
		g = rd_expr();
		if (*S == ']') {
			S++;
			return g;
		}
		S = save;
		return rd_list_game();
	}
	return cg_mtab_nim(T, (uint32_t)strtoul(S, (char **)&S, 10));
}

static uint32_t
rd_expr(void)
{
	uint32_t g = rd_elem();

	while (*S == '+') {
		S++;
		g = cg_mtab_add(T, g, rd_elem());
	}
	return g;
}

static uint32_t
game(const char *s)
{
	S = s;
	return rd_expr();
}

static void
check(const char *in, const char *name, const char *want)
{
	struct cg_buf b;

	cg_buf_init(&b);
	cg_mtab_property(T, game(in), name, &b);
	is_str(cg_buf_str(&b), want, "%s %s", in, name);
	cg_buf_free(&b);
}

/* CGSuite's table: input, printed form, then its properties */
static const char *const table[][19] = {
	/* in, canon, birthday, genus, even, extraverted, generally-restive,
	 * generally-tame, half-tame, introverted, nim-heap, prime, restive,
	 * restless, tame, tameable, mate, misere-nim-value, outcome */
	{ "*[0]", "*[0]", "0", "0", "true", "true", "false", "true", "false",
	  "true", "true", "false", "false", "false", "true", "true", "*[1]",
	  "1", "N" },
	{ "*[1]", "*[1]", "1", "1", "false", "true", "false", "true", "false",
	  "true", "true", "false", "false", "false", "true", "true", "*[0]",
	  "0", "P" },
	{ "*[2]", "*[2]", "2", "2", "true", "true", "false", "true", "false",
	  "false", "true", "true", "false", "false", "true", "true", "*[2]",
	  "2", "N" },
	{ "*[[2]]", "*[2#]", "3", "0^0", "true", "true", "false", "true",
	  "false", "false", "false", "false", "false", "false", "true", "true",
	  "*[2#]", "0", "P" },
	{ "*[[[2]]]", "*[2##]", "4", "1^1", "true", "true", "false", "true",
	  "false", "false", "false", "false", "false", "false", "true", "true",
	  "*[2##]", "1", "N" },
	{ "*[2]+*[2]", "*[2[2]]", "4", "0^0", "true", "true", "false", "true",
	  "false", "false", "false", "false", "false", "false", "true", "true",
	  "*[2[2]]", "0", "P" },
	{ "*[[*[2]+*[[2]]]]", "*[2[#2#]]", "6", "0^0", "true", "true", "false",
	  "true", "false", "false", "false", "false", "false", "false", "true",
	  "true", "*[2[#2#]]", "0", "P" },
	{ "*[[2],0]", "*[2#0]", "4", "1^2", "true", "false", "true", "false",
	  "true", "false", "false", "true", "true", "false", "false", "false",
	  "*[2#1]", "2", "N" },
	{ "*[[2],1]", "*[2#1]", "4", "2^1420", "true", "false", "false",
	  "false", "false", "false", "false", "true", "false", "true", "false",
	  "false", "*[2#0]", "1", "N" },
	{ "*[[*[4]+*[2]]]", "*[4[2#]]", "7", "0^0", "true", "false", "false",
	  "true", "false", "false", "false", "false", "false", "false", "true",
	  "true", "*[4[2#]]", "0", "P" },
	{ "*[[[2]],[[2],1]]", "*[(2#1)2##]", "5", "0^0", "true", "false",
	  "false", "true", "false", "false", "false", "true", "false", "false",
	  "false", "true", "*[(2#0)2##]", "0", "P" },
	{ "*[[[2]],[[[2],0],0,1]]", "*[((2#0)10)2##]", "6", "0^0", "true",
	  "false", "false", "true", "false", "false", "false", "true", "false",
	  "false", "false", "true", "*[((2#1)10)2##]", "0", "P" },
	{ "*[*[[2],1]+*[1],[[2],*[[2]]+*[1],[[2],0]]]",
	  "*[((2#0)2[#1]2#)(2#1)[1]]", "6", "0^120", "true", "false", "false",
	  "false", "false", "false", "false", "true", "false", "false", "false",
	  "true", "*[((2#1)2[#1]2#)(2#0)[1]]", "1", "N" },
	{ "*[[[2],2,0],[[2],3],1]", "*[(2#20)2[#1]1]", "5", "0^2", "true",
	  "false", "true", "false", "true", "false", "false", "true", "false",
	  "false", "false", "false", "*[(2#21)2[#1]0]", "2", "N" },
};

static const char *const names[] = {
	"canon", "birthday", "genus", "even", "extraverted",
	"generally-restive", "generally-tame", "half-tame", "introverted",
	"nim-heap", "prime", "restive", "restless", "tame", "tameable", "mate",
	"misere-nim-value", "outcome"
};

/* CGSuite's table again: parts and partitions */
static const char *const parts[][3] = {
	{ "*[0]", "[]", "[[]]" },
	{ "*[1]", "[]", "[[*[1]]]" },
	{ "*[2]", "[]", "[[*[2]]]" },
	{ "*[[2]]", "[*[2],*[2[#-2]]]", "[[*[2],*[2[#-2]]]]" },
	{ "*[[[2]]]",
	  "[*[2],*[2[##-2]],*[2#],*[2[##-2]0],*[2[#-2]],*[(2[##-2]0)[2]]]",
	  "[[*[2],*[2[#-2]],*[2[##-2]0]]]" },
	{ "*[2]+*[2]", "[*[2]]", "[[*[2],*[2]]]" },
	{ "*[[*[2]+*[[2]]]]",
	  "[*[2],*[2[#2#-2]],*[2#],*[2[2]],*[2[#2#-2-2]],*[2[#-2]],*[2[#2]]]",
	  "[[*[2],*[2],*[2[#-2]],*[2[#-2]]]]" },
	{ "*[[2],0]", "[]", "[[*[2#0]]]" },
	{ "*[[*[4]+*[2]]]", "[*[2],*[4[2#-2]],*[4],*[4[2#-4]]]",
	  "[[*[2],*[4[2#-2]]],[*[4],*[4[2#-4]]]]" },
};

/* The games born by day d: the canonical games of every set of games
 * born by day d - 1.  How many there are, day after day. */
static size_t
born_by(unsigned days, uint32_t *games, size_t cap)
{
	size_t n = 1, d, m, k, i;
	uint32_t o[32];

	games[0] = 0;
	for (d = 1; d <= days; d++) {
		size_t prev = n;

		for (m = 0; m < (size_t)1 << prev; m++) {
			uint32_t g;
			int known = 0;

			for (i = 0, k = 0; i < prev; i++)
				if (m >> i & 1)
					o[k++] = games[i];
			g = cg_mtab_canon(T, o, k);
			for (i = 0; i < n && !known; i++)
				known = games[i] == g;
			if (!known && n < cap)
				games[n++] = g;
		}
	}
	return n;
}

/* CGSuite's table again: Options, in CGSuite's order */
static const char *const options[][2] = {
	{ "*[0]", "[]" },
	{ "*[1]", "[*[0]]" },
	{ "*[2]", "[*[0],*[1]]" },
	{ "*[[2]]", "[*[2]]" },
	{ "*[[[2]]]", "[*[2#]]" },
	{ "*[2]+*[2]", "[*[2],*[3]]" },
	{ "*[[*[2]+*[[2]]]]", "[*[2[#2]]]" },
	{ "*[[2],0]", "[*[0],*[2#]]" },
	{ "*[[2],1]", "[*[1],*[2#]]" },
	{ "*[[*[4]+*[2]]]", "[*[4[2]]]" },
	{ "*[[[2]],[[2],1]]", "[*[2##],*[2#1]]" },
	{ "*[[[2]],[[[2],0],0,1]]", "[*[2##],*[(2#0)10]]" },
	{ "*[*[[2],1]+*[1],[[2],*[[2]]+*[1],[[2],0]]]",
	  "[*[(2#1)[1]],*[(2#0)2[#1]2#]]" },
	{ "*[[[2],2,0],[[2],3],1]", "[*[1],*[2[#1]],*[2#20]]" },
};

int
main(void)
{
	size_t i, j;

	T = cg_mtab_new();
	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		for (j = 0; j < sizeof names / sizeof names[0]; j++)
			check(table[i][0], names[j], table[i][j + 1]);
	for (i = 0; i < sizeof options / sizeof options[0]; i++)
		check(options[i][0], "options", options[i][1]);
	for (i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		check(parts[i][0], "parts", parts[i][1]);
		check(parts[i][0], "partitions", parts[i][2]);
	}
	/* *2 + *2 is not 0: by misere nim's rule (WW ch. 13) *2+*2+* is an
	 * N-position (a heap above 1, nim sum 1) while 0 + * is a P one */
	ok(game("*[2]+*[2]") != 0, "*2 + *2 is not 0 in misere play (WW)");
	/* ONAG ch. 12: * + * = 0, and 1 + 1 + 1 = 1 */
	ok(game("*[1]+*[1]") == 0, "* + * = 0 (ONAG)");
	ok(game("*[1]+*[1]+*[1]") == game("*[1]"), "* + * + * = * (ONAG)");
	/* ONAG ch. 12: {*2} (2_+ in Conway's notation) is a P-position
	 * that is not 0 */
	ok(game("*[[2]]") != 0, "{*2} is not 0 (ONAG)");
	/* ONAG ch. 12 (and Siegel, Combinatorial Game Theory, ch. V): 1, 2,
	 * 3, 5 and 22 misere games are born by days 0 to 4 */
	{
		static const size_t want[] = { 1, 2, 3, 5, 22 };
		uint32_t games[64];
		unsigned d;

		for (d = 0; d <= 4; d++)
			is_int(born_by(d, games, 64), want[d],
			    "misere games born by day %u (ONAG)", d);
	}
	/* by definition a part of G + H is H (or H + *, the even one of the
	 * two) unless H is 0 or *: sums of games born by day 4 */
	{
		uint32_t games[64], star = cg_mtab_nim(T, 1);
		size_t n = born_by(4, games, 64), a, b, bad = 0, tried = 0;

		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++) {
				uint32_t h = games[b], g = cg_mtab_add(T, games[a], h);
				uint32_t hs = cg_mtab_add(T, h, star);
				struct cg_buf pl, even, x;
				const char *p;
				size_t len;

				if (h == 0 || h == star || g == 0 || g == star)
					continue;
				cg_buf_init(&pl);
				cg_buf_init(&even);
				cg_buf_init(&x);
				cg_mtab_property(T, g, "parts", &pl);
				cg_mtab_property(T, h, "even", &even);
				/* the even one of H and H + *, as printed */
				cg_mtab_print(T, strcmp(cg_buf_str(&even), "true") == 0 ?
				    h : hs, &x);
				len = strlen(cg_buf_str(&x));
				p = cg_buf_str(&pl);
				tried++;
				/* a proper part unless H + X = G with X = 0 or * */
				if (g != h && g != hs && !(strstr(p,
				    cg_buf_str(&x)) != NULL && (p[strstr(p,
				    cg_buf_str(&x)) - p + len] == ',' || p[strstr(p,
				    cg_buf_str(&x)) - p + len] == ']'))) {
					bad++;
					printf("# %s not in %s\n", cg_buf_str(&x), p);
				}
				cg_buf_free(&pl);
				cg_buf_free(&even);
				cg_buf_free(&x);
			}
		ok(tried > 300 && bad == 0, "H is a part of G + H (%zu sums, %zu "
		    "wrong)", tried, bad);
	}
	/* the nim heaps past 9 print as CGSuite's &n; */
	check("*[10]", "canon", "*[&10;]");
	cg_mtab_free(T);
	return tap_done();
}
