/* session.c - one run of the search engines (see session.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "graph/graph.h"
#include "values/notation.h"
#include "solve/solvedb.h"
#include "solve/heapnim.h"
#include "solve/quotient.h"
#include "solve/session.h"

/* One plugin solver per ruleset spec, alive for the whole session. */
struct psolver {
	struct cg_plugin *rs;
	struct cg_solver *s;
	struct cg_solvedb_extra extra;
	struct cg_bytemap *guide;     /* --check: canonical key -> nim + 1 */
	struct cg_heapnim *heap;      /* heap games: nim values from rules */
	char heap_error[256];         /* a heap whose value is unknown */
	int db_loaded;
	const struct cg_session_options *o;
	struct psolver *next;
};

struct cg_session {
	struct cg_session_options o;
	struct psolver *ps;
	struct cg_solver *doc;
	struct quot_cache {
		struct cg_plugin *rs;
		struct cg_quot *q;      /* NULL: none found */
	} qc[8];
	size_t nqc;
};

static const char *const kind_names[] = {
	"outcome", "misere", "nimber", "misere-nimber", "genus"
};

const char *
cg_kind_name(enum cg_kind k)
{
	return kind_names[k];
}

int
cg_kind_parse(const char *name, enum cg_kind *k)
{
	size_t i;

	for (i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
		if (strcmp(name, kind_names[i]) == 0) {
			*k = (enum cg_kind)i;
			return 0;
		}
	return -1;
}

int
cg_kind_impartial(enum cg_kind k)
{
	return k == CG_KIND_NIMBER || k == CG_KIND_MISERE_NIMBER ||
	    k == CG_KIND_GENUS;
}

static int
misere_db(const struct cg_session *se)
{
	return se->o.kind == CG_KIND_MISERE ||
	    se->o.kind == CG_KIND_MISERE_NIMBER;
}

/* Called every 4096 expansions. */
static void
show_progress(struct cg_solver *s, void *arg)
{
	static double last;
	const struct cg_solver_stats *st = cg_solver_stats(s);
	double now = cg_elapsed();
	struct cg_buf b;

	(void)arg;
	if (now - last < 1.0)
		return;
	last = now;
	cg_buf_init(&b);
	cg_solver_branch(s, &b);
	fprintf(stderr, "%s: %llu expanded, %llu solved, %.0f/s, "
	    "%zu positions known, %.1f MB tables, %.1f MB resident; "
	    "branch %s\n", cg_progname,
	    (unsigned long long)st->expanded, (unsigned long long)st->solved,
	    now > 0 ? (double)st->expanded / now : 0.0,
	    cg_solver_ncomponents(s),
	    (double)cg_solver_memory(s) / 1048576.0,
	    (double)cg_memory_rss() / 1048576.0, cg_buf_str(&b));
	cg_buf_free(&b);
}

/* The same report once a second from inside a long option list (a
 * position with millions of options), through the watch's ticks. */
static void
show_progress_timed(void *ctx, double elapsed)
{
	(void)elapsed;
	show_progress(ctx, NULL);
}

static void
watch(struct cg_session *se, struct cg_solver *s)
{
	cg_solver_set_search(s, se->o.search);
	cg_solver_set_jobs(s, se->o.jobs);
	cg_solver_set_checkpoint(s, se->o.checkpoint);
	cg_solver_set_checkpoint_size(s, se->o.checkpoint_size == UINT64_MAX ?
	    0 : se->o.checkpoint_size != 0 ? se->o.checkpoint_size :
	    cg_watch_limit() / 8);
	cg_solver_set_interrupt(s, &cg_stop);
	if (se->o.progress) {
		cg_solver_set_progress(s, show_progress, NULL, 4096);
		cg_progress_every(1.0, show_progress_timed, s);
	}
}

/* Heap games: a component's nim value is the XOR of its heaps' values,
 * which the rules give (declared, by a proven period, or computed heap by
 * heap up to a limit) without expanding it.  A heap past that limit stops
 * the search with an error instead of expanding its options. */
static void
heap_lookup(struct psolver *ps, struct cg_solver *s, uint32_t c,
    const unsigned char *key, size_t len)
{
	uint64_t v;
	char msg[sizeof ps->heap_error];
	int r = cg_heapnim_position(ps->heap, ps->rs, key, len, &v, msg,
	    sizeof msg);

	if (r == 0 && v <= UINT32_MAX)
		(void)cg_solver_set_nimber(s, c, (uint32_t)v);
	else if (r == 0)
		snprintf(msg, sizeof msg, "nim value %llu is past the "
		    "solver's 32 bits", (unsigned long long)v);
	if ((r == -1 || (r == 0 && v > UINT32_MAX)) &&
	    ps->heap_error[0] == 0 && !cg_stop) {
		memcpy(ps->heap_error, msg, sizeof msg);
		cg_stop = 1;
	}
}

static void
kb_lookup(void *ctx, struct cg_solver *s, uint32_t c,
    const unsigned char *key, size_t len)
{
	struct psolver *ps = ctx;
	struct cg_buf out;

	if (ps->heap != NULL && ps->guide == NULL)
		heap_lookup(ps, s, c, key, len);
	if (ps->o->known == NULL || ps->guide != NULL)
		return;
	cg_buf_init(&out);
	if (ps->o->known(ps->o->known_ctx, ps->rs, key, len, "nimber", &out)) {
		char *end;
		unsigned long v = strtoul(cg_buf_str(&out), &end, 10);

		if (*end == 0 && end != (char *)out.data)
			(void)cg_solver_set_nimber(s, c, (uint32_t)v);
	} else if (!ps->rs->impartial &&
	    ps->o->known(ps->o->known_ctx, ps->rs, key, len, "canon", &out)) {
		/* a partizan component's form: the search settles sums of
		 * components with forms by the forms' sum */
		cg_graph_set_canon(cg_solver_graph(s), c, cg_canon_value(
		    (const char *)out.data, out.len, "knowledge base value"));
	}
	cg_buf_free(&out);
}

static int64_t
guide_nimber(void *ctx, struct cg_solver *s, uint32_t c)
{
	struct psolver *ps = ctx;
	size_t len;
	const unsigned char *k = cg_solver_key(s, c, &len);
	int64_t e = cg_bytemap_find(ps->guide, k, len);

	if (e < 0)
		return -1;
	return (int64_t)*cg_bytemap_value(ps->guide, (uint64_t)e) - 1;
}

struct guidectx {
	struct psolver *ps;
	const char *path;
	struct cg_buf canon;
};

static int
guide_entry(void *ctx, const unsigned char *pos, const size_t *ends,
    size_t nparts, long value, const char *text, unsigned long line,
    char *err, size_t errlen)
{
	struct guidectx *g = ctx;
	uint64_t e, *v;
	int isnew;
	size_t len = ends[0];

	if (nparts != 1)
		return 0;   /* sums of several parts do not guide */

	g->canon.len = 0;
	if (cg_rs_canonical(g->ps->rs, pos, len, &g->canon) < 0) {
		snprintf(err, errlen, "%s:%lu: %s", g->path, line,
		    cg_rs_errmsg(g->ps->rs));
		return 1;
	}
	e = cg_bytemap_intern(g->ps->guide, g->canon.data, g->canon.len,
	    &isnew);
	v = cg_bytemap_value(g->ps->guide, e);
	if (!isnew && *v != (uint64_t)value + 1) {
		snprintf(err, errlen, "%s:%lu: position '%.60s' has nimber %ld "
		    "here but %llu in an earlier database", g->path, line, text,
		    value, (unsigned long long)(*v - 1));
		return 1;
	}
	*v = (uint64_t)value + 1;
	return 0;
}

static void
load_databases(struct cg_session *se, struct psolver *ps)
{
	enum cg_solvedb_kind dbk = misere_db(se) ? CG_DB_MISERE : CG_DB_NIMBER;
	char err[1024];
	size_t i;

	if (ps->db_loaded || se->o.ndb == 0)
		return;
	ps->db_loaded = 1;
	if (!cg_solver_impartial(ps->s))
		cg_die(CG_EXIT_DATA, "ruleset '%s' is not impartial: solving "
		    "databases hold impartial results", ps->rs->spec);
	if (se->o.check) {
		struct guidectx g;

		if (misere_db(se))
			cg_die(CG_EXIT_USAGE, "--check works on nimber "
			    "databases (normal play)");
		ps->guide = cg_bytemap_new();
		g.ps = ps;
		cg_buf_init(&g.canon);
		for (i = 0; i < se->o.ndb; i++) {
			g.path = se->o.db[i];
			if (cg_solvedb_read(se->o.db[i], ps->rs, CG_DB_NIMBER, 0,
			    guide_entry, &g, err, sizeof err) < 0)
				cg_die(CG_EXIT_DATA, "%s", err);
		}
		cg_buf_free(&g.canon);
		cg_solver_set_guide(ps->s, guide_nimber, ps);
		return;
	}
	for (i = 0; i < se->o.ndb; i++)
		if (cg_solvedb_load(se->o.db[i], ps->s, dbk, i == 0,
		    &ps->extra, err, sizeof err) < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
}

struct cg_session *
cg_session_new(const struct cg_session_options *o)
{
	struct cg_session *se = cg_xcalloc(1, sizeof *se);

	se->o = *o;
	return se;
}

struct cg_solver *
cg_session_solver(struct cg_session *se, struct cg_plugin *rs)
{
	struct psolver *ps;
	const char *why;

	for (ps = se->ps; ps != NULL; ps = ps->next)
		if (ps->rs == rs)
			return ps->s;
	ps = cg_xcalloc(1, sizeof *ps);
	ps->rs = rs;
	ps->s = cg_solver_new(rs);
	/* a depth-first search whose tables pass --table-memory, or three
	 * quarters of --max-memory, starts again rather than stopping
	 * (dfs.c, "restarts"); not with -D databases, which are loaded
	 * into and saved from this solver's tables */
	if (se->o.ndb == 0)
		cg_solver_set_budget(ps->s, se->o.table_memory != 0 ?
		    se->o.table_memory : cg_watch_limit() / 4 * 3);
	/* and a proof-number tree past --table-memory, when given, is
	 * collected (pntree.c) */
	cg_solver_set_tree_limit(ps->s, se->o.table_memory);
	ps->o = &se->o;
	ps->heap = cg_heapnim_for(rs, se->o.heap_limit, &why);
	if (ps->heap != NULL && se->o.no_shortcut)
		cg_heapnim_compute_all(ps->heap);
	watch(se, ps->s);
	cg_solver_set_lookup(ps->s, kb_lookup, ps);
	ps->next = se->ps;
	se->ps = ps;
	load_databases(se, ps);
	return ps->s;
}

struct cg_solver *
cg_session_doc_solver(struct cg_session *se, struct cg_doc *d)
{
	cg_solver_free(se->doc);
	se->doc = cg_solver_new_doc(d);
	watch(se, se->doc);
	return se->doc;
}

static int value(struct cg_solver *s, enum cg_kind kind, const uint32_t *ids,
    size_t n, struct cg_buf *out, const char *file, unsigned long line);

int
cg_session_value(struct cg_session *se, struct cg_solver *s,
    enum cg_kind kind, const uint32_t *ids, size_t n, struct cg_buf *out,
    const char *file, unsigned long line)
{
	int r = value(s, kind, ids, n, out, file, line);
	struct psolver *ps;

	if (r == 0)
		return 0;
	for (ps = se->ps; ps != NULL; ps = ps->next)
		if (ps->s == s && ps->heap_error[0] != 0)
			cg_die_at(file, line, "%s", ps->heap_error);
	return r;
}

static int
value(struct cg_solver *s, enum cg_kind kind, const uint32_t *ids, size_t n,
    struct cg_buf *out, const char *file, unsigned long line)
{
	int64_t v;
	int o;

	if (cg_kind_impartial(kind) && !cg_solver_impartial(s))
		cg_die_at(file, line, "-%c needs an impartial game",
		    kind == CG_KIND_GENUS ? 'g' : 'n');
	switch (kind) {
	case CG_KIND_OUTCOME:
	case CG_KIND_MISERE:
		o = cg_solver_outcome(s, ids, n, kind == CG_KIND_MISERE);
		if (o == CG_SOLVE_INTERRUPTED)
			return -1;
		cg_buf_addc(out, o);
		return 0;
	case CG_KIND_NIMBER:
	case CG_KIND_MISERE_NIMBER:
		v = kind == CG_KIND_MISERE_NIMBER ?
		    cg_solver_misere_nimber(s, ids, n) :
		    cg_solver_nimber(s, ids, n);
		if (v == CG_SOLVE_INTERRUPTED)
			return -1;
		cg_buf_addf(out, "%lld", (long long)v);
		return 0;
	case CG_KIND_GENUS:
		return cg_solver_genus(s, ids, n, out) == CG_SOLVE_INTERRUPTED ?
		    -1 : 0;
	}
	return 0;
}

size_t
cg_session_root(struct cg_session *se, struct cg_doc *d, uint32_t x,
    struct cg_solver **dsolver, struct cg_solver **s, uint32_t **ids)
{
	struct cg_node *n = &d->node[x];

	if (!n->expanded && n->rs != NULL && n->pos != NULL) {
		*s = cg_session_solver(se, n->rs);
		return cg_solver_components(*s, n->pos, n->poslen, ids);
	}
	if (*dsolver == NULL)
		*dsolver = cg_session_doc_solver(se, d);
	*s = *dsolver;
	return cg_solver_node(*s, x, ids);
}

int
cg_session_root_value(struct cg_session *se, struct cg_solver *s,
    enum cg_kind kind, struct cg_doc *d, uint32_t x, const uint32_t *ids,
    size_t nids, struct cg_buf *val)
{
	struct cg_node *n = &d->node[x];

	if (!n->expanded && n->rs != NULL && n->pos != NULL &&
	    (cg_session_kb_value(se, kind, n->rs, n->pos, n->poslen, val) ||
	    cg_session_quotient_value(se, kind, n->rs, n->pos, n->poslen,
	    val)))
		return 0;
	return cg_session_value(se, s, kind, ids, nids, val, d->file,
	    n->line);
}

/* ------------------------------------------------------------ quotients */

struct heap_list {
	uint64_t *h;
	size_t n, cap;
};

static void
add_heap(void *ctx, uint64_t size)
{
	struct heap_list *l = ctx;

	if (size == 0)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->h = cg_xreallocarray(l->h, l->cap, sizeof *l->h);
	}
	l->h[l->n++] = size;
}

int
cg_session_quotient_value(struct cg_session *se, enum cg_kind kind,
    struct cg_plugin *rs, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	const struct cg_heap_rules *r;
	struct heap_list l = { 0 };
	struct cg_quot *q = NULL;
	const char *why;
	char msg[256];
	uint64_t max = 0;
	uint32_t x = 0, y;
	size_t i;

	if (kind != CG_KIND_MISERE || se->o.check || se->o.search != NULL ||
	    se->o.ndb != 0 ||
	    rs == NULL ||
	    pos == NULL || !CG_HAS_HOOK(rs, extension) ||
	    (r = cg_rs_extension(rs, CG_EXT_HEAP_RULES)) == NULL ||
	    !CG_HEAP_RULES_HAS(r, heaps) || r->heaps == NULL)
		return 0;
	for (i = 0; i < se->nqc && se->qc[i].rs != rs; i++)
		;
	if (i == se->nqc) {
		if (i == sizeof se->qc / sizeof *se->qc)
			return 0;
		se->qc[i].rs = rs;
		se->qc[i].q = cg_quot_new(r, &why);
		if (se->qc[i].q != NULL)
			cg_quot_limit(se->qc[i].q, CG_QUOT_SESSION_LIMIT);
		se->nqc++;
	}
	if ((q = se->qc[i].q) == NULL)
		return 0;
	rs->err.set = 0;
	if (r->heaps(&rs->cx, pos, len, add_heap, &l) < 0) {
		free(l.h);
		return 0;
	}
	for (i = 0; i < l.n; i++)
		if (l.h[i] > max)
			max = l.h[i];
	/* past the heaps done, the quotient grows only for small heaps or
	 * not at all when its period is proven */
	if (cg_quot_phi(q, max) == UINT32_MAX && (max > CG_QUOT_SESSION_HEAPS
	    || cg_quot_extend(q, (uint32_t)max, msg, sizeof msg) < 0)) {
		if (se->o.progress && max <= CG_QUOT_SESSION_HEAPS)
			fprintf(stderr, "%s: no misere quotient (%s): a "
			    "search\n", cg_progname, msg);
		for (i = 0; i < se->nqc; i++)
			if (se->qc[i].q == q) {
				cg_quot_free(q);
				se->qc[i].q = NULL;
			}
		free(l.h);
		return 0;
	}
	for (i = 0; i < l.n; i++) {
		y = cg_quot_phi(q, l.h[i]);
		x = cg_quot_mul(q, x, y);
	}
	cg_buf_addc(out, cg_quot_is_p(q, x) ? 'P' : 'N');
	if (se->o.progress)
		fprintf(stderr, "%s: misere outcome of %zu heaps from the "
		    "misere quotient of heaps up to %u (order %u)\n",
		    cg_progname, l.n, cg_quot_heaps(q), cg_quot_order(q));
	free(l.h);
	return 1;
}

/* Knowledge bases answer whole roots directly. */
int
cg_session_kb_value(struct cg_session *se, enum cg_kind kind,
    struct cg_plugin *rs, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	struct cg_buf canon;
	int hit = 0;

	if (se->o.known == NULL || se->o.check || rs == NULL || pos == NULL ||
	    kind == CG_KIND_MISERE_NIMBER || kind == CG_KIND_GENUS)
		return 0;
	cg_buf_init(&canon);
	if (cg_rs_canonical(rs, pos, len, &canon) >= 0)
		hit = se->o.known(se->o.known_ctx, rs, canon.data, canon.len,
		    cg_kind_name(kind), out);
	cg_buf_free(&canon);
	return hit;
}

long
cg_session_save(struct cg_session *se)
{
	struct psolver *ps;
	char err[1024];
	long n;

	if (se->o.ndb == 0 || se->o.check)
		return 0;
	for (ps = se->ps; ps != NULL; ps = ps->next) {
		if (!ps->db_loaded)
			continue;
		n = cg_solvedb_save(se->o.db[0], ps->s, misere_db(se) ?
		    CG_DB_MISERE : CG_DB_NIMBER, &ps->extra, err, sizeof err);
		if (n < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
		if (se->o.progress)
			fprintf(stderr, "%s: %s: %ld positions saved\n",
			    cg_progname, se->o.db[0], n);
		return n;   /* one database file: the first ruleset's */
	}
	return 0;
}

size_t
cg_session_check(struct cg_session *se)
{
	struct psolver *ps;
	size_t nwrong = 0, nproof = 0, i, nc;

	for (ps = se->ps; ps != NULL; ps = ps->next) {
		struct cg_buf b;

		if (ps->guide == NULL)
			continue;
		cg_buf_init(&b);
		nc = cg_solver_ncomponents(ps->s);
		for (i = 0; i < nc; i++) {
			uint32_t c = (uint32_t)i;
			int64_t got = cg_solver_known_nimber(ps->s, c);
			int64_t want = guide_nimber(ps, ps->s, c);

			if (got >= 0)
				nproof++;
			if (got < 0 || want < 0 || got == want)
				continue;
			b.len = 0;
			cg_solver_print_sum(ps->s, &c, 1, &b);
			fprintf(stderr, "%s: wrong database entry: '%s' has "
			    "nimber %lld, not %lld\n", cg_progname,
			    cg_buf_str(&b), (long long)got, (long long)want);
			nwrong++;
		}
		cg_buf_free(&b);
		if (se->o.proof != NULL) {
			char err[1024];

			if (cg_solvedb_save(se->o.proof, ps->s, CG_DB_NIMBER,
			    NULL, err, sizeof err) < 0)
				cg_die(CG_EXIT_DATA, "%s", err);
		}
	}
	fprintf(stderr, "%s: check: %zu positions in the proof, %zu wrong "
	    "database entr%s\n", cg_progname, nproof, nwrong,
	    nwrong == 1 ? "y" : "ies");
	return nwrong;
}

void
cg_session_report(struct cg_session *se)
{
	struct psolver *ps;

	for (ps = se->ps; ps != NULL; ps = ps->next) {
		const struct cg_solver_stats *st = cg_solver_stats(ps->s);

		uint64_t r = cg_solver_restarts(ps->s);

		fprintf(stderr, "%s: %s: %llu expanded, %llu solved, "
		    "%zu positions stored, %.1f MB tables, ",
		    cg_progname, ps->rs->spec,
		    (unsigned long long)st->expanded,
		    (unsigned long long)st->solved,
		    cg_solver_ncomponents(ps->s),
		    (double)cg_solver_memory(ps->s) / 1048576.0);
		if (st->formed != 0)
			fprintf(stderr, "%llu settled by canonical forms, ",
			    (unsigned long long)st->formed);
		if (st->mreduced != 0)
			fprintf(stderr, "%llu by equal misere forms, ",
			    (unsigned long long)st->mreduced);
		if (st->sighted != 0)
			fprintf(stderr, "%llu valued on sight, ",
			    (unsigned long long)st->sighted);
		if (cg_solver_bits_peak(ps->s) != 0)
			fprintf(stderr, "%.1f MB bit-search table, ",
			    (double)cg_solver_bits_peak(ps->s) / 1048576.0);
		if (cg_solver_bits_loaded(ps->s) != 0)
			fprintf(stderr, "%zu results from the checkpoint, ",
			    cg_solver_bits_loaded(ps->s));
		if (r != 0)
			fprintf(stderr, "%llu restart%s, ",
			    (unsigned long long)r, r == 1 ? "" : "s");
		fprintf(stderr, "%.1f s\n", cg_elapsed());
	}
}

void
cg_session_free(struct cg_session *se)
{
	struct psolver *ps, *next;
	size_t i;

	if (se == NULL)
		return;
	for (ps = se->ps; ps != NULL; ps = next) {
		next = ps->next;
		cg_solver_free(ps->s);
		cg_solvedb_extra_free(&ps->extra);
		cg_bytemap_free(ps->guide);
		cg_heapnim_free(ps->heap);
		free(ps);
	}
	cg_solver_free(se->doc);
	for (i = 0; i < se->nqc; i++)
		cg_quot_free(se->qc[i].q);
	free(se);
}

/* ------------------------------------------------------------ children */

struct children {
	struct cg_session *se;
	struct cg_solver *s;
	enum cg_kind kind;
	const struct cg_doc *d;
	uint32_t x;
	int side, stopped;
	cg_child_fn fn;
	void *ctx;
};

/* One option: its text and value to fn. */
static int
report_child(struct children *c, const char *move, const uint32_t *ids,
    size_t n, const char *text)
{
	struct cg_buf ctext, val;

	cg_buf_init(&ctext);
	cg_buf_init(&val);
	if (text == NULL)
		cg_solver_print_sum(c->s, ids, n, &ctext);
	else
		cg_buf_addstr(&ctext, text);
	if (cg_session_value(c->se, c->s, c->kind, ids, n, &val, c->d->file,
	    c->d->node[c->x].line) < 0) {
		c->stopped = 1;
	} else {
		c->fn(c->ctx, c->side, move ? move : "-", cg_buf_str(&ctext),
		    cg_buf_str(&val));
	}
	cg_buf_free(&ctext);
	cg_buf_free(&val);
	return c->stopped;
}

static int
tree_child(void *ctx, const char *move, const uint32_t *ids, size_t n)
{
	return report_child(ctx, move, ids, n, NULL);
}

/* The plugin's options, with its move names and its text of each child
 * (collected first: valuing a child expands positions too). */
struct pchild {
	unsigned char *pos;
	size_t len;
	char *move;
};

struct pcollect {
	struct pchild *c;
	size_t n, cap;
};

static int
collect_child(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct pcollect *pc = ctx;

	if (pc->n == pc->cap) {
		pc->cap = pc->cap ? 2 * pc->cap : 16;
		pc->c = cg_xreallocarray(pc->c, pc->cap, sizeof *pc->c);
	}
	pc->c[pc->n].pos = cg_xmalloc(len ? len : 1);
	memcpy(pc->c[pc->n].pos, pos, len);
	pc->c[pc->n].len = len;
	pc->c[pc->n].move = cg_xstrdup(move ? move : "-");
	pc->n++;
	return 0;
}

static void
plugin_children(struct children *c, const struct cg_node *n)
{
	struct pcollect pc = { NULL, 0, 0 };
	struct cg_buf text;
	uint32_t *ids;
	size_t i, nids;

	if (cg_rs_options(n->rs, n->pos, n->poslen, (enum cg_side)c->side,
	    collect_child, &pc) < 0)
		cg_die_at(c->d->file, n->line, "ruleset '%s': %s", n->rs->name,
		    cg_rs_errmsg(n->rs));
	cg_buf_init(&text);
	for (i = 0; i < pc.n; i++) {
		text.len = 0;
		if (!c->stopped) {
			if (cg_rs_print(n->rs, pc.c[i].pos, pc.c[i].len,
			    &text) < 0)
				cg_die_at(c->d->file, n->line, "ruleset '%s': "
				    "%s", n->rs->name, cg_rs_errmsg(n->rs));
			nids = cg_solver_components(c->s, pc.c[i].pos,
			    pc.c[i].len, &ids);
			report_child(c, pc.c[i].move, ids, nids,
			    cg_buf_str(&text));
			free(ids);
		}
		free(pc.c[i].pos);
		free(pc.c[i].move);
	}
	cg_buf_free(&text);
	free(pc.c);
}

int
cg_session_children(struct cg_session *se, struct cg_solver *s,
    enum cg_kind kind, const struct cg_doc *d, uint32_t x,
    const uint32_t *ids, size_t n, cg_child_fn fn, void *ctx)
{
	const struct cg_node *nd = &d->node[x];
	struct children c = { se, s, kind, d, x, 0, 0, fn, ctx };
	int impartial = cg_solver_impartial(s);

	for (c.side = 0; c.side < 2 && !c.stopped; c.side++) {
		if (!nd->expanded && nd->rs != NULL && nd->pos != NULL)
			plugin_children(&c, nd);
		else
			cg_solver_children(s, ids, n, (enum cg_side)c.side,
			    tree_child, &c);
		if (impartial)
			break;
	}
	return c.stopped ? -1 : 0;
}
