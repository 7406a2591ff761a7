/* loopy.c - the games of a document as a graph with cycles (loopy.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/loopy.h"
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

void
cg_loopy_rows(struct cg_doc *d, unsigned what, FILE *tsv)
{
	struct cg_retro_graph g;
	uint32_t *off[2], *to[2], i;
	struct cg_retro *r = NULL;
	struct cg_gsg *v = NULL;
	struct cg_buf val[3];
	const char *vals[3];
	int k, nv;

	build(d, &g, off, to);
	/* remoteness is of the game played by both players, so retrograde
	 * analysis runs for it even when the value asked is the nimber */
	if (what & (CG_LOOPY_CLASS | CG_LOOPY_REMOTENESS))
		r = cg_retro_solve(&g);
	if (what & CG_LOOPY_NIMBER) {
		need_impartial(d, &g);
		v = cg_gsg_solve(&g);
	}
	for (k = 0; k < 3; k++)
		cg_buf_init(&val[k]);
	for (i = 0; i < d->nroot; i++) {
		uint32_t x = d->root[i];

		nv = 0;
		for (k = 0; k < 3; k++)
			val[k].len = 0;
		if (what & CG_LOOPY_CLASS)
			cg_buf_addstr(&val[nv++], cg_retro_class(r, x));
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
	for (k = 0; k < 2; k++) {
		free(off[k]);
		free(to[k]);
	}
}
