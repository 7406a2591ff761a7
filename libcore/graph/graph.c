/* graph.c - the position graph (see graph.h).
 *
 * Keys in the table: 'P', the ruleset's index in this graph, then the
 * canonical bytes; or 'D', the document's serial number and the node
 * index (4 bytes each).  Per vertex the table's value word is the
 * outcome solver's; parallel arrays in chunks (made on first touch, so a
 * vertex interned by one thread can be read by another at once) hold the
 * canonical form, the worker evaluating it, and the order key with its
 * flags, each apart, so an engine pays only for what it uses.  The
 * option-list cache is an arena of words: per option, its length and the
 * sorted vertices. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cgx/movecounts.h"
#include "base/bytemap.h"
#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"
#include "graph/graph.h"

#define VCHUNK_BITS 16
#define VCHUNK (1u << VCHUNK_BITS)
#define MAX_VCHUNKS (1u << (32 - VCHUNK_BITS))
#define MAX_RULESETS 255

/* Option-list places (struct cg_graph's coff): 32 bits, so the cache
 * holds fewer than 2^31 words (cg_graph_cache_limit). */
#define COFF_SEEN 1u
#define COFF_BASE 2u
#define CACHE_MAX_WORDS ((size_t)1 << 31)

#define HAS_ORDER 1u
#define HAS_COUNTS 2u   /* counts[] holds the cg.move-counts bounds */
#define NO_COUNTS 4u    /* the ruleset has none for this vertex */

struct vdata {
	int64_t order;
	uint32_t flags;
};

/* The cg.move-counts bounds of a vertex, apart: most rulesets have none,
 * and their vertices are then the smaller (a long search keeps tens of
 * millions). */
struct cdata {
	uint16_t counts[8];      /* struct cg_move_bounds: sure, safe, most,
	                          * room (ROOM_NONE: no claim) */
	uint8_t lead[2];         /* first - sure of the counts, at most 255 */
	uint8_t rlead[2];        /* cg_bounds_room_lead, at most 255 */
};

/* All options of a plugin vertex: keys first, the table after.  A walk
 * asks twice a vertex, so each worker keeps its buffers (g->kept) rather
 * than make them again each time; a call while they are busy (a thread
 * that is no worker of cg_parallel_for, a callback) makes its own. */
struct batch {
	int busy;                /* atomic */
	struct cg_graph *g;
	struct cg_plugin *rs;
	struct cg_buf keys;
	size_t *off, nkeys, capkeys;
	uint32_t *ncomp;
	size_t nopt, capopt;
	uint64_t *ids;
	unsigned char *isnew;
	size_t capids;
};

static void
batch_free(struct batch *b)
{
	cg_buf_free(&b->keys);
	free(b->off);
	free(b->ncomp);
	free(b->ids);
	free(b->isnew);
}

struct cg_graph {
	struct cg_bytemap *tab;
	void **fchunk;           /* [MAX_VCHUNKS] of uint32_t[VCHUNK]: the
	                          * canonical forms, cg_game + 1, 0 unknown
	                          * (atomic) */
	void **ochunk;           /* the same of uint16_t: the worker + 1
	                          * evaluating the vertex (atomic) */
	void **vchunk;           /* the same of struct vdata */
	void **cchunk;           /* the same of struct cdata */
	size_t nfchunk, nochunk, nvchunk, ncchunk; /* chunks made (under
	                          * lock) */
	pthread_mutex_t lock;
	struct cg_plugin *rs[MAX_RULESETS];
	unsigned nrs;
	struct cg_doc *doc;
	uint32_t doc_serial;
	int shared;
	int search_order;         /* cg_graph_search_order */
	void (*on_new)(void *, struct cg_graph *, cg_vertex);
	void *on_new_ctx;
	/* option-list cache (not when shared) */
	uint32_t *cache;
	size_t ncache, capcache, cache_limit;
	/* per vertex and side: 0 never expanded, COFF_SEEN expanded once
	 * and not kept, else its list's place in the cache + COFF_BASE */
	uint32_t (*coff)[2];
	size_t capcoff;
	/* how a sum of the last ruleset printed is joined */
	struct cg_plugin *joiner_rs;
	const char *joiner;
	/* cg_graph_all_options's buffers, one set a worker (cg_worker),
	 * kept from call to call */
	struct batch *kept;
};


/* ------------------------------------------------------------ sums */

void
cg_sum_init(struct cg_sum *s)
{
	s->v = NULL;
	s->n = s->cap = 0;
}

void
cg_sum_free(struct cg_sum *s)
{
	free(s->v);
	cg_sum_init(s);
}

void
cg_sum_add(struct cg_sum *s, cg_vertex v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = cg_xreallocarray(s->v, s->cap, sizeof *s->v);
	}
	s->v[s->n++] = v;
}

static int
cmp_vertex(const void *a, const void *b)
{
	cg_vertex x = *(const cg_vertex *)a, y = *(const cg_vertex *)b;

	return x < y ? -1 : x > y;
}

void
cg_sum_sort(struct cg_sum *s)
{
	size_t i;

	/* options are mostly one or two components, often already sorted */
	for (i = 1; i < s->n; i++)
		if (s->v[i - 1] > s->v[i])
			break;
	if (i < s->n)
		qsort(s->v, s->n, sizeof *s->v, cmp_vertex);
}

/* ------------------------------------------------------------ graph */

struct cg_graph *
cg_graph_new(void)
{
	struct cg_graph *g = cg_xcalloc(1, sizeof *g);

	g->tab = cg_bytemap_new();
	g->vchunk = cg_xcalloc(MAX_VCHUNKS, sizeof *g->vchunk);
	g->cchunk = cg_xcalloc(MAX_VCHUNKS, sizeof *g->cchunk);
	g->fchunk = cg_xcalloc(MAX_VCHUNKS, sizeof *g->fchunk);
	g->kept = cg_xcalloc(CG_MAX_JOBS, sizeof *g->kept);
	g->ochunk = cg_xcalloc(MAX_VCHUNKS, sizeof *g->ochunk);
	pthread_mutex_init(&g->lock, NULL);
	g->cache_limit = (size_t)256 << 20;
	return g;
}

void
cg_graph_free(struct cg_graph *g)
{
	size_t i, n;

	if (g == NULL)
		return;
	/* chunks are made for vertices only: the tables' tails, never
	 * touched, stay so */
	n = (cg_graph_count(g) + VCHUNK - 1) >> VCHUNK_BITS;
	for (i = 0; i < n; i++) {
		free(g->vchunk[i]);
		free(g->cchunk[i]);
		free(g->fchunk[i]);
		free(g->ochunk[i]);
	}
	free(g->vchunk);
	free(g->cchunk);
	free(g->fchunk);
	free(g->ochunk);
	cg_bytemap_free(g->tab);
	for (i = 0; i < CG_MAX_JOBS; i++)
		batch_free(&g->kept[i]);
	free(g->kept);
	pthread_mutex_destroy(&g->lock);
	free(g->cache);
	free(g->coff);
	free(g);
}

void
cg_graph_share(struct cg_graph *g, int shared)
{
	g->shared = shared;
	cg_bytemap_share(g->tab, shared);
}

void
cg_graph_cache_limit(struct cg_graph *g, size_t bytes)
{
	g->cache_limit = bytes / sizeof *g->cache;
	/* a list may start just under the limit: leave room for it */
	if (g->cache_limit > CACHE_MAX_WORDS / 2)
		g->cache_limit = CACHE_MAX_WORDS / 2;
}

void
cg_graph_use_doc(struct cg_graph *g, struct cg_doc *d)
{
	g->doc = d;
	g->doc_serial++;
}

const struct cg_doc *
cg_graph_doc(const struct cg_graph *g)
{
	return g->doc;
}

void
cg_graph_search_order(struct cg_graph *g)
{
	g->search_order = 1;
}

void
cg_graph_on_new_vertex(struct cg_graph *g,
    void (*fn)(void *, struct cg_graph *, cg_vertex), void *ctx)
{
	g->on_new = fn;
	g->on_new_ctx = ctx;
}

size_t
cg_graph_count(const struct cg_graph *g)
{
	return cg_bytemap_count(g->tab);
}

size_t
cg_graph_memory(const struct cg_graph *g)
{
	return cg_bytemap_memory(g->tab) + 4 * MAX_VCHUNKS * sizeof(void *) +
	    __atomic_load_n(&g->nfchunk, __ATOMIC_RELAXED) * VCHUNK *
	    sizeof(uint32_t) +
	    __atomic_load_n(&g->nochunk, __ATOMIC_RELAXED) * VCHUNK *
	    sizeof(uint16_t) +
	    __atomic_load_n(&g->nvchunk, __ATOMIC_RELAXED) * VCHUNK *
	    sizeof(struct vdata) +
	    __atomic_load_n(&g->ncchunk, __ATOMIC_RELAXED) * VCHUNK *
	    sizeof(struct cdata) +
	    g->capcache * sizeof *g->cache + g->capcoff * sizeof *g->coff;
}

/* Vertex v's entry of size bytes in chunks[]: its chunk is made on first
 * touch (under the lock, counted in *made), so a vertex interned by one
 * thread can be read by another at once. */
static void *
chunk_entry(struct cg_graph *g, void **chunks, size_t size, cg_vertex v,
    size_t *made)
{
	void *c = __atomic_load_n(&chunks[v >> VCHUNK_BITS], __ATOMIC_ACQUIRE);

	if (c == NULL) {
		pthread_mutex_lock(&g->lock);
		c = chunks[v >> VCHUNK_BITS];
		if (c == NULL) {
			c = cg_xcalloc(VCHUNK, size);
			__atomic_store_n(&chunks[v >> VCHUNK_BITS], c,
			    __ATOMIC_RELEASE);
			if (made != NULL)
				__atomic_add_fetch(made, 1, __ATOMIC_RELAXED);
		}
		pthread_mutex_unlock(&g->lock);
	}
	return (unsigned char *)c + (size_t)(v & (VCHUNK - 1)) * size;
}

static struct vdata *
vdata(const struct cg_graph *gc, cg_vertex v)
{
	struct cg_graph *g = (struct cg_graph *)gc;

	return chunk_entry(g, g->vchunk, sizeof(struct vdata), v,
	    &g->nvchunk);
}

/* Vertex v's canonical form word and its owner, each apart: 6 bytes a
 * vertex for canonical forms, so a walk that asks for the forms of every
 * option finds most in the cache, and one that needs nothing else
 * (cg-canon) makes no vdata. */
static uint32_t *
fdata(struct cg_graph *g, cg_vertex v)
{
	return chunk_entry(g, g->fchunk, sizeof(uint32_t), v, &g->nfchunk);
}

static uint16_t *
odata(struct cg_graph *g, cg_vertex v)
{
	return chunk_entry(g, g->ochunk, sizeof(uint16_t), v, &g->nochunk);
}

/* Vertex v's bounds, apart from its vdata. */
static struct cdata *
cdata(struct cg_graph *g, cg_vertex v)
{
	return chunk_entry(g, g->cchunk, sizeof(struct cdata), v,
	    &g->ncchunk);
}

static unsigned
rs_index(struct cg_graph *g, struct cg_plugin *rs)
{
	unsigned i;

	for (i = 0; i < g->nrs; i++)
		if (g->rs[i] == rs)
			return i;
	pthread_mutex_lock(&g->lock);
	for (i = 0; i < g->nrs; i++)
		if (g->rs[i] == rs)
			break;
	if (i == g->nrs) {
		if (g->nrs == MAX_RULESETS)
			cg_die(CG_EXIT_DATA, "more than %d rulesets in one "
			    "analysis", MAX_RULESETS);
		g->rs[i] = rs;
		__atomic_store_n(&g->nrs, i + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&g->lock);
	return i;
}

static int64_t
find_key(const struct cg_graph *g, const struct cg_buf *key)
{
	return cg_bytemap_find(g->tab, key->data, key->len);
}

static cg_vertex
intern_key(struct cg_graph *g, const struct cg_buf *key)
{
	int isnew;
	uint64_t e = cg_bytemap_intern(g->tab, key->data, key->len, &isnew);

	if (e >= UINT32_MAX - 1)
		cg_die(CG_EXIT_DATA, "too many positions");
	if (isnew && g->on_new != NULL && key->data[0] == 'P')
		g->on_new(g->on_new_ctx, g, (cg_vertex)e);
	return (cg_vertex)e;
}

/* 'P', ruleset index, canonical bytes of pos. */
static void
plugin_key(struct cg_graph *g, struct cg_plugin *rs, const unsigned char *pos,
    size_t len, int canonical, struct cg_buf *key)
{
	key->len = 0;
	cg_buf_addc(key, 'P');
	cg_buf_addc(key, (int)rs_index(g, rs));
	if (!canonical) {
		cg_buf_add(key, pos, len);
		return;
	}
	if (cg_rs_canonical(rs, pos, len, key) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
}

cg_vertex
cg_graph_vertex(struct cg_graph *g, struct cg_plugin *rs,
    const unsigned char *key, size_t len)
{
	struct cg_buf k;
	cg_vertex v;

	cg_buf_init(&k);
	plugin_key(g, rs, key, len, 0, &k);
	v = intern_key(g, &k);
	cg_buf_free(&k);
	return v;
}

int64_t
cg_graph_find(const struct cg_graph *gc, struct cg_plugin *rs,
    const unsigned char *key, size_t len)
{
	struct cg_graph *g = (struct cg_graph *)gc;
	struct cg_buf k;
	int64_t e;

	cg_buf_init(&k);
	plugin_key(g, rs, key, len, 0, &k);
	e = find_key(g, &k);
	cg_buf_free(&k);
	return e;
}

struct decomp {
	struct cg_graph *g;
	struct cg_plugin *rs;
	struct cg_sum *sum;
	struct cg_buf key;
};

static int
on_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct decomp *dc = ctx;

	(void)move;
	plugin_key(dc->g, dc->rs, pos, len, 1, &dc->key);
	cg_sum_add(dc->sum, intern_key(dc->g, &dc->key));
	return 0;
}

void
cg_graph_position(struct cg_graph *g, struct cg_plugin *rs,
    const unsigned char *pos, size_t len, struct cg_sum *sum)
{
	struct decomp dc;

	dc.g = g;
	dc.rs = rs;
	dc.sum = sum;
	cg_buf_init(&dc.key);
	if (cg_rs_decompose(rs, pos, len, on_component, &dc) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	cg_buf_free(&dc.key);
}

void
cg_graph_node(struct cg_graph *g, uint32_t x, struct cg_sum *sum)
{
	const struct cg_node *n = &g->doc->node[x];
	struct cg_buf k;

	if (!n->expanded && n->rs != NULL && n->pos != NULL) {
		cg_graph_position(g, n->rs, n->pos, n->poslen, sum);
		return;
	}
	cg_buf_init(&k);
	cg_buf_addc(&k, 'D');
	cg_buf_add(&k, &g->doc_serial, 4);
	cg_buf_add(&k, &x, 4);
	cg_sum_add(sum, intern_key(g, &k));
	cg_buf_free(&k);
}

struct cg_plugin *
cg_graph_ruleset(const struct cg_graph *g, cg_vertex v)
{
	size_t len;
	const unsigned char *k = cg_bytemap_key(g->tab, v, &len);

	return k[0] == 'P' ? g->rs[k[1]] : NULL;
}

const unsigned char *
cg_graph_key(const struct cg_graph *g, cg_vertex v, size_t *len)
{
	const unsigned char *k = cg_bytemap_key(g->tab, v, len);

	if (k[0] == 'P') {
		*len -= 2;
		return k + 2;
	}
	*len -= 1;
	return k + 1;
}

int64_t
cg_graph_doc_node(const struct cg_graph *g, cg_vertex v)
{
	size_t len;
	const unsigned char *k = cg_bytemap_key(g->tab, v, &len);
	uint32_t serial, x;

	if (k[0] != 'D')
		return -1;
	memcpy(&serial, k + 1, 4);
	memcpy(&x, k + 5, 4);
	return serial == g->doc_serial ? (int64_t)x : -1;
}

/* ------------------------------------------------------------ options */

struct optctx {
	struct cg_graph *g;
	struct cg_plugin *rs;
	cg_option_fn fn;
	void *ctx;
	struct decomp dc;
	struct cg_sum sum;
};

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct optctx *oc = ctx;

	/* a huge position must still stop within a second when asked */
	cg_progress_tick();
	if (cg_stop)
		return 1;
	oc->sum.n = 0;
	if (cg_rs_decompose(oc->rs, pos, len, on_component, &oc->dc) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", oc->rs->name,
		    cg_rs_errmsg(oc->rs));
	cg_sum_sort(&oc->sum);
	return oc->fn(oc->ctx, move, oc->sum.v, oc->sum.n);
}

int
cg_graph_expand(struct cg_graph *g, cg_vertex v, enum cg_side side, cg_option_fn fn,
    void *ctx)
{
	size_t len;
	const unsigned char *k = cg_bytemap_key(g->tab, v, &len);
	struct optctx oc;
	int r;

	if (k[0] == 'D') {
		int64_t x = cg_graph_doc_node(g, v);
		const struct cg_node *n;
		uint32_t i;
		struct cg_sum sum;

		if (x < 0)
			cg_die(CG_EXIT_DATA, "internal error: node of a "
			    "document no longer in use");
		n = &g->doc->node[x];
		cg_sum_init(&sum);
		for (i = 0; i < n->nopt[side]; i++) {
			sum.n = 0;
			cg_graph_node(g, n->opt[side][i].child, &sum);
			cg_sum_sort(&sum);
			n = &g->doc->node[x];
			if (fn(ctx, n->opt[side][i].move, sum.v, sum.n)) {
				cg_sum_free(&sum);
				return 1;
			}
		}
		cg_sum_free(&sum);
		return 0;
	}
	memset(&oc, 0, sizeof oc);
	oc.g = g;
	oc.rs = g->rs[k[1]];
	oc.fn = fn;
	oc.ctx = ctx;
	oc.dc.g = g;
	oc.dc.rs = oc.rs;
	oc.dc.sum = &oc.sum;
	cg_buf_init(&oc.dc.key);
	cg_sum_init(&oc.sum);
	r = (g->search_order ? cg_rs_search_options : cg_rs_options)(oc.rs,
	    k + 2, len - 2, side, on_option, &oc);
	cg_buf_free(&oc.dc.key);
	cg_sum_free(&oc.sum);
	if (r < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", oc.rs->name,
		    cg_rs_errmsg(oc.rs));
	return r == CG_STOP;
}

static void
cache_push(struct cg_graph *g, uint32_t w)
{
	if (g->ncache == g->capcache) {
		g->capcache = g->capcache ? 2 * g->capcache : 65536;
		g->cache = cg_xreallocarray(g->cache, g->capcache,
		    sizeof *g->cache);
	}
	g->cache[g->ncache++] = w;
}

struct collect {
	struct cg_graph *g;
	size_t count_at;
};

static int
collect_option(void *ctx, const char *move, const cg_vertex *sum, size_t n)
{
	struct collect *co = ctx;
	size_t i;

	(void)move;
	cache_push(co->g, (uint32_t)n);
	for (i = 0; i < n; i++)
		cache_push(co->g, sum[i]);
	co->g->cache[co->count_at]++;
	return 0;
}

int
cg_measured_cmp(const void *pa, const void *pb)
{
	const struct cg_measured *a = pa, *b = pb;

	if (a->measure != b->measure)
		return a->measure < b->measure ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

static int
first_option(void *ctx, const char *move, const cg_vertex *sum, size_t n)
{
	(void)ctx;
	(void)move;
	(void)sum;
	(void)n;
	return 1;
}

static int
first_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	(void)ctx;
	(void)pos;
	(void)len;
	(void)move;
	return 1;
}

/* Whether side has an option at v: from the kept list, else the ruleset's
 * first option, in its cheapest order and neither decomposed nor
 * interned (an integer test asks this of every new component). */
int
cg_graph_has_option(struct cg_graph *g, cg_vertex v, enum cg_side side)
{
	size_t len;
	const unsigned char *k = cg_bytemap_key(g->tab, v, &len);
	struct cg_plugin *rs;
	int r;

	if (k[0] != 'P')
		return cg_graph_options(g, v, side, first_option, NULL) != 0;
	if (!g->shared && v < g->capcoff && g->coff[v][side] >= COFF_BASE)
		return g->cache[g->coff[v][side] - COFF_BASE] != 0;
	rs = g->rs[k[1]];
	r = cg_rs_options(rs, k + 2, len - 2, side, first_emit, NULL);
	if (r < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	return r == CG_STOP;
}

/*
 * A vertex expanded a second time keeps its option lists (while the
 * budget lasts), so the plugin is not asked again: searches revisit
 * vertices, bottom-up evaluations do not.  Move names are not kept.
 */
int
cg_graph_options(struct cg_graph *g, cg_vertex v, enum cg_side side,
    cg_option_fn fn, void *ctx)
{
	uint64_t off;
	size_t p, j, nopt;
	struct cg_sum copy;
	int stop = 0;

	if (g->shared || g->cache_limit == 0)
		return cg_graph_expand(g, v, side, fn, ctx);
	g->coff = cg_xgrow_zero(g->coff, &g->capcoff, v, sizeof *g->coff);
	off = g->coff[v][side];
	if (off < COFF_BASE) {
		if (off == 0 || g->ncache >= g->cache_limit) {
			g->coff[v][side] = COFF_SEEN;
			return cg_graph_expand(g, v, side, fn, ctx);
		}
		{
			struct collect co = { g, g->ncache };

			cache_push(g, 0);
			if (cg_graph_expand(g, v, side, collect_option, &co) &&
			    cg_stop) {
				/* cut short by a stop: not a list to keep */
				g->ncache = co.count_at;
				return 1;
			}
			off = co.count_at + COFF_BASE;
			g->coff[v][side] = (uint32_t)off;
		}
	}
	/* the cache may grow while fn runs: replay from offsets, through a
	 * copy of each sum */
	cg_sum_init(&copy);
	p = off - COFF_BASE;
	nopt = g->cache[p++];
	for (j = 0; j < nopt && !stop; j++) {
		size_t k = g->cache[p++], i;

		copy.n = 0;
		for (i = 0; i < k; i++)
			cg_sum_add(&copy, g->cache[p + i]);
		p += k;
		stop = fn(ctx, NULL, copy.v, copy.n) != 0;
	}
	cg_sum_free(&copy);
	return stop;
}

static int
batch_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct batch *b = ctx;

	(void)move;
	if (b->nkeys + 2 > b->capkeys) {
		b->capkeys = b->capkeys ? 2 * b->capkeys : 256;
		b->off = cg_xreallocarray(b->off, b->capkeys, sizeof *b->off);
	}
	b->off[b->nkeys++] = b->keys.len;
	cg_buf_addc(&b->keys, 'P');
	cg_buf_addc(&b->keys, (int)rs_index(b->g, b->rs));
	if (cg_rs_canonical(b->rs, pos, len, &b->keys) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	b->ncomp[b->nopt - 1]++;
	return 0;
}

static int
batch_option(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct batch *b = ctx;

	(void)move;
	cg_progress_tick();
	if (cg_stop)
		return 1;
	if (b->nopt == b->capopt) {
		b->capopt = b->capopt ? 2 * b->capopt : 64;
		b->ncomp = cg_xreallocarray(b->ncomp, b->capopt,
		    sizeof *b->ncomp);
	}
	b->ncomp[b->nopt++] = 0;
	if (cg_rs_decompose(b->rs, pos, len, batch_component, b) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	return 0;
}

static int
append_option(void *ctx, const char *move, const cg_vertex *sum, size_t n)
{
	struct cg_sum *out = ctx;
	size_t i;

	(void)move;
	cg_sum_add(out, (cg_vertex)n);
	for (i = 0; i < n; i++)
		cg_sum_add(out, sum[i]);
	return 0;
}

size_t
cg_graph_all_options(struct cg_graph *g, cg_vertex v, enum cg_side side,
    struct cg_sum *out)
{
	size_t len, i, j, k, at, count;
	const unsigned char *key = cg_bytemap_key(g->tab, v, &len);
	struct batch local, *b = &local;
	int r;

	/* a walk that wants every option once has no use for the cache */
	if (key[0] != 'P') {
		size_t n0 = out->n, nopt = 0;

		cg_graph_options(g, v, side, append_option, out);
		for (at = n0; at < out->n; at += 1 + out->v[at])
			nopt++;
		return nopt;
	}
	if (!__atomic_exchange_n(&g->kept[cg_worker].busy, 1,
	    __ATOMIC_ACQUIRE))
		b = &g->kept[cg_worker];
	else
		memset(&local, 0, sizeof local);
	b->g = g;
	b->rs = g->rs[key[1]];
	b->keys.len = 0;
	b->nkeys = b->nopt = 0;
	r = cg_rs_options(b->rs, key + 2, len - 2, side, batch_option, b);
	if (r < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	if (b->nkeys == b->capkeys) {
		b->capkeys = b->nkeys + 1;
		b->off = cg_xreallocarray(b->off, b->capkeys, sizeof *b->off);
	}
	b->off[b->nkeys] = b->keys.len;
	if (b->nkeys + 1 > b->capids) {
		b->capids = b->capkeys;
		b->ids = cg_xreallocarray(b->ids, b->capids, sizeof *b->ids);
		b->isnew = cg_xrealloc(b->isnew, b->capids);
	}
	cg_bytemap_intern_batch(g->tab, b->keys.data, b->off, b->nkeys,
	    b->ids, b->isnew);
	for (i = 0, k = 0; i < b->nopt; i++) {
		size_t first = out->n;

		cg_sum_add(out, b->ncomp[i]);
		for (j = 0; j < b->ncomp[i]; j++, k++) {
			if (b->ids[k] >= UINT32_MAX - 1)
				cg_die(CG_EXIT_DATA, "too many positions");
			if (b->isnew[k] && g->on_new != NULL)
				g->on_new(g->on_new_ctx, g,
				    (cg_vertex)b->ids[k]);
			cg_sum_add(out, (cg_vertex)b->ids[k]);
		}
		{
			/* the option's vertices sorted, as everywhere */
			struct cg_sum part = { out->v + first + 1,
			    b->ncomp[i], b->ncomp[i] };

			cg_sum_sort(&part);
		}
	}
	count = b->nopt;
	if (b == &g->kept[cg_worker])
		__atomic_store_n(&b->busy, 0, __ATOMIC_RELEASE);
	else
		batch_free(b);
	return count;
}

/* ------------------------------------------------------------ values */

cg_game
cg_graph_canon(const struct cg_graph *g, cg_vertex v)
{
	uint32_t *f = __atomic_load_n(&g->fchunk[v >> VCHUNK_BITS],
	    __ATOMIC_ACQUIRE);
	uint32_t c;

	/* no chunk made: no form yet (a read makes none) */
	if (f == NULL)
		return CG_NO_GAME;
	c = __atomic_load_n(&f[v & (VCHUNK - 1)], __ATOMIC_ACQUIRE);
	return c == 0 ? CG_NO_GAME : (cg_game)(c - 1);
}

void
cg_graph_set_canon(struct cg_graph *g, cg_vertex v, cg_game value)
{
	__atomic_store_n(fdata(g, v), (uint32_t)value + 1,
	    __ATOMIC_RELEASE);
}

int
cg_graph_claim(struct cg_graph *g, cg_vertex v, unsigned worker)
{
	uint16_t none = 0;

	return __atomic_compare_exchange_n(odata(g, v), &none,
	    (uint16_t)(worker + 1), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void
cg_graph_release(struct cg_graph *g, cg_vertex v)
{
	__atomic_store_n(odata(g, v), 0, __ATOMIC_RELEASE);
}

int
cg_graph_owner(const struct cg_graph *g, cg_vertex v)
{
	uint16_t *o = __atomic_load_n(&g->ochunk[v >> VCHUNK_BITS],
	    __ATOMIC_ACQUIRE);

	/* no chunk made: nobody holds it (a read makes none) */
	if (o == NULL)
		return -1;
	return (int)__atomic_load_n(&o[v & (VCHUNK - 1)], __ATOMIC_ACQUIRE) -
	    1;
}

uint64_t *
cg_graph_word(struct cg_graph *g, cg_vertex v)
{
	return cg_bytemap_value(g->tab, v);
}

int64_t
cg_graph_order(struct cg_graph *g, cg_vertex v)
{
	struct vdata *d = vdata(g, v);
	size_t len;
	const unsigned char *k;
	int64_t key;

	if (__atomic_load_n(&d->flags, __ATOMIC_ACQUIRE) & HAS_ORDER)
		return d->order;
	k = cg_bytemap_key(g->tab, v, &len);
	if (k[0] == 'D') {
		int64_t x = cg_graph_doc_node(g, v);

		key = x < 0 ? 0 : (int64_t)g->doc->node[x].nopt[0] +
		    g->doc->node[x].nopt[1];
	} else {
		struct cg_plugin *rs = g->rs[k[1]];

		key = (int64_t)len - 2;
		if (CG_HAS_HOOK(rs, order_key) &&
		    cg_rs_order_key(rs, k + 2, len - 2, &key) < 0)
			key = (int64_t)len - 2;
	}
	d->order = key;
	__atomic_fetch_or(&d->flags, HAS_ORDER, __ATOMIC_RELEASE);
	return key;
}

/* first_sure and first_room of side s that give room lead rl (below the
 * ruleset's own when that was above 255): those the ruleset gave may not
 * be kept, only what the room test makes of them. */
static void
room_lead_set(struct cg_move_bounds *b, int s, uint64_t rl)
{
	b->first_sure[s] = b->sure[s] + (uint32_t)(rl + 1) / 2;
	b->first_room[s] = b->room[s] + (uint32_t)(rl % 2);
}

#define COUNT_SET(d, i, x) \
	__atomic_store_n(&(d)->counts[i], (uint16_t)(x), __ATOMIC_RELAXED)
#define COUNT_GET(d, i) __atomic_load_n(&(d)->counts[i], __ATOMIC_RELAXED)

int
cg_graph_counts(struct cg_graph *g, cg_vertex v, struct cg_move_bounds *b)
{
	struct vdata *d = vdata(g, v);
	struct cdata *cd;
	uint32_t fl = __atomic_load_n(&d->flags, __ATOMIC_ACQUIRE);
	const unsigned char *k;
	size_t len;
	uint64_t r;
	int i;

	if (fl & NO_COUNTS)
		return 0;
	if (!(fl & HAS_COUNTS)) {
		k = cg_bytemap_key(g->tab, v, &len);
		if (k[0] != 'P' || cg_rs_move_counts(g->rs[k[1]], k + 2,
		    len - 2, b) != CG_OK || b->most[0] > UINT16_MAX ||
		    b->most[1] > UINT16_MAX) {
			__atomic_fetch_or(&d->flags, NO_COUNTS,
			    __ATOMIC_RELEASE);
			return 0;
		}
		cd = cdata(g, v);
		for (i = 0; i < 2; i++) {
			r = cg_bounds_room_lead(b, i);
			b->room[i] = (b->flags & CG_BOUNDS_ROOM) &&
			    b->room[i] < CG_GRAPH_ROOM_NONE ? b->room[i] :
			    CG_GRAPH_ROOM_NONE;
			if (!(b->flags & CG_BOUNDS_FIRST))
				b->first[i] = b->sure[i];
			else if (b->first[i] - b->sure[i] > UINT8_MAX)
				b->first[i] = b->sure[i] + UINT8_MAX;
			__atomic_store_n(&cd->lead[i], (uint8_t)(b->first[i] -
			    b->sure[i]), __ATOMIC_RELAXED);
			r = r > UINT8_MAX ? UINT8_MAX : r;
			__atomic_store_n(&cd->rlead[i], (uint8_t)r,
			    __ATOMIC_RELAXED);
			room_lead_set(b, i, r);
		}
		b->flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST |
		    CG_BOUNDS_FIRST_ROOM;
		/* two threads may both get here: each stores the same
		 * values, atomically, so neither reads a torn one */
		COUNT_SET(cd, 0, b->sure[0]);
		COUNT_SET(cd, 1, b->sure[1]);
		COUNT_SET(cd, 2, b->safe[0]);
		COUNT_SET(cd, 3, b->safe[1]);
		COUNT_SET(cd, 4, b->most[0]);
		COUNT_SET(cd, 5, b->most[1]);
		COUNT_SET(cd, 6, b->room[0]);
		COUNT_SET(cd, 7, b->room[1]);
		__atomic_fetch_or(&d->flags, HAS_COUNTS, __ATOMIC_RELEASE);
		return 1;
	}
	cd = cdata(g, v);
	b->sure[0] = COUNT_GET(cd, 0);
	b->sure[1] = COUNT_GET(cd, 1);
	b->safe[0] = COUNT_GET(cd, 2);
	b->safe[1] = COUNT_GET(cd, 3);
	b->most[0] = COUNT_GET(cd, 4);
	b->most[1] = COUNT_GET(cd, 5);
	b->room[0] = COUNT_GET(cd, 6);
	b->room[1] = COUNT_GET(cd, 7);
	b->first[0] = b->sure[0] + __atomic_load_n(&cd->lead[0],
	    __ATOMIC_RELAXED);
	b->first[1] = b->sure[1] + __atomic_load_n(&cd->lead[1],
	    __ATOMIC_RELAXED);
	b->flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST | CG_BOUNDS_FIRST_ROOM;
	for (i = 0; i < 2; i++)
		room_lead_set(b, i, __atomic_load_n(&cd->rlead[i],
		    __ATOMIC_RELAXED));
	return 1;
}

/* ------------------------------------------------------------ text */

void
cg_graph_print(struct cg_graph *g, cg_vertex v, struct cg_buf *out)
{
	size_t len;
	const unsigned char *k = cg_bytemap_key(g->tab, v, &len);
	struct cg_plugin *rs;

	if (k[0] == 'D') {
		int64_t x = cg_graph_doc_node(g, v);

		if (x < 0)
			cg_buf_addstr(out, "?");
		else
			cg_doc_root_label(g->doc, (uint32_t)x, out);
		return;
	}
	rs = g->rs[k[1]];
	if (cg_rs_print(rs, k + 2, len - 2, out) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
}

/* Does text parse back to the sum (sorted)? */
static int
reads_back(struct cg_graph *g, struct cg_plugin *rs, const cg_vertex *sum,
    size_t n, const char *text)
{
	struct cg_buf pos;
	struct cg_sum got;
	int ok = 0;
	size_t i;

	cg_buf_init(&pos);
	cg_sum_init(&got);
	if (cg_rs_parse(rs, text, strlen(text), &pos) >= 0) {
		cg_graph_position(g, rs, pos.data, pos.len, &got);
		cg_sum_sort(&got);
		ok = got.n == n;
		for (i = 0; ok && i < n; i++)
			ok = got.v[i] == sum[i];
	}
	cg_buf_free(&pos);
	cg_sum_free(&got);
	return ok;
}

/*
 * A ruleset's notation for sums is its own ("3+4" for heaps, "xo..ox"
 * for a strip with a gap, several lines of a board...): the joiner is
 * learnt once per ruleset by printing a sum with each candidate and
 * keeping the first one the ruleset reads back as the same sum.
 */
void
cg_graph_print_sum(struct cg_graph *g, struct cg_plugin *rs,
    const cg_vertex *sum, size_t n, struct cg_buf *out)
{
	static const char *const joiners[] = { "+", "", " ", NULL };
	cg_vertex *sorted;
	size_t i;
	int j;

	if (n == 0) {
		if (rs == NULL || cg_rs_print(rs, (const unsigned char *)"", 0,
		    out) < 0)
			cg_buf_addstr(out, "0");
		return;
	}
	if (n > 1 && rs != NULL && g->joiner_rs != rs) {
		sorted = cg_xmalloc(n * sizeof *sorted);
		memcpy(sorted, sum, n * sizeof *sorted);
		qsort(sorted, n, sizeof *sorted, cmp_vertex);
		g->joiner = "+";
		for (j = 0; joiners[j] != NULL; j++) {
			struct cg_buf t;
			int ok;

			cg_buf_init(&t);
			for (i = 0; i < n; i++) {
				if (i)
					cg_buf_addstr(&t, joiners[j]);
				cg_graph_print(g, sum[i], &t);
			}
			ok = reads_back(g, rs, sorted, n, cg_buf_str(&t));
			cg_buf_free(&t);
			if (ok) {
				g->joiner = joiners[j];
				break;
			}
		}
		g->joiner_rs = rs;
		free(sorted);
	}
	for (i = 0; i < n; i++) {
		if (i)
			cg_buf_addstr(out, g->joiner ? g->joiner : "+");
		cg_graph_print(g, sum[i], out);
	}
}
