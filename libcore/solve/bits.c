/*
 * bits.c - the outcome search over the states of a ruleset's
 * cg.bit-search extension (cg/bitsearch.h): depth-first, a whole board
 * per node, no position kept anywhere but in one table of fixed-size
 * entries.  This is how special-purpose solvers (Bullock's Obsequi for
 * Domineering) spend well under a microsecond a node where the component
 * engine (outcome.c) spends ten: no graph, no decomposition, no sums
 * table, and a table that replaces its cheapest entries once it is full
 * instead of growing.  The ruleset's move counts settle states, and its
 * order puts the likely winning move first.
 *
 * The table: buckets of four entries, each the state's words and one word
 * of result: bit 0 used, bit 1 the side to move, bit 2 that side wins,
 * the rest the expansions the result took.  It doubles while the budget
 * allows; then a new result takes the place of the bucket's cheapest.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "outcome_int.h"
#include "cg/bitsearch.h"

#define BUCKET 4
#define MIN_BUCKETS ((size_t)1 << 12)
#define WORK_MAX (((uint64_t)1 << 61) - 1)

struct bits {
	struct cg_solver *s;
	struct cg_plugin *rs;
	const struct cg_bit_search *x;
	struct cg_bit_shape sh;
	size_t w;                /* words of a state */
	uint64_t *state;         /* per depth: the state */
	uint64_t *masks;         /* per depth: its options */
	uint32_t *at, *nopt;     /* per depth: the option tried, how many */
	size_t depth, maxdepth;
	uint64_t *tab;           /* nb buckets of BUCKET entries of w + 1 */
	size_t nb, used, limit;  /* limit: most buckets the budget allows */
	int sym;                 /* key the table by x->canonical */
};

static size_t
entry_words(const struct bits *b)
{
	return b->w + 1;
}

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

static uint64_t *
bucket_of(const struct bits *b, const uint64_t *tab, size_t nb,
    const uint64_t *st, int side)
{
	return (uint64_t *)tab + (hash_state(st, b->w, side) & (nb - 1)) *
	    BUCKET * entry_words(b);
}

/* 1 side to move wins, 0 it loses, -1 unknown. */
static int
tab_get(const struct bits *b, const uint64_t *st, int side)
{
	uint64_t *e = bucket_of(b, b->tab, b->nb, st, side), info;
	size_t i, ew = entry_words(b);

	for (i = 0; i < BUCKET; i++, e += ew) {
		info = e[b->w];
		if ((info & 1) && (int)(info >> 1 & 1) == side &&
		    memcmp(e, st, b->w * sizeof *st) == 0)
			return (int)(info >> 2 & 1);
	}
	return -1;
}

/* Put an entry into table tab of nb buckets; returns 1 when it took an
 * empty place, 0 when it took the place of another. */
static int
tab_place(const struct bits *b, uint64_t *tab, size_t nb, const uint64_t *st,
    uint64_t info)
{
	uint64_t *e = bucket_of(b, tab, nb, st, (int)(info >> 1 & 1)), *victim;
	size_t i, ew = entry_words(b);

	victim = e;
	for (i = 0; i < BUCKET; i++, e += ew) {
		if (!(e[b->w] & 1)) {
			victim = e;
			break;
		}
		if (e[b->w] >> 3 < victim[b->w] >> 3)
			victim = e;
	}
	i = !(victim[b->w] & 1);
	memcpy(victim, st, b->w * sizeof *st);
	victim[b->w] = info;
	return (int)i;
}

static void
tab_grow(struct bits *b)
{
	size_t nb = b->nb * 2, ew = entry_words(b), i;
	uint64_t *tab = cg_xcalloc(nb * BUCKET, ew * sizeof *tab), *e;

	for (i = 0, e = b->tab; i < b->nb * BUCKET; i++, e += ew)
		if (e[b->w] & 1)
			(void)tab_place(b, tab, nb, e, e[b->w]);
	free(b->tab);
	b->tab = tab;
	b->nb = nb;
}

static void
tab_put(struct bits *b, const uint64_t *st, int side, int win, uint64_t work)
{
	work = work > WORK_MAX ? WORK_MAX : work;
	int fresh = tab_place(b, b->tab, b->nb, st, work << 3 |
	    (uint64_t)win << 2 | (uint64_t)side << 1 | 1);

	/* a full bucket past half load: double while the budget allows */
	b->used += (size_t)fresh;
	if (!fresh && b->used > b->nb * BUCKET / 2 && b->nb < b->limit)
		tab_grow(b);
}

/* The move counts' verdict (sv_static's, for one sum): 1 the side to
 * move wins, 0 it loses, -1 not settled.  first[] is the ruleset's
 * claim only with its flag. */
static int
settle(const struct cg_move_bounds *mb, int x)
{
	int y = !x, room = (mb->flags & CG_BOUNDS_ROOM) != 0,
	    first = (mb->flags & CG_BOUNDS_FIRST) != 0;

	if (mb->sure[x] > mb->most[y] || (room && 2 * mb->sure[x] >
	    mb->room[x]) || (first && mb->first[x] > mb->most[y]))
		return 1;
	if (mb->sure[y] >= mb->most[x] || (room && 2 * mb->sure[y] + 1 >
	    mb->room[y]))
		return 0;
	return -1;
}

/* Does the side to move at depth d win?  -1 when stopped. */
static int
wins(struct bits *b, struct cg_context *cx, size_t d, int side)
{
	struct cg_solver *s = b->s;
	uint64_t *st = b->state + d * b->w, *child = st + b->w, *m,
	    start, key[CG_BIT_WORDS];
	struct cg_move_bounds mb;
	int r, n, i, win = 0;
	size_t j;

	/* the counts first: most states they settle are never stored */
	memset(&mb, 0, sizeof mb);
	b->x->bounds(cx, &b->sh, st, &mb);
	if ((r = settle(&mb, side)) >= 0)
		return r;
	if (b->sym)
		b->x->canonical(cx, &b->sh, st, key);
	else
		memcpy(key, st, b->w * sizeof *st);
	if ((r = tab_get(b, key, side)) >= 0)
		return r;
	if (STOPPED(s))
		return -1;
	if (d + 1 >= b->maxdepth)
		cg_die(1, "bit search: deeper than the board allows");
	m = b->masks + d * b->sh.max_options * b->w;
	n = b->x->options(cx, &b->sh, st, side, m);
	if (n < 0 || (uint32_t)n > b->sh.max_options)
		cg_die(1, "ruleset '%s': bit-search options failed",
		    b->rs->name);
	start = s->stats.expanded++;
	b->at[d] = 0;
	b->nopt[d] = (uint32_t)n;
	if (s->progress != NULL && s->stats.expanded >= s->next_progress) {
		s->next_progress = s->stats.expanded + s->every;
		b->depth = d;
		s->progress(s, s->progress_arg);
	}
	for (i = 0; i < n && !win; i++, m += b->w) {
		b->at[d] = (uint32_t)i;
		for (j = 0; j < b->w; j++)
			child[j] = st[j] ^ m[j];
		if ((r = wins(b, cx, d + 1, !side)) < 0)
			return -1;
		win = !r;
	}
	s->stats.solved++;
	tab_put(b, key, side, win, s->stats.expanded - start);
	return win;
}

int
bits_outcome(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	const struct cg_bit_search *x;
	const unsigned char **comp;
	struct cg_context *cx;
	struct bits b;
	size_t *len, i, cells, cap;
	uint64_t st[CG_BIT_WORDS];
	int w[2], side, r;

	if (s->rs == NULL || n == 0 || (x = cg_rs_extension(s->rs,
	    CG_EXT_BIT_SEARCH)) == NULL || x->struct_size <
	    offsetof(struct cg_bit_search, unpack) + sizeof x->unpack)
		return BITS_NONE;
	comp = cg_xmalloc(n * sizeof *comp);
	len = cg_xmalloc(n * sizeof *len);
	for (i = 0; i < n; i++)
		comp[i] = cg_graph_key(s->graph, ids[i], &len[i]);
	memset(&b, 0, sizeof b);
	cx = cg_rs_context(s->rs);
	r = x->pack(cx, comp, len, n, &b.sh, st);
	free(comp);
	free(len);
	if (r < 0 || b.sh.words == 0 || b.sh.words > CG_BIT_WORDS ||
	    b.sh.max_options == 0)
		return BITS_NONE;
	b.s = s;
	b.rs = s->rs;
	b.x = x;
	b.w = b.sh.words;
	b.sym = x->struct_size >= offsetof(struct cg_bit_search, canonical) +
	    sizeof x->canonical && x->canonical != NULL;
	cells = b.w * 64;
	b.maxdepth = cells + 2;   /* each move empties nothing back */
	b.state = cg_xcalloc(b.maxdepth, b.w * sizeof *b.state);
	b.masks = cg_xcalloc(b.maxdepth, (size_t)b.sh.max_options * b.w *
	    sizeof *b.masks);
	b.at = cg_xcalloc(b.maxdepth, sizeof *b.at);
	b.nopt = cg_xcalloc(b.maxdepth, sizeof *b.nopt);
	/* the table may double while old and new fit the budget */
	cap = s->budget != 0 ? s->budget / 3 * 2 : (size_t)1 << 40;
	b.nb = MIN_BUCKETS;
	while (b.nb * 2 * BUCKET * entry_words(&b) * 8 <= cap)
		b.nb *= 2;
	b.limit = b.nb;
	b.nb = MIN_BUCKETS;
	b.tab = cg_xcalloc(b.nb * BUCKET, entry_words(&b) * sizeof *b.tab);
	s->bits = &b;
	for (side = 0; side < 2; side++) {
		memcpy(b.state, st, b.w * sizeof *st);
		w[side] = wins(&b, cx, 0, side);
		if (w[side] < 0)
			break;
	}
	s->bits = NULL;
	free(b.state);
	free(b.masks);
	free(b.at);
	free(b.nopt);
	free(b.tab);
	if (side < 2)
		return CG_SOLVE_INTERRUPTED;
	if (w[0] && w[1])
		return 'N';
	return w[0] ? 'L' : w[1] ? 'R' : 'P';
}

void
bits_branch(const struct bits *b, struct cg_buf *out)
{
	size_t i;

	for (i = 0; i <= b->depth && i < b->maxdepth; i++)
		cg_buf_addf(out, "%s%u/%u", i ? " " : "", b->at[i] + 1,
		    b->nopt[i]);
}

size_t
bits_memory(const struct bits *b)
{
	return b->nb * BUCKET * entry_words(b) * sizeof *b->tab +
	    b->maxdepth * ((size_t)b->sh.max_options + 1) * b->w *
	    sizeof *b->state;
}
