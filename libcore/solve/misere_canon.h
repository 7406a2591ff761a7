/* misere_canon.h - misere canonical forms of positions, bottom-up over the
 * position graph (values/misere.h holds the forms).
 *
 * A component's form is the canonical game of its options, an option's
 * the sum of its components' forms; each vertex is expanded once and its
 * form kept here.  Only impartial games have misere canonical forms: a
 * vertex of a ruleset that does not declare itself impartial (a game
 * literal, a document node) is checked, and one whose Left and Right
 * options differ is an error, as is a position that comes back while it
 * is evaluated (a loopy game).  The walk keeps its own stack. */
#ifndef CG_MISERE_CANON_H
#define CG_MISERE_CANON_H

#include <signal.h>
#include <stdint.h>

#include "graph/graph.h"
#include "values/misere.h"

struct cg_misere_eval;

struct cg_misere_eval *cg_misere_eval_new(struct cg_graph *g,
    struct cg_mtab *t, volatile sig_atomic_t *interrupt);
void cg_misere_eval_free(struct cg_misere_eval *ev);
/* The form of the sum sum[0..n) in *out: 0; -1 with the reason in msg
 * for a partizan or loopy position; -2 when interrupted. */
int cg_misere_sum(struct cg_misere_eval *ev, const cg_vertex *sum,
    size_t n, uint32_t *out, char *msg, size_t msgsize);

/* The same for node x of the document in use (cg_graph_node). */
int cg_misere_node(struct cg_misere_eval *ev, uint32_t x, uint32_t *out,
    char *msg, size_t msgsize);

#endif
