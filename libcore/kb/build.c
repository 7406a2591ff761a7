/* build.c - building knowledge bases in process (see build.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bytemap.h"
#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"
#include "graph/graph.h"
#include "kb/build.h"
#include "values/ckpt.h"
#include "kb/kb.h"
#include "kb/kbfile.h"
#include "kb/kbvalue.h"
#include "kb/rankbuild.h"
#include "solve/canonical.h"
#include "solve/session.h"
#include "values/notation.h"

/* The checkpoint's kind number for the canonical forms of components
 * (entries' own kinds are 0 .. nkinds-1). */
#define VERTEX_KIND 64

enum route { FROM_CANON, BY_SEARCH };

struct cg_kb_builder {
	struct cg_kb_build_options o;
	struct cg_plugin *rs;
	struct cg_kb_meta meta;
	struct cg_kbset *set;
	unsigned char *done;        /* entry * nkinds: value known */
	size_t donecap;
	enum route route[CG_KB_MAXKINDS];
	struct cg_graph *graph;
	struct cg_buf canon, text;
	size_t seen;
	/* the components of the entries */
	uint64_t *off;              /* entry e: comp[off[e] .. off[e+1]) */
	cg_vertex *comp;
	/* vertices whose forms came from the checkpoint */
	cg_vertex *reloaded;
	size_t nreloaded, capreloaded;
	struct cg_ckpt *ck;
	struct cg_canon_eval ev[CG_MAX_JOBS];
	struct cg_session *session[CG_MAX_JOBS];
	/* a family the ruleset ranks is built by rankbuild.c */
	struct cg_kb_ranked *ranked;
};

/* ------------------------------------------------------------ helpers */

const char *
cg_kb_describe(struct cg_plugin *rs, const unsigned char *key, size_t len,
    struct cg_buf *b)
{
	size_t i;

	b->len = 0;
	if (rs != NULL && cg_rs_print(rs, key, len, b) == 0)
		return cg_buf_str(b);
	b->len = 0;
	cg_buf_addstr(b, "key ");
	for (i = 0; i < len; i++)
		cg_buf_addf(b, "%02x", key[i]);
	return cg_buf_str(b);
}

static const char *
describe(struct cg_kb_builder *b, const unsigned char *key, size_t len)
{
	return cg_kb_describe(b->rs, key, len, &b->text);
}

static void
set_ruleset(struct cg_kb_builder *b, struct cg_plugin *rs)
{
	uint32_t k;
	char why[512];

	b->rs = rs;
	free(b->meta.ruleset);
	free(b->meta.params);
	free(b->meta.plugin_version);
	b->meta.ruleset = cg_xstrdup(rs->name);
	b->meta.params = cg_xstrdup(rs->params ? rs->params : "");
	b->meta.plugin_version = cg_xstrdup(rs->rs->version ?
	    rs->rs->version : "");
	for (k = 0; k < b->meta.nkinds; k++)
		if (!cg_kbv_kind_ok(b->meta.kinds[k], rs, why, sizeof why))
			cg_die(CG_EXIT_USAGE, "%s", why);
}

static void
mark_done(struct cg_kb_builder *b, uint64_t e, uint32_t k)
{
	size_t need = (size_t)(e + 1) * b->meta.nkinds;

	if (need > b->donecap) {
		size_t ncap = b->donecap ? b->donecap * 2 : 4096;

		while (ncap < need)
			ncap *= 2;
		b->done = cg_xrealloc(b->done, ncap);
		memset(b->done + b->donecap, 0, ncap - b->donecap);
		b->donecap = ncap;
	}
	b->done[e * b->meta.nkinds + k] = 1;
}

static int
is_done(const struct cg_kb_builder *b, uint64_t e, uint32_t k)
{
	size_t i = (size_t)e * b->meta.nkinds + k;

	return i < b->donecap && b->done[i];
}

/* Set kind k of entry e to text; a different value is fatal. */
static void
set_value(struct cg_kb_builder *b, uint64_t e, uint32_t k, const char *text,
    const char *what)
{
	const char *old;
	size_t len;
	const unsigned char *key;

	if (text != NULL && cg_kbset_set(b->set, e, k,
	    cg_kbset_value_id(b->set, k, text), &old) < 0) {
		key = cg_kbset_key(b->set, e, &len);
		cg_die(CG_EXIT_DATA, "%s value '%s' disagrees with '%s' for "
		    "%s '%s'", what, text, old, b->meta.kinds[k],
		    describe(b, key, len));
	}
	mark_done(b, e, k);
}

/* ------------------------------------------------------------ entries */

struct cg_kb_builder *
cg_kb_builder_new(const struct cg_kb_build_options *o, struct cg_plugin *rs)
{
	struct cg_kb_builder *b = cg_xcalloc(1, sizeof *b);
	const char *kinds = o->kinds ? o->kinds : "canon,outcome";
	char why[512];
	uint32_t k;

	b->o = *o;
	if (b->o.jobs == 0)
		b->o.jobs = cg_jobs_default();
	if (b->o.batch == 0)
		b->o.batch = 20000;
	cg_kb_meta_init(&b->meta);
	if (cg_kb_meta_set_kinds(&b->meta, kinds) < 0)
		cg_die(CG_EXIT_USAGE, "bad value kinds '%s' (a comma-separated "
		    "list of at most %d)", kinds, CG_KB_MAXKINDS);
	for (k = 0; k < b->meta.nkinds; k++)
		if (!cg_kbv_kind_ok(b->meta.kinds[k], NULL, why, sizeof why))
			cg_die(CG_EXIT_USAGE, "%s", why);
	b->meta.family = cg_xstrdup(o->family ? o->family : "");
	b->meta.shard_k = o->shard_k ? o->shard_k : 1;
	b->meta.shard_n = o->shard_n ? o->shard_n : 1;
	b->meta.block_size = o->block_size ? o->block_size :
	    CG_KB_BLOCK_DEFAULT;
	if (o->measured) {
		/* the family text says which part of the family this is */
		free(b->meta.family);
		cg_buf_init(&b->text);
		cg_buf_addf(&b->text, "%s measure=%llu-%llu",
		    o->family ? o->family : "",
		    (unsigned long long)o->measure_lo,
		    (unsigned long long)o->measure_hi);
		b->meta.family = cg_xstrdup(cg_buf_str(&b->text));
		cg_buf_free(&b->text);
	}
	b->set = cg_kbset_new(b->meta.nkinds);
	for (k = 0; k < b->meta.nkinds; k++)
		if (!o->text && strcmp(b->meta.kinds[k], "canon") == 0) {
			cg_kbset_use_games(b->set, k);
			b->meta.games = 1;
		}
	b->graph = cg_graph_new();
	cg_graph_share(b->graph, 1);
	cg_buf_init(&b->canon);
	cg_buf_init(&b->text);
	if (rs != NULL)
		set_ruleset(b, rs);
	if (rs != NULL && o->family != NULL)
		b->ranked = cg_kb_ranked_new(&b->o, rs, &b->meta);
	return b;
}

void
cg_kb_builder_free(struct cg_kb_builder *b)
{
	unsigned k;

	if (b == NULL)
		return;
	cg_kb_ranked_free(b->ranked);
	for (k = 0; k < CG_MAX_JOBS; k++)
		cg_session_free(b->session[k]);
	cg_kbset_free(b->set);
	cg_kb_meta_free(&b->meta);
	cg_graph_free(b->graph);
	free(b->done);
	free(b->off);
	free(b->comp);
	free(b->reloaded);
	cg_buf_free(&b->canon);
	cg_buf_free(&b->text);
	free(b);
}

size_t
cg_kb_builder_count(const struct cg_kb_builder *b)
{
	if (b->ranked != NULL)
		return cg_kb_ranked_count(b->ranked);
	return cg_kbset_count(b->set);
}

size_t
cg_kb_builder_seen(const struct cg_kb_builder *b)
{
	if (b->ranked != NULL)
		return cg_kb_ranked_seen(b->ranked);
	return b->seen;
}

/* Add one position (with known values, or NULLs); file/line for errors. */
static void
add_position(struct cg_kb_builder *b, const unsigned char *pos, size_t len,
    const char *const *values, const char *file, unsigned long line)
{
	uint64_t e;
	uint32_t k;

	b->seen++;
	b->canon.len = 0;
	if (cg_rs_canonical(b->rs, pos, len, &b->canon) < 0)
		cg_die_at(file, line, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	if (b->meta.shard_n > 1 && cg_kb_shard_of(b->canon.data, b->canon.len,
	    b->meta.shard_n) != b->meta.shard_k)
		return;
	if (b->o.measured) {
		uint64_t m;

		if (cg_rs_measure(b->rs, b->canon.data, b->canon.len, &m) < 0)
			cg_die(CG_EXIT_USAGE, "ruleset '%s' has no measure: "
			    "--measure cannot select its positions", b->rs->name);
		if (m < b->o.measure_lo || m > b->o.measure_hi)
			return;
	}
	e = cg_kbset_entry(b->set, b->canon.data, b->canon.len);
	for (k = 0; k < b->meta.nkinds; k++)
		if (values[k] != NULL) {
			const char *old;

			if (cg_kbset_set(b->set, e, k, cg_kbset_value_id(b->set,
			    k, values[k]), &old) < 0)
				cg_die_at(file, line, "conflicting %s values for "
				    "'%s': '%s' and '%s'", b->meta.kinds[k],
				    describe(b, pos, len), old, values[k]);
			mark_done(b, e, k);
		}
}

/*
 * A family arrives as one stream from the plugin; it is taken in chunks
 * whose positions are made canonical (and sorted into shards and waves)
 * by the worker threads, each into keys of its own, which then enter the
 * set together.
 */
#define FAMILY_CHUNK 65536

struct family {
	struct cg_kb_builder *b;
	struct cg_buf raw;
	size_t *off, n;
	struct keys {
		struct cg_buf bytes;
		size_t *off, n, cap;
	} out[CG_MAX_JOBS];
};

static void
family_one(void *ctx, size_t i)
{
	struct family *f = ctx;
	struct cg_kb_builder *b = f->b;
	struct keys *k = &f->out[cg_worker];
	size_t start = k->bytes.len;

	if (k->n + 2 > k->cap) {
		k->cap = k->cap ? 2 * k->cap : 1024;
		k->off = cg_xreallocarray(k->off, k->cap, sizeof *k->off);
	}
	if (cg_rs_canonical(b->rs, f->raw.data + f->off[i], f->off[i + 1] -
	    f->off[i], &k->bytes) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	if (b->meta.shard_n > 1 && cg_kb_shard_of(k->bytes.data + start,
	    k->bytes.len - start, b->meta.shard_n) != b->meta.shard_k) {
		k->bytes.len = start;
		return;
	}
	if (b->o.measured) {
		uint64_t m;

		if (cg_rs_measure(b->rs, k->bytes.data + start,
		    k->bytes.len - start, &m) < 0)
			cg_die(CG_EXIT_USAGE, "ruleset '%s' has no measure: "
			    "--measure cannot select its positions", b->rs->name);
		if (m < b->o.measure_lo || m > b->o.measure_hi) {
			k->bytes.len = start;
			return;
		}
	}
	k->off[k->n++] = start;
	k->off[k->n] = k->bytes.len;
}

static void
family_flush(struct family *f)
{
	unsigned j;

	if (f->n == 0)
		return;
	f->off[f->n] = f->raw.len;
	cg_parallel_for(f->n, f->b->o.jobs, 256, family_one, f);
	for (j = 0; j < CG_MAX_JOBS; j++) {
		struct keys *k = &f->out[j];

		if (k->n > 0)
			cg_kbset_add_keys(f->b->set, k->bytes.data, k->off, k->n);
		k->n = 0;
		k->bytes.len = 0;
	}
	f->b->seen += f->n;
	f->n = 0;
	f->raw.len = 0;
}

static int
on_family(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct family *f = ctx;
	struct cg_kb_builder *b = f->b;

	(void)move;
	if (cg_stop)
		return 1;
	f->off[f->n++] = f->raw.len;
	cg_buf_add(&f->raw, pos, len);
	if (f->n < FAMILY_CHUNK)
		return 0;
	family_flush(f);
	if (b->o.progress && b->seen % (16 * FAMILY_CHUNK) == 0)
		fprintf(stderr, "%s: %zu positions enumerated, %zu classes, "
		    "%.0f MB\n", cg_progname, b->seen, cg_kbset_count(b->set),
		    (double)cg_memory_rss() / 1048576.0);
	return 0;
}

void
cg_kb_builder_family(struct cg_kb_builder *b)
{
	struct family f;
	unsigned j;
	int rc;

	if (!CG_HAS_HOOK(b->rs, enumerate))
		cg_die(CG_EXIT_DATA, "ruleset '%s' cannot enumerate families",
		    b->rs->name);
	if (b->ranked != NULL) {
		cg_kb_ranked_family(b->ranked);
		return;
	}
	memset(&f, 0, sizeof f);
	f.b = b;
	cg_buf_init(&f.raw);
	f.off = cg_xmalloc((FAMILY_CHUNK + 1) * sizeof *f.off);
	rc = cg_rs_enumerate(b->rs, b->o.family, on_family, &f);
	if (rc >= 0 && !cg_stop)
		family_flush(&f);
	cg_buf_free(&f.raw);
	free(f.off);
	for (j = 0; j < CG_MAX_JOBS; j++) {
		cg_buf_free(&f.out[j].bytes);
		free(f.out[j].off);
	}
	if (cg_stop) {
		size_t n = cg_kbset_count(b->set), rss = cg_memory_rss();

		cg_die(cg_stop_status(), "family '%s': %s after %zu positions "
		    "(%zu up to symmetry, about %.0f bytes each): the whole "
		    "family needs more", b->o.family, cg_stop_reason(), b->seen,
		    n, n ? (double)rss / (double)n : 0.0);
	}
	if (rc < 0)
		cg_die(CG_EXIT_DATA, "family '%s': %s", b->o.family,
		    cg_rs_errmsg(b->rs));
}

void
cg_kb_builder_estimate(struct cg_kb_builder *b, double budget)
{
	if (b->ranked != NULL)
		cg_kb_ranked_estimate(b->ranked, budget);
	else
		fprintf(stderr, "%s: no estimate of time and memory: ruleset "
		    "'%s' does not rank family '%s'\n", cg_progname,
		    b->rs->name, b->o.family);
}

void
cg_kb_builder_document(struct cg_kb_builder *b, struct cg_doc *d)
{
	const char *vals[CG_KB_MAXKINDS];
	uint32_t i, k, x;

	for (i = 0; i < (b->o.all_nodes ? d->n : d->nroot); i++) {
		struct cg_node *n;

		x = b->o.all_nodes ? i : d->root[i];
		n = &d->node[x];
		if (n->rs == NULL || n->pos == NULL) {
			if (b->o.all_nodes)
				continue;
			cg_die_at(d->file, n->line, "root %llu has no position",
			    (unsigned long long)n->id);
		}
		if (b->rs == NULL)
			set_ruleset(b, n->rs);
		else if (n->rs != b->rs && strcmp(n->rs->spec, b->rs->spec) != 0)
			cg_die_at(d->file, n->line, "position of ruleset '%s' in "
			    "a base of '%s'", n->rs->spec, b->rs->spec);
		for (k = 0; k < b->meta.nkinds; k++)
			vals[k] = cg_doc_annotation(d, x, b->meta.kinds[k]);
		add_position(b, n->pos, n->poslen, vals, d->file, n->line);
	}
}

/* ------------------------------------------------------------ checkpoint */

static void
ckpt_header(struct cg_kb_builder *b, struct cg_buf *h)
{
	uint32_t k;

	cg_buf_addf(h, "cgkb-build 2\t%s\t%s\t", b->rs->spec,
	    b->meta.plugin_version);
	cg_escape(h, b->meta.family);
	cg_buf_addc(h, '\t');
	for (k = 0; k < b->meta.nkinds; k++)
		cg_buf_addf(h, "%s%s", k ? "," : "", b->meta.kinds[k]);
	cg_buf_addf(h, "\t%u/%u", b->meta.shard_k, b->meta.shard_n);
}

static int
on_ckpt_value(void *ctx, const unsigned char *key, size_t len, uint32_t kind,
    cg_game g, const char *text, char *err, size_t errlen)
{
	struct cg_kb_builder *b = ctx;
	int64_t e;

	if (kind == VERTEX_KIND) {
		cg_vertex v;
		cg_game old;

		if (g == CG_NO_GAME)
			goto bad;
		v = cg_graph_vertex(b->graph, b->rs, key, len);
		old = cg_graph_canon(b->graph, v);
		if (old != CG_NO_GAME) {
			if (old != g)
				goto bad;
			return 0;
		}
		cg_graph_set_canon(b->graph, v, g);
		if (b->nreloaded == b->capreloaded) {
			b->capreloaded = b->capreloaded ? 2 * b->capreloaded :
			    4096;
			b->reloaded = cg_xreallocarray(b->reloaded,
			    b->capreloaded, sizeof *b->reloaded);
		}
		b->reloaded[b->nreloaded++] = v;
		return 0;
	}
	if (kind >= b->meta.nkinds || text == NULL)
		goto bad;
	e = cg_kbset_find(b->set, key, len);
	if (e < 0)
		return 0;   /* not an entry of this build */
	{
		const char *old;

		if (cg_kbset_set(b->set, (uint64_t)e, kind,
		    cg_kbset_value_id(b->set, kind, text), &old) < 0) {
			snprintf(err, errlen, "checkpoint value '%s' disagrees "
			    "with '%s' for '%s'", text, old, describe(b, key,
			    len));
			return 1;
		}
	}
	mark_done(b, (uint64_t)e, kind);
	return 0;
bad:
	snprintf(err, errlen, "checkpoint record for '%s' does not fit this "
	    "build (remove the checkpoint to start afresh)",
	    describe(b, key, len));
	return 1;
}

/* After every batch: a kill loses one batch at most. */
static void
ckpt_flush(struct cg_kb_builder *b)
{
	char err[1024];

	if (b->ck != NULL && cg_ckpt_flush(b->ck, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
}

/* Save what is done and stop: an interrupt or the memory limit. */
static void
stop_build(struct cg_kb_builder *b)
{
	ckpt_flush(b);
	cg_die(cg_stop_status(), "%s%s", cg_stop_reason(), b->ck ?
	    "; the checkpoint keeps what was computed" : "");
}

/* ------------------------------------------------------------ canon */

struct comp_work {
	struct cg_kb_builder *b;
	uint32_t *count;            /* components per entry */
	struct cg_sum part[CG_MAX_JOBS]; /* per worker: entry, vertex pairs */
};

static void
comp_one(void *ctx, size_t e)
{
	struct comp_work *w = ctx;
	struct cg_sum *p = &w->part[cg_worker], sum;
	const unsigned char *key;
	size_t len, i;

	key = cg_kbset_key(w->b->set, e, &len);
	cg_sum_init(&sum);
	cg_graph_position(w->b->graph, w->b->rs, key, len, &sum);
	w->count[e] = (uint32_t)sum.n;
	for (i = 0; i < sum.n; i++) {
		cg_sum_add(p, (cg_vertex)e);
		cg_sum_add(p, sum.v[i]);
	}
	cg_sum_free(&sum);
}

/* The components of every entry (b->off, b->comp), in parallel. */
static void
components(struct cg_kb_builder *b)
{
	size_t n = cg_kbset_count(b->set), e, total = 0, i;
	struct comp_work w;
	uint64_t *fill;
	unsigned k;

	memset(&w, 0, sizeof w);
	w.b = b;
	w.count = cg_xcalloc(n + 1, sizeof *w.count);
	cg_parallel_for(n, b->o.jobs, 1024, comp_one, &w);
	b->off = cg_xmalloc((n + 1) * sizeof *b->off);
	for (e = 0; e < n; e++) {
		b->off[e] = total;
		total += w.count[e];
	}
	b->off[n] = total;
	b->comp = cg_xmalloc((total + 1) * sizeof *b->comp);
	fill = cg_xcalloc(n + 1, sizeof *fill);
	for (k = 0; k < CG_MAX_JOBS; k++) {
		for (i = 0; i < w.part[k].n; i += 2) {
			e = w.part[k].v[i];
			b->comp[b->off[e] + fill[e]++] = w.part[k].v[i + 1];
		}
		cg_sum_free(&w.part[k]);
	}
	free(fill);
	free(w.count);
}

struct measure_work {
	struct cg_kb_builder *b;
	struct cg_measured *o;
};

static void
measure_one(void *ctx, size_t i)
{
	struct measure_work *w = ctx;
	struct cg_plugin *rs = w->b->rs;
	const unsigned char *key;
	size_t len;
	uint64_t m;

	key = cg_graph_key(w->b->graph, w->o[i].v, &len);
	if (cg_rs_measure(rs, key, len, &m) < 0)
		m = len;    /* no measure: smaller keys are usually smaller */
	w->o[i].measure = m;
}

/* The components still without a form, smallest measure first. */
static struct cg_measured *
to_evaluate(struct cg_kb_builder *b, size_t *count)
{
	size_t nv = cg_graph_count(b->graph), n = b->off[cg_kbset_count(b->set)];
	unsigned char *seen = cg_xcalloc(nv + 1, 1);
	struct cg_measured *o = cg_xmalloc((n + 1) * sizeof *o);
	struct measure_work w;
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		cg_vertex v = b->comp[i];

		if (seen[v] || cg_graph_canon(b->graph, v) != CG_NO_GAME)
			continue;
		seen[v] = 1;
		o[m].v = v;
		o[m++].measure = 0;
	}
	free(seen);
	w.b = b;
	w.o = o;
	cg_parallel_for(m, b->o.jobs, 4096, measure_one, &w);
	qsort(o, m, sizeof *o, cg_measured_cmp);
	*count = m;
	return o;
}

struct eval_work {
	struct cg_kb_builder *b;
	const struct cg_measured *o;
};

static void
eval_one(void *ctx, size_t i)
{
	struct eval_work *w = ctx;

	if (cg_stop)
		return;
	(void)cg_canonical_vertex(w->b->graph, w->o[i].v,
	    &w->b->ev[cg_worker]);
}

static uint64_t
evaluated(const struct cg_kb_builder *b)
{
	uint64_t n = 0;
	unsigned k;

	for (k = 0; k < CG_MAX_JOBS; k++)
		n += b->ev[k].evaluated;
	return n;
}

/* Canonical forms of every component, batch by batch. */
static void
canon_forms(struct cg_kb_builder *b)
{
	struct eval_work w;
	struct cg_measured *o;
	size_t n, i, j, end, len;
	double t0 = cg_elapsed();

	o = to_evaluate(b, &n);
	w.b = b;
	w.o = o;
	if (b->o.progress)
		fprintf(stderr, "%s: %zu components to evaluate on %u "
		    "thread%s\n", cg_progname, n, b->o.jobs,
		    b->o.jobs == 1 ? "" : "s");
	for (i = 0; i < n; i = end) {
		end = i + b->o.batch < n ? i + b->o.batch : n;
		cg_parallel_for(end - i, b->o.jobs, 16, eval_one, &w);
		w.o += end - i;
		for (j = i; j < end && b->ck != NULL; j++) {
			cg_game g = cg_graph_canon(b->graph, o[j].v);
			const unsigned char *key;

			if (g == CG_NO_GAME)
				continue;
			key = cg_graph_key(b->graph, o[j].v, &len);
			cg_ckpt_game(b->ck, key, len, VERTEX_KIND, g);
		}
		if (cg_stop)
			stop_build(b);
		ckpt_flush(b);
		if (b->o.progress)
			fprintf(stderr, "%s: %zu of %zu components, %llu "
			    "positions evaluated (%.0f/s), %zu games, %.0f MB\n",
			    cg_progname, end, n,
			    (unsigned long long)evaluated(b),
			    evaluated(b) / (cg_elapsed() - t0 + 1e-9),
			    cg_canon_count(),
			    (double)cg_memory_rss() / 1048576.0);
	}
	free(o);
}

/* Re-derive a sample of the forms a checkpoint gave (one in 16, by key):
 * a checkpoint that lies is caught without redoing the build. */
struct verify_work {
	struct cg_kb_builder *b;
	const char *bad;            /* first mismatch (set once) */
	cg_vertex badv;
	cg_game had, got;
};

static void
verify_one(void *ctx, size_t i)
{
	struct verify_work *w = ctx;
	cg_vertex v = w->b->reloaded[i];
	const unsigned char *key;
	size_t len;
	cg_game had, got;

	key = cg_graph_key(w->b->graph, v, &len);
	if ((cg_hash_bytes(key, len, 7) & 15) != 0 || cg_stop)
		return;
	had = cg_graph_canon(w->b->graph, v);
	got = cg_canonical_rederive(w->b->graph, v, &w->b->ev[cg_worker]);
	if (got != CG_NO_GAME && got != had &&
	    __atomic_exchange_n(&w->bad, "", __ATOMIC_ACQ_REL) == NULL) {
		w->badv = v;
		w->had = had;
		w->got = got;
	}
}

static void
verify_reloaded(struct cg_kb_builder *b)
{
	struct verify_work w = { b, NULL, 0, 0, 0 };
	struct cg_buf h, g;

	cg_parallel_for(b->nreloaded, b->o.jobs, 64, verify_one, &w);
	if (cg_stop)
		stop_build(b);
	if (w.bad == NULL)
		return;
	cg_buf_init(&h);
	cg_buf_init(&g);
	cg_canon_print(w.had, &h);
	cg_canon_print(w.got, &g);
	b->text.len = 0;
	cg_graph_print(b->graph, w.badv, &b->text);
	cg_die(CG_EXIT_DATA, "the checkpoint says '%s' is '%s', but its options "
	    "give '%s': remove the checkpoint to start afresh",
	    cg_buf_str(&b->text), cg_buf_str(&h), cg_buf_str(&g));
}

/* ------------------------------------------------------------ values */

struct sum_work {
	struct cg_kb_builder *b;
	cg_game *g;
};

struct sum_of {
	const struct cg_kb_builder *b;
	size_t e;
	cg_game s;
};

static void
add_components(void *arg)
{
	struct sum_of *a = arg;
	const struct cg_kb_builder *b = a->b;
	uint64_t i;

	a->s = cg_canon_zero();
	for (i = b->off[a->e]; i < b->off[a->e + 1]; i++)
		a->s = cg_canon_add(a->s, cg_graph_canon(b->graph, b->comp[i]));
}

/* A base holds every position it was asked for: a sum past the store's
 * bounds stops the build, naming the position. */
static void
sum_one(void *ctx, size_t e)
{
	struct sum_work *w = ctx;
	struct sum_of a = { w->b, e, CG_NO_GAME };
	char msg[256];

	if (cg_canon_catch(add_components, &a, msg, sizeof msg) < 0) {
		static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
		const unsigned char *key;
		size_t len;

		pthread_mutex_lock(&once);   /* one message, then exit */
		key = cg_kbset_key(w->b->set, e, &len);
		cg_die(CG_EXIT_DATA, "position '%s': %s",
		    describe(w->b, key, len), msg);
	}
	w->g[e] = a.s;
}

/* Kinds read off the canonical forms: each distinct form printed once. */
static void
from_canon(struct cg_kb_builder *b)
{
	size_t n = cg_kbset_count(b->set), e;
	struct sum_work w = { b, NULL };
	struct cg_bytemap *memo = cg_bytemap_new();
	int canon = cg_kb_meta_kind(&b->meta, "canon");
	uint32_t k;

	w.g = cg_xmalloc((n + 1) * sizeof *w.g);
	cg_parallel_for(n, b->o.jobs, 1024, sum_one, &w);
	for (e = 0; e < n; e++)
		for (k = 0; k < b->meta.nkinds; k++) {
			unsigned char mk[5];
			uint64_t *id;
			int isnew;

			if (b->route[k] != FROM_CANON || is_done(b, e, k))
				continue;
			mk[0] = (unsigned char)k;
			memcpy(mk + 1, &w.g[e], 4);
			id = cg_bytemap_value(memo, cg_bytemap_intern(memo, mk,
			    sizeof mk, &isnew));
			if (isnew && (int)k == canon) {
				/* as a game: printed only if the base holds
				 * text */
				*id = (uint64_t)cg_kbset_game_id(b->set, k,
				    w.g[e]) + 1;
			} else if (isnew) {
				b->text.len = 0;
				if (!cg_kbv_from_canon(b->meta.kinds[k], w.g[e],
				    &b->text))
					*id = 0;
				else
					*id = (uint64_t)cg_kbset_value_id(b->set,
					    k, cg_buf_str(&b->text)) + 1;
			}
			if (*id != 0) {
				const char *old;
				size_t len;
				const unsigned char *key;

				if (cg_kbset_set(b->set, e, k, (uint32_t)(*id - 1),
				    &old) < 0) {
					key = cg_kbset_key(b->set, e, &len);
					cg_die(CG_EXIT_DATA, "computed %s disagrees "
					    "with '%s' for '%s'", b->meta.kinds[k],
					    old, describe(b, key, len));
				}
			}
			mark_done(b, e, k);
		}
	cg_bytemap_free(memo);
	free(w.g);
}

struct search_work {
	struct cg_kb_builder *b;
	uint32_t k;
	const uint64_t *entry;
	char **out;
};

static void
search_one(void *ctx, size_t i)
{
	struct search_work *w = ctx;
	struct cg_kb_builder *b = w->b;
	struct cg_session **se = &b->session[cg_worker];
	struct cg_solver *s;
	enum cg_kind kind;
	const unsigned char *key;
	struct cg_buf out;
	uint32_t *ids;
	size_t len, n;

	if (cg_stop)
		return;
	if (*se == NULL) {
		struct cg_session_options o;

		memset(&o, 0, sizeof o);
		if (b->o.use_kb)
			o.known = cg_kb_known;
		*se = cg_session_new(&o);
	}
	if (cg_kind_parse(b->meta.kinds[w->k], &kind) < 0)
		cg_die(CG_EXIT_DATA, "internal error: kind '%s' by search",
		    b->meta.kinds[w->k]);
	s = cg_session_solver(*se, b->rs);
	key = cg_kbset_key(b->set, w->entry[i], &len);
	n = cg_solver_components(s, key, len, &ids);
	cg_buf_init(&out);
	if (cg_session_value(*se, s, kind, ids, n, &out, NULL, 0) == 0)
		w->out[i] = cg_xstrdup(cg_buf_str(&out));
	cg_buf_free(&out);
	free(ids);
}

/* Kinds by search, entry by entry, in batches. */
static void
by_search(struct cg_kb_builder *b, uint32_t k)
{
	size_t n = cg_kbset_count(b->set), e = 0, nb, i, len;
	uint64_t *entry = cg_xmalloc(b->o.batch * sizeof *entry);
	char **out = cg_xcalloc(b->o.batch, sizeof *out);
	struct search_work w = { b, k, entry, out };

	for (;;) {
		for (nb = 0; e < n && nb < b->o.batch; e++)
			if (!is_done(b, e, k))
				entry[nb++] = e;
		if (nb == 0)
			break;
		cg_parallel_for(nb, b->o.jobs, 1, search_one, &w);
		for (i = 0; i < nb; i++) {
			const unsigned char *key;

			if (out[i] == NULL)
				continue;   /* stopped */
			set_value(b, entry[i], k, out[i], "computed");
			if (b->ck != NULL) {
				key = cg_kbset_key(b->set, entry[i], &len);
				cg_ckpt_text(b->ck, key, len, k, out[i]);
			}
			free(out[i]);
			out[i] = NULL;
		}
		if (cg_stop)
			stop_build(b);
		ckpt_flush(b);
		if (b->o.progress)
			fprintf(stderr, "%s: %s: %zu of %zu entries\n",
			    cg_progname, b->meta.kinds[k], e, n);
	}
	free(entry);
	free(out);
}

void
cg_kb_builder_compute(struct cg_kb_builder *b, const char *ckpt)
{
	size_t n = cg_kbset_count(b->set), e, loaded = 0;
	int canon = cg_kb_meta_kind(&b->meta, "canon"), need_canon = 0;
	uint32_t k;
	unsigned j;

	if (b->rs == NULL)
		cg_die(CG_EXIT_DATA, "no positions in the input");
	if (b->ranked != NULL) {
		cg_kb_ranked_compute(b->ranked, ckpt);
		return;
	}
	for (k = 0; k < b->meta.nkinds; k++) {
		enum cg_kind sk;
		int search = cg_kind_parse(b->meta.kinds[k], &sk) == 0;

		/* outcome and nimber come with the canonical forms when
		 * those are built anyway; misere kinds never do */
		b->route[k] = !search || (canon >= 0 && !b->o.search_only &&
		    (sk == CG_KIND_OUTCOME || sk == CG_KIND_NIMBER)) ?
		    FROM_CANON : BY_SEARCH;
		for (e = 0; e < n && b->route[k] == FROM_CANON; e++)
			if (!is_done(b, e, k)) {
				need_canon = 1;
				break;
			}
	}
	for (j = 0; j < CG_MAX_JOBS; j++) {
		/* threads that meet one component share it (claims) when
		 * the measure proves the game acyclic (see canonical.c) */
		b->ev[j].shared = CG_HAS_HOOK(b->rs, measure);
		b->ev[j].interrupt = &cg_stop;
		if (b->o.use_kb)
			b->ev[j].known = cg_kb_canon;
	}
	if (ckpt != NULL) {
		struct cg_buf h;
		char err[1024];

		cg_buf_init(&h);
		ckpt_header(b, &h);
		b->ck = cg_ckpt_open(ckpt, cg_buf_str(&h), on_ckpt_value, b,
		    &loaded, err, sizeof err);
		cg_buf_free(&h);
		if (b->ck == NULL)
			cg_die(CG_EXIT_DATA, "%s", err);
		if (b->o.progress && loaded > 0)
			fprintf(stderr, "%s: resumed %zu values from %s\n",
			    cg_progname, loaded, ckpt);
	}
	if (need_canon) {
		components(b);
		canon_forms(b);
		verify_reloaded(b);
		from_canon(b);
	}
	for (k = 0; k < b->meta.nkinds; k++)
		if (b->route[k] == BY_SEARCH)
			by_search(b, k);
	ckpt_flush(b);
}

/* ------------------------------------------------------------ writing */

void
cg_kb_write_source(const struct cg_kb_source *src, struct cg_kb_meta *m,
    const char *out)
{
	char err[1024];
	struct stat st;
	int is_stdout = strcmp(out, "-") == 0;

	if (is_stdout)
		out = "standard output";
	if (is_stdout || (stat(out, &st) == 0 && !S_ISREG(st.st_mode))) {
		/* a device or pipe: write in place, through a temporary
		 * base in TMPDIR that is copied */
		const char *dir = getenv("TMPDIR");
		char tmpl[4096];
		int fd, in, o;
		char buf[65536];
		ssize_t r;

		snprintf(tmpl, sizeof tmpl, "%s/cgkbXXXXXX",
		    dir && *dir ? dir : "/tmp");
		fd = mkstemp(tmpl);
		if (fd < 0)
			cg_die(CG_EXIT_DATA, "temporary file: %s", strerror(errno));
		close(fd);
		if (cg_kbfile_write(src, m, tmpl, err, sizeof err) < 0) {
			unlink(tmpl);
			cg_die(CG_EXIT_DATA, "%s", err);
		}
		in = open(tmpl, O_RDONLY);
		o = is_stdout ? dup(STDOUT_FILENO) : open(out, O_WRONLY);
		if (in < 0 || o < 0) {
			unlink(tmpl);
			cg_die(CG_EXIT_DATA, "%s: %s", out, strerror(errno));
		}
		while ((r = read(in, buf, sizeof buf)) > 0) {
			char *p = buf;

			while (r > 0) {
				ssize_t w = write(o, p, (size_t)r);

				if (w < 0) {
					unlink(tmpl);
					cg_die(CG_EXIT_DATA, "%s: %s", out,
					    strerror(errno));
				}
				p += w;
				r -= w;
			}
		}
		close(in);
		unlink(tmpl);
		if (close(o) < 0)
			cg_die(CG_EXIT_DATA, "%s: %s", out, strerror(errno));
		return;
	}
	if (cg_kbfile_write(src, m, out, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
}

void
cg_kb_write_to(const struct cg_kbset *s, struct cg_kb_meta *m,
    struct cg_plugin *rs, const char *out)
{
	char err[1024];
	struct cg_kb_source *src = cg_kbset_source(s, m, rs, err, sizeof err);

	if (src == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	cg_kb_write_source(src, m, out);
	cg_kbset_source_free(src);
}

void
cg_kb_builder_write(struct cg_kb_builder *b, const char *path)
{
	if (b->ranked != NULL) {
		cg_kb_ranked_write(b->ranked, path);
		return;
	}
	cg_kb_write_to(b->set, &b->meta, b->rs, path);
	if (b->ck != NULL) {
		cg_ckpt_close(b->ck, 1);
		b->ck = NULL;
	}
}
