/* test_engines.c - the engines agree with each other and with a plain
 * minimax written here, on random game trees: outcomes (normal and
 * misere play) of sums of up to three components by every search the
 * solver has for documents (depth-first, PNS, df-pn, PN^2), the
 * canonical form's outcome through the position graph (solve/canonical),
 * and nim values of impartial trees.  The trees are made from fixed
 * seeds, so a failure is repeatable.  And the choice among the engines
 * of the table (solve/engine.h) for each kind of query. */
#include <stdlib.h>
#include <string.h>

#include "format/doc.h"
#include "graph/graph.h"
#include "solve/canonical.h"
#include "solve/engine.h"
#include "solve/outcome.h"
#include "values/canon.h"
#include "tap.h"

#define NODES 24
#define MAXOPT 3
#define SUMS 40

static struct cg_doc *d;
static uint32_t id[NODES];
static int nopt[NODES][2], opt[NODES][2][MAXOPT];
static uint64_t rng;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng >> 33) % n;
}

/* A random DAG: node i's options are nodes below i (so it is short);
 * impartial: both sides the same. */
static void
make_tree(int impartial)
{
	int i, s, k;
	char label[16];

	d = cg_doc_new();
	for (i = 0; i < NODES; i++) {
		snprintf(label, sizeof label, "g%d", i);
		id[i] = cg_doc_add_node(d, NULL, NULL, 0, label);
		d->node[id[i]].expanded = 1;
		for (s = 0; s < 2; s++) {
			if (impartial && s == 1) {
				nopt[i][1] = nopt[i][0];
				memcpy(opt[i][1], opt[i][0], sizeof opt[i][0]);
			} else {
				nopt[i][s] = i == 0 ? 0 : (int)rnd(MAXOPT + 1);
				for (k = 0; k < nopt[i][s]; k++)
					opt[i][s][k] = (int)rnd((unsigned)i);
			}
			for (k = 0; k < nopt[i][s]; k++)
				cg_doc_add_option(d, id[i], (enum cg_side)s,
				    id[opt[i][s][k]], NULL);
		}
	}
}

/* ------------------------------------------------- the plain minimax */

/* memo[misere][side][a][b][c]: 0 unknown, 1 loses, 2 wins (side to move);
 * NODES stands for an absent component. */
static unsigned char memo[2][2][NODES + 1][NODES + 1][NODES + 1];

static int
wins(int misere, int side, int a, int b, int c)
{
	int t[3] = { a, b, c }, j, k, w = 0, moved = 0;
	unsigned char *m = &memo[misere][side][a][b][c];

	if (*m)
		return *m - 1;
	for (j = 0; j < 3 && !w; j++) {
		if (t[j] == NODES)
			continue;
		for (k = 0; k < nopt[t[j]][side] && !w; k++) {
			int u[3] = { a, b, c };

			u[j] = opt[t[j]][side][k];
			moved = 1;
			w = !wins(misere, !side, u[0], u[1], u[2]);
		}
	}
	if (!moved)
		w = misere;     /* no move: lose, or win in misere play */
	*m = (unsigned char)(w + 1);
	return w;
}

static int
oracle(int misere, int a, int b, int c)
{
	int lw = wins(misere, 0, a, b, c), rw = wins(misere, 1, a, b, c);

	return lw && rw ? 'N' : lw ? 'L' : rw ? 'R' : 'P';
}

/* nim value by mex, of one node (impartial trees) */
static int nim_memo[NODES];

static int
nimber(int i)
{
	int seen[MAXOPT + 2] = { 0 }, k, v;

	if (nim_memo[i])
		return nim_memo[i] - 1;
	for (k = 0; k < nopt[i][0]; k++)
		if ((v = nimber(opt[i][0][k])) <= MAXOPT)
			seen[v] = 1;
	for (v = 0; seen[v]; v++)
		;
	nim_memo[i] = v + 1;
	return v;
}

/* --------------------------------------------------------- the checks */

static uint32_t
solver_id(struct cg_solver *s, int node)
{
	uint32_t *one, x;

	cg_solver_node(s, id[node], &one);
	x = one[0];
	free(one);
	return x;
}

/* The canonical form of the sum, through the position graph. */
static int
canonical_outcome(const int *t, int n)
{
	struct cg_graph *g = cg_graph_new();
	struct cg_canon_eval ev;
	struct cg_sum sum, one;
	cg_game x;
	int i;

	memset(&ev, 0, sizeof ev);
	cg_graph_use_doc(g, d);
	cg_sum_init(&sum);
	cg_sum_init(&one);
	for (i = 0; i < n; i++) {
		size_t k;

		one.n = 0;
		cg_graph_node(g, id[t[i]], &one);
		for (k = 0; k < one.n; k++)
			cg_sum_add(&sum, one.v[k]);
	}
	x = cg_canonical_sum(g, sum.v, sum.n, &ev);
	cg_sum_free(&sum);
	cg_sum_free(&one);
	cg_graph_free(g);
	return x == CG_NO_GAME ? '?' : cg_canon_outcome(x);
}

/* every engine of the table that searches documents, by its --search
 * name; dfs first */
static const char *const searches[] = { "dfs", "pns", "dfpn", "pn2" };
#define NSEARCH (sizeof searches / sizeof *searches)

static void
trial(int impartial, unsigned seed)
{
	struct cg_solver *s[NSEARCH];
	int sums[SUMS][3], n[SUMS], i, j, misere, bad[NSEARCH + 1] = { 0 };
	int checked = 0, nimbad = 0;
	size_t e;

	rng = seed;
	memset(memo, 0, sizeof memo);
	memset(nim_memo, 0, sizeof nim_memo);
	make_tree(impartial);
	for (i = 0; i < SUMS; i++) {
		n[i] = 1 + (int)rnd(3);
		for (j = 0; j < 3; j++)
			sums[i][j] = j < n[i] ? (int)rnd(NODES) : NODES;
	}
	for (e = 0; e < NSEARCH; e++) {
		const struct cg_engine *how;

		ok(cg_search_parse(searches[e], &how) == 0 && how != NULL &&
		    strcmp(cg_search_name(how), searches[e]) == 0,
		    "engine %s in the table", searches[e]);
		s[e] = cg_solver_new_doc(d);
		cg_solver_set_search(s[e], how);
	}
	for (i = 0; i < SUMS; i++) {
		int want_n = oracle(0, sums[i][0], sums[i][1], sums[i][2]);

		for (misere = 0; misere < 2; misere++) {
			int want = oracle(misere, sums[i][0], sums[i][1],
			    sums[i][2]);

			for (e = 0; e < NSEARCH; e++) {
				uint32_t ids[3];

				/* misere play: the engines that have it */
				if (misere && e != 0 &&
				    !impartial)
					continue;
				for (j = 0; j < n[i]; j++)
					ids[j] = solver_id(s[e], sums[i][j]);
				if (cg_solver_outcome(s[e], ids, (size_t)n[i],
				    misere) != want)
					bad[e]++;
				checked++;
			}
		}
		if (canonical_outcome(sums[i], n[i]) != want_n)
			bad[NSEARCH]++;
		if (impartial) {
			uint32_t ids[3];
			int x = 0;

			for (j = 0; j < n[i]; j++) {
				ids[j] = solver_id(s[0], sums[i][j]);
				x ^= nimber(sums[i][j]);
			}
			if (cg_solver_nimber(s[0], ids, (size_t)n[i]) != x)
				nimbad++;
		}
	}
	for (e = 0; e < NSEARCH; e++) {
		ok(bad[e] == 0, "%s trees, seed %u: %s agrees with minimax "
		    "on %d sums, normal and misere", impartial ? "impartial" :
		    "partizan", seed, searches[e], SUMS);
		cg_solver_free(s[e]);
	}
	ok(bad[NSEARCH] == 0, "%s trees, seed %u: canonical forms' outcomes "
	    "agree with minimax", impartial ? "impartial" : "partizan", seed);
	if (impartial)
		ok(nimbad == 0, "impartial trees, seed %u: nim values agree "
		    "with mex and XOR", seed);
	ok(checked > 0, "seed %u: something was checked", seed);
	cg_doc_free(d);
}

/* The engine each query goes to, as cg-outcome(1) describes auto: df-pn
 * for impartial normal play (outcomes and nim values), depth-first for
 * misere play and partizan games (the bit search declines documents);
 * an engine asked for answers the queries it has, auto the rest. */
static void
choices(void)
{
	struct cg_solver *s;
	const struct cg_engine *pick;

	make_tree(1);
	s = cg_solver_new_doc(d);
	ok(cg_engine_for(s, 0, 0) == &cg_engine_dfpn &&
	    cg_engine_for(s, 1, 0) == &cg_engine_dfpn,
	    "auto: df-pn for impartial outcomes and nim values");
	ok(cg_engine_for(s, 0, 1) == &cg_engine_dfs,
	    "auto: depth-first for misere outcomes");
	cg_search_parse("bits", &pick);
	cg_solver_set_search(s, pick);
	ok(cg_engine_for(s, 0, 1) == &cg_engine_dfs &&
	    cg_engine_for(s, 1, 0) == &cg_engine_dfpn,
	    "bits asked: misere outcomes and nim values go to auto's engine");
	ok(cg_engine_auto(s, 0, 0, &cg_engine_dfpn) == &cg_engine_dfs,
	    "a declined query goes to the next of auto's engines");
	cg_search_parse("pn2", &pick);
	cg_solver_set_search(s, pick);
	ok(cg_engine_for(s, 0, 1) == &cg_engine_pn2 &&
	    cg_engine_for(s, 1, 0) == &cg_engine_pn2,
	    "pn2 asked: it answers misere outcomes and nim values");
	cg_solver_free(s);
	cg_doc_free(d);
	make_tree(0);
	s = cg_solver_new_doc(d);
	ok(cg_engine_for(s, 0, 0) == &cg_engine_bits,
	    "auto: the bit search is asked first in partizan normal play");
	{
		uint32_t ids[1] = { solver_id(s, 5) };

		ok(cg_engine_bits.outcome(&cg_engine_bits, s, ids, 1, 0) ==
		    CG_ENGINE_DECLINED,
		    "the bit search declines a document's sum");
	}
	cg_solver_free(s);
	cg_doc_free(d);
}

int
main(void)
{
	const struct cg_engine *e;
	unsigned seed;

	/* the names cg-outcome(1) documents for --search */
	ok(cg_search_parse("auto", &e) == 0 && e == NULL &&
	    strcmp(cg_search_name(e), "auto") == 0, "auto is no engine");
	ok(cg_search_parse("bits", &e) == 0 && e != NULL &&
	    strcmp(cg_search_name(e), "bits") == 0, "bits in the table");
	ok(cg_search_parse("bfs", &e) < 0, "an unknown name is refused");
	choices();

	for (seed = 1; seed <= 4; seed++) {
		trial(0, seed);
		trial(1, seed + 100);
	}
	return tap_done();
}
