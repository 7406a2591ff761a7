/* cg-synch - values and outcome classes of synchronized games. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "format/doc.h"
#include "solve/matrixgame.h"
#include "values/rational.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "[-c] [-t | --matrix] [-v] [--float] [--max-digits N] [-r NAME[:PARAMS]]\n"
    "       [-P DIR] [file ...]";
static const char help[] =
    "Solve each root as a synchronized game: both players choose a move at\n"
    "the same time.  The value (CGSynch's) of a position where both can move\n"
    "is the value of the zero-sum matrix game over its joint options, Left\n"
    "maximising with mixed strategies; a decided position (at most one player\n"
    "can move) is worth what the ruleset says.  Exact while numerator and\n"
    "denominator have at most N digits, else '~' and six decimals.  With -c,\n"
    "the Cincotti-Iida outcome class (L R D LD RD LRD) instead.\n"
    "\n"
    "  -t                one line per root: position TAB value\n"
    "  -c                outcome classes instead of values\n"
    "      --matrix      print each root's joint-option matrix, the entries'\n"
    "                    values and both players' optimal strategies\n"
    "      --float       compute in floating point, print CGSynch's form\n"
    "                    (six decimals)\n"
    "      --max-digits N  digits kept exactly (default 60)\n"
    "  -v                statistics on standard error\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum { OPT_MATRIX = CG_OPT_TOOL_BASE, OPT_FLOAT, OPT_DIGITS };

static int tsv, classes, matrix, float_mode, stats;
static unsigned long long n_joint, n_games, n_saddle, n_inexact;
static size_t max_digits = 60;

/* Guarantees for the outcome classes. */
enum { G_LOSS = 0, G_DRAW = 1, G_WIN = 2 };

#define NONE UINT32_MAX

struct snode {
	double v;
	mpq_t *q;          /* exact value, or NULL */
	uint64_t ref;      /* key offset in the table's arena, or doc node */
	uint32_t tab;      /* position table, or NONE for a document node */
	uint32_t klen;     /* key length */
	uint8_t state;     /* 0 new, 1 on the stack, 2 solved */
	uint8_t gl, gr;    /* outcome guarantees of Left and Right */
};

/*
 * The position table of one ruleset: canonical position bytes -> solver
 * node.  Open addressing in 32-byte slots that hold the node, the key's
 * hash and, for keys of up to SLOT_KEY bytes, the key itself, so a lookup
 * usually touches one cache line; the joint options of a position are
 * looked up in a batch whose slots are prefetched first.  Every key is
 * also kept in an arena (for longer keys, and to expand the position).
 */
#define SLOT_SIZE 32
#define SLOT_KEY 23
#define SLOT_LONG 255

struct table {
	struct cg_plugin *rs;
	unsigned char *slot;
	size_t nslots, count;
	unsigned char *arena;
	size_t alen, acap;
};

struct frame {
	uint32_t id, m, n;
	uint32_t *ent;     /* m * n child nodes; NULL when decided */
	size_t next;
};

struct solver {
	struct cg_doc *d;
	struct snode *node;
	size_t n, cap;
	struct table *tab;
	size_t ntab;
	uint32_t *docmap;  /* doc node -> solver node + 1 */
	int64_t *chain;    /* doc node -> longest one-player chain + 1 */
	struct frame *stack;
	size_t depth, capstack;
	struct cg_buf pos, canon;
	/* joint-option collection */
	uint32_t *trip;
	size_t ntrip, captrip;
	size_t *koff;      /* batch key offsets, one per triple (+ end) */
	uint32_t *hashes;
	struct cg_buf batch;
	uint32_t cur_tab;
	uint32_t where;    /* doc node for messages */
};

static void table_grow(struct table *tb);

static unsigned long
line_of(struct solver *s)
{
	return s->where < s->d->n ? s->d->node[s->where].line : 0;
}

/* Ask for huge pages on a big array reached at random. */
static void
hugeify(void *p, size_t size)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;

	if (size >= ((size_t)4 << 20))
		(void)madvise((void *)a, size + ((uintptr_t)p - a),
		    MADV_HUGEPAGE);
}

static uint32_t
new_node(struct solver *s, uint32_t tab, uint64_t ref)
{
	struct snode *x;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->node = cg_xreallocarray(s->node, s->cap, sizeof *s->node);
		hugeify(s->node, s->cap * sizeof *s->node);
	}
	if (s->n >= NONE - 1)
		cg_die(CG_EXIT_DATA, "too many positions");
	x = &s->node[s->n];
	memset(x, 0, sizeof *x);
	x->tab = tab;
	x->ref = ref;
	return (uint32_t)s->n++;
}

static uint32_t
table_of(struct solver *s, struct cg_plugin *rs)
{
	size_t i;

	for (i = 0; i < s->ntab; i++)
		if (s->tab[i].rs == rs)
			return (uint32_t)i;
	if (!CG_HAS_HOOK(rs, synch_options))
		cg_die_at(s->d->file, line_of(s), "ruleset '%s' has no "
		    "synchronized (joint) options", rs->name);
	s->tab = cg_xreallocarray(s->tab, s->ntab + 1, sizeof *s->tab);
	memset(&s->tab[s->ntab], 0, sizeof s->tab[s->ntab]);
	s->tab[s->ntab].rs = rs;
	table_grow(&s->tab[s->ntab]);
	return (uint32_t)s->ntab++;
}

static uint32_t
slot_id(const unsigned char *sl)
{
	uint32_t v;

	memcpy(&v, sl, 4);
	return v;
}

static uint32_t
slot_hash(const unsigned char *sl)
{
	uint32_t v;

	memcpy(&v, sl + 4, 4);
	return v;
}

/* Zeroed slot memory; big tables ask for huge pages (fewer TLB misses:
 * every lookup lands on a random slot). */
static unsigned char *
slot_alloc(size_t size)
{
	void *p;

	if (size < ((size_t)4 << 20))
		return cg_xcalloc(size, 1);
	if (posix_memalign(&p, (size_t)2 << 20, size) != 0)
		cg_die(CG_EXIT_DATA, "out of memory");
	(void)madvise(p, size, MADV_HUGEPAGE);
	memset(p, 0, size);
	return p;
}

static void
table_grow(struct table *tb)
{
	size_t old = tb->nslots, i, k, mask;
	unsigned char *prev = tb->slot;

	tb->nslots = old ? old * 2 : 1024;
	tb->slot = slot_alloc(tb->nslots * SLOT_SIZE);
	mask = tb->nslots - 1;
	for (i = 0; i < old; i++) {
		const unsigned char *sl = prev + i * SLOT_SIZE;

		if (slot_id(sl) == 0)
			continue;
		k = slot_hash(sl) & mask;
		while (slot_id(tb->slot + k * SLOT_SIZE) != 0)
			k = (k + 1) & mask;
		memcpy(tb->slot + k * SLOT_SIZE, sl, SLOT_SIZE);
	}
	free(prev);
}

static void
table_prefetch(const struct table *tb, uint32_t h)
{
	__builtin_prefetch(tb->slot + (h & (tb->nslots - 1)) * SLOT_SIZE);
}

/* The node of key (hash h) in table t, made when new. */
static uint32_t
table_intern(struct solver *s, uint32_t t, const unsigned char *key,
    size_t len, uint32_t h)
{
	struct table *tb = &s->tab[t];
	size_t mask = tb->nslots - 1, k = h & mask;
	unsigned char *sl, want[SLOT_SIZE - 8];
	uint32_t id;

	/* a short key as its slot holds it: length, bytes, zeros */
	memset(want, 0, sizeof want);
	if (len <= SLOT_KEY) {
		want[0] = (unsigned char)len;
		if (len > 0)
			memcpy(want + 1, key, len);
	}
	for (;; k = (k + 1) & mask) {
		sl = tb->slot + k * SLOT_SIZE;
		id = slot_id(sl);
		if (id == 0)
			break;
		if (slot_hash(sl) != h)
			continue;
		if (sl[8] != SLOT_LONG) {
			if (len <= SLOT_KEY &&
			    memcmp(sl + 8, want, sizeof want) == 0)
				return id - 1;
		} else if (s->node[id - 1].klen == len &&
		    memcmp(tb->arena + s->node[id - 1].ref, key, len) == 0) {
			return id - 1;
		}
	}
	/* new position */
	if (tb->alen + len > tb->acap) {
		while (tb->alen + len > tb->acap)
			tb->acap = tb->acap ? tb->acap * 2 : 65536;
		tb->arena = cg_xrealloc(tb->arena, tb->acap);
		hugeify(tb->arena, tb->acap);
	}
	if (len > 0)
		memcpy(tb->arena + tb->alen, key, len);
	if (len > UINT32_MAX)
		cg_die(CG_EXIT_DATA, "position too large");
	id = new_node(s, t, tb->alen);
	s->node[id].klen = (uint32_t)len;
	tb->alen += len;
	id++;
	memcpy(sl, &id, 4);
	memcpy(sl + 4, &h, 4);
	if (len <= SLOT_KEY) {
		sl[8] = (unsigned char)len;
		if (len > 0)
			memcpy(sl + 9, key, len);
	} else {
		sl[8] = SLOT_LONG;
	}
	if (++tb->count * 2 > tb->nslots)
		table_grow(tb);
	return id - 1;
}

/* The node of a position of table t (canonical form looked up). */
static uint32_t
intern(struct solver *s, uint32_t t, const unsigned char *pos, size_t len)
{
	struct table *tb = &s->tab[t];

	s->canon.len = 0;
	if (cg_rs_canonical(tb->rs, pos, len, &s->canon) < 0)
		cg_die_at(s->d->file, line_of(s), "ruleset '%s': %s",
		    tb->rs->name, cg_rs_errmsg(tb->rs));
	return table_intern(s, t, s->canon.data, s->canon.len,
	    (uint32_t)cg_hash_bytes(s->canon.data, s->canon.len, 0));
}

/* The solver node of a document node. */
static uint32_t
doc_node(struct solver *s, uint32_t x)
{
	struct cg_node *n = &s->d->node[x];
	uint32_t id;

	if (s->docmap[x])
		return s->docmap[x] - 1;
	if (n->expanded) {
		id = new_node(s, NONE, x);
	} else if (n->rs != NULL && n->pos != NULL) {
		uint32_t save = s->where;

		s->where = x;
		id = intern(s, table_of(s, n->rs), n->pos, n->poslen);
		s->where = save;
	} else {
		cg_die_at(s->d->file, n->line, "node %llu has neither options "
		    "nor a position", (unsigned long long)n->id);
	}
	s->docmap[x] = id + 1;
	return id;
}

/* Copy a table node's position bytes into s->pos. */
static void
load_pos(struct solver *s, uint32_t id)
{
	const struct snode *x = &s->node[id];

	s->pos.len = 0;
	if (x->klen > 0)
		cg_buf_add(&s->pos, s->tab[x->tab].arena + x->ref, x->klen);
}

/* Joint options are collected (canonical keys in s->batch, their offset
 * in the third word of each triple) and interned together afterwards. */
static int
on_joint(void *ctx, size_t i, size_t j, const unsigned char *pos, size_t len)
{
	struct solver *s = ctx;
	struct table *tb = &s->tab[s->cur_tab];
	size_t off = s->batch.len;

	if (i >= NONE || j >= NONE)
		cg_die(CG_EXIT_DATA, "too many joint options");
	if (cg_rs_canonical(tb->rs, pos, len, &s->batch) < 0)
		cg_die_at(s->d->file, line_of(s), "ruleset '%s': %s",
		    tb->rs->name, cg_rs_errmsg(tb->rs));
	if (s->ntrip + 3 > s->captrip) {
		s->captrip = s->captrip ? s->captrip * 2 : 256;
		s->trip = cg_xreallocarray(s->trip, s->captrip, sizeof *s->trip);
		s->koff = cg_xreallocarray(s->koff, s->captrip / 3 + 1,
		    sizeof *s->koff);
	}
	s->koff[s->ntrip / 3] = off;
	s->trip[s->ntrip++] = (uint32_t)i;
	s->trip[s->ntrip++] = (uint32_t)j;
	s->trip[s->ntrip++] = 0;
	return 0;
}

/* Intern the batch: hashes and slot prefetches first, then lookups. */
static void
intern_batch(struct solver *s, uint32_t t)
{
	size_t n = s->ntrip / 3, k, end;
	uint32_t *h;

	if (n == 0)
		return;
	s->koff[n] = s->batch.len;
	h = s->hashes = cg_xreallocarray(s->hashes, n, sizeof *s->hashes);
	for (k = 0; k < n; k++) {
		h[k] = (uint32_t)cg_hash_bytes(s->batch.data + s->koff[k],
		    s->koff[k + 1] - s->koff[k], 0);
		table_prefetch(&s->tab[t], h[k]);
	}
	for (k = 0; k < n; k++) {
		end = s->koff[k + 1];
		s->trip[3 * k + 2] = table_intern(s, t,
		    s->batch.data + s->koff[k], end - s->koff[k], h[k]);
	}
	/* the solver reads every child's state and value next */
	for (k = 0; k < n; k++)
		__builtin_prefetch(&s->node[s->trip[3 * k + 2]]);
}

static int
stop_at_first(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	(void)pos;
	(void)len;
	(void)move;
	*(int *)ctx = 1;
	return 1;
}

static int
has_move(struct solver *s, struct cg_plugin *rs, enum cg_side side)
{
	int found = 0;

	if (cg_rs_options(rs, s->pos.data, s->pos.len, side, stop_at_first,
	    &found) < 0)
		cg_die_at(s->d->file, line_of(s), "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	return found;
}

/* Decided value or guarantees from whether each player can move. */
static void
set_decided(struct snode *x, int64_t num, int64_t den, int canl, int canr)
{
	if (classes) {
		x->gl = !canl && !canr ? G_DRAW : canl ? G_WIN : G_LOSS;
		x->gr = !canl && !canr ? G_DRAW : canr ? G_WIN : G_LOSS;
		return;
	}
	x->v = (double)num / (double)den;
	if (!float_mode) {
		x->q = cg_xmalloc(sizeof *x->q);
		mpq_init(*x->q);
		if (den < 0) {
			num = -num;
			den = -den;
		}
		mpq_set_si(*x->q, num, (unsigned long)den);
		mpq_canonicalize(*x->q);
		if (!cg_q_fits(*x->q, max_digits)) {
			mpq_clear(*x->q);
			free(x->q);
			x->q = NULL;
		}
	}
}

/* Matrix from collected triples; dies when some pair is missing. */
static uint32_t *
matrix_from_triples(struct solver *s, uint32_t *pm, uint32_t *pn,
    const char *what)
{
	uint32_t m = 0, n = 0, *ent;
	size_t k;

	for (k = 0; k < s->ntrip; k += 3) {
		if (s->trip[k] + 1 > m)
			m = s->trip[k] + 1;
		if (s->trip[k + 1] + 1 > n)
			n = s->trip[k + 1] + 1;
	}
	if ((uint64_t)m * n > 100000000u)
		cg_die_at(s->d->file, line_of(s), "%s: too many joint options",
		    what);
	ent = cg_xreallocarray(NULL, (size_t)m * n, sizeof *ent);
	for (k = 0; k < (size_t)m * n; k++)
		ent[k] = NONE;
	for (k = 0; k < s->ntrip; k += 3)
		ent[(size_t)s->trip[k] * n + s->trip[k + 1]] = s->trip[k + 2];
	for (k = 0; k < (size_t)m * n; k++)
		if (ent[k] == NONE)
			cg_die_at(s->d->file, line_of(s), "%s: joint option "
			    "(%zu, %zu) missing", what, k / n, k % n);
	*pm = m;
	*pn = n;
	return ent;
}

static int64_t longest_chain(struct solver *s, uint32_t x, int side);

/* Expand node id into a frame: joint options, or a decided value. */
static void
expand(struct solver *s, struct frame *f)
{
	struct snode *x = &s->node[f->id];

	f->ent = NULL;
	f->m = f->n = 0;
	f->next = 0;
	s->ntrip = 0;
	if (x->tab != NONE) {
		struct cg_plugin *rs = s->tab[x->tab].rs;
		int64_t num = 0, den = 1;
		int canl = 0, canr = 0;

		load_pos(s, f->id);
		s->cur_tab = x->tab;
		s->batch.len = 0;
		if (cg_rs_synch_options(rs, s->pos.data, s->pos.len, on_joint,
		    s) < 0)
			cg_die_at(s->d->file, line_of(s), "ruleset '%s': %s",
			    rs->name, cg_rs_errmsg(rs));
		intern_batch(s, x->tab);
		if (s->ntrip > 0) {
			f->ent = matrix_from_triples(s, &f->m, &f->n, rs->name);
			return;
		}
		x = &s->node[f->id];
		if (classes) {
			canl = has_move(s, rs, CG_LEFT);
			canr = has_move(s, rs, CG_RIGHT);
			if (canl && canr)
				cg_die_at(s->d->file, line_of(s), "ruleset "
				    "'%s': no joint options although both "
				    "players can move", rs->name);
		} else {
			if (!CG_HAS_HOOK(rs, decided_value))
				cg_die_at(s->d->file, line_of(s), "ruleset "
				    "'%s' has no decided values", rs->name);
			if (cg_rs_decided_value(rs, s->pos.data, s->pos.len,
			    &num, &den) < 0)
				cg_die_at(s->d->file, line_of(s),
				    "ruleset '%s': %s", rs->name,
				    cg_rs_errmsg(rs));
			if (den == 0)
				cg_die_at(s->d->file, line_of(s), "ruleset "
				    "'%s': decided value with denominator 0",
				    rs->name);
		}
		set_decided(x, num, den, canl, canr);
		x->state = 2;
		return;
	} else {
		uint32_t di = (uint32_t)x->ref, k;
		struct cg_node *dn = &s->d->node[di];
		char what[64];
		int64_t num = 0, den = 1;

		s->where = di;
		snprintf(what, sizeof what, "node %llu",
		    (unsigned long long)dn->id);
		if (dn->nopt[CG_LEFT] > 0 && dn->nopt[CG_RIGHT] > 0) {
			if (dn->njoint == 0)
				cg_die_at(s->d->file, dn->line, "node %llu has "
				    "no joint options (write them with "
				    "cg-options -j)", (unsigned long long)dn->id);
			for (k = 0; k < dn->njoint; k++) {
				struct cg_joint *j = &s->d->node[di].joint[k];
				uint32_t c;

				if (j->i >= s->d->node[di].nopt[CG_LEFT] ||
				    j->j >= s->d->node[di].nopt[CG_RIGHT])
					cg_die_at(s->d->file, dn->line,
					    "node %llu: joint option (%u, %u) "
					    "out of range",
					    (unsigned long long)dn->id, j->i, j->j);
				c = doc_node(s, j->child);
				if (s->ntrip + 3 > s->captrip) {
					s->captrip = s->captrip ?
					    s->captrip * 2 : 256;
					s->trip = cg_xreallocarray(s->trip,
					    s->captrip, sizeof *s->trip);
				}
				s->trip[s->ntrip++] = j->i;
				s->trip[s->ntrip++] = j->j;
				s->trip[s->ntrip++] = c;
			}
			f->ent = matrix_from_triples(s, &f->m, &f->n, what);
			if (f->m != dn->nopt[CG_LEFT] ||
			    f->n != dn->nopt[CG_RIGHT])
				cg_die_at(s->d->file, dn->line, "node %llu: "
				    "joint options do not cover every pair of "
				    "moves", (unsigned long long)dn->id);
			return;
		}
		x = &s->node[f->id];
		if (!classes) {
			struct cg_plugin *rs = dn->rs;

			if (rs != NULL && dn->pos != NULL &&
			    CG_HAS_HOOK(rs, decided_value)) {
				if (cg_rs_decided_value(rs, dn->pos, dn->poslen,
				    &num, &den) < 0 || den == 0)
					cg_die_at(s->d->file, dn->line,
					    "ruleset '%s': %s", rs->name,
					    cg_rs_errmsg(rs));
			} else if (dn->nopt[CG_LEFT] > 0) {
				num = longest_chain(s, di, CG_LEFT);
			} else if (dn->nopt[CG_RIGHT] > 0) {
				num = -longest_chain(s, di, CG_RIGHT);
			}
			x = &s->node[f->id];
		}
		set_decided(x, num, den, dn->nopt[CG_LEFT] > 0,
		    dn->nopt[CG_RIGHT] > 0);
		x->state = 2;
	}
}

/*
 * Longest sequence of moves of one side alone from document node x: the
 * value of a position where only that side can move (as the number of
 * moves, which is its ordinary game value too).
 */
static int64_t
longest_chain(struct solver *s, uint32_t x, int side)
{
	struct { uint32_t node, k; } *st = NULL;
	size_t sp = 0, cap = 0;
	int64_t best;

	if (s->chain == NULL)
		s->chain = cg_xcalloc(s->d->n ? s->d->n : 1, sizeof *s->chain);
	/* chain[] holds 2 * length + 1 + side: each node keeps one side's */
#define PUSHC(nd) do {                                                  \
		if (sp == cap) {                                        \
			cap = cap ? cap * 2 : 64;                       \
			st = cg_xreallocarray(st, cap, sizeof *st);     \
		}                                                       \
		st[sp].node = (nd);                                     \
		st[sp].k = 0;                                           \
		sp++;                                                   \
	} while (0)
	PUSHC(x);
	while (sp > 0) {
		uint32_t nd = st[sp - 1].node;
		struct cg_node *n = &s->d->node[nd];

		if (s->chain[nd] != 0) {
			sp--;
			continue;
		}
		if (!n->expanded)
			cg_die_at(s->d->file, n->line, "node %llu is not "
			    "expanded", (unsigned long long)n->id);
		if (st[sp - 1].k < n->nopt[side]) {
			uint32_t c = n->opt[side][st[sp - 1].k++].child;

			if (s->chain[c] == 0)
				PUSHC(c);
			continue;
		}
		best = 0;
		for (uint32_t k = 0; k < n->nopt[side]; k++) {
			int64_t l = s->chain[n->opt[side][k].child] - 1;

			if (l + 1 > best)
				best = l + 1;
		}
		s->chain[nd] = best + 1;
		sp--;
	}
#undef PUSHC
	free(st);
	best = s->chain[x] - 1;
	/* one side only per call chain: reset for the other side's use */
	memset(s->chain, 0, s->d->n * sizeof *s->chain);
	return best;
}

/* Value or guarantees of a node whose children are all solved. */
static void
combine(struct solver *s, struct frame *f)
{
	struct snode *x = &s->node[f->id];
	size_t k, mn = (size_t)f->m * f->n, i, j;
	int exact = !float_mode;

	if (classes) {
		uint8_t gl = G_LOSS, gr = G_LOSS, lo;

		for (i = 0; i < f->m; i++) {
			lo = G_WIN;
			for (j = 0; j < f->n; j++)
				if (s->node[f->ent[i * f->n + j]].gl < lo)
					lo = s->node[f->ent[i * f->n + j]].gl;
			if (lo > gl)
				gl = lo;
		}
		for (j = 0; j < f->n; j++) {
			lo = G_WIN;
			for (i = 0; i < f->m; i++)
				if (s->node[f->ent[i * f->n + j]].gr < lo)
					lo = s->node[f->ent[i * f->n + j]].gr;
			if (lo > gr)
				gr = lo;
		}
		x->gl = gl;
		x->gr = gr;
		return;
	}
	n_joint += mn;
	n_games++;
	for (k = 0; k < mn && exact; k++)
		if (s->node[f->ent[k]].q == NULL)
			exact = 0;
	if (exact) {
		mpq_srcptr *a = cg_xreallocarray(NULL, mn, sizeof *a);

		for (k = 0; k < mn; k++)
			a[k] = *s->node[f->ent[k]].q;
		x->q = cg_xmalloc(sizeof *x->q);
		mpq_init(*x->q);
		n_saddle += cg_mg_solve_q(f->m, f->n, a, *x->q, NULL, NULL);
		free(a);
		x->v = mpq_get_d(*x->q);
		if (!cg_q_fits(*x->q, max_digits)) {
			mpq_clear(*x->q);
			free(x->q);
			x->q = NULL;
			n_inexact++;
		}
	} else {
		double *a = cg_xreallocarray(NULL, mn, sizeof *a);

		for (k = 0; k < mn; k++)
			a[k] = s->node[f->ent[k]].v;
		x->v = cg_mg_solve_d(f->m, f->n, a, NULL, NULL);
		free(a);
	}
}

/* Solve node root with an explicit stack (games can be deep). */
static void
solve(struct solver *s, uint32_t root)
{
	struct frame *f;

	if (s->node[root].state == 2)
		return;
	s->depth = 0;
#define PUSHF(nid) do {                                                 \
		if (s->depth == s->capstack) {                          \
			s->capstack = s->capstack ? s->capstack * 2 : 64;\
			s->stack = cg_xreallocarray(s->stack, s->capstack,\
			    sizeof *s->stack);                          \
		}                                                       \
		s->stack[s->depth].id = (nid);                          \
		s->node[(nid)].state = 1;                               \
		expand(s, &s->stack[s->depth]);                         \
		s->depth++;                                             \
	} while (0)
	PUSHF(root);
	while (s->depth > 0) {
		f = &s->stack[s->depth - 1];
		if (s->node[f->id].state == 2) {
			free(f->ent);
			s->depth--;
			continue;
		}
		while (f->next < (size_t)f->m * f->n) {
			uint32_t c = f->ent[f->next];

			if (s->node[c].state == 2) {
				f->next++;
				continue;
			}
			if (s->node[c].state == 1)
				cg_die_at(s->d->file, line_of(s), "the game "
				    "has a cycle (a position repeats)");
			break;
		}
		if (f->next < (size_t)f->m * f->n) {
			uint32_t c = f->ent[f->next];

			PUSHF(c); /* may move the stack: f is stale after */
			continue;
		}
		combine(s, f);
		s->node[f->id].state = 2;
		free(f->ent);
		f->ent = NULL;
		s->depth--;
	}
#undef PUSHF
}

static void
value_text(struct solver *s, uint32_t id, struct cg_buf *out)
{
	struct snode *x = &s->node[id];
	static const char *const names[3][3] = {
		/* [gl][gr] */
		{ "LRD", "RD", "R" },
		{ "LD", "D", "?" },
		{ "L", "?", "?" },
	};

	if (classes)
		cg_buf_addstr(out, names[x->gl][x->gr]);
	else if (x->q != NULL && !float_mode)
		cg_q_print(out, *x->q);
	else
		cg_d_print(out, x->v, !float_mode);
}

/* ---------------------------------------------------------- --matrix */

struct names {
	char **name;
	size_t n, cap;
};

static int
on_name(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct names *nm = ctx;

	(void)pos;
	(void)len;
	if (nm->n == nm->cap) {
		nm->cap = nm->cap ? nm->cap * 2 : 16;
		nm->name = cg_xreallocarray(nm->name, nm->cap, sizeof *nm->name);
	}
	nm->name[nm->n++] = cg_xstrdup(move ? move : "");
	return 0;
}

static void
node_label(struct solver *s, uint32_t id, struct cg_buf *out)
{
	struct snode *x = &s->node[id];

	if (x->tab != NONE) {
		struct cg_plugin *rs = s->tab[x->tab].rs;
		size_t start = out->len;

		load_pos(s, id);
		if (cg_rs_print(rs, s->pos.data, s->pos.len, out) < 0) {
			out->len = start;
			cg_buf_addstr(out, "?");
		}
	} else {
		cg_doc_root_label(s->d, (uint32_t)x->ref, out);
	}
}

static void
print_strategy(FILE *out, const char *side, struct names *nm, size_t k,
    mpq_t *q, double *d)
{
	struct cg_buf b;

	cg_buf_init(&b);
	cg_buf_addf(&b, "%s\t%zu\t", side, k);
	cg_escape(&b, k < nm->n ? nm->name[k] : "");
	cg_buf_addc(&b, '\t');
	if (q != NULL)
		cg_q_print(&b, *q);
	else
		cg_d_print(&b, *d, 0);
	cg_buf_addc(&b, '\n');
	fwrite(b.data, 1, b.len, out);
	cg_buf_free(&b);
}

static void
print_matrix(struct solver *s, uint32_t root, uint32_t id, FILE *out)
{
	struct frame f;
	struct names nm[2];
	struct cg_buf b;
	size_t k, mn;
	int side, exact = !float_mode;

	memset(nm, 0, sizeof nm);
	cg_buf_init(&b);
	cg_buf_addstr(&b, "position\t");
	cg_doc_root_label(s->d, root, &b);
	cg_buf_addstr(&b, "\nvalue\t");
	value_text(s, id, &b);
	cg_buf_addc(&b, '\n');
	/* re-expand the root (its children are solved) */
	memset(&f, 0, sizeof f);
	f.id = id;
	{
		struct snode save = s->node[id];

		s->node[id].q = NULL;
		expand(s, &f);
		if (f.ent == NULL && s->node[id].q != NULL) {
			mpq_clear(*s->node[id].q);
			free(s->node[id].q);
		}
		s->node[id] = save;
	}
	if (f.ent == NULL) {
		cg_buf_addstr(&b, "decided\n\n");
		fwrite(b.data, 1, b.len, out);
		cg_buf_free(&b);
		cg_check_write(out, "standard output");
		return;
	}
	/* move names */
	for (side = 0; side < 2; side++) {
		struct snode *x = &s->node[id];

		if (x->tab != NONE) {
			struct cg_plugin *rs = s->tab[x->tab].rs;

			load_pos(s, id);
			(void)cg_rs_options(rs, s->pos.data, s->pos.len,
			    (enum cg_side)side, on_name, &nm[side]);
		} else {
			struct cg_node *dn = &s->d->node[x->ref];

			for (k = 0; k < dn->nopt[side]; k++)
				on_name(&nm[side], NULL, 0,
				    dn->opt[side][k].move);
		}
	}
	fwrite(b.data, 1, b.len, out);
	b.len = 0;
	mn = (size_t)f.m * f.n;
	if (!classes) {
		for (k = 0; k < mn; k++)
			if (s->node[f.ent[k]].q == NULL)
				exact = 0;
		if (exact) {
			mpq_srcptr *a = cg_xreallocarray(NULL, mn, sizeof *a);
			mpq_t v, *x = cg_xreallocarray(NULL, f.m, sizeof *x);
			mpq_t *y = cg_xreallocarray(NULL, f.n, sizeof *y);

			for (k = 0; k < mn; k++)
				a[k] = *s->node[f.ent[k]].q;
			mpq_init(v);
			for (k = 0; k < f.m; k++)
				mpq_init(x[k]);
			for (k = 0; k < f.n; k++)
				mpq_init(y[k]);
			cg_mg_solve_q(f.m, f.n, a, v, x, y);
			for (k = 0; k < f.m; k++)
				print_strategy(out, "left", &nm[0], k, &x[k], NULL);
			for (k = 0; k < f.n; k++)
				print_strategy(out, "right", &nm[1], k, &y[k], NULL);
			for (k = 0; k < f.m; k++)
				mpq_clear(x[k]);
			for (k = 0; k < f.n; k++)
				mpq_clear(y[k]);
			mpq_clear(v);
			free(x);
			free(y);
			free(a);
		} else {
			double *a = cg_xreallocarray(NULL, mn, sizeof *a);
			double *x = cg_xcalloc(f.m, sizeof *x);
			double *y = cg_xcalloc(f.n, sizeof *y);

			for (k = 0; k < mn; k++)
				a[k] = s->node[f.ent[k]].v;
			(void)cg_mg_solve_d(f.m, f.n, a, x, y);
			for (k = 0; k < f.m; k++)
				print_strategy(out, "left", &nm[0], k, NULL, &x[k]);
			for (k = 0; k < f.n; k++)
				print_strategy(out, "right", &nm[1], k, NULL, &y[k]);
			free(x);
			free(y);
			free(a);
		}
	}
	for (k = 0; k < mn; k++) {
		b.len = 0;
		cg_buf_addf(&b, "entry\t%zu\t%zu\t", k / f.n, k % f.n);
		{
			struct cg_buf lab;

			cg_buf_init(&lab);
			node_label(s, f.ent[k], &lab);
			cg_escape(&b, cg_buf_str(&lab));
			cg_buf_free(&lab);
		}
		cg_buf_addc(&b, '\t');
		value_text(s, f.ent[k], &b);
		cg_buf_addc(&b, '\n');
		fwrite(b.data, 1, b.len, out);
	}
	fputc('\n', out);
	cg_check_write(out, "standard output");
	for (side = 0; side < 2; side++) {
		for (k = 0; k < nm[side].n; k++)
			free(nm[side].name[k]);
		free(nm[side].name);
	}
	free(f.ent);
	cg_buf_free(&b);
}

/* ---------------------------------------------------------- driver */

static void
each(struct cg_doc *d, void *arg)
{
	struct solver s;
	struct cg_buf val;
	uint32_t r, id;
	size_t k;

	(void)arg;
	memset(&s, 0, sizeof s);
	s.d = d;
	s.where = NONE;
	s.docmap = cg_xcalloc(d->n ? d->n : 1, sizeof *s.docmap);
	cg_buf_init(&s.pos);
	cg_buf_init(&s.canon);
	cg_buf_init(&s.batch);
	cg_buf_init(&val);
	for (r = 0; r < d->nroot; r++) {
		s.where = d->root[r];
		id = doc_node(&s, d->root[r]);
		solve(&s, id);
		if (matrix) {
			print_matrix(&s, d->root[r], id, stdout);
			continue;
		}
		val.len = 0;
		value_text(&s, id, &val);
		if (tsv) {
			const char *v = cg_buf_str(&val);

			cg_tsv_row(stdout, d, d->root[r], &v, 1);
		} else {
			cg_doc_annotate(d, d->root[r],
			    classes ? "synch-outcome" : "synch",
			    cg_buf_str(&val));
		}
	}
	if (!tsv && !matrix)
		cg_doc_write(stdout, d);
	if (stats) {
		size_t mem = s.cap * sizeof *s.node;

		for (k = 0; k < s.ntab; k++)
			mem += s.tab[k].nslots * SLOT_SIZE + s.tab[k].acap;
		fprintf(stderr, "%s: %zu positions, %llu joint options, %llu "
		    "matrix games (%llu saddle points in exact games), %llu "
		    "values past --max-digits, table %zu MB\n", cg_progname,
		    s.n, n_joint, n_games, n_saddle, n_inexact, mem >> 20);
	}
	for (k = 0; k < s.n; k++)
		if (s.node[k].q != NULL) {
			mpq_clear(*s.node[k].q);
			free(s.node[k].q);
		}
	for (k = 0; k < s.ntab; k++) {
		free(s.tab[k].slot);
		free(s.tab[k].arena);
	}
	free(s.koff);
	free(s.hashes);
	cg_buf_free(&s.batch);
	free(s.tab);
	free(s.node);
	free(s.docmap);
	free(s.chain);
	free(s.stack);
	free(s.trip);
	cg_buf_free(&s.pos);
	cg_buf_free(&s.canon);
	cg_buf_free(&val);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "matrix", no_argument, NULL, OPT_MATRIX },
		{ "float", no_argument, NULL, OPT_FLOAT },
		{ "max-digits", required_argument, NULL, OPT_DIGITS },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	int c;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "chP:r:tv", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': classes = 1; break;
		case 'v': stats = 1; break;
		case 't': tsv = 1; break;
		case OPT_MATRIX: matrix = 1; break;
		case OPT_FLOAT: float_mode = 1; break;
		case OPT_DIGITS:
			max_digits = cg_parse_count(optarg, "--max-digits");
			if (max_digits == 0)
				cg_usage(usage);
			break;
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	if (matrix && tsv)
		cg_usage(usage);
	cg_each_document(argc - optind, argv + optind, spec, each, NULL);
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
