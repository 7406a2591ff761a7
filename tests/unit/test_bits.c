/* test_bits.c - the bit search (solve/bits.c), through cg_solver with
 * search bits on Domineering (the plugin's cg.bit-search, from the
 * build's plugin directory): published outcomes of boards from
 * tests/vectors/canon.tsv (read from the source tree: run from the top
 * directory); a plain minimax written here on random boards of up to 20
 * cells; the depth-first and proof-number searches on larger random
 * boards; one and two threads; a table kept small; a checkpoint written
 * and read back; an interrupt; and the queries that go elsewhere.  Every
 * board comes from a fixed seed, so a failure is repeatable.  Each query
 * runs in a solver of its own, whose bit-search peak shows that the bit
 * search answered it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solve/outcome.h"
#include "solve/session.h"
#include "tap.h"

static struct cg_plugin *dom;

struct how {
	const char *search;     /* by name, as --search takes it */
	unsigned jobs;
	size_t budget;
	const char *ckpt;
	volatile sig_atomic_t *stop;
};

/* Under the sanitizers (CG_SANITIZED, set by make check-asan and make
 * check-valgrind) fewer boards: of the published ones none of over 49
 * cells (so none whose search fills the least table), one seed of each
 * kind of random board, and one board in eight with two threads (each
 * starts two threads of 256 MB stacks, which valgrind makes slow); the
 * plain build runs them all. */
static int light;

static int ran;                 /* the last query's bit search ran */
static uint64_t expanded;       /* and the positions it expanded */

/* The outcome of a board in a fresh solver ('?' for a bad board). */
static int
outcome(const char *text, const struct how *h, int misere)
{
	struct cg_solver *s = cg_solver_new(dom);
	struct cg_session_options so;   /* .search: a parsed --search */
	struct cg_buf pos;
	uint32_t *ids;
	size_t n;
	int o = '?';

	if (cg_search_parse(h->search, &so.search) < 0)
		abort();
	cg_solver_set_search(s, so.search);
	cg_solver_set_jobs(s, h->jobs);
	cg_solver_set_budget(s, h->budget);
	cg_solver_set_checkpoint(s, h->ckpt);
	cg_solver_set_interrupt(s, h->stop);
	cg_buf_init(&pos);
	ran = 0;
	if (cg_rs_parse(dom, text, strlen(text), &pos) >= 0) {
		n = cg_solver_components(s, pos.data, pos.len, &ids);
		o = cg_solver_outcome(s, ids, n, misere);
		/* no component: nothing for the bit search, P by the rules */
		ran = cg_solver_bits_peak(s) > 0 || n == 0;
		expanded = cg_solver_stats(s)->expanded;
		free(ids);
	}
	cg_buf_free(&pos);
	cg_solver_free(s);
	return o;
}

static const struct how bits1 = { "bits", 1, 0, NULL, NULL };
static const struct how bits2 = { "bits", 2, 0, NULL, NULL };

/* ------------------------------------------------- published outcomes */

/* The outcome rows of Domineering with a published source in canon.tsv
 * and canon-slow.tsv (CGSuite's outcomes of random boards in the MCGS
 * tests; Uiterwijk's theorems on rectangles; Breuker, Uiterwijk and van
 * den Herik's 8x8), boards of up to 64 cells; those of up to 8 rows
 * and 7 columns or 7 rows and 8 columns also with two threads, and with
 * the least table (4096 buckets of four), which the larger searches
 * fill, so that entries are replaced. */
static void
published(const char *file, int *rows, int *bad, int *bad2, int *badsmall,
    int *notran, uint64_t *most)
{
	FILE *f = fopen(file, "r");
	char line[4096], *fld[5], *p;
	int k, o;
	size_t cols, rws;
	struct how small = bits1;

	if (f == NULL) {
		ok(0, "open %s (run from the top directory)", file);
		return;
	}
	small.budget = 1;
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		for (k = 0, p = line; k < 5; k++) {
			fld[k] = p ? p : "";
			if (p != NULL && (p = strchr(p, '\t')) != NULL)
				*p++ = '\0';
		}
		cols = strcspn(fld[1], "|");
		rws = (strlen(fld[1]) + 1) / (cols + 1);
		if (strcmp(fld[0], "domineering") != 0 ||
		    strcmp(fld[2], "outcome") != 0 ||
		    strncmp(fld[4], "independent", 11) == 0 ||
		    rws * cols > (light ? 49u : 64u))
			continue;
		(*rows)++;
		if ((o = outcome(fld[1], &bits1, 0)) != fld[3][0]) {
			printf("# %s: got %c, want %s\n", fld[1], o, fld[3]);
			(*bad)++;
		}
		*notran += !ran;
		/* 8x8 and 6x9 (9x6) once only: they take longest, and
		 * several times longer with the least table */
		if (cols > 8 || rws > 8 || rws * cols > 56)
			continue;
		if (!light || *rows % 8 == 0) {
			*bad2 += outcome(fld[1], &bits2, 0) != fld[3][0];
			*notran += !ran;
		}
		*badsmall += outcome(fld[1], &small, 0) != fld[3][0];
		*notran += !ran;
		if (expanded > *most)
			*most = expanded;
	}
	fclose(f);
}

static void
test_published(void)
{
	int rows = 0, bad = 0, bad2 = 0, badsmall = 0, notran = 0;
	uint64_t most = 0;

	published("tests/vectors/canon.tsv", &rows, &bad, &bad2, &badsmall,
	    &notran, &most);
	published("tests/vectors/canon-slow.tsv", &rows, &bad, &bad2,
	    &badsmall, &notran, &most);
	ok(rows >= (light ? 90 : 100) && bad == 0, "%d published outcomes, "
	    "%d wrong", rows, bad);
	is_int(bad2, 0, "those of up to 8x7 and 7x8 with two threads");
	ok(badsmall == 0 && (light || most > 4 * 4096), "the same with the "
	    "least table (the largest search: %llu positions)",
	    (unsigned long long)most);
	is_int(notran, 0, "the bit search answered every one");

	/* from the published values (canon.tsv): ".|." is 1 (Winning
	 * Ways), Left wins; "...|..." is {2|-1/2}: Left moving first goes
	 * to 2 and wins, Right to -1/2 and wins, N; the 4x4 board is
	 * +-{0, ...} (CGSuite): the first player moves to 0 and wins, N */
	ok(outcome(".|.", &bits1, 0) == 'L' && ran, ".|. is L");
	/* by hand: in "..|.." Left's domino leaves a column of two, where
	 * Right cannot move; Right's a row of two, where Left cannot: N */
	ok(outcome("..|..", &bits1, 0) == 'N' && ran, "..|.. is N");
	ok(outcome("...|...", &bits1, 0) == 'N' && ran, "...|... is N");
	ok(outcome("....|....|....|....", &bits1, 0) == 'N' && ran,
	    "the 4x4 board is N");
}

/* ----------------------------------------- a plain minimax, to 20 cells */

static int R, C;
static unsigned char memo[2][1 << 20];   /* 0 unknown, 1 loses, 2 wins */

/* Does side (0 Left: vertical dominoes) to move win with cells filled? */
static int
mm_wins(int side, uint32_t filled)
{
	unsigned char *m = &memo[side][filled];
	int r, c, w = 0;

	if (*m)
		return *m - 1;
	for (r = 0; r < R && !w; r++)
		for (c = 0; c < C && !w; c++) {
			int a = r * C + c, b = side ? a + 1 : a + C;

			if ((side ? c + 1 >= C : r + 1 >= R) ||
			    (filled >> a & 1) || (filled >> b & 1))
				continue;
			w = !mm_wins(!side, filled | 1u << a | 1u << b);
		}
	*m = (unsigned char)(w + 1);
	return w;
}

static uint64_t rng;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng >> 33) % n;
}

/* A random r x c board (at most 8 x 8) with about pct% filled cells:
 * its text, and its filled cells as bits.  sym: the filled cells
 * symmetric about the diagonal (r = c), so that a position and its
 * image with the players exchanged meet in one search. */
static uint32_t
random_board(int r, int c, unsigned pct, int sym, char *text)
{
	char cell[8][8];
	uint32_t filled = 0;
	int i, j;

	for (i = 0; i < r; i++) {
		for (j = 0; j < c; j++) {
			cell[i][j] = sym && j < i ? cell[j][i] :
			    rnd(100) < pct ? '#' : '.';
			*text++ = cell[i][j];
			if (cell[i][j] == '#' && r * c <= 32)
				filled |= 1u << (i * c + j);
		}
		*text++ = i + 1 < r ? '|' : '\0';
	}
	return filled;
}

static void
test_minimax(unsigned seed)
{
	char text[64];
	int t, bad = 0, badj = 0, notran = 0;

	rng = seed;
	for (t = 0; t < 40; t++) {
		uint32_t filled;
		int want;

		do {
			R = 2 + (int)rnd(4);
			C = t % 3 ? 2 + (int)rnd(4) : R;
		} while (R * C > 20);
		filled = random_board(R, C, rnd(4) * 10, t % 3 == 0, text);
		memset(memo, 0, sizeof memo);
		want = cg_outcome_class(mm_wins(0, filled), mm_wins(1, filled));
		if (outcome(text, &bits1, 0) != want) {
			printf("# %s: want %c\n", text, want);
			bad++;
		}
		notran += !ran;
		if (!light || t % 8 == 0) {
			badj += outcome(text, &bits2, 0) != want;
			notran += !ran;
		}
	}
	ok(bad == 0 && badj == 0 && notran == 0, "seed %u: 40 random boards "
	    "of up to 20 cells (a third square and symmetric) agree with "
	    "minimax, one and two threads", seed);
}

/* ------------------------------------ larger boards: dfs and pns agree */

static void
test_engines(unsigned seed)
{
	static const struct how dfs = { "dfs", 1, 0, NULL, NULL },
	    pns = { "pns", 1, 0, NULL, NULL };
	char text[128];
	int t, bad = 0, notran = 0, o;

	rng = seed;
	for (t = 0; t < 12; t++) {
		R = 5 + (int)rnd(2);
		C = t % 2 ? 5 + (int)rnd(2) : R;
		random_board(R, C, 10 + rnd(3) * 10, t % 2 == 0, text);
		o = outcome(text, &bits1, 0);
		notran += !ran;
		if (o != outcome(text, &dfs, 0) || o != outcome(text, &pns, 0)) {
			printf("# %s: bits %c\n", text, o);
			bad++;
		}
	}
	ok(bad == 0 && notran == 0, "seed %u: 12 random boards of 25 to 36 "
	    "cells (half square and symmetric), bits agrees with dfs and pns",
	    seed);
}

/* ------------------------------------------- checkpoint, interrupt, rest */

/* The empty board of 6 rows and 7 columns: Vertical (Left) moving first
 * wins 2k x 7 boards; Vertical moving first loses 7 x 2k boards for
 * k > 1, so on their transposes Horizontal (Right) moving first loses
 * (Uiterwijk, Perfectly Solving Domineering Boards, CGW 2013, as
 * tests/vectors/README.md states them): L.  Its search takes more than
 * 2^10 positions, so its results go to a checkpoint. */
#define SIXBYSEVEN ".......|.......|.......|.......|.......|......."

static void
test_checkpoint(void)
{
	char path[] = "/tmp/test_bits.XXXXXX";
	struct how h = bits1;
	uint64_t first;
	int fd = mkstemp(path), o;

	close(fd);
	unlink(path);           /* a checkpoint the search makes */
	h.ckpt = path;
	o = outcome(SIXBYSEVEN, &h, 0);
	first = expanded;
	ok(o == 'L' && ran && first > 1024, "6x7 board with a checkpoint: L "
	    "(%llu positions)", (unsigned long long)first);
	ok(access(path, R_OK) == 0, "the checkpoint was written");
	o = outcome(SIXBYSEVEN, &h, 0);
	ok(o == 'L' && expanded < first,
	    "again from it: L, %llu positions where there were %llu",
	    (unsigned long long)expanded, (unsigned long long)first);
	unlink(path);
}

static void
test_interrupt(void)
{
	static volatile sig_atomic_t stop = 1;
	struct how h = bits1;

	h.stop = &stop;
	is_int(outcome(SIXBYSEVEN, &h, 0), CG_SOLVE_INTERRUPTED,
	    "an interrupt set stops the bit search");
}

static void
test_elsewhere(void)
{
	static const struct how autos = { "auto", 1, 0, NULL, NULL };
	char wide[1024];

	/* misere play is not the bit search's: ".|." misere, Left moving
	 * first must play and leave Right, unable to move, the winner;
	 * Right moving first cannot move and wins: R */
	ok(outcome(".|.", &bits1, 1) == 'R' && !ran,
	    "misere .|. is R, without the bit search");
	/* two rows of 255 cells apart, 510 cells: past a state's 256 bits.
	 * Left has no vertical domino, Right does: R */
	memset(wide, '.', 255);
	wide[255] = '|';
	memset(wide + 256, '#', 255);
	wide[511] = '|';
	memset(wide + 512, '.', 255);
	wide[767] = '\0';
	ok(outcome(wide, &bits1, 0) == 'R' && !ran,
	    "two rows of 255 cells: R, without the bit search");
	/* auto: the bit search for boards of three rows and columns or
	 * more only (CG_BIT_PREFER) */
	ok(outcome("...|...", &autos, 0) == 'N' && !ran,
	    "auto leaves the 2x3 board to the other searches");
	ok(outcome("....|....|....|....", &autos, 0) == 'N' && ran,
	    "auto takes the 4x4 board to the bit search");
}

int
main(void)
{
	unsigned seed;

	light = getenv("CG_SANITIZED") != NULL;
	dom = cg_plugin_get("domineering", 1);
	test_published();
	for (seed = 1; seed <= (light ? 1u : 3u); seed++)
		test_minimax(seed);
	for (seed = 11; seed <= (light ? 11u : 12u); seed++)
		test_engines(seed);
	test_checkpoint();
	test_interrupt();
	test_elsewhere();
	cg_plugin_unload_all();
	return tap_done();
}
