/* retro.c - retrograde analysis of loopy games and generalized
 * Sprague-Grundy values (retro.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/result.h"
#include "solve/retro.h"

/* Reverse rows of side s: for each node y, the nodes x with an option y
 * (once per option, so multiple options count each). */
static void
reverse_rows(const struct cg_retro_graph *g, int s, uint32_t **roff,
    uint32_t **rto)
{
	uint32_t n = g->n, x, k, m = g->off[s][n];
	uint32_t *off = cg_xcalloc((size_t)n + 2, sizeof *off);
	uint32_t *to = cg_xcalloc(m ? m : 1, sizeof *to);

	for (k = 0; k < m; k++)
		off[g->to[s][k] + 2]++;
	for (x = 0; x < n; x++)
		off[x + 2] += off[x + 1];
	/* off[y + 1] is now where y's row starts; filling advances it to
	 * where y's row ends, which is where y + 1's starts */
	for (x = 0; x < n; x++)
		for (k = g->off[s][x]; k < g->off[s][x + 1]; k++)
			to[off[g->to[s][k] + 1]++] = x;
	*roff = off;
	*rto = to;
}

struct cg_retro *
cg_retro_solve(const struct cg_retro_graph *g)
{
	struct cg_retro *r = cg_xcalloc(1, sizeof *r);
	uint32_t n = g->n, *roff[2], *rto[2], *cnt[2];
	uint64_t *queue;
	unsigned char *done[2];
	size_t head = 0, tail = 0;
	uint32_t x, k;
	int s;

	r->n = n;
	queue = cg_xcalloc(2 * (size_t)n + 1, sizeof *queue);
	for (s = 0; s < 2; s++) {
		r->res[s] = cg_xcalloc(n ? n : 1, sizeof *r->res[s]);
		r->rem[s] = cg_xcalloc(n ? n : 1, sizeof *r->rem[s]);
		done[s] = cg_xcalloc(n ? n : 1, 1);
		cnt[s] = cg_xcalloc(n ? n : 1, sizeof *cnt[s]);
		reverse_rows(g, s, &roff[s], &rto[s]);
		for (x = 0; x < n; x++) {
			cnt[s][x] = g->off[s][x + 1] - g->off[s][x];
			if (cnt[s][x] == 0) {
				/* no move: the player to move has lost */
				r->res[s][x] = CG_RETRO_LOSS;
				done[s][x] = 1;
				queue[tail++] = 2 * (uint64_t)x + (uint64_t)s;
			}
		}
	}
	/* First in, first out resolves positions in order of remoteness, so
	 * a win is found first through its shortest loss and a loss last
	 * through its longest win. */
	while (head < tail) {
		uint32_t y = (uint32_t)(queue[head] >> 1);
		int t = (int)(queue[head] & 1), p = !t;

		head++;
		for (k = roff[p][y]; k < roff[p][y + 1]; k++) {
			x = rto[p][k];
			if (done[p][x])
				continue;
			if (r->res[t][y] == CG_RETRO_LOSS) {
				r->res[p][x] = CG_RETRO_WIN;
			} else if (--cnt[p][x] == 0) {
				r->res[p][x] = CG_RETRO_LOSS;
			} else {
				continue;
			}
			r->rem[p][x] = r->rem[t][y] + 1;
			done[p][x] = 1;
			queue[tail++] = 2 * (uint64_t)x + (uint64_t)p;
		}
	}
	for (s = 0; s < 2; s++) {
		free(roff[s]);
		free(rto[s]);
		free(cnt[s]);
		free(done[s]);
	}
	free(queue);
	return r;
}

void
cg_retro_free(struct cg_retro *r)
{
	if (r == NULL)
		return;
	free(r->res[0]);
	free(r->res[1]);
	free(r->rem[0]);
	free(r->rem[1]);
	free(r);
}

const char *
cg_retro_class(const struct cg_retro *r, uint32_t x)
{
	/* as results for Left: Right to move winning is Right winning */
	int64_t lv = r->res[CG_LEFT][x], rv = -r->res[CG_RIGHT][x];

	return cg_result_class(lv, rv);
}

void
cg_retro_remoteness_text(const struct cg_retro *r, uint32_t x,
    struct cg_buf *out)
{
	int s;

	for (s = 0; s < 2; s++) {
		if (s)
			cg_buf_addc(out, ' ');
		if (r->res[s][x] == CG_RETRO_DRAW)
			cg_buf_addc(out, 'd');
		else
			cg_buf_addf(out, "%c%lu", r->res[s][x] ==
			    CG_RETRO_WIN ? 'w' : 'l',
			    (unsigned long)r->rem[s][x]);
	}
}

/* ---- generalized Sprague-Grundy values */

#define UNLABELED (CG_GSG_INF - 1)

/*
 * The labelling of Fraenkel and Yesha: for m = 0, 1, ... label m, as
 * long as there is one, an unlabelled node with no option labelled m
 * whose every option that is unlabelled or infinite has an option
 * labelled m (it reverses out); then label infinite every unlabelled
 * node without an option labelled m.  A node still unlabelled after
 * round m has options of every value up to m, so each round labels or
 * ends, and the rounds are at most the largest out-degree plus two.
 *
 * Within a round, cnt[u] counts u's options that are unlabelled or
 * infinite and have no option labelled m yet; u is labelled m when that
 * count reaches 0 while no option of u is labelled m.  Labelling x marks
 * x's parents as having an option labelled m, which lowers the counts of
 * their parents, so a round is O(options).
 */
static int
open_node(uint32_t v)
{
	return v == UNLABELED || v == CG_GSG_INF;
}

struct cg_gsg *
cg_gsg_solve(const struct cg_retro_graph *g)
{
	struct cg_gsg *v = cg_xcalloc(1, sizeof *v);
	uint32_t n = g->n, x, k, kk, m, left = n, *roff, *rto, nk, *cnt, *work;
	const uint32_t *off = g->off[0], *to = g->to[0];
	unsigned char *hasm = cg_xcalloc(n ? n : 1, 1);
	size_t cap = 16, nw;

	v->n = n;
	v->val = cg_xcalloc(n ? n : 1, sizeof *v->val);
	cnt = cg_xcalloc(n ? n : 1, sizeof *cnt);
	work = cg_xcalloc(n ? n : 1, sizeof *work);
	for (x = 0; x < n; x++)
		v->val[x] = UNLABELED;
	reverse_rows(g, 0, &roff, &rto);
	for (m = 0; left > 0; m++) {
		memset(hasm, 0, n);
		nw = 0;
		for (x = 0; x < n; x++) {
			if (v->val[x] != UNLABELED)
				continue;
			cnt[x] = 0;
			for (k = off[x]; k < off[x + 1]; k++)
				cnt[x] += open_node(v->val[to[k]]);
			if (cnt[x] == 0)
				work[nw++] = x;
		}
		while (nw > 0) {
			x = work[--nw];
			if (v->val[x] != UNLABELED || hasm[x])
				continue;
			v->val[x] = m;
			left--;
			for (k = roff[x]; k < roff[x + 1]; k++) {
				uint32_t p = rto[k], j;

				if (hasm[p])
					continue;
				hasm[p] = 1;
				if (!open_node(v->val[p]))
					continue;
				for (j = roff[p]; j < roff[p + 1]; j++) {
					uint32_t q = rto[j];

					if (v->val[q] == UNLABELED && --cnt[q] == 0 &&
					    !hasm[q])
						work[nw++] = q;
				}
			}
		}
		for (x = 0; x < n; x++)
			if (v->val[x] == UNLABELED && !hasm[x]) {
				v->val[x] = CG_GSG_INF;
				left--;
			}
	}
	free(cnt);
	free(work);
	/* K of each infinite node: its options' finite values */
	v->koff = cg_xcalloc((size_t)n + 1, sizeof *v->koff);
	v->kset = cg_xcalloc(cap, sizeof *v->kset);
	nk = 0;
	for (x = 0; x < n; x++) {
		v->koff[x] = nk;
		if (v->val[x] != CG_GSG_INF)
			continue;
		for (k = off[x]; k < off[x + 1]; k++) {
			uint32_t a = v->val[to[k]], *p;

			if (a == CG_GSG_INF)
				continue;
			/* insert a into the sorted row, once */
			for (kk = v->koff[x]; kk < nk && v->kset[kk] < a; kk++)
				;
			if (kk < nk && v->kset[kk] == a)
				continue;
			if (nk == cap) {
				cap *= 2;
				v->kset = cg_xreallocarray(v->kset, cap,
				    sizeof *v->kset);
			}
			p = v->kset + kk;
			memmove(p + 1, p, (nk - kk) * sizeof *p);
			*p = a;
			nk++;
		}
	}
	v->koff[n] = nk;
	free(roff);
	free(rto);
	free(hasm);
	return v;
}

void
cg_gsg_free(struct cg_gsg *v)
{
	if (v == NULL)
		return;
	free(v->val);
	free(v->koff);
	free(v->kset);
	free(v);
}

struct cg_gsg_value
cg_gsg_of(const struct cg_gsg *v, uint32_t x)
{
	struct cg_gsg_value a;

	a.v = v->val[x];
	a.k = v->kset + v->koff[x];
	a.nk = v->val[x] == CG_GSG_INF ? v->koff[x + 1] - v->koff[x] : 0;
	return a;
}

void
cg_gsg_text(struct cg_gsg_value a, struct cg_buf *out)
{
	size_t i;

	if (a.v != CG_GSG_INF) {
		cg_buf_addf(out, "%lu", (unsigned long)a.v);
		return;
	}
	cg_buf_addstr(out, "inf");
	for (i = 0; i < a.nk; i++)
		cg_buf_addf(out, "%c%lu", i ? ',' : '(', (unsigned long)a.k[i]);
	if (a.nk > 0)
		cg_buf_addc(out, ')');
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

struct cg_gsg_value
cg_gsg_add(struct cg_gsg_value a, struct cg_gsg_value b)
{
	struct cg_gsg_value s = { 0, NULL, 0 };
	size_t i, j;

	if (a.v != CG_GSG_INF && b.v != CG_GSG_INF) {
		s.v = a.v ^ b.v;
		return s;
	}
	s.v = CG_GSG_INF;
	if (a.v == CG_GSG_INF && b.v == CG_GSG_INF)
		return s;
	if (a.v == CG_GSG_INF) {
		struct cg_gsg_value t = a;

		a = b;
		b = t;
	}
	/* a finite, b infinite: K xor a */
	s.k = cg_xcalloc(b.nk ? b.nk : 1, sizeof *s.k);
	for (i = 0; i < b.nk; i++)
		s.k[i] = b.k[i] ^ a.v;
	qsort(s.k, b.nk, sizeof *s.k, cmp_u32);
	for (i = j = 0; i < b.nk; i++)
		if (j == 0 || s.k[j - 1] != s.k[i])
			s.k[j++] = s.k[i];
	s.nk = j;
	return s;
}
