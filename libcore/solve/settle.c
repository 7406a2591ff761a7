/* settle.c - sums settled without a search of their own: integer
 * components folded into one integer, sums of components whose
 * canonical forms are known added in the canonical store, and sums the
 * ruleset's move counts decide (normal partizan play); see settle.h. */
#include <stdlib.h>
#include <string.h>

#include "cgx/movecounts.h"
#include "cg/value.h"
#include "base/util.h"
#include "graph/graph.h"
#include "solve/canonical.h"
#include "solve/settle.h"
#include "values/canon.h"
#include "values/notation.h"

/* ------------------------------------------- integers (normal play) */

#define INT_MAXDEPTH 20000

int
sv_ilist_add(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct sv_ilist *l = ctx;
	size_t i;

	(void)move;
	if (l->n + k + 1 > l->cap) {
		l->cap = 2 * (l->n + k + 1);
		l->v = cg_xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = (uint32_t)k;
	for (i = 0; i < k; i++)
		l->v[l->n++] = ids[i];
	return 0;
}

/* Can both players move in c?  Sure moves promise an option
 * (cgx/movecounts.h) and are kept per vertex; else ask for a first one. */
static int
both_move(struct cg_solver *s, uint32_t c)
{
	struct cg_move_bounds b;

	if (s->counts && cg_graph_counts(s->graph, c, &b) && b.sure[0] > 0 &&
	    b.sure[1] > 0)
		return 1;
	return cg_graph_has_option(s->graph, c, CG_LEFT) &&
	    cg_graph_has_option(s->graph, c, CG_RIGHT);
}

struct sight {
	const char *text;
	size_t len;
	cg_game g;
};

static void
sight_parse(void *arg)
{
	struct sight *a = arg;
	char msg[256];
	size_t col;

	if (cg_canon_parse(a->text, a->len, &a->g, msg, sizeof msg, &col) < 0)
		a->g = CG_NO_GAME;
}

/* The value the ruleset of component c gives on sight (cg.value), or
 * CG_NO_GAME when it gives none or one the canonical store cannot hold
 * (numbers past 64 bits, ups or nimbers past its range, games too deep):
 * such a component is searched as any other, never an error. */
static cg_game
sight_value(struct cg_solver *s, uint32_t c)
{
	struct cg_plugin *rs = cg_graph_ruleset(s->graph, c);
	const struct cg_value_ext *x;
	const unsigned char *key;
	struct cg_buf text;
	struct sight a = { NULL, 0, CG_NO_GAME };
	char msg[256];
	size_t len;

	if (rs == NULL || (x = cg_rs_extension(rs, CG_EXT_VALUE)) == NULL ||
	    x->struct_size < sizeof *x || x->value == NULL)
		return CG_NO_GAME;
	key = cg_graph_key(s->graph, c, &len);
	cg_buf_init(&text);
	if (x->value(cg_rs_context(rs), key, len, &text) == CG_OK) {
		a.text = (const char *)text.data;
		a.len = text.len;
		if (cg_canon_catch(sight_parse, &a, msg, sizeof msg) < 0)
			a.g = CG_NO_GAME;
	}
	cg_buf_free(&text);
	return a.g;
}

/* Component c's canonical form when the graph has it, or when the
 * ruleset gives it on sight (psight: asked once per component, the answer
 * kept in the graph); else CG_NO_GAME.  A game literal so costs one
 * reading of its text, where expanding it would read the text of every
 * subgame on a path, the whole literal over again at each level. */
static cg_game
known_form(struct cg_solver *s, uint32_t c)
{
	cg_game f = cg_graph_canon(s->graph, c);

	if (f != CG_NO_GAME || !s->psight)
		return f;
	s->sighted = cg_xgrow_zero(s->sighted, &s->capsighted, c, 1);
	if (s->sighted[c])
		return CG_NO_GAME;
	s->sighted[c] = 1;
	if ((f = sight_value(s, c)) != CG_NO_GAME) {
		cg_graph_set_canon(s->graph, c, f);
		s->stats.sighted++;
	}
	return f;
}

/* Component c's value when it is an integer: a game where only Left (or
 * only Right) ever has moves equals the length of the longest sequence of
 * that player's moves (positive for Left).  INT_NOT otherwise.  Only used
 * by normal-play partizan searches, between enumerations. */
static int32_t
comp_int(struct cg_solver *s, uint32_t c, int depth)
{
	struct sv_ilist l[2];
	int32_t r = INT_NOT;
	int side;
	size_t p;
	cg_game f;

	if (c >= s->capival) {
		size_t old = s->capival, i;

		s->capival = c + 1 > 2 * old ? c + 1 : 2 * old;
		s->ival = cg_xreallocarray(s->ival, s->capival,
		    sizeof *s->ival);
		for (i = old; i < s->capival; i++)
			s->ival[i] = INT_UNKNOWN;
	}
	if (s->ival[c] != INT_UNKNOWN)
		return s->ival[c];
	if (s->psight && (f = known_form(s, c)) != CG_NO_GAME) {
		struct cg_dyadic num;
		int64_t up;
		uint64_t nim;

		r = INT_NOT;
		if (cg_canon_nus_parts(f, &num, &up, &nim) && num.exp == 0 &&
		    up == 0 && nim == 0 && num.num < INT32_MAX / 4 &&
		    num.num > -(INT32_MAX / 4))
			r = (int32_t)num.num;
		s->ival[c] = r;
		return r;
	}
	if (depth > INT_MAXDEPTH)
		return INT_NOT;
	/* both players can move: not an integer (the common case, settled
	 * by sure moves of both, or the first option of each side) */
	if (both_move(s, c)) {
		s->ival[c] = INT_NOT;
		return INT_NOT;
	}
	memset(l, 0, sizeof l);
	comp_options(s, c, CG_LEFT, sv_ilist_add, &l[0]);
	comp_options(s, c, CG_RIGHT, sv_ilist_add, &l[1]);
	if (l[0].n == 0 && l[1].n == 0) {
		r = 0;
	} else if (l[0].n == 0 || l[1].n == 0) {
		int64_t best = 0;

		side = l[0].n ? CG_LEFT : CG_RIGHT;
		r = 0;
		for (p = 0; p < l[side].n && r != INT_NOT;) {
			size_t k = l[side].v[p++], i;
			int64_t sum = 0;

			for (i = 0; i < k; i++, p++) {
				int32_t v = comp_int(s, l[side].v[p],
				    depth + 1);

				if (v == INT_NOT || (side == CG_LEFT ? v < 0 :
				    v > 0)) {
					r = INT_NOT;
					break;
				}
				sum += side == CG_LEFT ? v : -v;
			}
			if (sum > best)
				best = sum;
		}
		if (r != INT_NOT) {
			if (best + 1 > INT32_MAX / 4)
				r = INT_NOT;
			else
				r = (int32_t)(side == CG_LEFT ? best + 1 :
				    -(best + 1));
		}
	}
	free(l[0].v);
	free(l[1].v);
	s->ival[c] = r;
	return r;
}

/* Fold the integer components of comps[0..*n) into *k (normal partizan). */
void
sv_fold_ints(struct cg_solver *s, uint32_t *comps, size_t *n, int32_t *k)
{
	size_t i, m = 0;
	int64_t acc = *k;

	for (i = 0; i < *n; i++) {
		int32_t v = comp_int(s, comps[i], 0);

		if (v == INT_NOT || acc + v > INT32_MAX / 2 ||
		    acc + v < -(INT32_MAX / 2))
			comps[m++] = comps[i];
		else
			acc += v;
	}
	*n = m;
	*k = (int32_t)acc;
}

/* A component's canonical form is made for the search (sv_forms) once
 * it has been met in FORM_SEEN sums (most components the search meets
 * it meets only once, and a form costs a whole game tree), when
 * its most moves, both players', are at most FORM_MOST (rulesets with
 * move counts: a Domineering region of 16 squares or so) and it takes
 * at most FORM_WORK components evaluated; past that it is marked and
 * not tried again (the forms made on the way stay in the graph).  Tuned
 * on random sums of Domineering rectangles and random Domineering and
 * Clobber boards (bench/domineering-sums): smaller bounds settle too
 * few sums, larger ones make forms that cost more than the sums they
 * settle. */
#define FORM_SEEN 4
#define FORM_MOST 16
#define FORM_WORK 20000
#define NOFORM 255

/* The canonical form of component c for sv_forms, or CG_NO_GAME when it
 * is too large, or not yet met often enough (or the search was
 * stopped). */
static cg_game
comp_form(struct cg_solver *s, uint32_t c)
{
	struct cg_move_bounds b;
	struct cg_canon_eval ev;
	cg_game f;

	if ((f = known_form(s, c)) != CG_NO_GAME)
		return f;
	/* a value on sight the store cannot hold: nor can it make one */
	if (s->psight)
		return CG_NO_GAME;
	s->noform = cg_xgrow_zero(s->noform, &s->capnoform, c, 1);
	if (s->noform[c] == NOFORM)
		return CG_NO_GAME;
	/* a component met in a sum for the first times is more often
	 * than not never met again: its form would be wasted */
	if (s->noform[c] < FORM_SEEN) {
		s->noform[c]++;
		return CG_NO_GAME;
	}
	memset(&ev, 0, sizeof ev);
	ev.interrupt = s->interrupt;
	ev.limit = FORM_WORK;
	/* rulesets with move counts: a cheap first look at the size */
	if ((!s->counts || (cg_graph_counts(s->graph, c, &b) &&
	    b.most[0] + b.most[1] <= FORM_MOST)) &&
	    ((f = cg_canonical_vertex(s->graph, c, &ev)) != CG_NO_GAME ||
	    STOPPED(s)))
		return f;
	s->noform[c] = NOFORM;
	return CG_NO_GAME;
}

/* The outcome of sum comps[0..n) + k in normal play with side to move
 * from the canonical forms of its components, when each has one
 * (comp_form, or with make 0 only those made already): 1 the side to
 * move wins, 0 it loses, -1 not settled.  A sum of regions whose forms
 * are known costs additions, not a search: four Domineering 4x4 boards
 * apart take 14 positions so, where a search of the sum expands far
 * more. */
struct forms_sum {
	struct cg_solver *s;
	const uint32_t *comps;
	size_t n;
	int32_t k;
	int o;
};

static void
forms_add(void *arg)
{
	struct forms_sum *a = arg;
	cg_game g = cg_canon_integer(a->k), f;
	size_t i;

	a->o = 0;
	for (i = 0; i < a->n; i++) {
		if ((f = cg_graph_canon(a->s->graph, a->comps[i])) == CG_NO_GAME)
			return;
		g = cg_canon_add(g, f);
	}
	a->o = cg_canon_outcome(g);
}

int
sv_forms(struct cg_solver *s, const uint32_t *comps, size_t n, int32_t k,
    int side, int make)
{
	struct forms_sum a = { s, comps, n, k, 0 };
	char msg[256];
	size_t i;

	/* one component's form costs its whole game tree, more than the
	 * search of its outcome: forms pay where sums of them repeat (one
	 * alone settles its sum when the ruleset gives it on sight) */
	if ((n < 2 && !(n == 1 && s->psight)) || !s->own_graph ||
	    s->doc != NULL)
		return -1;
	for (i = 0; i < n; i++)
		if ((make && n >= 2 ? comp_form(s, comps[i]) :
		    known_form(s, comps[i])) == CG_NO_GAME)
			return -1;
	/* a sum the store cannot hold (ups or nimbers past its range, say,
	 * of two literals it holds) is searched */
	if (cg_canon_catch(forms_add, &a, msg, sizeof msg) < 0 || a.o == 0)
		return -1;
	s->stats.formed++;
	return a.o == 'N' || a.o == (side == CG_LEFT ? 'L' : 'R');
}

/* The outcome of sum comps[0..n) + k in normal play with side to move,
 * settled by the ruleset's move counts (cgx/movecounts.h) when one player
 * is sure of more moves than the other can make: 1 the side to move
 * wins, 0 it loses, -1 not settled.  *order (when given and the counts
 * are known) is a search-order key for the player who moved into this
 * sum: smaller when its prospects look better (more available and safe
 * moves than the side to move). */
int
sv_static(struct cg_solver *s, const uint32_t *comps, size_t n, int32_t k,
    int side, int64_t *order)
{
	uint64_t sure[2] = { 0, 0 }, safe[2] = { 0, 0 }, most[2] = { 0, 0 };
	uint64_t room[2] = { 0, 0 }, lead[2] = { 0, 0 }, rlead[2] = { 0, 0 },
	    rl;
	struct cg_move_bounds b;
	size_t i;
	int x = side, y = !side, j;
	int64_t ev;

	for (i = 0; i < n; i++) {
		if (!cg_graph_counts(s->graph, comps[i], &b))
			return -1;
		for (j = 0; j < 2; j++) {
			sure[j] += b.sure[j];
			safe[j] += b.safe[j];
			most[j] += b.most[j];
			/* moving first, one component's gain */
			if (b.first[j] - b.sure[j] > lead[j])
				lead[j] = b.first[j] - b.sure[j];
			rl = cg_bounds_room_lead(&b, j);
			rlead[j] = rl > rlead[j] ? rl : rlead[j];
			/* no claim in one component: none for the sum */
			room[j] = b.room[j] == CG_GRAPH_ROOM_NONE ||
			    room[j] == UINT64_MAX ? UINT64_MAX :
			    room[j] + b.room[j];
		}
	}
	if (k != 0) {   /* an integer: |k| moves for one player, untouchable */
		int who = k > 0 ? CG_LEFT : CG_RIGHT;
		uint64_t m = k > 0 ? (uint64_t)k : (uint64_t)-(int64_t)k;

		sure[who] += m;
		safe[who] += m;
		most[who] += m;
		/* its owner's reserve there, or the opponent's moves there */
		for (j = 0; j < 2; j++)
			if (room[j] != UINT64_MAX)
				room[j] += m;
	}
	if (order != NULL) {
		/* the mover y: its lead in available moves, safe ones twice */
		ev = (int64_t)(most[y] + 2 * safe[y]) -
		    (int64_t)(most[x] + 2 * safe[x]);
		*order = ((int64_t)1 << 20) - ev;
	}
	return counts_verdict(sure, most, room, lead, rlead, x);
}

