/* lgame_canon.c - simplest forms of stoppers and their printing
 * (lgame.h).
 *
 * A stopper is a loopy game with no infinite alternating play.  Its
 * simplest form (Siegel, Combinatorial Game Theory, AMS 2013, ch. VI;
 * Winning Ways, vol. 2, ch. 11) comes from the three steps of short
 * games, done on the graph with the order of every pair of its nodes at
 * hand: delete dominated options, bypass reversible ones (G^L is
 * reversible when some G^LR <= G: G^L is replaced by the Left options of
 * G^LR), and fuse nodes of equal value into one.  None of the steps
 * changes the value of any node, so one order matrix serves a whole
 * round; rounds go on until one changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/lgame.h"
#include "solve/lgame_int.h"
#include "values/notation.h"

/* Rounds of simplification, and bypasses in one round, before giving up
 * (each round of a finite stopper shrinks or stops; the bound only keeps
 * a mistake from hanging the program). */
#define ROUNDS 10000
#define BYPASSES 1000000
/* Stoppers of more nodes are simplified part by part (lgame_big.c). */
#define BY_PARTS 256

static void
drop(struct cg_lnode *v, int s, uint32_t k)
{
	memmove(v->opt[s] + k, v->opt[s] + k + 1,
	    (v->nopt[s] - k - 1) * sizeof *v->opt[s]);
	v->nopt[s]--;
}

static int
ge(const struct lg_order *o, uint32_t a, uint32_t b)
{
	return o->ge[(size_t)o->pos[a] * o->n + o->pos[b]];
}

/* Bypass one reversible option of v for side s; 1 if one was. */
int
lg_bypass(struct cg_lgame *w, uint32_t v, int s, const struct lg_order *o)
{
	uint32_t i, j, k, a, b;

	for (i = 0; i < w->v[v].nopt[s]; i++) {
		a = w->v[v].opt[s][i];
		for (j = 0; j < w->v[a].nopt[!s]; j++) {
			b = w->v[a].opt[!s][j];
			/* Left's a reverses through b <= v, Right's through
			 * b >= v */
			if (!(s == CG_LEFT ? ge(o, v, b) : ge(o, b, v)))
				continue;
			/* not through a cycle back to a (the sides' rule) */
			if (o->comp != NULL && o->comp[2 * b + s] ==
			    o->comp[2 * a + !s])
				continue;
			drop(&w->v[v], s, i);
			for (k = 0; k < w->v[b].nopt[s]; k++)
				cg_lgame_edge(w, v, s, w->v[b].opt[s][k]);
			return 1;
		}
	}
	return 0;
}

/* Delete dominated options of v for side s; 1 if any was. */
int
lg_undominate(struct cg_lgame *w, uint32_t v, int s, const struct lg_order *o)
{
	uint32_t i, j, a, c;
	int changed = 0;

	for (i = 0; i < w->v[v].nopt[s]; i++) {
		a = w->v[v].opt[s][i];
		for (j = 0; j < w->v[v].nopt[s]; j++) {
			c = w->v[v].opt[s][j];
			if (c == a)
				continue;
			/* a is no better for its mover than c; in the side
			 * where endless play is the mover's foe, c must not
			 * stand on a cycle back to v */
			if (o->comp != NULL && o->side == (s == CG_LEFT ?
			    LG_OFFSIDE : LG_ONSIDE) && o->comp[2 * c + !s] ==
			    o->comp[2 * v + s])
				continue;
			if (s == CG_LEFT ? ge(o, c, a) : ge(o, a, c)) {
				drop(&w->v[v], s, i);
				i--;
				changed = 1;
				break;
			}
		}
	}
	return changed;
}

/* Fuse nodes of equal value into the first of them met from the root;
 * 1 if any was. */
static int
fuse(struct cg_lgame *w, const uint32_t *q, uint32_t n,
    const struct lg_order *o, uint32_t skip, uint32_t *track, size_t nt)
{
	uint32_t *rep = cg_xcalloc(w->n, sizeof *rep), i, j, k, x;
	int changed = 0, s;

	for (i = 0; i < w->n; i++)
		rep[i] = i;
	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			if (rep[q[j]] == q[j] && q[i] != skip && q[j] != skip &&
			    ge(o, q[i], q[j]) && ge(o, q[j], q[i])) {
				rep[q[i]] = q[j];
				changed = 1;
				break;
			}
	if (changed)
		for (i = 0; i < n; i++)
			for (s = 0; s < 2; s++) {
				struct cg_lnode *v = &w->v[q[i]];
				uint32_t m = v->nopt[s];

				v->nopt[s] = 0;
				for (k = 0; k < m; k++) {
					x = rep[v->opt[s][k]];
					cg_lgame_edge(w, q[i], s, x);
				}
			}
	for (i = 0; i < nt; i++)
		track[i] = rep[track[i]];
	free(rep);
	return changed;
}

/*
 * Simplify the nodes under root in place, in rounds until one changes
 * nothing.  With frozen, root keeps its options as they are: it is no
 * game, only a way to reach several (lg_simplify_by_parts).  track[0 ..
 * nt) are nodes followed through fusion.
 */
void
lg_simplify_in_place(struct cg_lgame *w, uint32_t root, int frozen,
    uint32_t *track, size_t nt)
{
	struct lg_order o;
	uint32_t n, *q, i, round;
	long bypasses = 0;
	int changed = 1, s;

	o.pos = cg_xcalloc(w->n ? w->n : 1, sizeof *o.pos);
	o.comp = NULL;
	o.side = LG_STOPPER;
	for (round = 0; changed; round++) {
		if (round == ROUNDS)
			cg_die(CG_EXIT_DATA, "simplifying a stopper: no fixed "
			    "point after %d rounds", ROUNDS);
		changed = 0;
		lg_poll();
		q = lg_reach(w, root, &n);
		for (i = 0; i < n; i++)
			o.pos[q[i]] = i;
		o.n = n;
		o.ge = lg_ge_matrix(w, q, n);
		for (i = 0; i < n; i++) {
			if (frozen && q[i] == root)
				continue;
			for (s = 0; s < 2; s++)
				while (lg_bypass(w, q[i], s, &o)) {
					changed = 1;
					if (++bypasses > BYPASSES)
						cg_die(CG_EXIT_DATA, "simplifying "
						    "a stopper: more than %d "
						    "bypasses", BYPASSES);
				}
			for (s = 0; s < 2; s++)
				changed |= lg_undominate(w, q[i], s, &o);
		}
		changed |= fuse(w, q, n, &o, frozen ? root : UINT32_MAX,
		    track, nt);
		free(o.ge);
		free(q);
	}
	free(o.pos);
}

int
cg_lgame_simplify(const struct cg_lgame *g, uint32_t x,
    struct cg_lgame *out, char *msg, size_t msgsize)
{
	struct cg_lgame w;
	uint32_t n, *q;

	if (!cg_lgame_is_stopper(g, x)) {
		snprintf(msg, msgsize, "not a stopper (play can go on forever "
		    "with the players taking turns), so it has no simplest "
		    "form; its onside and offside are not computed here");
		return -1;
	}
	q = lg_reach(g, x, &n);
	free(q);
	/* past a few hundred nodes, one part at a time: the order of a
	 * part is quadratic in the part only */
	if (n > BY_PARTS)
		return lg_simplify_by_parts(g, x, out, msg, msgsize);
	/* work on a copy of the nodes under x, x first */
	lg_copy_under(g, x, &w);
	lg_simplify_in_place(&w, 0, 0, NULL, 0);
	/* the copy under the root, in breadth-first order */
	lg_copy_under(&w, 0, out);
	cg_lgame_free(&w);
	if (!cg_lgame_is_stopper(out, 0))
		cg_die(CG_EXIT_DATA, "simplifying a stopper gave a game that "
		    "is not one (a bug)");
	return 0;
}

/* ------------------------------------------------------------ printing */

struct pr {
	const struct cg_lgame *g;
	cg_game *val;             /* short value, CG_NO_GAME if loopy */
	int *name, *onstack, names;
};

/* The short value of every node with no cycle under it. */
static cg_game
short_val(struct pr *p, uint32_t v, uint8_t *state)
{
	cg_game *l, *r, res;
	uint32_t k, nl = p->g->v[v].nopt[0], nr = p->g->v[v].nopt[1];

	if (state[v] == 2)
		return p->val[v];
	if (state[v] == 1)       /* on a cycle */
		return CG_NO_GAME;
	state[v] = 1;
	l = cg_xcalloc(nl + 1, sizeof *l);
	r = cg_xcalloc(nr + 1, sizeof *r);
	res = 0;
	for (k = 0; k < nl; k++)
		if ((l[k] = short_val(p, p->g->v[v].opt[0][k], state)) ==
		    CG_NO_GAME)
			res = CG_NO_GAME;
	for (k = 0; k < nr; k++)
		if ((r[k] = short_val(p, p->g->v[v].opt[1][k], state)) ==
		    CG_NO_GAME)
			res = CG_NO_GAME;
	if (res != CG_NO_GAME)
		res = cg_canon_make(l, nl, r, nr);
	free(l);
	free(r);
	state[v] = 2;
	p->val[v] = res;
	return res;
}

/* Options of v for side s as -v has them (neg) or as v has them. */
static const uint32_t *
opts(const struct pr *p, uint32_t v, int s, int neg, uint32_t *n)
{
	int t = neg ? !s : s;

	*n = p->g->v[v].nopt[t];
	return p->g->v[v].opt[t];
}

/* Is v (negated with neg) x + *m, a number plus a nimber? */
static int
nus(const struct pr *p, uint32_t v, int neg, struct cg_dyadic *x,
    uint64_t *m)
{
	cg_game s = p->val[v];
	int64_t up;

	if (s == CG_NO_GAME)
		return 0;
	if (neg)
		s = cg_canon_neg(s);
	return cg_canon_nus_parts(s, x, &up, m) && up == 0;
}

/* v (negated with neg) as x^[on]*k: its one Right option is x*m and its
 * Left options are v alone (m != 0) or v and x (m == 0); then k = m ^ 1
 * (CGSuite's recognition of upon forms). */
static int
upon(const struct pr *p, uint32_t v, int neg, struct cg_dyadic *x,
    uint64_t *k)
{
	const uint32_t *l, *r;
	uint32_t nl, nr, i;
	uint64_t m;
	struct cg_dyadic y;

	r = opts(p, v, CG_RIGHT, neg, &nr);
	l = opts(p, v, CG_LEFT, neg, &nl);
	if (nr != 1 || !nus(p, r[0], neg, x, &m))
		return 0;
	if (m != 0 ? nl != 1 || l[0] != v : nl != 2)
		return 0;
	if (m == 0) {
		uint64_t z;

		i = l[0] == v ? 1 : 0;
		if (l[!i] != v || !nus(p, l[i], neg, &y, &z) || z != 0 ||
		    cg_dyadic_cmp(y, *x) != 0)
			return 0;
	}
	*k = m ^ 1;
	return 1;
}

/* v (negated with neg) as x^<on>*k: its one Right option r has -r =
 * y^[on]*j and its Left options are -y + *i for i = 0 .. j ^ 1; then
 * x = -y and k = j ^ 1. */
static int
uponth(const struct pr *p, uint32_t v, int neg, struct cg_dyadic *x,
    uint64_t *k)
{
	const uint32_t *l, *r;
	uint32_t nl, nr, i;
	uint64_t j, want, seen = 0, m;
	struct cg_dyadic y, z;

	r = opts(p, v, CG_RIGHT, neg, &nr);
	l = opts(p, v, CG_LEFT, neg, &nl);
	if (nr != 1 || r[0] == v || !upon(p, r[0], !neg, &y, &j))
		return 0;
	want = (j ^ 1) + 1;
	if (want > 63 || nl != want)
		return 0;
	y = cg_dyadic_neg(y);
	for (i = 0; i < nl; i++) {
		if (!nus(p, l[i], neg, &z, &m) || cg_dyadic_cmp(z, y) != 0 ||
		    m >= want || (seen >> m & 1))
			return 0;
		seen |= 1ull << m;
	}
	*x = y;
	*k = j ^ 1;
	return 1;
}

static void
put_number(struct cg_dyadic x, struct cg_buf *out)
{
	if (cg_dyadic_sign(x) != 0)
		cg_canon_print(cg_canon_number(x), out);
}

/* on, off, x over, x under, and the upon forms; 1 if v is one. */
static int
special(const struct pr *p, uint32_t v, struct cg_buf *out)
{
	const struct cg_lnode *n = &p->g->v[v];
	struct cg_dyadic x;
	uint64_t k, m;
	int neg, s;

	for (s = 0; s < 2; s++) {
		if (n->nopt[s] == 1 && n->opt[s][0] == v && n->nopt[!s] == 0) {
			cg_buf_addstr(out, s == CG_LEFT ? "on" : "off");
			return 1;
		}
		/* over = {0|pass}, under = {pass|0}, after a number x */
		if (n->nopt[s] == 1 && n->opt[s][0] == v && n->nopt[!s] == 1 &&
		    nus(p, n->opt[!s][0], 0, &x, &m) && m == 0) {
			put_number(x, out);
			cg_buf_addstr(out, s == CG_RIGHT ? "over" : "under");
			return 1;
		}
	}
	for (neg = 0; neg < 2; neg++) {
		int th = 0;

		if (!upon(p, v, neg, &x, &k)) {
			if (!uponth(p, v, neg, &x, &k))
				continue;
			th = 1;
		}
		put_number(neg ? cg_dyadic_neg(x) : x, out);
		cg_buf_addstr(out, neg ? "v" : "^");
		cg_buf_addstr(out, th ? "<on>" : "[on]");
		if (k == 1)
			cg_buf_addstr(out, "*");
		else if (k > 1)
			cg_buf_addf(out, "*%llu", (unsigned long long)k);
		return 1;
	}
	return 0;
}

/* CGSuite's names of nodes: a .. z, then N1, N2, ... */
static void
put_name(int n, struct cg_buf *out)
{
	if (n < 26)
		cg_buf_addf(out, "%c", 'a' + n);
	else
		cg_buf_addf(out, "N%d", n - 25);
}

static const struct pr *sort_pr;

/* Short options first in CGSuite's order, then loopy ones as met. */
static int
opt_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	cg_game gx = sort_pr->val[x], gy = sort_pr->val[y];

	if (gx != CG_NO_GAME && gy != CG_NO_GAME)
		return cg_canon_order(gx, gy);
	if (gx != CG_NO_GAME || gy != CG_NO_GAME)
		return gx != CG_NO_GAME ? -1 : 1;
	return (x > y) - (x < y);
}

/* Slashes beyond which braces come back (CGSuite writes {a||||b} at
 * most). */
#define MAX_SLASHES 4

/*
 * A short game's text as an option: without its outer braces when
 * nothing forces them (CGSuite's way: {1|{0|-1}} is written {1||0|-1}),
 * returning the slashes of its top separator, else 0.
 */
static int
put_short(cg_game g, int force, struct cg_buf *out)
{
	struct cg_buf t;
	size_t i, depth = 0, top = 0, run = 0;
	const char *x;
	int slashes = 0;

	cg_buf_init(&t);
	cg_canon_print(g, &t);
	x = cg_buf_str(&t);
	if (!force && t.len > 2 && x[0] == '{' && x[t.len - 1] == '}') {
		for (i = 0; i < t.len; i++) {
			if (x[i] == '{')
				depth++;
			else if (x[i] == '}' && --depth == 0 && i + 1 < t.len)
				break;      /* not one braced game */
			if (depth == 1 && x[i] == '|') {
				/* the longest run is the top separator */
				run++;
				if (i + 1 < t.len && x[i + 1] != '|' &&
				    (int)run > slashes) {
					top = i;
					slashes = (int)run;
				}
			} else {
				run = 0;
			}
		}
		if (i == t.len && slashes > 0 && slashes < MAX_SLASHES &&
		    x[1] != '|' && x[top + 1] != '}') {
			cg_buf_add(out, x + 1, t.len - 2);
			cg_buf_free(&t);
			return slashes;
		}
	}
	cg_buf_add(out, x, t.len);
	cg_buf_free(&t);
	return 0;
}

/* Node v as CGSuite prints a loopy game: an option alone on its side is
 * written without braces where it can be, its separator one slash
 * longer than its options'.  Returns the slashes of v's separator when
 * v is written without braces, else 0. */
static int
print_node(struct pr *p, uint32_t v, int force, struct cg_buf *out)
{
	struct cg_buf side[2];
	uint32_t *o, k, n;
	int s, slashes = 0, c, show;

	if (p->val[v] != CG_NO_GAME)
		return put_short(p->val[v], force, out);
	if (p->onstack[v]) {
		if (p->name[v] < 0)
			p->name[v] = p->names++;
		put_name(p->name[v], out);
		return 0;
	}
	if (special(p, v, out))
		return 0;
	p->onstack[v] = 1;
	for (s = 0; s < 2; s++) {
		cg_buf_init(&side[s]);
		n = p->g->v[v].nopt[s];
		o = cg_xcalloc(n + 1, sizeof *o);
		memcpy(o, p->g->v[v].opt[s], n * sizeof *o);
		sort_pr = p;
		qsort(o, n, sizeof *o, opt_cmp);
		for (k = 0; k < n; k++) {
			if (k > 0)
				cg_buf_addstr(&side[s], ",");
			if (o[k] == v) {
				cg_buf_addstr(&side[s], "pass");
				continue;
			}
			c = print_node(p, o[k], n > 1, &side[s]);
			if (c > slashes)
				slashes = c;
		}
		free(o);
	}
	p->onstack[v] = 0;
	slashes++;
	show = force || p->name[v] >= 0 || p->g->v[v].nopt[0] == 0 ||
	    p->g->v[v].nopt[1] == 0 || slashes == MAX_SLASHES;
	if (p->name[v] >= 0)
		put_name(p->name[v], out);
	if (show)
		cg_buf_addc(out, '{');
	cg_buf_addstr(out, cg_buf_str(&side[0]));
	for (c = 0; c < slashes; c++)
		cg_buf_addc(out, '|');
	cg_buf_addstr(out, cg_buf_str(&side[1]));
	if (show)
		cg_buf_addc(out, '}');
	cg_buf_free(&side[0]);
	cg_buf_free(&side[1]);
	return show ? 0 : slashes;
}

void
cg_lgame_print(const struct cg_lgame *g, struct cg_buf *out)
{
	struct pr p;
	uint8_t *state = cg_xcalloc(g->n, 1);
	uint32_t i;

	p.g = g;
	p.val = cg_xcalloc(g->n, sizeof *p.val);
	p.name = cg_xcalloc(g->n, sizeof *p.name);
	p.onstack = cg_xcalloc(g->n, sizeof *p.onstack);
	p.names = 0;
	for (i = 0; i < g->n; i++)
		p.name[i] = -1;
	/* a node from which a cycle can be reached meets a node still on
	 * the depth-first path, or one already found loopy */
	for (i = 0; i < g->n; i++)
		short_val(&p, i, state);
	print_node(&p, 0, 1, out);
	free(state);
	free(p.val);
	free(p.name);
	free(p.onstack);
}

/* ------------------------------------------------------------ stops */

/* A pseudonumber: on (inf 1), off (inf -1), or x plus an infinitesimal
 * sign eps (x over: 1, x: 0, x under: -1). */
struct pseudo {
	int inf, eps;
	struct cg_dyadic x;
};

static int
pseudo_cmp(struct pseudo a, struct pseudo b)
{
	int c;

	if (a.inf != 0 || b.inf != 0)
		return (a.inf > b.inf) - (a.inf < b.inf);
	c = cg_dyadic_cmp(a.x, b.x);
	return c != 0 ? c : (a.eps > b.eps) - (a.eps < b.eps);
}

/* Is v a pseudonumber: a number, on, off, x over or x under? */
static int
pseudo_of(const struct pr *p, uint32_t v, struct pseudo *out)
{
	const struct cg_lnode *n = &p->g->v[v];
	uint64_t m;
	int s;

	memset(out, 0, sizeof *out);
	if (p->val[v] != CG_NO_GAME)
		return cg_canon_is_number(p->val[v]) &&
		    nus(p, v, 0, &out->x, &m);
	for (s = 0; s < 2; s++) {
		if (n->nopt[s] != 1 || n->opt[s][0] != v)
			continue;
		if (n->nopt[!s] == 0) {
			out->inf = s == CG_LEFT ? 1 : -1;
			return 1;
		}
		if (n->nopt[!s] == 1 && p->val[n->opt[!s][0]] != CG_NO_GAME &&
		    cg_canon_is_number(p->val[n->opt[!s][0]]) &&
		    nus(p, n->opt[!s][0], 0, &out->x, &m)) {
			out->eps = s == CG_RIGHT ? 1 : -1;
			return 1;
		}
	}
	return 0;
}

/* The stop of v with side s to move: the pseudonumber play reaches
 * when each player moves to the best stop for them (Siegel, ch. VI:
 * alternating play of a stopper ends).  done[2 * v + s] memoizes. */
static int
stop_rec(const struct pr *p, uint32_t v, int s, struct pseudo *st,
    uint8_t *done)
{
	const struct cg_lnode *n = &p->g->v[v];
	struct pseudo best, o;
	uint32_t k;

	if (done[2 * v + s] == 1)
		return -1;      /* alternating play without end: no stopper */
	if (pseudo_of(p, v, &o)) {
		*st = o;
		return 0;
	}
	if (n->nopt[s] == 0)
		return -1;
	done[2 * v + s] = 1;
	for (k = 0; k < n->nopt[s]; k++) {
		if (stop_rec(p, n->opt[s][k], !s, &o, done) < 0) {
			done[2 * v + s] = 0;
			return -1;
		}
		if (k == 0 || (s == CG_LEFT ? pseudo_cmp(o, best) > 0 :
		    pseudo_cmp(o, best) < 0))
			best = o;
	}
	done[2 * v + s] = 0;
	*st = best;
	return 0;
}

int
cg_lgame_stop(const struct cg_lgame *g, int side, struct cg_buf *out)
{
	struct pr p;
	struct pseudo st;
	uint8_t *state = cg_xcalloc(g->n, 1), *done;
	uint32_t i;
	int rc;

	p.g = g;
	p.val = cg_xcalloc(g->n, sizeof *p.val);
	p.name = p.onstack = NULL;
	p.names = 0;
	for (i = 0; i < g->n; i++)
		short_val(&p, i, state);
	done = cg_xcalloc(2 * (size_t)g->n, 1);
	/* the stop of a number is itself; else the best of the options'
	 * stops with the other side to move */
	rc = stop_rec(&p, 0, side, &st, done);
	if (rc == 0) {
		if (st.inf != 0) {
			cg_buf_addstr(out, st.inf > 0 ? "on" : "off");
		} else {
			if (st.eps == 0 || cg_dyadic_sign(st.x) != 0)
				cg_canon_print(cg_canon_number(st.x), out);
			if (st.eps != 0)
				cg_buf_addstr(out, st.eps > 0 ? "over" :
				    "under");
		}
	}
	free(done);
	free(state);
	free(p.val);
	return rc;
}
