/* outcome_int.h - what the outcome engines share inside solve/: the
 * solver's state, the per-component word, the tables of sums.  Not for
 * tools (they use outcome.h).
 *
 * The component word (cg_graph_word) holds what is known of a component
 * C in impartial normal play: bit 63 set = its nim value is known (low 32
 * bits); otherwise bit n (n < 63) set = C + *n is known to be a win for
 * the player to move.  Words may be read and written by several worker
 * threads at once (parallel searches): reads are atomic loads, a nim
 * value is one atomic store, a win bit an atomic compare-and-swap that
 * never touches a word whose value is known. */
#ifndef CG_OUTCOME_INT_H
#define CG_OUTCOME_INT_H

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
	 * was asked (outcome.c) */
	int psight;
	unsigned char *sighted;
	size_t capsighted;
	/* integer values of components (normal partizan play) */
	int32_t *ival;
	size_t capival;
	/* per component: the sums it was met in, up to FORM_SEEN, or
	 * NOFORM when its canonical form costs too much (outcome.c) */
	unsigned char *noform;
	size_t capnoform;
	/* misere play: per component, its misere canonical game + 2 (1: too
	 * big to make), and per canonical game the component that stands for
	 * every component of that game in the sums searched (outcome.c) */
	uint32_t *mform, *mheight;
	size_t capmform;
	uint32_t *mrep;
	size_t capmrep;
	size_t mform_bytes, mform_work;
	uint64_t gen_left;      /* expansions left to a form, 0: no bound */
	/* misere losses found, in order (sum entries) */
	uint64_t *mloss;
	size_t nmloss, capmloss;
	/* proof-number searches (pns.c) */
	enum cg_search search;
	unsigned jobs;
	struct pns *pns;
	struct cg_solver *parent;      /* a worker's solver: its owner */
	/* bounded tables (outcome.c, "restarts"): the budget of a scratch
	 * solver's tables; the results it carries across restarts */
	size_t budget;
	size_t tree_limit;             /* pns.c's collections, 0: default */
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

/* ------------------------------------------------- outcome.c for pns.c */

/* Order keys in 32 bits, order kept. */
uint32_t sv_clamp_key(int64_t k);
/* The sum entry of tag ('N' normal partizan, with integer part k; 'M'
 * misere; 'G' genus) and sorted components ids[0..n). */
uint64_t sv_sum_intern_k(struct cg_solver *s, int tag, int32_t k,
    const uint32_t *ids, size_t n, int *isnew);
/* The value word of sum entry e: bit 2 side = known, bit 2 side + 1 =
 * the player to move (side) wins. */
uint64_t *sv_sum_val(struct cg_solver *s, uint64_t e);
/* The key bytes of sum entry e, and the entry of such bytes (made when
 * new): sums carried between two solvers' tables. */
const unsigned char *sv_sum_key(struct cg_solver *s, uint64_t e,
    size_t *len);
uint64_t sv_sum_intern_key(struct cg_solver *s, const unsigned char *key,
    size_t len);
/* Fold the integer components of comps[0..*n) into *k (normal play). */
void sv_fold_ints(struct cg_solver *s, uint32_t *comps, size_t *n,
    int32_t *k);
/* Expand sum entry e for side into records [order key, entry lo, entry
 * hi] in s->ar, their offsets appended to s->offs from *off0; children
 * known to be wins for the player then to move (other) are left out, one
 * known to be a loss sets *cut and ends the enumeration (with SV_ALL:
 * every child recorded, nothing cut).  With SV_LAZY a child that is not
 * in the tables yet is not made: its record is [order key, integer part,
 * REC_LAZY, n, n components].  Returns the number of moves generated. */
#define SV_ALL  1
#define SV_LAZY 2
#define REC_LAZY UINT32_MAX     /* sum entries are below 2^32 (otab) */
uint64_t sv_expand_sum(struct cg_solver *s, uint64_t e, int tag, int side,
    int other, int flags, int *cut, size_t *off0);
/* Record the result of sum entry e for the player to move (side). */
void sv_sum_set(struct cg_solver *s, uint64_t e, int side, int win, int tag);

/* A solver for a worker thread: the parent's graph (and so its component
 * words), tables and scratch of its own; freed with cg_solver_free. */
struct cg_solver *sv_worker(struct cg_solver *parent);

/* ----------------------------------------------------- pns.c (engines) */

/* Outcome of an impartial sum in normal play, a partizan or misere sum
 * ('L', 'R', 'N', 'P'), or CG_SOLVE_INTERRUPTED; by s->search. */
int pns_outcome(struct cg_solver *s, const uint32_t *ids, size_t n,
    int misere);
/* Nim value of component c (impartial normal play). */
int64_t pns_nimber(struct cg_solver *s, uint32_t c);
/* The computing branch and the root's proof and disproof numbers. */
void pns_branch(struct cg_solver *s, struct cg_buf *out);
size_t pns_memory(const struct cg_solver *s);
void pns_free(struct cg_solver *s);

/* The move counts' verdict on a sum in normal play (cg/movecounts.h),
 * side x to move: 1 x wins, 0 x loses, -1 not settled.  The counts are
 * the sum's; lead[] the most first - sure of one component; room[]
 * UINT64_MAX where some component makes no claim; rlead[] the most
 * 2 (first_sure - sure) - (first_room - room) of one component (0 when
 * none is above 0).  X stuck at its turn has made as many moves as Y, at
 * least sure[X] of them from its reserve (first_sure in the component
 * it moved first in); Y stuck has made one fewer than X.  (sv_static and
 * the bit search share it.) */
static inline int
counts_verdict(const uint64_t sure[2], const uint64_t most[2],
    const uint64_t room[2], const uint64_t lead[2], const uint64_t rlead[2],
    int x)
{
	int y = !x;

	if (sure[x] + lead[x] > most[y] || (room[x] != UINT64_MAX &&
	    2 * sure[x] + rlead[x] > room[x]))
		return 1;
	if (sure[y] >= most[x] || (room[y] != UINT64_MAX &&
	    2 * sure[y] + 1 > room[y]))
		return 0;
	return -1;
}

/* ----------------------------------------------------- bits.c (engine) */

/* Outcome ('L', 'R', 'N', 'P') of the sum in normal play by the search
 * over the ruleset's cg.bit-search states, or CG_SOLVE_INTERRUPTED; or
 * BITS_NONE when the ruleset has no such extension, the sum does not fit
 * one state, or (search AUTO) the ruleset does not prefer it there.
 * Runs on s->jobs threads. */
#define BITS_NONE (-2)
struct bits;
int bits_outcome(struct cg_solver *s, const uint32_t *ids, size_t n);
void bits_branch(const struct bits *b, struct cg_buf *out);
size_t bits_memory(const struct bits *b);
void bits_store_free(struct cg_solver *s);

#endif
