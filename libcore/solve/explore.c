/* explore.c - a loopy ruleset's reachable positions as a graph
 * (explore.h). */
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "solve/explore.h"

/* Node numbers and option counts stay below this, so a row end and the
 * count fit the graph's 32-bit words. */
#define EXPLORE_MAX (UINT32_MAX - 1)

struct row {
	uint32_t *v;
	size_t n, cap;
};

struct cg_explore {
	struct cg_plugin *rs;
	struct cg_bytemap *map;     /* canonical bytes -> node (entry number) */
	struct row off[2];          /* row starts of the expanded nodes */
	struct row to[2];
	uint32_t next;              /* the first node not expanded */
	int side;                   /* the side being expanded */
	struct cg_buf canon;
};

static void
row_push(struct row *r, uint32_t v)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->v = cg_xreallocarray(r->v, r->cap, sizeof *r->v);
	}
	r->v[r->n++] = v;
}

struct cg_explore *
cg_explore_new(struct cg_plugin *rs)
{
	struct cg_explore *e = cg_xcalloc(1, sizeof *e);
	int s;

	e->rs = rs;
	e->map = cg_bytemap_new();
	cg_buf_init(&e->canon);
	for (s = 0; s < 2; s++)
		row_push(&e->off[s], 0);
	return e;
}

void
cg_explore_free(struct cg_explore *e)
{
	int s;

	if (e == NULL)
		return;
	cg_bytemap_free(e->map);
	for (s = 0; s < 2; s++) {
		free(e->off[s].v);
		free(e->to[s].v);
	}
	cg_buf_free(&e->canon);
	free(e);
}

static void
plugin_failed(struct cg_explore *e)
{
	cg_die(CG_EXIT_DATA, "ruleset '%s': %s", e->rs->name,
	    cg_rs_errmsg(e->rs));
}

uint32_t
cg_explore_add(struct cg_explore *e, const unsigned char *pos, size_t len)
{
	uint64_t x;
	int isnew;

	e->canon.len = 0;
	if (cg_rs_canonical(e->rs, pos, len, &e->canon) < 0)
		plugin_failed(e);
	x = cg_bytemap_intern(e->map, e->canon.data, e->canon.len, &isnew);
	if (x >= EXPLORE_MAX)
		cg_die(CG_EXIT_DATA, "ruleset '%s': more than %lu positions "
		    "reachable", e->rs->name, (unsigned long)EXPLORE_MAX);
	return (uint32_t)x;
}

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct cg_explore *e = ctx;

	(void)move;
	/* a position may have many options: stop among them */
	if (cg_stop)
		return 1;
	if (e->to[e->side].n >= EXPLORE_MAX)
		cg_die(CG_EXIT_DATA, "ruleset '%s': more than %lu moves among "
		    "the positions reachable", e->rs->name,
		    (unsigned long)EXPLORE_MAX);
	row_push(&e->to[e->side], cg_explore_add(e, pos, len));
	return 0;
}

int
cg_explore_run(struct cg_explore *e)
{
	const unsigned char *key;
	size_t len;
	int s, rc;

	/* a limit already passed stops at once, not when the sampling
	 * thread next looks */
	if (!cg_watch_room(0))
		return -1;
	for (s = 0; s < 2; s++)
		e->off[s].n = (size_t)e->next + 1;
	while (e->next < cg_bytemap_count(e->map)) {
		/* keys never move, so the position may be read while its
		 * options are interned */
		key = cg_bytemap_key(e->map, e->next, &len);
		for (s = 0; s < 2; s++) {
			e->side = s;
			rc = cg_rs_options(e->rs, key, len, (enum cg_side)s,
			    on_option, e);
			if (rc < 0)
				plugin_failed(e);
			if (cg_stop) {
				/* a row cut short is no node's whole row */
				e->to[0].n = e->off[0].v[e->next];
				e->to[1].n = e->off[1].v[e->next];
				return -1;
			}
		}
		for (s = 0; s < 2; s++)
			row_push(&e->off[s], (uint32_t)e->to[s].n);
		e->next++;
		cg_progress_tick();
	}
	return 0;
}

void
cg_explore_graph(struct cg_explore *e, struct cg_retro_graph *g)
{
	uint32_t n = (uint32_t)cg_bytemap_count(e->map), x;
	int s;

	/* nodes met but not expanded get empty rows, so the graph is whole
	 * (the next run drops them again) */
	g->n = n;
	for (s = 0; s < 2; s++) {
		e->off[s].n = (size_t)e->next + 1;
		for (x = e->next; x < n; x++)
			row_push(&e->off[s], (uint32_t)e->to[s].n);
		g->off[s] = e->off[s].v;
		g->to[s] = e->to[s].v ? e->to[s].v : e->off[s].v;
	}
}

uint32_t
cg_explore_count(const struct cg_explore *e)
{
	return (uint32_t)cg_bytemap_count(e->map);
}

uint32_t
cg_explore_expanded(const struct cg_explore *e)
{
	return e->next;
}

uint64_t
cg_explore_options(const struct cg_explore *e)
{
	return (uint64_t)e->to[0].n + e->to[1].n;
}

size_t
cg_explore_memory(const struct cg_explore *e)
{
	return cg_bytemap_memory(e->map) + sizeof(uint32_t) *
	    (e->off[0].cap + e->off[1].cap + e->to[0].cap + e->to[1].cap);
}

const unsigned char *
cg_explore_key(const struct cg_explore *e, uint32_t x, size_t *len)
{
	return cg_bytemap_key(e->map, x, len);
}

void
cg_explore_print(struct cg_explore *e, uint32_t x, struct cg_buf *out)
{
	size_t len;
	const unsigned char *key = cg_bytemap_key(e->map, x, &len);

	if (cg_rs_print(e->rs, key, len, out) < 0)
		plugin_failed(e);
}
