/*
 * gamelit.h - the game-literal grammar (CGSuite's game specifiers), shared
 * by the `game' ruleset plugin and by libcore's canonical store.
 *
 * Why a header-only parser: the plugin needs the grammar to parse, print
 * and move in literals, and libcore needs it to read a literal straight
 * into the canonical store (a literal such as -1823437481924 must not be
 * expanded as a chain of options) and to read canonical forms back from
 * knowledge bases.  Plugins may not link against libcore, and libcore
 * must not depend on a plugin being present, so the one grammar lives
 * here as static functions that both include.  It builds a small syntax
 * tree (struct gl_tree); what to do with the tree is up to the includer.
 *
 * Grammar (spaces are ignored between tokens):
 *   expr    := ["+-" | "-"] term { ("+" | "-" | "+-") term }
 *   term    := atom | "{" slashed "}" | "(" expr ")" | "+-" term
 *            | "+-{" expr {"," expr} "}"      (CGSuite's +-{1,{2|0}})
 *            | [number] ("Tiny" | "Miny") "(" expr ")"
 *            | "*[" [elem {"," elem}] "]"   (a misere literal, below)
 *   atom    := [-]number [arrows] [star] | arrows [star] | star
 *   number  := digits ["/" digits]          (denominator a power of two;
 *                                            any size to GL_BIG_MAX_BITS)
 *   arrows  := "^" | "^^" | "^"digits | "v" | "vv" | "v"digits
 *            | "^<"digits">" | "v<"digits">" | "^["digits"]" | "v["digits"]"
 *   star    := "*" [digits]
 *   slashed := lists of expressions separated by "," and by runs of "|";
 *              the longest run splits Left from Right (it must be unique).
 * "a+-b" is a plus the switch +-b, as in CGSuite ("3+-1" = {4|2}).
 * Misere literals are CGSuite's input for misere canonical games:
 *   elem    := digits                      (the nim heap of that size)
 *            | "[" [elem {"," elem}] "]"   (the game with those options)
 *            | expr                        (that game, e.g. *[4]+*[2])
 * and "*[" list "]" is the game with the list's elements as options, or
 * the element itself when the list has exactly one: *[2] is the heap *2,
 * *[[2]] the game whose one option is *2, *[4,2] = {*4,*2}.  They are
 * impartial games like any other; only their reading is CGSuite's.
 * Nodes are stored children first, so evaluating nodes in index order is
 * a bottom-up pass without recursion.
 */
#ifndef CG_GAMELIT_H
#define CG_GAMELIT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* every helper is static; an includer may use only some of them */
#define GL_STATIC static __attribute__((unused))

enum gl_kind {
	GL_ATOM,    /* num/2^exp + up.^ + *nim */
	GL_BRACE,   /* { list[first..first+nl) | list[first+nl..+nr) } */
	GL_SUM,     /* list[first..first+nl) summed */
	GL_NEG,     /* -a */
	GL_SWITCH,  /* +-a = {a | -a} */
	GL_TINY,    /* Tiny(a) = {0 || 0 | -a} */
	GL_MINY,    /* Miny(a) = {a | 0 || 0} */
	GL_POW,     /* ^<n> (up-nth); n = up */
	GL_POWTO,   /* ^[n] (up to the nth); n = up */
	GL_SWITCHES,/* +-{a,b,...} = {a,b,... | -a,-b,...}; list[first..+nl) */
	GL_BIG,     /* an ATOM whose number passes 64 bits: its magnitude in
	             * 32-bit limbs list[first..first+nl), least significant
	             * first, the sign in a (1: negative), over 2^exp */
	GL_MISERE,  /* *[e1,...]: elements list[first..first+nl); one element
	             * is itself, else the game with them as options */
	GL_MLIST    /* [e1,...] inside a misere literal: the game with the
	             * elements as options; an element that is a bare ATOM
	             * *n is written n */
};

#define GL_MAX_DEPTH 4000      /* nesting of braces and parentheses */
#define GL_MAX_UP ((int64_t)1 << 40)
#define GL_MAX_NIM ((uint64_t)1 << 40)
/* Numbers: numerators and denominators of at most this many bits. */
#define GL_BIG_MAX_BITS 65536
#define GL_BIG_MAX_LIMBS (GL_BIG_MAX_BITS / 32 + 2)

struct gl_node {
	int kind;
	int exp;              /* ATOM: denominator exponent (0..62); BIG: to
	                       * GL_BIG_MAX_BITS */
	int64_t num;          /* ATOM: numerator, lowest terms */
	int64_t up;           /* ATOM: up multiple; POW/POWTO: n */
	uint64_t nim;         /* ATOM: nimber */
	uint32_t a;           /* NEG, SWITCH, TINY, MINY: the operand */
	uint32_t first, nl, nr;
};

struct gl_alloc {
	void *(*realloc)(void *p, size_t n);
	void (*free)(void *p);
};

struct gl_tree {
	const struct gl_alloc *al;
	struct gl_node *node;
	uint32_t n, cap;
	uint32_t *list;
	uint32_t nlist, caplist;
	uint32_t root;
	/* parser state */
	const char *s;
	size_t len, i;
	int depth;
	int nomem;
	/* error */
	size_t errcol;        /* 1-based */
	char errmsg[160];
};

GL_STATIC void
gl_init(struct gl_tree *t, const struct gl_alloc *al)
{
	memset(t, 0, sizeof *t);
	t->al = al;
}

GL_STATIC void
gl_free(struct gl_tree *t)
{
	if (t->node)
		t->al->free(t->node);
	if (t->list)
		t->al->free(t->list);
	t->node = NULL;
	t->list = NULL;
	t->n = t->cap = t->nlist = t->caplist = 0;
}

GL_STATIC int
gl_err(struct gl_tree *t, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
GL_STATIC int
gl_err(struct gl_tree *t, size_t at, const char *fmt, ...)
{
	va_list ap;

	if (t->errmsg[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(t->errmsg, sizeof t->errmsg, fmt, ap);
		va_end(ap);
		t->errcol = at + 1;
	}
	return -1;
}

GL_STATIC int64_t
gl_new(struct gl_tree *t, int kind)
{
	if (t->n == t->cap) {
		uint32_t nc = t->cap ? t->cap * 2 : 32;
		struct gl_node *nn = t->al->realloc(t->node, nc * sizeof *nn);

		if (nn == NULL) {
			t->nomem = 1;
			return gl_err(t, t->i, "out of memory");
		}
		t->node = nn;
		t->cap = nc;
	}
	memset(&t->node[t->n], 0, sizeof t->node[t->n]);
	t->node[t->n].kind = kind;
	return t->n++;
}

GL_STATIC int
gl_push_list(struct gl_tree *t, uint32_t v)
{
	if (t->nlist == t->caplist) {
		uint32_t nc = t->caplist ? t->caplist * 2 : 64;
		uint32_t *nl = t->al->realloc(t->list, nc * sizeof *nl);

		if (nl == NULL) {
			t->nomem = 1;
			return gl_err(t, t->i, "out of memory");
		}
		t->list = nl;
		t->caplist = nc;
	}
	t->list[t->nlist++] = v;
	return 0;
}

GL_STATIC void
gl_skip(struct gl_tree *t)
{
	while (t->i < t->len && (t->s[t->i] == ' ' || t->s[t->i] == '\t'))
		t->i++;
}

GL_STATIC int
gl_peek(struct gl_tree *t)
{
	gl_skip(t);
	return t->i < t->len ? (unsigned char)t->s[t->i] : -1;
}

GL_STATIC int
gl_isdigit(int c)
{
	return c >= '0' && c <= '9';
}

/* Digits at i as a non-negative integer below limit. */
GL_STATIC int
gl_digits(struct gl_tree *t, uint64_t limit, uint64_t *v)
{
	size_t start = t->i;

	*v = 0;
	if (t->i >= t->len || !gl_isdigit(t->s[t->i]))
		return gl_err(t, t->i, "expected a number");
	while (t->i < t->len && gl_isdigit(t->s[t->i])) {
		uint64_t d = (uint64_t)(t->s[t->i] - '0');

		if (*v > (limit - d) / 10)
			return gl_err(t, start, "number too large");
		*v = *v * 10 + d;
		t->i++;
	}
	return 0;
}

/* Reduce num/2^exp to lowest terms. */
GL_STATIC void
gl_reduce(int64_t *num, int *exp)
{
	while (*exp > 0 && (*num & 1) == 0) {
		*num /= 2;
		(*exp)--;
	}
}

/* ---- numbers past 64 bits: magnitudes as 32-bit limbs, least
 * significant first, with the few operations the grammar and the game
 * ruleset need (libcore does its arithmetic with GMP) ---- */

GL_STATIC size_t
gl_limbs_bits(const uint32_t *l, size_t n)
{
	while (n > 0 && l[n - 1] == 0)
		n--;
	return n == 0 ? 0 : 32 * (n - 1) + (size_t)(32 - __builtin_clz(l[n - 1]));
}

/* Trailing zero bits of a non-zero magnitude. */
GL_STATIC size_t
gl_limbs_tz(const uint32_t *l, size_t n)
{
	size_t i;

	for (i = 0; i < n && l[i] == 0; i++)
		;
	return i == n ? 0 : 32 * i + (size_t)__builtin_ctz(l[i]);
}

/* l >>= s; the count of limbs left. */
GL_STATIC size_t
gl_limbs_shr(uint32_t *l, size_t n, size_t s)
{
	size_t w = s / 32, b = s % 32, i;

	for (i = 0; i + w < n; i++) {
		uint64_t v = l[i + w];

		if (i + w + 1 < n)
			v |= (uint64_t)l[i + w + 1] << 32;
		l[i] = (uint32_t)(v >> b);
	}
	n = n > w ? n - w : 0;
	while (n > 0 && l[n - 1] == 0)
		n--;
	return n;
}

/* l = l * mul + add; the new count, or 0 past cap limbs (with l != 0). */
GL_STATIC size_t
gl_limbs_muladd(uint32_t *l, size_t n, size_t cap, uint32_t mul,
    uint32_t add)
{
	uint64_t c = add;
	size_t i;

	for (i = 0; i < n; i++) {
		c += (uint64_t)l[i] * mul;
		l[i] = (uint32_t)c;
		c >>= 32;
	}
	if (c != 0) {
		if (n == cap)
			return 0;
		l[n++] = (uint32_t)c;
	}
	return n;
}

/* Magnitude +1 (room for one more limb) and -1 (of a non-zero one). */
GL_STATIC size_t
gl_limbs_inc(uint32_t *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (++l[i] != 0)
			return n;
	l[n] = 1;
	return n + 1;
}

GL_STATIC size_t
gl_limbs_dec(uint32_t *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i]-- != 0)
			break;
	while (n > 0 && l[n - 1] == 0)
		n--;
	return n;
}

/* Decimal digits of l into d (room for 10 * n + 1), l destroyed; the
 * count of digits. */
GL_STATIC size_t
gl_limbs_to_dec(uint32_t *l, size_t n, char *d)
{
	size_t len = 0, i, k;

	while (n > 0 && l[n - 1] == 0)
		n--;
	if (n == 0) {
		d[0] = '0';
		return 1;
	}
	while (n > 0) {
		uint64_t r = 0;
		uint32_t chunk;

		for (i = n; i-- > 0;) {
			uint64_t v = r << 32 | l[i];

			l[i] = (uint32_t)(v / 1000000000u);
			r = v % 1000000000u;
		}
		while (n > 0 && l[n - 1] == 0)
			n--;
		chunk = (uint32_t)r;
		for (k = 0; k < 9 && (n > 0 || chunk != 0); k++) {
			d[len++] = (char)('0' + chunk % 10);
			chunk /= 10;
		}
	}
	for (i = 0; i < len / 2; i++) {
		char c = d[i];

		d[i] = d[len - 1 - i];
		d[len - 1 - i] = c;
	}
	return len;
}

/* Digits s[0..len) as a magnitude in l (room for cap limbs); the count
 * of limbs, or -1 past cap. */
GL_STATIC long
gl_limbs_from_dec(const char *s, size_t len, uint32_t *l, size_t cap)
{
	size_t n = 0, i = 0, k;

	while (i < len) {
		uint32_t chunk = 0, mul = 1;

		for (k = 0; k < 9 && i < len; k++, i++) {
			chunk = chunk * 10 + (uint32_t)(s[i] - '0');
			mul *= 10;
		}
		if (n == 0 && chunk == 0)
			continue;
		if (n == 0) {
			l[n++] = chunk;
			continue;
		}
		if ((n = gl_limbs_muladd(l, n, cap, mul, chunk)) == 0)
			return -1;
	}
	return (long)n;
}

/*
 * The number whose digits run from ns to ne, over the denominator whose
 * digits run from ds to de (de == ds: none), past 64 bits or 2^62: in
 * lowest terms, as a small number (*big -1) or as limbs pushed onto the
 * list (*big their offset, *nlimbs their count).
 */
GL_STATIC int
gl_big_number(struct gl_tree *t, size_t ns, size_t ne, size_t ds,
    size_t de, int64_t *num, int *exp, int64_t *big, uint32_t *nlimbs)
{
	uint32_t *l;
	size_t n, tz, i, bits = GL_BIG_MAX_BITS;
	long r;
	int rc = 0;

	*big = -1;
	/* 10^19729 passes 2^65536: no need to convert more digits */
	if (ne - ns > 19800 || de - ds > 19800)
		return gl_err(t, ns, "number too large (more than %zu bits)",
		    bits);
	l = t->al->realloc(NULL, GL_BIG_MAX_LIMBS * 2 * sizeof *l);
	if (l == NULL) {
		t->nomem = 1;
		return gl_err(t, ns, "out of memory");
	}
	if (de > ds) {
		uint32_t *dl = l + GL_BIG_MAX_LIMBS;

		r = gl_limbs_from_dec(t->s + ds, de - ds, dl, GL_BIG_MAX_LIMBS);
		if (r < 0 || gl_limbs_bits(dl, (size_t)r) > bits + 1) {
			rc = gl_err(t, ds, "denominator too large (more than %zu "
			    "bits)", bits);
			goto out;
		}
		n = (size_t)r;
		if (n == 0 || gl_limbs_tz(dl, n) + 1 != gl_limbs_bits(dl, n)) {
			rc = gl_err(t, ds, "denominator %.*s%s is not a power "
			    "of 2", (int)(de - ds > 40 ? 40 : de - ds),
			    t->s + ds, de - ds > 40 ? "..." : "");
			goto out;
		}
		*exp = (int)gl_limbs_tz(dl, n);
	}
	r = gl_limbs_from_dec(t->s + ns, ne - ns, l, GL_BIG_MAX_LIMBS);
	if (r < 0 || gl_limbs_bits(l, (size_t)r) > bits) {
		rc = gl_err(t, ns, "number too large (more than %zu bits)",
		    bits);
		goto out;
	}
	n = (size_t)r;
	if (n > 0) {
		tz = gl_limbs_tz(l, n);
		if (tz > (size_t)*exp)
			tz = (size_t)*exp;
		n = gl_limbs_shr(l, n, tz);
		*exp -= (int)tz;
	} else {
		*exp = 0;
	}
	if (n <= 2 && *exp <= 62 && (n < 2 || l[1] < 0x80000000u)) {
		*num = (int64_t)(n > 0 ? l[0] : 0) |
		    (int64_t)(n > 1 ? l[1] : 0) << 32;
		goto out;
	}
	*big = t->nlist;
	*nlimbs = (uint32_t)n;
	for (i = 0; i < n; i++)
		if ((rc = gl_push_list(t, l[i])) < 0)
			goto out;
out:
	t->al->free(l);
	return rc;
}

/* A number: small (num/2^exp, *big -1) or big (see gl_big_number). */
GL_STATIC int
gl_number(struct gl_tree *t, int64_t *num, int *exp, int64_t *big,
    uint32_t *nlimbs)
{
	size_t ns = t->i, ne, ds = 0, de = 0;
	uint64_t v = 0, d = 0;
	int fits = 1;

	*exp = 0;
	*big = -1;
	while (t->i < t->len && gl_isdigit(t->s[t->i])) {
		uint64_t c = (uint64_t)(t->s[t->i++] - '0');

		if (v > ((uint64_t)INT64_MAX - c) / 10)
			fits = 0;
		else
			v = v * 10 + c;
	}
	ne = t->i;
	if (t->i < t->len && t->s[t->i] == '/') {
		ds = ++t->i;
		if (t->i >= t->len || !gl_isdigit(t->s[t->i]))
			return gl_err(t, t->i, "expected a number");
		while (t->i < t->len && gl_isdigit(t->s[t->i])) {
			uint64_t c = (uint64_t)(t->s[t->i++] - '0');

			if (d > (((uint64_t)1 << 62) - c) / 10)
				fits = 0;
			else
				d = d * 10 + c;
		}
		de = t->i;
		if (fits && (d == 0 || (d & (d - 1)) != 0))
			return gl_err(t, ds, "denominator %llu is not a "
			    "power of 2", (unsigned long long)d);
		while (fits && d > 1) {
			d >>= 1;
			(*exp)++;
		}
	}
	if (!fits)
		return gl_big_number(t, ns, ne, ds, de, num, exp, big, nlimbs);
	*num = (int64_t)v;
	gl_reduce(num, exp);
	return 0;
}

/* A number atom node: small, or GL_BIG. */
GL_STATIC int64_t
gl_new_number(struct gl_tree *t, int64_t num, int exp, int64_t big,
    uint32_t nlimbs, int neg)
{
	int64_t id = gl_new(t, big >= 0 ? GL_BIG : GL_ATOM);

	if (id < 0)
		return -1;
	t->node[id].exp = exp;
	if (big >= 0) {
		t->node[id].first = (uint32_t)big;
		t->node[id].nl = nlimbs;
		t->node[id].a = (uint32_t)neg;
	} else {
		t->node[id].num = num;   /* signed already */
	}
	return id;
}

GL_STATIC int64_t gl_expr(struct gl_tree *t);

/* An atom starting at i (after an optional sign handled by the caller);
 * neg says a '-' directly preceded the number. */
GL_STATIC int64_t
gl_atom(struct gl_tree *t, int neg)
{
	int64_t id;
	struct gl_node *nd;
	uint64_t v;
	int64_t num = 0, up = 0, big = -1;
	uint64_t nim = 0;
	uint32_t nlimbs = 0;
	int exp = 0, have = 0, powk = 0;
	size_t start = t->i;
	int c;

	if (t->i < t->len && gl_isdigit(t->s[t->i])) {
		if (gl_number(t, &num, &exp, &big, &nlimbs) < 0)
			return -1;
		have = 1;
		if (neg && big < 0)
			num = -num;
	} else if (neg) {
		return gl_err(t, t->i, "expected a number after '-'");
	}
	/* Tiny / Miny with an optional number in front */
	if (t->i + 4 <= t->len && (memcmp(t->s + t->i, "Tiny", 4) == 0 ||
	    memcmp(t->s + t->i, "Miny", 4) == 0)) {
		int kind = t->s[t->i] == 'T' ? GL_TINY : GL_MINY;
		int64_t arg, k, nd0, sum;

		t->i += 4;
		if (gl_peek(t) != '(')
			return gl_err(t, t->i, "expected '(' after %s",
			    kind == GL_TINY ? "Tiny" : "Miny");
		t->i++;
		if ((arg = gl_expr(t)) < 0)
			return -1;
		if (gl_peek(t) != ')')
			return gl_err(t, t->i, "expected ')'");
		t->i++;
		if ((k = gl_new(t, kind)) < 0)
			return -1;
		t->node[k].a = (uint32_t)arg;
		if (!have)
			return k;
		if ((nd0 = gl_new_number(t, num, exp, big, nlimbs, neg)) < 0)
			return -1;
		if ((sum = gl_new(t, GL_SUM)) < 0)
			return -1;
		t->node[sum].first = t->nlist;
		t->node[sum].nl = 2;
		if (gl_push_list(t, (uint32_t)nd0) < 0 ||
		    gl_push_list(t, (uint32_t)k) < 0)
			return -1;
		return sum;
	}
	c = t->i < t->len ? (unsigned char)t->s[t->i] : -1;
	if (c == '^' || c == 'v') {
		int sign = c == '^' ? 1 : -1;

		t->i++;
		have = 1;
		if (t->i < t->len && (t->s[t->i] == '<' || t->s[t->i] == '[')) {
			char close = t->s[t->i] == '<' ? '>' : ']';

			powk = t->s[t->i] == '<' ? GL_POW : GL_POWTO;
			t->i++;
			if (gl_digits(t, 1u << 20, &v) < 0)
				return -1;
			if (t->i >= t->len || t->s[t->i] != close)
				return gl_err(t, t->i, "expected '%c'", close);
			t->i++;
			up = sign * (int64_t)v;
		} else if (t->i < t->len && t->s[t->i] == c) {
			up = sign;
			while (t->i < t->len && t->s[t->i] == c) {
				t->i++;
				up += sign;
			}
		} else if (t->i < t->len && gl_isdigit(t->s[t->i])) {
			if (gl_digits(t, (uint64_t)GL_MAX_UP, &v) < 0)
				return -1;
			up = sign * (int64_t)v;
		} else {
			up = sign;
		}
	}
	if (t->i < t->len && t->s[t->i] == '*') {
		t->i++;
		have = 1;
		if (t->i < t->len && gl_isdigit(t->s[t->i])) {
			if (gl_digits(t, GL_MAX_NIM, &nim) < 0)
				return -1;
		} else {
			nim = 1;
		}
	}
	if (!have) {
		if (t->i >= t->len)
			return gl_err(t, start, "unexpected end of game");
		return gl_err(t, start, "unexpected '%c'", t->s[t->i]);
	}
	if (t->i < t->len && (gl_isdigit(t->s[t->i]) || t->s[t->i] == '^' ||
	    t->s[t->i] == 'v' || t->s[t->i] == '*' || t->s[t->i] == '/'))
		return gl_err(t, t->i, "unexpected '%c'", t->s[t->i]);
	if (powk) {
		/* x + (+-)^<n> + *k as a sum */
		int64_t p, at, sum, pn;

		if ((p = gl_new(t, powk)) < 0)
			return -1;
		t->node[p].up = up < 0 ? -up : up;
		pn = p;
		if (up < 0) {
			if ((pn = gl_new(t, GL_NEG)) < 0)
				return -1;
			t->node[pn].a = (uint32_t)p;
		}
		if (num == 0 && big < 0 && nim == 0)
			return pn;
		if ((at = gl_new_number(t, num, exp, big, nlimbs, neg)) < 0)
			return -1;
		t->node[at].nim = nim;
		if ((sum = gl_new(t, GL_SUM)) < 0)
			return -1;
		t->node[sum].first = t->nlist;
		t->node[sum].nl = 2;
		if (gl_push_list(t, (uint32_t)at) < 0 ||
		    gl_push_list(t, (uint32_t)pn) < 0)
			return -1;
		return sum;
	}
	if (big >= 0) {
		if ((id = gl_new_number(t, num, exp, big, nlimbs, neg)) < 0)
			return -1;
	} else if ((id = gl_new(t, GL_ATOM)) < 0) {
		return -1;
	}
	nd = &t->node[id];
	nd->num = num;
	nd->exp = exp;
	nd->up = up;
	nd->nim = nim;
	return id;
}

/* Items of a brace body: an expression or a separator. */
struct gl_item {
	int64_t v;   /* node, or -1 for ',' , or -(1+k) for k slashes (k>=1)
	                encoded as v = -1 - k; ',' is v = -1 */
	size_t at;
};

GL_STATIC int64_t gl_build(struct gl_tree *t, struct gl_item *it, size_t lo,
    size_t hi, int as_list, uint32_t *out, size_t *nout);

/* Make a brace node from items[lo, hi) that contain a unique longest run. */
GL_STATIC int64_t
gl_brace_node(struct gl_tree *t, struct gl_item *it, size_t lo, size_t hi)
{
	size_t k, split = hi, nL = 0, nR = 0;
	int64_t best = 0, count = 0, id;
	uint32_t *tmp;

	for (k = lo; k < hi; k++)
		if (it[k].v < -1) {
			int64_t run = -1 - it[k].v;

			if (run > best) {
				best = run;
				count = 1;
				split = k;
			} else if (run == best) {
				count++;
			}
		}
	if (count > 1)
		return gl_err(t, it[split].at, "ambiguous slashes (two runs of "
		    "%lld)", (long long)best);
	tmp = t->al->realloc(NULL, (hi - lo + 2) * sizeof *tmp);
	if (tmp == NULL) {
		t->nomem = 1;
		return gl_err(t, t->i, "out of memory");
	}
	if (gl_build(t, it, lo, split, 1, tmp, &nL) < 0 ||
	    gl_build(t, it, split + 1, hi, 1, tmp + nL, &nR) < 0) {
		t->al->free(tmp);
		return -1;
	}
	if ((id = gl_new(t, GL_BRACE)) < 0) {
		t->al->free(tmp);
		return -1;
	}
	t->node[id].first = t->nlist;
	t->node[id].nl = (uint32_t)nL;
	t->node[id].nr = (uint32_t)nR;
	for (k = 0; k < nL + nR; k++)
		if (gl_push_list(t, tmp[k]) < 0) {
			t->al->free(tmp);
			return -1;
		}
	t->al->free(tmp);
	return id;
}

/* The options one side of a split stands for: a comma list, or, when it
 * still contains slashes, one brace game. */
GL_STATIC int64_t
gl_build(struct gl_tree *t, struct gl_item *it, size_t lo, size_t hi,
    int as_list, uint32_t *out, size_t *nout)
{
	size_t k;
	int slashes = 0, expect = 1;
	int64_t id;

	*nout = 0;
	for (k = lo; k < hi; k++)
		if (it[k].v < -1)
			slashes = 1;
	if (slashes) {
		if ((id = gl_brace_node(t, it, lo, hi)) < 0)
			return -1;
		out[(*nout)++] = (uint32_t)id;
		return 0;
	}
	(void)as_list;
	for (k = lo; k < hi; k++) {
		if (it[k].v == -1) {
			if (expect)
				return gl_err(t, it[k].at, "empty option before ','");
			expect = 1;
		} else {
			out[(*nout)++] = (uint32_t)it[k].v;
			expect = 0;
		}
	}
	if (expect && *nout > 0)
		return gl_err(t, hi > lo ? it[hi - 1].at : t->i,
		    "empty option after ','");
	return 0;
}

GL_STATIC int64_t
gl_braces(struct gl_tree *t, int allow_list)
{
	struct gl_item *it = NULL, *ni;
	size_t n = 0, cap = 0, open = t->i;
	int64_t id;
	int c, any = 0;

	t->i++; /* '{' */
	for (;;) {
		c = gl_peek(t);
		if (c < 0) {
			if (it)
				t->al->free(it);
			return gl_err(t, open, "unclosed '{'");
		}
		if (c == '}')
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			ni = t->al->realloc(it, cap * sizeof *it);
			if (ni == NULL) {
				if (it)
					t->al->free(it);
				t->nomem = 1;
				return gl_err(t, t->i, "out of memory");
			}
			it = ni;
		}
		it[n].at = t->i;
		if (c == ',') {
			t->i++;
			it[n++].v = -1;
		} else if (c == '|') {
			int64_t run = 0;

			while (t->i < t->len && t->s[t->i] == '|') {
				run++;
				t->i++;
			}
			it[n++].v = -1 - run;
			any = 1;
		} else {
			if (n > 0 && it[n - 1].v >= 0) {
				t->al->free(it);
				return gl_err(t, t->i, "expected ',' or '|'");
			}
			if ((id = gl_expr(t)) < 0) {
				t->al->free(it);
				return -1;
			}
			it[n++].v = id;
		}
	}
	if (!any && allow_list && n > 0) {
		/* +-{a,b,...}: a list of Left options of a switch */
		uint32_t tmp0 = t->nlist;
		size_t k, cnt = 0;
		int64_t sw;

		t->i++; /* '}' */
		for (k = 0; k < n; k++)
			if (it[k].v >= 0)
				cnt++;
			else if ((k == 0 || it[k - 1].v < 0) || k == n - 1) {
				size_t at = it[k].at;

				t->al->free(it);
				return gl_err(t, at, "empty option before ','");
			}
		for (k = 0; k < n; k++)
			if (it[k].v >= 0 && gl_push_list(t, (uint32_t)it[k].v) < 0) {
				t->al->free(it);
				return -1;
			}
		t->al->free(it);
		if ((sw = gl_new(t, GL_SWITCHES)) < 0)
			return -1;
		t->node[sw].first = tmp0;
		t->node[sw].nl = (uint32_t)cnt;
		return sw;
	}
	if (!any) {
		if (it)
			t->al->free(it);
		return gl_err(t, open, "game in braces needs a '|'");
	}
	t->i++; /* '}' */
	id = gl_brace_node(t, it, 0, n);
	t->al->free(it);
	return id;
}

/* A misere list at '[': its elements, into a node of kind. */
GL_STATIC int64_t
gl_mlist(struct gl_tree *t, int kind)
{
	uint32_t items[64], *v = items, *nv;
	size_t n = 0, cap = 64, open = t->i, k;
	int64_t id = -1;

	t->i++;                         /* [ */
	if (++t->depth > GL_MAX_DEPTH)
		return gl_err(t, open, "game nested too deeply");
	if (gl_peek(t) == ']') {
		t->i++;
		goto done;
	}
	for (;;) {
		int c = gl_peek(t);
		int64_t e;

		if (c >= '0' && c <= '9') {
			uint64_t nim;

			if (gl_digits(t, GL_MAX_NIM, &nim) < 0 ||
			    (e = gl_new(t, GL_ATOM)) < 0)
				goto fail;
			t->node[e].nim = nim;
		} else if (c == '[') {
			if ((e = gl_mlist(t, GL_MLIST)) < 0)
				goto fail;
		} else if (c < 0) {
			gl_err(t, open, "unclosed '['");
			goto fail;
		} else if ((e = gl_expr(t)) < 0) {
			goto fail;
		}
		if (n == cap) {
			nv = t->al->realloc(v == items ? NULL : v,
			    2 * cap * sizeof *v);
			if (nv == NULL) {
				t->nomem = 1;
				gl_err(t, t->i, "out of memory");
				goto fail;
			}
			if (v == items)
				memcpy(nv, items, sizeof items);
			v = nv;
			cap *= 2;
		}
		v[n++] = (uint32_t)e;
		c = gl_peek(t);
		if (c == ',') {
			t->i++;
			continue;
		}
		if (c == ']') {
			t->i++;
			break;
		}
		gl_err(t, t->i < t->len ? t->i : open, t->i < t->len ?
		    "expected ',' or ']' in a misere list" : "unclosed '['");
		goto fail;
	}
done:
	if ((id = gl_new(t, kind)) < 0)
		goto fail;
	t->node[id].first = t->nlist;
	t->node[id].nl = (uint32_t)n;
	for (k = 0; k < n; k++)
		if (gl_push_list(t, v[k]) < 0) {
			id = -1;
			break;
		}
fail:
	if (v != items)
		t->al->free(v);
	t->depth--;
	return id;
}

GL_STATIC int64_t
gl_term(struct gl_tree *t)
{
	int64_t id, k;
	int c = gl_peek(t);

	if (++t->depth > GL_MAX_DEPTH)
		return gl_err(t, t->i, "game nested too deeply");
	if (c == '{') {
		id = gl_braces(t, 0);
	} else if (c == '(') {
		size_t open = t->i++;

		id = gl_expr(t);
		if (id >= 0 && gl_peek(t) != ')')
			id = gl_err(t, t->i < t->len ? t->i : open,
			    t->i < t->len ? "expected ')'" : "unclosed '('");
		else if (id >= 0)
			t->i++;
	} else if (c == '+' && t->i + 1 < t->len && t->s[t->i + 1] == '-') {
		t->i += 2;
		if (gl_peek(t) == '{') {
			t->depth++;
			id = gl_braces(t, 1);
			t->depth--;
			if (id >= 0 && t->node[id].kind == GL_SWITCHES) {
				t->depth--;
				return id;
			}
		} else {
			id = gl_term(t);
		}
		if (id >= 0) {
			if ((k = gl_new(t, GL_SWITCH)) < 0)
				return -1;
			t->node[k].a = (uint32_t)id;
			id = k;
		}
	} else if (c == '-') {
		t->i++;
		if (t->i < t->len && gl_isdigit(t->s[t->i])) {
			id = gl_atom(t, 1);
		} else {
			id = gl_term(t);
			if (id >= 0) {
				if ((k = gl_new(t, GL_NEG)) < 0)
					return -1;
				t->node[k].a = (uint32_t)id;
				id = k;
			}
		}
	} else if (c == '*' && t->i + 1 < t->len && t->s[t->i + 1] == '[') {
		t->i++;
		id = gl_mlist(t, GL_MISERE);
	} else if (c < 0) {
		id = gl_err(t, t->i, "unexpected end of game");
	} else {
		id = gl_atom(t, 0);
	}
	t->depth--;
	return id;
}

GL_STATIC int64_t
gl_expr(struct gl_tree *t)
{
	uint32_t *terms = NULL, *nt;
	size_t n = 0, cap = 0, k;
	int64_t id, neg, sum;
	int c, op;

	for (;;) {
		if (n > 0) {
			c = gl_peek(t);
			if (c == '+' && t->i + 1 < t->len && t->s[t->i + 1] == '-') {
				op = 2; /* plus a switch: the term parses it */
			} else if (c == '+') {
				t->i++;
				op = 0;
			} else if (c == '-') {
				t->i++;
				op = 1;
			} else {
				break;
			}
		} else {
			op = 0;
		}
		if (op == 1) {
			/* a - b: b is a whole term, not a negative atom */
			if (gl_peek(t) == '-' && !(t->i + 1 < t->len &&
			    gl_isdigit(t->s[t->i + 1]))) {
				id = gl_term(t);
			} else if (gl_peek(t) >= 0 && gl_isdigit(gl_peek(t))) {
				id = gl_atom(t, 0);
			} else {
				id = gl_term(t);
			}
			if (id >= 0) {
				if ((neg = gl_new(t, GL_NEG)) < 0)
					id = -1;
				else {
					t->node[neg].a = (uint32_t)id;
					id = neg;
				}
			}
		} else {
			id = gl_term(t);
		}
		if (id < 0) {
			if (terms)
				t->al->free(terms);
			return -1;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			nt = t->al->realloc(terms, cap * sizeof *nt);
			if (nt == NULL) {
				if (terms)
					t->al->free(terms);
				t->nomem = 1;
				return gl_err(t, t->i, "out of memory");
			}
			terms = nt;
		}
		terms[n++] = (uint32_t)id;
	}
	if (n == 1) {
		id = terms[0];
		t->al->free(terms);
		return id;
	}
	if ((sum = gl_new(t, GL_SUM)) < 0) {
		t->al->free(terms);
		return -1;
	}
	t->node[sum].first = t->nlist;
	for (k = 0; k < n; k++) {
		/* flatten nested sums */
		if (t->node[terms[k]].kind == GL_SUM) {
			uint32_t j, f = t->node[terms[k]].first,
			    m = t->node[terms[k]].nl;

			for (j = 0; j < m; j++)
				if (gl_push_list(t, t->list[f + j]) < 0)
					goto fail;
			t->node[sum].nl += m;
		} else {
			if (gl_push_list(t, terms[k]) < 0)
				goto fail;
			t->node[sum].nl++;
		}
	}
	t->al->free(terms);
	return sum;
fail:
	t->al->free(terms);
	return -1;
}

/* Parse text; 0 on success (t->root set), -1 with errmsg/errcol. */
GL_STATIC int
gl_parse(struct gl_tree *t, const char *s, size_t len)
{
	int64_t id;

	t->s = s;
	t->len = len;
	t->i = 0;
	t->depth = 0;
	t->errmsg[0] = '\0';
	if (gl_peek(t) < 0)
		return gl_err(t, 0, "empty game");
	id = gl_expr(t);
	if (id < 0)
		return -1;
	if (gl_peek(t) >= 0)
		return gl_err(t, t->i, "unexpected '%c'", t->s[t->i]);
	t->root = (uint32_t)id;
	return 0;
}

/* ---- printing (the plugin's normalized text; libcore uses its own
 * printer for canonical forms) ---- */

struct gl_out {
	int (*put)(void *ctx, const char *s, size_t n);
	void *ctx;
};

GL_STATIC int
gl_puts(const struct gl_out *o, const char *s)
{
	return o->put(o->ctx, s, strlen(s));
}

/* An atom x + n.^ + *k in CGSuite notation. */
GL_STATIC int
gl_print_atom(const struct gl_out *o, int64_t num, int exp, int64_t up,
    uint64_t nim)
{
	char b[96];
	int n = 0;

	if (num != 0 || (up == 0 && nim == 0)) {
		if (exp == 0)
			n += snprintf(b + n, sizeof b - n, "%lld", (long long)num);
		else
			n += snprintf(b + n, sizeof b - n, "%lld/%llu",
			    (long long)num, (unsigned long long)1 << exp);
	}
	if (up == 1)
		n += snprintf(b + n, sizeof b - n, "^");
	else if (up == 2)
		n += snprintf(b + n, sizeof b - n, "^^");
	else if (up >= 3)
		n += snprintf(b + n, sizeof b - n, "^%lld", (long long)up);
	else if (up == -1)
		n += snprintf(b + n, sizeof b - n, "v");
	else if (up == -2)
		n += snprintf(b + n, sizeof b - n, "vv");
	else if (up <= -3)
		n += snprintf(b + n, sizeof b - n, "v%lld", -(long long)up);
	if (nim == 1)
		n += snprintf(b + n, sizeof b - n, "*");
	else if (nim >= 2)
		n += snprintf(b + n, sizeof b - n, "*%llu",
		    (unsigned long long)nim);
	return o->put(o->ctx, b, (size_t)n);
}

/* A number past 64 bits, +-l/2^exp (n limbs, left as they are), with
 * its up and star parts, in CGSuite notation. */
GL_STATIC int
gl_print_big(const struct gl_out *o, const struct gl_alloc *al, int neg,
    const uint32_t *l, size_t n, int exp, int64_t up, uint64_t nim)
{
	size_t m = n > (size_t)exp / 32 + 1 ? n : (size_t)exp / 32 + 1, len;
	uint32_t *w = al->realloc(NULL, (m + 1) * sizeof *w);
	char *d = al->realloc(NULL, 10 * (m + 1) + 2);
	int rc = -1;

	if (w == NULL || d == NULL)
		goto out;
	memcpy(w, l, n * sizeof *w);
	d[0] = '-';
	len = gl_limbs_to_dec(w, n, d + 1);
	if (o->put(o->ctx, d + !neg, len + (size_t)neg) < 0)
		goto out;
	if (exp > 0) {
		memset(w, 0, (m + 1) * sizeof *w);
		w[exp / 32] = (uint32_t)1 << (exp % 32);
		d[0] = '/';
		len = gl_limbs_to_dec(w, (size_t)exp / 32 + 1, d + 1);
		if (o->put(o->ctx, d, len + 1) < 0)
			goto out;
	}
	rc = up != 0 || nim != 0 ? gl_print_atom(o, 0, 0, up, nim) : 0;
out:
	al->free(w);
	al->free(d);
	return rc;
}

/* Normalized text of node id: explicit single-slash braces, sums joined
 * so that the text parses back to the same tree.  Recursion depth is
 * bounded by GL_MAX_DEPTH-ish nesting of the parsed text. */
GL_STATIC int
gl_print(const struct gl_tree *t, uint32_t id, const struct gl_out *o)
{
	const struct gl_node *nd = &t->node[id];
	uint32_t k;
	char b[40];

	switch (nd->kind) {
	case GL_ATOM:
		return gl_print_atom(o, nd->num, nd->exp, nd->up, nd->nim);
	case GL_BIG:
		return gl_print_big(o, t->al, (int)nd->a, t->list + nd->first,
		    nd->nl, nd->exp, nd->up, nd->nim);
	case GL_BRACE:
		if (gl_puts(o, "{") < 0)
			return -1;
		for (k = 0; k < nd->nl + nd->nr; k++) {
			if (k == nd->nl) {
				if (gl_puts(o, "|") < 0)
					return -1;
			} else if (k > 0 && gl_puts(o, ",") < 0) {
				return -1;
			}
			if (gl_print(t, t->list[nd->first + k], o) < 0)
				return -1;
		}
		if (nd->nl + nd->nr == nd->nl && gl_puts(o, "|") < 0)
			return -1;
		return gl_puts(o, "}");
	case GL_SUM:
		for (k = 0; k < nd->nl; k++) {
			const struct gl_node *c = &t->node[t->list[nd->first + k]];
			int paren = 0;

			if (k > 0) {
				if (c->kind == GL_SWITCH) {
					/* "a+-b" reads as a plus the switch */
				} else if (c->kind == GL_NEG || (c->kind == GL_ATOM &&
				    c->num < 0) || (c->kind == GL_BIG && c->a) ||
				    c->kind == GL_SUM) {
					if (gl_puts(o, "+(") < 0)
						return -1;
					paren = 1;
				} else if (gl_puts(o, "+") < 0) {
					return -1;
				}
			}
			if (gl_print(t, t->list[nd->first + k], o) < 0)
				return -1;
			if (paren && gl_puts(o, ")") < 0)
				return -1;
		}
		return 0;
	case GL_NEG:
		if (gl_puts(o, "-(") < 0 || gl_print(t, nd->a, o) < 0)
			return -1;
		return gl_puts(o, ")");
	case GL_SWITCH:
		if (gl_puts(o, "+-(") < 0 || gl_print(t, nd->a, o) < 0)
			return -1;
		return gl_puts(o, ")");
	case GL_SWITCHES:
		if (gl_puts(o, "+-{") < 0)
			return -1;
		for (k = 0; k < nd->nl; k++) {
			if (k > 0 && gl_puts(o, ",") < 0)
				return -1;
			if (gl_print(t, t->list[nd->first + k], o) < 0)
				return -1;
		}
		return gl_puts(o, "}");
	case GL_TINY:
	case GL_MINY:
		if (gl_puts(o, nd->kind == GL_TINY ? "Tiny(" : "Miny(") < 0 ||
		    gl_print(t, nd->a, o) < 0)
			return -1;
		return gl_puts(o, ")");
	case GL_POW:
	case GL_POWTO:
		snprintf(b, sizeof b, nd->kind == GL_POW ? "^<%lld>" : "^[%lld]",
		    (long long)nd->up);
		return gl_puts(o, b);
	case GL_MISERE:
	case GL_MLIST:
		if (gl_puts(o, nd->kind == GL_MISERE ? "*[" : "[") < 0)
			return -1;
		for (k = 0; k < nd->nl; k++) {
			const struct gl_node *c = &t->node[t->list[nd->first + k]];
			int paren = c->kind == GL_BIG || (c->kind == GL_ATOM &&
			    (c->num != 0 || c->up != 0));

			if (k > 0 && gl_puts(o, ",") < 0)
				return -1;
			if (c->kind == GL_ATOM && !paren) {
				snprintf(b, sizeof b, "%llu",
				    (unsigned long long)c->nim);
				if (gl_puts(o, b) < 0)
					return -1;
				continue;
			}
			/* a number in a list would read as a nim heap */
			if ((paren && gl_puts(o, "(") < 0) ||
			    gl_print(t, t->list[nd->first + k], o) < 0 ||
			    (paren && gl_puts(o, ")") < 0))
				return -1;
		}
		return gl_puts(o, "]");
	}
	return -1;
}

/* Element id of a misere list as a game of its own: a heap *n, a list
 * [..] as *[[..]], anything else as it is. */
GL_STATIC int
gl_print_melem(const struct gl_tree *t, uint32_t id, const struct gl_out *o)
{
	if (t->node[id].kind != GL_MLIST)
		return gl_print(t, id, o);
	if (gl_puts(o, "*[") < 0 || gl_print(t, id, o) < 0)
		return -1;
	return gl_puts(o, "]");
}

/* ---- canonical options of x + n.^ + *k (number-up-star) ----
 * CGSuite's forms: 0 = {|}; n = {n-1|} (n > 0), {|n+1} (n < 0);
 * m/2^e = {(m-1)/2^e | (m+1)/2^e}; x+*k = {x,x*,...,x*(k-1) | same};
 * x+^* = {x,x* | x}; otherwise, for n >= 1, x+n.^+*k = {x | x+(n-1).^+*(k^1)},
 * and the mirror image for n <= -1.  fn is called with the side
 * (0 Left, 1 Right) and the option's parts; nonzero return stops. */
typedef int (*gl_nus_fn)(void *ctx, int side, int64_t num, int exp,
    int64_t up, uint64_t nim);

GL_STATIC int
gl_nus_options(int64_t num, int exp, int64_t up, uint64_t nim,
    gl_nus_fn fn, void *ctx)
{
	uint64_t j;
	int r;

	if (up == 0 && nim == 0) {
		if (exp == 0) {
			if (num > 0)
				return fn(ctx, 0, num - 1, 0, 0, 0);
			if (num < 0)
				return fn(ctx, 1, num + 1, 0, 0, 0);
			return 0;
		} else {
			int64_t a = num - 1, b = num + 1;
			int ea = exp, eb = exp;

			gl_reduce(&a, &ea);
			gl_reduce(&b, &eb);
			if ((r = fn(ctx, 0, a, ea, 0, 0)) != 0)
				return r;
			return fn(ctx, 1, b, eb, 0, 0);
		}
	}
	if (up == 0) {
		for (j = 0; j < nim; j++)
			if ((r = fn(ctx, 0, num, exp, 0, j)) != 0 ||
			    (r = fn(ctx, 1, num, exp, 0, j)) != 0)
				return r;
		return 0;
	}
	if (up == 1 && nim == 1) {
		if ((r = fn(ctx, 0, num, exp, 0, 0)) != 0 ||
		    (r = fn(ctx, 0, num, exp, 0, 1)) != 0)
			return r;
		return fn(ctx, 1, num, exp, 0, 0);
	}
	if (up == -1 && nim == 1) {
		if ((r = fn(ctx, 0, num, exp, 0, 0)) != 0 ||
		    (r = fn(ctx, 1, num, exp, 0, 0)) != 0)
			return r;
		return fn(ctx, 1, num, exp, 0, 1);
	}
	if (up > 0) {
		if ((r = fn(ctx, 0, num, exp, 0, 0)) != 0)
			return r;
		return fn(ctx, 1, num, exp, up - 1, nim ^ 1);
	}
	if ((r = fn(ctx, 0, num, exp, up + 1, nim ^ 1)) != 0)
		return r;
	return fn(ctx, 1, num, exp, 0, 0);
}


#endif
