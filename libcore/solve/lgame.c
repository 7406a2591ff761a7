/* lgame.c - loopy game graphs: building, stoppers, comparison (lgame.h).
 * The simplest forms and printing are in lgame_canon.c, literals in
 * lgame_lit.c. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "host/plugin.h"
#include "solve/lgame.h"
#include "values/notation.h"
#include "solve/lgame_int.h"
#include "solve/retro.h"
#include "solve/explore.h"

void
cg_lgame_init(struct cg_lgame *g)
{
	memset(g, 0, sizeof *g);
}

void
cg_lgame_free(struct cg_lgame *g)
{
	uint32_t i;

	for (i = 0; i < g->n; i++) {
		free(g->v[i].opt[0]);
		free(g->v[i].opt[1]);
	}
	free(g->v);
	memset(g, 0, sizeof *g);
}

uint32_t
cg_lgame_node(struct cg_lgame *g)
{
	if (g->n == g->cap) {
		if (g->cap >= CG_LGAME_MAX)
			cg_die(CG_EXIT_DATA, "a loopy game of more than %u "
			    "nodes", (unsigned)CG_LGAME_MAX);
		g->cap = g->cap ? 2 * g->cap : 16;
		g->v = cg_xreallocarray(g->v, g->cap, sizeof *g->v);
	}
	memset(&g->v[g->n], 0, sizeof g->v[g->n]);
	return g->n++;
}

void
cg_lgame_edge(struct cg_lgame *g, uint32_t from, int s, uint32_t to)
{
	struct cg_lnode *x = &g->v[from];
	uint32_t k;

	for (k = 0; k < x->nopt[s]; k++)
		if (x->opt[s][k] == to)
			return;
	if (x->nopt[s] == x->cap[s]) {
		x->cap[s] = x->cap[s] ? 2 * x->cap[s] : 4;
		x->opt[s] = cg_xreallocarray(x->opt[s], x->cap[s],
		    sizeof *x->opt[s]);
	}
	x->opt[s][x->nopt[s]++] = to;
}

/* ------------------------------------------------------------ maps */

void
lg_map_init(struct lg_map *m)
{
	memset(m, 0, sizeof *m);
}

void
lg_map_free(struct lg_map *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

static size_t
lg_hash(uint64_t k, size_t mask)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k & mask;
}

/* Keys are stored plus one, so 0 marks an empty slot. */
uint32_t *
lg_map_get(struct lg_map *m, uint64_t key, int *isnew)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct lg_map o = *m;
		size_t j;

		m->cap = o.cap ? 2 * o.cap : 64;
		m->key = cg_xcalloc(m->cap, sizeof *m->key);
		m->val = cg_xcalloc(m->cap, sizeof *m->val);
		m->n = 0;
		for (j = 0; j < o.cap; j++)
			if (o.key[j] != 0) {
				int dummy;

				*lg_map_get(m, o.key[j] - 1, &dummy) = o.val[j];
			}
		free(o.key);
		free(o.val);
	}
	for (i = lg_hash(key, m->cap - 1); m->key[i] != 0;
	    i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key + 1) {
			*isnew = 0;
			return &m->val[i];
		}
	m->key[i] = key + 1;
	m->n++;
	*isnew = 1;
	return &m->val[i];
}

/* ------------------------------------------------------------ building */

/* Breadth first, not recursively: an integer n is a chain of n nodes. */
uint32_t
cg_lgame_short(struct cg_lgame *g, cg_game s)
{
	struct lg_map m;
	cg_game *todo = cg_xreallocarray(NULL, 16, sizeof *todo), *opt = NULL;
	uint32_t *node = cg_xreallocarray(NULL, 16, sizeof *node), root;
	size_t nt = 0, cap = 16, h, n, k, capo = 0;
	int isnew, side;

	lg_map_init(&m);
	root = cg_lgame_node(g);
	*lg_map_get(&m, (uint64_t)s, &isnew) = root;
	todo[nt] = s;
	node[nt++] = root;
	for (h = 0; h < nt; h++) {
		for (side = 0; side < 2; side++) {
			const cg_game *o = cg_canon_options(todo[h],
			    (enum cg_side)side, &n);

			/* the store may move while options are made: copy */
			if (n > capo) {
				capo = n;
				opt = cg_xreallocarray(opt, capo, sizeof *opt);
			}
			if (n > 0)
				memcpy(opt, o, n * sizeof *opt);
			for (k = 0; k < n; k++) {
				uint32_t *y = lg_map_get(&m, (uint64_t)opt[k],
				    &isnew);

				if (isnew) {
					*y = cg_lgame_node(g);
					if (nt == cap) {
						cap *= 2;
						todo = cg_xreallocarray(todo, cap,
						    sizeof *todo);
						node = cg_xreallocarray(node, cap,
						    sizeof *node);
					}
					todo[nt] = opt[k];
					node[nt++] = *y;
				}
				cg_lgame_edge(g, node[h], side, *y);
			}
		}
		if ((h & 4095) == 0)
			lg_poll();
	}
	lg_map_free(&m);
	free(todo);
	free(node);
	free(opt);
	return root;
}

/* Copy the nodes under x; with swap, Left's options become Right's. */
/*
 * The graph of pairs (x, y) under (x0, y0), where a pair's options are
 * (x', y) and (x, y') for the options x', y' of x and y on the same side
 * (a sum), or, with y0 UINT32_MAX, the nodes under x0 with the sides
 * swapped (a negative).  Breadth first, not recursively: graphs of
 * integers are long chains.
 */
static uint32_t
pairs(struct cg_lgame *g, uint32_t x0, uint32_t y0)
{
	struct lg_map m;
	uint64_t *todo = cg_xreallocarray(NULL, 16, sizeof *todo);
	size_t nt = 0, cap = 16, h;
	uint32_t root = cg_lgame_node(g), k;
	int isnew, s, t;
	int neg = y0 == UINT32_MAX;

	lg_map_init(&m);
	todo[nt] = (uint64_t)x0 << 32 | (neg ? 0 : y0);
	*lg_map_get(&m, todo[nt++], &isnew) = root;
	for (h = 0; h < nt; h++) {
		uint64_t key = todo[h];
		uint32_t x = (uint32_t)(key >> 32), y = (uint32_t)key;
		uint32_t c = *lg_map_get(&m, key, &isnew);

		for (s = 0; s < 2; s++)
			for (t = 0; t < (neg ? 1 : 2); t++) {
				uint32_t from = t == 0 ? x : y;

				for (k = 0; k < g->v[from].nopt[s]; k++) {
					uint32_t o = g->v[from].opt[s][k], *z;
					uint64_t nk = t == 0 ?
					    (uint64_t)o << 32 | y :
					    (uint64_t)x << 32 | o;

					z = lg_map_get(&m, nk, &isnew);
					if (isnew) {
						*z = cg_lgame_node(g);
						if (nt == cap) {
							cap *= 2;
							todo = cg_xreallocarray(todo,
							    cap, sizeof *todo);
						}
						todo[nt++] = nk;
					}
					cg_lgame_edge(g, c, neg ? !s : s, *z);
				}
			}
		if ((h & 4095) == 0)
			lg_poll();
	}
	lg_map_free(&m);
	free(todo);
	return root;
}

uint32_t
cg_lgame_neg(struct cg_lgame *g, uint32_t x)
{
	return pairs(g, x, UINT32_MAX);
}

uint32_t
cg_lgame_sum(struct cg_lgame *g, uint32_t x, uint32_t y)
{
	return pairs(g, x, y);
}

/* ------------------------------------------------------------ shape */

/* Nodes reachable from x, in order of discovery (x first); *n their
 * count. */
uint32_t *
lg_reach(const struct cg_lgame *g, uint32_t x, uint32_t *n)
{
	uint8_t *seen = cg_xcalloc(g->n ? g->n : 1, 1);
	uint32_t *q = cg_xcalloc(g->n ? g->n : 1, sizeof *q), h = 0, t = 0, k;
	int s;

	q[t++] = x;
	seen[x] = 1;
	while (h < t) {
		uint32_t v = q[h++];

		for (s = 0; s < 2; s++)
			for (k = 0; k < g->v[v].nopt[s]; k++) {
				uint32_t y = g->v[v].opt[s][k];

				if (!seen[y]) {
					seen[y] = 1;
					q[t++] = y;
				}
			}
	}
	free(seen);
	*n = t;
	return q;
}

/* A cycle in the graph of states reachable from x: with alt, a state is
 * (node, side to move) and a move passes the turn (an alternating
 * cycle); without, a state is a node and every option is an edge. */
static int
has_cycle(const struct cg_lgame *g, uint32_t x, int alt)
{
	size_t ns = (size_t)g->n * (alt ? 2 : 1);
	uint8_t *color = cg_xcalloc(ns ? ns : 1, 1);
	struct { uint32_t st, k; } *stk;
	size_t sp = 0, cap = 64;
	int found = 0, start;

	uint32_t nr, *reach = lg_reach(g, x, &nr), ri;

	/* every follower with either player to move: a stopper has no
	 * endless alternating play from any of them (in a sum, either
	 * player may be to move at any follower) */
	stk = cg_xreallocarray(NULL, cap, sizeof *stk);
	for (ri = 0; ri < (alt ? nr : 1) && !found; ri++)
	for (start = 0; start < (alt ? 2 : 1) && !found; start++) {
		uint32_t st0 = alt ? 2 * reach[ri] + (uint32_t)start : x;

		if (color[st0])
			continue;
		color[st0] = 1;
		stk[0].st = st0;
		stk[0].k = 0;
		sp = 1;
		while (sp > 0 && !found) {
			uint32_t st = stk[sp - 1].st;
			uint32_t v = alt ? st / 2 : st;
			int s = alt ? (int)(st % 2) : 0;
			uint32_t nl = g->v[v].nopt[0];
			uint32_t deg = alt ? g->v[v].nopt[s] : nl +
			    g->v[v].nopt[1];
			uint32_t k = stk[sp - 1].k++, y, nst;

			if (k >= deg) {
				color[st] = 2;
				sp--;
				continue;
			}
			if (alt)
				y = g->v[v].opt[s][k];
			else
				y = k < nl ? g->v[v].opt[0][k] :
				    g->v[v].opt[1][k - nl];
			nst = alt ? 2 * y + (uint32_t)!s : y;
			if (color[nst] == 1) {
				found = 1;
			} else if (color[nst] == 0) {
				color[nst] = 1;
				if (sp == cap) {
					cap *= 2;
					stk = cg_xreallocarray(stk, cap,
					    sizeof *stk);
				}
				stk[sp].st = nst;
				stk[sp].k = 0;
				sp++;
			}
		}
	}
	free(stk);
	free(color);
	free(reach);
	return found;
}

uint32_t *
lg_comps(const struct cg_lgame *g, uint32_t x, int alt, uint32_t *ncomp)
{
	size_t ns = (size_t)g->n * (alt ? 2 : 1), sp = 0, cp, i;
	uint32_t *comp = cg_xcalloc(ns ? ns : 1, sizeof *comp);
	uint32_t *idx = cg_xcalloc(ns ? ns : 1, sizeof *idx);
	uint32_t *low = cg_xcalloc(ns ? ns : 1, sizeof *low);
	uint32_t *stk = cg_xcalloc(ns ? ns : 1, sizeof *stk);
	struct { uint32_t st, k; } *cs = cg_xcalloc(ns ? ns : 1, sizeof *cs);
	uint8_t *on = cg_xcalloc(ns ? ns : 1, 1);
	uint32_t nr, *reach = lg_reach(g, x, &nr), ri, nc = 0, ni = 1;

	for (i = 0; i < ns; i++)
		comp[i] = UINT32_MAX;
	for (ri = 0; ri < nr * (alt ? 2 : 1); ri++) {
		uint32_t start = alt ? 2 * reach[ri / 2] + ri % 2 : reach[ri];

		if (idx[start])
			continue;
		cp = 0;
		cs[cp].st = start;
		cs[cp++].k = 0;
		idx[start] = low[start] = ni++;
		stk[sp++] = start;
		on[start] = 1;
		while (cp > 0) {
			uint32_t st = cs[cp - 1].st, k = cs[cp - 1].k;
			uint32_t v = alt ? st / 2 : st;
			int s = alt ? (int)(st % 2) : 0;
			uint32_t nl = g->v[v].nopt[s];
			uint32_t deg = alt ? nl : nl + g->v[v].nopt[1];

			if (k < deg) {
				uint32_t y = k < nl ? g->v[v].opt[s][k] :
				    g->v[v].opt[1][k - nl];
				uint32_t nst = alt ? 2 * y + (uint32_t)!s : y;

				cs[cp - 1].k++;
				if (!idx[nst]) {
					idx[nst] = low[nst] = ni++;
					stk[sp++] = nst;
					on[nst] = 1;
					cs[cp].st = nst;
					cs[cp++].k = 0;
				} else if (on[nst] && idx[nst] < low[st]) {
					low[st] = idx[nst];
				}
				continue;
			}
			if (low[st] == idx[st]) {
				uint32_t z;

				do {
					z = stk[--sp];
					on[z] = 0;
					comp[z] = nc;
				} while (z != st);
				nc++;
			}
			cp--;
			if (cp > 0 && low[st] < low[cs[cp - 1].st])
				low[cs[cp - 1].st] = low[st];
		}
	}
	free(idx);
	free(low);
	free(stk);
	free(cs);
	free(on);
	free(reach);
	if (ncomp != NULL)
		*ncomp = nc;
	return comp;
}

int
lg_is_pass_only(const struct cg_lgame *g, uint32_t v, int s)
{
	return g->v[v].nopt[s] == 1 && g->v[v].opt[s][0] == v &&
	    g->v[v].nopt[!s] == 0;
}

int
cg_lgame_is_stopper(const struct cg_lgame *g, uint32_t x)
{
	return !has_cycle(g, x, 1);
}

int
cg_lgame_is_loopy(const struct cg_lgame *g, uint32_t x)
{
	return has_cycle(g, x, 0);
}

/* ------------------------------------------------------------ documents */

static uint32_t
doc_rec(struct cg_lgame *g, const struct cg_doc *d, uint32_t x,
    struct lg_map *m)
{
	const struct cg_node *nd = &d->node[x];
	uint32_t c, k, y;
	int isnew, s;

	c = *lg_map_get(m, x, &isnew);
	if (!isnew)
		return c;
	if (nd->rs != NULL && nd->pos != NULL && !nd->expanded &&
	    strcmp(nd->rs->name, "game") == 0 && nd->text != NULL) {
		/* a literal of the game ruleset is its value: a short game */
		c = cg_lgame_short(g, cg_canon_value(nd->text,
		    strlen(nd->text), "game literal"));
		*lg_map_get(m, x, &isnew) = c;
		return c;
	}
	if (nd->rs != NULL && nd->pos != NULL && !nd->expanded &&
	    cg_rs_loopy(nd->rs)) {
		/* a position of a loopy ruleset: its whole graph, explored
		 * through the plugin */
		struct cg_explore *e = cg_explore_new(nd->rs);
		struct cg_retro_graph rg;
		uint32_t r = cg_explore_add(e, nd->pos, nd->poslen), base, i;

		if (cg_explore_run(e) < 0)
			cg_die(cg_stop_status(), "%s: line %lu: exploring "
			    "position '%s': %s", d->file, nd->line,
			    nd->text != NULL ? nd->text : "", cg_stop_reason());
		cg_explore_graph(e, &rg);
		base = g->n;
		for (i = 0; i < rg.n; i++)
			cg_lgame_node(g);
		for (i = 0; i < rg.n; i++)
			for (s = 0; s < 2; s++)
				for (k = rg.off[s][i]; k < rg.off[s][i + 1];
				    k++)
					cg_lgame_edge(g, base + i, s,
					    base + rg.to[s][k]);
		cg_explore_free(e);
		*lg_map_get(m, x, &isnew) = base + r;
		return base + r;
	}
	if (nd->rs != NULL && nd->pos != NULL && !nd->expanded)
		cg_die_at(d->file, nd->line, "node %llu has a position but no "
		    "'E' record: a loopy game needs every node's options "
		    "(cg-options -a writes them)", (unsigned long long)nd->id);
	if (nd->njoint > 0)
		cg_die_at(d->file, nd->line, "node %llu has joint options: a "
		    "synchronized game is not a loopy game",
		    (unsigned long long)nd->id);
	c = cg_lgame_node(g);
	*lg_map_get(m, x, &isnew) = c;
	for (s = 0; s < 2; s++)
		for (k = 0; k < nd->nopt[s]; k++) {
			y = doc_rec(g, d, nd->opt[s][k].child, m);
			cg_lgame_edge(g, c, s, y);
		}
	return c;
}

uint32_t
cg_lgame_from_doc(struct cg_lgame *g, const struct cg_doc *d, uint32_t x)
{
	struct lg_map m;
	uint32_t c;

	lg_map_init(&m);
	c = doc_rec(g, d, x, &m);
	lg_map_free(&m);
	return c;
}

uint32_t
cg_lgame_to_doc(const struct cg_lgame *g, uint32_t x, struct cg_doc *d,
    const char *text)
{
	uint32_t n, *q = lg_reach(g, x, &n), *at, i, k, r;
	int s;

	at = cg_xcalloc(g->n ? g->n : 1, sizeof *at);
	for (i = 0; i < n; i++)
		at[q[i]] = cg_doc_add_node(d, NULL, NULL, 0, i == 0 ? text :
		    NULL);
	for (i = 0; i < n; i++)
		for (s = 0; s < 2; s++)
			for (k = 0; k < g->v[q[i]].nopt[s]; k++)
				cg_doc_add_option(d, at[q[i]], (enum cg_side)s,
				    at[g->v[q[i]].opt[s][k]], NULL);
	r = at[x];
	free(at);
	free(q);
	return r;
}

/* ------------------------------------------------------------ order */

/*
 * ge[i * n + j] = 1 when node q[i] >= node q[j] (i, j < n), for stoppers:
 * Left survives q[i] - q[j] when Right moves first (Siegel, Combinatorial
 * Game Theory, AMS 2013, ch. VI, the order of stoppers).  One retrograde
 * analysis of the game of differences: the position (i, j) is q[i] -
 * q[j], where Left moves q[i] to a Left option or q[j] to a Right option
 * (Left's move in -q[j]), Right the other way round; endless play is a
 * draw, which Left survives.
 */
uint8_t *
lg_ge_matrix(const struct cg_lgame *g, const uint32_t *q, uint32_t n)
{
	uint32_t *idx = cg_xcalloc(g->n ? g->n : 1, sizeof *idx);
	uint64_t np = (uint64_t)n * n;
	uint32_t *off[2], *to[2], i, j, k;
	struct cg_retro_graph rg;
	struct cg_retro *r;
	uint8_t *ge;
	int s;

	if (np > CG_LGAME_MAXPAIRS)
		cg_die(CG_EXIT_DATA, "comparing loopy games of %u nodes: more "
		    "than %llu pairs of nodes to order", (unsigned)n,
		    (unsigned long long)CG_LGAME_MAXPAIRS);
	for (i = 0; i < g->n; i++)
		idx[i] = UINT32_MAX;
	for (i = 0; i < n; i++)
		idx[q[i]] = i;
	for (s = 0; s < 2; s++) {
		/* the mover's options in q[i] and the other's in q[j] */
		uint64_t tot = 0, p;

		for (i = 0; i < n; i++)
			tot += (uint64_t)(g->v[q[i]].nopt[s] +
			    g->v[q[i]].nopt[!s]) * n;
		if (tot > UINT32_MAX)
			cg_die(CG_EXIT_DATA, "comparing loopy games: too many "
			    "moves");
		off[s] = cg_xcalloc(np + 1, sizeof *off[s]);
		to[s] = cg_xcalloc(tot ? tot : 1, sizeof *to[s]);
		for (p = 0, tot = 0; p < np; p++) {
			i = (uint32_t)(p / n);
			j = (uint32_t)(p % n);
			off[s][p] = (uint32_t)tot;
			for (k = 0; k < g->v[q[i]].nopt[s]; k++)
				to[s][tot++] = idx[g->v[q[i]].opt[s][k]] * n +
				    j;
			for (k = 0; k < g->v[q[j]].nopt[!s]; k++)
				to[s][tot++] = i * n +
				    idx[g->v[q[j]].opt[!s][k]];
		}
		off[s][np] = (uint32_t)tot;
		rg.off[s] = off[s];
		rg.to[s] = to[s];
	}
	rg.n = (uint32_t)np;
	lg_poll();
	r = cg_retro_solve(&rg);
	ge = cg_xcalloc(np ? np : 1, 1);
	for (i = 0; i < np; i++)
		ge[i] = r->res[CG_RIGHT][i] != CG_RETRO_WIN;
	cg_retro_free(r);
	for (s = 0; s < 2; s++) {
		free(off[s]);
		free(to[s]);
	}
	free(idx);
	return ge;
}

int
cg_lgame_compare(const struct cg_lgame *g, uint32_t x, uint32_t y)
{
	struct cg_lgame h;
	uint32_t n, *q, a, b, i;
	uint8_t *ge;
	int xy, yx;

	if (x == y)
		return 0;
	/* one graph holding both, so that the matrix covers the pair */
	cg_lgame_init(&h);
	for (i = 0; i < g->n; i++) {
		int s;
		uint32_t k, c = cg_lgame_node(&h);

		for (s = 0; s < 2; s++)
			for (k = 0; k < g->v[i].nopt[s]; k++)
				cg_lgame_edge(&h, c, s, g->v[i].opt[s][k]);
	}
	a = x;
	b = y;
	/* a root over both, never moved to, makes one reachable set */
	i = cg_lgame_node(&h);
	cg_lgame_edge(&h, i, 0, a);
	cg_lgame_edge(&h, i, 0, b);
	q = lg_reach(&h, i, &n);
	ge = lg_ge_matrix(&h, q, n);
	/* q[0] is the extra root, q[1] and q[2] are a and b */
	xy = ge[1 * n + 2];
	yx = ge[2 * n + 1];
	free(ge);
	free(q);
	cg_lgame_free(&h);
	return xy && yx ? 0 : xy ? 1 : yx ? -1 : 2;
}

const char *
cg_lgame_class(const struct cg_lgame *g, uint32_t x)
{
	uint32_t n, *q = lg_reach(g, x, &n), *off[2], *to[2], *idx, i, k, t;
	struct cg_retro_graph rg;
	struct cg_retro *r;
	const char *c;
	int s;

	idx = cg_xcalloc(g->n, sizeof *idx);
	for (i = 0; i < n; i++)
		idx[q[i]] = i;
	for (s = 0; s < 2; s++) {
		off[s] = cg_xcalloc(n + 1, sizeof *off[s]);
		for (t = i = 0; i < n; i++)
			t += g->v[q[i]].nopt[s];
		to[s] = cg_xcalloc(t ? t : 1, sizeof *to[s]);
		for (t = i = 0; i < n; i++) {
			off[s][i] = t;
			for (k = 0; k < g->v[q[i]].nopt[s]; k++)
				to[s][t++] = idx[g->v[q[i]].opt[s][k]];
		}
		off[s][n] = t;
		rg.off[s] = off[s];
		rg.to[s] = to[s];
	}
	rg.n = n;
	lg_poll();
	r = cg_retro_solve(&rg);
	c = cg_retro_class(r, 0);
	cg_retro_free(r);
	for (s = 0; s < 2; s++) {
		free(off[s]);
		free(to[s]);
	}
	free(idx);
	free(q);
	return c;
}
