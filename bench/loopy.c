/*
 * bench/loopy.c - the retrograde analysis of a loopy family: every
 * Backsliding Toads and Frogs strip of N squares with at most three
 * toads and at most three frogs (a family closed under moves, so its
 * graph is the family itself).  The positions are explored through the
 * plugin and hash-consed (solve/explore.h), then solved with draws and
 * remoteness (solve/retro.h): the two are timed apart, in CPU seconds of
 * this thread (the machine is shared), with positions per second of
 * each and of the whole, and the count of each outcome class.  The
 * explored count is checked against the family's size, the sum over
 * a, b <= 3 of N! / (a! b! (N-a-b)!).  Built and run by bench/loopy.
 *
 * Then, with FOXGEESE set to K, Fox and Geese (foxgeese) with K geese on
 * the 8x8 board: every placement of the geese and the fox on the dark
 * squares, the same figures (K = 4: 1,006,880 positions).
 *
 *   loopy-bench LO HI [K]   strips of LO..HI squares, one graph per N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/tool.h"
#include "base/util.h"
#include "host/plugin.h"
#include "solve/explore.h"
#include "solve/retro.h"

static double
cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static uint64_t
choose(unsigned n, unsigned k)
{
	uint64_t c = 1;
	unsigned i;

	if (k > n)
		return 0;
	for (i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

/* Add every strip of n squares with a toads and b frogs: squares chosen
 * for the creatures by counting through the base-3 words would be 3^n
 * steps, so walk the placements directly. */
static void
place(struct cg_explore *e, unsigned char *s, unsigned n, unsigned i,
    unsigned a, unsigned b)
{
	if (i == n) {
		if (a == 0 && b == 0)
			(void)cg_explore_add(e, s, n);
		return;
	}
	if (n - i > a + b) {
		s[i] = '.';
		place(e, s, n, i + 1, a, b);
	}
	if (a > 0) {
		s[i] = 't';
		place(e, s, n, i + 1, a - 1, b);
	}
	if (b > 0) {
		s[i] = 'f';
		place(e, s, n, i + 1, a, b - 1);
	}
}

/* Explore, solve and print one row: the positions added to e. */
static void
run(const char *label, struct cg_explore *e, uint64_t want, double t0)
{
	static const char *const names[] = { "L", "R", "N", "P", "D", "PHat",
	    "PCheck", "NHat", "NCheck" };
	struct cg_retro_graph g;
	struct cg_retro *r;
	uint64_t count[9] = { 0 };
	double t1, t2;
	uint32_t x, np;
	unsigned k;

	if (cg_explore_run(e) < 0)
		cg_die(1, "stopped");
	cg_explore_graph(e, &g);
	t1 = cpu_now();
	r = cg_retro_solve(&g);
	t2 = cpu_now();
	np = cg_explore_count(e);
	if (np != want)
		cg_die(1, "%s: %u positions explored, the family has %llu",
		    label, np, (unsigned long long)want);
	for (x = 0; x < np; x++) {
		const char *c = cg_retro_class(r, x);

		for (k = 0; k < 9 && strcmp(c, names[k]) != 0; k++)
			;
		if (k < 9)
			count[k]++;
	}
	printf("%3s %10u %11llu %8.3fs %8.3fs %8.3fs %11.0f %11.0f ", label,
	    np, (unsigned long long)cg_explore_options(e), t1 - t0, t2 - t1,
	    t2 - t0, np / (t2 - t1 > 0 ? t2 - t1 : 1e-9),
	    np / (t2 - t0 > 0 ? t2 - t0 : 1e-9));
	for (k = 0; k < 9; k++)
		if (count[k])
			printf(" %s=%llu", names[k],
			    (unsigned long long)count[k]);
	printf("\n");
	fflush(stdout);
	cg_retro_free(r);
}

/* Every placement of k geese and the fox on the dark squares of the 8x8
 * board, from dark square i on. */
static void
geese(struct cg_explore *e, char *b, unsigned i, unsigned k)
{
	unsigned f, r, c;

	if (k == 0) {
		for (f = 0; f < 32; f++) {
			r = f / 4;
			c = 2 * (f % 4) + (r % 2 == 0);
			/* text row r from the top is board row 8 - r */
			if (b[r * 9 + c] != '.')
				continue;
			b[r * 9 + c] = 'o';
			(void)cg_explore_add(e, (unsigned char *)b, 71);
			b[r * 9 + c] = '.';
		}
		return;
	}
	for (; i < 32; i++) {
		r = i / 4;
		c = 2 * (i % 4) + (r % 2 == 0);
		b[r * 9 + c] = 'x';
		geese(e, b, i + 1, k - 1);
		b[r * 9 + c] = '.';
	}
}

int
main(int argc, char **argv)
{
	struct cg_plugin *rs;
	unsigned lo, hi, n, a, b, k;
	unsigned char s[64];

	cg_tool_init(argc, argv);
	if (argc < 3 || argc > 4 || (lo = (unsigned)atoi(argv[1])) < 1 ||
	    (hi = (unsigned)atoi(argv[2])) < lo || hi > 40) {
		fprintf(stderr, "usage: loopy-bench LO HI [GEESE] (1 <= LO <= "
		    "HI <= 40)\n");
		return 2;
	}
	rs = cg_plugin_get("backsliding", 2);
	printf("%3s %10s %11s %9s %9s %9s %11s %11s  classes\n", "N",
	    "positions", "moves", "explore", "retro", "total", "retro pos/s",
	    "total pos/s");
	for (n = lo; n <= hi; n++) {
		struct cg_explore *e = cg_explore_new(rs);
		uint64_t want = 0;
		char label[16];
		double t0;

		for (a = 0; a <= 3; a++)
			for (b = 0; b <= 3 && a + b <= n; b++)
				want += choose(n, a) * choose(n - a, b);
		t0 = cpu_now();
		for (a = 0; a <= 3; a++)
			for (b = 0; b <= 3 && a + b <= n; b++)
				place(e, s, n, 0, a, b);
		snprintf(label, sizeof label, "%u", n);
		run(label, e, want, t0);
		cg_explore_free(e);
	}
	if (argc > 3) {
		struct cg_explore *e;
		char board[72], label[16];
		double t0;

		k = (unsigned)atoi(argv[3]);
		if (k < 1 || k > 8)
			cg_die(2, "geese: 1 to 8");
		for (n = 0; n < 71; n++)
			board[n] = n % 9 == 8 ? '|' : '.';
		board[71] = '\0';
		e = cg_explore_new(cg_plugin_get("foxgeese", 2));
		printf("Fox and Geese, %u geese on the 8x8 board (label: geese)\n",
		    k);
		t0 = cpu_now();
		geese(e, board, 0, k);
		snprintf(label, sizeof label, "%u", k);
		run(label, e, choose(32, k) * (32 - k), t0);
		cg_explore_free(e);
	}
	cg_plugin_unload_all();
	return 0;
}
