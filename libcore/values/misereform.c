/* misereform.c - misere canonical forms in CGSuite's notation, and the
 * properties CGSuite's MisereCanonicalGame has; see misere.h.
 *
 * Every game G pairs with G + *: of the two, the one with the smaller
 * birthday is even, the other odd (CGSuite's ids keep the pair as 2k,
 * 2k + 1).  The printed form and the parts rest on one order of games
 * and on misere subtraction:
 *
 *  - the order compares the even parts by birthday, number of options,
 *    G+, G-, then their options (each list in this order) element by
 *    element; a game and its odd partner are ordered even first.
 *  - G - H, when some X has H + X = G, is read off G's 2-partitions:
 *    the pairs {X, Y} of even games with X + Y = G's even part.  They are
 *    found from the options' 2-partitions (Conway, ONAG ch. 12; Siegel's
 *    method in CGSuite): a candidate part X of G is a part of an option
 *    of G; when every option of X has its complement known and X is a
 *    part of every option of G, the complement is {G' - X, G - X'};
 *    otherwise complements of X's options in the options' partitions are
 *    tried.  Every pair found is checked by adding it up.
 *
 * Printing: a nim heap is its size (&n; from 10 on, as CGSuite writes
 * it); a game is written as a simpler game with subscripts when one of
 * G - *i (i >= 2 of G's parity) or G + *i has a smaller birthday ("2[2]"
 * is *2 + *2, "2[#-2]" is X with X + *2 = 2#), an odd game as its even
 * part with subscript 1; a game of one option is that option with
 * subscript "#"; any other lists its options, last in the order first,
 * in parentheses inside another form.  Subscripts after the first
 * level's base are written in brackets. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "values/misere.h"

#define NONE UINT32_MAX

struct fmemo {
	uint32_t plus1;          /* G + *, + 1 (0: not made) */
	uint32_t sorted, nsorted;/* options in the order, at pool[sorted - 1] */
	uint32_t part, npart;    /* 2-partitions, at pool[part - 1] */
	uint32_t mate;           /* + 1 */
};

struct cg_mtab_form {
	struct fmemo *m;
	size_t cap;
	uint32_t *pool;
	size_t npool, cappool;
};

void
cg_mtab_form_free(struct cg_mtab_form *f)
{
	if (f == NULL)
		return;
	free(f->m);
	free(f->pool);
	free(f);
}

static struct fmemo *
memo(struct cg_mtab *t, uint32_t g)
{
	struct cg_mtab_form **fp = cg_mtab_form_slot(t), *f = *fp;

	if (f == NULL)
		f = *fp = cg_xcalloc(1, sizeof *f);
	if (g >= f->cap)
		f->m = cg_xgrow_zero(f->m, &f->cap, g, sizeof *f->m);
	return &f->m[g];
}

/* Store v[0..n) in the pool; its offset + 1. */
static uint32_t
pool_put(struct cg_mtab *t, const uint32_t *v, size_t n)
{
	struct cg_mtab_form *f = *cg_mtab_form_slot(t);
	uint32_t at = (uint32_t)f->npool + 1;

	/* never a null pool, even for empty lists: they are copied too */
	while (f->npool + n >= f->cappool) {
		f->cappool = f->cappool ? 2 * f->cappool : 1024;
		f->pool = cg_xreallocarray(f->pool, f->cappool, sizeof *f->pool);
	}
	if (n > 0)
		memcpy(f->pool + f->npool, v, n * sizeof *v);
	f->npool += n;
	return at;
}

static const uint32_t *
pool_at(struct cg_mtab *t, uint32_t at)
{
	return (*cg_mtab_form_slot(t))->pool + at - 1;
}

static uint32_t
star(struct cg_mtab *t)
{
	return cg_mtab_nim(t, 1);
}

static uint32_t
plus_star(struct cg_mtab *t, uint32_t g)
{
	struct fmemo *m = memo(t, g);
	uint32_t r;

	if (m->plus1 == 0) {
		r = cg_mtab_add(t, g, star(t));
		memo(t, g)->plus1 = r + 1;
		memo(t, r)->plus1 = g + 1;
	}
	return memo(t, g)->plus1 - 1;
}

static int
is_even(struct cg_mtab *t, uint32_t g)
{
	return cg_mtab_birthday(t, g) < cg_mtab_birthday(t, plus_star(t, g));
}

static uint32_t
even_part(struct cg_mtab *t, uint32_t g)
{
	return is_even(t, g) ? g : plus_star(t, g);
}

static uint32_t
with_parity(struct cg_mtab *t, uint32_t g, int odd)
{
	return odd ? plus_star(t, g) : g;
}

static int
is_nim_heap(struct cg_mtab *t, uint32_t g)
{
	return cg_mtab_heap_size(t, g) != 0;
}

/* ------------------------------------------------------------ order */

static const uint32_t *sorted_options(struct cg_mtab *t, uint32_t g,
    size_t *n);

static int
cmp(struct cg_mtab *t, uint32_t a, uint32_t b)
{
	uint32_t ea, eb, x, y;
	const uint32_t *oa, *ob;
	size_t na, nb, i;

	if (a == b)
		return 0;
	ea = even_part(t, a);
	eb = even_part(t, b);
	if (ea == eb)
		return is_even(t, a) ? -1 : 1;
	x = cg_mtab_birthday(t, ea);
	y = cg_mtab_birthday(t, eb);
	if (x != y)
		return x < y ? -1 : 1;
	(void)cg_mtab_options(t, ea, &na);
	(void)cg_mtab_options(t, eb, &nb);
	if (na != nb)
		return na < nb ? -1 : 1;
	if (cg_mtab_gplus(t, ea) != cg_mtab_gplus(t, eb))
		return cg_mtab_gplus(t, ea) < cg_mtab_gplus(t, eb) ? -1 : 1;
	if (cg_mtab_gminus(t, ea) != cg_mtab_gminus(t, eb))
		return cg_mtab_gminus(t, ea) < cg_mtab_gminus(t, eb) ? -1 : 1;
	for (i = 0; i < na; i++) {
		int c;

		/* the pool moves as lists are made: fetch both again */
		(void)sorted_options(t, eb, &nb);
		oa = sorted_options(t, ea, &na);
		x = oa[i];
		ob = sorted_options(t, eb, &nb);
		y = ob[i];
		if ((c = cmp(t, x, y)) != 0)
			return c;
	}
	return ea < eb ? -1 : 1;   /* equal lists are one game */
}

/* Sort v[0..n) in the order (a merge sort: the order needs t). */
static void
sort_games(struct cg_mtab *t, uint32_t *v, size_t n)
{
	uint32_t *tmp;
	size_t w, lo, i, j, k, mid, hi;

	if (n < 2)
		return;
	tmp = cg_xmalloc(n * sizeof *tmp);
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				tmp[k] = j >= hi || (i < mid &&
				    cmp(t, v[i], v[j]) <= 0) ? v[i++] : v[j++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
	free(tmp);
}

static const uint32_t *
sorted_options(struct cg_mtab *t, uint32_t g, size_t *n)
{
	struct fmemo *m = memo(t, g);

	if (m->sorted == 0) {
		const uint32_t *o = cg_mtab_options(t, g, n);
		uint32_t *v = cg_xmalloc((*n + 1) * sizeof *v), at;

		memcpy(v, o, *n * sizeof *v);
		sort_games(t, v, *n);
		at = pool_put(t, v, *n);
		free(v);
		m = memo(t, g);
		m->sorted = at;
		m->nsorted = (uint32_t)*n;
	}
	*n = m->nsorted;
	return pool_at(t, m->sorted);
}

/* ----------------------------------------------------- 2-partitions */

struct list {
	uint32_t *v;
	size_t n, cap;
};

static void
list_add(struct list *l, uint32_t x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = cg_xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = x;
}

static long
index_of(const uint32_t *v, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return (long)i;
	return -1;
}

static const uint32_t *two_partitions(struct cg_mtab *t, uint32_t g,
    size_t *n);

/* The options' 2-partitions, copied (the pool moves). */
struct optparts {
	uint32_t *v;
	size_t *off, *len;
};

/* Is x + y the even game g?  Then record the pair. */
static int
try_pair(struct cg_mtab *t, uint32_t g, uint32_t x, uint32_t y,
    struct list *p)
{
	if (cg_mtab_add(t, x, y) != g)
		return 0;
	list_add(p, x);
	list_add(p, y);
	return 1;
}

/* One candidate part x of g: its complement, by the rule of the
 * header, when there is one.  Returns 1 when a pair was added. */
static int
find_complement(struct cg_mtab *t, uint32_t g, const uint32_t *opts,
    size_t nopt, const struct optparts *op, uint32_t x, struct list *p)
{
	struct list t1 = { 0 }, cand = { 0 };
	const uint32_t *xo0;
	uint32_t *xo;
	size_t nx, i, j, k;
	int type1 = 1, found = 0;

	xo0 = sorted_options(t, x, &nx);
	xo = cg_xmalloc((nx + 1) * sizeof *xo);
	memcpy(xo, xo0, nx * sizeof *xo);
	for (i = 0; i < nx && type1; i++) {
		uint32_t e = even_part(t, xo[i]);
		long at = index_of(p->v, p->n, e);

		if (at >= 0) {
			list_add(&t1, with_parity(t, p->v[at ^ 1], e != xo[i]));
			continue;
		}
		type1 = 0;
		for (j = 0; j < nopt; j++) {
			long a = index_of(op->v + op->off[j], op->len[j], e);

			if (a >= 0)
				list_add(&cand, op->v[op->off[j] + (size_t)(a ^ 1)]);
		}
	}
	for (i = 0; i < nopt && type1; i++) {
		long at = index_of(op->v + op->off[i], op->len[i], x);

		if (at >= 0) {
			list_add(&t1, with_parity(t, op->v[op->off[i] +
			    (size_t)(at ^ 1)], even_part(t, opts[i]) != opts[i]));
			continue;
		}
		type1 = 0;
		for (k = 0; k < nx; k++) {
			long a = index_of(op->v + op->off[i], op->len[i],
			    even_part(t, xo[k]));

			if (a >= 0)
				list_add(&cand, op->v[op->off[i] + (size_t)(a ^ 1)]);
		}
	}
	if (type1)
		found = try_pair(t, g, x, cg_mtab_canon(t, t1.v, t1.n), p);
	for (i = 0; !found && i < cand.n; i++)
		found = try_pair(t, g, x, cand.v[i], p);
	free(xo);
	free(t1.v);
	free(cand.v);
	return found;
}

static const uint32_t *
two_partitions(struct cg_mtab *t, uint32_t g, size_t *n)
{
	struct fmemo *m = memo(t, g);
	struct list p = { 0 }, cands = { 0 };
	struct optparts op;
	uint32_t *opts, at;
	size_t nopt, i, j, nprime = 0;
	int changed;

	if (m->part != 0) {
		*n = m->npart;
		return pool_at(t, m->part);
	}
	list_add(&p, 0);
	list_add(&p, g);
	{
		const uint32_t *o = sorted_options(t, g, &nopt);

		opts = cg_xmalloc((nopt + 1) * sizeof *opts);
		memcpy(opts, o, nopt * sizeof *opts);
	}
	op.off = cg_xcalloc(nopt + 1, sizeof *op.off);
	op.len = cg_xcalloc(nopt + 1, sizeof *op.len);
	op.v = NULL;
	{
		struct list all = { 0 };

		for (i = 0; i < nopt && nprime < 3; i++) {
			uint32_t e = even_part(t, opts[i]);
			const uint32_t *q;
			size_t nq;

			if (e == 0) {           /* 0 or * is an option: prime */
				nprime = 3;
				break;
			}
			q = two_partitions(t, e, &nq);
			op.off[i] = all.n;
			op.len[i] = nq;
			for (j = 0; j < nq; j++)
				list_add(&all, q[j]);
			if (nq == 2 && (e == opts[i] ||
			    index_of(opts, nopt, e) < 0))
				nprime++;
		}
		op.v = all.v;
	}
	/* with three prime options (a game and its odd partner counted
	 * once) or a unit option, g is prime (Siegel) */
	if (nprime < 3) {
		for (i = 0; i < nopt; i++)
			for (j = 0; j < op.len[i]; j++)
				if (index_of(cands.v, cands.n,
				    op.v[op.off[i] + j]) < 0)
					list_add(&cands, op.v[op.off[i] + j]);
		sort_games(t, cands.v, cands.n);
		do {
			changed = 0;
			for (i = 0; i < cands.n; i++) {
				if (index_of(p.v, p.n, cands.v[i]) >= 0)
					continue;
				if (find_complement(t, g, opts, nopt, &op,
				    cands.v[i], &p))
					changed = 1;
			}
		} while (changed);
	}
	at = pool_put(t, p.v, p.n);
	m = memo(t, g);
	m->part = at;
	m->npart = (uint32_t)p.n;
	*n = p.n;
	free(p.v);
	free(cands.v);
	free(op.v);
	free(op.off);
	free(op.len);
	free(opts);
	return pool_at(t, at);
}

/* G - H: the X with H + X = G, or NONE. */
static uint32_t
subtract(struct cg_mtab *t, uint32_t g, uint32_t h)
{
	size_t n;
	const uint32_t *p = two_partitions(t, even_part(t, g), &n);
	long at = index_of(p, n, even_part(t, h));

	if (at < 0)
		return NONE;
	return with_parity(t, p[at ^ 1], is_even(t, g) != is_even(t, h));
}

static int
is_prime(struct cg_mtab *t, uint32_t g)
{
	size_t n;

	if (g == 0 || g == star(t))
		return 0;
	(void)two_partitions(t, even_part(t, g), &n);
	return n == 2;
}

/* The parts of g as CGSuite lists them: the 2-partitions' members in
 * order found, proper (without 0 and g), or only the primes. */
static void
parts(struct cg_mtab *t, uint32_t g, int proper, int prime, struct list *out)
{
	size_t n, i;
	const uint32_t *p0 = two_partitions(t, even_part(t, g), &n);
	uint32_t *p = cg_xmalloc((n + 1) * sizeof *p);

	memcpy(p, p0, n * sizeof *p);
	for (i = proper ? 2 : 0; i < n; i += 2) {
		if (!prime || is_prime(t, p[i]))
			list_add(out, p[i]);
		if (p[i + 1] != p[i] && (!prime || is_prime(t, p[i + 1])))
			list_add(out, p[i + 1]);
	}
	free(p);
}

/* ---------------------------------------------------------- printing */

static void
digit(struct cg_buf *out, uint32_t d)
{
	if (d < 10)
		cg_buf_addf(out, "%u", d);
	else
		cg_buf_addf(out, "&%u;", d);
}

/* *sub: on entry, whether a subscript must be opened after the base; on
 * return, whether one was. */
static void
print_rec(struct cg_mtab *t, uint32_t g, int paren, int *sub,
    struct cg_buf *out)
{
	uint32_t b = cg_mtab_birthday(t, g), i;
	const uint32_t *o0;
	uint32_t *o;
	size_t n, k;
	int osub;

	if (is_nim_heap(t, g)) {
		digit(out, b);
		if (*sub)
			cg_buf_addc(out, '[');
		return;
	}
	for (i = is_even(t, g) ? 2 : 3; i < b; i += 2) {
		uint32_t d = subtract(t, g, cg_mtab_nim(t, i)), s;

		if (d != NONE && cg_mtab_birthday(t, d) < b) {
			*sub = 1;
			print_rec(t, d, 1, sub, out);
			digit(out, i);
			return;
		}
		s = cg_mtab_add(t, g, cg_mtab_nim(t, i));
		if (cg_mtab_birthday(t, s) < b) {
			*sub = 1;
			print_rec(t, s, 1, sub, out);
			cg_buf_addc(out, '-');
			digit(out, i);
			return;
		}
	}
	if (!is_even(t, g)) {
		*sub = 1;
		print_rec(t, plus_star(t, g), 1, sub, out);
		cg_buf_addc(out, '1');
		return;
	}
	o0 = sorted_options(t, g, &n);
	if (n == 1) {
		print_rec(t, o0[0], 1, sub, out);
		cg_buf_addc(out, '#');
		return;
	}
	o = cg_xmalloc(n * sizeof *o);
	memcpy(o, o0, n * sizeof *o);
	osub = *sub;
	if (paren)
		cg_buf_addc(out, '(');
	for (k = n; k-- > 0;) {
		*sub = 0;
		print_rec(t, o[k], 1, sub, out);
		if (*sub)
			cg_buf_addc(out, ']');
	}
	if (paren)
		cg_buf_addc(out, ')');
	*sub = osub;
	if (*sub)
		cg_buf_addc(out, '[');
	free(o);
}

void
cg_mtab_print(struct cg_mtab *t, uint32_t g, struct cg_buf *out)
{
	int sub = 0;

	cg_buf_addstr(out, "*[");
	print_rec(t, g, 0, &sub, out);
	if (sub)
		cg_buf_addc(out, ']');
	cg_buf_addc(out, ']');
}

static void
print_list(struct cg_mtab *t, const uint32_t *v, size_t n,
    struct cg_buf *out)
{
	size_t i;

	cg_buf_addc(out, '[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			cg_buf_addc(out, ',');
		cg_mtab_print(t, v[i], out);
	}
	cg_buf_addc(out, ']');
}

/* -------------------------------------------------------- properties */

static uint32_t
mate(struct cg_mtab *t, uint32_t g)
{
	const uint32_t *o;
	uint32_t *v, r;
	size_t n, i;

	if (g == 0)
		return star(t);
	if (g == star(t))
		return 0;
	if (memo(t, g)->mate != 0)
		return memo(t, g)->mate - 1;
	o = cg_mtab_options(t, g, &n);
	v = cg_xmalloc(n * sizeof *v);
	memcpy(v, o, n * sizeof *v);
	for (i = 0; i < n; i++)
		v[i] = mate(t, v[i]);
	r = cg_mtab_canon(t, v, n);
	free(v);
	memo(t, g)->mate = r + 1;
	return r;
}

/* G is extraverted when it is a part of the game whose one option is G. */
static int
is_extraverted(struct cg_mtab *t, uint32_t g)
{
	uint32_t one = g;

	return subtract(t, cg_mtab_canon(t, &one, 1), g) != NONE;
}

static int
is_half_tame(struct cg_mtab *t, uint32_t g)
{
	uint32_t d;

	if (cg_mtab_is_generally_tame(t, g))
		return 0;
	d = cg_mtab_add(t, g, g);
	return cg_mtab_is_generally_tame(t, d) && cg_mtab_gplus(t, d) == 0 &&
	    cg_mtab_gminus(t, d) == 0;
}

/* Every partition of g into even primes, in nondecreasing order, each
 * with * at its end when g is odd; printed as a list of lists. */
static void
partitions(struct cg_mtab *t, uint32_t g, struct list *partial,
    struct cg_buf *out, int *first)
{
	struct list pr = { 0 };
	size_t i;

	if (g == 0 || g == star(t)) {
		cg_buf_addstr(out, *first ? "[" : ",[");
		*first = 0;
		for (i = 0; i < partial->n; i++) {
			if (i > 0)
				cg_buf_addc(out, ',');
			cg_mtab_print(t, partial->v[i], out);
		}
		if (g != 0) {
			if (partial->n > 0)
				cg_buf_addc(out, ',');
			cg_mtab_print(t, g, out);
		}
		cg_buf_addc(out, ']');
		return;
	}
	parts(t, g, 0, 1, &pr);
	for (i = 0; i < pr.n; i++) {
		if (partial->n > 0 && cmp(t, partial->v[partial->n - 1],
		    pr.v[i]) > 0)
			continue;
		list_add(partial, pr.v[i]);
		partitions(t, subtract(t, g, pr.v[i]), partial, out, first);
		partial->n--;
	}
	free(pr.v);
}

static const char *const props[] = {
	"canon", "outcome", "genus", "mate", "misere-nim-value", "nim-value",
	"birthday", "tame", "restive", "restless", "half-tame",
	"generally-tame", "generally-restive", "tameable", "extraverted",
	"introverted", "even", "prime", "nim-heap", "options", "parts",
	"partitions", NULL
};

int
cg_mtab_property_known(const char *name)
{
	size_t i;

	for (i = 0; props[i]; i++)
		if (strcmp(props[i], name) == 0)
			return 1;
	return 0;
}

const char *
cg_mtab_property_names(void)
{
	return "canon outcome genus mate misere-nim-value nim-value birthday "
	    "tame restive restless half-tame generally-tame generally-restive "
	    "tameable extraverted introverted even prime nim-heap options "
	    "parts partitions";
}

static void
flag(struct cg_buf *out, int v)
{
	cg_buf_addstr(out, v ? "true" : "false");
}

void
cg_mtab_property(struct cg_mtab *t, uint32_t g, const char *name,
    struct cg_buf *out)
{
	if (strcmp(name, "canon") == 0) {
		cg_mtab_print(t, g, out);
	} else if (strcmp(name, "outcome") == 0) {
		cg_buf_addc(out, cg_mtab_gminus(t, g) == 0 ? 'P' : 'N');
	} else if (strcmp(name, "genus") == 0) {
		cg_mtab_genus(t, g, out);
	} else if (strcmp(name, "mate") == 0) {
		cg_mtab_print(t, mate(t, g), out);
	} else if (strcmp(name, "misere-nim-value") == 0) {
		cg_buf_addf(out, "%u", cg_mtab_gminus(t, g));
	} else if (strcmp(name, "nim-value") == 0) {
		cg_buf_addf(out, "%u", cg_mtab_gplus(t, g));
	} else if (strcmp(name, "birthday") == 0) {
		cg_buf_addf(out, "%u", cg_mtab_birthday(t, g));
	} else if (strcmp(name, "tame") == 0) {
		flag(out, cg_mtab_is_tame(t, g));
	} else if (strcmp(name, "restive") == 0) {
		flag(out, cg_mtab_is_restive(t, g));
	} else if (strcmp(name, "restless") == 0) {
		flag(out, cg_mtab_is_restless(t, g));
	} else if (strcmp(name, "half-tame") == 0) {
		flag(out, is_half_tame(t, g));
	} else if (strcmp(name, "generally-tame") == 0) {
		flag(out, cg_mtab_is_generally_tame(t, g));
	} else if (strcmp(name, "generally-restive") == 0) {
		flag(out, cg_mtab_is_generally_restive(t, g));
	} else if (strcmp(name, "tameable") == 0) {
		flag(out, cg_mtab_is_tameable(t, g));
	} else if (strcmp(name, "extraverted") == 0) {
		flag(out, is_extraverted(t, g));
	} else if (strcmp(name, "introverted") == 0) {
		flag(out, g == 0 || g == star(t));   /* ONAG ch. 12 */
	} else if (strcmp(name, "even") == 0) {
		flag(out, is_even(t, g));
	} else if (strcmp(name, "prime") == 0) {
		flag(out, is_prime(t, g));
	} else if (strcmp(name, "nim-heap") == 0) {
		flag(out, is_nim_heap(t, g));
	} else if (strcmp(name, "options") == 0) {
		size_t n;
		const uint32_t *o0 = sorted_options(t, g, &n);
		uint32_t *o = cg_xmalloc((n + 1) * sizeof *o);

		memcpy(o, o0, n * sizeof *o);   /* printing moves the pool */
		print_list(t, o, n, out);
		free(o);
	} else if (strcmp(name, "parts") == 0) {
		struct list l = { 0 };

		parts(t, g, 1, 0, &l);
		print_list(t, l.v, l.n, out);
		free(l.v);
	} else if (strcmp(name, "partitions") == 0) {
		struct list partial = { 0 };
		int first = 1;

		cg_buf_addc(out, '[');
		partitions(t, g, &partial, out, &first);
		cg_buf_addc(out, ']');
		free(partial.v);
	}
}
