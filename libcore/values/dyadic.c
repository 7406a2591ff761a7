/* dyadic.c - dyadic rationals of any size (see dyadic.h).
 *
 * Small values take the 128-bit fast paths; an operation whose result
 * does not fit a word is done again with GMP and its magnitude interned.
 * The table of magnitudes is chunked (entries never move) and hash-consed
 * under a lock of its own: big values are rare, and an entry is complete
 * before its index is handed out. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "values/dyadic.h"
#include "values/canon.h"
#include "base/buf.h"
#include "base/util.h"

#define BIG_CHUNK_BITS 12
#define BIG_CHUNK (1u << BIG_CHUNK_BITS)
#define BIG_MAX_CHUNKS (1u << 19)

struct magnitude {
	mpz_t mag;              /* > 0 */
	long exp;               /* >= 0; mag odd when exp > 0 */
	uint32_t hash;
	uint32_t next;          /* index + 1 of the next in the chain; 0 ends */
};

static struct {
	struct magnitude **chunk;
	uint32_t n;
	uint32_t *head;         /* index + 1; 0: empty */
	uint32_t mask;
} T;
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct magnitude *
entry(int64_t num)
{
	uint64_t i = (uint64_t)(num < 0 ? -num : num) - 1;

	return &T.chunk[i >> BIG_CHUNK_BITS][i & (BIG_CHUNK - 1)];
}

static uint32_t
hash_mag(const mpz_t m, long exp)
{
	size_t i, n = mpz_size(m);
	uint64_t h = 1469598103934665603ull ^ (uint64_t)exp;

	for (i = 0; i < n; i++)
		h = (h ^ (uint64_t)mpz_getlimbn(m, (mp_size_t)i)) *
		    1099511628211ull;
	return (uint32_t)(h ^ (h >> 32));
}

static void
grow_index(void)
{
	uint32_t nmask = T.mask ? 2 * T.mask + 1 : 255, i, j, nx;
	uint32_t *h = cg_xcalloc((size_t)nmask + 1, sizeof *h);

	for (i = 0; T.head != NULL && i <= T.mask; i++)
		for (j = T.head[i]; j != 0; j = nx) {
			struct magnitude *e = (struct magnitude *)entry(j);

			nx = e->next;
			e->next = h[e->hash & nmask];
			h[e->hash & nmask] = j;
		}
	free(T.head);
	T.head = h;
	T.mask = nmask;
}

/* The index + 1 of magnitude m (> 0) with exponent exp, interned. */
static int64_t
intern(const mpz_t m, long exp)
{
	uint32_t h = hash_mag(m, exp), j;
	struct magnitude *e;

	pthread_mutex_lock(&big_lock);
	for (j = T.head != NULL ? T.head[h & T.mask] : 0; j != 0; j = e->next) {
		e = (struct magnitude *)entry(j);
		if (e->hash == h && e->exp == exp && mpz_cmp(e->mag, m) == 0)
			goto out;
	}
	if (T.n == BIG_MAX_CHUNKS * BIG_CHUNK) {
		pthread_mutex_unlock(&big_lock);
		cg_die(CG_EXIT_DATA, "too many large numbers (2^31)");
	}
	if (T.chunk == NULL)
		T.chunk = cg_xcalloc(BIG_MAX_CHUNKS, sizeof *T.chunk);
	if (T.chunk[T.n >> BIG_CHUNK_BITS] == NULL)
		T.chunk[T.n >> BIG_CHUNK_BITS] = cg_xcalloc(BIG_CHUNK,
		    sizeof(struct magnitude));
	if (T.n >= T.mask)
		grow_index();
	j = ++T.n;
	e = (struct magnitude *)entry(j);
	mpz_init_set(e->mag, m);
	e->exp = exp;
	e->hash = h;
	e->next = T.head[h & T.mask];
	T.head[h & T.mask] = j;
out:
	pthread_mutex_unlock(&big_lock);
	return (int64_t)j;
}

void
cg_dyadic_to_mpz(struct cg_dyadic x, mpz_t num, long *exp)
{
	if (x.exp != CG_DYADIC_BIG) {
		mpz_set_si(num, (long)x.num);
		*exp = x.exp;
		return;
	}
	mpz_set(num, entry(x.num)->mag);
	if (x.num < 0)
		mpz_neg(num, num);
	*exp = entry(x.num)->exp;
}

static void __attribute__((noreturn))
too_big(void)
{
	cg_canon_data_error("number beyond %d bits", CG_DYADIC_MAX_BITS);
}

/* num / 2^exp reduced into *d; -1 when past the bound (the caller frees
 * its temporaries, then calls too_big). */
static int
reduce(const mpz_t num, long exp, struct cg_dyadic *d)
{
	mpz_t m;
	mp_bitcnt_t z;

	d->num = 0;
	d->exp = 0;
	if (mpz_sgn(num) == 0)
		return 0;
	mpz_init(m);
	z = mpz_scan1(num, 0);
	if ((long)z > exp)
		z = (mp_bitcnt_t)exp;
	mpz_tdiv_q_2exp(m, num, z);
	exp -= (long)z;
	if (exp <= 62 && mpz_fits_slong_p(m) && mpz_cmp_si(m, LONG_MIN) != 0) {
		d->num = mpz_get_si(m);
		d->exp = (int)exp;
		mpz_clear(m);
		return 0;
	}
	if (mpz_sizeinbase(m, 2) > CG_DYADIC_MAX_BITS ||
	    exp > CG_DYADIC_MAX_BITS) {
		mpz_clear(m);
		return -1;
	}
	d->exp = CG_DYADIC_BIG;
	if (mpz_sgn(m) < 0) {
		mpz_neg(m, m);
		d->num = -intern(m, exp);
	} else {
		d->num = intern(m, exp);
	}
	mpz_clear(m);
	return 0;
}

struct cg_dyadic
cg_dyadic_from_mpz(const mpz_t num, long exp)
{
	struct cg_dyadic d;

	if (reduce(num, exp, &d) < 0)
		too_big();
	return d;
}

struct cg_dyadic
cg_dyadic_make(int64_t num, int exp)
{
	struct cg_dyadic d;

	if (exp == CG_DYADIC_BIG) {
		d.num = num;
		d.exp = exp;
		return d;
	}
	if (num == 0)
		exp = 0;
	while (exp > 0 && (num & 1) == 0) {
		num /= 2;
		exp--;
	}
	if (exp > 62 || num == INT64_MIN) {
		mpz_t m;

		int rc;

		mpz_init_set_si(m, (long)num);
		rc = reduce(m, exp, &d);
		mpz_clear(m);
		if (rc < 0)
			too_big();
		return d;
	}
	d.num = num;
	d.exp = exp;
	return d;
}

/* a and b as integers over 2^e, e the larger exponent. */
static long
align_mpz(struct cg_dyadic a, struct cg_dyadic b, mpz_t x, mpz_t y)
{
	long ea, eb, e;

	cg_dyadic_to_mpz(a, x, &ea);
	cg_dyadic_to_mpz(b, y, &eb);
	e = ea > eb ? ea : eb;
	mpz_mul_2exp(x, x, (mp_bitcnt_t)(e - ea));
	mpz_mul_2exp(y, y, (mp_bitcnt_t)(e - eb));
	return e;
}

struct cg_dyadic
cg_dyadic_add(struct cg_dyadic a, struct cg_dyadic b)
{
	struct cg_dyadic d;
	mpz_t x, y;
	long e;
	int rc;

	if (a.exp != CG_DYADIC_BIG && b.exp != CG_DYADIC_BIG) {
		int f = a.exp > b.exp ? a.exp : b.exp;
		/* multiply, not shift: shifting a negative value is undefined */
		__int128 v = (__int128)a.num * ((__int128)1 << (f - a.exp)) +
		    (__int128)b.num * ((__int128)1 << (f - b.exp));

		while (f > 0 && (v & 1) == 0) {
			v /= 2;
			f--;
		}
		if (v <= INT64_MAX && v >= -INT64_MAX)
			return cg_dyadic_make((int64_t)v, f);
	}
	mpz_inits(x, y, NULL);
	e = align_mpz(a, b, x, y);
	mpz_add(x, x, y);
	rc = reduce(x, e, &d);
	mpz_clears(x, y, NULL);
	if (rc < 0)
		too_big();
	return d;
}

struct cg_dyadic
cg_dyadic_neg(struct cg_dyadic a)
{
	a.num = -a.num;
	return a;
}

struct cg_dyadic
cg_dyadic_sub(struct cg_dyadic a, struct cg_dyadic b)
{
	return cg_dyadic_add(a, cg_dyadic_neg(b));
}

struct cg_dyadic
cg_dyadic_half(struct cg_dyadic a)
{
	struct cg_dyadic d;
	mpz_t x;
	long e;
	int rc;

	if (a.num == 0)
		return a;
	if (a.exp != CG_DYADIC_BIG) {
		if ((a.num & 1) == 0 && a.exp == 0) {
			a.num /= 2;
			return a;
		}
		if (a.exp < 62) {
			a.exp++;
			return a;
		}
	}
	mpz_init(x);
	cg_dyadic_to_mpz(a, x, &e);
	rc = reduce(x, e + 1, &d);
	mpz_clear(x);
	if (rc < 0)
		too_big();
	return d;
}

struct cg_dyadic
cg_dyadic_floor(struct cg_dyadic a)
{
	struct cg_dyadic d;
	mpz_t x;
	long e;

	if (a.exp == 0)
		return a;
	if (a.exp != CG_DYADIC_BIG)
		return cg_dyadic_make(a.num >> a.exp, 0); /* gcc: arithmetic */
	mpz_init(x);
	cg_dyadic_to_mpz(a, x, &e);
	mpz_fdiv_q_2exp(x, x, (mp_bitcnt_t)e);
	(void)reduce(x, 0, &d); /* no larger than a */
	mpz_clear(x);
	return d;
}

int
cg_dyadic_cmp_big(struct cg_dyadic a, struct cg_dyadic b)
{
	mpz_t x, y;
	int c;

	if (cg_dyadic_sign(a) != cg_dyadic_sign(b))
		return cg_dyadic_sign(a) < cg_dyadic_sign(b) ? -1 : 1;
	mpz_inits(x, y, NULL);
	align_mpz(a, b, x, y);
	c = mpz_cmp(x, y);
	mpz_clears(x, y, NULL);
	return (c > 0) - (c < 0);
}

long
cg_dyadic_exponent(struct cg_dyadic a)
{
	return a.exp != CG_DYADIC_BIG ? a.exp : entry(a.num)->exp;
}

int
cg_dyadic_is_integer(struct cg_dyadic a)
{
	return cg_dyadic_exponent(a) == 0;
}

int
cg_dyadic_birthday(struct cg_dyadic a, uint64_t *bday)
{
	mpz_t x;
	long e;
	int rc = 0;

	if (a.exp != CG_DYADIC_BIG) {
		uint64_t an = a.num < 0 ? (uint64_t)0 - (uint64_t)a.num :
		    (uint64_t)a.num;

		*bday = a.exp == 0 ? an : 1 + (an >> a.exp) + (uint64_t)a.exp;
		return 0;
	}
	/* |x| for an integer, 1 + floor(|x|) + exp otherwise */
	mpz_init(x);
	cg_dyadic_to_mpz(a, x, &e);
	mpz_abs(x, x);
	if (e > 0) {
		mpz_fdiv_q_2exp(x, x, (mp_bitcnt_t)e);
		mpz_add_ui(x, x, 1 + (unsigned long)e);
	}
	if (mpz_sizeinbase(x, 2) > 64)
		rc = -1;
	else
		*bday = (uint64_t)mpz_get_ui(x);
	mpz_clear(x);
	return rc;
}

size_t
cg_dyadic_export(struct cg_dyadic x, uint64_t *w, long *exp, int *neg)
{
	mpz_t m;
	size_t n = 0;

	mpz_init(m);
	cg_dyadic_to_mpz(x, m, exp);
	*neg = mpz_sgn(m) < 0;
	mpz_abs(m, m);
	if (mpz_sgn(m) != 0)
		mpz_export(w, &n, -1, sizeof *w, 0, 0, m);
	mpz_clear(m);
	return n;
}

int
cg_dyadic_import(const uint64_t *w, size_t n, uint64_t exp, int neg,
    struct cg_dyadic *x)
{
	mpz_t m;
	int rc;

	if (n > CG_DYADIC_MAX_WORDS || exp > CG_DYADIC_MAX_BITS)
		return -1;
	mpz_init(m);
	mpz_import(m, n, -1, sizeof *w, 0, 0, w);
	if (neg)
		mpz_neg(m, m);
	rc = reduce(m, (long)exp, x);
	mpz_clear(m);
	return rc;
}

void
cg_dyadic_print(struct cg_dyadic x, struct cg_buf *out)
{
	mpz_t m;
	long e;
	char *s;

	if (x.exp != CG_DYADIC_BIG) {
		if (x.exp == 0)
			cg_buf_addf(out, "%lld", (long long)x.num);
		else
			cg_buf_addf(out, "%lld/%llu", (long long)x.num,
			    (unsigned long long)1 << x.exp);
		return;
	}
	mpz_init(m);
	cg_dyadic_to_mpz(x, m, &e);
	s = mpz_get_str(NULL, 10, m);
	cg_buf_addstr(out, s);
	free(s);
	if (e > 0) {
		mpz_set_ui(m, 0);
		mpz_setbit(m, (mp_bitcnt_t)e);
		s = mpz_get_str(NULL, 10, m);
		cg_buf_addc(out, '/');
		cg_buf_addstr(out, s);
		free(s);
	}
	mpz_clear(m);
}
