/* heapnim.c - nim values of heaps from heap rules (see heapnim.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/heapnim.h"
#include "solve/heapseq.h"
#include "base/util.h"
#include "base/watch.h"

struct cg_heapnim {
	struct cg_heapseq *seq;
	const struct cg_heap_rules *rules;  /* the plugin's, for heaps() */
	size_t limit;
	int periodic;                 /* per holds a declared or proven period */
	int compute_all;              /* no periods: every value computed */
	struct cg_period per;
	uint32_t *base;               /* G(0 .. preperiod + period - 1) */
};

struct cg_heapnim *
cg_heapnim_new(const struct cg_heap_rules *r, size_t limit, const char **why)
{
	struct cg_heapnim *h;
	struct cg_heapseq *seq = cg_heapseq_new(r, why);
	const uint32_t *kv;
	size_t n;

	if (seq == NULL)
		return NULL;
	h = cg_xcalloc(1, sizeof *h);
	h->seq = seq;
	h->rules = r;
	h->limit = limit ? limit : CG_HEAPNIM_LIMIT;
	if (cg_heapseq_known(seq, &h->per, &kv)) {
		n = h->per.preperiod + h->per.period;
		h->base = cg_xreallocarray(NULL, n, sizeof *h->base);
		memcpy(h->base, kv, n * sizeof *h->base);
		h->periodic = 1;
	}
	return h;
}

struct cg_heapnim *
cg_heapnim_for(struct cg_plugin *p, size_t limit, const char **why)
{
	const struct cg_heap_rules *r = cg_rs_extension(p, CG_EXT_HEAP_RULES);

	*why = NULL;
	if (r == NULL)
		return NULL;
	return cg_heapnim_new(r, limit, why);
}

void
cg_heapnim_compute_all(struct cg_heapnim *h)
{
	h->compute_all = 1;
	h->periodic = 0;
}

void
cg_heapnim_free(struct cg_heapnim *h)
{
	if (h == NULL)
		return;
	cg_heapseq_free(h->seq);
	free(h->base);
	free(h);
}

int
cg_heapnim_period(const struct cg_heapnim *h, size_t *period,
    size_t *preperiod, long *saltus)
{
	if (!h->periodic)
		return 0;
	*period = h->per.period;
	*preperiod = h->per.preperiod;
	*saltus = h->per.saltus;
	return 1;
}

/* G(n) from the period: base value plus the saltus per period passed;
 * -1 when it does not fit in 64 bits. */
static int
by_period(const struct cg_heapnim *h, uint64_t n, uint64_t *value)
{
	uint64_t e = h->per.preperiod, p = h->per.period, q, v;
	unsigned __int128 x;

	if (n < e + p) {
		*value = h->base[n];
		return 0;
	}
	q = (n - e) / p;
	v = h->base[e + (n - e) % p];
	x = (unsigned __int128)q * (uint64_t)h->per.saltus + v;
	if (x > UINT64_MAX)
		return -1;
	*value = (uint64_t)x;
	return 0;
}

/* Compute more heaps (doubling, up to the limit) until n is computed or a
 * period is proven (bounded takes only: Guy-Smith's test is a proof
 * there, an observation otherwise). */
static void
extend(struct cg_heapnim *h, uint64_t n)
{
	uint32_t t = cg_heapseq_max_take(h->seq);
	const uint32_t *v;
	size_t len, target;

	v = cg_heapseq_values(h->seq, &len);
	while ((uint64_t)len <= n && len <= h->limit) {
		target = len < 512 ? 1024 : 2 * len;
		if (target > h->limit)
			target = h->limit;
		if ((uint64_t)target > n)
			target = (size_t)n;
		cg_heapseq_compute(h->seq, target, !h->compute_all);
		if (cg_stop)
			return;
		v = cg_heapseq_values(h->seq, &len);
		if (!h->compute_all && cg_heapseq_provable(h->seq) &&
		    cg_heapseq_find_period(v, len, t,
		    cg_heapseq_splits(h->seq), &h->per) && h->per.saltus == 0) {
			size_t m = h->per.preperiod + h->per.period;

			h->base = cg_xreallocarray(NULL, m, sizeof *h->base);
			memcpy(h->base, v, m * sizeof *h->base);
			h->periodic = 1;
			return;
		}
		if (target == h->limit)
			break;
	}
}

int
cg_heapnim_heap(struct cg_heapnim *h, uint64_t n, uint64_t *value, char *msg,
    size_t msglen)
{
	const uint32_t *v;
	size_t len;

	if (!h->periodic) {
		v = cg_heapseq_values(h->seq, &len);
		if (n < len) {
			*value = v[n];
			return 0;
		}
		extend(h, n);
	}
	if (h->periodic) {
		if (by_period(h, n, value) == 0)
			return 0;
		snprintf(msg, msglen, "nim value of heap %llu too large for "
		    "64 bits", (unsigned long long)n);
		return -1;
	}
	v = cg_heapseq_values(h->seq, &len);
	if (n < len) {
		*value = v[n];
		return 0;
	}
	snprintf(msg, msglen, "nim value of heap %llu unknown: no period "
	    "proven in heaps 0 to %zu (the limit of heaps computed one by one)",
	    (unsigned long long)n, len - 1);
	return -1;
}

struct xor_state {
	struct cg_heapnim *h;
	uint64_t value;
	int failed;
	char *msg;
	size_t msglen;
};

static void
xor_heap(void *ctx, uint64_t n)
{
	struct xor_state *x = ctx;
	uint64_t v;

	if (x->failed)
		return;
	if (cg_heapnim_heap(x->h, n, &v, x->msg, x->msglen) < 0) {
		x->failed = 1;
		return;
	}
	x->value ^= v;
}

int
cg_heapnim_position(struct cg_heapnim *h, struct cg_plugin *p,
    const unsigned char *pos, size_t len, uint64_t *value, char *msg,
    size_t msglen)
{
	struct xor_state x = { h, 0, 0, msg, msglen };

	if (!CG_HEAP_RULES_HAS(h->rules, heaps) || h->rules->heaps == NULL) {
		snprintf(msg, msglen, "ruleset '%s' does not list the heaps of "
		    "its positions", p->spec);
		return -2;
	}
	p->err.set = 0;
	if (h->rules->heaps(&p->cx, pos, len, xor_heap, &x) < 0) {
		snprintf(msg, msglen, "ruleset '%s': %s", p->spec,
		    p->err.set ? p->err.msg : "not a position");
		return -2;
	}
	if (x.failed)
		return -1;
	*value = x.value;
	return 0;
}
