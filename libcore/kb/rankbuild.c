/* rankbuild.c - knowledge bases of ranked families (see rankbuild.h).
 *
 * A member's form is {its Left options | its Right options}, an option's
 * the sum of its components' forms, and every component of an option is
 * a smaller member, found by its slot: a sorted array of slots with a
 * directory of their high bits takes a position to its member in two or
 * three cache lines, with eight bytes a member.  A component that is no
 * member (a family that is not closed under moves) is evaluated through
 * a position graph instead, with the members' forms known to it. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/bytemap.h"
#include "base/jobs.h"
#include "base/util.h"
#include "base/varint.h"
#include "base/watch.h"
#include "graph/graph.h"
#include "values/ckpt.h"
#include "kb/kb.h"
#include "kb/kbvalue.h"
#include "kb/rankbuild.h"
#include "solve/canonical.h"
#include "solve/session.h"
#include "values/notation.h"

/* The checkpoint's kind of the members' forms (the base's kinds are
 * 0 .. nkinds-1). */
#define FORM_KIND 64
#define F_ENTRY 1u

enum route { FROM_CANON, BY_SEARCH };

struct worker {
	struct cg_buf key, canon, turned;
	cg_game *opt[2];
	size_t nopt[2], cap[2];
	cg_game comp[64];         /* the current option's components */
	size_t ncomp;
	int side;
	double outside_s;         /* time spent on components no member */
	struct cg_canon_eval ev;
	struct cg_session *session;
	uint64_t evaluated;
};

struct cg_kb_ranked {
	struct cg_kb_build_options o;
	struct cg_plugin *rs;
	struct cg_kb_meta meta;
	const char *family;       /* of the index */
	/* the members, by slot */
	uint64_t n, seen;
	uint64_t *slot;
	uint16_t *measure;
	uint8_t *flag;
	_Atomic uint32_t *val;    /* the form + 1 */
	uint32_t *partner;        /* the conjugate + 1, UINT32_MAX: none,
	                           * 0: not known yet (while forms are made) */
	uint32_t *dir;            /* first member of each slot >> shift */
	unsigned shift;
	uint64_t ndir;
	/* the entries of the base, by slot: their members (NULL: every
	 * member is one) */
	uint32_t *entry;
	uint64_t nentries;
	enum route route[CG_KB_MAXKINDS];
	char **text[CG_KB_MAXKINDS];  /* search kinds: per entry */
	struct cg_graph *graph;   /* components that are no members */
	struct worker *w[CG_MAX_JOBS];
	struct cg_ckpt *ck;
	char *ckpath;             /* removed once the base is written */
	int ckpath_done;
	uint64_t loaded;
	double ckpt_s;            /* time spent writing the checkpoint */
	uint32_t *reloaded;       /* members whose forms the checkpoint gave */
	uint64_t nreloaded;
};

/* ---------------------------------------------------------- members */

/* The member of entry i of the base. */
static inline uint32_t
ent(const struct cg_kb_ranked *b, uint64_t i)
{
	return b->entry != NULL ? b->entry[i] : (uint32_t)i;
}

struct cg_kb_ranked *
cg_kb_ranked_new(const struct cg_kb_build_options *o, struct cg_plugin *rs,
    const struct cg_kb_meta *meta)
{
	struct cg_kb_ranked *b;
	uint64_t slots;

	if (o->family == NULL || cg_rs_slots(rs, o->family, &slots) < 0)
		return NULL;
	b = cg_xcalloc(1, sizeof *b);
	b->o = *o;
	b->rs = rs;
	cg_kb_meta_copy(&b->meta, meta);
	free(b->meta.index_family);
	b->meta.index_family = cg_xstrdup(o->family);
	b->meta.slots = slots;
	b->family = b->meta.index_family;
	b->graph = cg_graph_new();
	cg_graph_share(b->graph, 1);
	return b;
}

static struct worker *
worker(struct cg_kb_ranked *b)
{
	struct worker **w = &b->w[cg_worker];

	if (*w == NULL) {
		*w = cg_xcalloc(1, sizeof **w);
		cg_buf_init(&(*w)->key);
		cg_buf_init(&(*w)->canon);
		cg_buf_init(&(*w)->turned);
	}
	return *w;
}

void
cg_kb_ranked_free(struct cg_kb_ranked *b)
{
	unsigned j;
	uint32_t k;
	uint64_t i;

	if (b == NULL)
		return;
	for (j = 0; j < CG_MAX_JOBS; j++) {
		struct worker *w = b->w[j];

		if (w == NULL)
			continue;
		cg_buf_free(&w->key);
		cg_buf_free(&w->canon);
		cg_buf_free(&w->turned);
		free(w->opt[0]);
		free(w->opt[1]);
		cg_session_free(w->session);
		free(w);
	}
	for (k = 0; k < CG_KB_MAXKINDS; k++) {
		for (i = 0; b->text[k] && i < b->nentries; i++)
			free(b->text[k][i]);
		free(b->text[k]);
	}
	if (b->ck != NULL)
		cg_ckpt_close(b->ck, 0);
	cg_graph_free(b->graph);
	free(b->slot);
	free(b->measure);
	free(b->flag);
	free((void *)b->val);
	free(b->dir);
	free(b->entry);
	free(b->reloaded);
	free(b->ckpath);
	cg_kb_meta_free(&b->meta);
	free(b);
}

size_t
cg_kb_ranked_count(const struct cg_kb_ranked *b)
{
	return b->nentries;
}

size_t
cg_kb_ranked_seen(const struct cg_kb_ranked *b)
{
	return b->seen;
}

/* A member as the family gives it, before sorting. */
struct rec {
	uint64_t slot;
	uint32_t measure;
	uint32_t flag;
};

#define CHUNK 65536

struct enumr {
	struct cg_kb_ranked *b;
	struct cg_buf raw;
	size_t *off, n;
	struct part {
		struct rec *r;
		size_t n, cap;
	} part[CG_MAX_JOBS];
	struct rec *all;
	uint64_t nall, capall;
};

static void
enum_one(void *ctx, size_t i)
{
	struct enumr *e = ctx;
	struct cg_kb_ranked *b = e->b;
	struct worker *w = worker(b);
	struct part *p = &e->part[cg_worker];
	uint64_t slot, m = 0;
	uint32_t flag = F_ENTRY;

	w->canon.len = 0;
	if (cg_rs_canonical(b->rs, e->raw.data + e->off[i], e->off[i + 1] -
	    e->off[i], &w->canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	if (cg_rs_rank(b->rs, b->family, w->canon.data, w->canon.len,
	    &slot) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': a member of family '%s' has "
		    "no slot: %s", b->rs->name, b->family, cg_rs_errmsg(b->rs));
	if (cg_rs_measure(b->rs, w->canon.data, w->canon.len, &m) < 0) {
		if (b->o.measured)
			cg_die(CG_EXIT_USAGE, "ruleset '%s' has no measure: "
			    "--measure cannot select its positions", b->rs->name);
		m = w->canon.len;
	}
	if (b->o.measured && m > b->o.measure_hi)
		return;     /* no member of the base needs it */
	if (b->o.measured && m < b->o.measure_lo)
		flag = 0;
	if (b->meta.shard_n > 1 && cg_kb_shard_of(w->canon.data,
	    w->canon.len, b->meta.shard_n) != b->meta.shard_k)
		flag = 0;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 4096;
		p->r = cg_xreallocarray(p->r, p->cap, sizeof *p->r);
	}
	p->r[p->n].slot = slot;
	p->r[p->n].measure = m > 0xfffe ? 0xfffe : (uint32_t)m;
	p->r[p->n++].flag = flag;
}

static void
enum_flush(struct enumr *e)
{
	unsigned j;
	size_t i;

	if (e->n == 0)
		return;
	e->off[e->n] = e->raw.len;
	cg_parallel_for(e->n, e->b->o.jobs, 256, enum_one, e);
	for (j = 0; j < CG_MAX_JOBS; j++) {
		struct part *p = &e->part[j];

		if (e->nall + p->n > e->capall) {
			while (e->nall + p->n > e->capall)
				e->capall = e->capall ? 2 * e->capall : CHUNK;
			if (!cg_watch_room((e->capall - e->nall) * sizeof *e->all))
				return;
			e->all = cg_xreallocarray(e->all, e->capall,
			    sizeof *e->all);
		}
		for (i = 0; i < p->n; i++)
			e->all[e->nall++] = p->r[i];
		p->n = 0;
	}
	e->b->seen += e->n;
	e->n = 0;
	e->raw.len = 0;
}

static int
on_member(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct enumr *e = ctx;

	(void)move;
	if (cg_stop)
		return 1;
	e->off[e->n++] = e->raw.len;
	cg_buf_add(&e->raw, pos, len);
	if (e->n < CHUNK)
		return 0;
	enum_flush(e);
	if (e->b->o.progress && e->b->seen % (16 * CHUNK) == 0)
		fprintf(stderr, "%s: %llu positions enumerated, %.0f MB\n",
		    cg_progname, (unsigned long long)e->b->seen,
		    (double)cg_memory_rss() / 1048576.0);
	return cg_stop != 0;
}

static int
cmp_rec(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Slots' high bits to the first member there. */
static void
directory(struct cg_kb_ranked *b)
{
	uint64_t top = b->n ? b->slot[b->n - 1] : 0, i, d;

	b->shift = 0;
	while ((top >> b->shift) > b->n / 2 + 1)
		b->shift++;
	b->ndir = (top >> b->shift) + 2;
	b->dir = cg_xmalloc(b->ndir * sizeof *b->dir);
	for (i = 0, d = 0; d < b->ndir; d++) {
		while (i < b->n && (b->slot[i] >> b->shift) < d)
			i++;
		b->dir[d] = (uint32_t)i;
	}
}

/* The member at slot s, or -1. */
static int64_t
member(const struct cg_kb_ranked *b, uint64_t s)
{
	uint64_t d = s >> b->shift, lo, hi, mid;

	if (d + 1 >= b->ndir)
		return -1;
	lo = b->dir[d];
	hi = b->dir[d + 1];
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->slot[mid] < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->dir[d + 1] && b->slot[lo] == s ? (int64_t)lo : -1;
}

void
cg_kb_ranked_family(struct cg_kb_ranked *b)
{
	struct enumr e;
	uint64_t i, j;
	unsigned k;
	int rc;

	memset(&e, 0, sizeof e);
	e.b = b;
	cg_buf_init(&e.raw);
	e.off = cg_xmalloc((CHUNK + 1) * sizeof *e.off);
	rc = cg_rs_enumerate(b->rs, b->o.family, on_member, &e);
	if (rc >= 0 && !cg_stop)
		enum_flush(&e);
	cg_buf_free(&e.raw);
	free(e.off);
	for (k = 0; k < CG_MAX_JOBS; k++)
		free(e.part[k].r);
	if (cg_stop) {
		free(e.all);
		cg_die(cg_stop_status(), "family '%s': %s after %llu positions "
		    "(about %.0f bytes each): the whole family needs more",
		    b->o.family, cg_stop_reason(), (unsigned long long)b->seen,
		    b->seen ? (double)cg_memory_rss() / (double)b->seen : 0.0);
	}
	if (rc < 0)
		cg_die(CG_EXIT_DATA, "family '%s': %s", b->o.family,
		    cg_rs_errmsg(b->rs));
	/* the enumeration comes nearly in slot order */
	for (i = 1; i < e.nall && e.all[i - 1].slot <= e.all[i].slot; i++)
		;
	if (i < e.nall)
		qsort(e.all, e.nall, sizeof *e.all, cmp_rec);
	for (i = 0, j = 0; i < e.nall; i++) {
		if (j > 0 && e.all[j - 1].slot == e.all[i].slot) {
			e.all[j - 1].flag |= e.all[i].flag;
			continue;
		}
		e.all[j++] = e.all[i];
	}
	b->n = j;
	/* the build's arrays, about 30 bytes a member, before any is made */
	if (!cg_watch_room(b->n * 30)) {
		free(e.all);
		cg_die(cg_stop_status(), "family '%s': %s: its %llu members "
		    "need about %llu MB more", b->o.family, cg_stop_reason(),
		    (unsigned long long)b->n,
		    (unsigned long long)(b->n * 30 >> 20));
	}
	if (b->n > UINT32_MAX)
		cg_die(CG_EXIT_DATA, "family '%s': %llu members, more than this "
		    "builder numbers", b->o.family, (unsigned long long)b->n);
	b->slot = cg_xmalloc((b->n + 1) * sizeof *b->slot);
	b->measure = cg_xmalloc((b->n + 1) * sizeof *b->measure);
	b->flag = cg_xmalloc(b->n + 1);
	for (i = 0; i < b->n; i++) {
		b->slot[i] = e.all[i].slot;
		b->measure[i] = (uint16_t)e.all[i].measure;
		b->flag[i] = (uint8_t)e.all[i].flag;
		b->nentries += e.all[i].flag & F_ENTRY;
	}
	free(e.all);
	/* every member in the base (a whole family): no table */
	if (b->nentries < b->n) {
		b->entry = cg_xmalloc((b->nentries + 1) * sizeof *b->entry);
		for (i = 0, j = 0; i < b->n; i++)
			if (b->flag[i] & F_ENTRY)
				b->entry[j++] = (uint32_t)i;
	}
	directory(b);
	b->val = cg_xcalloc(b->n + 1, sizeof *b->val);
}

/* ------------------------------------------------------------- forms */

static cg_game
form_of(struct cg_kb_ranked *b, struct worker *w, const unsigned char *key,
    size_t len);

/* A component that is no member (or not made yet): through the graph,
 * the members' forms known to it. */
static cg_game
known_member(void *ctx, struct cg_graph *g, cg_vertex v)
{
	struct cg_kb_ranked *b = ctx;
	const unsigned char *key;
	size_t len;
	uint64_t s;
	int64_t m;
	uint32_t x;

	key = cg_graph_key(g, v, &len);
	if (cg_rs_rank(b->rs, b->family, key, len, &s) < 0 ||
	    (m = member(b, s)) < 0)
		return CG_NO_GAME;
	x = atomic_load_explicit(&b->val[m], memory_order_acquire);
	return x ? x - 1 : CG_NO_GAME;
}

static cg_game
outsider(struct cg_kb_ranked *b, struct worker *w, const unsigned char *key,
    size_t len)
{
	cg_vertex v = cg_graph_vertex(b->graph, b->rs, key, len);
	cg_game g = cg_graph_canon(b->graph, v);

	if (g != CG_NO_GAME)
		return g;
	w->ev.known = known_member;
	w->ev.ctx = b;
	w->ev.interrupt = &cg_stop;
	w->ev.shared = CG_HAS_HOOK(b->rs, measure);
	return cg_canonical_vertex(b->graph, v, &w->ev);
}

static int
on_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct cg_kb_ranked *b = ((void **)ctx)[0];
	struct worker *w = ((void **)ctx)[1];
	uint64_t s;
	int64_t m;
	uint32_t x = 0;
	cg_game g;

	(void)move;
	w->canon.len = 0;
	if (cg_rs_canonical(b->rs, pos, len, &w->canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	if (cg_rs_rank(b->rs, b->family, w->canon.data, w->canon.len,
	    &s) == 0 && (m = member(b, s)) >= 0)
		x = atomic_load_explicit(&b->val[m], memory_order_acquire);
	if (x == 0) {
		double t0 = cg_elapsed();

		g = outsider(b, w, w->canon.data, w->canon.len);
		w->outside_s += cg_elapsed() - t0;
	} else {
		g = x - 1;
	}
	if (g == CG_NO_GAME)
		return 1;       /* interrupted */
	if (w->ncomp == sizeof w->comp / sizeof w->comp[0]) {
		w->comp[0] = cg_canon_add(w->comp[0], w->comp[1]);
		memmove(w->comp + 1, w->comp + 2, (w->ncomp - 2) *
		    sizeof *w->comp);
		w->ncomp--;
	}
	w->comp[w->ncomp++] = g;
	return 0;
}

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct cg_kb_ranked *b = ((void **)ctx)[0];
	struct worker *w = ((void **)ctx)[1];
	cg_game g;
	size_t i;
	int s = w->side, rc;

	(void)move;
	w->ncomp = 0;
	rc = cg_rs_decompose(b->rs, pos, len, on_component, ctx);
	if (rc < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	if (rc > 0)
		return 1;
	g = w->ncomp ? w->comp[0] : cg_canon_zero();
	for (i = 1; i < w->ncomp; i++)
		g = cg_canon_add(g, w->comp[i]);
	if (w->nopt[s] == w->cap[s]) {
		w->cap[s] = w->cap[s] ? 2 * w->cap[s] : 64;
		w->opt[s] = cg_xreallocarray(w->opt[s], w->cap[s],
		    sizeof *w->opt[s]);
	}
	w->opt[s][w->nopt[s]++] = g;
	return 0;
}

/* The form of a member's position: CG_NO_GAME when interrupted. */
static cg_game
form_of(struct cg_kb_ranked *b, struct worker *w, const unsigned char *key,
    size_t len)
{
	void *ctx[2] = { b, w };
	int rc;

	for (w->side = 0; w->side < 2; w->side++) {
		w->nopt[w->side] = 0;
		rc = cg_rs_options(b->rs, key, len, (enum cg_side)w->side,
		    on_option, ctx);
		if (rc < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
			    cg_rs_errmsg(b->rs));
		if (rc > 0)
			return CG_NO_GAME;
	}
	w->evaluated++;
	return cg_canon_make(w->opt[0], w->nopt[0], w->opt[1], w->nopt[1]);
}

/* The position of member i in w->key. */
static void
position(struct cg_kb_ranked *b, struct worker *w, uint64_t i)
{
	w->key.len = 0;
	if (cg_rs_unrank(b->rs, b->family, b->slot[i], &w->key) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': slot %llu of family '%s' "
		    "holds no position: %s", b->rs->name,
		    (unsigned long long)b->slot[i], b->family,
		    cg_rs_errmsg(b->rs));
}

/* The member whose position is the conjugate of w->key's (cg/conjugate.h:
 * its value is the negative), or -1. */
static int64_t
conjugate(struct cg_kb_ranked *b, struct worker *w)
{
	uint64_t s;

	w->turned.len = 0;
	w->canon.len = 0;
	if (b->rs->conjugate == NULL || cg_rs_conjugate(b->rs, w->key.data,
	    w->key.len, &w->turned) < 0 || cg_rs_canonical(b->rs,
	    w->turned.data, w->turned.len, &w->canon) < 0 ||
	    cg_rs_rank(b->rs, b->family, w->canon.data, w->canon.len, &s) < 0)
		return -1;
	return member(b, s);
}

/*
 * A wave's members in two passes: the first makes the form of every
 * member but those whose conjugate (a member of the same wave: the
 * roles exchanged keep the measure) has the smaller slot; the second
 * gives those the negative of their conjugate's form.
 */
struct wave {
	struct cg_kb_ranked *b;
	const uint32_t *m;        /* the members of the wave */
	int pass;
};

static void
eval_one(void *ctx, size_t i)
{
	struct wave *wv = ctx;
	struct cg_kb_ranked *b = wv->b;
	struct worker *w = worker(b);
	uint32_t x = wv->m[i], y, p;
	int64_t c;
	cg_game g = CG_NO_GAME;
	int have = 0;

	if (cg_stop || atomic_load_explicit(&b->val[x], memory_order_relaxed))
		return;
	/* the conjugate, found in the first pass, kept for the second */
	p = b->partner[x];
	if (p == 0) {
		position(b, w, x);
		have = 1;
		c = conjugate(b, w);
		p = b->partner[x] = c >= 0 ? (uint32_t)c + 1 : UINT32_MAX;
	}
	if (p != UINT32_MAX && b->slot[p - 1] < b->slot[x]) {
		if (wv->pass == 0)
			return;
		y = atomic_load_explicit(&b->val[p - 1], memory_order_acquire);
		if (y != 0) {
			atomic_store_explicit(&b->val[x],
			    cg_canon_neg(y - 1) + 1, memory_order_release);
			return;
		}
	}
	if (!have)
		position(b, w, x);
	if (b->o.use_kb && !(b->flag[x] & F_ENTRY))
		g = cg_kb_find_game(b->rs, w->key.data, w->key.len);
	if (g == CG_NO_GAME)
		g = form_of(b, w, w->key.data, w->key.len);
	if (g != CG_NO_GAME)
		atomic_store_explicit(&b->val[x], g + 1, memory_order_release);
}

static uint64_t
evaluated(const struct cg_kb_ranked *b)
{
	uint64_t n = 0;
	unsigned j;

	for (j = 0; j < CG_MAX_JOBS; j++)
		if (b->w[j] != NULL)
			n += b->w[j]->evaluated + b->w[j]->ev.evaluated;
	return n;
}

static void
ckpt_flush(struct cg_kb_ranked *b)
{
	char err[1024];

	if (b->ck != NULL && cg_ckpt_flush(b->ck, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
}

static void
stop_build(struct cg_kb_ranked *b)
{
	ckpt_flush(b);
	cg_die(cg_stop_status(), "%s%s", cg_stop_reason(), b->ck ?
	    "; the checkpoint keeps what was computed" : "");
}


/* One batch of a wave's pass, checkpointed. */
static void
batch(struct cg_kb_ranked *b, struct wave *wv, const uint32_t *order,
    uint64_t start, uint64_t end, double t0)
{
	unsigned char k8[8];
	uint64_t i;

	double tc;

	wv->m = order + start;
	cg_parallel_for(end - start, b->o.jobs, 16, eval_one, wv);
	tc = cg_elapsed();
	for (i = start; i < end && b->ck != NULL; i++) {
		uint32_t x = atomic_load(&b->val[order[i]]);

		if (x == 0)
			continue;
		cg_store_le(k8, b->slot[order[i]], 8);
		cg_ckpt_game(b->ck, k8, 8, FORM_KIND, x - 1);
	}
	if (cg_stop)
		stop_build(b);
	ckpt_flush(b);
	b->ckpt_s += cg_elapsed() - tc;
	if (b->o.progress)
		fprintf(stderr, "%s: %.0f s: measure %u, pass %d: %llu of %llu "
		    "members, %llu evaluated (%.0f/s), %zu games, %.0f MB\n",
		    cg_progname, cg_elapsed(), b->measure[order[end - 1]],
		    wv->pass + 1,
		    (unsigned long long)end, (unsigned long long)b->n,
		    (unsigned long long)evaluated(b),
		    evaluated(b) / (cg_elapsed() - t0 + 1e-9), cg_canon_count(),
		    (double)cg_memory_rss() / 1048576.0);
}

/* Every member's form, smallest measure first, batch by batch. */
static void
forms(struct cg_kb_ranked *b)
{
	uint64_t *cnt = cg_xcalloc(0x10000, sizeof *cnt), i, at, start, end;
	uint64_t ws, we;
	uint32_t *order = cg_xmalloc((b->n + 1) * sizeof *order);
	struct wave wv;
	unsigned m;
	double t0 = cg_elapsed();

	/* members grouped by measure, each group in slot order */
	for (i = 0; i < b->n; i++)
		cnt[b->measure[i]]++;
	for (m = 0, at = 0; m < 0x10000; m++) {
		uint64_t c = cnt[m];

		cnt[m] = at;
		at += c;
	}
	for (i = 0; i < b->n; i++)
		order[cnt[b->measure[i]]++] = (uint32_t)i;
	b->partner = cg_xcalloc(b->n + 1, sizeof *b->partner);
	wv.b = b;
	if (b->o.progress)
		fprintf(stderr, "%s: %llu members (%llu in the base) to evaluate "
		    "on %u thread%s\n", cg_progname, (unsigned long long)b->n,
		    (unsigned long long)b->nentries, b->o.jobs,
		    b->o.jobs == 1 ? "" : "s");
	for (ws = 0; ws < b->n; ws = we) {
		for (we = ws + 1; we < b->n && b->measure[order[we]] ==
		    b->measure[order[ws]]; we++)
			;
		for (wv.pass = 0; wv.pass < 2; wv.pass++)
			for (start = ws; start < we; start = end) {
				end = start + b->o.batch < we ? start + b->o.batch :
				    we;
				batch(b, &wv, order, start, end, t0);
			}
	}
	free(order);
	free(cnt);
	free(b->partner);
	b->partner = NULL;
	if (b->o.progress)
		fprintf(stderr, "%s: %.0f s: forms made, %.1f s of it writing the "
		    "checkpoint\n", cg_progname, cg_elapsed(), b->ckpt_s);
}

/* ------------------------------------------------------ checkpoint */

static void
ckpt_header(struct cg_kb_ranked *b, struct cg_buf *h)
{
	uint32_t k;

	cg_buf_addf(h, "cgkb-rank 1\t%s\t%s\t", b->rs->spec,
	    b->meta.plugin_version);
	cg_escape(h, b->o.family);
	cg_buf_addc(h, '\t');
	for (k = 0; k < b->meta.nkinds; k++)
		cg_buf_addf(h, "%s%s", k ? "," : "", b->meta.kinds[k]);
	cg_buf_addf(h, "\t%u/%u", b->meta.shard_k, b->meta.shard_n);
	if (b->o.measured)
		cg_buf_addf(h, "\t%llu-%llu",
		    (unsigned long long)b->o.measure_lo,
		    (unsigned long long)b->o.measure_hi);
}

static int64_t
entry_of(const struct cg_kb_ranked *b, uint64_t m)
{
	uint64_t lo = 0, hi = b->nentries, mid;

	if (b->entry == NULL)
		return (int64_t)m;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->entry[mid] < m)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->nentries && b->entry[lo] == m ? (int64_t)lo : -1;
}

static int
on_ckpt_value(void *ctx, const unsigned char *key, size_t len, uint32_t kind,
    cg_game g, const char *text, char *err, size_t errlen)
{
	struct cg_kb_ranked *b = ctx;
	uint64_t s = 0;
	int64_t m, e;

	if (len != 8)
		goto bad;
	s = cg_load_le(key, 8);
	if ((m = member(b, s)) < 0)
		goto bad;
	if (kind == FORM_KIND) {
		uint32_t old;

		if (g == CG_NO_GAME)
			goto bad;
		old = atomic_load(&b->val[m]);
		if (old != 0 && old != g + 1)
			goto bad;
		if (old == 0) {
			atomic_store(&b->val[m], g + 1);
			b->reloaded = cg_xreallocarray(b->reloaded,
			    b->nreloaded + 1, sizeof *b->reloaded);
			b->reloaded[b->nreloaded++] = (uint32_t)m;
		}
		return 0;
	}
	if (kind >= b->meta.nkinds || text == NULL || b->text[kind] == NULL ||
	    (e = entry_of(b, (uint64_t)m)) < 0)
		goto bad;
	if (b->text[kind][e] != NULL && strcmp(b->text[kind][e], text) != 0)
		goto bad;
	if (b->text[kind][e] == NULL)
		b->text[kind][e] = cg_xstrdup(text);
	return 0;
bad:
	snprintf(err, errlen, "checkpoint record for slot %llu does not fit "
	    "this build (remove the checkpoint to start afresh)",
	    (unsigned long long)s);
	return 1;
}

/* One in 16 of the forms a checkpoint gave, made again from its
 * options: a checkpoint that lies is caught without redoing the build. */
struct verify {
	struct cg_kb_ranked *b;
	_Atomic int64_t bad;
};

static void
verify_one(void *ctx, size_t i)
{
	struct verify *vf = ctx;
	struct cg_kb_ranked *b = vf->b;
	struct worker *w;
	uint32_t x = b->reloaded[i];
	cg_game got;

	if ((cg_hash_bytes(&b->slot[x], 8, 7) & 15) != 0 || cg_stop)
		return;
	w = worker(b);
	position(b, w, x);
	got = form_of(b, w, w->key.data, w->key.len);
	if (got != CG_NO_GAME && got + 1 != atomic_load(&b->val[x]))
		atomic_store(&vf->bad, (int64_t)x);
}

static void
verify_reloaded(struct cg_kb_ranked *b)
{
	struct verify vf;
	int64_t x;

	vf.b = b;
	atomic_store(&vf.bad, -1);
	cg_parallel_for(b->nreloaded, b->o.jobs, 64, verify_one, &vf);
	if (cg_stop)
		stop_build(b);
	x = atomic_load(&vf.bad);
	if (x >= 0) {
		struct worker *w = worker(b);
		struct cg_buf t;

		position(b, w, (uint64_t)x);
		cg_buf_init(&t);
		cg_rs_print(b->rs, w->key.data, w->key.len, &t);
		cg_die(CG_EXIT_DATA, "the checkpoint's form of '%s' is not what "
		    "its options give: remove the checkpoint to start afresh",
		    cg_buf_str(&t));
	}
}

/* ------------------------------------------------------ search kinds */

struct search {
	struct cg_kb_ranked *b;
	uint32_t k;
	enum cg_kind kind;
	uint64_t from;
};

static void
search_one(void *ctx, size_t i)
{
	struct search *sr = ctx;
	struct cg_kb_ranked *b = sr->b;
	struct worker *w;
	uint64_t e = sr->from + i;
	struct cg_solver *s;
	struct cg_buf out;
	uint32_t *ids;
	size_t n;

	if (cg_stop || b->text[sr->k][e] != NULL)
		return;
	w = worker(b);
	if (w->session == NULL) {
		struct cg_session_options so;

		memset(&so, 0, sizeof so);
		if (b->o.use_kb)
			so.known = cg_kb_known;
		w->session = cg_session_new(&so);
	}
	position(b, w, ent(b, e));
	s = cg_session_solver(w->session, b->rs);
	n = cg_solver_components(s, w->key.data, w->key.len, &ids);
	cg_buf_init(&out);
	if (cg_session_value(w->session, s, sr->kind, ids, n, &out, NULL,
	    0) == 0)
		b->text[sr->k][e] = cg_xstrdup(cg_buf_str(&out));
	cg_buf_free(&out);
	free(ids);
}

static void
by_search(struct cg_kb_ranked *b, uint32_t k)
{
	struct search sr;
	uint64_t e, end;
	unsigned char k8[8];

	sr.b = b;
	sr.k = k;
	if (cg_kind_parse(b->meta.kinds[k], &sr.kind) < 0)
		cg_die(CG_EXIT_DATA, "internal error: kind '%s' by search",
		    b->meta.kinds[k]);
	for (sr.from = 0; sr.from < b->nentries; sr.from = end) {
		end = sr.from + b->o.batch < b->nentries ? sr.from +
		    b->o.batch : b->nentries;
		cg_parallel_for(end - sr.from, b->o.jobs, 1, search_one, &sr);
		for (e = sr.from; e < end && b->ck != NULL; e++)
			if (b->text[k][e] != NULL) {
				cg_store_le(k8, b->slot[ent(b, e)], 8);
				cg_ckpt_text(b->ck, k8, 8, k, b->text[k][e]);
			}
		if (cg_stop)
			stop_build(b);
		ckpt_flush(b);
		if (b->o.progress)
			fprintf(stderr, "%s: %s: %llu of %llu entries\n",
			    cg_progname, b->meta.kinds[k],
			    (unsigned long long)end,
			    (unsigned long long)b->nentries);
	}
}

void
cg_kb_ranked_compute(struct cg_kb_ranked *b, const char *ckpt)
{
	uint32_t k;
	int need_forms = 0;
	size_t loaded = 0;

	for (k = 0; k < b->meta.nkinds; k++) {
		enum cg_kind sk;
		int search = cg_kind_parse(b->meta.kinds[k], &sk) == 0;

		/* outcome and nim value are read off the forms (unless
		 * --engine-only); mis\\`ere kinds and the genus never are */
		b->route[k] = !search || (!b->o.search_only &&
		    (sk == CG_KIND_OUTCOME || sk == CG_KIND_NIMBER)) ?
		    FROM_CANON : BY_SEARCH;
		if (b->route[k] == FROM_CANON)
			need_forms = 1;
		else
			b->text[k] = cg_xcalloc(b->nentries + 1,
			    sizeof *b->text[k]);
	}
	if (ckpt != NULL) {
		struct cg_buf h;
		char err[1024];

		cg_buf_init(&h);
		ckpt_header(b, &h);
		b->ck = cg_ckpt_open(ckpt, cg_buf_str(&h), on_ckpt_value, b,
		    &loaded, err, sizeof err);
		b->ckpath = cg_xstrdup(ckpt);
		cg_buf_free(&h);
		if (b->ck == NULL)
			cg_die(CG_EXIT_DATA, "%s", err);
		if (b->o.progress && loaded > 0)
			fprintf(stderr, "%s: resumed %zu values from %s\n",
			    cg_progname, loaded, ckpt);
	}
	if (need_forms) {
		verify_reloaded(b);
		forms(b);
	}
	for (k = 0; k < b->meta.nkinds; k++)
		if (b->route[k] == BY_SEARCH)
			by_search(b, k);
	ckpt_flush(b);
}

/* ------------------------------------------------------------ estimate */

/*
 * What a build will take, from a sample.  Each measure's members are
 * sampled evenly; a sampled member's form is made as the build makes it
 * once its options are known (the time spent on the members below it,
 * made on the way through a position graph, is not counted), while the
 * budget lasts, smallest measures first; beyond it, a member costs what
 * one of the last measure sampled cost, scaled by the square of their
 * numbers of options (the options' comparisons are what grows), which
 * cost next to nothing to count.  A sampled member meets the store's
 * caches cold where the build meets them warm, so the time is an upper
 * bound.  Memory: the build's arrays, and the store at the games per
 * member and bytes per game the sample made.
 */
#define SAMPLE 24

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
count_option(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	(void)pos;
	(void)len;
	(void)move;
	++*(uint64_t *)ctx;
	return 0;
}

void
cg_kb_ranked_estimate(struct cg_kb_ranked *b, double budget)
{
	uint64_t *cnt = cg_xcalloc(0x10000, sizeof *cnt);
	uint64_t *first = cg_xcalloc(0x10000, sizeof *first), i, m, top = 0;
	double *cost = cg_xcalloc(0x10000, sizeof *cost);
	double *opts = cg_xcalloc(0x10000, sizeof *opts);
	double t0 = cg_elapsed(), total = 0, spent, per_game, ratio, eff;
	double conj = b->rs->conjugate ? 0.5 : 1.0;
	uint32_t *order = cg_xmalloc((b->n + 1) * sizeof *order);
	unsigned done = 0, k;
	struct worker *w = worker(b);
	uint64_t games0 = cg_canon_count(), sampled = 0, peak, games;
	char extra[80] = "";

	for (i = 0; i < b->n; i++) {
		cnt[b->measure[i]]++;
		if (b->measure[i] > top)
			top = b->measure[i];
	}
	for (m = 0, i = 0; m <= top; m++) {
		first[m] = i;
		i += cnt[m];
	}
	for (i = 0; i < b->n; i++)
		order[first[b->measure[i]]++] = (uint32_t)i;
	for (m = 0; m <= top; m++)
		first[m] -= cnt[m];
	/* options per member, every measure */
	for (m = 0; m <= top; m++) {
		uint64_t o = 0, n = 0;

		for (k = 0; k < SAMPLE && k < cnt[m]; k++) {
			position(b, w, order[first[m] + k * cnt[m] /
			    (cnt[m] < SAMPLE ? cnt[m] : SAMPLE)]);
			cg_rs_options(b->rs, w->key.data, w->key.len, CG_LEFT,
			    count_option, &o);
			cg_rs_options(b->rs, w->key.data, w->key.len, CG_RIGHT,
			    count_option, &o);
			n++;
		}
		opts[m] = n ? (double)o / (double)n + 1 : 1;
	}
	/* forms, while the budget lasts */
	for (m = 0; m <= top && cg_elapsed() - t0 < budget && !cg_stop; m++) {
		double c[SAMPLE];
		unsigned n = 0;

		if (cnt[m] == 0) {
			done = (unsigned)m + 1;
			continue;
		}
		for (k = 0; k < SAMPLE && k < cnt[m]; k++) {
			uint32_t x = order[first[m] + k * cnt[m] /
			    (cnt[m] < SAMPLE ? cnt[m] : SAMPLE)];
			double t;

			position(b, w, x);
			w->outside_s = 0;
			t = cg_elapsed();
			if (form_of(b, w, w->key.data, w->key.len) == CG_NO_GAME)
				break;
			c[n++] = cg_elapsed() - t - w->outside_s;
			if (cg_elapsed() - t0 >= budget)
				break;
		}
		if (n < SAMPLE && n < cnt[m])
			break;    /* a measure half sampled says too little */
		/* the median: a member now and then meets every cache cold */
		qsort(c, n, sizeof *c, cmp_double);
		cost[m] = c[n / 2];
		sampled += n;
		done = (unsigned)m + 1;
	}
	free(order);
	spent = cg_elapsed() - t0;
	for (m = 0; m <= top; m++) {
		if (m >= done && done > 0) {
			unsigned a = done - 1;

			while (a > 0 && cnt[a] == 0)
				a--;
			cost[m] = cost[a] * (opts[m] / opts[a]) *
			    (opts[m] / opts[a]);
		}
		total += cost[m] * (double)cnt[m];
	}
	/* conjugates are made once for a pair; threads share the work, the
	 * first whole, each other one at three quarters */
	eff = 1.0 + 0.75 * (b->o.jobs - 1);
	total = total * conj / eff;
	/* a game of the store (record, options, index, caches) and of the
	 * writer's tables */
	per_game = 200;
	ratio = evaluated(b) ? (double)(cg_canon_count() - games0) /
	    (double)evaluated(b) : 0.5;
	games = (uint64_t)((ratio < 1 ? ratio : 1) * (double)b->n);
	peak = ((b->n * 35 + games * (uint64_t)per_game) >> 20) + 64;
	if (done <= top)
		snprintf(extra, sizeof extra, ", measures %u to %llu by their "
		    "options", done, (unsigned long long)top);
	fprintf(stderr, "%s: estimate for family '%s': %llu members, at most "
	    "about %.0f s on %u thread%s and %llu MB (%llu members sampled in "
	    "%.1f s%s)\n", cg_progname, b->o.family, (unsigned long long)b->n,
	    total, b->o.jobs, b->o.jobs == 1 ? "" : "s",
	    (unsigned long long)peak, (unsigned long long)sampled, spent,
	    extra);
	if (getenv("CG_ESTIMATE_DEBUG"))
		for (m = 0; m <= top; m++)
			fprintf(stderr, "measure %llu: %llu members, %.1f options, "
			    "%.1f us%s\n", (unsigned long long)m,
			    (unsigned long long)cnt[m], opts[m], cost[m] * 1e6,
			    m < done ? "" : " (scaled)");
	free(cnt);
	free(first);
	free(cost);
	free(opts);
}

/* ------------------------------------------------------------ writing */

struct source {
	struct cg_kb_source src;
	struct cg_kb_ranked *b;
	/* kinds read off the forms, as texts: per game, the text id + 1 */
	uint32_t *memo[CG_KB_MAXKINDS];
	size_t nmemo;
	struct cg_bytemap *texts[CG_KB_MAXKINDS];
	int canon_text;           /* canon kept as text (--text) */
};

static uint64_t
rs_rank(void *ctx, uint64_t i)
{
	struct source *s = ctx;

	return s->b->slot[ent(s->b, i)];
}

static uint64_t
rs_value(void *ctx, uint64_t i, uint32_t k)
{
	struct source *s = ctx;
	struct cg_kb_ranked *b = s->b;
	uint32_t x = atomic_load_explicit(&b->val[ent(b, i)],
	    memory_order_relaxed);

	if (b->route[k] == BY_SEARCH) {
		int isnew;

		if (b->text[k][i] == NULL)
			return CG_KB_NOVALUE;
		return cg_bytemap_intern(s->texts[k], b->text[k][i],
		    strlen(b->text[k][i]) + 1, &isnew);
	}
	if (x == 0)
		return CG_KB_NOVALUE;
	if (s->src.games[k])
		return x - 1;
	return s->memo[k][x - 1] && s->memo[k][x - 1] != UINT32_MAX ?
	    s->memo[k][x - 1] - 1 : CG_KB_NOVALUE;
}

static cg_game
rs_game(void *ctx, uint32_t k, uint64_t id)
{
	(void)ctx;
	(void)k;
	return (cg_game)id;
}

static const char *
rs_text(void *ctx, uint32_t k, uint64_t id)
{
	struct source *s = ctx;
	size_t len;

	return (const char *)cg_bytemap_key(s->texts[k], id, &len);
}

/*
 * The outcome of g from its options' (Left moving first wins when a Left
 * option is L or P, Right when a Right option is R or P), each game's
 * once, on a stack of its own: linear in the games' options, where a
 * comparison with zero would go down every game again once the store's
 * caches are full of other pairs.
 */
static int
outcome_of(cg_game g0, unsigned char *oc, cg_game **stack, size_t *cap)
{
	size_t sp = 0, n[2], i;
	const cg_game *o[2];
	int s, missing, win[2];

	if (oc[g0])
		return oc[g0];
	(*stack)[sp++] = g0;
	while (sp > 0) {
		cg_game g = (*stack)[sp - 1];

		if (oc[g]) {
			sp--;
			continue;
		}
		if (cg_canon_is_nus(g)) {
			oc[g] = (unsigned char)cg_canon_outcome(g);
			sp--;
			continue;
		}
		missing = 0;
		for (s = 0; s < 2; s++) {
			o[s] = cg_canon_options(g, (enum cg_side)s, &n[s]);
			for (i = 0; i < n[s]; i++)
				if (!oc[o[s][i]]) {
					if (sp == *cap) {
						*cap *= 2;
						*stack = cg_xreallocarray(*stack, *cap,
						    sizeof **stack);
					}
					(*stack)[sp++] = o[s][i];
					missing = 1;
				}
		}
		if (missing)
			continue;
		win[0] = win[1] = 0;
		for (s = 0; s < 2; s++)
			for (i = 0; i < n[s]; i++)
				if (oc[o[s][i]] == 'P' || oc[o[s][i]] ==
				    (s == 0 ? 'L' : 'R'))
					win[s] = 1;
		oc[g] = win[0] ? (win[1] ? 'N' : 'L') : (win[1] ? 'R' : 'P');
		sp--;
	}
	return oc[g0];
}

/* The text of each kind read off the forms, once per distinct form
 * (memo: the text's id + 1, or UINT32_MAX for none). */
static void
texts(struct source *s)
{
	struct cg_kb_ranked *b = s->b;
	struct cg_buf t;
	uint64_t i;
	uint32_t k, x;
	unsigned char *oc = NULL;
	cg_game *stack = NULL;
	size_t cap = 1024;
	int isnew;

	cg_buf_init(&t);
	s->nmemo = cg_canon_count() + 1;
	for (k = 0; k < b->meta.nkinds; k++) {
		int outcome = strcmp(b->meta.kinds[k], "outcome") == 0;

		s->texts[k] = cg_bytemap_new();
		if (s->src.games[k] || b->route[k] != FROM_CANON)
			continue;
		s->memo[k] = cg_xcalloc(s->nmemo, sizeof *s->memo[k]);
		if (outcome && oc == NULL) {
			oc = cg_xcalloc(s->nmemo, 1);
			stack = cg_xmalloc(cap * sizeof *stack);
		}
		for (i = 0; i < b->nentries; i++) {
			x = atomic_load_explicit(&b->val[ent(b, i)],
			    memory_order_relaxed);
			if (x == 0 || s->memo[k][x - 1] != 0)
				continue;
			t.len = 0;
			if (outcome)
				cg_buf_addc(&t, outcome_of(x - 1, oc, &stack, &cap));
			else if (!cg_kbv_from_canon(b->meta.kinds[k], x - 1, &t)) {
				s->memo[k][x - 1] = UINT32_MAX;
				continue;
			}
			cg_buf_str(&t);
			s->memo[k][x - 1] = (uint32_t)cg_bytemap_intern(
			    s->texts[k], t.data, t.len + 1, &isnew) + 1;
		}
	}
	free(oc);
	free(stack);
	cg_buf_free(&t);
}

void
cg_kb_ranked_write(struct cg_kb_ranked *b, const char *path)
{
	struct source s;
	double t0 = cg_elapsed();
	uint32_t k;

	memset(&s, 0, sizeof s);
	s.b = b;
	s.src.ctx = &s;
	s.src.n = b->nentries;
	s.src.rank = rs_rank;
	s.src.value = rs_value;
	s.src.game = rs_game;
	s.src.text = rs_text;
	for (k = 0; k < b->meta.nkinds; k++)
		s.src.games[k] = strcmp(b->meta.kinds[k], "canon") == 0 &&
		    !b->o.text && b->route[k] == FROM_CANON;
	texts(&s);
	/* what only the computation needed: the writer's tables take its
	 * place */
	cg_canon_shrink_caches();
	cg_graph_free(b->graph);
	b->graph = NULL;
	free(b->dir);
	b->dir = NULL;
	free(b->measure);
	b->measure = NULL;
	if (b->ck != NULL) {
		ckpt_flush(b);
		cg_ckpt_close(b->ck, 0);
		b->ck = NULL;
		b->ckpath_done = 1;
	}
	for (k = 0; k < b->meta.nkinds; k++) {
		if (s.src.games[k])
			s.src.nvalues[k] = cg_canon_count();
		else if (b->route[k] == BY_SEARCH) {
			uint64_t i;

			/* every text interned before the writer counts */
			for (i = 0; i < b->nentries; i++)
				(void)rs_value(&s, i, k);
			s.src.nvalues[k] = cg_bytemap_count(s.texts[k]);
		} else
			s.src.nvalues[k] = cg_bytemap_count(s.texts[k]);
	}
	cg_kb_write_source(&s.src, &b->meta, path);
	if (b->o.progress)
		fprintf(stderr, "%s: %.0f s: base written (%.1f s)\n",
		    cg_progname, cg_elapsed(), cg_elapsed() - t0);
	for (k = 0; k < b->meta.nkinds; k++) {
		free(s.memo[k]);
		cg_bytemap_free(s.texts[k]);
	}
	if (b->ckpath_done)
		(void)unlink(b->ckpath);
}
