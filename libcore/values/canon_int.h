/* canon_int.h - what the files of the canonical store share: the records,
 * the store, each worker's caches and scratch, and the steps between
 * them.  Not for outside values/ (everyone else uses canon.h).
 *
 *   canon.c        the store: records, option arena, indexes, interning,
 *                  the lock, per-worker caches, data errors, memos, NUS
 *                  games and their options, inspection
 *   canonbuild.c   canonical forms from options: dominated options
 *                  removed, reversible options bypassed, numbers, ups
 *                  and stars recognised
 *   canonorder.c   order: comparison, outcome, stops
 *   canonarith.c   sums and negatives
 *
 * The small functions every step runs through (record access, flags,
 * NUS parts, the hash mixer) are static inline here: a step in another
 * file reaches them without a call. */
#ifndef CG_CANON_INT_H
#define CG_CANON_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "values/canon.h"
#include "base/jobs.h"

#include "values/gamevec.h"

#define CHUNK_BITS 16
#define CHUNK (1u << CHUNK_BITS)
#define OPT_CHUNK (1u << 20)
#define MAX_CHUNKS (1u << (32 - CHUNK_BITS))

enum {
	F_NUS = 1,          /* x + n.^ + *k */
	F_OPTS = 2,         /* options are built */
	F_NUMBER = 4,
	F_BDAY = 8,         /* bday field valid */
	F_STOPS = 16        /* stop fields valid */
};

struct rec {
	cg_game *opt;       /* left options then right options */
	uint32_t nl, nr;
	uint32_t next;      /* hash chain (atomic: relinked by rehash) */
	uint32_t aux;       /* NUS: index into the NUS chunks */
	uint32_t flags;     /* atomic: F_OPTS and F_BDAY are set late */
	uint32_t hash;
	uint64_t bday;
	/* left and right stops: G <= H needs LS(G) <= LS(H) and RS(G) <=
	 * RS(H), a test that settles most comparisons of hot options */
	int64_t lnum, rnum;
	int32_t lexp, rexp;
};

struct nus {
	int64_t num;
	int64_t up;
	uint64_t nim;
	int exp;
};

struct cache_ent {
	uint32_t a, b, r;
};

/* A bucket array of a chained index, published whole: a rehash makes a
 * new one and keeps the old one (retired) for readers still walking it. */
struct bucket {
	uint32_t mask;
	uint32_t head[];
};

/* The store (canon.c, where it is S for short). */
struct canon_store {
	int ready;
	struct rec **chunk;         /* [MAX_CHUNKS]: records never move */
	uint32_t nchunk;
	uint32_t n;                 /* games (atomic) */
	struct nus **nuschunk;      /* [MAX_CHUNKS] */
	uint32_t nnus;
	/* option arena */
	cg_game **ochunk;
	size_t nochunk, capochunk;
	size_t ofree;               /* free ids in the last chunk */
	cg_game *optr;
	size_t obytes;
	/* indexes of ordinary games and of NUS games */
	struct bucket *oidx, *nidx; /* atomic pointers */
	uint32_t ocount, ncount;
	void **retired;
	size_t nretired;
	/* memo tables: per memo, chunks of CHUNK pointers, as the records */
	void ***memo[CG_MEMO_COUNT];
	cg_game zero, star;
};

extern struct canon_store canon_store;

/*
 * Threads.  Records, option lists and NUS parts never move and are
 * complete before the index that finds them is published (release
 * store), so reading a game needs no lock; lookups walk the indexes
 * without one too, and only inserts take the store's lock (recursive:
 * building a NUS's options interns NUS games).  A lookup that loses a
 * race with a rehash may miss; it then looks again under the lock.  What
 * is pure memo -- caches of sums, negatives and comparisons, the
 * reversibility memo, the recursion depth -- belongs to one worker
 * thread (cg_worker), so it needs no lock and no shared cache lines.
 */
struct work {
	struct cache_ent *sum, *neg;
	uint32_t summask, negmask;
	uint32_t sized;             /* store size the caches were made for */
	/* reversibility memo for the game being built */
	struct { uint32_t key, gen; uint8_t val; } *rmemo;
	uint32_t rgen;
	int depth;
	/* Recursive steps taken under the innermost cg_canon_catch_bounded:
	 * a crafted file can hold games whose comparisons are exponential
	 * once the caches thrash. */
	uint64_t steps;
	/* Option vectors of the games being built, one pair per level of
	 * recursion, owned here rather than by the stack frames: a data
	 * error caught by cg_canon_catch unwinds those frames by longjmp,
	 * and buffers held by them would be lost. */
	struct vec (**pairs)[2];
	size_t npairs;
};

extern struct work *canon_works[CG_MAX_JOBS];
struct work *canon_work_new(void);

/*
 * Comparisons, one table for every thread: a word a pair, g << 33 |
 * h << 1 | the answer, written and read whole (ids below 2^31), so that
 * a thread learns what another has worked out.  A larger table replaces
 * it as the store grows (up to 2^24 words); the ones it replaces stay
 * for the threads still reading them until cg_canon_shrink_caches.
 */
struct leqtab {
	uint64_t mask;
	_Atomic uint64_t e[];
};

extern _Atomic(struct leqtab *) canon_leqtab;

#define LOAD(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

#define REC(g) (&canon_store.chunk[(g) >> CHUNK_BITS][(g) & (CHUNK - 1)])

/* This worker's caches and scratch. */
static inline struct work *
W(void)
{
	struct work *w = canon_works[cg_worker];

	return w != NULL ? w : canon_work_new();
}

static inline uint32_t
flags_of(const struct rec *r)
{
	return LOAD(r->flags);
}

/* One level deeper into a game (canon.c): a data error past
 * CG_CANON_MAX_DEPTH levels or past the steps cg_canon_catch_bounded
 * allows. */
void canon_deeper(void);
#define SHALLOWER() (W()->depth--)

/* This depth's scratch pair of option vectors (canon.c). */
struct vec *canon_pair_get(void);

/* Done with a pair: large buffers go back (a wide game once must not
 * keep megabytes per level for good). */
static inline void
pair_put(struct vec *p)
{
	int s;

	for (s = 0; s < 2; s++)
		if (p[s].cap > 4096) {
			vec_free(&p[s]);
			vec_init(&p[s]);
		}
}

/* The store is made on first use (canon.c). */
extern pthread_once_t canon_once;
void canon_init(void);

static inline void
ensure_init(void)
{
	if (!LOAD(canon_store.ready))
		pthread_once(&canon_once, canon_init);
}

/* Grow this worker's caches with the store (canon.c). */
void canon_grow_caches(struct work *w);

static inline uint32_t
mix(uint32_t h)
{
	h += ~(h << 9);
	h ^= h >> 14;
	h += h << 4;
	h ^= h >> 10;
	return h;
}

static inline int
cmp_id(const void *a, const void *b)
{
	cg_game x = *(const cg_game *)a, y = *(const cg_game *)b;

	return x < y ? -1 : x > y;
}

static inline int
same_list(const cg_game *a, size_t na, const cg_game *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

static inline const struct nus *
NUS(cg_game g)
{
	uint32_t a = REC(g)->aux;

	return &canon_store.nuschunk[a >> CHUNK_BITS][a & (CHUNK - 1)];
}

static inline struct cg_dyadic
nus_x(cg_game g)
{
	struct cg_dyadic d;

	d.num = NUS(g)->num;
	d.exp = NUS(g)->exp;
	return d;
}

/* cg_canon_is_nus and cg_canon_is_number, inline. */
static inline int
is_nus(cg_game g)
{
	return (flags_of(REC(g)) & F_NUS) != 0;
}

static inline int
is_number(cg_game g)
{
	return (flags_of(REC(g)) & F_NUMBER) != 0;
}

#define LOPTS(g, n) cg_canon_options((g), CG_LEFT, (n))
#define ROPTS(g, n) cg_canon_options((g), CG_RIGHT, (n))

/* The store (canon.c). */
uint32_t canon_hash_opts(const cg_game *l, size_t nl, const cg_game *r,
    size_t nr);
/* The game with exactly these sorted option lists, hash h, or
 * CG_NO_GAME. */
cg_game canon_opts_lookup(uint32_t h, const struct vec *l,
    const struct vec *r);
/* Intern canonical, sorted, duplicate-free option lists that are not a
 * NUS's. */
cg_game canon_intern(const struct vec *l, const struct vec *r);
/* The NUS num/2^exp + up.^ + *nim, made when new if create is set, else
 * CG_NO_GAME when new. */
cg_game canon_nus_find(int64_t num, int exp, int64_t up, uint64_t nim,
    int create);

/* Construction (canonbuild.c). */
void canon_vec_sort_unique(struct vec *a);
/* Intern canonical, sorted, duplicate-free option lists. */
cg_game canon_intern_canonical(const struct vec *l, const struct vec *r);
/* The canonical form of {l | r}; l and r are scratch. */
cg_game canon_make_vec(struct vec *l, struct vec *r);

/* Order (canonorder.c). */
int canon_leq(cg_game g, cg_game h);
/* Both stops of g, kept in its record. */
void canon_stops(cg_game g, struct cg_dyadic *ls, struct cg_dyadic *rs);

#endif
