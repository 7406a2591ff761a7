/* canon.c - the canonical short-game store (see canon.h): records, the
 * option arena, the indexes that intern games, the lock, each worker's
 * caches and scratch, data errors, memos, and number-up-star games with
 * their options.  Canonical forms are built in canonbuild.c, compared in
 * canonorder.c and added in canonarith.c; canon_int.h is what they share.
 *
 * Layout.  Game records live in chunks of 2^16 (pointers stay valid while
 * the store grows); option lists live in a chunked arena of 32-bit ids,
 * sorted by id.  Two chained hash indexes intern games: one keyed by the
 * (left, right) option lists of ordinary games, one keyed by the parts of
 * number-up-star games (NUS: x + n.^ + *k), whose options are built only
 * on demand.  Canonical NUS option lists follow CGSuite's forms (see
 * gl_nus_options in include/cg/gamelit.h); after canonicalisation a list
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
#include "values/canon_int.h"
#include "values/gamevec.h"

_Static_assert(CG_CANON_MAX_UP == GL_MAX_UP && CG_CANON_MAX_NIM == GL_MAX_NIM,
    "the store holds what literals write");

/* The store, S for short in this file. */
struct canon_store canon_store;
#define S canon_store

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
pthread_once_t canon_once = PTHREAD_ONCE_INIT;

struct work *canon_works[CG_MAX_JOBS];

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

void
canon_deeper(void)
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

/* Scratch pair of option vectors for this thread's current depth, empty.
 * Callers go canon_deeper() first, so nested builders get pairs of their
 * own. */
struct vec *
canon_pair_get(void)
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

void
cg_canon_enter(void)
{
	canon_deeper();
}

void
cg_canon_leave(void)
{
	SHALLOWER();
}

/* ------------------------------------------------------------ store */

uint32_t
canon_hash_opts(const cg_game *l, size_t nl, const cg_game *r, size_t nr)
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

/* The table of comparisons (canon_int.h), and the ones it replaced. */
_Atomic(struct leqtab *) canon_leqtab;
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
	t = atomic_load_explicit(&canon_leqtab, memory_order_acquire);
	if ((t != NULL && t->mask + 1 >= n) ||
	    (t != NULL && !cg_watch_fits(n * sizeof t->e[0])))
		return;
	pthread_mutex_lock(&leq_lock);
	t = atomic_load_explicit(&canon_leqtab, memory_order_acquire);
	if (t == NULL || t->mask + 1 < n) {
		if (t != NULL) {
			leq_old = cg_xreallocarray(leq_old, nleq_old + 1,
			    sizeof *leq_old);
			leq_old[nleq_old++] = t;
		}
		atomic_store_explicit(&canon_leqtab, leq_new(n),
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
	free(atomic_load(&canon_leqtab));
	atomic_store(&canon_leqtab, leq_new(1u << 17));
}

void
canon_grow_caches(struct work *w)
{
	uint32_t n = LOAD(S.n);

	w->sized = n;
	grow_cache(&w->sum, &w->summask, n * 4, 1u << 22);
	grow_cache(&w->neg, &w->negmask, n, 1u << 22);
	grow_leq(n);
}

struct work *
canon_work_new(void)
{
	struct work *w = cg_xcalloc(1, sizeof *w);

	w->summask = (1u << 16) - 1;
	w->negmask = (1u << 14) - 1;
	w->sum = xcalloc_cache(w->summask + 1);
	w->neg = xcalloc_cache(w->negmask + 1);
	w->rmemo = cg_xcalloc(1u << 16, sizeof *w->rmemo);
	w->rgen = 1;
	canon_grow_caches(w);
	canon_works[cg_worker] = w;
	return w;
}

void
cg_canon_shrink_caches(void)
{
	struct work *w;
	unsigned k;

	for (k = 0; k < CG_MAX_JOBS; k++) {
		if ((w = canon_works[k]) == NULL)
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

cg_game
canon_nus_find(int64_t num, int exp, int64_t up, uint64_t nim, int create)
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

cg_game
canon_opts_lookup(uint32_t h, const struct vec *l, const struct vec *r)
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

/* Intern canonical, sorted, duplicate-free option lists that are not a
 * NUS's (canon_intern_canonical recognises those). */
cg_game
canon_intern(const struct vec *l, const struct vec *r)
{
	uint32_t h, g;
	struct rec *rc;
	cg_game *p;

	h = canon_hash_opts(l->v, l->n, r->v, r->n);
	g = canon_opts_lookup(h, l, r);
	if (g != CG_NO_GAME)
		return g;
	lock_store();
	g = canon_opts_lookup(h, l, r);
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

void
canon_init(void)
{
	S.chunk = cg_xcalloc(MAX_CHUNKS, sizeof *S.chunk);
	S.nuschunk = cg_xcalloc(MAX_CHUNKS, sizeof *S.nuschunk);
	S.oidx = bucket_new(1u << 16);
	S.nidx = bucket_new(1u << 16);
	S.zero = canon_nus_find(0, 0, 0, 0, 1);
	S.star = canon_nus_find(0, 0, 0, 1, 1);
	STORE(S.ready, 1);
}

cg_game
cg_canon_nus(struct cg_dyadic x, int64_t up, uint64_t nim)
{
	ensure_init();
	x = cg_dyadic_make(x.num, x.exp);
	return canon_nus_find(x.num, x.exp, up, nim, 1);
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
	return canon_nus_find(n, 0, 0, 0, 1);
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
	cg_game g = canon_nus_find(num, exp, up, nim, 1);

	if (o->big[side] != NULL)
		o->big[side][o->nbig[side]++] = g;
	else if (side == 0)
		o->l[o->nl++] = g;
	else
		o->r[o->nr++] = g;
	return 0;
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
		o->l[o->nl++] = canon_nus_find(y.num, y.exp, 0, 0, 1);
		mpz_add_ui(m, m, 1);
	}
	if (k > 0 || u->num < 0) {
		mpz_add_ui(m, m, 1);
		y = cg_dyadic_from_mpz(m, k);
		o->r[o->nr++] = canon_nus_find(y.num, y.exp, 0, 0, 1);
	}
	mpz_clear(m);
}

/*
 * Make a NUS's options.  They are interned first, with no lock held, so
 * that a data error there (a number past the bound) leaves nothing half
 * done; then the list is published under the lock, unless another thread
 * was first.  Kept out of line, so that cg_canon_options, which every
 * walk over games calls, stays a few instructions.
 */
static __attribute__((noinline)) void
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
		canon_deeper();
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
		if (canon_works[k] != NULL)
			bytes += ((size_t)canon_works[k]->summask +
			    canon_works[k]->negmask + 2) *
			    sizeof(struct cache_ent);
	{
		struct leqtab *t = atomic_load(&canon_leqtab);

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

