/*
 * game.c - abstract games written as CGSuite game literals, so that
 * values flow through the same pipes as positions: {L|R} with
 * multi-slash nesting, numbers (integers of 64 bits, dyadic fractions),
 * *, *n, ^, ^^, ^n, v, vv, vn, combined atoms (73/16v9*8, ^*6), ^<n>,
 * ^[n], Tiny(G), Miny(G), switches +-G, sums, differences and
 * parentheses, and CGSuite's misere literals *[2], *[[2],0].  The grammar is include/cg/gamelit.h, shared with
 * libcore's canonical store, which reads a literal directly as its
 * value through the cg.value extension.
 *
 * Position bytes are the literal's normalized text: every game in
 * explicit single-slash braces, atoms in CGSuite notation, so that
 * parse(print(p)) == p.  options() gives the literal's real options (a
 * number-up-star atom has its canonical options, a sum moves in one
 * term); decompose() splits a sum into its terms.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "cg/gamelit.h"
#include "cg/value.h"

struct sbuf {
	const struct cg_host *h;
	char *s;
	size_t len, cap;
	int nomem;
};

static int
sb_put(void *ctx, const char *s, size_t n)
{
	struct sbuf *b = ctx;

	if (b->len + n + 1 > b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 64;
		char *p;

		while (nc < b->len + n + 1)
			nc *= 2;
		p = b->h->realloc(b->s, nc);
		if (p == NULL) {
			b->nomem = 1;
			return -1;
		}
		b->s = p;
		b->cap = nc;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

static int
sb_puts(struct sbuf *b, const char *s)
{
	return sb_put(b, s, strlen(s));
}

static void
sb_init(struct sbuf *b, const struct cg_host *h)
{
	memset(b, 0, sizeof *b);
	b->h = h;
	sb_put(b, "", 0);
}

static void
sb_free(struct sbuf *b)
{
	if (b->s)
		b->h->free(b->s);
	b->s = NULL;
}

/*
 * Where option texts go, one at a time, so that a game with millions of
 * options (*81812216) is listed in constant memory and stops as soon as
 * the host says so: a sum's and a negative's options are wrapped around
 * their part's as they come, and the last sink normalizes and emits.
 * take() owns b (frees it); nonzero stops the listing.
 */
struct sink {
	int (*take)(struct sink *k, struct sbuf *b);
	const struct cg_host *h;
};

static int
out_put(void *ctx, const char *s, size_t n)
{
	return sb_put(ctx, s, n);
}

static void
print_node(const struct gl_tree *t, uint32_t id, struct sbuf *b)
{
	struct gl_out o = { out_put, b };

	if (gl_print(t, id, &o) < 0)
		b->nomem = 1;
}

struct atomctx {
	int side;
	struct sink *k;
};

static int
on_atom(void *ctx, int side, int64_t num, int exp, int64_t up, uint64_t nim)
{
	struct atomctx *a = ctx;
	struct sbuf b;
	struct gl_out o;

	if (side != a->side)
		return 0;
	sb_init(&b, a->k->h);
	o.put = out_put;
	o.ctx = &b;
	gl_print_atom(&o, num, exp, up, nim);
	return a->k->take(a->k, &b);
}

/* Options of x + n.^ + *k whose number x passes 64 bits (GL_BIG): the
 * forms of gl_nus_options, with x's +-1 or +-2^-e done on its limbs. */
struct bigctx {
	int side;
	struct sink *k;
	const struct gl_tree *t;
	const struct gl_node *nd;
};

static int
on_big(void *ctx, int side, int64_t num, int exp, int64_t up, uint64_t nim)
{
	struct bigctx *a = ctx;
	struct sbuf b;
	struct gl_out o = { out_put, &b };

	(void)num;
	(void)exp;
	if (side != a->side)
		return 0;
	sb_init(&b, a->k->h);
	if (gl_print_big(&o, a->t->al, (int)a->nd->a, a->t->list + a->nd->first,
	    a->nd->nl, a->nd->exp, up, nim) < 0)
		b.nomem = 1;
	return a->k->take(a->k, &b);
}

static int
big_options(const struct gl_tree *t, const struct gl_node *nd, int side,
    struct sink *k0)
{
	struct bigctx a = { side, k0, t, nd };
	struct sbuf b;
	struct gl_out o = { out_put, &b };
	uint32_t *l;
	size_t n = nd->nl, s;
	int neg = (int)nd->a, exp = nd->exp, grow, rc;

	if (nd->up != 0 || nd->nim != 0)
		/* x passes through every option: those of n.^ + *k */
		return gl_nus_options(0, 0, nd->up, nd->nim, on_big, &a);
	/* integers: {n-1 |} or {| n+1}; else {x - 2^-e | x + 2^-e} */
	if (exp == 0 && (side == 0) == neg)
		return 0;
	/* the magnitude grows by 1 when moving away from zero */
	grow = exp == 0 ? 0 : (side == 0) == neg;
	sb_init(&b, k0->h);
	l = t->al->realloc(NULL, (n + 1) * sizeof *l);
	if (l == NULL) {
		b.nomem = 1;
		return k0->take(k0, &b);
	}
	memcpy(l, t->list + nd->first, n * sizeof *l);
	n = grow ? gl_limbs_inc(l, n) : gl_limbs_dec(l, n);
	if (exp > 0 && n > 0) {
		s = gl_limbs_tz(l, n);
		if (s > (size_t)exp)
			s = (size_t)exp;
		n = gl_limbs_shr(l, n, s);
		exp -= (int)s;
	}
	if (gl_print_big(&o, t->al, neg && n > 0, l, n, exp, 0, 0) < 0)
		b.nomem = 1;
	t->al->free(l);
	rc = k0->take(k0, &b);
	return rc;
}

/* An option of summand k of a sum: the sum with that summand replaced. */
struct sumsink {
	struct sink k;
	struct sink *out;
	const struct gl_tree *t;
	const struct gl_node *nd;
	uint32_t at;
};

static int
sum_take(struct sink *k, struct sbuf *opt)
{
	struct sumsink *w = (struct sumsink *)k;
	struct sbuf b;
	uint32_t j;

	sb_init(&b, k->h);
	b.nomem |= opt->nomem;
	for (j = 0; j < w->nd->nl && !b.nomem; j++) {
		sb_puts(&b, j > 0 ? "+(" : "(");
		if (j == w->at)
			sb_puts(&b, opt->s);
		else
			print_node(w->t, w->t->list[w->nd->first + j], &b);
		sb_puts(&b, ")");
	}
	sb_free(opt);
	return w->out->take(w->out, &b);
}

/* An option of the negated game, negated. */
struct negsink {
	struct sink k;
	struct sink *out;
};

static int
neg_take(struct sink *k, struct sbuf *opt)
{
	struct negsink *w = (struct negsink *)k;
	struct sbuf b;

	sb_init(&b, k->h);
	b.nomem |= opt->nomem;
	if (!b.nomem) {
		sb_puts(&b, "-(");
		sb_puts(&b, opt->s);
		sb_puts(&b, ")");
	}
	sb_free(opt);
	return w->out->take(w->out, &b);
}

/* Option texts (not yet normalized) of node id for side, into k;
 * nonzero when k stopped the listing. */
static int
node_options(const struct gl_tree *t, uint32_t id, int side, struct sink *k0)
{
	const struct gl_node *nd = &t->node[id];
	struct sbuf b;
	uint32_t k;
	char tmp[48];

	switch (nd->kind) {
	case GL_ATOM: {
		struct atomctx a = { side, k0 };

		return gl_nus_options(nd->num, nd->exp, nd->up, nd->nim,
		    on_atom, &a);
	}
	case GL_BIG:
		return big_options(t, nd, side, k0);
	case GL_BRACE:
		for (k = 0; k < (side == 0 ? nd->nl : nd->nr); k++) {
			sb_init(&b, k0->h);
			print_node(t, t->list[nd->first + (side == 0 ? 0 :
			    nd->nl) + k], &b);
			if (k0->take(k0, &b))
				return 1;
		}
		return 0;
	case GL_SUM:
		for (k = 0; k < nd->nl; k++) {
			struct sumsink w = { { sum_take, k0->h }, k0, t, nd, k };

			if (node_options(t, t->list[nd->first + k], side, &w.k))
				return 1;
		}
		return 0;
	case GL_NEG: {
		struct negsink w = { { neg_take, k0->h }, k0 };

		return node_options(t, nd->a, !side, &w.k);
	}
	case GL_SWITCH:
		sb_init(&b, k0->h);
		if (side == 1)
			sb_puts(&b, "-(");
		print_node(t, nd->a, &b);
		if (side == 1)
			sb_puts(&b, ")");
		return k0->take(k0, &b);
	case GL_SWITCHES:
		for (k = 0; k < nd->nl; k++) {
			sb_init(&b, k0->h);
			if (side == 1)
				sb_puts(&b, "-(");
			print_node(t, t->list[nd->first + k], &b);
			if (side == 1)
				sb_puts(&b, ")");
			if (k0->take(k0, &b))
				return 1;
		}
		return 0;
	case GL_TINY:
		sb_init(&b, k0->h);
		if (side == 0) {
			sb_puts(&b, "0");
		} else {
			sb_puts(&b, "{0|-(");
			print_node(t, nd->a, &b);
			sb_puts(&b, ")}");
		}
		return k0->take(k0, &b);
	case GL_MINY:
		sb_init(&b, k0->h);
		if (side == 1) {
			sb_puts(&b, "0");
		} else {
			sb_puts(&b, "{");
			print_node(t, nd->a, &b);
			sb_puts(&b, "|0}");
		}
		return k0->take(k0, &b);
	case GL_POW:
		if (nd->up == 0)
			return 0;
		sb_init(&b, k0->h);
		if (side == 0)
			sb_puts(&b, "0");
		else if (nd->up == 1)
			sb_puts(&b, "*");
		else {
			snprintf(tmp, sizeof tmp, "*-(^[%lld])",
			    (long long)nd->up - 1);
			sb_puts(&b, tmp);
		}
		return k0->take(k0, &b);
	case GL_MISERE:
	case GL_MLIST:
		/* impartial: the same options for both sides */
		if (nd->kind == GL_MISERE && nd->nl == 1)
			return node_options(t, t->list[nd->first], side, k0);
		for (k = 0; k < nd->nl; k++) {
			struct gl_out o = { out_put, &b };

			sb_init(&b, k0->h);
			if (gl_print_melem(t, t->list[nd->first + k], &o) < 0)
				b.nomem = 1;
			if (k0->take(k0, &b))
				return 1;
		}
		return 0;
	case GL_POWTO:
		if (nd->up == 0)
			return 0;
		sb_init(&b, k0->h);
		if (side == 1)
			sb_puts(&b, "*");
		else if (nd->up == 1)
			sb_puts(&b, "0");
		else {
			snprintf(tmp, sizeof tmp, "^[%lld]",
			    (long long)nd->up - 1);
			sb_puts(&b, tmp);
		}
		return k0->take(k0, &b);
	}
	return 0;
}

/* Parse text into t; report errors through the host. */
static int
parse_tree(const struct cg_context *cx, const char *text, size_t len,
    struct gl_tree *t, struct gl_alloc *al)
{
	al->realloc = cx->host->realloc;
	al->free = cx->host->free;
	gl_init(t, al);
	if (gl_parse(t, text, len) < 0) {
		int nomem = t->nomem;

		cx->host->error(cx->err, t->errcol, "%s", t->errmsg);
		gl_free(t);
		return nomem ? CG_ENOMEM : CG_EPARSE;
	}
	return CG_OK;
}

/* Normalized text of a literal, appended to b. */
static int
normalize(const struct cg_context *cx, const char *text, size_t len,
    struct sbuf *b)
{
	struct gl_tree t;
	struct gl_alloc al;
	int rc;

	if ((rc = parse_tree(cx, text, len, &t, &al)) != CG_OK)
		return rc;
	print_node(&t, t.root, b);
	gl_free(&t);
	return b->nomem ? CG_ENOMEM : CG_OK;
}

static int
game_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	struct sbuf b;
	int rc;

	sb_init(&b, cx->host);
	rc = normalize(cx, text, len, &b);
	if (rc == CG_OK && cx->host->buf_put(out, b.s, b.len) < 0)
		rc = CG_ENOMEM;
	sb_free(&b);
	return rc;
}

static int
game_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return cx->host->buf_put(out, pos, len) < 0 ? CG_ENOMEM : CG_OK;
}

/* The last sink: each option normalized and emitted. */
struct emitsink {
	struct sink k;
	const struct cg_context *cx;
	cg_emit_fn emit;
	void *ctx;
	int rc;
};

static int
emit_take(struct sink *k, struct sbuf *opt)
{
	struct emitsink *e = (struct emitsink *)k;
	struct sbuf b;

	if (opt->nomem) {
		sb_free(opt);
		e->rc = CG_ENOMEM;
		return 1;
	}
	sb_init(&b, k->h);
	e->rc = normalize(e->cx, opt->s, opt->len, &b);
	sb_free(opt);
	if (e->rc == CG_OK && e->emit(e->ctx, (const unsigned char *)b.s,
	    b.len, NULL))
		e->rc = CG_STOP;
	sb_free(&b);
	return e->rc != CG_OK;
}

static int
game_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct gl_tree t;
	struct gl_alloc al;
	struct emitsink e = { { emit_take, cx->host }, cx, emit, ctx, CG_OK };
	int rc;

	if ((rc = parse_tree(cx, (const char *)pos, len, &t, &al)) != CG_OK)
		return rc;
	node_options(&t, t.root, side == CG_LEFT ? 0 : 1, &e.k);
	gl_free(&t);
	return e.rc;
}

static int
game_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	struct gl_tree t;
	struct gl_alloc al;
	const struct gl_node *nd;
	struct sbuf b;
	uint32_t k;
	int rc;

	if ((rc = parse_tree(cx, (const char *)pos, len, &t, &al)) != CG_OK)
		return rc;
	nd = &t.node[t.root];
	if (nd->kind != GL_SUM) {
		gl_free(&t);
		return emit(ctx, pos, len, NULL) ? CG_STOP : CG_OK;
	}
	for (k = 0; k < nd->nl && rc == CG_OK; k++) {
		sb_init(&b, cx->host);
		print_node(&t, t.list[nd->first + k], &b);
		if (b.nomem)
			rc = CG_ENOMEM;
		else if (emit(ctx, (const unsigned char *)b.s, b.len, NULL))
			rc = CG_STOP;
		sb_free(&b);
	}
	gl_free(&t);
	return rc;
}

/* A literal is its own value: the host reads it into its store instead
 * of expanding it option by option. */
static int
game_value(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return cx->host->buf_put(out, pos, len);
}

static const struct cg_value_ext game_value_ext = {
	.struct_size = sizeof(struct cg_value_ext),
	.value = game_value,
};

static const void *
game_extension(const struct cg_context *cx, const char *name)
{
	(void)cx;
	return strcmp(name, CG_EXT_VALUE) == 0 ? &game_value_ext : NULL;
}

static const struct cg_ruleset game_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "game",
	.version = "1.0",
	.summary = "abstract games as CGSuite game literals ({1|*}+^)",
	.params_help = NULL,
	.flags = CG_DECOMPOSES,
	.parse = game_parse,
	.print = game_print,
	.options = game_options,
	.decompose = game_decompose,
	.extension = game_extension,
};

CG_RULESET_ENTRY(game, game_ruleset)
