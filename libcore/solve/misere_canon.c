/* misere_canon.c - misere canonical forms over the position graph; see
 * misere_canon.h.  One frame per vertex being evaluated, its options in
 * an arena above its parent's as [k, v1 .. vk] each, so that popping a
 * frame frees them. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/misere_canon.h"

struct mframe {
	cg_vertex v;
	size_t base, scan, end;
};

struct cg_misere_eval {
	struct cg_graph *g;
	struct cg_mtab *t;
	volatile sig_atomic_t *interrupt;
	uint32_t *form;            /* vertex -> form + 1 */
	size_t capform;
	unsigned char *on;         /* vertex on the stack */
	size_t capon;
	struct mframe *fr;
	size_t nfr, capfr;
	struct cg_sum ar, right;
};

struct cg_misere_eval *
cg_misere_eval_new(struct cg_graph *g, struct cg_mtab *t,
    volatile sig_atomic_t *interrupt)
{
	struct cg_misere_eval *ev = cg_xcalloc(1, sizeof *ev);

	ev->g = g;
	ev->t = t;
	ev->interrupt = interrupt;
	cg_sum_init(&ev->ar);
	cg_sum_init(&ev->right);
	return ev;
}

void
cg_misere_eval_free(struct cg_misere_eval *ev)
{
	if (ev == NULL)
		return;
	free(ev->form);
	free(ev->on);
	free(ev->fr);
	cg_sum_free(&ev->ar);
	cg_sum_free(&ev->right);
	free(ev);
}

static uint32_t
form_of(struct cg_misere_eval *ev, cg_vertex v)
{
	return v < ev->capform ? ev->form[v] : 0;
}

/* Options [k, v1..vk] from at..end as a sorted list of option offsets
 * compared by content, so that two lists of one set compare equal. */
static const uint32_t *cmp_base;

static int
cmp_opt(const void *a, const void *b)
{
	const uint32_t *x = cmp_base + *(const size_t *)a;
	const uint32_t *y = cmp_base + *(const size_t *)b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return memcmp(x + 1, y + 1, x[0] * sizeof *x);
}

static size_t
option_set(const uint32_t *ar, size_t at, size_t end, size_t **out)
{
	size_t n = 0, cap = 16, m, i;
	size_t *o = cg_xmalloc(cap * sizeof *o);

	for (; at < end; at += 1 + ar[at]) {
		if (n == cap)
			o = cg_xreallocarray(o, cap *= 2, sizeof *o);
		o[n++] = at;
	}
	cmp_base = ar;
	qsort(o, n, sizeof *o, cmp_opt);
	for (i = 0, m = 0; i < n; i++)
		if (m == 0 || cmp_opt(&o[m - 1], &o[i]) != 0)
			o[m++] = o[i];
	*out = o;
	return m;
}

/* Whether the options at ar[a0..a1) and r[0..rn) are one set. */
static int
same_options(const uint32_t *ar, size_t a0, size_t a1, const uint32_t *r,
    size_t rn)
{
	size_t *x, *y, nx, ny, i;
	int same;

	nx = option_set(ar, a0, a1, &x);
	ny = option_set(r, 0, rn, &y);
	same = nx == ny;
	for (i = 0; same && i < nx; i++) {
		const uint32_t *p = ar + x[i], *q = r + y[i];

		same = p[0] == q[0] && memcmp(p + 1, q + 1, p[0] *
		    sizeof *p) == 0;
	}
	free(x);
	free(y);
	return same;
}

static void
describe(struct cg_misere_eval *ev, cg_vertex v, int loopy,
    char *msg, size_t msgsize)
{
	const char *what = loopy ? "the position" : "Left and Right "
	    "have different options in";
	struct cg_buf b;

	cg_buf_init(&b);
	cg_graph_print(ev->g, v, &b);
	snprintf(msg, msgsize, "no misere canonical form: %s '%.80s'%s",
	    what, cg_buf_str(&b), loopy ? " comes back in play (a loopy "
	    "game)" : " (a partizan game)");
	cg_buf_free(&b);
}

/* Push a frame for v with its options; -1 (msg set) when v is
 * partizan. */
static int
push(struct cg_misere_eval *ev, cg_vertex v, char *msg, size_t msgsize)
{
	struct cg_plugin *rs = cg_graph_ruleset(ev->g, v);
	struct mframe *f;
	size_t base = ev->ar.n;

	if (ev->nfr == ev->capfr) {
		ev->capfr = ev->capfr ? 2 * ev->capfr : 64;
		ev->fr = cg_xreallocarray(ev->fr, ev->capfr, sizeof *ev->fr);
	}
	(void)cg_graph_all_options(ev->g, v, CG_LEFT, &ev->ar);
	if (rs == NULL || !rs->impartial) {
		ev->right.n = 0;
		(void)cg_graph_all_options(ev->g, v, CG_RIGHT, &ev->right);
		if (!same_options(ev->ar.v, base, ev->ar.n, ev->right.v,
		    ev->right.n)) {
			ev->ar.n = base;
			describe(ev, v, 0, msg, msgsize);
			return -1;
		}
	}
	ev->on = cg_xgrow_zero(ev->on, &ev->capon, v, 1);
	ev->on[v] = 1;
	f = &ev->fr[ev->nfr++];
	f->v = v;
	f->base = f->scan = base;
	f->end = ev->ar.n;
	return 0;
}

static void
pop_all(struct cg_misere_eval *ev)
{
	while (ev->nfr > 0)
		ev->on[ev->fr[--ev->nfr].v] = 0;
	ev->ar.n = 0;
}

/* The form of the top frame, every component's form known. */
static uint32_t
finish(struct cg_misere_eval *ev, struct mframe *f)
{
	size_t p, i, n = 0, cap = 16;
	uint32_t *o = cg_xmalloc(cap * sizeof *o), r;

	for (p = f->base; p < f->end; p += 1 + ev->ar.v[p]) {
		uint32_t s = 0;

		for (i = 0; i < ev->ar.v[p]; i++)
			s = cg_mtab_add(ev->t, s, form_of(ev, ev->ar.v[p + 1 +
			    i]) - 1);
		if (n == cap)
			o = cg_xreallocarray(o, cap *= 2, sizeof *o);
		o[n++] = s;
	}
	r = cg_mtab_canon(ev->t, o, n);
	free(o);
	return r;
}

static int
vertex_form(struct cg_misere_eval *ev, cg_vertex root, char *msg,
    size_t msgsize)
{
	if (form_of(ev, root) != 0)
		return 0;
	if (push(ev, root, msg, msgsize) < 0)
		return -1;
	while (ev->nfr > 0) {
		struct mframe *f = &ev->fr[ev->nfr - 1];
		cg_vertex next = 0;
		int descend = 0;

		if (ev->interrupt != NULL && *ev->interrupt) {
			pop_all(ev);
			return -2;
		}
		while (f->scan < f->end && !descend) {
			size_t k = ev->ar.v[f->scan], i;

			for (i = 0; i < k && !descend; i++) {
				cg_vertex c = ev->ar.v[f->scan + 1 + i];

				if (form_of(ev, c) != 0)
					continue;
				if (c < ev->capon && ev->on[c]) {
					describe(ev, c, 1, msg, msgsize);
					pop_all(ev);
					return -1;
				}
				next = c;
				descend = 1;
			}
			if (!descend)
				f->scan += 1 + k;
		}
		if (descend) {
			if (push(ev, next, msg, msgsize) < 0) {
				pop_all(ev);
				return -1;
			}
			continue;
		}
		{
			uint32_t r = finish(ev, f);

			ev->form = cg_xgrow_zero(ev->form, &ev->capform, f->v,
			    sizeof *ev->form);
			ev->form[f->v] = r + 1;
			ev->on[f->v] = 0;
			ev->ar.n = f->base;
			ev->nfr--;
		}
	}
	return 0;
}

int
cg_misere_sum(struct cg_misere_eval *ev, const cg_vertex *sum, size_t n,
    uint32_t *out, char *msg, size_t msgsize)
{
	uint32_t g = 0;
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		if ((r = vertex_form(ev, sum[i], msg, msgsize)) < 0)
			return r;
		g = cg_mtab_add(ev->t, g, form_of(ev, sum[i]) - 1);
	}
	*out = g;
	return 0;
}

int
cg_misere_node(struct cg_misere_eval *ev, uint32_t x, uint32_t *out,
    char *msg, size_t msgsize)
{
	struct cg_sum sum;
	int r;

	cg_sum_init(&sum);
	cg_graph_node(ev->g, x, &sum);
	r = cg_misere_sum(ev, sum.v, sum.n, out, msg, msgsize);
	cg_sum_free(&sum);
	return r;
}
