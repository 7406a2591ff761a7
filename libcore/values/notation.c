/* notation.c - CGSuite's notation for canonical forms: uptimal
 * expansions (x + d1.^ + d2.^2 + ...), CGSuite's order of options, and the
 * printer (byte-exact; research/cgsuite.md section 3).  Built on the
 * store's public interface; its memo tables are its own, guarded by one
 * recursive lock so that several threads may print. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "values/canon.h"
#include "values/notation.h"
#include "values/gamevec.h"
#include "values/thermo.h"
#include "base/util.h"

#define LOPTS(g, n) cg_canon_options((g), CG_LEFT, (n))
#define ROPTS(g, n) cg_canon_options((g), CG_RIGHT, (n))

/* The parts of a NUS x + up.^ + *nim, x = num / 2^exp. */
struct nusp {
	int64_t num;
	int exp;
	int64_t up;
	uint64_t nim;
};

static struct nusp
nusp(cg_game g)
{
	struct nusp p = { 0, 0, 0, 0 };
	struct cg_dyadic x;

	if (cg_canon_nus_parts(g, &x, &p.up, &p.nim)) {
		p.num = x.num;
		p.exp = x.exp;
	}
	return p;
}

static struct cg_dyadic
nus_x(cg_game g)
{
	struct nusp p = nusp(g);

	return cg_dyadic_make(p.num, p.exp);
}

/* uptimal memo: 0 unknown, 1 none, 2+k expansion k (positive part only
 * for upos; full for ufull); ^<n>, ^[n] */
static struct {
	uint32_t *upos, *ufull;
	size_t upcap;
	struct upx { struct cg_dyadic x; uint64_t nim; int len;
		int64_t *d; } *upx;
	size_t nupx, capupx;
	cg_game *pow, *powto;
	int npow, npowto;
} U;

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* ------------------------------------------------------------ uptimals */

static cg_game
canon_up_powto_unlocked(int n)
{
	cg_game l, r;

	if (n <= 0)
		return cg_canon_zero();
	while (U.npowto <= n) {
		if (U.npowto == 0) {
			U.powto = cg_xreallocarray(U.powto, 1, sizeof *U.powto);
			U.powto[0] = cg_canon_zero();
			U.npowto = 1;
			continue;
		}
		U.powto = cg_xreallocarray(U.powto, U.npowto + 1,
		    sizeof *U.powto);
		l = U.powto[U.npowto - 1];
		r = cg_canon_nus(cg_dyadic_make(0, 0), 0, 1);
		U.powto[U.npowto] = cg_canon_make(&l, 1, &r, 1);
		U.npowto++;
	}
	return U.powto[n];
}

static cg_game
canon_up_pow_unlocked(int n)
{
	cg_game l, r;

	if (n <= 0)
		return cg_canon_zero();
	while (U.npow <= n) {
		if (U.npow == 0) {
			U.pow = cg_xreallocarray(U.pow, 1, sizeof *U.pow);
			U.pow[0] = cg_canon_zero();
			U.npow = 1;
			continue;
		}
		U.pow = cg_xreallocarray(U.pow, U.npow + 1, sizeof *U.pow);
		/* ^<n> = {0 | * - ^[n-1]} */
		l = cg_canon_zero();
		r = cg_canon_sub(cg_canon_nus(cg_dyadic_make(0, 0), 0, 1), cg_canon_up_powto(U.npow - 1));
		U.pow[U.npow] = cg_canon_make(&l, 1, &r, 1);
		U.npow++;
	}
	return U.pow[n];
}

static cg_game
build_uptimal(struct cg_dyadic x, const int64_t *d, int len, uint64_t nim)
{
	cg_game g = cg_canon_nus(x, len > 0 ? d[0] : 0, nim), p;
	int i;
	int64_t k, c;

	for (i = 1; i < len; i++) {
		if (d[i] == 0)
			continue;
		c = d[i] < 0 ? -d[i] : d[i];
		if (c > 64)
			return CG_NO_GAME;
		p = cg_canon_up_pow(i + 1);
		if (d[i] < 0)
			p = cg_canon_neg(p);
		for (k = 0; k < c; k++)
			g = cg_canon_add(g, p);
	}
	return g;
}

static void
up_grow(cg_game g)
{
	if (g >= U.upcap) {
		size_t nc = U.upcap ? U.upcap : 1024;

		while (nc <= g)
			nc *= 2;
		U.upos = cg_xreallocarray(U.upos, nc, sizeof *U.upos);
		U.ufull = cg_xreallocarray(U.ufull, nc, sizeof *U.ufull);
		memset(U.upos + U.upcap, 0, (nc - U.upcap) * sizeof *U.upos);
		memset(U.ufull + U.upcap, 0, (nc - U.upcap) * sizeof *U.ufull);
		U.upcap = nc;
	}
}

static uint32_t
upx_add(struct cg_dyadic x, uint64_t nim, const int64_t *d, int len)
{
	struct upx *u;

	if (U.nupx == U.capupx) {
		U.capupx = U.capupx ? U.capupx * 2 : 256;
		U.upx = cg_xreallocarray(U.upx, U.capupx, sizeof *U.upx);
	}
	u = &U.upx[U.nupx];
	u->x = x;
	u->nim = nim;
	u->len = len;
	u->d = len ? cg_xreallocarray(NULL, (size_t)len, sizeof *u->d) : NULL;
	if (len)
		memcpy(u->d, d, (size_t)len * sizeof *d);
	return (uint32_t)U.nupx++;
}

static uint32_t uptimal_full(cg_game g);

/* Expansion of g found directly (not through -g): index + 2, or 1. */
static uint32_t
uptimal_pos(cg_game g)
{
	const cg_game *lo, *ro;
	size_t nl, nr, i;
	uint32_t ur, ul, res = 1;
	const struct upx *r;
	int maxlen, K, k;
	int64_t *d;

	up_grow(g);
	if (U.upos[g])
		return U.upos[g];
	if (cg_canon_is_nus(g)) {
		struct nusp u_ = nusp(g), *u = &u_;
		int64_t dd = u->up;

		res = upx_add(nus_x(g), u->nim, &dd, u->up != 0) + 2;
		U.upos[g] = res;
		return res;
	}
	ro = ROPTS(g, &nr);
	if (nr != 1)
		goto done;
	cg_canon_enter();
	ur = uptimal_full(ro[0]);
	if (ur < 2) {
		cg_canon_leave();
		goto done;
	}
	maxlen = U.upx[ur - 2].len;
	lo = LOPTS(g, &nl);
	for (i = 0; i < nl; i++) {
		ul = uptimal_full(lo[i]);
		if (ul < 2 || cg_dyadic_cmp(U.upx[ul - 2].x,
		    U.upx[ur - 2].x) != 0) {
			cg_canon_leave();
			goto done;
		}
		if (U.upx[ul - 2].len > maxlen)
			maxlen = U.upx[ul - 2].len;
	}
	cg_canon_leave();
	r = &U.upx[ur - 2];
	K = maxlen + 1;
	d = cg_xcalloc((size_t)K + 1, sizeof *d);
	/* candidate (a) */
	if (r->len > 0 && r->d[r->len - 1] > 0) {
		for (k = 0; k < r->len; k++)
			d[k] = r->d[k] + 1;
		if (build_uptimal(r->x, d, r->len, r->nim ^ 1) == g) {
			res = upx_add(r->x, r->nim ^ 1, d, r->len) + 2;
			free(d);
			goto done;
		}
	}
	r = &U.upx[ur - 2];
	for (k = 0; k < K; k++)
		d[k] = (k < r->len ? r->d[k] : 0) + 1;
	if (build_uptimal(r->x, d, K, r->nim ^ 1) == g)
		res = upx_add(U.upx[ur - 2].x, U.upx[ur - 2].nim ^ 1, d, K) + 2;
	free(d);
done:
	up_grow(g);
	U.upos[g] = res;
	return res;
}

static uint32_t
uptimal_full(cg_game g)
{
	uint32_t res;
	cg_game ng;

	up_grow(g);
	if (U.ufull[g])
		return U.ufull[g];
	res = uptimal_pos(g);
	if (res < 2) {
		ng = cg_canon_neg(g);
		res = uptimal_pos(ng);
		if (res >= 2) {
			const struct upx *u = &U.upx[res - 2];
			int64_t *d = u->len ? cg_xreallocarray(NULL,
			    (size_t)u->len, sizeof *d) : NULL;
			int k;

			for (k = 0; k < u->len; k++)
				d[k] = -u->d[k];
			res = upx_add(cg_dyadic_neg(u->x), u->nim, d,
			    u->len) + 2;
			free(d);
		}
	}
	up_grow(g);
	U.ufull[g] = res;
	return res;
}

static int
canon_uptimal_unlocked(cg_game g, struct cg_uptimal *u)
{
	uint32_t k = uptimal_full(g);

	if (k < 2)
		return 0;
	u->x = U.upx[k - 2].x;
	u->nim = U.upx[k - 2].nim;
	u->len = U.upx[k - 2].len;
	u->d = U.upx[k - 2].d;
	return 1;
}

/* ------------------------------------------------------------ ordering */

static int
category(cg_game g)
{
	struct cg_uptimal u;

	if (cg_canon_is_number(g))
		return 1;
	if (cg_canon_is_nimber(g))
		return 2;
	if (cg_canon_uptimal(g, &u))
		return 3;
	return 4;
}

static int order_cmp(cg_game a, cg_game b);

static int
order_qsort(const void *a, const void *b)
{
	return order_cmp(*(const cg_game *)a, *(const cg_game *)b);
}

static void
sorted_side(cg_game g, int side, struct vec *v)
{
	const cg_game *o;
	size_t n, i;

	o = cg_canon_options(g, (enum cg_side)side, &n);
	for (i = 0; i < n; i++)
		vec_push(v, o[i]);
	qsort(v->v, v->n, sizeof *v->v, order_qsort);
}

/* CGSuite's deterministic ordering of options (research/cgsuite.md 3.3). */
static int
order_cmp(cg_game a, cg_game b)
{
	int ca, cb, c, k, s;
	struct cg_uptimal ua = { { 0, 0 }, 0, 0, NULL }, ub = ua;

	if (a == b)
		return 0;
	ca = category(a);
	cb = category(b);
	if (ca != cb)
		return ca < cb ? -1 : 1;
	switch (ca) {
	case 1:
		return cg_dyadic_cmp(nus_x(a), nus_x(b));
	case 2:
		return nusp(a).nim < nusp(b).nim ? -1 : 1;
	case 3:
		cg_canon_uptimal(a, &ua);
		cg_canon_uptimal(b, &ub);
		if ((c = cg_dyadic_cmp(ua.x, ub.x)) != 0)
			return c;
		for (k = 0; k < ua.len && k < ub.len; k++)
			if (ua.d[k] != ub.d[k])
				return ua.d[k] < ub.d[k] ? -1 : 1;
		if (ua.len != ub.len)
			return ua.len < ub.len ? -1 : 1;
		if (ua.nim != ub.nim)
			return ua.nim < ub.nim ? -1 : 1;
		return 0;
	}
	cg_canon_enter();
	for (s = 0; s < 2; s++) {
		struct vec va, vb;
		size_t i;

		vec_init(&va);
		vec_init(&vb);
		sorted_side(a, s, &va);
		sorted_side(b, s, &vb);
		c = 0;
		for (i = 0; i < va.n && i < vb.n && c == 0; i++)
			c = order_cmp(va.v[i], vb.v[i]);
		if (c == 0 && va.n != vb.n)
			c = va.n < vb.n ? -1 : 1;
		vec_free(&va);
		vec_free(&vb);
		if (c != 0) {
			cg_canon_leave();
			return c;
		}
	}
	cg_canon_leave();
	return 0;
}

static int
canon_order_unlocked(cg_game a, cg_game b)
{
	return order_cmp(a, b);
}

/* ------------------------------------------------------------ printing */

static void
print_atom(struct cg_buf *out, struct cg_dyadic x, int64_t up, uint64_t nim)
{
	if (x.num != 0 || (up == 0 && nim == 0))
		cg_dyadic_print(x, out);
	if (up == 1)
		cg_buf_addstr(out, "^");
	else if (up == 2)
		cg_buf_addstr(out, "^^");
	else if (up >= 3)
		cg_buf_addf(out, "^%lld", (long long)up);
	else if (up == -1)
		cg_buf_addstr(out, "v");
	else if (up == -2)
		cg_buf_addstr(out, "vv");
	else if (up <= -3)
		cg_buf_addf(out, "v%lld", -(long long)up);
	if (nim == 1)
		cg_buf_addstr(out, "*");
	else if (nim >= 2)
		cg_buf_addf(out, "*%llu", (unsigned long long)nim);
}

static int print_game(cg_game g, int brackets, int parens,
    struct cg_buf *out);

/* Text of an uptimal printable as an atom, or 0. */
static int
print_uptimal_atom(cg_game g, int parens, struct cg_buf *out)
{
	struct cg_uptimal u;
	int k, unit = 1, unitsum = 1, compact;
	int64_t s;

	if (cg_canon_is_nus(g)) {
		struct nusp n_ = nusp(g), *n = &n_;

		compact = (n->up == 0 && n->nim == 0) ||
		    (n->num == 0 && n->up == 0) ||
		    (n->num == 0 && n->nim == 0);
		if (parens && !compact)
			cg_buf_addc(out, '(');
		print_atom(out, nus_x(g), n->up, n->nim);
		if (parens && !compact)
			cg_buf_addc(out, ')');
		return 1;
	}
	if (!cg_canon_uptimal(g, &u) || u.len < 2)
		return 0;
	s = u.d[u.len - 1];
	if (s != 1 && s != -1)
		return 0;
	for (k = 0; k < u.len - 1; k++)
		if (u.d[k] != 0)
			unit = 0;
	for (k = 0; k < u.len; k++)
		if (u.d[k] != s)
			unitsum = 0;
	if (!unit && !unitsum)
		return 0;
	compact = u.x.num == 0 && u.nim == 0;
	if (parens && !compact)
		cg_buf_addc(out, '(');
	if (u.x.num != 0)
		cg_dyadic_print(u.x, out);
	cg_buf_addf(out, unit ? "%c<%d>" : "%c[%d]", s > 0 ? '^' : 'v',
	    u.len);
	if (u.nim == 1)
		cg_buf_addc(out, '*');
	else if (u.nim > 1)
		cg_buf_addf(out, "*%llu", (unsigned long long)u.nim);
	if (parens && !compact)
		cg_buf_addc(out, ')');
	return 1;
}

static struct cg_dyadic
mean_of(cg_game g)
{
	if (cg_canon_is_nus(g))
		return nus_x(g);
	return cg_thermo_mean(g);
}

static int
print_game(cg_game g, int brackets, int parens, struct cg_buf *out)
{
	const cg_game *lo, *ro, *o2;
	size_t nl, nr, n2, n3, i;
	struct vec side[2];
	int s, slashes = 1, c;

	if (print_uptimal_atom(g, parens, out))
		return 0;
	cg_canon_enter();
	lo = LOPTS(g, &nl);
	ro = ROPTS(g, &nr);
	/* switch: g = -g */
	if (cg_canon_neg(g) == g) {
		cg_buf_addstr(out, "+-");
		if (nl == 1) {
			print_game(lo[0], 1, 1, out);
		} else {
			vec_init(&side[0]);
			sorted_side(g, 0, &side[0]);
			cg_buf_addc(out, '{');
			for (i = 0; i < side[0].n; i++) {
				if (i)
					cg_buf_addc(out, ',');
				print_game(side[0].v[i], 1, 0, out);
			}
			cg_buf_addc(out, '}');
			vec_free(&side[0]);
		}
		cg_canon_leave();
		return 0;
	}
	/* Tiny: {x || x | y}, mean(y) < x */
	if (nl == 1 && nr == 1 && cg_canon_is_number(lo[0]) &&
	    !cg_canon_is_nus(ro[0])) {
		cg_game x = lo[0], h = ro[0];

		o2 = LOPTS(h, &n2);
		ROPTS(h, &n3);
		if (n2 == 1 && n3 == 1 && o2[0] == x) {
			cg_game y = ROPTS(h, &n3)[0];

			if (cg_dyadic_cmp(mean_of(y), nus_x(x)) < 0) {
				if (parens)
					cg_buf_addc(out, '(');
				if (nusp(x).num != 0)
					cg_dyadic_print(nus_x(x), out);
				cg_buf_addstr(out, "Tiny(");
				print_game(cg_canon_sub(x, y), 1, 0, out);
				cg_buf_addc(out, ')');
				if (parens)
					cg_buf_addc(out, ')');
				cg_canon_leave();
				return 0;
			}
		}
	}
	/* Miny: {{z | x} | x}, mean(z) > x */
	if (nl == 1 && nr == 1 && cg_canon_is_number(ro[0]) &&
	    !cg_canon_is_nus(lo[0])) {
		cg_game x = ro[0], h = lo[0];

		LOPTS(h, &n2);
		o2 = ROPTS(h, &n3);
		if (n2 == 1 && n3 == 1 && o2[0] == x) {
			cg_game z = LOPTS(h, &n2)[0];

			if (cg_dyadic_cmp(mean_of(z), nus_x(x)) > 0) {
				if (parens)
					cg_buf_addc(out, '(');
				if (nusp(x).num != 0)
					cg_dyadic_print(nus_x(x), out);
				cg_buf_addstr(out, "Miny(");
				print_game(cg_canon_sub(z, x), 1, 0, out);
				cg_buf_addc(out, ')');
				if (parens)
					cg_buf_addc(out, ')');
				cg_canon_leave();
				return 0;
			}
		}
	}
	/* general {L|R}: print into a scratch buffer to learn the slashes */
	{
		struct cg_buf body;

		cg_buf_init(&body);
		for (s = 0; s < 2; s++) {
			vec_init(&side[s]);
			sorted_side(g, s, &side[s]);
		}
		for (s = 0; s < 2; s++) {
			if (s == 1) {
				/* slashes known after both sides: placeholder */
				cg_buf_addc(&body, '\0');
			}
			for (i = 0; i < side[s].n; i++) {
				if (i)
					cg_buf_addc(&body, ',');
				c = print_game(side[s].v[i], side[s].n >= 2, 0,
				    &body);
				if (c + 1 > slashes)
					slashes = c + 1;
			}
		}
		{
			int braced = brackets || slashes == 4, k;

			if (braced)
				cg_buf_addc(out, '{');
			for (i = 0; i < body.len; i++) {
				if (body.data[i] != '\0') {
					cg_buf_addc(out, body.data[i]);
					continue;
				}
				for (k = 0; k < slashes; k++)
					cg_buf_addc(out, '|');
			}
			if (braced) {
				cg_buf_addc(out, '}');
				slashes = 0;
			}
		}
		cg_buf_free(&body);
		for (s = 0; s < 2; s++)
			vec_free(&side[s]);
	}
	cg_canon_leave();
	return slashes;
}

static void
canon_print_unlocked(cg_game g, struct cg_buf *out)
{
	print_game(g, 1, 0, out);
}

cg_game
cg_canon_up_powto(int n)
{
	cg_game r;

	pthread_mutex_lock(&lock);
	r = canon_up_powto_unlocked(n);
	pthread_mutex_unlock(&lock);
	return r;
}

cg_game
cg_canon_up_pow(int n)
{
	cg_game r;

	pthread_mutex_lock(&lock);
	r = canon_up_pow_unlocked(n);
	pthread_mutex_unlock(&lock);
	return r;
}

int
cg_canon_uptimal(cg_game g, struct cg_uptimal *u)
{
	int r;

	pthread_mutex_lock(&lock);
	r = canon_uptimal_unlocked(g, u);
	pthread_mutex_unlock(&lock);
	return r;
}

int
cg_canon_order(cg_game a, cg_game b)
{
	int r;

	pthread_mutex_lock(&lock);
	r = canon_order_unlocked(a, b);
	pthread_mutex_unlock(&lock);
	return r;
}

void
cg_canon_print(cg_game g, struct cg_buf *out)
{
	pthread_mutex_lock(&lock);
	canon_print_unlocked(g, out);
	pthread_mutex_unlock(&lock);
}
