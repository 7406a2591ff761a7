/* explore.h - the positions of a loopy ruleset (CG_LOOPY) reachable from
 * some roots by either player's moves, as a graph for retro.h.
 *
 * Positions are hash-consed by their canonical bytes (cg_rs_canonical:
 * a position equal to another up to the ruleset's symmetries is the same
 * node), in the table every position graph uses (base/bytemap.h).  Nodes
 * are numbered in the order they are met, breadth first, so each node's
 * option rows are appended whole as it is expanded: the graph is built
 * in its compressed form directly, a few words per option. */
#ifndef CG_SOLVE_EXPLORE_H
#define CG_SOLVE_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "host/plugin.h"
#include "solve/retro.h"

struct cg_explore;

struct cg_explore *cg_explore_new(struct cg_plugin *rs);
void cg_explore_free(struct cg_explore *e);

/* The node of a position of the ruleset (new, or the one equal to it up
 * to symmetry).  Exits with the plugin's message on a bad position. */
uint32_t cg_explore_add(struct cg_explore *e, const unsigned char *pos,
    size_t len);

/* Expand every node not yet expanded, and the nodes their options make,
 * until none is left: 0.  Polls cg_stop (a signal, the memory limit)
 * between options and ticks the progress reports once a position: -1
 * when stopped (the graph is then partial; more calls go on).  Exits
 * with "ruleset 'NAME': message" when the plugin fails, and when the
 * graph would pass 2^32 - 2 nodes or options. */
int cg_explore_run(struct cg_explore *e);

/* The graph so far (pointing into e: valid until the next add or run).
 * Nodes not yet expanded have no options. */
void cg_explore_graph(struct cg_explore *e, struct cg_retro_graph *g);

uint32_t cg_explore_count(const struct cg_explore *e);       /* nodes */
uint32_t cg_explore_expanded(const struct cg_explore *e);
uint64_t cg_explore_options(const struct cg_explore *e);     /* edges */
size_t cg_explore_memory(const struct cg_explore *e);

/* Node x's position text (the ruleset's print of its canonical bytes). */
void cg_explore_print(struct cg_explore *e, uint32_t x, struct cg_buf *out);
/* Node x's canonical bytes (valid while e lives). */
const unsigned char *cg_explore_key(const struct cg_explore *e, uint32_t x,
    size_t *len);

#endif
