/* test_outcome.c - the search engines on game trees built in memory
 * (document mode, no plugin).  Every expected value is derived by hand in
 * the comment next to it. */
#include <stdlib.h>
#include <string.h>

#include "format/doc.h"
#include "solve/outcome.h"
#include "tap.h"

static struct cg_doc *d;

static uint32_t
node(const char *label)
{
	uint32_t x = cg_doc_add_node(d, NULL, NULL, 0, label);

	d->node[x].expanded = 1;
	return x;
}

static void
opt(uint32_t parent, int side, uint32_t child)
{
	cg_doc_add_option(d, parent, (enum cg_side)side, child, NULL);
}

/* *n: options *0..*(n-1) for both players. */
static uint32_t star[6];

static void
make_stars(void)
{
	int n, k;
	char label[8];

	for (n = 0; n < 6; n++) {
		snprintf(label, sizeof label, "*%d", n);
		star[n] = node(label);
		for (k = 0; k < n; k++) {
			opt(star[n], CG_LEFT, star[k]);
			opt(star[n], CG_RIGHT, star[k]);
		}
	}
}

static uint32_t *
ids_of(struct cg_solver *s, const uint32_t *nodes, size_t n)
{
	uint32_t *ids = calloc(n + 1, sizeof *ids), *one;
	size_t i;

	for (i = 0; i < n; i++) {
		cg_solver_node(s, nodes[i], &one);
		ids[i] = one[0];
		free(one);
	}
	return ids;
}

int
main(void)
{
	struct cg_solver *s;
	uint32_t *ids, nodes[4];
	struct cg_buf b;

	/* ---------------------------------------------- impartial: nim */
	d = cg_doc_new();
	make_stars();
	s = cg_solver_new_doc(d);
	ok(cg_solver_impartial(s), "nim heaps are impartial");

	/* Bouton: *1 + *2 + *3 has nim sum 0 (P), *2 + *3 has 1 (N) */
	nodes[0] = star[1], nodes[1] = star[2], nodes[2] = star[3];
	ids = ids_of(s, nodes, 3);
	is_int(cg_solver_outcome(s, ids, 3, 0), 'P', "*1+*2+*3 is P");
	is_int(cg_solver_nimber(s, ids, 3), 0, "*1+*2+*3 has nimber 0");
	is_int(cg_solver_nimber(s, ids + 1, 2), 1, "*2+*3 has nimber 1");
	is_int(cg_solver_outcome(s, ids + 1, 2, 0), 'N', "*2+*3 is N");
	free(ids);
	nodes[0] = star[5];
	ids = ids_of(s, nodes, 1);
	is_int(cg_solver_nimber(s, ids, 1), 5, "*5 has nimber 5");
	free(ids);

	/* misere nim: *1 is P (the mover must take the last counter);
	 * *1+*1 is N; *2+*2 is P (mirror play, then the parity endgame);
	 * the empty game is N (the mover cannot move, and wins). */
	nodes[0] = star[1], nodes[1] = star[1];
	ids = ids_of(s, nodes, 2);
	is_int(cg_solver_outcome(s, ids, 1, 1), 'P', "misere *1 is P");
	is_int(cg_solver_outcome(s, ids, 2, 1), 'N', "misere *1+*1 is N");
	is_int(cg_solver_outcome(s, ids, 0, 1), 'N', "misere 0 is N");
	/* misere nim values: G-(0) = 1, G-(*1) = mex{1} = 0,
	 * G-(*1+*1) = mex{G-(*1)} = 1 */
	is_int(cg_solver_misere_nimber(s, ids, 0), 1, "misere value of 0");
	is_int(cg_solver_misere_nimber(s, ids, 1), 0, "misere value of *1");
	is_int(cg_solver_misere_nimber(s, ids, 2), 1, "misere value of *1+*1");
	free(ids);
	nodes[0] = star[2], nodes[1] = star[2];
	ids = ids_of(s, nodes, 2);
	is_int(cg_solver_outcome(s, ids, 2, 1), 'P', "misere *2+*2 is P");
	/* genus of *2+*2: normal value 0, misere values of 2+2, 2+2+2,
	 * 2+2+2+2, ... are 0, 2, 0, ...: tame, printed 0^0 */
	cg_buf_init(&b);
	cg_solver_genus(s, ids, 2, &b);
	is_str(cg_buf_str(&b), "0^0", "genus of *2+*2");
	b.len = 0;
	cg_solver_genus(s, ids, 1, &b);
	is_str(cg_buf_str(&b), "2", "genus of *2 (a nim heap)");
	cg_buf_free(&b);
	free(ids);
	cg_solver_free(s);
	cg_doc_free(d);

	/* ------------------------------------------------- partizan */
	d = cg_doc_new();
	{
		uint32_t zero = node("0"), one = node("1"), mone = node("-1");
		uint32_t st = node("*"), up = node("^");

		opt(one, CG_LEFT, zero);       /* 1 = {0|} */
		opt(mone, CG_RIGHT, zero);     /* -1 = {|0} */
		opt(st, CG_LEFT, zero);        /* * = {0|0} */
		opt(st, CG_RIGHT, zero);
		opt(up, CG_LEFT, zero);        /* ^ = {0|*} */
		opt(up, CG_RIGHT, st);
		s = cg_solver_new_doc(d);
		ok(!cg_solver_impartial(s), "1 and -1 make a partizan tree");
		nodes[0] = one, nodes[1] = mone, nodes[2] = st, nodes[3] = up;
		ids = ids_of(s, nodes, 4);
		/* 1 > 0: L.  -1: R.  1 + -1 = 0: P.  *: N.  ^ > 0: L (Left
		 * moves to 0; Right first moves to *, Left then to 0). */
		is_int(cg_solver_outcome(s, ids, 1, 0), 'L', "1 is L");
		is_int(cg_solver_outcome(s, ids + 1, 1, 0), 'R', "-1 is R");
		is_int(cg_solver_outcome(s, ids, 2, 0), 'P', "1 + -1 is P");
		is_int(cg_solver_outcome(s, ids + 2, 1, 0), 'N', "* is N");
		is_int(cg_solver_outcome(s, ids + 3, 1, 0), 'L', "^ is L");
		/* misere 1 = {0|}: Left first must move to 0 where Right,
		 * unable to move, wins; Right first cannot move and wins: R.
		 * misere *: the mover moves to 0 and the other wins: P. */
		is_int(cg_solver_outcome(s, ids, 1, 1), 'R', "misere 1 is R");
		is_int(cg_solver_outcome(s, ids + 2, 1, 1), 'P', "misere * is P");
		/* * + *: normal P (mirror); misere: the mover moves to *,
		 * the other to 0 and the mover, unable to move, wins: N */
		{
			uint32_t two[2] = { ids[2], ids[2] };

			is_int(cg_solver_outcome(s, two, 2, 0), 'P', "*+* is P");
			is_int(cg_solver_outcome(s, two, 2, 1), 'N',
			    "misere *+* is N");
		}
		free(ids);
		cg_solver_free(s);
	}
	cg_doc_free(d);
	return tap_done();
}
