/* sums.c - the table of sums every engine shares; see sums.h. */
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "graph/graph.h"
#include "solve/dfs_int.h"
#include "solve/settle.h"
#include "solve/sums.h"

/* ------------------------------------------------------------ tables */


struct otab *
sv_tab_new(void)
{
	struct otab *t = cg_xcalloc(1, sizeof *t);

	t->nslots = 1024;
	t->slots = cg_xcalloc(t->nslots, sizeof *t->slots);
	return t;
}

void
sv_tab_free(struct otab *t)
{
	if (t == NULL)
		return;
	free(t->slots);
	free(t->off);
	free(t->val);
	free(t->arena);
	free(t);
}

static inline uint32_t
otab_hash(const void *key, size_t len)
{
	uint32_t h = (uint32_t)cg_hash_bytes(key, len, 0);

	return h ? h : 1;
}

const unsigned char *
sv_tab_key(const struct otab *t, uint64_t e, size_t *len)
{
	*len = (size_t)(t->off[e] & 0xffffff);
	return t->arena + (t->off[e] >> 24);
}

static void
otab_grow(struct otab *t)
{
	size_t ns = t->nslots * 2, i, j;
	uint64_t *sl = cg_xcalloc(ns, sizeof *sl);

	for (i = 0; i < t->nslots; i++) {
		uint64_t v = t->slots[i];

		if (v == 0)
			continue;
		j = (size_t)(v >> 32) & (ns - 1);
		while (sl[j] != 0)
			j = (j + 1) & (ns - 1);
		sl[j] = v;
	}
	free(t->slots);
	t->slots = sl;
	t->nslots = ns;
}

uint64_t
sv_tab_intern(struct otab *t, const void *key, size_t len, int *isnew)
{
	uint32_t h = otab_hash(key, len);
	size_t j = h & (t->nslots - 1);
	uint64_t v, e;

	while ((v = t->slots[j]) != 0) {
		if ((uint32_t)(v >> 32) == h) {
			size_t kl;
			const unsigned char *k;

			e = (uint32_t)v - 1;
			k = sv_tab_key(t, e, &kl);
			if (kl == len && memcmp(k, key, len) == 0) {
				*isnew = 0;
				return e;
			}
		}
		j = (j + 1) & (t->nslots - 1);
	}
	if (len >= 0xffffff || t->n >= 0xfffffffeu)
		cg_die(CG_EXIT_DATA, "position table full");
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->off = cg_xreallocarray(t->off, t->cap, sizeof *t->off);
		t->val = cg_xreallocarray(t->val, t->cap, sizeof *t->val);
	}
	if (t->alen + len > t->acap) {
		while (t->alen + len > t->acap)
			t->acap = t->acap ? 2 * t->acap : 65536;
		t->arena = cg_xrealloc(t->arena, t->acap);
	}
	memcpy(t->arena + t->alen, key, len);
	e = t->n++;
	t->off[e] = (uint64_t)t->alen << 24 | len;
	t->val[e] = 0;
	t->alen += len;
	t->slots[j] = (uint64_t)h << 32 | (e + 1);
	if (cg_watch_double(t->n, t->nslots, 2 * t->nslots * sizeof *t->slots))
		otab_grow(t);
	*isnew = 1;
	return e;
}

int64_t
sv_tab_find(const struct otab *t, const void *key, size_t len)
{
	uint32_t h = otab_hash(key, len);
	size_t j = h & (t->nslots - 1), kl;
	uint64_t v, e;
	const unsigned char *k;

	while ((v = t->slots[j]) != 0) {
		if ((uint32_t)(v >> 32) == h) {
			e = (uint32_t)v - 1;
			k = sv_tab_key(t, e, &kl);
			if (kl == len && memcmp(k, key, len) == 0)
				return (int64_t)e;
		}
		j = (j + 1) & (t->nslots - 1);
	}
	return -1;
}

size_t
sv_tab_memory(const struct otab *t)
{
	return t->nslots * sizeof *t->slots + t->cap * 16 + t->acap;
}

uint64_t *
sv_sum_val(struct cg_solver *s, uint64_t e)
{
	return &s->sums->val[e];
}

const unsigned char *
sv_sum_key(struct cg_solver *s, uint64_t e, size_t *len)
{
	return sv_tab_key(s->sums, e, len);
}

uint64_t
sv_sum_intern_key(struct cg_solver *s, const unsigned char *key, size_t len)
{
	int isnew;

	return sv_tab_intern(s->sums, key, len, &isnew);
}

/* ------------------------------------------------------------ carry */

/* A sum's key by its components' bytes, sorted (a fresh graph numbers
 * them differently): tag, k, then each component's length and bytes. */
struct keyref {
	const unsigned char *p;
	size_t len;
};

static int
cmp_keyref(const void *a, const void *b)
{
	const struct keyref *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->p, y->p, x->len);
}

const unsigned char *
sv_carry_key(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n, size_t *len)
{
	struct keyref *r;
	size_t i;
	uint32_t l;

	if (n + 1 > s->capkeyref) {   /* kept: a lookup per new sum */
		s->capkeyref = 2 * (n + 1);
		s->keyref = cg_xreallocarray(s->keyref, s->capkeyref,
		    sizeof *s->keyref);
	}
	r = s->keyref;

	for (i = 0; i < n; i++)
		r[i].p = cg_graph_key(s->graph, ids[i], &r[i].len);
	qsort(r, n, sizeof *r, cmp_keyref);
	s->key.len = 0;
	cg_buf_addc(&s->key, tag);
	cg_buf_add(&s->key, &k, 4);
	for (i = 0; i < n; i++) {
		l = (uint32_t)r[i].len;
		cg_buf_add(&s->key, &l, 4);
		cg_buf_add(&s->key, r[i].p, r[i].len);
	}
	*len = s->key.len;
	return (const unsigned char *)s->key.data;
}

/* ------------------------------------------------------------ helpers */

void
sv_ar_reserve(struct cg_solver *s, size_t extra)
{
	if (s->arlen + extra > s->arcap) {
		while (s->arlen + extra > s->arcap)
			s->arcap = s->arcap ? 2 * s->arcap : 4096;
		s->ar = cg_xreallocarray(s->ar, s->arcap, sizeof *s->ar);
	}
}

void
sv_ar_push(struct cg_solver *s, uint32_t v)
{
	sv_ar_reserve(s, 1);
	s->ar[s->arlen++] = v;
}


int
sv_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void
sv_off_add(struct cg_solver *s, uint32_t o)
{
	if (s->noffs == s->capoffs) {
		s->capoffs = s->capoffs ? 2 * s->capoffs : 256;
		s->offs = cg_xreallocarray(s->offs, s->capoffs,
		    sizeof *s->offs);
	}
	s->offs[s->noffs++] = o;
}

/* Order keys in 32 bits, order kept: below 2^26 as they are, above as a
 * floating-point-like code (exponent, then the 26 bits after the leading
 * one), so that composite keys such as (lives << 40 | ...) still sort by
 * their leading fields. */
uint32_t
sv_clamp_key(int64_t k)
{
	int e;

	if (k <= 0)
		return 0;
	if (k < ((int64_t)1 << 26))
		return (uint32_t)k;
	e = 63 - __builtin_clzll((unsigned long long)k);
	return (uint32_t)(e - 25) << 26 |
	    (uint32_t)((k >> (e - 26)) & (((int64_t)1 << 26) - 1));
}

/* ------------------------------------------------- sums: any game */

/* Sum keys: a tag byte, for normal partizan sums ('N') the integer part
 * k (4 bytes: Left-only and Right-only components are integers, folded
 * together), then the sorted component numbers; into s->skey. */
static void
sum_key(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n)
{
	s->skey.len = 0;
	cg_buf_addc(&s->skey, tag);
	if (tag == 'N')
		cg_buf_add(&s->skey, &k, 4);
	cg_buf_add(&s->skey, ids, n * sizeof *ids);
}

/* The sum entry, made without looking in the carried results. */
uint64_t
sv_sum_intern_here(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n, int *isnew)
{
	int dummy;

	sum_key(s, tag, k, ids, n);
	return sv_tab_intern(s->sums, s->skey.data, s->skey.len,
	    isnew ? isnew : &dummy);
}

uint64_t
sv_sum_intern_k(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n, int *isnew)
{
	int dummy = 0;
	uint64_t e;

	e = sv_sum_intern_here(s, tag, k, ids, n, isnew ? isnew : &dummy);
	if (s->carry != NULL && s->carry->n > 0 && tag == 'N' &&
	    *(isnew ? isnew : &dummy)) {
		/* a result an earlier start of this search carried over */
		size_t len;
		const unsigned char *key = sv_carry_key(s, tag, k, ids, n, &len);
		int64_t c = sv_tab_find(s->carry, key, len);

		if (c >= 0)
			s->sums->val[e] |= s->carry->val[c];
	}
	return e;
}

uint64_t
sv_sum_intern(struct cg_solver *s, int tag, const uint32_t *ids, size_t n,
    int *isnew)
{
	return sv_sum_intern_k(s, tag, 0, ids, n, isnew);
}

/* Components of sum entry e into s->ids2 (copied); *k its integer part. */
size_t
sv_sum_ids_k(struct cg_solver *s, uint64_t e, int32_t *k)
{
	size_t len, n, hdr = 1;
	const unsigned char *key = sv_tab_key(s->sums, e, &len);

	*k = 0;
	if (key[0] == 'N') {
		memcpy(k, key + 1, 4);
		hdr = 5;
	}
	n = (len - hdr) / 4;
	if (n + 1 > s->capids2) {
		s->capids2 = 2 * (n + 1);
		s->ids2 = cg_xreallocarray(s->ids2, s->capids2,
		    sizeof *s->ids2);
	}
	memcpy(s->ids2, key + hdr, n * 4);
	return n;
}

size_t
sv_sum_ids(struct cg_solver *s, uint64_t e)
{
	int32_t k;

	return sv_sum_ids_k(s, e, &k);
}

struct sctx {
	struct cg_solver *s;
	uint32_t *comps;   /* the sum being expanded */
	size_t n, which;
	int tag, other, cut, all, lazy;
	int32_t k;
	uint64_t moves;
	size_t first;
	uint32_t *child;
	size_t capchild;
	struct sv_ilist raw;  /* 'N': children kept for folding afterwards */
};

static size_t
s_capival(const struct cg_solver *s)
{
	return s->capival;
}

/* The sum entry of tag, k and sorted ids[0..n) if there is one, or one
 * an earlier start of a bounded search carried over (then made), else
 * -1. */
int64_t
sv_sum_find(struct cg_solver *s, int tag, int32_t k, const uint32_t *ids,
    size_t n)
{
	int64_t e;

	sum_key(s, tag, k, ids, n);
	e = sv_tab_find(s->sums, s->skey.data, s->skey.len);
	if (e < 0 && s->carry != NULL && s->carry->n > 0 && tag == 'N') {
		size_t len;
		const unsigned char *key = sv_carry_key(s, tag, k, ids, n, &len);
		int64_t c = sv_tab_find(s->carry, key, len);

		if (c >= 0) {
			e = (int64_t)sv_sum_intern_here(s, tag, k, ids, n, NULL);
			s->sums->val[e] |= s->carry->val[c];
		}
	}
	return e;
}


/* What sum value v says of the child for side to move there: 1 it wins
 * (the move to it loses), 0 it loses (the move wins), -1 not known. */
static int
known_win(uint64_t v, int side)
{
	return v >> (2 * side) & 1 ? (int)(v >> (2 * side + 1) & 1) : -1;
}

/* Intern child comps[0..m) (+ integer k) and record or cut; lazily, a
 * child not met before is recorded by its components (REC_LAZY). */
static int
sum_record(struct sctx *sc, uint32_t *child, size_t m, int32_t k)
{
	struct cg_solver *s = sc->s;
	size_t i;
	uint64_t e;
	uint32_t rec;
	int64_t key = 0;

	qsort(child, m, sizeof *child, sv_cmp_u32);
	for (i = 0; i < m; i++)
		key += okey(s, child[i]);
	if (sc->tag == 'N' && !sc->all && !s->impartial) {
		int64_t ord = 0;
		int r = s->counts ? sv_static(s, child, m, k, sc->other, &ord) :
		    -1;

		/* forms made already only: children are many, and most
		 * are never searched */
		if (r < 0)
			r = sv_forms(s, child, m, k, sc->other, 0);
		if (r == 0) {            /* the opponent loses there */
			sc->cut = 1;
			return 1;
		}
		if (r == 1)              /* a losing move: never tried */
			return 0;
		/* counts first, then the plugin's key (below 2^12) */
		if (s->counts)
			key = (ord > 0 ? ord * 4096 : 0) + (key < 4095 ? key :
			    4095);
	}
	if (sc->tag == 'M' && !sc->all && s->mform_bytes > 0 &&
	    s->impartial) {
		/* known as an equal sum (dfs_m_reduce): a cut, or a losing move
		 * never tried */
		int64_t r = dfs_m_known(s, child, m);
		int w = r >= 0 ? known_win(s->sums->val[r], sc->other) : -1;

		if (w == 0) {
			sc->cut = 1;
			return 1;
		}
		if (w == 1)
			return 0;
	}
	if (sc->lazy) {
		int64_t f = sv_sum_find(s, sc->tag, k, child, m);

		if (f < 0) {
			/* not met yet, so not known: interned if ever tried
			 * (step_s), most never are */
			rec = (uint32_t)s->arlen;
			sv_ar_reserve(s, 4 + m);
			s->ar[s->arlen++] = sv_clamp_key(key);
			s->ar[s->arlen++] = (uint32_t)k;
			s->ar[s->arlen++] = REC_LAZY;
			s->ar[s->arlen++] = (uint32_t)m;
			memcpy(s->ar + s->arlen, child, m * sizeof *child);
			s->arlen += m;
			sv_off_add(s, rec);
			return 0;
		}
		e = (uint64_t)f;
	} else
		e = sv_sum_intern_k(s, sc->tag, k, child, m, NULL);
	if (!sc->all) {
		int w = known_win(s->sums->val[e], sc->other);

		if (w == 0) {
			sc->cut = 1;
			return 1;
		}
		if (w == 1)
			return 0;
	}
	rec = (uint32_t)s->arlen;
	sv_ar_reserve(s, 3);
	s->ar[s->arlen++] = sv_clamp_key(key);
	s->ar[s->arlen++] = (uint32_t)e;
	s->ar[s->arlen++] = (uint32_t)(e >> 32);
	sv_off_add(s, rec);
	return 0;
}

static int
sum_child(void *ctx, const char *move, const uint32_t *ids, size_t k)
{
	struct sctx *sc = ctx;
	size_t i, m = 0;

	(void)move;
	sc->moves++;
	if (sc->n + k > sc->capchild) {
		sc->capchild = 2 * (sc->n + k);
		sc->child = cg_xreallocarray(sc->child, sc->capchild,
		    sizeof *sc->child);
	}
	for (i = 0; i < sc->n; i++)
		if (i != sc->which)
			sc->child[m++] = sc->comps[i];
	for (i = 0; i < k; i++)
		sc->child[m++] = ids[i];
	if (sc->tag == 'N') {
		int32_t kk = sc->k;
		size_t j, mm = 0;

		/* folding integers may need options of new components: not
		 * inside this enumeration, unless all are already known */
		for (j = 0; j < m; j++)
			if (sc->child[j] >= s_capival(sc->s) ||
			    sc->s->ival[sc->child[j]] == INT_UNKNOWN)
				break;
		if (j < m) {
			sv_ilist_add(&sc->raw, NULL, sc->child, m);
			return 0;
		}
		for (j = 0; j < m; j++) {
			int32_t v = sc->s->ival[sc->child[j]];

			if (v == INT_NOT || kk + (int64_t)v > INT32_MAX / 2 ||
			    kk + (int64_t)v < -(INT32_MAX / 2))
				sc->child[mm++] = sc->child[j];
			else
				kk += v;
		}
		return sum_record(sc, sc->child, mm, kk);
	}
	return sum_record(sc, sc->child, m, 0);
}

/* Expand sum entry e for side into records; returns moves generated. */
uint64_t
sv_expand_sum(struct cg_solver *s, uint64_t e, int tag, int side, int other,
    int flags, int *cut, size_t *off0)
{
	struct sctx sc;
	size_t n, i, p;

	memset(&sc, 0, sizeof sc);
	n = sv_sum_ids_k(s, e, &sc.k);
	sc.comps = cg_xmalloc((n + 1) * sizeof *sc.comps);
	memcpy(sc.comps, s->ids2, n * sizeof *sc.comps);
	sc.s = s;
	sc.n = n;
	sc.tag = tag;
	sc.other = other;
	sc.all = (flags & SV_ALL) != 0;
	sc.lazy = (flags & SV_LAZY) != 0;
	*off0 = noffbuf;
	for (i = 0; i < n && !sc.cut; i++) {
		if (i > 0 && sc.comps[i] == sc.comps[i - 1])
			continue;
		sc.which = i;
		comp_options(s, sc.comps[i], (enum cg_side)side, sum_child, &sc);
	}
	if (tag == 'N') {
		for (p = 0; p < sc.raw.n && !sc.cut;) {
			size_t cnt = sc.raw.v[p++], m = cnt;
			int32_t k = sc.k;

			/* millions of children must not delay a stop */
			if ((p & 4095) == 0 && STOPPED(s))
				break;

			sv_fold_ints(s, sc.raw.v + p, &m, &k);
			sum_record(&sc, sc.raw.v + p, m, k);
			p += cnt;
		}
		/* a move in the integer part */
		if (!sc.cut && (side == CG_LEFT ? sc.k > 0 : sc.k < 0)) {
			sc.moves++;
			sum_record(&sc, sc.comps, n,
			    side == CG_LEFT ? sc.k - 1 : sc.k + 1);
		}
	}
	free(sc.raw.v);
	free(sc.comps);
	free(sc.child);
	*cut = sc.cut;
	return sc.moves;
}

void
sv_sum_set(struct cg_solver *s, uint64_t e, int side, int win, int tag)
{
	uint64_t *v = &s->sums->val[e];

	if (STOPPED(s))
		return;
	*v |= (uint64_t)(1 | win << 1) << (2 * side);
	s->stats.solved++;
	if (tag == 'M' && !win && s->impartial) {
		if (s->nmloss == s->capmloss) {
			s->capmloss = s->capmloss ? 2 * s->capmloss : 256;
			s->mloss = cg_xreallocarray(s->mloss, s->capmloss,
			    sizeof *s->mloss);
		}
		s->mloss[s->nmloss++] = e;
	}
}


