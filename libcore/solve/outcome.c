/* outcome.c - outcome, nimber and misere search engines; see outcome.h.
 *
 * All searches share one explicit stack of frames and one arena of
 * 32-bit words holding each frame's children (records of the form
 * [order key, ...]); a frame's arena data lies above its parent's, so
 * popping a frame frees its data.  Component and sum tables are
 * hash tables (struct otab), keyed by canonical bytes (components) or by a tag byte and
 * the sorted component numbers (sums). */
#include <stdlib.h>
#include <string.h>

#include "cg/movecounts.h"
#include "cg/value.h"
#include "base/bytemap.h"
#include "base/watch.h"
#include "graph/graph.h"
#include "solve/canonical.h"
#include "solve/outcome.h"
#include "solve/outcome_int.h"
#include "solve/outcome_misere.h"
#include "values/notation.h"
#include "base/util.h"

/* Component words: see outcome_int.h. */

/* Sum values: bits per side, for normal-partizan ('N') and misere ('M')
 * tables: bit 2s = known, bit 2s+1 = the player to move wins. */
enum { K_NIM, K_COUPLE, K_SUM, K_XOR, K_S, K_GEN };

/* Misere play: the components whose misere canonical forms are made
 * (m_reduce): canonical bytes at most MFORM_BYTES long, each form within
 * MFORM_WORK expansions of the genus search.  A form costs its
 * component's whole game tree: below these bounds too few sums merge,
 * above them the forms cost more than the merging saves (tuned on misere
 * Sprouts 0*9 .. 0*12, which bench/outcome times). */
#define MFORM_BYTES 14
#define MFORM_WORK 300

struct frame {
	uint8_t kind, stage, side, misere;
	uint32_t c, n;
	uint64_t st;
	size_t base;          /* arena data of this frame */
	size_t index;         /* arena offset of the sorted child index */
	uint32_t nchild, idx, cnt;
	int64_t acc;
};


/* ------------------------------------------------------------ tables */

/* A hash table from byte strings to 64-bit values, faster than a generic
 * map for the solver's access pattern (mostly misses and hits on fresh
 * keys): each slot keeps the key's 32-bit hash next to its entry number,
 * so a probe chain is walked in one or two cache lines without touching
 * the entries.  Entries are numbered in insertion order. */
struct otab {
	uint64_t *slots;        /* hash << 32 | (entry + 1), 0 = empty */
	size_t nslots;
	uint64_t *off;          /* key offset << 24 | length (< 16 MB) */
	uint64_t *val;
	size_t n, cap;
	unsigned char *arena;
	size_t alen, acap;
};

static struct otab *
otab_new(void)
{
	struct otab *t = cg_xcalloc(1, sizeof *t);

	t->nslots = 1024;
	t->slots = cg_xcalloc(t->nslots, sizeof *t->slots);
	return t;
}

static void
otab_free(struct otab *t)
{
	if (t == NULL)
		return;
	free(t->slots);
	free(t->off);
	free(t->val);
	free(t->arena);
	free(t);
}

static inline uint32_t
otab_hash(const void *key, size_t len)
{
	uint32_t h = (uint32_t)cg_hash_bytes(key, len, 0);

	return h ? h : 1;
}

static const unsigned char *
otab_key(const struct otab *t, uint64_t e, size_t *len)
{
	*len = (size_t)(t->off[e] & 0xffffff);
	return t->arena + (t->off[e] >> 24);
}

static void
otab_grow(struct otab *t)
{
	size_t ns = t->nslots * 2, i, j;
	uint64_t *sl = cg_xcalloc(ns, sizeof *sl);

	for (i = 0; i < t->nslots; i++) {
		uint64_t v = t->slots[i];

		if (v == 0)
			continue;
		j = (size_t)(v >> 32) & (ns - 1);
		while (sl[j] != 0)
			j = (j + 1) & (ns - 1);
		sl[j] = v;
	}
	free(t->slots);
	t->slots = sl;
	t->nslots = ns;
}

static uint64_t
otab_intern(struct otab *t, const void *key, size_t len, int *isnew)
{
	uint32_t h = otab_hash(key, len);
	size_t j = h & (t->nslots - 1);
	uint64_t v, e;

	while ((v = t->slots[j]) != 0) {
		if ((uint32_t)(v >> 32) == h) {
			size_t kl;
			const unsigned char *k;

			e = (uint32_t)v - 1;
			k = otab_key(t, e, &kl);
			if (kl == len && memcmp(k, key, len) == 0) {
				*isnew = 0;
				return e;
			}
		}
		j = (j + 1) & (t->nslots - 1);
	}
	if (len >= 0xffffff || t->n >= 0xfffffffeu)
		cg_die(CG_EXIT_DATA, "position table full");
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->off = cg_xreallocarray(t->off, t->cap, sizeof *t->off);
		t->val = cg_xreallocarray(t->val, t->cap, sizeof *t->val);
	}
	if (t->alen + len > t->acap) {
		while (t->alen + len > t->acap)
			t->acap = t->acap ? 2 * t->acap : 65536;
		t->arena = cg_xrealloc(t->arena, t->acap);
	}
	memcpy(t->arena + t->alen, key, len);
	e = t->n++;
	t->off[e] = (uint64_t)t->alen << 24 | len;
	t->val[e] = 0;
	t->alen += len;
	t->slots[j] = (uint64_t)h << 32 | (e + 1);
	if (cg_watch_double(t->n, t->nslots, 2 * t->nslots * sizeof *t->slots))
		otab_grow(t);
	*isnew = 1;
	return e;
}

static int64_t
otab_find(const struct otab *t, const void *key, size_t len)
{
	uint32_t h = otab_hash(key, len);
	size_t j = h & (t->nslots - 1), kl;
	uint64_t v, e;
	const unsigned char *k;

	while ((v = t->slots[j]) != 0) {
		if ((uint32_t)(v >> 32) == h) {
			e = (uint32_t)v - 1;
			k = otab_key(t, e, &kl);
			if (kl == len && memcmp(k, key, len) == 0)
				return (int64_t)e;
		}
		j = (j + 1) & (t->nslots - 1);
	}
	return -1;
}

static size_t
otab_memory(const struct otab *t)
{
	return t->nslots * sizeof *t->slots + t->cap * 16 + t->acap;
}

uint64_t *
sv_sum_val(struct cg_solver *s, uint64_t e)
{
	return &s->sums->val[e];
}

const unsigned char *
sv_sum_key(struct cg_solver *s, uint64_t e, size_t *len)
{
	return otab_key(s->sums, e, len);
}

uint64_t
sv_sum_intern_key(struct cg_solver *s, const unsigned char *key, size_t len)
{
	int isnew;

	return otab_intern(s->sums, key, len, &isnew);
}

/* ------------------------------------------------------------ carry */

/* A sum's key by its components' bytes, sorted (a fresh graph numbers
 * them differently): tag, k, then each component's length and bytes. */
struct keyref {
	const unsigned char *p;
	size_t len;
};

static int
cmp_keyref(const void *a, const void *b)
{
	const struct keyref *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->p, y->p, x->len);
}

static const unsigned char *
carry_key(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n, size_t *len)
{
	struct keyref *r;
	size_t i;
	uint32_t l;

	if (n + 1 > s->capkeyref) {   /* kept: a lookup per new sum */
		s->capkeyref = 2 * (n + 1);
		s->keyref = cg_xreallocarray(s->keyref, s->capkeyref,
		    sizeof *s->keyref);
	}
	r = s->keyref;

	for (i = 0; i < n; i++)
		r[i].p = cg_graph_key(s->graph, ids[i], &r[i].len);
	qsort(r, n, sizeof *r, cmp_keyref);
	s->key.len = 0;
	cg_buf_addc(&s->key, tag);
	cg_buf_add(&s->key, &k, 4);
	for (i = 0; i < n; i++) {
		l = (uint32_t)r[i].len;
		cg_buf_add(&s->key, &l, 4);
		cg_buf_add(&s->key, r[i].p, r[i].len);
	}
	*len = s->key.len;
	return (const unsigned char *)s->key.data;
}

/* ------------------------------------------------------------ helpers */

static void
ar_reserve(struct cg_solver *s, size_t extra)
{
	if (s->arlen + extra > s->arcap) {
		while (s->arlen + extra > s->arcap)
			s->arcap = s->arcap ? 2 * s->arcap : 4096;
		s->ar = cg_xreallocarray(s->ar, s->arcap, sizeof *s->ar);
	}
}

static void
ar_push(struct cg_solver *s, uint32_t v)
{
	ar_reserve(s, 1);
	s->ar[s->arlen++] = v;
}

static struct frame *
push(struct cg_solver *s, int kind)
{
	struct frame *f;

	if (s->nfr == s->capfr) {
		s->capfr = s->capfr ? 2 * s->capfr : 64;
		s->fr = cg_xreallocarray(s->fr, s->capfr, sizeof *s->fr);
	}
	f = &s->fr[s->nfr++];
	memset(f, 0, sizeof *f);
	f->kind = (uint8_t)kind;
	f->base = s->arlen;
	return f;
}

static void
finish(struct cg_solver *s, int64_t v)
{
	struct frame *f = &s->fr[--s->nfr];

	s->arlen = f->base;
	s->ret = v;
	if (s->nfr > 0)
		s->fr[s->nfr - 1].stage++;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------ create */

/* A new component: look it up in the caller's databases (one lookup at a
 * time: worker threads intern components too, and the databases' code
 * is not for threads). */
static void
on_new_vertex(void *ctx, struct cg_graph *g, cg_vertex v)
{
	struct cg_solver *s = ctx;
	const unsigned char *key;
	size_t len;

	if (s->sight) {
		/* a nim value the ruleset knows on sight (cg.value) */
		cg_game x = cg_canonical_on_sight(g, v, NULL, 0);
		struct cg_dyadic num;
		int64_t up;
		uint64_t nim;

		if (x != CG_NO_GAME && cg_canon_nus_parts(x, &num, &up, &nim) &&
		    num.num == 0 && up == 0 && nim < UINT32_MAX)
			setnim(s, v, (uint32_t)nim);
	}
	if (s->carry != NULL && s->carry->n > 0 && s->impartial) {
		/* a word an earlier start of this search carried over */
		const unsigned char *ck = carry_key(s, 'C', 0, &v, 1, &len);
		int64_t e = otab_find(s->carry, ck, len);

		if (e >= 0 && !(cword(s, v) & NIM_KNOWN))
			__atomic_store_n(cval(s, v), s->carry->val[e] |
			    ((s->carry->val[e] & NIM_KNOWN) ? 0 : cword(s, v)),
			    __ATOMIC_RELAXED);
	}
	if (s->lookup == NULL || s->doc != NULL)
		return;
	key = cg_graph_key(g, v, &len);
	pthread_mutex_lock(&s->lookup_lock);
	s->lookup(s->lookup_ctx, s, v, key, len);
	pthread_mutex_unlock(&s->lookup_lock);
}

static struct cg_solver *
solver_alloc(void)
{
	struct cg_solver *s = cg_xcalloc(1, sizeof *s);

	s->graph = cg_graph_new();
	s->own_graph = 1;
	cg_graph_search_order(s->graph);
	cg_graph_on_new_vertex(s->graph, on_new_vertex, s);
	s->sums = otab_new();
	cg_buf_init(&s->key);
	cg_buf_init(&s->skey);
	s->mt = cg_mtab_new();
	s->jobs = 1;
	s->mform_bytes = MFORM_BYTES;
	s->mform_work = MFORM_WORK;
	pthread_mutex_init(&s->lookup_lock, NULL);
	return s;
}

struct cg_solver *
sv_worker(struct cg_solver *parent)
{
	struct cg_solver *s = cg_xcalloc(1, sizeof *s);

	s->rs = parent->rs;
	s->doc = parent->doc;
	s->impartial = parent->impartial;
	s->counts = parent->counts;
	s->sight = parent->sight;
	s->psight = parent->psight;
	s->graph = parent->graph;
	s->sums = otab_new();
	cg_buf_init(&s->key);
	cg_buf_init(&s->skey);
	s->mt = cg_mtab_new();
	s->interrupt = parent->interrupt;
	s->search = parent->search;
	s->jobs = 1;
	s->parent = parent;
	pthread_mutex_init(&s->lookup_lock, NULL);
	return s;
}

struct cg_solver *
cg_solver_new(struct cg_plugin *rs)
{
	struct cg_solver *s = solver_alloc();

	s->rs = rs;
	s->impartial = rs->impartial;
	s->counts = !s->impartial &&
	    cg_rs_extension(rs, CG_EXT_MOVE_COUNTS) != NULL;
	s->sight = s->impartial && cg_rs_extension(rs, CG_EXT_VALUE) != NULL;
	s->psight = !s->impartial && cg_rs_extension(rs, CG_EXT_VALUE) != NULL;
	return s;
}

static int
same_options(const struct cg_node *n)
{
	uint32_t *a, *b, i;
	int same = 1;

	if (n->nopt[0] != n->nopt[1])
		return 0;
	a = cg_xcalloc(n->nopt[0] + 1, sizeof *a);
	b = cg_xcalloc(n->nopt[0] + 1, sizeof *b);
	for (i = 0; i < n->nopt[0]; i++) {
		a[i] = n->opt[0][i].child;
		b[i] = n->opt[1][i].child;
	}
	qsort(a, n->nopt[0], sizeof *a, cmp_u32);
	qsort(b, n->nopt[0], sizeof *b, cmp_u32);
	for (i = 0; i < n->nopt[0]; i++)
		if (a[i] != b[i])
			same = 0;
	free(a);
	free(b);
	return same;
}

struct cg_solver *
cg_solver_new_doc(struct cg_doc *d)
{
	struct cg_solver *s = solver_alloc();
	uint32_t i;

	s->doc = d;
	cg_graph_use_doc(s->graph, d);
	s->impartial = 1;
	for (i = 0; i < d->n && s->impartial; i++) {
		const struct cg_node *n = &d->node[i];

		if (!n->expanded && n->rs != NULL && n->pos != NULL) {
			if (!n->rs->impartial)
				s->impartial = 0;
		} else if (!same_options(n)) {
			s->impartial = 0;
		}
	}
	return s;
}

void
cg_solver_free(struct cg_solver *s)
{
	if (s == NULL)
		return;
	pns_free(s);
	bits_store_free(s);
	free(s->bits_ckpt);
	if (s->own_graph)
		cg_graph_free(s->graph);
	otab_free(s->sums);
	if (!s->scratch)
		otab_free(s->carry);
	cg_mtab_free(s->mt);
	free(s->keyref);
	free(s->fr);
	free(s->ar);
	cg_buf_free(&s->key);
	cg_buf_free(&s->skey);
	free(s->ids2);
	free(s->offs);
	free(s->mloss);
	free(s->ival);
	free(s->noform);
	free(s->sighted);
	free(s->mform);
	free(s->mheight);
	free(s->mrep);
	pthread_mutex_destroy(&s->lookup_lock);
	free(s);
}

static const char *const search_names[] = {
	"auto", "dfs", "pns", "dfpn", "pn2", "bits"
};

const char *
cg_search_name(enum cg_search k)
{
	return search_names[k];
}

int
cg_search_parse(const char *name, enum cg_search *k)
{
	size_t i;

	for (i = 0; i < sizeof search_names / sizeof search_names[0]; i++)
		if (strcmp(name, search_names[i]) == 0) {
			*k = (enum cg_search)i;
			return 0;
		}
	return -1;
}

void
cg_solver_set_search(struct cg_solver *s, enum cg_search k)
{
	s->search = k;
}

void
cg_solver_set_jobs(struct cg_solver *s, unsigned jobs)
{
	s->jobs = jobs ? jobs : 1;
}

struct cg_plugin *
cg_solver_plugin(struct cg_solver *s)
{
	return s->rs;
}

int
cg_solver_impartial(struct cg_solver *s)
{
	return s->impartial;
}

struct cg_graph *
cg_solver_graph(struct cg_solver *s)
{
	return s->graph;
}

size_t
cg_solver_components(struct cg_solver *s, const unsigned char *pos,
    size_t len, uint32_t **out)
{
	struct cg_sum sum;

	cg_sum_init(&sum);
	cg_graph_position(s->graph, s->rs, pos, len, &sum);
	cg_sum_sort(&sum);
	cg_sum_add(&sum, 0);   /* never a NULL array */
	*out = sum.v;
	return sum.n - 1;
}

size_t
cg_solver_node(struct cg_solver *s, uint32_t x, uint32_t **out)
{
	struct cg_sum sum;

	cg_sum_init(&sum);
	cg_graph_node(s->graph, x, &sum);
	cg_sum_sort(&sum);
	cg_sum_add(&sum, 0);
	*out = sum.v;
	return sum.n - 1;
}

void
cg_solver_set_interrupt(struct cg_solver *s, volatile sig_atomic_t *flag)
{
	s->interrupt = flag;
}

void
cg_solver_set_progress(struct cg_solver *s,
    void (*fn)(struct cg_solver *, void *), void *arg, uint64_t every)
{
	s->progress = fn;
	s->progress_arg = arg;
	s->every = every ? every : 1;
	s->next_progress = s->stats.expanded + s->every;
}

void
cg_solver_set_lookup(struct cg_solver *s,
    void (*fn)(void *, struct cg_solver *, uint32_t, const unsigned char *,
    size_t), void *ctx)
{
	s->lookup = fn;
	s->lookup_ctx = ctx;
}

void
cg_solver_set_guide(struct cg_solver *s,
    int64_t (*fn)(void *, struct cg_solver *, uint32_t), void *ctx)
{
	s->guide = fn;
	s->guide_ctx = ctx;
}

const struct cg_solver_stats *
cg_solver_stats(struct cg_solver *s)
{
	if (s->live == NULL)
		return &s->stats;
	s->view.expanded = s->stats.expanded + s->live->stats.expanded;
	s->view.solved = s->stats.solved + s->live->stats.solved;
	s->view.formed = s->stats.formed + s->live->stats.formed;
	s->view.mreduced = s->stats.mreduced + s->live->stats.mreduced;
	s->view.sighted = s->stats.sighted + s->live->stats.sighted;
	return &s->view;
}

size_t
cg_solver_memory(struct cg_solver *s)
{
	return (s->own_graph ? cg_graph_memory(s->graph) : 0) +
	    (s->live != NULL ? cg_solver_memory(s->live) : 0) +
	    (s->carry != NULL && !s->scratch ? otab_memory(s->carry) : 0) +
	    otab_memory(s->sums) + cg_mtab_memory(s->mt) +
	    s->arcap * sizeof *s->ar + s->capfr * sizeof *s->fr +
	    s->capmform * 2 * sizeof *s->mform +
	    s->capmrep * sizeof *s->mrep + pns_memory(s) +
	    (s->bits != NULL ? bits_memory(s->bits) : 0);
}

size_t
cg_solver_bits_peak(struct cg_solver *s)
{
	return s->bits_peak;
}

size_t
cg_solver_bits_loaded(struct cg_solver *s)
{
	return s->bits_loaded;
}

void
cg_solver_set_checkpoint(struct cg_solver *s, const char *path)
{
	free(s->bits_ckpt);
	s->bits_ckpt = path != NULL ? cg_xstrdup(path) : NULL;
}

void
cg_solver_set_checkpoint_size(struct cg_solver *s, uint64_t bytes)
{
	s->bits_ckpt_size = bytes;
}

size_t
cg_solver_ncomponents(struct cg_solver *s)
{
	if (s->live != NULL)
		return cg_graph_count(s->live->graph);
	return cg_graph_count(s->graph);
}

const unsigned char *
cg_solver_key(struct cg_solver *s, uint32_t c, size_t *len)
{
	return cg_graph_key(s->graph, c, len);
}

int64_t
cg_solver_known_nimber(struct cg_solver *s, uint32_t c)
{
	return known(s, c);
}

int
cg_solver_set_nimber(struct cg_solver *s, uint32_t c, uint32_t v)
{
	int64_t k = known(s, c);

	if (k >= 0)
		return k == v ? 0 : -1;
	if (winbit(s, c, v))
		return -1;
	setnim(s, c, v);
	return 0;
}

void
cg_solver_branch(struct cg_solver *s, struct cg_buf *out)
{
	size_t i;
	int first = 1;

	if (s->live != NULL) {
		cg_solver_branch(s->live, out);
		return;
	}
	if (s->bits != NULL) {
		bits_branch(s->bits, out);
		return;
	}
	if (s->pns != NULL && s->nfr == 0) {
		pns_branch(s, out);
		return;
	}
	for (i = 0; i < s->nfr; i++) {
		const struct frame *f = &s->fr[i];

		if ((f->kind != K_COUPLE && f->kind != K_S) || f->stage == 0)
			continue;
		cg_buf_addf(out, "%s%u/%u", first ? "" : " ", f->idx + 1,
		    f->nchild);
		first = 0;
	}
}

/* ------------------------------------------------------- child index */

static int
cmp_rec(const void *a, const void *b, void *arg)
{
	const uint32_t *ar = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t kx = ar[x], ky = ar[y];

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Build the sorted index of the records at ar[base..arlen) whose offsets
 * (absolute) are in offs[0..n). */
static void
make_index(struct cg_solver *s, struct frame *f, const uint32_t *offs,
    uint32_t n)
{
	size_t i;

	f->index = s->arlen;
	ar_reserve(s, n);
	for (i = 0; i < n; i++)
		s->ar[s->arlen++] = offs[i];
	if (n > 1)   /* s->ar may still be NULL when n == 0 */
		qsort_r(s->ar + f->index, n, sizeof *s->ar, cmp_rec, s->ar);
	f->nchild = n;
	f->idx = 0;
}

/* Offsets of the child records of the expansion in progress (one
 * buffer per solver: several solvers may run in several threads). */
#define offbuf (s->offs)
#define noffbuf (s->noffs)

static void
off_add(struct cg_solver *s, uint32_t o)
{
	if (s->noffs == s->capoffs) {
		s->capoffs = s->capoffs ? 2 * s->capoffs : 256;
		s->offs = cg_xreallocarray(s->offs, s->capoffs,
		    sizeof *s->offs);
	}
	s->offs[s->noffs++] = o;
}

/* Order keys in 32 bits, order kept: below 2^26 as they are, above as a
 * floating-point-like code (exponent, then the 26 bits after the leading
 * one), so that composite keys such as (lives << 40 | ...) still sort by
 * their leading fields. */
uint32_t
sv_clamp_key(int64_t k)
{
	int e;

	if (k <= 0)
		return 0;
	if (k < ((int64_t)1 << 26))
		return (uint32_t)k;
	e = 63 - __builtin_clzll((unsigned long long)k);
	return (uint32_t)(e - 25) << 26 |
	    (uint32_t)((k >> (e - 26)) & (((int64_t)1 << 26) - 1));
}

/* ------------------------------------------------ impartial: couples */

struct cctx {
	struct cg_solver *s;
	uint32_t n;
	int cut;
	size_t first;   /* offbuf start for this expansion */
};

static int
guide_loss(struct cg_solver *s, const uint32_t *u, size_t nu, uint32_t n)
{
	size_t i;
	int64_t g;

	if (s->guide == NULL)
		return 0;
	for (i = 0; i < nu; i++) {
		g = s->guide(s->guide_ctx, s, u[i]);
		if (g < 0)
			return 0;
		n ^= (uint32_t)g;
	}
	return n == 0;
}

static int
couple_child(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct cctx *cc = ctx;
	struct cg_solver *s = cc->s;
	uint32_t n = cc->n, nu = 0, rec;
	size_t i;
	int64_t key = 0, v;

	(void)move;
	rec = (uint32_t)s->arlen;
	ar_reserve(s, 3 + k);
	s->arlen += 3;
	for (i = 0; i < k; i++) {
		v = known(s, ids[i]);
		if (v >= 0) {
			n ^= (uint32_t)v;
		} else {
			s->ar[s->arlen++] = ids[i];
			nu++;
			key += okey(s, ids[i]);
		}
	}
	if (nu == 0 || (nu == 1 && winbit(s, s->ar[rec + 3], n))) {
		s->arlen = rec;
		if (nu == 0 && n == 0) {
			cc->cut = 1;
			return 1;
		}
		return 0;
	}
	if (guide_loss(s, s->ar + rec + 3, nu, n))
		key = 0;
	else
		key = 2 * key + 2;
	s->ar[rec] = sv_clamp_key(key);
	s->ar[rec + 1] = n;
	s->ar[rec + 2] = nu;
	off_add(s, rec);
	return 0;
}

static void
push_couple(struct cg_solver *s, uint32_t c, uint32_t n)
{
	struct frame *f = push(s, K_COUPLE);

	f->c = c;
	f->n = n;
	f->acc = (int64_t)s->stats.expanded;   /* for the carry */
}

static void
push_nim(struct cg_solver *s, uint32_t c)
{
	struct frame *f = push(s, K_NIM);

	f->c = c;
}

/* A SUM frame for comps[0..k) + *n (comps copied into the arena); comps
 * given either as a pointer outside the arena or as an arena offset. */
static void
push_sum_at(struct cg_solver *s, const uint32_t *comps, size_t off,
    uint32_t k, uint32_t n)
{
	struct frame *f;
	size_t i;

	ar_reserve(s, k);
	if (comps == NULL)
		comps = s->ar + off;
	f = push(s, K_SUM);
	f->n = n;
	f->cnt = k;
	for (i = 0; i < k; i++)
		s->ar[s->arlen++] = comps[i];
}

static void
push_sum(struct cg_solver *s, const uint32_t *comps, uint32_t k, uint32_t n)
{
	push_sum_at(s, comps, 0, k, n);
}

/* Component c's word after a couple search: G + *n is a win (win), or
 * c's nim value is n; a word whose search took at least carry_min
 * expansions is also carried over to later starts of a bounded search,
 * keyed by c's bytes. */
static void
couple_done(struct cg_solver *s, struct frame *f, int win)
{
	uint32_t c = f->c, n = f->n;

	if (win)
		setwin(s, c, n);
	else
		setnim(s, c, n);
	if (s->carry != NULL && !STOPPED(s) &&
	    s->stats.expanded - (uint64_t)f->acc >= s->carry_min &&
	    (!win || n < WINBITS)) {
		size_t len;
		const unsigned char *key = carry_key(s, 'C', 0, &c, 1, &len);
		int isnew;
		uint64_t e = otab_intern(s->carry, key, len, &isnew);
		uint64_t *w = &s->carry->val[e];

		if (!win)
			*w = NIM_KNOWN | n;
		else if (!(*w & NIM_KNOWN))
			*w |= (uint64_t)1 << n;
	}
	finish(s, win);
}

static void
step_couple(struct cg_solver *s, struct frame *f)
{
	int64_t v;

	switch (f->stage) {
	case 0: {
		struct cctx cc;
		uint32_t i, c = f->c, n = f->n;
		size_t off0;

		v = known(s, c);
		if (v >= 0) {
			finish(s, v != n);
			return;
		}
		if (winbit(s, c, n)) {
			finish(s, 1);
			return;
		}
		tick(s);
		cc.s = s;
		cc.n = n;
		cc.cut = 0;
		off0 = noffbuf;
		comp_options(s, c, CG_LEFT, couple_child, &cc);
		f = &s->fr[s->nfr - 1];
		if (!cc.cut) {
			for (i = 0; i < n; i++) {
				uint32_t rec;

				if (winbit(s, c, i))
					continue;
				rec = (uint32_t)s->arlen;
				ar_reserve(s, 4);
				s->ar[s->arlen++] = guide_loss(s, &c, 1, i) ? 0 :
				    sv_clamp_key(2 * okey(s, c) + 3);
				s->ar[s->arlen++] = i;
				s->ar[s->arlen++] = 1;
				s->ar[s->arlen++] = c;
				off_add(s, rec);
			}
		}
		if (cc.cut) {
			noffbuf = off0;
			couple_done(s, f, 1);
			return;
		}
		if (noffbuf == off0) {
			couple_done(s, f, 0);
			return;
		}
		make_index(s, f, offbuf + off0, (uint32_t)(noffbuf - off0));
		noffbuf = off0;
		f->stage = 1;
	}
	/* fall through */
	case 1:
		if (f->idx == f->nchild) {
			couple_done(s, f, 0);
			return;
		}
		{
			uint32_t rec = s->ar[f->index + f->idx];

			/* the SUM frame reads the record before it grows */
			push_sum_at(s, NULL, rec + 3, s->ar[rec + 2],
			    s->ar[rec + 1]);
		}
		return;
	case 2:
		if (s->ret == 0) {
			couple_done(s, f, 1);
			return;
		}
		f->idx++;
		f->stage = 1;
		step_couple(s, f);
		return;
	}
}

static void
step_sum(struct cg_solver *s, struct frame *f)
{
	uint32_t *a, k, j, keep, i;
	int64_t v;

	/* stage 0 first visit, 1 after a NIM child: fold, then act */
	a = s->ar + f->base;
	k = 0;
	for (i = 0; i < f->cnt; i++) {
		v = known(s, a[i]);
		if (v >= 0)
			f->n ^= (uint32_t)v;
		else
			a[k++] = a[i];
	}
	f->cnt = k;
	s->arlen = f->base + k;
	if (k == 0) {
		finish(s, f->n != 0);
		return;
	}
	if (k == 1) {
		uint32_t c = a[0], n = f->n;

		s->arlen = f->base;
		f->kind = K_COUPLE;
		f->stage = 0;
		f->c = c;
		f->n = n;
		f->acc = (int64_t)s->stats.expanded;
		return;
	}
	/* keep the largest for the couple search; solve the others */
	keep = 0;
	for (j = 1; j < k; j++)
		if (okey(s, a[j]) >= okey(s, a[keep]))
			keep = j;
	j = keep == 0 ? 1 : 0;
	f->stage = 0;
	push_nim(s, a[j]);
	/* finish() of the NIM child bumps our stage to 1; treat as 0 */
}

static void
step_nim(struct cg_solver *s, struct frame *f)
{
	int64_t v;

	if (f->stage == 1) {
		if (s->ret == 0) {
			finish(s, f->n);
			return;
		}
		f->n++;
		f->stage = 0;
	}
	v = known(s, f->c);
	if (v >= 0) {
		finish(s, v);
		return;
	}
	while (winbit(s, f->c, f->n))
		f->n++;
	{
		uint32_t c = f->c, n = f->n;

		push_couple(s, c, n);
	}
}

static void
step_xor(struct cg_solver *s, struct frame *f)
{
	int64_t v;

	if (f->stage == 1) {
		f->acc ^= s->ret;
		f->idx++;
		f->stage = 0;
	}
	while (f->idx < f->cnt) {
		uint32_t c = s->ar[f->base + f->idx];

		v = known(s, c);
		if (v < 0) {
			push_nim(s, c);
			return;
		}
		f->acc ^= v;
		f->idx++;
	}
	finish(s, f->acc);
}

/* ------------------------------------------------- sums: any game */

/* Sum keys: a tag byte, for normal partizan sums ('N') the integer part
 * k (4 bytes: Left-only and Right-only components are integers, folded
 * together), then the sorted component numbers; into s->skey. */
static void
sum_key(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n)
{
	s->skey.len = 0;
	cg_buf_addc(&s->skey, tag);
	if (tag == 'N')
		cg_buf_add(&s->skey, &k, 4);
	cg_buf_add(&s->skey, ids, n * sizeof *ids);
}

/* The sum entry, made without looking in the carried results. */
static uint64_t
sum_intern_here(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n, int *isnew)
{
	int dummy;

	sum_key(s, tag, k, ids, n);
	return otab_intern(s->sums, s->skey.data, s->skey.len,
	    isnew ? isnew : &dummy);
}

uint64_t
sv_sum_intern_k(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n, int *isnew)
{
	int dummy = 0;
	uint64_t e;

	e = sum_intern_here(s, tag, k, ids, n, isnew ? isnew : &dummy);
	if (s->carry != NULL && s->carry->n > 0 && tag == 'N' &&
	    *(isnew ? isnew : &dummy)) {
		/* a result an earlier start of this search carried over */
		size_t len;
		const unsigned char *key = carry_key(s, tag, k, ids, n, &len);
		int64_t c = otab_find(s->carry, key, len);

		if (c >= 0)
			s->sums->val[e] |= s->carry->val[c];
	}
	return e;
}

static uint64_t
sum_intern(struct cg_solver *s, int tag, const uint32_t *ids, size_t n,
    int *isnew)
{
	return sv_sum_intern_k(s, tag, 0, ids, n, isnew);
}

/* Components of sum entry e into s->ids2 (copied); *k its integer part. */
static size_t
sum_ids_k(struct cg_solver *s, uint64_t e, int32_t *k)
{
	size_t len, n, hdr = 1;
	const unsigned char *key = otab_key(s->sums, e, &len);

	*k = 0;
	if (key[0] == 'N') {
		memcpy(k, key + 1, 4);
		hdr = 5;
	}
	n = (len - hdr) / 4;
	if (n + 1 > s->capids2) {
		s->capids2 = 2 * (n + 1);
		s->ids2 = cg_xreallocarray(s->ids2, s->capids2,
		    sizeof *s->ids2);
	}
	memcpy(s->ids2, key + hdr, n * 4);
	return n;
}

static size_t
sum_ids(struct cg_solver *s, uint64_t e)
{
	int32_t k;

	return sum_ids_k(s, e, &k);
}

/* ------------------------------------------- integers (normal play) */

#define INT_UNKNOWN INT32_MIN
#define INT_NOT     (INT32_MIN + 1)
#define INT_MAXDEPTH 20000

struct ilist {
	uint32_t *v;
	size_t n, cap;
};

static int
ilist_option(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct ilist *l = ctx;
	size_t i;

	(void)move;
	if (l->n + k + 1 > l->cap) {
		l->cap = 2 * (l->n + k + 1);
		l->v = cg_xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = (uint32_t)k;
	for (i = 0; i < k; i++)
		l->v[l->n++] = ids[i];
	return 0;
}

/* Can both players move in c?  Sure moves promise an option
 * (cg/movecounts.h) and are kept per vertex; else ask for a first one. */
static int
both_move(struct cg_solver *s, uint32_t c)
{
	struct cg_move_bounds b;

	if (s->counts && cg_graph_counts(s->graph, c, &b) && b.sure[0] > 0 &&
	    b.sure[1] > 0)
		return 1;
	return cg_graph_has_option(s->graph, c, CG_LEFT) &&
	    cg_graph_has_option(s->graph, c, CG_RIGHT);
}

struct sight {
	const char *text;
	size_t len;
	cg_game g;
};

static void
sight_parse(void *arg)
{
	struct sight *a = arg;
	char msg[256];
	size_t col;

	if (cg_canon_parse(a->text, a->len, &a->g, msg, sizeof msg, &col) < 0)
		a->g = CG_NO_GAME;
}

/* The value the ruleset of component c gives on sight (cg.value), or
 * CG_NO_GAME when it gives none or one the canonical store cannot hold
 * (numbers past 64 bits, ups or nimbers past its range, games too deep):
 * such a component is searched as any other, never an error. */
static cg_game
sight_value(struct cg_solver *s, uint32_t c)
{
	struct cg_plugin *rs = cg_graph_ruleset(s->graph, c);
	const struct cg_value_ext *x;
	const unsigned char *key;
	struct cg_buf text;
	struct sight a = { NULL, 0, CG_NO_GAME };
	char msg[256];
	size_t len;

	if (rs == NULL || (x = cg_rs_extension(rs, CG_EXT_VALUE)) == NULL ||
	    x->struct_size < sizeof *x || x->value == NULL)
		return CG_NO_GAME;
	key = cg_graph_key(s->graph, c, &len);
	cg_buf_init(&text);
	if (x->value(cg_rs_context(rs), key, len, &text) == CG_OK) {
		a.text = (const char *)text.data;
		a.len = text.len;
		if (cg_canon_catch(sight_parse, &a, msg, sizeof msg) < 0)
			a.g = CG_NO_GAME;
	}
	cg_buf_free(&text);
	return a.g;
}

/* Component c's canonical form when the graph has it, or when the
 * ruleset gives it on sight (psight: asked once per component, the answer
 * kept in the graph); else CG_NO_GAME.  A game literal so costs one
 * reading of its text, where expanding it would read the text of every
 * subgame on a path, the whole literal over again at each level. */
static cg_game
known_form(struct cg_solver *s, uint32_t c)
{
	cg_game f = cg_graph_canon(s->graph, c);

	if (f != CG_NO_GAME || !s->psight)
		return f;
	s->sighted = cg_xgrow_zero(s->sighted, &s->capsighted, c, 1);
	if (s->sighted[c])
		return CG_NO_GAME;
	s->sighted[c] = 1;
	if ((f = sight_value(s, c)) != CG_NO_GAME) {
		cg_graph_set_canon(s->graph, c, f);
		s->stats.sighted++;
	}
	return f;
}

/* Component c's value when it is an integer: a game where only Left (or
 * only Right) ever has moves equals the length of the longest sequence of
 * that player's moves (positive for Left).  INT_NOT otherwise.  Only used
 * by normal-play partizan searches, between enumerations. */
static int32_t
comp_int(struct cg_solver *s, uint32_t c, int depth)
{
	struct ilist l[2];
	int32_t r = INT_NOT;
	int side;
	size_t p;
	cg_game f;

	if (c >= s->capival) {
		size_t old = s->capival, i;

		s->capival = c + 1 > 2 * old ? c + 1 : 2 * old;
		s->ival = cg_xreallocarray(s->ival, s->capival,
		    sizeof *s->ival);
		for (i = old; i < s->capival; i++)
			s->ival[i] = INT_UNKNOWN;
	}
	if (s->ival[c] != INT_UNKNOWN)
		return s->ival[c];
	if (s->psight && (f = known_form(s, c)) != CG_NO_GAME) {
		struct cg_dyadic num;
		int64_t up;
		uint64_t nim;

		r = INT_NOT;
		if (cg_canon_nus_parts(f, &num, &up, &nim) && num.exp == 0 &&
		    up == 0 && nim == 0 && num.num < INT32_MAX / 4 &&
		    num.num > -(INT32_MAX / 4))
			r = (int32_t)num.num;
		s->ival[c] = r;
		return r;
	}
	if (depth > INT_MAXDEPTH)
		return INT_NOT;
	/* both players can move: not an integer (the common case, settled
	 * by sure moves of both, or the first option of each side) */
	if (both_move(s, c)) {
		s->ival[c] = INT_NOT;
		return INT_NOT;
	}
	memset(l, 0, sizeof l);
	comp_options(s, c, CG_LEFT, ilist_option, &l[0]);
	comp_options(s, c, CG_RIGHT, ilist_option, &l[1]);
	if (l[0].n == 0 && l[1].n == 0) {
		r = 0;
	} else if (l[0].n == 0 || l[1].n == 0) {
		int64_t best = 0;

		side = l[0].n ? CG_LEFT : CG_RIGHT;
		r = 0;
		for (p = 0; p < l[side].n && r != INT_NOT;) {
			size_t k = l[side].v[p++], i;
			int64_t sum = 0;

			for (i = 0; i < k; i++, p++) {
				int32_t v = comp_int(s, l[side].v[p],
				    depth + 1);

				if (v == INT_NOT || (side == CG_LEFT ? v < 0 :
				    v > 0)) {
					r = INT_NOT;
					break;
				}
				sum += side == CG_LEFT ? v : -v;
			}
			if (sum > best)
				best = sum;
		}
		if (r != INT_NOT) {
			if (best + 1 > INT32_MAX / 4)
				r = INT_NOT;
			else
				r = (int32_t)(side == CG_LEFT ? best + 1 :
				    -(best + 1));
		}
	}
	free(l[0].v);
	free(l[1].v);
	s->ival[c] = r;
	return r;
}

/* Fold the integer components of comps[0..*n) into *k (normal partizan). */
void
sv_fold_ints(struct cg_solver *s, uint32_t *comps, size_t *n, int32_t *k)
{
	size_t i, m = 0;
	int64_t acc = *k;

	for (i = 0; i < *n; i++) {
		int32_t v = comp_int(s, comps[i], 0);

		if (v == INT_NOT || acc + v > INT32_MAX / 2 ||
		    acc + v < -(INT32_MAX / 2))
			comps[m++] = comps[i];
		else
			acc += v;
	}
	*n = m;
	*k = (int32_t)acc;
}

/* A component's canonical form is made for the search (sv_forms) once
 * it has been met in FORM_SEEN sums (most components the search meets
 * it meets only once, and a form costs a whole game tree), when
 * its most moves, both players', are at most FORM_MOST (rulesets with
 * move counts: a Domineering region of 16 squares or so) and it takes
 * at most FORM_WORK components evaluated; past that it is marked and
 * not tried again (the forms made on the way stay in the graph).  Tuned
 * on random sums of Domineering rectangles and random Domineering and
 * Clobber boards (bench/domineering-sums): smaller bounds settle too
 * few sums, larger ones make forms that cost more than the sums they
 * settle. */
#define FORM_SEEN 4
#define FORM_MOST 16
#define FORM_WORK 20000
#define NOFORM 255

/* The canonical form of component c for sv_forms, or CG_NO_GAME when it
 * is too large, or not yet met often enough (or the search was
 * stopped). */
static cg_game
comp_form(struct cg_solver *s, uint32_t c)
{
	struct cg_move_bounds b;
	struct cg_canon_eval ev;
	cg_game f;

	if ((f = known_form(s, c)) != CG_NO_GAME)
		return f;
	/* a value on sight the store cannot hold: nor can it make one */
	if (s->psight)
		return CG_NO_GAME;
	s->noform = cg_xgrow_zero(s->noform, &s->capnoform, c, 1);
	if (s->noform[c] == NOFORM)
		return CG_NO_GAME;
	/* a component met in a sum for the first times is more often
	 * than not never met again: its form would be wasted */
	if (s->noform[c] < FORM_SEEN) {
		s->noform[c]++;
		return CG_NO_GAME;
	}
	memset(&ev, 0, sizeof ev);
	ev.interrupt = s->interrupt;
	ev.limit = FORM_WORK;
	/* rulesets with move counts: a cheap first look at the size */
	if ((!s->counts || (cg_graph_counts(s->graph, c, &b) &&
	    b.most[0] + b.most[1] <= FORM_MOST)) &&
	    ((f = cg_canonical_vertex(s->graph, c, &ev)) != CG_NO_GAME ||
	    STOPPED(s)))
		return f;
	s->noform[c] = NOFORM;
	return CG_NO_GAME;
}

/* The outcome of sum comps[0..n) + k in normal play with side to move
 * from the canonical forms of its components, when each has one
 * (comp_form, or with make 0 only those made already): 1 the side to
 * move wins, 0 it loses, -1 not settled.  A sum of regions whose forms
 * are known costs additions, not a search: four Domineering 4x4 boards
 * apart take 14 positions so, where a search of the sum expands far
 * more. */
struct forms_sum {
	struct cg_solver *s;
	const uint32_t *comps;
	size_t n;
	int32_t k;
	int o;
};

static void
forms_add(void *arg)
{
	struct forms_sum *a = arg;
	cg_game g = cg_canon_integer(a->k), f;
	size_t i;

	a->o = 0;
	for (i = 0; i < a->n; i++) {
		if ((f = cg_graph_canon(a->s->graph, a->comps[i])) == CG_NO_GAME)
			return;
		g = cg_canon_add(g, f);
	}
	a->o = cg_canon_outcome(g);
}

static int
sv_forms(struct cg_solver *s, const uint32_t *comps, size_t n, int32_t k,
    int side, int make)
{
	struct forms_sum a = { s, comps, n, k, 0 };
	char msg[256];
	size_t i;

	/* one component's form costs its whole game tree, more than the
	 * search of its outcome: forms pay where sums of them repeat (one
	 * alone settles its sum when the ruleset gives it on sight) */
	if ((n < 2 && !(n == 1 && s->psight)) || !s->own_graph ||
	    s->doc != NULL)
		return -1;
	for (i = 0; i < n; i++)
		if ((make && n >= 2 ? comp_form(s, comps[i]) :
		    known_form(s, comps[i])) == CG_NO_GAME)
			return -1;
	/* a sum the store cannot hold (ups or nimbers past its range, say,
	 * of two literals it holds) is searched */
	if (cg_canon_catch(forms_add, &a, msg, sizeof msg) < 0 || a.o == 0)
		return -1;
	s->stats.formed++;
	return a.o == 'N' || a.o == (side == CG_LEFT ? 'L' : 'R');
}

/* The outcome of sum comps[0..n) + k in normal play with side to move,
 * settled by the ruleset's move counts (cg/movecounts.h) when one player
 * is sure of more moves than the other can make: 1 the side to move
 * wins, 0 it loses, -1 not settled.  *order (when given and the counts
 * are known) is a search-order key for the player who moved into this
 * sum: smaller when its prospects look better (more available and safe
 * moves than the side to move). */
static int
sv_static(struct cg_solver *s, const uint32_t *comps, size_t n, int32_t k,
    int side, int64_t *order)
{
	uint64_t sure[2] = { 0, 0 }, safe[2] = { 0, 0 }, most[2] = { 0, 0 };
	uint64_t room[2] = { 0, 0 }, lead[2] = { 0, 0 }, rlead[2] = { 0, 0 },
	    rl;
	struct cg_move_bounds b;
	size_t i;
	int x = side, y = !side, j;
	int64_t ev;

	for (i = 0; i < n; i++) {
		if (!cg_graph_counts(s->graph, comps[i], &b))
			return -1;
		for (j = 0; j < 2; j++) {
			sure[j] += b.sure[j];
			safe[j] += b.safe[j];
			most[j] += b.most[j];
			/* moving first, one component's gain */
			if (b.first[j] - b.sure[j] > lead[j])
				lead[j] = b.first[j] - b.sure[j];
			rl = cg_bounds_room_lead(&b, j);
			rlead[j] = rl > rlead[j] ? rl : rlead[j];
			/* no claim in one component: none for the sum */
			room[j] = b.room[j] == CG_GRAPH_ROOM_NONE ||
			    room[j] == UINT64_MAX ? UINT64_MAX :
			    room[j] + b.room[j];
		}
	}
	if (k != 0) {   /* an integer: |k| moves for one player, untouchable */
		int who = k > 0 ? CG_LEFT : CG_RIGHT;
		uint64_t m = k > 0 ? (uint64_t)k : (uint64_t)-(int64_t)k;

		sure[who] += m;
		safe[who] += m;
		most[who] += m;
		/* its owner's reserve there, or the opponent's moves there */
		for (j = 0; j < 2; j++)
			if (room[j] != UINT64_MAX)
				room[j] += m;
	}
	if (order != NULL) {
		/* the mover y: its lead in available moves, safe ones twice */
		ev = (int64_t)(most[y] + 2 * safe[y]) -
		    (int64_t)(most[x] + 2 * safe[x]);
		*order = ((int64_t)1 << 20) - ev;
	}
	return counts_verdict(sure, most, room, lead, rlead, x);
}

struct sctx {
	struct cg_solver *s;
	uint32_t *comps;   /* the sum being expanded */
	size_t n, which;
	int tag, other, cut, all, lazy;
	int32_t k;
	uint64_t moves;
	size_t first;
	uint32_t *child;
	size_t capchild;
	struct ilist raw;  /* 'N': children kept for folding afterwards */
};

static size_t
s_capival(const struct cg_solver *s)
{
	return s->capival;
}

/* The sum entry of tag, k and sorted ids[0..n) if there is one, or one
 * an earlier start of a bounded search carried over (then made), else
 * -1. */
static int64_t
sum_find(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n)
{
	int64_t e;

	sum_key(s, tag, k, ids, n);
	e = otab_find(s->sums, s->skey.data, s->skey.len);
	if (e < 0 && s->carry != NULL && s->carry->n > 0 && tag == 'N') {
		size_t len;
		const unsigned char *key = carry_key(s, tag, k, ids, n, &len);
		int64_t c = otab_find(s->carry, key, len);

		if (c >= 0) {
			e = (int64_t)sum_intern_here(s, tag, k, ids, n, NULL);
			s->sums->val[e] |= s->carry->val[c];
		}
	}
	return e;
}

static int64_t m_known(struct cg_solver *, const uint32_t *, size_t);

/* What sum value v says of the child for side to move there: 1 it wins
 * (the move to it loses), 0 it loses (the move wins), -1 not known. */
static int
known_win(uint64_t v, int side)
{
	return v >> (2 * side) & 1 ? (int)(v >> (2 * side + 1) & 1) : -1;
}

/* Intern child comps[0..m) (+ integer k) and record or cut; lazily, a
 * child not met before is recorded by its components (REC_LAZY). */
static int
sum_record(struct sctx *sc, uint32_t *child, size_t m, int32_t k)
{
	struct cg_solver *s = sc->s;
	size_t i;
	uint64_t e;
	uint32_t rec;
	int64_t key = 0;

	qsort(child, m, sizeof *child, cmp_u32);
	for (i = 0; i < m; i++)
		key += okey(s, child[i]);
	if (sc->tag == 'N' && !sc->all && !s->impartial) {
		int64_t ord = 0;
		int r = s->counts ? sv_static(s, child, m, k, sc->other, &ord) :
		    -1;

		/* forms made already only: children are many, and most
		 * are never searched */
		if (r < 0)
			r = sv_forms(s, child, m, k, sc->other, 0);
		if (r == 0) {            /* the opponent loses there */
			sc->cut = 1;
			return 1;
		}
		if (r == 1)              /* a losing move: never tried */
			return 0;
		/* counts first, then the plugin's key (below 2^12) */
		if (s->counts)
			key = (ord > 0 ? ord * 4096 : 0) + (key < 4095 ? key :
			    4095);
	}
	if (sc->tag == 'M' && !sc->all && s->mform_bytes > 0 &&
	    s->impartial) {
		/* known as an equal sum (m_reduce): a cut, or a losing move
		 * never tried */
		int64_t r = m_known(s, child, m);
		int w = r >= 0 ? known_win(s->sums->val[r], sc->other) : -1;

		if (w == 0) {
			sc->cut = 1;
			return 1;
		}
		if (w == 1)
			return 0;
	}
	if (sc->lazy) {
		int64_t f = sum_find(s, sc->tag, k, child, m);

		if (f < 0) {
			/* not met yet, so not known: interned if ever tried
			 * (step_s), most never are */
			rec = (uint32_t)s->arlen;
			ar_reserve(s, 4 + m);
			s->ar[s->arlen++] = sv_clamp_key(key);
			s->ar[s->arlen++] = (uint32_t)k;
			s->ar[s->arlen++] = REC_LAZY;
			s->ar[s->arlen++] = (uint32_t)m;
			memcpy(s->ar + s->arlen, child, m * sizeof *child);
			s->arlen += m;
			off_add(s, rec);
			return 0;
		}
		e = (uint64_t)f;
	} else
		e = sv_sum_intern_k(s, sc->tag, k, child, m, NULL);
	if (!sc->all) {
		int w = known_win(s->sums->val[e], sc->other);

		if (w == 0) {
			sc->cut = 1;
			return 1;
		}
		if (w == 1)
			return 0;
	}
	rec = (uint32_t)s->arlen;
	ar_reserve(s, 3);
	s->ar[s->arlen++] = sv_clamp_key(key);
	s->ar[s->arlen++] = (uint32_t)e;
	s->ar[s->arlen++] = (uint32_t)(e >> 32);
	off_add(s, rec);
	return 0;
}

static int
sum_child(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct sctx *sc = ctx;
	size_t i, m = 0;

	(void)move;
	sc->moves++;
	if (sc->n + k > sc->capchild) {
		sc->capchild = 2 * (sc->n + k);
		sc->child = cg_xreallocarray(sc->child, sc->capchild,
		    sizeof *sc->child);
	}
	for (i = 0; i < sc->n; i++)
		if (i != sc->which)
			sc->child[m++] = sc->comps[i];
	for (i = 0; i < k; i++)
		sc->child[m++] = ids[i];
	if (sc->tag == 'N') {
		int32_t kk = sc->k;
		size_t j, mm = 0;

		/* folding integers may need options of new components: not
		 * inside this enumeration, unless all are already known */
		for (j = 0; j < m; j++)
			if (sc->child[j] >= s_capival(sc->s) ||
			    sc->s->ival[sc->child[j]] == INT_UNKNOWN)
				break;
		if (j < m) {
			ilist_option(&sc->raw, NULL, sc->child, m);
			return 0;
		}
		for (j = 0; j < m; j++) {
			int32_t v = sc->s->ival[sc->child[j]];

			if (v == INT_NOT || kk + (int64_t)v > INT32_MAX / 2 ||
			    kk + (int64_t)v < -(INT32_MAX / 2))
				sc->child[mm++] = sc->child[j];
			else
				kk += v;
		}
		return sum_record(sc, sc->child, mm, kk);
	}
	return sum_record(sc, sc->child, m, 0);
}

/* Expand sum entry e for side into records; returns moves generated. */
uint64_t
sv_expand_sum(struct cg_solver *s, uint64_t e, int tag, int side, int other,
    int flags, int *cut, size_t *off0)
{
	struct sctx sc;
	size_t n, i, p;

	memset(&sc, 0, sizeof sc);
	n = sum_ids_k(s, e, &sc.k);
	sc.comps = cg_xmalloc((n + 1) * sizeof *sc.comps);
	memcpy(sc.comps, s->ids2, n * sizeof *sc.comps);
	sc.s = s;
	sc.n = n;
	sc.tag = tag;
	sc.other = other;
	sc.all = (flags & SV_ALL) != 0;
	sc.lazy = (flags & SV_LAZY) != 0;
	*off0 = noffbuf;
	for (i = 0; i < n && !sc.cut; i++) {
		if (i > 0 && sc.comps[i] == sc.comps[i - 1])
			continue;
		sc.which = i;
		comp_options(s, sc.comps[i], (enum cg_side)side, sum_child, &sc);
	}
	if (tag == 'N') {
		for (p = 0; p < sc.raw.n && !sc.cut;) {
			size_t cnt = sc.raw.v[p++], m = cnt;
			int32_t k = sc.k;

			/* millions of children must not delay a stop */
			if ((p & 4095) == 0 && STOPPED(s))
				break;

			sv_fold_ints(s, sc.raw.v + p, &m, &k);
			sum_record(&sc, sc.raw.v + p, m, k);
			p += cnt;
		}
		/* a move in the integer part */
		if (!sc.cut && (side == CG_LEFT ? sc.k > 0 : sc.k < 0)) {
			sc.moves++;
			sum_record(&sc, sc.comps, n,
			    side == CG_LEFT ? sc.k - 1 : sc.k + 1);
		}
	}
	free(sc.raw.v);
	free(sc.comps);
	free(sc.child);
	*cut = sc.cut;
	return sc.moves;
}

void
sv_sum_set(struct cg_solver *s, uint64_t e, int side, int win, int tag)
{
	uint64_t *v = &s->sums->val[e];

	if (STOPPED(s))
		return;
	*v |= (uint64_t)(1 | win << 1) << (2 * side);
	s->stats.solved++;
	if (tag == 'M' && !win && s->impartial) {
		if (s->nmloss == s->capmloss) {
			s->capmloss = s->capmloss ? 2 * s->capmloss : 256;
			s->mloss = cg_xreallocarray(s->mloss, s->capmloss,
			    sizeof *s->mloss);
		}
		s->mloss[s->nmloss++] = e;
	}
}

static void
push_s(struct cg_solver *s, uint64_t e, int side, int misere)
{
	struct frame *f = push(s, K_S);

	f->st = e;
	f->side = (uint8_t)side;
	f->misere = (uint8_t)misere;
	f->acc = (int64_t)s->stats.expanded;   /* for the carry */
}

/* Record sum f->st's result for its side and return it; a result whose
 * search took at least carry_min expansions is also carried over to
 * later starts of a bounded search (normal play only). */
static void
done_s(struct cg_solver *s, struct frame *f, int win)
{
	int tag = f->misere ? 'M' : 'N';

	if (s->carry != NULL && !f->misere && !STOPPED(s) &&
	    s->stats.expanded - (uint64_t)f->acc >= s->carry_min) {
		size_t len, n;
		int32_t k;
		const unsigned char *key;
		int isnew;
		uint64_t c;

		n = sum_ids_k(s, f->st, &k);
		key = carry_key(s, tag, k, s->ids2, n, &len);
		c = otab_intern(s->carry, key, len, &isnew);
		s->carry->val[c] |= (uint64_t)(1 | win << 1) << (2 * f->side);
	}
	sv_sum_set(s, f->st, f->side, win, tag);
	finish(s, win);
}

/* --------------------------------------------- misere: equal games */

static int run(struct cg_solver *, size_t);
static int64_t gen_rec(struct cg_solver *, uint64_t);
static uint32_t gen_height(struct cg_solver *, uint64_t);
static void push_gen(struct cg_solver *, uint64_t);

#define MFORM_UNKNOWN 0
#define MFORM_BIG 1

static void
mform_grow(struct cg_solver *s, uint32_t c)
{
	if (c < s->capmform)
		return;
	s->mform = cg_xgrow_zero(s->mform, &s->capmform, c, sizeof *s->mform);
	s->mheight = cg_xreallocarray(s->mheight, s->capmform,
	    sizeof *s->mheight);
}

/* The component standing for every component of misere game g: of those
 * met, one of least height, so that a sum never stands for a longer one
 * and the search, whose moves shorten sums, cannot come back to a sum. */
static uint32_t
mrep_of(struct cg_solver *s, uint32_t g, uint32_t c)
{
	s->mrep = cg_xgrow_zero(s->mrep, &s->capmrep, g, sizeof *s->mrep);
	if (s->mrep[g] == 0 || s->mheight[s->mrep[g] - 1] > s->mheight[c])
		s->mrep[g] = c + 1;
	return s->mrep[g] - 1;
}

/* The sum ids[0..n) with each component whose form is made replaced by
 * the one standing for its form, form 0 dropped and pairs of * cancelled,
 * into out (unsorted); *changed when it differs from ids. */
static size_t
m_map(struct cg_solver *s, const uint32_t *ids, size_t n, uint32_t *out,
    int *changed)
{
	size_t i, m = 0;
	uint32_t star = 0;
	int odd = 0;

	*changed = 0;
	for (i = 0; i < n; i++) {
		uint32_t c = ids[i], g = c < s->capmform ? s->mform[c] : 0;

		if (g <= MFORM_BIG) {
			out[m++] = c;
			continue;
		}
		g -= 2;
		if (g == 0)                     /* the zero game */
			continue;
		if (cg_mtab_is_star(s->mt, g)) {
			odd ^= 1;
			star = s->mrep[g] - 1;
			*changed |= star != c;
			continue;
		}
		out[m] = s->mrep[g] - 1;
		*changed |= out[m++] != c;
	}
	if (odd)
		out[m++] = star;
	*changed |= m != n;
	return m;
}

/* Make the form of every small component of ids[0..n) not tried yet
 * (within mform_work expansions each), and let the shortest component
 * met of each form stand for it.  -1 when a stop came. */
static int
m_make_forms(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		uint32_t c = ids[i];
		uint64_t eg;

		mform_grow(s, c);
		if (s->mform[c] == MFORM_UNKNOWN) {
			(void)cg_graph_key(s->graph, c, &len);
			if (len > s->mform_bytes) {
				s->mform[c] = MFORM_BIG;
				continue;
			}
			eg = sum_intern(s, 'G', &c, 1, NULL);
			if (gen_rec(s, eg) < 0) {
				size_t depth = s->nfr;
				int r;

				s->gen_left = s->mform_work;
				push_gen(s, eg);
				r = run(s, depth);
				s->gen_left = 0;
				if (r < 0 && STOPPED(s))
					return -1;
				if (r < 0) {
					s->mform[c] = MFORM_BIG;
					continue;
				}
			}
			s->mform[c] = (uint32_t)gen_rec(s, eg) + 2;
			s->mheight[c] = gen_height(s, eg);
		}
		if (s->mform[c] != MFORM_BIG && s->mform[c] - 2 != 0)
			(void)mrep_of(s, s->mform[c] - 2, c);   /* not 0 */
	}
	return 0;
}

/*
 * Misere play has no nim values, but two games with the same misere
 * canonical form may stand for each other in any sum (Conway, ONAG ch.
 * 12): the small components of a sum are replaced by one component of
 * their form each, a component of form 0 is dropped and two of form *
 * cancel (* + * = 0 in misere play), so that sums differing only in
 * small parts of equal forms are searched once, as Glop's reduced
 * canonical trees merge them (Lemoine and Viennot, arXiv:0908.4407).
 * A small component's form comes from its whole game tree (the genus
 * search), so only components whose key has at most mform_bytes bytes
 * are made, each within mform_work expansions.  Returns the reduced
 * sum's entry, or -1 when the sum is already reduced.
 */
static int64_t
m_reduce(struct cg_solver *s, uint64_t e)
{
	size_t n = sum_ids(s, e), m;
	uint32_t buf[64], *ids, *out;
	int changed;
	int64_t r = -1;

	/* a copy: the forms' searches reuse s->ids2 */
	ids = n < 32 ? buf : cg_xmalloc(2 * (n + 1) * sizeof *ids);
	out = ids + n + 1;
	memcpy(ids, s->ids2, n * sizeof *ids);
	if (m_make_forms(s, ids, n) == 0) {
		m = m_map(s, ids, n, out, &changed);
		if (changed) {
			qsort(out, m, sizeof *out, cmp_u32);
			r = (int64_t)sum_intern(s, 'M', out, m, NULL);
			if (r == (int64_t)e)
				r = -1;
		}
	}
	if (ids != buf)
		free(ids);
	return r;
}

/* The entry of sum ids[0..n) as m_reduce makes it from the forms made
 * already, when that differs from the sum and is in the table; else -1.
 * Makes no form: it runs while a sum's options are enumerated. */
static int64_t
m_known(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	uint32_t buf[32], *out = n < 32 ? buf : cg_xmalloc((n + 1) *
	    sizeof *out);
	size_t m;
	int changed;
	int64_t r = -1;

	m = m_map(s, ids, n, out, &changed);
	if (changed) {
		qsort(out, m, sizeof *out, cmp_u32);
		r = sum_find(s, 'M', 0, out, m);
	}
	if (out != buf)
		free(out);
	return r;
}

static void
step_s(struct cg_solver *s, struct frame *f)
{
	int tag = f->misere ? 'M' : 'N';
	int side = f->side, other = s->impartial ? side : !side;
	uint64_t v;

	switch (f->stage) {
	case 0: {
		int cut;
		size_t off0;
		uint64_t moves;

		v = *&s->sums->val[f->st];
		if (v >> (2 * side) & 1) {
			finish(s, v >> (2 * side + 1) & 1);
			return;
		}
		if (f->misere && s->impartial && s->mform_bytes > 0) {
			int64_t r = m_reduce(s, f->st);

			f = &s->fr[s->nfr - 1];
			if (r >= 0) {
				s->stats.mreduced++;
				v = s->sums->val[r];
				if (v >> (2 * side) & 1) {
					done_s(s, f, v >> (2 * side + 1) & 1);
					return;
				}
				f->stage = 20;  /* back at 21 with its result */
				push_s(s, (uint64_t)r, side, f->misere);
				return;
			}
		}
		tick(s);
		if (!f->misere && !s->impartial) {
			int32_t k;
			size_t n = sum_ids_k(s, f->st, &k);
			int r = s->counts ? sv_static(s, s->ids2, n, k, side,
			    NULL) : -1;

			if (r < 0)
				r = sv_forms(s, s->ids2, n, k, side, 1);
			if (r >= 0) {
				done_s(s, f, r);
				return;
			}
		}
		moves = sv_expand_sum(s, f->st, tag, side, other, SV_LAZY, &cut,
		    &off0);
		f = &s->fr[s->nfr - 1];
		if (cut) {
			noffbuf = off0;
			done_s(s, f, 1);
			return;
		}
		if (moves == 0) {
			noffbuf = off0;
			done_s(s, f, f->misere);
			return;
		}
		make_index(s, f, offbuf + off0, (uint32_t)(noffbuf - off0));
		noffbuf = off0;
		f->stage = 1;
	}
	/* fall through */
	case 1:
		if (f->idx == f->nchild) {
			done_s(s, f, 0);
			return;
		}
		{
			uint32_t rec = s->ar[f->index + f->idx];
			uint64_t e;

			/* a lazy child was not in the carried results when
			 * recorded, and only sums in the tables are carried
			 * since: made without looking again */
			if (s->ar[rec + 2] == REC_LAZY)
				e = sum_intern_here(s, tag,
				    (int32_t)s->ar[rec + 1], s->ar + rec + 4,
				    s->ar[rec + 3], NULL);
			else
				e = s->ar[rec + 1] |
				    (uint64_t)s->ar[rec + 2] << 32;
			push_s(s, e, other, f->misere);
		}
		return;
	case 2:
		if (s->ret == 0) {
			done_s(s, f, 1);
			return;
		}
		f->idx++;
		f->stage = 1;
		step_s(s, f);
		return;
	case 21:                        /* the reduced sum searched */
		done_s(s, f, (int)s->ret);
		return;
	}
}

/* ------------------------------------------------------------ genus */

/* Misere canonical game of 'G' sum entry e, -1 = none.  The entry's
 * value is the game + 1 in the low 32 bits, and the sum's height (its
 * longest play) in the high ones. */
static int64_t
gen_rec(struct cg_solver *s, uint64_t e)
{
	uint32_t v = (uint32_t)s->sums->val[e];

	return v ? (int64_t)v - 1 : -1;
}

static uint32_t
gen_height(struct cg_solver *s, uint64_t e)
{
	return (uint32_t)(s->sums->val[e] >> 32);
}

static void
finish_gen(struct cg_solver *s, struct frame *f)
{
	uint32_t i, nchild = f->nchild, h = 0;
	uint32_t *o = cg_xcalloc(nchild + 1, sizeof *o);

	for (i = 0; i < nchild; i++) {
		uint32_t rec = s->ar[f->index + i];
		uint64_t e = s->ar[rec + 1] | (uint64_t)s->ar[rec + 2] << 32;

		o[i] = (uint32_t)gen_rec(s, e);
		if (gen_height(s, e) >= h)
			h = gen_height(s, e) + 1;
	}
	if (!STOPPED(s))
		s->sums->val[f->st] = ((uint64_t)cg_mtab_canon(s->mt, o,
		    nchild) + 1) | (uint64_t)h << 32;
	s->stats.solved++;
	free(o);
}

static void
push_gen(struct cg_solver *s, uint64_t e)
{
	struct frame *f = push(s, K_GEN);

	f->st = e;
}

/* The game of a sum of two or more components is the sum of theirs
 * (cg_mtab_add), so its tree, the product of theirs, is never searched:
 * each component's game is made first (a frame pushed, back at stage 11)
 * and then added.  Returns 1 when the frame is done or waits, 0 for a
 * single component (searched by its moves). */
static int
gen_add(struct cg_solver *s, struct frame *f)
{
	size_t n = sum_ids(s, f->st), i;
	uint32_t g = 0, h = 0;

	if (n < 2)
		return 0;
	/* s->ids2 holds the sum throughout: interning and adding leave it
	 * alone */
	for (i = 0; i < n; i++) {
		uint64_t e = sum_intern(s, 'G', s->ids2 + i, 1, NULL);

		if (gen_rec(s, e) < 0) {
			f->stage = 10;
			push_gen(s, e);
			return 1;
		}
		g = cg_mtab_add(s->mt, g, (uint32_t)gen_rec(s, e));
		h += gen_height(s, e);
	}
	if (!STOPPED(s))
		s->sums->val[f->st] = ((uint64_t)g + 1) | (uint64_t)h << 32;
	s->stats.solved++;
	finish(s, 0);
	return 1;
}

static void
step_gen(struct cg_solver *s, struct frame *f)
{
	switch (f->stage) {
	case 0: {
		int cut;
		size_t off0;
		uint64_t moves;

		if (gen_rec(s, f->st) >= 0) {
			finish(s, 0);
			return;
		}
		if (gen_add(s, f))
			return;
		tick(s);
		moves = sv_expand_sum(s, f->st, 'G', CG_LEFT, CG_LEFT, SV_ALL, &cut,
		    &off0);
		f = &s->fr[s->nfr - 1];
		if (moves == 0) {
			noffbuf = off0;
			s->sums->val[f->st] = 1;   /* the zero game */
			finish(s, 0);
			return;
		}
		make_index(s, f, offbuf + off0, (uint32_t)(noffbuf - off0));
		noffbuf = off0;
		f->stage = 1;
	}
	/* fall through */
	case 1:
		while (f->idx < f->nchild) {
			uint32_t rec = s->ar[f->index + f->idx];
			uint64_t e = s->ar[rec + 1] |
			    (uint64_t)s->ar[rec + 2] << 32;

			if (gen_rec(s, e) < 0) {
				push_gen(s, e);
				return;
			}
			f->idx++;
		}
		finish_gen(s, f);
		finish(s, 0);
		return;
	case 2:
		f->idx++;
		f->stage = 1;
		step_gen(s, f);
		return;
	case 11:                        /* a component's game made */
		f->stage = 0;
		step_gen(s, f);
		return;
	}
}

/* ------------------------------------------------------------- driver */

static int
run(struct cg_solver *s, size_t depth)
{
	while (s->nfr > depth) {
		struct frame *f = &s->fr[s->nfr - 1];

		/* a stop, or a misere form out of its work (m_reduce) */
		if (STOPPED(s) || (s->gen_left != 0 && f->kind == K_GEN &&
		    f->stage == 0 && --s->gen_left == 0)) {
			s->arlen = s->fr[depth].base;
			s->nfr = depth;
			noffbuf = 0;
			return -1;
		}
		switch (f->kind) {
		case K_NIM: step_nim(s, f); break;
		case K_COUPLE: step_couple(s, f); break;
		case K_SUM: step_sum(s, f); break;
		case K_XOR: step_xor(s, f); break;
		case K_S: step_s(s, f); break;
		case K_GEN: step_gen(s, f); break;
		}
	}
	return 0;
}

/* Which search answers a query: the one asked for, or for AUTO the one
 * that is fastest for it (bench/sprouts-vs-spots, bench/outcome): df-pn
 * for impartial games in normal play, where sums split into couples
 * (Sprouts, Cram's nim values), depth-first for the rest (whole sums
 * have no couples, so the proof-number tree is the whole game tree, and
 * a depth-first search with its transposition tables does better, as on
 * Domineering).  Check mode re-derives results depth-first, as Glop
 * does, guided by its databases. */
static enum cg_search
search_for(struct cg_solver *s, int misere)
{
	if (s->guide != NULL)
		return CG_SEARCH_DFS;
	if (s->search != CG_SEARCH_AUTO && s->search != CG_SEARCH_BITS)
		return s->search;
	return s->impartial && !misere ? CG_SEARCH_DFPN : CG_SEARCH_DFS;
}

/* Does an outcome query go to the bit search (bits.c) when the ruleset
 * offers one?  When asked, or for AUTO in partizan normal play, where
 * sums do not split into couples, if the ruleset prefers it for the sum
 * (bits_outcome asks: one large Domineering region, whose whole board
 * in machine words is searched far faster than its components). */
static int
bits_first(const struct cg_solver *s, int misere)
{
	if (misere || s->rs == NULL || s->guide != NULL || s->scratch ||
	    s->parent != NULL)
		return 0;
	return s->search == CG_SEARCH_BITS ||
	    (s->search == CG_SEARCH_AUTO && !s->impartial);
}

/* ------------------------------------------------------------ restarts */

/*
 * Bounded tables for the normal-play depth-first searches (outcomes, and
 * nim values of impartial games): with a budget (cg_solver_set_budget)
 * the search runs in a scratch solver with a graph of its own.  When the
 * scratch's tables pass the budget it unwinds (nothing half-seen is
 * recorded) and is thrown away, and a fresh one starts again from the
 * root.  What took at least carry_min expansions to find is carried in
 * s->carry, keyed by bytes a fresh graph gives again: the results of
 * partizan sums (their components' bytes, sorted; done_s) and the words
 * of impartial components (nim value, or the *n that win beside them;
 * couple_done).  A fresh start finds them as it meets those positions, so
 * it goes down the same path without their subtrees.  A start that
 * carries nothing new halves carry_min; at carry_min 1 the last start
 * runs without a budget (the memory limit stops it, as any search).
 */
#define CARRY_MIN 8

/* The scratch's progress is its owner's (whose reports add them up). */
static void
owner_progress(struct cg_solver *t, void *arg)
{
	struct cg_solver *s = arg;

	(void)t;
	s->progress(s, s->progress_arg);
}

static struct cg_solver *
scratch_new(struct cg_solver *s, size_t budget)
{
	struct cg_solver *t = cg_solver_new(s->rs);

	t->search = CG_SEARCH_DFS;
	t->interrupt = s->interrupt;
	if (s->progress != NULL) {
		t->progress = owner_progress;
		t->progress_arg = s;
	}
	t->every = s->every;
	t->next_progress = s->every;
	t->lookup = s->lookup;
	t->lookup_ctx = s->lookup_ctx;
	t->budget = budget;
	t->carry = s->carry;
	t->carry_min = s->carry_min;
	t->scratch = 1;
	return t;
}

/* The outcome (nimber 0) or the nim value (nimber 1) of ids[0..n) by
 * depth-first searches in scratch solvers within s->budget. */
static int64_t
bounded_run(struct cg_solver *s, const uint32_t *ids, size_t n, int nimber)
{
	uint32_t *tids = cg_xmalloc((n + 1) * sizeof *tids);
	struct cg_solver *t;
	size_t i, len, before;
	const unsigned char *key;
	size_t budget = s->budget;
	int64_t o;

	if (s->carry == NULL) {
		s->carry = otab_new();
		s->carry_min = CARRY_MIN;
	}
	for (;;) {
		t = scratch_new(s, budget);
		for (i = 0; i < n; i++) {
			key = cg_graph_key(s->graph, ids[i], &len);
			tids[i] = cg_graph_vertex(t->graph,
			    cg_graph_ruleset(s->graph, ids[i]), key, len);
		}
		before = s->carry->n;
		s->live = t;
		o = nimber ? cg_solver_nimber(t, tids, n) :
		    cg_solver_outcome(t, tids, n, 0);
		s->live = NULL;
		s->stats.expanded += t->stats.expanded;
		s->stats.solved += t->stats.solved;
		s->stats.formed += t->stats.formed;
		s->stats.sighted += t->stats.sighted;
		s->stats.mreduced += t->stats.mreduced;
		if (o != CG_SOLVE_INTERRUPTED || !t->restart) {
			cg_solver_free(t);
			break;
		}
		cg_solver_free(t);
		s->restarts++;
		if (s->carry->n == before) {
			if (s->carry_min > 1)
				s->carry_min /= 2;
			else
				budget = 0;
		}
	}
	free(tids);
	return o;
}

void
cg_solver_set_tree_limit(struct cg_solver *s, size_t bytes)
{
	s->tree_limit = bytes;
}

void
cg_solver_set_budget(struct cg_solver *s, size_t bytes)
{
	s->budget = bytes;
}

uint64_t
cg_solver_restarts(struct cg_solver *s)
{
	return s->restarts;
}

int
cg_solver_outcome(struct cg_solver *s, const uint32_t *ids, size_t n,
    int misere)
{
	size_t depth = s->nfr;
	int w[2], side;
	int32_t k = 0;
	uint32_t *sorted;
	enum cg_search how = search_for(s, misere);
	int o;

	if (bits_first(s, misere) && (o = bits_outcome(s, ids, n)) !=
	    BITS_NONE)
		return o;
	if (s->budget != 0 && !s->scratch && how == CG_SEARCH_DFS &&
	    !misere && s->doc == NULL && s->guide == NULL)
		return (int)bounded_run(s, ids, n, 0);

	if (how != CG_SEARCH_DFS) {
		enum cg_search keep = s->search;

		s->search = how;
		o = pns_outcome(s, ids, n, misere);
		s->search = keep;
		return o;
	}
	if (s->impartial && !misere) {
		push_sum(s, ids, (uint32_t)n, 0);
		if (run(s, depth) < 0)
			return CG_SOLVE_INTERRUPTED;
		return s->ret ? 'N' : 'P';
	}
	sorted = cg_xmalloc((n + 1) * sizeof *sorted);
	memcpy(sorted, ids, n * sizeof *sorted);
	if (!misere)
		sv_fold_ints(s, sorted, &n, &k);
	qsort(sorted, n, sizeof *sorted, cmp_u32);
	for (side = 0; side < 2; side++) {
		uint64_t e = sv_sum_intern_k(s, misere ? 'M' : 'N', k, sorted, n,
		    NULL);

		push_s(s, e, s->impartial ? CG_LEFT : side, misere);
		if (run(s, depth) < 0) {
			free(sorted);
			return CG_SOLVE_INTERRUPTED;
		}
		w[side] = (int)s->ret;
		if (s->impartial) {
			w[1] = w[0];
			break;
		}
	}
	free(sorted);
	return cg_outcome_class(w[0], w[1]);
}

int64_t
cg_solver_nimber(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	size_t depth = s->nfr, i;
	struct frame *f;
	enum cg_search how = search_for(s, 0);

	if (s->budget != 0 && !s->scratch && how == CG_SEARCH_DFS &&
	    s->doc == NULL && s->guide == NULL)
		return bounded_run(s, ids, n, 1);
	if (how != CG_SEARCH_DFS) {
		enum cg_search keep = s->search;
		int64_t v, acc = 0;

		s->search = how;
		for (i = 0; i < n; i++) {
			v = pns_nimber(s, ids[i]);
			if (v < 0)
				break;
			acc ^= v;
		}
		s->search = keep;
		return i < n ? CG_SOLVE_INTERRUPTED : acc;
	}
	ar_reserve(s, n);
	f = push(s, K_XOR);
	f->cnt = (uint32_t)n;
	for (i = 0; i < n; i++)
		s->ar[s->arlen++] = ids[i];
	if (run(s, depth) < 0)
		return CG_SOLVE_INTERRUPTED;
	return s->ret;
}

static int64_t
genus_of(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	size_t depth = s->nfr;
	uint32_t *sorted = cg_xmalloc((n + 1) * sizeof *sorted);
	uint64_t e;

	memcpy(sorted, ids, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, cmp_u32);
	e = sum_intern(s, 'G', sorted, n, NULL);
	free(sorted);
	push_gen(s, e);
	if (run(s, depth) < 0)
		return -1;
	return gen_rec(s, e);
}

int64_t
cg_solver_misere_nimber(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	int64_t g = genus_of(s, ids, n);

	return g < 0 ? CG_SOLVE_INTERRUPTED :
	    (int64_t)cg_mtab_gminus(s->mt, (uint32_t)g);
}

int
cg_solver_genus(struct cg_solver *s, const uint32_t *ids, size_t n,
    struct cg_buf *out)
{
	int64_t g = genus_of(s, ids, n);

	if (g < 0)
		return CG_SOLVE_INTERRUPTED;
	cg_mtab_genus(s->mt, (uint32_t)g, out);
	return 0;
}

/* ------------------------------------------------ children, printing */

struct chctx {
	struct cg_solver *s;
	const uint32_t *ids;
	size_t n, which;
	cg_solver_child_fn fn;
	void *ctx;
	uint32_t *child;
	size_t cap;
	int stop;
};

static int
on_child(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct chctx *cc = ctx;
	size_t i, m = 0;

	if (cc->n + k > cc->cap) {
		cc->cap = 2 * (cc->n + k);
		cc->child = cg_xreallocarray(cc->child, cc->cap,
		    sizeof *cc->child);
	}
	for (i = 0; i < cc->n; i++)
		if (i != cc->which)
			cc->child[m++] = cc->ids[i];
	for (i = 0; i < k; i++)
		cc->child[m++] = ids[i];
	qsort(cc->child, m, sizeof *cc->child, cmp_u32);
	/* collect: the callback may search, which would reuse scratch */
	ar_push(cc->s, (uint32_t)m);
	for (i = 0; i < m; i++)
		ar_push(cc->s, cc->child[i]);
	{
		size_t l = move ? strlen(move) : 0, w = (l + 4) / 4;
		ar_push(cc->s, move ? (uint32_t)l : UINT32_MAX);
		for (i = 0; i < w; i++) {
			uint32_t x = 0;

			if (move)
				memcpy(&x, move + 4 * i, 4 * i + 4 <= l ? 4 :
				    l - 4 * i);
			ar_push(cc->s, x);
		}
	}
	return 0;
}

void
cg_solver_children(struct cg_solver *s, const uint32_t *ids, size_t n,
    enum cg_side side, cg_solver_child_fn fn, void *ctx)
{
	struct chctx cc;
	size_t base = s->arlen, p, i;
	char *move = NULL;

	memset(&cc, 0, sizeof cc);
	cc.s = s;
	cc.ids = ids;
	cc.n = n;
	for (i = 0; i < n; i++) {
		if (i > 0 && ids[i] == ids[i - 1])
			continue;
		cc.which = i;
		cg_graph_expand(s->graph, ids[i], side, on_child, &cc);
	}
	free(cc.child);
	/* replay: records [m, ids..., movelen, words...] */
	p = base;
	while (p < s->arlen) {
		uint32_t m = s->ar[p], l;
		size_t q = p + 1 + m, w;
		uint32_t *copy = cg_xmalloc((m + 1) * sizeof *copy);
		size_t end;

		memcpy(copy, s->ar + p + 1, m * sizeof *copy);
		l = s->ar[q];
		w = l == UINT32_MAX ? 1 : (l + 4) / 4;
		if (l != UINT32_MAX) {
			move = cg_xmalloc(w * 4 + 1);
			memcpy(move, s->ar + q + 1, w * 4);
			move[l] = 0;
		}
		end = q + 1 + w;
		{
			size_t keep = s->arlen;

			/* searches in fn push above arlen: protect records */
			fn(ctx, move, copy, m);
			s->arlen = keep;
		}
		free(copy);
		free(move);
		move = NULL;
		p = end;
	}
	s->arlen = base;
}

void
cg_solver_print_sum(struct cg_solver *s, const uint32_t *ids, size_t n,
    struct cg_buf *out)
{
	cg_graph_print_sum(s->graph, s->rs, ids, n, out);
}

static int
key_cmp(struct cg_solver *s, uint32_t a, uint32_t b)
{
	size_t la, lb;
	const unsigned char *ka = cg_graph_key(s->graph, a, &la);
	const unsigned char *kb = cg_graph_key(s->graph, b, &lb);
	int c = memcmp(ka, kb, la < lb ? la : lb);

	return c != 0 ? c : (la > lb) - (la < lb);
}

void
cg_solver_each_misere_loss(struct cg_solver *s,
    void (*fn)(void *, const uint32_t *, size_t), void *ctx)
{
	size_t i, n;

	for (i = 0; i < s->nmloss; i++) {
		uint32_t *copy;
		size_t j, m;

		n = sum_ids(s, s->mloss[i]);
		copy = cg_xmalloc((n + 1) * sizeof *copy);
		memcpy(copy, s->ids2, n * sizeof *copy);
		/* by the components' bytes, not their numbers, which depend
		 * on the order they were met in: a sum is written the same
		 * way by every run */
		for (j = 1; j < n; j++)
			for (m = j; m > 0 && key_cmp(s, copy[m - 1], copy[m]) > 0;
			    m--) {
				uint32_t t = copy[m];

				copy[m] = copy[m - 1];
				copy[m - 1] = t;
			}
		fn(ctx, copy, n);
		free(copy);
	}
}

int
cg_solver_set_misere_loss(struct cg_solver *s, const uint32_t *ids,
    size_t n)
{
	uint32_t *sorted = cg_xmalloc((n + 1) * sizeof *sorted);
	uint64_t e, v;

	memcpy(sorted, ids, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, cmp_u32);
	e = sum_intern(s, 'M', sorted, n, NULL);
	free(sorted);
	v = *&s->sums->val[e];
	if (v & 1)
		return (v & 2) ? -1 : 0;
	sv_sum_set(s, e, CG_LEFT, 0, 'M');
	return 0;
}
