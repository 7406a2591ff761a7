/* loopy.c - the games of a document as a graph with cycles, and the
 * positions of loopy rulesets (loopy.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "solve/explore.h"
#include "solve/loopy.h"
#include "solve/lpn.h"
#include "solve/result.h"
#include "solve/retro.h"

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Compressed option rows of d's nodes for both sides. */
static void
build(const struct cg_doc *d, struct cg_retro_graph *g, uint32_t *off[2],
    uint32_t *to[2])
{
	uint32_t i, k, m;
	int s;

	for (i = 0; i < d->n; i++) {
		const struct cg_node *x = &d->node[i];

		if (x->rs != NULL && x->pos != NULL && !x->expanded)
			cg_die_at(d->file, x->line, "node %llu has a position "
			    "but no 'E' record: the game of a document taken "
			    "as a graph needs every node's options (cg-options "
			    "-a writes them)", (unsigned long long)x->id);
	}
	g->n = d->n;
	for (s = 0; s < 2; s++) {
		off[s] = cg_xcalloc((size_t)d->n + 1, sizeof *off[s]);
		for (m = i = 0; i < d->n; i++) {
			off[s][i] = m;
			if (d->node[i].nopt[s] > UINT32_MAX - m)
				cg_die_at(d->file, d->node[i].line, "too many "
				    "options in one document");
			m += d->node[i].nopt[s];
		}
		off[s][d->n] = m;
		to[s] = cg_xcalloc(m ? m : 1, sizeof *to[s]);
		for (i = 0; i < d->n; i++)
			for (k = 0; k < d->node[i].nopt[s]; k++)
				to[s][off[s][i] + k] = d->node[i].opt[s][k].child;
		g->off[s] = off[s];
		g->to[s] = to[s];
	}
}

/* Stop unless every node has the same options for Left and Right (as
 * sets: a repeated option is the same move). */
static void
need_impartial(const struct cg_doc *d, const struct cg_retro_graph *g)
{
	uint32_t i, a[2], *row[2], n[2], k;
	int s;

	for (i = 0; i < d->n; i++) {
		for (s = 0; s < 2; s++) {
			n[s] = g->off[s][i + 1] - g->off[s][i];
			row[s] = cg_xcalloc(n[s] ? n[s] : 1, sizeof *row[s]);
			memcpy(row[s], g->to[s] + g->off[s][i],
			    n[s] * sizeof *row[s]);
			qsort(row[s], n[s], sizeof *row[s], cmp_u32);
			for (a[s] = k = 0; k < n[s]; k++)
				if (a[s] == 0 || row[s][a[s] - 1] != row[s][k])
					row[s][a[s]++] = row[s][k];
		}
		s = a[0] != a[1] || memcmp(row[0], row[1], a[0] *
		    sizeof *row[0]) != 0;
		free(row[0]);
		free(row[1]);
		if (s)
			cg_die_at(d->file, d->node[i].line, "node %llu is not "
			    "impartial (its Left and Right options differ): -n "
			    "needs an impartial game",
			    (unsigned long long)d->node[i].id);
	}
}

/* ---- proof-number searches (CG_LOOPY_PN) */

/* The options of a document's node x (its number as the state). */
static void
pn_doc_options(void *ctx, const unsigned char *pos, size_t len, int side,
    cg_lpn_emit_fn emit, void *ectx)
{
	const struct cg_retro_graph *g = ctx;
	uint32_t x, y, k;

	(void)len;
	memcpy(&x, pos, sizeof x);
	for (k = g->off[side][x]; k < g->off[side][x + 1]; k++) {
		y = g->to[side][k];
		emit(ectx, (const unsigned char *)&y, sizeof y);
	}
}

/* The options of a ruleset's position, by their canonical bytes. */
struct pn_rs {
	struct cg_plugin *rs;
	struct cg_buf canon;
	cg_lpn_emit_fn emit;
	void *ectx;
};

static void
pn_rs_failed(struct pn_rs *w)
{
	cg_die(CG_EXIT_DATA, "ruleset '%s': %s", w->rs->name,
	    cg_rs_errmsg(w->rs));
}

static int
pn_rs_child(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct pn_rs *w = ctx;

	(void)move;
	w->canon.len = 0;
	if (cg_rs_canonical(w->rs, pos, len, &w->canon) < 0)
		pn_rs_failed(w);
	w->emit(w->ectx, w->canon.data, w->canon.len);
	return 0;
}

static void
pn_rs_options(void *ctx, const unsigned char *pos, size_t len, int side,
    cg_lpn_emit_fn emit, void *ectx)
{
	struct pn_rs *w = ctx;

	w->emit = emit;
	w->ectx = ectx;
	if (cg_rs_options(w->rs, pos, len, (enum cg_side)side, pn_rs_child,
	    w) < 0)
		pn_rs_failed(w);
}

/* The class of the position pos (node x of d) for each side moving
 * first; stops with file:line when a search cannot finish. */
static const char *
pn_class(struct cg_lpn *p, const unsigned char *pos, size_t len,
    const struct cg_doc *d, uint32_t x)
{
	int res[2], s;
	uint64_t np, nn;

	for (s = 0; s < 2; s++) {
		if (cg_lpn_solve(p, pos, len, s, &res[s]) == 0)
			continue;
		if (cg_stop && cg_stop != CG_STOP_MEMORY)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		cg_lpn_count(p, &np, &nn);
		cg_die_at(d->file, d->node[x].line, "the proof-number search "
		    "cannot decide the game: %s after %llu positions and %llu "
		    "tree nodes", cg_stop ? cg_stop_reason() : "its tree is "
		    "full", (unsigned long long)np, (unsigned long long)nn);
	}
	/* as results for Left: Right to move winning is Right winning */
	return cg_result_class(res[CG_LEFT], -res[CG_RIGHT]);
}

static void
pn_refuse(unsigned what)
{
	if (what & (CG_LOOPY_NIMBER | CG_LOOPY_REMOTENESS))
		cg_die(CG_EXIT_USAGE, "--search pns gives a loopy game's "
		    "outcome class alone: not -n, --remoteness or --children");
}

/*
 * The value of a sum by the generalized rule (Smith 1966; Fraenkel and
 * Yesha 1986; Fraenkel, "Sprague-Grundy function", Encyclopedia of
 * Mathematics): finite values add by XOR, a finite a and inf(K) make
 * inf(K xor a), two infinite terms make inf with K empty, a draw
 * (cg_gsg_add).  The empty sum is 0.
 */
void
cg_loopy_sum_row(struct cg_doc *d, struct cg_gsg_value (*value)(void *,
    uint32_t), void *ctx, FILE *tsv)
{
	struct cg_gsg_value sum = { 0, NULL, 0 }, t;
	struct cg_buf b;
	uint32_t i;

	cg_buf_init(&b);
	for (i = 0; i < d->nroot; i++) {
		if (i > 0)
			cg_buf_addc(&b, '+');
		cg_doc_root_label(d, d->root[i], &b);
		t = cg_gsg_add(sum, value(ctx, d->root[i]));
		free(sum.k);
		sum = t;
	}
	if (d->nroot == 0)
		cg_buf_addc(&b, '0');
	cg_buf_addc(&b, '\t');
	cg_gsg_text(sum, &b);
	cg_buf_addc(&b, '\n');
	free(sum.k);
	fwrite(b.data, 1, b.len, tsv);
	cg_buf_free(&b);
	cg_check_write(tsv, "standard output");
}

static struct cg_gsg_value
doc_value(void *ctx, uint32_t x)
{
	return cg_gsg_of(ctx, x);
}

void
cg_loopy_rows(struct cg_doc *d, unsigned what, FILE *tsv)
{
	struct cg_retro_graph g;
	uint32_t *off[2], *to[2], i;
	struct cg_retro *r = NULL;
	struct cg_gsg *v = NULL;
	struct cg_lpn *pn = NULL;
	struct cg_buf val[3];
	const char *vals[3];
	int k, nv;

	build(d, &g, off, to);
	if (what & CG_LOOPY_PN) {
		pn_refuse(what);
		pn = cg_lpn_new(pn_doc_options, &g);
	} else if (what & (CG_LOOPY_CLASS | CG_LOOPY_REMOTENESS)) {
		/* remoteness is of the game played by both players, so
		 * retrograde analysis runs for it even when the value asked
		 * is the nimber */
		r = cg_retro_solve(&g);
	}
	if (what & CG_LOOPY_NIMBER) {
		need_impartial(d, &g);
		v = cg_gsg_solve(&g);
	}
	if (what & CG_LOOPY_SUM)
		cg_loopy_sum_row(d, doc_value, v, tsv);
	for (k = 0; k < 3; k++)
		cg_buf_init(&val[k]);
	for (i = 0; i < d->nroot && !(what & CG_LOOPY_SUM); i++) {
		uint32_t x = d->root[i];

		nv = 0;
		for (k = 0; k < 3; k++)
			val[k].len = 0;
		if (what & CG_LOOPY_CLASS)
			cg_buf_addstr(&val[nv++], pn ? pn_class(pn,
			    (const unsigned char *)&x, sizeof x, d, x) :
			    cg_retro_class(r, x));
		if (what & CG_LOOPY_NIMBER)
			cg_gsg_text(cg_gsg_of(v, x), &val[nv++]);
		if (what & CG_LOOPY_REMOTENESS)
			cg_retro_remoteness_text(r, x, &val[nv++]);
		for (k = 0; k < nv; k++)
			vals[k] = cg_buf_str(&val[k]);
		if (tsv != NULL) {
			cg_tsv_row(tsv, d, x, vals, (size_t)nv);
			continue;
		}
		k = 0;
		if (what & CG_LOOPY_CLASS)
			cg_doc_annotate(d, x, "outcome", vals[k++]);
		if (what & CG_LOOPY_NIMBER)
			cg_doc_annotate(d, x, "nimber", vals[k++]);
		if (what & CG_LOOPY_REMOTENESS)
			cg_doc_annotate(d, x, "remoteness", vals[k++]);
	}
	for (k = 0; k < 3; k++)
		cg_buf_free(&val[k]);
	cg_retro_free(r);
	cg_gsg_free(v);
	cg_lpn_free(pn);
	for (k = 0; k < 2; k++) {
		free(off[k]);
		free(to[k]);
	}
}

/* ---- positions of loopy rulesets */

struct space {
	struct cg_plugin *rs;
	struct cg_explore *e;    /* NULL with CG_LOOPY_PN */
	struct cg_retro *r;
	struct cg_gsg *v;
	struct cg_lpn *pn;       /* with CG_LOOPY_PN */
	struct pn_rs *w;
	int split;               /* some root is split into components */
};

struct cg_loopy_rs {
	struct cg_doc *d;
	unsigned what;
	struct space *sp;
	size_t nsp;
	/* per node of d: 1 + its space, 0 for a node that is not a root
	 * position of a loopy ruleset; and its node in that space */
	uint32_t *in, *at;
	/* per node of d: NULL, or for a root whose values are all known,
	 * the texts of outcome, nimber and remoteness (those asked for) */
	char *(*known)[3];
	uint32_t stop_root;      /* the root being explored when stopped */
	FILE *progress;          /* where cg_loopy_rs_solve reports, or NULL */
	int summed;              /* CG_LOOPY_SUM: the sum's row written */
	/* CG_LOOPY_SPLIT: per node of d, whether it is a root valued as the
	 * sum of its components, and its components' nodes (in its space),
	 * comp[cs .. cs + cn); after the run its value, rule-added */
	unsigned char *split;
	uint32_t *cs, *cn, *comp;
	size_t ncomp, capcomp;
	struct cg_gsg_value *sum;
};

/* Whether root n of h is valued as a sum of its components: an
 * impartial ruleset that splits positions, the generalized
 * Sprague-Grundy value or the class (which that value gives) asked. */
static int
splits(const struct cg_loopy_rs *h, const struct cg_node *n)
{
	return (h->what & CG_LOOPY_SPLIT) && !(h->what & (CG_LOOPY_REMOTENESS |
	    CG_LOOPY_PN)) && n->rs->impartial && n->rs->rs->decompose != NULL;
}

struct split_walk {
	struct cg_loopy_rs *h;
	struct cg_explore *e;
};

static int
on_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct split_walk *w = ctx;
	struct cg_loopy_rs *h = w->h;

	(void)move;
	if (h->ncomp == h->capcomp) {
		h->capcomp = h->capcomp ? 2 * h->capcomp : 64;
		h->comp = cg_xreallocarray(h->comp, h->capcomp,
		    sizeof *h->comp);
	}
	h->comp[h->ncomp++] = cg_explore_add(w->e, pos, len);
	return 0;
}

/* Root x's components, each a node of its space to explore. */
static void
split_root(struct cg_loopy_rs *h, uint32_t x, struct cg_explore *e)
{
	const struct cg_node *n = &h->d->node[x];
	struct split_walk w = { h, e };
	size_t k;

	if (h->split == NULL) {
		h->split = cg_xcalloc(h->d->n, 1);
		h->cs = cg_xcalloc(h->d->n, sizeof *h->cs);
		h->cn = cg_xcalloc(h->d->n, sizeof *h->cn);
		h->sum = cg_xcalloc(h->d->n, sizeof *h->sum);
	}
	h->split[x] = 1;
	h->cs[x] = (uint32_t)h->ncomp;
	if (cg_rs_decompose(n->rs, n->pos, n->poslen, on_component, &w) < 0)
		cg_die_at(h->d->file, n->line, "ruleset '%s': %s",
		    n->rs->name, cg_rs_errmsg(n->rs));
	h->cn[x] = (uint32_t)(h->ncomp - h->cs[x]);
	/* the root's graph is done when its last component's is */
	for (k = h->cs[x]; k < h->ncomp; k++)
		h->at[x] = h->comp[k] > h->at[x] ? h->comp[k] : h->at[x];
}

/* The value of every split root, by the rule from its components'
 * (cg_loopy_sum_row's rule): computed once the spaces are solved. */
static void
add_components(struct cg_loopy_rs *h)
{
	struct cg_gsg_value t;
	uint32_t x, k;

	for (x = 0; h->split != NULL && x < h->d->n; x++) {
		if (!h->split[x])
			continue;
		for (k = 0; k < h->cn[x]; k++) {
			t = cg_gsg_add(h->sum[x], cg_gsg_of(h->sp[h->in[x] -
			    1].v, h->comp[h->cs[x] + k]));
			free(h->sum[x].k);
			h->sum[x] = t;
		}
	}
}

/* The class an impartial game's value gives: 0 is lost for the player
 * to move, another finite value or inf(K) with 0 in K won, else a draw. */
static const char *
gsg_class(struct cg_gsg_value a)
{
	if (a.v == 0)
		return "P";
	if (a.v != CG_GSG_INF || (a.nk > 0 && a.k[0] == 0))
		return "N";
	return "D";
}

static int
loopy_root(const struct cg_node *n)
{
	/* option records, when the document has them, are the plugin's
	 * own, so the plugin's moves are taken whether or not they are
	 * written (cg-options -d N writes some of them) */
	return n->rs != NULL && n->pos != NULL && cg_rs_loopy(n->rs);
}

static const char *const value_key[3] = { "outcome", "nimber",
    "remoteness" };
static const unsigned value_bit[3] = { CG_LOOPY_CLASS, CG_LOOPY_NIMBER,
    CG_LOOPY_REMOTENESS };

/* Root x's values asked for from known: 1 when every one is known. */
static int
root_known(struct cg_loopy_rs *h, uint32_t x, cg_loopy_known_fn known,
    void *ctx)
{
	struct cg_node *n = &h->d->node[x];
	struct cg_buf key, v[3];
	int k, hit = 1;

	cg_buf_init(&key);
	if (cg_rs_canonical(n->rs, n->pos, n->poslen, &key) < 0)
		cg_die_at(h->d->file, n->line, "ruleset '%s': %s", n->rs->name,
		    cg_rs_errmsg(n->rs));
	for (k = 0; k < 3; k++) {
		cg_buf_init(&v[k]);
		if (hit && (h->what & value_bit[k]))
			hit = known(ctx, n->rs, key.data, key.len,
			    value_key[k], &v[k]);
	}
	if (hit) {
		if (h->known == NULL)
			h->known = cg_xcalloc(h->d->n, sizeof *h->known);
		for (k = 0; k < 3; k++)
			h->known[x][k] = (h->what & value_bit[k]) ?
			    cg_xstrdup(cg_buf_str(&v[k])) : NULL;
	}
	for (k = 0; k < 3; k++)
		cg_buf_free(&v[k]);
	cg_buf_free(&key);
	return hit;
}

struct cg_loopy_rs *
cg_loopy_rs_new(struct cg_doc *d, unsigned what, cg_loopy_known_fn known,
    void *known_ctx)
{
	struct cg_loopy_rs *h;
	uint32_t i, x;
	size_t k;

	for (i = 0; i < d->nroot; i++)
		if (loopy_root(&d->node[d->root[i]]))
			break;
	if (i == d->nroot)
		return NULL;
	h = cg_xcalloc(1, sizeof *h);
	h->d = d;
	h->what = what;
	h->in = cg_xcalloc(d->n ? d->n : 1, sizeof *h->in);
	h->at = cg_xcalloc(d->n ? d->n : 1, sizeof *h->at);
	for (i = 0; i < d->nroot; i++) {
		struct cg_node *n = &d->node[x = d->root[i]];

		if (!loopy_root(n) && (what & (CG_LOOPY_ALL | CG_LOOPY_SUM)))
			cg_die_at(d->file, n->line, "a root that is no "
			    "position of a loopy ruleset, in a document whose "
			    "roots are: give it a document of its own");
		if (!loopy_root(n))
			continue;
		if ((what & CG_LOOPY_NIMBER) && !n->rs->impartial)
			cg_die_at(d->file, n->line, "ruleset '%s' is not "
			    "impartial: -n needs an impartial game",
			    n->rs->name);
		if (known != NULL && root_known(h, x, known, known_ctx))
			continue;
		for (k = 0; k < h->nsp && h->sp[k].rs != n->rs; k++)
			;
		if (k == h->nsp) {
			h->sp = cg_xreallocarray(h->sp, ++h->nsp,
			    sizeof *h->sp);
			memset(&h->sp[k], 0, sizeof h->sp[k]);
			h->sp[k].rs = n->rs;
			if (what & CG_LOOPY_PN) {
				pn_refuse(what);
				h->sp[k].w = cg_xcalloc(1, sizeof *h->sp[k].w);
				h->sp[k].w->rs = n->rs;
				cg_buf_init(&h->sp[k].w->canon);
				h->sp[k].pn = cg_lpn_new(pn_rs_options,
				    h->sp[k].w);
			} else {
				h->sp[k].e = cg_explore_new(n->rs);
			}
		}
		h->in[x] = (uint32_t)k + 1;
		if (splits(h, n)) {
			h->sp[k].split = 1;
			split_root(h, x, h->sp[k].e);
		} else if (h->sp[k].e != NULL) {
			h->at[x] = cg_explore_add(h->sp[k].e, n->pos,
			    n->poslen);
		}
	}
	return h;
}

int
cg_loopy_rs_run(struct cg_loopy_rs *h)
{
	struct cg_retro_graph g;
	uint32_t i;
	size_t k;

	for (k = 0; k < h->nsp; k++) {
		struct space *s = &h->sp[k];

		if (s->e == NULL)
			continue;        /* searched root by root */
		if (cg_explore_run(s->e) < 0) {
			/* the first root whose graph was not done */
			for (i = 0; i < h->d->nroot; i++) {
				uint32_t x = h->d->root[i];

				if (h->in[x] == k + 1 && h->at[x] >=
				    cg_explore_expanded(s->e))
					break;
			}
			h->stop_root = h->d->root[i < h->d->nroot ? i : 0];
			return -1;
		}
		cg_explore_graph(s->e, &g);
		if (h->what & (CG_LOOPY_CLASS | CG_LOOPY_REMOTENESS))
			s->r = cg_retro_solve(&g);
		if ((h->what & CG_LOOPY_NIMBER) || s->split)
			s->v = cg_gsg_solve(&g);
	}
	add_components(h);
	return 0;
}

/* Were root x's values known (root_known)? */
static int
is_known(const struct cg_loopy_rs *h, uint32_t x)
{
	return h->known != NULL && (h->known[x][0] != NULL ||
	    h->known[x][1] != NULL || h->known[x][2] != NULL);
}

static struct cg_gsg_value
rs_value(void *ctx, uint32_t x)
{
	struct cg_loopy_rs *h = ctx;

	if (h->split != NULL && h->split[x])
		return h->sum[x];
	return cg_gsg_of(h->sp[h->in[x] - 1].v, h->at[x]);
}

/* Once a second while searching: positions met, tree nodes made,
 * memory. */
static void
pn_progress(void *ctx, double secs)
{
	struct cg_loopy_rs *h = ctx;
	uint64_t np, nn;

	cg_loopy_rs_count(h, &np, &nn);
	fprintf(h->progress, "%s: proof-number search: %llu positions, %llu "
	    "tree nodes, %.0f nodes/s, %.1f MB resident\n", cg_progname,
	    (unsigned long long)np, (unsigned long long)nn, (double)nn /
	    (secs > 0 ? secs : 1), (double)cg_memory_rss() / 1048576.0);
}

/* Root x's class by proof-number searches from its canonical bytes. */
static const char *
pn_root(struct cg_loopy_rs *h, struct space *s, uint32_t x)
{
	const struct cg_node *n = &h->d->node[x];
	struct cg_buf key;
	const char *c;
	uint64_t np, nn;

	cg_buf_init(&key);
	if (cg_rs_canonical(s->rs, n->pos, n->poslen, &key) < 0)
		pn_rs_failed(s->w);
	if (h->progress != NULL)
		cg_progress_every(1.0, pn_progress, h);
	c = pn_class(s->pn, key.data, key.len, h->d, x);
	if (h->progress != NULL) {
		cg_progress_every(1.0, NULL, NULL);
		cg_loopy_rs_count(h, &np, &nn);
		fprintf(h->progress, "%s: %llu positions, %llu tree nodes "
		    "searched in %.3f s\n", cg_progname,
		    (unsigned long long)np, (unsigned long long)nn,
		    cg_elapsed());
	}
	cg_buf_free(&key);
	return c;
}

int
cg_loopy_rs_row(struct cg_loopy_rs *h, uint32_t x, FILE *tsv)
{
	struct cg_buf val[3];
	const char *vals[3];
	const char *keys[3];
	struct space *s;
	uint32_t y;
	int k, nv = 0;

	if (h == NULL || (h->in[x] == 0 && !is_known(h, x)))
		return 0;
	if (h->what & CG_LOOPY_SUM) {
		if (!h->summed)
			cg_loopy_sum_row(h->d, rs_value, h, tsv);
		h->summed = 1;
		return 1;
	}
	for (k = 0; k < 3; k++)
		cg_buf_init(&val[k]);
	if (h->in[x] == 0) {
		/* every value asked for is known */
		for (k = 0; k < 3; k++)
			if (h->known[x][k] != NULL) {
				keys[nv] = value_key[k];
				cg_buf_addstr(&val[nv++], h->known[x][k]);
			}
		goto out;
	}
	s = &h->sp[h->in[x] - 1];
	y = h->at[x];
	if (h->what & CG_LOOPY_CLASS) {
		keys[nv] = value_key[0];
		cg_buf_addstr(&val[nv++], s->pn != NULL ? pn_root(h, s, x) :
		    h->split != NULL && h->split[x] ? gsg_class(h->sum[x]) :
		    cg_retro_class(s->r, y));
	}
	if (h->what & CG_LOOPY_NIMBER) {
		keys[nv] = value_key[1];
		cg_gsg_text(rs_value(h, x), &val[nv++]);
	}
	if (h->what & CG_LOOPY_REMOTENESS) {
		keys[nv] = value_key[2];
		cg_retro_remoteness_text(s->r, y, &val[nv++]);
	}
out:
	for (k = 0; k < nv; k++)
		vals[k] = cg_buf_str(&val[k]);
	if (tsv != NULL)
		cg_tsv_row(tsv, h->d, x, vals, (size_t)nv);
	else
		for (k = 0; k < nv; k++)
			cg_doc_annotate(h->d, x, keys[k], vals[k]);
	for (k = 0; k < 3; k++)
		cg_buf_free(&val[k]);
	return 1;
}

unsigned
cg_loopy_what(int nimber, int remoteness, int sum, int children,
    const char *search)
{
	if (sum && (!nimber || remoteness))
		cg_die(CG_EXIT_USAGE, "--sum needs -n, and does not go with "
		    "--remoteness");
	return (nimber ? CG_LOOPY_NIMBER : CG_LOOPY_CLASS) | (remoteness ?
	    CG_LOOPY_REMOTENESS : 0) | (sum ? CG_LOOPY_SUM : 0) |
	    (strcmp(search, "pns") == 0 ? CG_LOOPY_PN : 0) | (children ? 0 :
	    CG_LOOPY_SPLIT);
}

struct child_walk {
	struct cg_loopy_rs *h;
	struct space *sp;
	int side;
	cg_loopy_child_fn fn;
	void *ctx;
	struct cg_buf text, val;
};

static int
on_child(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct child_walk *w = ctx;
	uint32_t y = cg_explore_add(w->sp->e, pos, len);

	w->text.len = 0;
	w->val.len = 0;
	if (cg_rs_print(w->sp->rs, pos, len, &w->text) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", w->sp->rs->name,
		    cg_rs_errmsg(w->sp->rs));
	if (w->h->what & CG_LOOPY_NIMBER)
		cg_gsg_text(cg_gsg_of(w->sp->v, y), &w->val);
	else
		cg_buf_addstr(&w->val, cg_retro_class(w->sp->r, y));
	w->fn(w->ctx, w->side, move ? move : "", cg_buf_str(&w->text),
	    cg_buf_str(&w->val));
	return 0;
}

int
cg_loopy_rs_children(struct cg_loopy_rs *h, uint32_t x, cg_loopy_child_fn fn,
    void *ctx)
{
	struct child_walk w;
	const struct cg_node *n;
	int s;

	if (h == NULL || h->in[x] == 0)
		return 0;
	if (h->what & CG_LOOPY_PN)
		pn_refuse(CG_LOOPY_REMOTENESS);
	n = &h->d->node[x];
	memset(&w, 0, sizeof w);
	w.h = h;
	w.sp = &h->sp[h->in[x] - 1];
	w.fn = fn;
	w.ctx = ctx;
	cg_buf_init(&w.text);
	cg_buf_init(&w.val);
	/* an impartial game's moves are listed once */
	for (s = 0; s < ((h->what & CG_LOOPY_NIMBER) ? 1 : 2); s++) {
		w.side = s;
		if (cg_rs_options(w.sp->rs, n->pos, n->poslen, (enum cg_side)s,
		    on_child, &w) < 0)
			cg_die_at(h->d->file, n->line, "ruleset '%s': %s",
			    w.sp->rs->name, cg_rs_errmsg(w.sp->rs));
	}
	cg_buf_free(&w.text);
	cg_buf_free(&w.val);
	return 1;
}

uint32_t
cg_loopy_rs_stopped_at(const struct cg_loopy_rs *h)
{
	return h->stop_root;
}

void
cg_loopy_rs_count(const struct cg_loopy_rs *h, uint64_t *positions,
    uint64_t *options)
{
	size_t k;

	*positions = *options = 0;
	for (k = 0; k < h->nsp; k++) {
		uint64_t np, nn;

		if (h->sp[k].pn != NULL) {
			/* positions met, and tree nodes for moves */
			cg_lpn_count(h->sp[k].pn, &np, &nn);
			*positions += np;
			*options += nn;
			continue;
		}
		*positions += cg_explore_count(h->sp[k].e);
		*options += cg_explore_options(h->sp[k].e);
	}
}

/* Once a second while exploring: positions met and expanded, the rate,
 * memory. */
static void
explore_progress(void *ctx, double secs)
{
	struct cg_loopy_rs *h = ctx;
	uint64_t met = 0, done = 0;
	size_t k;

	for (k = 0; k < h->nsp; k++) {
		if (h->sp[k].e == NULL)
			continue;
		met += cg_explore_count(h->sp[k].e);
		done += cg_explore_expanded(h->sp[k].e);
	}
	fprintf(h->progress, "%s: %llu positions explored, %llu waiting, "
	    "%.0f/s, %.1f MB resident\n", cg_progname,
	    (unsigned long long)done, (unsigned long long)(met - done),
	    (double)done / (secs > 0 ? secs : 1), (double)cg_memory_rss() /
	    1048576.0);
}

struct cg_loopy_rs *
cg_loopy_rs_solve(struct cg_doc *d, unsigned what, FILE *progress,
    cg_loopy_known_fn known, void *known_ctx)
{
	struct cg_loopy_rs *h = cg_loopy_rs_new(d, what, known, known_ctx);
	uint64_t np, no;
	int rc;

	if (h == NULL)
		return NULL;
	h->progress = progress;
	if (progress != NULL)
		cg_progress_every(1.0, explore_progress, h);
	rc = cg_loopy_rs_run(h);
	if (progress != NULL)
		cg_progress_every(1.0, NULL, NULL);
	if (rc < 0) {
		unsigned long line = d->node[h->stop_root].line;

		cg_loopy_rs_count(h, &np, &no);
		/* freed before the exit, so that a leak checker finds none */
		cg_loopy_rs_free(h);
		if (cg_stop != CG_STOP_MEMORY)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		cg_die_at(d->file, line, "game too large to explore: %s after "
		    "%llu positions", cg_stop_reason(), (unsigned long long)np);
	}
	if (progress != NULL && !(what & CG_LOOPY_PN)) {
		cg_loopy_rs_count(h, &np, &no);
		fprintf(progress, "%s: %llu positions, %llu moves explored "
		    "and solved in %.3f s\n", cg_progname,
		    (unsigned long long)np, (unsigned long long)no,
		    cg_elapsed());
	}
	return h;
}

void
cg_loopy_rs_free(struct cg_loopy_rs *h)
{
	size_t k;

	if (h == NULL)
		return;
	for (k = 0; k < h->nsp; k++) {
		cg_explore_free(h->sp[k].e);
		cg_retro_free(h->sp[k].r);
		cg_gsg_free(h->sp[k].v);
		cg_lpn_free(h->sp[k].pn);
		if (h->sp[k].w != NULL)
			cg_buf_free(&h->sp[k].w->canon);
		free(h->sp[k].w);
	}
	for (k = 0; h->known != NULL && k < h->d->n; k++) {
		free(h->known[k][0]);
		free(h->known[k][1]);
		free(h->known[k][2]);
	}
	free(h->known);
	for (k = 0; h->sum != NULL && k < h->d->n; k++)
		free(h->sum[k].k);
	free(h->sum);
	free(h->split);
	free(h->cs);
	free(h->cn);
	free(h->comp);
	free(h->sp);
	free(h->in);
	free(h->at);
	free(h);
}

/* ---- positions of a loopy ruleset one at a time (cg-play) */

struct cg_loopy_game {
	struct cg_plugin *rs;
	struct cg_explore *e;
	struct cg_retro *r;
	uint32_t solved;          /* nodes when r was made */
	struct cg_loopy_game *next;
};

static struct cg_loopy_game *games;

struct cg_loopy_game *
cg_loopy_game(struct cg_plugin *rs)
{
	struct cg_loopy_game *g;

	for (g = games; g != NULL; g = g->next)
		if (g->rs == rs)
			return g;
	g = cg_xcalloc(1, sizeof *g);
	g->rs = rs;
	g->e = cg_explore_new(rs);
	g->next = games;
	games = g;
	return g;
}

void
cg_loopy_game_value(struct cg_loopy_game *g, const unsigned char *pos,
    size_t len, enum cg_side side, int *res, uint32_t *rem,
    const char **cls)
{
	struct cg_retro_graph rg;
	uint32_t x = cg_explore_add(g->e, pos, len);

	if (g->r == NULL || cg_explore_count(g->e) != g->solved) {
		/* a position not met yet: what it reaches is explored and
		 * the whole graph solved again (a game in play stays in the
		 * graph of its first position, so this is once a game) */
		if (cg_explore_run(g->e) < 0)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		cg_explore_graph(g->e, &rg);
		cg_retro_free(g->r);
		g->r = cg_retro_solve(&rg);
		g->solved = cg_explore_count(g->e);
	}
	*res = g->r->res[side][x];
	*rem = g->r->rem[side][x];
	if (cls != NULL)
		*cls = cg_retro_class(g->r, x);
}

void
cg_loopy_free_all(void)
{
	struct cg_loopy_game *g;

	while ((g = games) != NULL) {
		games = g->next;
		cg_explore_free(g->e);
		cg_retro_free(g->r);
		free(g);
	}
}

void
cg_loopy_doc(struct cg_doc *d, unsigned what, int refuse, FILE *tsv,
    FILE *out)
{
	if (d->cyclic && refuse)
		cg_die_at(d->file, d->cycle_line, "node %llu is its own "
		    "follower: a loopy game (a cycle), which -m, -g and "
		    "--children do not take",
		    (unsigned long long)d->node[d->cycle_node].id);
	cg_doc_refuse_results(d, "a document's graph is played under normal "
	    "play");
	cg_loopy_rows(d, what, tsv);
	if (tsv == NULL)
		cg_doc_write(out, d);
}
