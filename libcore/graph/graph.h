/* graph.h - the position graph every engine walks.
 *
 * A vertex is one component: a position of a ruleset that the ruleset
 * does not split further, stored once as its canonical representative
 * (cg_rs_canonical: the same bytes for every position equal to it up to
 * the ruleset's symmetries), or a node of a cgt document given by its
 * option lists.  One table interns vertices by ruleset and canonical
 * bytes, so a transposition, a symmetric position or a component met in
 * two sums is one vertex.  Any position is a sum (a sorted list) of
 * vertices; a vertex's options are such sums, made through the plugin or
 * read from the document, so a tree from a document and a position from
 * a plugin take the same code path.
 *
 * A vertex carries what the engines found for it: its canonical form
 * (values/canon.h), a word for the outcome solver, a search-order key.
 * The solvers keep their own tables for what is not a vertex's own
 * value (sums searched as wholes, synchronized values).
 *
 * Threads: after cg_graph_share(g, 1), any number of threads may turn
 * positions into sums, expand vertices and read and set canonical forms
 * at once (the plugin gives each thread a state of its own).  Option
 * lists are then never cached, and the solver word is not for sharing.
 */
#ifndef CG_GRAPH_H
#define CG_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "format/doc.h"
#include "host/plugin.h"
#include "values/canon.h"

typedef uint32_t cg_vertex;

/* A growable list of vertices (a sum), owned by its user. */
struct cg_sum {
	cg_vertex *v;
	size_t n, cap;
};

void cg_sum_init(struct cg_sum *s);
void cg_sum_free(struct cg_sum *s);
void cg_sum_add(struct cg_sum *s, cg_vertex v);
/* Sort the vertices (sums are compared and printed sorted). */
void cg_sum_sort(struct cg_sum *s);

struct cg_graph;

struct cg_graph *cg_graph_new(void);
void cg_graph_free(struct cg_graph *g);
void cg_graph_share(struct cg_graph *g, int shared);

/* Give vertices for the nodes of d (cg_graph_node); the document must
 * outlive its use here.  A graph serves one document at a time; plugin
 * vertices stay across documents. */
void cg_graph_use_doc(struct cg_graph *g, struct cg_doc *d);
const struct cg_doc *cg_graph_doc(const struct cg_graph *g);

/* Append the components of a position of rs (any bytes the plugin
 * accepts) to sum, unsorted.  Exits with the plugin's message on error. */
void cg_graph_position(struct cg_graph *g, struct cg_plugin *rs,
    const unsigned char *pos, size_t len, struct cg_sum *sum);
/* Append the components of node x of the document in use: a node with
 * option lists is one vertex; a node with only a position is that
 * position's components. */
void cg_graph_node(struct cg_graph *g, uint32_t x, struct cg_sum *sum);
/* The vertex of a component of rs given by canonical bytes. */
cg_vertex cg_graph_vertex(struct cg_graph *g, struct cg_plugin *rs,
    const unsigned char *key, size_t len);
/* The same without making it: -1 when absent. */
int64_t cg_graph_find(const struct cg_graph *g, struct cg_plugin *rs,
    const unsigned char *key, size_t len);

size_t cg_graph_count(const struct cg_graph *g);
/* The ruleset of v (NULL for a document node) and its canonical bytes
 * (valid while the graph lives); a document node's index, or -1. */
struct cg_plugin *cg_graph_ruleset(const struct cg_graph *g, cg_vertex v);
const unsigned char *cg_graph_key(const struct cg_graph *g, cg_vertex v,
    size_t *len);
int64_t cg_graph_doc_node(const struct cg_graph *g, cg_vertex v);

/*
 * Call fn for every option of v for side, in the plugin's (or the
 * document's) order: the move's name (or NULL) and the option as a sorted
 * sum of vertices (valid during the call).  Returns 1 when fn stopped the
 * enumeration (by returning non-zero), else 0.  fn may use the graph,
 * even expand other vertices.
 */
typedef int (*cg_option_fn)(void *ctx, const char *move,
    const cg_vertex *sum, size_t n);
int cg_graph_options(struct cg_graph *g, cg_vertex v, enum cg_side side,
    cg_option_fn fn, void *ctx);
/* The same, always from the plugin or document, with the moves' names
 * (cg_graph_options gives NULL names when it replays kept lists). */
int cg_graph_expand(struct cg_graph *g, cg_vertex v, enum cg_side side,
    cg_option_fn fn, void *ctx);
/* Every option of v for side appended to out as [n, v1 .. vn] (sorted
 * vertices), the number of options returned: what cg_graph_options
 * gives, with the table searched for all the options' components at once
 * (their cache misses overlap).  For walks that want every option. */
size_t cg_graph_all_options(struct cg_graph *g, cg_vertex v,
    enum cg_side side, struct cg_sum *out);
/* Keep option lists of vertices expanded twice, up to this many bytes
 * (default 256 MB; 0 keeps none).  Not when shared. */
void cg_graph_cache_limit(struct cg_graph *g, size_t bytes);

/* The canonical form found for v, or CG_NO_GAME; setting it is idempotent
 * (equal games have equal ids), so threads may race to set it. */
cg_game cg_graph_canon(const struct cg_graph *g, cg_vertex v);
void cg_graph_set_canon(struct cg_graph *g, cg_vertex v, cg_game value);
/* Claims, for evaluations shared by threads: claim v for worker (1 when
 * claimed now, 0 when another worker holds it), release it, and the
 * worker holding it (-1 for none). */
int cg_graph_claim(struct cg_graph *g, cg_vertex v, unsigned worker);
void cg_graph_release(struct cg_graph *g, cg_vertex v);
int cg_graph_owner(const struct cg_graph *g, cg_vertex v);
/* The outcome solver's word of v (see solve/solver_int.h). */
uint64_t *cg_graph_word(struct cg_graph *g, cg_vertex v);
/* Search order (smaller first): the plugin's order_key, else the key's
 * length, else the number of options for a document node. */
int64_t cg_graph_order(struct cg_graph *g, cg_vertex v);
/* The ruleset's move-count bounds of v (cgx/movecounts.h) in *b, kept
 * with v; 0 when it has none.  b->flags has every CG_BOUNDS_* flag:
 * room[s] is CG_GRAPH_ROOM_NONE when the ruleset makes no claim; first[s]
 * is sure[s] then; first_sure[s] and first_room[s] give the room lead
 * (cg_bounds_room_lead) the ruleset's give, at most 255, and no more. */
#define CG_GRAPH_ROOM_NONE 0xFFFFu
struct cg_move_bounds;
int cg_graph_counts(struct cg_graph *g, cg_vertex v, struct cg_move_bounds *b);

/* Options in search order from now on (cg_rs_search_options): for a
 * graph that serves a search, not one whose moves are listed. */
void cg_graph_search_order(struct cg_graph *g);

/* A vertex with its ruleset measure (cg_rs_measure), for work done
 * smallest first; cg_measured_cmp orders by measure, then vertex. */
struct cg_measured {
	uint64_t measure;
	cg_vertex v;
};
int cg_measured_cmp(const void *a, const void *b);

/* Whether side has an option at v (its first one, not interned). */
int cg_graph_has_option(struct cg_graph *g, cg_vertex v, enum cg_side side);

/* Called for every new plugin vertex, e.g. to look it up in bases. */
void cg_graph_on_new_vertex(struct cg_graph *g,
    void (*fn)(void *ctx, struct cg_graph *g, cg_vertex v), void *ctx);

/* A sum as text the ruleset reads back (components joined as the ruleset
 * parses a sum), or document labels; "0" for the empty sum of a ruleset
 * whose empty position does not print. */
void cg_graph_print_sum(struct cg_graph *g, struct cg_plugin *rs,
    const cg_vertex *sum, size_t n, struct cg_buf *out);
/* One vertex's text. */
void cg_graph_print(struct cg_graph *g, cg_vertex v, struct cg_buf *out);

size_t cg_graph_memory(const struct cg_graph *g);

#endif
