/*
 * sprouts.c - Sprouts in the plane, in the notation of Glop (Lemoine and
 * Viennot): lands joined by '+', regions by '|', boundaries by '.',
 * vertices 0 (unused spot), 1 (one edge), 2 (one life, in one region
 * only), upper-case letters A..Y and Z(k) (one life, shared by two
 * regions), lower-case letters a..l and m(k) (one life, twice in one
 * boundary), "0*k" for k unused spots, "!" for the empty position.
 * Impartial.  See sprouts(7).
 *
 * Position bytes: one byte per vertex, with end markers, as Glop's vertex
 * lines: every boundary ends with BND, every region with REG, every land
 * with LAND; the empty position is no bytes.  The byte values keep Glop's
 * order of vertices (0 < 1 < 2 < 3 < lower-case < two-boundary <
 * upper-case < markers), so Glop's line order is computed on bytes.
 * Upper-case letters name vertices of one land, lower-case letters
 * vertices of one boundary.  parse() keeps the structure as written;
 * canonical() reduces and canonises as Glop does (research notes 1.4);
 * options() first canonises, then plays every move of Glop's move
 * generation, and emits each child reduced and canonised, once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"

typedef unsigned char V;

/* vertex byte values */
#define V3        3u
#define L1_FIRST  4u    /* lower-case: a = 4 ... */
#define L1_LAST   63u
#define L2_FIRST  64u   /* two-boundary letters (surfaces): z = 64 ... */
#define L2_LAST   95u
#define UP_FIRST  96u   /* upper-case: A = 96 ... */
#define UP_LAST   243u
#define T1        244u  /* temporary letters of the move generation */
#define T2        245u
#define T3        246u
/* The surface of a region, after its last boundary: CAP once per
 * cross-cap (a sum of projective planes), or HANDLE for the first handle
 * of an orientable surface and HANDLE2 for each further one; nothing in
 * the plane (the sphere).  The values keep Glop's order of regions: a
 * region with a surface sorts before the same boundaries in the plane,
 * more cross-caps before fewer, cross-caps before handles, fewer handles
 * before more. */
#define CAP       247u
#define HANDLE    248u
#define BND       250u
#define REG       252u
#define LAND      253u
#define HANDLE2   254u

#define N_L1 (L1_LAST - L1_FIRST + 1)
#define N_L2 (L2_LAST - L2_FIRST + 1)
#define N_UP (UP_LAST - UP_FIRST + 1)
#define MAX_ZEROS 1000ul    /* far past any solvable game (records: 53) */
#define MAX_NORMAL_BND 24
#define MAX_NONOR_BND 12  /* 3^k ways to share them out on a surface */
#define MAX_SPLITS 5e7    /* children of the splits of one boundary */
#define MAX_GENUS 100     /* Glop asks for -99..99 */

static inline int is_letter(unsigned v) { return v >= L1_FIRST && v <= T3; }
static inline int is_l1(unsigned v) { return v >= L1_FIRST && v <= L1_LAST; }
static inline int is_l2(unsigned v) { return v >= L2_FIRST && v <= L2_LAST; }
static inline int is_up(unsigned v) { return v >= UP_FIRST && v <= UP_LAST; }
/* upper-case or temporary: the letters Glop names "2-region" */
static inline int is_uplike(unsigned v) { return v >= UP_FIRST && v <= T3; }
static inline int is_vertex(unsigned v) { return v <= T3; }
static inline int lclass(unsigned v) { return is_l1(v) ? 0 : is_l2(v) ? 1 : 2; }
static inline int is_topo(unsigned v)
{
	return v == CAP || v == HANDLE || v == HANDLE2;
}

/* ------------------------------------------------------------------ */
/* Workspace: growable byte vectors with a sticky out-of-memory flag.  */

struct vec {
	V *d;
	size_t n, cap;
	int heap;               /* d is a heap block of its own */
};

struct span {
	const V *p;
	size_t n;
};

/* A set of byte strings (open addressing over offsets into store). */
struct dset {
	struct vec store;
	size_t *slot;           /* offsets+1 into store, 0 = empty */
	size_t nslot, nused;
};

#define LIM_LETTERS 1
#define LIM_BOUNDARIES 2
#define NVEC 21
struct ws {
	const struct cg_host *h;
	int oom;
	int limit;              /* LIM_LETTERS or LIM_BOUNDARIES exceeded */
	union {
		struct vec v[NVEC];
		struct {
			struct vec a, b, c, e;  /* one land's pipeline */
			struct vec rot, regs, lands, out, child, prep,
			    canon, pos, tmp, cpos, lprep, lprep2, co, ci,
			    idx, grp, pj;
		} n;
	} u;
	V *arena;               /* one block shared out to the vectors */
	struct span *sp;        /* span scratch */
	size_t spcap;
	/* children deduplication: the children made (seen), and the
	 * unreduced lands they were made from (raw) */
	struct dset seen, raw;
};

static int
vgrow_slow(struct ws *w, struct vec *v, size_t extra)
{
	size_t need, cap;
	V *d;

	if (w->oom)
		return -1;
	need = v->n + extra;
	if (need <= v->cap)
		return 0;
	cap = v->cap ? v->cap : 64;
	while (cap < need)
		cap *= 2;
	if (v->heap)
		d = w->h->realloc(v->d, cap);
	else {
		d = w->h->alloc(cap);
		if (d != NULL && v->n > 0)
			memcpy(d, v->d, v->n);
	}
	if (d == NULL) {
		w->oom = 1;
		return -1;
	}
	v->d = d;
	v->cap = cap;
	v->heap = 1;
	return 0;
}

/* Room for extra more in v: the common case inline, as every vector use
 * asks, and a call each time shows in a search's profile. */
static inline int
vgrow(struct ws *w, struct vec *v, size_t extra)
{
	if (!w->oom && v->n + extra <= v->cap)
		return 0;
	return vgrow_slow(w, v, extra);
}

static inline void
vpush(struct ws *w, struct vec *v, unsigned x)
{
	if (v->n < v->cap || vgrow(w, v, 1) == 0)
		v->d[v->n++] = (V)x;
}

static inline void
vput(struct ws *w, struct vec *v, const V *p, size_t n)
{
	if (n == 0 || (v->n + n > v->cap && vgrow(w, v, n) < 0))
		return;
	memcpy(v->d + v->n, p, n);
	v->n += n;
}

static struct span *
spans(struct ws *w, size_t n)
{
	struct span *p;
	size_t cap;

	if (n <= w->spcap)
		return w->sp;
	cap = w->spcap ? w->spcap : 64;
	while (cap < n)
		cap *= 2;
	p = w->h->realloc(w->sp, cap * sizeof *p);
	if (p == NULL) {
		w->oom = 1;
		return NULL;
	}
	w->sp = p;
	w->spcap = cap;
	return p;
}

/* A workspace for positions of about hint bytes: one allocation. */
static void
ws_init(struct ws *w, const struct cg_host *h, size_t hint)
{
	size_t cap = 4 * hint + 256, i;

	memset(w, 0, sizeof *w);
	w->h = h;
	w->arena = h->alloc(NVEC * cap);
	if (w->arena == NULL) {
		w->oom = 1;
		return;
	}
	for (i = 0; i < NVEC; i++) {
		w->u.v[i].d = w->arena + i * cap;
		w->u.v[i].cap = cap;
	}
}

static void
ws_free(struct ws *w)
{
	size_t i;

	for (i = 0; i < NVEC; i++)
		if (w->u.v[i].heap)
			w->h->free(w->u.v[i].d);
	w->h->free(w->arena);
	w->h->free(w->seen.store.d);
	w->h->free(w->seen.slot);
	w->h->free(w->raw.store.d);
	w->h->free(w->raw.slot);
	w->h->free(w->sp);
}

/* ------------------------------------------------------------------ */
/* Glop's line order: letters first compare by kind only (lower-case <   */
/* two-boundary < upper-case), other vertices and markers by value;     */
/* lines equal in that pseudo-order compare lexicographically.          */

static int
lcmp(const V *a, size_t na, const V *b, size_t nb)
{
	size_t i, n = na < nb ? na : nb;

	for (i = 0; i < n; i++) {
		unsigned x = a[i], y = b[i];

		if (is_letter(x) && is_letter(y)) {
			int cx = lclass(x), cy = lclass(y);

			if (cx != cy)
				return cx < cy ? -1 : 1;
		} else if (x != y)
			return x < y ? -1 : 1;
	}
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return na < nb ? -1 : na > nb ? 1 : 0;
}

/* Sort spans in line order (few elements: insertion sort). */
static void
span_sort(struct span *sp, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct span t = sp[i];

		for (j = i; j > 0 && lcmp(t.p, t.n, sp[j - 1].p,
		    sp[j - 1].n) < 0; j--)
			sp[j] = sp[j - 1];
		sp[j] = t;
	}
}

/* ------------------------------------------------------------------ */
/* Reduction of one land (Glop's Land::reduce), in into out.  A land     */
/* line is its regions, each ending with REG (no LAND marker).          */

/* Lives of a region the way Glop's dead-region test counts them. */
static int
region_alive(const V *p, size_t n)
{
	size_t i;
	int lives = 0;
	unsigned save = 0;

	for (i = 0; i < n && lives < 2; i++) {
		unsigned v = p[i];

		if (is_letter(v) && v != save) {
			lives++;
			save = v;
		} else if (v <= 2)
			lives += 3 - (int)v;
	}
	return lives >= 2;
}

static void
land_reduce(struct ws *w, const V *in, size_t n, struct vec *out)
{
	unsigned char cnt[256];   /* bytes: cheap to clear, saturating */
	V map[256];
	struct vec *t = &w->u.n.a, *u = &w->u.n.b;
	size_t i, j, start, rs;

	/* 1. dead vertices: 3, and upper-case letters seen three times */
	memset(cnt, 0, sizeof cnt);
	for (i = 0; i < n; i++)
		if (is_up(in[i]))
			cnt[in[i]] += cnt[in[i]] < 255;
	t->n = 0;
	if (vgrow(w, t, n) < 0)
		return;
	for (i = 0; i < n; i++) {
		unsigned v = in[i];

		if (v == V3 || (is_up(v) && cnt[v] == 3))
			continue;
		t->d[t->n++] = (V)v;
	}

	/* 2. collapse equal neighbour letters in a boundary, cyclically;
	 * 3. drop empty boundaries */
	u->n = 0;
	if (vgrow(w, u, t->n) < 0)
		return;
	start = 0;
	for (i = 0; i < t->n; i++) {
		unsigned v = t->d[i];

		if (v == BND) {
			size_t len = u->n - start;

			if (len > 1 && is_letter(u->d[u->n - 1]) &&
			    u->d[u->n - 1] == u->d[start])
				u->n--;
			if (u->n > start)
				u->d[u->n++] = BND;
			start = u->n;
		} else if (v == REG || is_topo(v)) {
			u->d[u->n++] = (V)v;
			start = u->n;
		} else {
			if (is_letter(v) && u->n > start && u->d[u->n - 1] == v)
				continue;
			u->d[u->n++] = (V)v;
		}
	}

	/* 4. dead regions; 5. letters twice in one boundary become
	 * lower-case, twice in one region two-boundary letters; 6. regions
	 * of 2 or 3 lives become one boundary */
	t->n = 0;
	rs = 0;
	memset(cnt, 0, sizeof cnt);
	for (i = 0; i < u->n; i++) {
		size_t b0, k, rlen;
		int half, half2;
		unsigned next;

		if (u->d[i] != REG)
			continue;
		rlen = i - rs;
		if (!region_alive(u->d + rs, rlen)) {
			rs = i + 1;
			continue;
		}
		/* per boundary: letters seen twice become lower-case, named
		 * in order of first appearance (cnt is all zero here) */
		b0 = rs;
		for (j = rs; j < i; j++) {
			if (u->d[j] != BND)
				continue;
			for (k = b0; k < j; k++)
				if (is_uplike(u->d[k]))
					cnt[u->d[k]] += cnt[u->d[k]] < 0x7f;
			next = L1_FIRST;
			for (k = b0; k < j; k++) {
				unsigned v = u->d[k];

				if (!is_uplike(v))
					continue;
				if (cnt[v] == 2) {
					if (next > L1_LAST) {
						w->limit = LIM_LETTERS;
						return;
					}
					map[v] = (V)next++;
					cnt[v] = 0x80;  /* renamed */
				}
				if (cnt[v] == 0x80)
					u->d[k] = map[v];
			}
			for (k = b0; k < j; k++)
				if (is_uplike(u->d[k]))
					cnt[u->d[k]] = 0;
			b0 = j + 1;
		}
		/* per region: two-boundary letters (surfaces only) */
		for (k = rs; k < i; k++)
			if (is_uplike(u->d[k]))
				cnt[u->d[k]] += cnt[u->d[k]] < 0x7f;
		next = L2_FIRST;
		for (k = rs; k < i; k++) {
			unsigned v = u->d[k];

			if (!is_uplike(v))
				continue;
			if (cnt[v] == 2) {
				if (next > L2_LAST) {
					w->limit = LIM_LETTERS;
					return;
				}
				map[v] = (V)next++;
				cnt[v] = 0x80;
			}
			if (cnt[v] == 0x80)
				u->d[k] = map[v];
		}
		for (k = rs; k < i; k++)
			if (is_uplike(u->d[k]))
				cnt[u->d[k]] = 0;
		/* lives, in halves */
		half = 0;
		for (j = rs; j < i && half <= 6; j++) {
			unsigned v = u->d[j];

			if (is_l1(v) || is_l2(v))
				half += 1;
			else if (is_uplike(v))
				half += 2;
			else if (v <= 2)
				half += (3 - (int)v) * 2;
		}
		if (vgrow(w, t, rlen + 2) < 0)
			return;
		if (half == 4 || half == 6) {
			half2 = 0;
			for (j = rs; j < i; j++) {
				unsigned v = u->d[j];

				if (is_l1(v) || is_l2(v))
					half2 += 1;
				else if (v == 2)
					half2 += 2;
				else if (is_vertex(v))
					t->d[t->n++] = (V)v;
			}
			for (k = 0; k < (size_t)half2 / 2; k++)
				t->d[t->n++] = 2;
			t->d[t->n++] = BND;
			t->d[t->n++] = REG;
		} else {
			memcpy(t->d + t->n, u->d + rs, rlen + 1);
			t->n += rlen + 1;
		}
		rs = i + 1;
	}

	/* 7. an upper-case letter seen once in the land becomes 2 */
	memset(cnt, 0, sizeof cnt);
	for (i = 0; i < t->n; i++)
		if (is_uplike(t->d[i]))
			cnt[t->d[i]] += cnt[t->d[i]] < 255;
	out->n = 0;
	vput(w, out, t->d, t->n);
	if (w->oom)
		return;
	for (i = 0; i < out->n; i++)
		if (is_uplike(out->d[i]) && cnt[out->d[i]] == 1)
			out->d[i] = 2;
}

/* ------------------------------------------------------------------ */
/* Canonisation of one land (Glop's Land::canonize).                    */

/* Rename the upper-case (and temporary) letters in order of first
 * appearance. */
static void
rename_up(struct ws *w, V *p, size_t n)
{
	V map[256];
	unsigned next = UP_FIRST;
	size_t i;

	memset(map, 0, sizeof map);
	for (i = 0; i < n; i++) {
		unsigned v = p[i];

		if (!is_uplike(v))
			continue;
		if (map[v] == 0) {
			if (next > UP_LAST) {
				w->limit = LIM_LETTERS;
				return;
			}
			map[v] = (V)next++;
		}
		p[i] = map[v];
	}
}

/* Lower-case letters renamed per boundary, two-boundary letters per
 * region, in order of appearance. */
static void
rename_low(V *p, size_t n)
{
	V map1[N_L1], map2[L2_LAST - L2_FIRST + 1];
	unsigned n1 = L1_FIRST, n2 = L2_FIRST;
	size_t i;

	memset(map1, 0, sizeof map1);
	memset(map2, 0, sizeof map2);
	for (i = 0; i < n; i++) {
		unsigned v = p[i];

		if (v == BND) {
			if (n1 != L1_FIRST) {
				memset(map1, 0, sizeof map1);
				n1 = L1_FIRST;
			}
		} else if (v == REG) {
			if (n2 != L2_FIRST) {
				memset(map2, 0, sizeof map2);
				n2 = L2_FIRST;
			}
		} else if (is_l1(v)) {
			if (map1[v - L1_FIRST] == 0)
				map1[v - L1_FIRST] = (V)n1++;
			p[i] = map1[v - L1_FIRST];
		} else if (is_l2(v)) {
			if (map2[v - L2_FIRST] == 0)
				map2[v - L2_FIRST] = (V)n2++;
			p[i] = map2[v - L2_FIRST];
		}
	}
}

/* Turn the boundary q[0..len) to its least rotation in line order: the
 * least rotation of the letter kinds, ties broken by the letters
 * themselves; compared on doubled copies. */
static void
least_rotation(struct ws *w, V *q, size_t len)
{
	struct vec *t = &w->u.n.tmp;
	size_t k, s, m, best = 0;
	V *cm, *ex;

	if (len < 2)
		return;
	t->n = 0;
	if (vgrow(w, t, 4 * len) < 0)
		return;
	cm = t->d;
	ex = t->d + 2 * len;
	for (k = 0; k < len; k++) {
		unsigned v = q[k];

		cm[k] = cm[k + len] = (V)(!is_letter(v) ? v : is_l1(v) ?
		    L1_FIRST : is_l2(v) ? L2_FIRST : UP_FIRST);
		ex[k] = ex[k + len] = (V)v;
	}
	for (s = 1; s < len; s++) {
		int c;

		if (cm[s] > cm[best])
			continue;
		for (c = 0, m = 0; m < len && c == 0; m++)
			c = (int)cm[s + m] - (int)cm[best + m];
		for (m = 0; m < len && c == 0; m++)
			c = (int)ex[s + m] - (int)ex[best + m];
		if (c < 0)
			best = s;
	}
	if (best != 0)
		memcpy(q, ex + best, len);
}

static void
reverse_bytes(V *q, size_t len)
{
	size_t i;

	for (i = 0; i < len / 2; i++) {
		V t = q[i];

		q[i] = q[len - 1 - i];
		q[len - 1 - i] = t;
	}
}

#define AS_WRITTEN 0    /* boundaries read as written */
#define REVERSED 1      /* every boundary read backwards */
#define UNORIENTED 2    /* each boundary read the better way (cross-caps) */

/* One reading of a region (p, n: boundaries, then its surface, without
 * REG): each boundary at its least rotation, boundaries sorted, the
 * surface after them; appended to out with the REG marker. */
static void
region_variant(struct ws *w, const V *p, size_t n, int mode,
    struct vec *out)
{
	struct vec *r = &w->u.n.rot;
	struct span *sp;
	size_t i, b0, nb = 0, k, last = 0;

	for (i = 0; i < n; i++)
		if (p[i] == BND) {
			nb++;
			last = i + 1;
		}
	/* rotated copies of every boundary, in r; room for a second
	 * reading of the boundary being turned */
	r->n = 0;
	if (vgrow(w, r, 2 * n + 1) < 0)
		return;
	b0 = 0;
	for (i = 0; i < last; i++) {
		size_t len;
		V *q;

		if (p[i] != BND)
			continue;
		len = i - b0;
		q = r->d + r->n;
		memcpy(q, p + b0, len);
		if (mode == REVERSED)
			reverse_bytes(q, len);
		least_rotation(w, q, len);
		if (mode == UNORIENTED && len > 2) {
			V *q2 = q + len;

			memcpy(q2, p + b0, len);
			reverse_bytes(q2, len);
			least_rotation(w, q2, len);
			if (lcmp(q2, len, q, len) < 0)
				memcpy(q, q2, len);
		}
		r->n += len;
		r->d[r->n++] = BND;
		b0 = i + 1;
	}
	if (w->oom)
		return;
	sp = spans(w, nb);
	if (sp == NULL)
		return;
	b0 = 0;
	k = 0;
	for (i = 0; i < r->n; i++)
		if (r->d[i] == BND) {
			sp[k].p = r->d + b0;
			sp[k].n = i + 1 - b0;
			k++;
			b0 = i + 1;
		}
	if (nb > 1)
		span_sort(sp, nb);
	if (vgrow(w, out, n + 1) < 0)
		return;
	for (k = 0; k < nb; k++) {
		memcpy(out->d + out->n, sp[k].p, sp[k].n);
		out->n += sp[k].n;
	}
	memcpy(out->d + out->n, p + last, n - last);
	out->n += n - last;
	out->d[out->n++] = REG;
}

/* Has the region (bytes up to its REG) no boundary of three spots or
 * more? */
static int
short_boundaries(const V *p, size_t n)
{
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		if (p[i] == BND)
			len = 0;
		else if (++len > 2 && is_vertex(p[i]))
			return 0;
	}
	return 1;
}

/* Is the region (bytes up to its REG) on a non-orientable surface? */
static int
region_crosscapped(const V *p, size_t n)
{
	return n >= 1 && p[n - 1] == CAP;
}

/* Sort a land: each region in its better orientation, regions sorted.
 * in (regions with markers) to out. */
static void
land_sort(struct ws *w, const V *in, size_t n, struct vec *out)
{
	struct vec *rg = &w->u.n.regs;
	struct span *sp;
	size_t i, r0, nr = 0, k;

	rg->n = 0;
	r0 = 0;
	for (i = 0; i < n; i++) {
		size_t a0, a1;

		if (in[i] != REG)
			continue;
		nr++;
		if (region_crosscapped(in + r0, i - r0)) {
			/* no orientation: each boundary read its better way */
			region_variant(w, in + r0, i - r0, UNORIENTED, rg);
			r0 = i + 1;
			continue;
		}
		if (short_boundaries(in + r0, i - r0)) {
			/* read backwards, boundaries of one or two spots are
			 * the same cycles: one reading is enough */
			region_variant(w, in + r0, i - r0, AS_WRITTEN, rg);
			r0 = i + 1;
			continue;
		}
		a0 = rg->n;
		region_variant(w, in + r0, i - r0, AS_WRITTEN, rg);
		a1 = rg->n;
		region_variant(w, in + r0, i - r0, REVERSED, rg);
		if (w->oom)
			return;
		/* keep the first when strictly smaller, else the second */
		if (lcmp(rg->d + a0, a1 - a0, rg->d + a1, rg->n - a1) < 0)
			rg->n = a1;
		else {
			memmove(rg->d + a0, rg->d + a1, rg->n - a1);
			rg->n = a0 + (rg->n - a1);
		}
		r0 = i + 1;
	}
	sp = spans(w, nr);
	if (sp == NULL)
		return;
	r0 = 0;
	k = 0;
	for (i = 0; i < rg->n; i++)
		if (rg->d[i] == REG) {
			sp[k].p = rg->d + r0;
			sp[k].n = i + 1 - r0;
			k++;
			r0 = i + 1;
		}
	if (nr > 1)
		span_sort(sp, nr);
	out->n = 0;
	if (vgrow(w, out, rg->n) < 0)
		return;
	for (k = 0; k < nr; k++) {
		memcpy(out->d + out->n, sp[k].p, sp[k].n);
		out->n += sp[k].n;
	}
}

/* Canonise a reduced land that does not split (p, n: regions with
 * markers); the result, with its LAND marker, is appended to out. */
static void
land_canon(struct ws *w, const V *p, size_t n, struct vec *out)
{
	struct vec *x = &w->u.n.c, *y = &w->u.n.e;
	size_t i;
	int low = 0;

	x->n = 0;
	vput(w, x, p, n);
	if (w->oom)
		return;
	rename_up(w, x->d, x->n);
	land_sort(w, x->d, x->n, y);
	if (w->oom || w->limit)
		return;
	for (i = 0; i < y->n && !low; i++)
		low = is_l1(y->d[i]) || is_l2(y->d[i]);
	/* rename again and sort again; sorting a sorted land changes
	 * nothing, so the second sort is needed only if a name changed */
	x->n = 0;
	vput(w, x, y->d, y->n);
	if (w->oom)
		return;
	if (low)
		rename_low(x->d, x->n);
	rename_up(w, x->d, x->n);
	if (memcmp(x->d, y->d, y->n) != 0) {
		land_sort(w, x->d, x->n, y);
		if (w->oom || w->limit)
			return;
	}
	vput(w, out, y->d, y->n);
	vpush(w, out, LAND);
}

static void prepare_land(struct ws *w, const V *p, size_t n, struct vec *out);

/* Bitset of the upper-case letters of a region. */
struct lset {
	uint64_t b[4];
};

static int
lset_meets(const struct lset *a, const struct lset *b)
{
	return ((a->b[0] & b->b[0]) | (a->b[1] & b->b[1]) |
	    (a->b[2] & b->b[2]) | (a->b[3] & b->b[3])) != 0;
}

static void
lset_or(struct lset *a, const struct lset *b)
{
	a->b[0] |= b->b[0];
	a->b[1] |= b->b[1];
	a->b[2] |= b->b[2];
	a->b[3] |= b->b[3];
}

/* Reduce a land, split it into independent lands (regions sharing an
 * upper-case letter stay together, grouped as Glop groups them) and
 * canonise each; the lands are appended to out, each ending with LAND. */
static void
land_process(struct ws *w, const V *in, size_t n, struct vec *out)
{
	struct vec *red = &w->u.n.out, *tmp = &w->u.n.prep;
	struct lset *rset, *gset, *gset2, *ls;
	size_t *rstart, *rlen, *order, *order2, *gfirst, *gfirst2, *glen,
	    *glen2, *sw;
	size_t i, r0, nr, k, g, ng, ng2, nn, lstart;
	void *mem;

	/* lower-case pairs become upper-case letters first, as before a
	 * move: the reduction then treats every letter alike */
	prepare_land(w, in, n, &w->u.n.lprep2);
	if (w->oom || w->limit)
		return;
	land_reduce(w, w->u.n.lprep2.d, w->u.n.lprep2.n, red);
	if (w->oom || w->limit || red->n == 0)
		return;
	nr = 0;
	for (i = 0; i < red->n; i++)
		nr += red->d[i] == REG;
	if (nr == 1) {
		land_canon(w, red->d, red->n, out);
		return;
	}
	w->u.n.grp.n = 0;
	if (vgrow(w, &w->u.n.grp, nr * (3 * sizeof(struct lset) +
	    8 * sizeof(size_t)) + 16) < 0)
		return;
	/* aligned for the bitsets */
	mem = (void *)(((uintptr_t)w->u.n.grp.d + 15) & ~(uintptr_t)15);
	rset = mem;
	gset = rset + nr;
	gset2 = gset + nr;
	rstart = (size_t *)(void *)(gset2 + nr);
	rlen = rstart + nr;
	order = rlen + nr;
	order2 = order + nr;
	gfirst = order2 + nr;
	gfirst2 = gfirst + nr;
	glen = gfirst2 + nr;
	glen2 = glen + nr;
	memset(rset, 0, nr * sizeof *rset);
	for (i = 0, r0 = 0, k = 0; i < red->n; i++) {
		unsigned v = red->d[i];

		if (is_uplike(v))
			rset[k].b[v >> 6] |= (uint64_t)1 << (v & 63);
		if (v == REG) {
			rstart[k] = r0;
			rlen[k] = i + 1 - r0;
			k++;
			r0 = i + 1;
		}
	}
	/* Glop's grouping: each region in turn; the groups it meets are
	 * merged with it into one group put last, after the others */
	ng = 0;
	for (k = 0; k < nr; k++) {
		nn = 0;
		ng2 = 0;
		for (g = 0; g < ng; g++) {
			if (lset_meets(&gset[g], &rset[k]))
				continue;
			memcpy(order2 + nn, order + gfirst[g],
			    glen[g] * sizeof *order);
			gfirst2[ng2] = nn;
			glen2[ng2] = glen[g];
			gset2[ng2] = gset[g];
			nn += glen[g];
			ng2++;
		}
		lstart = nn;
		ls = &gset2[ng2];
		*ls = rset[k];
		for (g = 0; g < ng; g++) {
			if (!lset_meets(&gset[g], &rset[k]))
				continue;
			memcpy(order2 + nn, order + gfirst[g],
			    glen[g] * sizeof *order);
			nn += glen[g];
			lset_or(ls, &gset[g]);
		}
		order2[nn++] = k;
		gfirst2[ng2] = lstart;
		glen2[ng2] = nn - lstart;
		ng2++;
		sw = order; order = order2; order2 = sw;
		sw = gfirst; gfirst = gfirst2; gfirst2 = sw;
		sw = glen; glen = glen2; glen2 = sw;
		ls = gset; gset = gset2; gset2 = ls;
		ng = ng2;
	}
	for (g = 0; g < ng && !w->oom && !w->limit; g++) {
		tmp->n = 0;
		for (k = 0; k < glen[g]; k++) {
			size_t r = order[gfirst[g] + k];

			vput(w, tmp, red->d + rstart[r], rlen[r]);
		}
		if (!w->oom)
			land_canon(w, tmp->d, tmp->n, out);
	}
}

/* Sort the lands of lands (each ending with LAND) into out. */
static void
lands_sort(struct ws *w, const V *p, size_t n, struct vec *out)
{
	struct span *sp;
	size_t i, l0, nl = 0, k;

	for (i = 0; i < n; i++)
		nl += p[i] == LAND;
	sp = spans(w, nl);
	if (sp == NULL)
		return;
	l0 = 0;
	k = 0;
	for (i = 0; i < n; i++)
		if (p[i] == LAND) {
			sp[k].p = p + l0;
			sp[k].n = i + 1 - l0;
			k++;
			l0 = i + 1;
		}
	if (nl > 1)
		span_sort(sp, nl);
	out->n = 0;
	if (vgrow(w, out, n) < 0)
		return;
	for (k = 0; k < nl; k++) {
		memcpy(out->d + out->n, sp[k].p, sp[k].n);
		out->n += sp[k].n;
	}
}

/* One pass of Glop's Position::canonize: p to out. */
static void
canon_pass(struct ws *w, const V *p, size_t n, struct vec *out)
{
	struct vec *ls = &w->u.n.lands;
	size_t i, l0;

	ls->n = 0;
	l0 = 0;
	for (i = 0; i < n; i++)
		if (p[i] == LAND) {
			land_process(w, p + l0, i - l0, ls);
			if (w->oom || w->limit)
				return;
			l0 = i + 1;
		}
	lands_sort(w, ls->d, ls->n, out);
}

/* Iterate the pass until the position no longer changes (Glop's
 * canonisation is not always idempotent); on a cycle, the least member
 * of the cycle in byte order. */
#define CANON_MAX 12
static void
canon_fix(struct ws *w, const V *p, size_t n, struct vec *out)
{
	struct vec hist;
	size_t off[CANON_MAX + 1], len[CANON_MAX + 1];
	size_t it, j;

	memset(&hist, 0, sizeof hist);
	canon_pass(w, p, n, out);
	if (w->oom || w->limit || (out->n == n && (n == 0 ||
	    memcmp(out->d, p, n) == 0)))
		return; /* p was canonical already */
	/* the history is never a null pointer, even when every form in it
	 * is the empty position (UBSan: offset 0 added to NULL) */
	if (vgrow(w, &hist, n + 1) < 0)
		return;
	for (it = 0; it < CANON_MAX && !w->oom && !w->limit; it++) {
		struct vec *nx = &w->u.n.pos;

		off[it] = hist.n;
		len[it] = out->n;
		vput(w, &hist, out->d, out->n);
		canon_pass(w, out->d, out->n, nx);
		if (w->oom || w->limit)
			break;
		for (j = 0; j <= it; j++)
			if (len[j] == nx->n && (nx->n == 0 ||
			    memcmp(hist.d + off[j], nx->d, nx->n) == 0))
				break;
		if (j <= it) {
			/* cycle hist[j..it]: take the least */
			size_t best = j, m;

			for (m = j + 1; m <= it; m++) {
				size_t a = len[m], b = len[best];
				int c = memcmp(hist.d + off[m],
				    hist.d + off[best], a < b ? a : b);

				if (c < 0 || (c == 0 && a < b))
					best = m;
			}
			out->n = 0;
			vput(w, out, hist.d + off[best], len[best]);
			break;
		}
		out->n = 0;
		vput(w, out, nx->d, nx->n);
	}
	w->h->free(hist.d);
}

/* ------------------------------------------------------------------ */
/* Structure check of position bytes.                                   */

static int
check_bytes(const V *p, size_t n)
{
	size_t i;
	int inb = 0, inr = 0, inl = 0;
	unsigned topo = 0;      /* the surface byte last seen in the region */

	for (i = 0; i < n; i++) {
		unsigned v = p[i];

		if (is_vertex(v)) {
			if (v == V3 || topo)
				return 0;
			inb = inr = inl = 1;
		} else if (v == BND) {
			if (!inb || topo)
				return 0;
			inb = 0;
		} else if (v == CAP || v == HANDLE || v == HANDLE2) {
			/* after the last boundary: CAP..., or HANDLE HANDLE2... */
			if (inb || !inr || (v == CAP && topo != 0 &&
			    topo != CAP) || (v == HANDLE && topo != 0) ||
			    (v == HANDLE2 && topo != HANDLE && topo != HANDLE2))
				return 0;
			topo = v;
		} else if (v == REG) {
			if (inb || !inr)
				return 0;
			inr = 0;
			topo = 0;
		} else if (v == LAND) {
			if (inb || inr || !inl)
				return 0;
			inl = 0;
		} else
			return 0;
	}
	return !inb && !inr && !inl;
}

static int
corrupt(const struct cg_context *cx)
{
	return cx->host->error(cx->err, 0, "corrupt sprouts position");
}

static int
ws_status(const struct cg_context *cx, struct ws *w)
{
	if (w->oom)
		return CG_ENOMEM;
	if (w->limit) {
		cx->host->error(cx->err, 0, w->limit == LIM_BOUNDARIES ?
		    "too many boundaries (or moves) in one region" :
		    "too many letters in one land or boundary");
		return CG_ELIMIT;
	}
	return CG_OK;
}

/* ------------------------------------------------------------------ */
/* The ruleset's state: a memo of positions known to be canonical (by   */
/* 64-bit hash), so that the canonical form of a position the search    */
/* meets again costs a hash.  A pure cache: results never depend on it  */
/* (short of a 64-bit hash collision).  Not for concurrent use.         */

#define MEMO_BITS 18

struct sstate {
	uint64_t *memo;
	size_t mask;
	int topology;   /* the parameter: surface of a one-region position */
};

static uint64_t
pos_hash(const V *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		h = (h ^ x) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 32;
	return h | 1; /* 0 marks an empty slot */
}

static int
memo_has(const struct cg_context *cx, const V *p, size_t n)
{
	const struct sstate *st = cx->state;
	uint64_t h;

	if (st == NULL)
		return 0;
	h = pos_hash(p, n);
	return st->memo[h & st->mask] == h;
}

static void
memo_add(const struct cg_context *cx, const V *p, size_t n)
{
	struct sstate *st = cx->state;
	uint64_t h;

	if (st == NULL)
		return;
	h = pos_hash(p, n);
	st->memo[h & st->mask] = h;
}

static int
sprouts_init(const struct cg_host *host, const char *params, void **state,
    struct cg_error *err)
{
	struct sstate *st;
	size_t n = (size_t)1 << MEMO_BITS;
	long topo = 0;

	if (params != NULL && *params != '\0') {
		const char *q = params + (*params == '-');
		char *end;

		topo = strtol(params, &end, 10);
		if (*q < '0' || *q > '9' || *end != '\0' ||
		    topo < -MAX_GENUS || topo > MAX_GENUS) {
			host->error(err, 0, "topology '%s' is not a genus from "
			    "%d to %d (0 the plane, G > 0 G handles, G < 0 "
			    "-G cross-caps)", params, -MAX_GENUS, MAX_GENUS);
			return CG_EPARAM;
		}
	}
	st = host->alloc(sizeof *st);
	if (st == NULL)
		return CG_ENOMEM;
	st->topology = (int)topo;
	st->memo = host->alloc(n * sizeof *st->memo);
	if (st->memo == NULL) {
		host->free(st);
		return CG_ENOMEM;
	}
	memset(st->memo, 0, n * sizeof *st->memo);
	st->mask = n - 1;
	*state = st;
	return CG_OK;
}

static void
sprouts_fini(const struct cg_host *host, void *state)
{
	struct sstate *st = state;

	if (st == NULL)
		return;
	host->free(st->memo);
	host->free(st);
}

/* The canonical form of pos into w->u.n.cpos-like vector out. */
static void
canonical_into(const struct cg_context *cx, struct ws *w, const V *pos,
    size_t len, struct vec *out)
{
	if (memo_has(cx, pos, len)) {
		out->n = 0;
		vput(w, out, pos, len);
		return;
	}
	canon_fix(w, pos, len, out);
	if (!w->oom && !w->limit)
		memo_add(cx, out->d, out->n);
}

static int
sprouts_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	struct ws w;
	int r;

	if (!check_bytes(pos, len))
		return corrupt(cx);
	if (memo_has(cx, pos, len))
		return cx->host->buf_put(out, pos, len) < 0 ? CG_ENOMEM : CG_OK;
	ws_init(&w, cx->host, len);
	canonical_into(cx, &w, pos, len, &w.u.n.canon);
	r = ws_status(cx, &w);
	if (r == CG_OK && cx->host->buf_put(out, w.u.n.canon.d,
	    w.u.n.canon.n) < 0)
		r = CG_ENOMEM;
	ws_free(&w);
	return r;
}

static int
sprouts_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	size_t i, l0 = 0;

	if (!check_bytes(pos, len))
		return corrupt(cx);
	/* letters never cross lands: each land is a component as it is */
	for (i = 0; i < len; i++)
		if (pos[i] == LAND) {
			if (emit(ctx, pos + l0, i + 1 - l0, NULL))
				return CG_STOP;
			l0 = i + 1;
		}
	return CG_OK;
}

/* ------------------------------------------------------------------ */
/* Move generation.                                                     */

struct gen {
	struct ws *w;
	const struct cg_context *cx;
	const V *pos;          /* canonical position */
	size_t plen;
	size_t land0, land1;   /* the land played in: [land0, land1) incl LAND */
	const V *lreg;         /* prepared land (regions) */
	size_t llen;
	size_t reg0, reg1;     /* the region played in, in lreg, incl REG */
	cg_emit_fn emit;
	void *ctx;
	int stop;
};

/* FNV-1a from h over p[0..n): hashing a and then b is hashing a b. */
static uint64_t
fnv(uint64_t h, const V *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

#define FNV_SEED 1469598103934665603ull

static uint64_t
fnv_mix(uint64_t h)
{
	return h ^ (h >> 29);
}

/* Is p[0..n) (after the tag bytes t[0..nt)) new in d?  Records it.  -1
 * on allocation failure. */
static int
dedupe(struct ws *w, struct dset *d, const V *t, size_t nt, const V *p,
    size_t n)
{
	size_t i, mask, len = nt + n;
	uint64_t h;

	if (d->nused * 2 >= d->nslot) {
		size_t ns = d->nslot ? d->nslot * 2 : 256, k;
		size_t *sl = w->h->alloc(ns * sizeof *sl);

		if (sl == NULL) {
			w->oom = 1;
			return -1;
		}
		memset(sl, 0, ns * sizeof *sl);
		for (k = 0; k < d->nslot; k++) {
			size_t o = d->slot[k], ln;

			if (o == 0)
				continue;
			o--;
			memcpy(&ln, d->store.d + o, sizeof ln);
			h = fnv_mix(fnv(FNV_SEED, d->store.d + o + sizeof ln,
			    ln));
			for (i = (size_t)h & (ns - 1); sl[i]; i = (i + 1) & (ns - 1))
				;
			sl[i] = o + 1;
		}
		w->h->free(d->slot);
		d->slot = sl;
		d->nslot = ns;
	}
	mask = d->nslot - 1;
	h = fnv_mix(fnv(fnv(FNV_SEED, t, nt), p, n));
	for (i = (size_t)h & mask; d->slot[i]; i = (i + 1) & mask) {
		size_t o = d->slot[i] - 1, ln;
		const V *q = d->store.d + o + sizeof ln;

		memcpy(&ln, d->store.d + o, sizeof ln);
		if (ln == len && (nt == 0 || memcmp(q, t, nt) == 0) &&
		    (n == 0 || memcmp(q + nt, p, n) == 0))
			return 0;
	}
	{
		size_t o = d->store.n;

		vput(w, &d->store, (const V *)&len, sizeof len);
		vput(w, &d->store, t, nt);
		vput(w, &d->store, p, n);
		if (w->oom)
			return -1;
		d->slot[i] = o + 1;
		d->nused++;
	}
	return 1;
}

/* The land line with the played region replaced by the regions in
 * w->u.n.child; reduce, canonise, put back among the other lands, emit. */
static void
finish_child(struct gen *g)
{
	struct ws *w = g->w;
	struct vec *lc = &w->u.n.tmp, *nl = &w->u.n.lands, *all = &w->u.n.pos;
	int r;

	if (g->stop || w->oom || w->limit)
		return;
	/* Glop's order: the untouched regions, then the new ones */
	lc->n = 0;
	vput(w, lc, g->lreg, g->reg0);
	vput(w, lc, g->lreg + g->reg1, g->llen - g->reg1);
	vput(w, lc, w->u.n.child.d, w->u.n.child.n);
	if (w->oom)
		return;
	/* the same unreduced land from another move of this land is the
	 * same child: not reduced twice (a tenth of them in 0*12) */
	{
		V tag[sizeof g->land0];

		memcpy(tag, &g->land0, sizeof tag);
		r = dedupe(w, &w->raw, tag, sizeof tag, lc->d, lc->n);
		if (r <= 0)
			return;
	}
	/* lc is w->u.n.tmp, which region sorting also uses: copy it away */
	w->u.n.canon.n = 0;
	vput(w, &w->u.n.canon, lc->d, lc->n);
	if (w->oom)
		return;
	nl->n = 0;
	vput(w, nl, g->pos, g->land0);
	vput(w, nl, g->pos + g->land1, g->plen - g->land1);
	land_process(w, w->u.n.canon.d, w->u.n.canon.n, nl);
	if (w->oom || w->limit)
		return;
	lands_sort(w, nl->d, nl->n, all);
	if (w->oom)
		return;
	r = dedupe(w, &w->seen, NULL, 0, all->d, all->n);
	if (r < 0)
		return;
	if (r > 0 && g->emit(g->ctx, all->d, all->n, NULL))
		g->stop = 1;
}

/* Boundary split into the couple (outer, inner) by joining positions s1
 * <= s2 of b (Glop's Boundary::compute_1bnd_children).  Appends the
 * outer boundary (with BND) to o and the inner one to in. */
static int
split_couple(const V *b, size_t len, size_t s1, size_t s2, struct ws *w,
    struct vec *o, struct vec *in)
{
	unsigned v1 = b[s1], v2 = b[s2], n1 = v1, n2 = v2;
	size_t k;

	if (len == 1) {
		if (v1 == 0) {
			vpush(w, o, T1); vpush(w, o, T3); vpush(w, o, BND);
			vpush(w, in, T1); vpush(w, in, T3); vpush(w, in, BND);
			return 1;
		}
		if (v1 == 1) {
			vpush(w, o, V3); vpush(w, o, T3); vpush(w, o, BND);
			vpush(w, in, V3); vpush(w, in, T3); vpush(w, in, BND);
			return 1;
		}
		return 0;
	}
	if (s1 == s2 && v1 == 2)
		return 0;
	if (v1 == v2 && is_letter(v1))
		return 0;
	if (s1 != s2) {
		if (v1 == 1)
			n1 = T1;
		if (v2 == 1)
			n2 = T2;
		if (v1 == 2)
			n1 = V3;
		if (v2 == 2)
			n2 = V3;
	} else if (v1 == 1)
		n1 = n2 = V3;
	/* outer: b[s2..] b[..s1) b'[s1] T3 */
	for (k = s2; k < len; k++)
		vpush(w, o, k == s2 ? n2 : b[k]);
	for (k = 0; k < s1; k++)
		vpush(w, o, b[k]);
	vpush(w, o, n1);
	vpush(w, o, T3);
	vpush(w, o, BND);
	/* inner: b'[s1] .. b[s2) b'[s2] T3 */
	for (k = s1; k < s2; k++)
		vpush(w, in, k == s1 ? n1 : b[k]);
	vpush(w, in, n2);
	vpush(w, in, T3);
	vpush(w, in, BND);
	return 1;
}

/* The part of b used when b is joined to another boundary, starting at
 * vertex r (Glop's Boundary::compute_2bnd_children). */
static void
join_part(const V *b, size_t len, size_t r, struct ws *w, struct vec *o,
    unsigned t1)
{
	unsigned v = b[r];
	size_t k;

	if (v == 0) {
		vpush(w, o, 1);
		return;
	}
	if (v == 1)
		vpush(w, o, t1);
	else if (v == 2)
		vpush(w, o, V3);
	else
		vpush(w, o, v);
	for (k = 1; k < len; k++)
		vpush(w, o, b[(r + k) % len]);
	if (v == 1)
		vpush(w, o, t1);
	else if (is_letter(v))
		vpush(w, o, v);
}

static void
push_zeros(struct ws *w, struct vec *v, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++) {
		vpush(w, v, 0);
		vpush(w, v, BND);
	}
}

/* Moves in one region (the research notes' and Lemoine and Viennot's
 * "Sprouts game on compact surfaces" move types).  A region is a surface
 * with holes: the sphere, or a sphere with handles (orientable) or with
 * cross-caps; its boundaries are read with the region on one side when
 * it is orientable, and have no direction otherwise.
 *   I    a curve between two boundaries joins them; on a surface with
 *        cross-caps the second one may be met either way round;
 *   II   a curve from a boundary to itself.  It either cuts the region
 *        in two (II.A: the surface is shared as a connected sum, the
 *        other boundaries go to either side; a side that becomes
 *        orientable reads each of its boundaries either way), or not
 *        (II.B): two-sided, the boundary becomes two and the surface
 *        loses a handle or two cross-caps; one-sided (cross-caps only),
 *        the boundary stays one, walked along both sides of the curve,
 *        and the surface loses a cross-cap.  Losing cross-caps may leave
 *        an orientable surface: then the boundaries read either way. */
struct rgn {
	struct gen *g;
	const V *rp;            /* the region's bytes */
	size_t *bs, *bl, nb;    /* its boundaries: start and length */
	size_t *normal, nn;     /* the other boundaries of a split, not 0 */
	size_t nz;              /* and the number of other 0 boundaries */
	int orientable;
	unsigned genus;         /* handles, or cross-caps */
};

/* One side of a split: its new boundary, zeros, the other boundaries in
 * set (those in rev read backwards), its surface. */
struct side {
	const struct vec *b;
	size_t zeros;
	unsigned long set, rev;
	int orientable;
	unsigned genus;
};

static void
put_surface(struct ws *w, struct vec *v, int orientable, unsigned genus)
{
	unsigned i;

	for (i = 0; i < genus; i++)
		vpush(w, v, !orientable ? CAP : i == 0 ? HANDLE : HANDLE2);
}

/* A boundary of len vertices and its BND, forwards or backwards. */
static void
put_bnd(struct ws *w, struct vec *v, const V *b, size_t len, int backwards)
{
	size_t i;

	if (!backwards) {
		vput(w, v, b, len + 1);
		return;
	}
	for (i = len; i > 0; i--)
		vpush(w, v, b[i - 1]);
	vpush(w, v, BND);
}

static void
put_others(struct rgn *m, struct vec *v, size_t zeros, unsigned long set,
    unsigned long rev)
{
	size_t k;

	push_zeros(m->g->w, v, zeros);
	for (k = 0; k < m->nn; k++)
		if (set >> k & 1)
			put_bnd(m->g->w, v, m->rp + m->bs[m->normal[k]],
			    m->bl[m->normal[k]], rev >> k & 1);
}

static void
put_side(struct rgn *m, struct vec *v, const struct side *s)
{
	struct ws *w = m->g->w;

	vput(w, v, s->b->d, s->b->n);
	put_others(m, v, s->zeros, s->set, s->rev);
	put_surface(w, v, s->orientable, s->genus);
	vpush(w, v, REG);
}

static void
two_regions(struct rgn *m, const struct side *a, const struct side *b)
{
	struct vec *ch = &m->g->w->u.n.child;

	ch->n = 0;
	put_side(m, ch, a);
	put_side(m, ch, b);
	finish_child(m->g);
}

/* The one boundary of a one-sided curve: the inner part walked back,
 * the new spot, the outer part, the new spot. */
static void
put_one_sided(struct ws *w, struct vec *v, const struct vec *co,
    const struct vec *ci)
{
	size_t k;

	for (k = ci->n - 2; k > 0; k--)
		vpush(w, v, ci->d[k - 1]);
	vpush(w, v, T3);
	vput(w, v, co->d, co->n);
}

/* Every split of the region by a curve from a boundary to itself, given
 * the outer part co and the inner part ci of that boundary. */
static void
split_moves(struct rgn *m, const struct vec *co, const struct vec *ci)
{
	struct ws *w = m->g->w;
	struct vec *ch = &w->u.n.child;
	unsigned long full = (1ul << m->nn) - 1, set, rev;
	unsigned gn = m->genus, i;
	size_t zi;
	int eps;

	/* II.A: two regions */
	for (zi = 0; zi <= m->nz && !m->g->stop; zi++)
		for (set = 0; set <= full && !m->g->stop; set++) {
			struct side a = { co, zi, set, 0, m->orientable, 0 };
			struct side b = { ci, m->nz - zi, full ^ set, 0,
			    m->orientable, 0 };

			for (i = m->orientable ? 0 : 1; i + !m->orientable <= gn &&
			    !m->g->stop; i++) {
				a.genus = i;
				b.genus = gn - i;
				two_regions(m, &a, &b);
			}
			if (m->orientable)
				continue;
			/* one side orientable with i handles, the other
			 * keeps gn - 2i >= 1 cross-caps */
			a.orientable = 1;
			for (i = 0; 2 * i + 1 <= gn && !m->g->stop; i++)
				for (eps = 0; eps < 2 && !m->g->stop; eps++) {
					a.b = eps ? ci : co;
					b.b = eps ? co : ci;
					a.genus = i;
					b.genus = gn - 2 * i;
					for (rev = set; !m->g->stop;
					    rev = (rev - 1) & set) {
						a.rev = rev;
						two_regions(m, &a, &b);
						if (rev == 0)
							break;
					}
				}
		}
	if (m->g->stop || w->oom || w->limit || gn == 0)
		return;

	/* II.B: one region */
	if (m->orientable || gn >= 3) {
		/* two-sided: a handle, or two cross-caps, less */
		ch->n = 0;
		vput(w, ch, ci->d, ci->n);
		vput(w, ch, co->d, co->n);
		put_others(m, ch, m->nz, full, 0);
		put_surface(w, ch, m->orientable, m->orientable ? gn - 1 :
		    gn - 2);
		vpush(w, ch, REG);
		finish_child(m->g);
	}
	if (m->orientable)
		return;
	if (gn >= 2 && !m->g->stop) {
		/* one-sided: a cross-cap less */
		ch->n = 0;
		put_one_sided(w, ch, co, ci);
		put_others(m, ch, m->nz, full, 0);
		put_surface(w, ch, 0, gn - 1);
		vpush(w, ch, REG);
		finish_child(m->g);
	}
	/* the cross-caps all gone: an orientable surface, two-sided (the
	 * two parts then face opposite ways) for an even number, one-sided
	 * for an odd one; every other boundary read either way */
	for (set = 0; set <= full && !m->g->stop; set++) {
		ch->n = 0;
		if (gn % 2 == 0) {
			vput(w, ch, ci->d, ci->n);
			put_bnd(w, ch, co->d, co->n - 1, 1);
		} else
			put_one_sided(w, ch, co, ci);
		put_others(m, ch, m->nz, set, 0);
		put_others(m, ch, 0, full ^ set, full ^ set);
		put_surface(w, ch, 1, (gn - 1) / 2);
		vpush(w, ch, REG);
		finish_child(m->g);
	}
}

/* About how many children the splits of a boundary of len spots make
 * (a bound on the work of a pathological region, as a surface of many
 * cross-caps with many boundaries). */
static double
split_count(const struct rgn *m, size_t len)
{
	double two = (double)(1ul << m->nn), three = 1, g = m->genus, per;
	size_t k;

	for (k = 0; k < m->nn; k++)
		three *= 3;
	per = m->orientable ? (g + 1) * two : g * two + (g + 1) * three;
	return (double)len * (double)len / 2 * ((double)(m->nz + 1) * per +
	    two + 2);
}

/* Every move inside the region [reg0, reg1) of the prepared land. */
static void
region_moves(struct gen *g)
{
	struct ws *w = g->w;
	const V *rp = g->lreg + g->reg0;
	size_t rn = g->reg1 - g->reg0 - 1; /* without REG */
	size_t nb = 0, i, j, k, z, b0;
	struct vec *ch = &w->u.n.child, *co = &w->u.n.co, *ci = &w->u.n.ci,
	    *pj = &w->u.n.pj;
	struct rgn m;

	memset(&m, 0, sizeof m);
	m.g = g;
	m.rp = rp;
	m.orientable = 1;
	for (i = 0; i < rn; i++) {
		nb += rp[i] == BND;
		if (rp[i] == CAP)
			m.orientable = 0;
		m.genus += is_topo(rp[i]);
	}
	w->u.n.idx.n = 0;
	if (vgrow(w, &w->u.n.idx, 3 * nb * sizeof(size_t)) < 0)
		return;
	m.bs = (size_t *)(void *)w->u.n.idx.d;
	m.bl = m.bs + nb;
	m.normal = m.bl + nb;
	m.nb = nb;
	for (i = 0, b0 = 0, k = 0; i < rn; i++)
		if (rp[i] == BND) {
			m.bs[k] = b0;
			m.bl[k] = i - b0;
			k++;
			b0 = i + 1;
		}
	/* the 0 boundaries come first (canonical order) and are alike */
	for (z = 0; z < nb && m.bl[z] == 1 && rp[m.bs[z]] == 0; z++)
		;

	/* II: a boundary joined to itself */
	for (i = z > 0 ? z - 1 : 0; i < nb && !g->stop; i++) {
		const V *b = rp + m.bs[i];
		size_t len = m.bl[i], s1, s2;

		m.nz = z - (i < z);
		m.nn = 0;
		for (k = z; k < nb; k++)
			if (k != i)
				m.normal[m.nn++] = k;
		if (m.nn > MAX_NORMAL_BND || (!m.orientable &&
		    m.nn > MAX_NONOR_BND) || split_count(&m, len) > MAX_SPLITS) {
			w->limit = LIM_BOUNDARIES;
			return;
		}
		for (s1 = 0; s1 < len && !g->stop; s1++)
			for (s2 = s1; s2 < len && !g->stop; s2++) {
				co->n = ci->n = 0;
				if (!split_couple(b, len, s1, s2, w, co, ci))
					continue;
				split_moves(&m, co, ci);
				if (w->oom || w->limit)
					return;
			}
	}

	/* I: two boundaries joined into one */
	for (i = z >= 2 ? z - 2 : 0; i < nb && !g->stop; i++)
		for (j = i + 1; j < nb && !g->stop; j++) {
			const V *bi = rp + m.bs[i], *bj = rp + m.bs[j];
			size_t r, q;

			for (r = 0; r < m.bl[i] && !g->stop; r++)
				for (q = 0; q < m.bl[j] && !g->stop; q++) {
					unsigned fi = bi[r], fj = bj[q];
					int back;

					if (fi == fj && is_up(fi))
						continue;
					pj->n = 0;
					join_part(bj, m.bl[j], q, w, pj,
					    fi == 1 && fj == 1 ? T2 : T1);
					for (back = 0; back <= !m.orientable &&
					    !g->stop; back++) {
						ch->n = 0;
						join_part(bi, m.bl[i], r, w, ch, T1);
						vpush(w, ch, T3);
						if (back) {
							for (k = pj->n; k > 0; k--)
								vpush(w, ch, pj->d[k - 1]);
						} else
							vput(w, ch, pj->d, pj->n);
						vpush(w, ch, T3);
						vpush(w, ch, BND);
						for (k = 0; k < nb; k++)
							if (k != i && k != j)
								vput(w, ch, rp + m.bs[k],
								    m.bl[k] + 1);
						put_surface(w, ch, m.orientable,
						    m.genus);
						vpush(w, ch, REG);
						finish_child(g);
						if (w->oom || w->limit)
							return;
					}
				}
		}
}

/* Lower-case (and two-boundary) letter pairs renamed to fresh
 * upper-case letters, as Glop does before computing children. */
static void
prepare_land(struct ws *w, const V *p, size_t n, struct vec *out)
{
	unsigned next = UP_FIRST;
	size_t i, k;

	out->n = 0;
	vput(w, out, p, n);
	if (w->oom)
		return;
	for (i = 0; i < n; i++)
		if (is_up(p[i]) && p[i] >= next)
			next = p[i] + 1u;
	for (i = 0; i < n; i++) {
		unsigned v = out->d[i];

		if (!is_l1(v) && !is_l2(v))
			continue;
		if (next > UP_LAST) {
			w->limit = LIM_LETTERS;
			return;
		}
		out->d[i] = (V)next;
		for (k = i + 1; k < n; k++)
			if (out->d[k] == v) {
				out->d[k] = (V)next;
				break;
			}
		next++;
	}
}

static int
sprouts_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct ws w;
	struct gen g;
	size_t i, l0, r0, j;
	int r;

	(void)side;
	if (!check_bytes(pos, len))
		return corrupt(cx);
	ws_init(&w, cx->host, len);
	canonical_into(cx, &w, pos, len, &w.u.n.cpos);
	memset(&g, 0, sizeof g);
	g.w = &w;
	g.cx = cx;
	g.emit = emit;
	g.ctx = ctx;
	g.pos = w.u.n.cpos.d;
	g.plen = w.u.n.cpos.n;
	l0 = 0;
	for (i = 0; i < w.u.n.cpos.n && !g.stop && !w.oom && !w.limit; i++) {
		if (w.u.n.cpos.d[i] != LAND)
			continue;
		g.land0 = l0;
		g.land1 = i + 1;
		/* every land of a canonical position is canonical alone:
		 * the search will ask for these again in the children */
		memo_add(cx, w.u.n.cpos.d + l0, i + 1 - l0);
		prepare_land(&w, w.u.n.cpos.d + l0, i - l0, &w.u.n.lprep);
		g.lreg = w.u.n.lprep.d;
		g.llen = w.u.n.lprep.n;
		r0 = 0;
		for (j = 0; j < g.llen && !g.stop && !w.oom && !w.limit; j++)
			if (g.lreg[j] == REG) {
				g.reg0 = r0;
				g.reg1 = j + 1;
				region_moves(&g);
				r0 = j + 1;
			}
		l0 = i + 1;
	}
	r = ws_status(cx, &w);
	if (r == CG_OK && g.stop)
		r = CG_STOP;
	ws_free(&w);
	return r;
}

/* ------------------------------------------------------------------ */
/* Text.                                                                */

/* Append the name of letter v, compact or extended. */
static int
put_letter(const struct cg_host *h, struct cg_buf *out, unsigned v,
    const int ext[3])
{
	if (is_l1(v))
		return ext[0] ? h->buf_printf(out, "m(%u)", v - L1_FIRST + 1) :
		    h->buf_putc(out, (int)('a' + v - L1_FIRST));
	if (is_l2(v))
		return ext[1] ? h->buf_printf(out, "n(%u)", v - L2_FIRST + 1) :
		    h->buf_putc(out, (int)('z' - (v - L2_FIRST)));
	if (is_up(v))
		return ext[2] ? h->buf_printf(out, "Z(%u)", v - UP_FIRST + 1) :
		    h->buf_putc(out, (int)('A' + v - UP_FIRST));
	return h->buf_putc(out, v == T1 ? '-' : v == T2 ? '=' : '#');
}

static int
sprouts_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	const struct sstate *st = cx->state;
	int ext[3] = { 0, 0, 0 };
	size_t i, k, nreg = 0;
	int first_b = 1; /* at the start of a region */
	int surface = 0, plane_mark;

	if (!check_bytes(pos, len))
		return corrupt(cx);
	if (len == 0)
		return h->buf_putc(out, '!');
	for (i = 0; i < len; i++) {
		unsigned v = pos[i];

		nreg += v == REG;
		surface |= is_topo(v);

		if (is_l1(v) && v - L1_FIRST >= 12)
			ext[0] = 1;
		if (is_l2(v) && v - L2_FIRST >= 12)
			ext[1] = 1;
		if (is_up(v) && v - UP_FIRST >= 25)
			ext[2] = 1;
	}
	/* a region alone is read on the instance's surface unless it says
	 * otherwise: say so when it is in the plane */
	plane_mark = st != NULL && st->topology != 0 && nreg == 1 && !surface;
	for (i = 0; i < len; ) {
		unsigned v = pos[i];
		int rc = 0;

		if (v == 0 && pos[i + 1] == BND &&
		    (i == 0 || pos[i - 1] >= BND)) {
			/* a run of unused spots: 0*k when k >= 2 */
			for (k = 0; i + 2 * k + 1 < len && pos[i + 2 * k] == 0 &&
			    pos[i + 2 * k + 1] == BND; k++)
				;
			if (!first_b)
				rc = h->buf_putc(out, '.');
			if (rc == 0)
				rc = k >= 2 ? h->buf_printf(out, "0*%zu", k) :
				    h->buf_putc(out, '0');
			i += 2 * k;
			first_b = 0;
			if (rc < 0)
				return CG_ENOMEM;
			continue;
		}
		if (is_topo(v)) {
			for (k = 0; i + k < len && is_topo(pos[i + k]); k++)
				;
			if (h->buf_printf(out, v == CAP ? "@-%zu" : "@%zu",
			    k) < 0)
				return CG_ENOMEM;
			i += k;
			continue;
		}
		if (v == REG) {
			first_b = 1;
			if (plane_mark)
				rc = h->buf_put(out, "@0", 2);
			if (rc == 0 && i + 1 < len && pos[i + 1] != LAND)
				rc = h->buf_putc(out, '|');
		} else if (v == LAND) {
			if (i + 1 < len)
				rc = h->buf_putc(out, '+');
		} else if (v == BND) {
			/* the separator is written before the next boundary */
		} else {
			if (!first_b && i > 0 && pos[i - 1] == BND)
				rc = h->buf_putc(out, '.');
			first_b = 0;
			if (rc == 0)
				rc = v <= 2 ? h->buf_putc(out, (int)('0' + v)) :
				    put_letter(h, out, v, ext);
		}
		if (rc < 0)
			return CG_ENOMEM;
		i++;
	}
	return CG_OK;
}

struct ptok {
	V v;
	size_t col;
};

static const char *
letter_text(char *buf, size_t bufsz, unsigned v)
{
	if (is_l1(v) && v - L1_FIRST < 12)
		snprintf(buf, bufsz, "%c", (int)('a' + v - L1_FIRST));
	else if (is_l1(v))
		snprintf(buf, bufsz, "m(%u)", v - L1_FIRST + 1);
	else if (is_l2(v) && v - L2_FIRST < 12)
		snprintf(buf, bufsz, "%c", (int)('z' - (v - L2_FIRST)));
	else if (is_l2(v))
		snprintf(buf, bufsz, "n(%u)", v - L2_FIRST + 1);
	else if (is_up(v) && v - UP_FIRST < 25)
		snprintf(buf, bufsz, "%c", (int)('A' + v - UP_FIRST));
	else
		snprintf(buf, bufsz, "Z(%u)", v - UP_FIRST + 1);
	return buf;
}

/* Check the land just read (bytes p[0..n), with the column of every
 * byte in col): letters balanced, unused spots alone. */
static int
check_land(const struct cg_context *cx, const V *p, const size_t *col,
    size_t n)
{
	const struct cg_host *h = cx->host;
	unsigned cnt[256], reg[256];
	size_t first[256], i, j, b0, region = 0;
	char name[24];

	memset(cnt, 0, sizeof cnt);
	for (i = 0; i < n; i++) {
		unsigned v = p[i];

		if (v == REG)
			region++;
		if (!is_up(v))
			continue;
		if (cnt[v] == 0) {
			first[v] = col[i];
			reg[v] = (unsigned)region;
		} else if (cnt[v] == 1 && reg[v] == region)
			return h->error(cx->err, col[i], "upper-case letter "
			    "'%s' occurs twice in one region (a vertex shared "
			    "by two regions is written once in each)",
			    letter_text(name, sizeof name, v));
		else if (cnt[v] == 2)
			return h->error(cx->err, col[i], "upper-case letter "
			    "'%s' occurs more than twice in its land",
			    letter_text(name, sizeof name, v));
		cnt[v]++;
	}
	for (i = 0; i < 256; i++)
		if (cnt[i] == 1)
			return h->error(cx->err, first[i], "upper-case letter "
			    "'%s' occurs once in its land (it must be in two "
			    "regions; write 2 for a vertex seen once)",
			    letter_text(name, sizeof name, (unsigned)i));
	/* two-boundary letters: twice in their region, in two boundaries */
	memset(cnt, 0, sizeof cnt);
	for (i = 0, j = 0, b0 = 0; i < n; i++) {
		unsigned v = p[i];

		if (v == BND)
			b0++;
		if (is_l2(v)) {
			if (cnt[v] == 0) {
				first[v] = col[i];
				reg[v] = (unsigned)b0;
			} else if (reg[v] == b0)
				return h->error(cx->err, col[i], "two-boundary "
				    "letter '%s' occurs twice in one boundary (a "
				    "spot met twice along one boundary is written "
				    "with a lower-case letter)",
				    letter_text(name, sizeof name, v));
			else if (cnt[v] == 2)
				return h->error(cx->err, col[i], "two-boundary "
				    "letter '%s' occurs more than twice in its "
				    "region", letter_text(name, sizeof name, v));
			cnt[v]++;
		}
		if (v != REG)
			continue;
		for (j = L2_FIRST; j <= L2_LAST; j++)
			if (cnt[j] == 1)
				return h->error(cx->err, first[j], "two-boundary "
				    "letter '%s' occurs once in its region (it "
				    "must be in two boundaries of the region)",
				    letter_text(name, sizeof name, (unsigned)j));
		memset(cnt, 0, sizeof cnt);
	}
	b0 = 0;
	for (i = 0; i < n; i++) {
		if (p[i] == REG) {
			b0 = i + 1;
			continue;
		}
		if (p[i] != BND)
			continue;
		memset(cnt, 0, sizeof cnt);
		for (j = b0; j < i; j++) {
			unsigned v = p[j];

			if (v == 0 && i - b0 > 1)
				return h->error(cx->err, col[j], "an unused "
				    "spot 0 must be a boundary by itself");
			if (!is_l1(v))
				continue;
			if (cnt[v] == 0)
				first[v] = col[j];
			if (++cnt[v] == 3)
				return h->error(cx->err, col[j], "lower-case "
				    "letter '%s' occurs more than twice in its "
				    "boundary", letter_text(name, sizeof name, v));
		}
		for (j = L1_FIRST; j <= L1_LAST; j++)
			if (cnt[j] == 1)
				return h->error(cx->err, first[j], "lower-case "
				    "letter '%s' occurs once in its boundary (it "
				    "must occur twice)",
				    letter_text(name, sizeof name, (unsigned)j));
		b0 = i + 1;
	}
	return CG_OK;
}

/* Read "(k)" after an extended letter at text[*i]; returns k or 0. */
static unsigned long
read_ext(const char *t, size_t len, size_t *i)
{
	unsigned long k = 0;
	size_t j = *i;

	if (j >= len || t[j] != '(')
		return 0;
	j++;
	if (j >= len || t[j] < '0' || t[j] > '9')
		return 0;
	while (j < len && t[j] >= '0' && t[j] <= '9') {
		k = k * 10 + (unsigned long)(t[j] - '0');
		if (k > 100000)
			return 0;
		j++;
	}
	if (j >= len || t[j] != ')')
		return 0;
	*i = j + 1;
	return k;
}

static int
sprouts_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	const struct sstate *st = cx->state;
	struct ws w;
	size_t *col = NULL, ccap = 0, i = 0, land0, bverts = 0, nbnd = 0;
	size_t nreg = 0;
	unsigned long shorthand = 0;    /* spots written 0*k so far */
	long genus = 0;         /* of the region being read, after '@' */
	int said = 0;           /* a region said its surface */
	int r = CG_OK;

	if (len == 1 && text[0] == '!')
		return CG_OK;
	if (len == 0)
		return h->error(cx->err, 1, "empty position (write ! for the "
		    "empty position)");
	ws_init(&w, h, len);
	land0 = 0;
#define PUSH(x, c)                                                        \
	do {                                                              \
		if (w.u.n.pos.n == ccap) {                                    \
			size_t *nc;                                       \
			ccap = ccap ? 2 * ccap : 64;                      \
			nc = h->realloc(col, ccap * sizeof *col);         \
			if (nc == NULL) {                                 \
				r = CG_ENOMEM;                            \
				goto done;                                \
			}                                                 \
			col = nc;                                         \
		}                                                         \
		col[w.u.n.pos.n] = (c);                                       \
		vpush(&w, &w.u.n.pos, (x));                                   \
		if (w.oom) {                                              \
			r = CG_ENOMEM;                                    \
			goto done;                                        \
		}                                                         \
	} while (0)
	for (;;) {
		char c = i < len ? text[i] : '\0';
		size_t c1 = i + 1;

		if (i >= len || c == '.' || c == '|' || c == '+') {
			if (bverts == 0) {
				size_t ecol = i < len ? c1 : len;

				r = h->error(cx->err, ecol, nbnd == 0 ?
				    "empty region" : "empty boundary");
				goto done;
			}
			PUSH(BND, c1);
			bverts = 0;
			nbnd++;
			if (c != '.') {
				long g;

				for (g = genus; g < 0; g++)
					PUSH(CAP, c1);
				for (g = 0; g < genus; g++)
					PUSH(g == 0 ? HANDLE : HANDLE2, c1);
				genus = 0;
				PUSH(REG, c1);
				nbnd = 0;
				nreg++;
			}
			if (c != '.' && c != '|') {
				PUSH(LAND, c1);
				r = check_land(cx, w.u.n.pos.d + land0, col + land0,
				    w.u.n.pos.n - land0);
				if (r < 0)
					goto done;
				land0 = w.u.n.pos.n;
			}
			if (i >= len)
				break;
			i++;
			continue;
		}
		if (c == '0' && i + 1 < len && text[i + 1] == '*') {
			unsigned long k = 0;
			size_t j = i + 2, z;

			if (bverts != 0) {
				r = h->error(cx->err, c1, "0*k must stand for "
				    "whole boundaries");
				goto done;
			}
			if (j >= len || text[j] < '0' || text[j] > '9') {
				r = h->error(cx->err, j + 1 > len ? len : j + 1,
				    "expected a number of spots after '0*'");
				goto done;
			}
			while (j < len && text[j] >= '0' && text[j] <= '9') {
				k = k * 10 + (unsigned long)(text[j] - '0');
				if (k + shorthand > MAX_ZEROS) {
					r = h->error(cx->err, c1, "too many "
					    "spots (at most %lu written 0*k in "
					    "a position)", MAX_ZEROS);
					goto done;
				}
				j++;
			}
			shorthand += k;
			if (k == 0) {
				r = h->error(cx->err, c1, "0*0 has no spots");
				goto done;
			}
			if (j < len && text[j] != '.' && text[j] != '|' &&
			    text[j] != '+' && text[j] != '@') {
				r = h->error(cx->err, j + 1, "expected '.', "
				    "'|', '+' or '@' after '0*%lu'", k);
				goto done;
			}
			for (z = 0; z + 1 < k; z++) {
				PUSH(0, c1);
				PUSH(BND, c1);
				nbnd++;
			}
			PUSH(0, c1);
			bverts = 1;
			i = j;
			continue;
		}
		if (c >= '0' && c <= '2') {
			PUSH((unsigned)(c - '0'), c1);
		} else if (c == '3') {
			r = h->error(cx->err, c1, "dead vertex '3': leave dead "
			    "vertices out");
			goto done;
		} else if (c >= 'a' && c <= 'l') {
			PUSH(L1_FIRST + (unsigned)(c - 'a'), c1);
		} else if (c >= 'A' && c <= 'Y') {
			PUSH(UP_FIRST + (unsigned)(c - 'A'), c1);
		} else if (c == 'm' || c == 'n' || c == 'Z') {
			size_t j = i + 1;
			unsigned long k = read_ext(text, len, &j);
			unsigned long max = c == 'm' ? N_L1 : c == 'n' ? N_L2 :
			    N_UP;

			if (k == 0) {
				r = h->error(cx->err, c1, "expected '%c(k)' with "
				    "k >= 1", c);
				goto done;
			}
			if (k > max) {
				r = h->error(cx->err, c1, "letter %c(%lu) out of "
				    "range (at most %c(%lu))", c, k, c, max);
				goto done;
			}
			PUSH((c == 'm' ? L1_FIRST : c == 'n' ? L2_FIRST :
			    UP_FIRST) + (unsigned)k - 1, c1);
			bverts++;
			i = j;
			continue;
		} else if (c >= 'o' && c <= 'z') {
			PUSH(L2_FIRST + (unsigned)('z' - c), c1);
		} else if (c == '@') {
			size_t j = i + 1;
			int neg = j < len && text[j] == '-';

			if (bverts == 0) {
				r = h->error(cx->err, c1, "'@' must follow the "
				    "last boundary of a region");
				goto done;
			}
			j += (size_t)neg;
			if (j >= len || text[j] < '0' || text[j] > '9') {
				r = h->error(cx->err, j < len ? j + 1 : len,
				    "expected a genus after '@'");
				goto done;
			}
			for (genus = 0; j < len && text[j] >= '0' &&
			    text[j] <= '9'; j++) {
				genus = genus * 10 + (text[j] - '0');
				if (genus > MAX_GENUS) {
					r = h->error(cx->err, c1, "genus out of "
					    "range (at most %d)", MAX_GENUS);
					goto done;
				}
			}
			if (j < len && text[j] != '|' && text[j] != '+') {
				r = h->error(cx->err, j + 1, "expected '|' or "
				    "'+' after the genus");
				goto done;
			}
			if (neg)
				genus = -genus;
			said = 1;
			i = j;  /* the separator ends the region */
			continue;
		} else if (c == '!') {
			r = h->error(cx->err, c1, "'!' (the empty position) "
			    "must stand alone");
			goto done;
		} else if ((unsigned char)c >= 0x21 && (unsigned char)c < 0x7f) {
			r = h->error(cx->err, c1, "unexpected character '%c'",
			    c);
			goto done;
		} else {
			r = h->error(cx->err, c1, "unexpected byte 0x%02x",
			    (unsigned char)c);
			goto done;
		}
		bverts++;
		i++;
	}
#undef PUSH
	/* the instance's surface is that of a region alone that does not
	 * say otherwise (Glop's start position on a surface) */
	if (st != NULL && st->topology != 0 && nreg == 1 && !said) {
		struct vec *p = &w.u.n.pos;
		int g, ng = st->topology < 0 ? -st->topology : st->topology;

		if (vgrow(&w, p, (size_t)ng) < 0) {
			r = CG_ENOMEM;
			goto done;
		}
		/* the bytes end with REG LAND */
		p->n -= 2;
		for (g = 0; g < ng; g++)
			p->d[p->n++] = st->topology < 0 ? CAP : g == 0 ? HANDLE :
			    HANDLE2;
		p->d[p->n++] = REG;
		p->d[p->n++] = LAND;
	}
	if (h->buf_put(out, w.u.n.pos.d, w.u.n.pos.n) < 0)
		r = CG_ENOMEM;
done:
	h->free(col);
	ws_free(&w);
	return r;
}

/* ------------------------------------------------------------------ */
/* Search hint: fewest lives first, then most lands, then fewest moves  */
/* (Glop's move ordering keys).                                        */

static int
sprouts_order_key(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *key)
{
	uint64_t lives = 0, letters = 0, lands = 0, est = 0;
	size_t i, r0 = 0, b0;

	if (!check_bytes(pos, len))
		return corrupt(cx);
	for (i = 0; i < len; i++) {
		unsigned v = pos[i];

		if (v <= 2)
			lives += 3 - v;
		else if (is_letter(v))
			letters++;
		else if (v == LAND)
			lands++;
	}
	lives += letters / 2;
	/* estimated moves per region: |Bi||Bj| for pairs, |B|^2 2^(k-1)/2 */
	for (i = 0; i < len; i++) {
		size_t bl[64], nb = 0, x, y;

		if (pos[i] != REG)
			continue;
		for (b0 = r0, x = r0; x < i; x++)
			if (pos[x] == BND) {
				if (nb < 64)
					bl[nb++] = x - b0;
				b0 = x + 1;
			}
		for (x = 0; x < nb; x++) {
			for (y = x + 1; y < nb; y++)
				est += bl[x] * bl[y];
			est += (bl[x] * bl[x] << (nb - 1 < 20 ? nb - 1 : 20)) / 2;
		}
		r0 = i + 1;
	}
	/* searches add the keys of the components of a sum: lives add up
	 * (Glop's first key), the estimated moves break ties */
	if (lives > 0xfff)
		lives = 0xfff;
	if (est > 0x3ffff)
		est = 0x3ffff;
	*key = (int64_t)(lives << 20) - (int64_t)(lands << 19) + (int64_t)est;
	if (*key < 0)
		*key = 0;
	return CG_OK;
}

static const struct cg_ruleset sprouts_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "sprouts",
	.version = "1.0",
	.summary = "Sprouts in the plane or on a compact surface, in Glop's "
	    "notation (0*5, 1a1a, 0.AB|AB+0)",
	.params_help = "topology G (Glop's): 0 the plane (the default), G > 0 "
	    "G handles, G < 0 -G cross-caps; -100 to 100",
	.flags = CG_IMPARTIAL | CG_SYMMETRY | CG_DECOMPOSES,
	.init = sprouts_init,
	.fini = sprouts_fini,
	.parse = sprouts_parse,
	.print = sprouts_print,
	.options = sprouts_options,
	.canonical = sprouts_canonical,
	.decompose = sprouts_decompose,
	.order_key = sprouts_order_key,
};

CG_RULESET_ENTRY(sprouts, sprouts_ruleset)
