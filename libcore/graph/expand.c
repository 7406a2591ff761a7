/* expand.c - a document's roots expanded into their options (see
 * expand.h): positions through their plugin, breadth first, each one
 * node of the document however many times and ways it is reached. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "graph/expand.h"
#include "graph/graph.h"

struct expander {
	struct cg_doc *d;
	struct cg_graph *seen;    /* positions, by ruleset and canonical bytes */
	uint32_t *node;           /* vertex -> document node + 1 */
	size_t capnode;
	unsigned long max_depth;
	int joint;
	struct cg_buf canon;
	uint32_t *queue;
	uint32_t *origin;         /* per queued node: the root it came from */
	unsigned long *depth;
	size_t qhead, qtail, qcap;
	unsigned char *done;      /* per node: taken from the queue */
	size_t ndone;
	uint32_t parent;
	enum cg_side side;
	unsigned long cur_depth;
	uint32_t cur_origin;
	/* joint-option state */
	size_t ji, jj;
};

static void
push(struct expander *e, uint32_t node, unsigned long depth, uint32_t origin)
{
	if (node < e->ndone && e->done[node])
		return;
	if (e->qtail == e->qcap) {
		e->qcap = e->qcap ? e->qcap * 2 : 256;
		e->queue = cg_xreallocarray(e->queue, e->qcap, sizeof *e->queue);
		e->origin = cg_xreallocarray(e->origin, e->qcap,
		    sizeof *e->origin);
		e->depth = cg_xreallocarray(e->depth, e->qcap, sizeof *e->depth);
	}
	e->queue[e->qtail] = node;
	e->origin[e->qtail] = origin;
	e->depth[e->qtail] = depth;
	e->qtail++;
}

/* The node word of a position (0: none yet): positions equal up to the
 * ruleset's symmetries share one vertex of the graph, so one node. */
static uint32_t *
node_of(struct expander *e, struct cg_plugin *rs, const unsigned char *pos,
    size_t len)
{
	cg_vertex v;

	e->canon.len = 0;
	if (cg_rs_canonical(rs, pos, len, &e->canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	v = cg_graph_vertex(e->seen, rs, e->canon.data, e->canon.len);
	e->node = cg_xgrow_zero(e->node, &e->capnode, v, sizeof *e->node);
	return &e->node[v];
}

/* The node for a position: an existing one equal up to symmetry, or new. */
static uint32_t
intern(struct expander *e, struct cg_plugin *rs, const unsigned char *pos,
    size_t len)
{
	uint32_t *val = node_of(e, rs, pos, len), node;

	if (*val != 0) {
		/* reached again, perhaps by a shorter path than before */
		node = *val - 1;
		push(e, node, e->cur_depth + 1, e->cur_origin);
		return node;
	}
	node = cg_doc_add_node(e->d, rs, pos, len, NULL);
	*val = node + 1;
	push(e, node, e->cur_depth + 1, e->cur_origin);
	return node;
}

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct expander *e = ctx;
	struct cg_plugin *rs = e->d->node[e->parent].rs;
	uint32_t child;

	/* a position may have millions of options: stop among them */
	if (cg_stop)
		return 1;
	child = intern(e, rs, pos, len);
	cg_doc_add_option(e->d, e->parent, e->side, child, move);
	cg_progress_tick();
	return 0;
}

static int
on_joint(void *ctx, size_t i, size_t j, const unsigned char *pos, size_t len)
{
	struct expander *e = ctx;
	struct cg_plugin *rs = e->d->node[e->parent].rs;
	uint32_t child;

	if (cg_stop)
		return 1;
	child = intern(e, rs, pos, len);
	cg_doc_add_joint(e->d, e->parent, (uint32_t)i, (uint32_t)j, child);
	return 0;
}

static void
expand_node(struct expander *e, uint32_t x)
{
	struct cg_node *n = &e->d->node[x];
	struct cg_plugin *rs = n->rs;
	int s;

	if (n->expanded || rs == NULL || n->pos == NULL)
		return;
	/* options listed without an 'E' record are a partial list: the
	 * plugin gives them all again */
	for (s = 0; s < 2; s++) {
		uint32_t k;

		for (k = 0; k < n->nopt[s]; k++)
			free(n->opt[s][k].move);
		n->nopt[s] = 0;
	}
	n->njoint = 0;
	e->parent = x;
	for (s = 0; s < 2; s++) {
		e->side = (enum cg_side)s;
		if (cg_rs_options(rs, e->d->node[x].pos, e->d->node[x].poslen,
		    e->side, on_option, e) < 0)
			cg_die_at(e->d->file, e->d->node[x].line,
			    "ruleset '%s': %s", rs->name, cg_rs_errmsg(rs));
	}
	if (e->joint && (rs->rs->flags & CG_SYNCHRONIZED) &&
	    e->d->node[x].nopt[0] > 0 && e->d->node[x].nopt[1] > 0 &&
	    cg_rs_synch_options(rs, e->d->node[x].pos,
	    e->d->node[x].poslen, on_joint, e) < 0)
		cg_die_at(e->d->file, e->d->node[x].line, "ruleset '%s': %s",
		    rs->name, cg_rs_errmsg(rs));
	/* a list cut short by a stop is no node's whole list */
	if (!cg_stop)
		e->d->node[x].expanded = 1;
}

int
cg_expand_doc(struct cg_doc *d, unsigned long max_depth, int joint,
    struct cg_expand_stats *st)
{
	struct expander e;
	struct cg_expand_stats own;
	uint32_t i, k, x;
	int s, rc = 0;

	if (st == NULL)
		st = &own;
	memset(st, 0, sizeof *st);

	memset(&e, 0, sizeof e);
	e.d = d;
	e.seen = cg_graph_new();
	e.max_depth = max_depth;
	e.joint = joint;
	cg_buf_init(&e.canon);
	/* existing nodes take part in transposition merging */
	for (i = 0; i < d->n; i++) {
		struct cg_node *n = &d->node[i];
		uint32_t *val;

		if (n->rs == NULL || n->pos == NULL)
			continue;
		val = node_of(&e, n->rs, n->pos, n->poslen);
		if (*val == 0)
			*val = i + 1;
	}
	for (i = 0; i < d->nroot; i++)
		push(&e, d->root[i], 0, d->root[i]);
	while (e.qhead < e.qtail) {
		x = e.queue[e.qhead];
		e.cur_depth = e.depth[e.qhead];
		e.cur_origin = e.origin[e.qhead];
		e.qhead++;
		/* breadth first: the first visit has the least depth */
		if (x < e.ndone && e.done[x])
			continue;
		if (x >= e.ndone) {
			size_t n = e.ndone ? e.ndone : 64;

			while (n <= x)
				n *= 2;
			e.done = cg_xrealloc(e.done, n);
			memset(e.done + e.ndone, 0, n - e.ndone);
			e.ndone = n;
		}
		e.done[x] = 1;
		if (e.max_depth != 0 && e.cur_depth >= e.max_depth)
			continue;
		if (d->node[x].expanded) {
			/* already expanded in the input: walk into it */
			for (s = 0; s < 2; s++)
				for (k = 0; k < d->node[x].nopt[s]; k++)
					push(&e, d->node[x].opt[s][k].child,
					    e.cur_depth + 1, e.cur_origin);
			continue;
		}
		expand_node(&e, x);
		st->expanded++;
		st->depth = e.cur_depth;
		st->waiting = e.qtail - e.qhead;
		if (cg_stop) {
			st->root = e.cur_origin;
			rc = -1;
			break;
		}
		cg_progress_tick();
	}
	cg_graph_free(e.seen);
	free(e.node);
	cg_buf_free(&e.canon);
	free(e.queue);
	free(e.origin);
	free(e.depth);
	free(e.done);
	return rc;
}

