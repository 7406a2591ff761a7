/* heapseq.c - nim sequences of heap games and their periodicity.
 *
 * G(n) = mex S(n), S(n) the values of the options of a heap of n.  The
 * options left by a take of k are: nothing (k = n), one heap n - k, or a
 * split of m = n - k into j heaps.  Direct values are collected in a value
 * set; two-heap splits are asked lazily, candidate by candidate, in mex
 * order ("is v = G(a) ^ G(m - a) for some a?"):
 *   - rare-values method: with a mask M chosen so that few heaps are
 *     "rare" (parity(G(a) & M) even), a candidate of odd parity can only
 *     come from a rare heap and a common one, so only rare heaps are tried;
 *   - otherwise a word-parallel search over per-value position bitsets
 *     (bit a of P[c] set when G(a) = c, reversed copies for m - a), words
 *     outermost so that a witness near the start stops the search early.
 * Splits into three or more heaps, and unbounded takes (tail_mask), use
 * plain enumeration; they occur in small exotic rulesets only. */
#include <stdlib.h>
#include <string.h>

#include "base/watch.h"
#include "host/plugin.h"
#include "solve/heapseq.h"
#include "base/util.h"

#define MAXBITVALS 256   /* per-value bitsets only below this many values */

struct vset {
	uint64_t *w;
	size_t nw;
};

struct cg_heapseq {
	uint32_t max_take;
	uint32_t *mask, *flags;
	uint32_t tail_mask, tail_flags;
	int splits, maxj;
	uint32_t *g;
	size_t n, cap;
	size_t *count;          /* heaps >= 1 per value */
	size_t ncount;
	uint32_t maxval;
	/* bitsets */
	int use_bits;
	size_t nbits, nwords;   /* capacity in heaps */
	uint64_t **pos, **rev;
	/* rare values */
	uint32_t rmask;
	uint32_t *rare;
	size_t nrare, caprare;
	size_t next_mask_check;
	/* unbounded takes */
	struct vset tail1, tail2;
	size_t tail_done;       /* tail sets cover m < tail_done */
	/* scratch */
	struct vset d;
	uint32_t *m2, *m2f;
	size_t nm2;
	int shortcut_used;
	size_t next_period_check;
	/* a sequence the rules declare (known_period > 0) */
	uint32_t kpre, kper, ksaltus;
	uint32_t *kval;
};

static void
vs_clear(struct vset *s)
{
	if (s->nw > 0)
		memset(s->w, 0, s->nw * sizeof *s->w);
}

static void
vs_add(struct vset *s, uint32_t v)
{
	size_t q = v >> 6;

	if (q >= s->nw) {
		size_t nw = q + 1 > 2 * s->nw ? q + 1 : 2 * s->nw;
		s->w = cg_xreallocarray(s->w, nw, sizeof *s->w);
		memset(s->w + s->nw, 0, (nw - s->nw) * sizeof *s->w);
		s->nw = nw;
	}
	s->w[q] |= (uint64_t)1 << (v & 63);
}

static int
vs_has(const struct vset *s, uint32_t v)
{
	size_t q = v >> 6;

	return q < s->nw && (s->w[q] >> (v & 63) & 1);
}

static void
vs_or(struct vset *d, const struct vset *s)
{
	size_t i;

	if (s->nw > d->nw) {
		d->w = cg_xreallocarray(d->w, s->nw, sizeof *d->w);
		memset(d->w + d->nw, 0, (s->nw - d->nw) * sizeof *d->w);
		d->nw = s->nw;
	}
	for (i = 0; i < s->nw; i++)
		d->w[i] |= s->w[i];
}

struct cg_heapseq *
cg_heapseq_new(const struct cg_heap_rules *r, const char **why)
{
	struct cg_heapseq *s;
	uint32_t k, m;
	int j;

	if (r->mask == NULL || r->max_take > 1000000) {
		*why = "bad heap rules";
		return NULL;
	}
	if (r->mask[0] & 2) {
		*why = "a move taking nothing and leaving one heap makes the game loopy";
		return NULL;
	}
	s = cg_xcalloc(1, sizeof *s);
	s->max_take = r->max_take;
	s->mask = cg_xcalloc(r->max_take + 1, sizeof *s->mask);
	s->flags = cg_xcalloc(r->max_take + 1, sizeof *s->flags);
	for (k = 0; k <= r->max_take; k++) {
		s->mask[k] = r->mask[k];
		s->flags[k] = r->flags ? r->flags[k] : 0;
	}
	s->tail_mask = r->tail_mask;
	s->tail_flags = r->tail_flags;
	for (k = 0; k <= r->max_take + 1; k++) {
		m = k <= r->max_take ? s->mask[k] : s->tail_mask;
		for (j = 31; j >= 2; j--)
			if (m >> j & 1) {
				s->splits = 1;
				if (j > s->maxj)
					s->maxj = j;
				break;
			}
	}
	s->cap = 1024;
	s->g = cg_xcalloc(s->cap, sizeof *s->g);
	s->g[0] = 0;
	s->n = 1;
	s->use_bits = 1;
	s->next_mask_check = 1024;
	s->next_period_check = 64;
	s->m2 = cg_xcalloc(r->max_take + 2, sizeof *s->m2);
	s->m2f = cg_xcalloc(r->max_take + 2, sizeof *s->m2f);
	if (CG_HEAP_RULES_HAS(r, known_values) && r->known_period > 0 &&
	    r->known_values != NULL) {
		size_t n = (size_t)r->known_preperiod + r->known_period;

		s->kpre = r->known_preperiod;
		s->kper = r->known_period;
		s->ksaltus = r->known_saltus;
		s->kval = cg_xreallocarray(NULL, n, sizeof *s->kval);
		memcpy(s->kval, r->known_values, n * sizeof *s->kval);
	}
	return s;
}

int
cg_heapseq_known(const struct cg_heapseq *s, struct cg_period *per,
    const uint32_t **values)
{
	if (s->kper == 0)
		return 0;
	per->period = s->kper;
	per->preperiod = s->kpre;
	per->saltus = s->ksaltus;
	*values = s->kval;
	return 1;
}

static void
free_bits(struct cg_heapseq *s)
{
	size_t c;

	if (s->pos != NULL)
		for (c = 0; c < MAXBITVALS; c++) {
			free(s->pos[c]);
			free(s->rev[c]);
		}
	free(s->pos);
	free(s->rev);
	s->pos = s->rev = NULL;
	s->nbits = s->nwords = 0;
}

void
cg_heapseq_free(struct cg_heapseq *s)
{
	if (s == NULL)
		return;
	free_bits(s);
	free(s->mask);
	free(s->flags);
	free(s->g);
	free(s->count);
	free(s->rare);
	free(s->tail1.w);
	free(s->tail2.w);
	free(s->d.w);
	free(s->m2);
	free(s->m2f);
	free(s->kval);
	free(s);
}

const uint32_t *
cg_heapseq_values(const struct cg_heapseq *s, size_t *len)
{
	*len = s->n;
	return s->g;
}

int
cg_heapseq_shortcut_used(const struct cg_heapseq *s)
{
	return s->shortcut_used;
}

uint32_t
cg_heapseq_max_take(const struct cg_heapseq *s)
{
	size_t k;

	if (s->tail_mask)
		return UINT32_MAX;
	for (k = s->max_take; k > 0; k--)
		if (s->mask[k])
			return (uint32_t)k;
	return 0;
}

int
cg_heapseq_splits(const struct cg_heapseq *s)
{
	return s->splits;
}

int
cg_heapseq_provable(const struct cg_heapseq *s)
{
	uint32_t k;

	if (s->tail_mask != 0 || s->maxj > 2)
		return 0;
	for (k = 0; k <= s->max_take; k++)
		if (s->flags[k] != 0)
			return 0;
	return 1;
}

/* ---------------------------------------------------------- bitsets */

static void
bit_set(struct cg_heapseq *s, uint32_t v, size_t a)
{
	size_t x = s->nbits - 1 - a;

	s->pos[v][a >> 6] |= (uint64_t)1 << (a & 63);
	s->rev[v][x >> 6] |= (uint64_t)1 << (x & 63);
}

static void
bits_ensure_value(struct cg_heapseq *s, uint32_t v)
{
	if (!s->use_bits || s->pos[v] != NULL)
		return;
	s->pos[v] = cg_xcalloc(s->nwords + 2, sizeof **s->pos);
	s->rev[v] = cg_xcalloc(s->nwords + 2, sizeof **s->rev);
}

/* (Re)build the bitsets for heaps up to nbits - 1. */
static void
build_bits(struct cg_heapseq *s, size_t nbits)
{
	size_t a;

	free_bits(s);
	if (s->maxval >= MAXBITVALS || !s->splits) {
		s->use_bits = 0;
		return;
	}
	s->use_bits = 1;
	s->nbits = nbits;
	s->nwords = (nbits + 63) / 64;
	s->pos = cg_xcalloc(MAXBITVALS, sizeof *s->pos);
	s->rev = cg_xcalloc(MAXBITVALS, sizeof *s->rev);
	for (a = 1; a < s->n; a++) {
		bits_ensure_value(s, s->g[a]);
		bit_set(s, s->g[a], a);
	}
}

static uint64_t
extract(const uint64_t *w, size_t off)
{
	size_t q = off >> 6;
	unsigned sh = off & 63;

	return sh ? w[q] >> sh | w[q + 1] << (64 - sh) : w[q];
}

/* Is there, for some listed m, an a in [1, m/2] (a != m - a when unequal)
 * with G(a) ^ G(m - a) = v?  All m are searched together, word by word,
 * so that a witness near the start of any of them ends the search. */
static int
pairs_bits(struct cg_heapseq *s, uint32_t v)
{
	size_t w, i, lastw = 0;
	uint32_t c, dd;

	for (i = 0; i < s->nm2; i++)
		if ((s->m2[i] / 2) >> 6 > lastw)
			lastw = (s->m2[i] / 2) >> 6;
	for (w = 0; w <= lastw; w++) {
		for (i = 0; i < s->nm2; i++) {
			size_t m = s->m2[i], half = m / 2;
			size_t off0 = s->nbits - 1 - m;
			uint64_t lim = ~(uint64_t)0;

			if (m < 2 || (half >> 6) < w)
				continue;
			if ((half >> 6) == w) {
				unsigned top = half & 63;  /* keep bits 0..top */

				lim = top == 63 ? ~(uint64_t)0 :
				    (((uint64_t)1 << (top + 1)) - 1);
				if ((s->m2f[i] & CG_HEAP_UNEQUAL) && (m & 1) == 0)
					lim &= ~((uint64_t)1 << top);
			}
			if (w == 0)
				lim &= ~(uint64_t)1;       /* a >= 1 */
			for (c = 0; c <= s->maxval; c++) {
				uint64_t x;

				if (s->pos[c] == NULL)
					continue;
				dd = c ^ v;
				if (dd > s->maxval || s->rev[dd] == NULL)
					continue;
				x = s->pos[c][w] & lim;
				if (x && (x & extract(s->rev[dd], off0 + (w << 6))))
					return 1;
			}
		}
	}
	return 0;
}

static int
parity(uint32_t x)
{
	return __builtin_parity(x);
}

/* Is v the value of some split of one of the listed m into two heaps? */
static int
pairs_have(struct cg_heapseq *s, uint32_t v)
{
	size_t a, i, k, maxhalf = 0;

	if (s->nm2 == 0)
		return 0;
	if (s->rmask != 0 && parity(v & s->rmask)) {
		/* v common: one heap of the split must be rare */
		for (k = 0; k < s->nm2; k++) {
			size_t m = s->m2[k];
			int unequal = (s->m2f[k] & CG_HEAP_UNEQUAL) != 0;

			for (i = 0; i < s->nrare && s->rare[i] < m; i++) {
				size_t r = s->rare[i], b = m - r;

				if (unequal && b == r)
					continue;
				if ((s->g[r] ^ s->g[b]) == v)
					return 1;
			}
		}
		return 0;
	}
	for (k = 0; k < s->nm2; k++)
		if (s->m2[k] >= s->nbits)
			break;
	if (s->use_bits && s->pos != NULL && k == s->nm2)
		return pairs_bits(s, v);
	for (k = 0; k < s->nm2; k++)
		if (s->m2[k] / 2 > maxhalf)
			maxhalf = s->m2[k] / 2;
	for (a = 1; a <= maxhalf; a++)
		for (k = 0; k < s->nm2; k++) {
			size_t m = s->m2[k];

			if (2 * a > m)
				continue;
			if ((s->m2f[k] & CG_HEAP_UNEQUAL) && 2 * a == m)
				continue;
			if ((s->g[a] ^ s->g[m - a]) == v)
				return 1;
		}
	return 0;
}

/* Splits of m into j >= 2 heaps, parts non-decreasing from lo; xor so far
 * acc; add each result to d. */
static void
split_rec(const struct cg_heapseq *s, struct vset *d, size_t m, int j,
    size_t lo, uint32_t acc, uint32_t fl, size_t prev)
{
	size_t a;

	if (j == 1) {
		if (m < lo)
			return;
		if ((fl & CG_HEAP_UNEQUAL) && m == prev)
			return;
		if ((fl & CG_HEAP_EQUAL) && prev != 0 && m != prev)
			return;
		vs_add(d, acc ^ s->g[m]);
		return;
	}
	for (a = lo; a * (size_t)j <= m; a++) {
		if ((fl & CG_HEAP_UNEQUAL) && a == prev)
			continue;
		if ((fl & CG_HEAP_EQUAL) && prev != 0 && a != prev)
			continue;
		split_rec(s, d, m - a, j - 1, (fl & CG_HEAP_UNEQUAL) ? a + 1 : a,
		    acc ^ s->g[a], fl, a);
	}
}

/* All values of the options "m left as the heaps allowed by mask" into d,
 * splits into two heaps included (used for the unbounded-take sets). */
static void
all_values(const struct cg_heapseq *s, struct vset *d, size_t m,
    uint32_t mask, uint32_t fl)
{
	int j;

	if (m == 0) {
		if (mask & 1)
			vs_add(d, 0);
		return;
	}
	if (mask & 2)
		vs_add(d, s->g[m]);
	for (j = 2; j < 32; j++)
		if ((mask >> j & 1) && (size_t)j <= m)
			split_rec(s, d, m, j, 1, 0, fl, 0);
}

static void
add_rare(struct cg_heapseq *s, size_t a)
{
	if (s->nrare == s->caprare) {
		s->caprare = s->caprare ? 2 * s->caprare : 256;
		s->rare = cg_xreallocarray(s->rare, s->caprare, sizeof *s->rare);
	}
	s->rare[s->nrare++] = (uint32_t)a;
}

/* Choose the mask with the fewest rare heaps; use it when they are few. */
static void
choose_mask(struct cg_heapseq *s)
{
	uint32_t lim = 1, msk, best = 0, c;
	size_t bestn = (size_t)-1, a, cnt;

	while (lim <= s->maxval)
		lim <<= 1;
	if (lim > 1024)
		return;
	for (msk = 1; msk < lim; msk++) {
		cnt = 0;
		for (c = 0; c < s->ncount; c++)
			if (!parity(c & msk))
				cnt += s->count[c];
		if (cnt < bestn) {
			bestn = cnt;
			best = msk;
		}
	}
	if (bestn * 16 > s->n)
		best = 0;
	if (best == s->rmask)
		return;
	s->rmask = best;
	s->nrare = 0;
	if (best)
		for (a = 1; a < s->n; a++)
			if (!parity(s->g[a] & best))
				add_rare(s, a);
}

static void
record(struct cg_heapseq *s, uint32_t v)
{
	size_t a = s->n;

	if (a == s->cap) {
		s->cap *= 2;
		s->g = cg_xreallocarray(s->g, s->cap, sizeof *s->g);
	}
	s->g[a] = v;
	s->n++;
	if (v >= s->ncount) {
		size_t nc = v + 1 > 2 * s->ncount ? v + 1 : 2 * s->ncount;
		s->count = cg_xreallocarray(s->count, nc, sizeof *s->count);
		memset(s->count + s->ncount, 0, (nc - s->ncount) * sizeof *s->count);
		s->ncount = nc;
	}
	s->count[v]++;
	if (v > s->maxval)
		s->maxval = v;
	if (s->use_bits && s->pos != NULL) {
		if (v >= MAXBITVALS) {
			free_bits(s);
			s->use_bits = 0;
		} else if (a < s->nbits) {
			bits_ensure_value(s, v);
			bit_set(s, v, a);
		}
	}
	if (s->rmask && !parity(v & s->rmask))
		add_rare(s, a);
}

static uint32_t
compute_one(struct cg_heapseq *s, size_t n)
{
	size_t k, kmax, m;
	uint32_t mask, fl, v;
	int j;

	vs_clear(&s->d);
	s->nm2 = 0;
	kmax = n < s->max_take ? n : s->max_take;
	for (k = 0; k <= kmax; k++) {
		mask = s->mask[k];
		fl = s->flags[k];
		m = n - k;
		if (mask == 0)
			continue;
		if (m == 0) {
			if (k >= 1 && (mask & 1))
				vs_add(&s->d, 0);
			continue;
		}
		if ((mask & 2) && k >= 1)
			vs_add(&s->d, s->g[m]);
		if (mask & 4) {
			if (fl & CG_HEAP_EQUAL) {
				if (m % 2 == 0)
					vs_add(&s->d, 0);
			} else {
				s->m2[s->nm2] = (uint32_t)m;
				s->m2f[s->nm2] = fl;
				s->nm2++;
			}
		}
		for (j = 3; j < 32; j++)
			if ((mask >> j & 1) && (size_t)j <= m)
				split_rec(s, &s->d, m, j, 1, 0, fl, 0);
	}
	if (s->tail_mask && n > s->max_take) {
		/* takes k > max_take leave m = n - k in [0, n - max_take - 1] */
		size_t mtop = n - s->max_take - 1;

		if (s->tail_mask & 1)
			vs_add(&s->d, 0);
		while (s->tail_done <= mtop) {
			m = s->tail_done++;
			if (m == 0)
				continue;
			if (s->tail_mask & 2)
				vs_add(&s->tail1, s->g[m]);
			all_values(s, &s->tail2, m, s->tail_mask & ~3u,
			    s->tail_flags);
		}
		vs_or(&s->d, &s->tail1);
		vs_or(&s->d, &s->tail2);
	}
	for (v = 0;; v++) {
		if (vs_has(&s->d, v))
			continue;
		if (!pairs_have(s, v))
			return v;
	}
}

void
cg_heapseq_compute(struct cg_heapseq *s, size_t n, int shortcut)
{
	struct cg_period per;
	uint32_t t = cg_heapseq_max_take(s);

	if (s->kper > 0) {
		/* declared by the rules: no mex to take, no statistics */
		if (n >= s->cap) {
			s->cap = n + 1 > 2 * s->cap ? n + 1 : 2 * s->cap;
			s->g = cg_xreallocarray(s->g, s->cap, sizeof *s->g);
		}
		for (; s->n <= n; s->n++)
			s->g[s->n] = s->n < (size_t)s->kpre + s->kper ?
			    s->kval[s->n] : s->g[s->n - s->kper] + s->ksaltus;
		return;
	}
	if (s->use_bits && s->splits && s->nbits <= n)
		build_bits(s, n + 1 > 2 * s->nbits ? n + 1 : 2 * s->nbits);
	while (s->n <= n) {
		/* a long sequence stops on a signal or the memory limit */
		if ((s->n & 1023) == 0 && cg_stop)
			return;
		if (shortcut && s->n >= s->next_period_check &&
		    cg_heapseq_provable(s)) {
			s->next_period_check = 2 * s->n;
			if (t != UINT32_MAX && cg_heapseq_find_period(s->g, s->n,
			    t, s->splits, &per) && per.saltus == 0) {
				while (s->n <= n)
					record(s, s->g[s->n - per.period]);
				s->shortcut_used = 1;
				break;
			}
		}
		if (s->splits && s->n >= s->next_mask_check) {
			s->next_mask_check = 4 * s->n;
			choose_mask(s);
		}
		record(s, compute_one(s, s->n));
	}
}

int
cg_heapseq_find_period(const uint32_t *v, size_t len, uint32_t t,
    int splits, struct cg_period *out)
{
	size_t p, e, i, need;
	size_t *real = NULL, nreal = 0, r;
	int found = 0;

	if (len < 2)
		return 0;
	for (p = 1; p < len; p++) {
		long s = (long)v[len - 1] - (long)v[len - 1 - p];

		/* with bounded takes the Guy-Smith argument proves plain
		 * periodicity only; values cannot grow without bound */
		if (s != 0 && t != UINT32_MAX)
			continue;

		for (r = 0; r < nreal; r++)
			if (p % real[r] == 0)
				break;
		if (r < nreal)
			continue;
		i = len - 1 - p;
		for (;;) {
			if ((long)v[i + p] - (long)v[i] != s) {
				e = i + 1;
				break;
			}
			if (i == 0) {
				e = 0;
				break;
			}
			i--;
		}
		if (e + 2 * p > len)
			continue;   /* not even one full repetition */
		/* Guy-Smith: G(n + p) = G(n) for e <= n < 2e + p + t (splits)
		 * or e <= n < e + t (one heap left), which reads values up to
		 * p past the last n */
		if (t == UINT32_MAX)
			need = e + 2 * p;
		else
			need = (splits ? 2 * e + p : e) + p + t;
		if (need <= len) {
			out->period = p;
			out->preperiod = e;
			out->saltus = s;
			found = 1;
			break;
		}
		if (len - e >= 4 * p && len - e >= len / 4) {
			/* a genuine repetition: its multiples cannot do better */
			real = cg_xreallocarray(real, nreal + 1, sizeof *real);
			real[nreal++] = p;
		}
	}
	free(real);
	return found;
}

void
cg_heapseq_print(FILE *out, const struct cg_heap_rules *r, const char *name,
    unsigned long seq, unsigned long per, int noshortcut)
{
	struct cg_heapseq *hs;
	struct cg_period pd;
	const uint32_t *v;
	const char *why = "rules it cannot use";
	size_t len, i;

	if ((hs = cg_heapseq_new(r, &why)) == NULL)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", name, why);
	if (seq != (unsigned long)-1) {
		cg_heapseq_compute(hs, seq, !noshortcut);
		v = cg_heapseq_values(hs, &len);
		if (len <= seq)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		for (i = 0; i <= seq; i++)
			fprintf(out, "%s%u", i ? "," : "", v[i]);
		putc('\n', out);
	}
	if (per != (unsigned long)-1) {
		cg_heapseq_compute(hs, per, 0);
		v = cg_heapseq_values(hs, &len);
		if (cg_heapseq_find_period(v, per + 1, cg_heapseq_max_take(hs),
		    cg_heapseq_splits(hs), &pd))
			fprintf(out, "Periodicity(Period => %zu, Preperiod => "
			    "%zu, Saltus => %ld)\n", pd.period, pd.preperiod,
			    pd.saltus);
		else
			fputs("Nothing\n", out);
	}
	cg_heapseq_free(hs);
}

void
cg_heapseq_print_ruleset(FILE *out, const char *spec, unsigned long seq,
    unsigned long per, int noshortcut)
{
	struct cg_plugin *p = cg_plugin_get(spec, CG_EXIT_USAGE);
	const struct cg_heap_rules *r = NULL;

	if (CG_HAS_HOOK(p, extension))
		r = cg_rs_extension(p, CG_EXT_HEAP_RULES);
	if (r == NULL)
		cg_die(CG_EXIT_DATA, "ruleset '%s' is not a heap game (no %s)",
		    spec, CG_EXT_HEAP_RULES);
	cg_rs_refuse_loopy(p, NULL, 0, "a heap's nim value comes from its "
	    "options' values");
	cg_heapseq_print(out, r, spec, seq, per, noshortcut);
}
