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
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canon.h"
#include "thermo.h"
#include "plugin.h"
#include "util.h"

#include "../plugins/lib/gamelit.h"

#define CHUNK_BITS 16
#define CHUNK (1u << CHUNK_BITS)
#define OPT_CHUNK (1u << 20)

enum {
	F_NUS = 1,          /* x + n.^ + *k */
	F_OPTS = 2,         /* options are built */
	F_NUMBER = 4,
	F_BDAY = 8          /* bday field valid */
};

struct rec {
	cg_game *opt;       /* left options then right options */
	uint32_t nl, nr;
	uint32_t next;      /* hash chain */
	uint32_t aux;       /* NUS: index into nus[] */
	uint32_t flags;
	uint32_t hash;
	uint64_t bday;
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

static struct {
	int ready;
	struct rec **chunk;
	size_t nchunk, capchunk;
	uint32_t n;                 /* games */
	struct nus *nus;
	uint32_t nnus, capnus;
	/* option arena */
	cg_game **ochunk;
	size_t nochunk, capochunk;
	size_t ofree;               /* free ids in the last chunk */
	cg_game *optr;
	size_t obytes;
	/* indexes */
	uint32_t *oidx, ocap, ocount;
	uint32_t *nidx, ncap, ncount;
	/* caches */
	struct cache_ent *sum, *neg, *leq;
	uint32_t summask, negmask, leqmask;
	/* memo slots */
	void **slot[CG_CANON_SLOTS];
	size_t slotcap[CG_CANON_SLOTS];
	/* uptimal memo: 0 unknown, 1 none, 2+k expansion k (positive part
	 * only for upos; full for ufull) */
	uint32_t *upos, *ufull;
	size_t upcap;
	struct upx { struct cg_dyadic x; uint64_t nim; int len;
		int64_t *d; } *upx;
	size_t nupx, capupx;
	/* ^<n>, ^[n] */
	cg_game *pow, *powto;
	int npow, npowto;
	/* reversibility memo for the game being built */
	struct { uint32_t key, gen; uint8_t val; } *rmemo;
	uint32_t rgen;
	int depth;
	cg_game zero, star;
} S;

#define REC(g) (&S.chunk[(g) >> CHUNK_BITS][(g) & (CHUNK - 1)])

/* Where the store's data errors go inside cg_canon_catch. */
static struct {
	jmp_buf *jb;
	char *msg;
	size_t msgsize;
} trap;

/* A data error: the game is too large for the store.  Fatal, unless
 * cg_canon_catch is running. */
static void __attribute__((noreturn, format(printf, 1, 2)))
data_error(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (trap.jb != NULL) {
		jmp_buf *jb = trap.jb;

		snprintf(trap.msg, trap.msgsize, "%s", msg);
		trap.jb = NULL;
		longjmp(*jb, 1);
	}
	cg_die(CG_EXIT_DATA, "%s", msg);
}

int
cg_canon_catch(void (*fn)(void *), void *arg, char *msg, size_t msgsize)
{
	jmp_buf jb;
	jmp_buf *volatile outer = trap.jb;
	char *volatile outer_msg = trap.msg;
	volatile size_t outer_size = trap.msgsize;
	volatile int depth = S.depth;

	trap.jb = &jb;
	trap.msg = msg;
	trap.msgsize = msgsize;
	if (setjmp(jb) != 0) {
		S.depth = depth;
		trap.jb = outer;
		trap.msg = outer_msg;
		trap.msgsize = outer_size;
		return -1;
	}
	fn(arg);
	trap.jb = outer;
	trap.msg = outer_msg;
	trap.msgsize = outer_size;
	return 0;
}

static void
deeper(void)
{
	if (++S.depth > CG_CANON_MAX_DEPTH)
		data_error("game too deep (more than %d levels)",
		    CG_CANON_MAX_DEPTH);
}

#define SHALLOWER() (S.depth--)

/* ------------------------------------------------------------ dyadics */

static void
overflow(void)
{
	data_error("number too large for 64-bit arithmetic");
}

struct cg_dyadic
cg_dyadic_make(int64_t num, int exp)
{
	struct cg_dyadic d;

	if (num == 0)
		exp = 0;
	while (exp > 0 && (num & 1) == 0) {
		num /= 2;
		exp--;
	}
	if (exp > 62)
		overflow();
	d.num = num;
	d.exp = exp;
	return d;
}

/* a and b scaled to the larger exponent, as 128-bit numerators. */
static int
align(struct cg_dyadic a, struct cg_dyadic b, __int128 *x, __int128 *y)
{
	int e = a.exp > b.exp ? a.exp : b.exp;

	/* multiply, not shift: shifting a negative value is undefined */
	*x = (__int128)a.num * ((__int128)1 << (e - a.exp));
	*y = (__int128)b.num * ((__int128)1 << (e - b.exp));
	return e;
}

static struct cg_dyadic
from128(__int128 v, int e)
{
	while (e > 0 && (v & 1) == 0) {
		v /= 2;
		e--;
	}
	if (v > INT64_MAX || v < -INT64_MAX)
		overflow();
	return cg_dyadic_make((int64_t)v, e);
}

struct cg_dyadic
cg_dyadic_add(struct cg_dyadic a, struct cg_dyadic b)
{
	__int128 x, y;
	int e = align(a, b, &x, &y);

	return from128(x + y, e);
}

struct cg_dyadic
cg_dyadic_neg(struct cg_dyadic a)
{
	a.num = -a.num;
	return a;
}

struct cg_dyadic
cg_dyadic_sub(struct cg_dyadic a, struct cg_dyadic b)
{
	return cg_dyadic_add(a, cg_dyadic_neg(b));
}

struct cg_dyadic
cg_dyadic_half(struct cg_dyadic a)
{
	if (a.num == 0)
		return a;
	if ((a.num & 1) == 0 && a.exp == 0) {
		a.num /= 2;
		return a;
	}
	if (a.exp >= 62)
		overflow();
	a.exp++;
	return a;
}

int
cg_dyadic_cmp(struct cg_dyadic a, struct cg_dyadic b)
{
	__int128 x, y;

	align(a, b, &x, &y);
	return x < y ? -1 : x > y;
}

void
cg_dyadic_print(struct cg_dyadic x, struct cg_buf *out)
{
	if (x.exp == 0)
		cg_buf_addf(out, "%lld", (long long)x.num);
	else
		cg_buf_addf(out, "%lld/%llu", (long long)x.num,
		    (unsigned long long)1 << x.exp);
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

/* The caches grow with the store (up to 2^22 entries for sums and
 * negatives, 2^23 for comparisons); contents are dropped on growth. */
static void
grow_cache(struct cache_ent **c, uint32_t *mask, uint32_t want, uint32_t max)
{
	if (want > max)
		want = max;
	if (want <= *mask + 1)
		return;
	free(*c);
	*c = xcalloc_cache(want);
	*mask = want - 1;
}

static void
grow_caches(void)
{
	grow_cache(&S.sum, &S.summask, S.n * 4, 1u << 22);
	grow_cache(&S.neg, &S.negmask, S.n, 1u << 22);
	grow_cache(&S.leq, &S.leqmask, S.n * 8, 1u << 23);
}

static cg_game
new_rec(void)
{
	cg_game g;

	if (S.n == UINT32_MAX - 1)
		cg_die(CG_EXIT_DATA, "canonical game store full (2^32 games)");
	if ((S.n >> CHUNK_BITS) >= S.nchunk) {
		if (S.nchunk == S.capchunk) {
			S.capchunk = S.capchunk ? S.capchunk * 2 : 64;
			S.chunk = cg_xreallocarray(S.chunk, S.capchunk,
			    sizeof *S.chunk);
		}
		S.chunk[S.nchunk++] = cg_xcalloc(CHUNK, sizeof(struct rec));
	}
	g = S.n++;
	memset(REC(g), 0, sizeof *REC(g));
	if ((g & (g - 1)) == 0 && g >= (1u << 12))
		grow_caches();
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

static void
rehash(uint32_t **idx, uint32_t *cap)
{
	uint32_t ncap = *cap ? *cap * 2 : 1u << 16, i, g, nx;
	uint32_t *nidx = cg_xreallocarray(NULL, ncap, sizeof *nidx);

	memset(nidx, 0xff, (size_t)ncap * sizeof *nidx);
	for (i = 0; i < *cap; i++)
		for (g = (*idx)[i]; g != CG_NO_GAME; g = nx) {
			nx = REC(g)->next;
			REC(g)->next = nidx[REC(g)->hash & (ncap - 1)];
			nidx[REC(g)->hash & (ncap - 1)] = g;
		}
	free(*idx);
	*idx = nidx;
	*cap = ncap;
}

static cg_game
nus_find(int64_t num, int exp, int64_t up, uint64_t nim, int create)
{
	uint32_t h = hash_nus(num, exp, up, nim), g;
	struct rec *r;
	struct nus *u;

	if (!S.ready)
		canon_init();
	for (g = S.nidx[h & (S.ncap - 1)]; g != CG_NO_GAME; g = REC(g)->next) {
		u = &S.nus[REC(g)->aux];
		if (u->num == num && u->exp == exp && u->up == up &&
		    u->nim == nim)
			return g;
	}
	if (!create)
		return CG_NO_GAME;
	if (up > GL_MAX_UP || up < -GL_MAX_UP || nim > GL_MAX_NIM)
		data_error("up multiple or nimber too large");
	g = new_rec();
	r = REC(g);
	if (S.nnus == S.capnus) {
		S.capnus = S.capnus ? S.capnus * 2 : 1024;
		S.nus = cg_xreallocarray(S.nus, S.capnus, sizeof *S.nus);
	}
	S.nus[S.nnus].num = num;
	S.nus[S.nnus].exp = exp;
	S.nus[S.nnus].up = up;
	S.nus[S.nnus].nim = nim;
	r->aux = S.nnus++;
	r->flags = F_NUS | (up == 0 && nim == 0 ? F_NUMBER : 0);
	r->hash = h;
	r->next = S.nidx[h & (S.ncap - 1)];
	S.nidx[h & (S.ncap - 1)] = g;
	if (++S.ncount > S.ncap)
		rehash(&S.nidx, &S.ncap);
	return g;
}

static void
canon_init(void)
{
	S.ready = 1;
	memset(&S.oidx, 0, sizeof S.oidx);
	S.ocap = S.ncap = 0;
	rehash(&S.oidx, &S.ocap);
	rehash(&S.nidx, &S.ncap);
	S.summask = (1u << 16) - 1;
	S.negmask = (1u << 14) - 1;
	S.leqmask = (1u << 17) - 1;
	S.sum = xcalloc_cache(S.summask + 1);
	S.neg = xcalloc_cache(S.negmask + 1);
	S.leq = xcalloc_cache(S.leqmask + 1);
	S.rmemo = cg_xcalloc(1u << 16, sizeof *S.rmemo);
	S.rgen = 1;
	S.zero = nus_find(0, 0, 0, 0, 1);
	S.star = nus_find(0, 0, 0, 1, 1);
}

static const struct nus *
NUS(cg_game g)
{
	return &S.nus[REC(g)->aux];
}

cg_game
cg_canon_nus(struct cg_dyadic x, int64_t up, uint64_t nim)
{
	x = cg_dyadic_make(x.num, x.exp);
	return nus_find(x.num, x.exp, up, nim, 1);
}

cg_game
cg_canon_zero(void)
{
	if (!S.ready)
		canon_init();
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
			data_error("nimber *%llu too large to expand",
			    (unsigned long long)u.nim);
		o.big[0] = cg_xreallocarray(NULL, u.nim, sizeof(cg_game));
		o.big[1] = cg_xreallocarray(NULL, u.nim, sizeof(cg_game));
	}
	gl_nus_options(u.num, u.exp, u.up, u.nim, on_nus_opt, &o);
	if (o.big[0] != NULL) {
		o.nl = o.nbig[0];
		o.nr = o.nbig[1];
	}
	p = opt_alloc(o.nl + o.nr);
	if (o.nl)
		memcpy(p, o.big[0] ? o.big[0] : o.l, o.nl * sizeof *p);
	if (o.nr)
		memcpy(p + o.nl, o.big[1] ? o.big[1] : o.r, o.nr * sizeof *p);
	free(o.big[0]);
	free(o.big[1]);
	if (o.nl > 1)
		qsort(p, o.nl, sizeof *p, cmp_id);
	if (o.nr > 1)
		qsort(p + o.nl, o.nr, sizeof *p, cmp_id);
	r = REC(g);
	r->opt = p;
	r->nl = (uint32_t)o.nl;
	r->nr = (uint32_t)o.nr;
	r->flags |= F_OPTS;
}

const cg_game *
cg_canon_options(cg_game g, enum cg_side side, size_t *n)
{
	struct rec *r = REC(g);

	if (!(r->flags & F_OPTS)) {
		build_nus_options(g);
		r = REC(g);
	}
	*n = side == CG_LEFT ? r->nl : r->nr;
	return side == CG_LEFT ? r->opt : r->opt + r->nl;
}

#define LOPTS(g, n) cg_canon_options((g), CG_LEFT, (n))
#define ROPTS(g, n) cg_canon_options((g), CG_RIGHT, (n))

int
cg_canon_is_nus(cg_game g)
{
	return (REC(g)->flags & F_NUS) != 0;
}

int
cg_canon_is_number(cg_game g)
{
	return (REC(g)->flags & F_NUMBER) != 0;
}

int
cg_canon_is_integer(cg_game g)
{
	return cg_canon_is_number(g) && NUS(g)->exp == 0;
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
	return S.n;
}

size_t
cg_canon_memory(void)
{
	return S.nchunk * (size_t)CHUNK * sizeof(struct rec) + S.obytes +
	    (size_t)S.capnus * sizeof(struct nus) +
	    ((size_t)S.ocap + S.ncap) * 4 +
	    ((size_t)S.summask + S.negmask + S.leqmask + 3) *
	    sizeof(struct cache_ent);
}

void **
cg_canon_slot(cg_game g, int slot)
{
	if (g >= S.slotcap[slot]) {
		size_t nc = S.slotcap[slot] ? S.slotcap[slot] : 1024;

		while (nc <= g)
			nc *= 2;
		S.slot[slot] = cg_xreallocarray(S.slot[slot], nc, sizeof(void *));
		memset(S.slot[slot] + S.slotcap[slot], 0,
		    (nc - S.slotcap[slot]) * sizeof(void *));
		S.slotcap[slot] = nc;
	}
	return &S.slot[slot][g];
}

/* ------------------------------------------------------------ order */

static int leq(cg_game g, cg_game h);

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
	struct cache_ent *e;
	const cg_game *o;
	size_t n, i;
	int res = 1;
	uint32_t slot;

	if (g == h)
		return 1;
	if ((REC(g)->flags & REC(h)->flags & F_NUS))
		return nus_leq(g, h);
	slot = (mix(g * 0x9e3779b1u ^ h) ^ h) & S.leqmask;
	e = &S.leq[slot];
	if (e->a == g && e->b == h)
		return (int)e->r;
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
	e = &S.leq[slot];
	e->a = g;
	e->b = h;
	e->r = (uint32_t)res;
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

struct vec {
	cg_game *v;
	size_t n, cap;
	cg_game small[16];
};

static void
vec_init(struct vec *a)
{
	a->v = a->small;
	a->n = 0;
	a->cap = 16;
}

static void
vec_free(struct vec *a)
{
	if (a->v != a->small)
		free(a->v);
}

static void
vec_push(struct vec *a, cg_game g)
{
	if (a->n == a->cap) {
		size_t nc = a->cap * 2;

		if (a->v == a->small) {
			a->v = cg_xreallocarray(NULL, nc, sizeof *a->v);
			memcpy(a->v, a->small, a->n * sizeof *a->v);
		} else {
			a->v = cg_xreallocarray(a->v, nc, sizeof *a->v);
		}
		a->cap = nc;
	}
	a->v[a->n++] = g;
}

static int
vec_has(const struct vec *a, cg_game g)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i] == g)
			return 1;
	return 0;
}

static void
vec_sort_unique(struct vec *a)
{
	size_t i, k = 0;

	qsort(a->v, a->n, sizeof *a->v, cmp_id);
	for (i = 0; i < a->n; i++)
		if (k == 0 || a->v[k - 1] != a->v[i])
			a->v[k++] = a->v[i];
	a->n = k;
}

/* Keep the maxima (left, dir = 0) or minima (right, dir = 1). */
static void
remove_dominated(struct vec *a, int dir)
{
	size_t i, j, k = 0;
	unsigned char *dead;

	if (a->n < 2)
		return;
	dead = cg_xcalloc(a->n, 1);
	for (i = 0; i < a->n; i++)
		for (j = 0; j < a->n && !dead[i]; j++)
			if (i != j && !dead[j] &&
			    (dir == 0 ? leq(a->v[i], a->v[j]) :
			    leq(a->v[j], a->v[i])))
				dead[i] = 1;
	for (i = 0; i < a->n; i++)
		if (!dead[i])
			a->v[k++] = a->v[i];
	a->n = k;
	free(dead);
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

	if (S.rmemo[slot].gen == S.rgen && S.rmemo[slot].key == key)
		return S.rmemo[slot].val;
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
	S.rmemo[slot].gen = S.rgen;
	S.rmemo[slot].key = key;
	S.rmemo[slot].val = (uint8_t)res;
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

	if (S.rmemo[slot].gen == S.rgen && S.rmemo[slot].key == key)
		return S.rmemo[slot].val;
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
	S.rmemo[slot].gen = S.rgen;
	S.rmemo[slot].key = key;
	S.rmemo[slot].val = (uint8_t)res;
	return res;
}

static void
new_generation(void)
{
	if (++S.rgen == 0) {
		memset(S.rmemo, 0, (1u << 16) * sizeof *S.rmemo);
		S.rgen = 1;
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
		if (NUS(r->v[0])->num == INT64_MIN + 1)
			overflow();
		cand = cg_canon_integer(NUS(r->v[0])->num - 1);
	} else if (l->n == 1 && r->n == 0 && cg_canon_is_integer(l->v[0]) &&
	    NUS(l->v[0])->num >= 0) {
		if (NUS(l->v[0])->num == INT64_MAX)
			overflow();
		cand = cg_canon_integer(NUS(l->v[0])->num + 1);
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
	for (g = S.oidx[h & (S.ocap - 1)]; g != CG_NO_GAME; g = REC(g)->next) {
		rc = REC(g);
		if (rc->hash == h && same_list(rc->opt, rc->nl, l->v, l->n) &&
		    same_list(rc->opt + rc->nl, rc->nr, r->v, r->n))
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
	rc->next = S.oidx[h & (S.ocap - 1)];
	S.oidx[h & (S.ocap - 1)] = g;
	if (++S.ocount > S.ocap)
		rehash(&S.oidx, &S.ocap);
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
	cg_game g;

	if (!S.ready)
		canon_init();
	vec_sort_unique(l);
	vec_sort_unique(r);
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

cg_game
cg_canon_make(const cg_game *lo, size_t nl, const cg_game *ro, size_t nr)
{
	struct vec l, r;
	size_t i;
	cg_game g;

	vec_init(&l);
	vec_init(&r);
	for (i = 0; i < nl; i++)
		vec_push(&l, lo[i]);
	for (i = 0; i < nr; i++)
		vec_push(&r, ro[i]);
	g = make_vec(&l, &r);
	vec_free(&l);
	vec_free(&r);
	return g;
}

/* ------------------------------------------------------------ arithmetic */

cg_game
cg_canon_neg(cg_game g)
{
	struct cache_ent *e;
	struct vec l, r;
	const cg_game *o;
	size_t n, i;
	uint32_t slot;
	cg_game res;

	if (!S.ready)
		canon_init();
	if (cg_canon_is_nus(g)) {
		const struct nus *u = NUS(g);

		return nus_find(-u->num, u->exp, -u->up, u->nim, 1);
	}
	slot = mix(g) & S.negmask;
	e = &S.neg[slot];
	if (e->a == g)
		return e->r;
	deeper();
	vec_init(&l);
	vec_init(&r);
	o = ROPTS(g, &n);
	for (i = 0; i < n; i++)
		vec_push(&l, cg_canon_neg(o[i]));
	o = LOPTS(g, &n);
	for (i = 0; i < n; i++)
		vec_push(&r, cg_canon_neg(o[i]));
	/* the negative of a canonical form is canonical */
	vec_sort_unique(&l);
	vec_sort_unique(&r);
	res = intern_canonical(&l, &r);
	vec_free(&l);
	vec_free(&r);
	SHALLOWER();
	e = &S.neg[slot];
	e->a = g;
	e->r = res;
	/* and the other way round */
	e = &S.neg[mix(res) & S.negmask];
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
		overflow();
	return cg_canon_nus(x, up, a->nim ^ b->nim);
}

cg_game
cg_canon_add(cg_game g, cg_game h)
{
	struct cache_ent *e;
	struct vec l, r;
	const cg_game *o;
	size_t n, i;
	uint32_t slot;
	cg_game res, t;
	int s;

	if (!S.ready)
		canon_init();
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
	slot = (mix(g * 0x85ebca6bu ^ h) + h) & S.summask;
	e = &S.sum[slot];
	if (e->a == g && e->b == h)
		return e->r;
	deeper();
	vec_init(&l);
	vec_init(&r);
	for (s = 0; s < 2; s++) {
		struct vec *v = s == 0 ? &l : &r;

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
	res = make_vec(&l, &r);
	vec_free(&l);
	vec_free(&r);
	SHALLOWER();
	e = &S.sum[slot];
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

	if (rc->flags & F_BDAY)
		return rc->bday;
	if (rc->flags & F_NUS) {
		const struct nus *u = NUS(g);
		uint64_t an = u->num < 0 ? (uint64_t)0 - (uint64_t)u->num :
		    (uint64_t)u->num;
		uint64_t up = u->up < 0 ? (uint64_t)-u->up : (uint64_t)u->up;

		if (u->exp == 0)
			b = an;
		else
			b = 1 + (an >> u->exp) + (uint64_t)u->exp;
		if (up > 0 && u->nim == 0)
			c = up + 1;
		else if ((up & 1) && u->nim != 1)
			c = up + (u->nim ^ 1);
		else
			c = up + u->nim;
		if (b + c < b)
			overflow();
		b += c;
	} else {
		deeper();
		for (s = 0; s < 2; s++) {
			o = cg_canon_options(g, (enum cg_side)s, &n);
			for (i = 0; i < n; i++) {
				c = cg_canon_birthday(o[i]) + 1;
				if (c == 0)
					overflow();
				if (c > b)
					b = c;
			}
		}
		SHALLOWER();
	}
	rc = REC(g);
	rc->bday = b;
	rc->flags |= F_BDAY;
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

static struct cg_dyadic stop(cg_game g, int side);

/* Memoised in slot 0/1 as a boxed dyadic. */
static struct cg_dyadic
stop(cg_game g, int side)
{
	struct cg_dyadic best, v, *box;
	const cg_game *o;
	size_t n, i;
	void **slot;

	if (cg_canon_is_nus(g))
		return nus_x(g);
	slot = cg_canon_slot(g, side);
	if (*slot != NULL)
		return *(struct cg_dyadic *)*slot;
	deeper();
	o = cg_canon_options(g, (enum cg_side)side, &n);
	best = cg_dyadic_make(0, 0);
	for (i = 0; i < n; i++) {
		v = stop(o[i], !side);
		if (i == 0 || (side == 0 ? cg_dyadic_cmp(v, best) > 0 :
		    cg_dyadic_cmp(v, best) < 0))
			best = v;
	}
	SHALLOWER();
	box = cg_xmalloc(sizeof *box);
	*box = best;
	*cg_canon_slot(g, side) = box;
	return best;
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

/* ------------------------------------------------------------ uptimals */

cg_game
cg_canon_up_powto(int n)
{
	cg_game l, r;

	if (!S.ready)
		canon_init();
	if (n <= 0)
		return S.zero;
	while (S.npowto <= n) {
		if (S.npowto == 0) {
			S.powto = cg_xreallocarray(S.powto, 1, sizeof *S.powto);
			S.powto[0] = S.zero;
			S.npowto = 1;
			continue;
		}
		S.powto = cg_xreallocarray(S.powto, S.npowto + 1,
		    sizeof *S.powto);
		l = S.powto[S.npowto - 1];
		r = S.star;
		S.powto[S.npowto] = cg_canon_make(&l, 1, &r, 1);
		S.npowto++;
	}
	return S.powto[n];
}

cg_game
cg_canon_up_pow(int n)
{
	cg_game l, r;

	if (!S.ready)
		canon_init();
	if (n <= 0)
		return S.zero;
	while (S.npow <= n) {
		if (S.npow == 0) {
			S.pow = cg_xreallocarray(S.pow, 1, sizeof *S.pow);
			S.pow[0] = S.zero;
			S.npow = 1;
			continue;
		}
		S.pow = cg_xreallocarray(S.pow, S.npow + 1, sizeof *S.pow);
		/* ^<n> = {0 | * - ^[n-1]} */
		l = S.zero;
		r = cg_canon_sub(S.star, cg_canon_up_powto(S.npow - 1));
		S.pow[S.npow] = cg_canon_make(&l, 1, &r, 1);
		S.npow++;
	}
	return S.pow[n];
}

static cg_game
build_uptimal(struct cg_dyadic x, const int64_t *d, int len, uint64_t nim)
{
	cg_game g = cg_canon_nus(x, len > 0 ? d[0] : 0, nim), p;
	int i;
	int64_t k, c;

	for (i = 1; i < len; i++) {
		if (d[i] == 0)
			continue;
		c = d[i] < 0 ? -d[i] : d[i];
		if (c > 64)
			return CG_NO_GAME;
		p = cg_canon_up_pow(i + 1);
		if (d[i] < 0)
			p = cg_canon_neg(p);
		for (k = 0; k < c; k++)
			g = cg_canon_add(g, p);
	}
	return g;
}

static void
up_grow(cg_game g)
{
	if (g >= S.upcap) {
		size_t nc = S.upcap ? S.upcap : 1024;

		while (nc <= g)
			nc *= 2;
		S.upos = cg_xreallocarray(S.upos, nc, sizeof *S.upos);
		S.ufull = cg_xreallocarray(S.ufull, nc, sizeof *S.ufull);
		memset(S.upos + S.upcap, 0, (nc - S.upcap) * sizeof *S.upos);
		memset(S.ufull + S.upcap, 0, (nc - S.upcap) * sizeof *S.ufull);
		S.upcap = nc;
	}
}

static uint32_t
upx_add(struct cg_dyadic x, uint64_t nim, const int64_t *d, int len)
{
	struct upx *u;

	if (S.nupx == S.capupx) {
		S.capupx = S.capupx ? S.capupx * 2 : 256;
		S.upx = cg_xreallocarray(S.upx, S.capupx, sizeof *S.upx);
	}
	u = &S.upx[S.nupx];
	u->x = x;
	u->nim = nim;
	u->len = len;
	u->d = len ? cg_xreallocarray(NULL, (size_t)len, sizeof *u->d) : NULL;
	if (len)
		memcpy(u->d, d, (size_t)len * sizeof *d);
	return (uint32_t)S.nupx++;
}

static uint32_t uptimal_full(cg_game g);

/* Expansion of g found directly (not through -g): index + 2, or 1. */
static uint32_t
uptimal_pos(cg_game g)
{
	const cg_game *lo, *ro;
	size_t nl, nr, i;
	uint32_t ur, ul, res = 1;
	const struct upx *r;
	int maxlen, K, k;
	int64_t *d;

	up_grow(g);
	if (S.upos[g])
		return S.upos[g];
	if (cg_canon_is_nus(g)) {
		const struct nus *u = NUS(g);
		int64_t dd = u->up;

		res = upx_add(nus_x(g), u->nim, &dd, u->up != 0) + 2;
		S.upos[g] = res;
		return res;
	}
	ro = ROPTS(g, &nr);
	if (nr != 1)
		goto done;
	deeper();
	ur = uptimal_full(ro[0]);
	if (ur < 2) {
		SHALLOWER();
		goto done;
	}
	maxlen = S.upx[ur - 2].len;
	lo = LOPTS(g, &nl);
	for (i = 0; i < nl; i++) {
		ul = uptimal_full(lo[i]);
		if (ul < 2 || cg_dyadic_cmp(S.upx[ul - 2].x,
		    S.upx[ur - 2].x) != 0) {
			SHALLOWER();
			goto done;
		}
		if (S.upx[ul - 2].len > maxlen)
			maxlen = S.upx[ul - 2].len;
	}
	SHALLOWER();
	r = &S.upx[ur - 2];
	K = maxlen + 1;
	d = cg_xcalloc((size_t)K + 1, sizeof *d);
	/* candidate (a) */
	if (r->len > 0 && r->d[r->len - 1] > 0) {
		for (k = 0; k < r->len; k++)
			d[k] = r->d[k] + 1;
		if (build_uptimal(r->x, d, r->len, r->nim ^ 1) == g) {
			res = upx_add(r->x, r->nim ^ 1, d, r->len) + 2;
			free(d);
			goto done;
		}
	}
	r = &S.upx[ur - 2];
	for (k = 0; k < K; k++)
		d[k] = (k < r->len ? r->d[k] : 0) + 1;
	if (build_uptimal(r->x, d, K, r->nim ^ 1) == g)
		res = upx_add(S.upx[ur - 2].x, S.upx[ur - 2].nim ^ 1, d, K) + 2;
	free(d);
done:
	up_grow(g);
	S.upos[g] = res;
	return res;
}

static uint32_t
uptimal_full(cg_game g)
{
	uint32_t res;
	cg_game ng;

	up_grow(g);
	if (S.ufull[g])
		return S.ufull[g];
	res = uptimal_pos(g);
	if (res < 2) {
		ng = cg_canon_neg(g);
		res = uptimal_pos(ng);
		if (res >= 2) {
			const struct upx *u = &S.upx[res - 2];
			int64_t *d = u->len ? cg_xreallocarray(NULL,
			    (size_t)u->len, sizeof *d) : NULL;
			int k;

			for (k = 0; k < u->len; k++)
				d[k] = -u->d[k];
			res = upx_add(cg_dyadic_neg(u->x), u->nim, d,
			    u->len) + 2;
			free(d);
		}
	}
	up_grow(g);
	S.ufull[g] = res;
	return res;
}

int
cg_canon_uptimal(cg_game g, struct cg_uptimal *u)
{
	uint32_t k = uptimal_full(g);

	if (k < 2)
		return 0;
	u->x = S.upx[k - 2].x;
	u->nim = S.upx[k - 2].nim;
	u->len = S.upx[k - 2].len;
	u->d = S.upx[k - 2].d;
	return 1;
}

/* ------------------------------------------------------------ ordering */

static int
category(cg_game g)
{
	struct cg_uptimal u;

	if (cg_canon_is_number(g))
		return 1;
	if (cg_canon_is_nimber(g))
		return 2;
	if (cg_canon_uptimal(g, &u))
		return 3;
	return 4;
}

static int order_cmp(cg_game a, cg_game b);

static int
order_qsort(const void *a, const void *b)
{
	return order_cmp(*(const cg_game *)a, *(const cg_game *)b);
}

static void
sorted_side(cg_game g, int side, struct vec *v)
{
	const cg_game *o;
	size_t n, i;

	o = cg_canon_options(g, (enum cg_side)side, &n);
	for (i = 0; i < n; i++)
		vec_push(v, o[i]);
	qsort(v->v, v->n, sizeof *v->v, order_qsort);
}

/* CGSuite's deterministic ordering of options (research/cgsuite.md 3.3). */
static int
order_cmp(cg_game a, cg_game b)
{
	int ca, cb, c, k, s;
	struct cg_uptimal ua = { { 0, 0 }, 0, 0, NULL }, ub = ua;

	if (a == b)
		return 0;
	ca = category(a);
	cb = category(b);
	if (ca != cb)
		return ca < cb ? -1 : 1;
	switch (ca) {
	case 1:
		return cg_dyadic_cmp(nus_x(a), nus_x(b));
	case 2:
		return NUS(a)->nim < NUS(b)->nim ? -1 : 1;
	case 3:
		cg_canon_uptimal(a, &ua);
		cg_canon_uptimal(b, &ub);
		if ((c = cg_dyadic_cmp(ua.x, ub.x)) != 0)
			return c;
		for (k = 0; k < ua.len && k < ub.len; k++)
			if (ua.d[k] != ub.d[k])
				return ua.d[k] < ub.d[k] ? -1 : 1;
		if (ua.len != ub.len)
			return ua.len < ub.len ? -1 : 1;
		if (ua.nim != ub.nim)
			return ua.nim < ub.nim ? -1 : 1;
		return 0;
	}
	deeper();
	for (s = 0; s < 2; s++) {
		struct vec va, vb;
		size_t i;

		vec_init(&va);
		vec_init(&vb);
		sorted_side(a, s, &va);
		sorted_side(b, s, &vb);
		c = 0;
		for (i = 0; i < va.n && i < vb.n && c == 0; i++)
			c = order_cmp(va.v[i], vb.v[i]);
		if (c == 0 && va.n != vb.n)
			c = va.n < vb.n ? -1 : 1;
		vec_free(&va);
		vec_free(&vb);
		if (c != 0) {
			SHALLOWER();
			return c;
		}
	}
	SHALLOWER();
	return 0;
}

int
cg_canon_order(cg_game a, cg_game b)
{
	return order_cmp(a, b);
}

/* ------------------------------------------------------------ printing */

static void
print_atom(struct cg_buf *out, struct cg_dyadic x, int64_t up, uint64_t nim)
{
	if (x.num != 0 || (up == 0 && nim == 0))
		cg_dyadic_print(x, out);
	if (up == 1)
		cg_buf_addstr(out, "^");
	else if (up == 2)
		cg_buf_addstr(out, "^^");
	else if (up >= 3)
		cg_buf_addf(out, "^%lld", (long long)up);
	else if (up == -1)
		cg_buf_addstr(out, "v");
	else if (up == -2)
		cg_buf_addstr(out, "vv");
	else if (up <= -3)
		cg_buf_addf(out, "v%lld", -(long long)up);
	if (nim == 1)
		cg_buf_addstr(out, "*");
	else if (nim >= 2)
		cg_buf_addf(out, "*%llu", (unsigned long long)nim);
}

static int print_game(cg_game g, int brackets, int parens,
    struct cg_buf *out);

/* Text of an uptimal printable as an atom, or 0. */
static int
print_uptimal_atom(cg_game g, int parens, struct cg_buf *out)
{
	struct cg_uptimal u;
	int k, unit = 1, unitsum = 1, compact;
	int64_t s;

	if (cg_canon_is_nus(g)) {
		const struct nus *n = NUS(g);

		compact = (n->up == 0 && n->nim == 0) ||
		    (n->num == 0 && n->up == 0) ||
		    (n->num == 0 && n->nim == 0);
		if (parens && !compact)
			cg_buf_addc(out, '(');
		print_atom(out, nus_x(g), n->up, n->nim);
		if (parens && !compact)
			cg_buf_addc(out, ')');
		return 1;
	}
	if (!cg_canon_uptimal(g, &u) || u.len < 2)
		return 0;
	s = u.d[u.len - 1];
	if (s != 1 && s != -1)
		return 0;
	for (k = 0; k < u.len - 1; k++)
		if (u.d[k] != 0)
			unit = 0;
	for (k = 0; k < u.len; k++)
		if (u.d[k] != s)
			unitsum = 0;
	if (!unit && !unitsum)
		return 0;
	compact = u.x.num == 0 && u.nim == 0;
	if (parens && !compact)
		cg_buf_addc(out, '(');
	if (u.x.num != 0)
		cg_dyadic_print(u.x, out);
	cg_buf_addf(out, unit ? "%c<%d>" : "%c[%d]", s > 0 ? '^' : 'v',
	    u.len);
	if (u.nim == 1)
		cg_buf_addc(out, '*');
	else if (u.nim > 1)
		cg_buf_addf(out, "*%llu", (unsigned long long)u.nim);
	if (parens && !compact)
		cg_buf_addc(out, ')');
	return 1;
}

static struct cg_dyadic
mean_of(cg_game g)
{
	if (cg_canon_is_nus(g))
		return nus_x(g);
	return cg_thermo_mean(g);
}

static int
print_game(cg_game g, int brackets, int parens, struct cg_buf *out)
{
	const cg_game *lo, *ro, *o2;
	size_t nl, nr, n2, n3, i;
	struct vec side[2];
	int s, slashes = 1, c;

	if (print_uptimal_atom(g, parens, out))
		return 0;
	deeper();
	lo = LOPTS(g, &nl);
	ro = ROPTS(g, &nr);
	/* switch: g = -g */
	if (cg_canon_neg(g) == g) {
		cg_buf_addstr(out, "+-");
		if (nl == 1) {
			print_game(lo[0], 1, 1, out);
		} else {
			vec_init(&side[0]);
			sorted_side(g, 0, &side[0]);
			cg_buf_addc(out, '{');
			for (i = 0; i < side[0].n; i++) {
				if (i)
					cg_buf_addc(out, ',');
				print_game(side[0].v[i], 1, 0, out);
			}
			cg_buf_addc(out, '}');
			vec_free(&side[0]);
		}
		SHALLOWER();
		return 0;
	}
	/* Tiny: {x || x | y}, mean(y) < x */
	if (nl == 1 && nr == 1 && cg_canon_is_number(lo[0]) &&
	    !cg_canon_is_nus(ro[0])) {
		cg_game x = lo[0], h = ro[0];

		o2 = LOPTS(h, &n2);
		ROPTS(h, &n3);
		if (n2 == 1 && n3 == 1 && o2[0] == x) {
			cg_game y = ROPTS(h, &n3)[0];

			if (cg_dyadic_cmp(mean_of(y), nus_x(x)) < 0) {
				if (parens)
					cg_buf_addc(out, '(');
				if (NUS(x)->num != 0)
					cg_dyadic_print(nus_x(x), out);
				cg_buf_addstr(out, "Tiny(");
				print_game(cg_canon_sub(x, y), 1, 0, out);
				cg_buf_addc(out, ')');
				if (parens)
					cg_buf_addc(out, ')');
				SHALLOWER();
				return 0;
			}
		}
	}
	/* Miny: {{z | x} | x}, mean(z) > x */
	if (nl == 1 && nr == 1 && cg_canon_is_number(ro[0]) &&
	    !cg_canon_is_nus(lo[0])) {
		cg_game x = ro[0], h = lo[0];

		LOPTS(h, &n2);
		o2 = ROPTS(h, &n3);
		if (n2 == 1 && n3 == 1 && o2[0] == x) {
			cg_game z = LOPTS(h, &n2)[0];

			if (cg_dyadic_cmp(mean_of(z), nus_x(x)) > 0) {
				if (parens)
					cg_buf_addc(out, '(');
				if (NUS(x)->num != 0)
					cg_dyadic_print(nus_x(x), out);
				cg_buf_addstr(out, "Miny(");
				print_game(cg_canon_sub(z, x), 1, 0, out);
				cg_buf_addc(out, ')');
				if (parens)
					cg_buf_addc(out, ')');
				SHALLOWER();
				return 0;
			}
		}
	}
	/* general {L|R}: print into a scratch buffer to learn the slashes */
	{
		struct cg_buf body;

		cg_buf_init(&body);
		for (s = 0; s < 2; s++) {
			vec_init(&side[s]);
			sorted_side(g, s, &side[s]);
		}
		for (s = 0; s < 2; s++) {
			if (s == 1) {
				/* slashes known after both sides: placeholder */
				cg_buf_addc(&body, '\0');
			}
			for (i = 0; i < side[s].n; i++) {
				if (i)
					cg_buf_addc(&body, ',');
				c = print_game(side[s].v[i], side[s].n >= 2, 0,
				    &body);
				if (c + 1 > slashes)
					slashes = c + 1;
			}
		}
		{
			int braced = brackets || slashes == 4, k;

			if (braced)
				cg_buf_addc(out, '{');
			for (i = 0; i < body.len; i++) {
				if (body.data[i] != '\0') {
					cg_buf_addc(out, body.data[i]);
					continue;
				}
				for (k = 0; k < slashes; k++)
					cg_buf_addc(out, '|');
			}
			if (braced) {
				cg_buf_addc(out, '}');
				slashes = 0;
			}
		}
		cg_buf_free(&body);
		for (s = 0; s < 2; s++)
			vec_free(&side[s]);
	}
	SHALLOWER();
	return slashes;
}

void
cg_canon_print(cg_game g, struct cg_buf *out)
{
	print_game(g, 1, 0, out);
}

/* ------------------------------------------------------------ literals */

static void *
gl_realloc_x(void *p, size_t n)
{
	return realloc(p, n);
}

static const struct gl_alloc gl_libc = { gl_realloc_x, free };

/* Evaluating a parsed literal, bottom-up; the vectors live here so that
 * an error caught by cg_canon_catch can free them. */
struct literal {
	struct gl_tree t;
	cg_game *val;
	struct vec l, r;
};

static void
evaluate(void *arg)
{
	struct literal *lt = arg;
	const struct gl_tree *t = &lt->t;
	struct vec *l = &lt->l, *r = &lt->r;
	uint32_t i, k;

	/* nodes are stored children first: one pass bottom-up */
	for (i = 0; i < t->n; i++) {
		const struct gl_node *nd = &t->node[i];
		cg_game g = CG_NO_GAME, a, *val = lt->val;

		l->n = r->n = 0;
		switch (nd->kind) {
		case GL_ATOM:
			g = cg_canon_nus(cg_dyadic_make(nd->num, nd->exp),
			    nd->up, nd->nim);
			break;
		case GL_BRACE:
			for (k = 0; k < nd->nl; k++)
				vec_push(l, val[t->list[nd->first + k]]);
			for (k = 0; k < nd->nr; k++)
				vec_push(r, val[t->list[nd->first + nd->nl + k]]);
			g = make_vec(l, r);
			break;
		case GL_SUM:
			g = cg_canon_zero();
			for (k = 0; k < nd->nl; k++)
				g = cg_canon_add(g, val[t->list[nd->first + k]]);
			break;
		case GL_NEG:
			g = cg_canon_neg(val[nd->a]);
			break;
		case GL_SWITCH:
			a = cg_canon_neg(val[nd->a]);
			g = cg_canon_make(&val[nd->a], 1, &a, 1);
			break;
		case GL_SWITCHES:
			for (k = 0; k < nd->nl; k++) {
				vec_push(l, val[t->list[nd->first + k]]);
				vec_push(r, cg_canon_neg(val[t->list[nd->first + k]]));
			}
			g = make_vec(l, r);
			break;
		case GL_TINY: {
			/* {0 || 0 | -a} */
			cg_game z = cg_canon_zero(), na = cg_canon_neg(val[nd->a]);
			cg_game in = cg_canon_make(&z, 1, &na, 1);

			g = cg_canon_make(&z, 1, &in, 1);
			break;
		}
		case GL_MINY: {
			cg_game z = cg_canon_zero();
			cg_game in = cg_canon_make(&val[nd->a], 1, &z, 1);

			g = cg_canon_make(&in, 1, &z, 1);
			break;
		}
		case GL_POW:
			if (nd->up > 100000)
				data_error("^<%lld> too large", (long long)nd->up);
			g = cg_canon_up_pow((int)nd->up);
			break;
		case GL_POWTO:
			if (nd->up > 100000)
				data_error("^[%lld] too large", (long long)nd->up);
			g = cg_canon_up_powto((int)nd->up);
			break;
		}
		val[i] = g;
	}
}

int
cg_canon_parse(const char *text, size_t len, cg_game *out, char *msg,
    size_t msgsize, size_t *col)
{
	struct literal lt;
	int rc;

	gl_init(&lt.t, &gl_libc);
	if (gl_parse(&lt.t, text, len) < 0) {
		if (lt.t.nomem)
			cg_die(CG_EXIT_DATA, "out of memory");
		snprintf(msg, msgsize, "%s", lt.t.errmsg);
		*col = lt.t.errcol;
		gl_free(&lt.t);
		return -1;
	}
	lt.val = cg_xreallocarray(NULL, lt.t.n ? lt.t.n : 1, sizeof *lt.val);
	vec_init(&lt.l);
	vec_init(&lt.r);
	/* a value too large for the store is an error in this literal (the
	 * caller names the file and line), not an exit without a place */
	rc = cg_canon_catch(evaluate, &lt, msg, msgsize);
	if (rc == 0)
		*out = lt.val[lt.t.root];
	else
		*col = 1;
	vec_free(&lt.l);
	vec_free(&lt.r);
	free(lt.val);
	gl_free(&lt.t);
	return rc;
}
