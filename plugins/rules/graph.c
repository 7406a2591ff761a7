/*
 * graph.c - games on graphs in CGSuite's graph notation ("L-.-.-R",
 * plugins/lib/graphgame.h), the vertices carrying tints from the file's
 * cells.  A rule picks a vertex whose tint it matches, gives it a new
 * tint (or deletes it: '_') and rewrites the tint of each neighbour.
 * Options: vertices in order (the order print() writes them), each
 * vertex's rules in file order; a move's name is the vertex's number.
 *
 * The connected components are the independent parts (a move touches a
 * vertex and its neighbours only); a component where nobody can move is
 * 0 and is dropped.  canonical() numbers each component as graphgame.h
 * does and sorts them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "graphgame.h"

static const struct rules *
rules_of(const struct cg_context *cx)
{
	return ((const struct rstate *)cx->state)->r;
}

int
graph_hooks_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	struct gg g;
	int rc = gg_parse_text_tags(cx, text, len, &g, rules_of(cx)->cells);

	return rc < 0 ? rc : gg_encode(cx, &g, out);
}

int
graph_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	struct gg g;
	int rc = gg_decode_tags(cx, pos, len, &g, rules_of(cx)->cells);

	return rc < 0 ? rc : gg_print(cx, &g, out);
}

/* Call fn for each move of side in g (fn returns non-zero to stop). */
static int
graph_moves(const struct rules *r, const struct gg *g, enum cg_side side,
    int (*fn)(void *arg, const struct gg *child, int v, const struct rule *ru),
    void *arg)
{
	struct gg child;
	int v, i, bit = side == CG_LEFT ? SIDE_LEFT : SIDE_RIGHT, rc;

	for (v = 0; v < g->n; v++)
		for (i = 0; i < r->nrule; i++) {
			const struct rule *ru = &r->rule[i];

			if (!(ru->side & bit) || !cs_has(&ru->vmatch,
			    (unsigned char)g->tag[v]))
				continue;
			gg_rewrite(g, v, ru->vwrite, ru->nmap, &child);
			if ((rc = fn(arg, &child, v, ru)) != 0)
				return rc;
		}
	return 0;
}

struct emit_arg {
	cg_emit_fn emit;
	void *ctx;
};

static int
emit_move(void *arg, const struct gg *child, int v, const struct rule *ru)
{
	struct emit_arg *e = arg;
	unsigned char b[GG_BYTES];
	char name[16];

	(void)ru;
	snprintf(name, sizeof name, "%d", v + 1);
	return e->emit(e->ctx, b, gg_encode_raw(child, b), name) ? CG_STOP : 0;
}

int
graph_hooks_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	const struct rules *r = rules_of(cx);
	struct emit_arg e = { emit, ctx };
	struct gg g;
	int rc = gg_decode_tags(cx, pos, len, &g, r->cells);

	if (rc < 0)
		return rc;
	return graph_moves(r, &g, side, emit_move, &e);
}

static int
stop_at_first(void *arg, const struct gg *child, int v, const struct rule *ru)
{
	(void)arg;
	(void)child;
	(void)v;
	(void)ru;
	return 1;
}

/* Can anybody move in g? */
static int
live(const struct rules *r, const struct gg *g)
{
	return graph_moves(r, g, CG_LEFT, stop_at_first, NULL) ||
	    graph_moves(r, g, CG_RIGHT, stop_at_first, NULL);
}

int
graph_hooks_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	const struct rules *r = rules_of(cx);
	struct gg g, *comp, all;
	int a, k = 0, rc = gg_decode_tags(cx, pos, len, &g, r->cells);

	if (rc < 0)
		return rc;
	comp = cx->host->alloc(sizeof *comp * (size_t)(g.n ? g.n : 1));
	if (comp == NULL)
		return CG_ENOMEM;
	for (a = 0; a < g.n;) {
		a = gg_component(&g, a, &comp[k]);
		if (!live(r, &comp[k]))
			continue;
		gg_min_component(&comp[k]);
		k++;
	}
	gg_join(comp, k, &all);
	cx->host->free(comp);
	return gg_encode(cx, &all, out);
}

int
graph_hooks_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	const struct rules *r = rules_of(cx);
	struct gg g, c;
	unsigned char b[GG_BYTES];
	int a = 0, rc = gg_decode_tags(cx, pos, len, &g, r->cells);

	if (rc < 0)
		return rc;
	while (a < g.n) {
		a = gg_component(&g, a, &c);
		if (live(r, &c) && emit(ctx, b, gg_encode_raw(&c, b), NULL))
			return CG_STOP;
	}
	return CG_OK;
}

/* The file's measure: its terms count vertices by tint. */
int
graph_hooks_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	const struct rules *r = rules_of(cx);
	struct gg g;
	int rc = gg_decode_tags(cx, pos, len, &g, r->cells), v, t;
	uint64_t total = 0;

	if (rc < 0)
		return rc;
	for (v = 0; v < g.n; v++)
		for (t = 0; t < r->nterm; t++)
			if (cs_has(&r->term[t].set, (unsigned char)g.tag[v]))
				total += (uint64_t)r->term[t].coef;
	*m = total;
	return CG_OK;
}
