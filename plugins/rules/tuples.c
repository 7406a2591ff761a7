/*
 * tuples.c - heap games whose rules take from several heaps at once
 * (a rule with 'from 2' or more, cgr(5)): a position is a sum of tuples
 * of heaps, "3,5" one tuple, "(3,5)+(1,2)" a sum of two, "3+4" a sum of
 * two tuples of one heap each.
 *
 * A move of a rule with 'from m' makes m one-heap moves of that rule at
 * once, on m different heaps of one tuple: each takes an amount the rule
 * allows and leaves the rest as heaps the rule allows ('leave', a code's
 * digit), and with 'same' all m take the same amount.  The heaps a move
 * leaves stay in the tuple.  Rules never name a place in a tuple, so a
 * tuple is a multiset: heaps of 0 are dropped, and the order of heaps
 * within a tuple, and of tuples within a sum, is no part of the game.
 *
 * Bytes: every heap a 4-byte little-endian size (as plugins/lib/heaps.h
 * writes a sum of heaps), with bit 31 set when the next heap belongs to
 * the same tuple.  So a sum of single heaps has the bytes it has in a
 * file without such rules.
 *
 * Options: the number of heaps m upwards; each choice of m heaps of a
 * tuple in increasing order (tuples in order); each rule with that m in
 * the order of the file; amounts upwards, the first heap's slowest; then
 * the heaps left as lib/takebreak.h orders them.  With m = 1 this is the
 * order of a sum of heaps.  A move is named by the heaps it takes from
 * (1-based over the whole position) and what each leaves, "1:2,2:4";
 * a one-heap move keeps the name "HEAP:LEFT" of the heap rulesets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "takebreak.h"

#define MORE     0x80000000u  /* the next heap is of the same tuple */
#define MAX_SIZE 0x7fffffffu
#define MAX_FAMILY (1ul << 24)

static uint32_t
size_at(const unsigned char *pos, size_t i)
{
	return get32(pos + 4 * i) & MAX_SIZE;
}

static int
more_at(const unsigned char *pos, size_t i)
{
	return (get32(pos + 4 * i) & MORE) != 0;
}

/* The end (one past the last heap) of the tuple starting at heap i. */
static size_t
tuple_end(const unsigned char *pos, size_t len, size_t i)
{
	while (4 * (i + 1) < len && more_at(pos, i))
		i++;
	return i + 1;
}

static int
tuple_check(const struct cg_context *cx, const unsigned char *pos,
    size_t len)
{
	size_t i;

	if (len % 4 != 0 || (len > 0 && more_at(pos, len / 4 - 1)))
		return cx->host->error(cx->err, 0, "corrupt heap position");
	for (i = 0; i < len / 4; i++)
		if (size_at(pos, i) == 0)
			return cx->host->error(cx->err, 0,
			    "corrupt heap position");
	return CG_OK;
}

/* ------------------------------------------------------------ moves */

struct tgen;

/* The one-heap move of the level-th chosen heap. */
struct level {
	struct tb_gen g;       /* first: tb_gen's fn gets this */
	struct tgen *t;
	int lv;
};

struct tgen {
	const struct rules *r;
	const struct rstate *st;
	const unsigned char *pos;
	size_t len, t0, t1;    /* the tuple: heaps t0..t1-1 */
	const struct rule *ru;
	int m, same;
	uint32_t k;            /* with same: the amount */
	size_t pick[MAX_FROM];
	uint32_t part[MAX_FROM][TB_MAX_PARTS];
	size_t npart[MAX_FROM];
	struct level lev[MAX_FROM];
	int (*fn)(struct tgen *t);  /* a whole move; non-zero stops */
	/* emitting */
	unsigned char *child;
	cg_emit_fn emit;
	void *ctx;
};

/* Does the rule allow taking k (k <= n) from a heap?  Then its mask of
 * heap counts and its constraint. */
static int
rule_allows(const struct rule *ru, const struct rstate *st, uint32_t k,
    uint32_t *mask, int *cons)
{
	const uint32_t *amt;
	size_t na, q;

	*mask = ru->leave;
	*cons = ru->cons;
	if (ru->amt_kind == AMT_ANY)
		return k >= 1;
	if (ru->amt_kind == AMT_PARAM && st->pcode[ru->amt_param] != NULL) {
		const struct code *c = st->pcode[ru->amt_param];

		if (k > c->n || c->digit[k] == 0)
			return 0;
		*mask = c->digit[k];
		*cons = c->cons[k];
		return 1;
	}
	amt = ru->amt_kind == AMT_LIST ? ru->amt : st->pset[ru->amt_param];
	na = ru->amt_kind == AMT_LIST ? ru->namt : st->npset[ru->amt_param];
	for (q = 0; q < na && amt[q] <= k; q++)
		if (amt[q] == k)
			return 1;
	return 0;
}

/* The next amount the rule allows after k (k + 1 first), at most max;
 * 0 when there is none.  Amounts are tried from next_amount(-1). */
static int
next_amount(const struct rule *ru, const struct rstate *st, int64_t k,
    uint32_t max, uint32_t *next)
{
	uint32_t mask;
	int cons;
	int64_t a;

	if (ru->amt_kind == AMT_PARAM && st->pcode[ru->amt_param] != NULL &&
	    st->pcode[ru->amt_param]->n < max)
		max = (uint32_t)st->pcode[ru->amt_param]->n;
	for (a = k + 1; a <= (int64_t)max; a++) {
		if (ru->amt_kind == AMT_LIST || (ru->amt_kind == AMT_PARAM &&
		    st->pcode[ru->amt_param] == NULL)) {
			/* jump along the list rather than counting */
			const uint32_t *amt = ru->amt_kind == AMT_LIST ?
			    ru->amt : st->pset[ru->amt_param];
			size_t na = ru->amt_kind == AMT_LIST ? ru->namt :
			    st->npset[ru->amt_param], q;

			for (q = 0; q < na && amt[q] < a; q++)
				;
			if (q == na || amt[q] > max)
				return 0;
			*next = amt[q];
			return 1;
		}
		if (rule_allows(ru, st, (uint32_t)a, &mask, &cons)) {
			*next = (uint32_t)a;
			return 1;
		}
	}
	return 0;
}

static int level_moves(struct tgen *t, int lv);

/* tb_gen's fn for level lv: note the heaps left, go on to the next. */
static int
level_fn(struct tb_gen *g, const uint32_t *parts, size_t n)
{
	struct level *l = (struct level *)(void *)g;
	struct tgen *t = l->t;

	memcpy(t->part[l->lv], parts, n * sizeof *parts);
	t->npart[l->lv] = n;
	if (l->lv + 1 == t->m)
		return t->fn(t);
	return level_moves(t, l->lv + 1);
}

/* The one-heap moves of the rule on the lv-th chosen heap. */
static int
level_moves(struct tgen *t, int lv)
{
	uint32_t n = size_at(t->pos, t->pick[lv]), k, mask;
	struct tb_gen *g = &t->lev[lv].g;
	int64_t a;
	int rc, cons;

	if (t->same)
		return rule_allows(t->ru, t->st, t->k, &mask, &cons) ?
		    tb_take(g, n, t->k, mask, cons) : 0;
	for (a = -1; next_amount(t->ru, t->st, a, n, &k); a = k) {
		rule_allows(t->ru, t->st, k, &mask, &cons);
		if ((rc = tb_take(g, n, k, mask, cons)) != 0)
			return rc;
	}
	return 0;
}

/* Every move of side on the tuple t0..t1 (set in t), to t->fn. */
static int
tuple_moves(struct tgen *t, enum cg_side side)
{
	const struct rules *r = t->r;
	int bit = side == CG_LEFT ? SIDE_LEFT : SIDE_RIGHT, m, i, j, rc;
	size_t d = t->t1 - t->t0;
	uint32_t min, k;
	int64_t a;

	for (j = 0; j < MAX_FROM; j++) {
		t->lev[j].g.fn = level_fn;
		t->lev[j].t = t;
		t->lev[j].lv = j;
	}
	for (m = 1; m <= MAX_FROM && (size_t)m <= d; m++) {
		for (i = 0; i < r->nrule; i++)
			if ((r->rule[i].side & bit) &&
			    (r->rule[i].from >> m & 1))
				break;
		if (i == r->nrule)
			continue;
		t->m = m;
		for (j = 0; j < m; j++)
			t->pick[j] = t->t0 + (size_t)j;
		for (;;) {
			min = MAX_SIZE;
			for (j = 0; j < m; j++)
				if (size_at(t->pos, t->pick[j]) < min)
					min = size_at(t->pos, t->pick[j]);
			for (i = 0; i < r->nrule; i++) {
				t->ru = &r->rule[i];
				if (!(t->ru->side & bit) ||
				    !(t->ru->from >> m & 1))
					continue;
				t->same = t->ru->same;
				if (!t->same) {
					if ((rc = level_moves(t, 0)) != 0)
						return rc;
					continue;
				}
				for (a = -1; next_amount(t->ru, t->st, a, min,
				    &k); a = k) {
					t->k = k;
					if ((rc = level_moves(t, 0)) != 0)
						return rc;
				}
			}
			/* the next choice of m heaps */
			for (j = m - 1; j >= 0 && t->pick[j] ==
			    t->t1 - (size_t)(m - j); j--)
				;
			if (j < 0)
				break;
			t->pick[j]++;
			for (j++; j < m; j++)
				t->pick[j] = t->pick[j - 1] + 1;
		}
	}
	return 0;
}

/* A move found: the child and its name. */
static int
emit_move(struct tgen *t)
{
	unsigned char *c = t->child;
	char name[640];
	size_t n = t->t0 * 4, w = 0, h, q, start = n;
	int p = 0;

	memcpy(c, t->pos, n);
	for (h = t->t0; h < t->t1; h++) {
		if (p < t->m && t->pick[p] == h) {
			for (q = 0; q < t->npart[p]; q++, n += 4)
				set32(c + n, t->part[p][q] | MORE);
			/* at most MAX_FROM pieces of ",HEAP:" and four
			 * parts: the name always fits */
			w += (size_t)snprintf(name + w, sizeof name - w, "%s%zu:%s",
			    p ? "," : "", h + 1, t->npart[p] ? "" : "0");
			for (q = 0; q < t->npart[p]; q++)
				w += (size_t)snprintf(name + w, sizeof name - w,
				    "%s%u", q ? "+" : "", t->part[p][q]);
			p++;
			continue;
		}
		set32(c + n, size_at(t->pos, h) | MORE);
		n += 4;
	}
	if (n > start)   /* the tuple's last heap ends it */
		set32(c + n - 4, get32(c + n - 4) & MAX_SIZE);
	memcpy(c + n, t->pos + t->t1 * 4, t->len - t->t1 * 4);
	n += t->len - t->t1 * 4;
	return t->emit(t->ctx, c, n, name) ? CG_STOP : 0;
}

static int
found(struct tgen *t)
{
	(void)t;
	return 1;
}

static void
tgen_init(struct tgen *t, const struct cg_context *cx,
    const unsigned char *pos, size_t len)
{
	const struct rstate *st = cx->state;

	memset(t, 0, sizeof *t);
	t->r = st->r;
	t->st = st;
	t->pos = pos;
	t->len = len;
}

int
tuple_hooks_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct rstate *st = cx->state;
	struct tgen t;
	int rc = tuple_check(cx, pos, len);

	if (rc < 0)
		return rc;
	if ((rc = state_child(cx, len + 4 * TB_MAX_PARTS * MAX_FROM)) < 0)
		return rc;
	tgen_init(&t, cx, pos, len);
	t.fn = emit_move;
	t.child = st->child;
	t.emit = emit;
	t.ctx = ctx;
	for (t.t0 = 0; t.t0 < len / 4; t.t0 = t.t1) {
		t.t1 = tuple_end(pos, len, t.t0);
		if (tuple_moves(&t, side))
			return CG_STOP;
	}
	return CG_OK;
}

/* Has anybody a move on the tuple of heaps t0..t1 of pos? */
static int
tuple_live(const struct cg_context *cx, const unsigned char *pos,
    size_t len, size_t t0, size_t t1)
{
	struct tgen t;

	tgen_init(&t, cx, pos, len);
	t.fn = found;
	t.t0 = t0;
	t.t1 = t1;
	return tuple_moves(&t, CG_LEFT) || tuple_moves(&t, CG_RIGHT);
}

/* ------------------------------------------------------- impartial */

/* The amounts of a rule as the parameters give them: a list (NULL for
 * 'any') or a code. */
static void
amounts(const struct rule *ru, const struct rstate *st, const uint32_t **amt,
    size_t *n, const struct code **c)
{
	*amt = NULL;
	*n = 0;
	*c = NULL;
	if (ru->amt_kind == AMT_LIST) {
		*amt = ru->amt;
		*n = ru->namt;
	} else if (ru->amt_kind == AMT_PARAM) {
		*c = st->pcode[ru->amt_param];
		*amt = st->pset[ru->amt_param];
		*n = st->npset[ru->amt_param];
	}
}

/* Do two rules make the same moves? */
static int
same_moves(const struct rule *x, const struct rule *y,
    const struct rstate *st)
{
	const uint32_t *ax, *ay;
	const struct code *cx, *cy;
	size_t nx, ny;

	if ((x->amt_kind == AMT_ANY) != (y->amt_kind == AMT_ANY) ||
	    x->from != y->from || x->same != y->same)
		return 0;
	amounts(x, st, &ax, &nx, &cx);
	amounts(y, st, &ay, &ny, &cy);
	if (cx != NULL || cy != NULL)
		return cx != NULL && cy != NULL &&
		    memcmp(cx, cy, sizeof *cx) == 0;
	return x->leave == y->leave && x->cons == y->cons && nx == ny &&
	    (nx == 0 || memcmp(ax, ay, nx * sizeof *ax) == 0);
}

/* Does each rule of one player alone have its twin among the other's?
 * Then both have the same moves everywhere: the game is impartial. */
int
tuple_impartial(const struct rules *r, const struct rstate *st)
{
	int i, j, found;

	for (i = 0; i < r->nrule; i++) {
		if (r->rule[i].side == SIDE_BOTH)
			continue;
		for (j = 0, found = 0; j < r->nrule && !found; j++)
			found = r->rule[j].side == (SIDE_BOTH ^
			    r->rule[i].side) && same_moves(&r->rule[i],
			    &r->rule[j], st);
		if (!found)
			return 0;
	}
	return 1;
}

/* ------------------------------------------------------------- text */

/* One heap size at text[*i]: appended with MORE set (the caller clears
 * it on the tuple's last heap), or nothing when 0. */
static int
read_heap(const struct cg_context *cx, const char *text, size_t len,
    size_t *i, struct cg_buf *out, size_t *nheaps)
{
	unsigned char b[4];
	size_t start = *i;
	uint32_t v;

	if (*i == len)
		return cx->host->error(cx->err, *i + 1,
		    "expected a heap size, found the end");
	if (!is_digit(text[*i]))
		return cx->host->error(cx->err, *i + 1,
		    "expected a heap size, found '%c'", text[*i]);
	if (read_uint(text, len, i, MAX_SIZE, &v) < 0)
		return cx->host->error(cx->err, start + 1,
		    "heap size too large (at most %u)", MAX_SIZE);
	if (v == 0)
		return CG_OK;
	set32(b, v | MORE);
	(*nheaps)++;
	return cx->host->buf_put(out, b, 4) < 0 ? CG_ENOMEM : CG_OK;
}

static void
skip_blanks(const char *text, size_t len, size_t *i)
{
	while (*i < len && text[*i] == ' ')
		(*i)++;
}

/* End the tuple begun at byte start of out: its last heap has no MORE. */
static void
close_tuple(struct cg_buf *out, size_t start)
{
	if (out->len > start)
		set32(out->data + out->len - 4,
		    get32(out->data + out->len - 4) & MAX_SIZE);
}

/*
 * A sum of tuples, "(3,5)+(1,2)+4", or one tuple written bare, "3,5".
 * A tuple in a sum with others is written in parentheses, so that "3,5+1"
 * means nothing: it would read as (3,5)+1 or 3,(5+1) alike.
 */
int
tuple_hooks_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	size_t i = 0, start, nheaps, terms = 0, bare = 0;
	int rc, paren;

	for (;;) {
		skip_blanks(text, len, &i);
		start = out->len;
		nheaps = 0;
		paren = i < len && text[i] == '(';
		if (paren)
			i++;
		for (;;) {
			skip_blanks(text, len, &i);
			if ((rc = read_heap(cx, text, len, &i, out, &nheaps)) < 0)
				return rc;
			skip_blanks(text, len, &i);
			if (i == len || text[i] != ',')
				break;
			if (!paren && bare == 0)
				bare = i + 1;
			i++;
		}
		close_tuple(out, start);
		terms++;
		if (paren) {
			if (i == len)
				return cx->host->error(cx->err, i + 1,
				    "expected ',' or ')' in a tuple, found the "
				    "end");
			if (text[i] != ')')
				return cx->host->error(cx->err, i + 1,
				    "expected ',' or ')' in a tuple, found '%c'",
				    text[i]);
			i++;
			skip_blanks(text, len, &i);
		}
		if (i == len)
			break;
		if (text[i] != '+')
			return cx->host->error(cx->err, i + 1, "expected '+' "
			    "between games, found '%c'", text[i]);
		if (bare)
			break;
		i++;
	}
	if (bare && (terms > 1 || i < len))
		return cx->host->error(cx->err, bare, "a tuple in a sum is "
		    "written in parentheses, as (3,5)+(1,2)");
	return CG_OK;
}

/* "3,5" alone, else "(3,5)+4"; "0" for no heap. */
int
tuple_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t t0, t1, i;
	int rc = tuple_check(cx, pos, len), lone;

	if (rc < 0)
		return rc;
	if (len == 0)
		return h->buf_putc(out, '0');
	lone = tuple_end(pos, len, 0) == len / 4;
	for (t0 = 0; t0 < len / 4; t0 = t1) {
		t1 = tuple_end(pos, len, t0);
		if (t0 > 0 && h->buf_putc(out, '+') < 0)
			return CG_ENOMEM;
		if (t1 - t0 > 1 && !lone && h->buf_putc(out, '(') < 0)
			return CG_ENOMEM;
		for (i = t0; i < t1; i++)
			if (h->buf_printf(out, "%s%u", i > t0 ? "," : "",
			    size_at(pos, i)) < 0)
				return CG_ENOMEM;
		if (t1 - t0 > 1 && !lone && h->buf_putc(out, ')') < 0)
			return CG_ENOMEM;
	}
	return CG_OK;
}

/* ---------------------------------------------------- canonical form */

static int
cmp_desc(const void *a, const void *b)
{
	uint32_t x = get32(a) & MAX_SIZE, y = get32(b) & MAX_SIZE;

	return x < y ? 1 : x > y ? -1 : 0;
}

struct span {
	const unsigned char *p;
	size_t n;              /* heaps */
};

/* Tuples with their heaps sorted: larger heaps first, then longer. */
static int
cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	size_t i;

	for (i = 0; i < x->n && i < y->n; i++) {
		int c = cmp_desc(x->p + 4 * i, y->p + 4 * i);

		if (c != 0)
			return c;
	}
	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

/*
 * Each tuple with a move for somebody, its heaps largest first; the
 * tuples in the order of cmp_span.  A tuple without moves is 0.
 */
int
tuple_hooks_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	unsigned char *tmp;
	struct span *sp;
	size_t t0, t1, n = 0, w = 0, i, j;
	int rc = tuple_check(cx, pos, len);

	if (rc < 0 || len == 0)
		return rc;
	tmp = h->alloc(len);
	sp = h->alloc(len / 4 * sizeof *sp);
	if (tmp == NULL || sp == NULL) {
		h->free(tmp);
		h->free(sp);
		return CG_ENOMEM;
	}
	for (t0 = 0; t0 < len / 4; t0 = t1) {
		t1 = tuple_end(pos, len, t0);
		if (!tuple_live(cx, pos, len, t0, t1))
			continue;
		memcpy(tmp + w, pos + 4 * t0, 4 * (t1 - t0));
		qsort(tmp + w, t1 - t0, 4, cmp_desc);
		sp[n].p = tmp + w;
		sp[n++].n = t1 - t0;
		w += 4 * (t1 - t0);
	}
	qsort(sp, n, sizeof *sp, cmp_span);
	for (i = 0; i < n && rc == CG_OK; i++)
		for (j = 0; j < sp[i].n && rc == CG_OK; j++) {
			unsigned char b[4];

			set32(b, (get32(sp[i].p + 4 * j) & MAX_SIZE) |
			    (j + 1 < sp[i].n ? MORE : 0));
			if (h->buf_put(out, b, 4) < 0)
				rc = CG_ENOMEM;
		}
	h->free(tmp);
	h->free(sp);
	return rc;
}

/* A sum splits into its tuples; a tuple is one game. */
int
tuple_hooks_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	size_t t0, t1;
	int rc = tuple_check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (t0 = 0; t0 < len / 4; t0 = t1) {
		t1 = tuple_end(pos, len, t0);
		if (tuple_live(cx, pos, len, t0, t1) &&
		    emit(ctx, pos + 4 * t0, 4 * (t1 - t0), NULL))
			return CG_STOP;
	}
	return CG_OK;
}

/* The file's measure, a*counters + b*heaps, over every heap. */
int
tuple_hooks_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t a, int64_t b, uint64_t *m)
{
	int64_t total = 0;
	size_t i;
	int rc = tuple_check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (i = 0; i < len / 4; i++)
		total += a * (int64_t)size_at(pos, i) + b;
	*m = (uint64_t)total;
	return CG_OK;
}

/* ------------------------------------------------------------ family */

/*
 * enumerate("N"): every tuple of at most F heaps of at most N counters
 * each, F the most heaps one rule takes from, once as a multiset (heaps
 * largest first), tuples with a larger heap later.
 */
int
tuple_hooks_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	const struct rules *r = ((const struct rstate *)cx->state)->r;
	unsigned char b[4 * MAX_FROM];
	uint32_t n, h[MAX_FROM];
	uint64_t count = 1;
	int f = 1, i, j, k;

	for (i = 0; i < r->nrule; i++)
		for (j = 2; j <= MAX_FROM; j++)
			if ((r->rule[i].from >> j & 1) && j > f)
				f = j;
	if (family_n(family, 1000000, &n) < 0)
		return cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "a largest heap N, 1..1000000)", family ? family : "");
	/* C(N + F, F) multisets, the empty one left out */
	for (i = 1; i <= f && count <= MAX_FAMILY; i++)
		count = count * (n + (uint64_t)i) / (uint64_t)i;
	if (count - 1 > MAX_FAMILY)
		return cx->host->error(cx->err, 0, "family '%s' too large: "
		    "tuples of %d heaps up to %u are more than %lu", family, f,
		    n, MAX_FAMILY);
	memset(h, 0, sizeof h);
	for (h[0] = 1;;) {
		/* emit h[0] >= h[1] >= ... >= h[f-1], zeros dropped */
		for (k = 0; k < f && h[k] > 0; k++)
			set32(b + 4 * k, h[k] | (k + 1 < f && h[k + 1] > 0 ?
			    MORE : 0));
		if (emit(ctx, b, 4 * (size_t)k, NULL))
			return CG_STOP;
		/* the next: raise the last heap that may grow */
		for (j = f - 1; j > 0 && h[j] == h[j - 1]; j--)
			;
		if (j == 0 && h[0] == n)
			break;
		h[j]++;
		for (k = j + 1; k < f; k++)
			h[k] = 0;
	}
	return CG_OK;
}
