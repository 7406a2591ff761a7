/* synch.c - synchronized games (see synch.h): values as CGSynch defines
 * them, the value of the matrix game over the joint options (exact with
 * GMP rationals while they stay short, else in floating point), and the
 * Cincotti-Iida outcome classes; positions of rulesets are found in the
 * solver's own table (below), trees come from documents. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "host/plugin.h"
#include "solve/matrixgame.h"
#include "solve/synch.h"
#include "values/rational.h"

/* Guarantees for the outcome s->o.classes. */
enum { G_LOSS = 0, G_DRAW = 1, G_WIN = 2 };

#define NONE UINT32_MAX

/*
 * Positions.  Every joint option of every position is looked up (tens of
 * millions of lookups for a million positions), so a lookup must touch
 * little memory.  A solver node is one cache line that holds, besides
 * the position's value and state, its canonical bytes (inline up to
 * KEY_INLINE bytes, longer ones in the key arena); the slots of an open
 * addressing table hold (hash << 32 | node + 1).  A lookup that finds its
 * position reads one slot and one node, the node the solver reads next
 * anyway; the joint options of a position are looked up together, the
 * slots and then the nodes of all of them fetched before any is compared.
 * The position graph would read a slot, an entry, the key and a vertex
 * map for each, and what it adds (components, forms, option lists) is
 * of no use here: synchronized positions are never split into
 * components (cg-synch(1)).
 */
#define KEY_INLINE 31
#define DOCNODE UINT16_MAX  /* snode.rs of a document node */
#define NODE_BITS 15        /* 2^15 nodes of 64 bytes: a 2 MB chunk */
#define NODE_CHUNK ((size_t)1 << NODE_BITS)

struct snode {
	double v;
	mpq_t *q;          /* exact value, or NULL */
	uint64_t ref;      /* doc node, or the key's offset in the arena */
	uint32_t klen;     /* key length */
	uint16_t rs;       /* ruleset index, or DOCNODE */
	uint8_t state;     /* 0 new, 1 on the stack, 2 solved */
	uint8_t gl, gr;    /* outcome guarantees of Left and Right */
	unsigned char key[KEY_INLINE]; /* canonical bytes up to KEY_INLINE */
};

_Static_assert(sizeof(struct snode) == 64, "a node is one cache line");

struct frame {
	uint32_t id, m, n;
	uint32_t *ent;     /* m * n child nodes; NULL when decided */
	size_t next;
};

struct cg_synch {
	struct cg_synch_options o;
	struct cg_doc *d;
	struct snode **chunk;   /* nodes, NODE_CHUNK a chunk, never moved */
	size_t n, nchunk;
	uint64_t *slot;         /* hash << 32 | node + 1, 0 empty */
	size_t mask, count;
	unsigned char *arena;   /* keys longer than KEY_INLINE */
	size_t alen, acap;
	struct cg_plugin **rs;  /* rulesets by index */
	size_t nrs;
	uint32_t *docmap;  /* doc node -> solver node + 1 */
	int64_t *chain;    /* doc node -> longest one-player chain + 1 */
	struct frame *stack;
	size_t depth, capstack;
	struct cg_buf pos, canon;
	/* joint-option collection: (i, j, node) triples; the options'
	 * canonical bytes in batch (option k's from koff[k]) and their
	 * hashes, for intern_joint */
	uint32_t *trip;
	size_t ntrip, captrip;
	struct cg_buf batch;
	size_t *koff;
	uint32_t *hash;
	struct cg_plugin *cur;
	unsigned cur_rs;
	uint32_t where;    /* doc node for messages */
	/* statistics */
	unsigned long long n_joint, n_games, n_saddle, n_inexact;
};

static unsigned long
line_of(struct cg_synch *s)
{
	return s->where < s->d->n ? s->d->node[s->where].line : 0;
}

static inline struct snode *
node(const struct cg_synch *s, uint32_t id)
{
	return &s->chunk[id >> NODE_BITS][id & (NODE_CHUNK - 1)];
}

static inline const unsigned char *
node_key(const struct cg_synch *s, const struct snode *x)
{
	return x->klen <= KEY_INLINE ? x->key : s->arena + x->ref;
}

/* A chunk of nodes, aligned so that each node is one cache line.  All
 * but the first ask for a huge page (nodes are reached at random); a
 * small game's nodes stay in small pages. */
static struct snode *
chunk_new(size_t nth)
{
	size_t size = NODE_CHUNK * sizeof(struct snode);
	void *p;

	if (posix_memalign(&p, (size_t)2 << 20, size) != 0)
		cg_die(CG_EXIT_DATA, "out of memory (allocating %zu bytes)",
		    size);
	if (nth > 0)
		(void)madvise(p, size, MADV_HUGEPAGE);
	return p;
}

static uint32_t
new_node(struct cg_synch *s, unsigned rs, uint64_t ref)
{
	struct snode *x;

	if (s->n >= NONE - 1)
		cg_die(CG_EXIT_DATA, "too many positions");
	if (s->n == s->nchunk * NODE_CHUNK) {
		s->chunk = cg_xreallocarray(s->chunk, s->nchunk + 1,
		    sizeof *s->chunk);
		s->chunk[s->nchunk] = chunk_new(s->nchunk);
		s->nchunk++;
	}
	x = node(s, (uint32_t)s->n);
	memset(x, 0, sizeof *x);
	x->rs = (uint16_t)rs;
	x->ref = ref;
	return (uint32_t)s->n++;
}

/* The index of ruleset rs in the table. */
static unsigned
rs_index(struct cg_synch *s, struct cg_plugin *rs)
{
	size_t i;

	for (i = 0; i < s->nrs; i++)
		if (s->rs[i] == rs)
			return (unsigned)i;
	if (s->nrs == DOCNODE)
		cg_die(CG_EXIT_DATA, "too many rulesets");
	s->rs = cg_xreallocarray(s->rs, s->nrs + 1, sizeof *s->rs);
	s->rs[s->nrs] = rs;
	return (unsigned)s->nrs++;
}

static inline uint32_t
key_hash(unsigned rs, const unsigned char *key, size_t len)
{
	return (uint32_t)cg_hash_bytes(key, len, rs);
}

static void
slots_grow(struct cg_synch *s)
{
	size_t old = s->slot ? s->mask + 1 : 0, i, j;
	uint64_t *prev = s->slot, w;

	s->mask = old ? 2 * old - 1 : 1023;
	s->slot = cg_xcalloc(s->mask + 1, sizeof *s->slot);
	for (i = 0; i < old; i++) {
		if ((w = prev[i]) == 0)
			continue;
		for (j = (w >> 32) & s->mask; s->slot[j] != 0;
		    j = (j + 1) & s->mask)
			;
		s->slot[j] = w;
	}
	free(prev);
}

/* The node of key (of ruleset rs, hash h), made when new. */
static uint32_t
table_intern(struct cg_synch *s, unsigned rs, const unsigned char *key,
    size_t len, uint32_t h)
{
	size_t j;
	uint64_t w;
	uint32_t id;
	struct snode *x;

	for (j = h & s->mask; (w = s->slot[j]) != 0; j = (j + 1) & s->mask) {
		if ((uint32_t)(w >> 32) != h)
			continue;
		x = node(s, (uint32_t)w - 1);
		if (x->rs == rs && x->klen == len && (len == 0 ||
		    memcmp(node_key(s, x), key, len) == 0))
			return (uint32_t)w - 1;
	}
	if (len > UINT32_MAX - 1)
		cg_die(CG_EXIT_DATA, "position too large");
	id = new_node(s, rs, 0);
	x = node(s, id);
	x->klen = (uint32_t)len;
	if (len <= KEY_INLINE) {
		if (len > 0)
			memcpy(x->key, key, len);
	} else {
		if (s->alen + len > s->acap) {
			while (s->alen + len > s->acap)
				s->acap = s->acap ? 2 * s->acap : 65536;
			s->arena = cg_xrealloc(s->arena, s->acap);
		}
		memcpy(s->arena + s->alen, key, len);
		x->ref = s->alen;
		s->alen += len;
	}
	s->slot[j] = (uint64_t)h << 32 | (id + 1);
	if (++s->count * 3 > (s->mask + 1) * 2)
		slots_grow(s);
	return id;
}

/* The solver node of a position of rs (canonical form looked up). */
static uint32_t
intern(struct cg_synch *s, struct cg_plugin *rs, const unsigned char *pos,
    size_t len)
{
	unsigned r;

	if (!CG_HAS_HOOK(rs, synch_options))
		cg_die_at(s->d->file, line_of(s), "ruleset '%s' has no "
		    "synchronized (joint) options", rs->name);
	r = rs_index(s, rs);
	s->canon.len = 0;
	if (cg_rs_canonical(rs, pos, len, &s->canon) < 0)
		cg_die_at(s->d->file, line_of(s), "ruleset '%s': %s",
		    rs->name, cg_rs_errmsg(rs));
	return table_intern(s, r, s->canon.data, s->canon.len,
	    key_hash(r, s->canon.data, s->canon.len));
}

/* The solver node of a document node. */
static uint32_t
doc_node(struct cg_synch *s, uint32_t x)
{
	struct cg_node *n = &s->d->node[x];
	uint32_t id;

	if (s->docmap[x])
		return s->docmap[x] - 1;
	if (n->expanded) {
		id = new_node(s, DOCNODE, x);
	} else if (n->rs != NULL && n->pos != NULL) {
		uint32_t save = s->where;

		s->where = x;
		id = intern(s, n->rs, n->pos, n->poslen);
		s->where = save;
	} else {
		cg_die_at(s->d->file, n->line, "node %llu has neither options "
		    "nor a position", (unsigned long long)n->id);
	}
	s->docmap[x] = id + 1;
	return id;
}

/* Copy a position node's bytes into s->pos; its ruleset. */
static struct cg_plugin *
load_pos(struct cg_synch *s, uint32_t id)
{
	const struct snode *x = node(s, id);

	s->pos.len = 0;
	cg_buf_add(&s->pos, node_key(s, x), x->klen);
	return s->rs[x->rs];
}

/* A joint option: (i, j) and the canonical bytes of the position it
 * leads to, looked up with the others by intern_joint. */
static int
on_joint(void *ctx, size_t i, size_t j, const unsigned char *pos, size_t len)
{
	struct cg_synch *s = ctx;

	if (i >= NONE || j >= NONE)
		cg_die(CG_EXIT_DATA, "too many joint options");
	if (s->ntrip + 3 > s->captrip) {
		s->captrip = s->captrip ? s->captrip * 2 : 256;
		s->trip = cg_xreallocarray(s->trip, s->captrip, sizeof *s->trip);
		s->koff = cg_xreallocarray(s->koff, s->captrip / 3 + 1,
		    sizeof *s->koff);
		s->hash = cg_xreallocarray(s->hash, s->captrip / 3 + 1,
		    sizeof *s->hash);
	}
	s->koff[s->ntrip / 3] = s->batch.len;
	if (cg_rs_canonical(s->cur, pos, len, &s->batch) < 0)
		cg_die_at(s->d->file, line_of(s), "ruleset '%s': %s",
		    s->cur->name, cg_rs_errmsg(s->cur));
	s->trip[s->ntrip++] = (uint32_t)i;
	s->trip[s->ntrip++] = (uint32_t)j;
	s->trip[s->ntrip++] = NONE;
	return 0;
}

/* The nodes of the joint options on_joint collected: the hashes first,
 * then the slots and then the nodes fetched for all of them before any
 * is compared, so their cache misses overlap. */
static void
intern_joint(struct cg_synch *s)
{
	size_t n = s->ntrip / 3, k, j;
	uint64_t w;

	if (n == 0)
		return;
	s->koff[n] = s->batch.len;
	for (k = 0; k < n; k++) {
		s->hash[k] = key_hash(s->cur_rs, s->batch.data + s->koff[k],
		    s->koff[k + 1] - s->koff[k]);
		__builtin_prefetch(&s->slot[s->hash[k] & s->mask]);
	}
	for (k = 0; k < n; k++)
		for (j = s->hash[k] & s->mask; (w = s->slot[j]) != 0;
		    j = (j + 1) & s->mask)
			if ((uint32_t)(w >> 32) == s->hash[k]) {
				__builtin_prefetch(node(s, (uint32_t)w - 1));
				break;
			}
	for (k = 0; k < n; k++)
		s->trip[3 * k + 2] = table_intern(s, s->cur_rs,
		    s->batch.data + s->koff[k], s->koff[k + 1] - s->koff[k],
		    s->hash[k]);
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
has_move(struct cg_synch *s, struct cg_plugin *rs, enum cg_side side)
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
set_decided(struct cg_synch *s, struct snode *x, int64_t num, int64_t den,
    int canl, int canr)
{
	if (s->o.classes) {
		x->gl = !canl && !canr ? G_DRAW : canl ? G_WIN : G_LOSS;
		x->gr = !canl && !canr ? G_DRAW : canr ? G_WIN : G_LOSS;
		return;
	}
	x->v = (double)num / (double)den;
	if (!s->o.float_mode) {
		x->q = cg_xmalloc(sizeof *x->q);
		mpq_init(*x->q);
		if (den < 0) {
			num = -num;
			den = -den;
		}
		mpq_set_si(*x->q, num, (unsigned long)den);
		mpq_canonicalize(*x->q);
		if (!cg_q_fits(*x->q, s->o.max_digits)) {
			mpq_clear(*x->q);
			free(x->q);
			x->q = NULL;
		}
	}
}

/* Matrix from collected triples; dies when some pair is missing. */
static uint32_t *
matrix_from_triples(struct cg_synch *s, uint32_t *pm, uint32_t *pn,
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

static int64_t longest_chain(struct cg_synch *s, uint32_t x, int side);

/* Expand node id into a frame: joint options, or a decided value. */
static void
expand(struct cg_synch *s, struct frame *f)
{
	struct snode *x = node(s, f->id);

	f->ent = NULL;
	f->m = f->n = 0;
	f->next = 0;
	s->ntrip = 0;
	if (x->rs != DOCNODE) {
		struct cg_plugin *rs = load_pos(s, f->id);
		int64_t num = 0, den = 1;
		int canl = 0, canr = 0;

		s->cur = rs;
		s->cur_rs = x->rs;
		s->batch.len = 0;
		if (cg_rs_synch_options(rs, s->pos.data, s->pos.len, on_joint,
		    s) < 0)
			cg_die_at(s->d->file, line_of(s), "ruleset '%s': %s",
			    rs->name, cg_rs_errmsg(rs));
		intern_joint(s);
		if (s->ntrip > 0) {
			f->ent = matrix_from_triples(s, &f->m, &f->n, rs->name);
			return;
		}
		if (s->o.classes) {
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
		set_decided(s, x, num, den, canl, canr);
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
		if (!s->o.classes) {
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
			}
		set_decided(s, x, num, den, dn->nopt[CG_LEFT] > 0,
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
longest_chain(struct cg_synch *s, uint32_t x, int side)
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
combine(struct cg_synch *s, struct frame *f)
{
	struct snode *x = node(s, f->id);
	size_t k, mn = (size_t)f->m * f->n, i, j;
	int exact = !s->o.float_mode;

	if (s->o.classes) {
		uint8_t gl = G_LOSS, gr = G_LOSS, lo;

		for (i = 0; i < f->m; i++) {
			lo = G_WIN;
			for (j = 0; j < f->n; j++)
				if (node(s, f->ent[i * f->n + j])->gl < lo)
					lo = node(s, f->ent[i * f->n + j])->gl;
			if (lo > gl)
				gl = lo;
		}
		for (j = 0; j < f->n; j++) {
			lo = G_WIN;
			for (i = 0; i < f->m; i++)
				if (node(s, f->ent[i * f->n + j])->gr < lo)
					lo = node(s, f->ent[i * f->n + j])->gr;
			if (lo > gr)
				gr = lo;
		}
		x->gl = gl;
		x->gr = gr;
		return;
	}
	s->n_joint += mn;
	s->n_games++;
	for (k = 0; k < mn && exact; k++)
		if (node(s, f->ent[k])->q == NULL)
			exact = 0;
	if (exact) {
		mpq_srcptr *a = cg_xreallocarray(NULL, mn, sizeof *a);

		for (k = 0; k < mn; k++)
			a[k] = *node(s, f->ent[k])->q;
		x->q = cg_xmalloc(sizeof *x->q);
		mpq_init(*x->q);
		s->n_saddle += cg_mg_solve_q(f->m, f->n, a, *x->q, NULL, NULL);
		free(a);
		x->v = mpq_get_d(*x->q);
		if (!cg_q_fits(*x->q, s->o.max_digits)) {
			mpq_clear(*x->q);
			free(x->q);
			x->q = NULL;
			s->n_inexact++;
		}
	} else {
		double *a = cg_xreallocarray(NULL, mn, sizeof *a);

		for (k = 0; k < mn; k++)
			a[k] = node(s, f->ent[k])->v;
		x->v = cg_mg_solve_d(f->m, f->n, a, NULL, NULL);
		free(a);
	}
}

/* Solve node root with an explicit stack (games can be deep). */
static void
solve(struct cg_synch *s, uint32_t root)
{
	struct frame *f;

	if (node(s, root)->state == 2)
		return;
	s->depth = 0;
#define PUSHF(nid) do {                                                 \
		if (s->depth == s->capstack) {                          \
			s->capstack = s->capstack ? s->capstack * 2 : 64;\
			s->stack = cg_xreallocarray(s->stack, s->capstack,\
			    sizeof *s->stack);                          \
		}                                                       \
		s->stack[s->depth].id = (nid);                          \
		node(s, (nid))->state = 1;                              \
		expand(s, &s->stack[s->depth]);                         \
		s->depth++;                                             \
	} while (0)
	PUSHF(root);
	while (s->depth > 0) {
		cg_progress_tick();
		if (cg_stop)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		f = &s->stack[s->depth - 1];
		if (node(s, f->id)->state == 2) {
			free(f->ent);
			s->depth--;
			continue;
		}
		while (f->next < (size_t)f->m * f->n) {
			uint32_t c = f->ent[f->next];

			if (node(s, c)->state == 2) {
				f->next++;
				continue;
			}
			if (node(s, c)->state == 1)
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
		node(s, f->id)->state = 2;
		free(f->ent);
		f->ent = NULL;
		s->depth--;
	}
#undef PUSHF
}

static void
value_text(struct cg_synch *s, uint32_t id, struct cg_buf *out)
{
	struct snode *x = node(s, id);
	static const char *const names[3][3] = {
		/* [gl][gr] */
		{ "LRD", "RD", "R" },
		{ "LD", "D", "?" },
		{ "L", "?", "?" },
	};

	if (s->o.classes)
		cg_buf_addstr(out, names[x->gl][x->gr]);
	else if (x->q != NULL && !s->o.float_mode)
		cg_q_print(out, *x->q);
	else
		cg_d_print(out, x->v, !s->o.float_mode);
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
node_label(struct cg_synch *s, uint32_t id, struct cg_buf *out)
{
	struct snode *x = node(s, id);

	if (x->rs != DOCNODE) {
		struct cg_plugin *rs = load_pos(s, id);
		size_t start = out->len;

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
print_matrix(struct cg_synch *s, uint32_t root, uint32_t id, FILE *out)
{
	struct frame f;
	struct names nm[2];
	struct cg_buf b;
	size_t k, mn;
	int side, exact = !s->o.float_mode;

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
		struct snode save = *node(s, id);

		node(s, id)->q = NULL;
		expand(s, &f);
		if (f.ent == NULL && node(s, id)->q != NULL) {
			mpq_clear(*node(s, id)->q);
			free(node(s, id)->q);
		}
		*node(s, id) = save;
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
		struct snode *x = node(s, id);

		if (x->rs != DOCNODE) {
			struct cg_plugin *rs = load_pos(s, id);

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
	if (!s->o.classes) {
		for (k = 0; k < mn; k++)
			if (node(s, f.ent[k])->q == NULL)
				exact = 0;
		if (exact) {
			mpq_srcptr *a = cg_xreallocarray(NULL, mn, sizeof *a);
			mpq_t v, *x = cg_xreallocarray(NULL, f.m, sizeof *x);
			mpq_t *y = cg_xreallocarray(NULL, f.n, sizeof *y);

			for (k = 0; k < mn; k++)
				a[k] = *node(s, f.ent[k])->q;
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
				a[k] = node(s, f.ent[k])->v;
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

/* ---------------------------------------------------------- interface */

struct cg_synch *
cg_synch_new(const struct cg_synch_options *o, struct cg_doc *d)
{
	struct cg_synch *s = cg_xcalloc(1, sizeof *s);

	s->o = *o;
	if (s->o.max_digits == 0)
		s->o.max_digits = 60;
	s->d = d;
	s->where = NONE;
	slots_grow(s);
	s->docmap = cg_xcalloc(d->n ? d->n : 1, sizeof *s->docmap);
	cg_buf_init(&s->pos);
	cg_buf_init(&s->canon);
	cg_buf_init(&s->batch);
	return s;
}

void
cg_synch_free(struct cg_synch *s)
{
	size_t k;

	if (s == NULL)
		return;
	for (k = 0; k < s->n; k++)
		if (node(s, (uint32_t)k)->q != NULL) {
			mpq_clear(*node(s, (uint32_t)k)->q);
			free(node(s, (uint32_t)k)->q);
		}
	for (k = 0; k < s->nchunk; k++)
		free(s->chunk[k]);
	free(s->chunk);
	free(s->slot);
	free(s->arena);
	free(s->rs);
	free(s->docmap);
	free(s->chain);
	free(s->stack);
	free(s->trip);
	free(s->koff);
	free(s->hash);
	cg_buf_free(&s->batch);
	cg_buf_free(&s->pos);
	cg_buf_free(&s->canon);
	free(s);
}

void
cg_synch_root(struct cg_synch *s, uint32_t x, struct cg_buf *out)
{
	uint32_t id;

	s->where = x;
	id = doc_node(s, x);
	solve(s, id);
	value_text(s, id, out);
}

void
cg_synch_matrix(struct cg_synch *s, uint32_t x, FILE *out)
{
	uint32_t id;

	s->where = x;
	id = doc_node(s, x);
	solve(s, id);
	print_matrix(s, x, id, out);
}

size_t
cg_synch_positions(const struct cg_synch *s)
{
	return s->n;
}

void
cg_synch_stats(const struct cg_synch *s, FILE *err)
{
	size_t mem = s->nchunk * NODE_CHUNK * sizeof(struct snode) +
	    (s->mask + 1) * sizeof *s->slot + s->acap;

	fprintf(err, "%s: %zu positions, %llu joint options, %llu matrix "
	    "games (%llu saddle points in exact games), %llu values past "
	    "--max-digits, table %zu MB\n", cg_progname, s->n, s->n_joint,
	    s->n_games, s->n_saddle, s->n_inexact, mem >> 20);
}
