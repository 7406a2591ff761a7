/* canonical.c - canonical forms bottom-up over the position graph (see
 * canonical.h).
 *
 * One frame per vertex being evaluated; its options live in an arena of
 * words above its parent's, as [k, v1 .. vk] per option (Left options
 * first), so popping a frame frees them.  A frame scans its options'
 * components, descends into the first one whose form is unknown, and
 * makes its own form when none is left.  The vertices on the stack are
 * kept in a small set, so a position that comes back while it is being
 * evaluated is caught (the game is loopy). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "cg/value.h"
#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"
#include "solve/canonical.h"
#include "solve/heapnim.h"
#include "values/notation.h"

struct frame {
	cg_vertex v;
	uint32_t nl, nopt;
	size_t base, scan, end;
	int expanded;
};

/* Vertices on the stack: open addressing, backward-shift deletion. */
struct onstack {
	uint32_t *slot;         /* vertex + 1, 0 = empty */
	size_t mask, n;
};

struct walk {
	struct cg_graph *g;
	struct cg_canon_eval *ev;
	struct frame *fr;
	size_t nfr, capfr;
	uint32_t *ar;
	size_t nar, capar;
	struct onstack on;
	cg_game *opt;
	size_t capopt;
	int shared;              /* other threads evaluate in the graph too */
	cg_vertex root;
	cg_game result;
};

/* Whether the walk must stop: interrupted, or a sibling failed. */
static int
stopped(const struct cg_canon_eval *ev)
{
	return (ev->interrupt != NULL && *ev->interrupt) ||
	    (ev->abandon != NULL && *ev->abandon);
}

/* A data error of the evaluation: kept for the caller, and the other
 * workers of a parallel evaluation told to give up. */
static void
fail(struct cg_canon_eval *ev, const char *msg)
{
	if (ev->error[0] == '\0')
		snprintf(ev->error, sizeof ev->error, "%s", msg);
	if (ev->abandon != NULL)
		*ev->abandon = 1;
}

static size_t
vhash(uint32_t v, size_t mask)
{
	return (size_t)((v * 0x9e3779b1u) >> 7) & mask;
}

static void
on_grow(struct onstack *s)
{
	uint32_t *old = s->slot;
	size_t oldn = old ? s->mask + 1 : 0, i, j;

	s->mask = oldn ? 2 * oldn - 1 : 63;
	s->slot = cg_xcalloc(s->mask + 1, sizeof *s->slot);
	for (i = 0; i < oldn; i++) {
		if (old[i] == 0)
			continue;
		for (j = vhash(old[i] - 1, s->mask); s->slot[j];
		    j = (j + 1) & s->mask)
			;
		s->slot[j] = old[i];
	}
	free(old);
}

/* Add v; 0 if it was there already. */
static int
on_add(struct onstack *s, uint32_t v)
{
	size_t j;

	if (s->slot == NULL || 2 * (s->n + 1) > s->mask + 1)
		on_grow(s);
	for (j = vhash(v, s->mask); s->slot[j]; j = (j + 1) & s->mask)
		if (s->slot[j] == v + 1)
			return 0;
	s->slot[j] = v + 1;
	s->n++;
	return 1;
}

static void
on_del(struct onstack *s, uint32_t v)
{
	size_t j, k, h;

	for (j = vhash(v, s->mask); s->slot[j] != v + 1; j = (j + 1) & s->mask)
		;
	s->slot[j] = 0;
	s->n--;
	/* shift back the entries that probed past j */
	for (k = (j + 1) & s->mask; s->slot[k]; k = (k + 1) & s->mask) {
		h = vhash(s->slot[k] - 1, s->mask);
		if (((k - h) & s->mask) >= ((k - j) & s->mask)) {
			s->slot[j] = s->slot[k];
			s->slot[k] = 0;
			j = k;
		}
	}
}

static void
die(struct cg_canon_eval *ev, const char *fmt, const char *what)
{
	cg_die_at(ev->file, ev->line, fmt, what);
}

/*
 * Heap games (cg.heap-rules): a position is a sum of heaps whose nim
 * values the rules give, so its form is *(XOR of them) without expanding
 * it.  One heapnim per ruleset, made on first use and shared by every
 * thread under a lock (a lookup is a table read once the values are in).
 */
/* What on_sight returns when it fails; no game id reaches it (the store
 * ends at 2^32 - 2 games). */
#define SIGHT_ERROR ((cg_game)UINT32_MAX - 1)

static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct heap_cache {
	struct cg_plugin *rs;
	struct cg_heapnim *h;   /* NULL: the ruleset has no usable rules;
	                         * kept to the end of the process */
} heap_cache[8];
static size_t heap_ncache;

static cg_game
heap_value(struct cg_graph *g, cg_vertex v, struct cg_plugin *rs,
    char *msg, size_t msgsize)
{
	struct cg_heapnim *h = NULL;
	const unsigned char *key;
	const char *why;
	uint64_t value;
	size_t len, i;
	int r;

	/* most rulesets are no heap games: no lock for them */
	if (cg_rs_extension(rs, CG_EXT_HEAP_RULES) == NULL)
		return CG_NO_GAME;
	pthread_mutex_lock(&heap_lock);
	for (i = 0; i < heap_ncache && heap_cache[i].rs != rs; i++)
		;
	if (i == heap_ncache && i < sizeof heap_cache / sizeof *heap_cache) {
		heap_cache[i].rs = rs;
		heap_cache[i].h = cg_heapnim_for(rs, 0, &why);
		heap_ncache++;
	}
	if (i < heap_ncache)
		h = heap_cache[i].h;
	if (h == NULL) {
		pthread_mutex_unlock(&heap_lock);
		return CG_NO_GAME;
	}
	key = cg_graph_key(g, v, &len);
	r = cg_heapnim_position(h, rs, key, len, &value, msg, msgsize);
	pthread_mutex_unlock(&heap_lock);
	if (r == -1 && !cg_stop)
		return SIGHT_ERROR;
	return r == 0 ? cg_canon_nus(cg_dyadic_make(0, 0), 0, value) : CG_NO_GAME;
}

/* The value on sight, CG_NO_GAME, or SIGHT_ERROR with the reason in msg
 * (a value the store cannot hold, a heap the rules cannot value). */
static cg_game
on_sight(struct cg_graph *g, cg_vertex v, char *msg, size_t msgsize)
{
	struct cg_plugin *rs = cg_graph_ruleset(g, v);
	const struct cg_value_ext *x;
	const unsigned char *key;
	struct cg_buf text;
	char why[256];
	size_t len, col;
	cg_game value = CG_NO_GAME;

	if (rs == NULL)
		return CG_NO_GAME;
	if ((x = cg_rs_extension(rs, CG_EXT_VALUE)) == NULL ||
	    x->struct_size < sizeof *x || x->value == NULL)
		return heap_value(g, v, rs, msg, msgsize);
	key = cg_graph_key(g, v, &len);
	cg_buf_init(&text);
	if (x->value(cg_rs_context(rs), key, len, &text) == CG_OK &&
	    cg_canon_parse((const char *)text.data, text.len, &value, why,
	    sizeof why, &col) < 0) {
		struct cg_buf m;

		cg_buf_init(&m);
		cg_buf_addf(&m, "ruleset '%s' gives the value '%s': column "
		    "%zu: %s", rs->name, cg_buf_str(&text), col, why);
		snprintf(msg, msgsize, "%s", cg_buf_str(&m));
		cg_buf_free(&m);
		value = SIGHT_ERROR;
	}
	cg_buf_free(&text);
	return value;
}

cg_game
cg_canonical_on_sight(struct cg_graph *g, cg_vertex v, const char *file,
    unsigned long line)
{
	char msg[256];
	cg_game x = on_sight(g, v, msg, sizeof msg);

	if (x == SIGHT_ERROR)
		cg_die_at(file, line, "%s", msg);
	return x;
}

/* The negative of the form of v's conjugate (cg/conjugate.h), when the
 * graph has that form already; else CG_NO_GAME. */
static cg_game
by_conjugate(struct cg_graph *g, cg_vertex v)
{
	struct cg_plugin *rs = cg_graph_ruleset(g, v);
	const unsigned char *key;
	struct cg_buf turned, canon;
	cg_game form = CG_NO_GAME;
	int64_t e;
	size_t len;

	if (rs == NULL || rs->conjugate == NULL)
		return CG_NO_GAME;
	key = cg_graph_key(g, v, &len);
	cg_buf_init(&turned);
	cg_buf_init(&canon);
	if (cg_rs_conjugate(rs, key, len, &turned) == CG_OK &&
	    cg_rs_canonical(rs, turned.data, turned.len, &canon) >= 0 &&
	    (e = cg_graph_find(g, rs, canon.data, canon.len)) >= 0 &&
	    (form = cg_graph_canon(g, (cg_vertex)e)) != CG_NO_GAME)
		form = cg_canon_neg(form);
	cg_buf_free(&turned);
	cg_buf_free(&canon);
	return form;
}

/* v's form if it is known, or can be had without expanding v. */
static cg_game
known(struct walk *w, cg_vertex v)
{
	cg_game x = cg_graph_canon(w->g, v);
	char msg[256];

	if (x != CG_NO_GAME)
		return x;
	x = on_sight(w->g, v, msg, sizeof msg);
	if (x == SIGHT_ERROR)
		cg_canon_data_error("%s", msg);  /* caught by the walk */
	if (x == CG_NO_GAME && w->ev->known != NULL)
		x = w->ev->known(w->ev->ctx, w->g, v);
	if (x == CG_NO_GAME)
		x = by_conjugate(w->g, v);
	if (x != CG_NO_GAME)
		cg_graph_set_canon(w->g, v, x);
	return x;
}

static void
push(struct walk *w, cg_vertex v)
{
	struct frame *f;

	if (w->shared)
		(void)cg_graph_claim(w->g, v, cg_worker);
	if (!on_add(&w->on, v)) {
		struct cg_buf t;

		cg_buf_init(&t);
		cg_graph_print(w->g, v, &t);
		die(w->ev, "position '%s' repeats: not a short game",
		    cg_buf_str(&t));
	}
	if (w->nfr == w->capfr) {
		w->capfr = w->capfr ? 2 * w->capfr : 64;
		w->fr = cg_xreallocarray(w->fr, w->capfr, sizeof *w->fr);
	}
	f = &w->fr[w->nfr++];
	memset(f, 0, sizeof *f);
	f->v = v;
	f->base = w->nar;
}

/* A document node with a ruleset but neither a position nor options
 * cannot be valued. */
static void
check_node(struct walk *w, cg_vertex v)
{
	const struct cg_doc *d = cg_graph_doc(w->g);
	const struct cg_node *n;
	int64_t x = cg_graph_doc_node(w->g, v);

	if (x < 0)
		return;
	n = &d->node[x];
	if (!n->expanded && n->rs != NULL && n->text != NULL &&
	    n->nopt[0] + n->nopt[1] == 0)
		cg_die_at(d->file, n->line, "node %llu has no position bytes",
		    (unsigned long long)n->id);
}

static void
expand(struct walk *w, struct frame *f)
{
	struct cg_sum ar = { w->ar, w->nar, w->capar };
	size_t nl;

	check_node(w, f->v);
	nl = cg_graph_all_options(w->g, f->v, CG_LEFT, &ar);
	f->nopt = (uint32_t)(nl + cg_graph_all_options(w->g, f->v, CG_RIGHT,
	    &ar));
	f->nl = (uint32_t)nl;
	w->ar = ar.v;
	w->nar = ar.n;
	w->capar = ar.cap;
	f->scan = f->base;
	f->end = w->nar;
	f->expanded = 1;
	w->ev->evaluated++;
}

/* Make the form of the top frame (every component known). */
static cg_game
finish(struct walk *w, struct frame *f)
{
	size_t p = f->base, i, k;
	uint32_t j;

	if (f->nopt + 1 > w->capopt) {
		w->capopt = f->nopt + 1;
		w->opt = cg_xreallocarray(w->opt, w->capopt, sizeof *w->opt);
	}
	for (j = 0; j < f->nopt; j++) {
		cg_game s = cg_canon_zero();

		k = w->ar[p++];
		for (i = 0; i < k; i++)
			s = cg_canon_add(s, cg_graph_canon(w->g, w->ar[p + i]));
		p += k;
		w->opt[j] = s;
	}
	return cg_canon_make(w->opt, f->nl, w->opt + f->nl, f->nopt - f->nl);
}

/*
 * The scan of a frame when other threads evaluate in the same graph:
 * descend into the first unknown component nobody holds; a component
 * another thread holds is passed over while others remain, and waited
 * for when it is all that is left (the graph is acyclic -- a ruleset with
 * a measure -- so the holder never waits for us).  1 when a frame was
 * pushed, 0 when every component is known, -1 when stopped.
 */
static int
shared_scan(struct walk *w, struct frame *f)
{
	for (;;) {
		size_t p = f->scan;
		cg_vertex held = 0;
		int waiting = 0;

		while (p < f->end) {
			size_t k = w->ar[p], i;
			int all = 1;

			for (i = 0; i < k; i++) {
				cg_vertex c = w->ar[p + 1 + i];

				if (known(w, c) != CG_NO_GAME)
					continue;
				if (cg_graph_claim(w->g, c, cg_worker)) {
					push(w, c);
					return 1;
				}
				all = 0;
				if (!waiting) {
					held = c;
					waiting = 1;
				}
			}
			/* leading options fully known need no second look */
			if (all && p == f->scan)
				f->scan += 1 + k;
			p += 1 + k;
		}
		if (!waiting)
			return 0;
		while (cg_graph_canon(w->g, held) == CG_NO_GAME) {
			if (stopped(w->ev))
				return -1;
			sched_yield();
		}
	}
}

/* The walk proper: w->result is the form, or CG_NO_GAME when stopped. */
static void
walk(void *arg)
{
	struct walk *w = arg;
	struct cg_canon_eval *ev = w->ev;
	struct cg_graph *g = w->g;
	cg_vertex v = w->root;
	cg_game x;

	w->result = CG_NO_GAME;
	if ((x = known(w, v)) != CG_NO_GAME) {
		w->result = x;
		return;
	}
	push(w, v);
	while (w->nfr > 0) {
		struct frame *f = &w->fr[w->nfr - 1];
		int descended = 0;

		if (!f->expanded) {
			if (stopped(ev) ||
			    (ev->limit != 0 && ev->evaluated >= ev->limit))
				return;
			expand(w, f);
			f = &w->fr[w->nfr - 1];
			cg_progress_tick();
			/* the options may be cut short by the stop */
			if (stopped(ev))
				return;
		}
		if (w->shared) {
			int r = shared_scan(w, f);

			if (r < 0)
				return;
			if (r > 0)
				continue;
		} else {
			/* descended first: push may have moved f's frame */
			while (!descended && f->scan < f->end) {
				size_t k = w->ar[f->scan], i;

				for (i = 0; i < k; i++) {
					cg_vertex c = w->ar[f->scan + 1 + i];

					if (known(w, c) != CG_NO_GAME)
						continue;
					push(w, c);
					descended = 1;
					break;
				}
				if (!descended)
					f->scan += 1 + k;
			}
			if (descended)
				continue;
		}
		x = finish(w, f);
		cg_graph_set_canon(g, f->v, x);
		if (w->shared)
			cg_graph_release(g, f->v);
		on_del(&w->on, f->v);
		w->nar = f->base;
		w->nfr--;
	}
	w->result = cg_graph_canon(g, v);
}

cg_game
cg_canonical_vertex(struct cg_graph *g, cg_vertex v, struct cg_canon_eval *ev)
{
	struct walk w;
	char msg[256];
	size_t i;

	memset(&w, 0, sizeof w);
	w.g = g;
	w.ev = ev;
	w.shared = ev->shared;
	w.root = v;
	if (cg_canon_catch(walk, &w, msg, sizeof msg) < 0) {
		w.result = CG_NO_GAME;
		if (!ev->recover) {
			struct cg_buf t;

			cg_buf_init(&t);
			cg_graph_print(g, v, &t);
			cg_die_at(ev->file, ev->line, "position '%s': %s",
			    cg_buf_str(&t), msg);
		}
		fail(ev, msg);
	}
	/* a walk cut short lets go of what it holds, for the next one */
	if (w.shared)
		for (i = 0; i < w.nfr; i++)
			if (cg_graph_canon(g, w.fr[i].v) == CG_NO_GAME)
				cg_graph_release(g, w.fr[i].v);
	free(w.fr);
	free(w.ar);
	free(w.on.slot);
	free(w.opt);
	return w.result;
}

struct addition {
	cg_game s, x;
};

static void
add_one(void *arg)
{
	struct addition *a = arg;

	a->s = cg_canon_add(a->s, a->x);
}

cg_game
cg_canonical_sum(struct cg_graph *g, const cg_vertex *sum, size_t n,
    struct cg_canon_eval *ev)
{
	struct addition a = { cg_canon_zero(), CG_NO_GAME };
	char msg[256];
	size_t i;

	for (i = 0; i < n; i++) {
		a.x = cg_canonical_vertex(g, sum[i], ev);
		if (a.x == CG_NO_GAME)
			return CG_NO_GAME;
		/* a sum too large for the store is an error of the input's
		 * line (^1099511627776 + ^1099511627776) */
		if (cg_canon_catch(add_one, &a, msg, sizeof msg) < 0) {
			if (!ev->recover)
				cg_die_at(ev->file, ev->line, "%s", msg);
			fail(ev, msg);
			return CG_NO_GAME;
		}
	}
	return a.s;
}

struct rederive {
	struct cg_graph *g;
	struct cg_canon_eval *ev;
	cg_game *opt;
	size_t n, cap;
	int stopped;
};

static int
rederive_option(void *ctx, const char *move, const cg_vertex *sum, size_t n)
{
	struct rederive *r = ctx;
	cg_game x;

	(void)move;
	x = cg_canonical_sum(r->g, sum, n, r->ev);
	if (x == CG_NO_GAME) {
		r->stopped = 1;
		return 1;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->opt = cg_xreallocarray(r->opt, r->cap, sizeof *r->opt);
	}
	r->opt[r->n++] = x;
	return 0;
}

cg_game
cg_canonical_rederive(struct cg_graph *g, cg_vertex v,
    struct cg_canon_eval *ev)
{
	struct rederive r = { g, ev, NULL, 0, 0, 0 };
	size_t nl;
	cg_game x = CG_NO_GAME;

	cg_graph_options(g, v, CG_LEFT, rederive_option, &r);
	nl = r.n;
	if (!r.stopped)
		cg_graph_options(g, v, CG_RIGHT, rederive_option, &r);
	if (!r.stopped)
		x = cg_canon_make(r.opt, nl, r.opt + nl, r.n - nl);
	free(r.opt);
	return x;
}

/* ------------------------------------------------------------ threads */

struct parallel {
	struct cg_graph *g;
	struct cg_canon_eval *evs;
	const cg_vertex *task;
};

static void
parallel_one(void *ctx, size_t i)
{
	struct parallel *p = ctx;
	cg_vertex v = p->task[i];

	if (cg_graph_canon(p->g, v) != CG_NO_GAME ||
	    cg_graph_owner(p->g, v) >= 0)
		return;
	(void)cg_canonical_vertex(p->g, v, &p->evs[cg_worker]);
}

/*
 * Work for the threads: the positions within a few moves of the sum
 * (breadth first, up to a few hundred per thread), smallest measure
 * first.  Each thread takes the next, evaluates it, and claims the
 * components it descends into, so two threads rarely do one thing twice;
 * the sum comes last, its options known.  A ruleset without a measure
 * may loop, and a thread waiting on another must know it cannot: such
 * sums are evaluated by one thread.
 */
cg_game
cg_canonical_parallel(struct cg_graph *g, const cg_vertex *sum, size_t n,
    unsigned jobs, struct cg_canon_eval *evs)
{
	struct cg_measured *o = NULL;
	struct cg_sum queue, opts;
	struct parallel p;
	cg_vertex *task;
	size_t head = 0, no = 0, want = 256 * (size_t)jobs, i, at;
	unsigned char *seen = NULL;
	size_t capseen = 0;
	volatile sig_atomic_t abandon = 0;
	char msg[256];
	cg_game x;
	unsigned k;

	if (jobs < 2)
		return cg_canonical_sum(g, sum, n, &evs[0]);
	cg_sum_init(&queue);
	cg_sum_init(&opts);
	for (i = 0; i < n; i++)
		cg_sum_add(&queue, sum[i]);
	while (head < queue.n && no < want) {
		cg_vertex v = queue.v[head++];
		struct cg_plugin *rs = cg_graph_ruleset(g, v);
		const unsigned char *key;
		size_t len;
		uint64_t m;

		if (v >= capseen) {
			size_t old = capseen;

			capseen = 2 * v + 64;
			seen = cg_xrealloc(seen, capseen);
			memset(seen + old, 0, capseen - old);
		}
		if (seen[v] || cg_graph_canon(g, v) != CG_NO_GAME)
			continue;
		seen[v] = 1;
		/* a value known on sight is not expanded (a heap of 10^6) */
		x = on_sight(g, v, msg, sizeof msg);
		if (x == SIGHT_ERROR) {
			if (!evs[0].recover)
				cg_die_at(evs[0].file, evs[0].line, "%s", msg);
			fail(&evs[0], msg);
			x = CG_NO_GAME;
			goto out;
		}
		if (x != CG_NO_GAME) {
			cg_graph_set_canon(g, v, x);
			continue;
		}
		key = cg_graph_key(g, v, &len);
		if (rs == NULL || cg_rs_measure(rs, key, len, &m) < 0) {
			/* no proof the game cannot loop */
			x = cg_canonical_sum(g, sum, n, &evs[0]);
			goto out;
		}
		o = cg_xreallocarray(o, no + 1, sizeof *o);
		o[no].measure = m;
		o[no++].v = v;
		opts.n = 0;
		cg_graph_all_options(g, v, CG_LEFT, &opts);
		cg_graph_all_options(g, v, CG_RIGHT, &opts);
		for (at = 0; at < opts.n; at += 1 + opts.v[at])
			for (i = 0; i < opts.v[at]; i++)
				cg_sum_add(&queue, opts.v[at + 1 + i]);
	}
	if (no > 1)
		qsort(o, no, sizeof *o, cg_measured_cmp);
	task = cg_xmalloc((no + 1) * sizeof *task);
	for (i = 0; i < no; i++)
		task[i] = o[i].v;
	for (k = 0; k < jobs; k++) {
		evs[k].shared = 1;
		evs[k].abandon = &abandon;
	}
	p.g = g;
	p.evs = evs;
	p.task = task;
	cg_parallel_for(no, jobs, 1, parallel_one, &p);
	for (k = 0; k < jobs; k++) {
		evs[k].shared = 0;
		evs[k].abandon = NULL;
		if (evs[k].error[0] != '\0' && k > 0)
			fail(&evs[0], evs[k].error);
	}
	free(task);
	x = abandon ? CG_NO_GAME : cg_canonical_sum(g, sum, n, &evs[0]);
out:
	free(o);
	free(seen);
	cg_sum_free(&queue);
	cg_sum_free(&opts);
	return x;
}
