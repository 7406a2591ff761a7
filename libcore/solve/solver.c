/* solver.c - the solver object every engine works in: its graph of
 * components, the tables of sums, stop, progress, statistics, known
 * values, and the queries, each answered by an engine of the table
 * (engine.h); see outcome.h. */
#include <stdlib.h>
#include <string.h>

#include "cg/value.h"
#include "base/util.h"
#include "graph/graph.h"
#include "solve/canonical.h"
#include "solve/dfs_int.h"
#include "solve/engine.h"
#include "values/misere.h"
#include "solve/outcome.h"
#include "solve/sums.h"
#include "values/canon.h"

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
		const unsigned char *ck = sv_carry_key(s, 'C', 0, &v, 1, &len);
		int64_t e = sv_tab_find(s->carry, ck, len);

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
	s->sums = sv_tab_new();
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
	s->sums = sv_tab_new();
	cg_buf_init(&s->key);
	cg_buf_init(&s->skey);
	s->mt = cg_mtab_new();
	s->interrupt = parent->interrupt;
	s->engine = parent->engine;
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
	qsort(a, n->nopt[0], sizeof *a, sv_cmp_u32);
	qsort(b, n->nopt[0], sizeof *b, sv_cmp_u32);
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
	size_t i, j;

	if (s == NULL)
		return;
	/* engines of one family share a free function and their state */
	for (i = 0; cg_engines[i] != NULL; i++) {
		for (j = 0; j < i; j++)
			if (cg_engines[j]->free == cg_engines[i]->free)
				break;
		if (j == i)
			cg_engines[i]->free(s);
	}
	free(s->bits_ckpt);
	if (s->own_graph)
		cg_graph_free(s->graph);
	sv_tab_free(s->sums);
	if (!s->scratch)
		sv_tab_free(s->carry);
	cg_mtab_free(s->mt);
	free(s->keyref);
	free(s->ar);
	cg_buf_free(&s->key);
	cg_buf_free(&s->skey);
	free(s->ids2);
	free(s->offs);
	free(s->mloss);
	free(s->ival);
	free(s->noform);
	free(s->sighted);
	pthread_mutex_destroy(&s->lookup_lock);
	free(s);
}

void
cg_solver_set_search(struct cg_solver *s, const struct cg_engine *e)
{
	s->engine = e;
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
	size_t i, j, bytes;

	bytes = (s->own_graph ? cg_graph_memory(s->graph) : 0) +
	    (s->live != NULL ? cg_solver_memory(s->live) : 0) +
	    (s->carry != NULL && !s->scratch ? sv_tab_memory(s->carry) : 0) +
	    sv_tab_memory(s->sums) + cg_mtab_memory(s->mt) +
	    s->arcap * sizeof *s->ar;
	for (i = 0; cg_engines[i] != NULL; i++) {
		for (j = 0; j < i; j++)
			if (cg_engines[j]->memory == cg_engines[i]->memory)
				break;
		if (j == i)
			bytes += cg_engines[i]->memory(s);
	}
	return bytes;
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

	if (s->live != NULL) {
		cg_solver_branch(s->live, out);
		return;
	}
	for (i = 0; cg_engines[i] != NULL; i++)
		if (cg_engines[i]->branch(s, out))
			return;
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
	qsort(cc->child, m, sizeof *cc->child, sv_cmp_u32);
	/* collect: the callback may search, which would reuse scratch */
	sv_ar_push(cc->s, (uint32_t)m);
	for (i = 0; i < m; i++)
		sv_ar_push(cc->s, cc->child[i]);
	{
		size_t l = move ? strlen(move) : 0, w = (l + 4) / 4;
		sv_ar_push(cc->s, move ? (uint32_t)l : UINT32_MAX);
		for (i = 0; i < w; i++) {
			uint32_t x = 0;

			if (move)
				memcpy(&x, move + 4 * i, 4 * i + 4 <= l ? 4 :
				    l - 4 * i);
			sv_ar_push(cc->s, x);
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

		n = sv_sum_ids(s, s->mloss[i]);
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
	qsort(sorted, n, sizeof *sorted, sv_cmp_u32);
	e = sv_sum_intern(s, 'M', sorted, n, NULL);
	free(sorted);
	v = *&s->sums->val[e];
	if (v & 1)
		return (v & 2) ? -1 : 0;
	sv_sum_set(s, e, CG_LEFT, 0, 'M');
	return 0;
}

/* ------------------------------------------------------------- queries */

int
cg_solver_outcome(struct cg_solver *s, const uint32_t *ids, size_t n,
    int misere)
{
	const struct cg_engine *e = cg_engine_for(s, 0, misere);
	int o = e->outcome(e, s, ids, n, misere);

	if (o == CG_ENGINE_DECLINED) {
		e = cg_engine_auto(s, 0, misere, e);
		o = e->outcome(e, s, ids, n, misere);
	}
	return o;
}

int64_t
cg_solver_nimber(struct cg_solver *s, const uint32_t *ids, size_t n)
{
	const struct cg_engine *e = cg_engine_for(s, 1, 0);

	return e->nimber(e, s, ids, n);
}
