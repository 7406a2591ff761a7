/* misere.c - misere canonical forms, phylum and genus; see
 * misere.h.  The phylum rules and the genus recursion follow the
 * description of CGSuite's misere module (Dan Hoey's design): the genus
 * of a wild game is built from its options' genera,
 *     g_0 = mex{ g_0(G') },  g_k = mex({ g_(k-1), g_(k-1) ^ 1 } u { g_k(G') }),
 * since G + 2.. has the options G' + 2.., G + 2..(k-1) and
 * G + 2..(k-1) + 1, and adding *1 toggles the last bit of a misere nim
 * value; the list stops where it turns 2-periodic. */
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "values/misere.h"
#include "base/util.h"

enum phylum {
	NIMHEAP, HER_TAME, REV_TAME, TAMEABLE, WILD_TAME_GENUS, HER_RESTIVE,
	REV_RESTIVE, WILD_RESTIVE_GENUS, RESTLESS, WILD_RESTLESS_GENUS, WILD
};

struct mgame {
	uint32_t opt, nopt;     /* options at t->op[opt..opt+nopt), sorted */
	uint32_t gp, gm;
	uint32_t birthday;
	uint32_t nimv;          /* k + 1 when the game is the nim heap *k */
	uint32_t sup, nsup;     /* genus superscripts at t->gs[sup..] */
	uint8_t phylum;
};

struct cg_mtab {
	struct mgame *g;
	size_t n, cap;
	uint32_t *op;
	size_t nop, capop;
	uint32_t *gs;
	size_t ngs, capgs;
	struct cg_bytemap *index;
	struct cg_bytemap *sums;   /* (a, b), a <= b -> canonical a + b, + 1 */
	uint32_t *nim;             /* nim[k] = *k, for k < nnim */
	size_t nnim, capnim;
	struct cg_mtab_form *form; /* misereform.c's memos */
};

static int
is_tame(int p)
{
	return p == NIMHEAP || p == HER_TAME || p == REV_TAME;
}

static int
is_restive(int p)
{
	return p == HER_RESTIVE || p == REV_RESTIVE;
}

static int
is_tameable(int p)
{
	return is_tame(p) || p == TAMEABLE;
}

static int
is_wild(int p)
{
	return p == WILD_TAME_GENUS || p == WILD_RESTIVE_GENUS ||
	    p == WILD_RESTLESS_GENUS || p == WILD;
}

static void
op_push(struct cg_mtab *t, uint32_t v)
{
	if (t->nop == t->capop) {
		t->capop = t->capop ? 2 * t->capop : 1024;
		t->op = cg_xreallocarray(t->op, t->capop, sizeof *t->op);
	}
	t->op[t->nop++] = v;
}

static void
gs_push(struct cg_mtab *t, uint32_t v)
{
	if (t->ngs == t->capgs) {
		t->capgs = t->capgs ? 2 * t->capgs : 1024;
		t->gs = cg_xreallocarray(t->gs, t->capgs, sizeof *t->gs);
	}
	t->gs[t->ngs++] = v;
}

struct cg_mtab *
cg_mtab_new(void)
{
	struct cg_mtab *t = cg_xcalloc(1, sizeof *t);
	int isnew;

	t->index = cg_bytemap_new();
	t->sums = cg_bytemap_new();
	t->cap = 256;
	t->g = cg_xcalloc(t->cap, sizeof *t->g);
	/* the zero game: no options, G+ = 0, G- = 1, a nim heap */
	t->g[0].gp = 0;
	t->g[0].gm = 1;
	t->g[0].phylum = NIMHEAP;
	t->g[0].nimv = 1;
	t->n = 1;
	cg_bytemap_intern(t->index, "", 0, &isnew);
	return t;
}

void
cg_mtab_free(struct cg_mtab *t)
{
	if (t == NULL)
		return;
	free(t->g);
	free(t->op);
	free(t->gs);
	free(t->nim);
	cg_mtab_form_free(t->form);
	cg_bytemap_free(t->index);
	cg_bytemap_free(t->sums);
	free(t);
}

size_t
cg_mtab_memory(const struct cg_mtab *t)
{
	return t->cap * sizeof *t->g + t->capop * 4 + t->capgs * 4 +
	    cg_bytemap_memory(t->index) + cg_bytemap_memory(t->sums);
}

/* The sum of canonical games a and b: its options are a' + b and a + b',
 * each a sum made the same way, and their canonical game is the sum's
 * (memoised by the pair). */
uint32_t
cg_mtab_add(struct cg_mtab *t, uint32_t a, uint32_t b)
{
	uint32_t key[2], *o, r;
	size_t na, nb, i, n = 0;
	int64_t e;
	int isnew;

	if (a == 0 || b == 0)
		return a + b;
	key[0] = a < b ? a : b;
	key[1] = a < b ? b : a;
	e = cg_bytemap_find(t->sums, key, sizeof key);
	if (e >= 0)
		return (uint32_t)*cg_bytemap_value(t->sums, (uint64_t)e) - 1;
	na = t->g[a].nopt;
	nb = t->g[b].nopt;
	o = cg_xmalloc((na + nb + 1) * sizeof *o);
	/* the option lists move as games are made: read them by index */
	for (i = 0; i < na; i++) {
		uint32_t x = t->op[t->g[a].opt + i];

		o[n++] = cg_mtab_add(t, x, b);
	}
	for (i = 0; i < nb; i++) {
		uint32_t x = t->op[t->g[b].opt + i];

		o[n++] = cg_mtab_add(t, a, x);
	}
	r = cg_mtab_canon(t, o, n);
	free(o);
	e = (int64_t)cg_bytemap_intern(t->sums, key, sizeof key, &isnew);
	*cg_bytemap_value(t->sums, (uint64_t)e) = (uint64_t)r + 1;
	return r;
}

int
cg_mtab_is_star(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].nopt == 1 && t->op[t->g[g].opt] == 0;
}

uint32_t
cg_mtab_gplus(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].gp;
}

uint32_t
cg_mtab_gminus(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].gm;
}

static int
has_option(const struct cg_mtab *t, uint32_t g, uint32_t x)
{
	const uint32_t *o = t->op + t->g[g].opt;
	size_t lo = 0, hi = t->g[g].nopt;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (o[mid] == x)
			return 1;
		if (o[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
in_sorted(const uint32_t *a, size_t n, uint32_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a[mid] == x)
			return 1;
		if (a[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* ------------------------------------------------------------ genus */

static uint32_t
sup_digit(const struct cg_mtab *t, uint32_t id, size_t i)
{
	const struct mgame *g = &t->g[id];
	const uint32_t *sup = t->gs + g->sup;
	uint32_t gb = g->gp;

	if (i < g->nsup)
		return sup[i];
	if (is_tame(g->phylum)) {
		if (i == 0 && gb < 2)
			return 1 - gb;
		return gb ^ (uint32_t)((i & 1) << 1);
	}
	if (is_restive(g->phylum))
		return (sup[0] < 4 ? sup[0] : gb) ^ (uint32_t)((i & 1) << 1);
	return sup[g->nsup - 2 + ((g->nsup ^ i) & 1)];
}

static size_t
max_differ(const struct cg_mtab *t, uint32_t id)
{
	const struct mgame *g = &t->g[id];
	const uint32_t *sup = t->gs + g->sup;

	if (is_tame(g->phylum))
		return g->gp < 2 && (g->nsup == 0 || sup[0] != g->gp) ? 2 : 1;
	if (is_restive(g->phylum))
		return sup[0] < 4 ? 1 : 2;
	return g->nsup - 1;
}

static uint32_t
mex_list(uint32_t *v, size_t n)
{
	uint32_t m = 0;
	size_t i;
	int again = 1;

	/* n is small: repeated scans */
	while (again) {
		again = 0;
		for (i = 0; i < n; i++)
			if (v[i] == m) {
				m++;
				again = 1;
			}
	}
	return m;
}

static void
make_genus(struct cg_mtab *t, uint32_t id)
{
	struct mgame *g = &t->g[id];
	const uint32_t *o = t->op + g->opt;
	uint32_t n = g->nopt, j;
	size_t maxd = 1, i, k;
	uint32_t *b, *vals;

	g->sup = (uint32_t)t->ngs;
	if (g->phylum == NIMHEAP) {
		g->nsup = 0;
		return;
	}
	if (is_tame(g->phylum) || is_restive(g->phylum)) {
		gs_push(t, g->gm);
		t->g[id].nsup = 1;
		return;
	}
	for (j = 0; j < n; j++)
		if (max_differ(t, o[j]) > maxd)
			maxd = max_differ(t, o[j]);
	maxd += 2;
	b = cg_xcalloc(maxd + 1, sizeof *b);
	vals = cg_xcalloc(n + 2, sizeof *vals);
	for (i = 0; i <= maxd; i++) {
		k = 0;
		if (i > 0) {
			vals[k++] = b[i - 1];
			vals[k++] = b[i - 1] ^ 1;
		}
		for (j = 0; j < n; j++)
			vals[k++] = sup_digit(t, o[j], i);
		b[i] = mex_list(vals, k);
	}
	while (maxd > 1 && b[maxd] == b[maxd - 2])
		maxd--;
	for (i = 0; i <= maxd; i++)
		gs_push(t, b[i]);
	g = &t->g[id];
	g->nsup = (uint32_t)(maxd + 1);
	free(b);
	free(vals);
}

/* ----------------------------------------------------------- phylum */

static uint32_t
mex_bits(const unsigned char *seen, size_t n)
{
	uint32_t m = 0;

	while (m < n && seen[m])
		m++;
	return m;
}

static int
phylum_of(struct cg_mtab *t, uint32_t id)
{
	const struct mgame *g = &t->g[id];
	const uint32_t *o = t->op + g->opt;
	uint32_t n = g->nopt, j, gp = g->gp, gm = g->gm;
	int wildest = NIMHEAP, my, possible_rt, possible_ta, possible_rr;
	size_t lim = 2 * (size_t)n + 4;
	unsigned char *gplus, *gminus, *tgplus, *tgminus;
	int any_gplus = 0;

	for (j = 0; j < n; j++)
		if (is_tame(wildest) && t->g[o[j]].phylum > wildest)
			wildest = t->g[o[j]].phylum;
	if (gp == gm || ((gp | gm) & ~1u) == 0)
		my = WILD_TAME_GENUS;
	else if (gp < 2)
		my = WILD_RESTIVE_GENUS;
	else if (gm < 2)
		my = WILD_RESTLESS_GENUS;
	else
		my = WILD;
	switch (wildest) {
	case NIMHEAP:
		if (my == WILD_TAME_GENUS && (gp > 1 || gp != gm))
			return NIMHEAP;
		/* fall through */
	case HER_TAME:
		if (my == WILD_TAME_GENUS)
			return HER_TAME;
		if (my == WILD_RESTIVE_GENUS)
			return HER_RESTIVE;
		/* fall through */
	case REV_TAME:
		if (my == WILD_TAME_GENUS)
			return REV_TAME;
		if (my == WILD_RESTIVE_GENUS)
			return REV_RESTIVE;
		if (my == WILD_RESTLESS_GENUS)
			return RESTLESS;
		break;
	default:
		break;
	}
	if (my != WILD_TAME_GENUS && my != WILD_RESTIVE_GENUS)
		return is_wild(my) ? WILD : my;
	/* some option is not tame: tame or restive by reversible moves? */
	possible_rt = my == WILD_TAME_GENUS;
	possible_ta = my == WILD_TAME_GENUS;
	possible_rr = my == WILD_RESTIVE_GENUS;
	gplus = cg_xcalloc(lim, 1);
	gminus = cg_xcalloc(lim, 1);
	tgplus = cg_xcalloc(lim, 1);
	tgminus = cg_xcalloc(lim, 1);
	for (j = 0; j < n; j++) {
		const struct mgame *x = &t->g[o[j]];
		int mfound = 0, pfound = 0, mtfound = 0, ptfound = 0;
		uint32_t k;

		if (is_tame(x->phylum)) {
			if (x->gp < lim)
				gplus[x->gp] = 1;
			if (x->gm < lim)
				gminus[x->gm] = 1;
			any_gplus = 1;
			continue;
		}
		if (possible_ta && x->phylum == TAMEABLE) {
			if (x->gm < lim)
				tgminus[x->gm] = 1;
			if (x->gp < lim)
				tgplus[x->gp] = 1;
			mtfound = ptfound = 1;
		}
		for (k = 0; k < x->nopt; k++) {
			const struct mgame *y = &t->g[t->op[x->opt + k]];
			int yp = y->phylum;

			if (!(is_tame(yp) || (possible_rr &&
			    (is_tame(yp) || is_restive(yp))) ||
			    (possible_ta && is_tameable(yp))))
				continue;
			if (is_tame(yp) && my == WILD_TAME_GENUS) {
				mfound |= gm == y->gm;
				pfound |= gp == y->gp;
			} else if ((is_tame(yp) || is_restive(yp)) &&
			    my == WILD_RESTIVE_GENUS) {
				mfound |= gm == y->gm && ((y->gp & ~1u) == 0 ||
				    ((y->gp ^ gm) & ~1u) == 0);
				pfound |= gp == y->gp && ((y->gm & ~1u) == 0 ||
				    ((y->gm ^ gm) & ~1u) == 0);
			} else if (yp == TAMEABLE && possible_ta) {
				mtfound |= gm == y->gm;
				ptfound |= gp == y->gp;
			}
		}
		if (!(mfound && pfound)) {
			possible_rt = possible_rr = 0;
			if (!(mtfound && ptfound))
				possible_ta = 0;
			if (!possible_rt && !possible_rr && !possible_ta)
				break;
		}
	}
	if (possible_rt || possible_rr || possible_ta) {
		if (gp != mex_bits(gplus, lim) || gm != mex_bits(gminus, lim))
			possible_rt = possible_rr = 0;
		if (possible_ta) {
			size_t i;
			int nonempty = any_gplus;

			for (i = 0; i < lim; i++) {
				gplus[i] |= tgplus[i];
				gminus[i] |= tgminus[i];
				if (tgplus[i])
					nonempty = 1;
			}
			if ((gp != mex_bits(gplus, lim) ||
			    gm != mex_bits(gminus, lim)) && (nonempty || gp > 0))
				possible_ta = 0;
		}
	}
	free(gplus);
	free(gminus);
	free(tgplus);
	free(tgminus);
	if (possible_rt)
		return REV_TAME;
	if (possible_ta)
		return TAMEABLE;
	if (possible_rr)
		return REV_RESTIVE;
	return WILD;
}

/* -------------------------------------------------------- canonical */

uint32_t
cg_mtab_canon(struct cg_mtab *t, uint32_t *o, size_t n)
{
	size_t i, j, k, m;
	int isnew, allzero = 1, someP = 0, heap;
	uint64_t e;
	uint32_t id;
	unsigned char *seen;

	qsort(o, n, sizeof *o, cmp_u32);
	for (i = 0, m = 0; i < n; i++)
		if (m == 0 || o[m - 1] != o[i])
			o[m++] = o[i];
	n = m;
	if (n == 0)
		return 0;
	/* G = 0: a misere N-position whose options all have 0 as an option */
	for (i = 0; i < n; i++) {
		if (t->g[o[i]].nopt == 0 || t->op[t->g[o[i]].opt] != 0)
			allzero = 0;
		if (t->g[o[i]].gm == 0)
			someP = 1;
	}
	if (allzero && someP)
		return 0;
	/* options *0 .. *(n-1): the nim heap *n, canonical as it is */
	seen = cg_xcalloc(n, 1);
	heap = 1;
	for (i = 0; i < n && heap; i++) {
		uint32_t v = t->g[o[i]].nimv;

		heap = v != 0 && v <= n && !seen[v - 1];
		if (heap)
			seen[v - 1] = 1;
	}
	free(seen);
	/* G = Y for an option Y != 0 of an option */
	for (i = 0; i < n && !heap; i++) {
		const struct mgame *x = &t->g[o[i]];

		for (j = 0; j < x->nopt; j++) {
			uint32_t y = t->op[x->opt + j];
			const struct mgame *gy = &t->g[y];
			int ok = 1;

			if (y == 0)
				continue;
			for (k = 0; k < gy->nopt && ok; k++)
				ok = in_sorted(o, n, t->op[gy->opt + k]);
			for (k = 0; k < n && ok; k++)
				ok = in_sorted(t->op + gy->opt, gy->nopt, o[k]) ||
				    has_option(t, o[k], y);
			if (ok)
				return y;
		}
	}
	e = cg_bytemap_intern(t->index, o, n * sizeof *o, &isnew);
	if (!isnew)
		return (uint32_t)*cg_bytemap_value(t->index, e);
	if (t->n == t->cap) {
		t->cap *= 2;
		t->g = cg_xreallocarray(t->g, t->cap, sizeof *t->g);
	}
	id = (uint32_t)t->n++;
	*cg_bytemap_value(t->index, e) = id;
	memset(&t->g[id], 0, sizeof t->g[id]);
	t->g[id].opt = (uint32_t)t->nop;
	t->g[id].nopt = (uint32_t)n;
	for (i = 0; i < n; i++)
		op_push(t, o[i]);
	{
		unsigned char *sp = cg_xcalloc(n + 2, 1), *sm = cg_xcalloc(n + 2, 1);

		for (i = 0; i < n; i++) {
			uint32_t a = t->g[o[i]].gp, b = t->g[o[i]].gm;

			if (a < n + 2)
				sp[a] = 1;
			if (b < n + 2)
				sm[b] = 1;
		}
		t->g[id].gp = mex_bits(sp, n + 2);
		t->g[id].gm = mex_bits(sm, n + 2);
		free(sp);
		free(sm);
	}
	t->g[id].nimv = heap ? (uint32_t)n + 1 : 0;
	for (i = 0; i < n; i++)
		if (t->g[o[i]].birthday >= t->g[id].birthday)
			t->g[id].birthday = t->g[o[i]].birthday + 1;
	t->g[id].phylum = (uint8_t)phylum_of(t, id);
	make_genus(t, id);
	return id;
}

void
cg_mtab_genus(const struct cg_mtab *t, uint32_t id, struct cg_buf *out)
{
	const struct mgame *g = &t->g[id];
	const uint32_t *sup = t->gs + g->sup;
	uint32_t i;
	int big = 0;

	cg_buf_addf(out, "%u", g->gp);
	if (g->nsup == 0)
		return;
	cg_buf_addc(out, '^');
	for (i = 0; i < g->nsup; i++)
		if (sup[i] >= 10)
			big = 1;
	if (big)
		cg_buf_addc(out, '(');
	for (i = 0; i < g->nsup; i++)
		cg_buf_addf(out, "%s%u", big && i ? "," : "", sup[i]);
	if (big)
		cg_buf_addc(out, ')');
}

size_t
cg_mtab_count(const struct cg_mtab *t)
{
	return t->n;
}

const uint32_t *
cg_mtab_options(const struct cg_mtab *t, uint32_t g, size_t *n)
{
	*n = t->g[g].nopt;
	return t->op + t->g[g].opt;
}

uint32_t
cg_mtab_birthday(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].birthday;
}

/* *n: its options are *0 .. *(n-1), made once each and kept. */
uint32_t
cg_mtab_nim(struct cg_mtab *t, uint32_t n)
{
	while (t->nnim <= n) {
		uint32_t *o = cg_xmalloc((t->nnim + 1) * sizeof *o), r;

		if (t->nnim > 0)
			memcpy(o, t->nim, t->nnim * sizeof *o);
		r = cg_mtab_canon(t, o, t->nnim);
		free(o);
		if (t->nnim == t->capnim) {
			t->capnim = t->capnim ? 2 * t->capnim : 64;
			t->nim = cg_xreallocarray(t->nim, t->capnim,
			    sizeof *t->nim);
		}
		t->nim[t->nnim++] = r;
	}
	return t->nim[n];
}

uint32_t
cg_mtab_heap_size(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].nimv;
}

int
cg_mtab_is_tame(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].phylum == NIMHEAP || t->g[g].phylum == HER_TAME;
}

int
cg_mtab_is_generally_tame(const struct cg_mtab *t, uint32_t g)
{
	return is_tame(t->g[g].phylum);
}

int
cg_mtab_is_tameable(const struct cg_mtab *t, uint32_t g)
{
	return is_tameable(t->g[g].phylum);
}

int
cg_mtab_is_restive(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].phylum == HER_RESTIVE;
}

int
cg_mtab_is_generally_restive(const struct cg_mtab *t, uint32_t g)
{
	return is_restive(t->g[g].phylum);
}

int
cg_mtab_is_restless(const struct cg_mtab *t, uint32_t g)
{
	return t->g[g].phylum == RESTLESS;
}

struct cg_mtab_form **
cg_mtab_form_slot(struct cg_mtab *t)
{
	return &t->form;
}
