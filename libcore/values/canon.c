/* canon.c - the canonical short-game store (see canon.h).
 *
 * Layout.  Game records live in chunks of 2^16 (pointers stay valid while
 * the store grows); option lists live in a chunked arena of 32-bit ids,
 * sorted by id.  Two chained hash indexes intern games: one keyed by the
 * (left, right) option lists of ordinary games, one keyed by the parts of
 * number-up-star games (NUS: x + n.^ + *k), whose options are built only
 * on demand.  Canonical NUS option lists follow CGSuite's forms (see
 * gl_nus_options in plugins/lib/gamelit.h); after canonicalisation a list
 * that matches such a form is recognised as the NUS, so equality of games
 * is equality of ids.  Direct-mapped caches hold sums, negatives and
 * comparisons.  Ideas from CGSuite's CanonicalShortGameOps (see
 * research/cgsuite.md section 2); the code is our own. */
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/canon.h"
#include "base/buf.h"
#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"

#include "cg/gamelit.h"
#include "values/gamevec.h"

_Static_assert(CG_CANON_MAX_UP == GL_MAX_UP && CG_CANON_MAX_NIM == GL_MAX_NIM,
    "the store holds what literals write");

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

static struct {
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
} S;

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
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_once_t once = PTHREAD_ONCE_INIT;

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

static struct work *works[CG_MAX_JOBS];

/* How deep this thread holds the store's lock (it is recursive). */
static _Thread_local int lock_depth;

static void
lock_store(void)
{
	pthread_mutex_lock(&lock);
	lock_depth++;
}

static void
unlock_store(void)
{
	lock_depth--;
	pthread_mutex_unlock(&lock);
}

/* Where this thread's data errors go inside cg_canon_catch. */
static _Thread_local struct {
	jmp_buf *jb;
	char *msg;
	size_t msgsize;
	int depth;              /* the recursion depth at cg_canon_catch */
	uint64_t max_steps;     /* for the whole catch; 0: none */
} trap;

/*
 * A data error: a game too large for the store.  Fatal, unless
 * cg_canon_catch is running on this thread.  Every insert settles what
 * may fail before it takes the store's lock, so no data error meets the
 * lock held; were one to, the program stops rather than leave an insert
 * half done.
 */
void
cg_canon_data_error(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (trap.jb != NULL && lock_depth == 0) {
		jmp_buf *jb = trap.jb;

		snprintf(trap.msg, trap.msgsize, "%s", msg);
		trap.jb = NULL;
		longjmp(*jb, 1);
	}
	cg_die(CG_EXIT_DATA, "%s", msg);
}

#define LOAD(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

#define REC(g) (&S.chunk[(g) >> CHUNK_BITS][(g) & (CHUNK - 1)])

static struct work *work_new(void);

/* This worker's caches and scratch. */
static inline struct work *
W(void)
{
	struct work *w = works[cg_worker];

	return w != NULL ? w : work_new();
}

static inline uint32_t
flags_of(const struct rec *r)
{
	return LOAD(r->flags);
}

static void
deeper(void)
{
	struct work *w = W();

	if (++w->depth > CG_CANON_MAX_DEPTH)
		cg_canon_data_error("game too deep (more than %d levels)",
		    CG_CANON_MAX_DEPTH);
	if (trap.jb != NULL && trap.max_steps != 0 &&
	    ++w->steps > trap.max_steps)
		cg_canon_data_error("game too costly to build (more than "
		    "%llu steps)", (unsigned long long)trap.max_steps);
}


int
cg_canon_catch(void (*fn)(void *), void *arg, char *msg, size_t msgsize)
{
	uint64_t none = 0;

	return cg_canon_catch_bounded(fn, arg, msg, msgsize, &none);
}

int
cg_canon_catch_bounded(void (*fn)(void *), void *arg, char *msg,
    size_t msgsize, uint64_t *steps)
{
	uint64_t max_steps = *steps;
	jmp_buf jb;
	jmp_buf *volatile outer = trap.jb;
	char *volatile outer_msg = trap.msg;
	volatile size_t outer_size = trap.msgsize;
	volatile int depth = W()->depth, outer_depth = trap.depth;
	volatile uint64_t outer_steps = W()->steps, outer_max = trap.max_steps;

	trap.jb = &jb;
	trap.msg = msg;
	trap.msgsize = msgsize;
	trap.depth = depth;
	trap.max_steps = max_steps;
	W()->steps = 0;
	if (setjmp(jb) != 0) {
		W()->depth = depth;
		W()->steps = outer_steps;
		trap.jb = outer;
		trap.msg = outer_msg;
		trap.msgsize = outer_size;
		trap.depth = outer_depth;
		trap.max_steps = outer_max;
		*steps = 0;
		return -1;
	}
	fn(arg);
	if (max_steps != 0)
		*steps = max_steps - W()->steps;
	W()->steps = outer_steps;
	trap.jb = outer;
	trap.msg = outer_msg;
	trap.msgsize = outer_size;
	trap.depth = outer_depth;
	trap.max_steps = outer_max;
	return 0;
}

#define SHALLOWER() (W()->depth--)

/* Scratch pair of option vectors for this thread's current depth, empty.
 * Callers go deeper() first, so nested builders get pairs of their own. */
static struct vec *
pair_get(void)
{
	struct work *w = W();
	size_t d = (size_t)w->depth, i;
	struct vec *p;

	if (d >= w->npairs) {
		size_t n = d + 16;

		w->pairs = cg_xreallocarray(w->pairs, n, sizeof *w->pairs);
		for (i = w->npairs; i < n; i++)
			w->pairs[i] = NULL;
		w->npairs = n;
	}
	if (w->pairs[d] == NULL) {
		w->pairs[d] = cg_xcalloc(1, sizeof *w->pairs[d]);
		vec_init(&(*w->pairs[d])[0]);
		vec_init(&(*w->pairs[d])[1]);
	}
	p = *w->pairs[d];
	p[0].n = p[1].n = 0;
	return p;
}

/* Done with a pair: large buffers go back (a wide game once must not
 * keep megabytes per level for good). */
static void
pair_put(struct vec *p)
{
	int s;

	for (s = 0; s < 2; s++)
		if (p[s].cap > 4096) {
			vec_free(&p[s]);
			vec_init(&p[s]);
		}
}

void
cg_canon_enter(void)
{
	deeper();
}

void
cg_canon_leave(void)
{
	SHALLOWER();
}

/* ------------------------------------------------------------ store */

static uint32_t
mix(uint32_t h)
{
	h += ~(h << 9);
	h ^= h >> 14;
	h += h << 4;
	h ^= h >> 10;
	return h;
}

static uint32_t
hash_opts(const cg_game *l, size_t nl, const cg_game *r, size_t nr)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < nl; i++)
		h = (h ^ l[i]) * 1099511628211ull;
	h = (h ^ 0xabcdu) * 1099511628211ull;
	for (i = 0; i < nr; i++)
		h = (h ^ r[i]) * 1099511628211ull;
	return mix((uint32_t)(h ^ (h >> 32)));
}

static uint32_t
hash_nus(int64_t num, int exp, int64_t up, uint64_t nim)
{
	uint64_t h = (uint64_t)num * 0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)exp * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)up * 0x165667b19e3779f9ull;
	h ^= nim * 0x27d4eb2f165667c5ull;
	h ^= h >> 29;
	return mix((uint32_t)(h ^ (h >> 32)));
}

static void *
xcalloc_cache(uint32_t n)
{
	struct cache_ent *c = cg_xmalloc((size_t)n * sizeof *c);

	memset(c, 0xff, (size_t)n * sizeof *c);
	return c;
}

static void canon_init(void);

static inline void
ensure_init(void)
{
	if (!LOAD(S.ready))
		pthread_once(&once, canon_init);
}

/* The caches grow with the store (up to 2^22 entries for sums and
 * negatives, 2^23 for comparisons); contents are dropped on growth. */
static void
grow_cache(struct cache_ent **c, uint32_t *mask, uint32_t want, uint32_t max)
{
	if (want > max)
		want = max;
	/* a cache can do without growing: never past the memory limit */
	if (want <= *mask + 1 || !cg_watch_fits((size_t)want * sizeof **c))
		return;
	free(*c);
	*c = xcalloc_cache(want);
	*mask = want - 1;
}

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

static _Atomic(struct leqtab *) leqtab;
static struct leqtab **leq_old;
static size_t nleq_old;
static pthread_mutex_t leq_lock = PTHREAD_MUTEX_INITIALIZER;

static struct leqtab *
leq_new(uint64_t n)
{
	struct leqtab *t = cg_xcalloc(1, sizeof *t + n * sizeof t->e[0]);

	t->mask = n - 1;
	return t;
}

static void
grow_leq(uint32_t games)
{
	uint64_t want = (uint64_t)games * 8, n = 1u << 17;
	struct leqtab *t;

	if (want > ((uint64_t)1 << 24))
		want = (uint64_t)1 << 24;
	while (n < want)
		n <<= 1;
	t = atomic_load_explicit(&leqtab, memory_order_acquire);
	if ((t != NULL && t->mask + 1 >= n) ||
	    (t != NULL && !cg_watch_fits(n * sizeof t->e[0])))
		return;
	pthread_mutex_lock(&leq_lock);
	t = atomic_load_explicit(&leqtab, memory_order_acquire);
	if (t == NULL || t->mask + 1 < n) {
		if (t != NULL) {
			leq_old = cg_xreallocarray(leq_old, nleq_old + 1,
			    sizeof *leq_old);
			leq_old[nleq_old++] = t;
		}
		atomic_store_explicit(&leqtab, leq_new(n),
		    memory_order_release);
	}
	pthread_mutex_unlock(&leq_lock);
}

/* A small table again; no other thread uses the store. */
static void
leq_reset(void)
{
	size_t i;

	for (i = 0; i < nleq_old; i++)
		free(leq_old[i]);
	free(leq_old);
	leq_old = NULL;
	nleq_old = 0;
	free(atomic_load(&leqtab));
	atomic_store(&leqtab, leq_new(1u << 17));
}

static void
grow_caches(struct work *w)
{
	uint32_t n = LOAD(S.n);

	w->sized = n;
	grow_cache(&w->sum, &w->summask, n * 4, 1u << 22);
	grow_cache(&w->neg, &w->negmask, n, 1u << 22);
	grow_leq(n);
}

static struct work *
work_new(void)
{
	struct work *w = cg_xcalloc(1, sizeof *w);

	w->summask = (1u << 16) - 1;
	w->negmask = (1u << 14) - 1;
	w->sum = xcalloc_cache(w->summask + 1);
	w->neg = xcalloc_cache(w->negmask + 1);
	w->rmemo = cg_xcalloc(1u << 16, sizeof *w->rmemo);
	w->rgen = 1;
	grow_caches(w);
	works[cg_worker] = w;
	return w;
}

void
cg_canon_shrink_caches(void)
{
	struct work *w;
	unsigned k;

	for (k = 0; k < CG_MAX_JOBS; k++) {
		if ((w = works[k]) == NULL)
			continue;
		free(w->sum);
		free(w->neg);
		w->summask = (1u << 16) - 1;
		w->negmask = (1u << 14) - 1;
		w->sum = xcalloc_cache(w->summask + 1);
		w->neg = xcalloc_cache(w->negmask + 1);
		/* they grow again once the store has doubled */
		w->sized = LOAD(S.n);
	}
	leq_reset();
}

static void
retire(void *p)
{
	S.retired = cg_xreallocarray(S.retired, S.nretired + 1,
	    sizeof *S.retired);
	S.retired[S.nretired++] = p;
}

/* Under the lock. */
static cg_game
new_rec(void)
{
	cg_game g;

	if (S.n == UINT32_MAX - 1)
		cg_die(CG_EXIT_DATA, "canonical game store full (2^32 games)");
	if ((S.n >> CHUNK_BITS) >= S.nchunk)
		S.chunk[S.nchunk++] = cg_xcalloc(CHUNK, sizeof(struct rec));
	g = S.n;
	memset(REC(g), 0, sizeof *REC(g));
	STORE(S.n, g + 1);
	return g;
}

static cg_game *
opt_alloc(size_t n)
{
	cg_game *p;

	if (n == 0)
		return NULL;
	if (n > S.ofree) {
		size_t sz = n > OPT_CHUNK ? n : OPT_CHUNK;

		if (S.nochunk == S.capochunk) {
			S.capochunk = S.capochunk ? S.capochunk * 2 : 64;
			S.ochunk = cg_xreallocarray(S.ochunk, S.capochunk,
			    sizeof *S.ochunk);
		}
		S.ochunk[S.nochunk++] = S.optr = cg_xreallocarray(NULL, sz,
		    sizeof(cg_game));
		S.ofree = sz;
		S.obytes += sz * sizeof(cg_game);
	}
	p = S.optr;
	S.optr += n;
	S.ofree -= n;
	return p;
}

static struct bucket *
bucket_new(uint32_t n)
{
	struct bucket *b = cg_xmalloc(sizeof *b + (size_t)n * sizeof b->head[0]);

	b->mask = n - 1;
	memset(b->head, 0xff, (size_t)n * sizeof b->head[0]);
	return b;
}

/* A bucket array twice the size, published; under the lock. */
static void
rehash(struct bucket **idx)
{
	struct bucket *old = *idx, *nb = bucket_new((old->mask + 1) * 2);
	uint32_t i, g, nx;

	for (i = 0; i <= old->mask; i++)
		for (g = old->head[i]; g != CG_NO_GAME; g = nx) {
			struct rec *r = REC(g);

			nx = r->next;
			STORE(r->next, nb->head[r->hash & nb->mask]);
			nb->head[r->hash & nb->mask] = g;
		}
	STORE(*idx, nb);
	retire(old);
}

/* Insert g (record filled in) into idx; under the lock. */
static void
index_add(struct bucket **idx, uint32_t *count, cg_game g)
{
	struct bucket *b = *idx;
	struct rec *r = REC(g);

	r->next = b->head[r->hash & b->mask];
	STORE(b->head[r->hash & b->mask], g);
	if (++*count > b->mask + 1)
		rehash(idx);
}

static const struct nus *NUS(cg_game g);
static struct cg_dyadic nus_x(cg_game g);

static cg_game
nus_lookup(uint32_t h, int64_t num, int exp, int64_t up, uint64_t nim)
{
	struct bucket *b = LOAD(S.nidx);
	const struct nus *u;
	cg_game g;

	for (g = LOAD(b->head[h & b->mask]); g != CG_NO_GAME;
	    g = LOAD(REC(g)->next)) {
		u = NUS(g);
		if (u->num == num && u->exp == exp && u->up == up &&
		    u->nim == nim)
			return g;
	}
	return CG_NO_GAME;
}

static cg_game
nus_find(int64_t num, int exp, int64_t up, uint64_t nim, int create)
{
	uint32_t h = hash_nus(num, exp, up, nim);
	struct rec *r;
	struct nus *u;
	cg_game g;

	g = nus_lookup(h, num, exp, up, nim);
	if (g != CG_NO_GAME || !create)
		return g;
	if (up > CG_CANON_MAX_UP || up < -CG_CANON_MAX_UP ||
	    nim > CG_CANON_MAX_NIM)
		cg_canon_data_error("up multiple or nimber too large");
	lock_store();
	g = nus_lookup(h, num, exp, up, nim);
	if (g == CG_NO_GAME) {
		g = new_rec();
		r = REC(g);
		if (S.nuschunk[S.nnus >> CHUNK_BITS] == NULL)
			S.nuschunk[S.nnus >> CHUNK_BITS] = cg_xmalloc(
			    CHUNK * sizeof(struct nus));
		u = &S.nuschunk[S.nnus >> CHUNK_BITS][S.nnus & (CHUNK - 1)];
		u->num = num;
		u->exp = exp;
		u->up = up;
		u->nim = nim;
		r->aux = S.nnus++;
		r->flags = F_NUS | (up == 0 && nim == 0 ? F_NUMBER : 0);
		r->hash = h;
		index_add(&S.nidx, &S.ncount, g);
	}
	unlock_store();
	return g;
}

static void
canon_init(void)
{
	S.chunk = cg_xcalloc(MAX_CHUNKS, sizeof *S.chunk);
	S.nuschunk = cg_xcalloc(MAX_CHUNKS, sizeof *S.nuschunk);
	S.oidx = bucket_new(1u << 16);
	S.nidx = bucket_new(1u << 16);
	S.zero = nus_find(0, 0, 0, 0, 1);
	S.star = nus_find(0, 0, 0, 1, 1);
	STORE(S.ready, 1);
}

static const struct nus *
NUS(cg_game g)
{
	uint32_t a = REC(g)->aux;

	return &S.nuschunk[a >> CHUNK_BITS][a & (CHUNK - 1)];
}

cg_game
cg_canon_nus(struct cg_dyadic x, int64_t up, uint64_t nim)
{
	ensure_init();
	x = cg_dyadic_make(x.num, x.exp);
	return nus_find(x.num, x.exp, up, nim, 1);
}

cg_game
cg_canon_zero(void)
{
	ensure_init();
	return S.zero;
}

cg_game
cg_canon_number(struct cg_dyadic x)
{
	return cg_canon_nus(x, 0, 0);
}

cg_game
cg_canon_integer(int64_t n)
{
	ensure_init();
	return nus_find(n, 0, 0, 0, 1);
}

/* Collect NUS options. */
struct nusopt {
	cg_game l[4], r[4];
	size_t nl, nr;
	cg_game *big[2];
	size_t nbig[2];
};

static int
on_nus_opt(void *ctx, int side, int64_t num, int exp, int64_t up,
    uint64_t nim)
{
	struct nusopt *o = ctx;
	cg_game g = nus_find(num, exp, up, nim, 1);

	if (o->big[side] != NULL)
		o->big[side][o->nbig[side]++] = g;
	else if (side == 0)
		o->l[o->nl++] = g;
	else
		o->r[o->nr++] = g;
	return 0;
}

static int
cmp_id(const void *a, const void *b)
{
	cg_game x = *(const cg_game *)a, y = *(const cg_game *)b;

	return x < y ? -1 : x > y;
}

/* The options of a big number x = m/2^k: {x - 2^-k | x + 2^-k}, or
 * {x - 1 |} and {| x + 1} for integers. */
static void
big_number_options(const struct nus *u, struct nusopt *o)
{
	struct cg_dyadic x = cg_dyadic_make(u->num, u->exp), y;
	mpz_t m;
	long k;

	mpz_init(m);
	cg_dyadic_to_mpz(x, m, &k);
	if (k > 0 || u->num > 0) {
		mpz_sub_ui(m, m, 1);
		y = cg_dyadic_from_mpz(m, k);
		o->l[o->nl++] = nus_find(y.num, y.exp, 0, 0, 1);
		mpz_add_ui(m, m, 1);
	}
	if (k > 0 || u->num < 0) {
		mpz_add_ui(m, m, 1);
		y = cg_dyadic_from_mpz(m, k);
		o->r[o->nr++] = nus_find(y.num, y.exp, 0, 0, 1);
	}
	mpz_clear(m);
}

/*
 * Make a NUS's options.  They are interned first, with no lock held, so
 * that a data error there (a number past the bound) leaves nothing half
 * done; then the list is published under the lock, unless another thread
 * was first.
 */
static void
build_nus_options(cg_game g)
{
	struct nus u = *NUS(g);
	struct nusopt o;
	struct rec *r;
	cg_game *p;

	memset(&o, 0, sizeof o);
	if (u.up == 0 && u.nim > 2) {
		if (u.nim > (1u << 26))
			cg_canon_data_error("nimber *%llu too large to expand",
			    (unsigned long long)u.nim);
		o.big[0] = cg_xreallocarray(NULL, u.nim, sizeof(cg_game));
		o.big[1] = cg_xreallocarray(NULL, u.nim, sizeof(cg_game));
	}
	if (u.exp == CG_DYADIC_BIG && u.up == 0 && u.nim == 0)
		big_number_options(&u, &o);
	else
		gl_nus_options(u.num, u.exp, u.up, u.nim, on_nus_opt, &o);
	if (o.big[0] != NULL) {
		o.nl = o.nbig[0];
		o.nr = o.nbig[1];
	}
	lock_store();
	r = REC(g);
	if (!(flags_of(r) & F_OPTS)) {
		p = opt_alloc(o.nl + o.nr);
		if (o.nl)
			memcpy(p, o.big[0] ? o.big[0] : o.l, o.nl * sizeof *p);
		if (o.nr)
			memcpy(p + o.nl, o.big[1] ? o.big[1] : o.r,
			    o.nr * sizeof *p);
		if (o.nl > 1)
			qsort(p, o.nl, sizeof *p, cmp_id);
		if (o.nr > 1)
			qsort(p + o.nl, o.nr, sizeof *p, cmp_id);
		r->opt = p;
		r->nl = (uint32_t)o.nl;
		r->nr = (uint32_t)o.nr;
		__atomic_fetch_or(&r->flags, F_OPTS, __ATOMIC_RELEASE);
	}
	unlock_store();
	free(o.big[0]);
	free(o.big[1]);
}

const cg_game *
cg_canon_options(cg_game g, enum cg_side side, size_t *n)
{
	struct rec *r = REC(g);

	if (!(flags_of(r) & F_OPTS))
		build_nus_options(g);
	*n = side == CG_LEFT ? r->nl : r->nr;
	if (side == CG_LEFT || r->opt == NULL)
		return r->opt;   /* no NULL + 0: a game without options */
	return r->opt + r->nl;
}

#define LOPTS(g, n) cg_canon_options((g), CG_LEFT, (n))
#define ROPTS(g, n) cg_canon_options((g), CG_RIGHT, (n))

int
cg_canon_is_nus(cg_game g)
{
	return (flags_of(REC(g)) & F_NUS) != 0;
}

int
cg_canon_is_number(cg_game g)
{
	return (flags_of(REC(g)) & F_NUMBER) != 0;
}

int
cg_canon_is_integer(cg_game g)
{
	return cg_canon_is_number(g) && cg_dyadic_is_integer(nus_x(g));
}

int
cg_canon_is_nimber(cg_game g)
{
	return cg_canon_is_nus(g) && NUS(g)->num == 0 && NUS(g)->up == 0;
}

int
cg_canon_nus_parts(cg_game g, struct cg_dyadic *x, int64_t *up,
    uint64_t *nim)
{
	const struct nus *u;

	if (!cg_canon_is_nus(g))
		return 0;
	u = NUS(g);
	if (x) {
		x->num = u->num;
		x->exp = u->exp;
	}
	if (up)
		*up = u->up;
	if (nim)
		*nim = u->nim;
	return 1;
}

static struct cg_dyadic
nus_x(cg_game g)
{
	struct cg_dyadic d;

	d.num = NUS(g)->num;
	d.exp = NUS(g)->exp;
	return d;
}

size_t
cg_canon_count(void)
{
	return LOAD(S.n);
}

size_t
cg_canon_memory(void)
{
	size_t bytes, k;

	lock_store();
	bytes = (size_t)S.nchunk * CHUNK * sizeof(struct rec) + S.obytes +
	    ((size_t)S.nnus / CHUNK + 1) * CHUNK * sizeof(struct nus) +
	    ((size_t)LOAD(S.oidx)->mask + LOAD(S.nidx)->mask + 2) * 4;
	for (k = 0; k < CG_MAX_JOBS; k++)
		if (works[k] != NULL)
			bytes += ((size_t)works[k]->summask +
			    works[k]->negmask + 2) * sizeof(struct cache_ent);
	{
		struct leqtab *t = atomic_load(&leqtab);

		if (t != NULL)
			bytes += (t->mask + 1) * sizeof t->e[0];
	}
	unlock_store();
	return bytes;
}

/* The memo word of g in table m, its chunk made if new (make: under the
 * lock); NULL when the chunk is absent and make is 0. */
static void **
memo_word(cg_game g, enum cg_canon_memo m, int make)
{
	void ***t = LOAD(S.memo[m]), **chunk;

	if (t == NULL) {
		if (!make)
			return NULL;
		t = cg_xcalloc(MAX_CHUNKS, sizeof *t);
		STORE(S.memo[m], t);
	}
	chunk = LOAD(t[g >> CHUNK_BITS]);
	if (chunk == NULL) {
		if (!make)
			return NULL;
		chunk = cg_xcalloc(CHUNK, sizeof *chunk);
		STORE(t[g >> CHUNK_BITS], chunk);
	}
	return &chunk[g & (CHUNK - 1)];
}

void *
cg_canon_memo(cg_game g, enum cg_canon_memo m)
{
	void **w = memo_word(g, m, 0);

	return w == NULL ? NULL : LOAD(*w);
}

void *
cg_canon_memo_set(cg_game g, enum cg_canon_memo m, void *v)
{
	void **w, *old = NULL;

	w = memo_word(g, m, 0);
	if (w == NULL) {
		lock_store();
		w = memo_word(g, m, 1);
		unlock_store();
	}
	if (__atomic_compare_exchange_n(w, &old, v, 0, __ATOMIC_ACQ_REL,
	    __ATOMIC_ACQUIRE))
		return v;
	return old;
}

/* ------------------------------------------------------------ order */

static int leq(cg_game g, cg_game h);
static void stops(cg_game g, struct cg_dyadic *ls, struct cg_dyadic *rs);

/* Can g <= h hold as far as the stops tell? */
static int
stops_allow_leq(cg_game g, cg_game h)
{
	struct cg_dyadic gl, gr, hl, hr;

	stops(g, &gl, &gr);
	stops(h, &hl, &hr);
	return cg_dyadic_cmp(gl, hl) <= 0 && cg_dyadic_cmp(gr, hr) <= 0;
}

static int
nus_leq(cg_game g, cg_game h)
{
	const struct nus *a = NUS(g), *b = NUS(h);
	int c = cg_dyadic_cmp(nus_x(g), nus_x(h));

	if (c != 0)
		return c < 0;
	if (a->up < b->up - 1)
		return 1;
	if (a->up == b->up - 1)
		return (a->nim ^ b->nim) != 1;
	return a->up == b->up && a->nim == b->nim;
}

static int
leq(cg_game g, cg_game h)
{
	struct leqtab *t;
	const cg_game *o;
	size_t n, i;
	int res = 1;
	uint64_t key = 0, slot = 0, v;

	if (g == h)
		return 1;
	if ((flags_of(REC(g)) & flags_of(REC(h)) & F_NUS))
		return nus_leq(g, h);
	/* G <= H needs both stops of G at most H's: a test of four words
	 * of the two records that settles most pairs of hot games, kept
	 * out of the cache so that it holds the pairs that cost */
	if (!stops_allow_leq(g, h))
		return 0;
	t = atomic_load_explicit(&leqtab, memory_order_acquire);
	if (t != NULL && g < (1u << 31) && h < (1u << 31)) {
		key = (uint64_t)g << 33 | (uint64_t)h << 1;
		slot = mix(g * 0x9e3779b1u ^ h) ^ h;
		slot = (slot ^ ((uint64_t)g << 7)) & t->mask;
		v = atomic_load_explicit(&t->e[slot], memory_order_relaxed);
		if ((v & ~(uint64_t)1) == key)
			return (int)(v & 1);
	} else {
		t = NULL;
	}
	deeper();
	if (!cg_canon_is_number(g)) {
		o = LOPTS(g, &n);
		for (i = 0; i < n && res; i++)
			if (leq(h, o[i]))
				res = 0;
	}
	if (res && !cg_canon_is_number(h)) {
		o = ROPTS(h, &n);
		for (i = 0; i < n && res; i++)
			if (leq(o[i], g))
				res = 0;
	}
	SHALLOWER();
	if (t != NULL)
		atomic_store_explicit(&t->e[slot], key | (uint64_t)res,
		    memory_order_relaxed);
	return res;
}

int
cg_canon_leq(cg_game g, cg_game h)
{
	return leq(g, h);
}

int
cg_canon_compare(cg_game g, cg_game h)
{
	int a, b;

	if (g == h)
		return 0;
	a = leq(g, h);
	b = leq(h, g);
	return a ? (b ? 0 : -1) : (b ? 1 : 2);
}

/* ------------------------------------------------------------ construction */

/* Option lists are short: insertion sort below 32, a library sort
 * above. */
static void
sort_ids(cg_game *v, size_t n)
{
	size_t i, j;
	cg_game x;

	if (n > 32) {
		qsort(v, n, sizeof *v, cmp_id);
		return;
	}
	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void
vec_sort_unique(struct vec *a)
{
	size_t i, k = 0;

	sort_ids(a->v, a->n);
	for (i = 0; i < a->n; i++)
		if (k == 0 || a->v[k - 1] != a->v[i])
			a->v[k++] = a->v[i];
	a->n = k;
}

static void stops(cg_game g, struct cg_dyadic *ls, struct cg_dyadic *rs);

/* An option with its stops, for removing dominated options. */
struct ranked {
	cg_game g;
	struct cg_dyadic ls, rs;
};

/* Left options by stops, highest first; Right's lowest first (dir). */
static int
cmp_ranked(const void *pa, const void *pb, void *arg)
{
	const struct ranked *a = pa, *b = pb;
	int c = cg_dyadic_cmp(b->ls, a->ls);

	if (c == 0)
		c = cg_dyadic_cmp(b->rs, a->rs);
	if (c == 0)
		c = a->g < b->g ? -1 : a->g > b->g;
	return *(const int *)arg == 0 ? c : -c;
}

/* Does x <= y hold?  Both stops of x at most y's is needed, and settles
 * most pairs of hot options without a comparison of games. */
static int
ranked_leq(const struct ranked *x, const struct ranked *y)
{
	if (cg_dyadic_cmp(x->ls, y->ls) > 0 || cg_dyadic_cmp(x->rs, y->rs) > 0)
		return 0;
	return leq(x->g, y->g);
}

/*
 * Keep the maxima (left, dir = 0) or minima (right, dir = 1).  The
 * options are taken best stops first, against the maxima kept so far: a
 * dominated option meets its dominator early, and a new maximum can only
 * beat a kept one whose stops are no better, which in this order means
 * equal stops.  Each option is compared with the maxima, not with every
 * other option.
 */
static void
remove_dominated(struct vec *a, int dir)
{
	struct ranked *r, *keep;
	size_t i, j, n = a->n, nk = 0;

	if (n < 2)
		return;
	r = cg_xmalloc(2 * n * sizeof *r);
	keep = r + n;
	for (i = 0; i < n; i++) {
		r[i].g = a->v[i];
		stops(r[i].g, &r[i].ls, &r[i].rs);
	}
	if (n > 32) {
		qsort_r(r, n, sizeof *r, cmp_ranked, &dir);
	} else {
		for (i = 1; i < n; i++) {
			struct ranked x = r[i];

			for (j = i; j > 0 && cmp_ranked(&r[j - 1], &x, &dir) > 0;
			    j--)
				r[j] = r[j - 1];
			r[j] = x;
		}
	}
	for (i = 0; i < n; i++) {
		int dominated = 0;

		for (j = 0; j < nk && !dominated; j++)
			dominated = dir == 0 ? ranked_leq(&r[i], &keep[j]) :
			    ranked_leq(&keep[j], &r[i]);
		if (dominated)
			continue;
		/* kept options the new one dominates (equal stops only) */
		for (j = 0; j < nk; ) {
			if (dir == 0 ? ranked_leq(&keep[j], &r[i]) :
			    ranked_leq(&r[i], &keep[j]))
				keep[j] = keep[--nk];
			else
				j++;
		}
		keep[nk++] = r[i];
	}
	for (i = 0; i < nk; i++)
		a->v[i] = keep[i].g;
	a->n = nk;
	free(r);
}

static int geq_g(cg_game x, const struct vec *l, const struct vec *r);

/* x <= G = {l | r}, G not built yet. */
static int
leq_g(cg_game x, const struct vec *l, const struct vec *r)
{
	uint32_t key = x << 1, slot = mix(key * 0x9e3779b1u) & 0xffff;
	const cg_game *o;
	size_t i, n;
	int res = 1;
	struct work *w = W();

	if (w->rmemo[slot].gen == w->rgen && w->rmemo[slot].key == key)
		return w->rmemo[slot].val;
	deeper();
	for (i = 0; i < r->n && res; i++)
		if (leq(r->v[i], x))
			res = 0;
	if (res) {
		o = LOPTS(x, &n);
		for (i = 0; i < n && res; i++)
			if (geq_g(o[i], l, r))
				res = 0;
	}
	SHALLOWER();
	w->rmemo[slot].gen = w->rgen;
	w->rmemo[slot].key = key;
	w->rmemo[slot].val = (uint8_t)res;
	return res;
}

/* x >= G = {l | r}. */
static int
geq_g(cg_game x, const struct vec *l, const struct vec *r)
{
	uint32_t key = x << 1 | 1, slot = mix(key * 0x9e3779b1u) & 0xffff;
	const cg_game *o;
	size_t i, n;
	int res = 1;
	struct work *w = W();

	if (w->rmemo[slot].gen == w->rgen && w->rmemo[slot].key == key)
		return w->rmemo[slot].val;
	deeper();
	for (i = 0; i < l->n && res; i++)
		if (leq(x, l->v[i]))
			res = 0;
	if (res) {
		o = ROPTS(x, &n);
		for (i = 0; i < n && res; i++)
			if (leq_g(o[i], l, r))
				res = 0;
	}
	SHALLOWER();
	w->rmemo[slot].gen = w->rgen;
	w->rmemo[slot].key = key;
	w->rmemo[slot].val = (uint8_t)res;
	return res;
}

static void
new_generation(void)
{
	struct work *w = W();

	if (++w->rgen == 0) {
		memset(w->rmemo, 0, (1u << 16) * sizeof *w->rmemo);
		w->rgen = 1;
	}
}

/* Bypass reversible options of side dir (0 left, 1 right); 1 if any. */
static int
bypass(struct vec *l, struct vec *r, int dir)
{
	struct vec *a = dir == 0 ? l : r;
	size_t i = 0, j, n, m, k;
	const cg_game *o, *p;
	int any = 0, found;
	cg_game opt, rev;

	while (i < a->n) {
		opt = a->v[i];
		found = 0;
		if (dir == 0)
			o = ROPTS(opt, &n);
		else
			o = LOPTS(opt, &n);
		for (j = 0; j < n && !found; j++) {
			rev = o[j];
			found = dir == 0 ? leq_g(rev, l, r) : geq_g(rev, l, r);
		}
		if (!found) {
			i++;
			continue;
		}
		any = 1;
		rev = o[j - 1];
		/* replace opt by rev's options on side dir */
		a->v[i] = a->v[a->n - 1];
		a->n--;
		if (dir == 0)
			p = LOPTS(rev, &m);
		else
			p = ROPTS(rev, &m);
		for (k = 0; k < m; k++)
			if (!vec_has(a, p[k]))
				vec_push(a, p[k]);
		/* the value of G is unchanged, so memoised answers stand */
	}
	return any;
}

static int
same_list(const cg_game *a, size_t na, const cg_game *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* Is the canonical {l | r} the NUS cand? */
static int
is_nus_form(cg_game cand, const struct vec *l, const struct vec *r)
{
	const cg_game *o;
	size_t n;

	o = LOPTS(cand, &n);
	if (!same_list(o, n, l->v, l->n))
		return 0;
	o = ROPTS(cand, &n);
	return same_list(o, n, r->v, r->n);
}

static cg_game
recognise_nus(const struct vec *l, const struct vec *r)
{
	struct cg_dyadic x, y;
	const struct nus *a, *b;
	cg_game cand = CG_NO_GAME;
	size_t i;

	if (l->n == 0 && r->n == 0)
		return S.zero;
	for (i = 0; i < l->n; i++)
		if (!cg_canon_is_nus(l->v[i]))
			return CG_NO_GAME;
	for (i = 0; i < r->n; i++)
		if (!cg_canon_is_nus(r->v[i]))
			return CG_NO_GAME;
	if (l->n == 0 && r->n == 1 && cg_canon_is_integer(r->v[0]) &&
	    NUS(r->v[0])->num <= 0) {
		cand = cg_canon_number(cg_dyadic_add(nus_x(r->v[0]),
		    cg_dyadic_make(-1, 0)));
	} else if (l->n == 1 && r->n == 0 && cg_canon_is_integer(l->v[0]) &&
	    NUS(l->v[0])->num >= 0) {
		cand = cg_canon_number(cg_dyadic_add(nus_x(l->v[0]),
		    cg_dyadic_make(1, 0)));
	} else if (l->n == 1 && r->n == 1) {
		a = NUS(l->v[0]);
		b = NUS(r->v[0]);
		x = nus_x(l->v[0]);
		y = nus_x(r->v[0]);
		if (cg_canon_is_number(l->v[0]) && cg_canon_is_number(r->v[0]) &&
		    cg_dyadic_cmp(x, y) < 0)
			cand = cg_canon_number(cg_dyadic_half(
			    cg_dyadic_add(x, y)));
		else if (cg_canon_is_number(l->v[0]) && cg_dyadic_cmp(x, y) == 0 &&
		    b->up >= 0)
			cand = cg_canon_nus(x, b->up + 1, b->nim ^ 1);
		else if (cg_canon_is_number(r->v[0]) && cg_dyadic_cmp(x, y) == 0 &&
		    a->up <= 0)
			cand = cg_canon_nus(x, a->up - 1, a->nim ^ 1);
	} else if (l->n == 2 && r->n == 1 && cg_canon_is_number(r->v[0])) {
		cand = cg_canon_nus(nus_x(r->v[0]), 1, 1);
	} else if (l->n == 1 && r->n == 2 && cg_canon_is_number(l->v[0])) {
		cand = cg_canon_nus(nus_x(l->v[0]), -1, 1);
	}
	if (cand != CG_NO_GAME && is_nus_form(cand, l, r))
		return cand;
	if (l->n == r->n && l->n > 0) {
		/* x + *k: options x + *j, j < k, on both sides */
		x = nus_x(l->v[0]);
		for (i = 0; i < l->n; i++)
			if (NUS(l->v[i])->up != 0 ||
			    cg_dyadic_cmp(nus_x(l->v[i]), x) != 0)
				return CG_NO_GAME;
		cand = cg_canon_nus(x, 0, l->n);
		if (is_nus_form(cand, l, r))
			return cand;
	}
	return CG_NO_GAME;
}

static cg_game
opts_lookup(uint32_t h, const struct vec *l, const struct vec *r)
{
	struct bucket *b = LOAD(S.oidx);
	const struct rec *rc;
	cg_game g;

	for (g = LOAD(b->head[h & b->mask]); g != CG_NO_GAME;
	    g = LOAD(REC(g)->next)) {
		rc = REC(g);
		if (rc->hash == h && same_list(rc->opt, rc->nl, l->v, l->n) &&
		    same_list(rc->opt + rc->nl, rc->nr, r->v, r->n))
			return g;
	}
	return CG_NO_GAME;
}

/* Intern canonical, sorted, duplicate-free option lists. */
static cg_game
intern_canonical(const struct vec *l, const struct vec *r)
{
	uint32_t h, g;
	struct rec *rc;
	cg_game *p;

	g = recognise_nus(l, r);
	if (g != CG_NO_GAME)
		return g;
	h = hash_opts(l->v, l->n, r->v, r->n);
	g = opts_lookup(h, l, r);
	if (g != CG_NO_GAME)
		return g;
	lock_store();
	g = opts_lookup(h, l, r);
	if (g != CG_NO_GAME) {
		unlock_store();
		return g;
	}
	g = new_rec();
	rc = REC(g);
	p = opt_alloc(l->n + r->n);
	if (l->n)
		memcpy(p, l->v, l->n * sizeof *p);
	if (r->n)
		memcpy(p + l->n, r->v, r->n * sizeof *p);
	rc->opt = p;
	rc->nl = (uint32_t)l->n;
	rc->nr = (uint32_t)r->n;
	rc->flags = F_OPTS;
	rc->hash = h;
	index_add(&S.oidx, &S.ocount, g);
	unlock_store();
	return g;
}

/* Nimber shortcut: all options x + *j with one x, equal mex each side. */
static cg_game
nimber_shortcut(const struct vec *l, const struct vec *r)
{
	struct cg_dyadic x;
	uint64_t mex[2];
	const struct vec *side[2] = { l, r };
	size_t i;
	int s;

	if (l->n == 0 || r->n == 0)
		return CG_NO_GAME;
	x = cg_canon_is_nus(l->v[0]) ? nus_x(l->v[0]) : cg_dyadic_make(0, 0);
	for (s = 0; s < 2; s++) {
		unsigned char seen[64];

		memset(seen, 0, sizeof seen);
		for (i = 0; i < side[s]->n; i++) {
			cg_game g = side[s]->v[i];

			if (!cg_canon_is_nus(g) || NUS(g)->up != 0 ||
			    cg_dyadic_cmp(nus_x(g), x) != 0)
				return CG_NO_GAME;
			if (NUS(g)->nim < 64)
				seen[NUS(g)->nim] = 1;
		}
		for (mex[s] = 0; mex[s] < 64 && seen[mex[s]]; mex[s]++)
			;
		if (mex[s] == 64)
			return CG_NO_GAME;
	}
	if (mex[0] != mex[1])
		return CG_NO_GAME;
	return cg_canon_nus(x, 0, mex[0]);
}

static cg_game
make_vec(struct vec *l, struct vec *r)
{
	struct work *w = W();
	cg_game g;

	ensure_init();
	if (LOAD(S.n) >= 2 * w->sized && LOAD(S.n) >= (1u << 12))
		grow_caches(w);
	vec_sort_unique(l);
	vec_sort_unique(r);
	/* Options that are exactly those of a game in the store: that game,
	 * with no simplification (the store holds canonical games only, so
	 * their option lists are already simplified).  Reading a games
	 * dictionary rebuilds millions of games this way. */
	g = opts_lookup(hash_opts(l->v, l->n, r->v, r->n), l, r);
	if (g != CG_NO_GAME)
		return g;
	g = nimber_shortcut(l, r);
	if (g != CG_NO_GAME)
		return g;
	remove_dominated(l, 0);
	remove_dominated(r, 1);
	new_generation();
	if (bypass(l, r, 0) | bypass(l, r, 1)) {
		vec_sort_unique(l);
		vec_sort_unique(r);
		remove_dominated(l, 0);
		remove_dominated(r, 1);
	}
	vec_sort_unique(l);
	vec_sort_unique(r);
	return intern_canonical(l, r);
}

/* A pair of option lists holding lo and ro (give it back with
 * pair_put). */
static struct vec *
pair_of(const cg_game *lo, size_t nl, const cg_game *ro, size_t nr)
{
	struct vec *lr = pair_get();
	size_t i;

	for (i = 0; i < nl; i++)
		vec_push(&lr[0], lo[i]);
	for (i = 0; i < nr; i++)
		vec_push(&lr[1], ro[i]);
	return lr;
}

cg_game
cg_canon_make(const cg_game *lo, size_t nl, const cg_game *ro, size_t nr)
{
	struct vec *lr;
	cg_game g;

	deeper();
	lr = pair_of(lo, nl, ro, nr);
	g = make_vec(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	return g;
}

cg_game
cg_canon_make_canonical(const cg_game *lo, size_t nl, const cg_game *ro,
    size_t nr)
{
	struct vec *lr;
	cg_game g;

	ensure_init();
	deeper();
	lr = pair_of(lo, nl, ro, nr);
	vec_sort_unique(&lr[0]);
	vec_sort_unique(&lr[1]);
	g = intern_canonical(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	return g;
}

/* ------------------------------------------------------------ arithmetic */

cg_game
cg_canon_neg(cg_game g)
{
	struct cache_ent *e;
	struct vec *lr;
	const cg_game *o;
	size_t n, i;
	uint32_t slot;
	cg_game res;
	struct work *w;

	ensure_init();
	if (cg_canon_is_nus(g)) {
		const struct nus *u = NUS(g);

		return nus_find(-u->num, u->exp, -u->up, u->nim, 1);
	}
	w = W();
	slot = mix(g) & w->negmask;
	e = &w->neg[slot];
	if (e->a == g)
		return e->r;
	deeper();
	lr = pair_get();
	o = ROPTS(g, &n);
	for (i = 0; i < n; i++)
		vec_push(&lr[0], cg_canon_neg(o[i]));
	o = LOPTS(g, &n);
	for (i = 0; i < n; i++)
		vec_push(&lr[1], cg_canon_neg(o[i]));
	/* the negative of a canonical form is canonical */
	vec_sort_unique(&lr[0]);
	vec_sort_unique(&lr[1]);
	res = intern_canonical(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	e = &w->neg[slot];
	e->a = g;
	e->r = res;
	/* and the other way round */
	e = &w->neg[mix(res) & w->negmask];
	e->a = res;
	e->r = g;
	return res;
}

static cg_game
nus_add(cg_game g, cg_game h)
{
	const struct nus *a = NUS(g), *b = NUS(h);
	struct cg_dyadic x = cg_dyadic_add(nus_x(g), nus_x(h));
	int64_t up;

	if (__builtin_add_overflow(a->up, b->up, &up))
		cg_canon_data_error("up multiple or nimber too large");
	return cg_canon_nus(x, up, a->nim ^ b->nim);
}

cg_game
cg_canon_add(cg_game g, cg_game h)
{
	struct cache_ent *e;
	struct vec *lr;
	const cg_game *o;
	size_t n, i;
	uint32_t slot;
	cg_game res, t;
	int s;
	struct work *w;

	ensure_init();
	if (g == S.zero)
		return h;
	if (h == S.zero)
		return g;
	if (cg_canon_is_nus(g) && cg_canon_is_nus(h))
		return nus_add(g, h);
	if (g > h) {
		t = g;
		g = h;
		h = t;
	}
	w = W();
	slot = (mix(g * 0x85ebca6bu ^ h) + h) & w->summask;
	e = &w->sum[slot];
	if (e->a == g && e->b == h)
		return e->r;
	deeper();
	lr = pair_get();
	for (s = 0; s < 2; s++) {
		struct vec *v = &lr[s];

		/* a number summand contributes no options (translation) */
		if (!cg_canon_is_number(g)) {
			o = cg_canon_options(g, (enum cg_side)s, &n);
			for (i = 0; i < n; i++)
				vec_push(v, cg_canon_add(o[i], h));
		}
		if (!cg_canon_is_number(h)) {
			o = cg_canon_options(h, (enum cg_side)s, &n);
			for (i = 0; i < n; i++)
				vec_push(v, cg_canon_add(g, o[i]));
		}
	}
	res = make_vec(&lr[0], &lr[1]);
	pair_put(lr);
	SHALLOWER();
	e = &w->sum[slot];
	e->a = g;
	e->b = h;
	e->r = res;
	return res;
}

cg_game
cg_canon_sub(cg_game g, cg_game h)
{
	return cg_canon_add(g, cg_canon_neg(h));
}

/* ------------------------------------------------------------ properties */

uint64_t
cg_canon_birthday(cg_game g)
{
	struct rec *rc = REC(g);
	const cg_game *o;
	size_t n, i;
	uint64_t b = 0, c;
	int s;

	if (flags_of(rc) & F_BDAY)
		return __atomic_load_n(&rc->bday, __ATOMIC_RELAXED);
	if (flags_of(rc) & F_NUS) {
		const struct nus *u = NUS(g);
		uint64_t up = u->up < 0 ? (uint64_t)-u->up : (uint64_t)u->up;

		if (cg_dyadic_birthday(nus_x(g), &b) < 0)
			cg_canon_data_error("birthday beyond 64 bits");
		if (up > 0 && u->nim == 0)
			c = up + 1;
		else if ((up & 1) && u->nim != 1)
			c = up + (u->nim ^ 1);
		else
			c = up + u->nim;
		if (b + c < b)
			cg_canon_data_error("birthday beyond 64 bits");
		b += c;
	} else {
		deeper();
		for (s = 0; s < 2; s++) {
			o = cg_canon_options(g, (enum cg_side)s, &n);
			for (i = 0; i < n; i++) {
				c = cg_canon_birthday(o[i]) + 1;
				if (c == 0)
					cg_canon_data_error("birthday beyond 64 bits");
				if (c > b)
					b = c;
			}
		}
		SHALLOWER();
	}
	rc = REC(g);
	__atomic_store_n(&rc->bday, b, __ATOMIC_RELAXED);
	__atomic_fetch_or(&rc->flags, F_BDAY, __ATOMIC_RELEASE);
	return b;
}

int
cg_canon_outcome(cg_game g)
{
	int ge0 = leq(S.zero, g), le0 = leq(g, S.zero);

	if (ge0 && le0)
		return 'P';
	if (ge0)
		return 'L';
	if (le0)
		return 'R';
	return 'N';
}

/* Both stops of g, computed once and kept in its record (several
 * threads may compute them at once; they write the same values). */
static void
stops(cg_game g, struct cg_dyadic *ls, struct cg_dyadic *rs)
{
	struct rec *r = REC(g);
	struct cg_dyadic best[2], v[2];
	const cg_game *o;
	size_t n, i;
	int s;

	if (flags_of(r) & F_STOPS) {
		ls->num = __atomic_load_n(&r->lnum, __ATOMIC_RELAXED);
		ls->exp = __atomic_load_n(&r->lexp, __ATOMIC_RELAXED);
		rs->num = __atomic_load_n(&r->rnum, __ATOMIC_RELAXED);
		rs->exp = __atomic_load_n(&r->rexp, __ATOMIC_RELAXED);
		return;
	}
	if (flags_of(r) & F_NUS) {
		*ls = *rs = nus_x(g);
		return;
	}
	deeper();
	for (s = 0; s < 2; s++) {
		o = cg_canon_options(g, (enum cg_side)s, &n);
		best[s] = cg_dyadic_make(0, 0);
		for (i = 0; i < n; i++) {
			stops(o[i], &v[0], &v[1]);
			/* Left's stop is the best right stop of an option */
			if (i == 0 || (s == 0 ? cg_dyadic_cmp(v[1], best[s]) > 0 :
			    cg_dyadic_cmp(v[0], best[s]) < 0))
				best[s] = s == 0 ? v[1] : v[0];
		}
	}
	SHALLOWER();
	r = REC(g);
	__atomic_store_n(&r->lnum, best[0].num, __ATOMIC_RELAXED);
	__atomic_store_n(&r->lexp, best[0].exp, __ATOMIC_RELAXED);
	__atomic_store_n(&r->rnum, best[1].num, __ATOMIC_RELAXED);
	__atomic_store_n(&r->rexp, best[1].exp, __ATOMIC_RELAXED);
	__atomic_fetch_or(&r->flags, F_STOPS, __ATOMIC_RELEASE);
	*ls = best[0];
	*rs = best[1];
}

static struct cg_dyadic
stop(cg_game g, int side)
{
	struct cg_dyadic ls, rs;

	stops(g, &ls, &rs);
	return side == 0 ? ls : rs;
}

struct cg_dyadic
cg_canon_left_stop(cg_game g)
{
	return stop(g, 0);
}

struct cg_dyadic
cg_canon_right_stop(cg_game g)
{
	return stop(g, 1);
}
