/* solver_int.h - the solver object every engine works in (solver.c):
 * its graph, tables, stop, progress and statistics, and the
 * per-component word.  Not for tools (they use outcome.h); engines add
 * their own headers beside it (sums.h, settle.h, engine.h).
 *
 * The component word (cg_graph_word) holds what is known of a component
 * C in impartial normal play: bit 63 set = its nim value is known (low 32
 * bits); otherwise bit n (n < 63) set = C + *n is known to be a win for
 * the player to move.  Words may be read and written by several worker
 * threads at once (parallel searches): reads are atomic loads, a nim
 * value is one atomic store, a win bit an atomic compare-and-swap that
 * never touches a word whose value is known. */
#ifndef CG_SOLVER_INT_H
#define CG_SOLVER_INT_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "base/buf.h"
#include "graph/graph.h"
#include "solve/outcome.h"

#define NIM_KNOWN   ((uint64_t)1 << 63)
#define WINBITS     63

struct frame;
struct otab;
struct cg_mtab;
struct pns;
struct cg_engine;

struct cg_solver {
	struct cg_plugin *rs;   /* plugin mode */
	struct cg_doc *doc;     /* document mode */
	int impartial;
	struct cg_graph *graph; /* the components */
	int own_graph;
	struct otab *sums;
	/* misere canonical games (genus sums 'G' hold game + 1) */
	struct cg_mtab *mt;
	/* stack */
	struct frame *fr;
	size_t nfr, capfr;
	uint32_t *ar;
	size_t arlen, arcap;
	int64_t ret;
	/* scratch */
	uint32_t *offs;
	size_t noffs, capoffs;
	struct cg_buf key, skey;
	struct keyref *keyref;  /* carry_key's sort buffer */
	size_t capkeyref;
	uint32_t *ids2;
	size_t capids2;
	volatile sig_atomic_t *interrupt;
	void (*progress)(struct cg_solver *, void *);
	void *progress_arg;
	uint64_t every, next_progress;
	struct cg_solver_stats stats;
	int64_t (*guide)(void *, struct cg_solver *, uint32_t);
	void *guide_ctx;
	void (*lookup)(void *, struct cg_solver *, uint32_t,
	    const unsigned char *, size_t);
	void *lookup_ctx;
	pthread_mutex_t lookup_lock;   /* lookups from worker threads */
	/* the ruleset offers cg.move-counts (normal partizan play) */
	int counts;
	/* impartial: new components get the nim values the ruleset knows on
	 * sight (cg.value), e.g. 0 for a Cram region symmetric by a half turn */
	int sight;
	/* partizan: components get the canonical forms the ruleset knows on
	 * sight (cg.value, a game literal's own value) when the search asks
	 * for them, instead of being expanded; per component, whether it
	 * was asked (settle.c) */
	int psight;
	unsigned char *sighted;
	size_t capsighted;
	/* integer values of components (normal partizan play) */
	int32_t *ival;
	size_t capival;
	/* per component: the sums it was met in, up to FORM_SEEN, or
	 * NOFORM when its canonical form costs too much (settle.c) */
	unsigned char *noform;
	size_t capnoform;
	/* misere play: per component, its misere canonical game + 2 (1: too
	 * big to make), and per canonical game the component that stands for
	 * every component of that game in the sums searched (dfs_misere.c) */
	uint32_t *mform, *mheight;
	size_t capmform;
	uint32_t *mrep;
	size_t capmrep;
	size_t mform_bytes, mform_work;
	uint64_t gen_left;      /* expansions left to a form, 0: no bound */
	/* misere losses found, in order (sum entries) */
	uint64_t *mloss;
	size_t nmloss, capmloss;
	/* the engine asked for (--search; NULL: auto, engines.c) */
	const struct cg_engine *engine;
	unsigned jobs;                 /* worker threads a search may use */
	struct pns *pns;               /* the proof-number tree (pntree.c) */
	struct cg_solver *parent;      /* a worker's solver: its owner */
	/* bounded tables (dfs.c, "restarts"): the budget of a scratch
	 * solver's tables; the results it carries across restarts */
	size_t budget;
	size_t tree_limit;             /* pntree.c's collections, 0: default */
	int restart;                   /* over budget: unwind, start again */
	struct otab *carry;            /* the owner's, lent to its scratch */
	uint64_t carry_min;            /* expansions a carried result took */
	uint64_t restarts;
	int scratch;                   /* a bounded search's scratch solver */
	struct cg_solver *live;        /* the scratch at work, for reports */
	struct cg_solver_stats view;   /* own stats plus the live scratch's */
	struct bits *bits;             /* the bit search at work (bits.c) */
	size_t bits_peak;              /* its largest tables so far */
	char *bits_ckpt;               /* its checkpoint file, or NULL */
	uint64_t bits_ckpt_size;       /* the bytes it may hold, 0: any */
	struct bits_store *bits_store; /* what it holds (bits.c) */
	size_t bits_loaded;            /* results put back from it */
};

/* Once a stop is asked for, an expansion may have been cut short (the
 * graph stops enumerating options at once): from then on nothing is
 * recorded, so no half-seen position is ever taken as solved. */
#define STOPPED(s) (((s)->interrupt != NULL && *(s)->interrupt) || \
	(s)->restart)

/* Offsets of the child records of the expansion in progress (one
 * buffer per solver: several solvers may run in several threads). */
#define offbuf (s->offs)
#define noffbuf (s->noffs)

typedef int (*option_fn)(void *, const char *, const uint32_t *, size_t);

static inline int
comp_options(struct cg_solver *s, uint32_t c, enum cg_side side,
    option_fn fn, void *ctx)
{
	return cg_graph_options(s->graph, c, side, fn, ctx);
}

static inline int64_t
okey(struct cg_solver *s, uint32_t c)
{
	return cg_graph_order(s->graph, c);
}

static inline uint64_t *
cval(struct cg_solver *s, uint32_t c)
{
	return cg_graph_word(s->graph, c);
}

static inline uint64_t
cword(struct cg_solver *s, uint32_t c)
{
	return __atomic_load_n(cval(s, c), __ATOMIC_RELAXED);
}

static inline int64_t
known(struct cg_solver *s, uint32_t c)
{
	uint64_t v = cword(s, c);

	return (v & NIM_KNOWN) ? (int64_t)(uint32_t)v : -1;
}

static inline int
winbit(struct cg_solver *s, uint32_t c, uint32_t n)
{
	uint64_t v = cword(s, c);

	return !(v & NIM_KNOWN) && n < WINBITS && (v >> n & 1);
}

static inline void
setwin(struct cg_solver *s, uint32_t c, uint32_t n)
{
	uint64_t *w, v;

	if (STOPPED(s) || n >= WINBITS)
		return;
	w = cval(s, c);
	v = __atomic_load_n(w, __ATOMIC_RELAXED);
	while (!(v & NIM_KNOWN) && !(v >> n & 1))
		if (__atomic_compare_exchange_n(w, &v, v | (uint64_t)1 << n,
		    0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			break;
}

static inline void
setnim(struct cg_solver *s, uint32_t c, uint32_t n)
{
	if (STOPPED(s))
		return;
	__atomic_store_n(cval(s, c), NIM_KNOWN | n, __ATOMIC_RELAXED);
	s->stats.solved++;
}

size_t cg_solver_memory(struct cg_solver *s);

/* A solver for a worker thread: the parent's graph (and so its component
 * words), tables and scratch of its own; freed with cg_solver_free. */
struct cg_solver *sv_worker(struct cg_solver *parent);

static inline void
tick(struct cg_solver *s)
{
	s->stats.expanded++;
	if (s->scratch && s->budget != 0 &&
	    (s->stats.expanded & 1023) == 0 &&
	    cg_solver_memory(s) > s->budget)
		s->restart = 1;
	if (s->progress != NULL && s->stats.expanded >= s->next_progress) {
		s->next_progress = s->stats.expanded + s->every;
		s->progress(s, s->progress_arg);
	}
}

#endif
