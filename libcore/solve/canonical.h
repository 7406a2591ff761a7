/* canonical.h - canonical forms of positions, bottom-up over the position
 * graph.
 *
 * A component's canonical form is {its Left options | its Right options}
 * canonicalised by the store, an option's the sum of its components'
 * forms; each vertex is expanded once and its form kept in the graph, so
 * no subposition is evaluated twice and a sum costs no more than its
 * components.  Values a ruleset knows on sight (the cg.value extension:
 * game literals) and values the caller knows (knowledge bases) are taken
 * as they are.  The walk keeps its own stack: no recursion, whatever the
 * depth of the game.  Several threads may evaluate in one shared graph at
 * once: equal games are equal ids, so two threads that meet one vertex
 * agree on its form. */
#ifndef CG_CANONICAL_H
#define CG_CANONICAL_H

#include <signal.h>
#include <stdint.h>

#include "graph/graph.h"
#include "values/canon.h"

struct cg_canon_eval {
	/* A value known for vertex v (CG_NO_GAME when none), e.g. from
	 * knowledge bases; optional. */
	cg_game (*known)(void *ctx, struct cg_graph *g, cg_vertex v);
	void *ctx;
	/* Set non-zero (e.g. by a signal handler) to stop early: the
	 * evaluation returns CG_NO_GAME. */
	volatile sig_atomic_t *interrupt;
	/* Where the positions came from, for messages (NULL, 0: none). */
	const char *file;
	unsigned long line;
	/* Counts components evaluated here (not atomic: one per thread). */
	uint64_t evaluated;
	/* When not 0: give up (CG_NO_GAME) rather than evaluate a component
	 * once evaluated has reached it; the forms made so far stay in the
	 * graph.  For callers to whom a form is worth a bounded cost. */
	uint64_t limit;
	/* Set when threads evaluate in one graph at once and should share
	 * the work (cg_canonical_parallel sets it). */
	int shared;
	/* Data errors (a value past the store's bounds, a value on sight
	 * the store cannot hold): 0, the program stops with "file:line:
	 * message"; 1, the evaluation returns CG_NO_GAME with the message in
	 * error, the forms made so far kept, and the caller goes on (the
	 * caller clears error). */
	int recover;
	char error[256];
	/* Set by cg_canonical_parallel: one worker's data error stops the
	 * others. */
	volatile sig_atomic_t *abandon;
};

/* The canonical form of vertex v, or CG_NO_GAME when interrupted (or,
 * with recover, on a data error).  A position that repeats (a loopy game)
 * is a fatal error. */
cg_game cg_canonical_vertex(struct cg_graph *g, cg_vertex v,
    struct cg_canon_eval *ev);
/* The canonical form of a sum of vertices. */
cg_game cg_canonical_sum(struct cg_graph *g, const cg_vertex *sum, size_t n,
    struct cg_canon_eval *ev);
/* The canonical form of a sum on jobs threads sharing the graph (which
 * must be shared: cg_graph_share), evs[0 .. jobs-1] one per worker; the
 * same value as cg_canonical_sum.  Rulesets without a measure are
 * evaluated by one thread (nothing proves they cannot loop). */
cg_game cg_canonical_parallel(struct cg_graph *g, const cg_vertex *sum,
    size_t n, unsigned jobs, struct cg_canon_eval *evs);
/* The form of v made afresh from its options (their forms found or
 * computed as usual), not read from the graph: to check a stored value.
 * CG_NO_GAME when interrupted. */
cg_game cg_canonical_rederive(struct cg_graph *g, cg_vertex v,
    struct cg_canon_eval *ev);
/* The value the ruleset of v gives on sight (cg.value; for heap games the
 * nim value the heap rules give), or CG_NO_GAME. */
cg_game cg_canonical_on_sight(struct cg_graph *g, cg_vertex v,
    const char *file, unsigned long line);

#endif
