/*
 * bits.c - the outcome search over the states of a ruleset's
 * cg.bit-search extension (cgx/bitsearch.h): depth-first, a whole board
 * per node, no position kept anywhere but in one table of fixed-size
 * entries.  This is how special-purpose solvers (Bullock's Obsequi for
 * Domineering) spend well under a microsecond a node where the component
 * engine (dfs.c) spends ten: no graph, no decomposition, no sums
 * table, and a table that replaces its cheapest entries once it is full
 * instead of growing.  The ruleset's move counts settle states, and its
 * order puts the likely winning move first.  Once a position's first
 * option has failed, the ruleset's children() settles what children it
 * can from the position's own counts; a state a thread expanded lately
 * is looked up in the table before the counts are asked; and where the
 * ruleset says subtrees are large (CG_BIT_ETC), every child is looked up
 * in the table before any is searched.
 *
 * The table: buckets of four entries, each the state's words (the least
 * of its images when the ruleset has canonical()) and its result: bit 0
 * used, bit 1 the side to move, bit 2 that side wins, bits 3-8 the
 * expansions the result took (log 2), and above them a check, the top
 * bits of the key's hash.  The result is a word of its own, or, when the
 * ruleset leaves 25 bits or more of a state's last word clear
 * (CG_BIT_SPARE), those bits: a 9x9 Domineering entry is then 16 bytes
 * in place of 24, a bucket one cache line, and the same memory holds half
 * as many entries again.  The table doubles while the budget allows; then
 * a new result takes the place of the bucket's cheapest.
 *
 * With --jobs N, N threads search the same query and share the table
 * (ABDADA, Weill 1996, on a boolean search): the first child of a node is
 * searched by every thread that gets there; a later child that another
 * thread is searching at that moment is left for a second pass, by when
 * its result is usually in the table.  The first thread to answer the
 * query answers it, and every answer is exact, so the result is the same
 * for every N.  Threads read and write entries without locks: words are
 * written whole, and an entry whose words come from two writes fails the
 * check (Hyatt and Mann's lockless hashing).  A table that doubles while
 * other threads may still use the old one keeps the old one until the
 * query ends.
 *
 * With a checkpoint (cg-outcome --checkpoint), every result that took
 * 2^CKPT_LG expansions or more is appended to it (values/ckpt.h: records
 * with chained CRCs, durable at each flush), once a minute and when the
 * query ends or is stopped; a later run puts them back in its table
 * before it starts, so a search of hours stopped by a signal, a crash or
 * kill -9 loses at most the last minute.  A bound on its bytes (
 * --checkpoint-size) is kept by writing it afresh, when an append would
 * pass it, with the costliest distinct results that fill half of it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"
#include "values/ckpt.h"
#include "cgx/bitsearch.h"
#include "solve/engine.h"
#include "solve/settle.h"
#include "solve/solver_int.h"

#define BUCKET 4
#define MIN_BUCKETS ((size_t)1 << 12)
#define SPLIT 10                /* depths where threads share out children */
#define INFO_BITS 9              /* used, side, wins, log 2 of the work */
#define MIN_CHECK 16             /* check bits a packed entry needs */
#define CKPT_LG 10               /* results of 2^10 expansions and more */
#define CKPT_STOP_LG 3           /* and, when stopped, of 2^3 and more */
#define CKPT_SECONDS 60          /* between flushes */

struct table {
	uint64_t *e;             /* nb buckets of BUCKET entries of ew words */
	void *mem;               /* e's allocation, e a cache line into it */
	size_t nb;
	struct table *older;     /* retired, freed when the query ends */
};

struct bthread;

struct bits {
	struct cg_solver *s;
	struct cg_plugin *rs;
	const struct cg_bit_search *x;
	struct cg_bit_shape sh;
	size_t w, ew;            /* words of a state, of an entry */
	size_t sw;               /* of a slot of the verdict cache */
	int packed;              /* the result in the last word's top bits */
	unsigned kbits;          /* the key's bits in that word (packed) */
	uint64_t kmask;          /* and their mask */
	unsigned cbits;          /* the check's bits */
	size_t maxdepth;
	int sym;                 /* key the table by x->canonical */
	int settle_hook;         /* x->settle in place of bounds + settle */
	int swap_hook;           /* key the table by x->swap's image too */
	int children_hook;       /* x->children once the first option fails */
	int key_hook;            /* x->key in place of the three calls */
	unsigned etc_bits;       /* etc() at states of this many set bits */
	unsigned jobs;
	struct table *_Atomic tab;
	size_t limit;            /* most buckets the budget allows */
	/* entries taken (about: each thread adds its own by USED_BATCH),
	 * on a cache line of its own, which the other fields, read by
	 * every thread at every position, do not share */
	_Alignas(64) atomic_size_t used;
	_Alignas(64) char after_used;
	pthread_mutex_t grow;
	atomic_int done;         /* a thread has answered the query */
	int answer;
	int side;                /* the query: does side to move win root? */
	uint64_t root[CG_BIT_WORDS];
	struct cg_solver_stats base;   /* the solver's counts before */
	struct bthread *t[CG_MAX_JOBS];
	struct bits_store *store;      /* the checkpoint, or NULL */
	pthread_mutex_t ckmu;          /* its queue */
	double flushed;                /* when it was last flushed */
};

/* The checkpoint's results: each a key (the shape's dims as five 32-bit
 * words and the table key's words, in this machine's byte order, then
 * the side to move), whether that side wins and the log 2 of the
 * expansions the result took (a record "W" or "L" of an older file:
 * CKPT_LG).  recs holds what the file holds, every shape's. */
struct bits_store {
	struct cg_ckpt *ck;
	struct cg_buf recs;      /* per result: key length, key, lg, wins */
	size_t n;
	uint64_t bound;          /* bytes the file may hold, 0: any */
};

/* One thread's search. */
struct bthread {
	struct bits *b;
	unsigned id;
	struct cg_context *cx;
	uint64_t *state;         /* per depth: the state */
	uint64_t *masks;         /* per depth: its options */
	uint32_t *at, *nopt;     /* per depth: the option tried, how many */
	unsigned char *later;    /* depths < SPLIT: children left for later */
	signed char *kids;       /* per depth: x->children's verdicts */
	size_t depth;
	atomic_uint_fast64_t expanded, solved;
	/* depths < SPLIT: the child being searched (w words, then 1 when
	 * set), for the other threads to leave alone */
	_Atomic uint64_t busy[SPLIT][CG_BIT_WORDS + 1];
	/* the counts' last verdicts: SETTLED slots of sw words, the state
	 * and a word of side + 1 and the verdict + 1 (0: empty) */
	uint64_t *settled;
	uint64_t *seen;          /* SEEN hashes of states lately expanded */
	uint64_t taken;          /* table entries taken, for b->used */
	uint64_t *etc_keys, *etc_hash;   /* etc()'s, per option */
	unsigned char *etc_side;
};

/* Slots of a thread's cache of the counts' verdicts, direct-mapped: the
 * table never stores a settled state, yet the search meets many of them
 * again by transposition (on 8x8, two in five).  Few enough to stay in a
 * core's 1 MB second-level cache (384 KB for a 9x9 state): a larger
 * cache misses there and runs slower, a smaller one keeps too few. */
#define SETTLED (1u << 14)

/* Slots of a thread's hashes (of the state and side) of the states it
 * expanded lately, direct-mapped: a state met again is looked up in the
 * table before the counts are asked, which for a state the table holds
 * are asked in vain (every state the table holds was expanded, so the
 * counts settled none of them).  Most answers from the table come so on
 * deep 9x9 positions; more slots than this gain nothing. */
#define SEEN (1u << 15)

static uint64_t
hash_state(const uint64_t *st, size_t w, int side)
{
	uint64_t h = 0x9e3779b97f4a7c15u * (uint64_t)(side + 1);
	size_t i;

	for (i = 0; i < w; i++) {
		h ^= st[i];
		h *= 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	return h;
}

static uint64_t
load(_Atomic uint64_t *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static void
store(_Atomic uint64_t *p, uint64_t v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

static _Atomic uint64_t *
bucket_of(const struct bits *b, const struct table *t, uint64_t h)
{
	return (_Atomic uint64_t *)t->e + (h & (t->nb - 1)) * BUCKET * b->ew;
}

static struct table *
table_now(struct bits *b)
{
	return atomic_load_explicit(&b->tab, memory_order_acquire);
}

/* An entry's result (info), and word j of its key. */
static uint64_t
ent_info(const struct bits *b, _Atomic uint64_t *e)
{
	return b->packed ? load(&e[b->w - 1]) >> b->kbits : load(&e[b->w]);
}

static uint64_t
ent_word(const struct bits *b, _Atomic uint64_t *e, size_t j)
{
	uint64_t v = load(&e[j]);

	return b->packed && j == b->w - 1 ? v & b->kmask : v;
}

static void
ent_write(const struct bits *b, _Atomic uint64_t *e, const uint64_t *key,
    uint64_t info)
{
	size_t j;

	for (j = 0; j + 1 < b->w; j++)
		store(&e[j], key[j]);
	if (b->packed) {
		store(&e[j], key[j] | info << b->kbits);
		return;
	}
	store(&e[j], key[j]);
	store(&e[b->w], info);
}

/* The check an entry of hash h carries, in the result's place. */
static uint64_t
check_of(const struct bits *b, uint64_t h)
{
	return h >> (64 - b->cbits) << INFO_BITS;
}

static int
check_ok(const struct bits *b, uint64_t info, uint64_t h)
{
	return info >> INFO_BITS == h >> (64 - b->cbits);
}

/* 1 side to move wins, 0 it loses, -1 unknown. */
static int
tab_get(struct bits *b, const uint64_t *key, int side, uint64_t h)
{
	_Atomic uint64_t *e = bucket_of(b, table_now(b), h);
	uint64_t info;
	size_t i, j;

	for (i = 0; i < BUCKET; i++, e += b->ew) {
		info = ent_info(b, e);
		if (!(info & 1) || (int)(info >> 1 & 1) != side ||
		    !check_ok(b, info, h))
			continue;
		for (j = 0; j < b->w && ent_word(b, e, j) == key[j]; j++)
			;
		if (j == b->w)
			return (int)(info >> 2 & 1);
	}
	return -1;
}

/* Put an entry into table t; returns 1 when it took an empty place, 0
 * when it took the place of another. */
static int
tab_place(struct bits *b, struct table *t, const uint64_t *key, uint64_t h,
    uint64_t info)
{
	_Atomic uint64_t *e = bucket_of(b, t, h), *victim = e;
	size_t i;
	int fresh;

	for (i = 0; i < BUCKET; i++, e += b->ew) {
		if (!(ent_info(b, e) & 1)) {
			victim = e;
			break;
		}
		if ((ent_info(b, e) >> 3 & 63) < (ent_info(b, victim) >> 3 & 63))
			victim = e;
	}
	fresh = !(ent_info(b, victim) & 1);
	ent_write(b, victim, key, info);
	return fresh;
}

/* A table of nb empty buckets, from a cache line's start: the allocator
 * puts a large block 16 bytes into its pages, and a bucket of one line
 * (9x9 Domineering's: four entries of 16 bytes) would then lie across
 * two, two misses a probe where one will do. */
static struct table *
tab_new(const struct bits *b, size_t nb)
{
	struct table *t = cg_xcalloc(1, sizeof *t);
	size_t bytes = nb * BUCKET * b->ew * sizeof *t->e;

	t->nb = nb;
	t->mem = cg_xcalloc(1, bytes + 64);
	t->e = (uint64_t *)(((uintptr_t)t->mem + 63) & ~(uintptr_t)63);
	return t;
}

/* Double the table: the entries of the old one that pass the check go
 * to the new; results other threads write to the old one meanwhile are
 * lost, which costs work only. */
static void
tab_grow(struct bits *b, struct table *old)
{
	struct table *t;
	_Atomic uint64_t *e;
	uint64_t key[CG_BIT_WORDS], info, h;
	size_t i, j;

	if (pthread_mutex_trylock(&b->grow) != 0)
		return;
	if (table_now(b) != old) {
		pthread_mutex_unlock(&b->grow);
		return;
	}
	/* the new table is filled at once: one that would pass the memory
	 * limit is not made, and the table stays as it is from then on */
	if (!cg_watch_fits(old->nb * 2 * BUCKET * b->ew * sizeof *old->e)) {
		__atomic_store_n(&b->limit, old->nb, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&b->grow);
		return;
	}
	t = tab_new(b, old->nb * 2);
	e = (_Atomic uint64_t *)old->e;
	for (i = 0; i < old->nb * BUCKET; i++, e += b->ew) {
		info = ent_info(b, e);
		if (!(info & 1))
			continue;
		for (j = 0; j < b->w; j++)
			key[j] = ent_word(b, e, j);
		h = hash_state(key, b->w, (int)(info >> 1 & 1));
		if (check_ok(b, info, h))
			(void)tab_place(b, t, key, h, info);
	}
	if (b->jobs == 1) {
		/* nobody else can be reading it */
		t->older = old->older;
		free(old->mem);
		free(old);
	} else {
		t->older = old;
	}
	atomic_store_explicit(&b->tab, t, memory_order_release);
	pthread_mutex_unlock(&b->grow);
}

/* A thread adds the entries it takes to the table's count in batches
 * of USED_BATCH: a locked add on a line both threads touch at every
 * new entry would cost both cores its misses. */
#define USED_BATCH 64
#define PROGRESS_EVERY 1024

/* Put a result into the table; *mine (a thread's own count of the
 * entries it took, or NULL) batches the count of entries taken. */
static void
tab_put(struct bits *b, const uint64_t *key, int side, int win, uint64_t h,
    uint64_t work, uint64_t *mine)
{
	struct table *t = table_now(b);
	int lg = 0, fresh;

	while (work > 1 && lg < 63) {
		work >>= 1;
		lg++;
	}
	fresh = tab_place(b, t, key, h, check_of(b, h) | (uint64_t)lg << 3 |
	    (uint64_t)win << 2 | (uint64_t)side << 1 | 1);
	/* a full bucket past half load: double while the budget allows */
	if (fresh) {
		if (mine == NULL)
			atomic_fetch_add_explicit(&b->used, 1,
			    memory_order_relaxed);
		else if (++*mine % USED_BATCH == 0)
			atomic_fetch_add_explicit(&b->used, USED_BATCH,
			    memory_order_relaxed);
	} else if (atomic_load_explicit(&b->used, memory_order_relaxed) >
	    t->nb * BUCKET / 2 &&
	    t->nb < __atomic_load_n(&b->limit, __ATOMIC_RELAXED))
		tab_grow(b, t);
}

/* The move counts' verdict on the state, side x to move (the bounds
 * of one component in counts_verdict's terms). */
static int
settle(const struct cg_move_bounds *mb, int x)
{
	uint64_t sure[2], most[2], room[2], lead[2], rlead[2];
	int j;

	for (j = 0; j < 2; j++) {
		sure[j] = mb->sure[j];
		most[j] = mb->most[j];
		room[j] = mb->flags & CG_BOUNDS_ROOM ? mb->room[j] :
		    UINT64_MAX;
		lead[j] = (mb->flags & CG_BOUNDS_FIRST) && mb->first[j] >
		    mb->sure[j] ? mb->first[j] - mb->sure[j] : 0;
		rlead[j] = cg_bounds_room_lead(mb, j);
	}
	return counts_verdict(sure, most, room, lead, rlead, x);
}

/* Which of two keys of w words comes first (compared from the last
 * word, as canonical images are)? */
static int
key_less(const uint64_t *a, const uint64_t *c, size_t w)
{
	while (w-- > 0)
		if (a[w] != c[w])
			return a[w] < c[w];
	return 0;
}

/* The table's key of st with side to move, into key; returns the side
 * to move the key stands for: the ruleset's key(), or else the canonical
 * image of st, or of swap's image of it with the other side to move,
 * whichever comes first. */
static int
table_key(struct bthread *t, const uint64_t *st, int side, uint64_t *key)
{
	struct bits *b = t->b;
	uint64_t img[CG_BIT_WORDS], other[CG_BIT_WORDS];

	if (b->key_hook)
		return side ^ (b->x->key(t->cx, &b->sh, st, key) != 0);
	if (b->sym)
		b->x->canonical(t->cx, &b->sh, st, key);
	else
		memcpy(key, st, b->w * sizeof *st);
	if (!b->swap_hook || !b->x->swap(t->cx, &b->sh, st, img))
		return side;
	if (b->sym)
		b->x->canonical(t->cx, &b->sh, img, other);
	else
		memcpy(other, img, b->w * sizeof *img);
	if (!key_less(other, key, b->w))
		return side;
	memcpy(key, other, b->w * sizeof *other);
	return !side;
}

/* Is another thread searching st at depth d just now? */
static int
busy_elsewhere(const struct bthread *me, size_t d, const uint64_t *st)
{
	const struct bits *b = me->b;
	unsigned i;
	size_t j;

	for (i = 0; i < b->jobs; i++) {
		struct bthread *o = b->t[i];

		if (o == NULL || o == me || !load(&o->busy[d][b->w]))
			continue;
		for (j = 0; j < b->w && load(&o->busy[d][j]) == st[j]; j++)
			;
		if (j == b->w)
			return 1;
	}
	return 0;
}

static void
set_busy(struct bthread *me, size_t d, const uint64_t *st)
{
	size_t j, w = me->b->w;

	store(&me->busy[d][w], 0);
	if (st == NULL)
		return;
	for (j = 0; j < w; j++)
		store(&me->busy[d][j], st[j]);
	store(&me->busy[d][w], 1);
}

static int
stopped(struct bthread *t)
{
	return STOPPED(t->b->s) ||
	    atomic_load_explicit(&t->b->done, memory_order_relaxed);
}

/* Thread 0 keeps the solver's counts (for its reports) for all. */
static void
progress(struct bthread *t, size_t d)
{
	struct bits *b = t->b;
	struct cg_solver *s = b->s;
	uint64_t sum = b->base.expanded, solved = b->base.solved;
	unsigned i;

	for (i = 0; i < b->jobs; i++) {
		sum += atomic_load_explicit(&b->t[i]->expanded,
		    memory_order_relaxed);
		solved += atomic_load_explicit(&b->t[i]->solved,
		    memory_order_relaxed);
	}
	s->stats.expanded = sum;
	s->stats.solved = solved;
	if (sum < s->next_progress)
		return;
	t->depth = d;
	s->next_progress = sum + s->every;
	s->progress(s, s->progress_arg);
}

/* ------------------------------------------------------------ checkpoint */

/* A result's text: "W" or "L" (the side to move wins or loses) and the
 * log 2 of its expansions, or without it (CKPT_LG).  The log in *lg;
 * -1 when the text is none of these. */
static int
parse_result(const char *text, unsigned *lg)
{
	size_t n = strlen(text);

	if (n < 1 || n > 3 || (text[0] != 'W' && text[0] != 'L'))
		return -1;
	if (n == 1) {
		*lg = CKPT_LG;
		return 0;
	}
	if (text[1] < '0' || text[1] > '9' || (n == 3 && (text[2] < '0' ||
	    text[2] > '9')))
		return -1;
	*lg = (unsigned)atoi(text + 1);
	return *lg > 63 ? -1 : 0;
}

static int
store_value(void *ctx, const unsigned char *key, size_t len, uint32_t kind,
    cg_game g, const char *text, char *err, size_t errlen)
{
	struct bits_store *st = ctx;
	size_t words = len > 21 ? (len - 21) / 8 : 0;
	unsigned lg;

	(void)g;
	if (kind != 0 || text == NULL || parse_result(text, &lg) < 0 ||
	    len <= 21 || (len - 21) % 8 != 0 || words > CG_BIT_WORDS ||
	    key[len - 1] > 1) {
		snprintf(err, errlen, "checkpoint record does not fit a bit "
		    "search (remove the file to start afresh)");
		return 1;
	}
	cg_buf_addc(&st->recs, (char)len);
	cg_buf_add(&st->recs, key, len);
	cg_buf_addc(&st->recs, (char)lg);
	cg_buf_addc(&st->recs, text[0] == 'W');
	st->n++;
	return 0;
}

/* The solver's checkpoint, opened (and its results read) on first use. */
static struct bits_store *
store_get(struct cg_solver *s)
{
	struct bits_store *st;
	struct cg_buf h;
	char err[1024];
	size_t loaded;

	if (s->bits_store != NULL || s->bits_ckpt == NULL)
		return s->bits_store;
	st = cg_xcalloc(1, sizeof *st);
	cg_buf_init(&st->recs);
	cg_buf_init(&h);
	cg_buf_addf(&h, "cg-outcome bits 1\t%s\t%s", s->rs->spec,
	    s->rs->rs->version ? s->rs->rs->version : "");
	st->ck = cg_ckpt_open(s->bits_ckpt, cg_buf_str(&h), store_value, st,
	    &loaded, err, sizeof err);
	cg_buf_free(&h);
	if (st->ck == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	st->bound = s->bits_ckpt_size;
	s->bits_store = st;
	return st;
}

static void
bits_store_free(struct cg_solver *s)
{
	struct bits_store *st = s->bits_store;

	if (st == NULL)
		return;
	cg_ckpt_close(st->ck, 0);
	cg_buf_free(&st->recs);
	free(st);
	s->bits_store = NULL;
}

static size_t
store_key(const struct bits *b, const uint64_t *key, int side,
    unsigned char *out)
{
	memcpy(out, b->sh.dims, 20);
	memcpy(out + 20, key, b->w * 8);
	out[20 + b->w * 8] = (unsigned char)side;
	return 21 + b->w * 8;
}

/* Put the checkpoint's results for this shape into the table, as costly
 * as any (so they are never replaced); how many. */
static size_t
store_load(struct bits *b)
{
	struct bits_store *st = b->store;
	uint64_t key[CG_BIT_WORDS];
	size_t i, n = 0, len = 21 + b->w * 8;
	const unsigned char *p;
	int side;

	for (i = 0, p = st->recs.data; i < st->n; i++, p += p[0] + 3) {
		if (p[0] != len || memcmp(p + 1, b->sh.dims, 20) != 0)
			continue;
		memcpy(key, p + 21, b->w * 8);
		side = p[len];
		tab_put(b, key, side, p[len + 2], hash_state(key, b->w, side),
		    UINT64_MAX, NULL);
		n++;
	}
	return n;
}

static void
store_flush(struct bits *b)
{
	char err[1024];

	b->flushed = cg_elapsed();
	if (cg_ckpt_flush(b->store->ck, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
}

/* The most bytes a result's record takes in the file (ckpt.h: type,
 * length, kind, key length, key, tag, text length, text, CRC). */
static size_t
rec_bytes(size_t klen)
{
	return 5 + 1 + 1 + klen + 1 + 1 + 3 + 4;
}

static int
cmp_key_lg(const void *a, const void *b)
{
	const unsigned char *p = *(const unsigned char *const *)a,
	    *q = *(const unsigned char *const *)b;
	int c = p[0] != q[0] ? (p[0] < q[0] ? -1 : 1) :
	    memcmp(p + 1, q + 1, p[0]);

	if (c != 0)
		return c;
	return p[1 + p[0]] > q[1 + q[0]] ? -1 : p[1 + p[0]] < q[1 + q[0]];
}

static int
cmp_lg(const void *a, const void *b)
{
	const unsigned char *p = *(const unsigned char *const *)a,
	    *q = *(const unsigned char *const *)b;

	return p[1 + p[0]] > q[1 + q[0]] ? -1 : p[1 + p[0]] < q[1 + q[0]];
}

/* Write the checkpoint afresh with the costliest distinct results, as
 * many as fill half its bound: it stays one valid file throughout (see
 * cg_ckpt_restart), and the appends that follow have the other half. */
static void
store_compact(struct bits *b)
{
	struct bits_store *st = b->store;
	const unsigned char **v, *p;
	struct cg_buf keep;
	size_t i, m = 0, n = 0;
	uint64_t bytes;

	v = cg_xreallocarray(NULL, st->n ? st->n : 1, sizeof *v);
	for (i = 0, p = st->recs.data; i < st->n; i++, p += p[0] + 3)
		v[i] = p;
	/* one record per result, the costliest of its notes */
	qsort(v, st->n, sizeof *v, cmp_key_lg);
	for (i = 0; i < st->n; i++)
		if (m == 0 || memcmp(v[i], v[m - 1], (size_t)v[i][0] + 1) != 0)
			v[m++] = v[i];
	qsort(v, m, sizeof *v, cmp_lg);
	cg_ckpt_restart(st->ck);
	bytes = cg_ckpt_size(st->ck);
	cg_buf_init(&keep);
	for (i = 0; i < m; i++) {
		char text[8];

		p = v[i];
		if (bytes + rec_bytes(p[0]) > st->bound / 2)
			break;
		bytes += rec_bytes(p[0]);
		snprintf(text, sizeof text, "%c%u", p[2 + p[0]] ? 'W' : 'L',
		    (unsigned)p[1 + p[0]]);
		cg_ckpt_text(st->ck, p + 1, p[0], 0, text);
		cg_buf_add(&keep, p, (size_t)p[0] + 3);
		n++;
	}
	free(v);
	cg_buf_free(&st->recs);
	st->recs = keep;
	st->n = n;
	store_flush(b);
}

/* Note a result in the checkpoint (queued for the next flush) and, when
 * it is bounded, in what it holds; past the bound, write it afresh and
 * return 1. */
static int
store_add(struct bits *b, const uint64_t *key, int side, int win,
    unsigned lg)
{
	struct bits_store *st = b->store;
	unsigned char k[21 + 8 * CG_BIT_WORDS];
	size_t len = store_key(b, key, side, k);
	char text[8];

	snprintf(text, sizeof text, "%c%u", win ? 'W' : 'L', lg);
	cg_ckpt_text(st->ck, k, len, 0, text);
	if (st->bound == 0)
		return 0;
	cg_buf_addc(&st->recs, (char)len);
	cg_buf_add(&st->recs, k, len);
	cg_buf_addc(&st->recs, (char)lg);
	cg_buf_addc(&st->recs, (char)win);
	st->n++;
	if (cg_ckpt_size(st->ck) <= st->bound)
		return 0;
	store_compact(b);
	return 1;
}

/* A stopped search leaves in its checkpoint, besides the costly results
 * noted as they came, every result in its table that took 2^CKPT_STOP_LG
 * expansions or more: a resumed search meets most of its positions again,
 * and without the results of middling cost it searches most of them anew
 * (bench/domineering-checkpoint measures what a stop costs).  Every
 * result would save more, but makes the file large and slow to load.
 * They go costliest first, until one passes the checkpoint's bound: what
 * would follow is cheaper than what the file written afresh then keeps. */
static void
store_dump(struct bits *b)
{
	struct table *t = table_now(b);
	_Atomic uint64_t *e;
	uint64_t info, key[CG_BIT_WORDS];
	size_t i, j;
	unsigned lg;

	for (lg = CKPT_LG - 1; lg >= CKPT_STOP_LG; lg--) {
		e = (_Atomic uint64_t *)t->e;
		for (i = 0; i < t->nb * BUCKET; i++, e += b->ew) {
			info = ent_info(b, e);
			if (!(info & 1) || (info >> 3 & 63) != lg)
				continue;
			for (j = 0; j < b->w; j++)
				key[j] = ent_word(b, e, j);
			if (!check_ok(b, info, hash_state(key, b->w,
			    (int)(info >> 1 & 1))))
				continue;
			if (store_add(b, key, (int)(info >> 1 & 1),
			    (int)(info >> 2 & 1), lg))
				return;
		}
	}
}

/* A costly result goes to the checkpoint; thread 0 flushes it once a
 * minute. */
static void
store_note(struct bthread *t, const uint64_t *key, int side, int win,
    uint64_t work)
{
	struct bits *b = t->b;
	unsigned lg = 0;

	while (work > 1 && lg < 63) {
		work >>= 1;
		lg++;
	}
	pthread_mutex_lock(&b->ckmu);
	(void)store_add(b, key, side, win, lg);
	if (t->id == 0 && cg_elapsed() - b->flushed >= CKPT_SECONDS)
		store_flush(b);
	pthread_mutex_unlock(&b->ckmu);
}

static unsigned
set_bits(const uint64_t *st, size_t w)
{
	unsigned n = 0;

	while (w-- > 0)
		n += (unsigned)__builtin_popcountll(st[w]);
	return n;
}

/* Enhanced transposition cutoff: does a child of the position at depth
 * d (its n options made) stand in the table as the opponent's loss?
 * The children's buckets are fetched all at once, then read.  Asked
 * where the ruleset says the subtrees are large enough to repay a table
 * probe for every child (CG_BIT_ETC). */
static int
etc(struct bthread *t, size_t d, int side, int n)
{
	struct bits *b = t->b;
	const uint64_t *st = t->state + d * b->w,
	    *m = t->masks + d * b->sh.max_options * b->w;
	uint64_t *keys = t->etc_keys, child[CG_BIT_WORDS], *h = t->etc_hash;
	struct table *tab = table_now(b);
	unsigned char *ks = t->etc_side;
	int i;
	size_t j;

	for (i = 0; i < n; i++, m += b->w) {
		for (j = 0; j < b->w; j++)
			child[j] = st[j] ^ m[j];
		ks[i] = (unsigned char)table_key(t, child, !side,
		    keys + (size_t)i * b->w);
		h[i] = hash_state(keys + (size_t)i * b->w, b->w, ks[i]);
		__builtin_prefetch((const void *)bucket_of(b, tab, h[i]));
	}
	for (i = 0; i < n; i++)
		if (tab_get(b, keys + (size_t)i * b->w, ks[i], h[i]) == 0)
			return 1;
	return 0;
}

/* Add one to a thread's own count, which other threads only read: a
 * plain load and store, not a locked add, as no one else writes it. */
static uint64_t
count_one(atomic_uint_fast64_t *c)
{
	uint64_t v = atomic_load_explicit(c, memory_order_relaxed);

	atomic_store_explicit(c, v + 1, memory_order_relaxed);
	return v;
}

/* Does the side to move at depth d win?  -1 when stopped. */
static int
wins(struct bthread *t, size_t d, int side)
{
	struct bits *b = t->b;
	uint64_t *st = t->state + d * b->w, *child = st + b->w, *m, *m0,
	    start, work, key[CG_BIT_WORDS], h, hr, *sc;
	struct cg_move_bounds mb;
	int r, n, i, pass, win = 0, split, kside = 0, probed = 0;
	unsigned char *later;
	signed char *kv = NULL;
	size_t j;

	/* a state this thread expanded lately: the table first (SEEN) */
	hr = h = hash_state(st, b->w, side);
	if (t->seen[hr % SEEN] == hr) {
		kside = table_key(t, st, side, key);
		h = hash_state(key, b->w, kside);
		if ((r = tab_get(b, key, kside, h)) >= 0)
			return r;
		probed = 1;
	}
	/* else the counts first: most states they settle are never stored,
	 * so a small cache keeps the last verdicts */
	sc = t->settled + (hr >> 48) % SETTLED * b->sw;
	for (j = 0; j < b->w && sc[j] == st[j]; j++)
		;
	if (sc[b->w] >> 8 == (uint64_t)side + 1 && j == b->w) {
		r = (int)(sc[b->w] & 0xff) - 1;
	} else {
		if (b->settle_hook)
			r = b->x->settle(t->cx, &b->sh, st,
			    (enum cg_side)side);
		else {
			memset(&mb, 0, sizeof mb);
			b->x->bounds(t->cx, &b->sh, st, &mb);
			r = settle(&mb, side);
		}
		for (j = 0; j < b->w; j++)
			sc[j] = st[j];
		sc[b->w] = ((uint64_t)side + 1) << 8 | (uint64_t)(r + 1);
	}
	if (r >= 0)
		return r;
	if (!probed) {
		kside = table_key(t, st, side, key);
		h = hash_state(key, b->w, kside);
		if ((r = tab_get(b, key, kside, h)) >= 0)
			return r;
	}
	if (stopped(t))
		return -1;
	if (d + 1 >= b->maxdepth)
		cg_die(1, "bit search: deeper than the board allows");
	m0 = t->masks + d * b->sh.max_options * b->w;
	n = b->x->options(t->cx, &b->sh, st, side, m0);
	if (n < 0 || (uint32_t)n > b->sh.max_options)
		cg_die(1, "ruleset '%s': bit-search options failed",
		    b->rs->name);
	start = count_one(&t->expanded);
	t->at[d] = 0;
	t->nopt[d] = (uint32_t)n;
	/* the others' counts read every PROGRESS_EVERY positions only: they
	 * write them at every position */
	if (t->id == 0 && start % PROGRESS_EVERY == 0 &&
	    b->s->progress != NULL)
		progress(t, d);
	split = b->jobs > 1 && d + 1 < SPLIT;
	later = split ? t->later + d * b->sh.max_options : NULL;
	if (b->etc_bits > 0 && set_bits(st, b->w) >= b->etc_bits)
		win = etc(t, d, side, n);
	for (pass = 0; pass < 1 + split && !win; pass++)
		for (i = 0, m = m0; i < n && !win; i++, m += b->w) {
			if (pass == 1 && !later[i])
				continue;
			/* the first option failed: most such positions are
			 * lost, and the ruleset may settle many children at
			 * once from this position's counts */
			if (i > 0 && kv == NULL && b->children_hook) {
				kv = t->kids + d * b->sh.max_options;
				b->x->children(t->cx, &b->sh, st,
				    (enum cg_side)side, m0, (uint32_t)n, kv);
			}
			if (kv != NULL && kv[i] >= 0) {
				if (split && pass == 0)
					later[i] = 0;
				win = !kv[i];
				continue;
			}
			for (j = 0; j < b->w; j++)
				child[j] = st[j] ^ m[j];
			if (split && pass == 0) {
				later[i] = i > 0 &&
				    busy_elsewhere(t, d + 1, child);
				if (later[i])
					continue;
			}
			t->at[d] = (uint32_t)i;
			if (split)
				set_busy(t, d + 1, child);
			r = wins(t, d + 1, !side);
			if (split)
				set_busy(t, d + 1, NULL);
			if (r < 0)
				return -1;
			win = !r;
		}
	(void)count_one(&t->solved);
	work = atomic_load_explicit(&t->expanded, memory_order_relaxed) -
	    start;
	tab_put(b, key, kside, win, h, work, &t->taken);
	t->seen[hr % SEEN] = hr;
	if (b->store != NULL && work >= (uint64_t)1 << CKPT_LG)
		store_note(t, key, kside, win, work);
	return win;
}

static void
run_thread(void *ctx, size_t i)
{
	struct bits *b = ctx;
	struct bthread *t = b->t[i];
	int r, expect = 0;

	t->cx = cg_rs_context(b->rs);
	memcpy(t->state, b->root, b->w * sizeof *b->root);
	r = wins(t, 0, b->side);
	if (r >= 0 && atomic_compare_exchange_strong(&b->done, &expect, 1))
		b->answer = r;
}

static struct bthread *
thread_new(struct bits *b, unsigned id)
{
	struct bthread *t = cg_xcalloc(1, sizeof *t);

	t->b = b;
	t->id = id;
	t->state = cg_xcalloc(b->maxdepth, b->w * sizeof *t->state);
	t->masks = cg_xcalloc(b->maxdepth, (size_t)b->sh.max_options * b->w *
	    sizeof *t->masks);
	t->at = cg_xcalloc(b->maxdepth, sizeof *t->at);
	t->nopt = cg_xcalloc(b->maxdepth, sizeof *t->nopt);
	t->later = cg_xcalloc(SPLIT, b->sh.max_options);
	t->kids = cg_xcalloc(b->maxdepth, b->sh.max_options);
	t->settled = cg_xcalloc(SETTLED, b->sw * sizeof *t->settled);
	t->seen = cg_xcalloc(SEEN, sizeof *t->seen);
	t->etc_keys = cg_xcalloc(b->sh.max_options, b->w * sizeof *t->etc_keys);
	t->etc_hash = cg_xcalloc(b->sh.max_options, sizeof *t->etc_hash);
	t->etc_side = cg_xcalloc(b->sh.max_options, 1);
	return t;
}

static void
thread_free(struct bthread *t)
{
	free(t->state);
	free(t->masks);
	free(t->at);
	free(t->nopt);
	free(t->later);
	free(t->kids);
	free(t->settled);
	free(t->seen);
	free(t->etc_keys);
	free(t->etc_hash);
	free(t->etc_side);
	free(t);
}

/* Does side to move win the root?  -1 when stopped. */
static int
query(struct bits *b, int side)
{
	atomic_store(&b->done, 0);
	b->side = side;
	if (b->jobs == 1)
		run_thread(b, 0);
	else
		cg_parallel_for(b->jobs, b->jobs, 1, run_thread, b);
	return atomic_load(&b->done) ? b->answer : -1;
}

static size_t bits_memory(const struct bits *b);

/* Outcome ('L', 'R', 'N', 'P') of the sum in normal play by the search
 * over the ruleset's cg.bit-search states, or CG_SOLVE_INTERRUPTED;
 * declined when the ruleset has no such extension, the sum does not fit
 * one state, (auto) the ruleset does not prefer it there, or the solver
 * is not a plugin's own (document mode, a worker's, a scratch's, check
 * mode's).  Runs on s->jobs threads. */
static int
bits_outcome(const struct cg_engine *e, struct cg_solver *s,
    const uint32_t *ids, size_t n, int misere)
{
	const struct cg_bit_search *x;
	const unsigned char **comp;
	struct bits b;
	struct table *t;
	size_t *len, i, cap, nb;
	int w[2], side, r;
	unsigned spare;
	unsigned k;

	if (misere || s->rs == NULL || s->guide != NULL || s->scratch ||
	    s->parent != NULL || n == 0 || (x = cg_rs_extension(s->rs,
	    CG_EXT_BIT_SEARCH)) == NULL || x->struct_size <
	    offsetof(struct cg_bit_search, unpack) + sizeof x->unpack)
		return CG_ENGINE_DECLINED;
	comp = cg_xmalloc(n * sizeof *comp);
	len = cg_xmalloc(n * sizeof *len);
	for (i = 0; i < n; i++)
		comp[i] = cg_graph_key(s->graph, ids[i], &len[i]);
	memset(&b, 0, sizeof b);
	r = x->pack(cg_rs_context(s->rs), comp, len, n, &b.sh, b.root);
	free(comp);
	free(len);
	if (r < 0 || b.sh.words == 0 || b.sh.words > CG_BIT_WORDS ||
	    b.sh.max_options == 0 || (s->engine != e &&
	    !(b.sh.flags & CG_BIT_PREFER)))
		return CG_ENGINE_DECLINED;
	b.sh.flags |= CG_BIT_FIRST_ROOM;   /* our bounds reach first_room */
	b.s = s;
	b.rs = s->rs;
	b.x = x;
	b.w = b.sh.words;
	/* the result in the spare bits of a state's last word when there
	 * is room for it and a check of MIN_CHECK bits (a count past 63
	 * breaks the header's rule and is not believed) */
	spare = b.sh.flags >> CG_BIT_SPARE_SHIFT & 0xff;
	b.packed = spare >= INFO_BITS + MIN_CHECK && spare < 64;
	b.ew = b.packed ? b.w : b.w + 1;
	b.kbits = 64 - spare;
	b.kmask = b.packed ? ((uint64_t)1 << b.kbits) - 1 : UINT64_MAX;
	b.cbits = (b.packed ? spare : 64) - INFO_BITS;
	b.sw = b.w + 1;
	b.sym = x->struct_size >= offsetof(struct cg_bit_search, canonical) +
	    sizeof x->canonical && x->canonical != NULL;
	b.settle_hook = x->struct_size >= offsetof(struct cg_bit_search,
	    settle) + sizeof x->settle && x->settle != NULL;
	b.swap_hook = x->struct_size >= offsetof(struct cg_bit_search, swap) +
	    sizeof x->swap && x->swap != NULL;
	b.children_hook = x->struct_size >= offsetof(struct cg_bit_search,
	    children) + sizeof x->children && x->children != NULL;
	b.etc_bits = b.sh.flags >> CG_BIT_ETC_SHIFT & 0xff;
	b.key_hook = x->struct_size >= offsetof(struct cg_bit_search, key) +
	    sizeof x->key && x->key != NULL;
	b.jobs = s->jobs > CG_MAX_JOBS ? CG_MAX_JOBS : s->jobs ? s->jobs : 1;
	b.maxdepth = b.w * 64 + 2;   /* a move fills at least one cell */
	/* the tables of one query, the retired ones too, fit the budget */
	cap = s->budget != 0 ? s->budget / 2 : (size_t)1 << 40;
	for (nb = MIN_BUCKETS; nb * 2 * BUCKET * b.ew * 8 <= cap; nb *= 2)
		;
	b.limit = nb;
	t = tab_new(&b, MIN_BUCKETS);
	atomic_init(&b.tab, t);
	pthread_mutex_init(&b.grow, NULL);
	for (k = 0; k < b.jobs; k++)
		b.t[k] = thread_new(&b, k);
	if ((b.store = store_get(s)) != NULL) {
		pthread_mutex_init(&b.ckmu, NULL);
		b.flushed = cg_elapsed();
		s->bits_loaded += store_load(&b);
	}
	b.base = s->stats;
	s->bits = &b;
	for (side = 0; side < 2; side++)
		if ((w[side] = query(&b, side)) < 0)
			break;
	if (b.store != NULL) {
		if (side < 2)
			store_dump(&b);
		store_flush(&b);
		pthread_mutex_destroy(&b.ckmu);
	}
	if (bits_memory(&b) > s->bits_peak)
		s->bits_peak = bits_memory(&b);
	s->bits = NULL;
	s->stats = b.base;
	for (k = 0; k < b.jobs; k++) {
		s->stats.expanded += b.t[k]->expanded;
		s->stats.solved += b.t[k]->solved;
		thread_free(b.t[k]);
	}
	while (t = atomic_load(&b.tab), t != NULL) {
		atomic_store(&b.tab, t->older);
		free(t->mem);
		free(t);
	}
	pthread_mutex_destroy(&b.grow);
	if (side < 2)
		return CG_SOLVE_INTERRUPTED;
	return cg_outcome_class(w[0], w[1]);
}

static int
bits_branch(struct cg_solver *s, struct cg_buf *out)
{
	const struct bits *b = s->bits;
	const struct bthread *t;
	size_t i;

	if (b == NULL)
		return 0;
	t = b->t[0];
	for (i = 0; i <= t->depth && i < b->maxdepth; i++)
		cg_buf_addf(out, "%s%u/%u", i ? " " : "", t->at[i] + 1,
		    t->nopt[i]);
	return 1;
}

static size_t
bits_memory(const struct bits *b)
{
	size_t sum = 0;
	const struct table *t;

	for (t = atomic_load(&((struct bits *)b)->tab); t != NULL;
	    t = t->older)
		sum += t->nb * BUCKET * b->ew * sizeof *t->e;
	return sum + b->jobs * ((b->maxdepth * ((size_t)b->sh.max_options +
	    1) * b->w + (size_t)SETTLED * b->sw + SEEN +
	    (size_t)b->sh.max_options * (b->w + 1)) * sizeof *b->t[0]->state +
	    (b->maxdepth + 1) * (size_t)b->sh.max_options);
}

static size_t
bits_state_memory(const struct cg_solver *s)
{
	return s->bits != NULL ? bits_memory(s->bits) : 0;
}

const struct cg_engine cg_engine_bits = {
	.name = "bits",
	.flags = CG_ENGINE_AUTO_FIRST,
	.outcome = bits_outcome,
	.nimber = NULL,
	.memory = bits_state_memory,
	.branch = bits_branch,
	.free = bits_store_free,
};
