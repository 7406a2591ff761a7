/* outcome.h - outcome, nimber and misere search engines (cg-outcome).
 *
 * A solver works on components: canonical positions of one ruleset
 * (plugin mode) or nodes of a cgt document (document mode), numbered as
 * they are met.  A position is a multiset of components.
 *
 *  - Impartial normal play (Lemoine-Viennot "nimber" nodes): a couple
 *    (C, n) stands for C + *n; its children are (C, i), i < n, and (C', n)
 *    for each option C'.  Components of known nimber are folded into n;
 *    when a child has several unknown components, all but one get their
 *    nimbers computed (C, 0), (C, 1), ... until a loss.  Only losing
 *    couples define nimbers; wins are remembered as a bit mask per
 *    component (n < 63).  So an outcome query computes no more nimbers
 *    than it must.
 *  - Partizan normal play and misere play (any game): depth-first search
 *    of whole sums with a transposition table, early cut-offs and move
 *    ordering (smaller children first, or the plugin's order_key).
 *  - Misere nim values and genus (impartial): full evaluation of the
 *    genus sequence over sums (CGSuite's recursion).
 * Every search runs on an explicit stack; none recurses.
 */
#ifndef CG_OUTCOME_H
#define CG_OUTCOME_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "format/doc.h"
#include "host/plugin.h"

struct cg_solver;

/* How outcome and nimber queries search (misere nim values and genus
 * are always computed by the depth-first evaluation): an engine of the
 * table in engine.h, by the name --search gives it ("dfs", "pns",
 * "dfpn", "pn2", "bits"), or auto (NULL: picked per query, see
 * cg-outcome(1)).  Parsing returns -1 when the name is unknown;
 * cg_search_names appends every name ("auto, dfs, ... or bits"). */
struct cg_engine;
const char *cg_search_name(const struct cg_engine *e);
int cg_search_parse(const char *name, const struct cg_engine **e);
void cg_search_names(struct cg_buf *out);

/* Results of the queries: >= 0 a value, or one of these. */
#define CG_SOLVE_INTERRUPTED (-1)

struct cg_solver_stats {
	uint64_t expanded;   /* positions expanded (options generated) */
	uint64_t solved;     /* results recorded */
	uint64_t formed;     /* sums settled by the canonical forms of
	                      * their components */
	uint64_t mreduced;   /* misere sums searched as an equal sum of
	                      * fewer or shorter components */
	uint64_t sighted;    /* partizan components whose canonical forms
	                      * the ruleset gave on sight (cg.value) */
};

/* A solver for the positions of plugin rs (canonical bytes). */
struct cg_solver *cg_solver_new(struct cg_plugin *rs);
/* A solver whose components are the nodes of d (expanded nodes use their
 * option lists; unexpanded nodes with a position use their plugin). */
struct cg_solver *cg_solver_new_doc(struct cg_doc *d);
void cg_solver_free(struct cg_solver *s);
/* The plugin of a plugin-mode solver (NULL in document mode). */
struct cg_plugin *cg_solver_plugin(struct cg_solver *s);
/* The position graph whose vertices are the solver's components. */
struct cg_graph *cg_solver_graph(struct cg_solver *s);

/* Is the game impartial (plugin flag, or a document whose options are
 * the same for both sides)? */
int cg_solver_impartial(struct cg_solver *s);

/* Components of a position: plugin bytes (plugin mode).  Returns the
 * number; *ids is malloc'ed.  Exits on a plugin error. */
size_t cg_solver_components(struct cg_solver *s, const unsigned char *pos,
    size_t len, uint32_t **ids);
/* The components of document node x (document mode), as above. */
size_t cg_solver_node(struct cg_solver *s, uint32_t x, uint32_t **ids);

/* Queries on a sum of components.  Each returns CG_SOLVE_INTERRUPTED when
 * *interrupt became non-zero during the search (results found so far are
 * kept). */
/* Outcome class 'L', 'R', 'N' or 'P' (misere when misere is set). */
int cg_solver_outcome(struct cg_solver *s, const uint32_t *ids, size_t n,
    int misere);
/* The outcome class of a position from whether Left wins moving first
 * (lw) and whether Right does (rw): 'N', 'L', 'R' or 'P'. */
static inline int
cg_outcome_class(int lw, int rw)
{
	if (lw && rw)
		return 'N';
	if (lw)
		return 'L';
	if (rw)
		return 'R';
	return 'P';
}
/* Normal-play nim value (impartial games). */
int64_t cg_solver_nimber(struct cg_solver *s, const uint32_t *ids, size_t n);
/* Misere nim value (impartial games). */
int64_t cg_solver_misere_nimber(struct cg_solver *s, const uint32_t *ids,
    size_t n);
/* Genus in CGSuite notation appended to out; 0 or interrupted. */
int cg_solver_genus(struct cg_solver *s, const uint32_t *ids, size_t n,
    struct cg_buf *out);

/* Emit every option of the sum for side: the move's component index in
 * ids, the option's own move name, and the child as a sum of components
 * (ids valid during the call only). */
typedef int (*cg_solver_child_fn)(void *ctx, const char *move,
    const uint32_t *child, size_t nchild);
void cg_solver_children(struct cg_solver *s, const uint32_t *ids, size_t n,
    enum cg_side side, cg_solver_child_fn fn, void *ctx);

/* Printable text of a sum (plugin mode: components printed and joined the
 * way the ruleset parses them back; document mode: node labels). */
void cg_solver_print_sum(struct cg_solver *s, const uint32_t *ids, size_t n,
    struct cg_buf *out);

/* The search used by outcome and nimber queries (default AUTO), and
 * the worker threads a proof-number search may use (default 1); the
 * results do not depend on either. */
void cg_solver_set_search(struct cg_solver *s, const struct cg_engine *e);
void cg_solver_set_jobs(struct cg_solver *s, unsigned jobs);
/* The bit search's checkpoint (NULL: none): its costly results are
 * appended to path as they come and put back into a later run's table
 * (bits.c). */
void cg_solver_set_checkpoint(struct cg_solver *s, const char *path);
/* The most bytes the checkpoint file holds (0: no bound): past them it is
 * written afresh with the costliest results (bits.c). */
void cg_solver_set_checkpoint_size(struct cg_solver *s, uint64_t bytes);

/* The interrupt flag polled by searches (SIGINT/SIGTERM handlers set it). */
void cg_solver_set_interrupt(struct cg_solver *s,
    volatile sig_atomic_t *flag);
/* Progress: fn is called about every `every` expansions. */
void cg_solver_set_progress(struct cg_solver *s,
    void (*fn)(struct cg_solver *s, void *arg), void *arg, uint64_t every);
/* The computing branch: for each level from the root, "k/n" = the child
 * being searched and how many there are. */
void cg_solver_branch(struct cg_solver *s, struct cg_buf *out);
/* Bounded tables: a normal-play partizan depth-first search whose tables
 * pass bytes starts again from the root with what it solved at some cost
 * (dfs.c, "restarts"); 0 = no bound.  cg_solver_restarts: how often. */
void cg_solver_set_budget(struct cg_solver *s, size_t bytes);
/* The proof-number searches collect their tree (pntree.c) when it passes
 * bytes; 0 (the default): two fifths of --max-memory, or a quarter of
 * the machine.  Set before the first search. */
void cg_solver_set_tree_limit(struct cg_solver *s, size_t bytes);
uint64_t cg_solver_restarts(struct cg_solver *s);
const struct cg_solver_stats *cg_solver_stats(struct cg_solver *s);
size_t cg_solver_memory(struct cg_solver *s);
/* The largest tables of a bit search so far (freed when its query
 * ends, so cg_solver_memory no longer counts them); 0 when none ran. */
size_t cg_solver_bits_peak(struct cg_solver *s);
/* Results the bit search put back from its checkpoint. */
size_t cg_solver_bits_loaded(struct cg_solver *s);

/* ------------------------------------------------------- known nimbers */

/* Number of components met so far, and component c's key bytes. */
size_t cg_solver_ncomponents(struct cg_solver *s);
const unsigned char *cg_solver_key(struct cg_solver *s, uint32_t c,
    size_t *len);
/* Component c's known nimber or -1. */
int64_t cg_solver_known_nimber(struct cg_solver *s, uint32_t c);
/* Record nim(c) = v; returns 0, or -1 (and leaves it) if c already has a
 * different known nimber or a recorded win at v. */
int cg_solver_set_nimber(struct cg_solver *s, uint32_t c, uint32_t v);
/* Misere-losing sums met so far (impartial misere searches): call fn for
 * each, in the order they were found. */
void cg_solver_each_misere_loss(struct cg_solver *s,
    void (*fn)(void *ctx, const uint32_t *ids, size_t n), void *ctx);
/* Record that the sum ids is a misere loss (player to move loses);
 * -1 when a win is already recorded for it. */
int cg_solver_set_misere_loss(struct cg_solver *s, const uint32_t *ids,
    size_t n);

/* Called for every new component (plugin mode) with its canonical bytes,
 * e.g. to look it up in databases; may call cg_solver_set_nimber. */
void cg_solver_set_lookup(struct cg_solver *s,
    void (*fn)(void *ctx, struct cg_solver *s, uint32_t c,
    const unsigned char *key, size_t len), void *ctx);

/* Check mode: a guide tells which children are probably losing (tried
 * first); it is never trusted as a result.  guide_nimber(ctx, c) returns
 * the guide's nimber for component c or -1. */
void cg_solver_set_guide(struct cg_solver *s,
    int64_t (*guide_nimber)(void *ctx, struct cg_solver *s, uint32_t c),
    void *ctx);

#endif
